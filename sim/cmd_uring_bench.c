/* storsim uring-bench: t/io_uring on the simulated system. */
#include <stdio.h>

#include "commands.h"
#include "system.h"

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
	struct t_io_uring *t = t_io_uring_new(sys, o, &sys->sp.t_io_uring, files,
					      files ? (int)g_strv_length(files) : 0,
					      &err);
	if (!t) {
		fprintf(stderr, "storsim uring-bench: %s\n", err->message);
		system_free(sys);
		return 1;
	}
	t_io_uring_run(t, out);
	fputs(out->str, stdout);
	t_io_uring_free(t);
	system_free(sys);
	return 0;
}

int cmd_uring_bench(int argc, char **argv)
{
	struct t_io_uring_opts o;
	struct system_config cfg;
	gint d, s, c, b, p, B, F, n, O, r, R;
	g_autoptr(GError) err = NULL;
	g_auto(GStrv) files = NULL;
	int ret = 1;

	t_io_uring_opts_default(&o);
	d = (gint)o.depth; s = (gint)o.batch_submit; c = (gint)o.batch_complete;
	b = (gint)o.bs; p = o.polled; B = o.fixedbufs; F = o.register_files;
	n = (gint)o.nthreads; O = o.odirect; r = (gint)o.runtime; R = o.random_io;
	const GOptionEntry entries[] = {
		{"depth", 'd', 0, G_OPTION_ARG_INT, &d, "I/O depth (128)", "N"},
		{"submit", 's', 0, G_OPTION_ARG_INT, &s, "Batch submit (32)", "N"},
		{"complete", 'c', 0, G_OPTION_ARG_INT, &c, "Batch complete (32)", "N"},
		{"bs", 'b', 0, G_OPTION_ARG_INT, &b, "Block size in bytes (4096)", "N"},
		{"polled", 'p', 0, G_OPTION_ARG_INT, &p, "Polled I/O (1)", "0|1"},
		{"fixedbufs", 'B', 0, G_OPTION_ARG_INT, &B, "Fixed buffers (1)", "0|1"},
		{"register-files", 'F', 0, G_OPTION_ARG_INT, &F,
		 "Registered files (1)", "0|1"},
		{"threads", 'n', 0, G_OPTION_ARG_INT, &n, "Submitter threads (1)", "N"},
		{"odirect", 'O', 0, G_OPTION_ARG_INT, &O, "O_DIRECT (1)", "0|1"},
		{"runtime", 'r', 0, G_OPTION_ARG_INT, &r,
		 "Runtime in simulated seconds (required)", "S"},
		{"random", 'R', 0, G_OPTION_ARG_INT, &R, "Random I/O (1)", "0|1"},
		{G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL,
		 "FILE..."},
		{NULL},
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("[--] FILE...");

	g_option_context_set_summary(ctx,
		"Run fio's t/io_uring benchmark on the simulated system and print\n"
		"its output lines. Options take t/io_uring's letters.");
	g_option_context_add_main_entries(ctx, entries, NULL);
	system_config_init(&cfg);
	system_config_add_options(&cfg, ctx);
	if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
		fprintf(stderr, "storsim uring-bench: %s\n", err->message);
		goto out;
	}
	if (d < 0 || s < 0 || c < 0 || b < 0 || n < 0 || r < 0) {
		fprintf(stderr, "storsim uring-bench: command line: negative value\n");
		goto out;
	}
	o.depth = (unsigned)d;
	o.batch_submit = s ? (unsigned)s : 1;
	o.batch_complete = c ? (unsigned)c : 1;
	o.bs = (unsigned)b;
	o.polled = p;
	o.fixedbufs = B;
	o.register_files = F;
	o.nthreads = (unsigned)n;
	o.odirect = O;
	o.runtime = (unsigned)r;
	o.random_io = R;

	ret = run(&cfg, &o, files);
out:
	system_config_clear(&cfg);
	return ret;
}
