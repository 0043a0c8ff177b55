/*
 * A file system: the inodes and blocks behind files.
 *
 * One model stands for XFS and ext4 (fs/xfs, fs/ext4) as far as the
 * modelled paths go; their profiles give the costs. A file's blocks are
 * contiguous on the device and each block is a hole, unwritten (allocated
 * by fallocate, reads as zeroes, must be converted after a write) or
 * written, which is what decides the direct I/O path. The dio completion
 * workqueue is per file system and bound to CPUs, as
 * sb_init_dio_done_wq() allocates it ("dio/<sb>", WQ_MEM_RECLAIM).
 *
 * Parameters (file-system profile, model "fs"): block_size (bytes) and
 * CPU costs (ns) of write_iter, read_iter, iomap_begin, alloc_blocks,
 * dio_alloc, dio_end_io, dio_complete, unwritten_convert, size_update.
 *
 * Left out: the log, metadata I/O, fragmentation, delayed allocation,
 * quota, reflink.
 */
#include <glib.h>
#include <string.h>

#include "fs/fs.h"
#include "fs/pagecache.h"

#define P(field) offsetof(struct fs_params, field)
const struct param_def fs_param_table[] = {
	{"block_size", PARAM_U32, P(block_size), "4096", 512, 65536, "bytes",
	 "file-system block size"},
	{"write_iter_ns", PARAM_TIME, P(write_iter), "150", 0, 1e6, "ns",
	 "->write_iter entry for direct I/O: locks, checks, timestamps"},
	{"read_iter_ns", PARAM_TIME, P(read_iter), "100", 0, 1e6, "ns",
	 "->read_iter entry for direct I/O"},
	{"iomap_begin_ns", PARAM_TIME, P(iomap_begin), "80", 0, 1e6, "ns",
	 "->iomap_begin: take the inode lock, look up the extent"},
	{"alloc_blocks_ns", PARAM_TIME, P(alloc_blocks), "3000", 0, 1e8, "ns",
	 "allocate blocks for a write into a hole (a transaction)"},
	{"dio_alloc_ns", PARAM_TIME, P(dio_alloc), "50", 0, 1e6, "ns",
	 "allocate and initialise the iomap_dio"},
	{"dio_end_io_ns", PARAM_TIME, P(dio_end_io), "30", 0, 1e6, "ns",
	 "iomap_dio_bio_end_io in the completion context"},
	{"dio_complete_ns", PARAM_TIME, P(dio_complete), "150", 0, 1e6, "ns",
	 "iomap_dio_complete, the file system's end_io for an overwrite, kfree"},
	{"unwritten_convert_ns", PARAM_TIME, P(unwritten_convert), "5000", 0, 1e8,
	 "ns", "convert unwritten extents after a write (a transaction)"},
	{"size_update_ns", PARAM_TIME, P(size_update), "2000", 0, 1e8, "ns",
	 "log the new file size after an extending write"},
	PARAM_END,
};

struct fs {
	struct host *h;
	char *mountpoint;
	struct blk_queue *q;
	struct fs_params p;
	const struct kernel_features *k;
	struct workqueue *dio_wq;
	struct pagecache *pc;
	GHashTable *inodes;	/* relative path -> struct inode *; open only */
	uint64_t next_sector;
};

struct fs *fs_new(struct host *h, const char *mountpoint, struct blk_queue *q,
		  const struct fs_params *p, const struct kernel_features *k,
		  const struct workqueue_params *wqp, struct pagecache *pc)
{
	struct fs *fs = g_new0(struct fs, 1);
	g_autofree char *wqname = g_strdup_printf("dio/%s",
						  blk_queue_config(q)->name);

	fs->h = h;
	fs->mountpoint = g_strdup(mountpoint);
	fs->q = q;
	fs->p = *p;
	fs->k = k;
	fs->dio_wq = workqueue_new(h, wqp, wqname, true);
	fs->pc = pc;
	fs->inodes = g_hash_table_new(g_str_hash, g_str_equal);
	/* Leave the first megabyte to metadata, as a real layout would. */
	fs->next_sector = 2048;
	return fs;
}

static void inode_free(struct inode *ino)
{
	if (ino->map) {
		mapping_clear(ino->map);
		g_free(ino->map);
	}
	g_free(ino->state);
	g_free(ino->path);
	g_free(ino);
}

void fs_free(struct fs *fs)
{
	if (!fs)
		return;
	GHashTableIter it;
	gpointer key, val;
	g_hash_table_iter_init(&it, fs->inodes);
	while (g_hash_table_iter_next(&it, &key, &val))
		inode_free(val);
	g_hash_table_destroy(fs->inodes);
	workqueue_free(fs->dio_wq);
	g_free(fs->mountpoint);
	g_free(fs);
}

const char *fs_mountpoint(const struct fs *fs)
{
	return fs->mountpoint;
}

struct blk_queue *fs_queue(const struct fs *fs)
{
	return fs->q;
}

const struct fs_params *fs_params(const struct fs *fs)
{
	return &fs->p;
}

const struct kernel_features *fs_kernel(const struct fs *fs)
{
	return fs->k;
}

struct workqueue *fs_dio_workqueue(const struct fs *fs)
{
	return fs->dio_wq;
}

struct pagecache *fs_pagecache(const struct fs *fs)
{
	return fs->pc;
}

struct inode *fs_lookup(struct fs *fs, const char *path)
{
	return g_hash_table_lookup(fs->inodes, path);
}

struct inode *fs_create(struct fs *fs, const char *path, uint64_t size,
			enum block_state state)
{
	struct inode *ino = fs_lookup(fs, path);
	uint64_t bs = fs->p.block_size;
	uint64_t nblocks = (size + bs - 1) / bs;
	uint64_t cap_sectors = blk_queue_config(fs->q)->capacity / 512;

	if (ino)
		return ino;
	if (fs->next_sector + nblocks * (bs / 512) > cap_sectors)
		return NULL;
	ino = g_new0(struct inode, 1);
	ino->fs = fs;
	ino->path = g_strdup(path);
	ino->size = size;
	ino->nblocks = nblocks;
	ino->start_sector = fs->next_sector;
	ino->state = g_malloc(nblocks ? nblocks : 1);
	memset(ino->state, state, nblocks);
	ino->not_written = state == BLOCK_WRITTEN ? 0 : nblocks;
	fs->next_sector += nblocks * (bs / 512);
	g_hash_table_insert(fs->inodes, ino->path, ino);
	return ino;
}

struct inode *fs_bdev_inode(struct fs *fs)
{
	struct inode *ino = fs_lookup(fs, "");
	uint64_t bs = fs->p.block_size;

	if (ino)
		return ino;
	ino = g_new0(struct inode, 1);
	ino->fs = fs;
	ino->path = g_strdup("");
	ino->size = blk_queue_config(fs->q)->capacity;
	ino->nblocks = ino->size / bs;
	g_hash_table_insert(fs->inodes, ino->path, ino);
	return ino;
}

void inode_range_state(const struct inode *ino, uint64_t pos, uint64_t len,
		       bool *hole, bool *unwritten)
{
	uint64_t bs = ino->fs->p.block_size;

	*hole = *unwritten = false;
	/* A fully written file (the common case) needs no look at its
	 * blocks, whose state array is too big to stay in the cache. */
	if (ino->not_written == 0 && pos + len <= ino->nblocks * bs)
		return;
	for (uint64_t b = pos / bs; b < (pos + len + bs - 1) / bs; b++) {
		uint8_t s = b >= ino->nblocks ? BLOCK_HOLE :
			    ino->state ? ino->state[b] : BLOCK_WRITTEN;
		*hole |= s == BLOCK_HOLE;
		*unwritten |= s == BLOCK_UNWRITTEN;
	}
}

void inode_set_range(struct inode *ino, uint64_t pos, uint64_t len,
		     enum block_state st)
{
	uint64_t bs = ino->fs->p.block_size;

	/* A bdev inode's blocks are all written, and stay so. */
	if (!ino->state)
		return;
	for (uint64_t b = pos / bs; b < (pos + len + bs - 1) / bs && b < ino->nblocks;
	     b++) {
		ino->not_written -= ino->state[b] != BLOCK_WRITTEN;
		ino->not_written += st != BLOCK_WRITTEN;
		ino->state[b] = st;
	}
}
