/*
 * Description: reads fio job files (and fio command-line options after
 * "--") with jobfile_parse() and prints the jobs or the error, for the job
 * file corpus tests. Exit status: 0 parsed, 1 bad input, 2 refused
 * (valid for fio, not modelled by storsim).
 *
 * Usage: jobparse [-v] [--ncpus=N] [--print=OPTION] FILE... [-- --name=x ...]
 * The simulated host has 4 CPUs, 4096-byte pages and 8192 MiB unless told.
 * --print prints the first job's value of a numeric OPTION in fio's own
 * units (bytes, counts, microseconds, milliseconds for *_msec), to compare
 * with fio --debug=parse.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/fio/jobfile.h"
#include "engine/util.h"

static void print_job(const struct job *j)
{
	const struct job_options *o = &j->o;

	printf("job '%s' (%s:%d) group %u: name=%s rw=%d bs=%" G_GUINT64_FORMAT
	       ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT " size=%" G_GUINT64_FORMAT
	       " iodepth=%u numjobs=%u ioengine=%s direct=%d stonewall=%d\n",
	       j->section, j->file, j->line, j->groupid, o->name, (int)o->rw,
	       o->bs[0], o->bs[1], o->bs[2], o->size, o->iodepth, o->numjobs,
	       fio_ioengine_name(o->ioengine), o->direct, o->stonewall);
	for (guint i = 0; i < j->opts->len; i++) {
		const struct job_opt *p = &g_array_index(j->opts, struct job_opt, i);

		printf("  %s=%s (%s:%d)\n", p->name, p->value, p->file, p->line);
	}
}

static void print_value(const struct job *j, const char *name)
{
	const struct fio_option_def *d = fio_option_find(name);
	const char *base = (const char *)&j->o;
	uint64_t v;

	if (!d) {
		fprintf(stderr, "no option %s\n", name);
		exit(1);
	}
	switch (d->field) {
	case FIELD_NS:
		v = *(const uint64_t *)(base + d->off) /
		    ((d->flags & FOPT_F_MSEC) ? 1000000 : 1000);
		break;
	case FIELD_U32:
		v = *(const unsigned *)(base + d->off);
		break;
	default:	/* FIELD_U64, and sizes stored by their own parser */
		v = *(const uint64_t *)(base + d->off);
		break;
	}
	printf("%" G_GUINT64_FORMAT "\n", v);
}

int main(int argc, char **argv)
{
	struct jobfile_env env = { .ncpus = 4, .pagesize = 4096, .mb_memory = 8192 };
	g_autoptr(GPtrArray) files = g_ptr_array_new();
	g_autoptr(GError) err = NULL;
	struct job_list *l;
	bool verbose = false;
	const char *print = NULL;
	int i, ncmd = 0;
	char **cmd = NULL;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			cmd = argv + i + 1;
			ncmd = argc - i - 1;
			break;
		} else if (strcmp(argv[i], "-v") == 0) {
			verbose = true;
		} else if (g_str_has_prefix(argv[i], "--print=")) {
			print = argv[i] + 8;
		} else if (g_str_has_prefix(argv[i], "--ncpus=")) {
			env.ncpus = (unsigned)atoi(argv[i] + 8);
		} else {
			g_ptr_array_add(files, argv[i]);
		}
	}
	l = jobfile_parse(&env, (char **)files->pdata, (int)files->len, cmd, ncmd, &err);
	if (!l) {
		fprintf(stderr, "%s\n", err->message);
		return err->code == STORSIM_ERROR_UNSUPPORTED ? 2 : 1;
	}
	for (guint w = 0; w < l->warnings->len; w++)
		fprintf(stderr, "%s\n", (char *)g_ptr_array_index(l->warnings, w));
	if (print)
		print_value(job_list_get(l, 0), print);
	else
		printf("%u jobs\n", l->jobs->len);
	for (guint k = 0; verbose && k < l->jobs->len; k++)
		print_job(job_list_get(l, k));
	job_list_free(l);
	return 0;
}
