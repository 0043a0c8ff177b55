/*
 * A file system on a block device: inodes, their blocks, and the CPU
 * costs of its paths (one model for XFS and ext4; their profiles differ).
 */
#ifndef STORSIM_FS_H
#define STORSIM_FS_H

#include "block/blk_mq.h"
#include "fs/vfs.h"
#include "host/workqueue.h"
#include "kernel.h"

/* File-system profile (model "fs"). */
struct fs_params {
	uint32_t block_size;		/* bytes */
	sim_time write_iter;		/* ->write_iter entry: locks, checks */
	sim_time read_iter;		/* ->read_iter entry */
	sim_time iomap_begin;		/* ->iomap_begin: extent lookup */
	sim_time alloc_blocks;		/* allocate blocks for a write into a hole */
	sim_time dio_alloc;		/* allocate and set up the iomap_dio */
	sim_time dio_end_io;		/* iomap_dio_bio_end_io */
	sim_time dio_complete;		/* iomap_dio_complete + ->end_io + free */
	sim_time unwritten_convert;	/* convert unwritten extents (transaction) */
	sim_time size_update;		/* update i_size after an extending write */
	/* Buffer heads: writeback sends a bio per block
	 * (block_write_full_folio), as the raw block device does; else a
	 * bio grows over contiguous blocks (iomap_writepages). */
	bool bio_per_block;
};

extern const struct param_def fs_param_table[];

enum block_state { BLOCK_HOLE, BLOCK_UNWRITTEN, BLOCK_WRITTEN };

struct fs;

struct inode {
	struct fs *fs;
	char *path;
	uint64_t size;		/* i_size, bytes */
	uint64_t nblocks;	/* blocks reserved on disk */
	uint64_t start_sector;	/* the file's blocks lie contiguously */
	uint8_t *state;		/* enum block_state per block; NULL: all written */
	uint64_t not_written;	/* blocks in state HOLE or UNWRITTEN */
	struct mapping *map;	/* page cache, once opened buffered */
};

struct pagecache;

struct fs *fs_new(struct host *h, const char *mountpoint, struct blk_queue *q,
		  const struct fs_params *p, const struct kernel_features *k,
		  const struct workqueue_params *wqp, struct pagecache *pc);
void fs_free(struct fs *fs);
const char *fs_mountpoint(const struct fs *fs);
struct blk_queue *fs_queue(const struct fs *fs);
const struct fs_params *fs_params(const struct fs *fs);
const struct kernel_features *fs_kernel(const struct fs *fs);
struct workqueue *fs_dio_workqueue(const struct fs *fs);
struct pagecache *fs_pagecache(const struct fs *fs);

/* Create (or find) the file at path, relative to the mount point. A new
 * file gets size bytes of blocks in the given state. Returns NULL when the
 * device is full. */
struct inode *fs_create(struct fs *fs, const char *path, uint64_t size,
			enum block_state state);
struct inode *fs_lookup(struct fs *fs, const char *path);
/* The block device under fs as one file, its bdev inode: every byte of
 * the device from sector 0, all written, with no per-block state. Only for
 * a file system standing for a raw device (system.c), which holds nothing
 * else. */
struct inode *fs_bdev_inode(struct fs *fs);
/* Block states over [pos, pos + len): whether any block is a hole,
 * unwritten, and set them. */
void inode_range_state(const struct inode *ino, uint64_t pos, uint64_t len,
		       bool *hole, bool *unwritten);
void inode_set_range(struct inode *ino, uint64_t pos, uint64_t len,
		     enum block_state st);

#endif
