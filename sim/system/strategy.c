/* Reading completion strategies (strategy.h). */
#include <json-c/json.h>
#include <string.h>

#include "engine/util.h"
#include "experiment.h"
#include "strategy.h"

static void strategy_free(struct strategy *s)
{
	g_free(s->name);
	g_free(s->describe);
	g_free(s->file);
	g_ptr_array_free(s->fio, TRUE);
	g_ptr_array_free(s->kernel, TRUE);
	g_ptr_array_free(s->sets, TRUE);
	g_ptr_array_free(s->env, TRUE);
	g_free(s);
}

static bool fail(GError **err, const char *file, int line, const char *key,
		 const char *fmt, ...) G_GNUC_PRINTF(5, 6);

static bool fail(GError **err, const char *file, int line, const char *key,
		 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g_autofree char *msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	storsim_input_error(err, file, line, key, "%s", msg);
	return false;
}

/* Errors within a strategy are reported at the line of its name. */
static bool strings(json_object *o, const char *key, GPtrArray *out,
		    const char *file, int line, GError **err)
{
	json_object *a;

	if (!json_object_object_get_ex(o, key, &a))
		return true;
	if (!json_object_is_type(a, json_type_array))
		return fail(err, file, line, key, "must be an array of strings");
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		json_object *s = json_object_array_get_idx(a, i);
		const char *v = json_object_get_string(s);
		if (!json_object_is_type(s, json_type_string) || !strchr(v, '=') || *v == '=')
			return fail(err, file, line, key,
				    "must be an array of \"NAME=VALUE\" strings");
		g_ptr_array_add(out, g_strdup(v));
	}
	return true;
}

static bool check(GPtrArray *a, bool kernel, const char *file, int line,
		  const char *key, const struct system_config *c, GError **err)
{
	for (unsigned i = 0; i < a->len; i++) {
		g_autofree char *why = system_setting_problem(c, a->pdata[i], kernel);
		if (why)
			return fail(err, file, line, key, "%s", why);
	}
	return true;
}

static bool load_file(GPtrArray *all, const char *file,
		      const struct system_config *c, GError **err)
{
	g_autofree char *text = NULL;
	g_autoptr(GError) local = NULL;
	json_object *root, *list;
	bool ok = false;

	if (!g_file_get_contents(file, &text, NULL, &local)) {
		storsim_input_error(err, file, 0, NULL, "%s", local->message);
		return false;
	}
	root = json_tokener_parse(text);
	if (!root || !json_object_object_get_ex(root, "strategies", &list) ||
	    !json_object_is_type(list, json_type_array)) {
		fail(err, file, 0, NULL, "not a strategies file: needs "
		     "{\"strategies\": [...]}");
		goto out;
	}
	for (size_t i = 0; i < json_object_array_length(list); i++) {
		json_object *o = json_object_array_get_idx(list, i), *v;
		if (!json_object_is_type(o, json_type_object) ||
		    !json_object_object_get_ex(o, "name", &v) ||
		    !json_object_is_type(v, json_type_string) ||
		    !*json_object_get_string(v) ||
		    strchr(json_object_get_string(v), ',')) {
			fail(err, file, storsim_json_key_line(text, "strategies"),
			     "strategies", "strategy %zu needs a "
			     "\"name\" (without commas)", i + 1);
			goto out;
		}
		struct strategy *s = g_new0(struct strategy, 1);
		s->name = g_strdup(json_object_get_string(v));
		s->describe = g_strdup(json_object_object_get_ex(o, "describe", &v) ?
				       json_object_get_string(v) : "");
		s->file = g_strdup(file);
		s->line = storsim_json_key_line(text, s->name);
		s->fio = g_ptr_array_new_with_free_func(g_free);
		s->kernel = g_ptr_array_new_with_free_func(g_free);
		s->sets = g_ptr_array_new_with_free_func(g_free);
		s->env = g_ptr_array_new_with_free_func(g_free);
		int l = s->line;
		bool good = strings(o, "fio", s->fio, file, l, err) &&
			    strings(o, "kernel", s->kernel, file, l, err) &&
			    strings(o, "sets", s->sets, file, l, err) &&
			    strings(o, "env", s->env, file, l, err) &&
			    check(s->kernel, true, file, l, "kernel", c, err) &&
			    check(s->sets, false, file, l, "sets", c, err);
		if (!good) {
			strategy_free(s);
			goto out;
		}
		for (unsigned k = 0; k < all->len; k++)
			if (strcmp(((struct strategy *)all->pdata[k])->name, s->name) == 0) {
				g_ptr_array_remove_index(all, k);
				break;
			}
		g_ptr_array_add(all, s);
	}
	ok = true;
out:
	json_object_put(root);
	return ok;
}

GPtrArray *strategies_load(char **files, const struct system_config *c,
			   GError **err)
{
	GPtrArray *all = g_ptr_array_new_with_free_func((GDestroyNotify)strategy_free);
	g_autoptr(GPtrArray) dirs = experiment_traces_dirs();

	for (unsigned i = 0; i < dirs->len; i++) {
		g_autofree char *f = g_build_filename(dirs->pdata[i], "strategies.json",
						      NULL);
		if (!g_file_test(f, G_FILE_TEST_IS_REGULAR))
			continue;
		if (!load_file(all, f, c, err))
			goto fail;
		break;
	}
	for (char **f = files; f && *f; f++)
		if (!load_file(all, *f, c, err))
			goto fail;
	return all;
fail:
	g_ptr_array_free(all, TRUE);
	return NULL;
}

const struct strategy *strategy_find(GPtrArray *strategies, const char *name)
{
	for (unsigned i = 0; i < strategies->len; i++) {
		const struct strategy *s = strategies->pdata[i];
		if (strcmp(s->name, name) == 0)
			return s;
	}
	return NULL;
}

char *strategies_names(GPtrArray *strategies)
{
	GString *s = g_string_new(NULL);

	for (unsigned i = 0; i < strategies->len; i++)
		g_string_append_printf(s, "%s%s", i ? ", " : "",
				       ((struct strategy *)strategies->pdata[i])->name);
	return g_string_free(s, FALSE);
}
