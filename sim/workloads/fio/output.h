/*
 * fio-compatible results: the normal text output, --output-format=json and
 * json+, laid out as fio 3.33 lays them out, from a run description the
 * driver fills with plain data. Writing never reads the wall clock: dates
 * and pids come from the description.
 */
#ifndef STORSIM_OUTPUT_H
#define STORSIM_OUTPUT_H

#include <glib.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine/stats.h"

enum output_format {
	OUTPUT_NORMAL = 1 << 0,
	OUTPUT_JSON = 1 << 1,
	OUTPUT_JSON_PLUS = 1 << 2,	/* json with histogram "bins" */
	OUTPUT_TERSE = 1 << 3,		/* one ';'-separated line per entry */
};

/* An option as the user wrote it, echoed in "global options"/"job options". */
struct output_option {
	const char *name;
	const char *value;
};

struct output_job {
	const char *name;
	unsigned groupid;
	int error;		/* errno value the job ended with, 0 if none */
	const char *verror;	/* its text, shown when error != 0 */
	int pid;		/* simulated */
	const char *description;	/* fio "description", or NULL */
	unsigned elapsed_s;	/* seconds since the run began, rounded up */

	/* Options set in this job's section, in the order given. iodepth,
	 * numjobs, bs and rw are echoed even when not set (fio-plot needs
	 * them); iodepth and numjobs are always written as plain integers. */
	const struct output_option *options;
	size_t nr_options;

	/* The header line: "name: (g=0): rw=..., bs=(R) ..., ioengine=...". */
	const char *rw;				/* e.g. "randrw" */
	uint64_t min_bs[STATS_DDIR_NR], max_bs[STATS_DDIR_NR];	/* bytes */
	bool bs_is_seq_rand;	/* shown in place of the trim sizes */
	const char *ioengine;
	unsigned iodepth;
	unsigned numjobs;
	bool is_clone;		/* 2nd.. copy of a numjobs job: header "..." */
	bool use_thread;	/* counted as a thread, not a process */

	unsigned kb_base;	/* 1024 (default) or 1000 */
	unsigned sig_figs;	/* significant_figures, default 4 */
	bool unit_bits;		/* unit_base=1: bandwidth in bits */
	bool group_reporting;
	bool unified;		/* unified_rw_reporting=mixed: one "mixed" */

	/* latency_target machinery; latency_depth is the iodepth reached. */
	uint64_t latency_target, latency_window;
	double latency_percentile;
	unsigned latency_depth;

	const struct job_stats *stats;	/* finished (stats_finish) */

	struct json_object *json_extra;	/* borrowed; under "storsim" */
	const char *text_extra;		/* printed after the job's block */
};

struct output_disk {
	const char *name;
	uint64_t ios[2], merges[2], ticks[2];	/* read, write; ticks in ms */
	uint64_t in_queue;			/* ms */
	double util;				/* percent */
};

struct output_run {
	const char *version;		/* e.g. "storsim-0.1.0" */
	int64_t timestamp;		/* s since the epoch (simulated) */
	const struct output_option *global_options;
	size_t nr_global_options;
	const struct output_job *jobs;
	size_t nr_jobs;
	const struct output_disk *disks;
	size_t nr_disks;
	struct json_object *json_extra;	/* borrowed; top-level "storsim" */
	const char *text_extra;		/* printed at the end of normal */
	unsigned terse_version;		/* 2..5; 0 means fio's default, 3 */
};

/* fio's defaults for everything but names and statistics. */
void output_job_init(struct output_job *job);

/*
 * Parse --output-format: a comma-separated list of normal, json, json+,
 * terse.
 * On error names the option, with file and line when given.
 */
gboolean output_parse_formats(const char *text, const char *file, int line,
			      unsigned *formats, GError **err);

/* The whole output for formats (a mask of enum output_format), as fio
 * prints it: the normal preamble, the terse lines, the JSON document, the
 * normal results. */
char *output_render(const struct output_run *run, unsigned formats);

/* The JSON document; plus adds "bins". The caller owns the result. */
struct json_object *output_json(const struct output_run *run, bool plus);
/* Serialise a json-c value as fio's json.c does: two-space indentation,
 * " : " between key and value, floats with six decimals. */
void output_json_print(GString *out, struct json_object *obj);

/* The terse lines, one per reported entry, in run->terse_version. */
void output_terse(GString *out, const struct output_run *run);

/* The normal-format preamble (job headers, version, "Starting N
 * processes") and results. */
void output_normal_preamble(GString *out, const struct output_run *run);
void output_normal_results(GString *out, const struct output_run *run);

/* fio's num2str for base 1: num with at most maxlen digits, divided by
 * 1000 (or 1024 when pow2) as often as needed, then the prefix (k, M.. or
 * Ki, Mi..) and unit ("", "B", "B/s", "bit/s"). */
char *output_num2str(uint64_t num, int maxlen, bool pow2, const char *unit);

/* Write text to path whole or not at all (temporary file and rename). */
gboolean output_write_file(const char *path, const char *text, GError **err);

#endif
