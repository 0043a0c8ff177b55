/*
 * A task inside a blocking read_iter or write_iter: the synchronous
 * system calls, and io_submit on a file without O_DIRECT.
 */
#ifndef STORSIM_SYNC_RW_H
#define STORSIM_SYNC_RW_H

#include "fs/vfs.h"
#include "host/host.h"

/* Runs in a step of the waiting task once the I/O is over: iocb->res
 * holds its result and the file's dio_complete has run. Ends the step. */
typedef void (*sync_rw_done_fn)(struct xctx *x, struct kiocb *iocb, void *arg);

/* Public so that a request can embed one; use the functions below. */
struct sync_rw {
	struct sim_component comp;
	struct task *task;
	struct kiocb *iocb;
	bool done;		/* ki_complete has run */
	sync_rw_done_fn finish;
	void *arg;
	struct fsync_op sync;	/* generic_write_sync's, in progress */
};

/* Set w up for task t (for one I/O at a time); sync_rw_new allocates. */
void sync_rw_init(struct sync_rw *w, struct sim *s, const char *name,
		  struct task *t, sync_rw_done_fn done, void *arg);

struct sync_rw *sync_rw_new(struct sim *s, const char *name, struct task *t,
			    sync_rw_done_fn done, void *arg);
void sync_rw_free(struct sync_rw *w);
/* Start iocb (file, position, length, direction and flags set by the
 * caller) in the current step of the task, which this ends: the task
 * goes on at once if the file finished the I/O in the call, else it
 * sleeps (or, for a polled dio, spins on the queue) until the I/O ends.
 * One I/O at a time. */
void sync_rw_start(struct sync_rw *w, struct xctx *x, struct kiocb *iocb);
/* Register the stages, so that their order does not depend on which
 * caller comes first. */
void sync_rw_register_stages(void);

#endif
