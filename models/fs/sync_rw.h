/*
 * A task inside a blocking read_iter or write_iter: the synchronous
 * system calls, and io_submit on a file without O_DIRECT.
 */
#ifndef STORSIM_SYNC_RW_H
#define STORSIM_SYNC_RW_H

#include "fs/vfs.h"
#include "host/host.h"

struct sync_rw;

/* Runs in a step of the waiting task once the I/O is over: iocb->res
 * holds its result and the file's dio_complete has run. Ends the step. */
typedef void (*sync_rw_done_fn)(struct xctx *x, struct kiocb *iocb, void *arg);

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
