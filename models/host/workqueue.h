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
struct pool;

/* A work item, embedded in its owner. fn is delivered as a step of the
 * kworker that runs it: it charges its work and returns. */
struct work {
	struct sim_msg fn;
	struct work *next;
	struct pool *pool;	/* where it was queued last */
};

/* Inside fn: deliver fn once more as the worker's next step, without a
 * new process_one_work. A work function that loops over a list of its
 * own (loop_process_work) takes one entry per step this way, so entries
 * added while it runs are seen, as the kernel's loop sees them. */
void work_again(struct work *w);

/* bound: one pool per CPU, work runs on the CPU that queued it
 * (WQ_PERCPU, e.g. the dio/<sb> workqueue); otherwise unbound. */
struct workqueue *workqueue_new(struct host *h, const struct workqueue_params *p,
				const char *name, bool bound);
void workqueue_free(struct workqueue *wq);
void queue_work(struct xctx *x, struct workqueue *wq, struct work *w);

#endif
