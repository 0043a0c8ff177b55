/*
 * fio's normal (human) output: the preamble (one header line per job,
 * the version, "Starting N processes"), then per reported entry the IOPS/BW
 * lines, latency lines with their automatic unit, percentiles, bw/iops
 * samples, latency distribution, cpu and depth lines, then the "Run status
 * group" lines and "Disk stats".
 *
 * Parameters: the run description (output.h): kb_base (1000/1024) picks
 * the primary unit system, significant_figures the digits of num2str,
 * unit_base bits or bytes, the percentile list and its precision.
 *
 * Sources: fio 3.33 init.c (header line), backend.c ("Starting ..."),
 * stat.c (show_thread_status_normal, show_ddir_status, display_lat,
 * show_clat_percentiles, show_lat, show_group_stats, print_disk_util),
 * stat.h (nsec_to_usec/nsec_to_msec), zbd.c (zone resets suffix). Facts
 * only; the code is storsim's.
 */
#include <math.h>
#include <string.h>

#include "output_int.h"

static bool is_pow2(unsigned v)
{
	return v && !(v & (v - 1));
}

/* A quantity in a unit: "B", or a rate "B/s" / "bit/s". */
static char *num(uint64_t v, const struct output_job *job, bool pow2,
		 bool rate)
{
	if (rate && job->unit_bits)
		return output_num2str(v * 8, (int)job->sig_figs, pow2, "bit/s");
	return output_num2str(v, (int)job->sig_figs, pow2, rate ? "B/s" : "B");
}

void output_normal_preamble(GString *out, const struct output_run *run)
{
	unsigned threads = 0, processes = 0;
	bool prev_clone = false;

	for (size_t i = 0; i < run->nr_jobs; i++) {
		const struct output_job *j = &run->jobs[i];
		const bool pow2 = is_pow2(j->kb_base);
		char *bs[6];

		/* A group_reporting entry stands for all its jobs. */
		unsigned n = j->group_reporting && j->stats && j->stats->members ?
			     j->stats->members : 1;

		if (j->use_thread)
			threads += n;
		else
			processes += n;
		/* numjobs copies show as one "..." line after the first. */
		if (j->is_clone) {
			if (!prev_clone)
				g_string_append(out, "...\n");
			prev_clone = true;
			continue;
		}
		prev_clone = false;
		for (int d = 0; d < STATS_DDIR_NR; d++) {
			bs[2 * d] = output_num2str(j->min_bs[d], (int)j->sig_figs,
						   pow2, "B");
			bs[2 * d + 1] = output_num2str(j->max_bs[d],
						       (int)j->sig_figs, pow2,
						       "B");
		}
		g_string_append_printf(out, "%s: (g=%u): rw=%s, bs=(R) %s-%s, (W) %s-%s, ",
				       j->name, j->groupid, j->rw, bs[0], bs[1],
				       bs[2], bs[3]);
		if (j->bs_is_seq_rand)
			g_string_append(out, "bs_is_seq_rand, ");
		else
			g_string_append_printf(out, "(T) %s-%s, ", bs[4], bs[5]);
		g_string_append_printf(out, "ioengine=%s, iodepth=%u\n",
				       j->ioengine, j->iodepth);
		for (int k = 0; k < 6; k++)
			g_free(bs[k]);
		if (n > 1)
			g_string_append(out, "...\n");
	}
	g_string_append_printf(out, "%s\nStarting ", run->version);
	if (threads)
		g_string_append_printf(out, "%u thread%s", threads,
				       threads > 1 ? "s" : "");
	if (threads && processes)
		g_string_append(out, " and ");
	if (processes)
		g_string_append_printf(out, "%u process%s", processes,
				       processes > 1 ? "es" : "");
	g_string_append_c(out, '\n');
}

/* fio's display_lat: nsec, or usec/msec once the spread is wide enough. */
static void lat_line(GString *out, const char *name,
		     const struct stats_moments *m)
{
	uint64_t min, max;
	double mean, dev;
	const char *unit = "(nsec)";
	char *minp, *maxp;

	if (!stats_moments_get(m, &min, &max, &mean, &dev))
		return;
	if (min > 2000000 && max > 99999999 && dev > 1000000.0) {
		unit = "(msec)";
		min /= 1000000;
		max /= 1000000;
		mean /= 1000000.0;
		dev /= 1000000.0;
	} else if (min > 2000 && max > 99999 && dev > 1000.0) {
		unit = "(usec)";
		min /= 1000;
		max /= 1000;
		mean /= 1000.0;
		dev /= 1000.0;
	}
	minp = output_num2str(min, 6, false, "");
	maxp = output_num2str(max, 6, false, "");
	g_string_append_printf(out,
		"    %s %s: min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n",
		name, unit, minp, maxp, mean, dev);
	g_free(minp);
	g_free(maxp);
}

/* fio's show_clat_percentiles. */
static void percentile_lines(GString *out, const char *name,
			     const struct stats_config *cfg,
			     const uint64_t *plat, uint64_t nr)
{
	uint64_t vals[STATS_PERCENTILE_MAX], minv = UINT64_MAX, maxv = 0;
	unsigned len = stats_percentiles(plat, nr, cfg->percentiles,
					 cfg->nr_percentiles, vals);
	unsigned prec = cfg->percentile_precision, scale = 0, per_line;
	uint64_t divisor = 1, top;
	const char *unit = "nsec";
	int width;

	if (!len)
		return;
	for (unsigned j = 0; j < len; j++) {
		if (vals[j] < minv)
			minv = vals[j];
		if (vals[j] > maxv)
			maxv = vals[j];
	}
	if (minv > 2000000 && maxv > 99999999) {
		scale = 2;
		divisor = 1000000;
		unit = "msec";
	} else if (minv > 2000 && maxv > 99999) {
		scale = 1;
		divisor = 1000;
		unit = "usec";
	}
	g_string_append_printf(out, "    %s percentiles (%s):\n     |", name,
			       unit);
	/* Column width from the largest value's digits, at least 5. */
	top = maxv / divisor;
	width = top ? (int)(log10((double)top) + 1) : 0;
	if (width < 5)
		width = 5;
	per_line = (80 - 7) / (prec + 10 + (unsigned)width);
	if (!per_line)
		per_line = 1;
	for (unsigned j = 0; j < len; j++) {
		uint64_t v = vals[j];

		if (j && j % per_line == 0)
			g_string_append(out, "     |");
		/* Scaled values round up, so no percentile shows as 0. */
		for (unsigned s = 0; s < scale; s++)
			v = (v + 999) / 1000;
		g_string_append_printf(out, " %*.*fth=[%*" G_GUINT64_FORMAT "]%c",
				       (int)prec + 3, (int)prec,
				       cfg->percentiles[j], width, v,
				       j == len - 1 ? '\n' : ',');
		if (j != len - 1 && j % per_line == per_line - 1)
			g_string_append_c(out, '\n');
	}
}

static void bw_lines(GString *out, const struct output_entry *e,
		     const struct stats_group *g, enum stats_ddir d)
{
	const struct job_stats *ts = &e->ts;
	const double base = (double)e->job->kb_base;
	uint64_t min, max;
	double mean, dev, share;
	const char *unit;

	if (stats_moments_get(&ts->bw[d], &min, &max, &mean, &dev)) {
		/* fio's bit units here test unit_base against a value it
		 * never holds, so these lines always count bytes. */
		unit = is_pow2(e->job->kb_base) ? "KiB" : "kB";
		share = output_bw_share(g, d, mean);
		if (mean > base * base) {
			min = (uint64_t)((double)min / base);
			max = (uint64_t)((double)max / base);
			mean /= base;
			dev /= base;
			unit = "MiB";
		}
		g_string_append_printf(out,
			"   bw (%5s/s): min=%5" G_GUINT64_FORMAT ", max=%5"
			G_GUINT64_FORMAT ", per=%3.2f%%, avg=%5.02f, stdev=%5.02f, samples=%"
			G_GUINT64_FORMAT "\n", unit, min, max, share, mean, dev,
			ts->bw[d].samples);
	}
	if (stats_moments_get(&ts->iops[d], &min, &max, &mean, &dev))
		g_string_append_printf(out,
			"   iops        : min=%5" G_GUINT64_FORMAT ", max=%5"
			G_GUINT64_FORMAT ", avg=%5.02f, stdev=%5.02f, samples=%"
			G_GUINT64_FORMAT "\n", min, max, mean, dev,
			ts->iops[d].samples);
}

static void ddir_lines(GString *out, const struct output_entry *e,
		       const struct stats_group *g, enum stats_ddir d)
{
	static const char *const lat_name[STATS_LAT_NR] = {
		"slat", "clat", " lat",
	};
	static const char *const pct_name[STATS_LAT_NR] = {
		"slat", "clat", "lat",
	};
	const struct job_stats *ts = &e->ts;
	const struct output_job *job = e->job;
	const bool pow2 = is_pow2(job->kb_base);
	const bool pct[STATS_LAT_NR] = {
		ts->cfg.slat_percentiles, ts->cfg.clat_percentiles,
		ts->cfg.lat_percentiles,
	};
	uint64_t run = ts->runtime_ms[d], bw;
	char *io, *bwp, *bwalt, *iops;

	if (!run)
		return;
	bw = 1000 * ts->io_bytes[d] / run;
	io = num(ts->io_bytes[d], job, pow2, false);
	bwp = num(bw, job, pow2, true);
	bwalt = num(bw, job, !pow2, true);
	iops = output_num2str(1000 * ts->total_ios[d] / run,
			      (int)job->sig_figs, false, "");
	g_string_append_printf(out,
		"  %s: IOPS=%s, BW=%s (%s)(%s/%" G_GUINT64_FORMAT "msec)%s\n",
		output_ddir_label(ts, d), iops, bwp, bwalt, io, run,
		d == STATS_WRITE ? "; 0 zone resets" : "");
	g_free(io);
	g_free(bwp);
	g_free(bwalt);
	g_free(iops);

	for (int l = 0; l < STATS_LAT_NR; l++)
		lat_line(out, lat_name[l], &ts->lat[l][d]);
	for (int l = 0; l < STATS_LAT_NR; l++)
		if (pct[l] && ts->lat[l][d].samples)
			percentile_lines(out, pct_name[l], &ts->cfg,
					 ts->plat[l][d], ts->lat[l][d].samples);
	bw_lines(out, e, g, d);
}

/* fio's show_lat: the non-zero buckets of one unit, five to a line. */
static void latency_dist_lines(GString *out, const struct job_stats *ts,
			       const uint64_t *src, unsigned nr,
			       const char *unit)
{
	static const char *const edge[] = {
		"2=", "4=", "10=", "20=", "50=", "100=", "250=", "500=",
		"750=", "1000=", "2000=", ">=2000=",
	};
	double pct[STATS_LAT_M_NR];
	unsigned on_line = 0;
	bool shown = false;

	stats_calc_lat(ts, src, nr, pct);
	for (unsigned i = 0; i < nr; i++) {
		if (pct[i] <= 0.0)
			continue;
		if (on_line == 5) {
			g_string_append_c(out, '\n');
			on_line = 0;
		}
		if (!on_line)
			g_string_append_printf(out, "  lat (%s)   : ", unit);
		else
			g_string_append(out, ", ");
		g_string_append_printf(out, "%s%3.2f%%", edge[i], pct[i]);
		on_line++;
		shown = true;
	}
	if (shown)
		g_string_append_c(out, '\n');
}

static void dist_line(GString *out, const char *head, const uint64_t *map,
		      uint64_t total, const char *const *keys)
{
	double pct[STATS_MAP_NR];

	stats_calc_dist(map, total, pct);
	g_string_append(out, head);
	for (int i = 0; i < STATS_MAP_NR; i++)
		g_string_append_printf(out, "%s%s=%3.1f%%", i ? ", " : "",
				       keys[i], pct[i]);
	g_string_append_c(out, '\n');
}

static void append_block(GString *out, const char *text)
{
	if (!text || !*text)
		return;
	g_string_append(out, text);
	if (text[strlen(text) - 1] != '\n')
		g_string_append_c(out, '\n');
}

static void entry_lines(GString *out, const struct output_run *run,
			const struct output_report *r,
			const struct output_entry *e)
{
	static const char *const depth_keys[] = {
		"1", "2", "4", "8", "16", "32", ">=64",
	};
	static const char *const batch_keys[] = {
		"0", "4", "8", "16", "32", "64", ">=64",
	};
	const struct job_stats *ts = &e->ts;
	const struct output_job *job = e->job, *last = e->last;
	const struct stats_group *g = output_entry_group(r, e);
	uint64_t total = ts->total_ios[0] + ts->total_ios[1] + ts->total_ios[2];
	uint64_t bytes = ts->io_bytes[0] + ts->io_bytes[1] + ts->io_bytes[2];
	double usr, sys;
	char date[64];

	if (!bytes && !total)
		return;
	output_ctime(run->timestamp, date, sizeof(date));
	if (!e->error)
		g_string_append_printf(out,
			"%s: (groupid=%u, jobs=%u): err=%2d: pid=%d: %s\n",
			job->name, job->groupid, ts->members, e->error,
			job->pid, date);
	else
		g_string_append_printf(out,
			"%s: (groupid=%u, jobs=%u): err=%2d (%s): pid=%d: %s\n",
			job->name, job->groupid, ts->members, e->error,
			e->verror ? e->verror : "", job->pid, date);
	if (job->description && *job->description)
		g_string_append_printf(out, "  Description  : [%s]\n",
				       job->description);
	for (int d = 0; d < STATS_DDIR_NR; d++)
		if (ts->io_bytes[d])
			ddir_lines(out, e, g, d);

	latency_dist_lines(out, ts, ts->lat_n, STATS_LAT_N_NR, "nsec");
	latency_dist_lines(out, ts, ts->lat_u, STATS_LAT_U_NR, "usec");
	latency_dist_lines(out, ts, ts->lat_m, STATS_LAT_M_NR, "msec");

	if (ts->sync.samples) {
		g_string_append(out, "  fsync/fdatasync/sync_file_range:\n");
		lat_line(out, "sync", &ts->sync);
		percentile_lines(out, "sync", &ts->cfg, ts->sync_plat,
				 ts->sync.samples);
	}

	output_cpu_percent(ts, &usr, &sys);
	g_string_append_printf(out,
		"  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=%" G_GUINT64_FORMAT
		", majf=%" G_GUINT64_FORMAT ", minf=%" G_GUINT64_FORMAT "\n",
		usr, sys, ts->ctx, ts->majf, ts->minf);
	dist_line(out, "  IO depths    : ", ts->depth_map, total, depth_keys);
	dist_line(out, "     submit    : ", ts->submit_map, ts->total_submit,
		  batch_keys);
	dist_line(out, "     complete  : ", ts->complete_map,
		  ts->total_complete, batch_keys);
	g_string_append_printf(out,
		"     issued rwts: total=%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT
		",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT " short=%"
		G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT
		",0 dropped=%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%"
		G_GUINT64_FORMAT ",0\n",
		ts->total_ios[0], ts->total_ios[1], ts->total_ios[2],
		ts->total_sync, ts->short_ios[0], ts->short_ios[1],
		ts->short_ios[2], ts->drop_ios[0], ts->drop_ios[1],
		ts->drop_ios[2]);
	if (last->latency_depth)
		g_string_append_printf(out,
			"     latency   : target=%" G_GUINT64_FORMAT ", window=%"
			G_GUINT64_FORMAT ", percentile=%.2f%%, depth=%u\n",
			last->latency_target, last->latency_window,
			last->latency_percentile, last->latency_depth);
	append_block(out, job->text_extra);
}

/* fio's show_group_stats: aggregate, per-entry min-max, io, runtimes. */
static void group_lines(GString *out, unsigned id, const struct stats_group *g,
			const struct output_job *job)
{
	static const char *const head[STATS_DDIR_NR] = {
		"   READ", "  WRITE", "   TRIM",
	};
	const bool pow2 = is_pow2(job->kb_base);

	g_string_append_printf(out, "\nRun status group %u (all jobs):\n", id);
	for (int d = 0; d < STATS_DDIR_NR; d++) {
		const char *name = job->unified ? "  MIXED" : head[d];
		char *s[8];

		if (!g->max_run[d])
			continue;
		s[0] = num(g->agg[d], job, pow2, true);
		s[1] = num(g->agg[d], job, !pow2, true);
		s[2] = num(g->min_bw[d], job, pow2, true);
		s[3] = num(g->max_bw[d], job, pow2, true);
		s[4] = num(g->min_bw[d], job, !pow2, true);
		s[5] = num(g->max_bw[d], job, !pow2, true);
		s[6] = num(g->io_bytes[d], job, pow2, false);
		s[7] = num(g->io_bytes[d], job, !pow2, false);
		g_string_append_printf(out,
			"%s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%"
			G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT "msec\n",
			name, s[0], s[1], s[2], s[3], s[4], s[5], s[6],
			s[7], g->min_run[d], g->max_run[d]);
		for (int k = 0; k < 8; k++)
			g_free(s[k]);
	}
}

void output_normal_results(GString *out, const struct output_run *run)
{
	struct output_locale loc;
	struct output_report r;

	output_locale_enter(&loc);
	output_report_build(&r, run);
	g_string_append_c(out, '\n');
	for (size_t i = 0; i < r.nr_entries; i++)
		entry_lines(out, run, &r, &r.entries[i]);
	for (unsigned gid = 0; gid < r.nr_groups; gid++) {
		/* fio takes a group's units from its last entry. */
		const struct output_job *job = NULL;

		for (size_t i = 0; i < r.nr_entries; i++)
			if (r.entries[i].job->groupid == gid)
				job = r.entries[i].job;
		if (job)
			group_lines(out, gid, &r.groups[gid], job);
		else
			g_string_append_printf(out,
				"\nRun status group %u (all jobs):\n", gid);
	}
	if (run->nr_disks) {
		g_string_append(out, "\nDisk stats (read/write):\n");
		for (size_t i = 0; i < run->nr_disks; i++) {
			const struct output_disk *d = &run->disks[i];

			g_string_append_printf(out,
				"  %s: ios=%" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT
				", merge=%" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT
				", ticks=%" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT
				", in_queue=%" G_GUINT64_FORMAT ", util=%3.2f%%\n",
				d->name, d->ios[0], d->ios[1], d->merges[0],
				d->merges[1], d->ticks[0], d->ticks[1],
				d->in_queue, d->util > 100.0 ? 100.0 : d->util);
		}
	}
	append_block(out, run->text_extra);
	output_report_free(&r);
	output_locale_leave(&loc);
}
