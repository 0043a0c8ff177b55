/*
 * iomap direct I/O: how XFS and ext4 issue and complete O_DIRECT I/O.
 *
 * Stands for fs/iomap/direct-io.c (__iomap_dio_rw, iomap_dio_bio_iter,
 * iomap_dio_bio_end_io, iomap_dio_complete, iomap_dio_complete_work),
 * with the file system's entry (xfs_file_write_iter ->
 * xfs_file_dio_write_aligned, xfs_file_dio_read) and ->iomap_begin.
 *
 * Issue: look up the extent (allocating blocks for a hole, as unwritten
 * extents), build one bio for the range (bvec copy or no-copy, or user pages
 * pinned one by one), submit it under a plug. A write that may be completed
 * by its issuer is flagged for caller completion (IOCB_DIO_CALLER_COMP,
 * kernel feature dio_caller_comp); the flag is cleared, and the completion
 * falls back to the workqueue, when the completion has more to do than
 * finish the dio: unwritten extents to convert, a write that extends the
 * file, or O_DSYNC without FUA (a cache flush).
 *
 * Completion, in the context the bio ends in (usually hard IRQ):
 *  - a synchronous caller is woken and finishes the dio itself;
 *  - with caller completion, ki_complete is called at once and the
 *    issuer runs iomap_dio_complete later from its own task_work;
 *  - reads, and polled I/O, complete inline (IOMAP_DIO_INLINE_COMP);
 *  - other writes are punted to the file system's per-CPU dio workqueue,
 *    whose kworker runs iomap_dio_complete and then ki_complete.
 *
 * Parameters: the file system's profile (model "fs"); bio costs from
 * blk_mq.
 * Left out: unaligned and multi-extent dios, COW, error paths, the
 * polled-I/O restriction to a single bio.
 */
#include <glib.h>

#include "fs/writeback.h"
#include "fs/fs.h"
#include "fs/iomap_dio.h"
#include "engine/pool.h"
#include "engine/util.h"

struct iomap_dio {
	struct kiocb *iocb;
	struct inode *ino;
	struct work work;	/* the workqueue punt */
	bool write, caller_comp, unwritten, extend, need_flush, polled;
	long res;
};

static struct sim_component dio_comp;
static struct sim_pool dio_pool;
static stage_id st_write_iter, st_read_iter, st_iomap_begin, st_alloc,
	st_dio_alloc, st_end_io, st_complete, st_convert, st_size;

enum { DIO_COMPLETE_WORK };

static void dio_work(struct sim_component *c, unsigned type, void *ptr,
		     uint64_t arg);

static const struct sim_component_ops dio_ops = {
	.name = "iomap_dio",
	.handle = dio_work,
};

static void register_stages(void)
{
	st_write_iter = stage_register("fs_write_iter", CPU_SYS,
				       "xfs_file_write_iter, xfs_file_dio_write_aligned");
	st_read_iter = stage_register("fs_read_iter", CPU_SYS,
				      "xfs_file_read_iter, xfs_file_dio_read");
	st_iomap_begin = stage_register("iomap_begin", CPU_SYS,
					"iomap_iter, xfs_direct_write_iomap_begin");
	st_alloc = stage_register("fs_alloc_blocks", CPU_SYS,
				  "xfs_iomap_write_direct");
	st_dio_alloc = stage_register("iomap_dio_alloc", CPU_SYS,
				      "__iomap_dio_rw: kmalloc, init");
	st_end_io = stage_register("iomap_dio_bio_end_io", CPU_SYS,
				   "iomap_dio_bio_end_io");
	st_complete = stage_register("iomap_dio_complete", CPU_SYS,
				     "iomap_dio_complete, xfs_dio_write_end_io, kfree");
	st_convert = stage_register("fs_unwritten_convert", CPU_SYS,
				    "xfs_iomap_write_unwritten");
	st_size = stage_register("fs_size_update", CPU_SYS,
				 "xfs_dio_write_end_io: i_size update");
	dio_comp.ops = &dio_ops;
	if (!dio_pool.chunks)
		sim_pool_init(&dio_pool, sizeof(struct iomap_dio), 64);
}

static struct iomap_dio *dio_get(void)
{
	struct iomap_dio *d = sim_pool_get(&dio_pool);
	*d = (struct iomap_dio){0};
	return d;
}

/* iomap_dio_complete: the file system's end_io and the dio's release. */
static long complete_dio(struct xctx *x, struct iomap_dio *d)
{
	struct inode *ino = d->ino;
	const struct fs_params *p = fs_params(ino->fs);
	struct kiocb *iocb = d->iocb;
	long res = d->res;

	xctx_charge(x, st_complete, p->dio_complete);
	if (d->unwritten) {
		xctx_charge(x, st_convert, p->unwritten_convert);
		inode_set_range(ino, iocb->pos, iocb->len, BLOCK_WRITTEN);
	}
	if (d->extend) {
		xctx_charge(x, st_size, p->size_update);
		if (iocb->pos + iocb->len > ino->size)
			ino->size = iocb->pos + iocb->len;
	}
	sim_pool_put(&dio_pool, d);
	return res;
}

/* iocb->dio_complete: the issuer finishes the dio in its own context. */
static void deferred_complete(struct xctx *x, struct kiocb *iocb)
{
	iocb->res = complete_dio(x, iocb->private);
}

static void flush_done(struct xctx *x, struct bio *bio)
{
	struct iomap_dio *d = bio->private;
	struct kiocb *iocb = d->iocb;

	if (bio->status)
		d->res = -VFS_EIO;
	bio_free(bio);
	long res = complete_dio(x, d);
	iocb->ki_complete(x, iocb, res);
}

/* iomap_dio_complete_work, in a kworker. O_DSYNC without FUA flushes the
 * device cache first (generic_write_sync). */
static void dio_work(struct sim_component *c, unsigned type, void *ptr,
		     uint64_t arg)
{
	struct iomap_dio *d = ptr;
	struct inode *ino = d->ino;
	struct xctx *x = host_current(blk_queue_host(fs_queue(ino->fs)));

	if (d->need_flush) {
		struct bio *flush = bio_alloc(x, fs_queue(ino->fs), 0, true);
		flush->op = REQ_OP_FLUSH;
		flush->flags = REQ_PREFLUSH | REQ_SYNC;
		flush->end_io = flush_done;
		flush->private = d;
		submit_bio(x, flush);
		return;
	}
	struct kiocb *iocb = d->iocb;
	long res = complete_dio(x, d);
	iocb->ki_complete(x, iocb, res);
}

static void dio_end_io(struct xctx *x, struct bio *bio)
{
	struct iomap_dio *d = bio->private;
	struct kiocb *iocb = d->iocb;

	xctx_charge(x, st_end_io, fs_params(d->ino->fs)->dio_end_io);
	d->res = bio->status == BLK_STS_OK ? (long)iocb->len :
		 bio->status == BLK_STS_AGAIN ? -VFS_EAGAIN : -VFS_EIO;
	bio_free(bio);

	if (iocb->sync_wait || d->caller_comp) {
		iocb->private = d;
		iocb->dio_complete = deferred_complete;
		iocb->ki_complete(x, iocb, 0);
	} else if (!d->write || d->polled) {
		/* Reads, and polled I/O, complete inline (IOMAP_DIO_INLINE_COMP). */
		long res = complete_dio(x, d);
		iocb->dio_complete = NULL;
		iocb->ki_complete(x, iocb, res);
	} else {
		iocb->dio_complete = NULL;
		d->work.fn = SIM_MSG(&dio_comp, DIO_COMPLETE_WORK, d, 0);
		queue_work(x, fs_dio_workqueue(d->ino->fs), &d->work);
	}
}

static long iomap_dio_rw(struct xctx *x, struct kiocb *iocb)
{
	struct inode *ino = iocb->file->priv;
	struct fs *fs = ino->fs;
	const struct fs_params *p = fs_params(fs);
	struct blk_queue *q = fs_queue(fs);
	const struct blk_queue_config *qc = blk_queue_config(q);
	bool hole, unwritten, use_fua = false;
	bool need_sync = iocb->write && (iocb->flags & (KI_DSYNC | KI_SYNC));

	if (umod_fast(iocb->pos, qc->logical_block_size) ||
	    umod_fast(iocb->len, qc->logical_block_size) ||
	    iocb->len == 0)
		return -22; /* -EINVAL: the direct I/O is not aligned */
	if (!iocb->write && iocb->pos >= ino->size)
		return 0;
	xctx_charge(x, iocb->write ? st_write_iter : st_read_iter,
		    iocb->write ? p->write_iter : p->read_iter);
	xctx_charge(x, st_iomap_begin, p->iomap_begin);
	inode_range_state(ino, iocb->pos, iocb->len, &hole, &unwritten);
	if (iocb->write && hole) {
		if (iocb->flags & KI_NOWAIT)
			return -VFS_EAGAIN;	/* allocation would block */
		xctx_charge(x, st_alloc, p->alloc_blocks);
		inode_set_range(ino, iocb->pos, iocb->len, BLOCK_UNWRITTEN);
		unwritten = true;
	}

	struct iomap_dio *d = dio_get();
	xctx_charge(x, st_dio_alloc, p->dio_alloc);
	d->iocb = iocb;
	d->ino = ino;
	d->write = iocb->write;
	if (iocb->write) {
		d->unwritten = unwritten;
		d->extend = iocb->pos + iocb->len > ino->size;
		if (need_sync)
			use_fua = !unwritten && !d->extend && (qc->fua || !qc->write_cache);
		d->need_flush = need_sync && !use_fua && qc->write_cache;
		/* Only a pure overwrite can leave its completion to the
		 * issuer: anything that needs more I/O or a transaction at
		 * completion goes through the workqueue. */
		d->caller_comp = (iocb->flags & KI_DIO_CALLER_COMP) && !unwritten &&
				 !d->extend && !d->need_flush;
	}

	bool nocopy = iocb->bvec && fs_kernel(fs)->bio_nocopy_bvec;
	struct bio *bio = bio_alloc(x, q, iocb->nr_segs, nocopy);
	bio_iov_iter_get_pages(x, bio, iocb->nr_segs, iocb->bvec, nocopy);
	bio->op = iocb->write ? REQ_OP_WRITE : REQ_OP_READ;
	bio->sector = ino->start_sector + iocb->pos / 512;
	bio->size = iocb->len;
	bio->nr_segs = iocb->nr_segs;
	bio->end_io = dio_end_io;
	bio->trace = iocb->trace;
	bio->private = d;
	if (use_fua)
		bio->flags |= REQ_FUA;
	/* Polling is for I/O whose completion needs no more work than
	 * finishing the dio: reads and pure overwrites. */
	iocb->poll_cookie = NULL;
	if ((iocb->flags & KI_HIPRI) &&
	    (!d->write || (!d->unwritten && !d->extend && !d->need_flush))) {
		iocb->poll_cookie = blk_poll_cookie(x, q);
		d->polled = iocb->poll_cookie != NULL;
		if (d->polled)
			bio->flags |= REQ_POLLED;
	}
	if (iocb->flags & KI_NOWAIT)
		bio->flags |= REQ_NOWAIT;
	if (iocb->write)
		bio->flags |= REQ_SYNC;
	blk_start_plug(x);
	submit_bio(x, bio);
	blk_finish_plug(x);
	return -EIOCBQUEUED;
}

static const struct file_ops iomap_dio_fops = {
	.name = "iomap_dio",
	.read_iter = iomap_dio_rw,
	.write_iter = iomap_dio_rw,
	.fsync = fs_fsync,
};

void iomap_dio_open(struct inode *ino, struct sfile *f)
{
	register_stages();
	*f = (struct sfile){
		.ops = &iomap_dio_fops,
		.path = ino->path,
		.size = ino->size,
		.blksize = fs_params(ino->fs)->block_size,
		.nowait = true,
		.priv = ino,
	};
}
