/*
 * storsim calibrate: describe this machine from measurements.
 *
 * Runs the calibration suite (sim/calibrate/points.c) in real fio 3.33 on
 * loop devices over tmpfs files and on fio's null engine, fits a host
 * profile and the XFS and ext4 profiles to what the runs cost
 * (sim/calibrate/fit.c), and writes them with the loop devices' device
 * profile and the measurements, for storsim run --host=... and for
 * storsim validate real. docs/calibrate.md is the guide.
 */
#include <gio/gio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "calibrate/fit.h"
#include "calibrate/session.h"
#include "commands.h"
#include "engine/util.h"
#include "cli.h"

#define BACKING_MB 1024
/* The split of costs inside each group the fit starts from: a Linux 6.x
 * machine's, with a remote wake-up's IPI and a lazy-TLB switch priced
 * (the default profile has neither). */
#define CAL_BASE "axboe-5950x-2023"
#define REGION_MB 512

struct progress_ctx {
	struct progress_line *pl;
	unsigned total;
};

static void fit_progress(void *data, unsigned eval, const char *what)
{
	struct progress_ctx *c = data;

	if (c->pl->on && progress_line_due(c->pl))
		progress_line_print(c->pl, "calibrate: fitting, simulation of the "
				    "suite %u (about %u): %s", eval, c->total, what);
}

static double err_pct(double sim, double real)
{
	return real > 0 ? 100 * (sim - real) / real : 0;
}

/* The suite's runs in which a group carries at least 5% of the CPU time. */
static char *exercised_by(const struct cal_fit_result *r, unsigned j,
			  unsigned n)
{
	GString *s = g_string_new("");
	unsigned k = 0;

	for (unsigned i = 0; i < n; i++)
		if (r->share[i] && r->share[i][j] >= 0.05) {
			g_autofree char *name = cal_point_name(&cal_suite[i]);
			g_string_append_printf(s, "%s%s", k++ ? ", " : "", name);
		}
	if (!k)
		g_string_append(s, "none");
	return g_string_free(s, FALSE);
}

static void report(GString *out, const struct cal_session *s,
		   const struct cal_fit_result *r, const char *runtime_sim)
{
	const struct real_facts *f = &s->facts;

	g_string_append_printf(out, "storsim calibrate: %s, Linux %s, %u CPUs; "
			       "%u runs x %u passes of %s in fio 3.33, "
			       "simulated for %s each\n\n",
			       f->cpu_model ? f->cpu_model : "?", f->kernel, f->ncpus,
			       s->n, s->repeat, s->runtime, runtime_sim);
	g_string_append(out, "Residuals of the calibration runs (real: median of the "
			     "passes; spread: (max-min)/median of the real IOPS)\n");
	g_string_append_printf(out, "%-38s %9s %9s %7s | %7s %7s %7s | %7s %7s %7s | %6s %6s\n",
			       "run", "IOPS", "sim", "err", "CPU/IO", "sim", "err",
			       "usr/IO", "sim", "err", "spread", "other");
	for (unsigned i = 0; i < s->n; i++) {
		const struct cal_measure *m = &s->median[i], *x = &r->sim[i];
		g_autofree char *name = cal_point_name(&s->pts[i]);
		g_string_append_printf(out,
			"%-38s %9.0f %9.0f %+6.1f%% | %6.2fu %6.2fu %+6.1f%% | "
			"%6.2fu %6.2fu %+6.1f%% | %5.1f%% %6.2f\n",
			name, m->iops, x->iops, err_pct(x->iops, m->iops),
			m->cpu_us, x->cpu_us, err_pct(x->cpu_us, m->cpu_us),
			m->usr_us, x->usr_us, err_pct(x->usr_us, m->usr_us),
			100 * cal_measure_spread(&s->runs[(size_t)i * s->repeat],
						 s->repeat, CAL_IOPS),
			m->other_cpus);
	}
	g_string_append_printf(out, "(u: microseconds; other: CPUs busy with "
			       "other work during the run, median)\n");
	if (s->quiet_cpus)
		g_string_append_printf(out, "%u real runs made again because other "
				       "work kept more than %.2f CPUs busy; %u kept "
				       "although it did\n", s->reruns, s->quiet_cpus,
				       s->busy_runs);
	g_string_append(out, "\n");
	g_string_append(out, "What each run exercises: each group's share of the run's "
			     "simulated CPU time per I/O, with the base profile (%)\n");
	g_string_append_printf(out, "%-38s", "run");
	for (unsigned j = 0; j < cal_ngroups; j++)
		g_string_append_printf(out, " %9s", cal_groups[j].name);
	g_string_append(out, "\n");
	for (unsigned i = 0; i < s->n; i++) {
		g_autofree char *name = cal_point_name(&s->pts[i]);
		g_string_append_printf(out, "%-38s", name);
		for (unsigned j = 0; j < cal_ngroups; j++)
			g_string_append_printf(out, " %9.1f",
					       r->share[i] ? 100 * r->share[i][j] : 0);
		g_string_append(out, "\n");
	}
	g_string_append(out, "\n");
	g_string_append(out, "Fitted parameters (a group's scale multiplies every "
			     "value of the group in the base profile)\n");
	for (unsigned j = 0; j < r->nparams; j++) {
		bool idle = j == cal_ngroups;
		const char *what = idle ? "exit latency of an idle CPU (not CPU time)" :
				   cal_groups[j].what;
		if (!r->fitted[j]) {
			g_string_append_printf(out, "  %-10s %-22s %s: kept (%s)\n",
					       cal_fit_param_name(j), "", what,
					       r->why[j] ? r->why[j] : "");
			continue;
		}
		if (idle)
			g_string_append_printf(out, "  %-10s %7.2f us +- %5.2f    %s\n",
					       "idle_exit", r->value[j] / 1000,
					       r->se[j] / 1000, what);
		else
			g_string_append_printf(out, "  %-10s x%6.3f +- %5.3f (%4.1f%%) %s\n",
					       cal_fit_param_name(j), r->value[j],
					       r->se[j], 100 * r->se[j] / r->value[j],
					       what);
	}
	g_string_append_printf(out, "\nSum of squared relative residuals: %.4f with "
			       "the base profile, %.4f fitted (%u iterations, %u "
			       "simulations of the suite)\n", r->rss0, r->rss,
			       r->iterations, r->evaluations);
}

/* Per suite run, with the fitted profiles: the stages storsim charges on
 * its path, with their calls and CPU time per I/O. */
static bool write_stages(const char *path, const struct cal_session *s,
			 const struct cal_profiles *pr, const char *runtime,
			 const char *work, GError **err)
{
	g_autoptr(GString) o = g_string_new("");

	g_string_append(o, "The stages storsim charges on each calibration run's path, "
			   "with the fitted profiles:\ncalls and CPU time (ns) per I/O, "
			   "and the CPU-time class\n");
	for (unsigned i = 0; i < s->n; i++) {
		struct run_metrics m = {0};
		struct cal_measure x;
		g_autofree char *name = cal_point_name(&s->pts[i]);
		if (!cal_simulate(pr, &s->pl, &s->pts[i], runtime, work, &x, &m, err))
			return false;
		g_string_append_printf(o, "\n%s: %.2f us of CPU per I/O simulated, "
				       "%.2f us real\n", name, x.cpu_us,
				       s->median[i].cpu_us);
		for (unsigned k = 0; k < stage_count(); k++) {
			if (!m.stage_calls[k])
				continue;
			const struct stage_info *si = stage_get((stage_id)k);
			g_string_append_printf(o, "  %-24s %8.3f %9.1f  %s\n", si->name,
					       (double)m.stage_calls[k] / (double)m.ios,
					       (double)m.stage_ns[k] / (double)m.ios,
					       cpu_class_name(si->cls));
		}
		run_metrics_clear(&m);
	}
	return g_file_set_contents(path, o->str, -1, err);
}

static void set_fact(struct cal_profile *h, const char *model, const char *param,
		     const char *value, const char *source)
{
	g_autoptr(GError) err = NULL;
	if (!cal_profile_set(h, model, param, value, source, &err))
		g_error("calibrate: %s.%s=%s: %s", model, param, value, err->message);
}

static void set_facts(struct cal_profile *h, const struct real_facts *f)
{
	char v[64];

#define FACT(model, param, fmt, val, src) \
	do { \
		g_snprintf(v, sizeof(v), fmt, val); \
		set_fact(h, model, param, v, src); \
	} while (0)
	FACT("cpu", "ncpus", "%u", f->ncpus, "this machine: CPUs online (sysconf)");
	FACT("cpu", "page_size", "%u", f->page_size, "this machine: sysconf(_SC_PAGESIZE)");
	FACT("cpu", "mem_mb", "%u", f->mem_mb, "this machine: MemTotal in /proc/meminfo");
	FACT("cpu", "hz", "%u", f->hz, "this machine: CONFIG_HZ in /proc/config.gz "
	     "(250, Debian's, when the kernel does not show its config)");
	FACT("cpu", "preempt", "%s", f->preempt, "this machine: the CONFIG_PREEMPT_* "
	     "choice in /proc/config.gz (voluntary, Debian's, when not shown)");
	FACT("cpu", "idle_governor", "%s", "oracle", "the idle state a wake-up pays is "
	     "the one its idle period reached (one state fitted)");
	FACT("pagecache", "cache_mb", "%u", f->mem_mb,
	     "this machine: MemTotal in /proc/meminfo");
	FACT("pagecache", "dirty_background_ratio", "%u", f->dirty_background_ratio,
	     "this machine: /proc/sys/vm/dirty_background_ratio");
	FACT("pagecache", "dirty_ratio", "%u", f->dirty_ratio,
	     "this machine: /proc/sys/vm/dirty_ratio");
	FACT("pagecache", "dirty_expire_ns", "%" G_GUINT64_FORMAT,
	     (guint64)f->dirty_expire_ms * 1000000,
	     "this machine: /proc/sys/vm/dirty_expire_centisecs");
	FACT("pagecache", "dirty_writeback_ns", "%" G_GUINT64_FORMAT,
	     (guint64)f->dirty_writeback_ms * 1000000,
	     "this machine: /proc/sys/vm/dirty_writeback_centisecs");
	FACT("pagecache", "read_ahead_kb", "%u", f->read_ahead_kb,
	     "this machine: read_ahead_kb of a loop device on a tmpfs file "
	     "(/sys/block/loopN/queue)");
#undef FACT
}

static char *group_source(const struct cal_session *s,
			  const struct cal_fit_result *r, unsigned j,
			  const char *base)
{
	g_autofree char *runs = exercised_by(r, j, s->n);
	if (j == cal_ngroups)
		return g_strdup_printf(
			"storsim calibrate on %s, Linux %s: the one idle state's "
			"exit latency, %.0f +- %.0f ns, fitted with the cost groups "
			"by least squares to %u calibration runs' CPU time, user time "
			"and IOPS (docs/calibrate.md); it sets the latency of the "
			"runs at depth 1",
			s->facts.cpu_model, s->facts.kernel, r->value[j], r->se[j], s->n);
	return g_strdup_printf(
		"storsim calibrate on %s, Linux %s: the value of base profile %s "
		"({base}) times %.3f "
		"+- %.3f, the scale of group '%s' fitted by least squares to %u "
		"calibration runs' CPU time, user time and IOPS (docs/calibrate.md); "
		"the runs it is 5%% or more of: %s",
		s->facts.cpu_model, s->facts.kernel, base ? base : "default",
		r->value[j], r->se[j], cal_groups[j].name, s->n, runs);
}

int cmd_calibrate(int argc, char **argv)
{
	g_autofree char *outdir = NULL, *name = NULL, *base = NULL, *rt_opt = NULL,
			*srt_opt = NULL, *meas = NULL, *fio = NULL, *eta = NULL;
	g_autofree char *runtime = NULL, *sim_runtime = NULL;
	gint repeat = 3, quiet_wait = 900;
	gdouble quiet = 0.3;
	gboolean dry_run = FALSE;
	g_autoptr(GError) err = NULL;
	g_autoptr(GOptionContext) ctx = g_option_context_new("");
	const GOptionEntry entries[] = {
		{"output-dir", 0, 0, G_OPTION_ARG_FILENAME, &outdir,
		 "Write the profiles and measurements under DIR (default calibration)",
		 "DIR"},
		{"name", 0, 0, G_OPTION_ARG_STRING, &name,
		 "Name of the host profile written (default calibrated)", "NAME"},
		{"base", 0, 0, G_OPTION_ARG_STRING, &base,
		 "Host profile whose values the fit scales (default "
		 CAL_BASE ")", "PROFILE"},
		{"runtime", 0, 0, G_OPTION_ARG_STRING, &rt_opt,
		 "Run time of each real run (default 2s)", "TIME"},
		{"repeat", 0, 0, G_OPTION_ARG_INT, &repeat,
		 "Passes over the suite, interleaved (default 3)", "N"},
		{"sim-runtime", 0, 0, G_OPTION_ARG_STRING, &srt_opt,
		 "Simulated run time of each run during the fit (default 200ms)", "TIME"},
		{"measurements", 0, 0, G_OPTION_ARG_FILENAME, &meas,
		 "Fit to the measurements.json of an earlier calibration instead "
		 "of running fio", "FILE"},
		{"fio", 0, 0, G_OPTION_ARG_FILENAME, &fio,
		 "The fio 3.33 to run (default fio in PATH)", "PATH"},
		{"quiet-cpus", 0, 0, G_OPTION_ARG_DOUBLE, &quiet,
		 "Before each real run, wait until at most N CPUs are busy with "
		 "other work, and run again a run during which more were "
		 "(default 0.3; 0: never wait)", "N"},
		{"quiet-wait", 0, 0, G_OPTION_ARG_INT, &quiet_wait,
		 "Wait at most S seconds for that over the whole command (default "
		 "900)",
		 "S"},
		{"dry-run", 0, 0, G_OPTION_ARG_NONE, &dry_run,
		 "List the calibration runs and exit", NULL},
		{"eta", 0, 0, G_OPTION_ARG_STRING, &eta, PROGRESS_ETA_HELP, "WHEN"},
		{NULL},
	};
	g_autofree char *hosts = NULL, *devs = NULL, *fss = NULL, *work = NULL,
			*meas_out = NULL, *loop_name = NULL, *loop_file = NULL, *loop_path = NULL,
			*mb = NULL, *host_file = NULL, *host_path = NULL, *xfs_name = NULL,
			*ext4_name = NULL, *xfs_file = NULL, *ext4_file = NULL, *xfs_path = NULL,
			*ext4_path = NULL, *rep = NULL;
	g_autofree const char **sources = NULL;
	g_autoptr(GString) text = NULL;
	g_autoptr(GPtrArray) keep = NULL;
	g_autofree char *stages = NULL;
	struct cal_profiles final = {0};
	struct progress_line pl;
	struct progress_ctx pc;
	bool fitted;
	struct cal_session s = {0};
	struct cal_fit_state st = {0};
	struct cal_fit_result fr = {0};
	struct cal_profile loop = {0};
	int ret = 1;

	g_option_context_set_summary(ctx,
		"Measure this machine with the calibration suite (real fio 3.33 on\n"
		"loop devices over tmpfs files, raw, under XFS and under ext4, and on\n"
		"fio's null engine; root), fit a host profile and XFS and ext4\n"
		"profiles to the runs' CPU time and IOPS, and write them under DIR:\n"
		"hosts/NAME.json, devices/NAME-loop.json, filesystems/NAME-xfs.json,\n"
		"filesystems/NAME-ext4.json, with measurements.json and report.txt.\n"
		"Use them with STORSIM_PROFILE_PATH=DIR storsim run --host=NAME ...;\n"
		"check them with storsim validate real --profiles=DIR --name=NAME.");
	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!cli_parse(ctx, &argc, &argv, &err))
		goto out;
	if (argc != 1) {
		storsim_input_error(&err, "command line", 0, argv[1],
				    "storsim calibrate takes no arguments");
		goto out;
	}
	if (repeat < 1 || repeat > 20) {
		storsim_input_error(&err, "command line", 0, "repeat",
				    "%d is not from 1 to 20", repeat);
		goto out;
	}
	if (!(quiet >= 0 && quiet <= 64)) {
		storsim_input_error(&err, "command line", 0, "quiet-cpus",
				    "%g is not from 0 to 64", quiet);
		goto out;
	}
	if (quiet_wait < 0 || quiet_wait > 86400) {
		storsim_input_error(&err, "command line", 0, "quiet-wait",
				    "%d is not from 0 to 86400 seconds", quiet_wait);
		goto out;
	}
	if (!cal_parse_runtime("runtime", rt_opt ? rt_opt : "2s", &runtime, &err) ||
	    !cal_parse_runtime("sim-runtime", srt_opt ? srt_opt : "200ms", &sim_runtime,
			   &err))
		goto out;
	enum progress_when when = PROGRESS_AUTO;
	if (eta && !progress_when_parse(eta, &when, &err))
		goto out;
	if (!outdir)
		outdir = g_strdup("calibration");
	if (!name)
		name = g_strdup("calibrated");
	if (!base)
		base = g_strdup(CAL_BASE);
	if (!fio)
		fio = g_strdup("fio");
	if (cal_grid_overlap() >= 0) {
		g_autofree char *p = cal_point_name(&cal_grid[cal_grid_overlap()]);
		g_error("calibrate: %s is in the suite and in the grid", p);
	}
	if (dry_run) {
		double each = g_ascii_strtod(runtime, NULL) / 1000 + 0.6;
		printf("storsim calibrate: %u runs, %d passes, %s each "
		       "(about %.0f s of real runs, then the fit):\n",
		       cal_suite_len, repeat, runtime, each * cal_suite_len * repeat);
		for (unsigned i = 0; i < cal_suite_len; i++) {
			g_autofree char *n = cal_point_name(&cal_suite[i]);
			printf("  %2u  %s\n", i + 1, n);
		}
		ret = 0;
		goto out;
	}

	cal_session_init(&s, cal_suite, cal_suite_len, (unsigned)repeat, runtime);
	s.quiet_cpus = quiet;
	s.quiet_wait_s = (unsigned)quiet_wait;
	if (meas ? !cal_session_load(&s, meas, &err) :
		   !cal_session_measure(&s, fio, BACKING_MB, REGION_MB, when,
					"calibrate", &err))
		goto out;
	hosts = g_build_filename(outdir, "hosts", NULL);
	devs = g_build_filename(outdir, "devices", NULL);
	fss = g_build_filename(outdir, "filesystems", NULL);
	work = g_build_filename(outdir, "work", NULL);
	if (g_mkdir_with_parents(hosts, 0755) || g_mkdir_with_parents(devs, 0755) ||
	    g_mkdir_with_parents(fss, 0755) || g_mkdir_with_parents(work, 0755)) {
		g_set_error(&err, G_IO_ERROR, G_IO_ERROR_FAILED, "cannot make %s",
			    outdir);
		goto out;
	}
	meas_out = g_build_filename(outdir, "measurements.json", NULL);
	if (!meas && !cal_session_save(&s, meas_out, &err))
		goto out;

	/* the loop devices, as the real ones were */
	loop_name = g_strconcat(name, "-loop", NULL);
	loop_file = g_strconcat(loop_name, ".json", NULL);
	loop_path = g_build_filename(devs, loop_file, NULL);
	if (!cal_profile_load(&loop, "device", "loop", "loop-tmpfs", &err))
		goto out;
	mb = g_strdup_printf("%u", BACKING_MB);
	set_fact(&loop, "loop", "size_mb", mb, "storsim calibrate: the backing "
		 "file it writes on tmpfs");
	if (!cal_profile_write(&loop, loop_name, NULL, loop_path, &err))
		goto out;

	/* the start: the base profile with this machine's facts */
	if (!cal_profile_load(&st.host, "host", NULL, base, &err) ||
	    !cal_profile_load(&st.base_host, "host", NULL, base, &err) ||
	    !cal_profile_load(&st.xfs, "fs", "fs", "xfs", &err) ||
	    !cal_profile_load(&st.base_xfs, "fs", "fs", "xfs", &err) ||
	    !cal_profile_load(&st.ext4, "fs", "fs", "ext4", &err) ||
	    !cal_profile_load(&st.base_ext4, "fs", "fs", "ext4", &err))
		goto out;
	set_facts(&st.host, &s.facts);
	set_facts(&st.base_host, &s.facts);
	st.dir = g_strdup(work);
	st.paths.host = g_build_filename(work, "host.json", NULL);
	st.paths.xfs = g_build_filename(work, "xfs.json", NULL);
	st.paths.ext4 = g_build_filename(work, "ext4.json", NULL);
	st.paths.loop = g_strdup(loop_path);
	st.pl = &s.pl;
	st.sim_runtime = sim_runtime;
	st.idle_residency = 1000;

	progress_line_init(&pl, when, 0);
	pc = (struct progress_ctx){.pl = &pl, .total = (cal_ngroups + 3) * 4};
	fitted = cal_fit(&st, s.pts, s.median, s.n, &fr, fit_progress, &pc, &err);
	progress_line_end(&pl);
	if (!fitted)
		goto out;

	/* the fitted profiles, each value with where it came from */
	sources = g_new0(const char *, fr.nparams);
	keep = g_ptr_array_new_with_free_func(g_free);
	for (unsigned j = 0; j < fr.nparams; j++) {
		if (!fr.fitted[j])
			continue;
		char *src = group_source(&s, &fr, j, base);
		g_ptr_array_add(keep, src);
		sources[j] = src;
	}
	/* the others keep the base's values and sources, and say why */
	for (unsigned j = 0; j < fr.nparams; j++) {
		if (fr.fitted[j])
			continue;
		char *src = g_strdup_printf("{base} (storsim calibrate kept the "
					    "base profile's value: %s)", fr.why[j]);
		g_ptr_array_add(keep, src);
		sources[j] = src;
	}
	cal_fit_apply(&st, fr.value, sources);
	host_file = g_strconcat(name, ".json", NULL);
	host_path = g_build_filename(hosts, host_file, NULL);
	xfs_name = g_strconcat(name, "-xfs", NULL);
	ext4_name = g_strconcat(name, "-ext4", NULL);
	xfs_file = g_strconcat(xfs_name, ".json", NULL);
	ext4_file = g_strconcat(ext4_name, ".json", NULL);
	xfs_path = g_build_filename(fss, xfs_file, NULL);
	ext4_path = g_build_filename(fss, ext4_file, NULL);
	g_free(st.host.description);
	st.host.description = g_strdup_printf(
		"This machine (%s, Linux %s, %u CPUs) as storsim calibrate measured "
		"it: the base profile '%s' with the machine's facts and its cost "
		"groups scaled to the calibration suite", s.facts.cpu_model,
		s.facts.kernel, s.facts.ncpus, base);
	if (!cal_profile_write(&st.host, name, "Written by storsim calibrate; "
			       "measurements.json and report.txt beside it",
			       host_path, &err) ||
	    !cal_profile_write(&st.xfs, xfs_name, NULL, xfs_path, &err) ||
	    !cal_profile_write(&st.ext4, ext4_name, NULL, ext4_path, &err))
		goto out;

	final = (struct cal_profiles){.host = host_path, .loop = loop_path,
				      .xfs = xfs_path, .ext4 = ext4_path};
	stages = g_build_filename(outdir, "stages.txt", NULL);
	if (!write_stages(stages, &s, &final, sim_runtime, work, &err))
		goto out;
	text = g_string_new("");
	report(text, &s, &fr, sim_runtime);
	g_string_append_printf(text, "\nWrote %s, %s, %s, %s; the stages each run "
			       "charges: %s\n", host_path, loop_path, xfs_path,
			       ext4_path, stages);
	fputs(text->str, stdout);
	rep = g_build_filename(outdir, "report.txt", NULL);
	if (!g_file_set_contents(rep, text->str, -1, &err))
		goto out;
	ret = 0;
out:
	if (err)
		fprintf(stderr, "storsim calibrate: %s\n", err->message);
	cal_fit_result_clear(&fr, s.n);
	cal_profile_clear(&loop);
	cal_profile_clear(&st.host);
	cal_profile_clear(&st.base_host);
	cal_profile_clear(&st.xfs);
	cal_profile_clear(&st.base_xfs);
	cal_profile_clear(&st.ext4);
	cal_profile_clear(&st.base_ext4);
	g_free(st.dir);
	g_free(st.paths.host);
	g_free(st.paths.xfs);
	g_free(st.paths.ext4);
	g_free(st.paths.loop);
	cal_session_clear(&s);
	return ret;
}

