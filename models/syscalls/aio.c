/*
 * Linux native AIO: io_submit, completion into the event ring,
 * io_getevents.
 *
 * Stands for fs/aio.c: io_submit -> io_submit_one -> aio_get_req, aio_read
 * / aio_write (the file's ->read_iter/->write_iter with ki_complete =
 * aio_complete_rw), under a block plug when more than two iocbs are
 * submitted (AIO_PLUG_THRESHOLD); aio_complete, in whatever context the
 * I/O ends in, writes the io_event into the ring and wakes the waiters of
 * ctx->wait; io_getevents -> read_events waits until min_nr events are
 * there, and every completion wakes it to look again.
 *
 * Unlike io_uring there is no task_work: a direct I/O write that the file
 * system finishes in a workqueue (iomap without IOCB_DIO_CALLER_COMP)
 * completes from the kworker.
 *
 * On a file opened without O_DIRECT nothing is asynchronous: aio_read and
 * aio_write call the file's buffered ->read_iter/->write_iter without
 * IOCB_NOWAIT, which block the submitter (filemap_read waiting for a
 * folio it had to read, balance_dirty_pages) and return the byte count;
 * aio_rw_done then calls aio_complete at once. So io_submit of N such
 * iocbs returns after N reads or writes made one after another, and
 * io_getevents finds their events without waiting. The blocking is
 * fs/sync_rw.c's, the same as pread's.
 *
 * Parameters (host profile, model "aio"), CPU time (ns): submit_iocb_ns,
 * complete_ns, getevents_ns, event_copy_ns.
 * Sources: Linux fs/aio.c (io_submit_one, aio_read, aio_write,
 * aio_rw_done, aio_complete_rw, read_events), mm/filemap.c (filemap_read).
 * Left out: IOCB_CMD_POLL and fsync, eventfd, cancellation, timeouts;
 * O_DSYNC buffered writes (generic_write_sync inside io_submit; the fio
 * model refuses them).
 */
#include <glib.h>

#include "block/blk_mq.h"
#include "aio.h"
#include "sync_rw.h"
#include "engine/pool.h"

#define P(field) offsetof(struct aio_params, field)
const struct param_def aio_param_table[] = {
	{"submit_iocb_ns", PARAM_TIME, P(submit_iocb), "80", 0, 1e6, "ns",
	 "io_submit per iocb: copy from user, aio_get_req, fget, kiocb set-up"},
	{"complete_ns", PARAM_TIME, P(complete), "60", 0, 1e6, "ns",
	 "aio_complete: fill the io_event in the ring, wake the waiters"},
	{"getevents_ns", PARAM_TIME, P(getevents), "60", 0, 1e6, "ns",
	 "io_getevents: read_events around the copy-out"},
	{"event_copy_ns", PARAM_TIME, P(event_copy), "10", 0, 1e6, "ns",
	 "per io_event copied to user space"},
	PARAM_END,
};

struct aio_kiocb {
	struct kiocb kiocb;
	struct aio_ctx *ctx;
	void *data;
};

struct aio_ctx {
	struct sim_component comp;
	struct host *h;
	struct task *owner;
	struct aio_params p;
	struct aio_event *ring;
	unsigned nr_events, head, tail;
	struct sim_pool kiocbs;
	/* the io_getevents in progress */
	bool waiting;
	unsigned min_nr, nr, got;
	struct aio_event *out;
	struct sim_msg done;
	unsigned last;
	/* the io_submit in progress: iocbs from next on are still to go */
	const struct aio_iocb *sub;
	unsigned sub_nr, next;
	struct sim_msg sub_done;
	struct sync_rw *buffered;	/* the wait of a buffered iocb */
};

enum { AIO_WOKEN };

#define AIO_PLUG_THRESHOLD 2

static stage_id st_submit, st_complete, st_getevents, st_copy;

unsigned aio_ring_available(const struct aio_ctx *c)
{
	return c->tail - c->head;
}

unsigned aio_ring_reap(struct aio_ctx *c, unsigned nr, struct aio_event *out)
{
	unsigned n = 0;
	while (n < nr && c->head != c->tail)
		out[n++] = c->ring[c->head++ % c->nr_events];
	return n;
}

/* aio_complete: the event goes into the ring; a waiter looks again. */
static void aio_complete_rw(struct xctx *x, struct kiocb *iocb, long res)
{
	struct aio_kiocb *k = (struct aio_kiocb *)iocb;
	struct aio_ctx *c = k->ctx;

	if (iocb->dio_complete) {
		iocb->dio_complete(x, iocb);
		res = iocb->res;
	}
	xctx_charge(x, st_complete, c->p.complete);
	if (iocb->trace)
		io_trace_stamp_cpu(iocb->trace, IOS_COMPLETE, xctx_clock(x),
				   cpu_id(xctx_cpu(x)));
	g_assert(c->tail - c->head < c->nr_events);
	c->ring[c->tail++ % c->nr_events] = (struct aio_event){.data = k->data,
								.res = res};
	sim_pool_put(&c->kiocbs, k);
	if (c->waiting && xctx_task(x) != c->owner) {
		c->waiting = false;
		xctx_wake(x, c->owner);
	}
}

/* io_submit_one for the iocbs from c->next on, in one step of the owner.
 * A direct iocb is started and left to complete wherever its I/O ends;
 * a buffered one runs whole inside the call (fs/sync_rw.c), and the
 * batch goes on in the step after it, from buffered_done. The plug is
 * flushed before the task can sleep, as schedule() does. */
static void submit_from(struct aio_ctx *c, struct xctx *x)
{
	bool plug = c->sub_nr > AIO_PLUG_THRESHOLD;

	if (plug)
		blk_start_plug(x);
	while (c->next < c->sub_nr) {
		const struct aio_iocb *a = &c->sub[c->next++];
		struct aio_kiocb *k = sim_pool_get(&c->kiocbs);
		if (a->trace)
			io_trace_stamp_cpu(a->trace, IOS_SUBMIT, xctx_clock(x),
					   cpu_id(xctx_cpu(x)));
		xctx_charge(x, st_submit, c->p.submit_iocb);
		k->ctx = c;
		k->data = a->data;
		k->kiocb = (struct kiocb){
			.file = a->file, .pos = a->off, .len = a->len,
			.nr_segs = a->nr_segs, .write = a->write,
			.flags = a->kiflags,
			.ki_complete = aio_complete_rw, .owner = k,
			.trace = a->trace,
		};
		if (!(a->kiflags & KI_DIRECT)) {
			if (plug)
				blk_finish_plug(x);
			sync_rw_start(c->buffered, x, &k->kiocb);
			return;
		}
		long ret = a->write ? a->file->ops->write_iter(x, &k->kiocb) :
				      a->file->ops->read_iter(x, &k->kiocb);
		if (ret != -EIOCBQUEUED)
			aio_complete_rw(x, &k->kiocb, ret);
	}
	if (plug)
		blk_finish_plug(x);
	c->last = c->sub_nr;
	task_then(c->owner, c->sub_done);
}

/* aio_rw_done for a buffered iocb: its result goes into the ring now,
 * so io_getevents finds it without waiting. */
static void buffered_done(struct xctx *x, struct kiocb *iocb, void *arg)
{
	struct aio_ctx *c = arg;

	aio_complete_rw(x, iocb, iocb->res);
	submit_from(c, x);
}

void aio_io_submit(struct aio_ctx *c, const struct aio_iocb *iocbs, unsigned nr,
		   struct sim_msg done)
{
	xctx_syscall(task_xctx(c->owner), 1);
	c->sub = iocbs;
	c->sub_nr = nr;
	c->next = 0;
	c->sub_done = done;
	submit_from(c, task_xctx(c->owner));
}

static void read_events(struct aio_ctx *c, struct xctx *x)
{
	unsigned n = aio_ring_reap(c, c->nr - c->got, c->out + c->got);

	xctx_charge(x, st_copy, c->p.event_copy * n);
	c->got += n;
	if (c->got >= c->min_nr) {
		c->last = c->got;
		task_then(c->owner, c->done);
		return;
	}
	c->waiting = true;
	task_sleep(c->owner, SIM_MSG(&c->comp, AIO_WOKEN, NULL, 0));
}

void aio_io_getevents(struct aio_ctx *c, unsigned min_nr, unsigned nr,
		      struct aio_event *out, struct sim_msg done)
{
	struct xctx *x = task_xctx(c->owner);

	xctx_syscall(x, 1);
	xctx_charge(x, st_getevents, c->p.getevents);
	c->min_nr = min_nr;
	c->nr = nr;
	c->got = 0;
	c->out = out;
	c->done = done;
	read_events(c, x);
}

unsigned aio_last_events(const struct aio_ctx *c)
{
	return c->last;
}

static void aio_handle(struct sim_component *comp, unsigned type, void *ptr,
		       uint64_t arg)
{
	struct aio_ctx *c = (struct aio_ctx *)comp;
	read_events(c, task_xctx(c->owner));
}

static const struct sim_component_ops aio_ops = {
	.name = "aio",
	.handle = aio_handle,
};

struct aio_ctx *aio_ctx_new(struct host *h, struct task *owner,
			    const struct aio_params *p, unsigned nr_events)
{
	struct aio_ctx *c = g_new0(struct aio_ctx, 1);

	st_submit = stage_register("aio_submit_one", CPU_SYS,
				   "io_submit_one, aio_get_req, aio_read/aio_write");
	st_complete = stage_register("aio_complete", CPU_SYS,
				     "aio_complete_rw, aio_complete");
	st_getevents = stage_register("aio_read_events", CPU_SYS,
				      "io_getevents, read_events");
	st_copy = stage_register("aio_event_copy", CPU_SYS, "aio_read_events_ring");
	c->h = h;
	c->owner = owner;
	c->p = *p;
	c->nr_events = nr_events;
	c->ring = g_new0(struct aio_event, nr_events);
	sim_pool_init(&c->kiocbs, sizeof(struct aio_kiocb), 64);
	sim_component_init(host_sim(h), &c->comp, &aio_ops, task_name(owner));
	c->buffered = sync_rw_new(host_sim(h), task_name(owner), owner,
				  buffered_done, c);
	return c;
}

void aio_ctx_free(struct aio_ctx *c)
{
	if (!c)
		return;
	g_free(c->ring);
	sync_rw_free(c->buffered);
	sim_pool_destroy(&c->kiocbs);
	g_free(c);
}
