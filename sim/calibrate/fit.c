/*
 * The calibration fit.
 *
 * Fitting every stage cost to a handful of runs would fit noise: the runs
 * cannot tell apart two stages that every run takes together. The fit
 * instead scales groups of parameters, each group what one kind of run
 * exercises more than the others (fio's user-space code, syscalls, the
 * scheduler and workqueues, the block layer with the loop driver and its
 * tmpfs file, memory copies, io_uring, libaio, the page cache, XFS,
 * ext4), keeping the split inside a group as the base profile has it, and
 * fits one more parameter, the exit latency of the CPUs' idle state,
 * which costs no CPU time but delays every wake-up of an idle CPU.
 *
 * The unknowns are the logarithms of the scales and of the latency (so
 * they stay positive). The residuals are relative: per suite run, the
 * simulated CPU time per I/O, its user part (when it is at least a tenth
 * of the whole) and the IOPS, each against the real run's median. The
 * Jacobian is taken by forward differences, re-simulating the whole suite
 * with one unknown moved by 15%; a Gauss-Newton step solves the linearised
 * problem (lsq.c, column pivoting), is capped at a factor of 4 per
 * unknown, and is halved until it lowers the sum of squares. A weak prior
 * (one residual row per scale, PRIOR below) pulls each scale towards the
 * base profile's, and no scale goes beyond a factor of 20 either way, so
 * that inconsistent measures cannot send a group the runs hardly see to
 * an absurd value. A group no run exercises gives a zero column and
 * keeps its base values; one whose standard error comes out above half
 * its value is frozen at its base and the rest fitted again. The standard errors are those of the final
 * linearisation, sqrt(s^2 diag((J^T J)^-1)) with s^2 = RSS / (m - n).
 */
#include <gio/gio.h>
#include <math.h>
#include <string.h>

#include "fit.h"
#include "lsq.h"
#include "system/costs.h"

/* The calibrated cost groups (system/costs.h), in the order the report
 * lists them; tests/unit/test-calibrate-fit.c checks that they are all
 * there. */
const struct cal_group cal_groups[] = {
	{"fio", "fio's own user-space code", CAL_IN_HOST, "fio"},
	{"syscall", "syscall entry and exit", CAL_IN_HOST, "syscall"},
	{"sched", "context switches, wake-ups and workqueue items", CAL_IN_HOST,
	 "sched"},
	{"block", "the block layer, the raw device, the loop driver and its "
		  "tmpfs file", CAL_IN_HOST, "block"},
	{"copy", "copies between buffers and page-cache pages", CAL_IN_HOST,
	 "copy"},
	{"io_uring", "io_uring's submission and completion", CAL_IN_HOST,
	 "io_uring"},
	{"aio", "libaio's submission and completion", CAL_IN_HOST, "aio"},
	{"pagecache", "the page cache's lookups, insertions and writes",
	 CAL_IN_HOST, "pagecache"},
	{"xfs", "XFS's read and write paths", CAL_IN_XFS, "fs"},
	{"ext4", "ext4's read and write paths", CAL_IN_EXT4, "fs"},
};
const unsigned cal_ngroups = G_N_ELEMENTS(cal_groups);

#define NPARAMS (cal_ngroups + 1)
#define IDLE (cal_ngroups)
#define ROWS_PER_POINT 3
#define FD_STEP 0.139762	/* ln 1.15 */
#define MAX_STEP 1.386294	/* ln 4 */
#define MAX_ITER 8
#define IDLE_START_NS 2000.0
#define PRIOR 0.001		/* weight of ln(value / base) squared */
#define MAX_THETA 3.0		/* no scale beyond e^3 = 20 either way */

const char *cal_fit_param_name(unsigned j)
{
	return j < cal_ngroups ? cal_groups[j].name : "idle_exit";
}

static struct cal_profile *group_profile(struct cal_fit_state *st,
					 const struct cal_group *g, bool base)
{
	switch (g->where) {
	case CAL_IN_HOST: return base ? &st->base_host : &st->host;
	case CAL_IN_XFS: return base ? &st->base_xfs : &st->xfs;
	case CAL_IN_EXT4: return base ? &st->base_ext4 : &st->ext4;
	}
	g_assert_not_reached();
}

static const struct cost_group *cost_of(const struct cal_group *g)
{
	for (unsigned k = 0; k < cost_ngroups; k++)
		if (strcmp(cost_groups[k].name, g->cost) == 0)
			return &cost_groups[k];
	g_assert_not_reached();
}

struct scale_ctx {
	struct cal_profile *to, *from;
	double k;
	const char *source;
};

/* A source text with {base} in it gets the base value's own source there. */
static char *source_for(const char *fmt, struct cal_profile *from,
			const char *model, const char *param)
{
	const char *b = cal_profile_source(from, model, param);
	const char *at = fmt ? strstr(fmt, "{base}") : NULL;

	if (!b)
		b = "the model's default: not in the base profile";
	if (!fmt)
		return g_strdup(b);
	if (!at)
		return g_strdup(fmt);
	return g_strdup_printf("%.*s%s%s", (int)(at - fmt), fmt, b, at + 6);
}

static void scale_one(const char *model, const char *param, void *d)
{
	struct scale_ctx *c = d;
	double v = cal_profile_get_num(c->from, model, param) * c->k;
	g_autofree char *src = source_for(c->source, c->from, model, param);
	cal_profile_set_num(c->to, model, param, v, src);
}

void cal_fit_apply(struct cal_fit_state *st, const double *value,
		   const char *const *source)
{
	for (unsigned j = 0; j < cal_ngroups; j++) {
		const struct cal_group *g = &cal_groups[j];
		struct scale_ctx c = {
			.to = group_profile(st, g, false),
			.from = group_profile(st, g, true),
			.k = value[j],
			.source = source ? source[j] : NULL,
		};
		cost_group_foreach(cost_of(g), scale_one, &c);
	}
	g_autofree char *idle = g_strdup_printf("%.0f:%" G_GUINT64_FORMAT,
						MAX(value[IDLE], 1.0),
						st->idle_residency);
	g_autoptr(GError) err = NULL;
	g_autofree char *copy = source_for(source ? source[IDLE] : NULL,
					   &st->base_host, "cpu", "idle_states");
	if (!cal_profile_set(&st->host, "cpu", "idle_states", idle, copy, &err))
		g_error("calibrate: idle_states %s: %s", idle, err->message);
}

/* Write the candidate profiles and simulate every point. */
static bool evaluate(struct cal_fit_state *st, const double *value,
		     const struct cal_point *pts, unsigned n,
		     struct cal_measure *out, GError **err)
{
	cal_fit_apply(st, value, NULL);
	if (!cal_profile_write(&st->host, "calibrating", NULL, st->paths.host, err) ||
	    !cal_profile_write(&st->xfs, "calibrating-xfs", NULL, st->paths.xfs, err) ||
	    !cal_profile_write(&st->ext4, "calibrating-ext4", NULL, st->paths.ext4,
			       err))
		return false;
	for (unsigned i = 0; i < n; i++) {
		if (!cal_simulate(&st->paths, st->pl, &pts[i], st->sim_runtime,
				  st->dir, &out[i], NULL, err)) {
			g_autofree char *name = cal_point_name(&pts[i]);
			g_prefix_error(err, "simulating %s: ", name);
			return false;
		}
	}
	return true;
}

static bool usr_row(const struct cal_measure *real)
{
	return real->usr_us >= 0.1 * real->cpu_us;
}

/* The measures' rows, then the prior's: sqrt(PRIOR) ln(value / base) per
 * unknown, a weak pull towards the base profile that keeps an unknown the
 * data hardly see from wandering off (a factor of e costs PRIOR, as much
 * as a residual of sqrt(PRIOR) in one run). The idle exit latency has no
 * base worth pulling towards, and no prior. */
static void residuals(const struct cal_measure *real, const struct cal_measure *sim,
		      unsigned n, const double *theta, double *r)
{
	for (unsigned j = 0; j < NPARAMS; j++)
		r[n * ROWS_PER_POINT + j] = j == IDLE ? 0 : sqrt(PRIOR) * theta[j];
	for (unsigned i = 0; i < n; i++) {
		double *ri = &r[i * ROWS_PER_POINT];
		ri[0] = (sim[i].cpu_us - real[i].cpu_us) / real[i].cpu_us;
		ri[1] = usr_row(&real[i]) ?
			(sim[i].usr_us - real[i].usr_us) / real[i].usr_us : 0;
		ri[2] = (sim[i].iops - real[i].iops) / real[i].iops;
	}
}

static double sumsq(const double *r, unsigned m)
{
	double s = 0;
	for (unsigned i = 0; i < m; i++)
		s += r[i] * r[i];
	return s;
}

static void values_of(const double *theta, const double *start, double *value)
{
	for (unsigned j = 0; j < NPARAMS; j++)
		value[j] = start[j] * exp(theta[j]);
}

void cal_fit_result_clear(struct cal_fit_result *r, unsigned npoints)
{
	g_free(r->value);
	g_free(r->se);
	g_free(r->fitted);
	if (r->why)
		for (unsigned j = 0; j < r->nparams; j++)
			g_free(r->why[j]);
	g_free(r->why);
	if (r->share)
		for (unsigned i = 0; i < npoints; i++)
			g_free(r->share[i]);
	g_free(r->share);
	g_free(r->sim);
	g_free(r->sim0);
	memset(r, 0, sizeof(*r));
}

bool cal_fit(struct cal_fit_state *st, const struct cal_point *pts,
	     const struct cal_measure *real, unsigned n,
	     struct cal_fit_result *res, cal_fit_progress progress, void *data,
	     GError **err)
{
	const unsigned md = n * ROWS_PER_POINT, np = NPARAMS, m = md + np;
	g_autofree double *theta = g_new0(double, np);
	g_autofree double *start = g_new(double, np);
	g_autofree double *value = g_new(double, np);
	g_autofree double *trial = g_new(double, np);
	g_autofree double *r = g_new(double, m);
	g_autofree double *rt = g_new(double, m);
	g_autofree double *jac = g_new(double, (size_t)m * np);
	g_autofree double *negr = g_new(double, m);
	g_autofree struct cal_measure *sim = g_new(struct cal_measure, n);
	g_autofree struct cal_measure *simt = g_new(struct cal_measure, n);
	g_autofree bool *frozen = g_new0(bool, np);
	struct lsq_result lr = {0};
	double rss;
	bool ok = false;

	memset(res, 0, sizeof(*res));
	res->nparams = np;
	res->value = g_new0(double, np);
	res->se = g_new0(double, np);
	res->fitted = g_new0(bool, np);
	res->why = g_new0(char *, np);
	res->share = g_new0(double *, n);
	res->sim = g_new0(struct cal_measure, n);
	res->sim0 = g_new0(struct cal_measure, n);
	for (unsigned j = 0; j < cal_ngroups; j++)
		start[j] = 1;
	start[IDLE] = IDLE_START_NS;

	values_of(theta, start, value);
	if (!evaluate(st, value, pts, n, sim, err))
		goto out;
	res->evaluations++;
	memcpy(res->sim0, sim, sizeof(*sim) * n);
	residuals(real, sim, n, theta, r);
	rss = res->rss0 = sumsq(r, m);
	if (progress)
		progress(data, res->evaluations, "start");

	for (unsigned round = 0;; round++) {
	for (unsigned it = 0;; it++) {
		/* the Jacobian, one unknown at a time */
		for (unsigned j = 0; j < np; j++) {
			memcpy(trial, theta, sizeof(double) * np);
			trial[j] += FD_STEP;
			values_of(trial, start, value);
			if (!evaluate(st, value, pts, n, simt, err))
				goto out;
			res->evaluations++;
			residuals(real, simt, n, trial, rt);
			for (unsigned i = 0; i < m; i++)
				jac[i * np + j] = frozen[j] ? 0 : (rt[i] - r[i]) / FD_STEP;
			if (round == 0 && it == 0 && j < cal_ngroups)
				for (unsigned i = 0; i < n; i++) {
					if (!res->share[i])
						res->share[i] = g_new0(double, cal_ngroups);
					/* d ln cpu / d ln k: the group's share */
					res->share[i][j] = (simt[i].cpu_us - sim[i].cpu_us) /
							   sim[i].cpu_us / (exp(FD_STEP) - 1);
				}
			if (progress)
				progress(data, res->evaluations, cal_fit_param_name(j));
		}
		/* what no run depends on stays at its base: a zero column of
		 * the data's rows */
		for (unsigned j = 0; j < np; j++) {
			double norm = 0;
			for (unsigned i = 0; i < md; i++)
				norm += jac[i * np + j] * jac[i * np + j];
			if (!frozen[j] && norm < 1e-12) {
				frozen[j] = true;
				theta[j] = 0;
				res->why[j] = g_strdup("no calibration run depends on it");
			}
			if (frozen[j])
				for (unsigned i = 0; i < m; i++)
					jac[i * np + j] = 0;
		}
		for (unsigned i = 0; i < m; i++)
			negr[i] = -r[i];
		lsq_result_clear(&lr);
		if (!lsq_solve(jac, negr, m, np, 1e-6, &lr)) {
			g_set_error(err, G_IO_ERROR, G_IO_ERROR_FAILED,
				    "the fit has more unknowns than measures");
			goto out;
		}
		bool refreeze = false;
		for (unsigned j = 0; j < np; j++)
			if (!frozen[j] && lr.dropped[j]) {
				frozen[j] = true;
				theta[j] = 0;
				res->why[j] = g_strdup("the runs cannot tell it from "
						       "the other groups");
				refreeze = true;
			}
		if (refreeze) {
			for (unsigned j = 0; j < np; j++)
				if (frozen[j])
					for (unsigned i = 0; i < m; i++)
						jac[i * np + j] = 0;
			lsq_result_clear(&lr);
			if (!lsq_solve(jac, negr, m, np, 1e-6, &lr))
				goto out;
		}
		if (it >= MAX_ITER)
			break;
		/* the step, halved until it helps */
		bool better = false;
		for (double f = 1; f >= 0.25 && !better; f /= 2) {
			for (unsigned j = 0; j < np; j++)
				trial[j] = frozen[j] ? 0 :
					   CLAMP(theta[j] + f * CLAMP(lr.x[j], -MAX_STEP,
								       MAX_STEP),
						 -MAX_THETA, j == IDLE ? MAX_THETA + 1 :
								    MAX_THETA);
			values_of(trial, start, value);
			if (!evaluate(st, value, pts, n, simt, err))
				goto out;
			res->evaluations++;
			residuals(real, simt, n, trial, rt);
			double rss_t = sumsq(rt, m);
			if (progress)
				progress(data, res->evaluations, "step");
			if (rss_t < rss) {
				double most = 0;
				for (unsigned j = 0; j < np; j++)
					most = MAX(most, fabs(trial[j] - theta[j]));
				better = true;
				bool small = rss - rss_t < 0.001 * rss || most < 0.005;
				memcpy(theta, trial, sizeof(double) * np);
				memcpy(r, rt, sizeof(double) * m);
				memcpy(sim, simt, sizeof(*sim) * n);
				rss = rss_t;
				if (small)
					it = MAX_ITER - 1;	/* one more Jacobian, for the errors */
			}
		}
		res->iterations++;
		if (!better)
			break;
	}
	/* At the end, what the runs do not pin down (a standard error above
	 * half the value, in ln) goes back to its base, and the rest is
	 * fitted again without it. */
	bool refit = false;
	for (unsigned j = 0; j < np; j++)
		if (!frozen[j] && lr.se[j] > 0.5) {
			frozen[j] = true;
			theta[j] = 0;
			res->why[j] = g_strdup_printf(
				"the runs do not pin it down (standard error %.0f%% "
				"of its value)", 100 * lr.se[j]);
			refit = true;
		}
	if (!refit || round == 2)
		break;
	values_of(theta, start, value);
	if (!evaluate(st, value, pts, n, sim, err))
		goto out;
	res->evaluations++;
	residuals(real, sim, n, theta, r);
	rss = sumsq(r, m);
	}
	/* standard errors from the last linearisation, at theta */
	values_of(theta, start, value);
	for (unsigned j = 0; j < np; j++) {
		res->value[j] = value[j];
		res->fitted[j] = !frozen[j];
		res->se[j] = frozen[j] ? 0 : value[j] * lr.se[j];
	}
	memcpy(res->sim, sim, sizeof(*sim) * n);
	res->rss = rss;
	cal_fit_apply(st, value, NULL);
	ok = true;
out:
	lsq_result_clear(&lr);
	return ok;
}
