/*
 * Description: the fio-compatible statistics: histogram bucket index and
 * value, percentiles against a brute-force sort, moments against a
 * two-pass computation, bw/iops windows, depth and latency buckets, ramp,
 * disable_* options, group summing, percentile_list parsing, the
 * histograms behind each layer's percentiles.
 */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "engine/stats.h"
#include "engine/util.h"

/* --- histogram --- */

/*
 * Bucket of v computed another way than stats_plat_idx: shift v right
 * until it fits in 7 bits; the shift is the number of discarded bits, the
 * group is shift + 1 and the bucket inside the group the 6 bits below the
 * leading one.
 */
static unsigned reference_idx(uint64_t v)
{
	unsigned shift = 0, idx;

	if (v < 128)
		return (unsigned)v;
	while ((v >> shift) >= 128)
		shift++;
	idx = (shift + 1) * 64 + (unsigned)((v >> shift) - 64);
	return idx < STATS_PLAT_NR ? idx : STATS_PLAT_NR - 1;
}

static void test_plat_index_table(void)
{
	/* Hand-computed: below 128 the value is its bucket; 128..255 pair
	 * up (2 ns wide); 256..511 are 4 ns wide; the last bucket holds
	 * everything from 2^34 ns up. */
	static const struct {
		uint64_t v;
		unsigned idx;
	} cases[] = {
		{ 0, 0 }, { 1, 1 }, { 63, 63 }, { 64, 64 }, { 127, 127 },
		{ 128, 128 }, { 129, 128 }, { 130, 129 }, { 255, 191 },
		{ 256, 192 }, { 259, 192 }, { 260, 193 }, { 511, 255 },
		{ 512, 256 }, { 1000, 317 }, { 4096, 448 },
		{ 1ull << 33, 1792 }, { (1ull << 34) - 1, 1855 },
		{ 1ull << 34, 1855 }, { UINT64_MAX, 1855 },
	};

	for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_test_message("v=%" G_GUINT64_FORMAT, cases[i].v);
		g_assert_cmpuint(stats_plat_idx(cases[i].v), ==, cases[i].idx);
	}
}

static void test_plat_index_matches_reference(void)
{
	/* Powers of two and their neighbours over the whole range. */
	for (unsigned b = 0; b < 64; b++) {
		uint64_t p = 1ull << b;
		uint64_t vs[] = { p - 1, p, p + 1, p + p / 2, p + p / 3 };

		for (unsigned i = 0; i < G_N_ELEMENTS(vs); i++)
			g_assert_cmpuint(stats_plat_idx(vs[i]), ==,
					 reference_idx(vs[i]));
	}
}

static void test_plat_value_is_bucket_midpoint(void)
{
	for (unsigned idx = 0; idx < STATS_PLAT_NR; idx++) {
		uint64_t lo, width, want;

		if (idx < 128) {
			lo = idx;
			width = 1;
			want = idx;
		} else {
			unsigned shift = idx / 64 - 1;

			lo = (uint64_t)(64 + idx % 64) << shift;
			width = 1ull << shift;
			want = lo + width / 2;
		}
		g_assert_cmpuint(stats_plat_val(idx), ==, want);
		/* the bucket spans [lo, lo + width) and no more */
		g_assert_cmpuint(stats_plat_idx(lo), ==, idx);
		g_assert_cmpuint(stats_plat_idx(lo + width - 1), ==, idx);
		if (idx + 1 < STATS_PLAT_NR)
			g_assert_cmpuint(stats_plat_idx(lo + width), ==, idx + 1);
		if (lo)
			g_assert_cmpuint(stats_plat_idx(lo - 1), ==, idx - 1);
		/* round trip */
		g_assert_cmpuint(stats_plat_idx(stats_plat_val(idx)), ==, idx);
	}
}

/* --- helpers --- */

static struct job_stats *new_stats(void)
{
	struct stats_config cfg;

	stats_config_init(&cfg);
	return stats_new(&cfg, 0);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Samples from a named shape, drawn from a seeded GRand. */
static uint64_t draw(GRand *r, const char *shape)
{
	if (!strcmp(shape, "constant"))
		return 4242;
	if (!strcmp(shape, "small"))
		return (uint64_t)g_rand_int_range(r, 0, 300);
	/* log-uniform from 1 ns to about 17 s */
	return (uint64_t)exp(g_rand_double_range(r, 0.0, 23.5));
}

/* --- percentiles --- */

static void test_percentiles_match_sorted_samples(void)
{
	static const char *const shapes[] = { "constant", "small", "wide" };
	static const unsigned sizes[] = { 1, 2, 7, 1000, 100000 };
	static const double plist[] = {
		1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9,
		99.95, 99.99, 100,
	};
	const unsigned np = G_N_ELEMENTS(plist);

	for (unsigned s = 0; s < G_N_ELEMENTS(shapes); s++) {
		for (unsigned z = 0; z < G_N_ELEMENTS(sizes); z++) {
			unsigned n = sizes[z];
			GRand *r = g_rand_new_with_seed(7 + s * 31 + z);
			struct job_stats *js = new_stats();
			uint64_t *mapped = g_new(uint64_t, n), got[20];

			for (unsigned i = 0; i < n; i++) {
				uint64_t v = draw(r, shapes[s]);

				stats_add_io(js, STATS_READ, 0, 4096, 0, v, v);
				mapped[i] = stats_plat_val(stats_plat_idx(v));
			}
			qsort(mapped, n, sizeof(*mapped), cmp_u64);
			g_assert_cmpuint(stats_percentiles(js->plat[STATS_CLAT][STATS_READ],
							   n, plist, np, got), ==, np);
			for (unsigned p = 0; p < np; p++) {
				/* smallest rank k reaching p % of n, with
				 * the arithmetic fio's binary uses */
				const long double need = (long double)plist[p] *
							 ((long double)n * 0.01L);
				uint64_t k = 1;

				while ((long double)k < need)
					k++;
				if (got[p] != mapped[k - 1])
					g_test_message("%s n=%u p=%g", shapes[s],
						       n, plist[p]);
				g_assert_cmpuint(got[p], ==, mapped[k - 1]);
			}
			g_free(mapped);
			stats_free(js);
			g_rand_free(r);
		}
	}
}

static void test_percentiles_of_empty_histogram(void)
{
	struct job_stats *js = new_stats();
	uint64_t out[20];

	g_assert_cmpuint(stats_percentiles(js->plat[STATS_CLAT][STATS_READ], 0,
					   js->cfg.percentiles,
					   js->cfg.nr_percentiles, out), ==, 0);
	stats_free(js);
}

/* --- moments --- */

static void two_pass(const uint64_t *v, unsigned n, double *mean, double *dev)
{
	double sum = 0.0, ss = 0.0;

	for (unsigned i = 0; i < n; i++)
		sum += (double)v[i];
	*mean = sum / n;
	for (unsigned i = 0; i < n; i++)
		ss += ((double)v[i] - *mean) * ((double)v[i] - *mean);
	*dev = n > 1 ? sqrt(ss / (n - 1)) : 0.0;
}

static void test_moments_match_two_pass(void)
{
	static const unsigned sizes[] = { 1, 2, 3, 50, 20000 };

	for (unsigned z = 0; z < G_N_ELEMENTS(sizes); z++) {
		unsigned n = sizes[z];
		GRand *r = g_rand_new_with_seed(11 + z);
		uint64_t *v = g_new(uint64_t, n), min = UINT64_MAX, max = 0;
		struct stats_moments m = { .min = UINT64_MAX };
		uint64_t gmin, gmax;
		double mean, dev, want_mean, want_dev;

		for (unsigned i = 0; i < n; i++) {
			v[i] = draw(r, "wide");
			stats_moments_add(&m, v[i]);
			min = MIN(min, v[i]);
			max = MAX(max, v[i]);
		}
		two_pass(v, n, &want_mean, &want_dev);
		g_assert_true(stats_moments_get(&m, &gmin, &gmax, &mean, &dev));
		g_assert_cmpuint(gmin, ==, min);
		g_assert_cmpuint(gmax, ==, max);
		g_assert_cmpuint(m.samples, ==, n);
		g_assert_cmpfloat_with_epsilon(mean, want_mean, 1e-9 * want_mean);
		g_assert_cmpfloat_with_epsilon(dev, want_dev, 1e-9 * want_dev + 1e-12);
		g_free(v);
		g_rand_free(r);
	}
}

static void test_moments_empty(void)
{
	struct stats_moments m = { .min = UINT64_MAX };
	uint64_t min, max;
	double mean, dev;

	g_assert_false(stats_moments_get(&m, &min, &max, &mean, &dev));
}

static void test_sum_merges_latency_moments(void)
{
	struct job_stats *a = new_stats(), *b = new_stats(), *sum = new_stats();
	GRand *r = g_rand_new_with_seed(3);
	uint64_t v[3000], min, max;
	double mean, dev, want_mean, want_dev;

	sum->members = 0;
	for (unsigned i = 0; i < G_N_ELEMENTS(v); i++) {
		v[i] = draw(r, i < 1000 ? "small" : "wide");
		stats_add_io(i < 1000 ? a : b, STATS_WRITE, 0, 512, 0, v[i], v[i]);
	}
	stats_sum(sum, a);
	stats_sum(sum, b);
	two_pass(v, G_N_ELEMENTS(v), &want_mean, &want_dev);
	g_assert_true(stats_moments_get(&sum->lat[STATS_CLAT][STATS_WRITE],
					&min, &max, &mean, &dev));
	g_assert_cmpuint(sum->lat[STATS_CLAT][STATS_WRITE].samples, ==, 3000);
	g_assert_cmpfloat_with_epsilon(mean, want_mean, 1e-9 * want_mean);
	g_assert_cmpfloat_with_epsilon(dev, want_dev, 1e-9 * want_dev);
	g_assert_cmpuint(sum->members, ==, 2);
	g_rand_free(r);
	stats_free(a);
	stats_free(b);
	stats_free(sum);
}

/* --- windows --- */

static void test_bw_windows_follow_completions(void)
{
	struct job_stats *js = new_stats();
	uint64_t min, max;
	double mean, dev;

	/* 10 x 4 KiB by 500 ms (one exactly at the edge), none in the
	 * second window, 5 in the third; the fourth is cut short. */
	for (int i = 1; i <= 10; i++)
		stats_add_io(js, STATS_READ, (sim_time)i * 50 * SIM_MSEC,
			     4096, 0, 1000, 1000);
	for (int i = 0; i < 5; i++)
		stats_add_io(js, STATS_READ, 1100 * SIM_MSEC + i * SIM_MSEC,
			     4096, 0, 1000, 1000);
	stats_add_io(js, STATS_READ, 1600 * SIM_MSEC, 4096, 0, 1000, 1000);
	stats_finish(js, 1700 * SIM_MSEC);

	/* 40960 B in 500 ms = 80 KiB/s, 20480 B = 40 KiB/s */
	g_assert_true(stats_moments_get(&js->bw[STATS_READ], &min, &max,
					&mean, &dev));
	g_assert_cmpuint(js->bw[STATS_READ].samples, ==, 2);
	g_assert_cmpuint(min, ==, 40);
	g_assert_cmpuint(max, ==, 80);
	g_assert_true(stats_moments_get(&js->iops[STATS_READ], &min, &max,
					&mean, &dev));
	g_assert_cmpuint(js->iops[STATS_READ].samples, ==, 2);
	g_assert_cmpuint(min, ==, 10);
	g_assert_cmpuint(max, ==, 20);
	g_assert_cmpuint(js->bw[STATS_WRITE].samples, ==, 0);
	stats_free(js);
}

static void test_finish_closes_a_full_last_window(void)
{
	struct job_stats *js = new_stats();

	stats_add_io(js, STATS_WRITE, 100 * SIM_MSEC, 1 << 20, 0, 10, 10);
	stats_finish(js, 500 * SIM_MSEC);
	/* 1 MiB over 500 ms = 2048 KiB/s */
	g_assert_cmpuint(js->bw[STATS_WRITE].samples, ==, 1);
	g_assert_cmpuint(js->bw[STATS_WRITE].min, ==, 2048);
	stats_free(js);
}

static void test_window_period_is_configurable(void)
{
	struct stats_config cfg;
	struct job_stats *js;

	stats_config_init(&cfg);
	cfg.bw_avg_ms = 100;
	cfg.iops_avg_ms = 0;
	js = stats_new(&cfg, 0);
	for (int i = 0; i < 10; i++)
		stats_add_io(js, STATS_READ, (sim_time)(i * 100 + 50) * SIM_MSEC,
			     1024, 0, 1, 1);
	stats_finish(js, 1000 * SIM_MSEC);
	g_assert_cmpuint(js->bw[STATS_READ].samples, ==, 10);
	g_assert_cmpuint(js->bw[STATS_READ].max, ==, 10);
	g_assert_cmpuint(js->iops[STATS_READ].samples, ==, 0);
	stats_free(js);
}

static void test_per_io_samples(void)
{
	struct stats_config cfg;
	struct job_stats *js;

	stats_config_init(&cfg);
	cfg.bw_per_io = cfg.iops_per_io = true;
	js = stats_new(&cfg, 0);
	/* fio: bytes * 10^6 / clat_ns; 4096 B in 76574 ns -> 53490 */
	stats_add_io(js, STATS_READ, 1, 4096, 0, 76574, 77000);
	stats_add_io(js, STATS_READ, 2, 4096, 0, 0, 10);
	g_assert_cmpuint(js->bw[STATS_READ].samples, ==, 2);
	g_assert_cmpuint(js->bw[STATS_READ].max, ==, 53490);
	g_assert_cmpuint(js->bw[STATS_READ].min, ==, 0);
	g_assert_cmpuint(js->iops[STATS_READ].samples, ==, 2);
	g_assert_cmpuint(js->iops[STATS_READ].max, ==, 1);
	stats_free(js);
}

/* --- ramp and runtime --- */

static void test_ramp_drops_early_samples(void)
{
	struct stats_config cfg;
	struct job_stats *js;

	stats_config_init(&cfg);
	js = stats_new(&cfg, 2 * SIM_SEC);
	stats_add_io(js, STATS_READ, SIM_SEC, 4096, 1, 2, 3);
	stats_add_sync(js, SIM_SEC, 5, false);
	stats_add_submit(js, SIM_SEC, 1, 1);
	stats_add_reap(js, SIM_SEC, 1);
	stats_add_io(js, STATS_READ, 2 * SIM_SEC, 4096, 1, 2, 3);
	g_assert_cmpuint(js->total_ios[STATS_READ], ==, 1);
	g_assert_cmpuint(js->io_bytes[STATS_READ], ==, 4096);
	g_assert_cmpuint(js->lat[STATS_CLAT][STATS_READ].samples, ==, 1);
	g_assert_cmpuint(js->total_sync, ==, 0);
	g_assert_cmpuint(js->total_submit, ==, 0);
	g_assert_cmpuint(js->total_complete, ==, 0);
	stats_finish(js, 3 * SIM_SEC);
	g_assert_cmpuint(js->runtime_ms[STATS_READ], ==, 1000);
	stats_free(js);
}

static void test_runtime_rounding(void)
{
	struct job_stats *js = new_stats();

	/* fio: per-direction runtime rounds up (from whole us), job_runtime
	 * truncates; directions without bytes have none. */
	stats_add_io(js, STATS_WRITE, 1, 4096, 0, 1, 1);
	stats_finish(js, 2500 * SIM_USEC + 999);
	g_assert_cmpuint(js->runtime_ms[STATS_WRITE], ==, 3);
	g_assert_cmpuint(js->runtime_ms[STATS_READ], ==, 0);
	g_assert_cmpuint(js->run_time_ms, ==, 2);
	stats_free(js);
}

/* --- options --- */

static void test_disable_options(void)
{
	static const struct {
		const char *name;
		bool slat, clat, lat;	/* what is disabled */
	} cases[] = {
		{ "none", false, false, false },
		{ "disable_slat", true, false, false },
		{ "disable_clat", false, true, false },
		{ "disable_lat", false, false, true },
	};

	for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct stats_config cfg;
		struct job_stats *js;

		stats_config_init(&cfg);
		cfg.disable_slat = cases[i].slat;
		cfg.disable_clat = cases[i].clat;
		cfg.disable_lat = cases[i].lat;
		js = stats_new(&cfg, 0);
		stats_add_io(js, STATS_TRIM, 5, 4096, 10, 20, 30);
		g_test_message("%s", cases[i].name);
		g_assert_cmpuint(js->lat[STATS_SLAT][STATS_TRIM].samples, ==, !cases[i].slat);
		g_assert_cmpuint(js->lat[STATS_CLAT][STATS_TRIM].samples, ==, !cases[i].clat);
		g_assert_cmpuint(js->lat[STATS_LAT][STATS_TRIM].samples, ==, !cases[i].lat);
		/* the latency distribution counts clat */
		g_assert_cmpuint(js->lat_n[4], ==, !cases[i].clat);
		g_assert_cmpuint(js->total_ios[STATS_TRIM], ==, 1);
		stats_free(js);
	}
}

static void test_percentile_histograms_follow_options(void)
{
	struct stats_config cfg;
	struct job_stats *js;

	stats_config_init(&cfg);
	cfg.clat_percentiles = false;
	cfg.slat_percentiles = true;
	js = stats_new(&cfg, 0);
	stats_add_io(js, STATS_READ, 1, 1, 100, 200, 300);
	g_assert_cmpuint(js->plat[STATS_SLAT][STATS_READ][100], ==, 1);
	g_assert_cmpuint(js->plat[STATS_CLAT][STATS_READ][stats_plat_idx(200)], ==, 0);
	g_assert_cmpuint(js->plat[STATS_LAT][STATS_READ][stats_plat_idx(300)], ==, 0);
	stats_free(js);
}

static void test_percentile_list_parses(void)
{
	struct stats_config cfg;
	GError *err = NULL;

	stats_config_init(&cfg);
	g_assert_true(stats_config_set_percentiles(&cfg, "99.9:50:1", "j.fio",
						   3, &err));
	g_assert_no_error(err);
	g_assert_cmpuint(cfg.nr_percentiles, ==, 3);
	/* sorted, as fio prints them */
	g_assert_cmpfloat(cfg.percentiles[0], ==, 1.0);
	g_assert_cmpfloat(cfg.percentiles[1], ==, 50.0);
	g_assert_cmpfloat(cfg.percentiles[2], ==, 99.9);
	g_assert_cmpuint(cfg.percentile_precision, ==, 1);
}

static void test_percentile_list_rejects_bad_input(void)
{
	static const char *const bad[] = {
		"", "abc", "0", "101", "50:", "-5", "1:2:3:4:5:6:7:8:9:10:11:12:"
		"13:14:15:16:17:18:19:20:21", "5x",
	};

	for (unsigned i = 0; i < G_N_ELEMENTS(bad); i++) {
		struct stats_config cfg;
		GError *err = NULL;

		stats_config_init(&cfg);
		g_test_message("'%s'", bad[i]);
		g_assert_false(stats_config_set_percentiles(&cfg, bad[i],
							    "jobs.fio", 12, &err));
		g_assert_error(err, STORSIM_ERROR, STORSIM_ERROR_INPUT);
		g_assert_true(g_str_has_prefix(err->message,
			"jobs.fio:12: option 'percentile_list': "));
		/* the configuration is left as it was */
		g_assert_cmpuint(cfg.nr_percentiles, ==, 17);
		g_error_free(err);
	}
}

/* --- distributions --- */

static void test_depth_and_batch_buckets(void)
{
	/* fio: depth 1 | 2-3 | 4-7 | 8-15 | 16-31 | 32-63 | >=64 and
	 * batches 0 | 1-4 | 5-8 | 9-16 | 17-32 | 33-64 | >64 */
	static const struct {
		unsigned v, depth_idx, batch_idx;
	} cases[] = {
		{ 1, 0, 1 }, { 2, 1, 1 }, { 3, 1, 1 }, { 4, 2, 1 }, { 5, 2, 2 },
		{ 7, 2, 2 }, { 8, 3, 2 }, { 9, 3, 3 }, { 16, 4, 3 },
		{ 17, 4, 4 }, { 32, 5, 4 }, { 33, 5, 5 }, { 63, 5, 5 },
		{ 64, 6, 5 }, { 65, 6, 6 }, { 4096, 6, 6 },
	};

	for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct job_stats *js = new_stats();

		stats_add_submit(js, 0, cases[i].v, cases[i].v);
		stats_add_reap(js, 0, cases[i].v);
		g_test_message("v=%u", cases[i].v);
		g_assert_cmpuint(js->depth_map[cases[i].depth_idx], ==, cases[i].v);
		g_assert_cmpuint(js->submit_map[cases[i].batch_idx], ==, 1);
		g_assert_cmpuint(js->complete_map[cases[i].batch_idx], ==, 1);
		stats_free(js);
	}
}

static void test_reap_of_nothing_is_bucket_zero(void)
{
	struct job_stats *js = new_stats();

	stats_add_reap(js, 0, 0);
	g_assert_cmpuint(js->complete_map[0], ==, 1);
	g_assert_cmpuint(js->total_complete, ==, 1);
	stats_free(js);
}

static void test_latency_buckets(void)
{
	/* unit and bucket: <2, <4, <10, <20, <50, <100, <250, <500, <750,
	 * <1000 of the unit; for ms also <2000 and the rest */
	static const struct {
		uint64_t ns;
		char unit;
		unsigned idx;
	} cases[] = {
		{ 0, 'n', 0 }, { 1, 'n', 0 }, { 2, 'n', 1 }, { 9, 'n', 2 },
		{ 10, 'n', 3 }, { 249, 'n', 6 }, { 250, 'n', 7 },
		{ 999, 'n', 9 }, { 1000, 'u', 0 }, { 1999, 'u', 0 },
		{ 2000, 'u', 1 }, { 999999, 'u', 9 }, { 1000000, 'm', 0 },
		{ 1999999999, 'm', 10 }, { 2000000000, 'm', 11 },
		{ UINT64_MAX, 'm', 11 },
	};

	for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct job_stats *js = new_stats();
		const uint64_t *b = cases[i].unit == 'n' ? js->lat_n :
				    cases[i].unit == 'u' ? js->lat_u : js->lat_m;

		stats_add_io(js, STATS_READ, 0, 1, 0, cases[i].ns, cases[i].ns);
		g_test_message("ns=%" G_GUINT64_FORMAT, cases[i].ns);
		g_assert_cmpuint(b[cases[i].idx], ==, 1);
		stats_free(js);
	}
}

static void test_distribution_floors(void)
{
	uint64_t map[STATS_MAP_NR] = { 9999, 1, 0, 0, 0, 0, 0 };
	double pct[STATS_MAP_NR], lat[STATS_LAT_U_NR];
	struct job_stats *js = new_stats();

	/* a rare non-zero share shows as at least 0.1 % (depths) ... */
	stats_calc_dist(map, 10000, pct);
	g_assert_cmpfloat_with_epsilon(pct[0], 99.99, 1e-9);
	g_assert_cmpfloat(pct[1], ==, 0.1);
	g_assert_cmpfloat(pct[2], ==, 0.0);
	/* ... or 0.01 % (latencies) */
	js->total_ios[STATS_READ] = 100000;
	js->lat_u[3] = 1;
	stats_calc_lat(js, js->lat_u, STATS_LAT_U_NR, lat);
	g_assert_cmpfloat(lat[3], ==, 0.01);
	g_assert_cmpfloat(lat[2], ==, 0.0);
	stats_free(js);
}

/* --- aggregation --- */

static void test_sum_combines_runtime_bw_and_counters(void)
{
	struct stats_config cfg;
	struct job_stats *a, *b, *sum;

	stats_config_init(&cfg);
	cfg.bw_per_io = true;
	a = stats_new(&cfg, 0);
	b = stats_new(&cfg, 0);
	sum = stats_new(&cfg, 0);
	sum->members = 0;
	stats_add_io(a, STATS_READ, 10, 1000, 0, 1000, 1000);	/* 1000000 */
	stats_add_io(a, STATS_READ, 20, 1000, 0, 2000, 2000);	/* 500000 */
	stats_add_io(b, STATS_READ, 10, 1000, 0, 4000, 4000);	/* 250000 */
	stats_set_cpu(a, 1000, 2000, 3, 4, 5);
	stats_set_cpu(b, 10, 20, 30, 40, 50);
	stats_finish(a, 3 * SIM_MSEC);
	stats_finish(b, 7 * SIM_MSEC);
	stats_sum(sum, a);
	stats_sum(sum, b);
	g_assert_cmpuint(sum->runtime_ms[STATS_READ], ==, 7);
	g_assert_cmpuint(sum->run_time_ms, ==, 10);
	g_assert_cmpuint(sum->io_bytes[STATS_READ], ==, 3000);
	g_assert_cmpuint(sum->total_ios[STATS_READ], ==, 3);
	/* bw of parallel jobs adds up, term by term, as fio does */
	g_assert_cmpuint(sum->bw[STATS_READ].min, ==, 500000 + 250000);
	g_assert_cmpuint(sum->bw[STATS_READ].max, ==, 1000000 + 250000);
	g_assert_cmpfloat(sum->bw[STATS_READ].mean, ==, 750000.0 + 250000.0);
	g_assert_cmpuint(sum->bw[STATS_READ].samples, ==, 3);
	g_assert_cmpuint(sum->usr_ns, ==, 1010);
	g_assert_cmpuint(sum->ctx, ==, 33);
	g_assert_cmpuint(sum->majf, ==, 55);
	g_assert_cmpuint(sum->plat[STATS_CLAT][STATS_READ][stats_plat_idx(4000)], ==, 1);
	stats_free(a);
	stats_free(b);
	stats_free(sum);
}

static void test_group_figures(void)
{
	struct job_stats *a = new_stats(), *b = new_stats();
	struct stats_group g;

	stats_add_io(a, STATS_WRITE, 1, 1000000, 0, 1, 1);
	stats_add_io(b, STATS_WRITE, 1, 3000000, 0, 1, 1);
	stats_finish(a, 1000 * SIM_MSEC);
	stats_finish(b, 2000 * SIM_MSEC);
	stats_group_init(&g);
	stats_group_add(&g, a);
	stats_group_add(&g, b);
	stats_group_finish(&g);
	g_assert_cmpuint(g.min_run[STATS_WRITE], ==, 1000);
	g_assert_cmpuint(g.max_run[STATS_WRITE], ==, 2000);
	g_assert_cmpuint(g.min_bw[STATS_WRITE], ==, 1000000);
	g_assert_cmpuint(g.max_bw[STATS_WRITE], ==, 1500000);
	g_assert_cmpuint(g.io_bytes[STATS_WRITE], ==, 4000000);
	/* aggregate: all bytes over the longest runtime */
	g_assert_cmpuint(g.agg[STATS_WRITE], ==, 2000000);
	g_assert_cmpuint(g.max_run[STATS_READ], ==, 0);
	stats_free(a);
	stats_free(b);
}

static void test_sync_is_recorded(void)
{
	struct job_stats *js = new_stats();

	stats_add_sync(js, 1, 5000, false);
	stats_add_sync(js, 2, 7000, false);
	g_assert_cmpuint(js->total_sync, ==, 2);
	g_assert_cmpuint(js->sync.samples, ==, 2);
	g_assert_cmpfloat(js->sync.mean, ==, 6000.0);
	g_assert_cmpuint(js->sync_plat[stats_plat_idx(7000)], ==, 1);
	/* syncs are not read/write/trim I/Os */
	g_assert_cmpuint(js->total_ios[STATS_WRITE], ==, 0);
	stats_free(js);
}

/* --- latency by layer --- */

/* One I/O from 0 to its end, stamped so that the device takes dev ns and
 * the application's reaping reap ns; every other layer 100 ns. */
static void add_layered(struct job_stats *js, enum stats_ddir d,
			sim_time dev, sim_time reap)
{
	struct io_trace tr;
	sim_time t = 0;

	io_trace_reset(&tr);
	for (int s = 0; s < IOS_NR; s++) {
		t += s == IOS_DEVICE_DONE ? dev : 100;
		io_trace_stamp(&tr, s, t);
	}
	stats_add_layers(js, d, 0, &tr, t + reap);
}

/* 1000 reads: the device always 20 us, 11 of them reaped after 100 us and
 * the rest after 1 us. Each layer's percentiles are its own: the device's
 * tail is flat, the reaping's p99 and p99.9 are the slow eleven. */
static void test_layer_percentiles_are_each_layers_own(void)
{
	struct job_stats *js = new_stats();
	struct io_layer_tails t;

	stats_keep_layer_tails(js);
	for (int i = 0; i < 1000; i++)
		add_layered(js, STATS_READ, 20000, i < 11 ? 100000 : 1000);
	stats_layer_percentiles(js, STATS_READ, &t);
	for (int p = 0; p < IOL_PCT_NR; p++) {
		g_assert_cmpuint(t.ns[IOL_DEVICE][p], ==,
				 stats_plat_val(stats_plat_idx(20000)));
		g_assert_cmpuint(t.ns[IOL_BLOCK_QUEUE][p], ==, 100);
	}
	g_assert_cmpuint(t.ns[IOL_APP_REAP][0], ==,
			 stats_plat_val(stats_plat_idx(1000)));
	g_assert_cmpuint(t.ns[IOL_APP_REAP][1], ==,
			 stats_plat_val(stats_plat_idx(100000)));
	g_assert_cmpuint(t.ns[IOL_APP_REAP][2], ==,
			 stats_plat_val(stats_plat_idx(100000)));
	/* no writes: no histogram, no percentiles */
	g_assert_null(js->layer_plat[STATS_WRITE]);
	stats_layer_percentiles(js, STATS_WRITE, &t);
	g_assert_cmpuint(t.ns[IOL_DEVICE][0], ==, 0);
	stats_free(js);
}

/* Means only, unless asked: a job that does not report its layers'
 * percentiles allocates no histogram. */
static void test_layer_histograms_only_when_kept(void)
{
	struct job_stats *js = new_stats();

	add_layered(js, STATS_READ, 20000, 1000);
	g_assert_cmpuint(js->layers[STATS_READ].ios, ==, 1);
	for (int d = 0; d < STATS_DDIR_NR; d++)
		g_assert_null(js->layer_plat[d]);
	stats_free(js);
}

/* The end of ramp_time empties the histograms and keeps collecting. */
static void test_restart_empties_layer_histograms(void)
{
	struct job_stats *js = new_stats();
	struct io_layer_tails t;

	stats_keep_layer_tails(js);
	add_layered(js, STATS_READ, 50000, 1000);
	stats_restart(js, &js->cfg, 0);
	g_assert_cmpuint(js->layers[STATS_READ].ios, ==, 0);
	add_layered(js, STATS_READ, 20000, 1000);
	stats_layer_percentiles(js, STATS_READ, &t);
	g_assert_cmpuint(t.ns[IOL_DEVICE][2], ==,
			 stats_plat_val(stats_plat_idx(20000)));
	stats_free(js);
}

/* group_reporting: a sum that keeps histograms has every member's I/Os;
 * one that does not (fio's own summing in the output) allocates none. */
static void test_sum_adds_layer_histograms(void)
{
	struct job_stats *a = new_stats(), *b = new_stats();
	struct job_stats *sum = new_stats(), *plain = new_stats();
	struct io_layer_tails t;

	stats_keep_layer_tails(a);
	stats_keep_layer_tails(b);
	stats_keep_layer_tails(sum);
	for (int i = 0; i < 98; i++)
		add_layered(a, STATS_WRITE, 10000, 1000);
	add_layered(b, STATS_WRITE, 90000, 1000);
	add_layered(b, STATS_WRITE, 90000, 1000);
	stats_sum(sum, a);
	stats_sum(sum, b);
	stats_sum(plain, a);
	stats_layer_percentiles(sum, STATS_WRITE, &t);
	g_assert_cmpuint(t.ns[IOL_DEVICE][0], ==,
			 stats_plat_val(stats_plat_idx(10000)));
	g_assert_cmpuint(t.ns[IOL_DEVICE][1], ==,
			 stats_plat_val(stats_plat_idx(90000)));
	g_assert_null(plain->layer_plat[STATS_WRITE]);
	stats_free(a);
	stats_free(b);
	stats_free(sum);
	stats_free(plain);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/stats/plat/index-table", test_plat_index_table);
	g_test_add_func("/stats/plat/index-matches-reference",
			test_plat_index_matches_reference);
	g_test_add_func("/stats/plat/value-is-bucket-midpoint",
			test_plat_value_is_bucket_midpoint);
	g_test_add_func("/stats/percentiles/match-sorted-samples",
			test_percentiles_match_sorted_samples);
	g_test_add_func("/stats/percentiles/empty-histogram",
			test_percentiles_of_empty_histogram);
	g_test_add_func("/stats/moments/match-two-pass",
			test_moments_match_two_pass);
	g_test_add_func("/stats/moments/empty", test_moments_empty);
	g_test_add_func("/stats/sum/merges-latency-moments",
			test_sum_merges_latency_moments);
	g_test_add_func("/stats/window/follows-completions",
			test_bw_windows_follow_completions);
	g_test_add_func("/stats/window/finish-closes-full-window",
			test_finish_closes_a_full_last_window);
	g_test_add_func("/stats/window/period-configurable",
			test_window_period_is_configurable);
	g_test_add_func("/stats/window/per-io-samples", test_per_io_samples);
	g_test_add_func("/stats/ramp/drops-early-samples",
			test_ramp_drops_early_samples);
	g_test_add_func("/stats/runtime/rounding", test_runtime_rounding);
	g_test_add_func("/stats/options/disable", test_disable_options);
	g_test_add_func("/stats/options/percentile-histograms",
			test_percentile_histograms_follow_options);
	g_test_add_func("/stats/options/percentile-list-parses",
			test_percentile_list_parses);
	g_test_add_func("/stats/options/percentile-list-rejects-bad-input",
			test_percentile_list_rejects_bad_input);
	g_test_add_func("/stats/dist/depth-and-batch-buckets",
			test_depth_and_batch_buckets);
	g_test_add_func("/stats/dist/reap-of-nothing",
			test_reap_of_nothing_is_bucket_zero);
	g_test_add_func("/stats/dist/latency-buckets", test_latency_buckets);
	g_test_add_func("/stats/dist/floors", test_distribution_floors);
	g_test_add_func("/stats/sum/runtime-bw-counters",
			test_sum_combines_runtime_bw_and_counters);
	g_test_add_func("/stats/group/figures", test_group_figures);
	g_test_add_func("/stats/sync/recorded", test_sync_is_recorded);
	g_test_add_func("/stats/layers/percentiles-are-each-layers-own",
			test_layer_percentiles_are_each_layers_own);
	g_test_add_func("/stats/layers/histograms-only-when-kept",
			test_layer_histograms_only_when_kept);
	g_test_add_func("/stats/layers/restart-empties-histograms",
			test_restart_empties_layer_histograms);
	g_test_add_func("/stats/layers/sum-adds-histograms",
			test_sum_adds_layer_histograms);
	return g_test_run();
}
