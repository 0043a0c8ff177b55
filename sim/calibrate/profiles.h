/*
 * Profiles storsim calibrate writes: a host profile (every host model's
 * parameters), the loop devices' device profile and the file-system
 * profiles, each value with its unit and where it came from.
 */
#ifndef STORSIM_CAL_PROFILES_H
#define STORSIM_CAL_PROFILES_H

#include <glib.h>
#include <stdbool.h>

#include "system/registry.h"

/* The values of one profile being made, and each value's source. */
struct cal_profile {
	const char *kind;		/* "host", "device", "fs" */
	const struct model_info *model;	/* device and fs: the one model */
	struct stack_params sp;		/* host: the kernel models' values */
	struct workload_costs wl;	/* host: the workloads' costs */
	void *params;			/* device and fs: that model's values */
	GHashTable *source;		/* "model.param" -> text */
	char *description;
};

/* Start from the profile base (a name or path) of kind ("host", "device"
 * with model, "fs"): its values and sources, defaults for the rest. */
bool cal_profile_load(struct cal_profile *p, const char *kind,
		      const char *model, const char *base, GError **err);
void cal_profile_clear(struct cal_profile *p);
/* Where model's values live in p; NULL if p does not set model. */
void *cal_profile_model_params(struct cal_profile *p, const struct model_info *m);
/* Set "model.param" (host) or "param" from its text, with its source. */
bool cal_profile_set(struct cal_profile *p, const char *model,
		     const char *param, const char *value, const char *source,
		     GError **err);
/* A number parameter's value, and setting one (rounded to whole ns for
 * ns rows). */
double cal_profile_get_num(struct cal_profile *p, const char *model,
			   const char *param);
void cal_profile_set_num(struct cal_profile *p, const char *model,
			 const char *param, double v, const char *source);
const char *cal_profile_source(struct cal_profile *p, const char *model,
			       const char *param);
/* Write it as a profile file called name. */
bool cal_profile_write(struct cal_profile *p, const char *name,
		       const char *notes, const char *path, GError **err);

#endif
