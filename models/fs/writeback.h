/*
 * Writeback of the page cache's dirty folios: fsync, the flusher thread,
 * and the throttling of writers that dirty too much.
 */
#ifndef STORSIM_WRITEBACK_H
#define STORSIM_WRITEBACK_H

#include "fs/fs.h"
#include "fs/pagecache.h"

struct writeback;

/* The writeback state of a page cache (attached to it). */
struct writeback *writeback_new(struct host *h, struct pagecache *pc);
void writeback_free(struct writeback *wb);

/* fsync/fdatasync of a file of a struct fs: write back its dirty folios,
 * wait for all its writeback, then flush the device's volatile cache
 * (struct file_ops.fsync). */
void fs_fsync(struct xctx *x, struct fsync_op *op);
/* The fsync of a file with nothing in the page cache to write (a block
 * device opened O_DIRECT): charge entry, then flush q's volatile cache if
 * it has one. */
/* sync_blockdev and kill_bdev, at a block device's last close, in
 * op->task's current step, which it ends: write back ino's dirty folios
 * and wait for them as fsync does, without the cache flush, then drop
 * every cached folio; op->done follows. */
void fs_sync_and_drop(struct xctx *x, struct fsync_op *op, struct inode *ino);
void fsync_flush_only(struct xctx *x, struct fsync_op *op, struct blk_queue *q,
		      sim_time entry);

/* balance_dirty_pages, after a write dirtied folios of a file: starts the
 * flusher above the background threshold and arms the periodic flush.
 * Returns true when the writer must wait (dirty and writeback folios above
 * dirty_ratio): w->fn then runs, in the completing context, once it may go
 * on. */
bool balance_dirty_pages(struct xctx *x, struct writeback *wb,
			 struct folio_waiter *w);
/* Whether a writer would have to wait now (IOCB_NOWAIT writers return
 * -EAGAIN instead). */
bool dirty_limit_exceeded(const struct writeback *wb);

#endif
