/*
 * io-wq: the worker threads io_uring hands a request to when it would
 * block.
 *
 * io_uring queues a struct io_wq_work with io_wq_enqueue() from the
 * submitting context. A worker task takes it and calls ops->execute() in
 * its own step, where the work runs as a blocking call would: it returns
 * true when it finished there, or false when it must wait, in which case
 * whoever ends the wait calls io_wq_work_wake() and the worker continues
 * with ops->resume().
 */
#ifndef STORSIM_IO_WQ_H
#define STORSIM_IO_WQ_H

#include <stdbool.h>

#include "host/host.h"
#include "kernel.h"
#include "engine/params.h"

/* CPU costs (host profile, model "io_wq"). */
struct io_wq_params {
	sim_time enqueue;	/* io_wq_enqueue: lock, list insert, wake decision */
	sim_time handle_work;	/* io_worker_handle_work per item: dequeue, state */
	sim_time create;	/* create_io_worker: a new kernel thread */
};

extern const struct param_def io_wq_param_table[];

struct io_wq_work {
	struct task *worker;	/* set while a worker runs it */
	bool woken;		/* io_wq_work_wake() came before the sleep */
	/* For work that ends the worker's step itself (IO_WQ_STEP_ENDED):
	 * the message that goes on with it, to make its next step. */
	struct sim_msg resume;
	/* execute() ends the worker's step and may sleep in it (an fsync
	 * waiting for writeback); it must return IO_WQ_STEP_ENDED. */
	bool ends_step;
	struct io_wq_work *next;
};

enum io_wq_exec {
	IO_WQ_DONE,		/* finished in the call */
	IO_WQ_WAITS,		/* io_wq_work_wake() will end the wait */
	IO_WQ_STEP_ENDED,	/* it ended the step; w->resume continues it */
};

struct io_wq_ops {
	/* Run the work in the worker's step (x). */
	enum io_wq_exec (*execute)(struct xctx *x, struct io_wq_work *w, void *data);
	/* The wait is over (or the step the work ended was followed by
	 * w->resume): finish the work in the worker's step, or wait again
	 * (IO_WQ_WAITS: a buffered write that reads a second block first). */
	enum io_wq_exec (*resume)(struct xctx *x, struct io_wq_work *w, void *data);
};

struct io_wq;

/* Worker task names start with this (host_tasks_usage). */
#define IO_WQ_WORKER_PREFIX "iou-wrk"

/* A pool of at most max_workers workers (bounded work: min(SQ entries,
 * 4 x CPUs) in the kernel), named "<name>-N". */
struct io_wq *io_wq_new(struct host *h, const struct io_wq_params *p,
			const struct kernel_features *k, const char *name,
			unsigned max_workers, const struct io_wq_ops *ops,
			void *data);
void io_wq_free(struct io_wq *wq);
void io_wq_enqueue(struct xctx *x, struct io_wq *wq, struct io_wq_work *w);
/* End the wait of a work that execute() left waiting, from any context. */
void io_wq_work_wake(struct xctx *x, struct io_wq_work *w);

/* For reports: workers created, and their CPU time. */
unsigned io_wq_nr_workers(const struct io_wq *wq);
void io_wq_usage(const struct io_wq *wq, struct task_usage *sum);

#endif
