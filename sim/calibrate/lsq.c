/*
 * Least squares by Householder QR with column pivoting (Golub and Van
 * Loan, Matrix Computations, 4th ed., algorithm 5.4.1): pivoting puts
 * the columns the data determine first, so a column that is a
 * combination of earlier ones shows as a small diagonal element of R and
 * is dropped instead of making the solution blow up. The standard errors
 * are sqrt(s^2 diag((R^T R)^-1)) over the kept columns, with
 * s^2 = RSS / (m - rank), the usual estimate for independent residuals
 * of equal variance.
 */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "lsq.h"

void lsq_result_clear(struct lsq_result *r)
{
	g_free(r->x);
	g_free(r->se);
	g_free(r->resid);
	g_free(r->dropped);
	memset(r, 0, sizeof(*r));
}

bool lsq_solve(const double *a, const double *b, unsigned m, unsigned n,
	       double rank_tol, struct lsq_result *r)
{
	memset(r, 0, sizeof(*r));
	if (n == 0 || m < n)
		return false;
	double *q = g_memdup2(a, sizeof(double) * m * n);	/* becomes R */
	double *y = g_memdup2(b, sizeof(double) * m);	/* becomes Q^T b */
	unsigned *perm = g_new(unsigned, n);
	double *norm = g_new(double, n);
	double *v = g_new(double, m);
	unsigned rank = 0;
	double r00 = 0;

	for (unsigned j = 0; j < n; j++) {
		perm[j] = j;
		norm[j] = 0;
		for (unsigned i = 0; i < m; i++)
			norm[j] += q[i * n + j] * q[i * n + j];
	}
	for (unsigned k = 0; k < n; k++) {
		/* the remaining column of largest norm goes next */
		unsigned p = k;
		for (unsigned j = k + 1; j < n; j++)
			if (norm[j] > norm[p])
				p = j;
		if (p != k) {
			for (unsigned i = 0; i < m; i++) {
				double t = q[i * n + k];
				q[i * n + k] = q[i * n + p];
				q[i * n + p] = t;
			}
			double t = norm[k];
			norm[k] = norm[p];
			norm[p] = t;
			unsigned u = perm[k];
			perm[k] = perm[p];
			perm[p] = u;
		}
		double alpha = 0;
		for (unsigned i = k; i < m; i++)
			alpha += q[i * n + k] * q[i * n + k];
		alpha = sqrt(alpha);
		if (k == 0)
			r00 = alpha;
		if (alpha <= rank_tol * r00 || alpha == 0)
			break;
		if (q[k * n + k] > 0)
			alpha = -alpha;
		double vnorm = 0;
		for (unsigned i = k; i < m; i++) {
			v[i] = q[i * n + k] - (i == k ? alpha : 0);
			vnorm += v[i] * v[i];
		}
		for (unsigned j = k; j < n; j++) {
			double s = 0;
			for (unsigned i = k; i < m; i++)
				s += v[i] * q[i * n + j];
			s = 2 * s / vnorm;
			for (unsigned i = k; i < m; i++)
				q[i * n + j] -= s * v[i];
		}
		double s = 0;
		for (unsigned i = k; i < m; i++)
			s += v[i] * y[i];
		s = 2 * s / vnorm;
		for (unsigned i = k; i < m; i++)
			y[i] -= s * v[i];
		for (unsigned j = k + 1; j < n; j++) {
			norm[j] = 0;
			for (unsigned i = k + 1; i < m; i++)
				norm[j] += q[i * n + j] * q[i * n + j];
		}
		rank++;
	}

	/* back substitution over the kept columns: R z = (Q^T b)[0..rank) */
	double *z = g_new0(double, n);
	for (int k = (int)rank - 1; k >= 0; k--) {
		double s = y[k];
		for (unsigned j = (unsigned)k + 1; j < rank; j++)
			s -= q[k * n + j] * z[j];
		z[k] = s / q[k * n + k];
	}
	/* (R^T R)^-1 diagonal: with R^-1 = T, diag(T T^T) */
	double *t = g_new0(double, (size_t)rank * rank);
	for (unsigned c = 0; c < rank; c++) {
		for (int k = (int)c; k >= 0; k--) {
			double s = (unsigned)k == c ? 1 : 0;
			for (unsigned j = (unsigned)k + 1; j <= c; j++)
				s -= q[k * n + j] * t[j * rank + c];
			t[k * rank + c] = s / q[k * n + k];
		}
	}
	r->x = g_new0(double, n);
	r->se = g_new0(double, n);
	r->resid = g_new0(double, m);
	r->dropped = g_new0(bool, n);
	r->rank = rank;
	for (unsigned k = 0; k < n; k++) {
		if (k < rank)
			r->x[perm[k]] = z[k];
		else
			r->dropped[perm[k]] = true;
	}
	r->rss = 0;
	for (unsigned i = 0; i < m; i++) {
		double s = -b[i];
		for (unsigned j = 0; j < n; j++)
			s += a[i * n + j] * r->x[j];
		r->resid[i] = s;
		r->rss += s * s;
	}
	double s2 = m > rank ? r->rss / (m - rank) : 0;
	for (unsigned k = 0; k < rank; k++) {
		double d = 0;
		for (unsigned c = k; c < rank; c++)
			d += t[k * rank + c] * t[k * rank + c];
		r->se[perm[k]] = sqrt(s2 * d);
	}
	g_free(t);
	g_free(z);
	g_free(v);
	g_free(norm);
	g_free(perm);
	g_free(y);
	g_free(q);
	return true;
}
