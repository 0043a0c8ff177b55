/*
 * storsim: the command line. Each command lives in its own file; this
 * one holds the table of commands, which the help, the man page and the
 * bash completion are made from (scripts/cli-docs.sh), and dispatches.
 */
#include <glib.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "cli.h"
#include "commands.h"
#include "calibrate/validate_real.h"
#include "validate/guest.h"
#include "validate/validate.h"

static const struct cli_command trace_commands[] = {
	{"info", cmd_trace_info,
	 "describe a trace: format, records, files, ops, bytes, time, sizes"},
	{"convert", cmd_trace_convert,
	 "write a trace as a fio iolog v3, fio's replay options applied"},
	{NULL},
};

static const struct cli_command validate_commands[] = {
	{"qemu", validate_qemu_main,
	 "compare the NVMe model with QEMU's emulated NVMe, check by check"},
	{"real", validate_real_main,
	 "compare a calibrated machine with its own kernel in real fio runs"},
	{NULL},
};

static const struct cli_command guest_commands[] = {
	{"run", guest_run_main,
	 "boot the check-guest VM through libvirt's embedded QEMU driver"},
	{"extract", guest_extract_main,
	 "take the fio JSON documents out of the guest's console log"},
	{"compare", guest_compare_main,
	 "set the guest's fio results beside storsim's"},
	{NULL},
};

static const struct cli_command commands[] = {
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
	{"trace", NULL,
	 "read block traces: describe one, or convert it to a fio iolog",
	 trace_commands,
	 "Read block traces: fio iolog v2/v3, blktrace binaries, blkparse\n"
	 "text, MSR Cambridge CSV, SPC CSV, DiskSim/MQSim ASCII."},
	{"validate", NULL,
	 "compare the NVMe model with QEMU's (qemu), or a calibrated machine "
	 "with its kernel (real)",
	 validate_commands,
	 "Compare storsim with what it models: the NVMe device model with\n"
	 "QEMU's, or a machine calibrated by storsim calibrate with its kernel."},
	{"guest", NULL,
	 "boot the check-guest VM, extract and compare its fio results",
	 guest_commands,
	 "The full-system check (docs/guest.md): a Debian guest with fio on\n"
	 "QEMU's emulated NVMe, its results beside storsim's."},
	{"calibrate", cmd_calibrate,
	 "measure this machine with real fio runs and fit its profiles"},
	{"params", cmd_params, "list models and their parameters"},
	{NULL},
};

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
	if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
		printf("%s\n", PACKAGE_STRING);
		return 0;
	}
	return cli_dispatch("storsim", "A discrete-event simulator of the Linux "
			    "storage stack.", commands, argc, argv);
}
