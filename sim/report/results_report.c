/* Reports of result stores (results_report.h). */
#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "config.h"
#include "engine/util.h"
#include "plot.h"
#include "results_report.h"
#include "system/point.h"
#include "system/store.h"

/* Stages shown by name in the stacked bars; the rest are "other". */
#define TOP_STAGES 14

static const char *const palette[] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
	"#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939",
	"#8c6d31", "#843c39", "#7b4173", "#3182bd",
};

struct rpoint {
	GPtrArray *values;	/* char *, borrowed from the manifest */
	enum point_status status;
	bool missing;		/* no document yet */
	const char *reason;
	struct run_metrics m;	/* when done */
};

struct series {
	char *label;
	GArray *idx;		/* unsigned: its points, in the grid's order */
};

struct rset {
	char *dir;
	char *prefix;		/* of its files: "" or "ID-" */
	json_object *manifest, *grid;
	GPtrArray *docs;
	const char *command;	/* "sweep", "compare", "reproduce" */
	GPtrArray *keys;	/* const char * */
	GPtrArray *xvals;	/* const char *: the x variable's values */
	unsigned xvar;
	unsigned npts;
	struct rpoint *pts;
	GPtrArray *series;	/* struct series * */
	json_object *repro;	/* reproduce.json, or NULL */
};

/* The document, written as Markdown and HTML at once. */
struct doc {
	GString *md, *html;
	GPtrArray *plots;	/* struct plot * */
	const char *outdir;
	unsigned nplot;		/* datablock names */
};

/* ---- reading ---- */

static json_object *get(json_object *o, const char *key)
{
	json_object *v;
	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static const char *get_str(json_object *o, const char *key)
{
	json_object *v = get(o, key);
	return v ? json_object_get_string(v) : NULL;
}

static void series_free(struct series *s)
{
	g_free(s->label);
	g_array_free(s->idx, TRUE);
	g_free(s);
}

static void rset_free(struct rset *s)
{
	for (unsigned i = 0; s->pts && i < s->npts; i++) {
		run_metrics_clear(&s->pts[i].m);
		if (s->pts[i].values)
			g_ptr_array_free(s->pts[i].values, TRUE);
	}
	g_free(s->pts);
	if (s->series)
		g_ptr_array_free(s->series, TRUE);
	if (s->keys)
		g_ptr_array_free(s->keys, TRUE);
	if (s->xvals)
		g_ptr_array_free(s->xvals, TRUE);
	if (s->docs)
		g_ptr_array_free(s->docs, TRUE);
	json_object_put(s->manifest);
	json_object_put(s->repro);
	g_free(s->dir);
	g_free(s->prefix);
	g_free(s);
}

/* The queue depth is the x axis when there is one, else the last variable. */
static unsigned pick_x(const struct rset *s)
{
	static const char *const depth[] = {"iodepth", "fio.iodepth", "DEPTH",
					    "QD", "depth", "qd"};

	if (strcmp(s->command, "reproduce") == 0)
		return 0;
	for (unsigned d = 0; d < G_N_ELEMENTS(depth); d++)
		for (unsigned i = 0; i < s->keys->len; i++)
			if (strcmp(s->keys->pdata[i], depth[d]) == 0)
				return i;
	return s->keys->len ? s->keys->len - 1 : 0;
}

static void make_series(struct rset *s)
{
	s->series = g_ptr_array_new_with_free_func((GDestroyNotify)series_free);
	for (unsigned i = 0; i < s->npts; i++) {
		g_autoptr(GString) label = g_string_new(NULL);
		for (unsigned k = 0; k < s->keys->len; k++) {
			if (k == s->xvar)
				continue;
			if (label->len)
				g_string_append_c(label, ' ');
			if (s->keys->len > 2)
				g_string_append_printf(label, "%s=", (char *)s->keys->pdata[k]);
			g_string_append(label, s->pts[i].values->pdata[k]);
		}
		if (!label->len)
			g_string_append(label, "all");
		struct series *se = NULL;
		for (unsigned k = 0; k < s->series->len && !se; k++)
			if (strcmp(((struct series *)s->series->pdata[k])->label,
				   label->str) == 0)
				se = s->series->pdata[k];
		if (!se) {
			se = g_new0(struct series, 1);
			se->label = g_strdup(label->str);
			se->idx = g_array_new(FALSE, FALSE, sizeof(unsigned));
			g_ptr_array_add(s->series, se);
		}
		g_array_append_val(se->idx, i);
	}
}

static struct rset *rset_load(const char *dir, bool several, GError **err)
{
	struct rset *s = g_new0(struct rset, 1);
	json_object *vars, *points;
	g_autofree char *base = g_path_get_basename(dir);
	g_autofree char *rj = g_build_filename(dir, "reproduce.json", NULL);

	s->dir = g_strdup(dir);
	if (!store_read(dir, &s->manifest, &s->docs, err))
		goto fail;
	s->grid = get(s->manifest, "grid");
	s->command = get_str(s->grid, "command");
	vars = get(s->grid, "variables");
	points = get(s->grid, "points");
	if (!s->command || !vars || !json_object_is_type(vars, json_type_array)) {
		g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_INPUT,
			    "%s: not a storsim result store's manifest", dir);
		goto fail;
	}
	/* A reproduction's files are named after its experiment. */
	s->prefix = several || strcmp(s->command, "reproduce") == 0 ?
		    g_strconcat(base, "-", NULL) : g_strdup("");
	s->keys = g_ptr_array_new();
	for (size_t i = 0; i < json_object_array_length(vars); i++)
		g_ptr_array_add(s->keys, (char *)get_str(json_object_array_get_idx(vars, i),
							 "key"));
	s->xvar = pick_x(s);
	s->xvals = g_ptr_array_new();
	json_object *xv = s->keys->len ?
		get(json_object_array_get_idx(vars, s->xvar), "values") : NULL;
	for (size_t i = 0; xv && i < json_object_array_length(xv); i++)
		g_ptr_array_add(s->xvals, (char *)json_object_get_string(
					json_object_array_get_idx(xv, i)));
	s->npts = (unsigned)json_object_array_length(points);
	s->pts = g_new0(struct rpoint, s->npts);
	for (unsigned i = 0; i < s->npts; i++) {
		struct rpoint *p = &s->pts[i];
		json_object *pv = get(json_object_array_get_idx(points, i), "variables");
		json_object *doc = s->docs->pdata[i];
		p->values = g_ptr_array_new();
		for (unsigned k = 0; k < s->keys->len; k++) {
			const char *v = get_str(pv, s->keys->pdata[k]);
			g_ptr_array_add(p->values, (char *)(v ? v : "?"));
		}
		if (!doc) {
			p->missing = true;
			p->status = POINT_FAILED;
			p->reason = "not run yet (no document in the store)";
			continue;
		}
		p->status = point_doc_status(doc);
		p->reason = point_doc_reason(doc);
		if (p->status == POINT_DONE &&
		    !point_doc_metrics(doc, &p->m, dir, err))
			goto fail;
	}
	make_series(s);
	if (g_file_test(rj, G_FILE_TEST_EXISTS))
		s->repro = json_object_from_file(rj);
	return s;
fail:
	rset_free(s);
	return NULL;
}

/* ---- figures of a point ---- */

static double per_io(const struct run_metrics *m, double x)
{
	return m->ios ? x / (double)m->ios : 0;
}

static double f_iops(const struct run_metrics *m) { return m->iops; }
static double f_mbps(const struct run_metrics *m) { return m->bw_bytes / 1e6; }
static double f_mean(const struct run_metrics *m) { return m->clat_mean_ns / 1e3; }
static double f_p50(const struct run_metrics *m) { return (double)m->clat_p50_ns / 1e3; }
static double f_p99(const struct run_metrics *m) { return (double)m->clat_p99_ns / 1e3; }
static double f_p999(const struct run_metrics *m) { return (double)m->clat_p999_ns / 1e3; }
static double f_ctx(const struct run_metrics *m) { return per_io(m, (double)m->ctx_switches); }
static double f_usr(const struct run_metrics *m) { return per_io(m, (double)m->class_ns[CPU_USR]); }
static double f_sys(const struct run_metrics *m) { return per_io(m, (double)m->class_ns[CPU_SYS]); }
static double f_irq(const struct run_metrics *m)
{
	return per_io(m, (double)(m->class_ns[CPU_IRQ] + m->class_ns[CPU_SOFTIRQ]));
}
static double f_busy(const struct run_metrics *m) { return m->busiest_cpu_util * 100; }

static const struct figure {
	const char *csv, *md, *fmt;
	double (*get)(const struct run_metrics *m);
} figures[] = {
	{"iops", "IOPS", "%.0f", f_iops},
	{"bw_MBps", "MB/s", "%.1f", f_mbps},
	{"clat_mean_us", "clat mean (us)", "%.2f", f_mean},
	{"clat_p50_us", "p50 (us)", "%.2f", f_p50},
	{"clat_p99_us", "p99 (us)", "%.2f", f_p99},
	{"clat_p99.9_us", "p99.9 (us)", "%.2f", f_p999},
	{"ctx_switches_per_io", "ctx/IO", "%.3f", f_ctx},
	{"usr_ns_per_io", "usr ns/IO", "%.0f", f_usr},
	{"sys_ns_per_io", "sys ns/IO", "%.0f", f_sys},
	{"irq_ns_per_io", "irq ns/IO", "%.0f", f_irq},
	{"busiest_cpu_pct", "busiest CPU %", "%.1f", f_busy},
};

static char *num(const char *fmt, double x)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];

	return g_strdup(g_ascii_formatd(buf, sizeof(buf), fmt, x));
}

/* ---- the document ---- */

static void md_escape(GString *o, const char *s)
{
	for (; *s; s++) {
		if (strchr("|\\`*[]<>", *s))
			g_string_append_c(o, '\\');
		g_string_append_c(o, *s == '\n' ? ' ' : *s);
	}
}

static void html_escape(GString *o, const char *s)
{
	g_autofree char *e = g_markup_escape_text(s, -1);
	g_string_append(o, e);
}

static void doc_heading(struct doc *d, int level, const char *text)
{
	g_string_append_printf(d->md, "%.*s ", level, "######");
	md_escape(d->md, text);
	g_string_append(d->md, "\n\n");
	g_string_append_printf(d->html, "<h%d>", level);
	html_escape(d->html, text);
	g_string_append_printf(d->html, "</h%d>\n", level);
}

static void doc_para(struct doc *d, const char *text)
{
	md_escape(d->md, text);
	g_string_append(d->md, "\n\n");
	g_string_append(d->html, "<p>");
	html_escape(d->html, text);
	g_string_append(d->html, "</p>\n");
}

/* A line of code (a command). */
static void doc_code(struct doc *d, const char *text)
{
	g_string_append_printf(d->md, "```\n%s\n```\n\n", text);
	g_string_append(d->html, "<pre>");
	html_escape(d->html, text);
	g_string_append(d->html, "</pre>\n");
}

/* A table: its header and rows are arrays of strings, ncols each. */
struct table {
	char *name;		/* its CSV file, or NULL */
	GPtrArray *head;	/* char * */
	GPtrArray *rows;	/* GPtrArray * of char * */
};

static struct table *table_new(const char *name)
{
	struct table *t = g_new0(struct table, 1);

	t->name = g_strdup(name);
	t->head = g_ptr_array_new_with_free_func(g_free);
	t->rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
	return t;
}

static void table_free(struct table *t)
{
	g_free(t->name);
	g_ptr_array_free(t->head, TRUE);
	g_ptr_array_free(t->rows, TRUE);
	g_free(t);
}

static GPtrArray *table_row(struct table *t)
{
	GPtrArray *r = g_ptr_array_new_with_free_func(g_free);

	g_ptr_array_add(t->rows, r);
	return r;
}

static void csv_field(GString *o, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		g_string_append(o, s);
		return;
	}
	g_string_append_c(o, '"');
	for (; *s; s++) {
		if (*s == '"')
			g_string_append_c(o, '"');
		g_string_append_c(o, *s);
	}
	g_string_append_c(o, '"');
}

static void csv_line(GString *o, GPtrArray *cells)
{
	for (unsigned i = 0; i < cells->len; i++) {
		if (i)
			g_string_append_c(o, ',');
		csv_field(o, cells->pdata[i]);
	}
	g_string_append_c(o, '\n');
}

static bool write_file(const char *dir, const char *name, const char *text,
		       GError **err)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	g_autoptr(GError) local = NULL;

	if (g_file_set_contents(path, text, -1, &local))
		return true;
	g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_IO, "%s", local->message);
	return false;
}

/* The table into the document, and, given csv (the same columns, in
 * machine-readable names and units), into its CSV file. */
static bool doc_table(struct doc *d, struct table *t, struct table *csv,
		      GError **err)
{
	g_string_append_c(d->md, '|');
	for (unsigned i = 0; i < t->head->len; i++) {
		g_string_append_c(d->md, ' ');
		md_escape(d->md, t->head->pdata[i]);
		g_string_append(d->md, " |");
	}
	g_string_append(d->md, "\n|");
	for (unsigned i = 0; i < t->head->len; i++)
		g_string_append(d->md, "---|");
	g_string_append_c(d->md, '\n');
	g_string_append(d->html, "<table");
	if (t->name)
		g_string_append_printf(d->html, " data-csv=\"%s\"", t->name);
	g_string_append(d->html, "><thead><tr>");
	for (unsigned i = 0; i < t->head->len; i++) {
		g_string_append(d->html, "<th>");
		html_escape(d->html, t->head->pdata[i]);
		g_string_append(d->html, "</th>");
	}
	g_string_append(d->html, "</tr></thead>\n<tbody>\n");
	for (unsigned r = 0; r < t->rows->len; r++) {
		GPtrArray *row = t->rows->pdata[r];
		g_string_append_c(d->md, '|');
		g_string_append(d->html, "<tr>");
		for (unsigned i = 0; i < row->len; i++) {
			g_string_append_c(d->md, ' ');
			md_escape(d->md, row->pdata[i]);
			g_string_append(d->md, " |");
			/* Numbers to the right, words to the left. */
			char *end;
			const char *c = row->pdata[i];
			g_ascii_strtod(c, &end);
			g_string_append(d->html, *c && !*end ? "<td class=\"n\">" : "<td>");
			html_escape(d->html, c);
			g_string_append(d->html, "</td>");
		}
		g_string_append_c(d->md, '\n');
		g_string_append(d->html, "</tr>\n");
	}
	g_string_append(d->md, "\n");
	g_string_append(d->html, "</tbody></table>\n");
	if (!csv)
		return true;
	g_autoptr(GString) o = g_string_new(NULL);
	csv_line(o, csv->head);
	for (unsigned r = 0; r < csv->rows->len; r++)
		csv_line(o, csv->rows->pdata[r]);
	g_string_append_printf(d->md, "Table: [%s](%s)\n\n", csv->name, csv->name);
	g_string_append_printf(d->html, "<p class=\"csv\">Table: <a href=\"%s\">%s</a></p>\n",
			       csv->name, csv->name);
	return write_file(d->outdir, csv->name, o->str, err);
}

/* A plot, by name in Markdown; inline in HTML once drawn (a placeholder
 * until then). */
static void doc_plot(struct doc *d, struct plot *p)
{
	g_string_append_printf(d->md, "![");
	md_escape(d->md, p->title);
	g_string_append_printf(d->md, "](%s.svg)\n\n", p->name);
	g_string_append_printf(d->html, "<figure>\x01%s\x01<figcaption>", p->name);
	html_escape(d->html, p->title);
	g_string_append_printf(d->html, " (<a href=\"%s.svg\">SVG</a>, "
			       "<a href=\"%s.png\">PNG</a>)</figcaption></figure>\n",
			       p->name, p->name);
	g_ptr_array_add(d->plots, p);
}

/* Put each plot's SVG into the page, as data. */
static bool html_inline_plots(struct doc *d, GError **err)
{
	g_autoptr(GString) out = g_string_new(NULL);
	const char *s = d->html->str;

	while (*s) {
		const char *a = strchr(s, '\x01');
		if (!a) {
			g_string_append(out, s);
			break;
		}
		const char *b = strchr(a + 1, '\x01');
		g_string_append_len(out, s, a - s);
		g_autofree char *name = g_strndup(a + 1, (gsize)(b - a - 1));
		const struct plot *p = NULL;
		for (unsigned i = 0; i < d->plots->len && !p; i++)
			if (strcmp(((struct plot *)d->plots->pdata[i])->name, name) == 0)
				p = d->plots->pdata[i];
		g_autofree char *file = g_strconcat(name, ".svg", NULL);
		g_autofree char *path = g_build_filename(d->outdir, file, NULL);
		g_autofree char *svg = NULL;
		gsize len;
		g_autoptr(GError) local = NULL;
		if (!g_file_get_contents(path, &svg, &len, &local)) {
			g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_IO, "%s",
				    local->message);
			return false;
		}
		g_autofree char *b64 = g_base64_encode((const guchar *)svg, len);
		g_string_append_printf(out, "<img class=\"plot\" src=\"data:image/svg+xml;"
				       "base64,%s\" width=\"%u\" height=\"%u\" alt=\"",
				       b64, p->width, p->height);
		html_escape(out, p->title);
		g_string_append(out, "\">");
		s = b + 1;
	}
	g_string_assign(d->html, out->str);
	return true;
}

/* ---- plots ---- */

static struct plot *new_plot(struct doc *d, const struct rset *s, const char *name,
			     const char *title, unsigned w, unsigned h)
{
	g_autofree char *n = g_strconcat(s->prefix, name, NULL);
	struct plot *p = plot_new(n, title, w, h);

	for (unsigned i = 0; i < G_N_ELEMENTS(palette); i++)
		g_string_append_printf(p->body, "set linetype %u lc rgb '%s' lw 2 pt 7 ps 0.8\n",
				       i + 1, palette[i]);
	g_string_append(p->body, "set grid ytics\nset key outside right top\n");
	return p;
}

static char *block_name(struct doc *d)
{
	return g_strdup_printf("$d%u", d->nplot++);
}

/* x tics: the x variable's values, at 0, 1, 2... */
static void xtics(GString *b, const struct rset *s, const char *xlabel)
{
	g_string_append(b, "set xtics (");
	for (unsigned i = 0; i < s->xvals->len; i++) {
		if (i)
			g_string_append(b, ", ");
		plot_quote(b, s->xvals->pdata[i]);
		g_string_append_printf(b, " %u", i);
	}
	g_string_append_printf(b, ")\nset xrange [-0.5:%g]\nset xlabel ",
			       (double)s->xvals->len - 0.5);
	plot_quote(b, xlabel);
	g_string_append_c(b, '\n');
}

static unsigned x_index(const struct rset *s, unsigned i)
{
	const char *v = s->pts[i].values->pdata[s->xvar];

	for (unsigned k = 0; k < s->xvals->len; k++)
		if (strcmp(s->xvals->pdata[k], v) == 0)
			return k;
	return 0;
}

/* One "plot" command: a line per series of get's values against x. */
static void lines(struct doc *d, struct plot *p, const struct rset *s,
		  double (*fig)(const struct run_metrics *m), const char *ylabel)
{
	g_autoptr(GString) cmd = g_string_new("plot ");
	bool any = false;

	for (unsigned k = 0; k < s->series->len; k++) {
		const struct series *se = s->series->pdata[k];
		g_autofree char *bn = block_name(d);
		g_string_append_printf(p->data, "%s << EOD\n", bn);
		unsigned n = 0;
		for (unsigned j = 0; j < se->idx->len; j++) {
			unsigned i = g_array_index(se->idx, unsigned, j);
			if (s->pts[i].status != POINT_DONE)
				continue;
			g_autofree char *v = num("%.6g", fig(&s->pts[i].m));
			g_string_append_printf(p->data, "%u %s\n", x_index(s, i), v);
			n++;
		}
		g_string_append(p->data, "EOD\n");
		if (!n)
			continue;
		g_string_append_printf(cmd, "%s%s using 1:2 with linespoints lt %u title ",
				       any ? ", " : "", bn,
				       k % (unsigned)G_N_ELEMENTS(palette) + 1);
		plot_quote(cmd, se->label);
		any = true;
	}
	g_string_append(p->body, "set ylabel ");
	plot_quote(p->body, ylabel);
	g_string_append(p->body, "\nset yrange [0:*]\n");
	/* A plot with nothing to draw still draws its axes. */
	g_string_append_printf(p->body, "%s\n", any ? cmd->str :
			       "plot 0 with lines lc rgb '#ffffff' notitle");
}

static struct plot *line_plot(struct doc *d, const struct rset *s, const char *name,
			      const char *title, const char *ylabel,
			      double (*fig)(const struct run_metrics *m))
{
	struct plot *p = new_plot(d, s, name, title, 800, 480);

	xtics(p->body, s, s->keys->pdata[s->xvar]);
	lines(d, p, s, fig, ylabel);
	return p;
}

static struct plot *latency_plot(struct doc *d, const struct rset *s)
{
	struct plot *p = new_plot(d, s, "latency", "Completion latency (clat) "
				  "against the queue depth: mean, p50, p99, p99.9",
				  1100, 760);
	static const struct {
		const char *title;
		double (*fig)(const struct run_metrics *m);
	} panels[] = {
		{"mean", f_mean}, {"p50", f_p50}, {"p99", f_p99}, {"p99.9", f_p999},
	};

	g_string_append(p->body, "set multiplot layout 2,2\n");
	xtics(p->body, s, s->keys->pdata[s->xvar]);
	for (unsigned i = 0; i < G_N_ELEMENTS(panels); i++) {
		g_string_append(p->body, "set title ");
		plot_quote(p->body, panels[i].title);
		g_string_append_c(p->body, '\n');
		if (i)
			g_string_append(p->body, "unset key\n");
		lines(d, p, s, panels[i].fig, "clat (us)");
	}
	g_string_append(p->body, "unset multiplot\n");
	return p;
}

/* Stacked bars: a bar per done point, grouped by series; column c of a
 * bar is value(point, c). */
static struct plot *stacked_plot(struct doc *d, const struct rset *s,
				 const char *name, const char *title,
				 const char *ylabel, GPtrArray *cols,
				 double (*value)(const struct run_metrics *m,
						 unsigned col, void *arg),
				 void *arg)
{
	unsigned ndone = 0;
	for (unsigned i = 0; i < s->npts; i++)
		ndone += s->pts[i].status == POINT_DONE;
	struct plot *p = new_plot(d, s, name, title, MAX(800u, 200 + 28 * ndone), 560);
	g_autoptr(GString) cmd = g_string_new("plot ");
	bool first = true;

	g_string_append(p->body, "set style data histograms\n"
			"set style histogram rowstacked title offset 0,-1\n"
			"set style fill solid 0.9 border lc rgb '#ffffff'\nset boxwidth 0.8\n"
			"set xtics rotate by -45 scale 0 font ',9'\nset bmargin 7\n"
			"set yrange [0:*]\nset ylabel ");
	plot_quote(p->body, ylabel);
	g_string_append_c(p->body, '\n');
	for (unsigned k = 0; k < s->series->len; k++) {
		const struct series *se = s->series->pdata[k];
		g_autofree char *bn = block_name(d);
		unsigned n = 0;
		g_string_append_printf(p->data, "%s << EOD\n", bn);
		for (unsigned j = 0; j < se->idx->len; j++) {
			unsigned i = g_array_index(se->idx, unsigned, j);
			if (s->pts[i].status != POINT_DONE)
				continue;
			g_autoptr(GString) lab = g_string_new(NULL);
			g_string_append_printf(lab, "\"%s\"",
					       (char *)s->pts[i].values->pdata[s->xvar]);
			g_string_append(p->data, lab->str);
			for (unsigned c = 0; c < cols->len; c++) {
				g_autofree char *v = num("%.6g", value(&s->pts[i].m, c, arg));
				g_string_append_printf(p->data, " %s", v);
			}
			g_string_append_c(p->data, '\n');
			n++;
		}
		g_string_append(p->data, "EOD\n");
		if (!n)
			continue;
		g_string_append_printf(cmd, "%snewhistogram ", first ? "" : ", ");
		plot_quote(cmd, se->label);
		for (unsigned c = 0; c < cols->len; c++) {
			if (c == 0)
				g_string_append_printf(cmd, ", %s using 2:xtic(1)", bn);
			else
				g_string_append_printf(cmd, ", '' using %u", c + 2);
			g_string_append_printf(cmd, " lt %u ", c % (unsigned)G_N_ELEMENTS(palette) + 1);
			if (first) {
				g_string_append(cmd, "title ");
				plot_quote(cmd, cols->pdata[c]);
			} else {
				g_string_append(cmd, "notitle");
			}
		}
		first = false;
	}
	g_string_append_printf(p->body, "%s\n", first ?
			       "plot 0 with lines lc rgb '#ffffff' notitle" :
			       cmd->str);
	return p;
}

/* ---- CPU time by stage ---- */

struct stages {
	GArray *top;		/* stage_id, the TOP_STAGES busiest overall */
	GArray *all;		/* stage_id, every stage with time in any point */
};

static void stages_of(const struct rset *s, struct stages *st)
{
	g_autofree double *total = g_new0(double, STAGE_MAX);

	st->top = g_array_new(FALSE, FALSE, sizeof(stage_id));
	st->all = g_array_new(FALSE, FALSE, sizeof(stage_id));
	for (unsigned i = 0; i < s->npts; i++)
		for (unsigned k = 0; s->pts[i].status == POINT_DONE && k < stage_count(); k++)
			total[k] += per_io(&s->pts[i].m, (double)s->pts[i].m.stage_ns[k]);
	for (unsigned k = 0; k < stage_count(); k++)
		if (total[k] > 0) {
			stage_id id = (stage_id)k;
			g_array_append_val(st->all, id);
		}
	/* Busiest first; ties by id, as they were registered. */
	for (unsigned i = 1; i < st->all->len; i++)
		for (unsigned j = i; j > 0; j--) {
			stage_id *a = &g_array_index(st->all, stage_id, j - 1);
			stage_id *b = &g_array_index(st->all, stage_id, j);
			if (total[*a] >= total[*b])
				break;
			stage_id t = *a;
			*a = *b;
			*b = t;
		}
	for (unsigned i = 0; i < st->all->len && i < TOP_STAGES; i++)
		g_array_append_val(st->top, g_array_index(st->all, stage_id, i));
}

static double stage_value(const struct run_metrics *m, unsigned col, void *arg)
{
	const struct stages *st = arg;

	if (col < st->top->len)
		return per_io(m, (double)m->stage_ns[g_array_index(st->top, stage_id, col)]);
	double other = 0;
	for (unsigned i = st->top->len; i < st->all->len; i++)
		other += per_io(m, (double)m->stage_ns[g_array_index(st->all, stage_id, i)]);
	return other;
}

static double layer_value(const struct run_metrics *m, unsigned col, void *arg)
{
	return io_layers_mean(&m->layers, (enum io_layer)col) / 1e3;
}

/* ---- a sweep's or compare's section ---- */

static void add_values(GPtrArray *row, const struct rset *s, unsigned i)
{
	for (unsigned k = 0; k < s->keys->len; k++)
		g_ptr_array_add(row, g_strdup(s->pts[i].values->pdata[k]));
}

static void add_keys(struct table *t, const struct rset *s)
{
	for (unsigned k = 0; k < s->keys->len; k++)
		g_ptr_array_add(t->head, g_strdup(s->keys->pdata[k]));
}

static char *file_name(const struct rset *s, const char *name)
{
	return g_strconcat(s->prefix, name, NULL);
}

static bool points_tables(struct doc *d, const struct rset *s, GError **err)
{
	g_autofree char *csvname = file_name(s, "points.csv");
	struct table *t = table_new(csvname), *c = table_new(csvname);

	add_keys(t, s);
	add_keys(c, s);
	for (unsigned f = 0; f < G_N_ELEMENTS(figures); f++) {
		g_ptr_array_add(t->head, g_strdup(figures[f].md));
		g_ptr_array_add(c->head, g_strdup(figures[f].csv));
	}
	g_ptr_array_add(c->head, g_strdup("status"));
	g_ptr_array_add(c->head, g_strdup("reason"));
	for (unsigned i = 0; i < s->npts; i++) {
		const struct rpoint *p = &s->pts[i];
		GPtrArray *r = table_row(t), *rc = table_row(c);
		add_values(r, s, i);
		add_values(rc, s, i);
		for (unsigned f = 0; f < G_N_ELEMENTS(figures); f++) {
			char *v = p->status == POINT_DONE ?
				  num(figures[f].fmt, figures[f].get(&p->m)) : g_strdup("");
			g_ptr_array_add(rc, g_strdup(v));
			if (p->status != POINT_DONE && f == 0)
				g_ptr_array_add(r, g_strdup_printf("%s: %s", p->missing ?
						"not run" : p->status == POINT_REFUSED ?
						"not modelled" : "failed", p->reason));
			else
				g_ptr_array_add(r, p->status == POINT_DONE ? g_strdup(v) :
						g_strdup("-"));
			g_free(v);
		}
		g_ptr_array_add(rc, g_strdup(p->missing ? "missing" :
					     point_status_name(p->status)));
		g_ptr_array_add(rc, g_strdup(p->status == POINT_DONE ? "" : p->reason));
	}
	bool ok = doc_table(d, t, c, err);
	table_free(t);
	table_free(c);
	return ok;
}

static bool stage_tables(struct doc *d, const struct rset *s,
			 const struct stages *st, GError **err)
{
	g_autofree char *csvname = file_name(s, "cpu-by-stage.csv");
	struct table *t = table_new(csvname), *c = table_new(csvname);

	add_keys(t, s);
	add_keys(c, s);
	for (unsigned i = 0; i < st->top->len; i++)
		g_ptr_array_add(t->head, g_strdup(stage_get(g_array_index(st->top,
							stage_id, i))->name));
	g_ptr_array_add(t->head, g_strdup("other"));
	g_ptr_array_add(t->head, g_strdup("total"));
	for (unsigned i = 0; i < st->all->len; i++)
		g_ptr_array_add(c->head, g_strdup(stage_get(g_array_index(st->all,
							stage_id, i))->name));
	for (unsigned i = 0; i < s->npts; i++) {
		const struct rpoint *p = &s->pts[i];
		if (p->status != POINT_DONE)
			continue;
		GPtrArray *r = table_row(t), *rc = table_row(c);
		double total = 0;
		add_values(r, s, i);
		add_values(rc, s, i);
		for (unsigned k = 0; k <= st->top->len; k++) {
			double v = stage_value(&p->m, k, (void *)st);
			total += v;
			g_ptr_array_add(r, num("%.1f", v));
		}
		g_ptr_array_add(r, num("%.1f", total));
		for (unsigned k = 0; k < st->all->len; k++)
			g_ptr_array_add(rc, num("%.3f", per_io(&p->m,
				(double)p->m.stage_ns[g_array_index(st->all, stage_id, k)])));
	}
	bool ok = doc_table(d, t, c, err);
	table_free(t);
	table_free(c);
	return ok;
}

static bool layer_tables(struct doc *d, const struct rset *s, GError **err)
{
	g_autofree char *csvname = file_name(s, "latency-by-layer.csv");
	struct table *t = table_new(csvname);

	add_keys(t, s);
	for (int l = 0; l < IOL_NR; l++)
		g_ptr_array_add(t->head, g_strdup(io_layer_name(l)));
	for (unsigned i = 0; i < s->npts; i++) {
		const struct rpoint *p = &s->pts[i];
		if (p->status != POINT_DONE)
			continue;
		GPtrArray *r = table_row(t);
		add_values(r, s, i);
		for (int l = 0; l < IOL_NR; l++)
			g_ptr_array_add(r, num("%.3f", layer_value(&p->m, (unsigned)l, NULL)));
	}
	bool ok = doc_table(d, t, t, err);
	table_free(t);
	return ok;
}

static char *command_text(json_object *cmd)
{
	GString *s = g_string_new(NULL);

	for (size_t i = 0; cmd && i < json_object_array_length(cmd); i++) {
		const char *a = json_object_get_string(json_object_array_get_idx(cmd, i));
		bool plain = *a && strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					  "0123456789-_=./:,@+%") == strlen(a);
		g_autofree char *q = plain ? g_strdup(a) : g_shell_quote(a);
		g_string_append_printf(s, "%s%s", i ? " " : "", q);
	}
	return g_string_free(s, FALSE);
}

static bool sweep_section(struct doc *d, const struct rset *s, GError **err)
{
	unsigned done = 0, refused = 0, failed = 0, missing = 0;
	g_autofree char *cmd = command_text(get(s->manifest, "command"));
	const char *x = s->keys->len ? s->keys->pdata[s->xvar] : "";

	for (unsigned i = 0; i < s->npts; i++) {
		missing += s->pts[i].missing;
		done += s->pts[i].status == POINT_DONE;
		refused += s->pts[i].status == POINT_REFUSED;
		failed += s->pts[i].status == POINT_FAILED && !s->pts[i].missing;
	}
	g_autofree char *h = g_strdup_printf("storsim %s: %s", s->command,
					     get_str(s->grid, "jobfile"));
	doc_heading(d, 1, h);
	doc_code(d, cmd);
	const char *other = s->keys->len == 2 ? s->keys->pdata[1 - s->xvar] :
			    s->keys->len > 2 ? "combination of the other variables" :
			    "run";
	g_autofree char *sum = g_strdup_printf("%s; %u points: %u done, %u not "
					       "modelled, %u failed, %u not run yet. "
					       "The x axis is %s; each line or group "
					       "of bars is one %s.",
					       get_str(s->manifest, "version"), s->npts,
					       done, refused, failed, missing, x, other);
	doc_para(d, sum);
	json_object *strategies = get(s->grid, "strategies");
	if (strategies) {
		doc_heading(d, 2, "Strategies");
		struct table *t = table_new(NULL);
		g_ptr_array_add(t->head, g_strdup("strategy"));
		g_ptr_array_add(t->head, g_strdup("what it is"));
		for (size_t i = 0; i < json_object_array_length(strategies); i++) {
			json_object *o = json_object_array_get_idx(strategies, i);
			GPtrArray *r = table_row(t);
			g_ptr_array_add(r, g_strdup(get_str(o, "name")));
			g_ptr_array_add(r, g_strdup(get_str(o, "describe")));
		}
		bool ok = doc_table(d, t, NULL, err);
		table_free(t);
		if (!ok)
			return false;
	}
	doc_heading(d, 2, "Throughput");
	g_autofree char *t1 = g_strdup_printf("IOPS against %s", x);
	g_autofree char *t2 = g_strdup_printf("Bandwidth against %s", x);
	doc_plot(d, line_plot(d, s, "iops", t1, "IOPS", f_iops));
	doc_plot(d, line_plot(d, s, "bandwidth", t2, "MB/s", f_mbps));
	doc_para(d, "Every point's figures: IOPS and bandwidth summed over the jobs "
		 "in the measured window; fio's completion latency (clat) of all "
		 "jobs' I/Os; CPU time per I/O of every CPU (application, kworkers, "
		 "interrupts) divided by the I/Os completed.");
	if (!points_tables(d, s, err))
		return false;
	doc_heading(d, 2, "Latency");
	doc_plot(d, latency_plot(d, s));
	doc_heading(d, 2, "CPU time per I/O by stage");
	struct stages st;
	stages_of(s, &st);
	g_autoptr(GPtrArray) cols = g_ptr_array_new_with_free_func(g_free);
	for (unsigned i = 0; i < st.top->len; i++)
		g_ptr_array_add(cols, g_strdup(stage_get(g_array_index(st.top, stage_id, i))->name));
	g_ptr_array_add(cols, g_strdup("other"));
	doc_plot(d, stacked_plot(d, s, "cpu-stages", "CPU time per I/O by stage "
				 "(ns), stacked", "ns per I/O", cols, stage_value, &st));
	bool ok = stage_tables(d, s, &st, err);
	g_array_free(st.top, TRUE);
	g_array_free(st.all, TRUE);
	if (!ok)
		return false;
	doc_heading(d, 2, "Latency by layer");
	g_autoptr(GPtrArray) lcols = g_ptr_array_new_with_free_func(g_free);
	for (int l = 0; l < IOL_NR; l++)
		g_ptr_array_add(lcols, g_strdup(io_layer_name(l)));
	doc_plot(d, stacked_plot(d, s, "layers", "Latency per I/O by layer (us), "
				 "stacked: from the application's submission to its "
				 "seeing the completion", "us per I/O", lcols,
				 layer_value, NULL));
	if (!layer_tables(d, s, err))
		return false;
	doc_heading(d, 2, "Context switches per I/O");
	g_autofree char *t3 = g_strdup_printf("Context switches per I/O against %s", x);
	doc_plot(d, line_plot(d, s, "ctx", t3, "context switches per I/O", f_ctx));
	if (refused || failed || missing) {
		doc_heading(d, 2, "Points without figures");
		for (unsigned i = 0; i < s->npts; i++) {
			const struct rpoint *p = &s->pts[i];
			if (p->status == POINT_DONE)
				continue;
			g_autoptr(GString) line = g_string_new(NULL);
			for (unsigned k = 0; k < s->keys->len; k++)
				g_string_append_printf(line, "%s%s=%s", k ? " " : "",
						       (char *)s->keys->pdata[k],
						       (char *)p->values->pdata[k]);
			g_string_append_printf(line, ": %s: %s", p->missing ? "not run" :
					       p->status == POINT_REFUSED ? "not modelled" :
					       "failed", p->reason);
			doc_para(d, line->str);
		}
	}
	return true;
}

/* ---- a reproduction's section ---- */

static double cell(json_object *row, const char *variant, const char *what)
{
	json_object *v = get(get(row, variant), what);
	return v ? json_object_get_double(v) : NAN;
}

static bool repro_section(struct doc *d, const struct rset *s, GError **err)
{
	json_object *e = s->repro;
	const char *id = get_str(s->grid, "experiment");
	g_autofree char *cmd = command_text(get(s->manifest, "command"));

	if (!e) {
		g_autofree char *h = g_strdup_printf("%s: not finished", id);
		doc_heading(d, 2, h);
		doc_para(d, "The store has no reproduce.json: the reproduction did not "
			 "run to its end. Run the command again to resume it.");
		doc_code(d, cmd);
		return true;
	}
	g_autofree char *h = g_strdup_printf("%s: %s", id, get_str(e, "title"));
	doc_heading(d, 2, h);
	doc_code(d, cmd);
	g_autofree char *src = g_strdup_printf("Source: %s", get_str(e, "source"));
	doc_para(d, src);
	const char *unit = get_str(e, "unit"), *var = get_str(e, "variable");
	json_object *variants = get(e, "variants"), *rows = get(e, "rows");
	g_autoptr(GPtrArray) names = g_ptr_array_new();
	json_object_object_foreach(variants, vname, vdesc) {
		(void)vdesc;
		g_ptr_array_add(names, vname);
	}
	struct table *t = table_new(NULL);
	g_autofree char *csvname = file_name(s, "published-vs-simulated.csv");
	struct table *c = table_new(csvname);
	g_ptr_array_add(t->head, g_strdup(var));
	g_ptr_array_add(c->head, g_strdup(var));
	for (unsigned v = 0; v < names->len; v++) {
		g_ptr_array_add(t->head, g_strdup_printf("%s published", (char *)names->pdata[v]));
		g_ptr_array_add(t->head, g_strdup_printf("%s simulated", (char *)names->pdata[v]));
		g_ptr_array_add(t->head, g_strdup("error"));
		g_ptr_array_add(c->head, g_strdup_printf("%s_published", (char *)names->pdata[v]));
		g_ptr_array_add(c->head, g_strdup_printf("%s_simulated", (char *)names->pdata[v]));
		g_ptr_array_add(c->head, g_strdup_printf("%s_error", (char *)names->pdata[v]));
	}
	struct plot *p = new_plot(d, s, "published-vs-simulated", "", 800, 480);
	g_free(p->title);
	p->title = g_strdup_printf("%s: published (open circles) and simulated "
				   "(lines) %s against %s", id, unit, var);
	xtics(p->body, s, var);
	g_autoptr(GString) pc = g_string_new("plot ");
	for (unsigned v = 0; v < names->len; v++) {
		g_autofree char *bn = block_name(d);
		g_string_append_printf(p->data, "%s << EOD\n", bn);
		for (size_t r = 0; r < json_object_array_length(rows); r++) {
			json_object *row = json_object_array_get_idx(rows, r);
			double pub = cell(row, names->pdata[v], "published");
			double sim = cell(row, names->pdata[v], "simulated");
			g_autofree char *a = num("%.6g", pub), *b = num("%.6g", sim);
			g_string_append_printf(p->data, "%zu %s %s\n", r,
					       isnan(pub) ? "NaN" : a, isnan(sim) ? "NaN" : b);
		}
		g_string_append(p->data, "EOD\n");
		unsigned lt = v % (unsigned)G_N_ELEMENTS(palette) + 1;
		g_string_append_printf(pc, "%s%s using 1:3 with linespoints lt %u title ",
				       v ? ", " : "", bn, lt);
		g_autofree char *ts = g_strdup_printf("%s simulated", (char *)names->pdata[v]);
		g_autofree char *tp = g_strdup_printf("%s published", (char *)names->pdata[v]);
		plot_quote(pc, ts);
		g_string_append_printf(pc, ", %s using 1:2 with points lt %u pt 6 ps 2 title ",
				       bn, lt);
		plot_quote(pc, tp);
	}
	g_string_append(p->body, "set ylabel ");
	plot_quote(p->body, unit);
	g_string_append_printf(p->body, "\nset yrange [0:*]\n%s\n", pc->str);
	for (size_t r = 0; r < json_object_array_length(rows); r++) {
		json_object *row = json_object_array_get_idx(rows, r);
		GPtrArray *tr = table_row(t), *cr = table_row(c);
		const char *label = r < s->xvals->len ? s->xvals->pdata[r] : "?";
		g_ptr_array_add(tr, g_strdup(label));
		g_ptr_array_add(cr, g_strdup(label));
		for (unsigned v = 0; v < names->len; v++) {
			static const char *const what[] = {"published", "simulated", "error"};
			for (unsigned w = 0; w < 3; w++) {
				double x = cell(row, names->pdata[v], what[w]);
				g_autofree char *pct = w == 2 && !isnan(x) ? num("%+.1f", x * 100) : NULL;
				char *cellv = isnan(x) ? g_strdup("") :
					      w == 2 ? g_strconcat(pct, "%", NULL) : num("%.4g", x);
				g_ptr_array_add(tr, g_strdup(cellv));
				g_ptr_array_add(cr, isnan(x) ? g_strdup("") : num("%.6g", x));
				g_free(cellv);
			}
		}
	}
	doc_plot(d, p);
	bool ok = doc_table(d, t, c, err);
	table_free(t);
	table_free(c);
	if (!ok)
		return false;
	json_object *shapes = get(e, "shapes");
	for (size_t i = 0; shapes && i < json_object_array_length(shapes); i++) {
		json_object *sh = json_object_array_get_idx(shapes, i), *hv = get(sh, "holds");
		g_autofree char *line = g_strdup_printf("Shape: %s (%s): %s",
			get_str(sh, "describe"), get_str(sh, "of"),
			hv && json_object_get_boolean(hv) ? "holds" : "does not hold");
		doc_para(d, line);
	}
	json_object *pass = get(e, "pass");
	doc_para(d, pass && json_object_get_boolean(pass) ?
		 "Result: PASS (every judged cell within its tolerance, every shape holds)." :
		 "Result: FAIL (docs/reproductions.md says which cells and why).");
	/* The mechanism: CPU time by stage per variant, at one row. */
	json_object *mech = get(get(e, "mechanism"), "variants");
	if (!mech)
		return true;
	doc_heading(d, 3, "Mechanism: CPU time per I/O by stage, per variant");
	g_autoptr(GPtrArray) stages = g_ptr_array_new();
	json_object *first = get(get(mech, names->pdata[0]), "cpu_ns_per_io_by_stage");
	json_object_object_foreach(first, sname, sval) {
		(void)sval;
		if (stages->len < TOP_STAGES)
			g_ptr_array_add(stages, sname);
	}
	struct plot *mp = new_plot(d, s, "mechanism", "", 800, 520);
	g_free(mp->title);
	mp->title = g_strdup_printf("%s: CPU time per I/O by stage (ns) at the "
				    "mechanism row, stacked", id);
	g_autofree char *bn = block_name(d);
	g_string_append_printf(mp->data, "%s << EOD\n", bn);
	for (unsigned v = 0; v < names->len; v++) {
		json_object *by = get(get(mech, names->pdata[v]), "cpu_ns_per_io_by_stage");
		double other = 0;
		g_string_append_printf(mp->data, "\"%s\"", (char *)names->pdata[v]);
		for (unsigned k = 0; k < stages->len; k++) {
			json_object *x = get(by, stages->pdata[k]);
			g_autofree char *val = num("%.6g", x ? json_object_get_double(x) : 0);
			g_string_append_printf(mp->data, " %s", val);
		}
		json_object_object_foreach(by, sn, sv) {
			bool top = false;
			for (unsigned k = 0; k < stages->len; k++)
				top |= strcmp(stages->pdata[k], sn) == 0;
			if (!top)
				other += json_object_get_double(sv);
		}
		g_autofree char *o = num("%.6g", other);
		g_string_append_printf(mp->data, " %s\n", o);
	}
	g_string_append(mp->data, "EOD\n");
	g_string_append(mp->body, "set style data histograms\nset style histogram rowstacked\n"
			"set style fill solid 0.9 border lc rgb '#ffffff'\nset boxwidth 0.6\n"
			"set yrange [0:*]\nset ylabel 'ns per I/O'\nplot ");
	for (unsigned k = 0; k <= stages->len; k++) {
		if (k == 0)
			g_string_append_printf(mp->body, "%s using 2:xtic(1)", bn);
		else
			g_string_append_printf(mp->body, ", '' using %u", k + 2);
		g_string_append_printf(mp->body, " lt %u title ", k % (unsigned)G_N_ELEMENTS(palette) + 1);
		plot_quote(mp->body, k < stages->len ? (char *)stages->pdata[k] : "other");
	}
	g_string_append_c(mp->body, '\n');
	doc_plot(d, mp);
	return true;
}

/* ---- the whole ---- */

static const char *const style =
	"body{font-family:sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;"
	"color:#222}table{border-collapse:collapse;margin:1em 0;font-size:90%}"
	"th,td{border:1px solid #ccc;padding:2px 6px;text-align:left}td.n{text-align:right}"
	"th{background:#f0f0f0}pre{background:#f6f6f6;padding:.5em;overflow-x:auto;"
	"white-space:pre-wrap}figure{margin:1em 0}img.plot{display:block;max-width:100%;"
	"height:auto;border:1px solid #eee}figcaption{font-size:90%;color:#555}";

/* The stores dirs name: each a store, or a directory of stores. */
static GPtrArray *expand(char **dirs, GError **err)
{
	GPtrArray *all = g_ptr_array_new_with_free_func(g_free);

	for (char **d = dirs; *d; d++) {
		g_autofree char *m = g_build_filename(*d, "manifest.json", NULL);
		if (g_file_test(m, G_FILE_TEST_EXISTS)) {
			g_ptr_array_add(all, g_strdup(*d));
			continue;
		}
		g_autoptr(GPtrArray) sub = g_ptr_array_new_with_free_func(g_free);
		GDir *dir = g_dir_open(*d, 0, NULL);
		const char *n;
		while (dir && (n = g_dir_read_name(dir))) {
			g_autofree char *sm = g_build_filename(*d, n, "manifest.json", NULL);
			if (g_file_test(sm, G_FILE_TEST_EXISTS))
				g_ptr_array_add(sub, g_build_filename(*d, n, NULL));
		}
		if (dir)
			g_dir_close(dir);
		if (!sub->len) {
			storsim_input_error(err, *d, 0, NULL, "not a result store (no "
					    "manifest.json in it or its subdirectories)");
			g_ptr_array_free(all, TRUE);
			return NULL;
		}
		g_ptr_array_sort(sub, storsim_strptr_cmp);
		for (unsigned i = 0; i < sub->len; i++)
			g_ptr_array_add(all, g_strdup(sub->pdata[i]));
	}
	return all;
}

bool results_report_write(char **dirs, const char *outdir, GError **err)
{
	g_autoptr(GPtrArray) stores = expand(dirs, err);
	g_autoptr(GPtrArray) sets = g_ptr_array_new_with_free_func((GDestroyNotify)rset_free);
	struct doc d = {
		.md = g_string_new(NULL), .html = g_string_new(NULL), .outdir = outdir,
		.plots = g_ptr_array_new_with_free_func((GDestroyNotify)plot_free),
	};
	bool ok = false;

	if (!stores)
		goto out;
	if (g_mkdir_with_parents(outdir, 0777) != 0) {
		g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_IO,
			    "%s: cannot make the report's directory: %s", outdir,
			    g_strerror(errno));
		goto out;
	}
	for (unsigned i = 0; i < stores->len; i++) {
		struct rset *s = rset_load(stores->pdata[i], stores->len > 1, err);
		if (!s)
			goto out;
		g_ptr_array_add(sets, s);
	}
	g_string_append(d.html, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
			"<title>storsim report</title><style>");
	g_string_append(d.html, style);
	g_string_append(d.html, "</style></head><body>\n");
	bool repro = false;
	for (unsigned i = 0; i < sets->len; i++)
		repro |= strcmp(((struct rset *)sets->pdata[i])->command, "reproduce") == 0;
	if (repro)
		doc_heading(&d, 1, "storsim reproduce: published and simulated");
	for (unsigned i = 0; i < sets->len; i++) {
		const struct rset *s = sets->pdata[i];
		if (!(strcmp(s->command, "reproduce") == 0 ? repro_section(&d, s, err) :
		      sweep_section(&d, s, err)))
			goto out;
	}
	g_string_append(d.html, "</body></html>\n");
	if (!plot_render(outdir, d.plots, err) || !html_inline_plots(&d, err) ||
	    !write_file(outdir, "report.md", d.md->str, err) ||
	    !write_file(outdir, "report.html", d.html->str, err))
		goto out;
	ok = true;
out:
	g_string_free(d.md, TRUE);
	g_string_free(d.html, TRUE);
	g_ptr_array_free(d.plots, TRUE);
	return ok;
}
