/*
 * Raw block device direct I/O.
 *
 * Stands for block/fops.c (fs/block_dev.c before 5.15): blkdev_direct_IO ->
 * __blkdev_direct_IO (async: one blkdev_dio with its bio from
 * blkdev_dio_pool; bio_iov_iter_get_pages; submit_bio) and
 * blkdev_bio_end_io, which calls ki_complete directly in the completion
 * context.
 *
 * The bio is built one of two ways (kernel feature bio_nocopy_bvec,
 * "no-copy bvec", Linux 5.12): for a bvec iterator (registered buffers) the
 * old code allocates a bio for every page (a biovec slab beyond
 * BIO_INLINE_VECS) and copies the pages one by one with bio_add_page; the
 * new code points the bio at the caller's bvec array (bio_iov_bvec_set).
 * User memory is pinned (pin_user_pages_fast), then goes page by page, as
 * for a file's direct I/O (blk_mq's bio_iov_iter_get_pages).
 *
 * Buffered I/O (direct=0) goes through the device's page cache, as
 * blkdev_read_iter -> filemap_read and blkdev_write_iter ->
 * generic_perform_write do: system.c gives the device a bdev inode on a
 * file system of its own (fs_bdev_inode), whose block size is the one
 * set_init_blocksize() picks: the logical block size doubled while it is
 * below the page size and divides the device's size. Its costs are the
 * page cache's and read_iter_ns, write_iter_ns and map_blocks_ns here.
 * The last close of the device (bd_openers down to 0) writes its dirty
 * pages back and waits for them, then empties its cache
 * (blkdev_flush_mapping): buffered writes that no fsync covered reach the
 * device as the job closes it (Linux 6.18: 16 MiB of 4 KiB writes and no
 * fsync, 32 device writes of 512 KiB on a loop device), and the next job
 * to open it finds nothing cached.
 *
 * Parameters (host profile, model "blkdev"): dio_setup_ns, end_io_ns,
 * fsync_ns, read_iter_ns, write_iter_ns, map_blocks_ns; the bio costs are
 * blk_mq's.
 * Left out: the synchronous single-bio fast path (__blkdev_direct_IO_simple)
 * is timed like the async path; multi-bio dios (larger than
 * BIO_MAX_VECS pages) are built as one bio and split by blk-mq.
 */
#include <glib.h>

#include "blkdev.h"
#include "fs/pagecache.h"
#include "fs/writeback.h"

#define P(field) offsetof(struct blkdev_params, field)
const struct param_def blkdev_param_table[] = {
	{"dio_setup_ns", PARAM_TIME, P(dio_setup), "100", 0, 1e6, "ns",
	 "blkdev_direct_IO: checks, iocb set-up, dio and bio from the bioset"},
	{"end_io_ns", PARAM_TIME, P(end_io), "40", 0, 1e6, "ns",
	 "blkdev_bio_end_io: dio accounting before ki_complete"},
	{"fsync_ns", PARAM_TIME, P(fsync), "200", 0, 1e6, "ns",
	 "blkdev_fsync: file_write_and_wait_range with nothing cached"},
	{"read_iter_ns", PARAM_TIME, P(read_iter), "60", 0, 1e6, "ns",
	 "blkdev_read_iter: size checks before filemap_read (buffered)"},
	{"write_iter_ns", PARAM_TIME, P(write_iter), "150", 0, 1e6, "ns",
	 "blkdev_write_iter, generic_perform_write: checks, timestamps, "
	 "buffer heads of the written folios (buffered)"},
	{"map_blocks_ns", PARAM_TIME, P(map_blocks), "30", 0, 1e6, "ns",
	 "blkdev_get_block / blkdev_iomap_begin: a device maps 1:1 (buffered)"},
	{"discard_ns", PARAM_TIME, P(discard), "400", 0, 1e6, "ns",
	 "blk_ioctl_discard, truncate_bdev_range, blkdev_issue_discard set-up "
	 "(ioctl BLKDISCARD), before the bios"},
	PARAM_END,
};

struct blkdev {
	struct blk_queue *q;
	struct blkdev_params p;
	const struct kernel_features *k;
	struct inode *cache;	/* the bdev inode, once opened buffered */
	unsigned openers;	/* bd_openers */
};

static stage_id st_dio_setup, st_end_io, st_discard;

static void blkdev_end_io(struct xctx *x, struct bio *bio)
{
	struct kiocb *iocb = bio->private;
	struct blkdev *b = iocb->file->priv;
	long res = bio->status == BLK_STS_OK ? (long)iocb->len :
		   bio->status == BLK_STS_AGAIN ? -VFS_EAGAIN : -VFS_EIO;

	xctx_charge(x, st_end_io, b->p.end_io);
	bio_free(bio);
	iocb->dio_complete = NULL;
	iocb->ki_complete(x, iocb, res);
}

static long blkdev_rw(struct xctx *x, struct kiocb *iocb)
{
	struct blkdev *b = iocb->file->priv;
	bool nocopy = iocb->bvec && b->k->bio_nocopy_bvec;
	uint32_t lbs = blk_queue_config(b->q)->logical_block_size;

	if (iocb->pos % lbs || iocb->len % lbs || iocb->len == 0)
		return -22; /* -EINVAL: unaligned direct I/O */
	xctx_charge(x, st_dio_setup, b->p.dio_setup);
	struct bio *bio = bio_alloc(x, b->q, iocb->nr_segs, nocopy);
	bio_iov_iter_get_pages(x, bio, iocb->nr_segs, iocb->bvec, nocopy);
	bio->op = iocb->write ? REQ_OP_WRITE : REQ_OP_READ;
	bio->sector = iocb->pos / 512;
	bio->size = iocb->len;
	bio->nr_segs = iocb->nr_segs;
	bio->end_io = blkdev_end_io;
	bio->trace = iocb->trace;
	bio->private = iocb;
	iocb->poll_cookie = NULL;
	if (iocb->flags & KI_HIPRI) {
		iocb->poll_cookie = blk_poll_cookie(x, b->q);
		if (iocb->poll_cookie)
			bio->flags |= REQ_POLLED;
	}
	if (iocb->flags & KI_NOWAIT)
		bio->flags |= REQ_NOWAIT;
	if (iocb->write && (iocb->flags & KI_DSYNC) &&
	    blk_queue_config(b->q)->write_cache)
		bio->flags |= REQ_FUA;
	submit_bio(x, bio);
	return -EIOCBQUEUED;
}

/* blkdev_fsync: a device opened for direct I/O has no page cache to
 * write back; what remains is the cache flush. */
static void blkdev_fsync(struct xctx *x, struct fsync_op *op)
{
	struct blkdev *b = op->file->priv;

	fsync_flush_only(x, op, b->q, b->p.fsync);
}

static const struct file_ops blkdev_fops = {
	.name = "blkdev",
	.read_iter = blkdev_rw,
	.write_iter = blkdev_rw,
	.fsync = blkdev_fsync,
};

struct blkdev *blkdev_new(struct blk_queue *q, const struct blkdev_params *p,
			  const struct kernel_features *k)
{
	struct blkdev *b = g_new0(struct blkdev, 1);

	st_dio_setup = stage_register("blkdev_direct_IO", CPU_SYS,
				      "blkdev_direct_IO, __blkdev_direct_IO");
	st_end_io = stage_register("blkdev_bio_end_io", CPU_SYS,
				   "blkdev_bio_end_io");
	st_discard = stage_register("blk_ioctl_discard", CPU_SYS,
				    "blk_ioctl_discard, blkdev_issue_discard");
	b->q = q;
	b->p = *p;
	b->k = k;
	return b;
}

void blkdev_free(struct blkdev *b)
{
	g_free(b);
}

static void discard_end_io(struct xctx *x, struct bio *bio)
{
	struct discard_op *op = bio->private;

	if (bio->status && !op->res)
		op->res = bio->status == BLK_STS_AGAIN ? -VFS_EAGAIN : -VFS_EIO;
	bio_free(bio);
	if (--op->bios)
		return;
	if (!op->in_call)
		xctx_wake(x, op->task);
}

void blkdev_discard(struct xctx *x, struct blkdev *b, struct discard_op *op)
{
	const struct blk_queue_config *qc = blk_queue_config(b->q);
	uint32_t lbs = qc->logical_block_size;

	xctx_charge(x, st_discard, b->p.discard);
	op->res = 0;
	op->bios = 0;
	if (!qc->discard)
		op->res = -95;	/* -EOPNOTSUPP */
	else if (op->off % lbs || op->len % lbs || op->off + op->len > qc->capacity)
		op->res = -22;	/* -EINVAL */
	if (op->res || !op->len) {
		task_then(op->task, op->done);
		return;
	}
	/* truncate_bdev_range: the cached copy of the range goes. */
	if (b->cache && b->cache->map)
		mapping_invalidate_range(b->cache->map, op->off, op->len);
	/* blkdev_issue_discard: bios of at most what a bio's size holds,
	 * chained; submit_bio_wait sleeps until the last ends. */
	op->in_call = true;
	blk_start_plug(x);
	for (uint64_t at = op->off; at < op->off + op->len; ) {
		uint32_t len = (uint32_t)MIN(op->off + op->len - at, UINT64_C(1) << 31);
		struct bio *bio = bio_alloc(x, b->q, 0, true);
		bio->op = REQ_OP_DISCARD;
		bio->sector = at / 512;
		bio->size = len;
		bio->end_io = discard_end_io;
		bio->private = op;
		op->bios++;
		at += len;
		submit_bio(x, bio);
	}
	blk_finish_plug(x);
	op->in_call = false;
	if (op->bios)
		task_io_sleep(op->task, op->done);
	else
		task_then(op->task, op->done);
}

void blkdev_set_cache(struct blkdev *b, struct inode *ino)
{
	b->cache = ino;
}

void blkdev_get(struct blkdev *b)
{
	b->openers++;
}

bool blkdev_put(struct xctx *x, struct blkdev *b, struct fsync_op *op)
{
	g_assert(b->openers);
	if (--b->openers || !b->cache || !b->cache->map)
		return false;
	struct mapping *m = b->cache->map;
	if (!m->nr_dirty && !m->nr_writeback) {
		mapping_invalidate(m);
		return false;
	}
	fs_sync_and_drop(x, op, b->cache);
	return true;
}

void blkdev_fs_params(const struct blkdev *b, uint64_t page_size,
		      struct fs_params *out)
{
	const struct blk_queue_config *qc = blk_queue_config(b->q);
	uint32_t bs = qc->logical_block_size;

	while (bs < page_size && !(qc->capacity & bs))
		bs <<= 1;
	*out = (struct fs_params){
		.block_size = bs,
		.read_iter = b->p.read_iter,
		.write_iter = b->p.write_iter,
		.iomap_begin = b->p.map_blocks,
		.bio_per_block = true,
	};
}

void blkdev_open(struct blkdev *b, struct sfile *f, const char *path)
{
	*f = (struct sfile){
		.ops = &blkdev_fops,
		.path = path,
		.size = blk_queue_config(b->q)->capacity,
		.blksize = blk_queue_config(b->q)->logical_block_size,
		.nowait = blk_queue_config(b->q)->nowait,
		.bdev = b,
		.priv = b,
	};
}
