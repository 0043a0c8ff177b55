/*
 * Description: reads fio job files (and fio command-line options after
 * "--") with jobfile_parse() and prints the jobs or the error, for the job
 * file corpus tests. Exit status: 0 parsed, 1 bad input, 2 refused
 * (valid for fio, not modelled by storsim).
 *
 * Usage: jobparse [-v] [--ncpus=N] FILE... [-- --name=x --rw=read ...]
 * The simulated host has 4 CPUs, 4096-byte pages and 8192 MiB unless told.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobfile.h"
#include "util.h"

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

int main(int argc, char **argv)
{
	struct jobfile_env env = { .ncpus = 4, .pagesize = 4096, .mb_memory = 8192 };
	g_autoptr(GPtrArray) files = g_ptr_array_new();
	g_autoptr(GError) err = NULL;
	struct job_list *l;
	bool verbose = false;
	int i, ncmd = 0;
	char **cmd = NULL;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			cmd = argv + i + 1;
			ncmd = argc - i - 1;
			break;
		} else if (strcmp(argv[i], "-v") == 0) {
			verbose = true;
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
	printf("%u jobs\n", l->jobs->len);
	for (guint k = 0; verbose && k < l->jobs->len; k++)
		print_job(job_list_get(l, k));
	job_list_free(l);
	return 0;
}
