/*
 * Tests of the full-system check's host side that need no VM (sim/validate/guest.c):
 * the sweep spec, the extractor of fio JSON from a serial log, fio JSON
 * results, the comparison and its reports, and the domain XML. The fio
 * documents are built here with the keys fio 3.33 writes
 * (reference/fio-formats.md, section 2) and values chosen by each test.
 */
#include <math.h>
#include <string.h>

#include <glib.h>
#include <json-c/json.h>

#include "validate/guest.h"
#include "engine/util.h"

/* One direction of a job in a fio JSON document; p99 NAN leaves it out. */
struct dir_figures {
	const char *dir;
	double ios, iops, mean, p99;
};

static struct json_object *dir_json(double ios, double iops, double mean, double p99)
{
	struct json_object *d = json_object_new_object();
	struct json_object *clat = json_object_new_object();

	json_object_object_add(d, "total_ios", json_object_new_int64((int64_t)ios));
	json_object_object_add(d, "iops", json_object_new_double(iops));
	json_object_object_add(clat, "mean", json_object_new_double(mean));
	if (!isnan(p99)) {
		struct json_object *pct = json_object_new_object();

		json_object_object_add(pct, "50.000000", json_object_new_int64((int64_t)mean));
		json_object_object_add(pct, "99.000000", json_object_new_int64((int64_t)p99));
		json_object_object_add(clat, "percentile", pct);
	}
	json_object_object_add(d, "clat_ns", clat);
	return d;
}

/*
 * A fio JSON document with one job. job_qd and global_qd are the iodepth
 * option strings of the job and of [global], NULL for none. Directions not
 * listed get total_ios 0, as fio writes them.
 */
static char *fio_doc(const char *job, const char *job_qd, const char *global_qd,
		     const struct dir_figures *dirs, size_t ndirs)
{
	static const char *const all[] = { "read", "write", "trim" };
	struct json_object *doc = json_object_new_object();
	struct json_object *jobs = json_object_new_array();
	struct json_object *j = json_object_new_object();
	struct json_object *opts = json_object_new_object();
	char *text;

	json_object_object_add(doc, "fio version", json_object_new_string("fio-3.33"));
	if (global_qd) {
		struct json_object *g = json_object_new_object();

		json_object_object_add(g, "iodepth", json_object_new_string(global_qd));
		json_object_object_add(doc, "global options", g);
	}
	json_object_object_add(j, "jobname", json_object_new_string(job));
	json_object_object_add(opts, "rw", json_object_new_string("randread"));
	if (job_qd)
		json_object_object_add(opts, "iodepth", json_object_new_string(job_qd));
	json_object_object_add(j, "job options", opts);
	for (size_t a = 0; a < G_N_ELEMENTS(all); a++) {
		struct json_object *d = dir_json(0, 0, 0, NAN);

		for (size_t k = 0; k < ndirs; k++)
			if (strcmp(dirs[k].dir, all[a]) == 0) {
				json_object_put(d);
				d = dir_json(dirs[k].ios, dirs[k].iops, dirs[k].mean, dirs[k].p99);
			}
		json_object_object_add(j, all[a], d);
	}
	json_object_array_add(jobs, j);
	json_object_object_add(doc, "jobs", jobs);
	text = g_strdup(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY));
	json_object_put(doc);
	return text;
}

/* A read-only job's document. */
static char *read_doc(const char *job, const char *qd, double iops, double mean, double p99)
{
	struct dir_figures d = { "read", 1000, iops, mean, p99 };

	return fio_doc(job, qd, NULL, &d, 1);
}

/* --- sweep --- */

static void test_sweep_parses_points(void)
{
	static const struct {
		const char *spec, *points;
	} cases[] = {
		{ "randread:1", "randread@1" },
		{ "randread:1:2:32", "randread@1 randread@2 randread@32" },
		{ "randread:8,randwrite:1:8", "randread@8 randwrite@1 randwrite@8" },
		{ "a_b-c:4,a_b-c:2", "a_b-c@4 a_b-c@2" },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		GError *err = NULL;
		GArray *s = guest_sweep_parse(cases[i].spec, "--expect", &err);
		GString *got = g_string_new(NULL);

		g_assert_no_error(err);
		for (guint k = 0; k < s->len; k++) {
			struct guest_point *p = &g_array_index(s, struct guest_point, k);

			g_string_append_printf(got, "%s%s@%u", k ? " " : "", p->job, p->iodepth);
		}
		g_assert_cmpstr(got->str, ==, cases[i].points);
		g_string_free(got, TRUE);
		g_array_unref(s);
	}
}

static void test_sweep_rejects_bad_specs(void)
{
	static const char *const bad[] = {
		"", "randread", "randread:", "randread:0", "randread:x", "randread:70000",
		"rand read:1", "../etc:1", "a:1,a:1", "a:1,,b:2", ":1",
	};

	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		GError *err = NULL;

		g_assert_null(guest_sweep_parse(bad[i], "--expect", &err));
		g_assert_error(err, STORSIM_ERROR, STORSIM_ERROR_INPUT);
		g_assert_nonnull(strstr(err->message, "option '--expect'"));
		g_error_free(err);
	}
}

/* --- extract --- */

/* A console log: each entry of parts is a line, "\r\n" as the guest's tty ends them. */
static char *serial_log(const char *const *parts)
{
	GString *s = g_string_new(NULL);

	for (; *parts; parts++) {
		g_auto(GStrv) lines = g_strsplit(*parts, "\n", -1);

		for (char **l = lines; *l; l++)
			g_string_append_printf(s, "%s\r\n", *l);
	}
	return g_string_free(s, FALSE);
}

/* The line (1-based) of log where needle first occurs. */
static int line_of(const char *log, const char *needle)
{
	const char *hit = strstr(log, needle);
	int line = 1;

	g_assert_nonnull(hit);
	for (const char *p = log; p < hit; p++)
		line += *p == '\n';
	return line;
}

static unsigned int problems_matching(const struct guest_extract *x, const char *what)
{
	unsigned int n = 0;

	for (guint i = 0; i < x->problems->len; i++)
		n += strstr(((GError *)x->problems->pdata[i])->message, what) != NULL;
	return n;
}

static void test_extract_finds_documents_among_noise(void)
{
	g_autofree char *a = read_doc("randread", "1", 5000, 170000, 400000);
	g_autofree char *b = read_doc("randread", "8", 7000, 1100000, 2000000);
	const char *parts[] = {
		"SeaBIOS (version 1.16.2-debian-1.16.2-1)",
		"[    0.000000] Linux version 6.1.0-57-amd64",
		"storsim-guest: running randread at iodepth 1 for 5 s",
		"Jobs: 1 (f=1)STORSIM-FIO-BEGIN randread 1", a, "STORSIM-FIO-END randread 1 0",
		"[   12.5] random: crng init done",
		"STORSIM-FIO-BEGIN randread 8", b, "STORSIM-FIO-END randread 8 0",
		"[   20.1] reboot: Power down", NULL
	};
	g_autofree char *log = serial_log(parts);
	struct guest_extract *x = guest_extract(log, "serial.log", NULL);
	const double want_iops[] = { 5000, 7000 };
	const unsigned int want_qd[] = { 1, 8 };

	g_assert_cmpuint(x->problems->len, ==, 0);
	g_assert_cmpuint(x->docs->len, ==, 2);
	for (guint i = 0; i < 2; i++) {
		const struct guest_doc *d = x->docs->pdata[i];
		g_autoptr(GPtrArray) r = guest_results_new();
		GError *err = NULL;

		g_assert_cmpstr(d->point.job, ==, "randread");
		g_assert_cmpuint(d->point.iodepth, ==, want_qd[i]);
		g_assert_cmpint(d->status, ==, 0);
		g_assert_null(strchr(d->text, '\r'));
		g_assert_true(guest_results_add(r, d->text, "doc", &err));
		g_assert_no_error(err);
		g_assert_cmpfloat(((struct guest_result *)r->pdata[0])->iops, ==, want_iops[i]);
	}
	g_assert_cmpint(((struct guest_doc *)x->docs->pdata[1])->line, ==,
			line_of(log, "STORSIM-FIO-BEGIN randread 8"));
	guest_extract_free(x);
}

/* Console lines after a document, before its end marker, are not part of it. */
static void test_extract_drops_noise_after_document(void)
{
	g_autofree char *a = read_doc("randread", "1", 5000, 170000, 400000);
	const char *parts[] = {
		"STORSIM-FIO-BEGIN randread 1", a, "[   12.5] random: crng init done",
		"STORSIM-FIO-END randread 1 0", NULL
	};
	g_autofree char *log = serial_log(parts);
	g_autofree char *want = g_strconcat(a, "\n", NULL);
	struct guest_extract *x = guest_extract(log, "serial.log", NULL);

	g_assert_cmpuint(x->problems->len, ==, 0);
	g_assert_cmpuint(x->docs->len, ==, 1);
	g_assert_cmpstr(((struct guest_doc *)x->docs->pdata[0])->text, ==, want);
	guest_extract_free(x);
}

/* "serial.log:LINE:" of the line where needle is, as problems start. */
static char *located(const char *log, const char *needle)
{
	return g_strdup_printf("serial.log:%d:", line_of(log, needle));
}

static void test_extract_reports_truncated_document(void)
{
	g_autofree char *a = read_doc("randread", "1", 5000, 170000, 400000);
	g_autofree char *half = g_strndup(a, strlen(a) / 2);
	const char *parts[] = {
		"STORSIM-FIO-BEGIN randread 1", half, "[   30.0] Kernel panic - not syncing", NULL
	};
	g_autofree char *log = serial_log(parts);
	g_autofree char *where = located(log, "STORSIM-FIO-BEGIN randread 1");
	struct guest_extract *x = guest_extract(log, "serial.log", NULL);

	g_assert_cmpuint(x->docs->len, ==, 0);
	g_assert_cmpuint(x->problems->len, ==, 1);
	g_assert_cmpuint(problems_matching(x, "has no end marker"), ==, 1);
	g_assert_true(g_str_has_prefix(((GError *)x->problems->pdata[0])->message, where));
	guest_extract_free(x);
}

/* A document spoilt between its markers is reported at the spoilt line. */
static void test_extract_reports_unparsable_document(void)
{
	static const struct {
		const char *name, *body, *blamed, *problem;
	} cases[] = {
		{ "kernel line inside", "{\n  \"jobs\" : [\n[   8.1] nvme nvme0: I/O timeout\n]}",
		  "[   8.1] nvme", "is not valid JSON" },
		{ "cut short", "{\n  \"jobs\" : [", "  \"jobs\"",
		  "is not valid JSON: the document ends early" },
		{ "empty", "", "STORSIM-FIO-BEGIN", "is empty" },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		const char *parts[] = {
			"storsim-guest: running randwrite at iodepth 8 for 5 s",
			"STORSIM-FIO-BEGIN randwrite 8", cases[i].body, "STORSIM-FIO-END randwrite 8 0",
			NULL
		};
		g_autofree char *log = serial_log(parts);
		g_autofree char *where = located(log, cases[i].blamed);
		struct guest_extract *x = guest_extract(log, "serial.log", NULL);

		g_test_message("case: %s", cases[i].name);
		g_assert_cmpuint(x->docs->len, ==, 0);
		g_assert_cmpuint(x->problems->len, ==, 1);
		g_assert_cmpuint(problems_matching(x, cases[i].problem), ==, 1);
		g_assert_true(g_str_has_prefix(((GError *)x->problems->pdata[0])->message, where));
		guest_extract_free(x);
	}
}

/*
 * Logs with something wrong: how many documents are kept, and the problems
 * reported, each once. "@DOC@" stands for a complete fio document.
 */
static const struct extract_case {
	const char *name;
	const char *lines[8];
	const char *expect;	/* sweep, or NULL */
	guint docs;
	const char *problems[3];
} extract_cases[] = {
	{ "fio-failure",
	  { "fio: pid=123, err=5/file:io_u.c:1889, func=io_u error, error=Input/output error",
	    "STORSIM-FIO-BEGIN randread 4", "@DOC@", "STORSIM-FIO-END randread 4 1" },
	  NULL, 1, { "fio exited with status 1 for randread at iodepth 4" } },
	{ "repeated-point",
	  { "STORSIM-FIO-BEGIN randread 4", "@DOC@", "STORSIM-FIO-END randread 4 0",
	    "STORSIM-FIO-BEGIN randread 4", "@DOC@", "STORSIM-FIO-END randread 4 0" },
	  NULL, 1, { "second document for randread at iodepth 4" } },
	{ "malformed-begin-marker",
	  { "STORSIM-FIO-BEGIN randread", "@DOC@", "STORSIM-FIO-END randread 4 0" },
	  NULL, 0, { "malformed begin marker", "end marker for randread at iodepth 4 without a begin marker" } },
	{ "mismatched-end-marker",
	  { "STORSIM-FIO-BEGIN randread 2", "@DOC@", "STORSIM-FIO-END randread 16 0" },
	  NULL, 0, { "randread at iodepth 2 ends with the marker of randread at iodepth 16" } },
	{ "unended-then-complete",
	  { "STORSIM-FIO-BEGIN randread 1", "{", "  \"jobs\" : [",
	    "STORSIM-FIO-BEGIN randread 2", "@DOC@", "STORSIM-FIO-END randread 2 0" },
	  NULL, 1, { "randread at iodepth 1 has no end marker" } },
	/* The broken document is reported once, not as missing too. */
	{ "missing-point",
	  { "STORSIM-FIO-BEGIN randread 1", "@DOC@", "STORSIM-FIO-END randread 1 0",
	    "STORSIM-FIO-BEGIN randread 8", "{ broken", "STORSIM-FIO-END randread 8 0" },
	  "randread:1:8,randwrite:32", 1,
	  { "randread at iodepth 8 is not valid JSON", "no document for randwrite at iodepth 32" } },
};

static void test_extract_reports_problems(gconstpointer data)
{
	const struct extract_case *c = data;
	g_autofree char *doc = read_doc("randread", "4", 5000, 170000, 400000);
	const char *parts[G_N_ELEMENTS(c->lines) + 1] = { NULL };
	g_autofree char *log = NULL;
	g_autoptr(GArray) expect = c->expect ? guest_sweep_parse(c->expect, "--expect", NULL) : NULL;
	struct guest_extract *x;
	guint nproblems = 0;

	for (size_t i = 0; i < G_N_ELEMENTS(c->lines) && c->lines[i]; i++)
		parts[i] = strcmp(c->lines[i], "@DOC@") == 0 ? doc : c->lines[i];
	log = serial_log(parts);
	x = guest_extract(log, "serial.log", expect);
	g_assert_cmpuint(x->docs->len, ==, c->docs);
	for (; nproblems < G_N_ELEMENTS(c->problems) && c->problems[nproblems]; nproblems++)
		g_assert_cmpuint(problems_matching(x, c->problems[nproblems]), ==, 1);
	g_assert_cmpuint(x->problems->len, ==, nproblems);
	guest_extract_free(x);
}

/* --- fio JSON results --- */

static const struct guest_result *result_at(GPtrArray *r, guint i)
{
	return r->pdata[i];
}

static void test_results_read_figures(void)
{
	g_autofree char *doc = read_doc("randread", "16", 7351.5, 1062000.25, 2114000);
	g_autoptr(GPtrArray) r = guest_results_new();
	GError *err = NULL;

	g_assert_true(guest_results_add(r, doc, "a.json", &err));
	g_assert_no_error(err);
	g_assert_cmpuint(r->len, ==, 1);
	g_assert_cmpstr(result_at(r, 0)->job, ==, "randread");
	g_assert_cmpuint(result_at(r, 0)->iodepth, ==, 16);
	g_assert_cmpstr(result_at(r, 0)->dir, ==, "read");
	g_assert_cmpfloat(result_at(r, 0)->iops, ==, 7351.5);
	g_assert_cmpfloat(result_at(r, 0)->clat_mean_ns, ==, 1062000.25);
	g_assert_cmpfloat(result_at(r, 0)->clat_p99_ns, ==, 2114000);
	g_assert_cmpstr(result_at(r, 0)->source, ==, "a.json");
}

static void test_results_p99_absent_without_percentiles(void)
{
	g_autofree char *doc = read_doc("randread", "1", 5000, 170000, NAN);
	g_autoptr(GPtrArray) r = guest_results_new();

	g_assert_true(guest_results_add(r, doc, "a.json", NULL));
	g_assert_true(isnan(result_at(r, 0)->clat_p99_ns));
}

static void test_results_iodepth_sources(void)
{
	static const struct {
		const char *job_qd, *global_qd;
		unsigned int want;
	} cases[] = {
		{ "8", NULL, 8 },
		{ NULL, "4", 4 },
		{ "32", "4", 32 },
		{ NULL, NULL, 1 },
	};
	struct dir_figures d = { "read", 10, 100, 1000, 2000 };

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *doc = fio_doc("j", cases[i].job_qd, cases[i].global_qd, &d, 1);
		g_autoptr(GPtrArray) r = guest_results_new();

		g_assert_true(guest_results_add(r, doc, "a.json", NULL));
		g_assert_cmpuint(result_at(r, 0)->iodepth, ==, cases[i].want);
	}
}

static void test_results_one_per_direction_with_io(void)
{
	const struct dir_figures d[] = {
		{ "read", 700, 7000, 1000, 2000 },
		{ "write", 300, 3000, 1500, 2500 },
	};
	g_autofree char *doc = fio_doc("randrw", "8", NULL, d, G_N_ELEMENTS(d));
	g_autoptr(GPtrArray) r = guest_results_new();

	g_assert_true(guest_results_add(r, doc, "a.json", NULL));
	g_assert_cmpuint(r->len, ==, 2);
	g_assert_cmpstr(result_at(r, 0)->dir, ==, "read");
	g_assert_cmpfloat(result_at(r, 0)->iops, ==, 7000);
	g_assert_cmpstr(result_at(r, 1)->dir, ==, "write");
	g_assert_cmpfloat(result_at(r, 1)->iops, ==, 3000);
}

static void test_results_skip_lines_before_document(void)
{
	g_autofree char *doc = read_doc("randread", "2", 5000, 170000, 400000);
	g_autofree char *text = g_strconcat("note: both iodepth >= 1 and synchronous I/O engine are selected\n",
					    doc, NULL);
	g_autoptr(GPtrArray) r = guest_results_new();
	GError *err = NULL;

	g_assert_true(guest_results_add(r, text, "a.json", &err));
	g_assert_no_error(err);
	g_assert_cmpuint(result_at(r, 0)->iodepth, ==, 2);
}

static void test_results_reject_bad_documents(void)
{
	const struct dir_figures none = { "read", 0, 0, 0, 0 };
	struct dir_figures d = { "read", 10, 100, 1000, 2000 };
	g_autofree char *bad_qd = fio_doc("j", "deep", NULL, &d, 1);
	g_autofree char *no_io = fio_doc("idle", "1", NULL, &none, 1);
	const struct {
		const char *name, *text, *message;
	} cases[] = {
		{ "no JSON", "fio: failed to open /dev/nvme0n1\n", "no fio JSON document" },
		{ "not JSON", "{ \"jobs\" : [ }\n", "not valid JSON" },
		{ "cut short", "{\n\"jobs\" : [\n", "bad.json:2: not valid JSON: the document ends early" },
		{ "no jobs", "{ \"fio version\" : \"fio-3.33\" }", "needs an array 'jobs'" },
		{ "no jobname", "{ \"jobs\" : [ { \"read\" : {} } ] }", "no string 'jobname'" },
		{ "no total_ios", "{ \"jobs\" : [ { \"jobname\" : \"j\", \"read\" : {} } ] }",
		  "no number 'total_ios'" },
		{ "no clat", "{ \"jobs\" : [ { \"jobname\" : \"j\", \"read\" : { \"total_ios\" : 5, \"iops\" : 1 } } ] }",
		  "'clat_ns'" },
		{ "bad iodepth", bad_qd, "option 'iodepth': 'deep'" },
		{ "no I/O", no_io, "job 'idle' did no I/O" },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GPtrArray) r = guest_results_new();
		g_autofree char *good = read_doc("first", "1", 1, 1, 1);
		GError *err = NULL;

		g_test_message("case: %s", cases[i].name);
		g_assert_true(guest_results_add(r, good, "good.json", NULL));
		g_assert_false(guest_results_add(r, cases[i].text, "bad.json", &err));
		g_assert_error(err, STORSIM_ERROR, STORSIM_ERROR_INPUT);
		g_assert_true(g_str_has_prefix(err->message, "bad.json"));
		g_assert_nonnull(strstr(err->message, cases[i].message));
		/* What was there before stays; nothing of the bad file is added. */
		g_assert_cmpuint(r->len, ==, 1);
		g_error_free(err);
	}
}

/* --- comparison --- */

static void add_doc(GPtrArray *r, const char *job, const char *qd, double iops, double mean,
		    double p99)
{
	g_autofree char *doc = read_doc(job, qd, iops, mean, p99);
	g_autofree char *src = g_strdup_printf("%s-%s.json", job, qd);
	GError *err = NULL;

	g_assert_true(guest_results_add(r, doc, src, &err));
	g_assert_no_error(err);
}

static void test_compare_pairs_by_key_in_order(void)
{
	g_autoptr(GPtrArray) guest = guest_results_new();
	g_autoptr(GPtrArray) sim = guest_results_new();
	g_autoptr(GArray) rows = NULL;
	const char *want[] = { "randread@1", "randread@8", "randread@16", "randwrite@1" };

	add_doc(guest, "randwrite", "1", 4000, 250000, 500000);
	add_doc(guest, "randread", "16", 7400, 2100000, 4000000);
	add_doc(guest, "randread", "1", 5000, 170000, 400000);
	add_doc(guest, "randread", "8", 7300, 1000000, 2000000);
	add_doc(sim, "randread", "8", 8030, 900000, 2200000);
	add_doc(sim, "randread", "1", 5500, 160000, 380000);
	add_doc(sim, "randwrite", "1", 3000, 300000, 600000);
	add_doc(sim, "randread", "16", 7400, 2100000, 4000000);
	rows = guest_compare(guest, sim, NULL);
	g_assert_cmpuint(rows->len, ==, G_N_ELEMENTS(want));
	for (guint i = 0; i < rows->len; i++) {
		const struct guest_row *r = &g_array_index(rows, struct guest_row, i);
		g_autofree char *key = g_strdup_printf("%s@%u", r->guest->job, r->guest->iodepth);

		g_assert_cmpstr(key, ==, want[i]);
		g_assert_cmpstr(r->sim->job, ==, r->guest->job);
		g_assert_cmpuint(r->sim->iodepth, ==, r->guest->iodepth);
	}
	g_assert_cmpuint(guest_compare_unmatched(rows), ==, 0);
}

static void test_compare_rel_diff(void)
{
	static const struct {
		double guest, sim, want;
	} cases[] = {
		{ 1000, 1100, 0.1 },
		{ 2000, 1500, -0.25 },
		{ 7, 7, 0 },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++)
		g_assert_cmpfloat_with_epsilon(guest_rel_diff(cases[i].guest, cases[i].sim),
					       cases[i].want, 1e-12);
	g_assert_true(isnan(guest_rel_diff(0, 5)));
	g_assert_true(isnan(guest_rel_diff(NAN, 5)));
	g_assert_true(isnan(guest_rel_diff(5, NAN)));
}

static void test_compare_keeps_unmatched_rows(void)
{
	g_autoptr(GPtrArray) guest = guest_results_new();
	g_autoptr(GPtrArray) sim = guest_results_new();
	g_autoptr(GArray) rows = NULL;
	const struct guest_row *r;

	add_doc(guest, "randread", "1", 5000, 170000, 400000);
	add_doc(guest, "randread", "32", 7400, 4200000, 8000000);
	add_doc(sim, "randread", "1", 5500, 160000, 380000);
	add_doc(sim, "randwrite", "8", 4200, 1800000, 5600000);
	rows = guest_compare(guest, sim, NULL);
	g_assert_cmpuint(rows->len, ==, 3);
	r = &g_array_index(rows, struct guest_row, 1);
	g_assert_nonnull(r->guest);
	g_assert_null(r->sim);
	g_assert_cmpuint(r->guest->iodepth, ==, 32);
	r = &g_array_index(rows, struct guest_row, 2);
	g_assert_null(r->guest);
	g_assert_cmpstr(r->sim->job, ==, "randwrite");
	g_assert_cmpuint(guest_compare_unmatched(rows), ==, 2);
}

static void test_compare_rejects_repeated_key(void)
{
	g_autoptr(GPtrArray) guest = guest_results_new();
	g_autoptr(GPtrArray) sim = guest_results_new();
	g_autofree char *doc = read_doc("randread", "8", 1, 1, 1);
	GError *err = NULL;

	add_doc(guest, "randread", "8", 7000, 1000000, 2000000);
	g_assert_true(guest_results_add(guest, doc, "again.json", NULL));
	add_doc(sim, "randread", "8", 7000, 1000000, 2000000);
	g_assert_null(guest_compare(guest, sim, &err));
	g_assert_error(err, STORSIM_ERROR, STORSIM_ERROR_INPUT);
	g_assert_nonnull(strstr(err->message, "randread"));
	g_assert_nonnull(strstr(err->message, "again.json"));
	g_assert_nonnull(strstr(err->message, "randread-8.json"));
	g_error_free(err);
}

/* line with each run of spaces made one space, the ends trimmed. */
static char *squeeze(const char *line)
{
	g_auto(GStrv) words = g_strsplit_set(line, " ", -1);
	GString *s = g_string_new(NULL);

	for (char **w = words; *w; w++)
		if (**w)
			g_string_append_printf(s, "%s%s", s->len ? " " : "", *w);
	return g_string_free(s, FALSE);
}

/* The text table: a row's figures, in microseconds for latencies, and diffs. */
static void test_compare_text_table(void)
{
	g_autoptr(GPtrArray) guest = guest_results_new();
	g_autoptr(GPtrArray) sim = guest_results_new();
	g_autoptr(GArray) rows = NULL;
	g_autofree char *text = NULL, *row = NULL, *unmatched = NULL;
	g_auto(GStrv) lines = NULL;

	add_doc(guest, "randread", "1", 1000, 200000, 400000);
	add_doc(sim, "randread", "1", 1100, 150000, 400000);
	add_doc(guest, "randwrite", "32", 4000, 8000000, 9000000);
	rows = guest_compare(guest, sim, NULL);
	text = guest_compare_text(rows);
	lines = g_strsplit(text, "\n", -1);
	g_assert_cmpuint(g_strv_length(lines), ==, 5);	/* 2 header lines, 2 rows, "" */
	g_assert_nonnull(strstr(lines[0], "IOPS"));
	g_assert_nonnull(strstr(lines[1], "iodepth"));
	row = squeeze(lines[2]);
	g_assert_cmpstr(row, ==, "randread 1 read | 1000 1100 +10.0% | 200.0 150.0 -25.0% | 400.0 400.0 +0.0%");
	unmatched = squeeze(lines[3]);
	g_assert_cmpstr(unmatched, ==, "randwrite 32 read | 4000 - - | 8000.0 - - | 9000.0 - -");
	g_assert_cmpstr(lines[4], ==, "");
}

/* The JSON report holds the same figures, nulls where a side is missing. */
static void test_compare_json_report(void)
{
	g_autoptr(GPtrArray) guest = guest_results_new();
	g_autoptr(GPtrArray) sim = guest_results_new();
	g_autoptr(GArray) rows = NULL;
	struct json_object *j, *arr, *row, *o, *v;

	add_doc(guest, "randread", "1", 1000, 200000, 400000);
	add_doc(sim, "randread", "1", 1100, 150000, 400000);
	add_doc(sim, "randread", "4", 3000, 150000, 400000);
	rows = guest_compare(guest, sim, NULL);
	j = guest_compare_json(rows);
	g_assert_true(json_object_object_get_ex(j, "rows", &arr));
	g_assert_cmpuint(json_object_array_length(arr), ==, 2);
	row = json_object_array_get_idx(arr, 0);
	g_assert_true(json_object_object_get_ex(row, "iodepth", &v));
	g_assert_cmpint(json_object_get_int(v), ==, 1);
	g_assert_true(json_object_object_get_ex(row, "sim", &o));
	g_assert_true(json_object_object_get_ex(o, "iops", &v));
	g_assert_cmpfloat(json_object_get_double(v), ==, 1100);
	g_assert_true(json_object_object_get_ex(row, "rel_diff", &o));
	g_assert_true(json_object_object_get_ex(o, "iops", &v));
	g_assert_cmpfloat_with_epsilon(json_object_get_double(v), 0.1, 1e-9);
	g_assert_true(json_object_object_get_ex(o, "clat_mean", &v));
	g_assert_cmpfloat_with_epsilon(json_object_get_double(v), -0.25, 1e-9);
	row = json_object_array_get_idx(arr, 1);
	g_assert_true(json_object_object_get_ex(row, "guest", &o));
	g_assert_null(o);
	g_assert_true(json_object_object_get_ex(row, "rel_diff", &o));
	g_assert_true(json_object_object_get_ex(o, "iops", &v));
	g_assert_null(v);
	g_assert_true(json_object_object_get_ex(j, "unmatched", &v));
	g_assert_cmpint(json_object_get_int(v), ==, 1);
	json_object_put(j);
}

/* --- domain XML --- */

static void test_domain_xml_carries_options(void)
{
	struct guest_run_opts o = {
		.kernel = "/g/vmlinuz", .initrd = "/g/initrd.gz", .disk = "/g/a,b.raw",
		.cache = "writethrough", .append = "storsim.sweep=randread:1 x=<&>",
		.timeout_s = 60, .vcpus = 1, .serial_log = "/g/serial.log", .root = "/tmp/e",
	};
	g_autofree char *xml = guest_domain_xml(&o);

	g_assert_nonnull(strstr(xml, "<domain type='qemu'"));
	g_assert_nonnull(strstr(xml, "<vcpu>1</vcpu>"));
	g_assert_nonnull(strstr(xml, "<kernel>/g/vmlinuz</kernel>"));
	g_assert_nonnull(strstr(xml, "<initrd>/g/initrd.gz</initrd>"));
	/* QEMU would split the path at a single comma. */
	g_assert_nonnull(strstr(xml, "file=/g/a,,b.raw,if=none,"));
	g_assert_nonnull(strstr(xml, "cache=writethrough"));
	g_assert_nonnull(strstr(xml, "console=ttyS0 panic=-1 quiet storsim.sweep=randread:1 x=&lt;&amp;&gt;</cmdline>"));
	g_assert_nonnull(strstr(xml, "<source path='/g/serial.log'/>"));
	g_assert_nonnull(strstr(xml, "value='nvme,"));
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/guest/sweep/parses-points", test_sweep_parses_points);
	g_test_add_func("/guest/sweep/rejects-bad-specs", test_sweep_rejects_bad_specs);
	g_test_add_func("/guest/extract/finds-documents-among-noise",
			test_extract_finds_documents_among_noise);
	g_test_add_func("/guest/extract/drops-noise-after-document",
			test_extract_drops_noise_after_document);
	g_test_add_func("/guest/extract/reports-truncated-document",
			test_extract_reports_truncated_document);
	g_test_add_func("/guest/extract/reports-unparsable-document",
			test_extract_reports_unparsable_document);
	for (size_t i = 0; i < G_N_ELEMENTS(extract_cases); i++) {
		g_autofree char *path = g_strdup_printf("/guest/extract/problem/%s",
							extract_cases[i].name);

		g_test_add_data_func(path, &extract_cases[i], test_extract_reports_problems);
	}
	g_test_add_func("/guest/results/read-figures", test_results_read_figures);
	g_test_add_func("/guest/results/p99-absent-without-percentiles",
			test_results_p99_absent_without_percentiles);
	g_test_add_func("/guest/results/iodepth-sources", test_results_iodepth_sources);
	g_test_add_func("/guest/results/one-per-direction-with-io",
			test_results_one_per_direction_with_io);
	g_test_add_func("/guest/results/skip-lines-before-document",
			test_results_skip_lines_before_document);
	g_test_add_func("/guest/results/reject-bad-documents", test_results_reject_bad_documents);
	g_test_add_func("/guest/compare/pairs-by-key-in-order", test_compare_pairs_by_key_in_order);
	g_test_add_func("/guest/compare/rel-diff", test_compare_rel_diff);
	g_test_add_func("/guest/compare/keeps-unmatched-rows", test_compare_keeps_unmatched_rows);
	g_test_add_func("/guest/compare/rejects-repeated-key", test_compare_rejects_repeated_key);
	g_test_add_func("/guest/compare/text-table", test_compare_text_table);
	g_test_add_func("/guest/compare/json-report", test_compare_json_report);
	g_test_add_func("/guest/domain-xml/carries-options", test_domain_xml_carries_options);
	return g_test_run();
}
