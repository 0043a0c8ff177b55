/*
 * Description: job file and command-line syntax: comments, sections and
 * global scoping, includes, ${VAR} and $keyword expansion, bare flags,
 * numjobs, stonewall and reporting groups, several job files, command-line
 * jobs, option order (kb_base), locations of options, wait_for, engine
 * options, and that two lists can live side by side.
 *
 * The expected behaviour is fio 3.33's (init.c, options.c; see
 * reference/fio-formats.md sections 1.1 and 1.2).
 */
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "workloads/fio/jobfile.h"
#include "engine/util.h"

static const char *const test_environ[] = { "FIO_BS=16k", "EMPTY=", NULL };

static const struct jobfile_env env = {
	.ncpus = 4, .pagesize = 4096, .mb_memory = 2048, .environ = test_environ,
};

static char *tmpdir;

/* Write name (in the test's directory) and return its path. */
static char *write_file(const char *name, const char *text)
{
	char *path = g_build_filename(tmpdir, name, NULL);

	g_assert_true(g_file_set_contents(path, text, -1, NULL));
	return path;
}

static struct job_list *parse_text(const char *text, GError **err)
{
	return jobfile_parse_buffer(&env, "t.fio", text, strlen(text), NULL, 0, err);
}

static struct job_list *parse_ok(const char *text)
{
	g_autoptr(GError) err = NULL;
	struct job_list *l = parse_text(text, &err);

	if (!l)
		g_error("%s\n---\n%s", err->message, text);
	return l;
}

/* Parsing fails with a message that starts with want_prefix and has want. */
static void parse_fails(const char *text, const char *want_prefix, const char *want)
{
	g_autoptr(GError) err = NULL;
	struct job_list *l = parse_text(text, &err);

	if (l)
		g_error("accepted:\n%s", text);
	if (!g_str_has_prefix(err->message, want_prefix) || !strstr(err->message, want))
		g_error("'%s' does not start with '%s' and contain '%s'", err->message,
			want_prefix, want);
}

static const char *opt_value(const GArray *opts, const char *name)
{
	for (guint i = 0; i < opts->len; i++) {
		const struct job_opt *o = &g_array_index(opts, struct job_opt, i);

		if (strcmp(o->name, name) == 0)
			return o->value;
	}
	return NULL;
}

static void test_comments(void)
{
	struct job_list *l = parse_ok("; a comment\n"
				      "# another\n"
				      "[job] ; after a section\n"
				      "   direct=1   # inline comment\n"
				      "bs=8k;64k\n"
				      "\n"
				      "\t  \n");
	struct job *j = job_list_get(l, 0);

	g_assert_cmpuint(l->jobs->len, ==, 1);
	g_assert_cmpstr(j->section, ==, "job");
	g_assert_true(j->o.direct);
	g_assert_cmpstr(opt_value(j->opts, "direct"), ==, "1");
	/* the line is cut at ';' before '#' */
	g_assert_cmpuint(j->o.bs[FIO_DDIR_WRITE], ==, 8192);
	job_list_free(l);
}

static void test_crlf_lines(void)
{
	struct job_list *l = parse_ok("[job]\r\niodepth=8\r\n");

	g_assert_cmpuint(job_list_get(l, 0)->o.iodepth, ==, 8);
	job_list_free(l);
}

static void test_global_scoping(void)
{
	struct job_list *l = parse_ok("[a]\n"
				      "[global]\n"
				      "iodepth=8\n"
				      "[b]\n"
				      "[global-two]\n"
				      "bs=16k\n"
				      "[c]\n"
				      "iodepth=2\n");

	g_assert_cmpuint(l->jobs->len, ==, 3);
	/* a global section applies to the jobs after it only */
	g_assert_cmpuint(job_list_get(l, 0)->o.iodepth, ==, 1);
	g_assert_cmpuint(job_list_get(l, 1)->o.iodepth, ==, 8);
	g_assert_cmpuint(job_list_get(l, 1)->o.bs[0], ==, 4096);
	/* a section whose name starts with "global" is global too */
	g_assert_cmpuint(job_list_get(l, 2)->o.bs[0], ==, 16384);
	g_assert_cmpuint(job_list_get(l, 2)->o.iodepth, ==, 2);
	g_assert_cmpuint(l->global_opts->len, ==, 2);
	g_assert_cmpstr(opt_value(l->global_opts, "iodepth"), ==, "8");
	job_list_free(l);
}

static void test_section_errors(void)
{
	g_autofree char *long_name = g_strnfill(256, 'x');
	g_autofree char *ok_name = g_strnfill(255, 'x');
	g_autofree char *text_long = g_strdup_printf("[%s]\n", long_name);
	g_autofree char *text_ok = g_strdup_printf("[%s]\n", ok_name);

	parse_fails("bs=4k\n[job]\n", "t.fio:1: option 'bs': ", "outside of any [section]");
	parse_fails("[job]\n[]\n", "t.fio:2: ", "empty section name");
	parse_fails("[job\n", "t.fio:1: ", "a section header is [name]");
	parse_fails(text_long, "t.fio:1: ", "longer than 255 characters");
	job_list_free(parse_ok(text_ok));
	parse_fails("[global]\nbs=4k\n", "", "no job defined");
}

static void test_nul_byte(void)
{
	static const char text[] = "[a]\nbs=4k\n\0[b]\n";
	g_autoptr(GError) err = NULL;

	g_assert_null(jobfile_parse_buffer(&env, "t.fio", text, sizeof(text) - 1, NULL, 0, &err));
	g_assert_cmpstr(err->message, ==, "t.fio:3: contains a NUL byte; not a job file");
}

static void test_bad_lines(void)
{
	parse_fails("[job]\nbs= 4k\n", "t.fio:2: option 'bs': ", "blank after '='");
	parse_fails("[job]\n=4k\n", "t.fio:2: ", "no option name");
	parse_fails("[job]\nblocksze=4k\n", "t.fio:2: option 'blocksze': ",
		    "unknown option; did you mean 'blocksize'?");
	parse_fails("[job]\ndirect\n", "t.fio:2: option 'direct': ", "needs a value");
	job_list_free(parse_ok("[job]\nbs =4k\n"));
}

static void test_env_expansion(void)
{
	struct job_list *l = parse_ok("[job]\n"
				      "bs=${FIO_BS}\n"
				      "description=a${NOPE}b${EMPTY}c $FIO_BS ${}\n");
	struct job *j = job_list_get(l, 0);

	g_assert_cmpuint(j->o.bs[0], ==, 16384);
	/* undefined is empty; $VAR without braces and ${} stay as written */
	g_assert_cmpstr(j->o.description, ==, "abc $FIO_BS ${}");
	/* fio's "job options" show the expanded value */
	g_assert_cmpstr(opt_value(j->opts, "bs"), ==, "16k");
	job_list_free(l);
}

static void test_keywords(void)
{
	static const struct {
		const char *line;
		const char *opt;
		uint64_t want;
	} rows[] = {
		{ "numjobs=$ncpus", "numjobs", 4 },
		{ "iodepth=$ncpus*2+1", "iodepth", 9 },
		{ "iodepth=($ncpus-1)*2", "iodepth", 6 },
		{ "bs=$pagesize", "bs", 4096 },
		{ "size=$mb_memory*1024*1024/4", "size", 512ULL << 20 },
		{ "iodepth=$ncpus/2", "iodepth", 2 },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
		g_autofree char *text = g_strdup_printf("[job]\n%s\n", rows[i].line);
		struct job_list *l = parse_ok(text);
		const struct job *j = job_list_get(l, 0);
		uint64_t got = strcmp(rows[i].opt, "numjobs") == 0 ? j->o.numjobs
			     : strcmp(rows[i].opt, "iodepth") == 0 ? j->o.iodepth
			     : strcmp(rows[i].opt, "bs") == 0 ? j->o.bs[0] : j->o.size;

		if (got != rows[i].want)
			g_error("%s gave %" G_GUINT64_FORMAT, rows[i].line, got);
		job_list_free(l);
	}
	/* as fio with bc: a path with '/' after a keyword is worked out, and fails */
	parse_fails("[job]\nfilename=/dev/nvme$ncpus\n", "t.fio:2: option 'filename': ",
		    "cannot work out '/dev/nvme4'");
}

static void test_include(void)
{
	g_autofree char *sub = g_build_filename(tmpdir, "inc", NULL);
	g_autofree char *c = NULL, *b = NULL, *a = NULL;
	g_autoptr(GError) err = NULL;
	struct job_list *l;
	const char *file;
	int line;
	char *files[1];

	g_assert_cmpint(g_mkdir_with_parents(sub, 0700), ==, 0);
	c = write_file("inc/c.inc", "; deepest\niodepth=16\n");
	b = write_file("inc/b.inc", "bs=8k\ninclude c.inc\n");
	a = write_file("a.fio", "[job]\nrw=randread\ninclude inc/b.inc\nnumjobs=2\n");
	files[0] = a;
	/* relative names are found next to the including file, not in cwd */
	g_assert_cmpint(chdir("/"), ==, 0);
	l = jobfile_parse(&env, files, 1, NULL, 0, &err);
	g_assert_no_error(err);
	g_assert_cmpuint(job_list_get(l, 0)->o.iodepth, ==, 16);
	g_assert_cmpuint(job_list_get(l, 0)->o.bs[0], ==, 8192);
	g_assert_cmpuint(job_list_get(l, 0)->o.numjobs, ==, 2);
	g_assert_true(jobopt_location(job_list_get(l, 0), "iodepth", &file, &line));
	g_assert_true(g_str_has_suffix(file, "inc/c.inc"));
	g_assert_cmpint(line, ==, 2);
	job_list_free(l);
}

static void test_include_errors(void)
{
	g_autofree char *loop1 = write_file("loop1.inc", "include loop2.inc\n");
	g_autofree char *loop2 = write_file("loop2.inc", "bs=4k\ninclude loop1.inc\n");
	g_autofree char *self = write_file("self.fio", "[job]\ninclude self.fio\n");
	g_autofree char *sect = write_file("sect.inc", "bs=4k\n[other]\n");
	g_autofree char *top = write_file("top.fio", "[job]\ninclude loop1.inc\n");
	g_autofree char *topsect = write_file("topsect.fio", "[job]\ninclude sect.inc\n");
	g_autofree char *missing = write_file("missing.fio", "[job]\ninclude nothere.inc\n");
	g_autofree char *outside = write_file("outside.fio", "include sect.inc\n[job]\n");
	const struct {
		const char **file;
		const char *where, *want;
	} rows[] = {
		{ (const char **)&top, "loop2.inc:2: ", "include loop" },
		{ (const char **)&self, "self.fio:2: ", "include loop" },
		{ (const char **)&topsect, "sect.inc:2: ", "no new sections in included files" },
		{ (const char **)&missing, "missing.fio:2: ", "cannot include 'nothere.inc'" },
		{ (const char **)&outside, "outside.fio:1: ", "include outside of any [section]" },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
		g_autoptr(GError) err = NULL;
		char *files[1] = { (char *)*rows[i].file };

		g_assert_null(jobfile_parse(&env, files, 1, NULL, 0, &err));
		if (!strstr(err->message, rows[i].where) || !strstr(err->message, rows[i].want))
			g_error("%s: '%s' lacks '%s' or '%s'", *rows[i].file, err->message,
				rows[i].where, rows[i].want);
	}
}

static void test_include_can_be_disabled(void)
{
	struct jobfile_env fenced = env;
	g_autoptr(GError) err = NULL;
	const char *text = "[job]\ninclude x.inc\n";

	fenced.no_include = true;
	g_assert_null(jobfile_parse_buffer(&fenced, "t.fio", text, strlen(text), NULL, 0, &err));
	g_assert_nonnull(strstr(err->message, "t.fio:2: include is disabled"));
}

static void test_bare_flags(void)
{
	struct job_list *l = parse_ok("[job]\ntime_based\nruntime=5\ngroup_reporting\n"
				      "norandommap\nwrite_bw_log\n");
	struct job *j = job_list_get(l, 0);

	g_assert_true(j->o.time_based);
	g_assert_true(j->o.group_reporting);
	g_assert_true(j->o.norandommap);
	g_assert_true(j->o.write_bw_log);
	g_assert_cmpstr(opt_value(j->opts, "time_based"), ==, "");
	job_list_free(l);
}

static void test_numjobs_kept(void)
{
	struct job_list *l = parse_ok("[job]\nnumjobs=16\n");

	g_assert_cmpuint(l->jobs->len, ==, 1);
	g_assert_cmpuint(job_list_get(l, 0)->o.numjobs, ==, 16);
	job_list_free(l);
	parse_fails("[job]\nnumjobs=0\n", "t.fio:2: option 'numjobs': ", "below the minimum 1");
}

static void test_groups(void)
{
	static const struct {
		const char *text;
		unsigned groups[5];
	} rows[] = {
		{ "[a]\n[b]\n[c]\n", { 0, 0, 0 } },
		/* a first job's stonewall opens no group: there is none before */
		{ "[a]\nstonewall\n[b]\n", { 0, 0 } },
		{ "[a]\n[b]\nstonewall\n[c]\n[d]\nnew_group\n[e]\nwait_for_previous\n",
		  { 0, 1, 1, 2, 3 } },
		{ "[global]\nstonewall\n[a]\n[b]\n[c]\n", { 0, 1, 2 } },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
		struct job_list *l = parse_ok(rows[i].text);

		for (guint k = 0; k < l->jobs->len; k++)
			if (job_list_get(l, k)->groupid != rows[i].groups[k])
				g_error("%s: job %u is in group %u", rows[i].text, k,
					job_list_get(l, k)->groupid);
		job_list_free(l);
	}
}

static void test_several_files(void)
{
	g_autofree char *one = write_file("one.fio", "[global]\nbs=64k\n[a]\n[b]\n");
	g_autofree char *two = write_file("two.fio", "[global]\niodepth=4\n[c]\n[d]\n");
	char *files[] = { one, two };
	char *cmd[] = { "--runtime=7" };
	g_autoptr(GError) err = NULL;
	struct job_list *l = jobfile_parse(&env, files, 2, cmd, 1, &err);

	g_assert_no_error(err);
	g_assert_cmpuint(l->jobs->len, ==, 4);
	/* the first job of a later file waits for all before it */
	g_assert_false(job_list_get(l, 1)->o.stonewall);
	g_assert_true(job_list_get(l, 2)->o.stonewall);
	g_assert_false(job_list_get(l, 3)->o.stonewall);
	g_assert_cmpuint(job_list_get(l, 1)->groupid, ==, 0);
	g_assert_cmpuint(job_list_get(l, 2)->groupid, ==, 1);
	/* a later file starts from default globals, as fio */
	g_assert_cmpuint(job_list_get(l, 0)->o.bs[0], ==, 65536);
	g_assert_cmpuint(job_list_get(l, 2)->o.bs[0], ==, 4096);
	g_assert_cmpuint(job_list_get(l, 2)->o.iodepth, ==, 4);
	g_assert_cmpuint(job_list_get(l, 0)->o.runtime, ==, 7000000000ULL);
	g_assert_cmpuint(job_list_get(l, 2)->o.runtime, ==, 0);
	job_list_free(l);
}

static void test_cmdline_jobs(void)
{
	char *cmd[] = { "--bs=8k", "--name=a", "--rw=write", "--iodepth", "4",
			"--name=global", "--direct=1", "-name=b", "--time_based",
			"--runtime=1" };
	g_autoptr(GError) err = NULL;
	struct job_list *l = jobfile_parse(&env, NULL, 0, cmd, G_N_ELEMENTS(cmd), &err);
	struct job *a, *b;

	g_assert_no_error(err);
	g_assert_cmpuint(l->jobs->len, ==, 2);
	a = job_list_get(l, 0);
	b = job_list_get(l, 1);
	g_assert_cmpstr(a->section, ==, "a");
	g_assert_cmpstr(a->file, ==, "command line");
	g_assert_cmpint(a->line, ==, 2);
	g_assert_cmpuint(a->o.bs[0], ==, 8192);
	g_assert_cmpint(a->o.rw, ==, FIO_RW_WRITE);
	g_assert_cmpuint(a->o.iodepth, ==, 4);
	g_assert_false(a->o.direct);
	/* --name=global addresses the global options of the jobs after it */
	g_assert_true(b->o.direct);
	g_assert_cmpuint(b->o.bs[0], ==, 8192);
	g_assert_true(b->o.time_based);
	g_assert_cmpstr(opt_value(a->opts, "name"), ==, "a");
	g_assert_cmpstr(opt_value(l->global_opts, "bs"), ==, "8k");
	g_assert_cmpstr(opt_value(l->global_opts, "name"), ==, "global");
	job_list_free(l);
}

static void test_cmdline_errors(void)
{
	static const struct {
		const char *args[4];
		int n;
		const char *want;
	} rows[] = {
		{ { "--name=a", "--bs=4q" }, 2, "command line:2: option 'bs': " },
		{ { "--name=a", "--iodepth" }, 2, "command line:2: option 'iodepth': needs a value" },
		{ { "--name=a", "job.fio" }, 2, "command line:2: 'job.fio' is not an option" },
		{ { "--name" }, 1, "command line:1: option 'name': needs a value" },
		{ { "--name=a", "--bogus=1" }, 2, "command line:2: option 'bogus': unknown option" },
		{ { "--bs=4k" }, 1, "no job defined" },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
		g_autoptr(GError) err = NULL;

		g_assert_null(jobfile_parse(&env, NULL, 0, (char **)rows[i].args, rows[i].n, &err));
		if (!strstr(err->message, rows[i].want))
			g_error("'%s' lacks '%s'", err->message, rows[i].want);
	}
}

static void test_cmdline_before_files(void)
{
	g_autofree char *f = write_file("withcmd.fio", "[fromfile]\n");
	char *files[] = { f };
	char *cmd[] = { "--iodepth=3", "--name=fromcmd" };
	g_autoptr(GError) err = NULL;
	struct job_list *l = jobfile_parse(&env, files, 1, cmd, 2, &err);

	g_assert_no_error(err);
	g_assert_cmpstr(job_list_get(l, 0)->section, ==, "fromcmd");
	g_assert_cmpstr(job_list_get(l, 1)->section, ==, "fromfile");
	/* command-line globals reach the jobs of the first file */
	g_assert_cmpuint(job_list_get(l, 1)->o.iodepth, ==, 3);
	g_assert_false(job_list_get(l, 1)->o.stonewall);
	job_list_free(l);
}

/* On the command line order matters; in a job file kb_base goes first. */
static void test_kb_base_order(void)
{
	char *late[] = { "--name=x", "--bs=4KiB", "--kb_base=1000" };
	char *early[] = { "--name=x", "--kb_base=1000", "--bs=4KiB" };
	g_autoptr(GError) err = NULL;
	struct job_list *l;

	l = jobfile_parse(&env, NULL, 0, late, 3, &err);
	g_assert_cmpuint(job_list_get(l, 0)->o.bs[0], ==, 4000);
	job_list_free(l);
	l = jobfile_parse(&env, NULL, 0, early, 3, &err);
	g_assert_cmpuint(job_list_get(l, 0)->o.bs[0], ==, 4096);
	job_list_free(l);
	l = parse_ok("[x]\nbs=4KiB\nkb_base=1000\n");
	g_assert_cmpuint(job_list_get(l, 0)->o.bs[0], ==, 4096);
	/* the job options list follows the order of application */
	g_assert_cmpstr(g_array_index(job_list_get(l, 0)->opts, struct job_opt, 0).name, ==,
			"kb_base");
	job_list_free(l);
}

static void test_locations(void)
{
	char *cmd[] = { "--numjobs=2" };
	const char *text = "[global]\niodepth=4\n[job]\nblocksize=8k\nbuffered=0\n";
	g_autoptr(GError) err = NULL;
	struct job_list *l = jobfile_parse_buffer(&env, "t.fio", text, strlen(text), cmd, 1, &err);
	struct job *j = job_list_get(l, 0);
	const char *file;
	int line;

	g_assert_true(jobopt_location(j, "iodepth", &file, &line));
	g_assert_cmpstr(file, ==, "t.fio");
	g_assert_cmpint(line, ==, 2);
	g_assert_true(jobopt_location(j, "bs", &file, &line));
	g_assert_cmpint(line, ==, 4);
	g_assert_true(jobopt_location(j, "blocksize", &file, &line));
	g_assert_cmpint(line, ==, 4);
	/* buffered=0 is where direct was set */
	g_assert_true(jobopt_location(j, "direct", &file, &line));
	g_assert_cmpint(line, ==, 5);
	g_assert_true(jobopt_location(j, "numjobs", &file, &line));
	g_assert_cmpstr(file, ==, "command line");
	g_assert_cmpint(line, ==, 1);
	g_assert_false(jobopt_location(j, "rw", &file, &line));
	g_assert_false(jobopt_location(j, "nosuchoption", &file, &line));
	/* the job's own list uses fio's names */
	g_assert_cmpstr(opt_value(j->opts, "bs"), ==, "8k");
	g_assert_null(opt_value(j->opts, "iodepth"));
	job_list_free(l);
}

static void test_wait_for(void)
{
	struct job_list *l = parse_ok("[a]\n[b]\nwait_for=a\n");

	g_assert_cmpstr(job_list_get(l, 1)->o.wait_for, ==, "a");
	job_list_free(l);
	parse_fails("[a]\nwait_for=b\n[b]\n", "t.fio:2: option 'wait_for': ",
		    "no earlier job is named 'b'");
	parse_fails("[a]\nwait_for=a\n", "t.fio:2: option 'wait_for': ",
		    "cannot wait for itself");
	parse_fails("[a]\n[a]\n[c]\nwait_for=a\n", "t.fio:4: option 'wait_for': ",
		    "2 earlier jobs are named 'a'");
	/* the job name is the name option when given */
	l = parse_ok("[a]\nname=first\n[b]\nwait_for=first\n");
	job_list_free(l);
}

static void test_engine_options(void)
{
	struct job_list *l = parse_ok("[global]\nioengine=io_uring\nhipri\nfixedbufs\n"
				      "[keeps]\n"
				      "[same]\nioengine=io_uring\n"
				      "[other]\nioengine=libaio\nuserspace_reap\n");

	g_assert_true(job_list_get(l, 0)->o.eng.hipri);
	/* naming the same engine again keeps the global engine options */
	g_assert_true(job_list_get(l, 1)->o.eng.fixedbufs);
	/* another engine does not: they go back to their defaults */
	g_assert_false(job_list_get(l, 2)->o.eng.hipri);
	g_assert_true(job_list_get(l, 2)->o.eng.userspace_reap);
	job_list_free(l);
	parse_fails("[job]\nhipri\n", "t.fio:2: option 'hipri': ",
		    "not an option of ioengine 'psync'");
	/* engine options are applied after the engine, wherever it is set */
	l = parse_ok("[job]\nsqthread_poll\nioengine=io_uring\n");
	g_assert_true(job_list_get(l, 0)->o.eng.sqthread_poll);
	job_list_free(l);
}

static void test_support_rules(void)
{
	struct job_list *l = parse_ok("[job]\nthread\ncreate_serialize=1\nverify=0\n");
	g_autoptr(GError) err = NULL;

	g_assert_cmpuint(l->warnings->len, ==, 1);
	g_assert_cmpstr(g_ptr_array_index(l->warnings, 0), ==,
			"t.fio:2: option 'thread' is not modelled by storsim; ignored "
			"(it does not change the simulated results)");
	job_list_free(l);
	g_assert_null(parse_text("[job]\nrate_ignore_thinktime=1\n", &err));
	g_assert_error(err, STORSIM_ERROR, STORSIM_ERROR_UNSUPPORTED);
	g_assert_cmpstr(err->message, ==, "t.fio:2: option 'rate_ignore_thinktime': not "
			"modelled by storsim; this value would change the results");
}

static void test_deprecated(void)
{
	parse_fails("[job]\nrwmixcycle=5\n", "t.fio:2: option 'rwmixcycle': ",
		    "deprecated; fio 3.33 rejects it");
}

/* Two lists parsed and used side by side share nothing. */
static void test_lists_are_independent(void)
{
	struct job_list *a = parse_ok("[global]\nbs=64k\n[x]\nstonewall\n[y]\nstonewall\n");
	struct job_list *b = parse_ok("[x]\n[y]\n");

	g_assert_cmpuint(job_list_get(a, 1)->groupid, ==, 1);
	g_assert_cmpuint(job_list_get(b, 1)->groupid, ==, 0);
	g_assert_cmpuint(job_list_get(b, 0)->o.bs[0], ==, 4096);
	job_list_free(a);
	g_assert_cmpuint(job_list_get(b, 1)->o.bs[0], ==, 4096);
	job_list_free(b);
}

static void remove_tree(const char *path)
{
	GDir *dir = g_dir_open(path, 0, NULL);
	const char *name;

	while (dir && (name = g_dir_read_name(dir))) {
		g_autofree char *child = g_build_filename(path, name, NULL);

		if (g_file_test(child, G_FILE_TEST_IS_DIR))
			remove_tree(child);
		else
			g_unlink(child);
	}
	if (dir)
		g_dir_close(dir);
	g_rmdir(path);
}

int main(int argc, char **argv)
{
	g_autofree char *cwd = g_get_current_dir();
	int rc;

	g_test_init(&argc, &argv, NULL);
	tmpdir = g_dir_make_tmp("test-jobfile-XXXXXX", NULL);
	g_assert_nonnull(tmpdir);
	g_test_add_func("/jobfile/comments", test_comments);
	g_test_add_func("/jobfile/crlf-lines", test_crlf_lines);
	g_test_add_func("/jobfile/global-scoping", test_global_scoping);
	g_test_add_func("/jobfile/section-errors", test_section_errors);
	g_test_add_func("/jobfile/nul-byte", test_nul_byte);
	g_test_add_func("/jobfile/bad-lines", test_bad_lines);
	g_test_add_func("/jobfile/env-expansion", test_env_expansion);
	g_test_add_func("/jobfile/keywords", test_keywords);
	g_test_add_func("/jobfile/include", test_include);
	g_test_add_func("/jobfile/include-errors", test_include_errors);
	g_test_add_func("/jobfile/include-can-be-disabled", test_include_can_be_disabled);
	g_test_add_func("/jobfile/bare-flags", test_bare_flags);
	g_test_add_func("/jobfile/numjobs-kept", test_numjobs_kept);
	g_test_add_func("/jobfile/groups", test_groups);
	g_test_add_func("/jobfile/several-files", test_several_files);
	g_test_add_func("/jobfile/cmdline-jobs", test_cmdline_jobs);
	g_test_add_func("/jobfile/cmdline-errors", test_cmdline_errors);
	g_test_add_func("/jobfile/cmdline-before-files", test_cmdline_before_files);
	g_test_add_func("/jobfile/kb-base-order", test_kb_base_order);
	g_test_add_func("/jobfile/locations", test_locations);
	g_test_add_func("/jobfile/wait-for", test_wait_for);
	g_test_add_func("/jobfile/engine-options", test_engine_options);
	g_test_add_func("/jobfile/support-rules", test_support_rules);
	g_test_add_func("/jobfile/deprecated", test_deprecated);
	g_test_add_func("/jobfile/lists-are-independent", test_lists_are_independent);
	rc = g_test_run();
	g_assert_cmpint(chdir(cwd), ==, 0);
	remove_tree(tmpdir);
	g_free(tmpdir);
	return rc;
}
