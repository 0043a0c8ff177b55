/*
 * mq-deadline: the deadline I/O scheduler of blk-mq.
 *
 * Stands for: block/mq-deadline.c of Linux 6.18 (dd_insert_requests,
 * dd_dispatch_request -> __dd_dispatch_request, deadline_from_pos,
 * deadline_check_fifo, dd_bio_merge, dd_request_merge,
 * dd_merged_requests, dd_has_work) and the parts of block/elevator.c it
 * relies on (elv_merge with its one-hit cache q->last_merge and the
 * back-merge hash, elv_attempt_insert_merge, elv_merged_request), with
 * blk_mq_sched_try_merge's attempt_back_merge / attempt_front_merge from
 * block/blk-merge.c.
 *
 * Per direction (reads; writes and the rest) it keeps its requests in
 * sector order and in arrival order, each with a deadline. It hands out
 * requests in batches of up to fifo_batch in sector order, ascending from
 * the last one handed out in that direction; between batches it prefers
 * reads, but not for more than writes_starved batches while writes wait,
 * and starts a batch at the oldest request when that one's deadline has
 * passed or no request lies further on.
 *
 * Parameters (host profile, model "mq_deadline"; the first five are the
 * sysfs queue/iosched/ tunables with the kernel's defaults):
 *   read_expire     ms     deadline of a read, 500
 *   write_expire    ms     deadline of a write, 5000
 *   writes_starved  count  read batches while writes wait, 2
 *   fifo_batch      count  requests in a batch, 16
 *   front_merges    bool   try a bio in front of a queued request, on
 *   insert_ns       ns     per request inserted, under dd->lock
 *   dispatch_ns     ns     per request handed out, under dd->lock
 *   merge_ns        ns     per bio merge attempt, under dd->lock
 * The three costs are estimates (not measured): dd->lock is one spinlock
 * per queue, so a CPU that finds it held spins (stage dd_lock_spin)
 * until the holder is done.
 * Sources: Linux block/mq-deadline.c, block/elevator.c, block/blk-merge.c,
 * Documentation/block/deadline-iosched.rst.
 *
 * Left out: the three I/O priority classes and their aging
 * (prio_aging_expire: every request is best-effort), async_depth (the
 * limit on the sched tags of writes), zoned writes, requeues, and the
 * lock's cache-line traffic. A deadline is exact in ns (the kernel's is
 * in jiffies). The sector order is a sorted list searched from its end,
 * not an rb-tree and a hash: the same choices, whose search costs are in
 * the three parameters.
 */
#include <glib.h>

#include "block/blk_mq.h"

#define P(field) offsetof(struct mq_deadline_params, field)

const struct param_def mq_deadline_param_table[] = {
	{"read_expire", PARAM_U32, P(read_expire), "500", 0, 3.6e6, "ms",
	 "queue/iosched/read_expire: a read's deadline"},
	{"write_expire", PARAM_U32, P(write_expire), "5000", 0, 3.6e6, "ms",
	 "queue/iosched/write_expire: a write's deadline"},
	{"writes_starved", PARAM_U32, P(writes_starved), "2", 0, 1e6, "count",
	 "queue/iosched/writes_starved: read batches chosen while writes wait"},
	{"fifo_batch", PARAM_U32, P(fifo_batch), "16", 0, 1e6, "count",
	 "queue/iosched/fifo_batch: requests handed out in sector order before "
	 "the direction and deadlines are looked at again"},
	{"front_merges", PARAM_BOOL, P(front_merges), "true", 0, 0, "",
	 "queue/iosched/front_merges: a bio may join a queued request at its "
	 "start"},
	{"insert_ns", PARAM_TIME, P(insert), "150", 0, 1e6, "ns",
	 "dd_insert_request: insert merge look-up, sort and FIFO insertion, "
	 "under dd->lock (estimate)"},
	{"dispatch_ns", PARAM_TIME, P(dispatch), "120", 0, 1e6, "ns",
	 "dd_dispatch_request: choose and remove one request, under dd->lock "
	 "(estimate)"},
	{"merge_ns", PARAM_TIME, P(merge), "100", 0, 1e6, "ns",
	 "dd_bio_merge: one bio merge attempt (last-merge, back and front "
	 "look-ups), under dd->lock (estimate)"},
	PARAM_END,
};

enum { DD_READ, DD_WRITE };

struct dd_dir {
	struct request *sort_head, *sort_tail;	/* ascending sector */
	struct request *fifo_head, *fifo_tail;	/* arrival, deadline order */
	uint64_t latest_pos;	/* sector of the last one handed out */
};

struct deadline_data {
	struct blk_queue *q;
	const struct mq_deadline_params *p;
	struct dd_dir dir[2];
	struct request *last_merge;	/* q->last_merge */
	unsigned batching;		/* handed out in this batch */
	unsigned starved;		/* read batches while writes waited */
	unsigned last_dir;
	sim_time lock_free;		/* when dd->lock's holder lets go */
};

static stage_id st_insert, st_dispatch, st_merge, st_lock_spin;

static unsigned rq_dir(const struct request *rq)
{
	return rq->op == REQ_OP_READ ? DD_READ : DD_WRITE;
}

static uint64_t rq_end(const struct request *rq)
{
	return rq->sector + rq->size / 512;
}

/* Take dd->lock for hold ns of work charged to stage st: a CPU that
 * finds it held spins until its holder is done. */
static void dd_locked(struct xctx *x, struct deadline_data *dd, stage_id st,
		      sim_time hold)
{
	sim_time now = xctx_clock(x);

	if (dd->lock_free > now) {
		xctx_charge(x, st_lock_spin, dd->lock_free - now);
		now = dd->lock_free;
	}
	xctx_charge(x, st, hold);
	dd->lock_free = now + hold;
}

static void sort_add(struct dd_dir *d, struct request *rq)
{
	struct request *at = d->sort_tail;

	/* Sequential I/O arrives at the end: search from there. */
	while (at && at->sector > rq->sector)
		at = at->sort_prev;
	rq->sort_prev = at;
	rq->sort_next = at ? at->sort_next : d->sort_head;
	if (rq->sort_next)
		rq->sort_next->sort_prev = rq;
	else
		d->sort_tail = rq;
	if (at)
		at->sort_next = rq;
	else
		d->sort_head = rq;
}

static void fifo_del(struct dd_dir *d, struct request *rq)
{
	if (rq->fifo_prev)
		rq->fifo_prev->fifo_next = rq->fifo_next;
	else
		d->fifo_head = rq->fifo_next;
	if (rq->fifo_next)
		rq->fifo_next->fifo_prev = rq->fifo_prev;
	else
		d->fifo_tail = rq->fifo_prev;
	rq->fifo_prev = rq->fifo_next = NULL;
}

/* deadline_remove_request: off the sort and FIFO lists. */
static void dd_remove(struct deadline_data *dd, struct request *rq)
{
	struct dd_dir *d = &dd->dir[rq_dir(rq)];

	if (rq->sort_prev)
		rq->sort_prev->sort_next = rq->sort_next;
	else
		d->sort_head = rq->sort_next;
	if (rq->sort_next)
		rq->sort_next->sort_prev = rq->sort_prev;
	else
		d->sort_tail = rq->sort_prev;
	rq->sort_prev = rq->sort_next = NULL;
	fifo_del(d, rq);
	if (dd->last_merge == rq)
		dd->last_merge = NULL;
}

/* deadline_from_pos: the first request at or after sector pos. */
static struct request *from_pos(const struct dd_dir *d, uint64_t pos)
{
	struct request *rq = d->sort_head;

	while (rq && rq->sector < pos)
		rq = rq->sort_next;
	return rq;
}

/* elv_rqhash_find: a queued request that may merge and ends at sector. */
static struct request *find_end(const struct dd_dir *d, uint64_t sector)
{
	for (struct request *rq = d->sort_tail; rq; rq = rq->sort_prev)
		if (rq_end(rq) == sector)
			return (rq->flags & REQ_NOMERGE) ? NULL : rq;
	return NULL;
}

/* elv_rb_find: the queued request that starts at sector. */
static struct request *find_start(const struct dd_dir *d, uint64_t sector)
{
	for (struct request *rq = d->sort_head; rq && rq->sector <= sector;
	     rq = rq->sort_next)
		if (rq->sector == sector)
			return rq;
	return NULL;
}

/* dd_merged_requests: next, queued, has joined rq; rq keeps the earlier
 * deadline and, with it, next's place in the FIFO. */
static void merged_requests(struct deadline_data *dd, struct request *rq,
			    struct request *next)
{
	struct dd_dir *d = &dd->dir[rq_dir(rq)];

	if (next->fifo_time < rq->fifo_time) {
		fifo_del(d, rq);
		rq->fifo_prev = next->fifo_prev;
		rq->fifo_next = next;
		if (next->fifo_prev)
			next->fifo_prev->fifo_next = rq;
		else
			d->fifo_head = rq;
		next->fifo_prev = rq;
		rq->fifo_time = next->fifo_time;
	}
	dd_remove(dd, next);
	dd->last_merge = rq;
}

static void *dd_init(struct blk_queue *q)
{
	struct deadline_data *dd = g_new0(struct deadline_data, 1);

	st_insert = stage_register("dd_insert_request", CPU_SYS,
				   "dd_insert_requests");
	st_dispatch = stage_register("dd_dispatch_request", CPU_SYS,
				     "dd_dispatch_request");
	st_merge = stage_register("dd_bio_merge", CPU_SYS, "dd_bio_merge");
	st_lock_spin = stage_register("dd_lock_spin", CPU_SYS,
				      "spin_lock(&dd->lock), contended");
	dd->q = q;
	dd->p = &blk_queue_params(q)->mq_deadline;
	dd->last_dir = DD_WRITE;
	return dd;
}

static void dd_exit(void *ed)
{
	g_free(ed);
}

/*
 * blk_mq_sched_try_merge: elv_merge finds the candidate (q->last_merge
 * if bio continues or precedes it; else, unless nomerges=1, the request
 * bio continues, then with front_merges the one it precedes), the bio
 * joins it within the limits, and the request may then meet its
 * neighbour in sector order (attempt_back_merge / attempt_front_merge).
 */
static bool dd_bio_merge(struct xctx *x, void *ed, struct bio *bio,
			 struct request **free)
{
	struct deadline_data *dd = ed;
	struct dd_dir *d = &dd->dir[bio->op == REQ_OP_READ ? DD_READ : DD_WRITE];
	uint64_t end = bio->sector + bio->size / 512;
	struct request *rq = dd->last_merge;
	bool back = false;

	dd_locked(x, dd, st_merge, dd->p->merge);
	if (rq && blk_rq_merge_ok(rq, bio) &&
	    (rq_end(rq) == bio->sector || rq->sector == end)) {
		back = rq_end(rq) == bio->sector;
	} else if (blk_queue_params(dd->q)->nomerges == 1) {
		return false;
	} else if ((rq = find_end(d, bio->sector)) && blk_rq_merge_ok(rq, bio)) {
		back = true;
	} else if (!dd->p->front_merges || !(rq = find_start(d, end)) ||
		   !blk_rq_merge_ok(rq, bio)) {
		return false;
	}
	if (!blk_attempt_bio_merge(rq, bio, back)) {
		/* req_set_nomerge */
		if (dd->last_merge == rq)
			dd->last_merge = NULL;
		return false;
	}
	if (back && rq->sort_next && blk_attempt_req_merge(rq, rq->sort_next)) {
		*free = rq->sort_next;
		merged_requests(dd, rq, *free);
	} else if (!back && rq->sort_prev &&
		   blk_attempt_req_merge(rq->sort_prev, rq)) {
		*free = rq;
		merged_requests(dd, rq->sort_prev, rq);
	} else {
		dd->last_merge = rq;
	}
	return true;
}

/*
 * dd_insert_request: first elv_attempt_insert_merge, which appends the
 * new request to q->last_merge or to the request it continues, and then
 * that one to the request it continues, and so on; else into the sector
 * order and at the FIFO's tail with its deadline.
 */
static void dd_insert_one(struct xctx *x, struct deadline_data *dd,
			  struct request *rq, struct request **free)
{
	unsigned dir = rq_dir(rq);
	struct dd_dir *d = &dd->dir[dir];
	bool nomerges = blk_queue_config(dd->q)->nomerges;
	bool merged = false;

	rq->sort_prev = rq->sort_next = rq->fifo_prev = rq->fifo_next = NULL;
	if (!nomerges && dd->last_merge &&
	    blk_attempt_req_merge(dd->last_merge, rq)) {
		rq->next = *free;
		*free = rq;
		return;
	}
	while (!nomerges && blk_queue_params(dd->q)->nomerges != 1) {
		struct request *prev = find_end(d, rq->sector);
		if (!prev || !blk_attempt_req_merge(prev, rq))
			break;
		/* The first is new, on no list yet; the rest are queued. */
		if (merged)
			merged_requests(dd, prev, rq);
		dd->last_merge = prev;
		rq->next = *free;
		*free = rq;
		merged = true;
		rq = prev;
	}
	if (merged)
		return;
	sort_add(d, rq);
	rq->fifo_time = xctx_clock(x) +
		(sim_time)(dir == DD_READ ? dd->p->read_expire :
			   dd->p->write_expire) * 1000000;
	rq->fifo_prev = d->fifo_tail;
	if (d->fifo_tail)
		d->fifo_tail->fifo_next = rq;
	else
		d->fifo_head = rq;
	d->fifo_tail = rq;
	if (!dd->last_merge && !(rq->flags & (REQ_NOMERGE | REQ_FUA)))
		dd->last_merge = rq;
}

/* dd_insert_requests: one hold of dd->lock for the list. */
static void dd_insert_requests(struct xctx *x, void *ed, struct request *list,
			       struct request **free)
{
	struct deadline_data *dd = ed;
	unsigned n = 0;

	for (struct request *rq = list; rq; rq = rq->next)
		n++;
	dd_locked(x, dd, st_insert, dd->p->insert * n);
	while (list) {
		struct request *rq = list;
		list = rq->next;
		rq->next = NULL;
		dd_insert_one(x, dd, rq, free);
	}
}

/* deadline_check_fifo: the oldest request's deadline has passed. */
static bool expired(const struct dd_dir *d, sim_time now)
{
	return d->fifo_head && now >= d->fifo_head->fifo_time;
}

/* __dd_dispatch_request, for the one priority class modelled. */
static struct request *dd_dispatch_request(struct xctx *x, void *ed)
{
	struct deadline_data *dd = ed;
	struct dd_dir *rd = &dd->dir[DD_READ], *wr = &dd->dir[DD_WRITE];
	struct request *rq, *next;
	unsigned dir;

	dd_locked(x, dd, st_dispatch, dd->p->dispatch);
	/* Batches are reads or writes: go on with this one while it lasts. */
	rq = from_pos(&dd->dir[dd->last_dir], dd->dir[dd->last_dir].latest_pos);
	if (rq && dd->batching < dd->p->fifo_batch)
		goto dispatch;
	if (rd->fifo_head && !(wr->fifo_head &&
			       dd->starved++ >= dd->p->writes_starved)) {
		dir = DD_READ;
	} else if (wr->fifo_head) {
		dd->starved = 0;
		dir = DD_WRITE;
	} else {
		return NULL;
	}
	/* A passed deadline, or nothing further on in sector order: start
	 * again from the oldest. */
	next = from_pos(&dd->dir[dir], dd->dir[dir].latest_pos);
	rq = expired(&dd->dir[dir], xctx_clock(x)) || !next ?
		dd->dir[dir].fifo_head : next;
	dd->last_dir = dir;
	dd->batching = 0;
dispatch:
	dd->batching++;
	dd_remove(dd, rq);
	dd->dir[rq_dir(rq)].latest_pos = rq->sector;
	return rq;
}

static bool dd_has_work(const void *ed)
{
	const struct deadline_data *dd = ed;

	return dd->dir[DD_READ].fifo_head || dd->dir[DD_WRITE].fifo_head;
}

const struct elevator_ops mq_deadline_ops = {
	.name = "mq-deadline",
	.init_sched = dd_init,
	.exit_sched = dd_exit,
	.bio_merge = dd_bio_merge,
	.insert_requests = dd_insert_requests,
	.dispatch_request = dd_dispatch_request,
	.has_work = dd_has_work,
};
