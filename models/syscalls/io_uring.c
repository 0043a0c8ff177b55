/*
 * io_uring: rings, submission, completion through task_work, waiting.
 *
 * Stands for io_uring/io_uring.c (io_uring_enter, io_submit_sqes,
 * io_submit_sqe, io_req_task_work_add, io_req_local_work_add,
 * io_run_local_work, io_cqring_wait, __io_fill_cqe) and io_uring/rw.c
 * (io_prep_rw, io_read, io_write, io_complete_rw, io_req_rw_complete).
 *
 * Submission: io_uring_enter consumes up to to_submit SQEs under a block
 * plug (when there are more than two), and for each read or write sets up
 * the kiocb (IOCB_NOWAIT when the file allows it, IOCB_HIPRI on an IOPOLL
 * ring, IOCB_DIO_CALLER_COMP for writes when the kernel has it) and calls
 * the file's read_iter/write_iter. A request the file finishes at once is
 * completed in place.
 *
 * Completion: the file calls ki_complete (io_complete_rw) in whatever
 * context the I/O ended in: hard IRQ, a kworker, the submitter itself.
 * That queues task_work for the ring's task: on a DEFER_TASKRUN ring, on
 * the ring's local list, run only inside io_uring_enter(GETEVENTS); a
 * waiter is woken once enough work is queued to satisfy its wait (lazy
 * wake-up, kernel feature io_uring_lazy_wake) or at every addition;
 * otherwise as ordinary task_work, which also runs when the syscall
 * returns. Running the work finishes the I/O in the task (the file's
 * dio_complete if it left one, e.g. iomap under IOCB_DIO_CALLER_COMP) and
 * posts the CQE.
 *
 * Polling (IORING_SETUP_IOPOLL): reads and writes are issued with
 * IOCB_HIPRI; their completion is found by io_iopoll_check inside
 * io_uring_enter(GETEVENTS), which polls the hardware queues the requests
 * went to and spins (busy CPU time) until a completion arrives; a polled
 * completion posts its CQE directly, without task_work.
 *
 * Buffered reads (a file opened without O_DIRECT): the first attempt is
 * non-blocking (IOCB_NOWAIT). When the data is not in the page cache the
 * request either waits for it without blocking (kernel feature
 * async_buffered_reads, Linux 5.9: io_rw_should_retry sets IOCB_WAITQ, the
 * page unlock queues task_work, the task retries the read and copies) or
 * is punted to io-wq (engines/io_wq.c), where a worker repeats the read
 * as a blocking one and posts the CQE itself (before DEFER_TASKRUN) or
 * through task_work (with it).
 *
 * Parameters (host profile, model "io_uring"), CPU time (ns):
 *   enter_ns, submit_sqe_ns, file_fixed_ns, file_get_ns, rw_issue_ns,
 *   buf_import_ns, tw_add_ns, tw_run_ns, cqe_post_ns, wait_ns, iopoll_ns,
 *   async_prep_ns.
 *
 * SQPOLL (IORING_SETUP_SQPOLL, io_uring/sqpoll.c io_sq_thread): a kernel
 * thread submits what the application puts in the SQ ring and runs the
 * ring's task_work (completions), spinning while it has had work within
 * sq_thread_idle and sleeping after that with IORING_SQ_NEED_WAKEUP set,
 * until io_uring_enter(IORING_ENTER_SQ_WAKEUP) wakes it. The application
 * submits without a syscall while the thread is awake; it waits for CQEs
 * in io_uring_enter(GETEVENTS) or by polling the CQ ring itself
 * (io_ring_cq_spin, as fio does).
 *
 * Left out: linked requests, CQ overflow, registered-buffer DMA mapping,
 * SQPOLL with IOPOLL; buffered writes never wait (as with
 * FMODE_BUF_WASYNC, 6.0).
 */
#include <glib.h>
#include <string.h>

#include "block/blk_mq.h"
#include "io_uring.h"
#include "io_wq.h"
#include "sync_rw.h"
#include "engine/pool.h"
#include "engine/util.h"

#define P(field) offsetof(struct io_uring_params, field)
const struct param_def io_uring_param_table[] = {
	{"enter_ns", PARAM_TIME, P(enter), "50", 0, 1e6, "ns",
	 "io_uring_enter body: ctx lookup, locking, bookkeeping"},
	{"submit_sqe_ns", PARAM_TIME, P(submit_sqe), "60", 0, 1e6, "ns",
	 "io_submit_sqe: fetch the SQE, allocate and initialise the request"},
	{"file_fixed_ns", PARAM_TIME, P(file_fixed), "5", 0, 1e6, "ns",
	 "look up a registered file"},
	{"file_get_ns", PARAM_TIME, P(file_get), "30", 0, 1e6, "ns",
	 "fget + fput of a file descriptor"},
	{"rw_issue_ns", PARAM_TIME, P(rw_issue), "50", 0, 1e6, "ns",
	 "io_read/io_write: kiocb and iterator set-up around ->read/write_iter"},
	{"buf_import_ns", PARAM_TIME, P(buf_import), "30", 0, 1e6, "ns",
	 "import a user buffer that is not registered"},
	{"tw_add_ns", PARAM_TIME, P(tw_add), "30", 0, 1e6, "ns",
	 "io_req_task_work_add from the completion context"},
	{"tw_run_ns", PARAM_TIME, P(tw_run), "30", 0, 1e6, "ns",
	 "run one task_work item (io_req_rw_complete)"},
	{"cqe_post_ns", PARAM_TIME, P(cqe_post), "40", 0, 1e6, "ns",
	 "fill and commit one CQE and free the request"},
	{"wait_ns", PARAM_TIME, P(wait), "100", 0, 1e6, "ns",
	 "io_cqring_wait set-up and tear-down around a sleep"},
	{"iopoll_ns", PARAM_TIME, P(iopoll), "50", 0, 1e6, "ns",
	 "one io_do_iopoll pass over the polled requests"},
	{"async_prep_ns", PARAM_TIME, P(async_prep), "150", 0, 1e6, "ns",
	 "io_req_prep_async: save the request's state before an io-wq punt"},
	{"sqpoll_ns", PARAM_TIME, P(sqpoll), "50", 0, 1e6, "ns",
	 "one pass of the SQPOLL thread's loop (io_sq_thread)"},
	{"cmd_prep_ns", PARAM_TIME, P(cmd_prep), "10", 0, 1e6, "ns",
	 "io_uring_cmd_prep: flags, registered buffer, async data from the "
	 "ring's alloc cache (io_uring_async_get), without the SQE copy"},
	{"sqe_copy_line_ns", PARAM_TIME, P(sqe_copy_line), "5", 0, 1e6, "ns",
	 "per 64-byte cache line of SQE copied into a passthrough command's "
	 "async data (2 lines for a 128-byte SQE)"},
	{"cmd_issue_ns", PARAM_TIME, P(cmd_issue), "15", 0, 1e6, "ns",
	 "io_uring_cmd: issue flags, security hook, the call of ->uring_cmd"},
	{"cmd_done_ns", PARAM_TIME, P(cmd_done), "15", 0, 1e6, "ns",
	 "io_uring_cmd_done: result and 32-byte CQE extra, async data back "
	 "to the alloc cache"},
	PARAM_END,
};

/* req_get() clears what comes before kiocb; the three parts after it are
 * each set whole where the request first uses them. */
struct io_req {
	struct io_ring *r;
	void *user_data;
	struct io_trace *trace;
	long res;
	bool iopoll_done;
	bool retry;		/* task_work: issue the read again */
	bool issuing;		/* inside its non-blocking issue */
	bool reissue;		/* -EAGAIN within that issue: go to io-wq */
	bool is_fsync;
	bool sync_write;	/* a buffered O_(D)SYNC write: io-wq, whole */
	bool force_async;	/* IOSQE_ASYNC (REQ_F_FORCE_ASYNC) */
	bool is_cmd;		/* IORING_OP_URING_CMD */
	uint64_t res2;		/* a passthrough command's CQE32 extra */
	struct sync_rw *blocking;	/* the worker's call of a sync_write */
	struct io_req *next;	/* free list, task_work list, iopoll list */
	struct kiocb kiocb;	/* ki_complete finds the request around it */
	struct io_wq_work work;	/* punted to io-wq (punt, io_wq_enqueue) */
	struct fsync_op fsync;	/* IO_OP_FSYNC, run by an io-wq worker */
	/* IO_OP_URING_CMD: the command, and its async data (the copy of the
	 * SQE's command area a command that goes async reads from). The
	 * kernel takes the async data from the ring's alloc cache; here it
	 * lives in the request, its cost in cmd_prep_ns. */
	struct uring_cmd cmd;
	uint8_t async_sqe[IO_URING_CMD_BYTES];
};

struct io_ring {
	struct sim_component comp;
	struct host *h;
	struct task *owner;
	struct io_uring_params p;
	const struct kernel_features *k;
	struct io_ring_config cfg;
	struct io_wq_params wqp;
	struct io_wq *wq;	/* created at the first punt */

	struct io_sqe *sq;
	unsigned sq_head, sq_tail;
	struct io_cqe *cq;
	unsigned cq_head, cq_tail;

	struct sim_pool reqs;
	struct sim_pool blockings;	/* struct sync_rw, for sync_writes */

	struct io_req *tw_head, *tw_tail;	/* completed, task_work pending */
	unsigned nr_tw;
	struct io_req *iopoll_head, *iopoll_tail;	/* polled, in flight */
	bool iopoll_spinning;

	/* SQPOLL */
	struct task *sqp;	/* the SQPOLL thread, or NULL */
	bool sqp_spinning;	/* polling the SQ ring */
	bool sqp_sleeping;	/* idle, IORING_SQ_NEED_WAKEUP set */
	sim_event_id sqp_timer;	/* the idle deadline, if armed */
	bool dying;		/* freed by its owner: the thread frees it */
	sim_time sqp_busy_at;	/* its last submission or completion */
	bool cq_spinning;	/* the owner polls the CQ ring in user space */

	/* the io_uring_enter in progress */
	bool waiting;		/* asleep in io_cqring_wait */
	bool woken;
	unsigned wait_nr;	/* task_work items that satisfy the waiter */
	unsigned min_complete;
	unsigned submitted;
	struct sim_msg done;

	struct io_ring_cmd_stats cmd_stats;
};

enum { RING_WAIT_WOKEN, RING_IOPOLL, RING_SQP, RING_SQP_KICK, RING_SQP_TIMER,
       RING_CQ_KICK };

static stage_id st_enter, st_submit_sqe, st_file, st_rw_issue,
	st_buf_import, st_tw_add, st_tw_run, st_cqe_post, st_wait, st_iopoll,
	st_iopoll_spin, st_async_prep, st_sqp, st_sqp_spin, st_cq_spin,
	st_cmd_prep, st_cmd_issue, st_cmd_done;

static void register_stages(void)
{
	st_enter = stage_register("io_uring_enter", CPU_SYS, "io_uring_enter");
	st_submit_sqe = stage_register("io_submit_sqe", CPU_SYS,
				       "io_submit_sqe, io_init_req, io_prep_rw");
	st_file = stage_register("io_file_get", CPU_SYS,
				 "io_file_get_fixed, io_file_get_normal");
	st_rw_issue = stage_register("io_rw_issue", CPU_SYS, "io_read, io_write");
	st_buf_import = stage_register("io_import_iovec", CPU_SYS,
				       "io_import_iovec");
	st_tw_add = stage_register("io_req_task_work_add", CPU_SYS,
				   "io_req_task_work_add, io_complete_rw");
	st_tw_run = stage_register("io_req_rw_complete", CPU_SYS,
				   "io_run_local_work, io_req_rw_complete");
	st_cqe_post = stage_register("io_fill_cqe", CPU_SYS,
				     "__io_fill_cqe_req, io_free_req");
	st_wait = stage_register("io_cqring_wait", CPU_SYS, "io_cqring_wait");
	st_iopoll = stage_register("io_do_iopoll", CPU_SYS,
				   "io_iopoll_check, io_do_iopoll");
	st_iopoll_spin = stage_register("iopoll_spin", CPU_SYS,
					"io_iopoll_check: polling with nothing found");
	st_async_prep = stage_register("io_req_prep_async", CPU_SYS,
				       "io_req_prep_async, io_queue_async_work");
	st_sqp = stage_register("io_sq_thread", CPU_SYS, "io_sq_thread, __io_sq_thread");
	st_sqp_spin = stage_register("sqpoll_spin", CPU_SYS,
				     "io_sq_thread: polling an empty SQ ring");
	st_cq_spin = stage_register("cq_ring_poll", CPU_USR,
				    "the application polling the CQ ring");
	st_cmd_prep = stage_register("io_uring_cmd_prep", CPU_SYS,
				     "io_uring_cmd_prep, io_uring_cmd_prep_setup");
	st_cmd_issue = stage_register("io_uring_cmd", CPU_SYS, "io_uring_cmd");
	st_cmd_done = stage_register("io_uring_cmd_done", CPU_SYS,
				     "io_uring_cmd_done, io_req_uring_cleanup");
}

static struct io_req *req_get(struct io_ring *r)
{
	struct io_req *req = sim_pool_get(&r->reqs);

	/* Clearing the whole request, some 400 bytes, cost a rep stos on
	 * every I/O. */
	memset(req, 0, offsetof(struct io_req, kiocb));
	req->r = r;
	return req;
}

static void req_put(struct io_ring *r, struct io_req *req)
{
	sim_pool_put(&r->reqs, req);
}

static struct io_req *req_of(struct kiocb *iocb)
{
	return (struct io_req *)((char *)iocb - offsetof(struct io_req, kiocb));
}

static void post_cqe(struct io_ring *r, struct xctx *x, struct io_req *req)
{
	xctx_charge(x, st_cqe_post, r->p.cqe_post);
	if (req->trace)
		io_trace_stamp_cpu(req->trace, IOS_COMPLETE, xctx_clock(x),
				   cpu_id(xctx_cpu(x)));
	g_assert(r->cq_tail - r->cq_head < r->cfg.cq_entries);
	r->cq[umod_fast(r->cq_tail++, r->cfg.cq_entries)] = (struct io_cqe){
		.user_data = req->user_data, .res = req->res, .res2 = req->res2,
	};
	req_put(r, req);
}

static void rw_retry(struct io_ring *r, struct xctx *x, struct io_req *req);
static void tw_queue(struct io_ring *r, struct xctx *x, struct io_req *req,
		     bool lazy);
static void punt(struct io_ring *r, struct xctx *x, struct io_req *req);
static void sqp_notify(struct io_ring *r, struct xctx *x);
static enum io_wq_exec cmd_wq_issue(struct io_ring *r, struct xctx *x,
				    struct io_req *req);
static void cq_posted(struct io_ring *r, struct xctx *x);

/* io_run_local_work / task_work_run: finish completed requests in the
 * ring's task and post their CQEs, and retry reads whose data arrived, in
 * the order they were queued. */
static void run_task_work(struct io_ring *r, struct xctx *x)
{
	while (r->tw_head) {
		struct io_req *req = r->tw_head;
		r->tw_head = req->next;
		if (!r->tw_head)
			r->tw_tail = NULL;
		r->nr_tw--;
		xctx_charge(x, st_tw_run, r->p.tw_run);
		if (req->retry) {
			req->retry = false;
			rw_retry(r, x, req);
			continue;
		}
		if (req->reissue) {
			req->reissue = false;
			punt(r, x, req);
			continue;
		}
		if (req->is_cmd) {
			/* The driver's task_work callback (nvme_uring_task_cb)
			 * calls io_uring_cmd_done. */
			xctx_charge(x, st_cmd_done, r->p.cmd_done);
			post_cqe(r, x, req);
			continue;
		}
		if (req->kiocb.dio_complete) {
			req->kiocb.dio_complete(x, &req->kiocb);
			req->res = req->kiocb.res;
			/* A caller-completed write learns of a refused bio
			 * only here: reissue it as io_complete_rw would. */
			if (req->res == -VFS_EAGAIN &&
			    (req->kiocb.flags & KI_NOWAIT)) {
				punt(r, x, req);
				continue;
			}
		}
		post_cqe(r, x, req);
	}
}

/* Whether queued task_work should wake the waiting owner: a lazy waiter
 * only once enough completions are queued; a retry always. */
static bool should_wake(struct io_ring *r, bool lazy)
{
	if (!r->waiting || r->woken)
		return false;
	if (lazy && r->cfg.defer_taskrun && r->k->io_uring_lazy_wake)
		return r->nr_tw >= r->wait_nr;
	return true;
}

/* ki_complete for reads and writes (io_complete_rw), and the page-unlock
 * callback of a waiting buffered read (io_async_buf_func: -EIOCBRETRY). */
static void io_complete_rw(struct xctx *x, struct kiocb *iocb, long res)
{
	struct io_req *req = req_of(iocb);
	struct io_ring *r = req->r;

	if (res == -VFS_EAGAIN && (iocb->flags & KI_NOWAIT)) {
		/* io_rw_should_reissue: the block layer could not take a
		 * NOWAIT bio (no free tag, or it had to be split); io-wq
		 * issues it again, allowed to wait. Within the issuing call
		 * the issuer punts it on return; later (one bio of several
		 * refused) through task_work, as io_req_task_queue_reissue. */
		req->reissue = true;
		if (req->issuing)
			return;
	}
	req->retry = res == -EIOCBRETRY;
	if (!req->retry && !req->reissue) {
		req->res = res;
		iocb->res = res;
	}
	tw_queue(r, x, req, !req->retry && !req->reissue);
}

/* io_req_task_work_add: queue req on the ring's task_work, from the
 * completion's context, and wake the owner if it waits for it. */
static void tw_queue(struct io_ring *r, struct xctx *x, struct io_req *req,
		     bool lazy)
{
	xctx_charge(x, st_tw_add, r->p.tw_add);
	req->next = NULL;
	if (r->tw_tail)
		r->tw_tail->next = req;
	else
		r->tw_head = req;
	r->tw_tail = req;
	r->nr_tw++;
	if (r->sqp) {
		sqp_notify(r, x);
		return;
	}
	if (xctx_task(x) != r->owner && should_wake(r, lazy)) {
		r->woken = true;
		xctx_wake(x, r->owner);
	}
}

/* ---- io-wq: requests that would block ---- */

static struct io_req *req_of_work(struct io_wq_work *w)
{
	return (struct io_req *)((char *)w - offsetof(struct io_req, work));
}

/* A worker finished the request: on a DEFER_TASKRUN ring through the
 * owner's task_work; before, io_cqring_add_event posts the CQE from the
 * worker and wakes a waiter whose wait it satisfies. */
static void wq_complete(struct io_ring *r, struct xctx *x, struct io_req *req)
{
	if (r->cfg.defer_taskrun) {
		req->kiocb.dio_complete = NULL;
		io_complete_rw(x, &req->kiocb, req->res);
		return;
	}
	post_cqe(r, x, req);
	cq_posted(r, x);
}

/* ki_complete on an IOPOLL ring: the request is done; the poller posts
 * its CQE. A completion by interrupt (a queue without poll queues) wakes
 * the spinning poller. */
static void io_complete_rw_iopoll(struct xctx *x, struct kiocb *iocb, long res)
{
	struct io_req *req = req_of(iocb);
	struct io_ring *r = req->r;

	if (res == -VFS_EAGAIN && req->issuing) {
		req->reissue = true;	/* as in io_complete_rw */
		return;
	}
	req->res = res;
	iocb->res = res;
	req->iopoll_done = true;
	if (r->iopoll_spinning && xctx_task(x) != r->owner) {
		r->iopoll_spinning = false;
		xctx_wake(x, r->owner);
	}
}

/* ki_complete of a request a worker waits for: wake the worker. */
static void io_complete_rw_wq(struct xctx *x, struct kiocb *iocb, long res)
{
	iocb->res = res;
	io_wq_work_wake(x, &req_of(iocb)->work);
}

/* The worker's blocking write and its sync are over: io-wq goes on. */
static void sync_write_done(struct xctx *x, struct kiocb *k, void *arg)
{
	struct io_req *req = arg;

	task_then(xctx_task(x), req->work.resume);
}

/* io_wq_submit_work: issue the request again, allowed to block. */
static enum io_wq_exec wq_execute(struct xctx *x, struct io_wq_work *w, void *data)
{
	struct io_ring *r = data;
	struct io_req *req = req_of_work(w);
	struct kiocb *k = &req->kiocb;
	long ret;

	if (req->is_cmd)
		return cmd_wq_issue(r, x, req);
	if (req->sync_write) {
		/* The whole call, blocking: the write, then its sync. */
		k->flags &= ~(KI_NOWAIT | KI_WAITQ);
		req->blocking = sim_pool_get(&r->blockings);
		sync_rw_init(req->blocking, host_sim(r->h), "io-wq write",
			     xctx_task(x), sync_write_done, req);
		sync_rw_start(req->blocking, x, k);
		return IO_WQ_STEP_ENDED;
	}
	if (req->is_fsync) {
		/* io_fsync: vfs_fsync_range, in the worker. */
		req->fsync.task = xctx_task(x);
		req->fsync.done = w->resume;
		req->fsync.file->ops->fsync(x, &req->fsync);
		return IO_WQ_STEP_ENDED;
	}
	xctx_charge(x, st_rw_issue, r->p.rw_issue);
	if (r->cfg.iopoll) {
		/* On an IOPOLL ring the worker only issues, allowed to wait
		 * for a tag; the owner's polling completes the request, which
		 * stayed on its poll list (io_do_iopoll). */
		k->flags &= ~KI_NOWAIT;
		k->ki_complete = io_complete_rw_iopoll;
		ret = k->write ? k->file->ops->write_iter(x, k) :
				 k->file->ops->read_iter(x, k);
		if (ret != -EIOCBQUEUED)
			io_complete_rw_iopoll(x, k, ret);
		else if (r->iopoll_spinning) {
			/* Its queue is one the owner may not be polling. */
			r->iopoll_spinning = false;
			xctx_wake(x, r->owner);
		}
		return IO_WQ_DONE;
	}
	k->flags &= ~(KI_NOWAIT | KI_WAITQ);
	k->sync_wait = true;
	k->ki_complete = io_complete_rw_wq;
	k->dio_complete = NULL;
	ret = k->write ? k->file->ops->write_iter(x, k) : k->file->ops->read_iter(x, k);
	if (ret == -EIOCBQUEUED)
		return IO_WQ_WAITS;
	req->res = ret;
	wq_complete(r, x, req);
	return IO_WQ_DONE;
}

static enum io_wq_exec wq_resume(struct xctx *x, struct io_wq_work *w, void *data)
{
	struct io_req *req = req_of_work(w);
	struct kiocb *k = &req->kiocb;

	if (req->is_cmd)
		return cmd_wq_issue(data, x, req);
	if (req->is_fsync) {
		req->res = req->fsync.res;
		wq_complete(data, x, req);
		return IO_WQ_DONE;
	}
	if (req->sync_write) {
		struct io_ring *r = data;
		sim_pool_put(&r->blockings, req->blocking);
		req->res = k->res;
		wq_complete(r, x, req);
		return IO_WQ_DONE;
	}
	if (!kiocb_dio_complete(x, k))
		return IO_WQ_WAITS;
	req->res = k->res;
	wq_complete(data, x, req);
	return IO_WQ_DONE;
}

static const struct io_wq_ops wq_ops = {
	.execute = wq_execute,
	.resume = wq_resume,
};

/* io_queue_async_work: hand the request to io-wq. A passthrough command
 * prepared its async state in io_uring_cmd_prep (and, gone async, has its
 * SQE copied): there is nothing more to save. */
static void punt(struct io_ring *r, struct xctx *x, struct io_req *req)
{
	if (req->is_cmd)
		r->cmd_stats.punted++;
	else
		xctx_charge(x, st_async_prep, r->p.async_prep);
	if (!r->wq) {
		/* Bounded work: min(SQ entries, 4 x CPUs) workers. */
		unsigned max = MIN(r->cfg.sq_entries, 4 * host_ncpus(r->h));
		g_autofree char *name = g_strdup_printf(IO_WQ_WORKER_PREFIX "/%s",
							task_name(r->owner));
		r->wq = io_wq_new(r->h, &r->wqp, r->k, name, max, &wq_ops, r);
	}
	req->work.ends_step = req->is_fsync || req->sync_write;
	io_wq_enqueue(x, r->wq, &req->work);
}

/* The task_work retry of a read that waited for its page (5.9's
 * io_async_buf_retry): the data should be in the cache now. */
static void rw_retry(struct io_ring *r, struct xctx *x, struct io_req *req)
{
	struct kiocb *k = &req->kiocb;
	long ret;

	xctx_charge(x, st_rw_issue, r->p.rw_issue);
	ret = k->file->ops->read_iter(x, k);
	if (ret == -EIOCBQUEUED)
		return;
	if (ret == -VFS_EAGAIN) {
		punt(r, x, req);
		return;
	}
	req->res = ret;
	post_cqe(r, x, req);
}

/* io_iopoll_req_issued: on the ring's poll list, in submission order. */
static void iopoll_add(struct io_ring *r, struct io_req *req)
{
	req->iopoll_done = false;
	req->next = NULL;
	if (r->iopoll_tail)
		r->iopoll_tail->next = req;
	else
		r->iopoll_head = req;
	r->iopoll_tail = req;
}

static void issue_rw(struct io_ring *r, struct xctx *x, struct io_req *req,
		     const struct io_sqe *sqe)
{
	struct kiocb *k = &req->kiocb;
	struct sfile *f = sqe->file;
	long ret;

	xctx_charge(x, st_file, r->cfg.fixed_files ? r->p.file_fixed : r->p.file_get);
	xctx_charge(x, st_rw_issue, r->p.rw_issue);
	if (!sqe->fixed_buf)
		xctx_charge(x, st_buf_import, r->p.buf_import);
	/* Built aside and copied whole: GCC then stores it field by field,
	 * where assigning the literal first clears all 128 bytes with a slow
	 * rep stos. */
	struct kiocb init = {
		.file = f,
		.pos = sqe->off,
		.len = sqe->len,
		.nr_segs = sqe->nr_segs,
		.bvec = sqe->fixed_buf,
		.write = sqe->op == IO_OP_WRITE,
		.ki_complete = r->cfg.iopoll ? io_complete_rw_iopoll : io_complete_rw,
		.owner = req,
		.trace = req->trace,
	};
	*k = init;
	k->flags = sqe->kiflags;
	if (f->nowait)
		k->flags |= KI_NOWAIT;
	if (r->cfg.iopoll)
		k->flags |= KI_HIPRI;
	else if (k->write && r->k->dio_caller_comp)
		k->flags |= KI_DIO_CALLER_COMP;

	if (r->cfg.iopoll)
		iopoll_add(r, req);
	/* A buffered write to an O_DSYNC or O_SYNC file would block in its
	 * sync (generic_write_sync): io-wq does it, as 5.x punts every
	 * buffered write there. */
	req->sync_write = k->write && (k->flags & KI_DSYNC) &&
			  !(k->flags & KI_DIRECT) && !r->cfg.iopoll;
	if (req->sync_write || req->force_async) {
		punt(r, x, req);
		return;
	}
	if (r->cfg.iopoll && !(k->flags & KI_DIRECT)) {
		ret = -95;	/* -EOPNOTSUPP: IOPOLL takes direct I/O only */
	} else {
		req->issuing = k->flags & KI_NOWAIT;
		ret = k->write ? f->ops->write_iter(x, k) : f->ops->read_iter(x, k);
		req->issuing = false;
	}
	if (req->reissue) {
		req->reissue = false;
		punt(r, x, req);
		return;
	}
	if (ret == -VFS_EAGAIN && (k->flags & KI_NOWAIT)) {
		/* io_rw_should_retry: a buffered read may wait for its page
		 * without blocking. */
		if (!k->write && r->k->async_buffered_reads && f->buf_rasync &&
		    !(k->flags & KI_DIRECT)) {
			k->flags |= KI_WAITQ;
			xctx_charge(x, st_rw_issue, r->p.rw_issue);
			ret = f->ops->read_iter(x, k);
		}
		if (ret == -VFS_EAGAIN) {
			punt(r, x, req);
			return;
		}
	}
	if (ret == -EIOCBQUEUED)
		return;
	if (r->cfg.iopoll) {
		/* Done at once: the poller posts it with the others. */
		req->res = ret;
		req->iopoll_done = true;
		return;
	}
	req->res = ret;
	post_cqe(r, x, req);
}

/* ---- IORING_OP_URING_CMD (io_uring/uring_cmd.c) ---- */

static struct io_req *req_of_cmd(struct uring_cmd *c)
{
	return (struct io_req *)((char *)c - offsetof(struct io_req, cmd));
}

/* The SQE into the command's async data: uring_sqe_size(), 128 bytes on
 * an SQE128 ring, copied line by line (the model keeps the part a
 * command reads). */
static void cmd_copy_sqe(struct io_ring *r, struct xctx *x, struct io_req *req,
			 stage_id st)
{
	memcpy(req->async_sqe, req->cmd.sqe, sizeof(req->async_sqe));
	req->cmd.sqe = req->async_sqe;
	xctx_charge(x, st, r->p.sqe_copy_line * (r->cfg.sqe128 ? 2 : 1));
}

/* io_uring_cmd_done: on an IOPOLL ring the poller posts the CQE (a
 * completion by interrupt, on a queue that is not polled, wakes it); else
 * the completion goes through the owner's task_work, lazily, as the
 * driver's io_uring_cmd_do_in_task_lazy asks, and io_uring_cmd_done runs
 * there. */
static void cmd_done(struct xctx *x, struct uring_cmd *c, long res, uint64_t res2)
{
	struct io_req *req = req_of_cmd(c);
	struct io_ring *r = req->r;

	req->res = res;
	req->res2 = res2;
	if (!r->cfg.iopoll) {
		tw_queue(r, x, req, true);
		return;
	}
	xctx_charge(x, st_cmd_done, r->p.cmd_done);
	req->iopoll_done = true;
	if (r->iopoll_spinning && xctx_task(x) != r->owner) {
		r->iopoll_spinning = false;
		xctx_wake(x, r->owner);
	}
}

/* io_uring_cmd: call the file. A command the file cannot take without
 * blocking (-EAGAIN) goes async and so needs its SQE copied, if prep did
 * not copy it already (the patched io_uring_cmd). */
static long cmd_issue(struct io_ring *r, struct xctx *x, struct io_req *req,
		      unsigned issue_flags)
{
	struct uring_cmd *c = &req->cmd;
	long ret;

	xctx_charge(x, st_cmd_issue, r->p.cmd_issue);
	if (!c->file->ops->uring_cmd)
		return -95;	/* -EOPNOTSUPP */
	if (r->cfg.sqe128)
		issue_flags |= IOU_F_SQE128;
	if (r->cfg.cqe32)
		issue_flags |= IOU_F_CQE32;
	if (r->cfg.iopoll)
		issue_flags |= IOU_F_IOPOLL;
	ret = c->file->ops->uring_cmd(x, c, issue_flags);
	if (ret == -VFS_EAGAIN && c->sqe != req->async_sqe) {
		cmd_copy_sqe(r, x, req, st_cmd_issue);
		r->cmd_stats.copies_at_eagain++;
	}
	return ret;
}

/* A command finished within its issue: its result is the CQE's. */
static void cmd_complete_inline(struct io_ring *r, struct xctx *x,
				struct io_req *req, long ret)
{
	req->res = ret;
	req->res2 = 0;
	xctx_charge(x, st_cmd_done, r->p.cmd_done);
	if (r->cfg.iopoll)
		req->iopoll_done = true;	/* the poller posts it */
	else
		post_cqe(r, x, req);
}

/* io_wq_submit_work for a command: issue it allowed to block. A command
 * that must wait for a tag sleeps in the worker until one is freed
 * (-EIOCBRETRY: c->retry wakes it), then is issued again. */
static enum io_wq_exec cmd_wq_issue(struct io_ring *r, struct xctx *x,
				    struct io_req *req)
{
	long ret = cmd_issue(r, x, req, 0);

	if (ret == -EIOCBRETRY)
		return IO_WQ_WAITS;
	if (ret != -EIOCBQUEUED)
		cmd_done(x, &req->cmd, ret, 0);
	else if (r->cfg.iopoll && r->iopoll_spinning) {
		/* Its queue is one the owner may not be polling. */
		r->iopoll_spinning = false;
		xctx_wake(x, r->owner);
	}
	return IO_WQ_DONE;
}

static void cmd_retry(struct xctx *x, struct uring_cmd *c)
{
	io_wq_work_wake(x, &req_of_cmd(c)->work);
}

/* io_uring_cmd_prep: the command reads its SQE in place (patched,
 * kernel feature uring_cmd_defer_sqe_copy) unless it is forced async, or
 * copies it into its async data at once (stock); then io_uring_cmd, or
 * io-wq for IOSQE_ASYNC and -EAGAIN. */
static void submit_cmd(struct io_ring *r, struct xctx *x, struct io_req *req,
		       const struct io_sqe *sqe)
{
	long ret;

	xctx_charge(x, st_file, r->cfg.fixed_files ? r->p.file_fixed : r->p.file_get);
	xctx_charge(x, st_cmd_prep, r->p.cmd_prep);
	req->is_cmd = true;
	req->cmd = (struct uring_cmd){
		.file = sqe->file, .cmd_op = sqe->cmd_op, .fixed = sqe->fixed_buf,
		.sqe = sqe->cmd, .done = cmd_done, .retry = cmd_retry,
		.trace = req->trace,
	};
	r->cmd_stats.cmds++;
	if (!r->k->uring_cmd_defer_sqe_copy || req->force_async) {
		cmd_copy_sqe(r, x, req, st_cmd_prep);
		r->cmd_stats.copies_at_prep++;
	}
	if (r->cfg.iopoll)
		iopoll_add(r, req);
	if (req->force_async) {
		punt(r, x, req);
		return;
	}
	ret = cmd_issue(r, x, req, IOU_F_NONBLOCK);
	if (ret == -EIOCBQUEUED)
		return;
	if (ret == -VFS_EAGAIN) {
		punt(r, x, req);
		return;
	}
	cmd_complete_inline(r, x, req, ret);
}

static void submit_one(struct io_ring *r, struct xctx *x, const struct io_sqe *sqe)
{
	struct io_req *req = req_get(r);

	req->trace = sqe->trace;
	if (req->trace)
		io_trace_stamp_cpu(req->trace, IOS_SUBMIT, xctx_clock(x),
				   cpu_id(xctx_cpu(x)));
	xctx_charge(x, st_submit_sqe, r->p.submit_sqe);
	req->user_data = sqe->user_data;
	req->force_async = sqe->force_async;
	switch (sqe->op) {
	case IO_OP_NOP:
		req->res = 0;
		post_cqe(r, x, req);
		break;
	case IO_OP_READ:
	case IO_OP_WRITE:
		issue_rw(r, x, req, sqe);
		break;
	case IO_OP_URING_CMD:
		submit_cmd(r, x, req, sqe);
		break;
	case IO_OP_FSYNC:
		/* io_fsync cannot run without blocking: always io-wq. */
		xctx_charge(x, st_file, r->cfg.fixed_files ? r->p.file_fixed :
			    r->p.file_get);
		req->is_fsync = true;
		req->fsync = (struct fsync_op){.file = sqe->file,
					       .datasync = sqe->fsync_datasync};
		req->kiocb = (struct kiocb){.file = sqe->file};
		punt(r, x, req);
		break;
	default:
		g_assert_not_reached();
	}
}

/* A batch plugs only above two SQEs (io_uring's IO_PLUG_THRESHOLD, later
 * io_submit_state_start's need_plug): on Linux 6.18 the bios of a batch
 * of two do not merge, those of three do. */
static void submit_sqes(struct io_ring *r, struct xctx *x, unsigned nr)
{
	bool plugged = nr > 2;

	if (plugged)
		blk_start_plug(x);
	while (r->submitted < nr && r->sq_head != r->sq_tail) {
		/* The entry itself: a passthrough command reads it in place
		 * until it goes async. */
		submit_one(r, x, &r->sq[umod_fast(r->sq_head++, r->cfg.sq_entries)]);
		r->submitted++;
	}
	if (plugged)
		blk_finish_plug(x);
}

unsigned io_ring_cq_ready(const struct io_ring *r)
{
	return r->cq_tail - r->cq_head;
}

/* Return from the syscall to user space: the caller's step follows. */
static void enter_return(struct io_ring *r, struct xctx *x)
{
	if (!r->cfg.defer_taskrun && !r->sqp)
		run_task_work(r, x);	/* task_work_run on the way out */
	r->waiting = false;
	task_then(r->owner, r->done);
}

/* io_cqring_wait: run completions; sleep until enough are posted. */
static void cq_wait(struct io_ring *r, struct xctx *x)
{
	if (!r->sqp)	/* SQPOLL's completions are the thread's task_work */
		run_task_work(r, x);
	if (io_ring_cq_ready(r) >= r->min_complete) {
		enter_return(r, x);
		return;
	}
	xctx_charge(x, st_wait, r->p.wait);
	r->waiting = true;
	r->woken = false;
	r->wait_nr = r->min_complete - io_ring_cq_ready(r);
	task_sleep(r->owner, SIM_MSG(&r->comp, RING_WAIT_WOKEN, NULL, 0));
}

/* Post the CQEs of finished polled requests, in submission order of those
 * that are done. One that the block layer refused after its issuing call
 * had returned (a split child without a tag) goes to io-wq instead, as
 * 5.x's io_iopoll_complete reissued an -EAGAIN result; it stays on the
 * list, for the worker only issues it. */
static void iopoll_reap(struct io_ring *r, struct xctx *x)
{
	struct io_req **pp = &r->iopoll_head, *last = NULL;

	while (*pp) {
		struct io_req *req = *pp;
		if (req->iopoll_done && req->res == -VFS_EAGAIN && !req->is_cmd &&
		    (req->kiocb.flags & KI_NOWAIT)) {
			req->iopoll_done = false;
			punt(r, x, req);
		}
		if (!req->iopoll_done) {
			last = req;
			pp = &req->next;
			continue;
		}
		*pp = req->next;
		post_cqe(r, x, req);
	}
	r->iopoll_tail = last;
}

/* io_iopoll_check: poll the queues the requests went to until enough
 * completions are posted, spinning in between. */
static void iopoll_check(struct io_ring *r, struct xctx *x)
{
	struct blk_hctx *polled[8];
	unsigned npolled = 0;

	xctx_charge(x, st_iopoll, r->p.iopoll);
	for (struct io_req *req = r->iopoll_head; req; req = req->next) {
		struct blk_hctx *hc = req->is_cmd ? req->cmd.poll_cookie :
					  req->kiocb.poll_cookie;
		bool seen = false;
		if (!hc || req->iopoll_done)
			continue;
		for (unsigned i = 0; i < npolled; i++)
			seen |= polled[i] == hc;
		if (!seen && npolled < G_N_ELEMENTS(polled)) {
			polled[npolled++] = hc;
			blk_poll(x, hc);
		}
	}
	iopoll_reap(r, x);
	if (io_ring_cq_ready(r) >= r->min_complete || !r->iopoll_head) {
		enter_return(r, x);
		return;
	}
	r->iopoll_spinning = true;
	task_spin(r->owner, st_iopoll_spin, SIM_MSG(&r->comp, RING_IOPOLL, NULL, 0));
	/* Armed after the spin is declared, so that a completion already
	 * there ends it at once. */
	for (unsigned i = 0; i < npolled; i++)
		blk_poll_arm(polled[i], r->owner);
}

void io_uring_enter_fields(struct io_ring *r, unsigned to_submit,
			   unsigned min_complete, unsigned flags,
			   struct sim_component *c, unsigned type, void *ptr,
			   uint64_t arg)
{
	struct xctx *x = task_xctx(r->owner);

	g_assert(host_current(r->h) == x);
	xctx_syscall(x, 1);
	xctx_charge(x, st_enter, r->p.enter);
	r->done = SIM_MSG(c, type, ptr, arg);
	r->min_complete = min_complete;
	r->submitted = 0;

	if (r->sqp) {
		/* The thread submits; the call only wakes it if asked. */
		if ((flags & IORING_ENTER_SQ_WAKEUP) && r->sqp_sleeping) {
			r->sqp_sleeping = false;
			xctx_wake(x, r->sqp);
		}
	} else if (to_submit) {
		submit_sqes(r, x, to_submit);
	}
	if (!(flags & IORING_ENTER_GETEVENTS)) {
		enter_return(r, x);
		return;
	}
	if (r->cfg.iopoll)
		iopoll_check(r, x);
	else
		cq_wait(r, x);
}

unsigned io_ring_last_submitted(const struct io_ring *r)
{
	return r->submitted;
}

/* ---- SQPOLL ---- */

/* CQEs were posted outside the owner: wake it if it waits for them. */
static void cq_posted(struct io_ring *r, struct xctx *x)
{
	if (r->cq_spinning && io_ring_cq_ready(r)) {
		/* It sees the ring's tail move: no wake-up to pay. */
		r->cq_spinning = false;
		xctx_defer(x, SIM_MSG(&r->comp, RING_CQ_KICK, NULL, 0));
	}
	if (r->waiting && !r->woken && io_ring_cq_ready(r) >= r->min_complete) {
		r->woken = true;
		xctx_wake(x, r->owner);
	}
}

/* Work for the SQ thread: a spinning thread sees it at once, a sleeping
 * one is woken (task_work_add). */
static void sqp_notify(struct io_ring *r, struct xctx *x)
{
	if (r->sqp_spinning) {
		r->sqp_spinning = false;
		xctx_defer(x, SIM_MSG(&r->comp, RING_SQP_KICK, NULL, 0));
	} else if (r->sqp_sleeping) {
		r->sqp_sleeping = false;
		xctx_wake(x, r->sqp);
	}
}

/* One pass of io_sq_thread: submit what is in the SQ ring, run the
 * completions; then loop, spin or, idle for sq_thread_idle, sleep. */
static void sqp_loop(struct io_ring *r, struct xctx *x)
{
	sim_time now = sim_now(host_sim(r->h));
	bool busy = r->sq_head != r->sq_tail || r->tw_head;

	xctx_charge(x, st_sqp, r->p.sqpoll);
	if (r->sq_head != r->sq_tail) {
		r->submitted = 0;
		submit_sqes(r, x, r->sq_tail - r->sq_head);
	}
	/* CQEs come from the task_work, and from requests done within
	 * their submission (a buffered write, a read from the cache). */
	if (r->tw_head)
		run_task_work(r, x);
	cq_posted(r, x);
	if (busy) {
		r->sqp_busy_at = now;
		task_then(r->sqp, SIM_MSG(&r->comp, RING_SQP, NULL, 0));
		return;
	}
	if (now - r->sqp_busy_at >= r->cfg.sq_thread_idle) {
		r->sqp_sleeping = true;
		task_sleep(r->sqp, SIM_MSG(&r->comp, RING_SQP, NULL, 0));
		return;
	}
	if (!r->sqp_timer)
		r->sqp_timer = sim_schedule(host_sim(r->h),
					    r->sqp_busy_at + r->cfg.sq_thread_idle,
					    &r->comp, RING_SQP_TIMER, NULL, 0);
	r->sqp_spinning = true;
	task_spin(r->sqp, st_sqp_spin, SIM_MSG(&r->comp, RING_SQP, NULL, 0));
}

bool io_ring_sq_need_wakeup(const struct io_ring *r)
{
	return r->sqp && r->sqp_sleeping;
}

void io_ring_cq_spin(struct io_ring *r, struct sim_msg done)
{
	if (io_ring_cq_ready(r)) {
		task_then(r->owner, done);
		return;
	}
	r->cq_spinning = true;
	task_spin(r->owner, st_cq_spin, done);
}

static void ring_destroy(struct io_ring *r);

static void ring_handle(struct sim_component *c, unsigned type, void *ptr,
			uint64_t arg)
{
	struct io_ring *r = (struct io_ring *)c;

	switch (type) {
	case RING_SQP:
		r->sqp_spinning = r->sqp_sleeping = false;
		if (r->dying) {
			task_exit(r->sqp);
			return;
		}
		sqp_loop(r, host_current(r->h));
		return;
	case RING_SQP_KICK:
		task_wake(r->sqp);
		return;
	case RING_SQP_TIMER:
		r->sqp_timer = 0;
		if (r->sqp_spinning) {
			r->sqp_spinning = false;
			task_wake(r->sqp);
		}
		return;
	case RING_CQ_KICK:
		task_wake(r->owner);
		return;
	}
	if (type == RING_IOPOLL) {
		r->iopoll_spinning = false;
		iopoll_check(r, host_current(r->h));
		return;
	}
	r->waiting = false;
	cq_wait(r, host_current(r->h));
}

static const struct sim_component_ops ring_ops = {
	.name = "io_uring",
	.handle = ring_handle,
};

bool io_ring_sqe_push(struct io_ring *r, const struct io_sqe *sqe)
{
	if (r->sq_tail - r->sq_head >= r->cfg.sq_entries)
		return false;
	r->sq[umod_fast(r->sq_tail++, r->cfg.sq_entries)] = *sqe;
	if (r->sqp_spinning) {
		/* The thread sees the new tail once the store is done. */
		r->sqp_spinning = false;
		xctx_defer(host_current(r->h), SIM_MSG(&r->comp, RING_SQP_KICK, NULL, 0));
	}
	return true;
}

bool io_ring_cq_pop(struct io_ring *r, struct io_cqe *cqe)
{
	if (r->cq_head == r->cq_tail)
		return false;
	*cqe = r->cq[umod_fast(r->cq_head++, r->cfg.cq_entries)];
	return true;
}

struct io_ring *io_ring_new(struct host *h, struct task *owner,
			    const struct io_uring_params *p,
			    const struct io_wq_params *wqp,
			    const struct kernel_features *k,
			    const struct io_ring_config *cfg)
{
	struct io_ring *r = g_new0(struct io_ring, 1);

	register_stages();
	r->h = h;
	r->owner = owner;
	r->p = *p;
	r->wqp = *wqp;
	r->k = k;
	r->cfg = *cfg;
	g_assert(cfg->sq_entries > 0 && cfg->cq_entries >= cfg->sq_entries);
	r->sq = g_new0(struct io_sqe, cfg->sq_entries);
	r->cq = g_new0(struct io_cqe, cfg->cq_entries);
	sim_pool_init(&r->reqs, sizeof(struct io_req), 64);
	sim_pool_init(&r->blockings, sizeof(struct sync_rw), 8);
	sim_component_init(host_sim(h), &r->comp, &ring_ops, task_name(owner));
	if (cfg->sqpoll) {
		g_autofree char *name = g_strdup_printf("iou-sqp/%s", task_name(owner));
		struct cpumask cpu = {{0}};
		if (cfg->sq_thread_cpu >= 0)
			cpumask_set(&cpu, (unsigned)cfg->sq_thread_cpu);
		r->sqp = task_new(h, name, TASK_KTHREAD, 0,
				  cfg->sq_thread_cpu >= 0 ? &cpu : NULL);
		r->sqp_busy_at = sim_now(host_sim(h));
		task_start(r->sqp, SIM_MSG(&r->comp, RING_SQP, NULL, 0));
	}
	return r;
}

static void ring_destroy(struct io_ring *r)
{
	io_wq_free(r->wq);
	g_free(r->sq);
	g_free(r->cq);
	sim_pool_destroy(&r->reqs);
	sim_pool_destroy(&r->blockings);
	g_free(r);
}

void io_ring_free(struct io_ring *r)
{
	struct xctx *x;

	if (!r)
		return;
	x = host_current(r->h);
	if ((!r->sqp && !r->wq) || !x) {
		ring_destroy(r);
		return;
	}
	/* The ring's threads may still run: an io-wq worker can be in a step
	 * after posting its last completion, and the SQ thread ends itself at
	 * its next step. The ring goes with the host. */
	host_free_later(r->h, (GDestroyNotify)ring_destroy, r);
	if (!r->sqp)
		return;
	r->dying = true;
	if (r->sqp_timer)
		sim_cancel(host_sim(r->h), r->sqp_timer);
	r->sqp_timer = 0;
	sqp_notify(r, x);
}

void io_ring_cmd_stats(const struct io_ring *r, struct io_ring_cmd_stats *st)
{
	*st = r->cmd_stats;
}

void io_ring_wq_usage(const struct io_ring *r, unsigned *workers,
		      struct task_usage *sum)
{
	*workers = 0;
	*sum = (struct task_usage){0};
	if (r->wq) {
		*workers = io_wq_nr_workers(r->wq);
		io_wq_usage(r->wq, sum);
	}
}
