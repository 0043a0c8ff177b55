/*
 * Writeback: dirty page-cache folios to the device.
 *
 * Stands for fs/iomap/buffered-io.c (iomap_writepages,
 * iomap_writepage_map, iomap_add_to_ioend: a bio grows while the blocks
 * it writes are contiguous on disk, across folios), fs/fs-writeback.c (the
 * flusher: wb_workfn's periodic "kupdate" writeback of inodes dirtied more
 * than dirty_expire ago, every dirty_writeback, and background writeback
 * while more than dirty_background_ratio of memory is dirty, oldest inode
 * first), mm/page-writeback.c (balance_dirty_pages: a writer that finds
 * dirty plus writeback pages above dirty_ratio waits; with IOCB_NOWAIT it
 * gets -EAGAIN), fs/sync.c with xfs_file_fsync/ext4_sync_file
 * (file_write_and_wait_range, then blkdev_issue_flush when the device has
 * a volatile write cache), and block/bdev.c's blkdev_flush_mapping at a
 * block device's last close (sync_blockdev: the same writeback and wait,
 * no flush; kill_bdev: the cache is dropped).
 *
 * What writeback writes of a folio is its dirty blocks: all of the folio's
 * uptodate blocks when dirty state is kept per folio (before Linux 6.6),
 * only the written ones with per-block dirty state (buffered.c decides
 * which by what it marks dirty).
 *
 * Parameters (host profile, model "pagecache"): wb_folio_ns, wb_block_ns,
 * wb_end_ns, fsync_ns and the writeback sysctls dirty_background_ratio,
 * dirty_ratio, dirty_writeback_ns, dirty_expire_ns; the bio costs of
 * blk_mq. The thresholds are fractions of cache_mb, the kernel's of
 * dirtyable memory.
 *
 * Left out: the flusher's per-inode chunks (MAX_WRITEBACK_PAGES) and
 * round robin between inodes (it writes an inode's dirty folios at once),
 * the pause-time control loop of balance_dirty_pages (a writer waits until
 * the total is under dirty_ratio again), per-device bandwidth estimates,
 * writeback of metadata and journals, sync_file_range.
 */
#include <glib.h>

#include "fs/writeback.h"
#include "engine/pool.h"

#define WB_BIO_MAX (1024 * 1024)	/* bytes per writeback bio */

struct writeback {
	struct sim_component comp;
	struct host *h;
	struct pagecache *pc;
	const struct pagecache_params *p;
	struct task *flusher;
	bool flusher_starting;	/* made, its start deferred: it will pass */
	bool timer_armed;
	struct folio_waiter *throttled;	/* writers over dirty_ratio */
	struct sim_pool ios;		/* struct wb_io */
};

/* The folios a writeback bio covers: [first, first + n) of m. */
struct wb_io {
	struct writeback *wb;
	struct mapping *m;
	uint64_t first;
	unsigned n;
};

enum { WB_START, WB_TIMER, WB_FLUSH, FSYNC_WB_DONE, FSYNC_FLUSH_DONE };

static stage_id st_wb_folio, st_wb_block, st_wb_end, st_fsync, st_bio, st_flush,
	st_flusher;

static void register_stages(void)
{
	st_wb_folio = stage_register("iomap_writepage_map", CPU_SYS,
				     "write_cache_pages, iomap_writepage_map");
	st_wb_block = stage_register("iomap_add_to_ioend", CPU_SYS,
				     "iomap_add_to_ioend");
	st_wb_end = stage_register("writeback_end", CPU_SYS,
				   "iomap_finish_ioend, folio_end_writeback");
	st_fsync = stage_register("fsync", CPU_SYS,
				  "xfs_file_fsync, file_write_and_wait_range");
	st_bio = stage_register("submit_bio_prep", CPU_SYS, "bio_alloc, bio_add_folio");
	st_flush = stage_register("blkdev_issue_flush", CPU_SYS, "blkdev_issue_flush");
	st_flusher = stage_register("wb_workfn", CPU_SYS,
				    "wb_workfn, wb_writeback, writeback_sb_inodes");
}

static uint64_t dirty_thresh(const struct writeback *wb, uint32_t ratio)
{
	return pagecache_nr_limit(wb->pc) * ratio / 100;
}

/* domain_dirty_limits: a background threshold at or above the dirty
 * limit is halved to it. */
static uint64_t background_thresh(const struct writeback *wb)
{
	uint64_t bg = dirty_thresh(wb, wb->p->dirty_background_ratio);
	uint64_t limit = dirty_thresh(wb, wb->p->dirty_ratio);
	return bg >= limit ? limit / 2 : bg;
}

bool dirty_limit_exceeded(const struct writeback *wb)
{
	return pagecache_nr_dirty(wb->pc) + pagecache_nr_writeback(wb->pc) >
	       dirty_thresh(wb, wb->p->dirty_ratio);
}

/* ---- the writeback bios ---- */

static void fsync_wake(struct xctx *x, struct mapping *m);

static void wb_end_io(struct xctx *x, struct bio *bio)
{
	struct wb_io *w = bio->private;
	struct writeback *wb = w->wb;
	struct mapping *m = w->m;

	if (bio->status)
		m->wb_err = -VFS_EIO;
	for (unsigned i = 0; i < w->n; i++)
		if (folio_end_writeback(mapping_folio(m, w->first + i)))
			xctx_charge(x, st_wb_end, wb->p->wb_end);
	bio_free(bio);
	sim_pool_put(&wb->ios, w);
	if (m->nr_writeback == 0)
		fsync_wake(x, m);
	/* Writers over the limit go on once writeback brings it under. */
	if (wb->throttled && !dirty_limit_exceeded(wb)) {
		struct folio_waiter *t = wb->throttled;
		wb->throttled = NULL;
		while (t) {
			struct folio_waiter *next = t->next;
			t->fn(x, t);
			t = next;
		}
	}
}

static void submit_wb_bio(struct xctx *x, struct bio *bio)
{
	if (bio)
		submit_bio(x, bio);
}

/* Write back every dirty folio of ino: its dirty blocks, in bios that
 * grow while the blocks are contiguous, or a bio per block with buffer
 * heads (the plug merges those). */
static void writeback_inode(struct xctx *x, struct writeback *wb,
			    struct inode *ino)
{
	struct mapping *m = ino->map;
	struct blk_queue *q = fs_queue(ino->fs);
	struct bio *bio = NULL;
	struct wb_io *w = NULL;
	uint64_t bio_end = 0;
	bool per_block = fs_params(ino->fs)->bio_per_block;

	blk_start_plug(x);
	for (struct folio *f = mapping_take_dirty(m), *next; f; f = next) {
		next = f->dirty_next;
		f->dirty_next = NULL;
		xctx_charge(x, st_wb_folio, wb->p->wb_folio);
		uint64_t blocks = folio_start_writeback(f);
		xctx_charge(x, st_wb_block,
			    wb->p->wb_block * (sim_time)__builtin_popcountll(blocks));
		while (blocks) {
			unsigned b0 = (unsigned)__builtin_ctzll(blocks), b1 = b0;
			while (!per_block && b1 + 1 < m->blocks_per_folio &&
			       (blocks >> (b1 + 1)) & 1)
				b1++;
			unsigned run = b1 - b0 + 1;
			blocks &= ~((run == 64 ? UINT64_MAX :
				     (UINT64_C(1) << run) - 1) << b0);
			uint64_t off = f->index * m->folio_size +
				       (uint64_t)b0 * m->block_size;
			uint64_t sector = ino->start_sector + off / 512;
			uint32_t len = run * m->block_size;
			if (bio && !per_block && sector == bio_end &&
			    bio->size + len <= WB_BIO_MAX &&
			    f->index <= w->first + w->n) {
				bio->size += len;
			} else {
				submit_wb_bio(x, bio);
				w = sim_pool_get(&wb->ios);
				*w = (struct wb_io){.wb = wb, .m = m, .first = f->index};
				bio = bio_alloc(x, q, 1, false);
				bio->op = REQ_OP_WRITE;
				bio->sector = sector;
				bio->size = len;
				bio->end_io = wb_end_io;
				bio->private = w;
			}
			xctx_charge(x, st_bio, blk_queue_params(q)->bio_add_page);
			bio->nr_segs = (bio->size + 4095) / 4096;
			bio_end = sector + len / 512;
			if (f->index == w->first + w->n) {
				w->n++;
				f->wb_bios++;
			}
		}
		if (!f->wb_bios)
			folio_end_writeback(f);	/* nothing to write after all */
	}
	submit_wb_bio(x, bio);
	blk_finish_plug(x);
}

/* ---- the flusher ---- */

static void arm_timer(struct writeback *wb)
{
	if (wb->timer_armed)
		return;
	wb->timer_armed = true;
	sim_after(host_sim(wb->h), wb->p->dirty_writeback, &wb->comp, WB_TIMER,
		  NULL, 0);
}

/* One pass of wb_workfn: background writeback while over the background
 * threshold, then every inode dirty for longer than dirty_expire. */
static void flusher_pass(struct xctx *x, struct writeback *wb)
{
	sim_time now = sim_now(host_sim(wb->h));
	uint64_t bg = background_thresh(wb);
	struct mapping *m;

	xctx_charge(x, st_flusher, wb->p->wb_folio);
	while ((m = pagecache_oldest_dirty(wb->pc))) {
		bool expired = now - m->dirtied_when >= wb->p->dirty_expire;
		if (!expired && pagecache_nr_dirty(wb->pc) <= bg)
			break;
		writeback_inode(x, wb, m->host);
	}
	if (pagecache_oldest_dirty(wb->pc))
		arm_timer(wb);
	task_sleep(wb->flusher, SIM_MSG(&wb->comp, WB_FLUSH, NULL, 0));
}

static void kick_flusher(struct xctx *x, struct writeback *wb)
{
	if (!wb->flusher) {
		wb->flusher = task_new(wb->h, "flush", TASK_KTHREAD, 0, NULL);
		/* Started as a side effect of the code that needs it. */
		wb->flusher_starting = true;
		xctx_defer(x, SIM_MSG(&wb->comp, WB_START, NULL, 0));
		return;
	}
	/* A kick before the start is answered by the pass the start runs. */
	if (!wb->flusher_starting)
		xctx_wake(x, wb->flusher);
}

bool balance_dirty_pages(struct xctx *x, struct writeback *wb,
			 struct folio_waiter *w)
{
	arm_timer(wb);
	if (pagecache_nr_dirty(wb->pc) > background_thresh(wb))
		kick_flusher(x, wb);
	if (!dirty_limit_exceeded(wb))
		return false;
	w->next = wb->throttled;
	wb->throttled = w;
	return true;
}

/* ---- fsync ---- */

static void fsync_step_done(struct fsync_op *op)
{
	task_then(op->task, op->done);
}

static void flush_end_io(struct xctx *x, struct bio *bio)
{
	struct fsync_op *op = bio->private;

	if (bio->status && !op->res)
		op->res = -VFS_EIO;
	bio_free(bio);
	if (xctx_task(x) == op->task && op->in_call)
		op->finished_inline = true;
	else
		xctx_wake(x, op->task);
}

/* blkdev_issue_flush: send a cache flush and sleep until it is done. */
static void fsync_flush(struct xctx *x, struct fsync_op *op)
{
	struct bio *bio = bio_alloc(x, op->q, 0, true);

	xctx_charge(x, st_flush, blk_queue_params(op->q)->submit_bio);
	bio->op = REQ_OP_FLUSH;
	bio->flags = REQ_PREFLUSH | REQ_SYNC;
	bio->end_io = flush_end_io;
	bio->private = op;
	op->finished_inline = false;
	op->in_call = true;
	submit_bio(x, bio);
	op->in_call = false;
	if (op->finished_inline)
		fsync_step_done(op);
	else
		task_io_sleep(op->task, SIM_MSG(&op->comp, FSYNC_FLUSH_DONE, op, 0));
}

static void fsync_after_writeback(struct xctx *x, struct fsync_op *op)
{
	if (op->drop) {
		/* kill_bdev: written back, every folio is clean. */
		mapping_invalidate(op->drop->map);
		fsync_step_done(op);
	} else if (blk_queue_config(op->q)->write_cache) {
		fsync_flush(x, op);
	} else {
		fsync_step_done(op);
	}
}

/* The file's writeback is done: the fsyncs waiting for it go on, with
 * the error it met, if any (filemap_check_errors). */
static void fsync_wake(struct xctx *x, struct mapping *m)
{
	struct fsync_op *op = m->wb_waiters;

	m->wb_waiters = NULL;
	while (op) {
		struct fsync_op *next = op->next;
		if (m->wb_err && !op->res)
			op->res = m->wb_err;
		xctx_wake(x, op->task);
		op = next;
	}
	m->wb_err = 0;
}

static void writeback_handle(struct sim_component *c, unsigned type, void *ptr,
			     uint64_t arg)
{
	struct writeback *wb = (struct writeback *)c;

	switch (type) {
	case WB_START:
		wb->flusher_starting = false;
		task_start(wb->flusher, SIM_MSG(&wb->comp, WB_FLUSH, NULL, 0));
		break;
	case WB_TIMER:
		wb->timer_armed = false;
		if (!wb->flusher) {
			wb->flusher = task_new(wb->h, "flush", TASK_KTHREAD, 0, NULL);
			task_start(wb->flusher, SIM_MSG(&wb->comp, WB_FLUSH, NULL, 0));
		} else if (!wb->flusher_starting) {
			task_wake(wb->flusher);
		}
		break;
	case WB_FLUSH:
		flusher_pass(task_xctx(wb->flusher), wb);
		break;
	}
}

static void fsync_handle(struct sim_component *c, unsigned type, void *ptr,
			 uint64_t arg)
{
	struct fsync_op *op = ptr;
	struct xctx *x = task_xctx(op->task);

	if (type == FSYNC_WB_DONE)
		fsync_after_writeback(x, op);
	else
		fsync_step_done(op);
}

static const struct sim_component_ops writeback_ops = {
	.name = "writeback",
	.handle = writeback_handle,
};

static const struct sim_component_ops fsync_ops = {
	.name = "fsync",
	.handle = fsync_handle,
};

static void fsync_begin(struct xctx *x, struct fsync_op *op,
			struct blk_queue *q, sim_time entry)
{
	register_stages();
	sim_component_init(host_sim(blk_queue_host(q)), &op->comp, &fsync_ops,
			   "fsync");
	xctx_charge(x, st_fsync, entry);
	op->q = q;
	op->res = 0;
	op->finished_inline = false;
}

void fsync_flush_only(struct xctx *x, struct fsync_op *op, struct blk_queue *q,
		      sim_time entry)
{
	fsync_begin(x, op, q, entry);
	fsync_after_writeback(x, op);
}

/* file_write_and_wait_range for the whole of ino, then
 * fsync_after_writeback. */
static void write_and_wait(struct xctx *x, struct fsync_op *op,
			   struct inode *ino)
{
	struct pagecache *pc = fs_pagecache(ino->fs);
	struct mapping *m = ino->map;

	fsync_begin(x, op, fs_queue(ino->fs), pagecache_params(pc)->fsync);
	if (m && m->nr_dirty)
		writeback_inode(x, pagecache_writeback(pc), ino);
	if (m && m->nr_writeback) {
		/* Wait for this writeback and any the flusher started. */
		op->next = m->wb_waiters;
		m->wb_waiters = op;
		task_io_sleep(op->task, SIM_MSG(&op->comp, FSYNC_WB_DONE, op, 0));
		return;
	}
	if (m && m->wb_err && !op->res) {
		op->res = m->wb_err;
		m->wb_err = 0;
	}
	fsync_after_writeback(x, op);
}

void fs_fsync(struct xctx *x, struct fsync_op *op)
{
	write_and_wait(x, op, op->file->priv);
}

void fs_sync_and_drop(struct xctx *x, struct fsync_op *op, struct inode *ino)
{
	op->drop = ino;
	write_and_wait(x, op, ino);
}

struct writeback *writeback_new(struct host *h, struct pagecache *pc)
{
	struct writeback *wb = g_new0(struct writeback, 1);

	register_stages();
	wb->h = h;
	wb->pc = pc;
	wb->p = pagecache_params(pc);
	sim_pool_init(&wb->ios, sizeof(struct wb_io), 64);
	sim_component_init(host_sim(h), &wb->comp, &writeback_ops, "writeback");
	pagecache_set_writeback(pc, wb);
	return wb;
}

void writeback_free(struct writeback *wb)
{
	if (!wb)
		return;
	sim_pool_destroy(&wb->ios);
	g_free(wb);
}
