/*
 * Statistics of a simulated fio job: recording, histogram, percentiles,
 * moments, bw/iops windows and group summing, with fio 3.33's arithmetic.
 *
 * Parameters (struct stats_config): disable_{lat,clat,slat,bw} and
 * {clat,lat,slat}_percentiles (booleans), percentile_list (percent, up to
 * 20 values), bwavgtime and iopsavgtime (ms, default 500), per-I/O bw/iops
 * samples (fio's per-unit logs); the stats start (ns, end of ramp_time).
 *
 * Sources: fio 3.33 stat.h (histogram geometry), stat.c (plat_val_to_idx,
 * plat_idx_to_val, calc_clat_percentiles, add_stat_sample, calc_lat,
 * __add_samples, add_bw_sample, stat_calc_dist, stat_calc_lat,
 * sum_thread_stats, sum_stat, __show_run_stats' group figures), io_u.c
 * (io_u_mark_depth/submit/complete, io_u_mark_latency,
 * account_io_completion), backend.c (update_runtime, total_run_time),
 * parse.c (float lists and their precision). The facts are fio's; this
 * code is storsim's own.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "util.h"

static const double default_percentiles[] = {
	1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95,
	99.99,
};

void stats_config_init(struct stats_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->clat_percentiles = true;
	cfg->nr_percentiles = G_N_ELEMENTS(default_percentiles);
	memcpy(cfg->percentiles, default_percentiles, sizeof(default_percentiles));
	cfg->percentile_precision = 2;
	cfg->bw_avg_ms = 500;
	cfg->iops_avg_ms = 500;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

gboolean stats_config_set_percentiles(struct stats_config *cfg,
				      const char *text, const char *file,
				      int line, GError **err)
{
	static const char option[] = "percentile_list";
	g_auto(GStrv) parts = g_strsplit(text ? text : "", ":", -1);
	double list[STATS_PERCENTILE_MAX];
	unsigned n = 0, precision = 0;

	for (char **p = parts; *p; p++) {
		const char *s = *p, *dot;
		char *end;
		double v;

		if (n == STATS_PERCENTILE_MAX) {
			storsim_input_error(err, file, line, option,
					    "more than %d percentiles",
					    STATS_PERCENTILE_MAX);
			return FALSE;
		}
		v = g_ascii_strtod(s, &end);
		if (end == s || *end || !isfinite(v)) {
			storsim_input_error(err, file, line, option,
					    "'%s' is not a number", s);
			return FALSE;
		}
		/* fio ends its list at the first 0, so 0 cannot be asked
		 * for; above 100 is no percentile. */
		if (v <= 0.0 || v > 100.0) {
			storsim_input_error(err, file, line, option,
					    "%s is outside (0, 100]", s);
			return FALSE;
		}
		dot = strchr(s, '.');
		if (dot && strlen(dot + 1) > precision)
			precision = (unsigned)strlen(dot + 1);
		list[n++] = v;
	}
	if (!n) {
		storsim_input_error(err, file, line, option, "empty list");
		return FALSE;
	}
	qsort(list, n, sizeof(list[0]), cmp_double);
	memcpy(cfg->percentiles, list, n * sizeof(list[0]));
	cfg->nr_percentiles = n;
	cfg->percentile_precision = precision;
	return TRUE;
}

static void moments_init(struct stats_moments *m)
{
	memset(m, 0, sizeof(*m));
	m->min = UINT64_MAX;
}

static void window_init(struct stats_window *w, uint64_t period_ms,
			sim_time start)
{
	w->period = period_ms * SIM_MSEC;
	w->end = start + w->period;
}

void stats_init(struct job_stats *js, const struct stats_config *cfg,
		sim_time start)
{
	memset(js, 0, sizeof(*js));
	js->cfg = *cfg;
	js->start = start;
	js->members = 1;
	for (int d = 0; d < STATS_DDIR_NR; d++) {
		for (int l = 0; l < STATS_LAT_NR; l++)
			moments_init(&js->lat[l][d]);
		moments_init(&js->bw[d]);
		moments_init(&js->iops[d]);
	}
	moments_init(&js->sync);
	window_init(&js->bw_window, cfg->bw_per_io ? 0 : cfg->bw_avg_ms, start);
	window_init(&js->iops_window, cfg->iops_per_io ? 0 : cfg->iops_avg_ms,
		    start);
}

struct job_stats *stats_new(const struct stats_config *cfg, sim_time start)
{
	struct job_stats *js = g_new(struct job_stats, 1);

	stats_init(js, cfg, start);
	return js;
}

void stats_restart(struct job_stats *js, const struct stats_config *cfg,
		   sim_time start)
{
	uint64_t (*plat[STATS_DDIR_NR])[STATS_PLAT_NR];
	bool tails = js->layer_tails;

	memcpy(plat, js->layer_plat, sizeof(plat));
	stats_init(js, cfg, start);
	js->layer_tails = tails;
	for (int d = 0; d < STATS_DDIR_NR; d++) {
		if (plat[d])
			memset(plat[d], 0, IOL_NR * sizeof(*plat[d]));
		js->layer_plat[d] = plat[d];
	}
}

void stats_free(struct job_stats *js)
{
	/* NULL as g_free takes it: a job whose set-up failed has none. */
	if (!js)
		return;
	for (int d = 0; d < STATS_DDIR_NR; d++)
		g_free(js->layer_plat[d]);
	g_free(js);
}

void stats_keep_layer_tails(struct job_stats *js)
{
	js->layer_tails = true;
}

/*
 * Close the open window: one sample per direction that moved, at the rate
 * over the whole window (fio's __add_samples with spent = the period, as a
 * helper thread waking on time would see). bw is in KiB/s, iops in I/O/s.
 */
static void window_close(struct stats_window *w, const uint64_t *counter,
			 struct stats_moments *out, bool kib)
{
	uint64_t ms = w->period / SIM_MSEC;

	for (int d = 0; d < STATS_DDIR_NR; d++) {
		uint64_t delta = counter[d] - w->mark[d];

		if (!delta)
			continue;
		uint64_t v = kib ? delta * 1000 / ms / 1024 : delta * 1000 / ms;
		stats_moments_add(&out[d], v);
		if (w->sampled)
			w->sampled(w->sampled_arg, (enum stats_ddir)d, w->end, v);
		w->mark[d] = counter[d];
	}
}

/* Completions at exactly a window's end still count in it. Windows that
 * pass without a completion take no sample, so they are skipped in one
 * step. */
static void window_advance(struct stats_window *w, sim_time now,
			   const uint64_t *counter, struct stats_moments *out,
			   bool kib)
{
	if (!w->period || now <= w->end)
		return;
	window_close(w, counter, out, kib);
	w->end += w->period * ((now - w->end + w->period - 1) / w->period);
}

static void windows_advance(struct job_stats *js, sim_time now)
{
	window_advance(&js->bw_window, now, js->io_bytes, js->bw, true);
	window_advance(&js->iops_window, now, js->total_ios, js->iops, false);
}

/* fio's io_u_mark_lat_{nsec,usec,msec}: the bucket edges are 2, 4, 10, 20,
 * 50, 100, 250, 500, 750, 1000 of the unit, then 2000 and more for ms. */
static unsigned lat_bucket(uint64_t v)
{
	static const uint64_t edge[] = {
		2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000,
	};
	unsigned i = 0;

	while (i < G_N_ELEMENTS(edge) && v >= edge[i])
		i++;
	return i;
}

static void mark_latency(struct job_stats *js, uint64_t nsec)
{
	if (nsec < 1000)
		js->lat_n[lat_bucket(nsec)]++;
	else if (nsec < 1000000)
		js->lat_u[lat_bucket(nsec / 1000)]++;
	else
		js->lat_m[lat_bucket(nsec / 1000000)]++;
}

static void add_lat(struct job_stats *js, enum stats_lat l,
		    enum stats_ddir ddir, uint64_t v, bool histogram)
{
	stats_moments_add(&js->lat[l][ddir], v);
	if (histogram)
		js->plat[l][ddir][stats_plat_idx(v)]++;
}

void stats_add_io(struct job_stats *js, enum stats_ddir ddir, sim_time now,
		  uint64_t bytes, uint64_t slat_ns, uint64_t clat_ns,
		  uint64_t lat_ns)
{
	const struct stats_config *c = &js->cfg;

	if (now < js->start)
		return;
	if (c->unified)
		ddir = STATS_READ;
	windows_advance(js, now);
	js->io_bytes[ddir] += bytes;
	js->total_ios[ddir]++;
	if (!c->disable_slat && slat_ns != STATS_NO_SLAT)
		add_lat(js, STATS_SLAT, ddir, slat_ns, c->slat_percentiles);
	if (!c->disable_lat)
		add_lat(js, STATS_LAT, ddir, lat_ns, c->lat_percentiles);
	if (!c->disable_clat) {
		add_lat(js, STATS_CLAT, ddir, clat_ns, c->clat_percentiles);
		mark_latency(js, clat_ns);
	}
	/* Per-I/O bw is bytes over clat; fio calls it KiB/s although the
	 * arithmetic gives bytes per ms. */
	if (c->bw_per_io && !c->disable_bw)
		stats_moments_add(&js->bw[ddir],
				  clat_ns ? bytes * 1000000 / clat_ns : 0);
	/* fio takes per-I/O iops samples unless gtod_reduce is in effect. */
	if (c->iops_per_io &&
	    !(c->disable_clat && c->disable_slat && c->disable_bw))
		stats_moments_add(&js->iops[ddir], 1);
}

void stats_add_failed(struct job_stats *js, enum stats_ddir ddir, sim_time now)
{
	if (now >= js->start)
		js->total_ios[js->cfg.unified ? STATS_READ : ddir]++;
}

void stats_add_sync(struct job_stats *js, sim_time now, uint64_t lat_ns,
		    bool datasync)
{
	if (now < js->start)
		return;
	/* fio 3.33 counts an fdatasync with its index DDIR_DATASYNC (4) in
	 * the four-entry total_io_u[], which lands in short_io_u[0]: its
	 * output shows the fdatasyncs as short reads and 0 syncs. */
	if (datasync)
		js->short_ios[0]++;
	else
		js->total_sync++;
	if (js->cfg.disable_clat || lat_ns == STATS_NO_LAT)
		return;
	stats_moments_add(&js->sync, lat_ns);
	js->sync_plat[stats_plat_idx(lat_ns)]++;
}

/* fio's __io_u_mark_map: batches of 0, 1-4, 5-8, 9-16, 17-32, 33-64, >64. */
static unsigned batch_bucket(unsigned nr)
{
	unsigned i = 0;

	if (!nr)
		return 0;
	while (i < STATS_MAP_NR - 1 && nr > (4u << i))
		i++;
	return i + 1 < STATS_MAP_NR ? i + 1 : STATS_MAP_NR - 1;
}

/* fio's io_u_mark_depth: depths 1, 2-3, 4-7, 8-15, 16-31, 32-63, >=64. */
static unsigned depth_bucket(unsigned depth)
{
	unsigned i = 0;

	while (i < STATS_MAP_NR - 1 && depth >= (2u << i))
		i++;
	return i;
}

void stats_add_submit(struct job_stats *js, sim_time now, unsigned nr,
		      unsigned depth)
{
	if (now < js->start)
		return;
	stats_add_depth(js, now, nr, depth);
	js->submit_map[batch_bucket(nr)]++;
	js->total_submit++;
}

void stats_add_depth(struct job_stats *js, sim_time now, unsigned nr,
		     unsigned depth)
{
	if (now >= js->start && depth)
		js->depth_map[depth_bucket(depth)] += nr;
}

void stats_add_reap(struct job_stats *js, sim_time now, unsigned nr)
{
	if (now < js->start)
		return;
	js->complete_map[batch_bucket(nr)]++;
	js->total_complete++;
}

void stats_set_cpu(struct job_stats *js, uint64_t usr_ns, uint64_t sys_ns,
		   uint64_t ctx, uint64_t minf, uint64_t majf)
{
	js->usr_ns = usr_ns;
	js->sys_ns = sys_ns;
	js->ctx = ctx;
	js->minf = minf;
	js->majf = majf;
}

void stats_watch_windows(struct job_stats *js, stats_window_fn bw,
			 stats_window_fn iops, void *arg)
{
	js->bw_window.sampled = bw;
	js->bw_window.sampled_arg = arg;
	js->iops_window.sampled = iops;
	js->iops_window.sampled_arg = arg;
}

void stats_set_ddir_time(struct job_stats *js, enum stats_ddir d, sim_time ns)
{
	js->ddir_ns[d] = ns;
	js->ddir_ns_set = true;
}

void stats_finish(struct job_stats *js, sim_time end)
{
	sim_time ran = end > js->start ? end - js->start : 0;

	if (js->bw_window.period && end >= js->bw_window.end)
		window_close(&js->bw_window, js->io_bytes, js->bw, true);
	if (js->iops_window.period && end >= js->iops_window.end)
		window_close(&js->iops_window, js->total_ios, js->iops, false);
	/* fio rounds each direction's runtime up from whole microseconds
	 * (update_runtime) but truncates job_runtime (mtime_since). */
	for (int d = 0; d < STATS_DDIR_NR; d++) {
		sim_time t = js->ddir_ns_set ? js->ddir_ns[d] : ran;
		js->runtime_ms[d] = js->io_bytes[d] ? (t / SIM_USEC + 999) / 1000 : 0;
	}
	js->run_time_ms = ran / SIM_MSEC;
}

uint64_t stats_plat_val(unsigned idx)
{
	unsigned error_bits;
	uint64_t base, k;

	g_assert(idx < STATS_PLAT_NR);
	if (idx < (STATS_PLAT_VAL << 1))
		return idx;
	error_bits = (idx >> STATS_PLAT_BITS) - 1;
	base = (uint64_t)1 << (error_bits + STATS_PLAT_BITS);
	k = idx % STATS_PLAT_VAL;
	/* fio computes base + (k + 0.5) * 2^error_bits in double and
	 * truncates; with error_bits >= 1 that is exact integer arithmetic. */
	return base + (k << error_bits) + ((uint64_t)1 << (error_bits - 1));
}

unsigned stats_percentiles(const uint64_t *plat, uint64_t nr,
			   const double *plist, unsigned len, uint64_t *out)
{
	/*
	 * fio's rule is "running count >= p / 100 * nr" in long double, but
	 * fio is built with -O3 -ffast-math, and gcc then computes
	 * p * (nr * 0.01L) on the x87: at an exact edge (60 % of 50 samples)
	 * the two differ by one sample. This is the arithmetic Debian's fio
	 * 3.33 binary performs (checked against its output).
	 */
	const long double scale = (long double)nr * 0.01L;
	uint64_t sum = 0;
	unsigned j = 0;

	if (!nr || !len)
		return 0;
	for (unsigned i = 0; i < STATS_PLAT_NR && j < len; i++) {
		sum += plat[i];
		while (j < len &&
		       (long double)sum >= (long double)plist[j] * scale)
			out[j++] = stats_plat_val(i);
	}
	return j;
}

bool stats_moments_get(const struct stats_moments *m, uint64_t *min,
		       uint64_t *max, double *mean, double *dev)
{
	double n = (double)m->samples;

	if (!m->samples)
		return false;
	*min = m->min;
	*max = m->max;
	*mean = m->mean;
	*dev = n > 1.0 ? sqrt(m->S / (n - 1.0)) : 0.0;
	return true;
}

void stats_calc_dist(const uint64_t *map, uint64_t total, double *out)
{
	for (int i = 0; i < STATS_MAP_NR; i++) {
		out[i] = total ? (double)map[i] / (double)total * 100.0 : 0.0;
		if (total && map[i] && out[i] < 0.1)
			out[i] = 0.1;
	}
}

void stats_calc_lat(const struct job_stats *js, const uint64_t *src,
		    unsigned nr, double *out)
{
	uint64_t total = js->total_ios[STATS_READ] + js->total_ios[STATS_WRITE] +
			 js->total_ios[STATS_TRIM];

	for (unsigned i = 0; i < nr; i++) {
		out[i] = total ? (double)src[i] / (double)total * 100.0 : 0.0;
		if (total && src[i] && out[i] < 0.01)
			out[i] = 0.01;
	}
}

/* fio's __sum_stat: merge two sets of moments (Chan et al.'s parallel
 * variance update). */
static void sum_moments(struct stats_moments *dst,
			const struct stats_moments *src)
{
	double delta;

	if (!src->samples)
		return;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	if (!dst->samples) {
		dst->mean = src->mean;
		dst->S = src->S;
	} else {
		delta = src->mean - dst->mean;
		dst->S = src->S + dst->S + pow(delta, 2.0) *
			 (double)(dst->samples * src->samples) /
			 (double)(dst->samples + src->samples);
		dst->mean = (src->mean * (double)src->samples +
			     dst->mean * (double)dst->samples) /
			    (double)(dst->samples + src->samples);
	}
	dst->samples += src->samples;
}

/* bw and iops of jobs running side by side add up: fio sums each term. */
static void add_moments(struct stats_moments *dst,
			const struct stats_moments *src)
{
	if (!src->samples)
		return;
	if (!dst->samples) {
		*dst = *src;
		return;
	}
	dst->min += src->min;
	dst->max += src->max;
	dst->samples += src->samples;
	dst->mean += src->mean;
	dst->S += src->S;
}

static void add_counts(uint64_t *dst, const uint64_t *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] += src[i];
}

/* Direction d's layer histograms, allocated the first time (once per
 * direction, not per I/O). */
static uint64_t (*layer_plat(struct job_stats *js, int d))[STATS_PLAT_NR]
{
	if (!js->layer_plat[d])
		js->layer_plat[d] = g_malloc0(IOL_NR * sizeof(*js->layer_plat[d]));
	return js->layer_plat[d];
}

void stats_add_layers(struct job_stats *js, enum stats_ddir ddir,
		      sim_time start, const struct io_trace *tr, sim_time now)
{
	int d = js->cfg.unified ? STATS_READ : (int)ddir;
	sim_time each[IOL_NR];

	io_trace_split(tr, start, now, each);
	io_layers_count(&js->layers[d], each);
	if (js->layer_tails) {
		uint64_t (*plat)[STATS_PLAT_NR] = layer_plat(js, d);
		for (int i = 0; i < IOL_NR; i++)
			plat[i][stats_plat_idx(each[i])]++;
	}
}

void stats_layer_percentiles(const struct job_stats *js, enum stats_ddir d,
			     struct io_layer_tails *out)
{
	memset(out, 0, sizeof(*out));
	if (!js->layer_plat[d])
		return;
	for (int i = 0; i < IOL_NR; i++)
		stats_percentiles(js->layer_plat[d][i], js->layers[d].ios,
				  io_layer_pct, IOL_PCT_NR, out->ns[i]);
}

void stats_sum(struct job_stats *dst, const struct job_stats *src)
{
	dst->cfg = src->cfg;
	for (int d = 0; d < STATS_DDIR_NR; d++) {
		io_layers_merge(&dst->layers[d], &src->layers[d]);
		if (dst->layer_tails && src->layer_plat[d])
			add_counts(layer_plat(dst, d)[0], src->layer_plat[d][0],
				   IOL_NR * STATS_PLAT_NR);
		for (int l = 0; l < STATS_LAT_NR; l++)
			sum_moments(&dst->lat[l][d], &src->lat[l][d]);
		add_moments(&dst->bw[d], &src->bw[d]);
		add_moments(&dst->iops[d], &src->iops[d]);
		if (dst->runtime_ms[d] < src->runtime_ms[d])
			dst->runtime_ms[d] = src->runtime_ms[d];
	}
	sum_moments(&dst->sync, &src->sync);
	add_counts(dst->io_bytes, src->io_bytes, STATS_DDIR_NR);
	add_counts(dst->total_ios, src->total_ios, STATS_DDIR_NR);
	add_counts(dst->short_ios, src->short_ios, STATS_DDIR_NR);
	add_counts(dst->drop_ios, src->drop_ios, STATS_DDIR_NR);
	dst->total_sync += src->total_sync;
	dst->run_time_ms += src->run_time_ms;
	dst->usr_ns += src->usr_ns;
	dst->sys_ns += src->sys_ns;
	dst->ctx += src->ctx;
	dst->minf += src->minf;
	dst->majf += src->majf;
	add_counts(dst->depth_map, src->depth_map, STATS_MAP_NR);
	add_counts(dst->submit_map, src->submit_map, STATS_MAP_NR);
	add_counts(dst->complete_map, src->complete_map, STATS_MAP_NR);
	dst->total_submit += src->total_submit;
	dst->total_complete += src->total_complete;
	add_counts(dst->lat_n, src->lat_n, STATS_LAT_N_NR);
	add_counts(dst->lat_u, src->lat_u, STATS_LAT_U_NR);
	add_counts(dst->lat_m, src->lat_m, STATS_LAT_M_NR);
	add_counts(&dst->plat[0][0][0], &src->plat[0][0][0],
		   (size_t)STATS_LAT_NR * STATS_DDIR_NR * STATS_PLAT_NR);
	add_counts(dst->sync_plat, src->sync_plat, STATS_PLAT_NR);
	dst->members += src->members;
}

void stats_group_init(struct stats_group *g)
{
	memset(g, 0, sizeof(*g));
	for (int d = 0; d < STATS_DDIR_NR; d++)
		g->min_bw[d] = g->min_run[d] = UINT64_MAX;
}

void stats_group_add(struct stats_group *g, const struct job_stats *ts)
{
	for (int d = 0; d < STATS_DDIR_NR; d++) {
		uint64_t run = ts->runtime_ms[d], bw;

		if (!run)
			continue;
		if (run < g->min_run[d])
			g->min_run[d] = run;
		if (run > g->max_run[d])
			g->max_run[d] = run;
		bw = ts->io_bytes[d] * 1000 / run;
		if (bw < g->min_bw[d])
			g->min_bw[d] = bw;
		if (bw > g->max_bw[d])
			g->max_bw[d] = bw;
		g->io_bytes[d] += ts->io_bytes[d];
	}
}

void stats_group_finish(struct stats_group *g)
{
	for (int d = 0; d < STATS_DDIR_NR; d++)
		if (g->max_run[d])
			g->agg[d] = g->io_bytes[d] * 1000 / g->max_run[d];
}
