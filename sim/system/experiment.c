/* Reading experiment descriptions. */
#include <string.h>

#include "experiment.h"
#include "engine/util.h"
#include "workload.h"

GPtrArray *experiment_traces_dirs(void)
{
	GPtrArray *dirs = g_ptr_array_new_with_free_func(g_free);
	const char *env = g_getenv("STORSIM_TRACES_PATH");

	if (env && *env)
		g_ptr_array_add(dirs, g_strdup(env));
	g_ptr_array_add(dirs, g_build_filename(STORSIM_SRCDIR, "traces", NULL));
	g_ptr_array_add(dirs, g_build_filename(STORSIM_DATADIR, "traces", NULL));
	return dirs;
}

GPtrArray *experiment_list(void)
{
	GPtrArray *ids = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) dirs = experiment_traces_dirs();

	for (unsigned i = 0; i < dirs->len; i++) {
		g_autoptr(GDir) d = g_dir_open(dirs->pdata[i], 0, NULL);
		const char *e;
		while (d && (e = g_dir_read_name(d))) {
			g_autofree char *f = g_build_filename(dirs->pdata[i], e,
							      "experiment.json", NULL);
			bool dup = false;
			for (unsigned j = 0; j < ids->len; j++)
				dup |= strcmp(ids->pdata[j], e) == 0;
			if (!dup && g_file_test(f, G_FILE_TEST_IS_REGULAR))
				g_ptr_array_add(ids, g_strdup(e));
		}
		if (ids->len)
			break;	/* the first directory with experiments wins */
	}
	g_ptr_array_sort(ids, storsim_strptr_cmp);
	return ids;
}

static char *find(const char *id_or_path)
{
	if (strchr(id_or_path, '/') || g_str_has_suffix(id_or_path, ".json"))
		return g_strdup(id_or_path);
	g_autoptr(GPtrArray) dirs = experiment_traces_dirs();
	for (unsigned i = 0; i < dirs->len; i++) {
		char *f = g_build_filename(dirs->pdata[i], id_or_path,
					   "experiment.json", NULL);
		if (g_file_test(f, G_FILE_TEST_IS_REGULAR))
			return f;
		g_free(f);
	}
	return NULL;
}

struct loader {
	struct experiment *e;
	GError **err;
};

static bool fail(struct loader *l, const char *key, const char *fmt, ...)
	G_GNUC_PRINTF(3, 4);

static bool fail(struct loader *l, const char *key, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	g_autofree char *msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	storsim_input_error(l->err, l->e->path,
			    key ? storsim_json_key_line(l->e->text, key) : 0, key,
			    "%s", msg);
	return false;
}

static json_object *get(json_object *o, const char *key, json_type type)
{
	json_object *v;
	if (!o || !json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, type))
		return NULL;
	return v;
}

static const char *get_str(json_object *o, const char *key)
{
	json_object *v = get(o, key, json_type_string);
	return v ? json_object_get_string(v) : NULL;
}

static bool strings(struct loader *l, json_object *o, const char *key,
		    GPtrArray *out)
{
	json_object *a;
	if (!json_object_object_get_ex(o, key, &a))
		return true;
	if (!json_object_is_type(a, json_type_array))
		return fail(l, key, "must be an array of strings");
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		json_object *s = json_object_array_get_idx(a, i);
		if (!json_object_is_type(s, json_type_string))
			return fail(l, key, "must be an array of strings");
		g_ptr_array_add(out, g_strdup(json_object_get_string(s)));
	}
	return true;
}

/* A "sets" or "kernel" entry names something that exists, so that a typo
 * is reported at its line of the experiment, not as a command-line error
 * of some run. */
static bool check_setting(struct loader *l, const char *key, const char *entry,
			  bool kernel)
{
	g_autofree char *why = system_setting_problem(&l->e->sys, entry, kernel);

	return why ? fail(l, key, "%s", why) : true;
}

static bool check_settings(struct loader *l, const char *key, GPtrArray *a,
			   bool kernel)
{
	for (unsigned i = 0; i < a->len; i++)
		if (!check_setting(l, key, a->pdata[i], kernel))
			return false;
	return true;
}

static bool parse(struct loader *l)
{
	struct experiment *e = l->e;
	json_object *o = e->root, *sys, *wl, *vars, *metric, *tol;

	e->id = get_str(o, "id");
	e->title = get_str(o, "title");
	e->source = get_str(o, "source");
	e->description = get_str(o, "description");
	if (!e->id || !e->title || !e->source)
		return fail(l, NULL, "needs \"id\", \"title\" and \"source\"");
	if (!(sys = get(o, "system", json_type_object)))
		return fail(l, "system", "needs a \"system\" object");
	e->sys.host = g_strdup(get_str(sys, "host"));
	if (!e->sys.host)
		return fail(l, "system", "needs a \"host\" profile");
	if (!strings(l, sys, "devices", e->sys.devices) ||
	    !strings(l, sys, "mounts", e->sys.mounts) ||
	    !strings(l, sys, "files", e->sys.files) ||
	    !strings(l, sys, "sets", e->sys.sets) ||
	    !strings(l, sys, "kernel", e->sys.kernel) ||
	    !check_settings(l, "sets", e->sys.sets, false) ||
	    !check_settings(l, "kernel", e->sys.kernel, true))
		return false;

	if (!(wl = get(o, "workload", json_type_object)))
		return fail(l, "workload", "needs a \"workload\" object");
	e->workload_kind = get_str(wl, "kind");
	if (!e->workload_kind || (strcmp(e->workload_kind, "uring-bench") &&
				  strcmp(e->workload_kind, "fio")))
		return fail(l, "kind", "workload kind must be uring-bench or fio");
	if (!strings(l, wl, "args", e->args) || !strings(l, wl, "env", e->env))
		return false;
	if (strcmp(e->workload_kind, "fio") == 0) {
		const char *jf = get_str(wl, "jobfile");
		if (!jf)
			return fail(l, "workload", "a fio workload needs a \"jobfile\"");
		e->jobfile = g_build_filename(e->dir, jf, NULL);
		if (!g_file_test(e->jobfile, G_FILE_TEST_IS_REGULAR))
			return fail(l, "jobfile", "no job file %s", e->jobfile);
	}
	json_object *rt = get(wl, "runtime", json_type_int);
	e->runtime = rt ? (unsigned)json_object_get_int(rt) : 0;
	if (rt && json_object_get_int(rt) <= 0)
		return fail(l, "runtime", "a workload's runtime is a positive number "
			    "of seconds (leave it out for a fixed-size workload)");

	e->variable = get_str(o, "variable");
	if (!e->variable)
		return fail(l, "variable", "needs the name of the row variable");
	if (!(vars = get(o, "variants", json_type_object)))
		return fail(l, "variants", "needs a \"variants\" object");
	json_object_object_foreach(vars, name, vo) {
		struct experiment_variant *v = g_new0(struct experiment_variant, 1);
		v->name = name;
		v->kernel = g_ptr_array_new_with_free_func(g_free);
		v->sets = g_ptr_array_new_with_free_func(g_free);
		v->env = g_ptr_array_new_with_free_func(g_free);
		g_ptr_array_add(e->variants, v);
		if (!json_object_is_type(vo, json_type_object))
			return fail(l, name, "a variant is an object");
		v->describe = get_str(vo, "describe");
		if (!strings(l, vo, "kernel", v->kernel) ||
		    !strings(l, vo, "sets", v->sets) ||
		    !strings(l, vo, "env", v->env) ||
		    !check_settings(l, "sets", v->sets, false) ||
		    !check_settings(l, "kernel", v->kernel, true))
			return false;
	}
	if (e->variants->len == 0)
		return fail(l, "variants", "needs at least one variant");

	if (!(metric = get(o, "metric", json_type_object)))
		return fail(l, "metric", "needs a \"metric\" object");
	e->metric_name = get_str(metric, "name");
	e->metric_result = get_str(metric, "result");
	if (!e->metric_name)
		return fail(l, "metric", "needs a \"name\"");
	if (e->metric_result && !run_metrics_result(NULL, e->metric_result, NULL))
		return fail(l, "result", "'%s' is not one of %s", e->metric_result,
			    run_metrics_result_names());
	json_object *sc = get(metric, "scale", json_type_double);
	if (!sc)
		sc = get(metric, "scale", json_type_int);
	e->scale = sc ? json_object_get_double(sc) : 1.0;

	tol = get(o, "tolerance", json_type_double);
	if (!tol || json_object_get_double(tol) <= 0)
		return fail(l, "tolerance", "needs a positive relative tolerance");
	e->tolerance = json_object_get_double(tol);

	if (!(e->rows = get(o, "rows", json_type_array)) ||
	    json_object_array_length(e->rows) == 0)
		return fail(l, "rows", "needs the published rows");
	for (size_t i = 0; i < json_object_array_length(e->rows); i++) {
		json_object *row = json_object_array_get_idx(e->rows, i);
		const char *res = get_str(row, "result");
		unsigned numbers = 0;
		if (!json_object_object_get_ex(row, e->variable, NULL))
			return fail(l, "rows", "row %zu has no \"%s\"", i + 1, e->variable);
		if (!res && !e->metric_result)
			return fail(l, "rows", "row %zu has no \"result\" and the "
				    "metric gives none", i + 1);
		if (res && !run_metrics_result(NULL, res, NULL))
			return fail(l, "result", "row %zu: '%s' is not one of %s",
				    i + 1, res, run_metrics_result_names());
		for (unsigned v = 0; v < e->variants->len; v++) {
			struct experiment_variant *ev = e->variants->pdata[v];
			json_object *pub;
			if (!json_object_object_get_ex(row, ev->name, &pub))
				continue;
			if (!(json_object_is_type(pub, json_type_int) ||
			      json_object_is_type(pub, json_type_double)))
				return fail(l, "rows", "row %zu: \"%s\" is not a "
					    "number", i + 1, ev->name);
			numbers++;
		}
		if (!numbers)
			return fail(l, "rows", "row %zu has no published number",
				    i + 1);
	}
	e->shapes = get(o, "shapes", json_type_array);
	e->mechanism_row = get(o, "mechanism_row", json_type_object);
	return true;
}

static void variant_free(struct experiment_variant *v)
{
	g_ptr_array_free(v->kernel, TRUE);
	g_ptr_array_free(v->sets, TRUE);
	g_ptr_array_free(v->env, TRUE);
	g_free(v);
}

struct experiment *experiment_load(const char *id_or_path, GError **err)
{
	g_autofree char *path = find(id_or_path);
	struct experiment *e;
	json_tokener *tok;

	if (!path) {
		g_autoptr(GPtrArray) ids = experiment_list();
		g_autoptr(GString) known = g_string_new(NULL);
		for (unsigned i = 0; i < ids->len; i++)
			g_string_append_printf(known, "%s%s", i ? ", " : "",
					       (char *)ids->pdata[i]);
		storsim_input_error(err, "command line", 0, NULL,
				    "no experiment '%s' (known: %s)", id_or_path,
				    known->str);
		return NULL;
	}
	e = g_new0(struct experiment, 1);
	system_config_init(&e->sys);
	e->args = g_ptr_array_new_with_free_func(g_free);
	e->env = g_ptr_array_new_with_free_func(g_free);
	e->variants = g_ptr_array_new_with_free_func((GDestroyNotify)variant_free);
	e->path = g_steal_pointer(&path);
	e->dir = g_path_get_dirname(e->path);
	if (!g_file_get_contents(e->path, &e->text, NULL, err)) {
		experiment_free(e);
		return NULL;
	}
	tok = json_tokener_new();
	e->root = json_tokener_parse_ex(tok, e->text, (int)strlen(e->text) + 1);
	if (json_tokener_get_error(tok) != json_tokener_success ||
	    !json_object_is_type(e->root, json_type_object)) {
		size_t off = json_tokener_get_parse_end(tok);
		int line = 1;
		for (size_t i = 0; i < off && e->text[i]; i++)
			line += e->text[i] == '\n';
		storsim_input_error(err, e->path, line, NULL, "invalid JSON: %s",
				    json_tokener_error_desc(json_tokener_get_error(tok)));
		json_tokener_free(tok);
		experiment_free(e);
		return NULL;
	}
	json_tokener_free(tok);
	struct loader l = {.e = e, .err = err};
	if (!parse(&l)) {
		experiment_free(e);
		return NULL;
	}
	return e;
}

void experiment_free(struct experiment *e)
{
	if (!e)
		return;
	system_config_clear(&e->sys);
	g_ptr_array_free(e->args, TRUE);
	g_ptr_array_free(e->env, TRUE);
	g_free(e->jobfile);
	g_ptr_array_free(e->variants, TRUE);
	if (e->root)
		json_object_put(e->root);
	g_free(e->text);
	g_free(e->dir);
	g_free(e->path);
	g_free(e);
}

static char *value_text(json_object *v)
{
	if (json_object_is_type(v, json_type_string))
		return g_strdup(json_object_get_string(v));
	return g_strdup(json_object_to_json_string(v));
}

char *experiment_row_label(const struct experiment *e, json_object *row)
{
	json_object *v;
	json_object_object_get_ex(row, e->variable, &v);
	return value_text(v);
}

static GPtrArray *substitute(const struct experiment *e, GPtrArray *in,
			     const char *key, json_object *row, unsigned runtime,
			     GError **err)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);

	for (unsigned i = 0; i < in->len; i++) {
		const char *a = in->pdata[i];
		GString *s = g_string_new(NULL);
		while (*a) {
			const char *open = strstr(a, "${");
			const char *close = open ? strchr(open, '}') : NULL;
			if (!open || !close) {
				g_string_append(s, a);
				break;
			}
			g_string_append_len(s, a, open - a);
			g_autofree char *var = g_strndup(open + 2, close - open - 2);
			json_object *v;
			if (strcmp(var, "runtime") == 0) {
				g_string_append_printf(s, "%u", runtime);
			} else if (json_object_object_get_ex(row, var, &v)) {
				g_autofree char *t = value_text(v);
				g_string_append(s, t);
			} else {
				storsim_input_error(err, e->path,
						    storsim_json_key_line(e->text, key),
						    key, "${%s} is not a column of the "
						    "rows", var);
				g_string_free(s, TRUE);
				g_ptr_array_free(out, TRUE);
				return NULL;
			}
			a = close + 1;
		}
		g_ptr_array_add(out, g_string_free(s, FALSE));
	}
	return out;
}

GPtrArray *experiment_args(const struct experiment *e, json_object *row,
			   unsigned runtime, GError **err)
{
	return substitute(e, e->args, "args", row, runtime, err);
}

GPtrArray *experiment_env(const struct experiment *e, json_object *row,
			  unsigned runtime, GError **err)
{
	return substitute(e, e->env, "env", row, runtime, err);
}
