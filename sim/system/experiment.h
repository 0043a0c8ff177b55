/*
 * Experiments: a published table and how to reproduce it, as data
 * (traces/<id>/experiment.json).
 *
 *   id, title, source, description
 *   system    {host, devices[], mounts[], files[], sets[], kernel[]}: the
 *             simulated machine (the options of storsim run)
 *   workload  {kind: "uring-bench", args[], runtime} or
 *             {kind: "fio", jobfile, env[], runtime}: ${VAR} in args and
 *             env takes the row's value of VAR, ${runtime} the runtime in
 *             seconds; env entries ("KEY=VALUE") are what ${KEY} in the
 *             job file expands to. Without a runtime the workload runs a
 *             fixed amount of I/O and --runtime does not apply.
 *   variable  the column the rows vary (e.g. "iodepth"), or the name of
 *             what each row measures
 *   variants  {NAME: {kernel[], sets[], env[], describe}}: what each
 *             published column changes in the kernel (and, with env, in
 *             the workload)
 *   metric    {name, result, scale}: result is what run_metrics_result()
 *             names ("iops", "bw", "elapsed_s", ...)
 *   tolerance largest accepted relative error of a cell
 *   rows      [{VAR: value, VARIANT: published, ...}]; a row may give its
 *             own result (then the rows are figures of the same runs),
 *             tolerance, abs_tolerance (an absolute difference, e.g. for
 *             CPU shares), and judge: false with a note for a published
 *             figure that is shown but not held against the model. A
 *             variant without a number in a row has no cell there.
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
	GPtrArray *env;		/* char *, added to the workload's env */
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
	unsigned runtime;	/* 0: the workload has a fixed size */
	const char *variable;
	GPtrArray *variants;	/* struct experiment_variant * */
	const char *metric_name, *metric_result;
	double scale;
	double tolerance;
	json_object *rows, *shapes, *mechanism_row;
};

struct experiment *experiment_load(const char *id_or_path, GError **err);
void experiment_free(struct experiment *e);
/* Where experiments and other data of traces/ are looked up, in order:
 * $STORSIM_TRACES_PATH, the source tree's traces/, the installed one. */
GPtrArray *experiment_traces_dirs(void);
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
