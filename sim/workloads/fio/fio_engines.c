/*
 * fio's I/O engines, user side: null, the synchronous family (sync, psync,
 * vsync, pvsync, pvsync2), libaio and io_uring.
 *
 * Stands for fio 3.33's engines/null.c, engines/sync.c, engines/libaio.c
 * and engines/io_uring.c. Each engine does in simulated user space what fio
 * does (fill an SQE, read a CQE) and calls the kernel models for the
 * syscalls: read/pread/preadv(2) go straight to the file, sleeping until
 * the I/O completes; io_uring_enter goes to the io_uring model.
 *
 * The io_uring engine sets its ring up as fio did in mid-2023 (commit
 * 04361e9a): COOP_TASKRUN | SINGLE_ISSUER | DEFER_TASKRUN, so completions
 * are posted only inside io_uring_enter(GETEVENTS), which both the submit
 * call (io_uring_enter(nr, 0, GETEVENTS)) and the reap call
 * (io_uring_enter(0, min, GETEVENTS)) make. It reaps from the CQ ring
 * without a syscall when CQEs are there.
 *
 * Parameters: fio's user costs (model "fio"), the syscall cost (model
 * "cpu"), the kernel's (models "io_uring", "blk_mq", ...).
 * hipri makes the io_uring ring an IOPOLL ring, and pvsync2's reads and
 * writes RWF_HIPRI (polled); polling needs poll queues on the device
 * (nvme_drv.poll_queues), else completions come by interrupt as in Linux.
 *
 * sqthread_poll sets up an SQPOLL ring: fio's commit is then a store to
 * the SQ ring (a syscall only to wake a sleeping SQ thread) and its reap
 * polls the CQ ring in user space.
 *
 * Left out: force_async, sqthread_poll with hipri and the io_uring_cmd
 * engine are refused; hipri_percentage other than 100 too. libaio's io_getevents
 * timeout is not modelled (fio waits without one).
 */
#include <glib.h>

#include "fio_engine.h"
#include "syscalls/aio.h"
#include "syscalls/io_uring.h"
#include "syscalls/sync_rw.h"
#include "engine/util.h"

static stage_id st_sqe, st_cqe, st_aio_prep, st_event;

static void libaio_handle(struct sim_component *c, unsigned type, void *ptr,
			  uint64_t arg);

static const struct sim_component_ops libaio_ops = {
	.name = "fio.libaio",
	.handle = libaio_handle,
};

static void register_stages(void)
{
	st_sqe = stage_register("fio_sqe_prep", CPU_USR, "fio_ioring_prep");
	st_cqe = stage_register("fio_cqe_reap", CPU_USR, "fio_ioring_cqring_reap");
	st_aio_prep = stage_register("fio_aio_prep", CPU_USR, "fio_libaio_prep");
	st_event = stage_register("fio_aio_reap", CPU_USR, "fio_libaio_event");
	sync_rw_register_stages();
}

static bool refuse_option(struct fio_thread *td, const char *option,
			  const char *why, GError **err)
{
	const char *file = td->job->file;
	int line = td->job->line;

	jobopt_location(td->job, option, &file, &line);
	storsim_unsupported_error(err, file, line, option, "%s", why);
	return false;
}

/* ---- null ---- */

/* fio's null engine: with iodepth 1 it completes in queue(); otherwise
 * commit() completes everything queued and getevents() returns it, and
 * queue() answers FIO_Q_BUSY while completed I/Os wait to be reaped, so
 * that fio runs it at depth 1 whatever its iodepth. The
 * completion of a synchronous I/O is taken in the step after its work, so
 * that its latency is the time fio's own code took. */
struct null_data {
	struct sim_component comp;
	struct fio_thread *td;
	struct fio_io_u **queued;
	unsigned nqueued;
	unsigned ncommitted;	/* queued[] before this were issued already */
};

enum { NULL_DONE };

static void null_handle(struct sim_component *c, unsigned type, void *ptr,
			uint64_t arg)
{
	struct null_data *nd = (struct null_data *)c;
	fio_io_done(nd->td, ptr, ((struct fio_io_u *)ptr)->len);
	fio_resume(nd->td);
}

static const struct sim_component_ops null_ops = {
	.name = "fio.null",
	.handle = null_handle,
};

static bool null_init(struct fio_thread *td, GError **err)
{
	struct null_data *nd = g_new0(struct null_data, 1);
	nd->td = td;
	nd->queued = g_new0(struct fio_io_u *, td->o->iodepth);
	sim_component_init(fio_env(td)->sim, &nd->comp, &null_ops, td->name);
	td->eng_data = nd;
	if (td->o->iodepth == 1)
		td->eng = &fio_null_engine_sync;
	return true;
}

static void null_cleanup(struct fio_thread *td)
{
	struct null_data *nd = td->eng_data;
	g_free(nd->queued);
	g_free(nd);
}

static void null_queue_sync(struct fio_thread *td, struct fio_io_u *u)
{
	struct null_data *nd = td->eng_data;

	/* fio counts submit and complete calls only for engines without a
	 * commit hook, and null keeps its hook at iodepth 1. */
	fio_io_issued(td, u);
	fio_issued_in_queue(td);
	task_then(td->task, SIM_MSG(&nd->comp, NULL_DONE, u, 0));
}

static void null_queue(struct fio_thread *td, struct fio_io_u *u)
{
	struct null_data *nd = td->eng_data;
	nd->queued[nd->nqueued++] = u;
}

/* Each io_u is issued once: with iodepth_batch below iodepth, commit()
 * comes again before getevents() and must leave the earlier ones alone. */
static void null_commit(struct fio_thread *td)
{
	struct null_data *nd = td->eng_data;
	for (unsigned i = nd->ncommitted; i < nd->nqueued; i++)
		fio_io_issued(td, nd->queued[i]);
	fio_submitted(td, nd->nqueued - nd->ncommitted);
	nd->ncommitted = nd->nqueued;
	fio_resume(td);
}

static void null_getevents(struct fio_thread *td, unsigned min, unsigned max)
{
	struct null_data *nd = td->eng_data;
	unsigned n = nd->nqueued;
	for (unsigned i = 0; i < n; i++)
		fio_io_done(td, nd->queued[i], nd->queued[i]->len);
	nd->nqueued = 0;
	nd->ncommitted = 0;
	fio_reaped(td, n);
	fio_resume(td);
}

static bool null_busy(const struct fio_thread *td)
{
	const struct null_data *nd = td->eng_data;
	return nd->ncommitted > 0;
}

const struct fio_engine_ops fio_null_engine = {
	.name = "null",
	.init = null_init,
	.cleanup = null_cleanup,
	.queue = null_queue,
	.commit = null_commit,
	.getevents = null_getevents,
	.busy = null_busy,
};

const struct fio_engine_ops fio_null_engine_sync = {
	.name = "null",
	.sync = true,
	.cleanup = null_cleanup,
	.queue = null_queue_sync,
};

/* ---- sync, psync, vsync, pvsync, pvsync2 ---- */

/* The task sleeps in the syscall until the I/O completes (fs/sync_rw.c);
 * an fsync(2) sleeps in the file's fsync. */
struct sync_data {
	struct sim_component comp;
	struct fio_thread *td;
	struct fio_io_u *u;
	struct sync_rw *rw;
	struct fsync_op fsync;	/* the fsync or fdatasync in progress */
};

enum { SYNC_FSYNCED };

/* The read or write is over, in the task's step after it. */
static void sync_rw_done(struct xctx *x, struct kiocb *k, void *arg)
{
	struct sync_data *sd = arg;

	if (k->trace)
		io_trace_stamp_cpu(k->trace, IOS_COMPLETE, xctx_clock(x),
				   cpu_id(xctx_cpu(x)));
	fio_io_done(sd->td, sd->u, k->res);
	fio_reaped(sd->td, 1);
	fio_resume(sd->td);
}

static void sync_handle(struct sim_component *c, unsigned type, void *ptr,
			uint64_t arg)
{
	struct sync_data *sd = (struct sync_data *)c;

	fio_io_done(sd->td, sd->u, sd->fsync.res);
	fio_reaped(sd->td, 1);
	fio_resume(sd->td);
}

static const struct sim_component_ops sync_ops = {
	.name = "fio.sync",
	.handle = sync_handle,
};

static bool sync_init(struct fio_thread *td, GError **err)
{
	const struct workload_env *env = fio_env(td);
	struct sync_data *sd;

	register_stages();
	if (td->o->eng.hipri && td->o->eng.hipri_percentage != 100)
		return refuse_option(td, "hipri_percentage",
				     "only all-polled or no polled I/O is modelled", err);
	sd = g_new0(struct sync_data, 1);
	sd->td = td;
	sd->rw = sync_rw_new(env->sim, td->name, td->task, sync_rw_done, sd);
	sim_component_init(env->sim, &sd->comp, &sync_ops, td->name);
	td->eng_data = sd;
	return true;
}

static void sync_cleanup(struct fio_thread *td)
{
	struct sync_data *sd = td->eng_data;

	sync_rw_free(sd->rw);
	g_free(sd);
}

static void sync_queue(struct fio_thread *td, struct fio_io_u *u)
{
	struct sync_data *sd = td->eng_data;
	struct xctx *x = fio_xctx(td);
	struct sfile *f = u->file->f;

	sd->u = u;
	if (u->sync_op) {
		/* do_io_u_sync: fsync(2) or fdatasync(2). */
		xctx_syscall(x, 1);
		fio_io_issued(td, u);
		fio_submitted(td, 1);
		sd->fsync = (struct fsync_op){
			.file = f, .datasync = u->datasync, .task = td->task,
			.done = SIM_MSG(&sd->comp, SYNC_FSYNCED, NULL, 0),
		};
		f->ops->fsync(x, &sd->fsync);
		return;
	}
	/* sync does lseek() + read(); the others one positioned call. */
	unsigned syscalls = td->eng == &fio_sync_engine ||
			    td->eng == &fio_vsync_engine ? 2 : 1;
	xctx_syscall(x, syscalls);
	if (td->trace_layers)
		io_trace_stamp_cpu(&u->trace, IOS_SUBMIT, xctx_clock(x),
				   cpu_id(xctx_cpu(x)));
	u->kiocb = (struct kiocb){
		.file = f,
		.pos = u->offset,
		.len = u->len,
		.nr_segs = u->nr_segs,
		.write = u->ddir == FIO_DDIR_WRITE,
		.flags = fio_open_flags(td) |
			 (td->eng == &fio_pvsync2_engine && td->o->eng.hipri ?
			  KI_HIPRI : 0),
		.trace = fio_io_trace(td, u),
	};
	fio_io_issued(td, u);
	fio_submitted(td, 1);
	sync_rw_start(sd->rw, x, &u->kiocb);
}

#define SYNC_ENGINE(var, engname) \
	const struct fio_engine_ops var = { \
		.name = engname, .sync = true, .needs_kernel = true, \
		.init = sync_init, .cleanup = sync_cleanup, .queue = sync_queue, \
	}

SYNC_ENGINE(fio_sync_engine, "sync");
SYNC_ENGINE(fio_psync_engine, "psync");
SYNC_ENGINE(fio_vsync_engine, "vsync");
SYNC_ENGINE(fio_pvsync_engine, "pvsync");
SYNC_ENGINE(fio_pvsync2_engine, "pvsync2");

/* ---- io_uring ---- */

struct uring_data {
	struct sim_component comp;
	struct fio_thread *td;
	struct io_ring *ring;
	struct fio_io_u **pending;	/* queued, not yet submitted, in order */
	unsigned npending;
	unsigned min, max, got;		/* the getevents in progress */
};

enum { URING_COMMITTED, URING_ENTERED_REAP, URING_WOKE_SQ };

static unsigned uring_reap(struct fio_thread *td, struct uring_data *ud,
			   unsigned max)
{
	struct io_cqe cqe;
	unsigned n = 0;

	while (n < max && io_ring_cq_pop(ud->ring, &cqe)) {
		fio_io_done(td, cqe.user_data, cqe.res);
		n++;
	}
	xctx_charge(fio_xctx(td), st_cqe, fio_costs(td)->cqe_reap * n);
	return n;
}

static void uring_wait_more(struct fio_thread *td, struct uring_data *ud)
{
	ud->got += uring_reap(td, ud, ud->max - ud->got);
	if (ud->got >= ud->min) {
		fio_reaped(td, ud->got);
		fio_resume(td);
		return;
	}
	/* With SQPOLL fio polls the CQ ring instead of entering the kernel. */
	if (td->o->eng.sqthread_poll)
		io_ring_cq_spin(ud->ring, SIM_MSG(&ud->comp, URING_ENTERED_REAP, NULL, 0));
	else
		io_uring_enter(ud->ring, 0, ud->min - ud->got, IORING_ENTER_GETEVENTS,
			       SIM_MSG(&ud->comp, URING_ENTERED_REAP, NULL, 0));
}

static void uring_handle(struct sim_component *c, unsigned type, void *ptr,
			 uint64_t arg)
{
	struct uring_data *ud = (struct uring_data *)c;
	struct fio_thread *td = ud->td;

	switch (type) {
	case URING_COMMITTED: {
		unsigned nr = io_ring_last_submitted(ud->ring);
		for (unsigned i = 0; i < nr; i++)
			fio_io_issued(td, ud->pending[i]);
		for (unsigned i = nr; i < ud->npending; i++)
			ud->pending[i - nr] = ud->pending[i];
		ud->npending -= nr;
		fio_submitted(td, nr);
		fio_resume(td);
		break;
	}
	case URING_ENTERED_REAP:
		uring_wait_more(td, ud);
		break;
	case URING_WOKE_SQ:
		fio_resume(td);
		break;
	}
}

static const struct sim_component_ops uring_ops = {
	.name = "fio.io_uring",
	.handle = uring_handle,
};

static bool uring_init(struct fio_thread *td, GError **err)
{
	const struct fio_engine_options *e = &td->o->eng;
	const struct workload_env *env = fio_env(td);
	struct uring_data *ud;

	register_stages();
	if (e->sqthread_poll && e->hipri)
		return refuse_option(td, "sqthread_poll",
				     "SQPOLL with polled completions (hipri) is not "
				     "modelled yet", err);
	if (e->force_async)
		return refuse_option(td, "force_async",
				     "forced io-wq punts (IOSQE_ASYNC) are not modelled yet",
				     err);
	ud = g_new0(struct uring_data, 1);
	ud->td = td;
	ud->pending = g_new0(struct fio_io_u *, td->o->iodepth);
	sim_component_init(env->sim, &ud->comp, &uring_ops, td->name);
	struct io_ring_config rc = {
		.sq_entries = td->o->iodepth,
		.cq_entries = 2 * td->o->iodepth,
		.iopoll = e->hipri,
		/* fio sets up COOP_TASKRUN | DEFER_TASKRUN and, on a kernel
		 * without them, a plain ring. */
		.defer_taskrun = env->kf->io_uring_defer_taskrun,
		.coop_taskrun = env->kf->io_uring_defer_taskrun,
		.fixed_files = e->registerfiles,
		.sqpoll = e->sqthread_poll,
		.sq_thread_cpu = e->sqthread_poll_cpu,
		/* fio leaves sq_thread_idle 0: the kernel's default, 1 s. */
		.sq_thread_idle = SIM_SEC,
	};
	ud->ring = io_ring_new(env->host, td->task, &env->sp->io_uring,
			       &env->sp->io_wq, env->kf, &rc);
	td->eng_data = ud;
	return true;
}

static void uring_cleanup(struct fio_thread *td)
{
	struct uring_data *ud = td->eng_data;
	io_ring_free(ud->ring);
	g_free(ud->pending);
	g_free(ud);
}

static void uring_queue(struct fio_thread *td, struct fio_io_u *u)
{
	struct uring_data *ud = td->eng_data;
	struct io_sqe sqe = {
		.op = u->sync_op ? IO_OP_FSYNC :
		      u->ddir == FIO_DDIR_WRITE ? IO_OP_WRITE : IO_OP_READ,
		.fsync_datasync = u->datasync,
		.fixed_buf = td->o->eng.fixedbufs,
		.file = u->file->f,
		.off = u->offset,
		.len = u->len,
		.nr_segs = u->nr_segs,
		.kiflags = fio_open_flags(td),
		.user_data = u,
		.trace = fio_io_trace(td, u),
	};

	xctx_charge(fio_xctx(td), st_sqe, fio_costs(td)->sqe_prep);
	g_assert(io_ring_sqe_push(ud->ring, &sqe));
	ud->pending[ud->npending++] = u;
}

static void uring_commit(struct fio_thread *td)
{
	struct uring_data *ud = td->eng_data;

	if (td->o->eng.sqthread_poll) {
		/* fio_ioring_commit: the SQ thread takes what is in the ring;
		 * a sleeping one needs a syscall to wake it. */
		for (unsigned i = 0; i < ud->npending; i++)
			fio_io_issued(td, ud->pending[i]);
		fio_submitted(td, ud->npending);
		ud->npending = 0;
		if (io_ring_sq_need_wakeup(ud->ring))
			io_uring_enter(ud->ring, 0, 0, IORING_ENTER_SQ_WAKEUP,
				       SIM_MSG(&ud->comp, URING_WOKE_SQ, NULL, 0));
		else
			fio_resume(td);
		return;
	}
	io_uring_enter(ud->ring, ud->npending, 0, IORING_ENTER_GETEVENTS,
		       SIM_MSG(&ud->comp, URING_COMMITTED, NULL, 0));
}

static void uring_getevents(struct fio_thread *td, unsigned min, unsigned max)
{
	struct uring_data *ud = td->eng_data;

	ud->min = min;
	ud->max = max;
	ud->got = 0;
	uring_wait_more(td, ud);
}

const struct fio_engine_ops fio_io_uring_engine = {
	.name = "io_uring",
	.needs_kernel = true,
	.init = uring_init,
	.cleanup = uring_cleanup,
	.queue = uring_queue,
	.commit = uring_commit,
	.getevents = uring_getevents,
};

/* ---- libaio ---- */

struct libaio_data {
	struct sim_component comp;
	struct fio_thread *td;
	struct aio_ctx *ctx;
	struct aio_iocb *iocbs;		/* prepared, not yet submitted */
	struct fio_io_u **pending;
	unsigned npending;
	struct aio_event *events;
	unsigned min, max, got;
};

enum { LIBAIO_SUBMITTED, LIBAIO_EVENTS };

static bool libaio_init(struct fio_thread *td, GError **err)
{
	const struct workload_env *env = fio_env(td);
	struct libaio_data *ld = g_new0(struct libaio_data, 1);
	unsigned depth = td->o->iodepth;

	register_stages();
	ld->td = td;
	ld->iocbs = g_new0(struct aio_iocb, depth);
	ld->pending = g_new0(struct fio_io_u *, depth);
	ld->events = g_new0(struct aio_event, depth);
	ld->ctx = aio_ctx_new(env->host, td->task, &env->sp->aio, depth);
	sim_component_init(env->sim, &ld->comp, &libaio_ops, td->name);
	td->eng_data = ld;
	return true;
}

static void libaio_cleanup(struct fio_thread *td)
{
	struct libaio_data *ld = td->eng_data;
	aio_ctx_free(ld->ctx);
	g_free(ld->iocbs);
	g_free(ld->pending);
	g_free(ld->events);
	g_free(ld);
}

static void libaio_queue(struct fio_thread *td, struct fio_io_u *u)
{
	struct libaio_data *ld = td->eng_data;

	xctx_charge(fio_xctx(td), st_aio_prep, fio_costs(td)->aio_prep);
	ld->iocbs[ld->npending] = (struct aio_iocb){
		.file = u->file->f, .write = u->ddir == FIO_DDIR_WRITE,
		.off = u->offset, .len = u->len, .nr_segs = u->nr_segs,
		.kiflags = fio_open_flags(td), .data = u,
		.trace = fio_io_trace(td, u),
	};
	ld->pending[ld->npending++] = u;
}

static void libaio_commit(struct fio_thread *td)
{
	struct libaio_data *ld = td->eng_data;

	aio_io_submit(ld->ctx, ld->iocbs, ld->npending,
		      SIM_MSG(&ld->comp, LIBAIO_SUBMITTED, NULL, 0));
}

/* fio_libaio_getevents: io_getevents until min are reaped; with
 * userspace_reap, read the ring directly once min is satisfied. */
static void libaio_more(struct fio_thread *td, struct libaio_data *ld)
{
	if (ld->got >= ld->min) {
		if (td->o->eng.userspace_reap && ld->got < ld->max) {
			unsigned n = aio_ring_reap(ld->ctx, ld->max - ld->got,
						   ld->events + ld->got);
			ld->got += n;
		}
		xctx_charge(fio_xctx(td), st_event, fio_costs(td)->event_reap *
			    ld->got);
		for (unsigned i = 0; i < ld->got; i++)
			fio_io_done(td, ld->events[i].data, ld->events[i].res);
		fio_reaped(td, ld->got);
		fio_resume(td);
		return;
	}
	aio_io_getevents(ld->ctx, ld->min - ld->got, ld->max - ld->got,
			 ld->events + ld->got,
			 SIM_MSG(&ld->comp, LIBAIO_EVENTS, NULL, 0));
}

static void libaio_handle(struct sim_component *c, unsigned type, void *ptr,
			  uint64_t arg)
{
	struct libaio_data *ld = (struct libaio_data *)c;
	struct fio_thread *td = ld->td;

	if (type == LIBAIO_SUBMITTED) {
		for (unsigned i = 0; i < ld->npending; i++)
			fio_io_issued(td, ld->pending[i]);
		fio_submitted(td, ld->npending);
		ld->npending = 0;
		fio_resume(td);
		return;
	}
	ld->got += aio_last_events(ld->ctx);
	libaio_more(td, ld);
}

static void libaio_getevents(struct fio_thread *td, unsigned min, unsigned max)
{
	struct libaio_data *ld = td->eng_data;

	ld->min = min;
	ld->max = max;
	ld->got = 0;
	libaio_more(td, ld);
}

const struct fio_engine_ops fio_libaio_engine = {
	.name = "libaio",
	.needs_kernel = true,
	.init = libaio_init,
	.cleanup = libaio_cleanup,
	.queue = libaio_queue,
	.commit = libaio_commit,
	.getevents = libaio_getevents,
};
