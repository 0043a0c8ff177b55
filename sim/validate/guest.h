/*
 * The full-system check (make check-guest, docs/guest.md): a Debian guest
 * booted under TCG through libvirt's embedded QEMU driver runs a sweep of fio
 * jobs on QEMU's emulated NVMe; its fio JSON comes back on the serial console
 * and is set beside a second set of fio JSON results (storsim's run of the
 * same jobs).
 *
 * Three pieces, each usable alone:
 *   - the sweep spec and the serial-log extractor (the markers written by
 *     scripts/guest/init);
 *   - the comparison of two sets of fio JSON results keyed by job name,
 *     iodepth and direction;
 *   - the launcher (guest_run), built only when configure found libvirt.
 * guest_run_main() and the others are `storsim guest run|extract|compare`.
 */
#ifndef STORSIM_GUEST_H
#define STORSIM_GUEST_H

#include <stdbool.h>

#include <glib.h>
#include <json-c/json.h>

/* One point of a sweep: the job file JOB.fio run at one queue depth. */
struct guest_point {
	char *job;
	unsigned int iodepth;
};

/*
 * Parse a sweep, "JOB:QD[:QD...][,JOB:QD...]" (the guest's storsim.sweep=),
 * into a GArray of struct guest_point in the order given. option names the
 * option the spec came from, for messages. NULL and *err set on bad input.
 */
GArray *guest_sweep_parse(const char *spec, const char *option, GError **err);

/* One fio JSON document found in a serial log. */
struct guest_doc {
	struct guest_point point;	/* from its markers */
	int line;			/* line of its begin marker */
	int status;			/* fio's exit status, from the end marker */
	char *text;			/* the document as fio wrote it */
};

/* What guest_extract() found in a serial log. */
struct guest_extract {
	GPtrArray *docs;	/* struct guest_doc *, in log order, each valid JSON */
	GPtrArray *problems;	/* GError *, "LOG:LINE: what is wrong" */
};

/*
 * Find the fio JSON documents between the STORSIM-FIO-BEGIN/END markers of a
 * serial log (log_name is used in messages). Truncated or unparsable
 * documents, fio failures, repeated points and, when expect (a sweep) is
 * given, points without a document are listed as problems.
 */
struct guest_extract *guest_extract(const char *log, const char *log_name,
				    const GArray *expect);
void guest_extract_free(struct guest_extract *x);

/* The figures compared for one direction of one job of a fio JSON result. */
struct guest_result {
	char *job;		/* fio's jobname */
	unsigned int iodepth;	/* from the job's or the global options; fio's default 1 */
	const char *dir;	/* "read", "write" or "trim" */
	double iops;
	double clat_mean_ns;
	double clat_p99_ns;	/* NAN when fio wrote no clat percentiles */
	char *source;		/* the file it came from, for messages */
};

/* A GPtrArray that owns struct guest_result. */
GPtrArray *guest_results_new(void);

/*
 * Add to results one entry per job and direction with I/O in text, a fio
 * JSON document read from source. Lines of noise before the document (fio
 * prints warnings there) are skipped. false and *err set on bad input.
 */
bool guest_results_add(GPtrArray *results, const char *text, const char *source,
		       GError **err);

/* One row of a comparison: a result of each side, NULL where a side lacks it. */
struct guest_row {
	const struct guest_result *guest;
	const struct guest_result *sim;
};

/*
 * Pair the guest's results with the simulator's by job, iodepth and
 * direction, sorted by those keys. The rows point into both arrays. NULL and
 * *err set when one side holds the same key twice.
 */
GArray *guest_compare(const GPtrArray *guest, const GPtrArray *sim, GError **err);

/* (sim - guest) / guest, or NAN when it is undefined. */
double guest_rel_diff(double guest, double sim);

/* Rows without a partner on the other side. */
unsigned int guest_compare_unmatched(const GArray *rows);

/* The comparison as a text table, and as a JSON object. */
char *guest_compare_text(const GArray *rows);
struct json_object *guest_compare_json(const GArray *rows);

/* How to start the guest (storsim guest run). */
struct guest_run_opts {
	char *kernel;		/* absolute paths */
	char *initrd;
	char *disk;		/* raw image behind the emulated NVMe */
	char *cache;		/* QEMU -drive cache= mode */
	char *append;		/* kernel command line after the fixed part, or NULL */
	unsigned int timeout_s;	/* hard limit from start to power-off */
	unsigned int vcpus;
	char *serial_log;	/* absolute path of the console log */
	char *root;		/* root directory of the embedded driver */
};

/* Fixed name of the transient domain; one guest runs per driver root. */
#define GUEST_DOMAIN_NAME "storsim-guest"

/* The libvirt domain XML for o. */
char *guest_domain_xml(const struct guest_run_opts *o);

/*
 * Boot the guest through qemu:///embed?root=o->root and wait until it powers
 * off; after o->timeout_s seconds, or on SIGINT/SIGTERM, destroy it and fail.
 * o->serial_log is removed first, then holds the console. Errors from
 * libvirt, QEMU or the guest are STORSIM_ERROR_EXTERNAL; the others
 * (STORSIM_ERROR_IO, or STORSIM_ERROR_UNSUPPORTED when storsim was built
 * without libvirt) come before anything started.
 */
bool guest_run(const struct guest_run_opts *o, GError **err);

/* storsim guest run, extract and compare; argv[0] is the command's name. */
int guest_run_main(int argc, char **argv);
int guest_extract_main(int argc, char **argv);
int guest_compare_main(int argc, char **argv);

#endif
