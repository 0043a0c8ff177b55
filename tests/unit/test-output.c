/*
 * Description: the fio-compatible writers on synthetic runs: num2str,
 * --output-format parsing, dates, the JSON serialiser, "job options"
 * echoing, optional keys, storsim extensions, normal-output line formats
 * (units, errors, syncs, groups, preamble), determinism and result files.
 * Expected strings come from real fio 3.33 output or are worked by hand.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "workloads/fio/output.h"
#include "engine/stats.h"
#include "engine/util.h"

/* --- num2str --- */

static void test_num2str(void)
{
	/* Each case appears in fio 3.33's own output for the same number. */
	static const struct {
		uint64_t num;
		int maxlen;
		bool pow2;
		const char *unit, *want;
	} cases[] = {
		{ 1432125, 4, false, "", "1432k" },		/* IOPS */
		{ 6000, 4, false, "", "6000" },
		{ 72000, 4, false, "", "72.0k" },
		{ 12500, 4, false, "", "12.5k" },
		{ 5865984000, 4, true, "B/s", "5594MiB/s" },	/* BW */
		{ 5865984000, 4, false, "B/s", "5866MB/s" },
		{ 24576000, 4, true, "B/s", "23.4MiB/s" },
		{ 24576000, 4, false, "B/s", "24.6MB/s" },
		{ 46927872, 4, true, "B", "44.8MiB" },		/* io */
		{ 49152, 4, true, "B", "48.0KiB" },
		{ 49152, 4, false, "B", "49.2kB" },
		{ 753664, 4, true, "B", "736KiB" },
		{ 4096, 4, true, "B", "4096B" },		/* bs */
		{ 65536, 4, true, "B", "64.0KiB" },
		{ 16384, 4, true, "B", "16.0KiB" },
		{ 1103707, 6, false, "", "1103.7k" },		/* lat min/max */
		{ 339, 6, false, "", "339" },
		{ 0, 4, true, "B", "0B" },
	};

	for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *s = output_num2str(cases[i].num, cases[i].maxlen,
						    cases[i].pow2, cases[i].unit);

		g_assert_cmpstr(s, ==, cases[i].want);
	}
}

/* --- formats --- */

static void test_parse_formats(void)
{
	static const struct {
		const char *text;
		unsigned mask;
	} ok[] = {
		{ "normal", OUTPUT_NORMAL },
		{ "json", OUTPUT_JSON },
		{ "json+", OUTPUT_JSON | OUTPUT_JSON_PLUS },
		{ "json,normal", OUTPUT_JSON | OUTPUT_NORMAL },
		{ "normal,json+,json", OUTPUT_NORMAL | OUTPUT_JSON | OUTPUT_JSON_PLUS },
		{ "terse", OUTPUT_TERSE },
		{ "json,terse", OUTPUT_JSON | OUTPUT_TERSE },
	};

	for (unsigned i = 0; i < G_N_ELEMENTS(ok); i++) {
		GError *err = NULL;
		unsigned mask = 0;

		g_assert_true(output_parse_formats(ok[i].text, NULL, 0, &mask, &err));
		g_assert_no_error(err);
		g_assert_cmpuint(mask, ==, ok[i].mask);
	}
}

static void test_parse_formats_rejects(void)
{
	static const struct {
		const char *text;
		int code;
	} bad[] = {
		{ "", STORSIM_ERROR_INPUT },
		{ "xml", STORSIM_ERROR_INPUT },
		{ "json,", STORSIM_ERROR_INPUT },
		{ "terse,csv", STORSIM_ERROR_INPUT },
	};

	for (unsigned i = 0; i < G_N_ELEMENTS(bad); i++) {
		GError *err = NULL;
		unsigned mask = 99;

		g_assert_false(output_parse_formats(bad[i].text, "run.fio", 4,
						    &mask, &err));
		g_assert_error(err, STORSIM_ERROR, bad[i].code);
		g_assert_true(g_str_has_prefix(err->message,
			"run.fio:4: option 'output-format': "));
		g_assert_cmpuint(mask, ==, 99);
		g_error_free(err);
	}
}

/* --- a synthetic run --- */

struct sample_run {
	struct output_run run;
	struct output_job jobs[3];
	struct job_stats *stats[3];
	struct output_option opts[2];
	struct output_disk disk;
};

/* One job, 1000 reads of 4 KiB with clat 1000..1999 ns and 10 writes. */
static void sample_init(struct sample_run *s, unsigned nr_jobs)
{
	struct stats_config cfg;

	memset(s, 0, sizeof(*s));
	stats_config_init(&cfg);
	s->opts[0] = (struct output_option){ "rw", "randrw" };
	s->opts[1] = (struct output_option){ "iodepth", "0x10" };
	for (unsigned j = 0; j < nr_jobs; j++) {
		struct output_job *job = &s->jobs[j];
		struct job_stats *js = stats_new(&cfg, 0);

		for (unsigned i = 0; i < 1000; i++) {
			stats_add_submit(js, i * SIM_USEC, 1, 16);
			stats_add_io(js, STATS_READ, i * SIM_USEC, 4096, 100,
				     1000 + i, 1100 + i);
			stats_add_reap(js, i * SIM_USEC, 1);
		}
		for (unsigned i = 0; i < 10; i++)
			stats_add_io(js, STATS_WRITE, 1000 * SIM_USEC, 8192,
				     200, 3000000, 3000200);
		/* fio counts CPU time in whole ms: 1.9 ms shows as 1. */
		stats_set_cpu(js, 1 * SIM_MSEC, 1900 * SIM_USEC, 7, 3, 0);
		stats_finish(js, 2 * SIM_MSEC);
		s->stats[j] = js;
		output_job_init(job);
		job->name = "sample";
		job->pid = 1000 + (int)j;
		job->rw = "randrw";
		job->ioengine = "io_uring";
		job->iodepth = 16;
		job->latency_depth = 16;
		job->elapsed_s = 1;
		job->options = s->opts;
		job->nr_options = 2;
		job->stats = js;
	}
	s->run.version = "storsim-0.1.0";
	s->run.timestamp = 1796013007;
	s->run.jobs = s->jobs;
	s->run.nr_jobs = nr_jobs;
}

static void sample_free(struct sample_run *s)
{
	for (unsigned j = 0; j < G_N_ELEMENTS(s->stats); j++)
		stats_free(s->stats[j]);
}

static char *render(const struct output_run *run, unsigned formats)
{
	return output_render(run, formats);
}

static struct json_object *job0(struct json_object *doc)
{
	struct json_object *jobs;

	g_assert_true(json_object_object_get_ex(doc, "jobs", &jobs));
	return json_object_array_get_idx(jobs, 0);
}

static const char *opt(struct json_object *job, const char *name)
{
	struct json_object *opts, *v;

	if (!json_object_object_get_ex(job, "job options", &opts) ||
	    !json_object_object_get_ex(opts, name, &v))
		return NULL;
	return json_object_get_string(v);
}

/* --- JSON --- */

static void test_json_echoes_options_fio_plot_needs(void)
{
	struct sample_run s;
	struct json_object *doc, *job;

	sample_init(&s, 1);
	s.jobs[0].numjobs = 3;
	s.jobs[0].min_bs[STATS_WRITE] = s.jobs[0].max_bs[STATS_WRITE] = 65536;
	doc = output_json(&s.run, false);
	job = job0(doc);
	g_assert_cmpstr(opt(job, "rw"), ==, "randrw");
	/* written as a plain integer, whatever the job file said */
	g_assert_cmpstr(opt(job, "iodepth"), ==, "16");
	g_assert_cmpstr(opt(job, "numjobs"), ==, "3");
	g_assert_cmpstr(opt(job, "bs"), ==, "4096,65536,4096");
	json_object_put(doc);
	sample_free(&s);
}

static void test_json_leaves_globally_set_options_to_global(void)
{
	static const struct output_option global[] = {
		{ "numjobs", "1" }, { "bs", "4k" },
	};
	struct sample_run s;
	struct json_object *doc, *g, *job;

	sample_init(&s, 1);
	s.run.global_options = global;
	s.run.nr_global_options = G_N_ELEMENTS(global);
	doc = output_json(&s.run, false);
	job = job0(doc);
	g_assert_true(json_object_object_get_ex(doc, "global options", &g));
	g_assert_cmpstr(json_object_get_string(json_object_object_get(g, "bs")), ==, "4k");
	g_assert_null(opt(job, "bs"));
	g_assert_null(opt(job, "numjobs"));
	g_assert_nonnull(opt(job, "iodepth"));
	json_object_put(doc);
	sample_free(&s);
}

static void test_json_optional_top_level_keys(void)
{
	struct sample_run s;
	struct json_object *doc, *v;

	sample_init(&s, 1);
	doc = output_json(&s.run, false);
	/* absent when empty, as fio does */
	g_assert_false(json_object_object_get_ex(doc, "global options", NULL));
	g_assert_false(json_object_object_get_ex(doc, "disk_util", NULL));
	g_assert_false(json_object_object_get_ex(doc, "storsim", NULL));
	g_assert_true(json_object_object_get_ex(doc, "time", &v));
	g_assert_cmpstr(json_object_get_string(v), ==, "Mon Nov 30 04:30:07 2026");
	json_object_put(doc);

	s.disk = (struct output_disk){ .name = "nvme0n1", .ios = { 5, 6 },
				       .util = 150.0 };
	s.run.disks = &s.disk;
	s.run.nr_disks = 1;
	doc = output_json(&s.run, false);
	g_assert_true(json_object_object_get_ex(doc, "disk_util", &v));
	v = json_object_array_get_idx(v, 0);
	g_assert_cmpint(json_object_get_int(json_object_object_get(v, "write_ios")), ==, 6);
	/* utilisation is capped at 100 % as in fio */
	g_assert_cmpfloat(json_object_get_double(json_object_object_get(v, "util")), ==, 100.0);
	json_object_put(doc);
	sample_free(&s);
}

static void test_json_extensions_are_attached(void)
{
	struct sample_run s;
	struct json_object *doc, *run_extra = json_object_new_object();
	struct json_object *job_extra = json_object_new_object(), *v;
	GString *text = g_string_new(NULL);

	sample_init(&s, 1);
	json_object_object_add(run_extra, "events", json_object_new_int(42));
	json_object_object_add(job_extra, "ctx_per_io", json_object_new_double(0.5));
	s.run.json_extra = run_extra;
	s.jobs[0].json_extra = job_extra;
	doc = output_json(&s.run, false);
	g_assert_true(json_object_object_get_ex(doc, "storsim", &v));
	g_assert_cmpint(json_object_get_int(json_object_object_get(v, "events")), ==, 42);
	g_assert_true(json_object_object_get_ex(job0(doc), "storsim", &v));
	output_json_print(text, doc);
	g_assert_nonnull(strstr(text->str, "\"ctx_per_io\" : 0.500000"));
	json_object_put(doc);
	/* the caller's objects are borrowed, not taken */
	g_assert_cmpint(json_object_get_int(json_object_object_get(run_extra, "events")), ==, 42);
	json_object_put(run_extra);
	json_object_put(job_extra);
	g_string_free(text, TRUE);
	sample_free(&s);
}

static void test_json_plus_adds_bins(void)
{
	struct sample_run s;
	struct json_object *doc, *read, *clat, *bins, *pct;
	int64_t total = 0;

	sample_init(&s, 1);
	doc = output_json(&s.run, true);
	read = json_object_object_get(job0(doc), "read");
	clat = json_object_object_get(read, "clat_ns");
	g_assert_true(json_object_object_get_ex(clat, "bins", &bins));
	g_assert_true(json_object_object_get_ex(clat, "percentile", &pct));
	/* 1000..1999 ns fall in 8 ns buckets (error bits 3) named by their
	 * midpoints: 1004 for 1000..1007 */
	g_assert_cmpint(json_object_get_int(json_object_object_get(bins, "1004")), ==, 8);
	json_object_object_foreach(bins, key, val) {
		(void)key;
		total += json_object_get_int64(val);
	}
	g_assert_cmpint(total, ==, 1000);
	/* json (without +) has the percentiles but no bins */
	json_object_put(doc);
	doc = output_json(&s.run, false);
	clat = json_object_object_get(json_object_object_get(job0(doc), "read"),
				      "clat_ns");
	g_assert_false(json_object_object_get_ex(clat, "bins", NULL));
	g_assert_true(json_object_object_get_ex(clat, "percentile", NULL));
	json_object_put(doc);
	sample_free(&s);
}

static void test_json_printer_layout(void)
{
	struct json_object *o = json_object_new_object(), *a = json_object_new_array();
	GString *out = g_string_new(NULL);

	json_object_object_add(o, "path", json_object_new_string("/dev/nvme0n1 \"x\"\\\n"));
	json_object_object_add(o, "f", json_object_new_double(1.0 / 3.0));
	json_object_object_add(o, "i", json_object_new_int64(-5));
	json_object_object_add(o, "empty", json_object_new_object());
	json_object_array_add(a, json_object_new_int(1));
	json_object_array_add(a, json_object_new_boolean(1));
	json_object_object_add(o, "a", a);
	output_json_print(out, o);
	g_assert_cmpstr(out->str, ==,
		"{\n"
		"  \"path\" : \"/dev/nvme0n1 \\\"x\\\"\\\\\\n\",\n"
		"  \"f\" : 0.333333,\n"
		"  \"i\" : -5,\n"
		"  \"empty\" : {\n\n  },\n"
		"  \"a\" : [\n    1,\n    true\n  ]\n"
		"}");
	json_object_put(o);
	g_string_free(out, TRUE);
}

/* --- normal --- */

static gboolean has_line(const char *text, const char *line)
{
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);

	for (char **l = lines; *l; l++)
		if (!strcmp(*l, line))
			return TRUE;
	return FALSE;
}

static void test_normal_latency_units(void)
{
	/* fio switches to usec when min > 2000, max > 99999 and stdev >
	 * 1000 (ns), to msec at a thousand times those. */
	static const struct {
		uint64_t a, b;
		const char *want;
	} cases[] = {
		{ 1500, 150000, "    clat (nsec): min=1500, max=150000, avg=75750.00, stdev=105005.36" },
		{ 2500, 150000, "    clat (usec): min=2, max=150, avg=76.25, stdev=104.30" },
		{ 2500, 5000, "    clat (nsec): min=2500, max=5000, avg=3750.00, stdev=1767.77" },
		{ 3000000, 200000000, "    clat (msec): min=3, max=200, avg=101.50, stdev=139.30" },
	};

	for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct stats_config cfg;
		struct output_job job;
		struct output_run run = { .version = "v", .jobs = &job, .nr_jobs = 1 };
		struct job_stats *js;
		GString *out = g_string_new(NULL);

		stats_config_init(&cfg);
		js = stats_new(&cfg, 0);
		stats_add_io(js, STATS_READ, 0, 512, 0, cases[i].a, cases[i].a);
		stats_add_io(js, STATS_READ, 0, 512, 0, cases[i].b, cases[i].b);
		stats_finish(js, SIM_MSEC);
		output_job_init(&job);
		job.name = "u";
		job.stats = js;
		output_normal_results(out, &run);
		if (!has_line(out->str, cases[i].want))
			g_test_message("%s", out->str);
		g_assert_true(has_line(out->str, cases[i].want));
		g_string_free(out, TRUE);
		stats_free(js);
	}
}

static void test_normal_job_block(void)
{
	struct sample_run s;
	g_autofree char *text = NULL;

	sample_init(&s, 1);
	s.jobs[0].text_extra = "  storsim      : 3 stages";
	s.run.text_extra = "Simulated 2 ms.\n";
	text = render(&s.run, OUTPUT_NORMAL);
	/* 1000 reads and 10 writes in 2 ms; worked by hand */
	g_assert_true(has_line(text, "sample: (groupid=0, jobs=1): err= 0: pid=1000: Mon Nov 30 04:30:07 2026"));
	g_assert_true(has_line(text, "  read: IOPS=500k, BW=1953MiB/s (2048MB/s)(4000KiB/2msec)"));
	g_assert_true(has_line(text, "  write: IOPS=5000, BW=39.1MiB/s (41.0MB/s)(80.0KiB/2msec); 0 zone resets"));
	g_assert_true(has_line(text, "  cpu          : usr=50.00%, sys=50.00%, ctx=7, majf=0, minf=3"));
	g_assert_true(has_line(text, "  IO depths    : 1=0.0%, 2=0.0%, 4=0.0%, 8=0.0%, 16=99.0%, 32=0.0%, >=64=0.0%"));
	g_assert_true(has_line(text, "     issued rwts: total=1000,10,0,0 short=0,0,0,0 dropped=0,0,0,0"));
	g_assert_true(has_line(text, "  lat (usec)   : 2=99.01%"));
	g_assert_true(has_line(text, "  lat (msec)   : 4=0.99%"));
	g_assert_true(has_line(text, "     latency   : target=0, window=0, percentile=100.00%, depth=16"));
	/* the extension block follows the job's last line; the run's ends
	 * the output */
	g_assert_nonnull(strstr(text, "depth=16\n  storsim      : 3 stages\n\nRun status group 0"));
	g_assert_true(g_str_has_suffix(text, "\nSimulated 2 ms.\n"));
	sample_free(&s);
}

static void test_normal_error_and_description(void)
{
	struct sample_run s;
	g_autofree char *text = NULL;

	sample_init(&s, 1);
	s.jobs[0].error = 5;
	s.jobs[0].verror = "Input/output error";
	s.jobs[0].description = "simulated";
	text = render(&s.run, OUTPUT_NORMAL);
	g_assert_true(has_line(text, "sample: (groupid=0, jobs=1): err= 5 (Input/output error): pid=1000: Mon Nov 30 04:30:07 2026"));
	g_assert_true(has_line(text, "  Description  : [simulated]"));
	sample_free(&s);
}

static void test_normal_sync_block(void)
{
	struct sample_run s;
	g_autofree char *text = NULL;
	struct json_object *doc, *sync, *lat;

	sample_init(&s, 1);
	stats_add_sync(s.stats[0], 5, 20000, false);
	stats_add_sync(s.stats[0], 6, 40000, false);
	text = render(&s.run, OUTPUT_NORMAL);
	g_assert_nonnull(strstr(text,
		"  fsync/fdatasync/sync_file_range:\n"
		"    sync (nsec): min=20000, max=40000, avg=30000.00, stdev=14142.14\n"
		"    sync percentiles (nsec):\n"));
	g_assert_true(has_line(text, "     issued rwts: total=1000,10,0,2 short=0,0,0,0 dropped=0,0,0,0"));
	doc = output_json(&s.run, false);
	sync = json_object_object_get(job0(doc), "sync");
	g_assert_cmpint(json_object_get_int(json_object_object_get(sync, "total_ios")), ==, 2);
	lat = json_object_object_get(sync, "lat_ns");
	g_assert_true(json_object_object_get_ex(lat, "percentile", NULL));
	json_object_put(doc);
	sample_free(&s);
}

static void test_normal_percentile_units(void)
{
	struct stats_config cfg;
	struct output_job job;
	struct output_run run = { .version = "v", .jobs = &job, .nr_jobs = 1 };
	struct job_stats *js;
	GError *err = NULL;
	GString *out = g_string_new(NULL);

	stats_config_init(&cfg);
	g_assert_true(stats_config_set_percentiles(&cfg, "50:99.5", NULL, 0, &err));
	js = stats_new(&cfg, 0);
	/* 3 ms and 150 ms: msec scale; values round up to whole ms */
	stats_add_io(js, STATS_READ, 0, 512, 0, 3000000, 1);
	stats_add_io(js, STATS_READ, 0, 512, 0, 150000000, 1);
	stats_finish(js, SIM_SEC);
	output_job_init(&job);
	job.name = "p";
	job.stats = js;
	output_normal_results(out, &run);
	/* buckets 2998272 and 149946368 ns; one decimal, as the list asks */
	g_assert_nonnull(strstr(out->str,
		"    clat percentiles (msec):\n"
		"     | 50.0th=[    3], 99.5th=[  150]\n"));
	g_string_free(out, TRUE);
	stats_free(js);
}

static void test_normal_groups_and_preamble(void)
{
	struct sample_run s;
	g_autofree char *text = NULL;

	sample_init(&s, 3);
	s.jobs[1].is_clone = true;
	s.jobs[1].group_reporting = true;
	s.jobs[0].use_thread = true;
	s.jobs[2].name = "other";
	s.jobs[2].groupid = 2;
	text = render(&s.run, OUTPUT_NORMAL);
	g_assert_true(g_str_has_prefix(text,
		"sample: (g=0): rw=randrw, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=io_uring, iodepth=16\n"
		"...\n"
		"other: (g=2): rw=randrw, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=io_uring, iodepth=16\n"
		"storsim-0.1.0\n"
		"Starting 1 thread and 2 processes\n\n"));
	/* the clone joined the first job's entry */
	g_assert_true(has_line(text, "sample: (groupid=0, jobs=2): err= 0: pid=1000: Mon Nov 30 04:30:07 2026"));
	g_assert_true(has_line(text, "  read: IOPS=1000k, BW=3906MiB/s (4096MB/s)(8000KiB/2msec)"));
	g_assert_true(has_line(text, "   READ: bw=3906MiB/s (4096MB/s), 3906MiB/s-3906MiB/s (4096MB/s-4096MB/s), io=8000KiB (8192kB), run=2-2msec"));
	/* fio prints a header for every group number up to the last */
	g_assert_nonnull(strstr(text, "Run status group 1 (all jobs):\n\nRun status group 2 (all jobs):\n   READ:"));
	sample_free(&s);
}

static void test_render_order_and_determinism(void)
{
	struct sample_run a, b;
	g_autofree char *ta = NULL, *tb = NULL, *ta2 = NULL;
	const unsigned all = OUTPUT_NORMAL | OUTPUT_JSON | OUTPUT_JSON_PLUS;
	const char *json_at, *results_at;

	sample_init(&a, 2);
	sample_init(&b, 2);
	ta = render(&a.run, all);
	ta2 = render(&a.run, all);
	tb = render(&b.run, all);
	g_assert_cmpstr(ta, ==, ta2);
	g_assert_cmpstr(ta, ==, tb);
	/* preamble, then the JSON document, then the results */
	json_at = strstr(ta, "\n{\n");
	results_at = strstr(ta, "\n}\n\nsample: (groupid=0");
	g_assert_nonnull(json_at);
	g_assert_nonnull(results_at);
	g_assert_true(json_at < results_at);
	g_assert_true(g_str_has_prefix(ta, "sample: (g=0)"));
	sample_free(&a);
	sample_free(&b);
}

/* --- files --- */

static void test_write_file_replaces_whole(void)
{
	g_autofree char *dir = g_dir_make_tmp("storsim-out-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "r.json", NULL);
	g_autofree char *got = NULL;
	GError *err = NULL;

	g_assert_true(output_write_file(path, "first\n", &err));
	g_assert_true(output_write_file(path, "second\n", &err));
	g_assert_no_error(err);
	g_assert_true(g_file_get_contents(path, &got, NULL, NULL));
	g_assert_cmpstr(got, ==, "second\n");
	g_assert_cmpint(g_unlink(path), ==, 0);
	g_assert_cmpint(g_rmdir(dir), ==, 0);
}

static void test_write_file_reports_failure(void)
{
	GError *err = NULL;

	g_assert_false(output_write_file("/nonexistent-dir/r.json", "x", &err));
	g_assert_error(err, STORSIM_ERROR, STORSIM_ERROR_IO);
	g_assert_true(g_str_has_prefix(err->message, "/nonexistent-dir/r.json: "));
	g_error_free(err);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/output/num2str", test_num2str);
	g_test_add_func("/output/formats/parse", test_parse_formats);
	g_test_add_func("/output/formats/rejects", test_parse_formats_rejects);
	g_test_add_func("/output/json/echoes-options-fio-plot-needs",
			test_json_echoes_options_fio_plot_needs);
	g_test_add_func("/output/json/global-options-stay-global",
			test_json_leaves_globally_set_options_to_global);
	g_test_add_func("/output/json/optional-top-level-keys",
			test_json_optional_top_level_keys);
	g_test_add_func("/output/json/extensions-attached",
			test_json_extensions_are_attached);
	g_test_add_func("/output/json/plus-adds-bins", test_json_plus_adds_bins);
	g_test_add_func("/output/json/printer-layout", test_json_printer_layout);
	g_test_add_func("/output/normal/latency-units", test_normal_latency_units);
	g_test_add_func("/output/normal/job-block", test_normal_job_block);
	g_test_add_func("/output/normal/error-and-description",
			test_normal_error_and_description);
	g_test_add_func("/output/normal/sync-block", test_normal_sync_block);
	g_test_add_func("/output/normal/percentile-units",
			test_normal_percentile_units);
	g_test_add_func("/output/normal/groups-and-preamble",
			test_normal_groups_and_preamble);
	g_test_add_func("/output/render/order-and-determinism",
			test_render_order_and_determinism);
	g_test_add_func("/output/file/replaces-whole",
			test_write_file_replaces_whole);
	g_test_add_func("/output/file/reports-failure",
			test_write_file_reports_failure);
	return g_test_run();
}
