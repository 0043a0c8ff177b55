/*
 * The page cache: folios of file data, their per-block state, the LRU.
 */
#ifndef STORSIM_PAGECACHE_H
#define STORSIM_PAGECACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "fs/vfs.h"
#include "host/host.h"
#include "engine/params.h"

/* CPU costs and limits (host profile, model "pagecache"). */
struct pagecache_params {
	sim_time lookup;	/* filemap_get_folio: xarray lookup, reference */
	sim_time alloc;		/* folio allocation from the page allocator */
	sim_time insert;	/* filemap_add_folio: xarray insert, LRU, memcg */
	double copy_ns_per_kib;	/* copy between user memory and a folio */
	sim_time read_iter;	/* filemap_read: set-up around the folio loop */
	sim_time write_begin;	/* iomap_write_begin + write_end, per folio */
	sim_time dirty;		/* filemap_dirty_folio, inode dirtying */
	sim_time unlock;	/* folio_unlock and waking a waiter */
	sim_time read_end;	/* read completion per folio: uptodate + unlock */
	sim_time wb_folio;	/* writeback of one folio: lock, clear dirty, map */
	sim_time wb_block;	/* per block added to the writeback bio */
	sim_time wb_end;	/* writeback end per folio */
	sim_time fsync;		/* ->fsync entry and the wait set-up */
	sim_time reclaim;	/* evicting one clean folio */
	uint32_t cache_mb;	/* MiB the page cache may hold */
	uint32_t folio_kb;	/* folio size; 0: the base page size */
	uint32_t read_ahead_kb;	/* largest readahead window */
	uint32_t dirty_background_ratio;	/* % of the cache */
	uint32_t dirty_ratio;			/* % of the cache */
	sim_time dirty_writeback;	/* flusher period */
	sim_time dirty_expire;		/* age at which dirty data is written */
};

extern const struct param_def pagecache_param_table[];

struct folio;
struct mapping;
struct pagecache;

#define FOLIO_BLOCKS_MAX 64	/* 64 KiB folios of 1 KiB blocks */

struct folio {
	struct mapping *m;
	uint64_t index;		/* in folio-size units of the file */
	uint64_t uptodate;	/* per block */
	uint64_t dirty;		/* per block */
	bool locked;		/* read in flight */
	bool writeback;		/* write in flight */
	bool readahead;		/* PG_readahead: reading it reads further ahead */
	uint16_t wb_bios;	/* writeback bios covering it */
	struct folio_waiter *waiters;
	struct folio *lru_prev, *lru_next;
	struct folio *dirty_next;	/* the mapping's dirty list */
};

/*
 * A mapping finds its folios by index in an open-addressing hash table
 * (linear probing, deletion by backward shift): its memory follows the
 * folios cached, not the file's size, so that random reads over a whole
 * 2 TB device cost no more than over a small file. A flat array of slots
 * would take 8 bytes per folio of the device (3.7 GB for 2 TB); a radix
 * tree of small nodes, a node or two per folio when the cached folios
 * are scattered.
 */
struct mapping_entry {
	uint64_t index;
	struct folio *folio;	/* NULL: the entry is empty */
};

struct mapping {
	struct pagecache *pc;
	void *host;		/* the inode */
	uint64_t nfolios;	/* slots: the file's size in folios */
	struct mapping_entry *tab;	/* a power of two entries, at most half used */
	uint64_t tab_mask, tab_used;
	unsigned tab_shift;		/* 64 - log2(entries) */
	uint32_t folio_size, block_size, blocks_per_folio;
	uint64_t nr_dirty;	/* folios with dirty blocks */
	uint64_t nr_writeback;	/* folios under writeback */
	struct folio *dirty_head;	/* the dirty folios, newest first */
	sim_time dirtied_when;	/* it last went from clean to dirty */
	struct mapping *dirty_prev, *dirty_next;	/* the cache's dirty list */
	struct fsync_op *wb_waiters;	/* waiting for nr_writeback == 0 */
	int wb_err;		/* a writeback error not yet reported */
};

struct pagecache *pagecache_new(struct host *h, const struct pagecache_params *p,
				uint32_t folio_size);
void pagecache_free(struct pagecache *pc);
const struct pagecache_params *pagecache_params(const struct pagecache *pc);
uint32_t pagecache_folio_size(const struct pagecache *pc);

/* The folio cached at index (< m->nfolios), or NULL. */
static inline struct folio *mapping_folio(const struct mapping *m, uint64_t index)
{
	/* Fibonacci hashing: consecutive indexes spread over the table. */
	uint64_t pos = (index * UINT64_C(0x9e3779b97f4a7c15)) >> m->tab_shift;

	for (;; pos = (pos + 1) & m->tab_mask) {
		const struct mapping_entry *e = &m->tab[pos];
		if (!e->folio || e->index == index)
			return e->folio;
	}
}

/* A mapping for host's file of size bytes and block_size blocks. */
void mapping_init(struct mapping *m, struct pagecache *pc, void *host,
		  uint64_t size, uint32_t block_size);
void mapping_clear(struct mapping *m);

/* Drop the mapping's clean, idle folios (invalidate_mapping_pages, what
 * fio's invalidate=1 asks with POSIX_FADV_DONTNEED). */
void mapping_invalidate(struct mapping *m);
/* The same for the folios holding bytes [off, off + len). */
void mapping_invalidate_range(struct mapping *m, uint64_t off, uint64_t len);
/* Look up (charging the lookup; a hit or a miss), or NULL. */
struct folio *folio_lookup(struct xctx *x, struct mapping *m, uint64_t index);
/* Allocate and insert a folio, locked, nothing uptodate (charging it);
 * evicts clean folios beyond the cache size. */
struct folio *folio_create(struct xctx *x, struct mapping *m, uint64_t index);
/* Insert a folio holding uptodate data without simulated cost (files
 * fio pre-reads before the job starts). */
void folio_preload(struct mapping *m, uint64_t index);

/* Blocks of f covering the byte range [off, off + len) of the file. */
uint64_t folio_block_mask(const struct folio *f, uint64_t off, uint64_t len);

/* Mark blocks dirty; count the folio, and its mapping, as dirty when they
 * become so. */
void folio_mark_dirty(struct folio *f, uint64_t mask);
/* Take the mapping's dirty folios (a list through dirty_next, in index
 * order); the caller starts writeback on each. */
struct folio *mapping_take_dirty(struct mapping *m);
/* Move the folio's dirty state to writeback: returns the blocks to write.
 * Each bio that covers the folio counts in wb_bios. */
uint64_t folio_start_writeback(struct folio *f);
/* A writeback bio covering f is done; true when f's writeback is. */
bool folio_end_writeback(struct folio *f);
/* The mapping that has been dirty the longest, or NULL. */
struct mapping *pagecache_oldest_dirty(const struct pagecache *pc);
/* Folios dirty and under writeback, all files. */
uint64_t pagecache_nr_dirty(const struct pagecache *pc);
uint64_t pagecache_nr_writeback(const struct pagecache *pc);
uint64_t pagecache_nr_limit(const struct pagecache *pc);	/* cache_mb in folios */
struct host *pagecache_host(const struct pagecache *pc);
/* The writeback state (models/fs/writeback.c) attached to the cache. */
struct writeback;
void pagecache_set_writeback(struct pagecache *pc, struct writeback *wb);
struct writeback *pagecache_writeback(const struct pagecache *pc);

/* Wait for the folio to be unlocked: w->fn is called when it is. */
void folio_wait(struct folio *f, struct folio_waiter *w);
/* Unlock after a read (uptodate blocks set by the caller) and run the
 * waiters, in x's context. */
void folio_unlock(struct xctx *x, struct folio *f);
/* The folio was used: move it to the head of the LRU. */
void folio_touch(struct folio *f);

/* Counters for reports. */
struct pagecache_stats {
	uint64_t hits, misses, inserted, evicted, dirtied, written_back_blocks;
	uint64_t nr_folios, peak_folios;
};
void pagecache_get_stats(const struct pagecache *pc, struct pagecache_stats *s);

#endif
