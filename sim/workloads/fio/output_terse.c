/*
 * fio's terse output (--output-format=terse, --minimal): one line of
 * semicolon-separated fields per reported entry, for scripts.
 *
 * Parameters: the run description (output.h), its terse_version: 2 (no
 * fio version; trim; the description on a line of its own), 3 (fio's
 * default: no trim; disk utilisation), 4 (3 with trim) or 5 (4 with the
 * bandwidth sample count and the IOPS statistics of each direction).
 *
 * Per direction: KiB moved, KiB/s, IOPS, runtime (ms); submission, completion
 * and total latency as min and max (whole µs) and mean and stdev (µs, %f);
 * twenty completion-latency percentiles "P%=µs" ("0%=0" past the list);
 * bandwidth min, max, share of the group's aggregate, mean and stdev
 * (KiB/s). Then CPU (usr%, sys%, context switches, major and minor faults),
 * the seven I/O depth buckets, the latency distribution (the nanosecond
 * buckets folded into "<=2 µs", then µs and ms), each disk's utilisation
 * and the description.
 *
 * Sources: fio 3.33 HOWTO.rst "Terse output" (the field list), and the
 * output of Debian's fio 3.33 binary for the number formats (checked by
 * tests/terse-vs-fio.sh). Facts only; the code is storsim's.
 */
#include <string.h>

#include "output_int.h"

/* min and max in whole µs, mean and stdev in µs: zeros when no samples. */
static void lat_fields(GString *out, const struct stats_moments *m)
{
	uint64_t min = 0, max = 0;
	double mean = 0.0, dev = 0.0;

	stats_moments_get(m, &min, &max, &mean, &dev);
	g_string_append_printf(out, ";%" G_GUINT64_FORMAT ";%" G_GUINT64_FORMAT
			       ";%f;%f", min / 1000, max / 1000, mean / 1000.0,
			       dev / 1000.0);
}

/* The completion latency percentiles (total latency's with
 * lat_percentiles), always STATS_PERCENTILE_MAX fields. */
static void percentile_fields(GString *out, const struct job_stats *ts,
			      enum stats_ddir d)
{
	const struct stats_config *cfg = &ts->cfg;
	enum stats_lat which = cfg->lat_percentiles ? STATS_LAT : STATS_CLAT;
	uint64_t vals[STATS_PERCENTILE_MAX] = {0};
	unsigned n = 0;

	if (cfg->clat_percentiles || cfg->lat_percentiles) {
		n = cfg->nr_percentiles;
		stats_percentiles(ts->plat[which][d], ts->lat[which][d].samples,
				  cfg->percentiles, n, vals);
	}
	for (unsigned i = 0; i < STATS_PERCENTILE_MAX; i++) {
		if (i < n)
			g_string_append_printf(out, ";%f%%=%" G_GUINT64_FORMAT,
					       cfg->percentiles[i], vals[i] / 1000);
		else
			g_string_append(out, ";0%=0");
	}
}

static void ddir_fields(GString *out, const struct job_stats *ts,
			const struct stats_group *g, enum stats_ddir d,
			unsigned version)
{
	uint64_t run = ts->runtime_ms[d], bw = 0, iops = 0, min = 0, max = 0;
	double mean = 0.0, dev = 0.0, share = 0.0;

	if (run) {
		bw = 1000 * ts->io_bytes[d] / run / 1024;
		iops = 1000 * ts->total_ios[d] / run;
	}
	g_string_append_printf(out, ";%" G_GUINT64_FORMAT ";%" G_GUINT64_FORMAT
			       ";%" G_GUINT64_FORMAT ";%" G_GUINT64_FORMAT,
			       ts->io_bytes[d] >> 10, bw, iops, run);
	lat_fields(out, &ts->lat[STATS_SLAT][d]);
	lat_fields(out, &ts->lat[STATS_CLAT][d]);
	percentile_fields(out, ts, d);
	lat_fields(out, &ts->lat[STATS_LAT][d]);

	if (stats_moments_get(&ts->bw[d], &min, &max, &mean, &dev))
		share = output_bw_share(g, d, mean);
	g_string_append_printf(out, ";%" G_GUINT64_FORMAT ";%" G_GUINT64_FORMAT
			       ";%f%%;%f;%f", min, max, share, mean, dev);
	if (version < 5)
		return;
	g_string_append_printf(out, ";%" G_GUINT64_FORMAT, ts->bw[d].samples);
	min = max = 0;
	mean = dev = 0.0;
	stats_moments_get(&ts->iops[d], &min, &max, &mean, &dev);
	g_string_append_printf(out, ";%" G_GUINT64_FORMAT ";%" G_GUINT64_FORMAT
			       ";%f;%f;%" G_GUINT64_FORMAT, min, max, mean, dev,
			       ts->iops[d].samples);
}

static void entry_line(GString *out, const struct output_run *run,
		       const struct output_report *r,
		       const struct output_entry *e, unsigned version)
{
	const struct job_stats *ts = &e->ts;
	const struct output_job *job = e->job;
	const struct stats_group *g = output_entry_group(r, e);
	uint64_t total = ts->total_ios[0] + ts->total_ios[1] + ts->total_ios[2];
	double depth[STATS_MAP_NR], lat_n[STATS_LAT_N_NR], lat_u[STATS_LAT_U_NR];
	double lat_m[STATS_LAT_M_NR], usr, sys;
	const bool trim = version != 3;

	if (version == 2)
		g_string_append_printf(out, "2;%s;%u;%d", job->name,
				       job->groupid, e->error);
	else
		g_string_append_printf(out, "%u;%s;%s;%u;%d", version,
				       run->version, job->name, job->groupid,
				       e->error);
	for (int d = 0; d < (ts->cfg.unified ? 1 : STATS_DDIR_NR); d++)
		if (d != STATS_TRIM || trim)
			ddir_fields(out, ts, g, d, version);

	output_cpu_percent(ts, &usr, &sys);
	g_string_append_printf(out, ";%f%%;%f%%;%" G_GUINT64_FORMAT
			       ";%" G_GUINT64_FORMAT ";%" G_GUINT64_FORMAT,
			       usr, sys, ts->ctx, ts->majf, ts->minf);
	stats_calc_dist(ts->depth_map, total, depth);
	for (int i = 0; i < STATS_MAP_NR; i++)
		g_string_append_printf(out, ";%3.1f%%", depth[i]);
	/* Terse has no nanosecond buckets: they count as "<=2 µs". */
	stats_calc_lat(ts, ts->lat_n, STATS_LAT_N_NR, lat_n);
	stats_calc_lat(ts, ts->lat_u, STATS_LAT_U_NR, lat_u);
	stats_calc_lat(ts, ts->lat_m, STATS_LAT_M_NR, lat_m);
	for (int i = 0; i < STATS_LAT_N_NR; i++)
		lat_u[0] += lat_n[i];
	for (int i = 0; i < STATS_LAT_U_NR; i++)
		g_string_append_printf(out, ";%3.2f%%", lat_u[i]);
	for (int i = 0; i < STATS_LAT_M_NR; i++)
		g_string_append_printf(out, ";%3.2f%%", lat_m[i]);

	for (size_t i = 0; version >= 3 && i < run->nr_disks; i++) {
		const struct output_disk *k = &run->disks[i];

		g_string_append_printf(out, ";%s;%" G_GUINT64_FORMAT
			";%" G_GUINT64_FORMAT ";%" G_GUINT64_FORMAT
			";%" G_GUINT64_FORMAT ";%" G_GUINT64_FORMAT
			";%" G_GUINT64_FORMAT ";%" G_GUINT64_FORMAT ";%3.2f%%",
			k->name, k->ios[0], k->ios[1], k->merges[0],
			k->merges[1], k->ticks[0], k->ticks[1], k->in_queue,
			k->util > 100.0 ? 100.0 : k->util);
	}
	if (job->description && *job->description)
		g_string_append_printf(out, "%s;%s", version == 2 ? "\n" : "",
				       job->description);
	g_string_append_c(out, '\n');
}

void output_terse(GString *out, const struct output_run *run)
{
	unsigned version = run->terse_version ? run->terse_version : 3;
	struct output_locale loc;
	struct output_report r;

	output_locale_enter(&loc);
	output_report_build(&r, run);
	for (size_t i = 0; i < r.nr_entries; i++)
		entry_line(out, run, &r, &r.entries[i], version);
	output_report_free(&r);
	output_locale_leave(&loc);
}
