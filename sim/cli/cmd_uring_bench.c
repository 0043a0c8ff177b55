/* storsim uring-bench: t/io_uring on the simulated system. */
#include <stdio.h>

#include "commands.h"
#include "system/system.h"
#include "system/workload.h"

static int run(const struct system_config *cfg,
	       const struct t_io_uring_opts *o, char **files)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(GString) out = g_string_new(NULL);
	struct system *sys = system_new(cfg, &err);

	if (!sys) {
		fprintf(stderr, "storsim uring-bench: %s\n", err->message);
		return 1;
	}
	struct workload_env env;
	system_env(sys, "t_io_uring", &env);
	struct t_io_uring *t = t_io_uring_new(&env, o, files,
					      files ? (int)g_strv_length(files) : 0,
					      &err);
	if (!t) {
		fprintf(stderr, "storsim uring-bench: %s\n", err->message);
		system_free(sys);
		return 1;
	}
	t_io_uring_run(t, out);
	fputs(out->str, stdout);
	bool ok = system_timeline_write(sys, &err);
	if (!ok)
		fprintf(stderr, "storsim uring-bench: %s\n", err->message);
	t_io_uring_free(t);
	system_free(sys);
	return ok ? 0 : 1;
}

int cmd_uring_bench(int argc, char **argv)
{
	struct t_io_uring_opts o;
	struct system_config cfg;
	g_autoptr(GError) err = NULL;
	g_auto(GStrv) files = NULL;
	int ret = 1;

	system_config_init(&cfg);
	if (!uring_bench_parse(&argc, &argv, &o, &cfg, &files, &err))
		fprintf(stderr, "storsim uring-bench: %s\n", err->message);
	else
		ret = run(&cfg, &o, files);
	system_config_clear(&cfg);
	return ret;
}
