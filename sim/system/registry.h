/*
 * The registry of models and the parameter sets a run is made of.
 *
 * Every model that takes parameters has a row in model_registry[]: its
 * name (the key in profiles and in `--set NAME.PARAM=VALUE`), the kind of
 * profile that sets it, its parameter table and where its parameters live.
 * Host profiles set the CPU costs of every kernel and user stage on one
 * machine (the kernel's in struct stack_params, models/stack.h; each
 * workload's own in struct workload_costs, workloads/workloads.h); device
 * and file-system profiles set one device or file system each; the kernel
 * features are the variant switches.
 */
#ifndef STORSIM_REGISTRY_H
#define STORSIM_REGISTRY_H

#include <stddef.h>

#include "devices/nvme.h"
#include "fs/fs.h"
#include "kernel.h"
#include "stack.h"
#include "engine/params.h"
#include "workloads/workloads.h"

enum model_kind {
	MODEL_HOST,	/* part of a host profile (CPU costs) */
	MODEL_DEVICE,	/* a device profile */
	MODEL_FS,	/* a file-system profile */
	MODEL_KERNEL,	/* kernel features (variants) */
};

struct model_info {
	const char *name;
	enum model_kind kind;
	const struct param_def *params;
	size_t size;		/* of its params struct */
	/* MODEL_HOST: where its values are: offset in struct stack_params,
	 * or, for a workload's own costs, in struct workload_costs */
	bool workload;
	size_t offset;
	const char *summary;
	const char *doc;	/* its page under docs/models/ */
};

extern const struct model_info model_registry[];

const struct model_info *model_find(const char *name);
/* The values of host model m among a host's: the kernel stack's (sp) or
 * a workload's (wl). */
void *model_values(const struct model_info *m, struct stack_params *sp,
		   struct workload_costs *wl);
/* Where a kind of model is set, as a reader would put it: "host profile",
 * "--kernel FEATURE=VALUE", ... */
const char *model_set_by(enum model_kind k);

#endif
