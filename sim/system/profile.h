/*
 * Profiles: JSON files of model parameters (format in params.h).
 *
 * A profile is found by path, or by name in the profile search path:
 * $STORSIM_PROFILE_PATH (colon-separated), then the source tree's
 * models/profiles (for a build that is not installed), then the installed
 * data directory. A name NAME is the file NAME.json in the folder of its
 * kind: hosts/, devices/ or filesystems/.
 */
#ifndef STORSIM_PROFILE_H
#define STORSIM_PROFILE_H

#include <glib.h>
#include <json-c/json.h>
#include <stdbool.h>

#include "devices/nvme.h"

struct profile {
	char *path;
	char *text;
	json_object *root;
	const char *name;
	const char *kind;	/* host, device, fs */
	const char *model;	/* device and fs profiles: the model they set */
	const char *description;
	json_object *params;
	/* A host profile may inherit another machine's values with every
	 * CPU cost (system/costs.h) scaled: "inherits": {"profile": NAME,
	 * "cost_scale": {"value": X, "unit": "", "source": "..."}}. Its own
	 * params are applied after, unscaled. */
	const char *parent;		/* NULL: inherits nothing */
	double cost_scale;
	const char *cost_scale_source;
};

struct profile *profile_load(const char *name_or_path, const char *kind,
			     GError **err);
/*
 * Apply an NVMe device profile to p: name_or_path is a file path, or the
 * name of a profile in models/profiles/devices/ ("qemu-nvme"). Errors
 * name the file, line and parameter. The device model loads no profile
 * itself: profiles are the system's business.
 */
bool profile_load_nvme(struct nvme_dev_params *p, const char *name_or_path,
		       GError **err);
/*
 * The values of profile name (of kind) and of the profiles it inherits
 * whose source says "fitted to ID": appended to out as "PROFILE
 * MODEL.PARAM" (host), "PROFILE PARAM" (device, fs) or "PROFILE
 * cost_scale", in file order.
 */
bool profile_fitted_to(const char *name, const char *kind, const char *id,
		       GPtrArray *out, GError **err);
void profile_free(struct profile *p);

static inline void profile_freep(struct profile **p)
{
	profile_free(*p);
}

/* A profile pointer freed when it goes out of scope. */
#define auto_profile __attribute__((cleanup(profile_freep))) struct profile

#endif
