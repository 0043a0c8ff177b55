/* Profile files: finding, reading and checking their outer structure. */
#include <string.h>

#include "profile.h"
#include "engine/util.h"
#include "engine/params.h"

/* Every directory searched, in order. */
static GPtrArray *profile_search_dirs(void)
{
	GPtrArray *dirs = g_ptr_array_new_with_free_func(g_free);
	const char *env = g_getenv("STORSIM_PROFILE_PATH");

	if (env && *env) {
		g_auto(GStrv) parts = g_strsplit(env, ":", -1);
		for (char **p = parts; *p; p++)
			if (**p)
				g_ptr_array_add(dirs, g_strdup(*p));
	}
	g_ptr_array_add(dirs, g_build_filename(STORSIM_SRCDIR, "models",
					       "profiles", NULL));
	g_ptr_array_add(dirs, g_build_filename(STORSIM_DATADIR, "models", "profiles",
					       NULL));
	return dirs;
}

/* Profiles of a kind live in a folder of their own. */
static const char *kind_dir(const char *kind)
{
	if (strcmp(kind, "host") == 0)
		return "hosts";
	if (strcmp(kind, "device") == 0)
		return "devices";
	if (strcmp(kind, "fs") == 0)
		return "filesystems";
	return kind;
}

static char *find_file(const char *name, const char *kind)
{
	if (strchr(name, '/') || g_str_has_suffix(name, ".json"))
		return g_strdup(name);
	g_autoptr(GPtrArray) dirs = profile_search_dirs();
	g_autofree char *file = g_strconcat(name, ".json", NULL);
	for (unsigned i = 0; i < dirs->len; i++) {
		char *path = g_build_filename(dirs->pdata[i], kind_dir(kind), file, NULL);
		if (g_file_test(path, G_FILE_TEST_IS_REGULAR))
			return path;
		g_free(path);
	}
	return NULL;
}

/* Names of the profiles of a kind found in the search path, sorted, for
 * the message about a profile that is not there. */
static GPtrArray *profile_list(const char *kind)
{
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) dirs = profile_search_dirs();

	for (unsigned i = 0; i < dirs->len; i++) {
		g_autofree char *dir = g_build_filename(dirs->pdata[i], kind_dir(kind), NULL);
		g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
		const char *e;
		while (d && (e = g_dir_read_name(d))) {
			if (!g_str_has_suffix(e, ".json"))
				continue;
			char *n = g_strndup(e, strlen(e) - 5);
			bool dup = false;
			for (unsigned j = 0; j < names->len; j++)
				dup |= strcmp(names->pdata[j], n) == 0;
			if (dup)
				g_free(n);
			else
				g_ptr_array_add(names, n);
		}
	}
	g_ptr_array_sort(names, storsim_strptr_cmp);
	return names;
}

static const char *get_string(json_object *root, const char *key)
{
	json_object *v;
	if (!json_object_object_get_ex(root, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* "inherits": {"profile": NAME, "cost_scale": {"value", "unit": "",
 * "source"}}, host profiles only. */
static bool load_inherits(struct profile *p, GError **err)
{
	json_object *inh, *cs, *v;
	int line = storsim_json_key_line(p->text, "inherits");

	if (!json_object_object_get_ex(p->root, "inherits", &inh))
		return true;
	if (strcmp(p->kind, "host") != 0) {
		storsim_input_error(err, p->path, line, "inherits",
				    "only a host profile inherits another");
		return false;
	}
	p->parent = json_object_is_type(inh, json_type_object) ?
		    get_string(inh, "profile") : NULL;
	if (!p->parent || !json_object_object_get_ex(inh, "cost_scale", &cs) ||
	    !json_object_is_type(cs, json_type_object)) {
		storsim_input_error(err, p->path, line, "inherits",
				    "must be {\"profile\": NAME, \"cost_scale\": "
				    "{\"value\": X, \"unit\": \"\", \"source\": "
				    "\"...\"}}");
		return false;
	}
	json_object_object_foreach(inh, key, val) {
		(void)val;
		if (strcmp(key, "profile") && strcmp(key, "cost_scale")) {
			storsim_input_error(err, p->path, storsim_json_key_line(p->text, key),
					    key, "unknown key of inherits (allowed: "
					    "profile, cost_scale)");
			return false;
		}
	}
	line = storsim_json_key_line(p->text, "cost_scale");
	if (!json_object_object_get_ex(cs, "value", &v) ||
	    !(json_object_is_type(v, json_type_double) ||
	      json_object_is_type(v, json_type_int)) ||
	    !(json_object_get_double(v) > 0 && json_object_get_double(v) <= 1000)) {
		storsim_input_error(err, p->path, line, "cost_scale",
				    "needs a \"value\" above 0, at most 1000");
		return false;
	}
	p->cost_scale = json_object_get_double(v);
	const char *unit = get_string(cs, "unit");
	if (!unit || *unit) {
		storsim_input_error(err, p->path, line, "cost_scale",
				    "needs \"unit\": \"\" (a ratio)");
		return false;
	}
	p->cost_scale_source = get_string(cs, "source");
	if (!p->cost_scale_source || !*p->cost_scale_source) {
		storsim_input_error(err, p->path, line, "cost_scale",
				    "needs a \"source\": a public measurement, or "
				    "\"fitted to <experiment>\"");
		return false;
	}
	if (strcmp(p->parent, p->name) == 0) {
		storsim_input_error(err, p->path, line, "inherits",
				    "a profile cannot inherit itself");
		return false;
	}
	return true;
}

struct profile *profile_load(const char *name_or_path, const char *kind,
			     GError **err)
{
	g_autofree char *path = find_file(name_or_path, kind);
	struct profile *p;
	json_tokener *tok;
	enum json_tokener_error jerr;

	if (!path) {
		g_autoptr(GPtrArray) names = profile_list(kind);
		g_autoptr(GString) known = g_string_new(NULL);
		for (unsigned i = 0; i < names->len; i++)
			g_string_append_printf(known, "%s%s", i ? ", " : "",
					       (char *)names->pdata[i]);
		storsim_input_error(err, NULL, 0, NULL,
				    "no %s profile called '%s' (known: %s)", kind,
				    name_or_path, known->len ? known->str : "none");
		return NULL;
	}
	p = g_new0(struct profile, 1);
	p->path = g_steal_pointer(&path);
	if (!g_file_get_contents(p->path, &p->text, NULL, err)) {
		profile_free(p);
		return NULL;
	}
	tok = json_tokener_new();
	size_t len = strlen(p->text), end;
	p->root = json_tokener_parse_ex(tok, p->text, (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	while (p->root && end < len && g_ascii_isspace(p->text[end]))
		end++;
	if (!p->root || jerr != json_tokener_success || end < len) {
		int line = 1;
		for (size_t i = 0; i < end && p->text[i]; i++)
			line += p->text[i] == '\n';
		storsim_input_error(err, p->path, line, NULL, "%s",
				    !p->root || jerr != json_tokener_success ?
				    (jerr == json_tokener_continue ?
				     "invalid JSON: unexpected end of text" :
				     json_tokener_error_desc(jerr)) :
				    "text after the end of the profile");
		json_tokener_free(tok);
		profile_free(p);
		return NULL;
	}
	json_tokener_free(tok);
	if (!json_object_is_type(p->root, json_type_object)) {
		storsim_input_error(err, p->path, 1, NULL, "a profile is a JSON object");
		profile_free(p);
		return NULL;
	}
	json_object_object_foreach(p->root, key, val) {
		(void)val;
		if (strcmp(key, "profile") && strcmp(key, "kind") &&
		    strcmp(key, "model") && strcmp(key, "description") &&
		    strcmp(key, "params") && strcmp(key, "notes") &&
		    strcmp(key, "inherits")) {
			storsim_input_error(err, p->path,
					    storsim_json_key_line(p->text, key), key,
					    "unknown key (allowed: profile, kind, "
					    "model, description, inherits, params, "
					    "notes)");
			profile_free(p);
			return NULL;
		}
	}
	p->name = get_string(p->root, "profile");
	p->kind = get_string(p->root, "kind");
	p->model = get_string(p->root, "model");
	p->description = get_string(p->root, "description");
	if (!p->name || !p->kind || !json_object_object_get_ex(p->root, "params",
								 &p->params)) {
		storsim_input_error(err, p->path, 1, NULL,
				    "needs \"profile\", \"kind\" and \"params\"");
		profile_free(p);
		return NULL;
	}
	if (strcmp(p->kind, kind) != 0) {
		storsim_input_error(err, p->path, storsim_json_key_line(p->text, "kind"),
				    "kind", "is \"%s\", expected \"%s\"", p->kind, kind);
		profile_free(p);
		return NULL;
	}
	if (!load_inherits(p, err)) {
		profile_free(p);
		return NULL;
	}
	return p;
}

/* Whether a source names experiment id as what the value was fitted to. */
static bool says_fitted_to(const char *source, const char *id)
{
	g_autofree char *pat = g_strconcat("fitted to ", id, NULL);
	size_t n = strlen(pat);

	for (const char *at = source; (at = strstr(at, pat)); at++) {
		char c = at[n];
		if (!g_ascii_isalnum(c) && c != '-' && c != '_')
			return true;
	}
	return false;
}

static void fitted_rows(const char *profile, const char *model, json_object *rows,
			const char *id, GPtrArray *out)
{
	json_object_object_foreach(rows, param, val) {
		json_object *src;
		if (json_object_is_type(val, json_type_object) &&
		    json_object_object_get_ex(val, "source", &src) &&
		    says_fitted_to(json_object_get_string(src), id))
			g_ptr_array_add(out, model ?
					g_strdup_printf("%s %s.%s", profile, model, param) :
					g_strdup_printf("%s %s", profile, param));
	}
}

bool profile_fitted_to(const char *name, const char *kind, const char *id,
		       GPtrArray *out, GError **err)
{
	auto_profile *p = profile_load(name, kind, err);

	if (!p)
		return false;
	if (p->parent) {
		if (says_fitted_to(p->cost_scale_source, id))
			g_ptr_array_add(out, g_strdup_printf("%s cost_scale", p->name));
		if (!profile_fitted_to(p->parent, kind, id, out, err))
			return false;
	}
	if (strcmp(kind, "host") != 0) {
		fitted_rows(p->name, NULL, p->params, id, out);
		return true;
	}
	json_object_object_foreach(p->params, model, rows)
		if (json_object_is_type(rows, json_type_object))
			fitted_rows(p->name, model, rows, id, out);
	return true;
}

void profile_free(struct profile *p)
{
	if (!p)
		return;
	if (p->root)
		json_object_put(p->root);
	g_free(p->text);
	g_free(p->path);
	g_free(p);
}

bool profile_load_nvme(struct nvme_dev_params *p, const char *name_or_path,
		       GError **err)
{
	auto_profile *prof = profile_load(name_or_path, "device", err);

	if (!prof)
		return false;
	if (!prof->model || strcmp(prof->model, "nvme") != 0) {
		storsim_input_error(err, prof->path,
				    storsim_json_key_line(prof->text, "model"), "model",
				    "must be \"nvme\"");
		return false;
	}
	if (!params_apply_json(nvme_dev_param_table, p, prof->params, prof->path,
			       prof->text, err))
		return false;
	if (!nvme_dev_params_check(p, err)) {
		g_prefix_error(err, "%s: ", prof->path);
		return false;
	}
	return true;
}
