/*
 * Statistics of a simulated fio job, kept as fio 3.33 keeps them (stat.h,
 * stat.c, io_u.c) so that every figure storsim writes equals what fio would
 * write for the same samples: the log-linear latency histogram behind the
 * percentiles and json+ "bins", running moments, bw/iops windows, the depth
 * and latency distributions, and the summing behind group_reporting.
 *
 * Recording is O(1) per sample and allocates nothing: a job's struct is
 * allocated once at set-up (about 150 KiB, mostly histograms, as in fio).
 * All times are simulated nanoseconds (sim_time); windows and runtimes are
 * derived from completion timestamps, never from a timer event.
 */
#ifndef STORSIM_STATS_H
#define STORSIM_STATS_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "io_trace.h"
#include "sim.h"

enum stats_ddir { STATS_READ, STATS_WRITE, STATS_TRIM, STATS_DDIR_NR };
enum stats_lat { STATS_SLAT, STATS_CLAT, STATS_LAT, STATS_LAT_NR };

/*
 * Histogram geometry, fio's FIO_IO_U_PLAT_*: values below 128 ns get a
 * bucket each, larger ones keep their top 7 significant bits (64 buckets
 * per power of two), 29 groups in all; values past 2^34 ns share the last.
 */
#define STATS_PLAT_BITS 6
#define STATS_PLAT_VAL (1u << STATS_PLAT_BITS)
#define STATS_PLAT_GROUP_NR 29
#define STATS_PLAT_NR (STATS_PLAT_GROUP_NR * STATS_PLAT_VAL)

#define STATS_PERCENTILE_MAX 20	/* fio's FIO_IO_U_LIST_MAX_LEN */
#define STATS_MAP_NR 7		/* iodepth level/submit/complete buckets */
#define STATS_LAT_N_NR 10	/* latency_ns buckets: 2 .. 1000 */
#define STATS_LAT_U_NR 10	/* latency_us buckets: 2 .. 1000 */
#define STATS_LAT_M_NR 12	/* latency_ms buckets: 2 .. 2000, >=2000 */

/* Running min/max/mean and sum of squared deviations (fio's io_stat). */
struct stats_moments {
	uint64_t min;		/* UINT64_MAX while empty */
	uint64_t max;
	uint64_t samples;
	double mean;
	double S;
};

/* What a job records, from its fio options; stats_config_init() = fio's
 * defaults. */
struct stats_config {
	/* unified_rw_reporting=mixed: every direction is counted as one
	 * (fio's, in the read slot). */
	bool unified;
	bool disable_lat;
	bool disable_clat;
	/* Also set for engines without a submission phase (psync, sync):
	 * fio records no slat for them. */
	bool disable_slat;
	/* As in fio 3.33 this only stops per-I/O bw samples (bw_per_io);
	 * windowed samples are taken regardless. */
	bool disable_bw;
	bool clat_percentiles;
	bool lat_percentiles;
	bool slat_percentiles;
	unsigned nr_percentiles;
	double percentiles[STATS_PERCENTILE_MAX];	/* ascending, in (0,100] */
	unsigned percentile_precision;	/* decimals shown in normal output */
	uint64_t bw_avg_ms;	/* bwavgtime; 0 = no windowed bw samples */
	uint64_t iops_avg_ms;	/* iopsavgtime; 0 = no windowed iops samples */
	/* write_bw_log / write_iops_log with log_avg_msec=0: fio then takes
	 * one bw (or iops) sample per I/O instead of one per window. */
	bool bw_per_io;
	bool iops_per_io;
};

/* Told of each sample a bw or iops window takes: its direction, the
 * window's end and the value (fio's log files, sim/workloads/fio/fio_logs.c). */
typedef void (*stats_window_fn)(void *arg, enum stats_ddir ddir,
				sim_time end, uint64_t value);

/* A bw or iops window: closes at each multiple of its period after the
 * stats start, at the first completion (or the finish) past that point. */
struct stats_window {
	sim_time period;		/* ns; 0 = off */
	sim_time end;			/* end of the open window */
	uint64_t mark[STATS_DDIR_NR];	/* counter when the window opened */
	stats_window_fn sampled;	/* NULL: nobody logs the samples */
	void *sampled_arg;
};

struct job_stats {
	struct stats_config cfg;
	sim_time start;		/* stats epoch: end of ramp_time */
	unsigned members;	/* jobs summed in here */

	struct stats_moments lat[STATS_LAT_NR][STATS_DDIR_NR];
	struct stats_moments bw[STATS_DDIR_NR];		/* KiB/s samples */
	struct stats_moments iops[STATS_DDIR_NR];
	struct stats_moments sync;

	uint64_t io_bytes[STATS_DDIR_NR];
	uint64_t total_ios[STATS_DDIR_NR];	/* completed after start */
	uint64_t short_ios[STATS_DDIR_NR];
	uint64_t drop_ios[STATS_DDIR_NR];
	uint64_t total_sync;
	uint64_t runtime_ms[STATS_DDIR_NR];	/* per direction, rounded up */
	/* set by stats_set_ddir_time: each direction's own time, not the
	 * job's (fio's verify: writes in do_io, reads in do_verify) */
	sim_time ddir_ns[STATS_DDIR_NR];
	bool ddir_ns_set;
	uint64_t run_time_ms;			/* job_runtime, truncated */

	uint64_t usr_ns, sys_ns, ctx, minf, majf;

	uint64_t depth_map[STATS_MAP_NR];	/* I/Os by in-flight depth */
	uint64_t submit_map[STATS_MAP_NR];	/* submit calls by batch */
	uint64_t complete_map[STATS_MAP_NR];	/* reap calls by batch */
	uint64_t total_submit, total_complete;
	uint64_t lat_n[STATS_LAT_N_NR];
	uint64_t lat_u[STATS_LAT_U_NR];
	uint64_t lat_m[STATS_LAT_M_NR];

	struct stats_window bw_window, iops_window;

	struct io_layers layers[STATS_DDIR_NR];	/* storsim's, not fio's */
	/* Each layer's histogram per direction, for its percentiles: kept
	 * only after stats_keep_layer_tails, a direction's allocated at its
	 * first I/O (IOL_NR of STATS_PLAT_NR buckets, 130 KiB). */
	bool layer_tails;
	uint64_t (*layer_plat[STATS_DDIR_NR])[STATS_PLAT_NR];

	uint64_t plat[STATS_LAT_NR][STATS_DDIR_NR][STATS_PLAT_NR];
	uint64_t sync_plat[STATS_PLAT_NR];
};

/* fio's group_run_stats: what "Run status group N" prints. */
struct stats_group {
	uint64_t min_run[STATS_DDIR_NR], max_run[STATS_DDIR_NR];	/* ms */
	uint64_t min_bw[STATS_DDIR_NR], max_bw[STATS_DDIR_NR];		/* B/s */
	uint64_t io_bytes[STATS_DDIR_NR];
	uint64_t agg[STATS_DDIR_NR];					/* B/s */
};

/* --- configuration --- */

void stats_config_init(struct stats_config *cfg);

/*
 * Set the percentile list from fio's "percentile_list" syntax ("1:50:99.9").
 * Bad values are an input error naming file, line and the option.
 */
gboolean stats_config_set_percentiles(struct stats_config *cfg,
				      const char *text, const char *file,
				      int line, GError **err);

/* --- a job's statistics --- */

/* Zero js and start it at start (samples completing earlier are dropped,
 * as fio resets its statistics when ramp_time ends). */
void stats_init(struct job_stats *js, const struct stats_config *cfg,
		sim_time start);
struct job_stats *stats_new(const struct stats_config *cfg, sim_time start);
/* Start js over at start as stats_init does, keeping its layer histograms
 * (emptied) and whether it keeps them: fio's reset at a job's start and
 * at the end of its ramp_time. */
void stats_restart(struct job_stats *js, const struct stats_config *cfg,
		   sim_time start);
void stats_free(struct job_stats *js);
/* Also keep each layer's histogram, for stats_layer_percentiles: only
 * jobs that report their latency by layer pay its memory. */
void stats_keep_layer_tails(struct job_stats *js);

/* An I/O of direction ddir completed at now: bytes moved, and its
 * submission, completion and total latencies in ns; slat_ns STATS_NO_SLAT
 * for an I/O that had no submission phase (fio records none). */
#define STATS_NO_SLAT UINT64_MAX
void stats_add_io(struct job_stats *js, enum stats_ddir ddir, sim_time now,
		  uint64_t bytes, uint64_t slat_ns, uint64_t clat_ns,
		  uint64_t lat_ns);
/* Where the latency of that I/O went, from its start to now, by the
 * stamps it collected on its way (storsim's own figure). */
void stats_add_layers(struct job_stats *js, enum stats_ddir ddir,
		      sim_time start, const struct io_trace *tr, sim_time now);
/* The io_layer_pct percentiles of each layer of direction d, from the
 * histograms stats_keep_layer_tails keeps (all 0 without them). */
void stats_layer_percentiles(const struct job_stats *js, enum stats_ddir d,
			     struct io_layer_tails *out);
/* An I/O of direction ddir failed at now: fio counted it when it queued
 * it (total_io_u, the "issued" line and IOPS), with no bytes or latency. */
void stats_add_failed(struct job_stats *js, enum stats_ddir ddir, sim_time now);
/* An fsync/fdatasync completed at now after lat_ns, or was counted when
 * queued and never reaped (lat_ns STATS_NO_LAT: no latency sample). */
#define STATS_NO_LAT UINT64_MAX
void stats_add_sync(struct job_stats *js, sim_time now, uint64_t lat_ns,
		    bool datasync);
/* A submit call at now carried nr I/Os, leaving depth I/Os in flight;
 * depth 0 leaves the call out of the depth distribution (fio's end_fsync). */
void stats_add_submit(struct job_stats *js, sim_time now, unsigned nr,
		      unsigned depth);
/* nr I/Os issued at now with depth in flight, in the depth distribution
 * only: no submit call to count (fio's engines that complete in queue()
 * but have a commit hook, such as null at iodepth 1). */
void stats_add_depth(struct job_stats *js, sim_time now, unsigned nr,
		     unsigned depth);
/* A reap (getevents) call at now returned nr completions. */
void stats_add_reap(struct job_stats *js, sim_time now, unsigned nr);
void stats_set_cpu(struct job_stats *js, uint64_t usr_ns, uint64_t sys_ns,
		   uint64_t ctx, uint64_t minf, uint64_t majf);
/* Tell bw (iops) of each windowed bw (iops) sample, with arg; either may be
 * NULL. Set after stats_init(), which forgets them. */
void stats_watch_windows(struct job_stats *js, stats_window_fn bw,
			 stats_window_fn iops, void *arg);
/* The job stopped at end: close the windows that ended by then, and fix the
 * per-direction runtimes and job_runtime. */
void stats_finish(struct job_stats *js, sim_time end);
/* Before stats_finish: the time the job spent on direction d, where it
 * is not the job's whole run (fio's update_runtime per phase). */
void stats_set_ddir_time(struct job_stats *js, enum stats_ddir d, sim_time ns);

/* --- histogram, percentiles, moments --- */

/* Bucket of a value in ns (fio's plat_val_to_idx). */
static inline unsigned stats_plat_idx(uint64_t val)
{
	unsigned msb = val ? 63u - (unsigned)__builtin_clzll(val) : 0;
	unsigned error_bits, idx;

	if (msb <= STATS_PLAT_BITS)
		return (unsigned)val;
	error_bits = msb - STATS_PLAT_BITS;
	idx = ((error_bits + 1) << STATS_PLAT_BITS) +
	      (unsigned)((val >> error_bits) & (STATS_PLAT_VAL - 1));
	return idx < STATS_PLAT_NR - 1 ? idx : STATS_PLAT_NR - 1;
}

/* Value a bucket stands for: its midpoint (fio's plat_idx_to_val). */
uint64_t stats_plat_val(unsigned idx);

/*
 * Percentiles of a histogram holding nr samples, for the ascending list
 * plist[len], into out[len] (ns); fio's calc_clat_percentiles. Returns how
 * many were found (len, or 0 when nr is 0).
 */
unsigned stats_percentiles(const uint64_t *plat, uint64_t nr,
			   const double *plist, unsigned len, uint64_t *out);

static inline void stats_moments_add(struct stats_moments *m, uint64_t v)
{
	double val = (double)v, delta = val - m->mean;

	if (v > m->max)
		m->max = v;
	if (v < m->min)
		m->min = v;
	/* fio skips the update when the sample equals the mean; keep that,
	 * so that S stays bit-identical to fio's. */
	if (delta != 0.0) {
		m->mean += delta / ((double)m->samples + 1.0);
		m->S += delta * (val - m->mean);
	}
	m->samples++;
}

/* fio's calc_lat: false when empty; dev is the sample standard deviation. */
bool stats_moments_get(const struct stats_moments *m, uint64_t *min,
		       uint64_t *max, double *mean, double *dev);

/* --- distributions (percent of I/Os) --- */

/* fio's stat_calc_dist: map[7] over total, non-zero shares at least 0.1. */
void stats_calc_dist(const uint64_t *map, uint64_t total, double *out);
/* fio's stat_calc_lat for nr buckets of src: non-zero shares at least
 * 0.01 % of all read/write/trim I/Os. */
void stats_calc_lat(const struct job_stats *js, const uint64_t *src,
		    unsigned nr, double *out);

/* --- aggregation --- */

/* Add src into dst as fio's sum_thread_stats does: latency moments merged,
 * bw/iops moments added term by term, histograms and counters added,
 * runtimes as the maximum, job_runtime as the sum. dst takes src's
 * configuration (the last job's options, as in fio). */
void stats_sum(struct job_stats *dst, const struct job_stats *src);

void stats_group_init(struct stats_group *g);
/* Account one reported entry (a job, or a group_reporting sum). */
void stats_group_add(struct stats_group *g, const struct job_stats *ts);
/* Aggregate bandwidth, once every entry has been added. */
void stats_group_finish(struct stats_group *g);

#endif
