/*
 * Model parameters, declared once as table rows.
 *
 * Every model keeps its user-settable values in a plain params struct and
 * describes each field with a struct param_def row: name, type, offsetof,
 * default, range, unit and help. The same table drives the profile loader,
 * validation of profile values, `storsim params` (help) and the parameter
 * tables in docs/, in the way fio's option table and QEMU's device
 * properties do.
 *
 * A profile is a JSON file:
 *
 *   {
 *     "profile": "optane-p5800x",
 *     "kind": "device",
 *     "model": "nvme",
 *     "description": "Optane-class NVMe SSD, 2021-2023 generation",
 *     "params": {
 *       "write_latency": {"value": 5000, "unit": "ns",
 *                         "source": "fitted to dio-caller-comp QD1"},
 *       ...
 *     }
 *   }
 *
 * Every key under "params" must name a row of the model's table, carry the
 * row's unit exactly, and say where the value comes from ("source"); values
 * left out keep the row's default. Anything else is an input error naming
 * the file, line and parameter.
 */
#ifndef STORSIM_PARAMS_H
#define STORSIM_PARAMS_H

#include <glib.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum param_type {
	PARAM_U32,		/* uint32_t */
	PARAM_U64,		/* uint64_t */
	PARAM_TIME,		/* uint64_t nanoseconds; unit must be "ns" */
	PARAM_DOUBLE,		/* double */
	PARAM_BOOL,		/* bool; JSON true/false */
	PARAM_ENUM,		/* int index into choices[]; JSON string */
	PARAM_STRING,		/* char *, owned by the params struct */
};

struct param_def {
	const char *name;
	enum param_type type;
	size_t offset;			/* offsetof() into the params struct */
	const char *def;		/* default, as it would appear in JSON */
	double min, max;		/* inclusive range for numbers; 0,0 = any */
	const char *unit;		/* "ns", "bytes", "count", "MB/s", "" ... */
	const char *help;
	const char *const *choices;	/* PARAM_ENUM: NULL-terminated names */
};

#define PARAM_END { .name = NULL }

/* Set every field of params to its row's default. */
void params_set_defaults(const struct param_def *table, void *params);

/* Free PARAM_STRING fields. */
void params_clear(const struct param_def *table, void *params);

/* Find a row by name, or NULL. */
const struct param_def *params_find(const struct param_def *table,
				    const char *name);

/*
 * Apply the "params" object of a profile to params. file and text (the
 * file's contents) are used only to locate errors.
 */
bool params_apply_json(const struct param_def *table, void *params,
		       json_object *obj, const char *file, const char *text,
		       GError **err);

/*
 * Apply one "name=value" override given on the command line. An error is
 * located at the command-line option (e.g. "set") and quotes arg, the
 * argument as the user wrote it (e.g. "cpu.ncpus=abc").
 */
bool params_apply_override(const struct param_def *table, void *params,
			   const char *assignment, const char *option,
			   const char *arg, GError **err);

/* Render a value of params as text (for reports and --help). */
char *params_value_string(const struct param_def *row, const void *params);

/* Print the table as Markdown: name, unit, default, range, help. */
void params_print_markdown(const struct param_def *table, GString *out);

#endif
