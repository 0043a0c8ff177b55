/*
 * Experiments: a published table and how to reproduce it, as data
 * (traces/<id>/experiment.json).
 *
 *   id, title, source, description
 *   system    {host, devices[], sets[], kernel[]}: the simulated machine
 *   workload  {kind: "uring-bench", args[], runtime} or
 *             {kind: "fio", jobfile, env[], runtime}: ${VAR} in args and
 *             env takes the row's value of VAR, ${runtime} the runtime in
 *             seconds; env entries ("KEY=VALUE") are what ${KEY} in the
 *             job file expands to
 *   variable  the column the rows vary (e.g. "iodepth")
 *   variants  {NAME: {kernel[], sets[], describe}}: what each published
 *             column changes in the kernel
 *   metric    {name, result: "iops" | "bw", scale}
 *   tolerance largest accepted relative error of a cell
 *   rows      [{VAR: value, VARIANT: published, ...}]
 *   shapes    [{check: "nondecreasing" | "increasing" | "flat",
 *               of: VARIANT or "A/B", from, to, within, describe}]
 *   mechanism_row  {VAR: value}: the row whose mechanism is shown
 */
#ifndef STORSIM_EXPERIMENT_H
#define STORSIM_EXPERIMENT_H

#include <glib.h>
#include <json-c/json.h>

#include "system.h"

struct experiment_variant {
	const char *name;
	const char *describe;
	GPtrArray *kernel;	/* char * */
	GPtrArray *sets;	/* char * */
};

struct experiment {
	char *path;
	char *dir;
	char *text;
	json_object *root;
	const char *id, *title, *source, *description;
	struct system_config sys;
	const char *workload_kind;
	GPtrArray *args;	/* char *, with ${VAR} */
	char *jobfile;		/* fio: the job file, beside the experiment */
	GPtrArray *env;		/* fio: "KEY=VALUE" with ${VAR} in VALUE */
	unsigned runtime;
	const char *variable;
	GPtrArray *variants;	/* struct experiment_variant * */
	const char *metric_name, *metric_result;
	double scale;
	double tolerance;
	json_object *rows, *shapes, *mechanism_row;
};

struct experiment *experiment_load(const char *id_or_path, GError **err);
void experiment_free(struct experiment *e);
/* Every experiment found under the traces directories, by id. */
GPtrArray *experiment_list(void);
/* The workload arguments (or, for fio, the environment) for a row, with
 * ${VAR} replaced. */
GPtrArray *experiment_args(const struct experiment *e, json_object *row,
			   unsigned runtime, GError **err);
GPtrArray *experiment_env(const struct experiment *e, json_object *row,
			  unsigned runtime, GError **err);
/* The textual value of the row's variable. */
char *experiment_row_label(const struct experiment *e, json_object *row);

#endif
