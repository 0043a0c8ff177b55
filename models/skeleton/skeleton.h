/*
 * The skeleton model: the template to copy when adding a model. Its
 * header is what other models and the commands may use: the parameters
 * struct and table, an opaque handle, and a few functions.
 */
#ifndef STORSIM_SKELETON_H
#define STORSIM_SKELETON_H

#include "host/host.h"
#include "engine/params.h"

/* Parameters (one field per row of skeleton_param_table). */
struct skeleton_params {
	uint32_t servers;	/* requests served at once */
	sim_time service;	/* time to serve one request, ns */
	sim_time submit_cpu;	/* CPU time the submitter spends, ns */
};

extern const struct param_def skeleton_param_table[];

/* A request, embedded in its owner's object (no allocation per request).
 * done is called when it has been served, outside any CPU context. */
struct skeleton_req {
	void (*done)(struct skeleton_req *r);
	void *owner;
	struct skeleton_req *next;	/* the model's queue */
};

struct skeleton;

struct skeleton *skeleton_new(struct host *h, const struct skeleton_params *p,
			      const char *name);
void skeleton_free(struct skeleton *sk);
/* Submit r from a CPU context's step (x), which pays submit_cpu. */
void skeleton_submit(struct xctx *x, struct skeleton *sk, struct skeleton_req *r);

#endif
