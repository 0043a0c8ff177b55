/*
 * storsim: the command line. Each subcommand lives in its own file; this
 * one only dispatches and prints the top-level help.
 */
#include <glib.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "commands.h"
#include "validate/guest.h"
#include "validate/validate.h"

static const struct command {
	const char *name;
	int (*main)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{"run", cmd_run, "run fio job files on the simulated system"},
	{"sweep", cmd_sweep,
	 "run a job file over combinations of kernel switches and parameters"},
	{"compare", cmd_compare,
	 "run a job file under named completion strategies across queue depths"},
	{"uring-bench", cmd_uring_bench,
	 "run fio's t/io_uring benchmark on the simulated system"},
	{"reproduce", cmd_reproduce,
	 "reproduce a published table from its experiment in traces/"},
	{"report", cmd_report,
	 "report result stores: Markdown, HTML, CSV, plots"},
	{"trace", cmd_trace,
	 "read block traces: describe one, or convert it to a fio iolog"},
	{"validate", validate_main,
	 "compare the NVMe model with QEMU's (qemu), or a calibrated machine "
	 "with its kernel (real)"},
	{"guest", guest_main,
	 "boot the check-guest VM, extract and compare its fio results"},
	{"calibrate", cmd_calibrate,
	 "measure this machine with real fio runs and fit its profiles"},
	{"params", cmd_params, "list models and their parameters"},
	{NULL, NULL, NULL},
};

static void usage(FILE *f)
{
	fprintf(f, "Usage: storsim COMMAND [OPTIONS] [ARGS]\n\n"
		   "A discrete-event simulator of the Linux storage stack.\n\n"
		   "Commands:\n");
	for (const struct command *c = commands; c->name; c++)
		fprintf(f, "  %-13s %s\n", c->name, c->summary);
	fprintf(f, "\nRun 'storsim COMMAND --help' for a command's options.\n"
		   "Exit status: 0 on success, 1 on bad input or a failed check.\n");
}

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
	if (argc < 2) {
		usage(stderr);
		return 1;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("%s\n", PACKAGE_STRING);
		return 0;
	}
	for (const struct command *c = commands; c->name; c++)
		if (strcmp(argv[1], c->name) == 0)
			return c->main(argc - 1, argv + 1);
	fprintf(stderr, "storsim: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return 1;
}
