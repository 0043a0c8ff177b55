/*
 * storsim report: a report of result stores (sweep, compare, reproduce
 * --results): Markdown, a self-contained HTML page, CSV tables, and SVG
 * and PNG plots drawn by gnuplot (see report/results_report.h).
 */
#include <stdio.h>

#include "commands.h"
#include "engine/util.h"
#include "report/results_report.h"
#include "cli.h"

int cmd_report(int argc, char **argv)
{
	g_autofree char *outdir = NULL;
	g_autoptr(GError) err = NULL;
	g_autoptr(GOptionContext) ctx = g_option_context_new("STORE...");
	const GOptionEntry entries[] = {
		{"output", 'o', 0, G_OPTION_ARG_FILENAME, &outdir,
		 "Write the report into DIR (default: STORE/report, with one store)",
		 "DIR"},
		{NULL},
	};

	g_option_context_set_summary(ctx,
		"Report result stores (--results of sweep, compare, reproduce):\n"
		"report.md, report.html (self-contained), CSV tables, and SVG and\n"
		"PNG plots (gnuplot): IOPS, bandwidth, latency percentiles and\n"
		"context switches against the queue depth per strategy, CPU time\n"
		"per I/O by stage, latency by layer; for a reproduction, the\n"
		"published values beside the simulated ones.");
	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!cli_parse(ctx, &argc, &argv, &err))
		goto fail;
	if (argc < 2) {
		storsim_input_error(&err, "command line", 0, "STORE",
				    "give a result store");
		goto fail;
	}
	if (!outdir && argc > 2) {
		storsim_input_error(&err, "command line", 0, "--output",
				    "needed with more than one store");
		goto fail;
	}
	if (!outdir)
		outdir = g_build_filename(argv[1], "report", NULL);
	if (!results_report_write(argv + 1, outdir, &err))
		goto fail;
	printf("storsim report: %s/report.html, report.md, CSV tables, SVG and PNG plots\n",
	       outdir);
	return 0;
fail:
	fprintf(stderr, "storsim report: %s\n", err->message);
	return 1;
}
