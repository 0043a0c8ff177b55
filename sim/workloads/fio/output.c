/*
 * fio-compatible results, the parts every format shares: --output-format
 * parsing, the entries group_reporting makes and the "Run status group"
 * figures, num2str, dates, and writing the result file whole.
 *
 * Parameters: the run description (output.h): group ids, group_reporting,
 * kb_base (1000 or 1024), significant_figures (digits), unit_base (bits or
 * bytes), the simulated timestamp (s since the epoch).
 *
 * Sources: fio 3.33 stat.c (__show_run_stats: how jobs become reported
 * entries and group figures; convert_agg_kbytes_percent), lib/num2str.c
 * (num2str), init.c (--output-format names), eta.c (eta). Facts only; the
 * code is storsim's.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "output_int.h"
#include "engine/util.h"

const char *const output_ddir_name[STATS_DDIR_NR] = { "read", "write", "trim" };

const char *output_ddir_label(const struct job_stats *ts, int d)
{
	return ts->cfg.unified ? "mixed" : output_ddir_name[d];
}

void output_job_init(struct output_job *job)
{
	memset(job, 0, sizeof(*job));
	job->rw = "read";
	job->ioengine = "psync";
	job->iodepth = 1;
	job->numjobs = 1;
	for (int d = 0; d < STATS_DDIR_NR; d++)
		job->min_bs[d] = job->max_bs[d] = 4096;
	job->kb_base = 1024;
	job->sig_figs = 4;
	job->latency_percentile = 100.0;
	job->latency_depth = 1;
}

gboolean output_parse_formats(const char *text, const char *file, int line,
			      unsigned *formats, GError **err)
{
	static const char option[] = "output-format";
	static const struct {
		const char *name;
		unsigned mask;
	} known[] = {
		{ "normal", OUTPUT_NORMAL },
		{ "json", OUTPUT_JSON },
		/* json+ is json with bins: one document, not two */
		{ "json+", OUTPUT_JSON | OUTPUT_JSON_PLUS },
		{ "terse", OUTPUT_TERSE },
	};
	g_auto(GStrv) parts = g_strsplit(text ? text : "", ",", -1);
	unsigned mask = 0;

	for (char **p = parts; *p; p++) {
		unsigned i;

		for (i = 0; i < G_N_ELEMENTS(known); i++)
			if (!strcmp(*p, known[i].name))
				break;
		if (i < G_N_ELEMENTS(known)) {
			mask |= known[i].mask;
		} else {
			storsim_input_error(err, file, line, option,
				"unknown format '%s' (normal, json, json+, terse)", *p);
			return FALSE;
		}
	}
	if (!mask) {
		storsim_input_error(err, file, line, option, "no format given");
		return FALSE;
	}
	*formats = mask;
	return TRUE;
}

char *output_num2str(uint64_t num, int maxlen, bool pow2, const char *unit)
{
	static const char *const si[] = { "", "k", "M", "G", "T", "P", "E" };
	static const char *const iec[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
	const char *const *prefix = pow2 ? iec : si;
	const unsigned thousand = pow2 ? 1024 : 1000;
	unsigned modulo = 0, post = 0;
	bool divided = false, carry = false;
	char digits[32], frac[32];
	int room;

	while (post < G_N_ELEMENTS(si)) {
		if ((int)g_snprintf(digits, sizeof(digits), "%" G_GUINT64_FORMAT,
				    num) <= maxlen)
			break;
		modulo = (unsigned)(num % thousand);
		num /= thousand;
		carry = modulo >= thousand / 2;
		divided = true;
		post++;
	}
	/* fio falls back to no prefix past exa; kept for equal output. */
	if (post >= G_N_ELEMENTS(si))
		post = 0;
	if (!divided)
		return g_strdup_printf("%" G_GUINT64_FORMAT "%s%s", num,
				       prefix[post], unit);
	room = maxlen - (int)g_snprintf(digits, sizeof(digits),
					"%" G_GUINT64_FORMAT, num);
	if (room <= 1)
		return g_strdup_printf("%" G_GUINT64_FORMAT "%s%s",
				       num + (carry ? 1 : 0), prefix[post], unit);
	/* The remainder as a fraction with the digits left; when it rounds
	 * to 1.0 the integer part carries. */
	g_snprintf(frac, sizeof(frac), "%.*f", room - 1,
		   (double)modulo / (double)thousand);
	if (frac[0] == '1')
		num++;
	return g_strdup_printf("%" G_GUINT64_FORMAT ".%s%s%s", num, frac + 2,
			       prefix[post], unit);
}

double output_bw_share(const struct stats_group *g, enum stats_ddir d,
		       double mean)
{
	/* fio passes the mean through an int parameter: truncate it, within
	 * int's range. */
	double m = mean < (double)G_MAXINT ? (double)(int)mean : (double)G_MAXINT;
	double share = 100.0;

	if (g->agg[d] > 1024) {
		share = m * 100.0 / ((double)g->agg[d] / 1024.0);
		if (share > 100.0)
			share = 100.0;
	}
	return share;
}

void output_cpu_percent(const struct job_stats *ts, double *usr, double *sys)
{
	double run = (double)ts->run_time_ms;

	/* fio takes CPU times in whole ms (mtime_since of the rusage), as it
	 * takes the runtime; without that a short CPU-bound job would show
	 * more than 100%. */
	*usr = run ? (double)(ts->usr_ns / 1000000) * 100.0 / run : 0.0;
	*sys = run ? (double)(ts->sys_ns / 1000000) * 100.0 / run : 0.0;
}

void output_ctime(int64_t timestamp, char *buf, size_t len)
{
	static const char *const day[] = {
		"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun",
	};
	static const char *const month[] = {
		"Jan", "Feb", "Mar", "Apr", "May", "Jun",
		"Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
	};
	GDateTime *t = g_date_time_new_from_unix_utc(timestamp);

	if (!t)	/* out of GDateTime's range: show the epoch */
		t = g_date_time_new_from_unix_utc(0);
	g_snprintf(buf, len, "%s %s%3d %02d:%02d:%02d %d",
		   day[g_date_time_get_day_of_week(t) - 1],
		   month[g_date_time_get_month(t) - 1],
		   g_date_time_get_day_of_month(t), g_date_time_get_hour(t),
		   g_date_time_get_minute(t), g_date_time_get_second(t),
		   g_date_time_get_year(t));
	g_date_time_unref(t);
}

void output_locale_enter(struct output_locale *l)
{
	l->c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	l->old = l->c ? uselocale(l->c) : (locale_t)0;
}

void output_locale_leave(struct output_locale *l)
{
	if (!l->c)
		return;
	uselocale(l->old);
	freelocale(l->c);
}

void output_report_build(struct output_report *r, const struct output_run *run)
{
	struct output_entry *e = NULL;
	unsigned last_group = 0;

	r->entries = g_new(struct output_entry, run->nr_jobs ? run->nr_jobs : 1);
	r->nr_entries = 0;
	r->nr_groups = 0;
	for (size_t i = 0; i < run->nr_jobs; i++) {
		const struct output_job *job = &run->jobs[i];

		if (job->groupid + 1 > r->nr_groups)
			r->nr_groups = job->groupid + 1;
		/* fio joins a job to the entry before it when the job asks
		 * for group_reporting and is in the same group. */
		if (!e || !job->group_reporting || job->groupid != last_group) {
			e = &r->entries[r->nr_entries++];
			stats_init(&e->ts, &job->stats->cfg, 0);
			e->ts.members = 0;
			e->job = job;
			e->error = 0;
			e->verror = NULL;
		}
		last_group = job->groupid;
		e->last = job;
		if (!e->error && job->error) {
			e->error = job->error;
			e->verror = job->verror;
		}
		stats_sum(&e->ts, job->stats);
	}
	r->groups = g_new(struct stats_group, r->nr_groups ? r->nr_groups : 1);
	for (unsigned g = 0; g < r->nr_groups; g++)
		stats_group_init(&r->groups[g]);
	for (size_t i = 0; i < r->nr_entries; i++)
		stats_group_add(&r->groups[r->entries[i].job->groupid],
				&r->entries[i].ts);
	for (unsigned g = 0; g < r->nr_groups; g++)
		stats_group_finish(&r->groups[g]);
}

void output_report_free(struct output_report *r)
{
	g_free(r->entries);
	g_free(r->groups);
}

char *output_render(const struct output_run *run, unsigned formats)
{
	GString *out = g_string_new(NULL);

	if (formats & OUTPUT_NORMAL)
		output_normal_preamble(out, run);
	/* fio keeps a buffer per format and flushes terse's first. */
	if (formats & OUTPUT_TERSE)
		output_terse(out, run);
	if (formats & (OUTPUT_JSON | OUTPUT_JSON_PLUS)) {
		struct json_object *doc =
			output_json(run, formats & OUTPUT_JSON_PLUS);

		output_json_print(out, doc);
		g_string_append_c(out, '\n');
		json_object_put(doc);
	}
	if (formats & OUTPUT_NORMAL)
		output_normal_results(out, run);
	return g_string_free(out, FALSE);
}

gboolean output_write_file(const char *path, const char *text, GError **err)
{
	g_autoptr(GError) local = NULL;

	if (storsim_write_in_place(path)) {
		FILE *f = fopen(path, "w");
		gboolean ok = f && fputs(text, f) >= 0;

		if (f && fclose(f) != 0)
			ok = FALSE;
		if (!ok)
			g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_IO,
				    "%s: cannot write results: %s", path,
				    g_strerror(errno));
		return ok;
	}
	/* g_file_set_contents writes a temporary file beside path and
	 * renames it over path: readers see the old file or the new one. */
	if (g_file_set_contents(path, text, -1, &local))
		return TRUE;
	g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_IO,
		    "%s: cannot write results: %s", path, local->message);
	return FALSE;
}
