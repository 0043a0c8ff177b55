/* Profile files: finding, reading and checking their outer structure. */
#include <string.h>

#include "profile.h"
#include "engine/util.h"

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
		    strcmp(key, "params") && strcmp(key, "notes")) {
			storsim_input_error(err, p->path,
					    storsim_json_key_line(p->text, key), key,
					    "unknown key (allowed: profile, kind, "
					    "model, description, params, notes)");
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
	return p;
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
