/*
 * A point of a sweep: one workload run on one system, with the values of
 * the sweep's variables that make it, and the JSON document that records
 * it in a result store (store.h).
 *
 * A point's document holds
 *   "storsim_result": 1 (the format's version), "version" (storsim's),
 *   "command" (the command line of the sweep that ran it),
 *   "point" (its definition: what a later run compares to reuse it),
 *   "status": "done", "refused" (storsim does not model what it asks:
 *             "reason" says why) or "failed" ("reason": the error),
 *   "metrics" (struct run_metrics, every figure the tables are made of,
 *             with doubles written exactly, so that a table made from a
 *             stored document is the one made from the run),
 *   "report" (fio's JSON document with storsim's figures under
 *             "storsim"; for t/io_uring {"output", "storsim"}),
 *   "job_errors" (fio: a line per job that ended in an error).
 */
#ifndef STORSIM_POINT_H
#define STORSIM_POINT_H

#include <glib.h>
#include <json-c/json.h>

#include "system.h"
#include "workload.h"

enum point_status { POINT_DONE, POINT_REFUSED, POINT_FAILED };

struct point {
	unsigned index;		/* in the grid */
	char *name;		/* its document's file name, without ".json" */
	GPtrArray *keys;	/* char *: the variables, in the grid's order */
	GPtrArray *values;	/* char *: this point's value of each */
	struct system_config cfg;
	const char *kind;	/* "fio" or "uring-bench" */
	char *jobfile;		/* fio */
	GPtrArray *env;		/* char *: "KEY=VALUE" for ${KEY} in the job file */
	GPtrArray *fio_opts;	/* char *: "--NAME=VALUE", before the job file */
	GPtrArray *args;	/* char *: t/io_uring's arguments, argv[0] first */
	bool trace_layers;	/* ask the run for its latency by layer */
};

struct point *point_new(unsigned index, const struct system_config *cfg,
			const char *kind);
void point_free(struct point *p);
/* Add a variable's value; the name is made of them. */
void point_add_value(struct point *p, const char *key, const char *value);
/* "KEY=VALUE KEY=VALUE", for messages and progress lines. */
char *point_label(const struct point *p);
/* Its definition: the variables, the system, the workload (a job file's
 * SHA-256 with its name, so that an edited file is a different point). */
json_object *point_definition(const struct point *p, GError **err);

/*
 * Run p and return its document (without "storsim_result", "version",
 * "command" and "point", which the store adds): a point storsim refuses,
 * or whose run fails, is a document too, never an error.
 */
json_object *point_run(const struct point *p);

enum point_status point_doc_status(json_object *doc);
const char *point_status_name(enum point_status s);
/* The reason of a refused or failed point. */
const char *point_doc_reason(json_object *doc);
/* A document for a point that did not run to its end (a worker process
 * that crashed): failed, for reason. */
json_object *point_failed_doc(const char *reason);

/* json_object_put, as a GDestroyNotify for arrays of documents. */
void point_doc_free(gpointer doc);

/* struct run_metrics to and from JSON, exactly. */
json_object *run_metrics_to_json(const struct run_metrics *m);
bool run_metrics_from_json(json_object *o, struct run_metrics *m,
			   const char *where, GError **err);
/* The metrics of a done point's document. */
bool point_doc_metrics(json_object *doc, struct run_metrics *m,
		       const char *where, GError **err);

#endif
