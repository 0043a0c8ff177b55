/*
 * Buffered I/O through the page cache: reads and writes.
 *
 * Stands for mm/filemap.c (filemap_read: look up each folio, start
 * readahead on a miss, wait for the folio to be unlocked, copy to user
 * space; with IOCB_NOWAIT give up with -EAGAIN instead of blocking, with
 * IOCB_WAITQ arm a wake-up on the folio and return -EIOCBQUEUED, the async
 * buffered reads of Linux 5.9), mm/readahead.c (page_cache_sync_ra opens
 * a stream's window or reads ahead over the cached folios before a miss,
 * else reads it as is; page_cache_async_ra reads the next window from
 * the PG_readahead marker; mm/fadvise.c's RANDOM and SEQUENTIAL advice)
 * and
 * fs/iomap/buffered-io.c (iomap_file_buffered_write: copy
 * into the folio and dirty it, then balance_dirty_pages). Writeback and
 * fsync are models/fs/writeback.c.
 *
 * Dirty state is per folio before Linux 6.6 and per block after (kernel
 * feature iomap_per_block_dirty): with 64 KiB folios and 4 KiB blocks, a
 * 4 KiB write dirties the whole folio and writeback writes all its
 * uptodate blocks, or only the written block.
 *
 * A synchronous reader that must wait sleeps with its kiocb's sync_wait:
 * the folio's unlock calls ki_complete and the reader copies the data
 * (dio_complete) once woken. A writer over the dirty limit waits the same
 * way, or gets -EAGAIN with IOCB_NOWAIT.
 *
 * Parameters: the page cache's (host profile, model "pagecache"), the file
 * system's write_iter_ns, read_iter_ns, iomap_begin_ns (block mapping of a
 * readahead), and the bio costs of blk_mq.
 * A write of part of a block that is not uptodate reads the block first
 * (iomap_read_folio_sync; __block_write_begin for buffer heads), and the
 * writer sleeps until it is in; past the end of the file, or over a hole
 * or unwritten extent, the block is zeroed instead.
 *
 * Left out: readahead's large folios (ra->order), mmap; a write that must
 * read both its first and last folio reads them one after the other, as
 * iomap does (buffer heads would read them together); a write that must
 * not block (IOCB_NOWAIT) gives up before copying anything, where iomap
 * first copies into the folios before the one to read.
 */
#include <glib.h>

#include "fs/buffered.h"
#include "fs/pagecache.h"
#include "fs/writeback.h"
#include "engine/pool.h"

struct ra_io {			/* a read bio's folios */
	struct mapping *m;
	uint64_t first;
	unsigned n;
};

static struct sim_pool ra_pool;

static stage_id st_read_iter, st_write_iter, st_copy_to, st_copy_from,
	st_write_begin, st_dirty, st_read_end, st_bio, st_map;

static void register_stages(void)
{
	st_read_iter = stage_register("filemap_read", CPU_SYS, "filemap_read");
	st_write_iter = stage_register("fs_buffered_write", CPU_SYS,
				       "xfs_file_buffered_write, "
				       "iomap_file_buffered_write");
	st_copy_to = stage_register("copy_to_user", CPU_SYS, "copy_folio_to_iter");
	st_copy_from = stage_register("copy_from_user", CPU_SYS,
				      "copy_folio_from_iter_atomic");
	st_write_begin = stage_register("iomap_write_begin", CPU_SYS,
					"iomap_write_begin, iomap_write_end");
	st_dirty = stage_register("folio_mark_dirty", CPU_SYS,
				  "filemap_dirty_folio, __mark_inode_dirty");
	st_read_end = stage_register("read_end_io", CPU_SYS,
				     "iomap_read_end_io, folio_end_read");
	st_bio = stage_register("submit_bio_prep", CPU_SYS, "bio_alloc, bio_add_folio");
	st_map = stage_register("fs_map_blocks", CPU_SYS,
				"->readahead block mapping: ext4_map_blocks, iomap_begin");
	if (!ra_pool.chunks)
		sim_pool_init(&ra_pool, sizeof(struct ra_io), 64);
}

static void charge_copy(struct xctx *x, stage_id st,
			const struct pagecache_params *p, uint64_t bytes)
{
	xctx_charge(x, st, (sim_time)(p->copy_ns_per_kib * (double)bytes / 1024.0));
}

static uint64_t all_blocks(const struct mapping *m)
{
	return m->blocks_per_folio == 64 ? UINT64_MAX :
	       (UINT64_C(1) << m->blocks_per_folio) - 1;
}

/* ---- reads ---- */

static void read_end_io(struct xctx *x, struct bio *bio)
{
	struct ra_io *r = bio->private;
	const struct pagecache_params *p = pagecache_params(r->m->pc);

	for (unsigned i = 0; i < r->n; i++) {
		struct folio *f = mapping_folio(r->m, r->first + i);
		xctx_charge(x, st_read_end, p->read_end);
		if (bio->status == BLK_STS_OK)
			f->uptodate = all_blocks(r->m);
		folio_unlock(x, f);
	}
	bio_free(bio);
	sim_pool_put(&ra_pool, r);
}

/* Map the locked folios [first, first + n) once (->readahead's
 * ext4_map_blocks or iomap_begin for the run) and send one read bio for
 * size bytes of them from byte offset off of the first; read_end_io
 * unlocks them. The bio carries the latency stamps of the read that
 * sent it (tr, or NULL), which waits for it. */
static void read_bio(struct xctx *x, struct inode *ino, uint64_t first,
		     unsigned n, uint64_t off, uint64_t size,
		     struct io_trace *tr)
{
	struct mapping *m = ino->map;
	struct blk_queue *q = fs_queue(ino->fs);
	struct ra_io *r = sim_pool_get(&ra_pool);

	xctx_charge(x, st_map, fs_params(ino->fs)->iomap_begin);
	*r = (struct ra_io){.m = m, .first = first, .n = n};
	struct bio *bio = bio_alloc(x, q, n, false);
	xctx_charge(x, st_bio, blk_queue_params(q)->bio_add_page * n);
	bio->op = REQ_OP_READ;
	bio->sector = ino->start_sector + (first * m->folio_size + off) / 512;
	bio->size = (uint32_t)size;
	bio->nr_segs = n;
	bio->end_io = read_end_io;
	bio->private = r;
	bio->trace = tr;
	submit_bio(x, bio);
}

/* Read folios [first, first + n) into the cache: create them locked and
 * send one read bio for the run. */
static void read_folios(struct xctx *x, struct inode *ino, uint64_t first,
			unsigned n, struct io_trace *tr)
{
	struct mapping *m = ino->map;

	for (unsigned i = 0; i < n; i++)
		folio_create(x, m, first + i);
	read_bio(x, ino, first, n, 0, (uint64_t)n * m->folio_size, tr);
}

/* Lock folio f and read its blocks in the mask blocks: filemap_read_folio
 * for a cached folio whose blocks a write left partly not uptodate (it
 * created the folio without reading it), iomap_read_folio_sync for the
 * blocks a write covers in part. iomap reads each run of them; one bio
 * from the first to the last keeps one completion, at the cost of reading
 * again the uptodate blocks between two runs. */
static void read_folio_blocks(struct xctx *x, struct inode *ino,
			      struct folio *f, uint64_t blocks, struct io_trace *tr)
{
	struct mapping *m = ino->map;
	unsigned lo = (unsigned)__builtin_ctzll(blocks);
	unsigned hi = 63u - (unsigned)__builtin_clzll(blocks);
	uint32_t bs = m->folio_size / m->blocks_per_folio;

	f->locked = true;
	read_bio(x, ino, f->index, 1, (uint64_t)lo * bs, (uint64_t)(hi - lo + 1) * bs,
		 tr);
}

/* The last folio of the file to read ahead: do_page_cache_ra reads
 * nothing past the folio that holds the last byte (i_size). */
static uint64_t ra_end(const struct inode *ino)
{
	const struct mapping *m = ino->map;
	uint64_t n = (ino->size + m->folio_size - 1) / m->folio_size;

	return MIN(n, m->nfolios);
}

/* page_cache_ra_unbounded (through do_page_cache_ra) for a mapping of
 * order-0 folios: create and read the folios of [index, index + nr) not
 * yet cached, one bio per run of them, and mark the new folio at
 * nr - lookahead PG_readahead (none when lookahead is 0). A cached folio
 * in the way is skipped, its marker left as it is. */
static void ra_read(struct xctx *x, struct inode *ino, uint64_t index,
		    uint64_t nr, uint64_t lookahead, struct io_trace *tr)
{
	struct mapping *m = ino->map;
	uint64_t end = ra_end(ino), mark;

	if (index >= end)
		return;
	if (nr > end - index)
		nr = end - index;
	mark = lookahead && lookahead <= nr ? nr - lookahead : nr;
	blk_start_plug(x);
	for (uint64_t i = 0; i < nr; ) {
		uint64_t run = 0;
		while (i + run < nr && !mapping_folio(m, index + i + run) && run < 256)
			run++;
		if (!run) {
			i++;
			continue;
		}
		read_folios(x, ino, index + i, (unsigned)run, tr);
		if (mark >= i && mark < i + run)
			mapping_folio(m, index + mark)->readahead = true;
		i += run;
	}
	blk_finish_plug(x);
}

/* get_init_ra_size: the first window of a stream, for a read of size
 * folios: the read rounded up to a power of two, four times that if
 * small, twice if medium, else the largest window. */
static uint64_t init_ra_size(uint64_t size, uint64_t max)
{
	uint64_t n = 1;

	while (n < size)
		n *= 2;
	if (n <= max / 32)
		return 4 * n;
	if (n <= max / 4)
		return 2 * n;
	return max;
}

/* get_next_ra_size: the window after one of cur folios. */
static uint64_t next_ra_size(uint64_t cur, uint64_t max)
{
	if (cur < max / 16)
		return 4 * cur;
	if (cur <= max / 2)
		return 2 * cur;
	return max;
}

/* The readahead window's limit, in folios (file_ra_state's ra_pages:
 * the device's read_ahead_kb, twice after POSIX_FADV_SEQUENTIAL). */
static uint64_t ra_max(const struct sfile *file, const struct mapping *m)
{
	uint64_t max = (uint64_t)pagecache_params(m->pc)->read_ahead_kb * 1024 /
		       m->folio_size;

	return file->ra_advice == FADV_SEQUENTIAL ? 2 * max : max;
}

/* The window set in file->ra: read it, its last async_size folios ahead
 * of the reader with the marker on the first of them (ra_submit,
 * page_cache_ra_order). The mapping's folios are of one size: Linux 6.18
 * goes the way of a mapping without large folios, which resets ra->order
 * to 0 and reads order-0 folios (do_page_cache_ra). */
static void ra_submit(struct xctx *x, struct sfile *file, struct inode *ino,
		      struct io_trace *tr)
{
	struct file_ra_state *ra = &file->ra;

	ra_read(x, ino, ra->start, ra->size, ra->async_size, tr);
}

/* page_cache_sync_ra for a miss at index, for a read of req folios
 * from there: a read at the start of the file, larger than the window,
 * or at most one folio past where the last read ended opens a stream's
 * first window (get_init_ra_size), the marker where the read ends;
 * another reads ahead over as many folios as are cached right before it
 * (page_cache_prev_miss), twice as many if they go back to the start, if
 * more than it wants, the marker on the window's last folio; else it is
 * read as is and leaves the state alone. After POSIX_FADV_RANDOM
 * (FMODE_RANDOM), or with no window, only what is asked is read
 * (force_page_cache_ra). A stream grows from its markers
 * (page_cache_async_ra). */
static void sync_ra(struct xctx *x, struct sfile *file, struct inode *ino,
		    uint64_t index, uint64_t req, struct io_trace *tr)
{
	struct mapping *m = ino->map;
	struct file_ra_state *ra = &file->ra;
	uint64_t max = ra_max(file, m);
	uint64_t prev = ra->prev_pos / m->folio_size;

	if (file->ra_advice == FADV_RANDOM || !max) {
		ra_read(x, ino, index, req, 0, tr);
		return;
	}
	if (!index || req > max || index - prev <= 1) {
		ra->start = index;
		ra->size = init_ra_size(req, max);
		ra->async_size = ra->size > req ? ra->size - req : ra->size / 2;
		ra_submit(x, file, ino, tr);
		return;
	}
	uint64_t contig = 0;

	while (contig < max && contig < index &&
	       mapping_folio(m, index - 1 - contig))
		contig++;
	if (contig <= req) {
		/* A standalone small random read. */
		ra_read(x, ino, index, req, 0, tr);
		return;
	}
	if (contig == index)	/* cached from the start of the file */
		contig *= 2;
	ra->start = index;
	ra->size = MIN(contig + req, max);
	ra->async_size = 1;
	ra_submit(x, file, ino, tr);
}

/* page_cache_async_ra: a read reached folio f, which carries the
 * readahead marker, wanting req folios from there. The marker goes; if
 * f is where the last window put it the stream goes on with the next
 * window, larger; else (another stream moved the state) the window
 * starts at the first folio not cached after f, as large as the next
 * after what is cached up to there. The window's end is rounded down to
 * a multiple of 1 << ra->order, which page_cache_async_ra raises by 2
 * from the 0 every submission leaves it at here (ra_submit): 4 folios, at
 * most the largest window's alignment. All of it is ahead. The reader
 * does not wait for it. */
static void async_ra(struct xctx *x, struct sfile *file, struct inode *ino,
		     struct folio *f, uint64_t req)
{
	struct mapping *m = ino->map;
	struct file_ra_state *ra = &file->ra;
	uint64_t max = ra_max(file, m), index = f->index;

	if (!max || f->writeback)	/* PG_readahead is PG_reclaim then */
		return;
	f->readahead = false;
	if (index == ra->start + ra->size - ra->async_size) {
		ra->start += ra->size;
		ra->size = MAX(ra->size, next_ra_size(ra->size, max));
	} else {
		/* page_cache_next_miss */
		uint64_t start = index + 1;

		while (start - index <= max && mapping_folio(m, start))
			start++;
		if (start - index > max)
			return;
		ra->start = start;
		ra->size = next_ra_size(start - index + req, max);
	}
	uint64_t align = UINT64_C(1) << MIN(2u, (unsigned)__builtin_ctzll(max));
	uint64_t end = ra->start + ra->size, aligned = end / align * align;

	if (aligned > ra->start)
		ra->size -= end - aligned;
	ra->async_size = ra->size;
	ra_submit(x, file, ino, NULL);
}

/* A reader waiting for a folio: continue when it is unlocked. */
static void read_wake(struct xctx *x, struct folio_waiter *w)
{
	struct kiocb *iocb = w->arg;

	if (iocb->flags & KI_WAITQ) {
		/* io_uring's async page wake: the issuer retries the read. */
		iocb->ki_complete(x, iocb, -EIOCBRETRY);
		return;
	}
	iocb->ki_complete(x, iocb, 0);
}

static long copy_out(struct xctx *x, struct kiocb *iocb)
{
	struct inode *ino = iocb->file->priv;
	struct mapping *m = ino->map;
	const struct pagecache_params *p = pagecache_params(m->pc);
	uint64_t first = iocb->pos / m->folio_size;
	uint64_t last = (iocb->pos + iocb->len - 1) / m->folio_size;

	for (uint64_t i = first; i <= last; i++) {
		struct folio *f = mapping_folio(m, i);
		if (f)
			folio_touch(f);
	}
	charge_copy(x, st_copy_to, p, iocb->len);
	/* filemap_read: ra->prev_pos, where the read ended */
	iocb->file->ra.prev_pos = iocb->pos + iocb->len;
	return (long)iocb->len;
}

/* The reader, woken, copies the data (the rest of filemap_read). */
static void read_finish(struct xctx *x, struct kiocb *iocb)
{
	iocb->res = copy_out(x, iocb);
}

static long buffered_read(struct xctx *x, struct kiocb *iocb)
{
	struct inode *ino = iocb->file->priv;
	struct mapping *m = ino->map;
	const struct pagecache_params *p = pagecache_params(m->pc);

	if (iocb->pos >= ino->size || iocb->len == 0)
		return 0;
	if (iocb->pos + iocb->len > ino->size)
		iocb->len = (uint32_t)(ino->size - iocb->pos);
	xctx_charge(x, st_read_iter, p->read_iter + fs_params(ino->fs)->read_iter);

	uint64_t first = iocb->pos / m->folio_size;
	uint64_t last = (iocb->pos + iocb->len - 1) / m->folio_size;
	struct folio *wait_on = NULL;

	for (uint64_t i = first; i <= last; i++) {
		struct folio *f = folio_lookup(x, m, i);
		if (!f) {
			if ((iocb->flags & KI_NOWAIT) && !(iocb->flags & KI_WAITQ))
				return -VFS_EAGAIN;
			sync_ra(x, iocb->file, ino, i, last - i + 1, iocb->trace);
			f = mapping_folio(m, i);
		}
		/* filemap_get_read_batch ends a batch at a marked folio,
		 * and filemap_get_pages reads ahead from it. */
		if (f->readahead)
			async_ra(x, iocb->file, ino, f, last - i + 1);
		uint64_t mask = folio_block_mask(f, iocb->pos, iocb->len);
		if ((f->uptodate & mask) == mask)
			continue;
		if (!f->locked) {
			/* filemap_update_page: an async attempt gives up
			 * rather than read a cached folio. */
			if (iocb->flags & (KI_NOWAIT | KI_WAITQ))
				return -VFS_EAGAIN;
			read_folio_blocks(x, ino, f, all_blocks(m) & ~f->uptodate, iocb->trace);
		}
		if (!wait_on)
			wait_on = f;
	}
	if (!wait_on)
		return copy_out(x, iocb);
	if ((iocb->flags & KI_NOWAIT) && !(iocb->flags & KI_WAITQ))
		return -VFS_EAGAIN;
	/* Wait for the first folio not yet read; the read it is part of
	 * brings the others of this I/O. */
	iocb->waiter = (struct folio_waiter){.fn = read_wake, .arg = iocb};
	folio_wait(wait_on, &iocb->waiter);
	iocb->dio_complete = (iocb->flags & KI_WAITQ) ? NULL : read_finish;
	return -EIOCBQUEUED;
}

/* ---- writes ---- */

/* A writer throttled by balance_dirty_pages goes on. */
static void write_unthrottle(struct xctx *x, struct folio_waiter *w)
{
	struct kiocb *iocb = w->arg;
	iocb->ki_complete(x, iocb, (long)iocb->len);
}

/* The bytes [lo, hi) of the file that the write has in folio index. */
static void write_span(const struct mapping *m, const struct kiocb *iocb,
		       uint64_t index, uint64_t *lo, uint64_t *hi)
{
	uint64_t start = index * m->folio_size;

	*lo = MAX(iocb->pos, start);
	*hi = MIN(iocb->pos + iocb->len, start + m->folio_size);
}

/* Blocks of folio index, whose uptodate blocks are uptodate, that a write
 * of bytes [lo, hi) of it covers only in part and that must be read
 * before it (__iomap_write_begin, and __block_write_begin for buffer
 * heads): not uptodate, and holding data, as iomap_block_needs_zeroing
 * has it: not past the end of the file, not a hole nor unwritten. Those
 * are zeroed instead. */
static uint64_t blocks_to_read(const struct inode *ino, uint64_t index,
			       uint64_t uptodate, uint64_t lo, uint64_t hi)
{
	const struct mapping *m = ino->map;
	uint32_t bs = m->folio_size / m->blocks_per_folio;
	uint64_t start = index * m->folio_size, need = 0;

	if (lo % bs)
		need |= UINT64_C(1) << ((lo - start) / bs);
	if (hi % bs)
		need |= UINT64_C(1) << ((hi - 1 - start) / bs);
	need &= ~uptodate;
	for (uint64_t left = need; left; left &= left - 1) {
		unsigned b = (unsigned)__builtin_ctzll(left);
		uint64_t pos = start + (uint64_t)b * bs;
		bool hole, unwritten;

		inode_range_state(ino, pos, bs, &hole, &unwritten);
		if (pos >= ino->size || hole || unwritten)
			need &= ~(UINT64_C(1) << b);
	}
	return need;
}

/* The read a writer waited for is done (its folio unlocked): the writer
 * goes on with its write in its own context (write_resume), or fails
 * with the read, as iomap_read_folio_sync returns the bio's status. */
static void write_read_done(struct xctx *x, struct folio_waiter *w)
{
	struct kiocb *iocb = w->arg;
	struct inode *ino = iocb->file->priv;
	struct mapping *m = ino->map;
	struct folio *f = mapping_folio(m, iocb->write_read_at);
	uint64_t lo, hi;

	write_span(m, iocb, iocb->write_read_at, &lo, &hi);
	if (f && blocks_to_read(ino, f->index, f->uptodate, lo, hi)) {
		iocb->dio_complete = NULL;
		iocb->ki_complete(x, iocb, -VFS_EIO);
		return;
	}
	iocb->ki_complete(x, iocb, (long)iocb->len);
}

static long buffered_write_from(struct xctx *x, struct kiocb *iocb);

static void write_resume(struct xctx *x, struct kiocb *iocb)
{
	iocb->res = buffered_write_from(x, iocb);
}

/* iomap_file_buffered_write from byte iocb->written of the write on:
 * folio by folio, copy in and dirty; a folio with blocks to read first
 * makes the writer wait, and the write goes on from there. */
static long buffered_write_from(struct xctx *x, struct kiocb *iocb)
{
	struct inode *ino = iocb->file->priv;
	struct mapping *m = ino->map;
	const struct pagecache_params *p = pagecache_params(m->pc);
	struct writeback *wb = pagecache_writeback(m->pc);
	bool per_block = fs_kernel(ino->fs)->iomap_per_block_dirty;
	uint64_t end = iocb->pos + iocb->len;

	for (uint64_t i = (iocb->pos + iocb->written) / m->folio_size;
	     i <= (end - 1) / m->folio_size; i++) {
		struct folio *f = folio_lookup(x, m, i);
		uint64_t lo, hi;

		write_span(m, iocb, i, &lo, &hi);
		if (!f) {
			f = folio_create(x, m, i);
			f->locked = false;
		}
		uint64_t need = blocks_to_read(ino, i, f->uptodate, lo, hi);
		if (need && !f->locked)
			read_folio_blocks(x, ino, f, need, iocb->trace);
		if (need && f->locked) {
			/* Wait for the read, ours or one in flight already. */
			iocb->write_read_at = i;
			iocb->waiter = (struct folio_waiter){.fn = write_read_done,
							     .arg = iocb};
			folio_wait(f, &iocb->waiter);
			iocb->dio_complete = write_resume;
			return -EIOCBQUEUED;
		}
		/* A read that ended inside the call: it failed, or the blocks
		 * are in. */
		if (need && blocks_to_read(ino, i, f->uptodate, lo, hi))
			return -VFS_EIO;
		uint64_t mask = folio_block_mask(f, iocb->pos, iocb->len);
		xctx_charge(x, st_write_begin, p->write_begin);
		charge_copy(x, st_copy_from, p, hi - lo);
		xctx_charge(x, st_dirty, p->dirty);
		f->uptodate |= mask;
		/* Before per-block dirty state, dirtying a folio dirtied all of
		 * it: writeback then writes every uptodate block. */
		folio_mark_dirty(f, per_block ? mask : f->uptodate);
		folio_touch(f);
		iocb->written = (uint32_t)(hi - iocb->pos);
	}
	if (end > ino->size)
		ino->size = end;
	iocb->dio_complete = NULL;
	iocb->waiter = (struct folio_waiter){.fn = write_unthrottle, .arg = iocb};
	if (balance_dirty_pages(x, wb, &iocb->waiter))
		return -EIOCBQUEUED;
	return (long)iocb->len;
}

static long buffered_write(struct xctx *x, struct kiocb *iocb)
{
	struct inode *ino = iocb->file->priv;
	struct mapping *m = ino->map;
	struct writeback *wb = pagecache_writeback(m->pc);
	uint64_t end = iocb->pos + iocb->len;

	if (end > (uint64_t)m->nfolios * m->folio_size || iocb->len == 0)
		return -27; /* -EFBIG: writes stay within the file's blocks */
	/* balance_dirty_pages_ratelimited_flags(BDP_ASYNC) */
	if ((iocb->flags & KI_NOWAIT) && dirty_limit_exceeded(wb))
		return -VFS_EAGAIN;
	/* A read before the write would block (__iomap_write_begin's
	 * IOMAP_NOWAIT): give up before copying anything, where the kernel
	 * may first copy into the folios before that one. */
	if (iocb->flags & KI_NOWAIT) {
		for (uint64_t i = iocb->pos / m->folio_size;
		     i <= (end - 1) / m->folio_size; i++) {
			const struct folio *f = mapping_folio(m, i);
			uint64_t lo, hi;

			write_span(m, iocb, i, &lo, &hi);
			if (blocks_to_read(ino, i, f ? f->uptodate : 0, lo, hi))
				return -VFS_EAGAIN;
		}
	}
	xctx_charge(x, st_write_iter, fs_params(ino->fs)->write_iter);
	iocb->written = 0;
	return buffered_write_from(x, iocb);
}

static void buffered_fadvise_dontneed(struct sfile *f)
{
	struct inode *ino = f->priv;
	mapping_invalidate(ino->map);
}

static void buffered_preload(struct sfile *f, uint64_t off, uint64_t len);

static const struct file_ops buffered_fops = {
	.name = "buffered",
	.read_iter = buffered_read,
	.write_iter = buffered_write,
	.fsync = fs_fsync,
	.fadvise_dontneed = buffered_fadvise_dontneed,
	.preload = buffered_preload,
};

void buffered_open(struct inode *ino, struct sfile *f)
{
	register_stages();
	if (!ino->map) {
		ino->map = g_new0(struct mapping, 1);
		mapping_init(ino->map, fs_pagecache(ino->fs), ino,
			     ino->nblocks * fs_params(ino->fs)->block_size,
			     fs_params(ino->fs)->block_size);
	}
	*f = (struct sfile){
		.ops = &buffered_fops,
		.path = ino->path,
		.size = ino->size,
		.blksize = fs_params(ino->fs)->block_size,
		.nowait = true,
		.buf_rasync = true,
		.ra = {.prev_pos = UINT64_MAX},	/* file_ra_state_init */
		.priv = ino,
	};
}

static void buffered_preload(struct sfile *f, uint64_t off, uint64_t len)
{
	struct inode *ino = f->priv;
	struct mapping *m = ino->map;
	uint64_t limit = pagecache_nr_limit(m->pc);

	if (!len)
		return;
	uint64_t first = off / m->folio_size, last = (off + len - 1) / m->folio_size;
	/* Reading more than the cache holds leaves only its last part there
	 * (the rest is evicted on the way): a whole device read into an
	 * 8 GiB cache takes 2 M folios, not hundreds of millions. */
	if (last - first >= limit)
		first = last - limit + 1;
	for (uint64_t i = first; i <= last; i++)
		folio_preload(m, i);
}
