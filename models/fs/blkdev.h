/*
 * Direct I/O on a raw block device file (/dev/nvme0n1, /dev/nullb0).
 */
#ifndef STORSIM_BLKDEV_H
#define STORSIM_BLKDEV_H

#include "block/blk_mq.h"
#include "fs/vfs.h"
#include "kernel.h"

/* CPU costs (host profile, model "blkdev"). */
struct blkdev_params {
	sim_time dio_setup;	/* blkdev_direct_IO: checks, dio from its bioset */
	sim_time end_io;	/* blkdev_bio_end_io: dio completion */
	sim_time fsync;		/* blkdev_fsync before the cache flush */
};

extern const struct param_def blkdev_param_table[];

struct blkdev;

struct blkdev *blkdev_new(struct blk_queue *q, const struct blkdev_params *p,
			  const struct kernel_features *k);
void blkdev_free(struct blkdev *b);
/* Open the device: the file's flags are the caller's. */
void blkdev_open(struct blkdev *b, struct sfile *f, const char *path);

#endif
