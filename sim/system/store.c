/* The result store (store.h). */
#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include "config.h"
#include "engine/util.h"
#include "store.h"

struct store {
	char *dir;
	bool temporary;
	json_object *command;
};

static const int json_flags = JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			      JSON_C_TO_STRING_NOSLASHESCAPE;

static bool same(json_object *a, json_object *b)
{
	return strcmp(json_object_to_json_string_ext(a, JSON_C_TO_STRING_PLAIN),
		      json_object_to_json_string_ext(b, JSON_C_TO_STRING_PLAIN)) == 0;
}

static bool write_json(const char *path, json_object *o, GError **err)
{
	g_autofree char *text = g_strconcat(json_object_to_json_string_ext(o, json_flags),
					    "\n", NULL);
	g_autoptr(GError) local = NULL;

	/* A temporary file beside path, renamed over it. */
	if (g_file_set_contents(path, text, -1, &local))
		return true;
	g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_IO, "%s", local->message);
	return false;
}

static json_object *read_json(const char *path, GError **err)
{
	g_autofree char *text = NULL;
	g_autoptr(GError) local = NULL;

	if (!g_file_get_contents(path, &text, NULL, &local)) {
		g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_IO, "%s", local->message);
		return NULL;
	}
	json_object *o = json_tokener_parse(text);
	if (!o || !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_INPUT,
			    "%s: not a JSON object", path);
		return NULL;
	}
	return o;
}

static json_object *manifest_new(json_object *grid, json_object *command)
{
	json_object *m = json_object_new_object();

	json_object_object_add(m, "storsim_results", json_object_new_int(1));
	json_object_object_add(m, "version", json_object_new_string(PACKAGE_STRING));
	json_object_object_add(m, "command", json_object_get(command));
	json_object_object_add(m, "grid", json_object_get(grid));
	return m;
}

struct store *store_open(const char *dir, json_object *grid,
			 json_object *command, enum store_mode mode, GError **err)
{
	struct store *s = g_new0(struct store, 1);
	g_autoptr(GError) local = NULL;

	s->command = command;
	if (!dir) {
		s->dir = g_dir_make_tmp("storsim-results-XXXXXX", &local);
		s->temporary = true;
		if (!s->dir) {
			g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_IO, "%s",
				    local->message);
			store_close(s);
			return NULL;
		}
	} else {
		s->dir = g_strdup(dir);
	}
	g_autofree char *path = g_build_filename(s->dir, "manifest.json", NULL);
	if (mode == STORE_JOIN) {
		json_object *m = read_json(path, err), *g, *cmd;
		bool ok = m && json_object_object_get_ex(m, "grid", &g) && same(g, grid);
		if (m && !ok)
			g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_INPUT,
				    "%s: the store is another sweep's", s->dir);
		/* A worker's documents say what the sweep's command was. */
		if (ok && json_object_object_get_ex(m, "command", &cmd)) {
			json_object_put(s->command);
			s->command = json_object_get(cmd);
		}
		json_object_put(m);
		if (!ok) {
			store_close(s);
			return NULL;
		}
		return s;
	}
	if (g_mkdir_with_parents(s->dir, 0777) != 0) {
		g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_IO,
			    "%s: cannot make the result store: %s", s->dir,
			    g_strerror(errno));
		store_close(s);
		return NULL;
	}
	if (mode == STORE_CREATE && g_file_test(path, G_FILE_TEST_EXISTS)) {
		json_object *m = read_json(path, err), *g;
		bool ok = m && json_object_object_get_ex(m, "grid", &g) && same(g, grid);
		if (m && !ok)
			storsim_input_error(err, "command line", 0, "--results",
					    "%s holds the results of another sweep "
					    "(its manifest.json differs); give another "
					    "directory, or --force to replace them",
					    s->dir);
		json_object_put(m);
		if (!ok) {
			store_close(s);
			return NULL;
		}
	}
	json_object *m = manifest_new(grid, command);
	bool ok = write_json(path, m, err);
	json_object_put(m);
	if (!ok) {
		store_close(s);
		return NULL;
	}
	return s;
}

/* A store's own files: its manifest, its documents, reproduce.json. */
static void delete_store(const char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *name;

	while (d && (name = g_dir_read_name(d))) {
		g_autofree char *p = g_build_filename(dir, name, NULL);
		if (g_str_has_suffix(name, ".json") &&
		    g_file_test(p, G_FILE_TEST_IS_REGULAR))
			g_unlink(p);
	}
	if (d)
		g_dir_close(d);
	g_rmdir(dir);
}

void store_delete(const char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *name;

	while (d && (name = g_dir_read_name(d))) {
		g_autofree char *p = g_build_filename(dir, name, "manifest.json", NULL);
		g_autofree char *sub = g_build_filename(dir, name, NULL);
		if (g_file_test(p, G_FILE_TEST_IS_REGULAR))
			delete_store(sub);
	}
	if (d)
		g_dir_close(d);
	delete_store(dir);
}

void store_close(struct store *s)
{
	if (!s)
		return;
	if (s->temporary && s->dir)
		store_delete(s->dir);
	g_free(s->dir);
	json_object_put(s->command);
	g_free(s);
}

const char *store_dir(const struct store *s)
{
	return s->dir;
}

static char *doc_path(const struct store *s, const struct point *p)
{
	g_autofree char *file = g_strconcat(p->name, ".json", NULL);
	return g_build_filename(s->dir, file, NULL);
}

json_object *store_load(struct store *s, const struct point *p, json_object *def)
{
	g_autofree char *path = doc_path(s, p);
	json_object *doc, *d;

	if (!g_file_test(path, G_FILE_TEST_EXISTS))
		return NULL;
	doc = read_json(path, NULL);
	if (!doc)
		return NULL;
	/* Another definition (an edited job file, other options) or
	 * another storsim's: run it again. */
	json_object *v;
	if (!json_object_object_get_ex(doc, "point", &d) || !same(d, def) ||
	    !json_object_object_get_ex(doc, "version", &v) ||
	    strcmp(json_object_get_string(v), PACKAGE_STRING) != 0) {
		json_object_put(doc);
		return NULL;
	}
	return doc;
}

json_object *store_document(json_object *command, json_object *def,
			    json_object *result)
{
	json_object *doc = json_object_new_object();

	json_object_object_add(doc, "storsim_result", json_object_new_int(1));
	json_object_object_add(doc, "version", json_object_new_string(PACKAGE_STRING));
	json_object_object_add(doc, "command", json_object_get(command));
	json_object_object_add(doc, "point", json_object_get(def));
	json_object_object_foreach(result, key, val)
		json_object_object_add(doc, key, json_object_get(val));
	json_object_put(result);
	return doc;
}

bool store_save(struct store *s, const struct point *p, json_object *def,
		json_object *result, json_object **doc_out, GError **err)
{
	json_object *doc = store_document(s->command, def, result);
	g_autofree char *path = doc_path(s, p);
	bool ok = write_json(path, doc, err);

	if (ok && doc_out)
		*doc_out = doc;
	else
		json_object_put(doc);
	return ok;
}

bool store_read(const char *dir, json_object **manifest, GPtrArray **docs,
		GError **err)
{
	g_autofree char *path = g_build_filename(dir, "manifest.json", NULL);
	json_object *m = read_json(path, err), *grid, *points;

	if (!m)
		return false;
	if (!json_object_object_get_ex(m, "grid", &grid) ||
	    !json_object_object_get_ex(grid, "points", &points) ||
	    !json_object_is_type(points, json_type_array)) {
		g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_INPUT,
			    "%s: not a storsim result store's manifest", path);
		json_object_put(m);
		return false;
	}
	*docs = g_ptr_array_new_with_free_func(point_doc_free);
	for (size_t i = 0; i < json_object_array_length(points); i++) {
		json_object *pt = json_object_array_get_idx(points, i), *file;
		json_object *doc = NULL;
		if (json_object_object_get_ex(pt, "file", &file)) {
			g_autofree char *p = g_build_filename(dir,
					json_object_get_string(file), NULL);
			if (g_file_test(p, G_FILE_TEST_EXISTS))
				doc = read_json(p, NULL);
		}
		g_ptr_array_add(*docs, doc);
	}
	*manifest = m;
	return true;
}
