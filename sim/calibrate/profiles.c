/*
 * Making profiles: values and sources loaded from a base profile, changed
 * one parameter at a time, written back as a complete profile (every row
 * of every model it sets, so that nothing in it depends on defaults that
 * may move) with json-c.
 */
#include <gio/gio.h>
#include <string.h>

#include "engine/params.h"
#include "engine/util.h"
#include "system/costs.h"
#include "system/profile.h"
#include "profiles.h"

static char *key(const char *model, const char *param)
{
	return g_strconcat(model, ".", param, NULL);
}

void *cal_profile_model_params(struct cal_profile *p, const struct model_info *m)
{
	if (strcmp(p->kind, "host") == 0)
		return m->kind == MODEL_HOST ? model_values(m, &p->sp, &p->wl) : NULL;
	return m == p->model ? p->params : NULL;
}

struct inherit_ctx {
	struct cal_profile *p;
	double k;
	const char *parent, *why;
};

static void inherit_cost(const char *model, const char *param, void *d)
{
	struct inherit_ctx *c = d;
	const char *src = cal_profile_source(c->p, model, param);
	g_autofree char *s = g_strdup_printf(
		"%s's value x %g (%s); there: %s", c->parent, c->k, c->why,
		src ? src : "its model's default");
	cal_profile_set_num(c->p, model, param,
			    cal_profile_get_num(c->p, model, param) * c->k, s);
}

/* Apply base (and what it inherits) to p. */
static bool load_into(struct cal_profile *p, const char *kind, const char *base,
		      int depth, GError **err)
{
	auto_profile *prof = profile_load(base, kind, err);

	if (!prof)
		return false;
	if (depth == 0) {
		g_free(p->description);
		p->description = g_strdup(prof->description ? prof->description : "");
	}
	if (prof->parent) {
		if (depth == 4) {
			storsim_input_error(err, prof->path, 0, "inherits",
					    "more than 4 profiles deep");
			return false;
		}
		if (!load_into(p, kind, prof->parent, depth + 1, err))
			return false;
		struct inherit_ctx c = {p, prof->cost_scale, prof->parent,
					prof->cost_scale_source};
		for (unsigned j = 0; j < cost_ngroups; j++)
			if (!cost_groups[j].fs)
				cost_group_foreach(&cost_groups[j], inherit_cost, &c);
	}
	json_object_object_foreach(prof->params, name, obj) {
		bool host = strcmp(kind, "host") == 0;
		const struct model_info *m = host ? model_find(name) : p->model;
		json_object *rows = host ? obj : prof->params;
		if (!m || !cal_profile_model_params(p, m)) {
			storsim_input_error(err, prof->path, 0, name,
					    "not a model of a %s profile", kind);
			return false;
		}
		if (!params_apply_json(m->params, cal_profile_model_params(p, m),
				       rows, prof->path, prof->text, err))
			return false;
		json_object_object_foreach(rows, pname, pobj) {
			json_object *src;
			if (json_object_object_get_ex(pobj, "source", &src))
				g_hash_table_insert(p->source, key(m->name, pname),
						    g_strdup(json_object_get_string(src)));
		}
		/* a device or fs profile's params are its one model's rows */
		if (!host)
			break;
	}
	return true;
}

bool cal_profile_load(struct cal_profile *p, const char *kind,
		      const char *model, const char *base, GError **err)
{
	memset(p, 0, sizeof(*p));
	p->kind = kind;
	p->source = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	if (strcmp(kind, "host") == 0) {
		for (const struct model_info *m = model_registry; m->name; m++)
			if (m->kind == MODEL_HOST)
				params_set_defaults(m->params, model_values(m, &p->sp, &p->wl));
	} else {
		p->model = model_find(model);
		g_assert(p->model);
		p->params = g_malloc0(p->model->size);
		params_set_defaults(p->model->params, p->params);
	}
	return load_into(p, kind, base, 0, err);
}

void cal_profile_clear(struct cal_profile *p)
{
	if (!p->source)
		return;
	if (strcmp(p->kind, "host") == 0) {
		for (const struct model_info *m = model_registry; m->name; m++)
			if (m->kind == MODEL_HOST)
				params_clear(m->params, model_values(m, &p->sp, &p->wl));
	} else {
		params_clear(p->model->params, p->params);
		g_free(p->params);
	}
	g_hash_table_destroy(p->source);
	g_free(p->description);
	memset(p, 0, sizeof(*p));
}

static const struct param_def *find_row(struct cal_profile *p, const char *model,
					const char *param, void **params)
{
	const struct model_info *m = model_find(model);

	*params = m ? cal_profile_model_params(p, m) : NULL;
	return *params ? params_find(m->params, param) : NULL;
}

bool cal_profile_set(struct cal_profile *p, const char *model,
		     const char *param, const char *value, const char *source,
		     GError **err)
{
	void *params;
	const struct param_def *row = find_row(p, model, param, &params);
	g_autofree char *assign = g_strconcat(param, "=", value, NULL);

	if (!row) {
		storsim_input_error(err, NULL, 0, "calibrate", "no parameter %s.%s",
				    model, param);
		return false;
	}
	if (!params_apply_override(model_find(model)->params, params, assign,
				   "calibrate", assign, err))
		return false;
	g_hash_table_insert(p->source, key(model, param), g_strdup(source));
	return true;
}

double cal_profile_get_num(struct cal_profile *p, const char *model,
			   const char *param)
{
	void *params;
	const struct param_def *row = find_row(p, model, param, &params);
	char *f;

	g_assert(row);
	f = (char *)params + row->offset;
	switch (row->type) {
	case PARAM_U32: return *(uint32_t *)f;
	case PARAM_U64:
	case PARAM_TIME: return (double)*(uint64_t *)f;
	case PARAM_DOUBLE: return *(double *)f;
	default: g_assert_not_reached();
	}
}

void cal_profile_set_num(struct cal_profile *p, const char *model,
			 const char *param, double v, const char *source)
{
	void *params;
	const struct param_def *row = find_row(p, model, param, &params);
	char *f;

	g_assert(row);
	f = (char *)params + row->offset;
	if (row->max > row->min)
		v = CLAMP(v, row->min, row->max);
	switch (row->type) {
	case PARAM_U32: *(uint32_t *)f = (uint32_t)(v + 0.5); break;
	case PARAM_U64:
	case PARAM_TIME: *(uint64_t *)f = (uint64_t)(v + 0.5); break;
	case PARAM_DOUBLE: *(double *)f = v; break;
	default: g_assert_not_reached();
	}
	g_hash_table_insert(p->source, key(model, param), g_strdup(source));
}

const char *cal_profile_source(struct cal_profile *p, const char *model,
			       const char *param)
{
	g_autofree char *k = key(model, param);
	return g_hash_table_lookup(p->source, k);
}

static json_object *value_json(const struct param_def *row, const void *params)
{
	const char *f = (const char *)params + row->offset;

	switch (row->type) {
	case PARAM_U32: return json_object_new_int64(*(const uint32_t *)f);
	case PARAM_U64:
	case PARAM_TIME: return json_object_new_int64((int64_t)*(const uint64_t *)f);
	case PARAM_DOUBLE: return json_object_new_double(*(const double *)f);
	case PARAM_BOOL: return json_object_new_boolean(*(const bool *)f);
	case PARAM_ENUM:
	case PARAM_STRING: {
		g_autofree char *s = params_value_string(row, params);
		return json_object_new_string(s);
	}
	}
	g_assert_not_reached();
}

static json_object *model_json(struct cal_profile *p, const struct model_info *m)
{
	json_object *o = json_object_new_object();
	void *params = cal_profile_model_params(p, m);

	for (const struct param_def *row = m->params; row->name; row++) {
		json_object *v = json_object_new_object();
		const char *src = cal_profile_source(p, m->name, row->name);
		json_object_object_add(v, "value", value_json(row, params));
		json_object_object_add(v, "unit", json_object_new_string(row->unit));
		json_object_object_add(v, "source", json_object_new_string(
			src ? src : "the model's default: not in the base profile, "
				    "not calibrated"));
		json_object_object_add(o, row->name, v);
	}
	return o;
}

bool cal_profile_write(struct cal_profile *p, const char *name,
		       const char *notes, const char *path, GError **err)
{
	json_object *root = json_object_new_object();
	json_object *params;
	bool ok;

	json_object_object_add(root, "profile", json_object_new_string(name));
	json_object_object_add(root, "kind", json_object_new_string(p->kind));
	if (p->model)
		json_object_object_add(root, "model",
				       json_object_new_string(p->model->name));
	json_object_object_add(root, "description",
			       json_object_new_string(p->description));
	if (notes)
		json_object_object_add(root, "notes", json_object_new_string(notes));
	if (strcmp(p->kind, "host") == 0) {
		params = json_object_new_object();
		for (const struct model_info *m = model_registry; m->name; m++)
			if (m->kind == MODEL_HOST)
				json_object_object_add(params, m->name, model_json(p, m));
	} else {
		params = model_json(p, p->model);
	}
	json_object_object_add(root, "params", params);
	const char *text = json_object_to_json_string_ext(
		root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
		      JSON_C_TO_STRING_NOSLASHESCAPE);
	g_autofree char *withnl = g_strconcat(text, "\n", NULL);
	ok = g_file_set_contents(path, withnl, -1, err);
	json_object_put(root);
	return ok;
}

