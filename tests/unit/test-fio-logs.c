/*
 * fio's log files (sim/workloads/fio/fio_logs.c): names, line layout, per-I/O values,
 * log_avg_msec windows, the bw/iops sampling fio switches to when it logs
 * them, per_job_logs=0 appending, and errors naming the option. Expected
 * lines are worked out by hand from fio 3.33's rules (sim/workloads/fio/fio_logs.c
 * cites them), not taken from the code's output.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "workloads/fio/fio_logs.h"

#define MS SIM_MSEC

static const struct jobfile_env env = {
	.ncpus = 4, .pagesize = 4096, .mb_memory = 2048,
};

static char *tmpdir;

/* The jobs of a job file whose "@" stand for the test's directory. */
static struct job_list *parse(const char *text)
{
	g_autoptr(GError) err = NULL;
	g_auto(GStrv) parts = g_strsplit(text, "@", -1);
	g_autofree char *t = g_strjoinv(tmpdir, parts);
	struct job_list *jl = jobfile_parse_buffer(&env, "t.fio", t, strlen(t),
						   NULL, 0, &err);

	g_assert_no_error(err);
	return jl;
}

/* The logs of job 0 as thread jobnum, with fio's default stats config. */
static struct fio_logs *logs_new(const struct job_list *jl, unsigned jobnum,
				 struct stats_config *cfg)
{
	g_autoptr(GError) err = NULL;
	struct fio_logs *l = NULL;

	stats_config_init(cfg);
	g_assert_true(fio_logs_new(job_list_get(jl, 0), jobnum, cfg, &l, &err));
	g_assert_no_error(err);
	g_assert_nonnull(l);
	return l;
}

static char *slurp(const char *name)
{
	g_autofree char *path = g_build_filename(tmpdir, name, NULL);
	char *text = NULL;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return NULL;
	return text;
}

static void assert_file(const char *name, const char *want)
{
	g_autofree char *got = slurp(name);

	if (!got)
		g_error("%s was not written", name);
	g_assert_cmpstr(got, ==, want);
}

static void assert_no_file(const char *name)
{
	g_autofree char *path = g_build_filename(tmpdir, name, NULL);

	if (g_file_test(path, G_FILE_TEST_EXISTS))
		g_error("%s exists", name);
}

static void remove_logs(void)
{
	GDir *d = g_dir_open(tmpdir, 0, NULL);
	const char *n;

	while ((n = g_dir_read_name(d))) {
		g_autofree char *p = g_build_filename(tmpdir, n, NULL);
		g_remove(p);
	}
	g_dir_close(d);
}

/* End a test: free what it made and empty the directory. */
static void done(struct fio_logs *l, struct job_stats *js, struct job_list *jl)
{
	fio_logs_free(l);
	if (js)
		stats_free(js);
	job_list_free(jl);
	remove_logs();
}

/* Which files exist, and what they are called: the option's prefix or the
 * job's name, the thread number, no slat log with disable_slat. */
static void test_names(void)
{
	struct job_list *jl = parse("[j]\nwrite_lat_log=@/L\nwrite_bw_log\n"
				    "write_iops_log=@/I\ndisable_slat=1\n");
	struct stats_config cfg;
	struct fio_logs *l = logs_new(jl, 3, &cfg);

	fio_logs_finish(l, 0);
	assert_file("L_clat.3.log", "");
	assert_file("L_lat.3.log", "");
	assert_file("I_iops.3.log", "");
	assert_file("j_bw.3.log", "");	/* bare: the job's name, here */
	assert_no_file("L_slat.3.log");
	done(l, NULL, jl);
}

/* A job that asks for no log has none, and its sampling is untouched. */
static void test_no_logs(void)
{
	struct job_list *jl = parse("[j]\nbwavgtime=250\n");
	struct stats_config cfg;
	/* anything but NULL, to see that it is cleared */
	struct fio_logs *l = (struct fio_logs *)&cfg;
	g_autoptr(GError) err = NULL;

	stats_config_init(&cfg);
	cfg.bw_avg_ms = 250;
	g_assert_true(fio_logs_new(job_list_get(jl, 0), 1, &cfg, &l, &err));
	g_assert_null(l);
	g_assert_cmpuint(cfg.bw_avg_ms, ==, 250);
	g_assert_false(cfg.bw_per_io || cfg.iops_per_io);
	job_list_free(jl);
}

/* log_avg_msec=0: a line per I/O. Times count whole ms from the epoch; bw
 * is bytes * 10^6 / clat; slat lines carry the issue time. */
static void test_per_io_lines(void)
{
	static const struct {
		const char *opts;
		const char *lat, *bw, *iops, *slat;
	} cases[] = {
		{"", "2, 13000, 0, 4096, 0\n1000, 2000, 1, 512, 0\n",
		 "2, 409600, 0, 4096, 0\n1000, 512000, 1, 512, 0\n",
		 "2, 1, 0, 4096, 0\n1000, 1, 1, 512, 0\n",
		 "1, 3000, 0, 4096, 0\n"},
		{"log_offset=1\n",
		 "2, 13000, 0, 4096, 8192, 0\n1000, 2000, 1, 512, 1048576, 0\n",
		 "2, 409600, 0, 4096, 8192, 0\n1000, 512000, 1, 512, 1048576, 0\n",
		 "2, 1, 0, 4096, 8192, 0\n1000, 1, 1, 512, 1048576, 0\n",
		 "1, 3000, 0, 4096, 8192, 0\n"},
		{"log_prio=1\n",
		 "2, 13000, 0, 4096, 0x0000\n1000, 2000, 1, 512, 0x0000\n",
		 "2, 409600, 0, 4096, 0x0000\n1000, 512000, 1, 512, 0x0000\n",
		 "2, 1, 0, 4096, 0x0000\n1000, 1, 1, 512, 0x0000\n",
		 "1, 3000, 0, 4096, 0x0000\n"},
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *text = g_strdup_printf(
			"[j]\nwrite_lat_log=@/L\nwrite_bw_log=@/B\n"
			"write_iops_log=@/I\n%s", cases[i].opts);
		struct job_list *jl = parse(text);
		struct stats_config cfg;
		struct fio_logs *l = logs_new(jl, 1, &cfg);
		struct job_stats *js = stats_new(&cfg, 5 * MS);
		sim_time epoch = 5 * MS;

		g_assert_true(cfg.bw_per_io && cfg.iops_per_io);
		fio_logs_start(l, js, epoch);
		fio_logs_slat(l, epoch + 1500000, STATS_READ, 3000, 4096, 8192);
		fio_logs_io(l, epoch + 2999999, STATS_READ, 4096, 8192, 10000,
			    13000);
		fio_logs_io(l, epoch + 1000 * MS, STATS_WRITE, 512, 1048576,
			    1000, 2000);
		fio_logs_finish(l, epoch + 1000 * MS);
		assert_file("L_lat.1.log", cases[i].lat);
		assert_file("B_bw.1.log", cases[i].bw);
		assert_file("I_iops.1.log", cases[i].iops);
		assert_file("L_slat.1.log", cases[i].slat);
		/* clat: as lat, with the completion latencies */
		g_autofree char *clat = slurp("L_clat.1.log");
		g_assert_nonnull(strstr(clat, ", 10000, 0, 4096, "));
		g_assert_nonnull(strstr(clat, "1000, 1000, 1, 512, "));
		done(l, js, jl);
	}
}

/* An engine without a submission phase records no slat: its slat log is
 * made and stays empty, as fio's. */
static void test_sync_engine_slat_empty(void)
{
	struct job_list *jl = parse("[j]\nwrite_lat_log=@/L\n");
	struct stats_config cfg;
	struct fio_logs *l;
	struct fio_logs *out = NULL;
	g_autoptr(GError) err = NULL;

	stats_config_init(&cfg);
	cfg.disable_slat = true;
	g_assert_true(fio_logs_new(job_list_get(jl, 0), 1, &cfg, &out, &err));
	l = out;
	fio_logs_slat(l, 5 * MS, STATS_READ, 3000, 4096, 0);
	fio_logs_io(l, 5 * MS, STATS_READ, 4096, 0, 1000, 1000);
	fio_logs_finish(l, 6 * MS);
	assert_file("L_slat.1.log", "");
	assert_file("L_lat.1.log", "5, 1000, 0, 4096, 0\n");
	done(l, NULL, jl);
}

/*
 * log_avg_msec=100: reads at 10, 50 and 100 ms (100, 200, 401 ns) close
 * the first window at the 100 ms sample, mean 233.67 -> 234; the read at
 * 150 ms opens the next (from 100 ms) and is written at the end (170 ms).
 * Writes keep their own window: 1 and 2 ns average 1.5 -> 2 (half up).
 * With log_max_value the windows give their largest sample.
 */
static void test_averaged_lines(void)
{
	static const struct {
		const char *opts;
		const char *want;
	} cases[] = {
		{"", "100, 234, 0, 0, 0\n170, 7, 0, 0, 0\n170, 2, 1, 0, 0\n"},
		{"log_max_value=1\n",
		 "100, 401, 0, 0, 0\n170, 7, 0, 0, 0\n170, 2, 1, 0, 0\n"},
		{"log_offset=1\n",
		 "100, 234, 0, 0, 0, 0\n170, 7, 0, 0, 0, 0\n170, 2, 1, 0, 0, 0\n"},
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *text = g_strdup_printf(
			"[j]\nwrite_lat_log=@/L\nlog_avg_msec=100\n%s",
			cases[i].opts);
		struct job_list *jl = parse(text);
		struct stats_config cfg;
		struct fio_logs *l = logs_new(jl, 1, &cfg);
		struct job_stats *js = stats_new(&cfg, 0);

		fio_logs_start(l, js, 0);
		fio_logs_io(l, 10 * MS, STATS_READ, 4096, 0, 100, 100);
		fio_logs_io(l, 20 * MS, STATS_WRITE, 4096, 0, 1, 1);
		fio_logs_io(l, 50 * MS, STATS_READ, 4096, 0, 200, 200);
		fio_logs_io(l, 60 * MS, STATS_WRITE, 4096, 0, 2, 2);
		fio_logs_io(l, 100 * MS, STATS_READ, 4096, 0, 401, 401);
		fio_logs_io(l, 150 * MS, STATS_READ, 4096, 0, 7, 7);
		fio_logs_finish(l, 170 * MS);
		assert_file("L_lat.1.log", cases[i].want);
		done(l, js, jl);
	}
}

/* Where fio's bw and iops samples come from once they are logged. */
static void test_sampling_follows_fio(void)
{
	static const struct {
		const char *opts;
		uint64_t bw_ms, iops_ms;
		bool bw_per_io, iops_per_io;
	} cases[] = {
		{"", 500, 500, true, true},
		/* log_avg_msec becomes the window ... */
		{"log_avg_msec=250\n", 250, 250, false, false},
		/* ... unless bwavgtime/iopsavgtime say otherwise */
		{"log_avg_msec=250\nbwavgtime=1000\n", 1000, 250, false, false},
		{"log_avg_msec=2000\niopsavgtime=300\n", 2000, 300, false, false},
		/* an average over min(0, bwavgtime) is per I/O */
		{"bwavgtime=1000\n", 1000, 500, true, true},
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *text = g_strdup_printf(
			"[j]\nwrite_bw_log=@/B\nwrite_iops_log=@/I\n%s",
			cases[i].opts);
		struct job_list *jl = parse(text);
		const struct job_options *o = &job_list_get(jl, 0)->o;
		struct stats_config cfg;
		struct fio_logs *l = NULL;
		g_autoptr(GError) err = NULL;

		stats_config_init(&cfg);
		cfg.bw_avg_ms = o->bw_avg_time / MS;
		cfg.iops_avg_ms = o->iops_avg_time / MS;
		g_assert_true(fio_logs_new(job_list_get(jl, 0), 1, &cfg, &l, &err));
		g_assert_cmpuint(cfg.bw_avg_ms, ==, cases[i].bw_ms);
		g_assert_cmpuint(cfg.iops_avg_ms, ==, cases[i].iops_ms);
		g_assert_cmpint(cfg.bw_per_io, ==, cases[i].bw_per_io);
		g_assert_cmpint(cfg.iops_per_io, ==, cases[i].iops_per_io);
		done(l, NULL, jl);
	}
}

/*
 * With log_avg_msec the bw and iops logs hold the statistics' windowed
 * samples, at each window's end: 100 ms windows, 8 KiB read in the first
 * (80 KiB/s, 20 I/O/s), nothing in the second, 4 KiB in the third, whose
 * sample is taken when the job ends past it. bs and offset are 0.
 */
static void test_windowed_bw_iops(void)
{
	static const uint64_t at_ms[] = {10, 60, 250};
	struct job_list *jl = parse("[j]\nwrite_bw_log=@/B\nwrite_iops_log=@/I\n"
				    "log_avg_msec=100\nlog_offset=1\n");
	struct stats_config cfg;
	struct fio_logs *l = logs_new(jl, 2, &cfg);
	sim_time epoch = 7 * MS;
	struct job_stats *js = stats_new(&cfg, epoch);

	fio_logs_start(l, js, epoch);
	for (unsigned i = 0; i < G_N_ELEMENTS(at_ms); i++) {
		sim_time now = epoch + at_ms[i] * MS;

		stats_add_io(js, STATS_READ, now, 4096, 0, 1000, 1000);
		fio_logs_io(l, now, STATS_READ, 4096, 0, 1000, 1000);
	}
	stats_finish(js, epoch + 300 * MS);
	fio_logs_finish(l, epoch + 300 * MS);
	assert_file("B_bw.2.log", "100, 80, 0, 0, 0, 0\n300, 40, 0, 0, 0, 0\n");
	assert_file("I_iops.2.log", "100, 20, 0, 0, 0, 0\n300, 10, 0, 0, 0, 0\n");
	/* the same samples as the JSON's bw and iops figures */
	g_assert_cmpuint(js->bw[STATS_READ].samples, ==, 2);
	g_assert_cmpfloat(js->bw[STATS_READ].mean, ==, 60.0);
	done(l, js, jl);
}

/* gtod_reduce leaves the per-I/O bw log empty (it sets disable_bw) and the
 * iops log too, and makes no latency log at all, as in fio. */
static void test_disabled_samples(void)
{
	struct job_list *jl = parse("[j]\nwrite_lat_log=@/L\nwrite_bw_log=@/B\n"
				    "write_iops_log=@/I\ngtod_reduce=1\n");
	struct stats_config cfg;
	struct fio_logs *l = logs_new(jl, 1, &cfg);

	fio_logs_io(l, 5 * MS, STATS_READ, 4096, 0, 1000, 1000);
	fio_logs_finish(l, 6 * MS);
	assert_file("B_bw.1.log", "");
	assert_file("I_iops.1.log", "");
	assert_no_file("L_lat.1.log");
	assert_no_file("L_clat.1.log");
	assert_no_file("L_slat.1.log");
	done(l, NULL, jl);
}

static unsigned count_lines(const char *text, const char *with)
{
	unsigned n = 0;

	for (const char *p = text; (p = strstr(p, with)); p += strlen(with))
		n++;
	return n;
}

/*
 * per_job_logs=0: threads share PREFIX_TYPE.log and each adds its lines
 * in one piece when it ends, after what the file held (fio opens it for
 * appending). 6000 lines each is more than the buffer, so they pass
 * through each thread's spool file while the two threads interleave.
 */
static void test_shared_file_appends_whole(void)
{
	struct job_list *jl = parse("[j]\nwrite_iops_log=@/S\nper_job_logs=0\n"
				    "log_offset=1\n");
	g_autofree char *path = g_build_filename(tmpdir, "S_iops.log", NULL);
	struct stats_config c1, c2;
	struct fio_logs *a, *b;
	unsigned n = 6000;

	g_assert_true(g_file_set_contents(path, "old\n", -1, NULL));
	a = logs_new(jl, 1, &c1);
	b = logs_new(jl, 2, &c2);
	for (unsigned i = 0; i < n; i++) {
		/* offset 1: thread a, 2: thread b */
		fio_logs_io(a, i * MS, STATS_READ, 4096, 1, 1000, 1000);
		fio_logs_io(b, i * MS, STATS_WRITE, 4096, 2, 1000, 1000);
	}
	fio_logs_finish(b, n * MS);
	fio_logs_finish(a, n * MS);
	g_autofree char *text = slurp("S_iops.log");
	g_assert_true(g_str_has_prefix(text, "old\n0, 1, 1, 4096, 2, 0\n"));
	g_assert_cmpuint(count_lines(text, ", 4096, 2, 0\n"), ==, n);
	g_assert_cmpuint(count_lines(text, ", 4096, 1, 0\n"), ==, n);
	/* b's lines all come before a's: b's last, then a's first */
	g_autofree char *seam = g_strdup_printf("\n%u, 1, 1, 4096, 2, 0\n"
						"0, 1, 0, 4096, 1, 0\n", n - 1);
	g_assert_nonnull(strstr(text, seam));
	g_autofree char *end = g_strdup_printf("\n%u, 1, 0, 4096, 1, 0\n", n - 1);
	g_assert_true(g_str_has_suffix(text, end));
	fio_logs_free(a);
	done(b, NULL, jl);
}

/* A file that cannot be made stops the run before it starts, naming the
 * option where it was set. */
static void test_create_error_names_option(void)
{
	struct job_list *jl = parse("[j]\nsize=1m\nwrite_bw_log=@/none/B\n");
	struct stats_config cfg;
	struct fio_logs *l = NULL;
	g_autoptr(GError) err = NULL;

	stats_config_init(&cfg);
	g_assert_false(fio_logs_new(job_list_get(jl, 0), 1, &cfg, &l, &err));
	g_assert_nonnull(err);
	g_assert_true(g_str_has_prefix(err->message, "t.fio:3: option 'write_bw_log': "
				       "cannot create '"));
	g_assert_nonnull(strstr(err->message, "/none/B_bw.1.log': No such file"));
	fio_logs_free(l);
	job_list_free(jl);
}

/* A write that fails later (the directory went away) is kept and told by
 * fio_logs_check, with the option; the job goes on without its lines. */
static void test_write_error_is_reported(void)
{
	g_autofree char *sub = g_build_filename(tmpdir, "gone", NULL);
	g_autofree char *file = g_build_filename(sub, "L_lat.1.log", NULL);
	struct job_list *jl = parse("[j]\nwrite_lat_log=@/gone/L\ndisable_slat=1\n"
				    "disable_clat=1\n");
	struct stats_config cfg;
	struct fio_logs *l;
	g_autoptr(GError) err = NULL;

	g_assert_cmpint(g_mkdir(sub, 0755), ==, 0);
	l = logs_new(jl, 1, &cfg);
	g_assert_true(fio_logs_check(l, &err));
	g_assert_cmpint(g_remove(file), ==, 0);
	g_assert_cmpint(g_rmdir(sub), ==, 0);
	for (unsigned i = 0; i < 5000; i++)
		fio_logs_io(l, i * MS, STATS_READ, 4096, 0, 1000, 1000);
	fio_logs_finish(l, 5000 * MS);
	g_assert_false(fio_logs_check(l, &err));
	g_assert_true(g_str_has_prefix(err->message, "t.fio:2: option 'write_lat_log': "
				       "cannot write '"));
	g_assert_nonnull(strstr(err->message, "gone/L_lat.1.log': No such file"));
	fio_logs_free(l);
	job_list_free(jl);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	tmpdir = g_dir_make_tmp("test-fio-logs-XXXXXX", NULL);
	g_assert_nonnull(tmpdir);
	/* a bare write_bw_log names its file after the job, in the current
	 * directory */
	g_assert_cmpint(chdir(tmpdir), ==, 0);
	g_test_add_func("/fio-logs/names", test_names);
	g_test_add_func("/fio-logs/no-logs-change-nothing", test_no_logs);
	g_test_add_func("/fio-logs/per-io-lines", test_per_io_lines);
	g_test_add_func("/fio-logs/sync-engine-slat-empty", test_sync_engine_slat_empty);
	g_test_add_func("/fio-logs/averaged-lines", test_averaged_lines);
	g_test_add_func("/fio-logs/sampling-follows-fio", test_sampling_follows_fio);
	g_test_add_func("/fio-logs/windowed-bw-iops", test_windowed_bw_iops);
	g_test_add_func("/fio-logs/disabled-samples", test_disabled_samples);
	g_test_add_func("/fio-logs/shared-file-appends-whole",
			test_shared_file_appends_whole);
	g_test_add_func("/fio-logs/create-error-names-option",
			test_create_error_names_option);
	g_test_add_func("/fio-logs/write-error-is-reported",
			test_write_error_is_reported);
	int ret = g_test_run();
	remove_logs();
	g_rmdir(tmpdir);
	g_free(tmpdir);
	return ret;
}
