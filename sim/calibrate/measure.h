/*
 * What one run of a point gives, measured on the real machine or in
 * storsim, in the same units.
 */
#ifndef STORSIM_CAL_MEASURE_H
#define STORSIM_CAL_MEASURE_H

#include <json-c/json.h>

struct cal_measure {
	double iops;		/* all jobs, reads and writes */
	double lat_us;		/* mean completion latency (fio's clat) */
	double p99_us;		/* its 99th percentile */
	double cpu_us;		/* CPU time per I/O: fio's and the kernel threads' */
	double usr_us;		/* of which user time */
	double ctx;		/* fio's context switches per I/O */
	/* real runs: what else ran meanwhile, in CPUs (other users' work,
	 * from /proc/stat), and the vCPUs' steal time */
	double other_cpus;
	double steal_cpus;
};

enum cal_metric {
	CAL_IOPS, CAL_LAT, CAL_P99, CAL_CPU, CAL_USR, CAL_CTX, CAL_METRIC_NR,
};

const char *cal_metric_name(enum cal_metric m);
double cal_measure_get(const struct cal_measure *m, enum cal_metric k);
/* The median of n measures, metric by metric. */
void cal_measure_median(const struct cal_measure *ms, unsigned n,
			struct cal_measure *out);
/* (max - min) / median of a metric over n measures: the run-to-run spread. */
double cal_measure_spread(const struct cal_measure *ms, unsigned n,
			  enum cal_metric k);
json_object *cal_measure_json(const struct cal_measure *m);

#endif
