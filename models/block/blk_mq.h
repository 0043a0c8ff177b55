/*
 * The block layer: bios, requests, tags, plugging and blk-mq queues.
 *
 * A file system or the raw block device builds a bio and calls
 * submit_bio() in the submitting context; blk-mq turns it into a request
 * (splitting it first if it is larger than the queue allows), takes a tag
 * on the hardware queue mapped to the submitting CPU, and hands it to the
 * driver, directly or when the plug is flushed. The driver completes the
 * request with blk_mq_complete_request() in whatever context it finds the
 * completion (hard IRQ, soft IRQ, a polling task), which ends the bio and
 * calls the bio's end_io there.
 */
#ifndef STORSIM_BLK_MQ_H
#define STORSIM_BLK_MQ_H

#include <stdbool.h>
#include <stdint.h>

#include "block/mq_deadline.h"
#include "host/host.h"
#include "engine/io_trace.h"
#include "engine/params.h"

struct blk_queue;
struct blk_hctx;
struct request;
struct bio;

enum req_op {
	REQ_OP_READ,
	REQ_OP_WRITE,
	REQ_OP_FLUSH,
	REQ_OP_DISCARD,
	REQ_OP_WRITE_ZEROES,
	/* Passthrough: a driver's own command (blk_mq_alloc_request), its
	 * data from the device (DRV_IN) or to it (DRV_OUT). */
	REQ_OP_DRV_IN,
	REQ_OP_DRV_OUT,
};

#define REQ_FUA		(1u << 0)	/* forced unit access */
#define REQ_PREFLUSH	(1u << 1)	/* flush the cache before the write */
#define REQ_SYNC	(1u << 2)
#define REQ_POLLED	(1u << 3)	/* completion found by polling */
#define REQ_NOWAIT	(1u << 4)	/* fail with -EAGAIN rather than block */
#define REQ_NOMERGE	(1u << 5)	/* never merged into, nor merged */

#define BIO_INLINE_VECS 4	/* bvecs that fit in struct bio itself */

enum blk_status {
	BLK_STS_OK = 0,
	BLK_STS_AGAIN = 1,	/* would block (no tag with REQ_NOWAIT) */
	BLK_STS_IOERR = 2,
};

struct bio {
	struct blk_queue *q;
	uint8_t op;
	uint8_t status;
	uint32_t flags;
	uint64_t sector;	/* 512-byte units */
	uint32_t size;		/* bytes */
	uint32_t nr_segs;	/* bvec segments (pages) */
	void (*end_io)(struct xctx *x, struct bio *bio);
	void *private;
	/* The application I/O it serves, or NULL. blk-mq stamps IOS_QUEUE,
	 * IOS_DISPATCH and IOS_END in it; the driver stamps IOS_ISSUE,
	 * IOS_DEVICE_DONE and IOS_HANDLE (io_trace_stamp_last, through the
	 * request's bio), at xctx_clock() where it works in a step. */
	struct io_trace *trace;
	/* internal */
	struct bio *parent;	/* a split bio's original */
	uint32_t remaining;	/* split children not yet ended */
	struct bio *next;	/* the request's next bio; waiting lists */
};

struct request {
	struct blk_queue *q;
	struct blk_hctx *hctx;
	/* Its bios in sector order, chained by next: the one it was made
	 * for and those merged into it on the plug. */
	struct bio *bio, *biotail;
	uint32_t tag;
	uint32_t idx;		/* in its hctx's pool (with a scheduler, its sched tag) */
	uint8_t op;
	uint32_t flags;
	uint64_t sector;
	uint32_t size;
	uint32_t nr_segs;
	sim_time start_time;	/* dispatch to the driver */
	struct request *next;	/* plug list; lists of requests given to a scheduler */
	void *drv;		/* the driver's per-request data */
	/* The I/O scheduler's (the kernel's rb_node, queuelist and
	 * fifo_time): its sector order and its FIFO of one direction. */
	struct request *sort_prev, *sort_next, *fifo_prev, *fifo_next;
	sim_time fifo_time;	/* when it expires */
	/* A passthrough request: the driver's command opcode (for NVMe, the
	 * I/O command's), and what ends it (rq->end_io, end_io_data) instead
	 * of its bios' end_io. */
	uint8_t cmd_opcode;
	void (*end_io)(struct xctx *x, struct request *rq, enum blk_status st);
	void *end_io_data;
};

/* A task waiting for a tag (sbitmap's wait queue): fn runs in the context
 * that frees one, which then belongs to whoever allocates first. */
struct blk_tag_waiter {
	void (*fn)(struct xctx *x, struct blk_tag_waiter *w);
	struct blk_tag_waiter *next;
};

/* What a block driver provides (struct blk_mq_ops). */
struct blk_driver_ops {
	const char *name;
	/* Take rq, in the submitting context. last says whether more
	 * requests follow in this batch (bd->last). Required. */
	void (*queue_rq)(struct xctx *x, struct blk_hctx *hctx,
			 struct request *rq, bool last);
	/* Look for completions on a polled queue, in the polling task's
	 * context; returns how many it completed. Not required. */
	unsigned (*poll)(struct xctx *x, struct blk_hctx *hctx);
	/* Wake poller when a completion can be found on hctx (at once if
	 * one is there already). Required with poll. */
	void (*poll_arm)(struct blk_hctx *hctx, struct task *poller);
};

struct blk_queue_config {
	const char *name;		/* e.g. "nvme0n1" */
	unsigned nr_hw_queues;		/* default queues, mapped round the CPUs */
	unsigned nr_poll_queues;	/* polled queues (HCTX_TYPE_POLL) */
	unsigned queue_depth;		/* tags per hardware queue */
	uint32_t logical_block_size;	/* bytes */
	uint32_t max_sectors;		/* largest request, 512-byte units */
	uint32_t max_segments;
	uint64_t capacity;		/* bytes */
	bool write_cache;		/* volatile write cache (flushes matter) */
	bool fua;			/* device honours FUA */
	bool nowait;			/* REQ_NOWAIT supported */
	bool discard;			/* takes REQ_OP_DISCARD (NVMe DSM) */
	/* Requests a plug holds before the next one flushes it
	 * (BLK_MAX_REQUEST_COUNT of the kernel modelled: 16, 32 from 5.16). */
	unsigned plug_max;
	bool nomerges;			/* queue/nomerges=2: no merging at all */
	/* queue/scheduler: "none", "mq-deadline"; NULL takes
	 * blk_mq.scheduler. */
	const char *scheduler;
	/* queue/nr_requests with a scheduler; 0 gives the kernel's
	 * 2 * min(queue_depth, 128). */
	unsigned nr_requests;
};

/*
 * An I/O scheduler (struct elevator_mq_ops): blk-mq hands it the queue's
 * requests instead of the driver, and takes them back one at a time when
 * a driver tag is free. Each op charges its own CPU cost. The queue's
 * generic merging (blk_rq_merge_ok, blk_attempt_bio_merge,
 * blk_attempt_req_merge below) is for the scheduler to call.
 */
struct elevator_ops {
	const char *name;		/* as queue/scheduler lists it */
	void *(*init_sched)(struct blk_queue *q);
	void (*exit_sched)(void *ed);
	/* Merge bio into a queued request (blk_mq_sched_bio_merge). A
	 * request the merge made redundant is put in *free. */
	bool (*bio_merge)(struct xctx *x, void *ed, struct bio *bio,
			  struct request **free);
	/* Take the list (chained by next); requests merged into others go
	 * to *free, chained by next. */
	void (*insert_requests)(struct xctx *x, void *ed, struct request *list,
				struct request **free);
	struct request *(*dispatch_request)(struct xctx *x, void *ed);
	bool (*has_work)(const void *ed);
};

/* Per-stage CPU costs (host profile, model "blk_mq"). */
struct blk_mq_params {
	sim_time bio_alloc;		/* bio_alloc_bioset from the per-cpu cache */
	sim_time bvec_alloc;		/* biovec slab for more than BIO_INLINE_VECS */
	sim_time bio_add_page;		/* per page: bio_add_page + iov_iter_advance */
	sim_time bvec_set;		/* bio_iov_bvec_set: reuse the caller's bvec */
	sim_time pin_page;		/* per page of user memory: pin_user_pages_fast */
	sim_time split_check;		/* entering the segment split of a multi-page bio */
	sim_time seg_walk;		/* per segment: the split's bvec walk */
	sim_time submit_bio;		/* submit_bio_noacct + blk_mq_submit_bio */
	sim_time bio_split;		/* per split */
	sim_time plug_flush;		/* blk_finish_plug: one flush of the plug list */
	sim_time end_request;		/* blk_mq_end_request: accounting, tag free */
	sim_time bio_endio;		/* bio_endio + bio_put */
	sim_time bio_merge;		/* a bio merged into a plugged request */
	sim_time alloc_request;		/* blk_mq_alloc_request: tag, request init */
	sim_time execute_rq;		/* blk_execute_rq_nowait: to the plug or driver */
	uint32_t nomerges;		/* every queue's queue/nomerges */
	int scheduler;			/* every queue's queue/scheduler */
	/* Not rows of blk_mq_param_table: the model "mq_deadline". */
	struct mq_deadline_params mq_deadline;
};

extern const struct param_def blk_mq_param_table[];

struct blk_queue *blk_queue_new(struct host *h, const struct blk_mq_params *p,
				const struct blk_queue_config *cfg,
				const struct blk_driver_ops *drv, void *drv_data);
void blk_queue_free(struct blk_queue *q);
const struct blk_queue_config *blk_queue_config(const struct blk_queue *q);
const struct blk_mq_params *blk_queue_params(const struct blk_queue *q);
struct host *blk_queue_host(const struct blk_queue *q);
unsigned blk_queue_nr_hctx(const struct blk_queue *q);
struct blk_hctx *blk_queue_hctx(struct blk_queue *q, unsigned i);
void *blk_hctx_driver_data(const struct blk_hctx *hctx);
void blk_hctx_set_driver_data(struct blk_hctx *hctx, void *data);
unsigned blk_hctx_index(const struct blk_hctx *hctx);
bool blk_hctx_is_poll(const struct blk_hctx *hctx);
struct request *blk_hctx_request(struct blk_hctx *hctx, uint32_t tag);
/* The hardware queue a submitter on cpu uses (polled or not). */
struct blk_hctx *blk_queue_map(struct blk_queue *q, unsigned cpu, bool polled);

/* Bios. bio_alloc charges the allocation (and a biovec for more than
 * BIO_INLINE_VECS segments unless the bvec array is borrowed). */
struct bio *bio_alloc(struct xctx *x, struct blk_queue *q, unsigned nr_vecs,
		      bool borrow_bvec);
void bio_free(struct bio *bio);
/*
 * bio_iov_iter_get_pages: give bio the caller's nr_segs pages. User memory
 * is pinned (pin_user_pages_fast), then added page by page; a bvec
 * iterator (registered buffers) is already pinned, and is added page by
 * page too unless borrow is set: the no-copy bvec path (Linux 5.12) points
 * the bio at the caller's array instead.
 */
void bio_iov_iter_get_pages(struct xctx *x, struct bio *bio, unsigned nr_segs,
			    bool bvec, bool borrow);

/* Plugging: requests submitted between start and finish are dispatched
 * together, so the driver sees one batch (one doorbell). Plugs nest: only
 * the outermost finish flushes. */
void blk_start_plug(struct xctx *x);
void blk_finish_plug(struct xctx *x);

void submit_bio(struct xctx *x, struct bio *bio);

/* Polled completion (REQ_POLLED): find completions on the hardware queue
 * a polled bio went to, in the polling task's context; arm a wake-up for
 * when one arrives. */
/* The hardware queue a polled bio submitted from x's CPU goes to, or NULL
 * when the queue has no poll queues (the bio then completes by interrupt). */
struct blk_hctx *blk_poll_cookie(struct xctx *x, struct blk_queue *q);
unsigned blk_poll(struct xctx *x, struct blk_hctx *hctx);
void blk_poll_arm(struct blk_hctx *hctx, struct task *poller);

/*
 * Passthrough requests (block/blk-mq.c blk_mq_alloc_request,
 * blk_execute_rq_nowait; block/blk-map.c blk_rq_map_user_io,
 * blk_rq_map_user_bvec, blk_rq_unmap_user): a driver's command built
 * without a bio from above, as NVMe passthrough does. No submit_bio, no
 * split, no merge; a scheduler is bypassed (the dispatch list), and the
 * disk statistics do not count them (blk_do_io_stat, Linux 6.10).
 *
 * blk_mq_alloc_request takes a tag on the hardware queue the submitting
 * CPU maps to (its poll queue with REQ_POLLED, when the queue has some).
 * Without a free tag it returns NULL, having queued w, when given, to be
 * called once a tag is freed (a blocking allocation); with REQ_NOWAIT the
 * caller passes no waiter and fails with -EAGAIN.
 */
struct request *blk_mq_alloc_request(struct xctx *x, struct blk_queue *q,
				     enum req_op op, uint32_t flags,
				     struct blk_tag_waiter *w);
void blk_mq_free_request(struct request *rq);
/* Whether rq went to a poll queue (blk_rq_is_poll). */
bool blk_rq_is_poll(const struct request *rq);
/* Give rq the user buffer of len bytes in nr_segs pages as one bio: a
 * registered buffer's bvec array is borrowed (bio_iov_bvec_set), user
 * memory is pinned and added page by page. -EINVAL when it exceeds the
 * queue's limits, else 0. */
int blk_rq_map_user(struct xctx *x, struct request *rq, uint32_t len,
		    uint32_t nr_segs, bool bvec, struct io_trace *trace);
/* Release the mapped bio (blk_rq_unmap_user), from rq->end_io. */
void blk_rq_unmap_user(struct xctx *x, struct request *rq);
/* Send rq to the driver: on the caller's plug if it has one, else now. */
void blk_execute_rq_nowait(struct xctx *x, struct request *rq);

/* For a scheduler: the merging of block/blk-merge.c. */
/* elv_bio_merge_ok: both may merge, the same operation, the same kind of
 * hardware queue (polled or not). */
bool blk_rq_merge_ok(const struct request *rq, const struct bio *bio);
/* bio joins rq at its end (back) or start, within the queue's limits
 * (else rq is marked REQ_NOMERGE); counts the merge. */
bool blk_attempt_bio_merge(struct request *rq, struct bio *bio, bool back);
/* attempt_merge: next, which starts where rq ends, joins rq within the
 * limits; counts the merge. The caller frees next. */
bool blk_attempt_req_merge(struct request *rq, struct request *next);

/* Driver side */
/* Stamp s at time at in the trace of each of rq's bios: the I/Os merged
 * into a request cross the driver's points with it. */
static inline void blk_rq_stamp(const struct request *rq, enum io_stamp s,
				sim_time at)
{
	for (const struct bio *b = rq->bio; b; b = b->next)
		io_trace_stamp_last(b->trace, s, at);
}

/* The same, taken on CPU cpu (the completion handler's). */
static inline void blk_rq_stamp_cpu(const struct request *rq, enum io_stamp s,
				    sim_time at, unsigned cpu)
{
	for (const struct bio *b = rq->bio; b; b = b->next)
		io_trace_stamp_last_cpu(b->trace, s, at, cpu);
}

/* Whether any of rq's bios carries stamps: read the clock only then. */
static inline bool blk_rq_traced(const struct request *rq)
{
	for (const struct bio *b = rq->bio; b; b = b->next)
		if (b->trace)
			return true;
	return false;
}

void blk_mq_complete_request(struct xctx *x, struct request *rq,
			     enum blk_status status);
/*
 * One request of a batch a driver ends together (blk_mq_end_request_batch,
 * Linux 5.16): like blk_mq_complete_request, but batch_share of
 * end_request_ns (the clock read, the tag and queue reference release) is
 * paid once per batch by the driver instead of by each request.
 */
void blk_mq_end_request_batched(struct xctx *x, struct request *rq,
				enum blk_status status, sim_time batch_share);

/* Disk statistics, as /proc/diskstats (fio's disk_util). */
struct blk_disk_stats {
	uint64_t ios[2];		/* read, write */
	uint64_t merges[2];		/* bios merged into a request */
	uint64_t other;			/* discards, flushes, write-zeroes */
	uint64_t sectors[2];
	sim_time ticks[2];		/* sum of request times */
	sim_time in_queue;		/* sum of request times, all ops */
	sim_time busy;			/* time with at least one request out */
};

void blk_queue_disk_stats(const struct blk_queue *q, struct blk_disk_stats *st);
void blk_queue_reset_stats(struct blk_queue *q);

#endif
