/*
 * storsim calibrate's fit (sim/calibrate/fit.c) finds known values:
 * "measurements" made by storsim itself with chosen group scales and
 * idle exit latency, then spoilt by 2% of noise, are fitted back from the
 * base profile: each value within 10% where its standard error (which
 * the noise makes nonzero) is under 5%, else within four standard
 * errors, or, where the noise hides it, left at its base value with the
 * reason; groups the runs do not exercise are left at their base values
 * and say so.
 * Also: the calibration suite and the validation grid share no point,
 * and a point's job file says what the point is.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "calibrate/fit.h"
#include "system/costs.h"
#include "system/system.h"

static const struct cal_point pts[] = {
	{CAL_NULL, "null", "randread", 4096, 1, 1, false},
	{CAL_RAW, "psync", "randread", 4096, 1, 1, true},
	{CAL_RAW, "psync", "randread", 65536, 1, 1, true},
	{CAL_RAW, "psync", "randwrite", 16384, 1, 1, true},
	{CAL_RAW, "io_uring", "randread", 4096, 1, 1, true},
	{CAL_RAW, "io_uring", "randread", 4096, 8, 1, true},
	{CAL_RAW, "io_uring", "randread", 65536, 4, 1, true},
};
#define NPTS G_N_ELEMENTS(pts)

static unsigned group_index(const char *name)
{
	for (unsigned j = 0; j < cal_ngroups; j++)
		if (strcmp(cal_groups[j].name, name) == 0)
			return j;
	g_assert_not_reached();
}

static void load_state(struct cal_fit_state *st, const char *dir,
		       struct cal_places *pl)
{
	g_autoptr(GError) err = NULL;

	memset(st, 0, sizeof(*st));
	g_assert_true(cal_profile_load(&st->host, "host", NULL, "default", &err));
	g_assert_true(cal_profile_load(&st->base_host, "host", NULL, "default", &err));
	g_assert_true(cal_profile_load(&st->xfs, "fs", "fs", "xfs", &err));
	g_assert_true(cal_profile_load(&st->base_xfs, "fs", "fs", "xfs", &err));
	g_assert_true(cal_profile_load(&st->ext4, "fs", "fs", "ext4", &err));
	g_assert_true(cal_profile_load(&st->base_ext4, "fs", "fs", "ext4", &err));
	/* a 2-CPU machine, as the suite is meant for */
	g_assert_true(cal_profile_set(&st->host, "cpu", "ncpus", "2", "test", &err));
	g_assert_true(cal_profile_set(&st->base_host, "cpu", "ncpus", "2", "test", &err));
	st->dir = g_strdup(dir);
	st->paths.host = g_build_filename(dir, "host.json", NULL);
	st->paths.xfs = g_build_filename(dir, "xfs.json", NULL);
	st->paths.ext4 = g_build_filename(dir, "ext4.json", NULL);
	st->paths.loop = g_strdup("loop-tmpfs");
	st->pl = pl;
	st->sim_runtime = "100ms";
	st->idle_residency = 1000;
}

static void clear_state(struct cal_fit_state *st)
{
	cal_profile_clear(&st->host);
	cal_profile_clear(&st->base_host);
	cal_profile_clear(&st->xfs);
	cal_profile_clear(&st->base_xfs);
	cal_profile_clear(&st->ext4);
	cal_profile_clear(&st->base_ext4);
	g_unlink(st->paths.host);
	g_unlink(st->paths.xfs);
	g_unlink(st->paths.ext4);
	g_free(st->paths.host);
	g_free(st->paths.xfs);
	g_free(st->paths.ext4);
	g_free(st->paths.loop);
	g_autofree char *job = g_build_filename(st->dir, "sim-job.fio", NULL);
	g_unlink(job);
	g_free(st->dir);
}

static void test_fit_recovers_known_scales(void)
{
	g_autoptr(GError) err = NULL;
	g_autofree char *dir = g_dir_make_tmp("test-cal-fit-XXXXXX", &err);
	struct cal_places pl = {.raw_dev = "loop0", .region_mb = 64, .file_mb = 64};
	struct cal_fit_state truth, st;
	struct cal_measure meas[NPTS];
	struct cal_fit_result r;
	double *value = g_new(double, cal_ngroups + 1);
	unsigned fio = group_index("fio"), sys = group_index("syscall"),
		 copy = group_index("copy"), sched = group_index("sched"),
		 aio = group_index("aio");

	g_assert_nonnull(dir);
	load_state(&truth, dir, &pl);
	for (unsigned j = 0; j < cal_ngroups; j++)
		value[j] = 1;
	value[fio] = 1.3;
	value[sys] = 2.0;
	value[copy] = 1.8;
	value[sched] = 0.8;
	value[cal_ngroups] = 6000;	/* idle exit, ns */
	cal_fit_apply(&truth, value, NULL);
	g_assert_true(cal_profile_write(&truth.host, "truth", NULL,
					truth.paths.host, &err));
	g_assert_true(cal_profile_write(&truth.xfs, "t", NULL, truth.paths.xfs, &err));
	g_assert_true(cal_profile_write(&truth.ext4, "t", NULL, truth.paths.ext4, &err));
	for (unsigned i = 0; i < NPTS; i++)
	{
		g_assert_true(cal_simulate(&truth.paths, &pl, &pts[i], "100ms", dir,
					   &meas[i], NULL, &err));
		/* +-2% by point, a different sign for each measure */
		double e = 0.02 * (i % 2 ? 1 : -1);
		meas[i].cpu_us *= 1 + e;
		meas[i].usr_us *= 1 - e;
		meas[i].iops *= 1 + (i % 3 ? e : -e);
	}
	clear_state(&truth);

	load_state(&st, dir, &pl);
	g_assert_true(cal_fit(&st, pts, meas, NPTS, &r, NULL, NULL, &err));
	for (unsigned j = 0; j <= cal_ngroups; j++)
		g_test_message("%s: %s %.4f +- %.4f %s", cal_fit_param_name(j),
			       r.fitted[j] ? "fitted" : "kept", r.value[j], r.se[j],
			       r.why[j] ? r.why[j] : "");
	const unsigned want[] = {fio, sys, copy, sched};
	const double wantv[] = {1.3, 2.0, 1.8, 0.8};
	for (unsigned k = 0; k < G_N_ELEMENTS(want); k++) {
		unsigned j = want[k];
		g_test_message("%s: %.4f +- %.4f (want %.2f)", cal_fit_param_name(j),
			       r.value[j], r.se[j], wantv[k]);
		/* syscalls are a small part of these runs: with the noise the
		 * fit may well refuse to name a value for them */
		if (j == sys && !r.fitted[j]) {
			g_assert_nonnull(strstr(r.why[j], "do not pin it down"));
			continue;
		}
		g_assert_true(r.fitted[j]);
		g_assert_cmpfloat(r.se[j], >, 0);
		/* within 10%, or, where the runs hardly pin it down (a
		 * standard error above 5%), within four standard errors */
		double miss = fabs(r.value[j] - wantv[k]);
		if (r.se[j] < 0.05 * r.value[j])
			g_assert_cmpfloat(miss, <, 0.1 * wantv[k]);
		else
			g_assert_cmpfloat(miss, <, MAX(4 * r.se[j], 0.1 * wantv[k]));
	}
	g_test_message("idle_exit: %.0f +- %.0f ns; %u iterations, %u evaluations",
		       r.value[cal_ngroups], r.se[cal_ngroups], r.iterations,
		       r.evaluations);
	g_assert_cmpfloat(fabs(r.value[cal_ngroups] - 6000), <, 4 * r.se[cal_ngroups]);
	g_assert_cmpfloat(fabs(r.value[cal_ngroups] / 6000 - 1), <, 0.1);
	/* no point uses libaio: its group stays where it was, and says why */
	g_assert_false(r.fitted[aio]);
	g_assert_cmpfloat(r.value[aio], ==, 1);
	g_assert_nonnull(r.why[aio]);
	g_assert_cmpfloat(r.rss, <, r.rss0);
	cal_fit_result_clear(&r, NPTS);
	clear_state(&st);
	g_rmdir(dir);
	g_free(value);
}

static void test_suite_and_grid_are_disjoint(void)
{
	g_assert_cmpint(cal_grid_overlap(), ==, -1);
	g_assert_cmpuint(cal_grid_len, >=, 60);
	for (unsigned i = 0; i < cal_grid_len; i++)
		for (unsigned j = i + 1; j < cal_grid_len; j++)
			g_assert_false(cal_point_equal(&cal_grid[i], &cal_grid[j]));
}

static void test_job_file_says_what_the_point_is(void)
{
	struct cal_places pl = {.raw_dev = "loop5", .xfs_file = "/mnt/x/f",
				.region_mb = 512};
	const struct cal_point raw = {CAL_RAW, "libaio", "randrw", 16384, 8, 2, true};
	const struct cal_point xfs = {CAL_XFS, "psync", "randread", 4096, 1, 1, false};
	g_autofree char *a = cal_point_jobfile(&raw, &pl);
	g_autofree char *b = cal_point_jobfile(&xfs, &pl);

	g_assert_nonnull(strstr(a, "ioengine=libaio\nrw=randrw\nbs=16384\n"
				   "iodepth=8\nnumjobs=2\ndirect=1\n"));
	g_assert_nonnull(strstr(a, "filename=/dev/loop5\nsize=512m\n"));
	g_assert_nonnull(strstr(a, "runtime=${CAL_RUNTIME}"));
	g_assert_null(strstr(a, "pre_read"));
	/* nor does a buffered read of a raw device */
	const struct cal_point rawb = {CAL_RAW, "psync", "randread", 4096, 1, 1, false};
	g_autofree char *c = cal_point_jobfile(&rawb, &pl);
	g_assert_null(strstr(c, "pre_read"));
	/* a buffered read reads its file in first */
	g_assert_nonnull(strstr(b, "filename=/mnt/x/f\n"));
	g_assert_nonnull(strstr(b, "pre_read=1\n"));
}

/* The fit has one unknown per calibrated cost group (the file-system
 * group once per file system), and none for the others. */
static void test_every_calibrated_cost_group_is_fitted(void)
{
	for (unsigned k = 0; k < cost_ngroups; k++) {
		unsigned n = 0;
		for (unsigned j = 0; j < cal_ngroups; j++)
			n += strcmp(cal_groups[j].cost, cost_groups[k].name) == 0;
		g_assert_cmpuint(n, ==, !cost_groups[k].calibrated ? 0 :
					cost_groups[k].fs ? 2 : 1);
	}
}

/* A base profile that inherits another gives calibrate the values the
 * system builder gives a run. */
static void test_profile_load_follows_inherits(void)
{
	g_autoptr(GError) err = NULL;
	struct cal_profile p;
	struct system_config cfg;
	struct system *s;

	g_assert_true(cal_profile_load(&p, "host", NULL, "begunkov-2021", &err));
	system_config_init(&cfg);
	cfg.host = g_strdup("begunkov-2021");
	s = system_new(&cfg, &err);
	g_assert_no_error(err);
	for (const struct model_info *m = model_registry; m->name; m++) {
		if (m->kind != MODEL_HOST)
			continue;
		for (const struct param_def *row = m->params; row->name; row++) {
			g_autofree char *a = params_value_string(
				row, cal_profile_model_params(&p, m));
			g_autofree char *b = params_value_string(
				row, model_values(m, &s->sp, &s->wl));
			g_assert_cmpstr(a, ==, b);
		}
	}
	/* an inherited cost says where it came from */
	g_assert_nonnull(strstr(cal_profile_source(&p, "blk_mq", "submit_bio_ns"),
				"axboe-5950x-2023's value x"));
	system_free(s);
	system_config_clear(&cfg);
	cal_profile_clear(&p);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/calibrate/suite-and-grid-are-disjoint",
			test_suite_and_grid_are_disjoint);
	g_test_add_func("/calibrate/job-file-says-what-the-point-is",
			test_job_file_says_what_the_point_is);
	g_test_add_func("/calibrate/every-calibrated-cost-group-is-fitted",
			test_every_calibrated_cost_group_is_fitted);
	g_test_add_func("/calibrate/profile-load-follows-inherits",
			test_profile_load_follows_inherits);
	g_test_add_func("/calibrate/fit-recovers-known-scales",
			test_fit_recovers_known_scales);
	return g_test_run();
}
