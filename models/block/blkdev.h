/*
 * A raw block device file (/dev/nvme0n1, /dev/nullb0): direct I/O here,
 * buffered I/O through the device's own page cache (fs/buffered.c on its
 * bdev inode).
 */
#ifndef STORSIM_BLKDEV_H
#define STORSIM_BLKDEV_H

#include "block/blk_mq.h"
#include "fs/fs.h"
#include "fs/vfs.h"
#include "kernel.h"

/* CPU costs (host profile, model "blkdev"). */
struct blkdev_params {
	sim_time dio_setup;	/* blkdev_direct_IO: checks, dio from its bioset */
	sim_time end_io;	/* blkdev_bio_end_io: dio completion */
	sim_time fsync;		/* blkdev_fsync before the cache flush */
	/* buffered I/O through the device's own page cache */
	sim_time read_iter;	/* blkdev_read_iter before filemap_read */
	sim_time write_iter;	/* blkdev_write_iter around the folio copies */
	sim_time map_blocks;	/* blkdev_get_block / iomap_begin: 1:1 */
	sim_time discard;	/* ioctl(BLKDISCARD) before its bios */
};

extern const struct param_def blkdev_param_table[];

struct blkdev;

struct blkdev *blkdev_new(struct blk_queue *q, const struct blkdev_params *p,
			  const struct kernel_features *k);
void blkdev_free(struct blkdev *b);
/* An ioctl(BLKDISCARD) in progress, embedded in its caller. */
struct discard_op {
	uint64_t off, len;	/* bytes of the device */
	struct task *task;	/* the caller, whose step the ioctl ends */
	struct sim_msg done;	/* its next step, once the range is discarded */
	long res;		/* then 0 or -errno */
	unsigned bios;		/* in flight */
	bool in_call;
};

/* blk_ioctl_discard in op->task's current step, which it ends: check the
 * range, drop its cached folios, send discard bios and sleep until they
 * end. -EOPNOTSUPP when the device takes no discards, -EINVAL when the
 * range is not in whole logical blocks or runs past the end. */
void blkdev_discard(struct xctx *x, struct blkdev *b, struct discard_op *op);
/* The device's page cache inode, once it is opened buffered (for the
 * folios a discard drops). */
void blkdev_set_cache(struct blkdev *b, struct inode *ino);

/* A task opens the device, direct or buffered (bd_openers). */
void blkdev_get(struct blkdev *b);
/* blkdev_put, in op->task's current step: the last close writes back the
 * dirty folios of the device's page cache and waits for them, then drops
 * the cache (blkdev_flush_mapping: sync_blockdev, kill_bdev). True when
 * that ends the step (op->done follows; op->task is the only field read),
 * false when it is done already. */
bool blkdev_put(struct xctx *x, struct blkdev *b, struct fsync_op *op);

/* Open the device for direct I/O: the file's flags are the caller's. */
void blkdev_open(struct blkdev *b, struct sfile *f, const char *path);
/* The file-system parameters of the device's page cache: the block size
 * of its bdev inode for a device of capacity bytes with page_size pages,
 * and the buffered costs above. */
void blkdev_fs_params(const struct blkdev *b, uint64_t page_size,
		      struct fs_params *out);

#endif
