/*
 * Buffered I/O through the page cache (mm/filemap.c, iomap buffered I/O).
 */
#ifndef STORSIM_BUFFERED_H
#define STORSIM_BUFFERED_H

#include "fs/fs.h"

/* Open ino for buffered I/O (its page-cache mapping is made on first
 * use). */
void buffered_open(struct inode *ino, struct sfile *f);
/* Put the whole file in the page cache, uptodate, at no simulated cost
 * (fio's pre_read before a job). */
void buffered_preload(struct inode *ino);
/* fsync/fdatasync of a file of a struct fs: write back its dirty page
 * cache, then flush the device's volatile cache (struct file_ops.fsync). */
void fs_fsync(struct xctx *x, struct fsync_op *op);
/* The fsync of a file with nothing in the page cache to write (a block
 * device opened O_DIRECT): charge entry, then flush q's volatile cache if
 * it has one. */
void fsync_flush_only(struct xctx *x, struct fsync_op *op, struct blk_queue *q,
		      sim_time entry);

#endif
