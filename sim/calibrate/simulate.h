/*
 * storsim's side of a point: the same job file on a simulated system with
 * the same device names and paths, and the same measures.
 */
#ifndef STORSIM_CAL_SIMULATE_H
#define STORSIM_CAL_SIMULATE_H

#include <glib.h>

#include "measure.h"
#include "points.h"
#include "system/workload.h"

/* The profiles a prediction runs with (names or paths). */
struct cal_profiles {
	char *host;
	char *loop;		/* the loop devices' device profile */
	char *xfs, *ext4;	/* file-system profiles */
};

/*
 * Run p with runtime (as fio takes it) in dir (where the job file goes).
 * m, if not NULL, gets the run's full figures (CPU time by stage), and
 * must be cleared by the caller.
 */
bool cal_simulate(const struct cal_profiles *pr, const struct cal_places *pl,
		  const struct cal_point *p, const char *runtime,
		  const char *dir, struct cal_measure *out,
		  struct run_metrics *m, GError **err);

#endif
