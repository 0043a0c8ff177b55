/*
 * storsim sweep and storsim compare: a fio job file run over every
 * combination of the values of one or more variables, one row per run:
 * IOPS, bandwidth, latency, and the mechanism behind them (CPU time per
 * I/O by class, context switches, the busiest CPU, latency by layer).
 *
 * sweep's variables are kernel switches, model parameters, fio options
 * and ${VAR}s of the job file; compare's are two, a completion strategy
 * (strategy.h) and the queue depth. Both run their points through a
 * result store (store.h) and the runner (runner.h): in parallel, resumed
 * after an interruption, or as a Slurm job array (slurm.h), and print
 * their tables from the points' documents.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "engine/progress.h"
#include "engine/util.h"
#include "report/results_report.h"
#include "system/point.h"
#include "system/runner.h"
#include "system/slurm.h"
#include "system/store.h"
#include "system/strategy.h"
#include "workloads/fio/jobfile.h"
#include "workloads/fio/output.h"
#include "cli.h"

enum vary_kind { VARY_ENV, VARY_KERNEL, VARY_SET, VARY_FIO, VARY_STRATEGY };

struct vary {
	char *key;		/* as given: "kernel.dio_caller_comp", "DEPTH" */
	enum vary_kind kind;
	const char *name;	/* the switch, parameter, option or variable */
	char **values;
	unsigned nvalues;
};

struct sweep {
	const char *command;	/* "sweep" or "compare" */
	char **argv;		/* as given, for the workers */
	char **parse_argv;	/* what GOption parses (and shuffles) */
	struct system_config cfg;
	const char *jobfile;
	char **fixed_env;
	GPtrArray *vars;	/* struct vary * */
	GPtrArray *strategies;	/* compare: struct strategy * */
	/* the options both commands take */
	char *format, *output, *eta, *results, *report;
	gint jobs, point;
	gboolean force;
	/* Slurm: submit, wait, how many tasks, sbatch's options; a task */
	gboolean slurm, slurm_wait;
	gint slurm_tasks, slurm_task;
	char **sbatch_args;
};

static void vary_free(struct vary *v)
{
	g_free(v->key);
	g_strfreev(v->values);
	g_free(v);
}

static bool env_name(const char *s)
{
	if (!g_ascii_isalpha(*s) && *s != '_')
		return false;
	for (; *s; s++)
		if (!g_ascii_isalnum(*s) && *s != '_')
			return false;
	return true;
}

static struct vary *vary_new(const char *key, enum vary_kind kind, char **values,
			     GError **err)
{
	struct vary *v = g_new0(struct vary, 1);

	v->key = g_strdup(key);
	v->kind = kind;
	v->values = values;
	v->nvalues = g_strv_length(values);
	v->name = kind == VARY_KERNEL ? v->key + 7 :
		  kind == VARY_FIO && g_str_has_prefix(key, "fio.") ? v->key + 4 :
		  v->key;
	for (unsigned i = 0; i < v->nvalues; i++)
		for (unsigned k = 0; k < i; k++)
			if (!v->values[i][0] || strcmp(v->values[i], v->values[k]) == 0) {
				storsim_input_error(err, "command line", 0, key,
						    "'%s' is given twice", v->values[i]);
				vary_free(v);
				return NULL;
			}
	if (v->nvalues == 0 || !v->values[0][0] ||
	    (v->nvalues > 1 && !v->values[v->nvalues - 1][0])) {
		storsim_input_error(err, "command line", 0, key, "has an empty value");
		vary_free(v);
		return NULL;
	}
	return v;
}

/* KEY=V1,V2,...: kernel.SWITCH, fio.OPTION, MODEL.PARAM (as --set takes
 * it) or the name of a ${VAR} of the job file. */
static struct vary *vary_parse(const char *spec, const struct system_config *cfg,
			       GError **err)
{
	const char *eq = strchr(spec, '=');
	enum vary_kind kind;

	if (!eq || eq == spec || !eq[1]) {
		storsim_input_error(err, "command line", 0, "--vary",
				    "'%s' is not KEY=VALUE[,VALUE...]", spec);
		return NULL;
	}
	g_autofree char *key = g_strndup(spec, (gsize)(eq - spec));
	if (g_str_has_prefix(key, "kernel."))
		kind = VARY_KERNEL;
	else if (g_str_has_prefix(key, "fio."))
		kind = VARY_FIO;
	else if (strchr(key, '.'))
		kind = VARY_SET;
	else if (env_name(key))
		kind = VARY_ENV;
	else {
		storsim_input_error(err, "command line", 0, "--vary",
				    "'%s' is neither kernel.SWITCH, fio.OPTION, "
				    "MODEL.PARAM nor the name of a ${VAR} of the "
				    "job file", key);
		return NULL;
	}
	struct vary *v = vary_new(key, kind, g_strsplit(eq + 1, ",", -1), err);
	if (!v)
		return NULL;
	g_autofree char *why = NULL;
	g_autofree char *entry = g_strdup_printf("%s=%s", v->name, v->values[0]);
	if (kind == VARY_KERNEL || kind == VARY_SET)
		why = system_setting_problem(cfg, entry, kind == VARY_KERNEL);
	else if (kind == VARY_FIO && !fio_option_find(v->name))
		why = g_strdup_printf("'%s': fio has no option '%s'", key, v->name);
	if (why) {
		storsim_input_error(err, "command line", 0, "--vary", "%s", why);
		vary_free(v);
		return NULL;
	}
	return v;
}

/* ---- the grid ---- */

static unsigned grid_size(const struct sweep *s)
{
	unsigned n = 1;

	for (unsigned i = 0; i < s->vars->len; i++)
		n *= ((struct vary *)s->vars->pdata[i])->nvalues;
	return n;
}

static void add_all(GPtrArray *to, GPtrArray *from, const char *prefix)
{
	for (unsigned i = 0; i < from->len; i++)
		g_ptr_array_add(to, g_strconcat(prefix, from->pdata[i], NULL));
}

static void apply(const struct sweep *s, const struct vary *v, const char *val,
		  struct point *p)
{
	char *kv = g_strdup_printf("%s=%s", v->name, val);

	switch (v->kind) {
	case VARY_ENV:
		g_ptr_array_add(p->env, kv);
		return;
	case VARY_KERNEL:
		g_ptr_array_add(p->cfg.kernel, kv);
		return;
	case VARY_SET:
		g_ptr_array_add(p->cfg.sets, kv);
		return;
	case VARY_FIO:
		g_ptr_array_add(p->fio_opts, g_strconcat("--", kv, NULL));
		g_free(kv);
		return;
	case VARY_STRATEGY: {
		const struct strategy *st = strategy_find(s->strategies, val);
		add_all(p->fio_opts, st->fio, "--");
		add_all(p->cfg.kernel, st->kernel, "");
		add_all(p->cfg.sets, st->sets, "");
		add_all(p->env, st->env, "");
		g_free(kv);
		return;
	}
	}
}

/* Every combination of the variables' values, the last changing fastest. */
static GPtrArray *plan(const struct sweep *s)
{
	GPtrArray *points = g_ptr_array_new_with_free_func((GDestroyNotify)point_free);
	unsigned total = grid_size(s);
	g_autofree unsigned *pick = g_new0(unsigned, s->vars->len + 1);

	for (unsigned n = 0; n < total; n++) {
		struct point *p = point_new(n, &s->cfg, "fio");
		p->jobfile = g_strdup(s->jobfile);
		p->trace_layers = true;
		for (char **e = s->fixed_env; e && *e; e++)
			g_ptr_array_add(p->env, g_strdup(*e));
		for (unsigned i = 0; i < s->vars->len; i++) {
			const struct vary *v = s->vars->pdata[i];
			apply(s, v, v->values[pick[i]], p);
			point_add_value(p, v->key, v->values[pick[i]]);
		}
		if (s->cfg.timeline) {
			g_autofree char *file = g_strconcat(p->name, ".json", NULL);
			g_free(p->cfg.timeline);
			p->cfg.timeline = g_build_filename(s->cfg.timeline, file, NULL);
		}
		g_ptr_array_add(points, p);
		for (unsigned i = s->vars->len; i-- > 0; ) {
			const struct vary *v = s->vars->pdata[i];
			if (++pick[i] < v->nvalues)
				break;
			pick[i] = 0;
		}
	}
	return points;
}

/* What the store's manifest says of the grid, for `storsim report`. */
static json_object *grid_json(const struct sweep *s, GPtrArray *points)
{
	json_object *g = json_object_new_object(), *vars = json_object_new_array();
	json_object *pts = json_object_new_array();

	json_object_object_add(g, "command", json_object_new_string(s->command));
	json_object_object_add(g, "jobfile", json_object_new_string(s->jobfile));
	for (unsigned i = 0; i < s->vars->len; i++) {
		const struct vary *v = s->vars->pdata[i];
		json_object *x = json_object_new_object(), *vals = json_object_new_array();
		json_object_object_add(x, "key", json_object_new_string(v->key));
		for (unsigned k = 0; k < v->nvalues; k++)
			json_object_array_add(vals, json_object_new_string(v->values[k]));
		json_object_object_add(x, "values", vals);
		json_object_array_add(vars, x);
	}
	json_object_object_add(g, "variables", vars);
	for (unsigned n = 0; n < points->len; n++) {
		const struct point *p = points->pdata[n];
		json_object *x = json_object_new_object(), *vals = json_object_new_object();
		g_autofree char *file = g_strconcat(p->name, ".json", NULL);
		json_object_object_add(x, "file", json_object_new_string(file));
		for (unsigned i = 0; i < p->keys->len; i++)
			json_object_object_add(vals, p->keys->pdata[i],
					       json_object_new_string(p->values->pdata[i]));
		json_object_object_add(x, "variables", vals);
		json_object_array_add(pts, x);
	}
	json_object_object_add(g, "points", pts);
	if (s->strategies) {
		json_object *st = json_object_new_array();
		const struct vary *v = s->vars->pdata[0];
		for (unsigned k = 0; k < v->nvalues; k++) {
			const struct strategy *x = strategy_find(s->strategies, v->values[k]);
			json_object *o = json_object_new_object();
			json_object_object_add(o, "name", json_object_new_string(x->name));
			json_object_object_add(o, "describe",
					       json_object_new_string(x->describe));
			json_object_array_add(st, o);
		}
		json_object_object_add(g, "strategies", st);
	}
	return g;
}

/* ---- checks before running anything ---- */

/* Whether the job file, or a file it includes, mentions ${name}. */
static bool jobfile_uses(const char *path, const char *name, unsigned depth)
{
	g_autofree char *text = NULL;
	g_autofree char *var = g_strdup_printf("${%s}", name);

	if (depth > 8 || !g_file_get_contents(path, &text, NULL, NULL))
		return false;
	if (strstr(text, var))
		return true;
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	g_autofree char *dir = g_path_get_dirname(path);
	for (char **l = lines; *l; l++) {
		char *t = g_strstrip(*l);
		if (!g_str_has_prefix(t, "include") || !g_ascii_isspace(t[7]))
			continue;
		char *f = g_strstrip(t + 8);
		g_autofree char *inc = g_path_is_absolute(f) ? g_strdup(f) :
				       g_build_filename(dir, f, NULL);
		if (jobfile_uses(inc, name, depth + 1))
			return true;
	}
	return false;
}

static bool check_used(const struct sweep *s, const char *name, const char *option,
		       GError **err)
{
	if (jobfile_uses(s->jobfile, name, 0))
		return true;
	storsim_input_error(err, "command line", 0, option, "%s never uses ${%s}: "
			    "every point would run the same job", s->jobfile, name);
	return false;
}

/*
 * The job file as the first point reads it: it must parse, and must not
 * set a fio option that a variable or a strategy sets for every point
 * (options given before a job file are its global defaults, which the
 * file's own settings override).
 */
static bool check_jobfile(const struct sweep *s, const struct point *first,
			  GError **err)
{
	struct system *sys = system_new(&first->cfg, err);
	bool ok = false;

	if (!sys)
		return false;
	g_auto(GStrv) environ = g_get_environ();
	for (unsigned i = 0; i < first->env->len; i++) {
		g_auto(GStrv) kv = g_strsplit(first->env->pdata[i], "=", 2);
		environ = g_environ_setenv(environ, kv[0], kv[1] ? kv[1] : "", TRUE);
	}
	struct jobfile_env je = {
		.ncpus = host_ncpus(sys->host),
		.pagesize = sys->sp.cpu.page_size,
		.mb_memory = sys->sp.cpu.mem_mb,
		.environ = (const char *const *)environ,
	};
	g_autoptr(GPtrArray) opts = g_ptr_array_new_with_free_func(g_free);
	for (unsigned i = 0; i < first->fio_opts->len; i++)
		g_ptr_array_add(opts, g_strdup(first->fio_opts->pdata[i]));
	/* Every strategy's options, not only the first point's. */
	for (unsigned i = 0; s->strategies && i < s->strategies->len; i++)
		add_all(opts, ((struct strategy *)s->strategies->pdata[i])->fio, "--");
	char *files[] = {(char *)s->jobfile};
	struct job_list *jl = jobfile_parse(&je, files, 1, (char **)first->fio_opts->pdata,
					    (int)first->fio_opts->len, err);
	if (!jl)
		goto out;
	for (unsigned j = 0; j < jl->jobs->len; j++)
		for (unsigned i = 0; i < opts->len; i++) {
			const char *o = (char *)opts->pdata[i] + 2;
			g_autofree char *name = g_strndup(o, strcspn(o, "="));
			const char *file;
			int line;
			if (jobopt_location(job_list_get(jl, j), name, &file, &line) &&
			    strcmp(file, "command line") != 0) {
				storsim_input_error(err, file, line, name,
						    "%s sets it for every point; leave "
						    "it out of the job file", s->command);
				goto out;
			}
		}
	ok = true;
out:
	if (jl)
		job_list_free(jl);
	system_free(sys);
	return ok;
}

static bool check_sweep(const struct sweep *s, GPtrArray *points, GError **err)
{
	for (unsigned i = 0; i < s->vars->len; i++) {
		const struct vary *v = s->vars->pdata[i];
		for (unsigned k = 0; k < i; k++)
			if (strcmp(((struct vary *)s->vars->pdata[k])->key, v->key) == 0) {
				storsim_input_error(err, "command line", 0, "--vary",
						    "'%s' is varied twice: give all "
						    "its values in one --vary", v->key);
				return false;
			}
		if (v->kind == VARY_ENV && !check_used(s, v->name, "--vary", err))
			return false;
		for (char **e = s->fixed_env; v->kind == VARY_ENV && e && *e; e++)
			if (g_str_has_prefix(*e, v->name) && (*e)[strlen(v->name)] == '=') {
				storsim_input_error(err, "command line", 0, "--env",
						    "'%s' is varied too (--vary)", v->name);
				return false;
			}
	}
	for (char **e = s->fixed_env; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		g_autofree char *name = eq ? g_strndup(*e, (gsize)(eq - *e)) : NULL;
		if (!name || !env_name(name)) {
			storsim_input_error(err, "command line", 0, "--env",
					    "'%s' is not VAR=VALUE", *e);
			return false;
		}
		if (!check_used(s, name, "--env", err))
			return false;
	}
	if (s->cfg.timeline && g_mkdir_with_parents(s->cfg.timeline, 0777) != 0) {
		storsim_input_error(err, "command line", 0, "--timeline",
				    "cannot make the directory %s", s->cfg.timeline);
		return false;
	}
	return check_jobfile(s, points->pdata[0], err);
}

/* ---- the tables, from the points' documents ---- */

struct row {
	const struct point *p;
	json_object *doc;
	enum point_status status;
	struct run_metrics m;	/* when done */
};

static double per_io(const struct run_metrics *m, double x)
{
	return m->ios ? x / (double)m->ios : 0;
}

static int col_width(const struct vary *v)
{
	size_t w = MAX(strlen(v->key), 6u);

	for (unsigned k = 0; k < v->nvalues; k++)
		w = MAX(w, strlen(v->values[k]));
	return (int)w;
}

static void values_text(GString *o, const struct sweep *s, const struct row *row)
{
	for (unsigned i = 0; i < s->vars->len; i++)
		g_string_append_printf(o, "%*s ", col_width(s->vars->pdata[i]),
				       (char *)row->p->values->pdata[i]);
}

static void keys_text(GString *o, const struct sweep *s)
{
	for (unsigned i = 0; i < s->vars->len; i++) {
		const struct vary *v = s->vars->pdata[i];
		g_string_append_printf(o, "%*s ", col_width(v), v->key);
	}
}

/* A refused point's cell: what storsim does not model, and why. */
static void not_run_text(GString *o, const struct row *row)
{
	g_string_append_printf(o, "| %s: %s\n", row->status == POINT_REFUSED ?
			       "not modelled" : "failed", point_doc_reason(row->doc));
}

static void layers_text(GString *o, const struct sweep *s, GArray *rows)
{
	g_string_append(o, "\nLatency per I/O (us) by layer, the same runs:\n");
	keys_text(o, s);
	g_string_append_c(o, '|');
	for (int l = 0; l < IOL_NR; l++)
		g_string_append_printf(o, " %*s", (int)MAX(strlen(io_layer_name(l)), 7u),
				       io_layer_name(l));
	g_string_append_c(o, '\n');
	for (unsigned r = 0; r < rows->len; r++) {
		const struct row *row = &g_array_index(rows, struct row, r);
		values_text(o, s, row);
		if (row->status != POINT_DONE) {
			g_string_append(o, "| -\n");
			continue;
		}
		g_string_append_c(o, '|');
		for (int l = 0; l < IOL_NR; l++)
			g_string_append_printf(o, " %*.3f",
					       (int)MAX(strlen(io_layer_name(l)), 7u),
					       io_layers_mean(&row->m.layers, l) / 1e3);
		g_string_append_c(o, '\n');
	}
}

static void durability_text(GString *o, const struct sweep *s, GArray *rows)
{
	g_string_append(o, "\nPower loss (--power-loss), the same runs:\n");
	keys_text(o, s);
	g_string_append(o, "| power lost  violations\n");
	for (unsigned r = 0; r < rows->len; r++) {
		const struct row *row = &g_array_index(rows, struct row, r);
		values_text(o, s, row);
		if (row->status != POINT_DONE)
			g_string_append(o, "| -\n");
		else
			g_string_append_printf(o, "| %10s  %10" G_GUINT64_FORMAT "\n",
					       row->m.power_lost ? "yes" : "no",
					       row->m.durability_violations);
	}
}

static void print_text(GString *o, const struct sweep *s, GArray *rows)
{
	g_string_append_printf(o, "storsim %s: %s, %u run%s\n\n", s->command,
			       s->jobfile, rows->len, rows->len == 1 ? "" : "s");
	keys_text(o, s);
	g_string_append(o, "|       IOPS     MB/s  clat mean  clat p99 |"
			   "   usr/IO   sys/IO   irq/IO  ctx/IO | busiest CPU\n");
	for (unsigned r = 0; r < rows->len; r++) {
		const struct row *row = &g_array_index(rows, struct row, r);
		const struct run_metrics *m = &row->m;
		values_text(o, s, row);
		if (row->status != POINT_DONE) {
			not_run_text(o, row);
			continue;
		}
		g_string_append_printf(o, "| %10.0f %8.1f %8.1fus %8.1fus | %6.0fns %6.0fns "
				       "%6.0fns %7.3f | %10.1f%%\n",
				       m->iops, m->bw_bytes / 1e6, m->clat_mean_ns / 1e3,
				       (double)m->clat_p99_ns / 1e3,
				       per_io(m, (double)m->class_ns[CPU_USR]),
				       per_io(m, (double)m->class_ns[CPU_SYS]),
				       per_io(m, (double)(m->class_ns[CPU_IRQ] +
							  m->class_ns[CPU_SOFTIRQ])),
				       per_io(m, (double)m->ctx_switches),
				       m->busiest_cpu_util * 100);
	}
	g_string_append(o, "\nCPU time per I/O is every CPU's, divided by the I/Os "
			   "completed; clat is fio's completion latency of all jobs.\n");
	layers_text(o, s, rows);
	if (s->cfg.power_loss)
		durability_text(o, s, rows);
	bool notes = false;
	for (unsigned r = 0; r < rows->len; r++) {
		const struct row *row = &g_array_index(rows, struct row, r);
		if (row->status != POINT_DONE || !row->m.job_errors)
			continue;
		g_autofree char *label = point_label(row->p);
		g_auto(GStrv) lines = g_strsplit(row->m.job_errors->str, "\n", -1);
		if (!notes)
			g_string_append(o, "\nJobs that ended in an error:\n");
		notes = true;
		for (char **l = lines; *l && **l; l++)
			g_string_append_printf(o, "  %s: %s\n", label, *l);
	}
}

static json_object *jnum(double x)
{
	return json_object_new_double(round(x * 1e3) / 1e3);
}

static json_object *to_json(const struct sweep *s, GArray *rows)
{
	json_object *o = json_object_new_object(), *jv = json_object_new_array();
	json_object *jr = json_object_new_array();

	json_object_object_add(o, "jobfile", json_object_new_string(s->jobfile));
	for (unsigned i = 0; i < s->vars->len; i++) {
		const struct vary *v = s->vars->pdata[i];
		json_object *x = json_object_new_object(), *vals = json_object_new_array();
		json_object_object_add(x, "key", json_object_new_string(v->key));
		for (unsigned k = 0; k < v->nvalues; k++)
			json_object_array_add(vals, json_object_new_string(v->values[k]));
		json_object_object_add(x, "values", vals);
		json_object_array_add(jv, x);
	}
	json_object_object_add(o, "vary", jv);
	for (unsigned r = 0; r < rows->len; r++) {
		const struct row *row = &g_array_index(rows, struct row, r);
		const struct run_metrics *m = &row->m;
		json_object *x = json_object_new_object(), *vals = json_object_new_object();
		for (unsigned i = 0; i < s->vars->len; i++)
			json_object_object_add(vals, ((struct vary *)s->vars->pdata[i])->key,
					       json_object_new_string(row->p->values->pdata[i]));
		json_object_object_add(x, "values", vals);
		json_object_object_add(x, "status",
				       json_object_new_string(point_status_name(row->status)));
		json_object_array_add(jr, x);
		if (row->status != POINT_DONE) {
			json_object_object_add(x, "reason",
					       json_object_new_string(point_doc_reason(row->doc)));
			continue;
		}
		json_object_object_add(x, "iops", jnum(m->iops));
		json_object_object_add(x, "bw_bytes", jnum(m->bw_bytes));
		json_object_object_add(x, "clat_mean_ns", jnum(m->clat_mean_ns));
		json_object_object_add(x, "clat_p99_ns", json_object_new_int64((int64_t)m->clat_p99_ns));
		json_object *cpu = json_object_new_object();
		for (int c = 0; c < CPU_CLASS_NR; c++)
			json_object_object_add(cpu, cpu_class_name(c),
					       jnum(per_io(m, (double)m->class_ns[c])));
		json_object_object_add(x, "cpu_ns_per_io", cpu);
		json_object_object_add(x, "ctx_switches_per_io",
				       jnum(per_io(m, (double)m->ctx_switches)));
		json_object_object_add(x, "busiest_cpu_utilisation",
				       jnum(m->busiest_cpu_util));
		json_object *lay = json_object_new_object();
		for (int l = 0; l < IOL_NR; l++)
			json_object_object_add(lay, io_layer_name(l),
					       jnum(io_layers_mean(&m->layers, l)));
		json_object_object_add(x, "latency_ns_per_io_by_layer", lay);
		if (s->cfg.power_loss) {
			json_object_object_add(x, "power_lost",
					       json_object_new_boolean(m->power_lost));
			json_object_object_add(x, "durability_violations",
					       json_object_new_uint64(m->durability_violations));
		}
		if (m->job_errors)
			json_object_object_add(x, "job_errors",
					       json_object_new_string(m->job_errors->str));
	}
	json_object_object_add(o, "runs", jr);
	return o;
}

static void rows_clear(GArray *rows)
{
	for (unsigned r = 0; r < rows->len; r++)
		run_metrics_clear(&g_array_index(rows, struct row, r).m);
}

/* ---- running ---- */

static json_object *command_json(const struct sweep *s)
{
	json_object *a = json_object_new_array();

	json_object_array_add(a, json_object_new_string("storsim"));
	for (char **v = s->argv; *v; v++)
		json_object_array_add(a, json_object_new_string(*v));
	return a;
}

/* A Slurm task: its share of the points that the store does not hold. */
static bool run_task(const struct sweep *s, struct store *store, GPtrArray *points,
		     GError **err)
{
	unsigned k;

	if (!slurm_task_index((unsigned)s->slurm_task, &k, err))
		return false;
	for (unsigned i = k; i < points->len; i += (unsigned)s->slurm_task) {
		const struct point *p = points->pdata[i];
		json_object *def = point_definition(p, err), *doc;
		if (!def)
			return false;
		doc = s->force ? NULL : store_load(store, p, def);
		bool skip = doc && point_doc_status(doc) != POINT_FAILED;
		json_object_put(doc);
		json_object_put(def);
		if (!skip && !runner_run_point(store, p, err))
			return false;
	}
	return true;
}

/* Submit the grid as a job array; with --slurm-wait, wait for its end. */
static bool submit(const struct sweep *s, json_object *grid, unsigned npoints,
		   struct store **store, GError **err)
{
	g_autofree char *job = NULL;

	if (!s->results) {
		storsim_input_error(err, "command line", 0, "--slurm",
				    "needs --results DIR, a directory the cluster's "
				    "nodes share, for the tasks to write into");
		return false;
	}
	if (s->slurm_tasks < 0) {
		storsim_input_error(err, "command line", 0, "--slurm-tasks",
				    "must be 1 or more");
		return false;
	}
	*store = store_open(s->results, grid, command_json(s),
			    s->force ? STORE_REPLACE : STORE_CREATE, err);
	if (!*store)
		return false;
	g_autofree char *abs = g_canonicalize_filename(s->results, NULL);
	unsigned tasks = s->slurm_tasks ? MIN((unsigned)s->slurm_tasks, npoints) : npoints;
	struct slurm_job j = {
		.store = abs, .task_argv = s->argv, .tasks = tasks,
		.sbatch_args = s->sbatch_args, .wait = s->slurm_wait,
	};
	if (!slurm_submit(&j, &job, err))
		return false;
	fprintf(stderr, "storsim %s: Slurm job %s, %u task%s for %u points, into %s\n",
		s->command, job, tasks, tasks == 1 ? "" : "s", npoints, abs);
	if (!s->slurm_wait)
		fprintf(stderr, "storsim %s: when it has ended, `storsim report %s` "
			"reports it, and this command without --slurm prints its "
			"tables (running here any point the tasks did not finish)\n",
			s->command, s->results);
	return true;
}

static int run_sweep(struct sweep *s, GError **err)
{
	g_autoptr(GPtrArray) points = NULL;
	g_autoptr(GPtrArray) docs = NULL;
	g_autoptr(GArray) rows = NULL;
	g_autoptr(GString) text = NULL;
	g_autofree char *what = NULL;
	struct store *store = NULL;
	int ret = 1;

	bool json = s->format && strcmp(s->format, "json") == 0;
	if (s->format && !json && strcmp(s->format, "normal") != 0) {
		storsim_input_error(err, "command line", 0, "--output-format",
				    "'%s' is not normal or json", s->format);
		return 1;
	}
	enum progress_when when = PROGRESS_AUTO;
	if (s->eta && !progress_when_parse(s->eta, &when, err))
		return 1;
	if (s->jobs < 1) {
		storsim_input_error(err, "command line", 0, "-j",
				    "must be 1 or more");
		return 1;
	}
	points = plan(s);
	json_object *grid = grid_json(s, points);
	if (s->point >= 0) {
		/* A worker: one point into the store its sweep opened. */
		if ((unsigned)s->point >= points->len) {
			storsim_input_error(err, "command line", 0, "--point",
					    "the sweep has %u points", points->len);
		} else if (!s->results) {
			storsim_input_error(err, "command line", 0, "--point",
					    "needs --results");
		} else if ((store = store_open(s->results, grid, command_json(s),
					       STORE_JOIN, err)) &&
			   runner_run_point(store, points->pdata[s->point], err)) {
			ret = 0;
		}
		goto out;
	}
	if (s->slurm_task > 0) {
		if (s->results && (store = store_open(s->results, grid, command_json(s),
						      STORE_JOIN, err)) &&
		    run_task(s, store, points, err))
			ret = 0;
		else if (!s->results)
			storsim_input_error(err, "command line", 0, "--slurm-task",
					    "needs --results");
		goto out;
	}
	if (!s->slurm && (s->slurm_wait || s->slurm_tasks || s->sbatch_args)) {
		storsim_input_error(err, "command line", 0, s->slurm_wait ? "--slurm-wait" :
				    s->slurm_tasks ? "--slurm-tasks" : "--sbatch-arg",
				    "is for --slurm");
		goto out;
	}
	if (!check_sweep(s, points, err))
		goto out;
	if (s->slurm) {
		if (!submit(s, grid, points->len, &store, err))
			goto out;
		if (!s->slurm_wait) {
			ret = 0;
			goto out;
		}
		unsigned held = 0;
		for (unsigned i = 0; i < points->len; i++) {
			json_object *def = point_definition(points->pdata[i], err), *doc;
			if (!def)
				goto out;
			doc = store_load(store, points->pdata[i], def);
			held += doc && point_doc_status(doc) != POINT_FAILED;
			json_object_put(doc);
			json_object_put(def);
		}
		fprintf(stderr, "storsim %s: the Slurm job has ended: %u of %u points "
			"in the store%s\n", s->command, held, points->len,
			held < points->len ? "; the others run here" : "");
	}
	unsigned jobs = MIN((unsigned)s->jobs, points->len);
	if (!store && (s->results || jobs > 1 || s->report)) {
		store = store_open(s->results, grid, command_json(s),
				   s->force ? STORE_REPLACE : STORE_CREATE, err);
		if (!store)
			goto out;
	}
	what = g_strdup_printf("storsim %s", s->command);
	/* After a Slurm job, what its tasks ran is not run again. */
	struct runner r = {
		.what = what, .jobs = jobs, .force = s->force && !s->slurm, .when = when,
		.worker_argv = s->argv, .store = store, .command = command_json(s),
	};
	bool ran = runner_run(&r, points, &docs, err);
	json_object_put(r.command);
	if (!ran)
		goto out;

	rows = g_array_new(FALSE, TRUE, sizeof(struct row));
	g_array_set_size(rows, points->len);
	unsigned failed = 0;
	uint64_t violations = 0;
	for (unsigned i = 0; i < points->len; i++) {
		struct row *row = &g_array_index(rows, struct row, i);
		row->p = points->pdata[i];
		row->doc = docs->pdata[i];
		row->status = point_doc_status(row->doc);
		if (row->status == POINT_DONE &&
		    !point_doc_metrics(row->doc, &row->m, row->p->name, err)) {
			rows_clear(rows);
			goto out;
		}
		failed += row->status == POINT_FAILED;
		violations += row->m.durability_violations;
	}
	text = g_string_new(NULL);
	if (json) {
		json_object *o = to_json(s, rows);
		g_string_append(text, json_object_to_json_string_ext(o,
				JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
				JSON_C_TO_STRING_NOSLASHESCAPE));
		g_string_append_c(text, '\n');
		json_object_put(o);
	} else {
		print_text(text, s, rows);
	}
	rows_clear(rows);
	if (s->output) {
		if (!output_write_file(s->output, text->str, err))
			goto out;
	} else {
		fputs(text->str, stdout);
	}
	if (s->report) {
		char *dirs[] = {(char *)store_dir(store), NULL};
		if (!results_report_write(dirs, s->report, err))
			goto out;
		fprintf(stderr, "storsim %s: report in %s/report.html and report.md\n",
			s->command, s->report);
	}
	if (failed)
		fprintf(stderr, "storsim %s: %u of %u points failed; running the "
			"same command again runs them again\n", s->command, failed,
			points->len);
	if (violations)
		fprintf(stderr, "storsim %s: %" G_GUINT64_FORMAT " writes acknowledged "
			"as durable were lost in the power loss\n", s->command, violations);
	ret = failed || violations ? 1 : 0;
out:
	json_object_put(grid);
	store_close(store);
	return ret;
}

/* The options of both commands. */
static void add_common(struct sweep *s, GOptionContext *ctx,
		       const GOptionEntry *own)
{
	const GOptionEntry entries[] = {
		{"output-format", 0, 0, G_OPTION_ARG_STRING, &s->format,
		 "normal (default) or json", "FORMAT"},
		{"output", 0, 0, G_OPTION_ARG_FILENAME, &s->output,
		 "Write the report to FILE, whole or not at all", "FILE"},
		{"eta", 0, 0, G_OPTION_ARG_STRING, &s->eta, PROGRESS_ETA_HELP, "WHEN"},
		{"jobs", 'j', 0, G_OPTION_ARG_INT, &s->jobs, RUNNER_JOBS_HELP, "N"},
		{"results", 0, 0, G_OPTION_ARG_FILENAME, &s->results,
		 "Keep each point's result in DIR (a result store); the same "
		 "command run again resumes", "DIR"},
		{"force", 0, 0, G_OPTION_ARG_NONE, &s->force,
		 "Run every point again, even those the result store holds", NULL},
		{"report", 0, 0, G_OPTION_ARG_FILENAME, &s->report,
		 "Write a report into DIR: Markdown, HTML, CSV, SVG and PNG plots "
		 "(as storsim report)", "DIR"},
		{"slurm", 0, 0, G_OPTION_ARG_NONE, &s->slurm,
		 "Submit the points to Slurm as a job array (sbatch), each task "
		 "running its points into the --results store", NULL},
		{"slurm-wait", 0, 0, G_OPTION_ARG_NONE, &s->slurm_wait,
		 "With --slurm: wait for the job to end, then print the tables", NULL},
		{"slurm-tasks", 0, 0, G_OPTION_ARG_INT, &s->slurm_tasks,
		 "With --slurm: the job array's tasks (default: one per point)", "N"},
		{"sbatch-arg", 0, 0, G_OPTION_ARG_STRING_ARRAY, &s->sbatch_args,
		 "With --slurm: an option for sbatch, e.g. --partition=P (repeatable)",
		 "ARG"},
		{"slurm-task", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_INT, &s->slurm_task,
		 "Be a task of a job array of N tasks (SLURM_ARRAY_TASK_ID)", "N"},
		{"point", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_INT, &s->point,
		 "Run only point N into the result store (a worker)", "N"},
		{NULL},
	};

	g_option_context_add_main_entries(ctx, own, NULL);
	g_option_context_add_main_entries(ctx, entries, NULL);
	system_config_init(&s->cfg);
	system_config_add_point_options(&s->cfg, ctx);
	s->jobs = (gint)runner_default_jobs();
	s->point = -1;
}

static void sweep_clear(struct sweep *s)
{
	g_free(s->format);
	g_free(s->output);
	g_free(s->eta);
	g_free(s->results);
	g_free(s->report);
	g_strfreev(s->sbatch_args);
	g_strfreev(s->fixed_env);
	g_strfreev(s->argv);
	g_free(s->parse_argv);
	if (s->vars)
		g_ptr_array_free(s->vars, TRUE);
	if (s->strategies)
		g_ptr_array_free(s->strategies, TRUE);
	system_config_clear(&s->cfg);
}

static int finish(struct sweep *s, GError *err)
{
	if (err) {
		fprintf(stderr, "storsim %s: %s\n", s->command, err->message);
		g_error_free(err);
	}
	sweep_clear(s);
	return 1;
}

int cmd_sweep(int argc, char **argv)
{
	struct sweep s = {.command = "sweep"};
	g_auto(GStrv) specs = NULL;
	GError *err = NULL;
	g_autoptr(GOptionContext) ctx = g_option_context_new("JOBFILE");
	const GOptionEntry entries[] = {
		{"vary", 0, 0, G_OPTION_ARG_STRING_ARRAY, &specs,
		 "A variable and its values (repeatable): kernel.SWITCH, "
		 "MODEL.PARAM, fio.OPTION, or a ${VAR} of the job file", "KEY=V1,V2,..."},
		{"env", 0, 0, G_OPTION_ARG_STRING_ARRAY, &s.fixed_env,
		 "A ${VAR} of the job file that every run gets (repeatable)",
		 "VAR=VALUE"},
		{NULL},
	};

	g_option_context_set_summary(ctx,
		"Run a fio job file once for every combination of the values of\n"
		"the --vary variables, on the system the other options describe,\n"
		"and print one row per run: IOPS, bandwidth, completion latency,\n"
		"CPU time per I/O, context switches and the busiest CPU.\n\n"
		"  storsim sweep --vary kernel.dio_caller_comp=false,true \\\n"
		"      --vary DEPTH=1,4,16 --env RUNTIME=2 job.fio");
	add_common(&s, ctx, entries);
	s.vars = g_ptr_array_new_with_free_func((GDestroyNotify)vary_free);
	s.argv = runner_split_jobs(&argc, argv);
	s.parse_argv = g_memdup2(s.argv, sizeof(char *) * ((gsize)argc + 1));
	argv = s.parse_argv;
	if (!cli_parse(ctx, &argc, &argv, &err))
		return finish(&s, err);
	if (argc != 2) {
		storsim_input_error(&err, "command line", 0, "JOBFILE",
				    "give exactly one job file");
		return finish(&s, err);
	}
	s.jobfile = argv[1];
	for (char **sp = specs; sp && *sp; sp++) {
		struct vary *v = vary_parse(*sp, &s.cfg, &err);
		if (!v)
			return finish(&s, err);
		g_ptr_array_add(s.vars, v);
	}
	int ret = run_sweep(&s, &err);
	if (ret)
		return finish(&s, err);
	sweep_clear(&s);
	return 0;
}

static char **list_values(const char *option, const char *text, GError **err)
{
	g_auto(GStrv) v = g_strsplit(text, ",", -1);

	for (char **x = v; *x; x++)
		if (!**x) {
			storsim_input_error(err, "command line", 0, option,
					    "'%s' has an empty value", text);
			return NULL;
		}
	return g_steal_pointer(&v);
}

int cmd_compare(int argc, char **argv)
{
	struct sweep s = {.command = "compare"};
	g_autofree char *strategies = NULL, *depths = NULL;
	g_auto(GStrv) files = NULL;
	gboolean list = FALSE;
	GError *err = NULL;
	g_autoptr(GOptionContext) ctx = g_option_context_new("JOBFILE");
	const GOptionEntry entries[] = {
		{"strategies", 0, 0, G_OPTION_ARG_STRING, &strategies,
		 "The completion strategies to compare (default: all but those "
		 "storsim refuses, see --list)", "NAME,NAME,..."},
		{"depths", 0, 0, G_OPTION_ARG_STRING, &depths,
		 "The queue depths (fio's iodepth) to run each at (default "
		 "1,2,4,8,16,32)", "N,N,..."},
		{"strategy-file", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files,
		 "Read more strategies from FILE (repeatable; see traces/strategies.json)",
		 "FILE"},
		{"env", 0, 0, G_OPTION_ARG_STRING_ARRAY, &s.fixed_env,
		 "A ${VAR} of the job file that every run gets (repeatable)",
		 "VAR=VALUE"},
		{"list", 0, 0, G_OPTION_ARG_NONE, &list,
		 "List the strategies and what each sets", NULL},
		{NULL},
	};

	g_option_context_set_summary(ctx,
		"Run a fio job file under named completion strategies (bundles of\n"
		"kernel switches, fio options and parameters) at each queue depth,\n"
		"and print one row per run, as storsim sweep does. A combination\n"
		"that storsim does not model is a row that says why.\n\n"
		"  storsim compare --strategies irq-wq,irq-caller,polled,sqpoll \\\n"
		"      --depths 1,2,4,8,16,32 job.fio");
	add_common(&s, ctx, entries);
	s.vars = g_ptr_array_new_with_free_func((GDestroyNotify)vary_free);
	s.argv = runner_split_jobs(&argc, argv);
	s.parse_argv = g_memdup2(s.argv, sizeof(char *) * ((gsize)argc + 1));
	argv = s.parse_argv;
	if (!cli_parse(ctx, &argc, &argv, &err))
		return finish(&s, err);
	s.strategies = strategies_load(files, &s.cfg, &err);
	if (!s.strategies)
		return finish(&s, err);
	if (list) {
		for (unsigned i = 0; i < s.strategies->len; i++) {
			const struct strategy *st = s.strategies->pdata[i];
			printf("%-14s %s\n", st->name, st->describe);
			for (unsigned k = 0; k < st->fio->len; k++)
				printf("%-14s   fio %s\n", "", (char *)st->fio->pdata[k]);
			for (unsigned k = 0; k < st->kernel->len; k++)
				printf("%-14s   --kernel %s\n", "", (char *)st->kernel->pdata[k]);
			for (unsigned k = 0; k < st->sets->len; k++)
				printf("%-14s   --set %s\n", "", (char *)st->sets->pdata[k]);
			for (unsigned k = 0; k < st->env->len; k++)
				printf("%-14s   env %s\n", "", (char *)st->env->pdata[k]);
			printf("%-14s   (%s:%d)\n", "", st->file, st->line);
		}
		sweep_clear(&s);
		return 0;
	}
	if (argc != 2) {
		storsim_input_error(&err, "command line", 0, "JOBFILE",
				    "give exactly one job file");
		return finish(&s, err);
	}
	s.jobfile = argv[1];
	char **names = list_values("--strategies", strategies ? strategies :
				   "irq-wq,irq-caller,polled,sqpoll", &err);
	if (!names)
		return finish(&s, err);
	for (char **n = names; *n; n++)
		if (!strategy_find(s.strategies, *n)) {
			g_autofree char *known = strategies_names(s.strategies);
			storsim_input_error(&err, "command line", 0, "--strategies",
					    "no strategy '%s' (there are: %s)", *n, known);
			g_strfreev(names);
			return finish(&s, err);
		}
	struct vary *v = vary_new("strategy", VARY_STRATEGY, names, &err);
	if (!v)
		return finish(&s, err);
	g_ptr_array_add(s.vars, v);
	char **qd = list_values("--depths", depths ? depths : "1,2,4,8,16,32", &err);
	if (!qd)
		return finish(&s, err);
	for (char **d = qd; *d; d++) {
		char *end;
		guint64 n = g_ascii_strtoull(*d, &end, 10);
		if (*end || n < 1 || n > 65536) {
			storsim_input_error(&err, "command line", 0, "--depths",
					    "'%s' is not a queue depth (1 to 65536)", *d);
			g_strfreev(qd);
			return finish(&s, err);
		}
	}
	v = vary_new("iodepth", VARY_FIO, qd, &err);
	if (!v)
		return finish(&s, err);
	g_ptr_array_add(s.vars, v);
	int ret = run_sweep(&s, &err);
	if (ret)
		return finish(&s, err);
	sweep_clear(&s);
	return 0;
}
