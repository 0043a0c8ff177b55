/*
 * The calibration fit: a few cost groups' scales and the CPUs' idle exit
 * latency, fitted by Gauss-Newton least squares to the suite's real
 * measures (CPU time per I/O, its user part, IOPS), with each parameter's
 * standard error and each run's residuals.
 */
#ifndef STORSIM_CAL_FIT_H
#define STORSIM_CAL_FIT_H

#include <glib.h>

#include "measure.h"
#include "points.h"
#include "profiles.h"
#include "simulate.h"

/* Which profile a group's parameters are in. */
enum cal_where { CAL_IN_HOST, CAL_IN_XFS, CAL_IN_EXT4 };

/* One unknown of the fit: a calibrated cost group (system/costs.h) in
 * one profile; the file-system group once per file system. */
struct cal_group {
	const char *name;
	const char *what;
	enum cal_where where;
	const char *cost;	/* the cost group's name */
};

extern const struct cal_group cal_groups[];
extern const unsigned cal_ngroups;

/* The profiles being fitted, as cal_fit changes them. */
struct cal_fit_state {
	struct cal_profile host, xfs, ext4;
	struct cal_profile base_host, base_xfs, base_ext4;	/* the starting values */
	char *dir;		/* where candidate profiles and jobs go */
	struct cal_profiles paths;	/* the candidate profiles, by path */
	char *loop_profile;
	const struct cal_places *pl;
	const char *sim_runtime;
	sim_time idle_residency;	/* of the one idle state fitted */
};

/* What the fit found. */
struct cal_fit_result {
	unsigned nparams;	/* cal_ngroups + 1 (the idle exit latency) */
	double *value;		/* group scales, then the exit latency (ns) */
	double *se;		/* standard errors, same units */
	bool *fitted;		/* false: left at its start (not identifiable) */
	char **why;		/* for each left out: why */
	double **share;		/* [point][group]: the group's share of the
				 * point's CPU time per I/O at the start */
	struct cal_measure *sim;	/* per point, with the fitted profiles */
	struct cal_measure *sim0;	/* per point, with the start profiles */
	double rss0, rss;	/* before and after */
	unsigned iterations, evaluations;
};

/* progress: called after each evaluation (all points simulated once). */
typedef void (*cal_fit_progress)(void *data, unsigned eval, const char *what);

bool cal_fit(struct cal_fit_state *st, const struct cal_point *pts,
	     const struct cal_measure *real, unsigned n,
	     struct cal_fit_result *res, cal_fit_progress progress, void *data,
	     GError **err);
void cal_fit_result_clear(struct cal_fit_result *r, unsigned npoints);
/* The parameter's name: a group's or "idle_exit". */
const char *cal_fit_param_name(unsigned j);

/* Apply the scales and exit latency in value[] to st's profiles, each
 * changed parameter getting source. */
void cal_fit_apply(struct cal_fit_state *st, const double *value,
		   const char *const *source);

#endif
