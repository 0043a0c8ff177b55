/*
 * Workqueues and their kworkers (kernel/workqueue.c).
 */
#ifndef STORSIM_WORKQUEUE_H
#define STORSIM_WORKQUEUE_H

#include "host/host.h"
#include "engine/params.h"

/* CPU costs (host profile, model "workqueue"). */
struct workqueue_params {
	sim_time queue_work;	/* queue_work: insert, decide whether to wake */
	sim_time process_work;	/* worker_thread + process_one_work per item */
};

extern const struct param_def workqueue_param_table[];

struct workqueue;

/* A work item, embedded in its owner. fn is delivered as a step of the
 * kworker that runs it: it charges its work and returns. */
struct work {
	struct sim_msg fn;
	struct work *next;
};

/* bound: one pool per CPU, work runs on the CPU that queued it
 * (WQ_PERCPU, e.g. the dio/<sb> workqueue); otherwise unbound. */
struct workqueue *workqueue_new(struct host *h, const struct workqueue_params *p,
				const char *name, bool bound);
void workqueue_free(struct workqueue *wq);
void queue_work(struct xctx *x, struct workqueue *wq, struct work *w);

#endif
