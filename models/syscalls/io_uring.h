/*
 * io_uring, the kernel side: rings, submission, completion through
 * task_work, waiting, polling.
 *
 * The user side (fio's io_uring engine, t/io_uring) fills SQEs with
 * io_ring_sqe_push(), calls io_uring_enter() from its task's step, and
 * reaps CQEs with io_ring_cq_pop(). io_uring_enter() ends the caller's
 * step: its `done` message is the caller's next step, delivered when the
 * syscall returns, possibly after sleeping.
 */
#ifndef STORSIM_IO_URING_H
#define STORSIM_IO_URING_H

#include <stdbool.h>
#include <stdint.h>

#include "io_wq.h"
#include "fs/vfs.h"
#include "host/host.h"
#include "engine/io_trace.h"
#include "kernel.h"
#include "engine/params.h"

enum io_op {
	IO_OP_NOP,
	IO_OP_READ,
	IO_OP_WRITE,
	IO_OP_FSYNC,		/* fsync; with fsync_datasync, fdatasync */
	IO_OP_URING_CMD,	/* IORING_OP_URING_CMD: the file's passthrough */
};

#define IORING_ENTER_GETEVENTS (1u << 0)
#define IORING_ENTER_SQ_WAKEUP (1u << 1)

struct io_sqe {
	uint8_t op;
	bool fixed_buf;		/* READ_FIXED/WRITE_FIXED: a bvec iterator */
	struct sfile *file;
	uint64_t off;
	uint32_t len;
	uint32_t nr_segs;	/* pages spanned by the buffer */
	uint32_t kiflags;	/* KI_*: from the file's open flags (O_DSYNC...) */
	bool fsync_datasync;	/* IORING_FSYNC_DATASYNC */
	bool force_async;	/* IOSQE_ASYNC: straight to io-wq */
	/* IO_OP_URING_CMD: sqe->cmd_op, and the command area (sqe->cmd) the
	 * file reads; fixed_buf stands for IORING_URING_CMD_FIXED. */
	uint32_t cmd_op;
	uint8_t cmd[IO_URING_CMD_BYTES];
	void *user_data;
	struct io_trace *trace;	/* the submitter's latency stamps, or NULL:
				 * the simulation's, not in a real SQE */
};

struct io_cqe {
	void *user_data;
	long res;
	uint64_t res2;		/* big_cqe[0] of a 32-byte CQE (CQE32 rings) */
};

struct io_ring_config {
	unsigned sq_entries;
	unsigned cq_entries;
	bool iopoll;		/* IORING_SETUP_IOPOLL */
	bool defer_taskrun;	/* IORING_SETUP_DEFER_TASKRUN */
	bool coop_taskrun;	/* IORING_SETUP_COOP_TASKRUN */
	bool fixed_files;	/* registered files */
	bool sqe128;		/* IORING_SETUP_SQE128: 128-byte SQEs */
	bool cqe32;		/* IORING_SETUP_CQE32: 32-byte CQEs */
	bool sqpoll;		/* IORING_SETUP_SQPOLL */
	int sq_thread_cpu;	/* IORING_SETUP_SQ_AFF: its CPU, or -1 */
	sim_time sq_thread_idle;	/* ns of no work before it sleeps */
};

/* CPU costs (host profile, model "io_uring"). */
struct io_uring_params {
	sim_time enter;		/* io_uring_enter body, around the work */
	sim_time submit_sqe;	/* io_submit_sqe: fetch, req alloc, init, prep */
	sim_time file_fixed;	/* registered file lookup */
	sim_time file_get;	/* fget + fput of a normal file descriptor */
	sim_time rw_issue;	/* io_read/io_write: kiocb and iterator set-up */
	sim_time buf_import;	/* import a user buffer (not registered) */
	sim_time tw_add;	/* io_req_task_work_add */
	sim_time tw_run;	/* per task_work item run */
	sim_time cqe_post;	/* fill and commit one CQE, free the request */
	sim_time wait;		/* io_cqring_wait set-up and tear-down */
	sim_time iopoll;	/* one io_do_iopoll pass */
	sim_time async_prep;	/* io_req_prep_async before an io-wq punt */
	sim_time sqpoll;	/* one pass of the SQPOLL thread */
	sim_time cmd_prep;	/* io_uring_cmd_prep, io_uring_async_get */
	sim_time sqe_copy_line;	/* per 64-byte line of SQE copied to async data */
	sim_time cmd_issue;	/* io_uring_cmd around ->uring_cmd */
	sim_time cmd_done;	/* io_uring_cmd_done: result, async data freed */
};

extern const struct param_def io_uring_param_table[];

struct io_ring;

struct io_ring *io_ring_new(struct host *h, struct task *owner,
			    const struct io_uring_params *p,
			    const struct io_wq_params *wqp,
			    const struct kernel_features *k,
			    const struct io_ring_config *cfg);
/* io-wq's workers and their CPU time (none before the first punt). */
void io_ring_wq_usage(const struct io_ring *r, unsigned *workers,
		      struct task_usage *sum);
void io_ring_free(struct io_ring *r);
/* How often passthrough commands had their SQE copied into async data, by
 * where: in io_uring_cmd_prep, or on -EAGAIN from the issue. */
struct io_ring_cmd_stats {
	uint64_t cmds, copies_at_prep, copies_at_eagain, punted;
};
void io_ring_cmd_stats(const struct io_ring *r, struct io_ring_cmd_stats *st);

/* User side */
bool io_ring_sqe_push(struct io_ring *r, const struct io_sqe *sqe);
unsigned io_ring_cq_ready(const struct io_ring *r);
bool io_ring_cq_pop(struct io_ring *r, struct io_cqe *cqe);

/* The syscall. Must be called inside a step of the ring's owner task; ends
 * that step. The number of SQEs consumed is io_ring_last_submitted(). The
 * message goes field by field, as host.h's *_fields functions take theirs:
 * passed whole, it was built on the stack with narrow stores and read back
 * with wide loads, a store-forwarding stall on every call. */
void io_uring_enter_fields(struct io_ring *r, unsigned to_submit,
			   unsigned min_complete, unsigned flags,
			   struct sim_component *c, unsigned type, void *ptr,
			   uint64_t arg);
static inline void io_uring_enter(struct io_ring *r, unsigned to_submit,
				  unsigned min_complete, unsigned flags,
				  struct sim_msg done)
{
	io_uring_enter_fields(r, to_submit, min_complete, flags, done.c,
			      done.type, done.ptr, done.arg);
}
unsigned io_ring_last_submitted(const struct io_ring *r);

/* SQPOLL: whether the SQ thread sleeps (submissions then need
 * io_uring_enter(IORING_ENTER_SQ_WAKEUP)), and waiting for a CQE by
 * polling the CQ ring from user space, which ends the caller's step:
 * done is its next step, once a CQE is there. */
bool io_ring_sq_need_wakeup(const struct io_ring *r);
void io_ring_cq_spin(struct io_ring *r, struct sim_msg done);

#endif
