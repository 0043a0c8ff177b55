/*
 * The calibration fit's least squares (sim/calibrate/lsq.c): an exact
 * system is solved exactly; a straight line through noisy points gets
 * the slope, intercept and standard errors of the textbook formulas; a
 * column that repeats another is dropped, not fitted.
 */
#include <glib.h>
#include <math.h>

#include "calibrate/lsq.h"

static void test_exact_system_is_solved(void)
{
	/* x = (2, -1, 0.5) */
	const double a[] = {1, 2, 3, 4, 5, 6, 7, 8, 10, 1, 0, 1};
	double b[4];
	const double x[] = {2, -1, 0.5};
	struct lsq_result r;
	for (unsigned i = 0; i < 4; i++)
		b[i] = a[i * 3] * x[0] + a[i * 3 + 1] * x[1] + a[i * 3 + 2] * x[2];
	g_assert_true(lsq_solve(a, b, 4, 3, 1e-12, &r));
	g_assert_cmpuint(r.rank, ==, 3);
	for (unsigned j = 0; j < 3; j++) {
		g_assert_cmpfloat_with_epsilon(r.x[j], x[j], 1e-12);
		g_assert_cmpfloat_with_epsilon(r.se[j], 0, 1e-9);
	}
	g_assert_cmpfloat_with_epsilon(r.rss, 0, 1e-20);
	lsq_result_clear(&r);
}

static void test_line_fit_matches_the_textbook_formulas(void)
{
	const double xs[] = {1, 2, 3, 4, 5, 6};
	const double ys[] = {2.1, 3.9, 6.2, 7.8, 10.1, 12.2};
	double a[12];
	unsigned n = 6;
	double mx = 0, my = 0, sxx = 0, sxy = 0;
	struct lsq_result r;

	for (unsigned i = 0; i < n; i++) {
		a[i * 2] = xs[i];
		a[i * 2 + 1] = 1;
		mx += xs[i] / n;
		my += ys[i] / n;
	}
	for (unsigned i = 0; i < n; i++) {
		sxx += (xs[i] - mx) * (xs[i] - mx);
		sxy += (xs[i] - mx) * (ys[i] - my);
	}
	double slope = sxy / sxx, icpt = my - slope * mx, rss = 0;
	for (unsigned i = 0; i < n; i++) {
		double e = ys[i] - slope * xs[i] - icpt;
		rss += e * e;
	}
	double s2 = rss / (n - 2);
	g_assert_true(lsq_solve(a, ys, n, 2, 1e-12, &r));
	g_assert_cmpfloat_with_epsilon(r.x[0], slope, 1e-12);
	g_assert_cmpfloat_with_epsilon(r.x[1], icpt, 1e-12);
	g_assert_cmpfloat_with_epsilon(r.rss, rss, 1e-12);
	g_assert_cmpfloat_with_epsilon(r.se[0], sqrt(s2 / sxx), 1e-12);
	g_assert_cmpfloat_with_epsilon(r.se[1],
				       sqrt(s2 * (1.0 / n + mx * mx / sxx)), 1e-12);
	lsq_result_clear(&r);
}

static void test_a_repeated_column_is_dropped(void)
{
	/* columns 0 and 2 are the same: only their sum is known */
	const double a[] = {1, 1, 1, 2, 1, 2, 3, 1, 3, 4, 1, 4};
	const double b[] = {3, 5, 7, 9};
	struct lsq_result r;
	g_assert_true(lsq_solve(a, b, 4, 3, 1e-9, &r));
	g_assert_cmpuint(r.rank, ==, 2);
	g_assert_true(r.dropped[0] != r.dropped[2]);
	g_assert_false(r.dropped[1]);
	g_assert_cmpfloat_with_epsilon(r.x[0] + r.x[2], 2, 1e-9);
	g_assert_cmpfloat_with_epsilon(r.x[1], 1, 1e-9);
	lsq_result_clear(&r);
}

static void test_fewer_rows_than_columns_is_refused(void)
{
	const double a[] = {1, 2};
	const double b[] = {1};
	struct lsq_result r;
	g_assert_false(lsq_solve(a, b, 1, 2, 1e-9, &r));
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/lsq/exact-system-is-solved", test_exact_system_is_solved);
	g_test_add_func("/lsq/line-fit-matches-the-textbook-formulas",
			test_line_fit_matches_the_textbook_formulas);
	g_test_add_func("/lsq/a-repeated-column-is-dropped",
			test_a_repeated_column_is_dropped);
	g_test_add_func("/lsq/fewer-rows-than-columns-is-refused",
			test_fewer_rows_than_columns_is_refused);
	return g_test_run();
}
