/*
 * The full-system check's host side, apart from the libvirt launcher
 * (guest-libvirt.c): the sweep spec, the extractor of fio JSON documents
 * from the guest's serial console, the comparison of two sets of fio JSON
 * results, the domain XML, and `storsim guest run|extract|compare`.
 *
 * Sources: fio's JSON output format (reference/fio-formats.md, section 2:
 * jobs[].jobname, "job options"/"global options" as strings, per direction
 * iops, clat_ns.mean and clat_ns.percentile."99.000000"); the guest set-up
 * that worked with QEMU 7.2 and libvirt 9.0 on Debian 12
 * (reference/qemu-nvme-and-libvirt.md, 4.1, 4.2 and 4.4: no emulated NVMe
 * bus in libvirt 9.0, so the drive and device are passed through
 * <qemu:commandline>; serial console to a file; domain type 'qemu' for TCG).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

#include "guest.h"
#include "workloads/fio/output.h"
#include "engine/util.h"
#include "cli/cli.h"

#define MARK_BEGIN "STORSIM-FIO-BEGIN "
#define MARK_END "STORSIM-FIO-END "

/* fio's iodepth, when neither the job nor [global] sets it. */
#define FIO_DEFAULT_IODEPTH 1

/* The directions of a fio job, in the order the comparison lists them. */
static const char *const fio_dirs[] = { "read", "write", "trim" };

static void point_clear(gpointer p)
{
	g_free(((struct guest_point *)p)->job);
}

static bool job_name_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!g_ascii_isalnum(*s) && *s != '_' && *s != '-')
			return false;
	return true;
}

static bool same_point(const struct guest_point *a, const char *job,
		       unsigned int iodepth)
{
	return a->iodepth == iodepth && strcmp(a->job, job) == 0;
}

GArray *guest_sweep_parse(const char *spec, const char *option, GError **err)
{
	g_autoptr(GArray) sweep = g_array_new(FALSE, FALSE, sizeof(struct guest_point));
	g_auto(GStrv) items = NULL;

	g_array_set_clear_func(sweep, point_clear);
	if (!spec || !*spec) {
		storsim_input_error(err, NULL, 0, option,
				    "empty sweep; expected JOB:QD[:QD...][,JOB:QD...]");
		return NULL;
	}
	items = g_strsplit(spec, ",", -1);
	for (char **item = items; *item; item++) {
		g_auto(GStrv) parts = g_strsplit(*item, ":", -1);

		if (!parts[0] || !job_name_ok(parts[0]) || !parts[1]) {
			storsim_input_error(err, NULL, 0, option,
					    "'%s' is not JOB:QD[:QD...] with JOB made of letters, digits, '_' and '-'",
					    *item);
			return NULL;
		}
		for (char **qd = parts + 1; *qd; qd++) {
			guint64 v;
			struct guest_point p;

			if (!g_ascii_string_to_unsigned(*qd, 10, 1, 65535, &v, NULL)) {
				storsim_input_error(err, NULL, 0, option,
						    "queue depth '%s' of job '%s' is not a number from 1 to 65535",
						    *qd, parts[0]);
				return NULL;
			}
			for (guint i = 0; i < sweep->len; i++) {
				if (same_point(&g_array_index(sweep, struct guest_point, i),
					       parts[0], (unsigned int)v)) {
					storsim_input_error(err, NULL, 0, option,
							    "job '%s' at queue depth %s is listed twice",
							    parts[0], *qd);
					return NULL;
				}
			}
			p.job = g_strdup(parts[0]);
			p.iodepth = (unsigned int)v;
			g_array_append_val(sweep, p);
		}
	}
	return g_steal_pointer(&sweep);
}

/*
 * Parse the JSON object at the start of text; *end is where it ends. On
 * failure return NULL, with *bad_line the line of text (1-based) where
 * json-c stopped and *why its reason.
 */
static struct json_object *parse_json(const char *text, size_t *end, int *bad_line,
				      const char **why)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *obj = json_tokener_parse_ex(tok, text, (int)strlen(text));
	enum json_tokener_error jerr = json_tokener_get_error(tok);

	*end = json_tokener_get_parse_end(tok);
	if (!obj || jerr != json_tokener_success) {
		size_t stop = *end;

		/* A document cut short is blamed on its last line, not on the end of text. */
		while (jerr == json_tokener_continue && stop > 0 && g_ascii_isspace(text[stop - 1]))
			stop--;
		*bad_line = 1;
		for (size_t i = 0; i < stop && text[i]; i++)
			*bad_line += text[i] == '\n';
		*why = jerr == json_tokener_continue ? "the document ends early"
						     : json_tokener_error_desc(jerr);
		json_object_put(obj);
		obj = NULL;
	}
	json_tokener_free(tok);
	return obj;
}

static void doc_free(gpointer p)
{
	struct guest_doc *d = p;

	g_free(d->point.job);
	g_free(d->text);
	g_free(d);
}

void guest_extract_free(struct guest_extract *x)
{
	if (!x)
		return;
	g_ptr_array_unref(x->docs);
	g_ptr_array_unref(x->problems);
	g_free(x);
}

static void problem(struct guest_extract *x, const char *log_name, int line,
		    const char *fmt, ...) G_GNUC_PRINTF(4, 5);

static void problem(struct guest_extract *x, const char *log_name, int line,
		    const char *fmt, ...)
{
	GError *e = NULL;
	g_autofree char *what = NULL;
	va_list ap;

	va_start(ap, fmt);
	what = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	storsim_input_error(&e, log_name, line, NULL, "%s", what);
	g_ptr_array_add(x->problems, e);
}

/* "JOB QD" (begin) or "JOB QD STATUS" (end) after a marker. */
static bool parse_marker(const char *rest, bool with_status, struct guest_point *p,
			 int *status)
{
	g_autofree char *copy = g_strstrip(g_strdup(rest));
	g_auto(GStrv) f = g_strsplit(copy, " ", -1);
	guint64 qd;
	gint64 st = 0;

	if (g_strv_length(f) != (with_status ? 3u : 2u) || !job_name_ok(f[0]) ||
	    !g_ascii_string_to_unsigned(f[1], 10, 1, 65535, &qd, NULL) ||
	    (with_status && !g_ascii_string_to_signed(f[2], 10, 0, 255, &st, NULL)))
		return false;
	p->job = g_strdup(f[0]);
	p->iodepth = (unsigned int)qd;
	*status = (int)st;
	return true;
}

static char *point_key(const char *job, unsigned int iodepth)
{
	return g_strdup_printf("%s\n%u", job, iodepth);
}

static bool blank(const char *s)
{
	while (g_ascii_isspace(*s))
		s++;
	return !*s;
}

/* A document between markers is complete: check it and keep it. */
static void finish_doc(struct guest_extract *x, const char *log_name, GHashTable *kept,
		       struct guest_doc *d, GString *body)
{
	g_autofree char *key = point_key(d->point.job, d->point.iodepth);
	const char *why = NULL;
	int bad = 0;
	size_t end;
	struct json_object *obj;

	if (g_hash_table_contains(kept, key)) {
		problem(x, log_name, d->line,
			"second document for %s at iodepth %u (the first is at line %d)",
			d->point.job, d->point.iodepth,
			GPOINTER_TO_INT(g_hash_table_lookup(kept, key)));
		doc_free(d);
		return;
	}
	if (d->status != 0)
		problem(x, log_name, d->line, "fio exited with status %d for %s at iodepth %u",
			d->status, d->point.job, d->point.iodepth);
	if (blank(body->str)) {
		problem(x, log_name, d->line, "the document for %s at iodepth %u is empty",
			d->point.job, d->point.iodepth);
		doc_free(d);
		return;
	}
	obj = parse_json(body->str, &end, &bad, &why);
	if (!obj) {
		/* The body starts on the line after the begin marker. */
		problem(x, log_name, d->line + bad,
			"the document for %s at iodepth %u is not valid JSON: %s",
			d->point.job, d->point.iodepth, why);
		doc_free(d);
		return;
	}
	json_object_put(obj);
	/* What follows the document before its end marker is console noise. */
	while (end > 0 && g_ascii_isspace(body->str[end - 1]))
		end--;
	d->text = g_strdup_printf("%.*s\n", (int)end, body->str);
	g_hash_table_insert(kept, g_steal_pointer(&key), GINT_TO_POINTER(d->line));
	g_ptr_array_add(x->docs, d);
}

struct guest_extract *guest_extract(const char *log, const char *log_name,
				    const GArray *expect)
{
	struct guest_extract *x = g_new0(struct guest_extract, 1);
	g_auto(GStrv) lines = g_strsplit(log, "\n", -1);
	g_autoptr(GHashTable) begun = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_autoptr(GHashTable) kept = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_autoptr(GString) body = g_string_new(NULL);
	struct guest_doc *cur = NULL;	/* the document being read */

	x->docs = g_ptr_array_new_with_free_func(doc_free);
	x->problems = g_ptr_array_new_with_free_func((GDestroyNotify)g_error_free);
	for (int i = 0; lines[i]; i++) {
		char *line = lines[i];
		size_t n = strlen(line);
		const char *mark;
		struct guest_point p = { 0 };
		int status;

		/* The guest's tty turns "\n" into "\r\n". */
		while (n && line[n - 1] == '\r')
			line[--n] = '\0';
		if ((mark = strstr(line, MARK_BEGIN))) {
			if (cur) {
				problem(x, log_name, cur->line,
					"the document for %s at iodepth %u has no end marker",
					cur->point.job, cur->point.iodepth);
				g_clear_pointer(&cur, doc_free);
			}
			if (!parse_marker(mark + strlen(MARK_BEGIN), false, &p, &status)) {
				problem(x, log_name, i + 1, "malformed begin marker '%s'", mark);
				continue;
			}
			g_hash_table_add(begun, point_key(p.job, p.iodepth));
			cur = g_new0(struct guest_doc, 1);
			cur->point = p;
			cur->line = i + 1;
			g_string_truncate(body, 0);
		} else if ((mark = strstr(line, MARK_END))) {
			if (!parse_marker(mark + strlen(MARK_END), true, &p, &status)) {
				problem(x, log_name, i + 1, "malformed end marker '%s'", mark);
			} else if (!cur) {
				problem(x, log_name, i + 1,
					"end marker for %s at iodepth %u without a begin marker",
					p.job, p.iodepth);
			} else if (!same_point(&cur->point, p.job, p.iodepth)) {
				problem(x, log_name, cur->line,
					"the document for %s at iodepth %u ends with the marker of %s at iodepth %u (line %d)",
					cur->point.job, cur->point.iodepth, p.job, p.iodepth, i + 1);
			} else {
				cur->status = status;
				finish_doc(x, log_name, kept, g_steal_pointer(&cur), body);
			}
			g_clear_pointer(&cur, doc_free);
			point_clear(&p);
		} else if (cur) {
			g_string_append(body, line);
			g_string_append_c(body, '\n');
		}
	}
	if (cur) {
		problem(x, log_name, cur->line,
			"the document for %s at iodepth %u has no end marker (the log ends first)",
			cur->point.job, cur->point.iodepth);
		doc_free(cur);
	}
	for (guint i = 0; expect && i < expect->len; i++) {
		const struct guest_point *e = &g_array_index(expect, struct guest_point, i);
		g_autofree char *key = point_key(e->job, e->iodepth);

		if (!g_hash_table_contains(begun, key))
			problem(x, log_name, 0, "no document for %s at iodepth %u",
				e->job, e->iodepth);
	}
	return x;
}

static void result_free(gpointer p)
{
	struct guest_result *r = p;

	g_free(r->job);
	g_free(r->source);
	g_free(r);
}

GPtrArray *guest_results_new(void)
{
	return g_ptr_array_new_with_free_func(result_free);
}

/* A number held by key in obj (fio writes integers and doubles alike). */
static bool get_number(struct json_object *obj, const char *key, double *v)
{
	struct json_object *o;

	if (!json_object_object_get_ex(obj, key, &o) ||
	    (!json_object_is_type(o, json_type_int) && !json_object_is_type(o, json_type_double)))
		return false;
	*v = json_object_get_double(o);
	return true;
}

/* iodepth as "job options" or "global options" hold it: a string. */
static bool options_iodepth(struct json_object *opts, const char *text, const char *source,
			    unsigned int *iodepth, GError **err)
{
	struct json_object *o;
	guint64 v;

	if (!opts || !json_object_object_get_ex(opts, "iodepth", &o))
		return true;
	if (!json_object_is_type(o, json_type_string) ||
	    !g_ascii_string_to_unsigned(json_object_get_string(o), 10, 1, 65535, &v, NULL)) {
		storsim_input_error(err, source, storsim_json_key_line(text, "iodepth"), "iodepth",
				    "'%s' is not a queue depth from 1 to 65535",
				    json_object_get_string(o));
		return false;
	}
	*iodepth = (unsigned int)v;
	return true;
}

/* One direction of a job: NULL when it did no I/O, *err set when malformed. */
static struct guest_result *dir_result(struct json_object *job, const char *dir,
				       const char *text, const char *source, GError **err)
{
	struct json_object *d, *clat, *pct, *p99;
	struct guest_result *r;
	double ios;

	if (!json_object_object_get_ex(job, dir, &d))
		return NULL;
	if (!get_number(d, "total_ios", &ios)) {
		storsim_input_error(err, source, storsim_json_key_line(text, dir), dir,
				    "has no number 'total_ios'");
		return NULL;
	}
	if (ios <= 0)
		return NULL;
	r = g_new0(struct guest_result, 1);
	r->dir = dir;
	r->clat_p99_ns = NAN;
	if (!get_number(d, "iops", &r->iops) ||
	    !json_object_object_get_ex(d, "clat_ns", &clat) ||
	    !get_number(clat, "mean", &r->clat_mean_ns)) {
		storsim_input_error(err, source, storsim_json_key_line(text, dir), dir,
				    "needs a number 'iops' and an object 'clat_ns' with a number 'mean'");
		g_free(r);
		return NULL;
	}
	/* fio writes percentiles only where they are enabled (clat by default). */
	if (json_object_object_get_ex(clat, "percentile", &pct) &&
	    json_object_object_get_ex(pct, "99.000000", &p99))
		r->clat_p99_ns = json_object_get_double(p99);
	return r;
}

/* Add the results of every job of doc, which was read from text. */
static bool add_jobs(GPtrArray *results, struct json_object *doc, const char *text,
		     const char *source, GError **err)
{
	struct json_object *jobs, *gopts = NULL;

	if (!json_object_object_get_ex(doc, "jobs", &jobs) ||
	    !json_object_is_type(jobs, json_type_array)) {
		storsim_input_error(err, source, storsim_json_key_line(text, "jobs"), "jobs",
				    "a fio JSON document needs an array 'jobs'");
		return false;
	}
	json_object_object_get_ex(doc, "global options", &gopts);
	for (size_t i = 0; i < json_object_array_length(jobs); i++) {
		struct json_object *job = json_object_array_get_idx(jobs, i);
		struct json_object *name, *jopts = NULL;
		unsigned int iodepth = FIO_DEFAULT_IODEPTH;
		guint before = results->len;

		if (!json_object_object_get_ex(job, "jobname", &name) ||
		    !json_object_is_type(name, json_type_string)) {
			storsim_input_error(err, source, storsim_json_key_line(text, "jobs"), "jobname",
					    "job %zu has no string 'jobname'", i);
			return false;
		}
		json_object_object_get_ex(job, "job options", &jopts);
		if (!options_iodepth(gopts, text, source, &iodepth, err) ||
		    !options_iodepth(jopts, text, source, &iodepth, err))
			return false;
		for (size_t k = 0; k < G_N_ELEMENTS(fio_dirs); k++) {
			GError *e = NULL;
			struct guest_result *r = dir_result(job, fio_dirs[k], text, source, &e);

			if (e) {
				g_propagate_error(err, e);
				return false;
			}
			if (!r)
				continue;
			r->job = g_strdup(json_object_get_string(name));
			r->iodepth = iodepth;
			r->source = g_strdup(source);
			g_ptr_array_add(results, r);
		}
		if (results->len == before) {
			storsim_input_error(err, source, storsim_json_key_line(text, "jobname"), "jobname",
					    "job '%s' did no I/O", json_object_get_string(name));
			return false;
		}
	}
	return true;
}

bool guest_results_add(GPtrArray *results, const char *text, const char *source,
		       GError **err)
{
	struct json_object *doc;
	const char *start = text, *why = NULL;
	int skipped = 0, bad = 0;
	size_t end;
	guint first_new = results->len;
	bool ok;

	/* Skip lines until one starts with '{'. */
	for (;;) {
		const char *p = start + strspn(start, " \t\r");

		if (*p == '{')
			break;
		p = strchr(p, '\n');
		if (!p) {
			storsim_input_error(err, source, 0, NULL, "no fio JSON document found");
			return false;
		}
		start = p + 1;
		skipped++;
	}
	doc = parse_json(start, &end, &bad, &why);
	if (!doc) {
		storsim_input_error(err, source, skipped + bad, NULL, "not valid JSON: %s", why);
		return false;
	}
	ok = add_jobs(results, doc, text, source, err);
	json_object_put(doc);
	if (!ok)
		g_ptr_array_remove_range(results, first_new, results->len - first_new);
	return ok;
}

static int dir_index(const char *dir)
{
	for (size_t k = 0; k < G_N_ELEMENTS(fio_dirs); k++)
		if (strcmp(dir, fio_dirs[k]) == 0)
			return (int)k;
	g_assert_not_reached();
}

static int result_key_cmp(const struct guest_result *a, const struct guest_result *b)
{
	int c = strcmp(a->job, b->job);

	if (c)
		return c;
	if (a->iodepth != b->iodepth)
		return a->iodepth < b->iodepth ? -1 : 1;
	return dir_index(a->dir) - dir_index(b->dir);
}

static int result_ptr_cmp(gconstpointer a, gconstpointer b)
{
	return result_key_cmp(*(struct guest_result *const *)a, *(struct guest_result *const *)b);
}

/* side's results sorted by key; NULL when a key repeats. */
static GPtrArray *sorted_side(const GPtrArray *side, const char *name, GError **err)
{
	GPtrArray *s = g_ptr_array_sized_new(side->len);

	for (guint i = 0; i < side->len; i++)
		g_ptr_array_add(s, side->pdata[i]);
	g_ptr_array_sort(s, result_ptr_cmp);
	for (guint i = 1; i < s->len; i++) {
		const struct guest_result *a = s->pdata[i - 1], *b = s->pdata[i];

		if (result_key_cmp(a, b) == 0) {
			storsim_input_error(err, b->source, 0, NULL,
					    "%s result for job '%s' at iodepth %u (%s) is also in %s",
					    name, b->job, b->iodepth, b->dir, a->source);
			g_ptr_array_unref(s);
			return NULL;
		}
	}
	return s;
}

GArray *guest_compare(const GPtrArray *guest, const GPtrArray *sim, GError **err)
{
	g_autoptr(GPtrArray) g = sorted_side(guest, "guest", err);
	g_autoptr(GPtrArray) s = g ? sorted_side(sim, "sim", err) : NULL;
	GArray *rows;
	guint i = 0, j = 0;

	if (!s)
		return NULL;
	rows = g_array_new(FALSE, FALSE, sizeof(struct guest_row));
	while (i < g->len || j < s->len) {
		struct guest_row row = { NULL, NULL };
		int c = i == g->len ? 1 : j == s->len ? -1 : result_key_cmp(g->pdata[i], s->pdata[j]);

		if (c <= 0)
			row.guest = g->pdata[i++];
		if (c >= 0)
			row.sim = s->pdata[j++];
		g_array_append_val(rows, row);
	}
	return rows;
}

double guest_rel_diff(double guest, double sim)
{
	if (isnan(guest) || isnan(sim) || guest == 0)
		return NAN;
	return (sim - guest) / guest;
}

unsigned int guest_compare_unmatched(const GArray *rows)
{
	unsigned int n = 0;

	for (guint i = 0; i < rows->len; i++) {
		const struct guest_row *r = &g_array_index(rows, struct guest_row, i);

		n += !r->guest || !r->sim;
	}
	return n;
}

/* The compared figures, in the columns' order, with their scale for text. */
static const struct metric {
	const char *title;	/* text column group */
	const char *key;	/* JSON key */
	double text_scale;	/* ns to us for the latencies */
	int decimals;		/* in the text table */
	size_t offset;
} metrics[] = {
	{ "IOPS", "iops", 1, 0, offsetof(struct guest_result, iops) },
	{ "mean clat (us)", "clat_mean", 1e-3, 1, offsetof(struct guest_result, clat_mean_ns) },
	{ "p99 clat (us)", "clat_p99", 1e-3, 1, offsetof(struct guest_result, clat_p99_ns) },
};

static double metric_value(const struct guest_result *r, const struct metric *m)
{
	return r ? *(const double *)((const char *)r + m->offset) : NAN;
}

static const struct guest_result *row_key(const struct guest_row *r)
{
	return r->guest ? r->guest : r->sim;
}

#define TEXT_NUM_W 10
#define TEXT_DIFF_W 8

char *guest_compare_text(const GArray *rows)
{
	GString *t = g_string_new(NULL);
	int jw = (int)strlen("job");

	for (guint i = 0; i < rows->len; i++) {
		int len = (int)strlen(row_key(&g_array_index(rows, struct guest_row, i))->job);

		jw = MAX(jw, len);
	}
	g_string_append_printf(t, "%-*s %7s %-5s", jw, "", "", "");
	for (size_t m = 0; m < G_N_ELEMENTS(metrics); m++)
		g_string_append_printf(t, " | %-*s", 2 * (TEXT_NUM_W + 1) + TEXT_DIFF_W,
				       metrics[m].title);
	while (t->len && t->str[t->len - 1] == ' ')
		g_string_truncate(t, t->len - 1);
	g_string_append_printf(t, "\n%-*s %7s %-5s", jw, "job", "iodepth", "dir");
	for (size_t m = 0; m < G_N_ELEMENTS(metrics); m++)
		g_string_append_printf(t, " | %*s %*s %*s", TEXT_NUM_W, "guest", TEXT_NUM_W, "sim",
				       TEXT_DIFF_W, "diff");
	g_string_append_c(t, '\n');
	for (guint i = 0; i < rows->len; i++) {
		const struct guest_row *r = &g_array_index(rows, struct guest_row, i);
		const struct guest_result *k = row_key(r);

		g_string_append_printf(t, "%-*s %7u %-5s", jw, k->job, k->iodepth, k->dir);
		for (size_t m = 0; m < G_N_ELEMENTS(metrics); m++) {
			const struct metric *mt = &metrics[m];
			double gv = metric_value(r->guest, mt), sv = metric_value(r->sim, mt);
			double d = guest_rel_diff(gv, sv);
			char gs[32] = "-", ss[32] = "-", ds[32] = "-";

			if (!isnan(gv))
				g_snprintf(gs, sizeof(gs), "%.*f", mt->decimals, gv * mt->text_scale);
			if (!isnan(sv))
				g_snprintf(ss, sizeof(ss), "%.*f", mt->decimals, sv * mt->text_scale);
			if (!isnan(d))
				g_snprintf(ds, sizeof(ds), "%+.1f%%", d * 100);
			g_string_append_printf(t, " | %*s %*s %*s", TEXT_NUM_W, gs, TEXT_NUM_W, ss,
					       TEXT_DIFF_W, ds);
		}
		g_string_append_c(t, '\n');
	}
	return g_string_free(t, FALSE);
}

/* v with a fixed number of decimals, or null: results files stay diffable. */
static struct json_object *json_fixed(double v, int decimals)
{
	char buf[64];

	if (isnan(v))
		return NULL;
	g_snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	return json_object_new_double_s(v, buf);
}

static struct json_object *side_json(const struct guest_result *r)
{
	struct json_object *o;

	if (!r)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "iops", json_fixed(r->iops, 3));
	json_object_object_add(o, "clat_mean_ns", json_fixed(r->clat_mean_ns, 3));
	json_object_object_add(o, "clat_p99_ns", json_fixed(r->clat_p99_ns, 0));
	return o;
}

struct json_object *guest_compare_json(const GArray *rows)
{
	struct json_object *top = json_object_new_object();
	struct json_object *arr = json_object_new_array();

	for (guint i = 0; i < rows->len; i++) {
		const struct guest_row *r = &g_array_index(rows, struct guest_row, i);
		const struct guest_result *k = row_key(r);
		struct json_object *o = json_object_new_object();
		struct json_object *diff = json_object_new_object();

		json_object_object_add(o, "job", json_object_new_string(k->job));
		json_object_object_add(o, "iodepth", json_object_new_int((int)k->iodepth));
		json_object_object_add(o, "dir", json_object_new_string(k->dir));
		json_object_object_add(o, "guest", side_json(r->guest));
		json_object_object_add(o, "sim", side_json(r->sim));
		for (size_t m = 0; m < G_N_ELEMENTS(metrics); m++)
			json_object_object_add(diff, metrics[m].key,
					       json_fixed(guest_rel_diff(metric_value(r->guest, &metrics[m]),
									 metric_value(r->sim, &metrics[m])), 6));
		json_object_object_add(o, "rel_diff", diff);
		json_object_array_add(arr, o);
	}
	json_object_object_add(top, "rows", arr);
	json_object_object_add(top, "unmatched", json_object_new_int((int)guest_compare_unmatched(rows)));
	return top;
}

/* Guest memory: the unpacked initramfs (about 90 MB) and fio fit well. */
#define GUEST_MEMORY_MIB 1024

/* QEMU's option syntax doubles a comma that belongs to a value. */
static char *qemu_opt_value(const char *s)
{
	g_auto(GStrv) parts = g_strsplit(s, ",", -1);

	return g_strjoinv(",,", parts);
}

char *guest_domain_xml(const struct guest_run_opts *o)
{
	g_autofree char *file = qemu_opt_value(o->disk);
	g_autofree char *drive = g_strdup_printf(
		"file=%s,if=none,id=nvm0,format=raw,cache=%s,aio=threads", file, o->cache);
	g_autofree char *cmdline = g_strconcat("console=ttyS0 panic=-1 quiet",
					       o->append ? " " : "", o->append, NULL);

	/*
	 * Type 'qemu' is TCG. ACPI lets the guest's poweroff end the domain;
	 * a panic reboots (panic=-1), which also ends it. libvirt 9.0 has no
	 * emulated NVMe bus, hence <qemu:commandline>.
	 */
	return g_markup_printf_escaped(
		"<domain type='qemu' xmlns:qemu='http://libvirt.org/schemas/domain/qemu/1.0'>\n"
		"  <name>%s</name>\n"
		"  <memory unit='MiB'>%u</memory>\n"
		"  <vcpu>%u</vcpu>\n"
		"  <os>\n"
		"    <type arch='x86_64' machine='q35'>hvm</type>\n"
		"    <kernel>%s</kernel>\n"
		"    <initrd>%s</initrd>\n"
		"    <cmdline>%s</cmdline>\n"
		"  </os>\n"
		"  <features><acpi/></features>\n"
		"  <on_poweroff>destroy</on_poweroff>\n"
		"  <on_reboot>destroy</on_reboot>\n"
		"  <on_crash>destroy</on_crash>\n"
		"  <devices>\n"
		"    <serial type='file'><source path='%s'/><target port='0'/></serial>\n"
		"    <controller type='usb' model='none'/>\n"
		"    <memballoon model='none'/>\n"
		"  </devices>\n"
		"  <qemu:commandline>\n"
		"    <qemu:arg value='-drive'/>\n"
		"    <qemu:arg value='%s'/>\n"
		"    <qemu:arg value='-device'/>\n"
		"    <qemu:arg value='nvme,serial=storsim0,drive=nvm0'/>\n"
		"  </qemu:commandline>\n"
		"</domain>\n",
		GUEST_DOMAIN_NAME, GUEST_MEMORY_MIB, o->vcpus, o->kernel, o->initrd, cmdline,
		o->serial_log, drive);
}

#ifndef STORSIM_HAVE_LIBVIRT
bool guest_run(const struct guest_run_opts *o, GError **err)
{
	g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_UNSUPPORTED,
		    "this storsim was built without libvirt (install libvirt-dev and re-run configure)");
	return false;
}
#endif

/* QEMU -drive cache= modes (block.c, bdrv_parse_cache_mode). */
static const char *const cache_modes[] = {
	"none", "writeback", "writethrough", "directsync", "unsafe", NULL
};

static int fail(const char *cmd, GError *err)
{
	fprintf(stderr, "storsim guest %s: %s\n", cmd, err->message);
	g_error_free(err);
	return 1;
}

static bool parse_options(GOptionContext *ctx, int *argc, char ***argv, GError **err)
{
	if (!cli_parse(ctx, argc, argv, err))
		return false;
	if (*argc > 1) {
		storsim_input_error(err, NULL, 0, NULL, "unexpected argument '%s'", (*argv)[1]);
		return false;
	}
	return true;
}

/* path, required, as an absolute name of a regular file. */
static char *need_file(const char *path, const char *option, GError **err)
{
	if (!path) {
		storsim_input_error(err, NULL, 0, option, "is required");
		return NULL;
	}
	if (!g_file_test(path, G_FILE_TEST_IS_REGULAR)) {
		storsim_input_error(err, NULL, 0, option, "'%s' is not a file", path);
		return NULL;
	}
	return g_canonicalize_filename(path, NULL);
}

static void run_opts_clear(struct guest_run_opts *o)
{
	g_free(o->kernel);
	g_free(o->initrd);
	g_free(o->disk);
	g_free(o->cache);
	g_free(o->append);
	g_free(o->serial_log);
	g_free(o->root);
}

static bool run_opts_check(struct guest_run_opts *o, int timeout, int vcpus, GError **err)
{
	/* The driver's monitor socket lives under the root, within sun_path. */
	const size_t socket_tail = strlen("/lib/qemu/domain-99999-" GUEST_DOMAIN_NAME "/monitor.sock");

	if (!g_strv_contains(cache_modes, o->cache)) {
		g_autofree char *modes = g_strjoinv(", ", (char **)cache_modes);

		storsim_input_error(err, NULL, 0, "--cache", "'%s' is not one of %s", o->cache, modes);
		return false;
	}
	if (timeout < 1 || timeout > 86400) {
		storsim_input_error(err, NULL, 0, "--timeout", "%d is not from 1 to 86400 seconds",
				    timeout);
		return false;
	}
	if (vcpus < 1 || vcpus > 64) {
		storsim_input_error(err, NULL, 0, "--vcpus", "%d is not from 1 to 64", vcpus);
		return false;
	}
	if (strlen(o->root) + socket_tail >= 108) {
		storsim_input_error(err, NULL, 0, "--root",
				    "'%s' is too long for the UNIX socket paths libvirt makes under it",
				    o->root);
		return false;
	}
	o->timeout_s = (unsigned int)timeout;
	o->vcpus = (unsigned int)vcpus;
	return true;
}

int guest_run_main(int argc, char **argv)
{
	g_autofree char *kernel = NULL, *initrd = NULL, *disk = NULL, *serial = NULL, *root = NULL;
	struct guest_run_opts o = { 0 };
	int timeout = 600, vcpus = 2;
	GOptionEntry entries[] = {
		{ "kernel", 0, 0, G_OPTION_ARG_FILENAME, &kernel, "guest kernel (bzImage)", "FILE" },
		{ "initrd", 0, 0, G_OPTION_ARG_FILENAME, &initrd, "guest initramfs", "FILE" },
		{ "disk", 0, 0, G_OPTION_ARG_FILENAME, &disk, "raw image behind the emulated NVMe", "IMG" },
		{ "cache", 0, 0, G_OPTION_ARG_STRING, &o.cache, "QEMU -drive cache= mode (none)", "MODE" },
		{ "append", 0, 0, G_OPTION_ARG_STRING, &o.append, "more kernel command line", "ARGS" },
		{ "timeout", 0, 0, G_OPTION_ARG_INT, &timeout, "destroy the guest after S seconds (600)", "S" },
		{ "vcpus", 0, 0, G_OPTION_ARG_INT, &vcpus, "virtual CPUs (2)", "N" },
		{ "serial-log", 0, 0, G_OPTION_ARG_FILENAME, &serial,
		  "write the console here (default: print it)", "FILE" },
		{ "root", 0, 0, G_OPTION_ARG_FILENAME, &root,
		  "embedded libvirt driver's root (TMPDIR/storsim-embed)", "DIR" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL }
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("");
	GError *err = NULL;
	bool ok;

	g_option_context_set_summary(ctx, "Boot the check-guest VM through libvirt's embedded QEMU driver\n"
				     "and print its console (docs/guest.md).");
	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!parse_options(ctx, &argc, &argv, &err) ||
	    !(o.kernel = need_file(kernel, "--kernel", &err)) ||
	    !(o.initrd = need_file(initrd, "--initrd", &err)) ||
	    !(o.disk = need_file(disk, "--disk", &err)))
		goto out;
	if (!o.cache)
		o.cache = g_strdup("none");
	o.root = root ? g_canonicalize_filename(root, NULL)
		      : g_build_filename(g_get_tmp_dir(), "storsim-embed", NULL);
	o.serial_log = serial ? g_canonicalize_filename(serial, NULL)
			      : g_build_filename(o.root, "serial.log", NULL);
	if (!run_opts_check(&o, timeout, vcpus, &err))
		goto out;
	ok = guest_run(&o, &err);
	/* Other errors come before the guest starts, when any log there is an old one. */
	if (!serial && (ok || g_error_matches(err, STORSIM_ERROR, STORSIM_ERROR_EXTERNAL))) {
		g_autofree char *log = NULL;

		if (g_file_get_contents(o.serial_log, &log, NULL, NULL))
			fputs(log, stdout);
	}
	if (ok)
		fprintf(stderr, "storsim guest run: the guest powered off; console in %s\n",
			o.serial_log);
out:
	run_opts_clear(&o);
	return err ? fail("run", err) : 0;
}

static bool write_doc(const char *dir, const struct guest_doc *d, GError **err)
{
	g_autofree char *base = g_strdup_printf("%s-qd%u.json", d->point.job, d->point.iodepth);
	g_autofree char *path = g_build_filename(dir, base, NULL);

	return g_file_set_contents(path, d->text, -1, err);
}

int guest_extract_main(int argc, char **argv)
{
	g_autofree char *log_name = NULL, *expect_spec = NULL, *outdir = NULL, *log = NULL;
	g_autoptr(GArray) expect = NULL;
	struct guest_extract *x = NULL;
	GOptionEntry entries[] = {
		{ "serial-log", 0, 0, G_OPTION_ARG_FILENAME, &log_name, "the guest's console log", "FILE" },
		{ "expect", 0, 0, G_OPTION_ARG_STRING, &expect_spec,
		  "the sweep that ran; a point without a document is an error", "JOB:QD[:QD...][,...]" },
		{ "outdir", 0, 0, G_OPTION_ARG_FILENAME, &outdir, "write JOB-qdN.json here", "DIR" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL }
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("");
	GError *err = NULL;
	guint problems;

	g_option_context_set_summary(ctx, "Take the fio JSON documents out of the guest's console log.");
	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!parse_options(ctx, &argc, &argv, &err))
		return fail("extract", err);
	if (!log_name) {
		storsim_input_error(&err, NULL, 0, "--serial-log", "is required");
		return fail("extract", err);
	}
	if (expect_spec && !(expect = guest_sweep_parse(expect_spec, "--expect", &err)))
		return fail("extract", err);
	if (!g_file_get_contents(log_name, &log, NULL, &err))
		return fail("extract", err);
	x = guest_extract(log, log_name, expect);
	if (outdir && g_mkdir_with_parents(outdir, 0777) != 0) {
		g_set_error(&err, STORSIM_ERROR, STORSIM_ERROR_IO, "%s: %s", outdir, g_strerror(errno));
		guest_extract_free(x);
		return fail("extract", err);
	}
	for (guint i = 0; outdir && i < x->docs->len; i++) {
		if (!write_doc(outdir, x->docs->pdata[i], &err)) {
			guest_extract_free(x);
			return fail("extract", err);
		}
	}
	for (guint i = 0; i < x->problems->len; i++)
		fprintf(stderr, "storsim guest extract: %s\n",
			((GError *)x->problems->pdata[i])->message);
	fprintf(stderr, "storsim guest extract: %u documents%s%s, %u problems\n", x->docs->len,
		outdir ? " written to " : "", outdir ? outdir : "", x->problems->len);
	problems = x->problems->len;
	guest_extract_free(x);
	return problems ? 1 : 0;
}

/* Add the results in path, a fio JSON file or a directory of *.json. */
static bool add_path(GPtrArray *results, const char *path, GError **err)
{
	g_autofree char *text = NULL;

	if (g_file_test(path, G_FILE_TEST_IS_DIR)) {
		g_autoptr(GDir) dir = g_dir_open(path, 0, err);
		g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
		const char *n;

		if (!dir)
			return false;
		while ((n = g_dir_read_name(dir)))
			if (g_str_has_suffix(n, ".json"))
				g_ptr_array_add(names, g_build_filename(path, n, NULL));
		if (!names->len) {
			storsim_input_error(err, path, 0, NULL, "directory holds no *.json file");
			return false;
		}
		/* Directory order is the file system's; messages should not be. */
		g_ptr_array_sort(names, storsim_strptr_cmp);
		for (guint i = 0; i < names->len; i++)
			if (!add_path(results, names->pdata[i], err))
				return false;
		return true;
	}
	return g_file_get_contents(path, &text, NULL, err) &&
	       guest_results_add(results, text, path, err);
}

/*
 * compare's options. GOption prints their help, but the loop in
 * guest_compare_main() reads them: the files after --guest and --sim are
 * that side's, in order, which GOption would not keep.
 */
static const GOptionEntry compare_entries[] = {
	{ "guest", 0, 0, G_OPTION_ARG_NONE, NULL,
	  "The files and directories that follow are the guest's fio results", NULL },
	{ "sim", 0, 0, G_OPTION_ARG_NONE, NULL,
	  "The files and directories that follow are storsim's", NULL },
	{ "json", 0, 0, G_OPTION_ARG_FILENAME, NULL,
	  "Also write the rows as JSON to OUT", "OUT" },
	{ NULL, 0, 0, 0, NULL, NULL, NULL }
};

static char *compare_help(void)
{
	g_autoptr(GOptionContext) ctx =
		g_option_context_new("--guest FILE|DIR... --sim FILE|DIR...");

	g_option_context_set_summary(ctx,
		"Set two sets of fio JSON results side by side, keyed by job name, iodepth and\n"
		"direction: IOPS, mean and p99 completion latency, and (sim - guest) / guest.\n"
		"A directory stands for its *.json files. Fails when a key is on one side only.");
	g_option_context_add_main_entries(ctx, compare_entries, NULL);
	return g_option_context_get_help(ctx, TRUE, NULL);
}

int guest_compare_main(int argc, char **argv)
{
	g_autoptr(GPtrArray) guest = guest_results_new();
	g_autoptr(GPtrArray) sim = guest_results_new();
	g_autoptr(GArray) rows = NULL;
	g_autofree char *table = NULL;
	GPtrArray *side = NULL;
	const char *json_out = NULL;
	GError *err = NULL;
	unsigned int unmatched;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--guest") == 0) {
			side = guest;
		} else if (strcmp(a, "--sim") == 0) {
			side = sim;
		} else if (strcmp(a, "--json") == 0) {
			if (++i == argc) {
				storsim_input_error(&err, NULL, 0, "--json", "needs a file name");
				return fail("compare", err);
			}
			json_out = argv[i];
		} else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0 ||
			   strcmp(a, "--help-all") == 0) {
			g_autofree char *help = compare_help();
			fputs(help, stdout);
			return 0;
		} else if (a[0] == '-') {
			g_autofree char *help = compare_help();
			g_autofree char *near = cli_nearest_option(help, a);
			storsim_input_error(&err, "command line", 0, a, "unknown option%s%s%s",
					    near ? "; did you mean '" : "", near ? near : "",
					    near ? "'?" : "");
			return fail("compare", err);
		} else if (!side) {
			storsim_input_error(&err, NULL, 0, NULL,
					    "'%s' comes before --guest or --sim", a);
			return fail("compare", err);
		} else if (!add_path(side, a, &err)) {
			return fail("compare", err);
		}
	}
	if (!guest->len || !sim->len) {
		storsim_input_error(&err, NULL, 0, guest->len ? "--sim" : "--guest",
				    "no results given");
		return fail("compare", err);
	}
	rows = guest_compare(guest, sim, &err);
	if (!rows)
		return fail("compare", err);
	table = guest_compare_text(rows);
	fputs(table, stdout);
	if (json_out) {
		struct json_object *j = guest_compare_json(rows);
		g_autofree char *text = g_strconcat(
			json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY |
							  JSON_C_TO_STRING_NOSLASHESCAPE), "\n", NULL);
		bool ok = output_write_file(json_out, text, &err);

		json_object_put(j);
		if (!ok)
			return fail("compare", err);
	}
	unmatched = guest_compare_unmatched(rows);
	if (unmatched) {
		fprintf(stderr, "storsim guest compare: rows with a result on one side only: %u\n",
			unmatched);
		return 1;
	}
	return 0;
}
