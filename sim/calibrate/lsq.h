/*
 * Linear least squares with the parameters' standard errors, for the
 * calibration fit: minimise |A x - b|^2 over x, A m-by-n (m >= n).
 */
#ifndef STORSIM_LSQ_H
#define STORSIM_LSQ_H

#include <stdbool.h>

/* Column j of a is a[i * n + j]. */
struct lsq_result {
	double *x;		/* n: the solution */
	double *se;		/* n: standard error of each x (0 with m == n) */
	double *resid;		/* m: A x - b */
	double rss;		/* sum of squared residuals */
	/* Columns the data cannot tell apart from the others (a pivot below
	 * rank_tol of the largest): their x and se are 0 and they count in
	 * no standard error. */
	bool *dropped;
	unsigned rank;
};

/*
 * Solve by Householder QR with column pivoting. rank_tol is relative
 * (1e-9 is a good choice). Returns false only for m < n or n == 0.
 */
bool lsq_solve(const double *a, const double *b, unsigned m, unsigned n,
	       double rank_tol, struct lsq_result *r);
void lsq_result_clear(struct lsq_result *r);

#endif
