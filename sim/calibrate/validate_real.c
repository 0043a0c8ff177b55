/*
 * storsim validate real: how well a calibrated machine description
 * predicts runs it was not fitted to.
 *
 * Runs the validation grid (sim/calibrate/points.c, disjoint from the
 * calibration suite) in real fio 3.33 on this machine, every point
 * `repeat` times in interleaved passes, and in storsim with the profiles
 * storsim calibrate wrote, and prints per point the error of IOPS, mean
 * and 99th-percentile completion latency and CPU time per I/O, next to
 * the real runs' own spread; then the median and 90th percentile of each
 * error's size and of the spread, and the verdict against the targets:
 * the median |IOPS error| at most 10% and its 90th percentile at most
 * 25%, and the same for CPU time per I/O.
 */
#include <gio/gio.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/util.h"
#include "session.h"
#include "simulate.h"
#include "validate_real.h"
#include "cli/cli.h"

#define BACKING_MB 1024
#define REGION_MB 512
#define TARGET_MEDIAN 10.0
#define TARGET_P90 25.0

static const enum cal_metric shown[] = {CAL_IOPS, CAL_LAT, CAL_P99, CAL_CPU};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The q-quantile (0..1) of v[0..n), by linear interpolation. */
static double quantile(double *v, unsigned n, double q)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	double pos = q * (n - 1);
	unsigned i = (unsigned)pos;
	return i + 1 < n ? v[i] + (pos - i) * (v[i + 1] - v[i]) : v[n - 1];
}

static char *profile_path(const char *dir, const char *sub, const char *name,
			  const char *suffix)
{
	g_autofree char *file = g_strconcat(name, suffix, ".json", NULL);
	return g_build_filename(dir, sub, file, NULL);
}

/* storsim's side of every point, then the table, the summary and the
 * verdict: 0 when the targets are met. */
static int compare(struct cal_session *s, const struct cal_profiles *pr,
		   const char *sim_runtime, const char *work,
		   enum progress_when when, GError **err)
{
	/* storsim's side, then the table */
	g_autofree struct cal_measure *sim = g_new0(struct cal_measure, s->n);
	struct progress_line pl;
	progress_line_init(&pl, when, 0);
	for (unsigned i = 0; i < s->n; i++) {
		g_autofree char *pname = cal_point_name(&s->pts[i]);
		if (pl.on && progress_line_due(&pl))
			progress_line_print(&pl, "validate real: simulating %u/%u: %s",
					    i + 1, s->n, pname);
		if (!cal_simulate(pr, &s->pl, &s->pts[i], sim_runtime, work, &sim[i],
				  NULL, err)) {
			g_prefix_error(err, "simulating %s: ", pname);
			progress_line_end(&pl);
			return 1;
		}
	}
	progress_line_end(&pl);

	g_autofree double *errs = g_new(double, (size_t)s->n * G_N_ELEMENTS(shown));
	g_autofree double *spread = g_new(double, (size_t)s->n * G_N_ELEMENTS(shown));
	const struct real_facts *f = &s->facts;
	printf("storsim validate real: %s, Linux %s, %u CPUs; %u points x %u passes "
	       "of %s in fio 3.33, simulated for %s; profiles %s\n\n",
	       f->cpu_model ? f->cpu_model : "?", f->kernel, f->ncpus, s->n, s->repeat,
	       s->runtime, sim_runtime, pr->host);
	printf("%-40s %9s %9s %7s %6s | %8s %8s %7s %6s | %8s %8s %7s %6s | %7s %7s %7s %6s\n",
	       "point", "IOPS", "sim", "err", "noise", "lat us", "sim", "err", "noise",
	       "p99 us", "sim", "err", "noise", "CPU us", "sim", "err", "noise");
	for (unsigned i = 0; i < s->n; i++) {
		g_autofree char *pname = cal_point_name(&s->pts[i]);
		const struct cal_measure *m = &s->median[i];
		printf("%-40s", pname);
		for (unsigned k = 0; k < G_N_ELEMENTS(shown); k++) {
			double real = cal_measure_get(m, shown[k]);
			double sv = cal_measure_get(&sim[i], shown[k]);
			double e = real > 0 ? 100 * (sv - real) / real : 0;
			double sp = 100 * cal_measure_spread(&s->runs[(size_t)i * s->repeat],
							     s->repeat, shown[k]);
			errs[k * s->n + i] = fabs(e);
			spread[k * s->n + i] = sp;
			if (shown[k] == CAL_IOPS)
				printf(" %9.0f %9.0f %+6.1f%% %5.1f%%", real, sv, e, sp);
			else
				printf(" %s%8.2f %8.2f %+6.1f%% %5.1f%%", k ? "|" : "", real,
				       sv, e, sp);
		}
		printf("\n");
	}
	printf("(noise: (max-min)/median of the %u real runs of the point)\n\n",
	       s->repeat);
	bool pass = true;
	printf("%-24s %12s %12s %12s %12s\n", "", "median |err|", "p90 |err|",
	       "median noise", "p90 noise");
	for (unsigned k = 0; k < G_N_ELEMENTS(shown); k++) {
		double med = quantile(&errs[k * s->n], s->n, 0.5);
		double p90 = quantile(&errs[k * s->n], s->n, 0.9);
		double nmed = quantile(&spread[k * s->n], s->n, 0.5);
		double n90 = quantile(&spread[k * s->n], s->n, 0.9);
		bool judged = shown[k] == CAL_IOPS || shown[k] == CAL_CPU;
		bool ok = med <= TARGET_MEDIAN && p90 <= TARGET_P90;
		if (judged)
			pass &= ok;
		printf("%-24s %11.1f%% %11.1f%% %11.1f%% %11.1f%%  %s\n",
		       shown[k] == CAL_IOPS ? "IOPS" : shown[k] == CAL_LAT ?
		       "mean latency" : shown[k] == CAL_P99 ? "p99 latency" :
		       "CPU time per I/O", med, p90, nmed, n90,
		       !judged ? "(shown, not judged)" : ok ? "meets the target" :
		       "MISSES the target");
	}
	double other = 0;
	for (unsigned i = 0; i < s->n; i++)
		other = MAX(other, s->median[i].other_cpus);
	printf("\nother load during the runs: up to %.2f CPUs (median per point)\n",
	       other);
	if (s->quiet_cpus)
		printf("%u real runs made again because other work kept more than "
		       "%.2f CPUs busy; %u kept although it did\n", s->reruns,
		       s->quiet_cpus, s->busy_runs);
	printf("verdict: %s (targets: median |error| <= %.0f%% and 90th percentile "
	       "<= %.0f%%, for IOPS and for CPU time per I/O)\n",
	       pass ? "PASS" : "FAIL", TARGET_MEDIAN, TARGET_P90);
	return pass ? 0 : 1;
}

int validate_real_main(int argc, char **argv)
{
	g_autofree char *dir = NULL, *name = NULL, *rt_opt = NULL, *srt_opt = NULL,
			*meas = NULL, *fio = NULL, *eta = NULL, *runtime = NULL,
			*sim_runtime = NULL, *meas_out = NULL, *work = NULL;
	gint repeat = 3, quiet_wait = 900;
	gdouble quiet = 0.3;
	gboolean dry_run = FALSE;
	g_autoptr(GError) err = NULL;
	g_autoptr(GOptionContext) ctx = g_option_context_new("");
	const GOptionEntry entries[] = {
		{"profiles", 0, 0, G_OPTION_ARG_FILENAME, &dir,
		 "The output directory of storsim calibrate (default calibration)",
		 "DIR"},
		{"name", 0, 0, G_OPTION_ARG_STRING, &name,
		 "The name calibrate gave the profiles (default calibrated)", "NAME"},
		{"runtime", 0, 0, G_OPTION_ARG_STRING, &rt_opt,
		 "Run time of each real run (default 2s)", "TIME"},
		{"repeat", 0, 0, G_OPTION_ARG_INT, &repeat,
		 "Passes over the grid, interleaved (default 3)", "N"},
		{"sim-runtime", 0, 0, G_OPTION_ARG_STRING, &srt_opt,
		 "Simulated run time of each point (default 1s)", "TIME"},
		{"measurements", 0, 0, G_OPTION_ARG_FILENAME, &meas,
		 "Compare with the validation-measurements.json of an earlier run "
		 "instead of running fio", "FILE"},
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
		 "List the grid's points and exit", NULL},
		{"eta", 0, 0, G_OPTION_ARG_STRING, &eta, PROGRESS_ETA_HELP, "WHEN"},
		{NULL},
	};
	struct cal_session s = {0};
	struct cal_profiles pr = {0};
	int ret = 1;

	g_option_context_set_summary(ctx,
		"Run the validation grid (points disjoint from the calibration\n"
		"suite) in real fio 3.33 on this machine and in storsim with the\n"
		"profiles storsim calibrate wrote in DIR, and print each point's\n"
		"error in IOPS, mean and p99 completion latency and CPU time per\n"
		"I/O next to the real runs' spread, their medians and 90th\n"
		"percentiles, and a verdict. Root. Exit status 1 when a target is\n"
		"missed: median |error| above 10% or 90th percentile above 25%,\n"
		"of IOPS or of CPU time per I/O.");
	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!cli_parse(ctx, &argc, &argv, &err))
		goto out;
	if (argc != 1) {
		storsim_input_error(&err, "command line", 0, argv[1],
				    "storsim validate real takes no arguments");
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
	    !cal_parse_runtime("sim-runtime", srt_opt ? srt_opt : "1s", &sim_runtime,
			   &err))
		goto out;
	enum progress_when when = PROGRESS_AUTO;
	if (eta && !progress_when_parse(eta, &when, &err))
		goto out;
	if (!dir)
		dir = g_strdup("calibration");
	if (!name)
		name = g_strdup("calibrated");
	if (!fio)
		fio = g_strdup("fio");
	if (dry_run) {
		double each = g_ascii_strtod(runtime, NULL) / 1000 + 0.6;
		printf("storsim validate real: %u points, %d passes, %s each "
		       "(about %.0f s of real runs):\n", cal_grid_len, repeat, runtime,
		       each * cal_grid_len * repeat);
		for (unsigned i = 0; i < cal_grid_len; i++) {
			g_autofree char *n = cal_point_name(&cal_grid[i]);
			printf("  %2u  %s\n", i + 1, n);
		}
		ret = 0;
		goto out;
	}
	pr.host = profile_path(dir, "hosts", name, "");
	pr.loop = profile_path(dir, "devices", name, "-loop");
	pr.xfs = profile_path(dir, "filesystems", name, "-xfs");
	pr.ext4 = profile_path(dir, "filesystems", name, "-ext4");
	const char *need[] = {pr.host, pr.loop, pr.xfs, pr.ext4};
	for (unsigned i = 0; i < G_N_ELEMENTS(need); i++)
		if (!g_file_test(need[i], G_FILE_TEST_IS_REGULAR)) {
			storsim_input_error(&err, "command line", 0, "profiles",
					    "%s is missing: run storsim calibrate "
					    "--output-dir=%s first", need[i], dir);
			goto out;
		}
	work = g_build_filename(dir, "work", NULL);
	g_mkdir_with_parents(work, 0755);
	cal_session_init(&s, cal_grid, cal_grid_len, (unsigned)repeat, runtime);
	s.quiet_cpus = quiet;
	s.quiet_wait_s = (unsigned)quiet_wait;
	if (meas ? !cal_session_load(&s, meas, &err) :
		   !cal_session_measure(&s, fio, BACKING_MB, REGION_MB, when,
					"validate real", &err))
		goto out;
	meas_out = g_build_filename(dir, "validation-measurements.json", NULL);
	if (!meas && !cal_session_save(&s, meas_out, &err))
		goto out;

	ret = compare(&s, &pr, sim_runtime, work, when, &err);
out:
	if (err)
		fprintf(stderr, "storsim validate real: %s\n", err->message);
	g_free(pr.host);
	g_free(pr.loop);
	g_free(pr.xfs);
	g_free(pr.ext4);
	cal_session_clear(&s);
	return ret;
}
