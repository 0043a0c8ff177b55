/*
 * A result store: the directory a sweep, compare or reproduce writes its
 * points into (--results DIR), one JSON document per point (point.h),
 * each written whole or not at all (beside it, then renamed over it) as
 * soon as the point has run. Its manifest.json says what grid the
 * documents belong to:
 *   "storsim_results": 1, "version", "command" (the last command that
 *   wrote to it), "grid": what the sweep is made of (the command's kind,
 *   its variables with their values, each point's file and values, and
 *   whatever the command adds: the job file, an experiment), which
 *   `storsim report` reads.
 * Running the same sweep again into it resumes it: a point whose document
 * is there, for the same definition, done or refused, is not run again.
 */
#ifndef STORSIM_STORE_H
#define STORSIM_STORE_H

#include <glib.h>
#include <json-c/json.h>

#include "point.h"

struct store;

enum store_mode {
	STORE_CREATE,	/* the sweep: write the manifest, refuse another grid's store */
	STORE_REPLACE,	/* the same with --force: another grid's store is taken over */
	STORE_JOIN,	/* a worker: the manifest must be there, for this grid */
};

/* dir NULL: a temporary store, removed by store_close. command is the
 * command line (a JSON array of strings, taken). */
struct store *store_open(const char *dir, json_object *grid,
			 json_object *command, enum store_mode mode, GError **err);
void store_close(struct store *s);
const char *store_dir(const struct store *s);

/* The document of p with definition def, written by this storsim, if the
 * store holds it (with any status); else NULL. */
json_object *store_load(struct store *s, const struct point *p, json_object *def);
/* Record result (point_run's) as p's document; takes result, returns the
 * whole document (borrowed from *doc_out when asked for). */
bool store_save(struct store *s, const struct point *p, json_object *def,
		json_object *result, json_object **doc_out, GError **err);
/* The whole document a store would hold, without a store. */
json_object *store_document(json_object *command, json_object *def,
			    json_object *result);

/* Remove dir: a store (its documents and manifest), or a directory of
 * stores; nothing else in them is touched, so the directories stay if
 * anything else is there. */
void store_delete(const char *dir);

/* Read a store back: its manifest and each point's document, in the
 * grid's order (NULL where a point has none yet). */
bool store_read(const char *dir, json_object **manifest, GPtrArray **docs,
		GError **err);

#endif
