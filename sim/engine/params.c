/* Parameter tables: defaults, profile values, overrides, documentation. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "params.h"
#include "util.h"

#define FIELD(params, row, type) ((type *)((char *)(params) + (row)->offset))

const struct param_def *params_find(const struct param_def *table,
				    const char *name)
{
	for (const struct param_def *r = table; r->name; r++)
		if (strcmp(r->name, name) == 0)
			return r;
	return NULL;
}

static bool parse_number(const char *text, double *out)
{
	char *end;

	if (!text || !*text)
		return false;
	errno = 0;
	*out = g_ascii_strtod(text, &end);
	return errno == 0 && *end == '\0' && isfinite(*out);
}

static int enum_index(const struct param_def *row, const char *name)
{
	for (int i = 0; row->choices && row->choices[i]; i++)
		if (strcmp(row->choices[i], name) == 0)
			return i;
	return -1;
}

static GString *choice_list(const struct param_def *row)
{
	GString *s = g_string_new(NULL);
	for (int i = 0; row->choices && row->choices[i]; i++)
		g_string_append_printf(s, "%s%s", i ? ", " : "", row->choices[i]);
	return s;
}

/*
 * Store one value given as text (a default, an override or the textual form
 * of a JSON scalar) into its field. Returns an error message, or NULL.
 */
static char *store_text(const struct param_def *row, void *params,
			const char *text)
{
	double v;

	switch (row->type) {
	case PARAM_BOOL:
		if (strcmp(text, "true") == 0 || strcmp(text, "1") == 0)
			*FIELD(params, row, bool) = true;
		else if (strcmp(text, "false") == 0 || strcmp(text, "0") == 0)
			*FIELD(params, row, bool) = false;
		else
			return g_strdup_printf("'%s' is not true or false", text);
		return NULL;
	case PARAM_ENUM: {
		int i = enum_index(row, text);
		if (i < 0) {
			g_autoptr(GString) l = choice_list(row);
			return g_strdup_printf("'%s' is not one of: %s", text, l->str);
		}
		*FIELD(params, row, int) = i;
		return NULL;
	}
	case PARAM_STRING:
		g_free(*FIELD(params, row, char *));
		*FIELD(params, row, char *) = g_strdup(text);
		return NULL;
	default:
		break;
	}

	if (!parse_number(text, &v))
		return g_strdup_printf("'%s' is not a number", text);
	if ((row->min != 0 || row->max != 0) && (v < row->min || v > row->max))
		return g_strdup_printf("%s is outside [%g, %g] %s", text, row->min,
				       row->max, row->unit);
	switch (row->type) {
	case PARAM_U32:
	case PARAM_U64:
	case PARAM_TIME:
		if (v < 0 || v != floor(v))
			return g_strdup_printf("'%s' is not a whole number >= 0", text);
		if (row->type == PARAM_U32) {
			if (v > UINT32_MAX)
				return g_strdup_printf("'%s' is too large", text);
			*FIELD(params, row, uint32_t) = (uint32_t)v;
		} else {
			if (v >= 18446744073709551616.0)
				return g_strdup_printf("'%s' is too large", text);
			*FIELD(params, row, uint64_t) = (uint64_t)v;
		}
		return NULL;
	case PARAM_DOUBLE:
		*FIELD(params, row, double) = v;
		return NULL;
	default:
		g_assert_not_reached();
	}
}

void params_set_defaults(const struct param_def *table, void *params)
{
	for (const struct param_def *r = table; r->name; r++) {
		if (r->type == PARAM_STRING)
			*FIELD(params, r, char *) = NULL;
		char *msg = store_text(r, params, r->def ? r->def : "0");
		if (msg)
			g_error("parameter %s: bad default: %s", r->name, msg);
	}
}

void params_clear(const struct param_def *table, void *params)
{
	for (const struct param_def *r = table; r->name; r++)
		if (r->type == PARAM_STRING)
			g_clear_pointer(FIELD(params, r, char *), g_free);
}

static const char *expected_unit(const struct param_def *row)
{
	return row->unit ? row->unit : "";
}

bool params_apply_json(const struct param_def *table, void *params,
		       json_object *obj, const char *file, const char *text,
		       GError **err)
{
	if (!json_object_is_type(obj, json_type_object)) {
		storsim_input_error(err, file, storsim_json_key_line(text, "params"),
				    "params", "must be an object");
		return false;
	}
	json_object_object_foreach(obj, key, val) {
		const struct param_def *row = params_find(table, key);
		int line = storsim_json_key_line(text, key);
		json_object *jv, *ju, *js;

		if (!row) {
			storsim_input_error(err, file, line, key,
					    "unknown parameter for this model "
					    "(see 'storsim params')");
			return false;
		}
		if (!json_object_is_type(val, json_type_object) ||
		    !json_object_object_get_ex(val, "value", &jv)) {
			storsim_input_error(err, file, line, key,
					    "must be {\"value\": ..., \"unit\": "
					    "\"%s\", \"source\": \"...\"}",
					    expected_unit(row));
			return false;
		}
		json_object_object_foreach(val, field, unused) {
			(void)unused;
			if (strcmp(field, "value") && strcmp(field, "unit") &&
			    strcmp(field, "source") && strcmp(field, "note")) {
				storsim_input_error(err, file, line, key,
						    "unknown field '%s' (allowed: "
						    "value, unit, source, note)", field);
				return false;
			}
		}
		if (!json_object_object_get_ex(val, "unit", &ju) ||
		    strcmp(json_object_get_string(ju), expected_unit(row)) != 0) {
			storsim_input_error(err, file, line, key,
					    "unit must be \"%s\"", expected_unit(row));
			return false;
		}
		if (!json_object_object_get_ex(val, "source", &js) ||
		    !json_object_is_type(js, json_type_string) ||
		    !*json_object_get_string(js)) {
			storsim_input_error(err, file, line, key,
					    "needs a \"source\": a public "
					    "measurement, or \"fitted to <experiment>\"");
			return false;
		}

		const char *vtext;
		switch (json_object_get_type(jv)) {
		case json_type_boolean:
			vtext = json_object_get_boolean(jv) ? "true" : "false";
			if (row->type != PARAM_BOOL)
				goto wrong_type;
			break;
		case json_type_int:
		case json_type_double:
			if (row->type == PARAM_BOOL || row->type == PARAM_ENUM ||
			    row->type == PARAM_STRING)
				goto wrong_type;
			vtext = json_object_get_string(jv);
			break;
		case json_type_string:
			if (row->type != PARAM_ENUM && row->type != PARAM_STRING)
				goto wrong_type;
			vtext = json_object_get_string(jv);
			break;
		default:
			goto wrong_type;
		}
		char *msg = store_text(row, params, vtext);
		if (msg) {
			storsim_input_error(err, file, line, key, "%s", msg);
			g_free(msg);
			return false;
		}
		continue;
wrong_type:
		storsim_input_error(err, file, line, key, "value has the wrong type");
		return false;
	}
	return true;
}

bool params_apply_override(const struct param_def *table, void *params,
			   const char *assignment, const char *option,
			   const char *arg, GError **err)
{
	const char *eq = strchr(assignment, '=');
	if (!eq) {
		storsim_input_error(err, "command line", 0, option,
				    "'%s': no '=VALUE'", arg);
		return false;
	}
	g_autofree char *name = g_strndup(assignment, eq - assignment);
	const struct param_def *row = params_find(table, name);
	if (!row) {
		storsim_input_error(err, "command line", 0, option,
				    "'%s': no parameter '%s' (see 'storsim params')",
				    arg, name);
		return false;
	}
	g_autofree char *msg = store_text(row, params, eq + 1);
	if (msg) {
		storsim_input_error(err, "command line", 0, option, "'%s': %s", arg,
				    msg);
		return false;
	}
	return true;
}

char *params_value_string(const struct param_def *row, const void *params)
{
	void *p = (void *)params;

	switch (row->type) {
	case PARAM_U32:
		return g_strdup_printf("%u", *FIELD(p, row, uint32_t));
	case PARAM_U64:
	case PARAM_TIME:
		return g_strdup_printf("%" G_GUINT64_FORMAT, *FIELD(p, row, uint64_t));
	case PARAM_DOUBLE: {
		char buf[G_ASCII_DTOSTR_BUF_SIZE];
		return g_strdup(g_ascii_formatd(buf, sizeof(buf), "%g",
						*FIELD(p, row, double)));
	}
	case PARAM_BOOL:
		return g_strdup(*FIELD(p, row, bool) ? "true" : "false");
	case PARAM_ENUM:
		return g_strdup(row->choices[*FIELD(p, row, int)]);
	case PARAM_STRING: {
		const char *s = *FIELD(p, row, char *);
		return g_strdup(s ? s : "");
	}
	}
	g_assert_not_reached();
}

void params_print_markdown(const struct param_def *table, GString *out)
{
	g_string_append(out, "| parameter | unit | default | range | meaning |\n"
			     "|---|---|---|---|---|\n");
	for (const struct param_def *r = table; r->name; r++) {
		g_autofree char *range = NULL;
		if (r->type == PARAM_ENUM) {
			g_autoptr(GString) l = choice_list(r);
			range = g_strdup(l->str);
		} else if (r->min != 0 || r->max != 0) {
			range = g_strdup_printf("%g to %g", r->min, r->max);
		} else {
			range = g_strdup("");
		}
		g_string_append_printf(out, "| `%s` | %s | %s | %s | %s |\n", r->name,
				       expected_unit(r), r->def ? r->def : "", range,
				       r->help ? r->help : "");
	}
}
