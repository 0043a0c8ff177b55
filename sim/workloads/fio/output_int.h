/*
 * Shared by the output writers (output.c, output_json.c, output_normal.c):
 * the reported entries after group_reporting, the group figures, and small
 * formatting helpers. Private to sim/output*.c.
 */
#ifndef STORSIM_OUTPUT_INT_H
#define STORSIM_OUTPUT_INT_H

#include <locale.h>

#include "output.h"

/* One reported entry: a job, or consecutive group_reporting jobs of one
 * group summed (fio's threadstats[] in __show_run_stats). */
struct output_entry {
	struct job_stats ts;
	const struct output_job *job;	/* first member: name, pid, bases */
	const struct output_job *last;	/* last member: options, latency */
	int error;			/* first member error, fio-style */
	const char *verror;
};

struct output_report {
	struct output_entry *entries;
	size_t nr_entries;
	struct stats_group *groups;	/* indexed by groupid */
	unsigned nr_groups;		/* highest groupid + 1 */
};

void output_report_build(struct output_report *r, const struct output_run *run);
void output_report_free(struct output_report *r);

/* The group figures an entry is reported against. */
static inline const struct stats_group *
output_entry_group(const struct output_report *r, const struct output_entry *e)
{
	return &r->groups[e->job->groupid];
}

/* fio's convert_agg_kbytes_percent: an entry's mean bw (KiB/s) as a share
 * of its group's aggregate, at most 100. */
double output_bw_share(const struct stats_group *g, enum stats_ddir d,
		       double mean);

/* usr and sys CPU, in whole ms as fio counts them, as percentages of
 * job_runtime (0 when it is 0). */
void output_cpu_percent(const struct job_stats *ts, double *usr, double *sys);

/* ctime()-style date of a timestamp, in UTC so that output does not depend
 * on the host's time zone: "Mon Nov 30 03:50:28 2026". buf >= 32 bytes. */
void output_ctime(int64_t timestamp, char *buf, size_t len);

extern const char *const output_ddir_name[STATS_DDIR_NR];
/* The name of direction d in ts's output: "mixed" for the one direction
 * of unified_rw_reporting=mixed. */
const char *output_ddir_label(const struct job_stats *ts, int d);

/* Formatting runs in the C numeric locale whatever the program set, so
 * decimal points are always '.'. */
struct output_locale {
	locale_t c, old;
};
void output_locale_enter(struct output_locale *l);
void output_locale_leave(struct output_locale *l);

#endif
