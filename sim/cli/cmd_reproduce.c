/*
 * storsim reproduce: run an experiment's rows and variants, print the
 * published and simulated values side by side with the relative error,
 * check the table's shape, and show the mechanism (CPU time per I/O by
 * stage, context switches, utilisation) at one row.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "system/experiment.h"
#include "system/profile.h"
#include "workloads/fio/output.h"
#include "engine/progress.h"
#include "engine/util.h"
#include "report/results_report.h"
#include "system/point.h"
#include "system/runner.h"
#include "system/store.h"
#include "system/workload.h"
#include "cli.h"

struct cell {
	bool present;		/* the row has a published number here */
	bool judged;		/* held against the tolerance */
	bool absolute;		/* error is a difference, not a ratio */
	double published, simulated, error, tolerance;
	bool ok;
};

/* Rows that ask the same variant for the same workload share one run:
 * one point of the experiment's grid. */
struct run {
	char *key;
	struct point *p;
	struct run_metrics m;	/* from its document */
};

/* How the experiment's points are run: where to, how many at once. */
struct run_opts {
	unsigned runtime;
	unsigned jobs;
	bool force;
	const char *results;	/* the result store, or NULL */
	gint point;		/* a worker: run only this point (-1: all) */
	enum progress_when when;
};

struct shape_result {
	const char *check, *of, *describe;
	bool holds;
	GArray *series;		/* double, simulated */
};

struct result {
	struct experiment *e;
	unsigned nrows, nvar;
	struct cell *cells;		/* [row * nvar + variant] */
	GPtrArray *runs;		/* struct run *, in the order first asked for */
	struct run **cell_run;		/* [row * nvar + variant], or NULL */
	struct run_metrics **mech;	/* [variant] at mech_row, in runs */
	unsigned mech_row;
	GPtrArray *shapes;		/* struct shape_result * */
	unsigned cells_judged, cells_ok, shapes_ok;
	bool pass;
};

static double number(json_object *o, const char *key)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v))
		return NAN;
	return json_object_get_double(v);
}

static unsigned find_mech_row(const struct experiment *e, unsigned nrows)
{
	if (e->mechanism_row) {
		double want = number(e->mechanism_row, e->variable);
		for (unsigned r = 0; r < nrows; r++)
			if (number(json_object_array_get_idx(e->rows, r), e->variable) == want)
				return r;
	}
	return nrows - 1;
}

static void config_for(const struct experiment *e,
		       const struct experiment_variant *ev, struct system_config *cfg)
{
	system_config_init(cfg);
	system_config_copy(cfg, &e->sys);
	for (unsigned i = 0; i < ev->sets->len; i++)
		g_ptr_array_add(cfg->sets, g_strdup(ev->sets->pdata[i]));
	for (unsigned i = 0; i < ev->kernel->len; i++)
		g_ptr_array_add(cfg->kernel, g_strdup(ev->kernel->pdata[i]));
}

/* The run of variant v at row r: planned, or found among those planned. */
static struct run *plan_cell(struct result *res, unsigned r, unsigned v,
			     unsigned runtime, GError **err)
{
	struct experiment *e = res->e;
	struct experiment_variant *ev = e->variants->pdata[v];
	json_object *row = json_object_array_get_idx(e->rows, r);
	bool fio = strcmp(e->workload_kind, "fio") == 0;
	GPtrArray *args = fio ? experiment_env(e, row, runtime, err) :
			  experiment_args(e, row, runtime, err);
	struct system_config cfg;

	if (!args)
		return NULL;
	for (unsigned i = 0; fio && i < ev->env->len; i++)
		g_ptr_array_add(args, g_strdup(ev->env->pdata[i]));
	g_ptr_array_add(args, NULL);
	g_autofree char *joined = g_strjoinv("\x1f", (char **)args->pdata);
	g_autofree char *key = g_strdup_printf("%u\x1f%s", v, joined);
	g_ptr_array_set_size(args, args->len - 1);
	for (unsigned i = 0; i < res->runs->len; i++) {
		struct run *run = res->runs->pdata[i];
		if (strcmp(run->key, key) == 0) {
			g_ptr_array_free(args, TRUE);
			return run;
		}
	}

	struct run *run = g_new0(struct run, 1);
	config_for(e, ev, &cfg);
	run->p = point_new(res->runs->len, &cfg, fio ? "fio" : "uring-bench");
	system_config_clear(&cfg);
	g_autofree char *label = experiment_row_label(e, row);
	point_add_value(run->p, e->variable, label);
	point_add_value(run->p, "variant", ev->name);
	/* The mechanism's runs also say where the latency went. */
	run->p->trace_layers = r == res->mech_row;
	if (fio) {
		run->p->jobfile = g_strdup(e->jobfile);
		g_ptr_array_extend_and_steal(run->p->env, args);
	} else {
		g_ptr_array_add(run->p->args, g_strdup(e->workload_kind));
		g_ptr_array_extend_and_steal(run->p->args, args);
	}
	run->key = g_steal_pointer(&key);
	g_ptr_array_add(res->runs, run);
	return run;
}

static json_object *grid_json(const struct result *res)
{
	json_object *g = json_object_new_object(), *vars = json_object_new_array();
	json_object *pts = json_object_new_array(), *x, *vals;

	json_object_object_add(g, "command", json_object_new_string("reproduce"));
	json_object_object_add(g, "experiment", json_object_new_string(res->e->id));
	x = json_object_new_object();
	vals = json_object_new_array();
	json_object_object_add(x, "key", json_object_new_string(res->e->variable));
	for (unsigned r = 0; r < res->nrows; r++) {
		g_autofree char *label = experiment_row_label(res->e,
				json_object_array_get_idx(res->e->rows, r));
		json_object_array_add(vals, json_object_new_string(label));
	}
	json_object_object_add(x, "values", vals);
	json_object_array_add(vars, x);
	x = json_object_new_object();
	vals = json_object_new_array();
	json_object_object_add(x, "key", json_object_new_string("variant"));
	for (unsigned v = 0; v < res->nvar; v++)
		json_object_array_add(vals, json_object_new_string(
			((struct experiment_variant *)res->e->variants->pdata[v])->name));
	json_object_object_add(x, "values", vals);
	json_object_array_add(vars, x);
	json_object_object_add(g, "variables", vars);
	for (unsigned i = 0; i < res->runs->len; i++) {
		const struct point *p = ((struct run *)res->runs->pdata[i])->p;
		g_autofree char *file = g_strconcat(p->name, ".json", NULL);
		x = json_object_new_object();
		vals = json_object_new_object();
		json_object_object_add(x, "file", json_object_new_string(file));
		for (unsigned k = 0; k < p->keys->len; k++)
			json_object_object_add(vals, p->keys->pdata[k],
					       json_object_new_string(p->values->pdata[k]));
		json_object_object_add(x, "variables", vals);
		json_object_array_add(pts, x);
	}
	json_object_object_add(g, "points", pts);
	return g;
}

static json_object *command_json(const struct result *res, const struct run_opts *o)
{
	json_object *a = json_object_new_array();

	json_object_array_add(a, json_object_new_string("storsim"));
	json_object_array_add(a, json_object_new_string("reproduce"));
	if (o->runtime) {
		g_autofree char *rt = g_strdup_printf("--runtime=%u", o->runtime);
		json_object_array_add(a, json_object_new_string(rt));
	}
	json_object_array_add(a, json_object_new_string(res->e->id));
	return a;
}

/*
 * Run every planned point (the store's, the workers' or here) and read
 * each one's figures back from its document. A worker (o->point) runs its
 * point only. False, with the point's reason, when a point is refused or
 * fails: a published table is reproduced whole or not at all.
 */
static bool run_points(struct result *res, const struct run_opts *o,
		       bool *worker_done, GError **err)
{
	g_autoptr(GPtrArray) points = g_ptr_array_new();
	g_autoptr(GPtrArray) docs = NULL;
	g_autofree char *dir = NULL;
	g_autofree char *what = g_strdup_printf("storsim reproduce %s", res->e->id);
	g_autofree char *rt = g_strdup_printf("--runtime=%u", o->runtime);
	struct store *store = NULL;
	bool ok = false;

	for (unsigned i = 0; i < res->runs->len; i++)
		g_ptr_array_add(points, ((struct run *)res->runs->pdata[i])->p);
	json_object *grid = grid_json(res);
	*worker_done = o->point >= 0;
	if (o->point >= 0) {
		if ((unsigned)o->point >= points->len || !o->results)
			storsim_input_error(err, "command line", 0, "--point",
					    "%s has %u points (and needs --results)",
					    res->e->id, points->len);
		else if ((store = store_open(o->results, grid, command_json(res, o),
					     STORE_JOIN, err)))
			ok = runner_run_point(store, points->pdata[o->point], err);
		goto out;
	}
	unsigned jobs = MIN(o->jobs, points->len);
	if (o->results || jobs > 1) {
		dir = o->results ? g_build_filename(o->results, res->e->id, NULL) : NULL;
		store = store_open(dir, grid, command_json(res, o),
				   o->force ? STORE_REPLACE : STORE_CREATE, err);
		if (!store)
			goto out;
	}
	char *wargv[] = {"reproduce", rt, (char *)res->e->id,
			 NULL};
	struct runner r = {
		.what = what, .jobs = jobs, .force = o->force, .when = o->when,
		.worker_argv = wargv, .store = store, .command = command_json(res, o),
	};
	bool ran = runner_run(&r, points, &docs, err);
	json_object_put(r.command);
	if (!ran)
		goto out;
	for (unsigned i = 0; i < points->len; i++) {
		struct run *run = res->runs->pdata[i];
		json_object *doc = docs->pdata[i];
		if (point_doc_status(doc) != POINT_DONE) {
			g_set_error(err, STORSIM_ERROR, point_doc_status(doc) == POINT_REFUSED ?
				    STORSIM_ERROR_UNSUPPORTED : STORSIM_ERROR_INPUT,
				    "%s", point_doc_reason(doc));
			goto out;
		}
		if (!point_doc_metrics(doc, &run->m, run->p->name, err))
			goto out;
	}
	ok = true;
out:
	json_object_put(grid);
	store_close(store);
	return ok;
}

static GArray *shape_series(struct result *res, const char *of)
{
	GArray *s = g_array_new(FALSE, FALSE, sizeof(double));
	const char *slash = strchr(of, '/');
	g_autofree char *a = slash ? g_strndup(of, slash - of) : g_strdup(of);
	const char *b = slash ? slash + 1 : NULL;
	int ia = -1, ib = -1;

	for (unsigned v = 0; v < res->nvar; v++) {
		struct experiment_variant *ev = res->e->variants->pdata[v];
		if (strcmp(ev->name, a) == 0)
			ia = (int)v;
		if (b && strcmp(ev->name, b) == 0)
			ib = (int)v;
	}
	if (ia < 0 || (b && ib < 0)) {
		g_array_free(s, TRUE);
		return NULL;
	}
	for (unsigned r = 0; r < res->nrows; r++) {
		double x = res->cells[r * res->nvar + (unsigned)ia].simulated;
		if (b)
			x /= res->cells[r * res->nvar + (unsigned)ib].simulated;
		if (!res->cells[r * res->nvar + (unsigned)ia].present)
			x = NAN;
		g_array_append_val(s, x);
	}
	return s;
}

static bool check_shapes(struct result *res, GError **err)
{
	struct experiment *e = res->e;

	res->shapes = g_ptr_array_new();
	for (size_t i = 0; e->shapes && i < json_object_array_length(e->shapes); i++) {
		json_object *sh = json_object_array_get_idx(e->shapes, i), *v;
		struct shape_result *sr = g_new0(struct shape_result, 1);
		g_ptr_array_add(res->shapes, sr);
		sr->check = json_object_object_get_ex(sh, "check", &v) ?
			    json_object_get_string(v) : "";
		sr->of = json_object_object_get_ex(sh, "of", &v) ?
			 json_object_get_string(v) : "";
		sr->describe = json_object_object_get_ex(sh, "describe", &v) ?
			       json_object_get_string(v) : sr->check;
		double from = number(sh, "from"), to = number(sh, "to");
		double within = number(sh, "within"), slack = number(sh, "slack");
		if (isnan(slack))
			slack = 0.01;
		GArray *all = shape_series(res, sr->of);
		if (!all) {
			storsim_input_error(err, e->path, storsim_json_key_line(e->text,
					    "shapes"), "shapes", "'%s' names no variant",
					    sr->of);
			return false;
		}
		sr->series = g_array_new(FALSE, FALSE, sizeof(double));
		for (unsigned r = 0; r < res->nrows; r++) {
			double x = number(json_object_array_get_idx(e->rows, r), e->variable);
			if ((!isnan(from) && x < from) || (!isnan(to) && x > to))
				continue;
			g_array_append_val(sr->series, g_array_index(all, double, r));
		}
		g_array_free(all, TRUE);
		const double *s = (const double *)sr->series->data;
		unsigned n = sr->series->len;
		sr->holds = n > 0;
		if (strcmp(sr->check, "nondecreasing") == 0) {
			for (unsigned k = 1; k < n; k++)
				sr->holds &= s[k] >= s[k - 1] * (1 - slack);
		} else if (strcmp(sr->check, "increasing") == 0) {
			for (unsigned k = 1; k < n; k++)
				sr->holds &= s[k] > s[k - 1];
		} else if (strcmp(sr->check, "flat") == 0) {
			double lo = INFINITY, hi = -INFINITY;
			for (unsigned k = 0; k < n; k++) {
				lo = MIN(lo, s[k]);
				hi = MAX(hi, s[k]);
			}
			sr->holds &= !isnan(within) && (hi - lo) <= within * hi;
		} else {
			storsim_input_error(err, e->path, storsim_json_key_line(e->text,
					    "check"), "check", "'%s' is not nondecreasing, "
					    "increasing or flat", sr->check);
			return false;
		}
		res->shapes_ok += sr->holds;
	}
	return true;
}

static double row_number(json_object *row, const char *key, double dflt)
{
	double x = number(row, key);
	return isnan(x) ? dflt : x;
}

static void judge(struct result *res, struct cell *c, json_object *row)
{
	json_object *v;
	double abs_tol = number(row, "abs_tolerance");

	c->judged = !(json_object_object_get_ex(row, "judge", &v) &&
		      !json_object_get_boolean(v));
	c->absolute = !isnan(abs_tol);
	c->tolerance = c->absolute ? abs_tol :
		       row_number(row, "tolerance", res->e->tolerance);
	c->error = c->absolute ? c->simulated - c->published :
		   (c->simulated - c->published) / c->published;
	c->ok = fabs(c->error) <= c->tolerance;
	if (c->judged) {
		res->cells_judged++;
		res->cells_ok += c->ok;
	}
}

static bool reproduce(struct result *res, const struct run_opts *o,
		      bool *worker_done, GError **err)
{
	struct experiment *e = res->e;

	if (!workload_runtime_check(e->workload_kind, o->runtime, err))
		return false;
	res->nrows = (unsigned)json_object_array_length(e->rows);
	res->nvar = e->variants->len;
	res->cells = g_new0(struct cell, res->nrows * res->nvar);
	res->cell_run = g_new0(struct run *, res->nrows * res->nvar);
	res->runs = g_ptr_array_new();
	res->mech = g_new0(struct run_metrics *, res->nvar);
	res->mech_row = find_mech_row(e, res->nrows);
	for (unsigned r = 0; r < res->nrows; r++) {
		json_object *row = json_object_array_get_idx(e->rows, r);
		for (unsigned vi = 0; vi < res->nvar; vi++) {
			struct experiment_variant *ev = e->variants->pdata[vi];
			struct cell *c = &res->cells[r * res->nvar + vi];
			c->present = json_object_object_get_ex(row, ev->name, NULL);
			if (!c->present && r != res->mech_row)
				continue;
			res->cell_run[r * res->nvar + vi] = plan_cell(res, r, vi,
								      o->runtime, err);
			if (!res->cell_run[r * res->nvar + vi])
				return false;
		}
	}
	if (!run_points(res, o, worker_done, err) || *worker_done)
		return false;
	for (unsigned r = 0; r < res->nrows; r++) {
		json_object *row = json_object_array_get_idx(e->rows, r), *v;
		const char *result = json_object_object_get_ex(row, "result", &v) ?
				     json_object_get_string(v) : e->metric_result;
		for (unsigned vi = 0; vi < res->nvar; vi++) {
			struct experiment_variant *ev = e->variants->pdata[vi];
			struct cell *c = &res->cells[r * res->nvar + vi];
			struct run *run = res->cell_run[r * res->nvar + vi];
			if (!run)
				continue;
			if (r == res->mech_row)
				res->mech[vi] = &run->m;
			if (!c->present)
				continue;
			double sim = 0;
			run_metrics_result(&run->m, result, &sim);
			c->published = number(row, ev->name);
			c->simulated = sim * (json_object_object_get_ex(row, "result", NULL) ?
					      1 : e->scale);
			judge(res, c, row);
		}
	}
	if (!check_shapes(res, err))
		return false;
	res->pass = res->cells_ok == res->cells_judged &&
		    res->shapes_ok == res->shapes->len;
	return true;
}

static void result_free(struct result *res)
{
	for (unsigned i = 0; res->runs && i < res->runs->len; i++) {
		struct run *run = res->runs->pdata[i];
		run_metrics_clear(&run->m);
		point_free(run->p);
		g_free(run->key);
		g_free(run);
	}
	if (res->runs)
		g_ptr_array_free(res->runs, TRUE);
	g_free(res->mech);
	g_free(res->cells);
	g_free(res->cell_run);
	for (unsigned i = 0; res->shapes && i < res->shapes->len; i++) {
		struct shape_result *sr = res->shapes->pdata[i];
		g_array_free(sr->series, TRUE);
		g_free(sr);
	}
	if (res->shapes)
		g_ptr_array_free(res->shapes, TRUE);
}

/* Stages with any time in any variant, in descending order of the first. */
static GArray *mech_stages(const struct result *res)
{
	GArray *ids = g_array_new(FALSE, FALSE, sizeof(stage_id));
	for (unsigned s = 0; s < stage_count(); s++) {
		bool any = false;
		for (unsigned v = 0; v < res->nvar; v++)
			any |= res->mech[v]->stage_ns[s] > 0;
		if (any) {
			stage_id id = (stage_id)s;
			g_array_append_val(ids, id);
		}
	}
	const struct run_metrics *m0 = res->mech[0];
	for (unsigned i = 1; i < ids->len; i++)
		for (unsigned j = i; j > 0; j--) {
			stage_id *a = &g_array_index(ids, stage_id, j - 1);
			stage_id *b = &g_array_index(ids, stage_id, j);
			if (m0->stage_ns[*a] >= m0->stage_ns[*b])
				break;
			stage_id t = *a;
			*a = *b;
			*b = t;
		}
	return ids;
}

static double per_io(const struct run_metrics *m, double x)
{
	return m->ios ? x / (double)m->ios : 0;
}

static double fig_idle_exits(const struct run_metrics *m)
{
	return per_io(m, (double)m->idle_exits);
}

static double fig_workers(const struct run_metrics *m)
{
	return m->workers;
}

static double fig_worker_cpu(const struct run_metrics *m)
{
	return per_io(m, (double)m->worker_ns);
}

static double fig_pc_misses(const struct run_metrics *m)
{
	return per_io(m, (double)m->pc_misses);
}

static double fig_wa(const struct run_metrics *m)
{
	double wa = 0;
	run_metrics_result(m, "write_amplification", &wa);
	return wa;
}

/* Mechanism figures shown when a run has them. */
static const struct {
	const char *name, *key;
	double (*get)(const struct run_metrics *m);
} extra_figures[] = {
	{"idle-state exits per I/O", "idle_exits_per_io", fig_idle_exits},
	{"io-wq workers", "io_wq_workers", fig_workers},
	{"io-wq worker CPU per I/O", "io_wq_cpu_ns_per_io", fig_worker_cpu},
	{"page-cache misses per I/O", "page_cache_misses_per_io", fig_pc_misses},
	{"device bytes per app byte", "device_bytes_per_app_byte", fig_wa},
};

static bool any_layers(const struct result *res)
{
	for (unsigned v = 0; v < res->nvar; v++)
		if (res->mech[v]->layers.ios)
			return true;
	return false;
}

/* Where the mechanism runs' latency went, from each I/O's start (fio's, or
 * t/io_uring's prep) to its reap. */
static void layers_text(const struct result *res, GString *o)
{
	if (!any_layers(res))
		return;
	g_string_append_printf(o, "\n\nlatency per I/O (us) by layer, the same runs");
	for (int l = 0; l < IOL_NR; l++) {
		g_string_append_printf(o, "\n  %-26s", io_layer_name(l));
		for (unsigned v = 0; v < res->nvar; v++)
			g_string_append_printf(o, " %10.3f",
					       io_layers_mean(&res->mech[v]->layers, l) / 1e3);
	}
	g_string_append_printf(o, "\n  %-26s", "total: the mean latency");
	for (unsigned v = 0; v < res->nvar; v++) {
		double x = 0;
		for (int l = 0; l < IOL_NR; l++)
			x += io_layers_mean(&res->mech[v]->layers, l);
		g_string_append_printf(o, " %10.3f", x / 1e3);
	}
}

/* The values of the experiment's profiles fitted to its own table. */
static GPtrArray *fitted_here(const struct experiment *e)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);

	profile_fitted_to(e->sys.host ? e->sys.host : "default", "host", e->id, out,
			  NULL);
	for (unsigned i = 0; i < e->sys.devices->len; i++) {
		const char *eq = strchr(e->sys.devices->pdata[i], '=');
		if (eq)
			profile_fitted_to(eq + 1, "device", e->id, out, NULL);
	}
	for (unsigned i = 0; i < e->sys.mounts->len; i++) {
		const char *eq = strchr(e->sys.mounts->pdata[i], '=');
		const char *colon = eq ? strchr(eq, ':') : NULL;
		if (colon) {
			g_autofree char *fs = g_strndup(eq + 1, (gsize)(colon - eq - 1));
			profile_fitted_to(fs, "fs", e->id, out, NULL);
		}
	}
	return out;
}

static void print_text(const struct result *res, GString *o)
{
	const struct experiment *e = res->e;

	g_string_append_printf(o, "== %s: %s\n", e->id, e->title);
	g_string_append_printf(o, "source: %s\n", e->source);
	g_string_append_printf(o, "system: host %s", e->sys.host);
	for (unsigned i = 0; i < e->sys.devices->len; i++)
		g_string_append_printf(o, ", --device %s",
				       (char *)e->sys.devices->pdata[i]);
	for (unsigned i = 0; i < e->sys.sets->len; i++)
		g_string_append_printf(o, ", --set %s", (char *)e->sys.sets->pdata[i]);
	for (unsigned i = 0; i < e->sys.mounts->len; i++)
		g_string_append_printf(o, ", --mount %s", (char *)e->sys.mounts->pdata[i]);
	for (unsigned i = 0; i < e->sys.files->len; i++)
		g_string_append_printf(o, ", --file %s", (char *)e->sys.files->pdata[i]);
	for (unsigned i = 0; i < e->sys.kernel->len; i++)
		g_string_append_printf(o, ", --kernel %s", (char *)e->sys.kernel->pdata[i]);
	g_string_append_printf(o, "\nworkload: %s", e->workload_kind);
	if (e->jobfile) {
		g_autofree char *base = g_path_get_basename(e->jobfile);
		g_string_append_printf(o, " %s/%s", e->id, base);
	}
	for (unsigned i = 0; i < e->args->len; i++)
		g_string_append_printf(o, " %s", (char *)e->args->pdata[i]);
	for (unsigned i = 0; i < e->env->len; i++)
		g_string_append_printf(o, " %s", (char *)e->env->pdata[i]);
	g_string_append(o, "\nvariants:");
	for (unsigned v = 0; v < res->nvar; v++) {
		struct experiment_variant *ev = e->variants->pdata[v];
		g_string_append_printf(o, "%s %s =", v ? ";" : "", ev->name);
		for (unsigned k = 0; k < ev->kernel->len; k++)
			g_string_append_printf(o, " %s", (char *)ev->kernel->pdata[k]);
		if (ev->describe)
			g_string_append_printf(o, " (%s)", ev->describe);
	}
	g_string_append_printf(o, "\nmetric: %s; tolerance %.0f%%\n", e->metric_name,
			       e->tolerance * 100);
	g_autoptr(GPtrArray) fitted = fitted_here(e);
	g_string_append_printf(o, "fitted to this table: %u value%s", fitted->len,
			       fitted->len == 1 ? "" : "s");
	for (unsigned i = 0; i < fitted->len; i++)
		g_string_append_printf(o, "%s %s", i ? "," : ":",
				       (char *)fitted->pdata[i]);
	g_string_append(o, "\n\n");

	int w = (int)strlen(e->variable);
	for (unsigned r = 0; r < res->nrows; r++) {
		g_autofree char *lab = experiment_row_label(e,
				json_object_array_get_idx(e->rows, r));
		w = MAX(w, (int)strlen(lab));
	}
	g_string_append_printf(o, "%*s", w, e->variable);
	for (unsigned v = 0; v < res->nvar; v++) {
		struct experiment_variant *ev = e->variants->pdata[v];
		g_autofree char *p = g_strdup_printf("%s pub", ev->name);
		g_autofree char *s = g_strdup_printf("%s sim", ev->name);
		g_string_append_printf(o, " | %10s %10s %7s", p, s, "error");
	}
	g_string_append_c(o, '\n');
	g_autoptr(GString) notes = g_string_new(NULL);
	for (unsigned r = 0; r < res->nrows; r++) {
		json_object *row = json_object_array_get_idx(e->rows, r), *note;
		g_autofree char *lab = experiment_row_label(e, row);
		g_string_append_printf(o, "%*s", w, lab);
		for (unsigned v = 0; v < res->nvar; v++) {
			const struct cell *c = &res->cells[r * res->nvar + v];
			if (!c->present) {
				g_string_append_printf(o, " | %10s %10s %7s", "-", "-", "");
				continue;
			}
			g_autofree char *err = c->absolute ?
				g_strdup_printf("%+7.3f", c->error) :
				g_strdup_printf("%+6.1f%%", c->error * 100);
			g_string_append_printf(o, " | %10.6g %10.4g %s%s", c->published,
					       c->simulated, err, !c->judged ? "*" :
					       c->ok ? "" : "!");
		}
		g_string_append_c(o, '\n');
		if (json_object_object_get_ex(row, "note", &note))
			g_string_append_printf(notes, "note (%s): %s\n", lab,
					       json_object_get_string(note));
	}
	g_string_append(o, notes->str);
	for (unsigned i = 0; i < res->shapes->len; i++) {
		const struct shape_result *sr = res->shapes->pdata[i];
		g_string_append_printf(o, "shape: %s (%s %s): %s [", sr->describe,
				       sr->of, sr->check, sr->holds ? "holds" : "FAILS");
		for (unsigned k = 0; k < sr->series->len; k++)
			g_string_append_printf(o, "%s%.4g", k ? " " : "",
					       g_array_index(sr->series, double, k));
		g_string_append(o, "]\n");
	}

	g_autofree char *mlab = experiment_row_label(e,
			json_object_array_get_idx(e->rows, res->mech_row));
	g_string_append_printf(o, "\nmechanism at %s=%s: CPU time per I/O (ns) by stage\n",
			       e->variable, mlab);
	g_string_append_printf(o, "  %-26s", "stage");
	for (unsigned v = 0; v < res->nvar; v++)
		g_string_append_printf(o, " %10s",
				       ((struct experiment_variant *)e->variants->pdata[v])->name);
	g_string_append_c(o, '\n');
	g_autoptr(GArray) ids = mech_stages(res);
	for (unsigned i = 0; i < ids->len; i++) {
		stage_id s = g_array_index(ids, stage_id, i);
		g_string_append_printf(o, "  %-26s", stage_get(s)->name);
		for (unsigned v = 0; v < res->nvar; v++)
			g_string_append_printf(o, " %10.1f",
					       per_io(res->mech[v], res->mech[v]->stage_ns[s]));
		g_string_append_c(o, '\n');
	}
	static const char *const rows[] = {"total CPU per I/O", "  user", "  system",
					    "  hard IRQ", "  soft IRQ"};
	for (int k = 0; k < 5; k++) {
		g_string_append_printf(o, "  %-26s", rows[k]);
		for (unsigned v = 0; v < res->nvar; v++) {
			const struct run_metrics *m = res->mech[v];
			double x = 0;
			if (k == 0)
				for (int c = 0; c < CPU_CLASS_NR; c++)
					x += m->class_ns[c];
			else
				x = m->class_ns[k - 1];
			g_string_append_printf(o, " %10.1f", per_io(m, x));
		}
		g_string_append_c(o, '\n');
	}
	g_string_append_printf(o, "  %-26s", "context switches per I/O");
	for (unsigned v = 0; v < res->nvar; v++)
		g_string_append_printf(o, " %10.3f",
				       per_io(res->mech[v], res->mech[v]->ctx_switches));
	g_string_append_printf(o, "\n  %-26s", "busiest CPU utilisation");
	for (unsigned v = 0; v < res->nvar; v++)
		g_string_append_printf(o, " %9.1f%%", res->mech[v]->busiest_cpu_util * 100);
	g_string_append_printf(o, "\n  %-26s", "CPUs in use (>1% busy)");
	for (unsigned v = 0; v < res->nvar; v++)
		g_string_append_printf(o, " %10u", res->mech[v]->busy_cpus);
	for (unsigned k = 0; k < G_N_ELEMENTS(extra_figures); k++) {
		bool any = false;
		for (unsigned v = 0; v < res->nvar; v++)
			any |= extra_figures[k].get(res->mech[v]) != 0;
		if (!any)
			continue;
		g_string_append_printf(o, "\n  %-26s", extra_figures[k].name);
		for (unsigned v = 0; v < res->nvar; v++)
			g_string_append_printf(o, " %10.3f", extra_figures[k].get(res->mech[v]));
	}
	layers_text(res, o);
	g_string_append_printf(o, "\n\nresult: %s: %u of %u cells within "
			       "tolerance, %u of %u shapes hold\n\n",
			       res->pass ? "PASS" : "FAIL", res->cells_ok,
			       res->cells_judged, res->shapes_ok, res->shapes->len);
}

static json_object *jnum(double x)
{
	return json_object_new_double(round(x * 1e6) / 1e6);
}

static json_object *to_json(const struct result *res)
{
	const struct experiment *e = res->e;
	json_object *o = json_object_new_object();
	json_object *rows = json_object_new_array();
	json_object *variants = json_object_new_object();

	json_object_object_add(o, "id", json_object_new_string(e->id));
	json_object_object_add(o, "title", json_object_new_string(e->title));
	json_object_object_add(o, "source", json_object_new_string(e->source));
	g_autoptr(GPtrArray) fitted = fitted_here(e);
	json_object *jf = json_object_new_array();
	for (unsigned i = 0; i < fitted->len; i++)
		json_object_array_add(jf, json_object_new_string(fitted->pdata[i]));
	json_object_object_add(o, "fitted_to_this_table", jf);
	json_object_object_add(o, "unit", json_object_new_string(e->metric_name));
	json_object_object_add(o, "variable", json_object_new_string(e->variable));
	json_object_object_add(o, "tolerance", jnum(e->tolerance));
	for (unsigned v = 0; v < res->nvar; v++) {
		struct experiment_variant *ev = e->variants->pdata[v];
		json_object *jv = json_object_new_object();
		json_object *k = json_object_new_array();
		for (unsigned i = 0; i < ev->kernel->len; i++)
			json_object_array_add(k, json_object_new_string(ev->kernel->pdata[i]));
		json_object_object_add(jv, "kernel", k);
		if (ev->describe)
			json_object_object_add(jv, "describe",
					       json_object_new_string(ev->describe));
		json_object_object_add(variants, ev->name, jv);
	}
	json_object_object_add(o, "variants", variants);
	for (unsigned r = 0; r < res->nrows; r++) {
		json_object *row = json_object_array_get_idx(e->rows, r), *val;
		json_object *jr = json_object_new_object();
		json_object_object_get_ex(row, e->variable, &val);
		json_object_object_add(jr, e->variable, json_object_get(val));
		for (unsigned v = 0; v < res->nvar; v++) {
			const struct cell *c = &res->cells[r * res->nvar + v];
			if (!c->present)
				continue;
			json_object *jc = json_object_new_object();
			json_object_object_add(jc, "published", jnum(c->published));
			json_object_object_add(jc, "simulated", jnum(c->simulated));
			json_object_object_add(jc, c->absolute ? "difference" : "error",
					       jnum(c->error));
			json_object_object_add(jc, "tolerance", jnum(c->tolerance));
			json_object_object_add(jc, "judged", json_object_new_boolean(c->judged));
			json_object_object_add(jc, "ok", json_object_new_boolean(c->ok));
			json_object_object_add(jr,
				((struct experiment_variant *)e->variants->pdata[v])->name, jc);
		}
		json_object_array_add(rows, jr);
	}
	json_object_object_add(o, "rows", rows);

	json_object *shapes = json_object_new_array();
	for (unsigned i = 0; i < res->shapes->len; i++) {
		const struct shape_result *sr = res->shapes->pdata[i];
		json_object *js = json_object_new_object(), *ser = json_object_new_array();
		json_object_object_add(js, "check", json_object_new_string(sr->check));
		json_object_object_add(js, "of", json_object_new_string(sr->of));
		json_object_object_add(js, "describe", json_object_new_string(sr->describe));
		json_object_object_add(js, "holds", json_object_new_boolean(sr->holds));
		for (unsigned k = 0; k < sr->series->len; k++)
			json_object_array_add(ser, jnum(g_array_index(sr->series, double, k)));
		json_object_object_add(js, "series", ser);
		json_object_array_add(shapes, js);
	}
	json_object_object_add(o, "shapes", shapes);

	json_object *mech = json_object_new_object(), *mv = json_object_new_object();
	json_object *mrow, *mval;
	mrow = json_object_new_object();
	json_object_object_get_ex(json_object_array_get_idx(e->rows, res->mech_row),
				  e->variable, &mval);
	json_object_object_add(mrow, e->variable, json_object_get(mval));
	json_object_object_add(mech, "row", mrow);
	g_autoptr(GArray) ids = mech_stages(res);
	for (unsigned v = 0; v < res->nvar; v++) {
		const struct run_metrics *m = res->mech[v];
		json_object *jm = json_object_new_object(), *st = json_object_new_object();
		for (unsigned i = 0; i < ids->len; i++) {
			stage_id s = g_array_index(ids, stage_id, i);
			json_object_object_add(st, stage_get(s)->name,
					       jnum(per_io(m, m->stage_ns[s])));
		}
		json_object_object_add(jm, "cpu_ns_per_io_by_stage", st);
		for (int c = 0; c < CPU_CLASS_NR; c++) {
			g_autofree char *k = g_strdup_printf("%s_ns_per_io",
							     cpu_class_name(c));
			json_object_object_add(jm, k, jnum(per_io(m, m->class_ns[c])));
		}
		json_object_object_add(jm, "ctx_switches_per_io",
				       jnum(per_io(m, m->ctx_switches)));
		json_object_object_add(jm, "busiest_cpu_utilisation",
				       jnum(m->busiest_cpu_util));
		json_object_object_add(jm, "cpus_in_use", json_object_new_int(m->busy_cpus));
		for (unsigned k = 0; k < G_N_ELEMENTS(extra_figures); k++)
			json_object_object_add(jm, extra_figures[k].key,
					       jnum(extra_figures[k].get(m)));
		if (m->layers.ios) {
			json_object *jl = json_object_new_object();
			for (int l = 0; l < IOL_NR; l++)
				json_object_object_add(jl, io_layer_name(l),
						       jnum(io_layers_mean(&m->layers, l)));
			json_object_object_add(jm, "latency_ns_per_io_by_layer", jl);
		}
		json_object_object_add(mv,
			((struct experiment_variant *)e->variants->pdata[v])->name, jm);
	}
	json_object_object_add(mech, "variants", mv);
	json_object_object_add(o, "mechanism", mech);
	json_object_object_add(o, "pass", json_object_new_boolean(res->pass));
	return o;
}

int cmd_reproduce(int argc, char **argv)
{
	g_autofree char *format = NULL;
	g_autofree char *output = NULL;
	g_autofree char *eta = NULL;
	g_autofree char *results = NULL, *report = NULL;
	gint runtime = 0, jobs = (gint)runner_default_jobs(), point = -1;
	gboolean list = FALSE, force = FALSE;
	g_autoptr(GError) err = NULL;
	const GOptionEntry entries[] = {
		{"output-format", 0, 0, G_OPTION_ARG_STRING, &format,
		 "normal (default) or json", "FORMAT"},
		{"output", 0, 0, G_OPTION_ARG_FILENAME, &output,
		 "Write the report to FILE (whole or not at all)", "FILE"},
		{"runtime", 0, 0, G_OPTION_ARG_INT, &runtime,
		 "Simulated seconds per run, instead of the experiment's", "S"},
		{"list", 0, 0, G_OPTION_ARG_NONE, &list, "List the experiments", NULL},
		{"eta", 0, 0, G_OPTION_ARG_STRING, &eta, PROGRESS_ETA_HELP, "WHEN"},
		{"jobs", 'j', 0, G_OPTION_ARG_INT, &jobs, RUNNER_JOBS_HELP, "N"},
		{"results", 0, 0, G_OPTION_ARG_FILENAME, &results,
		 "Keep each run's result in DIR/ID (a result store); the same "
		 "command run again resumes", "DIR"},
		{"force", 0, 0, G_OPTION_ARG_NONE, &force,
		 "Run every point again, even those the result store holds", NULL},
		{"report", 0, 0, G_OPTION_ARG_FILENAME, &report,
		 "Write a report into DIR: published beside simulated values, "
		 "plotted (Markdown, HTML, CSV, SVG, PNG)", "DIR"},
		{"point", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_INT, &point,
		 "Run only point N of the one experiment into the result store "
		 "--results names (a worker)", "N"},
		{NULL},
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("[ID...|all]");

	g_option_context_set_summary(ctx,
		"Reproduce published tables: run every row and variant of an\n"
		"experiment (traces/ID/experiment.json), print published and\n"
		"simulated values with the relative error, check the table's\n"
		"shape and show the mechanism. Exit status 1 when a cell is\n"
		"outside the tolerance or a shape does not hold.");
	g_option_context_add_main_entries(ctx, entries, NULL);
	g_auto(GStrv) args = runner_split_jobs(&argc, argv);
	g_autofree char **pargs = g_memdup2(args, sizeof(char *) * ((gsize)argc + 1));
	argv = pargs;
	if (!cli_parse(ctx, &argc, &argv, &err)) {
		fprintf(stderr, "storsim reproduce: %s\n", err->message);
		return 1;
	}
	if (jobs < 1) {
		fprintf(stderr, "storsim reproduce: command line: option '-j': must be "
			"1 or more\n");
		return 1;
	}
	bool json = false;
	if (format && strcmp(format, "json") == 0)
		json = true;
	else if (format && strcmp(format, "normal") != 0) {
		fprintf(stderr, "storsim reproduce: command line: option "
			"'--output-format': '%s' is not normal or json\n", format);
		return 1;
	}
	if (runtime < 0) {
		fprintf(stderr, "storsim reproduce: command line: option '--runtime': "
			"must be positive\n");
		return 1;
	}
	enum progress_when when = PROGRESS_AUTO;
	if (eta && !progress_when_parse(eta, &when, &err)) {
		fprintf(stderr, "storsim reproduce: %s\n", err->message);
		return 1;
	}
	g_autoptr(GPtrArray) ids = experiment_list();
	if (list) {
		for (unsigned i = 0; i < ids->len; i++) {
			struct experiment *e = experiment_load(ids->pdata[i], NULL);
			printf("%-24s %s\n", (char *)ids->pdata[i], e ? e->title : "(unreadable)");
			experiment_free(e);
		}
		return 0;
	}
	g_autoptr(GPtrArray) want = g_ptr_array_new_with_free_func(g_free);
	if (argc < 2 || (argc == 2 && strcmp(argv[1], "all") == 0)) {
		for (unsigned i = 0; i < ids->len; i++)
			g_ptr_array_add(want, g_strdup(ids->pdata[i]));
	} else {
		for (int i = 1; i < argc; i++)
			g_ptr_array_add(want, g_strdup(argv[i]));
	}

	g_autoptr(GString) text = g_string_new(NULL);
	json_object *doc = json_object_new_object(), *arr = json_object_new_array();
	bool all_pass = true, failed = false;
	if (point >= 0 && want->len != 1) {
		fprintf(stderr, "storsim reproduce: command line: option '--point': "
			"give one experiment\n");
		return 1;
	}
	/* A report is made from the stores: without --results, temporary ones. */
	bool temporary = report && !results && point < 0;
	if (temporary && !(results = g_dir_make_tmp("storsim-reproduce-XXXXXX", &err))) {
		fprintf(stderr, "storsim reproduce: %s\n", err->message);
		return 1;
	}
	for (unsigned i = 0; i < want->len && !failed; i++) {
		struct result res = {0};
		bool worker = false;
		res.e = experiment_load(want->pdata[i], &err);
		if (res.e && runtime && !res.e->runtime)
			fprintf(stderr, "storsim reproduce: %s runs a fixed amount of "
				"I/O; --runtime does not apply to it\n", res.e->id);
		struct run_opts o = {
			.runtime = res.e && runtime && res.e->runtime ? (unsigned)runtime :
				   res.e ? res.e->runtime : 0,
			.jobs = (unsigned)jobs, .force = force, .results = results,
			.point = point, .when = when,
		};
		if (res.e && !reproduce(&res, &o, &worker, &err) && worker) {
			/* A worker's point is in the store; it prints nothing. */
			int rc = err ? 1 : 0;
			if (err)
				fprintf(stderr, "storsim reproduce: %s\n", err->message);
			result_free(&res);
			experiment_free(res.e);
			json_object_put(doc);
			return rc;
		}
		if (!res.e || err) {
			fprintf(stderr, "storsim reproduce: %s\n", err->message);
			failed = true;
		} else {
			print_text(&res, text);
			json_object *rj = to_json(&res);
			json_object_array_add(arr, rj);
			all_pass &= res.pass;
			/* What storsim report draws the published values from. */
			g_autofree char *rpath = results ?
				g_build_filename(results, res.e->id, "reproduce.json", NULL) : NULL;
			if (rpath && json_object_to_file_ext(rpath, rj, JSON_C_TO_STRING_PRETTY |
							     JSON_C_TO_STRING_SPACED) != 0) {
				fprintf(stderr, "storsim reproduce: %s: cannot write it\n", rpath);
				failed = true;
			}
		}
		result_free(&res);
		experiment_free(res.e);
	}
	json_object_object_add(doc, "experiments", arr);
	json_object_object_add(doc, "pass", json_object_new_boolean(all_pass && !failed));
	if (!failed) {
		const char *out = json ? json_object_to_json_string_ext(doc,
				JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
				JSON_C_TO_STRING_NOSLASHESCAPE) : text->str;
		if (output) {
			g_autofree char *with_nl = g_strconcat(out, json ? "\n" : "", NULL);
			if (!output_write_file(output, with_nl, &err)) {
				fprintf(stderr, "storsim reproduce: %s\n", err->message);
				failed = true;
			}
		} else {
			fputs(out, stdout);
			if (json)
				fputc('\n', stdout);
		}
	}
	if (!failed && report) {
		char *dirs[] = {results, NULL};
		if (results_report_write(dirs, report, &err))
			fprintf(stderr, "storsim reproduce: report in %s/report.html and "
				"report.md\n", report);
		else {
			fprintf(stderr, "storsim reproduce: %s\n", err->message);
			failed = true;
		}
	}
	if (temporary)
		store_delete(results);
	json_object_put(doc);
	return failed || !all_pass ? 1 : 0;
}
