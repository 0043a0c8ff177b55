/*
 * storsim sweep: a fio job file over every combination of the values of
 * one or more variables (kernel switches, model parameters, ${VAR}s of
 * the job file), one row per run: IOPS, bandwidth, latency, and the
 * mechanism behind them (CPU time per I/O by class, context switches,
 * the busiest CPU). The way to compare completion strategies, or any
 * other variant of the path, on one's own workload.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "workloads/fio/output.h"
#include "engine/progress.h"
#include "engine/util.h"
#include "system/workload.h"

enum vary_kind { VARY_ENV, VARY_KERNEL, VARY_SET };

struct vary {
	char *key;		/* as given: "kernel.dio_caller_comp", "DEPTH" */
	enum vary_kind kind;
	const char *name;	/* the switch, parameter or variable */
	char **values;
	unsigned nvalues;
};

struct sweep_row {
	unsigned *pick;		/* value index per variable */
	struct run_metrics m;
};

static void vary_free(struct vary *v)
{
	g_free(v->key);
	g_strfreev(v->values);
	g_free(v);
}

static bool env_name(const char *s)
{
	if (!g_ascii_isalpha(*s) && *s != '_')
		return false;
	for (; *s; s++)
		if (!g_ascii_isalnum(*s) && *s != '_')
			return false;
	return true;
}

/* KEY=V1,V2,...: kernel.SWITCH, MODEL.PARAM (as --set takes it) or the
 * name of a ${VAR} of the job file. */
static struct vary *vary_parse(const char *spec, GError **err)
{
	const char *eq = strchr(spec, '=');
	struct vary *v;

	if (!eq || eq == spec || !eq[1]) {
		storsim_input_error(err, "command line", 0, "--vary",
				    "'%s' is not KEY=VALUE[,VALUE...]", spec);
		return NULL;
	}
	v = g_new0(struct vary, 1);
	v->key = g_strndup(spec, (gsize)(eq - spec));
	v->values = g_strsplit(eq + 1, ",", -1);
	v->nvalues = g_strv_length(v->values);
	for (unsigned i = 0; i < v->nvalues; i++)
		if (!v->values[i][0]) {
			storsim_input_error(err, "command line", 0, "--vary",
					    "'%s' has an empty value", spec);
			vary_free(v);
			return NULL;
		}
	if (g_str_has_prefix(v->key, "kernel.")) {
		v->kind = VARY_KERNEL;
		v->name = v->key + 7;
	} else if (strchr(v->key, '.')) {
		v->kind = VARY_SET;
		v->name = v->key;
	} else if (env_name(v->key)) {
		v->kind = VARY_ENV;
		v->name = v->key;
	} else {
		storsim_input_error(err, "command line", 0, "--vary",
				    "'%s' is neither kernel.SWITCH, MODEL.PARAM nor "
				    "the name of a ${VAR} of the job file", v->key);
		vary_free(v);
		return NULL;
	}
	return v;
}

static bool run_one(const struct system_config *base, const char *jobfile,
		    char **fixed_env, GPtrArray *vars, struct sweep_row *row,
		    GError **err)
{
	struct system_config cfg;
	g_autoptr(GPtrArray) env = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GString) label = g_string_new(NULL);
	bool ok;

	system_config_init(&cfg);
	system_config_copy(&cfg, base);
	for (char **e = fixed_env; e && *e; e++)
		g_ptr_array_add(env, g_strdup(*e));
	for (unsigned i = 0; i < vars->len; i++) {
		const struct vary *v = vars->pdata[i];
		const char *val = v->values[row->pick[i]];
		char *kv = g_strdup_printf("%s=%s", v->name, val);
		g_string_append_printf(label, "%s%s=%s", i ? " " : "", v->key, val);
		if (v->kind == VARY_ENV)
			g_ptr_array_add(env, kv);
		else
			g_ptr_array_add(v->kind == VARY_KERNEL ? cfg.kernel : cfg.sets, kv);
	}
	g_ptr_array_add(env, NULL);
	row->m.trace_layers = true;
	ok = workload_fio(&cfg, jobfile, (char **)env->pdata, &row->m, err);
	system_config_clear(&cfg);
	if (!ok && label->len)
		g_prefix_error(err, "the run with %s: ", label->str);
	return ok;
}

static double per_io(const struct run_metrics *m, double x)
{
	return m->ios ? x / (double)m->ios : 0;
}

static const char *value(GPtrArray *vars, const struct sweep_row *row, unsigned i)
{
	return ((struct vary *)vars->pdata[i])->values[row->pick[i]];
}

/* The same runs' latency per I/O by layer: one column per layer. */
static void layers_text(GString *o, GPtrArray *vars, GPtrArray *rows)
{
	g_string_append(o, "\nLatency per I/O (us) by layer, the same runs:\n");
	for (unsigned i = 0; i < vars->len; i++) {
		const struct vary *v = vars->pdata[i];
		g_string_append_printf(o, "%*s ", (int)MAX(strlen(v->key), 6u), v->key);
	}
	g_string_append_c(o, '|');
	for (int l = 0; l < IOL_NR; l++)
		g_string_append_printf(o, " %*s", (int)MAX(strlen(io_layer_name(l)), 7u),
				       io_layer_name(l));
	g_string_append_c(o, '\n');
	for (unsigned r = 0; r < rows->len; r++) {
		const struct sweep_row *row = rows->pdata[r];
		for (unsigned i = 0; i < vars->len; i++) {
			const struct vary *v = vars->pdata[i];
			g_string_append_printf(o, "%*s ", (int)MAX(strlen(v->key), 6u),
					       value(vars, row, i));
		}
		g_string_append_c(o, '|');
		for (int l = 0; l < IOL_NR; l++)
			g_string_append_printf(o, " %*.3f",
					       (int)MAX(strlen(io_layer_name(l)), 7u),
					       io_layers_mean(&row->m.layers, l) / 1e3);
		g_string_append_c(o, '\n');
	}
}

static void print_text(GString *o, const char *jobfile, GPtrArray *vars,
		       GPtrArray *rows)
{
	g_string_append_printf(o, "storsim sweep: %s, %u run%s\n\n", jobfile,
			       rows->len, rows->len == 1 ? "" : "s");
	for (unsigned i = 0; i < vars->len; i++) {
		const struct vary *v = vars->pdata[i];
		int w = (int)MAX(strlen(v->key), 6u);
		g_string_append_printf(o, "%*s ", w, v->key);
	}
	g_string_append(o, "|       IOPS     MB/s  clat mean  clat p99 |"
			   "   usr/IO   sys/IO   irq/IO  ctx/IO | busiest CPU\n");
	for (unsigned r = 0; r < rows->len; r++) {
		const struct sweep_row *row = rows->pdata[r];
		const struct run_metrics *m = &row->m;
		for (unsigned i = 0; i < vars->len; i++) {
			const struct vary *v = vars->pdata[i];
			int w = (int)MAX(strlen(v->key), 6u);
			g_string_append_printf(o, "%*s ", w, value(vars, row, i));
		}
		g_string_append_printf(o, "| %10.0f %8.1f %8.1fus %8.1fus | %6.0fns %6.0fns "
				       "%6.0fns %7.3f | %10.1f%%\n",
				       m->iops, m->bw_bytes / 1e6, m->clat_mean_ns / 1e3,
				       (double)m->clat_p99_ns / 1e3,
				       per_io(m, (double)m->class_ns[CPU_USR]),
				       per_io(m, (double)m->class_ns[CPU_SYS]),
				       per_io(m, (double)(m->class_ns[CPU_IRQ] +
							  m->class_ns[CPU_SOFTIRQ])),
				       per_io(m, (double)m->ctx_switches),
				       m->busiest_cpu_util * 100);
	}
	g_string_append(o, "\nCPU time per I/O is every CPU's, divided by the I/Os "
			   "completed; clat is fio's completion latency of all jobs.\n");
	layers_text(o, vars, rows);
}

static json_object *jnum(double x)
{
	return json_object_new_double(round(x * 1e3) / 1e3);
}

static json_object *to_json(const char *jobfile, GPtrArray *vars, GPtrArray *rows)
{
	json_object *o = json_object_new_object(), *jv = json_object_new_array();
	json_object *jr = json_object_new_array();

	json_object_object_add(o, "jobfile", json_object_new_string(jobfile));
	for (unsigned i = 0; i < vars->len; i++) {
		const struct vary *v = vars->pdata[i];
		json_object *x = json_object_new_object(), *vals = json_object_new_array();
		json_object_object_add(x, "key", json_object_new_string(v->key));
		for (unsigned k = 0; k < v->nvalues; k++)
			json_object_array_add(vals, json_object_new_string(v->values[k]));
		json_object_object_add(x, "values", vals);
		json_object_array_add(jv, x);
	}
	json_object_object_add(o, "vary", jv);
	for (unsigned r = 0; r < rows->len; r++) {
		const struct sweep_row *row = rows->pdata[r];
		const struct run_metrics *m = &row->m;
		json_object *x = json_object_new_object(), *vals = json_object_new_object();
		json_object *cpu = json_object_new_object();
		for (unsigned i = 0; i < vars->len; i++)
			json_object_object_add(vals, ((struct vary *)vars->pdata[i])->key,
					       json_object_new_string(value(vars, row, i)));
		json_object_object_add(x, "values", vals);
		json_object_object_add(x, "iops", jnum(m->iops));
		json_object_object_add(x, "bw_bytes", jnum(m->bw_bytes));
		json_object_object_add(x, "clat_mean_ns", jnum(m->clat_mean_ns));
		json_object_object_add(x, "clat_p99_ns", json_object_new_int64((int64_t)m->clat_p99_ns));
		for (int c = 0; c < CPU_CLASS_NR; c++)
			json_object_object_add(cpu, cpu_class_name(c),
					       jnum(per_io(m, (double)m->class_ns[c])));
		json_object_object_add(x, "cpu_ns_per_io", cpu);
		json_object_object_add(x, "ctx_switches_per_io",
				       jnum(per_io(m, (double)m->ctx_switches)));
		json_object_object_add(x, "busiest_cpu_utilisation",
				       jnum(m->busiest_cpu_util));
		json_object *lay = json_object_new_object();
		for (int l = 0; l < IOL_NR; l++)
			json_object_object_add(lay, io_layer_name(l),
					       jnum(io_layers_mean(&m->layers, l)));
		json_object_object_add(x, "latency_ns_per_io_by_layer", lay);
		json_object_array_add(jr, x);
	}
	json_object_object_add(o, "runs", jr);
	return o;
}

static void row_free(struct sweep_row *row)
{
	run_metrics_clear(&row->m);
	g_free(row->pick);
	g_free(row);
}

int cmd_sweep(int argc, char **argv)
{
	g_auto(GStrv) specs = NULL;
	g_auto(GStrv) fixed_env = NULL;
	g_autofree char *format = NULL, *output = NULL, *eta = NULL;
	g_autoptr(GError) err = NULL;
	g_autoptr(GOptionContext) ctx = g_option_context_new("JOBFILE");
	g_autofree unsigned *pick = NULL;
	g_autoptr(GString) text = NULL;
	struct system_config cfg;
	const GOptionEntry entries[] = {
		{"vary", 0, 0, G_OPTION_ARG_STRING_ARRAY, &specs,
		 "A variable and its values (repeatable): kernel.SWITCH, "
		 "MODEL.PARAM, or a ${VAR} of the job file", "KEY=V1,V2,..."},
		{"env", 0, 0, G_OPTION_ARG_STRING_ARRAY, &fixed_env,
		 "A ${VAR} of the job file that every run gets (repeatable)",
		 "VAR=VALUE"},
		{"output-format", 0, 0, G_OPTION_ARG_STRING, &format,
		 "normal (default) or json", "FORMAT"},
		{"output", 0, 0, G_OPTION_ARG_FILENAME, &output,
		 "Write the report to FILE, whole or not at all", "FILE"},
		{"eta", 0, 0, G_OPTION_ARG_STRING, &eta, PROGRESS_ETA_HELP, "WHEN"},
		{NULL},
	};

	g_option_context_set_summary(ctx,
		"Run a fio job file once for every combination of the values of\n"
		"the --vary variables, on the system the other options describe,\n"
		"and print one row per run: IOPS, bandwidth, completion latency,\n"
		"CPU time per I/O, context switches and the busiest CPU.\n\n"
		"  storsim sweep --vary kernel.dio_caller_comp=false,true \\\n"
		"      --vary DEPTH=1,4,16 --env RUNTIME=2 job.fio");
	g_option_context_add_main_entries(ctx, entries, NULL);
	system_config_init(&cfg);
	system_config_add_options(&cfg, ctx);
	int ret = 1;
	g_autoptr(GPtrArray) vars = g_ptr_array_new_with_free_func((GDestroyNotify)vary_free);
	g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func((GDestroyNotify)row_free);
	if (!g_option_context_parse(ctx, &argc, &argv, &err))
		goto out;
	bool json = format && strcmp(format, "json") == 0;
	if (format && !json && strcmp(format, "normal") != 0) {
		storsim_input_error(&err, "command line", 0, "--output-format",
				    "'%s' is not normal or json", format);
		goto out;
	}
	enum progress_when when = PROGRESS_AUTO;
	if (eta && !progress_when_parse(eta, &when, &err))
		goto out;
	if (argc != 2) {
		storsim_input_error(&err, "command line", 0, "JOBFILE",
				    "give exactly one job file");
		goto out;
	}
	for (char **e = fixed_env; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		g_autofree char *name = eq ? g_strndup(*e, (gsize)(eq - *e)) : NULL;
		if (!name || !env_name(name)) {
			storsim_input_error(&err, "command line", 0, "--env",
					    "'%s' is not VAR=VALUE", *e);
			goto out;
		}
	}
	unsigned total = 1;
	for (char **s = specs; s && *s; s++) {
		struct vary *v = vary_parse(*s, &err);
		if (!v)
			goto out;
		g_ptr_array_add(vars, v);
		total *= v->nvalues;
	}
	struct progress_line progress;
	progress_line_init(&progress, when, 0);
	pick = g_new0(unsigned, vars->len + 1);
	for (unsigned n = 0; n < total; n++) {
		struct sweep_row *row = g_new0(struct sweep_row, 1);
		row->pick = g_memdup2(pick, sizeof(unsigned) * (vars->len + 1));
		g_ptr_array_add(rows, row);
		progress_line_print(&progress, "storsim sweep: run %u of %u", n + 1,
				    total);
		if (!run_one(&cfg, argv[1], fixed_env, vars, row, &err))
			goto out;
		/* The last variable changes fastest. */
		for (unsigned i = vars->len; i-- > 0; ) {
			const struct vary *v = vars->pdata[i];
			if (++pick[i] < v->nvalues)
				break;
			pick[i] = 0;
		}
	}
	progress_line_end(&progress);
	text = g_string_new(NULL);
	if (json) {
		json_object *o = to_json(argv[1], vars, rows);
		g_string_append(text, json_object_to_json_string_ext(o,
				JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
				JSON_C_TO_STRING_NOSLASHESCAPE));
		g_string_append_c(text, '\n');
		json_object_put(o);
	} else {
		print_text(text, argv[1], vars, rows);
	}
	if (output) {
		if (!output_write_file(output, text->str, &err))
			goto out;
	} else {
		fputs(text->str, stdout);
	}
	ret = 0;
out:
	if (err)
		fprintf(stderr, "storsim sweep: %s\n", err->message);
	system_config_clear(&cfg);
	return ret;
}
