/*
 * A point of a sweep and its document (point.h).
 *
 * Every table of sweep, compare and reproduce is made from the points'
 * documents, never from a run held in memory: a point run in this
 * process, in a worker process, in a Slurm task or by an earlier,
 * interrupted sweep gives the same document, so the same table. For that
 * the metrics are written exactly (json-c writes a double with 17
 * significant digits, which reads back to the same double) and the stages
 * by name, in the order this process registered them, so that a reader
 * that registers the ones it has not seen in that order numbers them as
 * the run did.
 */
#include <stddef.h>
#include <string.h>

#include "engine/util.h"
#include "point.h"

struct point *point_new(unsigned index, const struct system_config *cfg,
			const char *kind)
{
	struct point *p = g_new0(struct point, 1);

	p->index = index;
	p->keys = g_ptr_array_new_with_free_func(g_free);
	p->values = g_ptr_array_new_with_free_func(g_free);
	p->env = g_ptr_array_new_with_free_func(g_free);
	p->fio_opts = g_ptr_array_new_with_free_func(g_free);
	p->args = g_ptr_array_new_with_free_func(g_free);
	system_config_init(&p->cfg);
	system_config_copy(&p->cfg, cfg);
	p->kind = kind;
	p->name = g_strdup_printf("%04u", index + 1);
	return p;
}

void point_free(struct point *p)
{
	if (!p)
		return;
	g_free(p->name);
	g_ptr_array_free(p->keys, TRUE);
	g_ptr_array_free(p->values, TRUE);
	g_ptr_array_free(p->env, TRUE);
	g_ptr_array_free(p->fio_opts, TRUE);
	g_ptr_array_free(p->args, TRUE);
	g_free(p->jobfile);
	system_config_clear(&p->cfg);
	g_free(p);
}

/* A file name keeps letters, digits and ".-_=,"; anything else is '_'. */
void point_add_value(struct point *p, const char *key, const char *value)
{
	g_autoptr(GString) name = g_string_new(p->name);

	g_ptr_array_add(p->keys, g_strdup(key));
	g_ptr_array_add(p->values, g_strdup(value));
	g_string_append_printf(name, "-%s=%s", key, value);
	for (gsize i = 0; i < name->len; i++)
		if (!g_ascii_isalnum(name->str[i]) && !strchr(".-_=,", name->str[i]))
			name->str[i] = '_';
	/* Keep the name short enough for any file system. */
	if (name->len > 200)
		g_string_truncate(name, 200);
	g_free(p->name);
	p->name = g_string_free(g_steal_pointer(&name), FALSE);
}

char *point_label(const struct point *p)
{
	GString *s = g_string_new(NULL);

	for (unsigned i = 0; i < p->keys->len; i++)
		g_string_append_printf(s, "%s%s=%s", i ? " " : "",
				       (char *)p->keys->pdata[i],
				       (char *)p->values->pdata[i]);
	return g_string_free(s, FALSE);
}

static json_object *strings(const GPtrArray *a)
{
	json_object *o = json_object_new_array();

	for (unsigned i = 0; a && i < a->len; i++)
		json_object_array_add(o, json_object_new_string(a->pdata[i]));
	return o;
}

static void add_string(json_object *o, const char *key, const char *s)
{
	if (s)
		json_object_object_add(o, key, json_object_new_string(s));
}

json_object *point_definition(const struct point *p, GError **err)
{
	json_object *o = json_object_new_object(), *vars = json_object_new_object();
	json_object *sys = json_object_new_object();
	const struct system_config *c = &p->cfg;

	json_object_object_add(o, "index", json_object_new_int((int)p->index));
	for (unsigned i = 0; i < p->keys->len; i++)
		json_object_object_add(vars, p->keys->pdata[i],
				       json_object_new_string(p->values->pdata[i]));
	json_object_object_add(o, "variables", vars);
	add_string(sys, "host", c->host);
	json_object_object_add(sys, "devices", strings(c->devices));
	json_object_object_add(sys, "mounts", strings(c->mounts));
	json_object_object_add(sys, "files", strings(c->files));
	json_object_object_add(sys, "sets", strings(c->sets));
	json_object_object_add(sys, "kernel", strings(c->kernel));
	add_string(sys, "power_loss", c->power_loss);
	json_object_object_add(sys, "seed", json_object_new_uint64(c->seed));
	add_string(sys, "timeline", c->timeline);
	add_string(sys, "timeline_window", c->timeline_window);
	json_object_object_add(o, "system", sys);
	json_object_object_add(o, "kind", json_object_new_string(p->kind));
	if (p->jobfile) {
		g_autofree char *text = NULL;
		gsize len;
		g_autoptr(GError) local = NULL;
		if (!g_file_get_contents(p->jobfile, &text, &len, &local)) {
			g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_IO, "%s",
				    local->message);
			json_object_put(o);
			return NULL;
		}
		g_autofree char *sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256,
								  (const guchar *)text, len);
		json_object_object_add(o, "jobfile", json_object_new_string(p->jobfile));
		json_object_object_add(o, "jobfile_sha256", json_object_new_string(sum));
		json_object_object_add(o, "env", strings(p->env));
		json_object_object_add(o, "fio_options", strings(p->fio_opts));
	} else {
		json_object_object_add(o, "args", strings(p->args));
	}
	json_object_object_add(o, "trace_layers",
			       json_object_new_boolean(p->trace_layers));
	return o;
}

/* ---- metrics ---- */

enum field_type { F_U64, F_UINT, F_DOUBLE, F_BOOL };

#define FIELD(name, type) {#name, offsetof(struct run_metrics, name), type}
static const struct {
	const char *name;
	size_t off;
	enum field_type type;
} fields[] = {
	FIELD(iops, F_DOUBLE),
	FIELD(bw_bytes, F_DOUBLE),
	FIELD(ios, F_U64),
	FIELD(elapsed, F_U64),
	FIELD(app_elapsed, F_U64),
	FIELD(app_usr_ns, F_U64),
	FIELD(app_sys_ns, F_U64),
	FIELD(app_bytes, F_U64),
	FIELD(workers, F_UINT),
	FIELD(worker_ns, F_U64),
	{"dev_read_bytes", offsetof(struct run_metrics, dev_bytes[0]), F_U64},
	{"dev_write_bytes", offsetof(struct run_metrics, dev_bytes[1]), F_U64},
	FIELD(pc_hits, F_U64),
	FIELD(pc_misses, F_U64),
	FIELD(clat_mean_ns, F_DOUBLE),
	FIELD(clat_p50_ns, F_U64),
	FIELD(clat_p99_ns, F_U64),
	FIELD(clat_p999_ns, F_U64),
	FIELD(idle_exits, F_U64),
	FIELD(ncpus, F_UINT),
	FIELD(busiest_cpu_util, F_DOUBLE),
	FIELD(busy_cpus, F_UINT),
	FIELD(ctx_switches, F_U64),
	FIELD(power_lost, F_BOOL),
	FIELD(durability_violations, F_U64),
};
#undef FIELD

json_object *run_metrics_to_json(const struct run_metrics *m)
{
	json_object *o = json_object_new_object();
	const char *base = (const char *)m;

	for (unsigned i = 0; i < G_N_ELEMENTS(fields); i++) {
		const void *at = base + fields[i].off;
		json_object *v = NULL;
		switch (fields[i].type) {
		case F_U64:
			v = json_object_new_uint64(*(const uint64_t *)at);
			break;
		case F_UINT:
			v = json_object_new_uint64(*(const unsigned *)at);
			break;
		case F_DOUBLE:
			v = json_object_new_double(*(const double *)at);
			break;
		case F_BOOL:
			v = json_object_new_boolean(*(const bool *)at);
			break;
		}
		json_object_object_add(o, fields[i].name, v);
	}
	json_object *cls = json_object_new_object();
	for (int c = 0; c < CPU_CLASS_NR; c++)
		json_object_object_add(cls, cpu_class_name(c),
				       json_object_new_uint64(m->class_ns[c]));
	json_object_object_add(o, "class_ns", cls);
	/* Every stage this process knows, zero or not, in its order. */
	json_object *st = json_object_new_array();
	for (unsigned s = 0; s < stage_count(); s++) {
		const struct stage_info *si = stage_get((stage_id)s);
		json_object *x = json_object_new_object();
		json_object_object_add(x, "stage", json_object_new_string(si->name));
		json_object_object_add(x, "class",
				       json_object_new_string(cpu_class_name(si->cls)));
		add_string(x, "stands_for", si->kernel_fn);
		json_object_object_add(x, "ns", json_object_new_uint64(m->stage_ns[s]));
		json_object_array_add(st, x);
	}
	json_object_object_add(o, "stages", st);
	json_object *lay = json_object_new_object(), *sums = json_object_new_object();
	json_object_object_add(lay, "ios", json_object_new_uint64(m->layers.ios));
	for (int l = 0; l < IOL_NR; l++)
		json_object_object_add(sums, io_layer_name(l),
				       json_object_new_uint64(m->layers.sum[l]));
	json_object_object_add(lay, "sum_ns", sums);
	json_object_object_add(o, "layers", lay);
	return o;
}

static bool bad(GError **err, const char *where, const char *what)
{
	g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_INPUT,
		    "%s: not a result document of this storsim: %s", where, what);
	return false;
}

static bool get(json_object *o, const char *key, json_type t, json_object **v)
{
	if (!json_object_object_get_ex(o, key, v))
		return false;
	/* An integral double is written without a fraction. */
	return json_object_is_type(*v, t) ||
	       (t == json_type_double && json_object_is_type(*v, json_type_int));
}

static bool stage_from_json(json_object *x, struct run_metrics *m,
			    const char *where, GError **err)
{
	json_object *name, *cls, *fn, *ns;
	int c;

	if (!get(x, "stage", json_type_string, &name) ||
	    !get(x, "class", json_type_string, &cls) ||
	    !get(x, "ns", json_type_int, &ns))
		return bad(err, where, "a stage without stage, class or ns");
	for (c = 0; c < CPU_CLASS_NR; c++)
		if (strcmp(cpu_class_name(c), json_object_get_string(cls)) == 0)
			break;
	const char *sname = json_object_get_string(name);
	for (unsigned s = 0; s < stage_count(); s++) {
		const struct stage_info *si = stage_get((stage_id)s);
		if (strcmp(si->name, sname) == 0 && (int)si->cls != c)
			return bad(err, where, "a stage of another class");
	}
	if (c == CPU_CLASS_NR)
		return bad(err, where, "a stage of no known class");
	if (stage_count() >= STAGE_MAX)
		return bad(err, where, "too many stages");
	/* Names live as long as the registry: interned. */
	stage_id id = stage_register(g_intern_string(sname), (enum cpu_class)c,
				     json_object_object_get_ex(x, "stands_for", &fn) ?
				     g_intern_string(json_object_get_string(fn)) : NULL);
	m->stage_ns[id] = json_object_get_uint64(ns);
	return true;
}

bool run_metrics_from_json(json_object *o, struct run_metrics *m,
			   const char *where, GError **err)
{
	char *base = (char *)m;
	json_object *v;

	*m = (struct run_metrics){0};
	for (unsigned i = 0; i < G_N_ELEMENTS(fields); i++) {
		void *at = base + fields[i].off;
		json_type t = fields[i].type == F_DOUBLE ? json_type_double :
			      fields[i].type == F_BOOL ? json_type_boolean : json_type_int;
		if (!get(o, fields[i].name, t, &v))
			return bad(err, where, fields[i].name);
		switch (fields[i].type) {
		case F_U64:
			*(uint64_t *)at = json_object_get_uint64(v);
			break;
		case F_UINT:
			*(unsigned *)at = (unsigned)json_object_get_uint64(v);
			break;
		case F_DOUBLE:
			*(double *)at = json_object_get_double(v);
			break;
		case F_BOOL:
			*(bool *)at = json_object_get_boolean(v);
			break;
		}
	}
	if (!get(o, "class_ns", json_type_object, &v))
		return bad(err, where, "class_ns");
	for (int c = 0; c < CPU_CLASS_NR; c++) {
		json_object *x;
		if (!get(v, cpu_class_name(c), json_type_int, &x))
			return bad(err, where, "class_ns");
		m->class_ns[c] = json_object_get_uint64(x);
	}
	if (!get(o, "stages", json_type_array, &v))
		return bad(err, where, "stages");
	for (size_t i = 0; i < json_object_array_length(v); i++)
		if (!stage_from_json(json_object_array_get_idx(v, i), m, where, err))
			return false;
	json_object *sums, *x;
	if (!get(o, "layers", json_type_object, &v) ||
	    !get(v, "ios", json_type_int, &x) ||
	    !get(v, "sum_ns", json_type_object, &sums))
		return bad(err, where, "layers");
	m->layers.ios = json_object_get_uint64(x);
	for (int l = 0; l < IOL_NR; l++) {
		if (!get(sums, io_layer_name(l), json_type_int, &x))
			return bad(err, where, "layers");
		m->layers.sum[l] = json_object_get_uint64(x);
	}
	return true;
}

/* ---- running ---- */

static const char *const status_names[] = {
	[POINT_DONE] = "done", [POINT_REFUSED] = "refused", [POINT_FAILED] = "failed",
};

const char *point_status_name(enum point_status s)
{
	return status_names[s];
}

static json_object *status_doc(enum point_status s, const char *reason)
{
	json_object *doc = json_object_new_object();

	json_object_object_add(doc, "status", json_object_new_string(status_names[s]));
	if (reason)
		json_object_object_add(doc, "reason", json_object_new_string(reason));
	return doc;
}

json_object *point_failed_doc(const char *reason)
{
	return status_doc(POINT_FAILED, reason);
}

/* The strings of a, borrowed, NULL-terminated. An empty GPtrArray has
 * no pdata at all, and memcpy from NULL is undefined even for 0 bytes. */
static char **strv(const GPtrArray *a)
{
	char **v = g_new0(char *, a->len + 1);

	if (a->len)
		memcpy(v, a->pdata, a->len * sizeof(char *));
	return v;
}

json_object *point_run(const struct point *p)
{
	struct run_metrics m = {0};
	g_autoptr(GError) err = NULL;
	bool fio = strcmp(p->kind, "fio") == 0;
	bool ok;

	g_autofree char **env = strv(p->env), **fio_opts = strv(p->fio_opts);
	g_autofree char **args = strv(p->args);

	m.trace_layers = p->trace_layers;
	m.want_report = true;
	m.fio_opts = fio_opts;
	if (fio)
		ok = workload_fio(&p->cfg, p->jobfile, env, &m, &err);
	else
		ok = workload_uring_bench(&p->cfg, (int)p->args->len, args, &m, &err);
	if (!ok) {
		json_object *doc = status_doc(g_error_matches(err, STORSIM_ERROR,
							      STORSIM_ERROR_UNSUPPORTED) ?
					      POINT_REFUSED : POINT_FAILED, err->message);
		run_metrics_clear(&m);
		return doc;
	}
	json_object *doc = status_doc(POINT_DONE, NULL);
	json_object_object_add(doc, "metrics", run_metrics_to_json(&m));
	if (m.job_errors)
		json_object_object_add(doc, "job_errors",
				       json_object_new_string(m.job_errors->str));
	json_object_object_add(doc, "report", g_steal_pointer(&m.report));
	run_metrics_clear(&m);
	return doc;
}

enum point_status point_doc_status(json_object *doc)
{
	json_object *v;
	const char *s = json_object_object_get_ex(doc, "status", &v) ?
			json_object_get_string(v) : "";

	for (unsigned i = 0; i < G_N_ELEMENTS(status_names); i++)
		if (strcmp(s, status_names[i]) == 0)
			return (enum point_status)i;
	return POINT_FAILED;
}

const char *point_doc_reason(json_object *doc)
{
	json_object *v;

	return json_object_object_get_ex(doc, "reason", &v) ?
	       json_object_get_string(v) : "no reason given";
}

bool point_doc_metrics(json_object *doc, struct run_metrics *m,
		       const char *where, GError **err)
{
	json_object *v;

	if (!json_object_object_get_ex(doc, "metrics", &v))
		return bad(err, where, "metrics");
	if (!run_metrics_from_json(v, m, where, err))
		return false;
	if (json_object_object_get_ex(doc, "job_errors", &v))
		m->job_errors = g_string_new(json_object_get_string(v));
	return true;
}

void point_doc_free(gpointer doc)
{
	json_object_put(doc);
}
