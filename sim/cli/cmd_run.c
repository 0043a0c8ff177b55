/*
 * storsim run: fio job files (and fio-style --name=... options) on the
 * simulated system, with fio's output formats.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "workloads/fio/fio.h"
#include "workloads/fio/jobfile.h"
#include "workloads/fio/options.h"
#include "workloads/fio/output.h"
#include "engine/progress.h"
#include "system/report.h"
#include "system/system.h"
#include "engine/util.h"
#include "cli.h"

struct run_opts {
	char *format;
	gboolean minimal;
	int terse_version;
	char *output;
	gboolean parse_only;
	gboolean cmdhelp;
	char **sections;
	gboolean no_profile;
	char *eta;
	char *eta_interval;
};

static gboolean opt_cmdhelp(const char *name, const char *value, gpointer data,
			    GError **err)
{
	g_autoptr(GString) out = g_string_new(NULL);
	bool ok = fio_options_print_help(out, value);
	fputs(out->str, ok ? stdout : stderr);
	exit(ok ? 0 : 1);
}

/* The progress line of a long run: simulated time (and of how much, when
 * known), I/Os done, wall time. */
struct progress {
	struct fio_run *run;
	struct sim *sim;
	sim_time horizon;
	gint64 start_us;
	struct progress_line line;
};

static void show_progress(void *arg)
{
	struct progress *p = arg;
	uint64_t ios;
	double iops, bw;

	if (!progress_line_due(&p->line))
		return;
	fio_run_totals(p->run, &ios, &iops, &bw);
	g_autofree char *of = p->horizon ?
		g_strdup_printf(" of %.3f s (%.0f%%)", (double)p->horizon / SIM_SEC,
				100.0 * (double)sim_now(p->sim) / (double)p->horizon) :
		g_strdup("");
	progress_line_print(&p->line, "storsim run: %.3f s simulated%s, %"
			    G_GUINT64_FORMAT " I/Os, %.1f s wall",
			    (double)sim_now(p->sim) / SIM_SEC, of, ios,
			    (double)(g_get_monotonic_time() - p->start_us) /
			    G_USEC_PER_SEC);
}

static bool section_wanted(char **sections, const char *name)
{
	if (!sections || !sections[0])
		return true;
	for (char **s = sections; *s; s++)
		if (strcmp(*s, name) == 0)
			return true;
	return false;
}

/* Print or write the results. The simulator's own figures ride along: per
 * run under "storsim", with the CPU profile (the simulated perf report). */
static bool emit(struct run_opts *ro, struct system *sys, struct fio_run *run,
		 unsigned formats, uint64_t *violations, GError **err)
{
	struct output_run out = *fio_run_output(run);

	out.terse_version = (unsigned)ro->terse_version;
	g_autoptr(GString) own = g_string_new(NULL);
	g_autoptr(GString) profile_text = g_string_new(NULL);
	json_object *extra = NULL;

	if (!ro->no_profile || system_power_lost(sys)) {
		extra = ro->no_profile ? json_object_new_object() : report_run_json(sys);
		if (!ro->no_profile)
			report_run_text(sys, own);
		system_durability_report(sys, own, extra, violations);
		storsim_text_block(profile_text, own->str);
		out.json_extra = extra;
		out.text_extra = profile_text->str;
	}
	g_autofree char *text = output_render(&out, formats);
	if (extra)
		json_object_put(extra);
	if (ro->output)
		return output_write_file(ro->output, text, err);
	fputs(text, stdout);
	return true;
}

static int run_jobs(struct run_opts *ro, struct system_config *cfg,
		    GPtrArray *files, GPtrArray *fio_opts)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(GString) failed = g_string_new(NULL);
	unsigned formats;
	enum progress_when when = PROGRESS_AUTO;
	struct system *sys = NULL;
	struct job_list *jl = NULL;
	struct fio_run *run = NULL;
	int ret = 1;

	if (ro->minimal && ro->format) {
		storsim_input_error(&err, "command line", 0, "minimal",
				    "is --output-format=terse: give one of the two");
		goto out;
	}
	if (!output_parse_formats(ro->minimal ? "terse" :
				  ro->format ? ro->format : "normal",
				  "command line", 0, &formats, &err))
		goto out;
	gint64 period_us = 0;
	if ((ro->eta && !progress_when_parse(ro->eta, &when, &err)) ||
	    (ro->eta_interval &&
	     !progress_interval_parse(ro->eta_interval, &period_us, &err)))
		goto out;
	if (ro->terse_version && (ro->terse_version < 2 || ro->terse_version > 5)) {
		storsim_input_error(&err, "command line", 0, "terse-version",
				    "%d is not a terse version (2, 3, 4 or 5)",
				    ro->terse_version);
		goto out;
	}
	sys = system_new(cfg, &err);
	if (!sys)
		goto out;
	struct jobfile_env env = {
		.ncpus = host_ncpus(sys->host),
		.pagesize = sys->sp.cpu.page_size,
		.mb_memory = sys->sp.cpu.mem_mb,
	};
	jl = jobfile_parse(&env, (char **)files->pdata, (int)files->len,
			   (char **)fio_opts->pdata, (int)fio_opts->len, &err);
	if (!jl)
		goto out;
	for (unsigned i = 0; i < jl->warnings->len; i++)
		fprintf(stderr, "storsim: %s\n", (char *)jl->warnings->pdata[i]);
	if (jl->jobs->len == 0) {
		storsim_input_error(&err, NULL, 0, NULL,
				    "no jobs: give a job file or --name=...");
		goto out;
	}
	for (unsigned i = jl->jobs->len; i-- > 0; ) {
		struct job *j = jl->jobs->pdata[i];
		if (!section_wanted(ro->sections, j->section))
			g_ptr_array_remove_index(jl->jobs, i);
	}
	if (ro->parse_only) {
		ret = 0;
		goto out;
	}
	struct workload_env we;
	system_env(sys, "fio", &we);
	run = fio_run_new(&we, jl, &err);
	if (!run)
		goto out;
	if (!ro->no_profile)
		fio_run_trace_layers(run, true);
	struct progress prog = {
		.run = run, .sim = &sys->sim, .horizon = fio_run_horizon(run),
		.start_us = g_get_monotonic_time(),
	};
	progress_line_init(&prog.line, when, period_us);
	if (prog.line.on) {
		sys->sim.on_progress = show_progress;
		sys->sim.progress_arg = &prog;
	}
	bool done = fio_run_exec(run, &err);
	sys->sim.on_progress = NULL;
	progress_line_end(&prog.line);
	if (!done)
		goto out;

	uint64_t violations = 0;
	if (!emit(ro, sys, run, formats, &violations, &err) ||
	    !system_timeline_write(sys, &err))
		goto out;
	if (violations) {
		fprintf(stderr, "storsim run: %" G_GUINT64_FORMAT " writes acknowledged "
			"as durable were lost in the power loss\n", violations);
		goto out;
	}
	if (fio_run_failed(run, failed)) {
		g_auto(GStrv) lines = g_strsplit(failed->str, "\n", -1);
		for (char **l = lines; *l && **l; l++)
			fprintf(stderr, "storsim run: %s\n", *l);
		goto out;
	}
	ret = 0;
out:
	if (err)
		fprintf(stderr, "storsim run: %s\n", err->message);
	fio_run_free(run);
	if (jl)
		job_list_free(jl);
	system_free(sys);
	return ret;
}

/*
 * What GOption left of arg ("--NAME[=VALUE]") is a fio option, unless
 * NAME is none and one of run's own options is nearer than any of fio's
 * ("--hots" is --host, not fio's https): then false, with the suggestion.
 */
static bool own_option_misspelt(GOptionContext *ctx, const char *arg, GError **err)
{
	g_autofree char *name = g_strndup(arg + 2, strcspn(arg + 2, "="));

	if (fio_option_find(name))
		return true;
	g_autofree char *help = g_option_context_get_help(ctx, FALSE, NULL);
	g_autofree char *own = cli_nearest_option(help, arg);
	const char *fio = fio_option_closest(name);
	if (!own || (fio && storsim_edit_distance(name, fio, SIZE_MAX - 1) <
			    storsim_edit_distance(name, own + 2, SIZE_MAX - 1)))
		return true;
	g_autofree char *given = g_strndup(arg, strcspn(arg, "="));
	storsim_input_error(err, "command line", 0, given,
			    "unknown option; did you mean '%s'?", own);
	return false;
}

int cmd_run(int argc, char **argv)
{
	struct run_opts ro = {0};
	struct system_config cfg;
	g_autoptr(GError) err = NULL;
	g_autoptr(GOptionContext) ctx = g_option_context_new("[JOBFILE...]");
	const GOptionEntry entries[] = {
		{"output-format", 0, 0, G_OPTION_ARG_STRING, &ro.format,
		 "normal, json, json+ or terse, several separated by commas",
		 "FORMAT"},
		{"minimal", 0, 0, G_OPTION_ARG_NONE, &ro.minimal,
		 "Terse output: --output-format=terse", NULL},
		{"terse-version", 0, 0, G_OPTION_ARG_INT, &ro.terse_version,
		 "Version of the terse format: 2, 3 (default), 4 or 5", "N"},
		{"output", 0, 0, G_OPTION_ARG_FILENAME, &ro.output,
		 "Write the results to FILE, whole or not at all", "FILE"},
		{"parse-only", 0, 0, G_OPTION_ARG_NONE, &ro.parse_only,
		 "Check the job files and options, run nothing", NULL},
		{"section", 0, 0, G_OPTION_ARG_STRING_ARRAY, &ro.sections,
		 "Run only this job section (repeatable)", "NAME"},
		{"cmdhelp", 0, G_OPTION_FLAG_OPTIONAL_ARG, G_OPTION_ARG_CALLBACK,
		 opt_cmdhelp, "Help on fio's options, or on one", "OPTION"},
		{"no-cpu-profile", 0, 0, G_OPTION_ARG_NONE, &ro.no_profile,
		 "Leave out storsim's own figures: the simulated CPU profile, each job's latency by layer", NULL},
		{"eta", 0, 0, G_OPTION_ARG_STRING, &ro.eta, PROGRESS_ETA_HELP, "WHEN"},
		{"eta-interval", 0, 0, G_OPTION_ARG_STRING, &ro.eta_interval,
		 PROGRESS_INTERVAL_HELP, "TIME"},
		{NULL},
	};

	g_option_context_set_summary(ctx,
		"Run fio job files on the simulated system. fio options may also\n"
		"be given as --NAME=VALUE (--name=JOB starts a job, as in fio).\n"
		"Results are in fio's formats; the simulator's own figures (CPU\n"
		"time per kernel stage, device counters) go under \"storsim\".");
	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_context_set_ignore_unknown_options(ctx, TRUE);
	system_config_init(&cfg);
	system_config_add_options(&cfg, ctx);
	if (!cli_parse(ctx, &argc, &argv, &err)) {
		fprintf(stderr, "storsim run: %s\n", err->message);
		system_config_clear(&cfg);
		return 1;
	}
	g_autoptr(GPtrArray) files = g_ptr_array_new();
	g_autoptr(GPtrArray) fio_opts = g_ptr_array_new();
	for (int i = 1; i < argc; i++) {
		if (g_str_has_prefix(argv[i], "--") && !own_option_misspelt(ctx, argv[i], &err)) {
			fprintf(stderr, "storsim run: %s\n", err->message);
			system_config_clear(&cfg);
			return 1;
		}
		if (g_str_has_prefix(argv[i], "--"))
			g_ptr_array_add(fio_opts, argv[i]);
		else if (strcmp(argv[i], "-") == 0 || argv[i][0] != '-')
			g_ptr_array_add(files, argv[i]);
		else {
			fprintf(stderr, "storsim run: command line: unknown option '%s'\n",
				argv[i]);
			system_config_clear(&cfg);
			return 1;
		}
	}
	int ret = run_jobs(&ro, &cfg, files, fio_opts);
	g_free(ro.format);
	g_free(ro.eta);
	g_free(ro.eta_interval);
	g_free(ro.output);
	g_strfreev(ro.sections);
	system_config_clear(&cfg);
	return ret;
}
