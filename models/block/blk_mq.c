/*
 * blk-mq: bio submission, splitting, tags, plugging, dispatch, completion.
 *
 * Stands for: block/bio.c (bio_alloc_bioset, bio_iov_iter_get_pages,
 * bio_iov_bvec_set, bio_endio), block/blk-core.c (submit_bio_noacct,
 * blk_start_plug/blk_finish_plug), block/blk-mq.c (blk_mq_submit_bio,
 * blk_mq_get_new_requests, blk_mq_flush_plug_list, blk_mq_end_request),
 * block/blk-merge.c (bio_split_rw, blk_attempt_plug_merge),
 * block/blk-mq-tag.c (tags).
 *
 * Parameters (host profile, model "blk_mq"), CPU time per event (ns):
 *   bio_alloc_ns     bio from the per-CPU bio cache
 *   bvec_alloc_ns    biovec slab when a bio needs more than 4 bvecs
 *   bio_add_page_ns  per page added by copying the caller's bvec/pages
 *   bvec_set_ns      bio_iov_bvec_set: borrow the caller's bvec array
 *   pin_page_ns      per page of user memory pinned for the I/O
 *   split_check_ns   blk_bio_segment_split entry for a multi-page bio
 *   seg_walk_ns      per segment walked by the split
 *   submit_bio_ns    submit_bio_noacct + blk_mq_submit_bio + tag
 *   bio_split_ns     one bio_split
 *   plug_flush_ns    one blk_mq_flush_plug_list
 *   end_request_ns   blk_mq_end_request: stats, tag release
 *   bio_endio_ns     bio_endio + bio_put
 *   bio_merge_ns     a bio merged into a plugged request
 * and nomerges, every queue's queue/nomerges, and scheduler, every
 * queue's queue/scheduler (none or mq-deadline).
 * Sources: kernel-mechanisms.md (shared reference), per-host profiles;
 * block/blk-mq-sched.c, block/elevator.c and block/blk-merge.c of Linux
 * 6.18 for the scheduler's part.
 *
 * Merging on a queue without a scheduler is the plug's only
 * (blk_attempt_plug_merge as of Linux 6.16, "use plug request list tail
 * for one-shot backmerge attempt"): a bio joins the request last added
 * to the plug when that one is on the same queue, else the plug's first
 * request on its queue, if it continues or precedes it within the
 * queue's limits.
 *
 * With a scheduler (blk_mq_init_sched) requests come from a pool of
 * nr_requests = 2 * min(queue_depth, 128) per hardware queue (the sched
 * tags) and take a driver tag only when the scheduler hands them out; a
 * bio that does not merge on the plug tries the scheduler's queued
 * requests (blk_mq_sched_bio_merge); requests are inserted into it
 * (directly, or when the plug is flushed) and the queue is run: the
 * scheduler's requests go to the driver while driver tags last, and the
 * queue runs again when a request ends. Flushes bypass it
 * (blk_insert_flush) onto the dispatch list.
 *
 * Left out: merging into requests already dispatched, discard merges, a
 * task sleeping for a tag (a waiting bio is dispatched when a tag is
 * freed, in the freeing context), running the queue from kblockd (Linux
 * runs it asynchronously after a single insert, blk_mq_run_hw_queue(hctx,
 * true); the model runs it in the inserting context), write-back
 * throttling, cgroups.
 */
#include <glib.h>
#include <string.h>

#include "block/blk_mq.h"
#include "engine/pool.h"

#define P(field) offsetof(struct blk_mq_params, field)

/* Requests and driver tags are made this many at a time (struct blk_hctx). */
#define RQ_CHUNK 64u

/* The schedulers queue/scheduler offers, by blk_mq.scheduler's index. */
static const char *const scheduler_names[] = {"none", "mq-deadline", NULL};
static const struct elevator_ops *const schedulers[] = {NULL, &mq_deadline_ops};

const struct param_def blk_mq_param_table[] = {
	{"bio_alloc_ns", PARAM_TIME, P(bio_alloc), "40", 0, 1e6, "ns",
	 "bio_alloc_bioset from the per-CPU bio cache"},
	{"bvec_alloc_ns", PARAM_TIME, P(bvec_alloc), "60", 0, 1e6, "ns",
	 "biovec slab allocation for a bio of more than 4 segments"},
	{"bio_add_page_ns", PARAM_TIME, P(bio_add_page), "30", 0, 1e6, "ns",
	 "per page copied into a bio: bio_add_page, PSI check, iov_iter_advance"},
	{"bvec_set_ns", PARAM_TIME, P(bvec_set), "10", 0, 1e6, "ns",
	 "bio_iov_bvec_set: point the bio at the caller's bvec array"},
	{"pin_page_ns", PARAM_TIME, P(pin_page), "20", 0, 1e6, "ns",
	 "per page of user memory: pin_user_pages_fast"},
	{"split_check_ns", PARAM_TIME, P(split_check), "15", 0, 1e6, "ns",
	 "enter the segment split for a bio of more than one page"},
	{"seg_walk_ns", PARAM_TIME, P(seg_walk), "10", 0, 1e6, "ns",
	 "per segment walked by the segment split"},
	{"submit_bio_ns", PARAM_TIME, P(submit_bio), "80", 0, 1e6, "ns",
	 "submit_bio_noacct + blk_mq_submit_bio + tag allocation"},
	{"bio_split_ns", PARAM_TIME, P(bio_split), "60", 0, 1e6, "ns",
	 "one bio_split"},
	{"plug_flush_ns", PARAM_TIME, P(plug_flush), "40", 0, 1e6, "ns",
	 "one blk_mq_flush_plug_list"},
	{"end_request_ns", PARAM_TIME, P(end_request), "50", 0, 1e6, "ns",
	 "blk_mq_end_request: accounting and tag release"},
	{"bio_endio_ns", PARAM_TIME, P(bio_endio), "20", 0, 1e6, "ns",
	 "bio_endio + bio_put"},
	{"bio_merge_ns", PARAM_TIME, P(bio_merge), "30", 0, 1e6, "ns",
	 "blk_attempt_plug_merge + bio_attempt_back_merge for a bio that joins "
	 "a plugged request (estimate)"},
	{"alloc_request_ns", PARAM_TIME, P(alloc_request), "30", 0, 1e6, "ns",
	 "blk_mq_alloc_request for a passthrough command: tag, request init"},
	{"execute_rq_ns", PARAM_TIME, P(execute_rq), "20", 0, 1e6, "ns",
	 "blk_execute_rq_nowait: start accounting, add to the plug or run the "
	 "queue"},
	{"nomerges", PARAM_U32, P(nomerges), "0", 0, 2, "mode",
	 "every queue's queue/nomerges: 2 turns merging off; 1 (no extended "
	 "merges) leaves the plug's merging on, as 0 does, and the "
	 "scheduler's to its last-merged request"},
	{"scheduler", PARAM_ENUM, P(scheduler), "none", 0, 0, "",
	 "every queue's queue/scheduler (Linux gives NVMe none)",
	 scheduler_names},
	PARAM_END,
};

struct blk_hctx {
	struct blk_queue *q;
	unsigned idx;
	bool poll;
	/* The requests, by tag (with a scheduler, by sched tag: nr_requests
	 * of them), made as they are first needed, RQ_CHUNK at a time: a
	 * free tag is the last one freed, else the lowest never used, as
	 * the kernel's sbitmap hands out a cold queue's, so a queue holds
	 * the memory of the most it ever had in flight, not its depth. */
	struct request **rq_chunk;
	unsigned nrqs, nmade;
	uint32_t *free_tags;	/* freed, nmade rounded up to RQ_CHUNK of room */
	unsigned nfree;
	/* Whose each tag is (without a scheduler, the request made for it).
	 * With a scheduler, the driver tags, made the same way. */
	struct request **tag_rq;
	uint32_t *drv_tags;
	unsigned ndrv_free, ndrv_made;
	struct bio *waiting, *waiting_tail;	/* bios waiting for a tag */
	struct blk_tag_waiter *tag_waiters, *tag_waiters_tail;
	void *drv;
};

struct blk_queue {
	struct host *h;
	const struct blk_mq_params *p;
	struct blk_queue_config cfg;
	char *name;
	const struct blk_driver_ops *drv;
	void *drv_data;
	unsigned nr_hctx;
	struct blk_hctx *hctx;
	unsigned *map, *map_poll;	/* cpu -> hctx index */
	struct sim_pool bios;
	unsigned inflight;
	sim_time busy_since;
	struct blk_disk_stats st;
	const struct elevator_ops *elv;	/* NULL: none */
	void *elv_data;
	/* Taken from the scheduler (or bypassing it) but without a driver
	 * tag yet: hctx->dispatch, first to go when the queue runs. */
	struct request *dispatch, *dispatch_tail;
};

static stage_id st_bio_alloc, st_bvec_alloc, st_bio_add_page, st_bvec_set,
	st_pin_pages, st_seg_walk, st_submit_bio, st_bio_split, st_plug_flush, st_end_request,
	st_bio_endio, st_bio_merge, st_alloc_request, st_execute_rq;

/* A plugged request this large (with merges on) is sent to the driver
 * when the next one joins the plug: BLK_PLUG_FLUSH_SIZE, 128 KiB in every
 * kernel modelled. */
#define BLK_PLUG_FLUSH_SIZE (128u * 1024)

/* The plug of the step being executed. A plug never outlives the step
 * that started it, so one slot is enough. */
static struct {
	struct xctx *x;
	unsigned depth;		/* nested blk_start_plug calls */
	struct request *head, *tail;
	unsigned count;
	bool has_elevator;	/* a request of a queue with a scheduler */
} plug;

#define BLK_MAX_PLUG 16

static void register_stages(void)
{
	st_bio_alloc = stage_register("bio_alloc", CPU_SYS, "bio_alloc_bioset");
	st_bvec_alloc = stage_register("bvec_alloc", CPU_SYS, "bvec_alloc");
	st_bio_add_page = stage_register("bio_add_page", CPU_SYS,
					 "bio_iov_iter_get_pages (copy)");
	st_bvec_set = stage_register("bio_iov_bvec_set", CPU_SYS,
				     "bio_iov_bvec_set (no copy)");
	st_pin_pages = stage_register("pin_user_pages", CPU_SYS,
				      "pin_user_pages_fast");
	st_seg_walk = stage_register("bio_split_rw", CPU_SYS, "bio_split_rw");
	st_submit_bio = stage_register("blk_mq_submit_bio", CPU_SYS,
				       "submit_bio_noacct, blk_mq_submit_bio");
	st_bio_split = stage_register("bio_split", CPU_SYS, "bio_split");
	st_plug_flush = stage_register("blk_flush_plug", CPU_SYS,
				       "blk_mq_flush_plug_list");
	st_end_request = stage_register("blk_mq_end_request", CPU_SYS,
					"blk_mq_end_request");
	st_bio_endio = stage_register("bio_endio", CPU_SYS, "bio_endio, bio_put");
	st_bio_merge = stage_register("blk_attempt_plug_merge", CPU_SYS,
				      "blk_attempt_plug_merge");
	st_alloc_request = stage_register("blk_mq_alloc_request", CPU_SYS,
					  "blk_mq_alloc_request, blk_mq_rq_ctx_init");
	st_execute_rq = stage_register("blk_execute_rq_nowait", CPU_SYS,
				       "blk_execute_rq_nowait, blk_add_rq_to_plug");
}

struct blk_queue *blk_queue_new(struct host *h, const struct blk_mq_params *p,
				const struct blk_queue_config *cfg,
				const struct blk_driver_ops *drv, void *drv_data)
{
	struct blk_queue *q = g_new0(struct blk_queue, 1);
	unsigned ncpus = host_ncpus(h);

	register_stages();
	q->h = h;
	q->p = p;
	q->cfg = *cfg;
	q->name = g_strdup(cfg->name);
	q->cfg.name = q->name;
	q->cfg.nomerges |= p->nomerges == 2;
	q->drv = drv;
	q->drv_data = drv_data;
	q->nr_hctx = cfg->nr_hw_queues + cfg->nr_poll_queues;
	g_assert(cfg->nr_hw_queues > 0 && cfg->queue_depth > 0);
	if (cfg->scheduler) {
		unsigned i = 0;
		while (scheduler_names[i] && strcmp(scheduler_names[i], cfg->scheduler))
			i++;
		g_assert(scheduler_names[i]);
		q->elv = schedulers[i];
	} else {
		q->elv = schedulers[p->scheduler];
	}
	/* blk_mq_init_sched: nr_requests, 2 * min(depth, BLKDEV_DEFAULT_RQ). */
	unsigned nrqs = !q->elv ? cfg->queue_depth :
		cfg->nr_requests ? cfg->nr_requests : 2 * MIN(cfg->queue_depth, 128u);
	q->hctx = g_new0(struct blk_hctx, q->nr_hctx);
	for (unsigned i = 0; i < q->nr_hctx; i++) {
		struct blk_hctx *hc = &q->hctx[i];
		hc->q = q;
		hc->idx = i;
		hc->poll = i >= cfg->nr_hw_queues;
		hc->nrqs = nrqs;
		hc->rq_chunk = g_new0(struct request *,
				      (nrqs + RQ_CHUNK - 1) / RQ_CHUNK);
	}
	if (q->elv)
		q->elv_data = q->elv->init_sched(q);
	/* blk_mq_map_queues: spread the CPUs evenly over each set of queues. */
	q->map = g_new(unsigned, ncpus);
	q->map_poll = g_new(unsigned, ncpus);
	for (unsigned c = 0; c < ncpus; c++) {
		q->map[c] = c * cfg->nr_hw_queues / ncpus;
		q->map_poll[c] = cfg->nr_poll_queues ?
			cfg->nr_hw_queues + c * cfg->nr_poll_queues / ncpus : q->map[c];
	}
	sim_pool_init(&q->bios, sizeof(struct bio), 256);
	return q;
}

void blk_queue_free(struct blk_queue *q)
{
	if (!q)
		return;
	if (q->elv)
		q->elv->exit_sched(q->elv_data);
	for (unsigned i = 0; i < q->nr_hctx; i++) {
		for (unsigned k = 0; k < q->hctx[i].nmade; k += RQ_CHUNK)
			g_free(q->hctx[i].rq_chunk[k / RQ_CHUNK]);
		g_free(q->hctx[i].rq_chunk);
		g_free(q->hctx[i].free_tags);
		g_free(q->hctx[i].drv_tags);
		g_free(q->hctx[i].tag_rq);
	}
	g_free(q->hctx);
	g_free(q->map);
	g_free(q->map_poll);
	sim_pool_destroy(&q->bios);
	g_free(q->name);
	g_free(q);
}

const struct blk_queue_config *blk_queue_config(const struct blk_queue *q)
{
	return &q->cfg;
}

const struct blk_mq_params *blk_queue_params(const struct blk_queue *q)
{
	return q->p;
}

struct host *blk_queue_host(const struct blk_queue *q)
{
	return q->h;
}

unsigned blk_queue_nr_hctx(const struct blk_queue *q)
{
	return q->nr_hctx;
}

struct blk_hctx *blk_queue_hctx(struct blk_queue *q, unsigned i)
{
	g_assert(i < q->nr_hctx);
	return &q->hctx[i];
}

void *blk_hctx_driver_data(const struct blk_hctx *hctx)
{
	return hctx->drv;
}

void blk_hctx_set_driver_data(struct blk_hctx *hctx, void *data)
{
	hctx->drv = data;
}

unsigned blk_hctx_index(const struct blk_hctx *hctx)
{
	return hctx->idx;
}

bool blk_hctx_is_poll(const struct blk_hctx *hctx)
{
	return hctx->poll;
}

static inline struct request *hctx_rq(const struct blk_hctx *hc, uint32_t idx)
{
	return &hc->rq_chunk[idx / RQ_CHUNK][idx % RQ_CHUNK];
}

struct request *blk_hctx_request(struct blk_hctx *hctx, uint32_t tag)
{
	g_assert(tag < hctx->q->cfg.queue_depth);
	return hctx->tag_rq[tag];
}

struct blk_hctx *blk_queue_map(struct blk_queue *q, unsigned cpu, bool polled)
{
	return &q->hctx[polled ? q->map_poll[cpu] : q->map[cpu]];
}

/* ---- bios ---- */

static struct bio *bio_get(struct blk_queue *q)
{
	struct bio *bio = sim_pool_get(&q->bios);
	*bio = (struct bio){.q = q};
	return bio;
}

struct bio *bio_alloc(struct xctx *x, struct blk_queue *q, unsigned nr_vecs,
		      bool borrow_bvec)
{
	xctx_charge(x, st_bio_alloc, q->p->bio_alloc);
	if (nr_vecs > BIO_INLINE_VECS && !borrow_bvec)
		xctx_charge(x, st_bvec_alloc, q->p->bvec_alloc);
	return bio_get(q);
}

void bio_free(struct bio *bio)
{
	sim_pool_put(&bio->q->bios, bio);
}

void bio_iov_iter_get_pages(struct xctx *x, struct bio *bio, unsigned nr_segs,
			    bool bvec, bool borrow)
{
	const struct blk_mq_params *p = bio->q->p;

	if (borrow) {
		xctx_charge(x, st_bvec_set, p->bvec_set);
		return;
	}
	if (!bvec)
		xctx_charge(x, st_pin_pages, p->pin_page * nr_segs);
	xctx_charge(x, st_bio_add_page, p->bio_add_page * nr_segs);
}

/* ---- dispatch ---- */

static bool is_passthrough(const struct request *rq)
{
	return rq->op == REQ_OP_DRV_IN || rq->op == REQ_OP_DRV_OUT;
}

static void account_start(struct blk_queue *q, struct request *rq)
{
	if (is_passthrough(rq))
		return;	/* blk_do_io_stat: not in the disk statistics */
	sim_time now = sim_now(host_sim(q->h));

	rq->start_time = now;
	if (q->inflight++ == 0)
		q->busy_since = now;
}

static void dispatch_list(struct xctx *x, struct request *head)
{
	while (head) {
		struct request *rq = head;
		head = rq->next;
		rq->next = NULL;
		account_start(rq->q, rq);
		if (blk_rq_traced(rq)) {
			blk_rq_stamp(rq, IOS_DISPATCH, xctx_clock(x));
			for (const struct bio *b = rq->bio; b; b = b->next)
				io_trace_queue(b->trace, rq->q->name,
					       blk_hctx_index(rq->hctx));
		}
		/* bd->last: the last request of this queue in the batch. */
		bool last = !head || head->hctx != rq->hctx;
		rq->q->drv->queue_rq(x, rq->hctx, rq, last);
	}
}

void blk_start_plug(struct xctx *x)
{
	if (plug.x) {
		/* current->plug is already set: the outer plug collects. */
		g_assert(plug.x == x);
		plug.depth++;
		return;
	}
	plug.x = x;
	plug.depth = 1;
	plug.head = plug.tail = NULL;
	plug.count = 0;
	plug.has_elevator = false;
}

/* Append rq to the list from *head to *tail, linked through next (the
 * plug, the dispatch list, a batch). */
static inline void rq_list_add_tail(struct request **head,
				    struct request **tail, struct request *rq)
{
	rq->next = NULL;
	if (*tail)
		(*tail)->next = rq;
	else
		*head = rq;
	*tail = rq;
}

static void sched_insert(struct xctx *x, struct blk_queue *q,
			 struct request *list);
static void sched_run_queue(struct xctx *x, struct blk_queue *q);

/* blk_mq_flush_plug_list: without a scheduler the requests go to the
 * driver as they are; with one, each queue's run of requests is inserted
 * into its scheduler (blk_mq_dispatch_plug_list) and the queue run. */
static void flush_plug(struct xctx *x)
{
	struct request *head = plug.head;
	bool sched = plug.has_elevator;

	if (!head)
		return;
	plug.head = plug.tail = NULL;
	plug.count = 0;
	plug.has_elevator = false;
	xctx_charge(x, st_plug_flush, head->q->p->plug_flush);
	if (!sched) {
		dispatch_list(x, head);
		return;
	}
	while (head) {
		struct blk_queue *q = head->q;
		struct request *end = head;
		while (end->next && end->next->q == q)
			end = end->next;
		struct request *rest = end->next;
		end->next = NULL;
		if (q->elv) {
			sched_insert(x, q, head);
			sched_run_queue(x, q);
		} else {
			dispatch_list(x, head);
		}
		head = rest;
	}
}

void blk_finish_plug(struct xctx *x)
{
	g_assert(plug.x == x);
	if (--plug.depth)
		return;
	flush_plug(x);
	plug.x = NULL;
}

/* The next RQ_CHUNK requests of hc's pool, for when every one made is in
 * use. */
static __attribute__((noinline, cold)) void make_requests(struct blk_hctx *hc)
{
	unsigned first = hc->nmade, n = MIN(RQ_CHUNK, hc->nrqs - first);
	struct request *chunk = g_new0(struct request, RQ_CHUNK);

	hc->rq_chunk[first / RQ_CHUNK] = chunk;
	hc->free_tags = g_renew(uint32_t, hc->free_tags, first + RQ_CHUNK);
	if (!hc->q->elv)
		hc->tag_rq = g_renew(struct request *, hc->tag_rq, first + RQ_CHUNK);
	for (unsigned i = 0; i < n; i++) {
		chunk[i] = (struct request){.q = hc->q, .hctx = hc,
					    .tag = first + i, .idx = first + i};
		if (!hc->q->elv)
			hc->tag_rq[first + i] = &chunk[i];
	}
	/* Lowest first, as from a pool that had them all. */
	for (unsigned i = n; i-- > 0;)
		hc->free_tags[hc->nfree++] = first + i;
	hc->nmade = first + n;
}

static struct request *get_request(struct blk_hctx *hc, struct bio *bio)
{
	if (hc->nfree == 0) {
		if (hc->nmade == hc->nrqs)
			return NULL;
		make_requests(hc);
	}
	struct request *rq = hctx_rq(hc, hc->free_tags[--hc->nfree]);
	bio->next = NULL;
	rq->bio = rq->biotail = bio;
	rq->op = bio->op;
	rq->flags = bio->flags;
	rq->sector = bio->sector;
	rq->size = bio->size;
	rq->nr_segs = bio->nr_segs;
	rq->next = NULL;
	rq->end_io = NULL;
	return rq;
}

/* A tag came free on hc and no bio waited for it: wake a task that did. */
static void wake_tag_waiter(struct xctx *x, struct blk_hctx *hc)
{
	struct blk_tag_waiter *w = hc->tag_waiters;

	if (!w || !hc->nfree)
		return;
	hc->tag_waiters = w->next;
	if (!w->next)
		hc->tag_waiters_tail = NULL;
	w->fn(x, w);
}

static void end_bio(struct xctx *x, struct bio *bio)
{
	struct bio *parent = bio->parent;

	xctx_charge(x, st_bio_endio, bio->q->p->bio_endio);
	if (parent) {
		if (bio->status && !parent->status)
			parent->status = bio->status;
		bio_free(bio);
		if (--parent->remaining == 0)
			parent->end_io(x, parent);
		return;
	}
	bio->end_io(x, bio);
}

/* rq_mergeable and bio_mergeable: only reads and writes merge, and a
 * flush, a FUA write or what carries REQ_NOMERGE never does. */
static bool mergeable(uint8_t op, uint32_t flags)
{
	return (op == REQ_OP_READ || op == REQ_OP_WRITE) &&
	       !(flags & (REQ_NOMERGE | REQ_PREFLUSH | REQ_FUA));
}

bool blk_rq_merge_ok(const struct request *rq, const struct bio *bio)
{
	return rq->op == bio->op && mergeable(rq->op, rq->flags) &&
	       mergeable(bio->op, bio->flags) &&
	       rq->hctx->poll == !!(bio->flags & REQ_POLLED);
}

/* Whether a request of size bytes and segs segments stays within the
 * queue's limits (ll_back_merge_fn, ll_merge_requests_fn). */
static bool within_limits(const struct blk_queue_config *cfg, uint64_t size,
			  uint32_t segs)
{
	return size <= (uint64_t)cfg->max_sectors * 512 && segs <= cfg->max_segments;
}

/* A request a bio was adjacent to but did not fit is marked REQ_NOMERGE,
 * as the kernel's req_set_nomerge does. */
bool blk_attempt_bio_merge(struct request *rq, struct bio *bio, bool back)
{
	struct blk_queue *q = rq->q;

	if (!within_limits(&q->cfg, (uint64_t)rq->size + bio->size,
			   rq->nr_segs + bio->nr_segs)) {
		rq->flags |= REQ_NOMERGE;
		return false;
	}
	if (back) {
		bio->next = NULL;
		rq->biotail->next = bio;
		rq->biotail = bio;
	} else {
		bio->next = rq->bio;
		rq->bio = bio;
		rq->sector = bio->sector;
	}
	rq->size += bio->size;
	rq->nr_segs += bio->nr_segs;
	/* blk_account_io_merge_bio */
	q->st.merges[bio->op == REQ_OP_WRITE]++;
	return true;
}

/* blk_attempt_plug_merge: bio joins rq, at its end (back merge) or its
 * start (front merge), if both may merge, do the same operation on the
 * same hardware queue (a polled bio goes to a poll queue) and the result
 * stays within max_sectors and max_segments. */
static bool plug_merge(struct request *rq, struct blk_hctx *hc, struct bio *bio)
{
	bool back = rq->sector + rq->size / 512 == bio->sector;

	if (rq->hctx != hc || rq->op != bio->op || !mergeable(rq->op, rq->flags))
		return false;
	if (!back && bio->sector + bio->size / 512 != rq->sector)
		return false;
	return blk_attempt_bio_merge(rq, bio, back);
}

bool blk_attempt_req_merge(struct request *rq, struct request *next)
{
	struct blk_queue *q = rq->q;

	if (rq->sector + rq->size / 512 != next->sector || rq->op != next->op ||
	    !mergeable(rq->op, rq->flags) || !mergeable(next->op, next->flags) ||
	    rq->hctx->poll != next->hctx->poll ||
	    !within_limits(&q->cfg, (uint64_t)rq->size + next->size,
			   rq->nr_segs + next->nr_segs))
		return false;
	rq->biotail->next = next->bio;
	rq->biotail = next->biotail;
	next->bio = next->biotail = NULL;
	rq->size += next->size;
	rq->nr_segs += next->nr_segs;
	/* blk_account_io_merge_request: one merge, as for a bio */
	q->st.merges[rq->op == REQ_OP_WRITE]++;
	return true;
}

/* The plugged request bio may join: the one last added when it is on
 * bio's queue, else the plug's first on that queue. */
static bool attempt_plug_merge(struct xctx *x, struct blk_hctx *hc,
			       struct bio *bio)
{
	struct blk_queue *q = bio->q;
	struct request *rq = plug.tail;

	if (plug.x != x || !rq || q->cfg.nomerges ||
	    !mergeable(bio->op, bio->flags))
		return false;
	if (rq->q != q)
		for (rq = plug.head; rq && rq->q != q; rq = rq->next)
			;
	if (!rq || !plug_merge(rq, hc, bio))
		return false;
	xctx_charge(x, st_bio_merge, q->p->bio_merge);
	return true;
}

/* ---- the I/O scheduler's side of blk-mq (block/blk-mq-sched.c) ---- */

/* A request that never reached the driver (merged into another) goes
 * back to its pool, and a bio waiting for one takes it. */
static void sched_free_requests(struct xctx *x, struct request *list)
{
	while (list) {
		struct request *rq = list;
		struct blk_hctx *hc = rq->hctx;
		list = rq->next;
		rq->next = NULL;
		hc->free_tags[hc->nfree++] = rq->idx;
		if (hc->waiting) {
			struct bio *w = hc->waiting;
			hc->waiting = w->next;
			if (!hc->waiting)
				hc->waiting_tail = NULL;
			sched_insert(x, rq->q, get_request(hc, w));
		}
		wake_tag_waiter(x, hc);
	}
}

/* A flush bypasses the scheduler (blk_insert_flush) onto the dispatch
 * list; the rest go to the scheduler in one call. */
static void sched_insert(struct xctx *x, struct blk_queue *q,
			 struct request *list)
{
	struct request *head = NULL, *tail = NULL, *free = NULL;

	while (list) {
		struct request *rq = list;
		list = rq->next;
		if (rq->op == REQ_OP_FLUSH || (rq->flags & REQ_PREFLUSH))
			rq_list_add_tail(&q->dispatch, &q->dispatch_tail, rq);
		else
			rq_list_add_tail(&head, &tail, rq);
	}
	if (head)
		q->elv->insert_requests(x, q->elv_data, head, &free);
	sched_free_requests(x, free);
}

/* blk_mq_get_driver_tag */
static __attribute__((noinline, cold)) void make_driver_tags(struct blk_hctx *hc)
{
	unsigned first = hc->ndrv_made;
	unsigned n = MIN(RQ_CHUNK, hc->q->cfg.queue_depth - first);

	hc->drv_tags = g_renew(uint32_t, hc->drv_tags, first + RQ_CHUNK);
	hc->tag_rq = g_renew(struct request *, hc->tag_rq, first + RQ_CHUNK);
	for (unsigned i = n; i-- > 0;) {
		hc->tag_rq[first + i] = NULL;
		hc->drv_tags[hc->ndrv_free++] = first + i;
	}
	hc->ndrv_made = first + n;
}

static bool get_driver_tag(struct request *rq)
{
	struct blk_hctx *hc = rq->hctx;

	if (hc->ndrv_free == 0) {
		if (hc->ndrv_made == hc->q->cfg.queue_depth)
			return false;
		make_driver_tags(hc);
	}
	rq->tag = hc->drv_tags[--hc->ndrv_free];
	hc->tag_rq[rq->tag] = rq;
	return true;
}

/*
 * blk_mq_sched_dispatch_requests: the dispatch list first, then the
 * scheduler's requests, each with a driver tag, to the driver in one
 * batch. A request the scheduler handed out when no driver tag was left
 * waits at the head of the dispatch list (__blk_mq_do_dispatch_sched puts
 * it on hctx->dispatch) for the next run.
 */
static void sched_run_queue(struct xctx *x, struct blk_queue *q)
{
	struct request *head = NULL, *tail = NULL;

	for (;;) {
		struct request *rq = q->dispatch;
		if (rq) {
			if (!get_driver_tag(rq))
				break;
			q->dispatch = rq->next;
			if (!q->dispatch)
				q->dispatch_tail = NULL;
		} else {
			if (!q->elv->has_work(q->elv_data))
				break;
			rq = q->elv->dispatch_request(x, q->elv_data);
			if (!rq)
				break;
			if (!get_driver_tag(rq)) {
				rq_list_add_tail(&q->dispatch, &q->dispatch_tail, rq);
				break;
			}
		}
		rq_list_add_tail(&head, &tail, rq);
	}
	if (head)
		dispatch_list(x, head);
}

/* Whether bio merged into a request the scheduler holds. */
static bool sched_bio_merge(struct xctx *x, struct blk_queue *q,
			    struct bio *bio)
{
	struct request *free = NULL;

	if (q->cfg.nomerges || !mergeable(bio->op, bio->flags))
		return false;
	bool merged = q->elv->bio_merge(x, q->elv_data, bio, &free);
	sched_free_requests(x, free);
	return merged;
}

static void queue_one(struct xctx *x, struct bio *bio)
{
	struct blk_queue *q = bio->q;

	/* Without poll queues a polled bio completes by interrupt. */
	if (!q->cfg.nr_poll_queues)
		bio->flags &= ~REQ_POLLED;
	struct blk_hctx *hc = blk_queue_map(q, cpu_id(xctx_cpu(x)),
					    bio->flags & REQ_POLLED);
	/* A bio that merges needs no request, so no tag. */
	if (attempt_plug_merge(x, hc, bio))
		return;
	if (q->elv && sched_bio_merge(x, q, bio)) {
		/* A request the merge freed may have taken a waiting bio. */
		sched_run_queue(x, q);
		return;
	}
	struct request *rq = get_request(hc, bio);

	if (!rq) {
		if (bio->flags & REQ_NOWAIT) {
			bio->status = BLK_STS_AGAIN;
			end_bio(x, bio);
			return;
		}
		bio->next = NULL;
		if (hc->waiting_tail)
			hc->waiting_tail->next = bio;
		else
			hc->waiting = bio;
		hc->waiting_tail = bio;
		return;
	}
	if (plug.x == x) {
		/* blk_add_rq_to_plug: a full plug, or one whose last request
		 * is already large, is flushed before the request joins it. */
		if (plug.count >= q->cfg.plug_max ||
		    (plug.tail && !q->cfg.nomerges &&
		     plug.tail->size >= BLK_PLUG_FLUSH_SIZE))
			flush_plug(x);
		rq_list_add_tail(&plug.head, &plug.tail, rq);
		plug.count++;
		plug.has_elevator |= q->elv != NULL;
		return;
	}
	if (q->elv) {
		sched_insert(x, q, rq);
		sched_run_queue(x, q);
		return;
	}
	dispatch_list(x, rq);
}

void submit_bio(struct xctx *x, struct bio *bio)
{
	struct blk_queue *q = bio->q;
	const struct blk_mq_params *p = q->p;
	uint64_t max_bytes = (uint64_t)q->cfg.max_sectors * 512;

	if (bio->trace)
		io_trace_stamp_last(bio->trace, IOS_QUEUE, xctx_clock(x));
	xctx_charge(x, st_submit_bio, p->submit_bio);
	/* A bio of one page skips the segment split altogether (the
	 * single-segment shortcut in __blk_queue_split / bio_split_to_limits);
	 * any other walks every bvec. */
	if ((bio->op == REQ_OP_READ || bio->op == REQ_OP_WRITE) &&
	    bio->nr_segs > 1)
		xctx_charge(x, st_seg_walk, p->split_check + p->seg_walk * bio->nr_segs);
	/* A discard is bounded by max_discard_sectors, not max_sectors; its
	 * issuer (blkdev_issue_discard) already cut it to that. */
	if (bio->size <= max_bytes || bio->op == REQ_OP_FLUSH ||
	    bio->op == REQ_OP_DISCARD) {
		queue_one(x, bio);
		return;
	}

	/* Larger than the queue takes: split into max-sized children that
	 * end the parent when the last of them ends. */
	uint32_t nchild = (uint32_t)((bio->size + max_bytes - 1) / max_bytes);
	uint32_t segs_left = bio->nr_segs;
	uint64_t sector = bio->sector;
	uint32_t left = bio->size;

	bio->remaining = nchild;
	for (uint32_t i = 0; i < nchild; i++) {
		struct bio *child = bio_get(q);
		uint32_t len = left < max_bytes ? left : (uint32_t)max_bytes;
		uint32_t segs = (uint32_t)((uint64_t)bio->nr_segs * len / bio->size);

		xctx_charge(x, st_bio_split, p->bio_split);
		if (segs == 0)
			segs = 1;
		if (i == nchild - 1)
			segs = segs_left;
		*child = *bio;
		/* bio_submit_split: a piece cut off the front has no chance
		 * to merge; the last is the original bio, which may. */
		if (i < nchild - 1)
			child->flags |= REQ_NOMERGE;
		child->parent = bio;
		child->remaining = 0;
		child->sector = sector;
		child->size = len;
		child->nr_segs = segs;
		sector += len / 512;
		left -= len;
		segs_left -= segs < segs_left ? segs : segs_left;
		queue_one(x, child);
	}
}

/* ---- passthrough requests ---- */

struct request *blk_mq_alloc_request(struct xctx *x, struct blk_queue *q,
				     enum req_op op, uint32_t flags,
				     struct blk_tag_waiter *w)
{
	bool polled = (flags & REQ_POLLED) && q->cfg.nr_poll_queues;
	struct blk_hctx *hc = blk_queue_map(q, cpu_id(xctx_cpu(x)), polled);

	xctx_charge(x, st_alloc_request, q->p->alloc_request);
	if (hc->nfree == 0 && hc->nmade < hc->nrqs)
		make_requests(hc);
	if (hc->nfree == 0) {
		if (w) {
			w->next = NULL;
			if (hc->tag_waiters_tail)
				hc->tag_waiters_tail->next = w;
			else
				hc->tag_waiters = w;
			hc->tag_waiters_tail = w;
		}
		return NULL;
	}
	struct request *rq = hctx_rq(hc, hc->free_tags[--hc->nfree]);
	rq->bio = rq->biotail = NULL;
	rq->op = (uint8_t)op;
	rq->flags = polled ? flags : flags & ~REQ_POLLED;
	rq->sector = 0;
	rq->size = 0;
	rq->nr_segs = 0;
	rq->next = NULL;
	rq->end_io = NULL;
	rq->end_io_data = NULL;
	return rq;
}

void blk_mq_free_request(struct request *rq)
{
	struct blk_hctx *hc = rq->hctx;

	g_assert(!rq->bio);
	hc->free_tags[hc->nfree++] = rq->idx;
}

bool blk_rq_is_poll(const struct request *rq)
{
	return rq->hctx->poll;
}

int blk_rq_map_user(struct xctx *x, struct request *rq, uint32_t len,
		    uint32_t nr_segs, bool bvec, struct io_trace *trace)
{
	struct blk_queue *q = rq->q;

	if (len > (uint64_t)q->cfg.max_sectors * 512 || nr_segs > q->cfg.max_segments ||
	    len % q->cfg.logical_block_size)
		return -22;	/* -EINVAL: bio_map_user_iov's limits */
	struct bio *bio = bio_alloc(x, q, nr_segs, bvec);
	bio_iov_iter_get_pages(x, bio, nr_segs, bvec, bvec);
	bio->op = rq->op;
	bio->flags = rq->flags;
	bio->size = len;
	bio->nr_segs = nr_segs;
	bio->trace = trace;
	rq->bio = rq->biotail = bio;
	rq->size = len;
	rq->nr_segs = nr_segs;
	return 0;
}

void blk_rq_unmap_user(struct xctx *x, struct request *rq)
{
	struct bio *bio = rq->bio;

	if (!bio)
		return;
	xctx_charge(x, st_bio_endio, rq->q->p->bio_endio);
	rq->bio = rq->biotail = NULL;
	bio_free(bio);
}

void blk_execute_rq_nowait(struct xctx *x, struct request *rq)
{
	struct blk_queue *q = rq->q;

	xctx_charge(x, st_execute_rq, q->p->execute_rq);
	if (rq->bio && rq->bio->trace)
		io_trace_stamp_last(rq->bio->trace, IOS_QUEUE, xctx_clock(x));
	if (q->elv) {
		/* blk_mq_insert_request: a passthrough request goes straight
		 * to the dispatch list, past the scheduler. */
		rq_list_add_tail(&q->dispatch, &q->dispatch_tail, rq);
		sched_run_queue(x, q);
		return;
	}
	if (plug.x == x) {
		if (plug.count >= q->cfg.plug_max)
			flush_plug(x);
		rq_list_add_tail(&plug.head, &plug.tail, rq);
		plug.count++;
		return;
	}
	dispatch_list(x, rq);
}

/* ---- polling ---- */

struct blk_hctx *blk_poll_cookie(struct xctx *x, struct blk_queue *q)
{
	if (!q->cfg.nr_poll_queues || !q->drv->poll)
		return NULL;
	return blk_queue_map(q, cpu_id(xctx_cpu(x)), true);
}

unsigned blk_poll(struct xctx *x, struct blk_hctx *hctx)
{
	g_assert(hctx->q->drv->poll);
	return hctx->q->drv->poll(x, hctx);
}

void blk_poll_arm(struct blk_hctx *hctx, struct task *poller)
{
	hctx->q->drv->poll_arm(hctx, poller);
}

/* ---- completion ---- */

static void account_done(struct blk_queue *q, struct request *rq)
{
	if (is_passthrough(rq))
		return;
	sim_time now = sim_now(host_sim(q->h));
	sim_time t = now - rq->start_time;

	/* blkdev_issue_flush sends an empty REQ_OP_WRITE | REQ_PREFLUSH,
	 * which the disk statistics count as a write of no sectors (Linux
	 * 6.18: 64 MiB of buffered writes and one fsync to a loop device
	 * with a write cache, 129 writes in /sys/block/loop0/stat). */
	bool empty_write = rq->op == REQ_OP_FLUSH && (rq->flags & REQ_PREFLUSH);

	if (rq->op == REQ_OP_READ || rq->op == REQ_OP_WRITE || empty_write) {
		unsigned d = rq->op != REQ_OP_READ;
		q->st.ios[d]++;
		q->st.sectors[d] += rq->size / 512;
		q->st.ticks[d] += t;
	} else {
		q->st.other++;
	}
	q->st.in_queue += t;
	if (--q->inflight == 0)
		q->st.busy += now - q->busy_since;
}

/* End rq at the given CPU cost: accounting, tag, each of its bios, then a
 * bio waiting for a tag. */
static void end_request(struct xctx *x, struct request *rq,
			enum blk_status status, sim_time cost)
{
	struct blk_queue *q = rq->q;
	struct blk_hctx *hc = rq->hctx;
	struct bio *bio = rq->bio;

	xctx_charge(x, st_end_request, cost);
	account_done(q, rq);
	if (blk_rq_traced(rq))
		blk_rq_stamp(rq, IOS_END, xctx_clock(x));
	if (rq->end_io) {
		/* __blk_mq_end_request: the driver's end_io, which unmaps
		 * the bio, then the request is freed (RQ_END_IO_FREE). */
		rq->end_io(x, rq, status);
		bio = NULL;
	}
	rq->bio = rq->biotail = NULL;
	if (q->elv) {
		hc->tag_rq[rq->tag] = NULL;
		hc->drv_tags[hc->ndrv_free++] = rq->tag;
	} else {
		hc->free_tags[hc->nfree++] = rq->tag;
	}
	while (bio) {
		/* Its end_io may reuse it: take the next one first. */
		struct bio *next = bio->next;
		if (status && !bio->status)
			bio->status = (uint8_t)status;
		end_bio(x, bio);
		bio = next;
	}

	if (q->elv) {
		/* The sched tag back, then blk_mq_sched_restart: run the
		 * queue for what waited for a driver tag. */
		rq->next = NULL;
		sched_free_requests(x, rq);
		sched_run_queue(x, q);
		return;
	}
	if (hc->waiting) {
		struct bio *w = hc->waiting;
		hc->waiting = w->next;
		if (!hc->waiting)
			hc->waiting_tail = NULL;
		struct request *wrq = get_request(hc, w);
		dispatch_list(x, wrq);
	}
	wake_tag_waiter(x, hc);
}

void blk_mq_complete_request(struct xctx *x, struct request *rq,
			     enum blk_status status)
{
	end_request(x, rq, status, rq->q->p->end_request);
}

void blk_mq_end_request_batched(struct xctx *x, struct request *rq,
				enum blk_status status, sim_time batch_share)
{
	end_request(x, rq, status, rq->q->p->end_request - batch_share);
}

void blk_queue_disk_stats(const struct blk_queue *q, struct blk_disk_stats *st)
{
	*st = q->st;
	if (q->inflight)
		st->busy += sim_now(host_sim(q->h)) - q->busy_since;
}

void blk_queue_reset_stats(struct blk_queue *q)
{
	q->st = (struct blk_disk_stats){0};
	q->busy_since = sim_now(host_sim(q->h));
}
