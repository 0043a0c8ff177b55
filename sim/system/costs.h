/*
 * Which parameters are CPU costs, in groups.
 *
 * A host profile's parameters are of two kinds: the CPU time of a stage
 * (syscall_ns, submit_bio_ns, copy_ns_per_kib, ...) and everything else
 * (CPU counts, scheduler tunables, timer slack, cache sizes, writeback
 * periods). The cost groups below list the first kind, grouped by what
 * runs them. A host profile that inherits another with a cost_scale
 * (profile.h) scales exactly these; storsim calibrate fits one scale per
 * group (sim/calibrate/fit.c).
 */
#ifndef STORSIM_COSTS_H
#define STORSIM_COSTS_H

#include <stdbool.h>

struct cost_group {
	const char *name;
	const char *what;
	/* "model.param" or "model.*" (every row of the model in ns or
	 * ns/KiB), space-separated */
	const char *params;
	bool fs;		/* in a file-system profile, not the host's */
	/* storsim calibrate's suite runs it: the fit gives it a scale */
	bool calibrated;
};

extern const struct cost_group cost_groups[];
extern const unsigned cost_ngroups;

/* Call fn on every "model.param" of g. */
void cost_group_foreach(const struct cost_group *g,
			void (*fn)(const char *model, const char *param, void *d),
			void *d);
/* Whether model.param is a host CPU cost (in a group that is not fs). */
bool cost_param_is_cpu(const char *model, const char *param);

#endif
