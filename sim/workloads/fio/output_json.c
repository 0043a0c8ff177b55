/*
 * fio's --output-format=json and json+: the document built with json-c in
 * fio 3.33's key order, and a serialiser that lays it out as fio's json.c
 * does (two-space indentation, " : ", floats as %f, integers plain).
 *
 * Parameters: the run description (output.h); plus = json+ (adds "bins",
 * the non-empty histogram buckets, keyed by bucket value in ns).
 *
 * Sources: fio 3.33 stat.c (__show_run_stats top level,
 * show_thread_status_json, add_ddir_status_json, add_ddir_lat_json,
 * json_add_job_opts, json_array_add_disk_util), json.c (layout), eta.c
 * (eta is INT_MAX until 3 s have elapsed, then 0 for finished jobs);
 * fio-plot's jsonparsing.py (the options it indexes). Facts only.
 */
#include <math.h>
#include <string.h>

#include "output_int.h"

static void add_int(struct json_object *o, const char *key, uint64_t v)
{
	json_object_object_add(o, key, v > (uint64_t)INT64_MAX ?
				json_object_new_uint64(v) :
				json_object_new_int64((int64_t)v));
}

static void add_float(struct json_object *o, const char *key, double v)
{
	json_object_object_add(o, key, json_object_new_double(v));
}

static void add_string(struct json_object *o, const char *key, const char *v)
{
	json_object_object_add(o, key, json_object_new_string(v ? v : ""));
}

static struct json_object *add_object(struct json_object *o, const char *key)
{
	struct json_object *child = json_object_new_object();

	json_object_object_add(o, key, child);
	return child;
}

/* A percentile as fio names it: printf("%f"). */
static void percentile_key(char *buf, size_t len, double p)
{
	g_ascii_formatd(buf, (int)len, "%f", p);
}

static struct json_object *lat_json(const struct job_stats *ts,
				    bool percentiles,
				    const struct stats_moments *m,
				    const uint64_t *plat, bool plus)
{
	struct json_object *o = json_object_new_object();
	uint64_t min = 0, max = 0, vals[STATS_PERCENTILE_MAX];
	double mean = 0.0, dev = 0.0;
	struct json_object *pct, *bins;
	unsigned n;
	char key[64];

	stats_moments_get(m, &min, &max, &mean, &dev);
	add_int(o, "min", min);
	add_int(o, "max", max);
	add_float(o, "mean", mean);
	add_float(o, "stddev", dev);
	add_int(o, "N", m->samples);
	if (!percentiles || !m->samples)
		return o;
	n = stats_percentiles(plat, m->samples, ts->cfg.percentiles,
			      ts->cfg.nr_percentiles, vals);
	pct = add_object(o, "percentile");
	for (unsigned i = 0; i < n; i++) {
		percentile_key(key, sizeof(key), ts->cfg.percentiles[i]);
		add_int(pct, key, vals[i]);
	}
	if (!plus)
		return o;
	bins = add_object(o, "bins");
	for (unsigned i = 0; i < STATS_PLAT_NR; i++) {
		if (!plat[i])
			continue;
		g_snprintf(key, sizeof(key), "%" G_GUINT64_FORMAT,
			   stats_plat_val(i));
		add_int(bins, key, plat[i]);
	}
	return o;
}

static void ddir_json(struct json_object *job, const struct job_stats *ts,
		      const struct stats_group *g, enum stats_ddir d, bool plus)
{
	static const char *const lat_key[STATS_LAT_NR] = {
		"slat_ns", "clat_ns", "lat_ns",
	};
	const bool pct[STATS_LAT_NR] = {
		ts->cfg.slat_percentiles, ts->cfg.clat_percentiles,
		ts->cfg.lat_percentiles,
	};
	struct json_object *o = add_object(job, output_ddir_label(ts, d));
	uint64_t run = ts->runtime_ms[d], bw_bytes = 0, min = 0, max = 0;
	double iops = 0.0, mean = 0.0, dev = 0.0, share = 0.0;

	if (run) {
		bw_bytes = 1000 * ts->io_bytes[d] / run;
		iops = 1000.0 * (double)ts->total_ios[d] / (double)run;
	}
	add_int(o, "io_bytes", ts->io_bytes[d]);
	add_int(o, "io_kbytes", ts->io_bytes[d] >> 10);
	add_int(o, "bw_bytes", bw_bytes);
	add_int(o, "bw", bw_bytes / 1024);
	add_float(o, "iops", iops);
	add_int(o, "runtime", run);
	add_int(o, "total_ios", ts->total_ios[d]);
	add_int(o, "short_ios", ts->short_ios[d]);
	add_int(o, "drop_ios", ts->drop_ios[d]);
	for (int l = 0; l < STATS_LAT_NR; l++)
		json_object_object_add(o, lat_key[l],
			lat_json(ts, pct[l], &ts->lat[l][d], ts->plat[l][d],
				 plus));

	if (stats_moments_get(&ts->bw[d], &min, &max, &mean, &dev))
		share = output_bw_share(g, d, mean);
	add_int(o, "bw_min", min);
	add_int(o, "bw_max", max);
	add_float(o, "bw_agg", share);
	add_float(o, "bw_mean", mean);
	add_float(o, "bw_dev", dev);
	add_int(o, "bw_samples", ts->bw[d].samples);

	min = max = 0;
	mean = dev = 0.0;
	stats_moments_get(&ts->iops[d], &min, &max, &mean, &dev);
	add_int(o, "iops_min", min);
	add_int(o, "iops_max", max);
	add_float(o, "iops_mean", mean);
	add_float(o, "iops_stddev", dev);
	add_int(o, "iops_samples", ts->iops[d].samples);
}

static bool has_option(const struct output_option *opts, size_t n,
		       const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(opts[i].name, name))
			return true;
	return false;
}

/* bs as fio's option would say it: one size, or read,write,trim. */
static char *bs_text(const struct output_job *job)
{
	if (job->min_bs[0] == job->min_bs[1] && job->min_bs[1] == job->min_bs[2])
		return g_strdup_printf("%" G_GUINT64_FORMAT, job->min_bs[0]);
	return g_strdup_printf("%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT
			       ",%" G_GUINT64_FORMAT, job->min_bs[0],
			       job->min_bs[1], job->min_bs[2]);
}

/*
 * "job options": the section's options, then iodepth, numjobs, bs and rw
 * when neither the section nor [global] set them, because fio-plot indexes
 * all four (and int()s iodepth and numjobs, so those are always integers).
 */
static void job_options_json(struct json_object *o,
			     const struct output_run *run,
			     const struct output_job *job)
{
	struct json_object *opts = json_object_new_object();
	g_autofree char *depth = g_strdup_printf("%u", job->iodepth);
	g_autofree char *numjobs = g_strdup_printf("%u", job->numjobs);
	g_autofree char *bs = bs_text(job);
	const struct output_option echo[] = {
		{ "iodepth", depth },
		{ "numjobs", numjobs },
		{ "bs", bs },
		{ "rw", job->rw },
	};

	for (size_t i = 0; i < job->nr_options; i++) {
		const char *v = job->options[i].value;

		if (!strcmp(job->options[i].name, "iodepth"))
			v = depth;
		else if (!strcmp(job->options[i].name, "numjobs"))
			v = numjobs;
		add_string(opts, job->options[i].name, v);
	}
	for (size_t i = 0; i < G_N_ELEMENTS(echo); i++)
		if (!has_option(job->options, job->nr_options, echo[i].name) &&
		    !has_option(run->global_options, run->nr_global_options,
				echo[i].name))
			add_string(opts, echo[i].name, echo[i].value);
	/* fio leaves the key out when there is nothing to list. */
	if (json_object_object_length(opts))
		json_object_object_add(o, "job options", opts);
	else
		json_object_put(opts);
}

static void dist_json(struct json_object *job, const char *key,
		      const uint64_t *map, uint64_t total, bool batches)
{
	struct json_object *o = add_object(job, key);
	double pct[STATS_MAP_NR];
	char name[16];

	stats_calc_dist(map, total, pct);
	for (int i = 0; i < STATS_MAP_NR; i++) {
		/* depth keys 1..32, >=64; batch keys 0, 4..64, >=64 */
		if (i == STATS_MAP_NR - 1)
			g_snprintf(name, sizeof(name), ">=%d", 1 << i);
		else if (batches)
			g_snprintf(name, sizeof(name), "%d", i ? 1 << (i + 1) : 0);
		else
			g_snprintf(name, sizeof(name), "%d", 1 << i);
		add_float(o, name, pct[i]);
	}
}

static void latency_dist_json(struct json_object *job, const char *key,
			      const struct job_stats *ts, const uint64_t *src,
			      unsigned nr)
{
	static const char *const edge[] = {
		"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000",
		"2000", ">=2000",
	};
	struct json_object *o = add_object(job, key);
	double pct[STATS_LAT_M_NR];

	stats_calc_lat(ts, src, nr, pct);
	for (unsigned i = 0; i < nr; i++)
		add_float(o, edge[i], pct[i]);
}

static struct json_object *job_json(const struct output_run *run,
				    const struct output_report *r,
				    const struct output_entry *e, bool plus)
{
	const struct job_stats *ts = &e->ts;
	const struct output_job *job = e->job, *last = e->last;
	const struct stats_group *g = output_entry_group(r, e);
	struct json_object *o = json_object_new_object();
	uint64_t total = ts->total_ios[0] + ts->total_ios[1] + ts->total_ios[2];
	double usr, sys;

	add_string(o, "jobname", job->name);
	add_int(o, "groupid", job->groupid);
	json_object_object_add(o, "error", json_object_new_int(e->error));
	add_int(o, "eta", job->elapsed_s >= 3 ? 0 : G_MAXINT);
	add_int(o, "elapsed", job->elapsed_s);
	job_options_json(o, run, last);
	for (int d = 0; d < (ts->cfg.unified ? 1 : STATS_DDIR_NR); d++)
		ddir_json(o, ts, g, d, plus);

	/* add_ddir_status_json: unified_rw_reporting=mixed reports "mixed"
	 * alone, no "sync" */
	if (!ts->cfg.unified) {
		struct json_object *sync = add_object(o, "sync");
		add_int(sync, "total_ios", ts->total_sync);
		json_object_object_add(sync, "lat_ns",
			lat_json(ts, ts->cfg.lat_percentiles ||
				     ts->cfg.clat_percentiles,
				 &ts->sync, ts->sync_plat, plus));
	}

	output_cpu_percent(ts, &usr, &sys);
	add_int(o, "job_runtime", ts->run_time_ms);
	add_float(o, "usr_cpu", usr);
	add_float(o, "sys_cpu", sys);
	add_int(o, "ctx", ts->ctx);
	add_int(o, "majf", ts->majf);
	add_int(o, "minf", ts->minf);
	dist_json(o, "iodepth_level", ts->depth_map, total, false);
	dist_json(o, "iodepth_submit", ts->submit_map, ts->total_submit, true);
	dist_json(o, "iodepth_complete", ts->complete_map, ts->total_complete,
		  true);
	latency_dist_json(o, "latency_ns", ts, ts->lat_n, STATS_LAT_N_NR);
	latency_dist_json(o, "latency_us", ts, ts->lat_u, STATS_LAT_U_NR);
	latency_dist_json(o, "latency_ms", ts, ts->lat_m, STATS_LAT_M_NR);
	if (last->latency_depth) {
		add_int(o, "latency_depth", last->latency_depth);
		add_int(o, "latency_target", last->latency_target);
		add_float(o, "latency_percentile", last->latency_percentile);
		add_int(o, "latency_window", last->latency_window);
	}
	if (job->description && *job->description)
		add_string(o, "desc", job->description);
	if (job->json_extra)
		json_object_object_add(o, "storsim",
				       json_object_get(job->json_extra));
	return o;
}

static void disk_json(struct json_object *array, const struct output_disk *d)
{
	struct json_object *o = json_object_new_object();

	add_string(o, "name", d->name);
	add_int(o, "read_ios", d->ios[0]);
	add_int(o, "write_ios", d->ios[1]);
	add_int(o, "read_merges", d->merges[0]);
	add_int(o, "write_merges", d->merges[1]);
	add_int(o, "read_ticks", d->ticks[0]);
	add_int(o, "write_ticks", d->ticks[1]);
	add_int(o, "in_queue", d->in_queue);
	add_float(o, "util", d->util > 100.0 ? 100.0 : d->util);
	json_object_array_add(array, o);
}

struct json_object *output_json(const struct output_run *run, bool plus)
{
	struct json_object *doc = json_object_new_object(), *jobs;
	struct output_report r;
	char date[64];

	output_report_build(&r, run);
	output_ctime(run->timestamp, date, sizeof(date));
	add_string(doc, "fio version", run->version);
	add_int(doc, "timestamp", (uint64_t)run->timestamp);
	add_int(doc, "timestamp_ms", (uint64_t)run->timestamp * 1000);
	add_string(doc, "time", date);
	/* fio leaves "global options" out when [global] set nothing. */
	if (run->nr_global_options) {
		struct json_object *g = add_object(doc, "global options");

		for (size_t i = 0; i < run->nr_global_options; i++)
			add_string(g, run->global_options[i].name,
				   run->global_options[i].value);
	}
	jobs = json_object_new_array();
	json_object_object_add(doc, "jobs", jobs);
	for (size_t i = 0; i < r.nr_entries; i++)
		json_object_array_add(jobs,
				      job_json(run, &r, &r.entries[i], plus));
	if (run->nr_disks) {
		struct json_object *disks = json_object_new_array();

		json_object_object_add(doc, "disk_util", disks);
		for (size_t i = 0; i < run->nr_disks; i++)
			disk_json(disks, &run->disks[i]);
	}
	if (run->json_extra)
		json_object_object_add(doc, "storsim",
				       json_object_get(run->json_extra));
	output_report_free(&r);
	return doc;
}

static void indent(GString *out, int level)
{
	for (int i = 0; i < level; i++)
		g_string_append(out, "  ");
}

/* JSON string escapes; unlike json-c's default, '/' stays as it is, as in
 * fio's output (file names are common values). */
static void print_string(GString *out, const char *s)
{
	g_string_append_c(out, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			g_string_append(out, "\\\"");
			break;
		case '\\':
			g_string_append(out, "\\\\");
			break;
		case '\n':
			g_string_append(out, "\\n");
			break;
		case '\t':
			g_string_append(out, "\\t");
			break;
		case '\r':
			g_string_append(out, "\\r");
			break;
		default:
			if (*p < 0x20)
				g_string_append_printf(out, "\\u%04x", *p);
			else
				g_string_append_c(out, (char)*p);
		}
	}
	g_string_append_c(out, '"');
}

static void print_value(GString *out, struct json_object *v, int level)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE + 320];
	bool first = true;
	double d;

	switch (json_object_get_type(v)) {
	case json_type_object:
		g_string_append(out, "{\n");
		json_object_object_foreach(v, key, child) {
			if (!first)
				g_string_append(out, ",\n");
			first = false;
			indent(out, level + 1);
			print_string(out, key);
			g_string_append(out, " : ");
			print_value(out, child, level + 1);
		}
		g_string_append_c(out, '\n');
		indent(out, level);
		g_string_append_c(out, '}');
		break;
	case json_type_array:
		g_string_append(out, "[\n");
		for (size_t i = 0; i < json_object_array_length(v); i++) {
			if (i)
				g_string_append(out, ",\n");
			indent(out, level + 1);
			print_value(out, json_object_array_get_idx(v, i),
				    level + 1);
		}
		g_string_append_c(out, '\n');
		indent(out, level);
		g_string_append_c(out, ']');
		break;
	case json_type_string:
		print_string(out, json_object_get_string(v));
		break;
	case json_type_double:
		/* %f has no spelling for NaN or infinity in JSON. */
		d = json_object_get_double(v);
		g_string_append(out, g_ascii_formatd(buf, sizeof(buf), "%f",
						     isfinite(d) ? d : 0.0));
		break;
	case json_type_null:
		g_string_append(out, "null");
		break;
	default:	/* int and boolean: json-c writes them plainly */
		g_string_append(out, json_object_to_json_string_ext(v,
					JSON_C_TO_STRING_PLAIN));
	}
}

void output_json_print(GString *out, struct json_object *obj)
{
	print_value(out, obj, 0);
}
