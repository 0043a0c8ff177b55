/*
 * The page cache.
 *
 * Stands for mm/filemap.c (filemap_get_folio, filemap_add_folio,
 * folio_unlock and the folio wait queues, folio_wait_bit), the folio
 * state of fs/iomap/buffered-io.c (struct iomap_folio_state: per-block
 * uptodate and dirty bits) and the LRU of mm/vmscan.c, reduced to one
 * list of clean folios evicted oldest first when the cache is full.
 *
 * A folio is the host's page size (4 KiB on x86, 64 KiB on Power and
 * arm64 kernels built for 64 KiB pages) and holds one or more file-system
 * blocks; each block is uptodate or not, dirty or not. Whether a write
 * dirties its blocks or the whole folio, and so whether writeback writes
 * the folio or only the dirty blocks, is the buffered write path's choice
 * (kernel feature iomap_per_block_dirty), not the cache's.
 *
 * Each mapping indexes its folios in an array the size of its file, so a
 * lookup is an array load: memory grows with file sizes (8 bytes per folio
 * slot), never with the number of I/Os simulated.
 *
 * The cache counts dirty folios and folios under writeback, and keeps
 * the mappings with dirty folios in the order they became dirty, for the
 * flusher and dirty throttling (models/fs/writeback.c).
 *
 * Parameters (host profile, model "pagecache"): CPU costs lookup_ns,
 * alloc_ns, insert_ns, copy_ns_per_kib, read_iter_ns, write_begin_ns,
 * dirty_ns, unlock_ns, read_end_ns, wb_folio_ns, wb_block_ns, wb_end_ns,
 * fsync_ns, reclaim_ns; cache_mb, the memory the cache may use; folio_kb,
 * large folios (a whole number of pages, at most 64 blocks); read_ahead_kb,
 * the largest readahead window; the
 * writeback sysctls dirty_background_ratio, dirty_ratio (% of cache_mb),
 * dirty_writeback_ns, dirty_expire_ns.
 *
 * Left out: folios of mixed sizes in one file, shadow entries and
 * refaults, active/inactive lists, memory cgroups, mmap.
 */
#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "fs/pagecache.h"
#include "engine/pool.h"

#define P(field) offsetof(struct pagecache_params, field)
const struct param_def pagecache_param_table[] = {
	{"lookup_ns", PARAM_TIME, P(lookup), "40", 0, 1e6, "ns",
	 "filemap_get_folio: xarray lookup and reference"},
	{"alloc_ns", PARAM_TIME, P(alloc), "150", 0, 1e6, "ns",
	 "allocate a folio from the page allocator"},
	{"insert_ns", PARAM_TIME, P(insert), "250", 0, 1e6, "ns",
	 "filemap_add_folio: xarray insert, LRU add, memcg charge"},
	{"copy_ns_per_kib", PARAM_DOUBLE, P(copy_ns_per_kib), "60", 0, 1e6, "ns/KiB",
	 "copy between user memory and a folio (memcpy bandwidth)"},
	{"read_iter_ns", PARAM_TIME, P(read_iter), "150", 0, 1e6, "ns",
	 "filemap_read set-up around the folio loop"},
	{"write_begin_ns", PARAM_TIME, P(write_begin), "200", 0, 1e6, "ns",
	 "iomap_write_begin + iomap_write_end for one folio"},
	{"dirty_ns", PARAM_TIME, P(dirty), "100", 0, 1e6, "ns",
	 "filemap_dirty_folio and marking the inode dirty"},
	{"unlock_ns", PARAM_TIME, P(unlock), "60", 0, 1e6, "ns",
	 "folio_unlock and waking one waiter"},
	{"read_end_ns", PARAM_TIME, P(read_end), "80", 0, 1e6, "ns",
	 "read completion of one folio: mark uptodate, unlock"},
	{"wb_folio_ns", PARAM_TIME, P(wb_folio), "300", 0, 1e6, "ns",
	 "writeback of one folio: lock, clear dirty, start writeback, map"},
	{"wb_block_ns", PARAM_TIME, P(wb_block), "40", 0, 1e6, "ns",
	 "per block added to a writeback bio"},
	{"wb_end_ns", PARAM_TIME, P(wb_end), "150", 0, 1e6, "ns",
	 "writeback completion of one folio"},
	{"fsync_ns", PARAM_TIME, P(fsync), "500", 0, 1e7, "ns",
	 "->fsync entry: file_write_and_wait_range set-up and tear-down"},
	{"reclaim_ns", PARAM_TIME, P(reclaim), "300", 0, 1e6, "ns",
	 "evict one clean folio"},
	{"cache_mb", PARAM_U32, P(cache_mb), "8192", 1, 1 << 30, "MiB",
	 "memory the page cache may hold"},
	{"folio_kb", PARAM_U32, P(folio_kb), "0", 0, 1 << 20, "KiB",
	 "large folios of this size (a multiple of the page size); 0: pages"},
	{"read_ahead_kb", PARAM_U32, P(read_ahead_kb), "128", 0, 1 << 20, "KiB",
	 "the block device's read_ahead_kb: the largest readahead window"},
	{"dirty_background_ratio", PARAM_U32, P(dirty_background_ratio), "10", 0,
	 100, "%", "vm.dirty_background_ratio: the flusher starts above this"},
	{"dirty_ratio", PARAM_U32, P(dirty_ratio), "20", 1, 100, "%",
	 "vm.dirty_ratio: writers wait above this (dirty + writeback)"},
	{"dirty_writeback_ns", PARAM_TIME, P(dirty_writeback), "5000000000", 1,
	 1e13, "ns", "vm.dirty_writeback_centisecs: the flusher's period"},
	{"dirty_expire_ns", PARAM_TIME, P(dirty_expire), "30000000000", 0, 1e13,
	 "ns", "vm.dirty_expire_centisecs: age at which the flusher writes data"},
	PARAM_END,
};

struct pagecache {
	struct host *h;
	struct pagecache_params p;
	uint32_t folio_size;
	uint64_t limit;		/* folios */
	uint64_t nr_dirty, nr_writeback;	/* folios */
	struct mapping dirty;	/* sentinel: next = oldest dirty mapping */
	GPtrArray *sort;	/* scratch for mapping_take_dirty */
	struct writeback *wb;
	struct sim_pool folios;
	struct folio lru;	/* sentinel: next = newest, prev = oldest */
	struct pagecache_stats st;
};

static stage_id st_lookup, st_alloc, st_insert, st_reclaim, st_unlock;

struct pagecache *pagecache_new(struct host *h, const struct pagecache_params *p,
				uint32_t folio_size)
{
	struct pagecache *pc = g_new0(struct pagecache, 1);

	st_lookup = stage_register("filemap_get_folio", CPU_SYS, "filemap_get_folio");
	st_alloc = stage_register("folio_alloc", CPU_SYS, "filemap_alloc_folio");
	st_insert = stage_register("filemap_add_folio", CPU_SYS, "filemap_add_folio");
	st_reclaim = stage_register("folio_reclaim", CPU_SYS, "shrink_folio_list");
	st_unlock = stage_register("folio_unlock", CPU_SYS,
				   "folio_unlock, folio_wake_bit");
	pc->h = h;
	pc->p = *p;
	pc->folio_size = folio_size;
	pc->limit = ((uint64_t)p->cache_mb << 20) / folio_size;
	sim_pool_init(&pc->folios, sizeof(struct folio), 256);
	pc->lru.lru_next = pc->lru.lru_prev = &pc->lru;
	pc->dirty.dirty_next = pc->dirty.dirty_prev = &pc->dirty;
	pc->sort = g_ptr_array_new();
	return pc;
}

void pagecache_free(struct pagecache *pc)
{
	if (!pc)
		return;
	sim_pool_destroy(&pc->folios);
	g_ptr_array_free(pc->sort, TRUE);
	g_free(pc);
}

const struct pagecache_params *pagecache_params(const struct pagecache *pc)
{
	return &pc->p;
}

uint32_t pagecache_folio_size(const struct pagecache *pc)
{
	return pc->folio_size;
}

#define TAB_MIN_SHIFT 4

static uint64_t home(const struct mapping *m, uint64_t index)
{
	return (index * UINT64_C(0x9e3779b97f4a7c15)) >> m->tab_shift;
}

static void tab_alloc(struct mapping *m, unsigned bits)
{
	m->tab_shift = 64 - bits;
	m->tab_mask = (UINT64_C(1) << bits) - 1;
	m->tab = g_new0(struct mapping_entry, m->tab_mask + 1);
}

static void tab_put(struct mapping *m, uint64_t index, struct folio *f)
{
	uint64_t pos = home(m, index);

	while (m->tab[pos].folio)
		pos = (pos + 1) & m->tab_mask;
	m->tab[pos] = (struct mapping_entry){.index = index, .folio = f};
}

/* Add a folio, doubling the table first when it would be over half full. */
static void tab_add(struct mapping *m, uint64_t index, struct folio *f)
{
	if (2 * (m->tab_used + 1) > m->tab_mask + 1) {
		struct mapping_entry *old = m->tab;
		uint64_t n = m->tab_mask + 1;

		tab_alloc(m, 64 - m->tab_shift + 1);
		for (uint64_t i = 0; i < n; i++)
			if (old[i].folio)
				tab_put(m, old[i].index, old[i].folio);
		g_free(old);
	}
	tab_put(m, index, f);
	m->tab_used++;
}

/* Remove index's entry, moving later entries of its probe run back into
 * the gap so that no lookup stops short of them. */
static void tab_del(struct mapping *m, uint64_t index)
{
	uint64_t pos = home(m, index), j;

	while (m->tab[pos].index != index || !m->tab[pos].folio)
		pos = (pos + 1) & m->tab_mask;
	m->tab_used--;
	for (j = pos;;) {
		m->tab[pos].folio = NULL;
		for (;;) {
			j = (j + 1) & m->tab_mask;
			if (!m->tab[j].folio)
				return;
			uint64_t k = home(m, m->tab[j].index);
			/* It stays unless its home is outside (pos, j]. */
			if (pos <= j ? (pos < k && k <= j) : (pos < k || k <= j))
				continue;
			break;
		}
		m->tab[pos] = m->tab[j];
		pos = j;
	}
}

void mapping_init(struct mapping *m, struct pagecache *pc, void *host,
		  uint64_t size, uint32_t block_size)
{
	*m = (struct mapping){.pc = pc, .host = host};
	m->folio_size = pc->folio_size;
	m->block_size = block_size < pc->folio_size ? block_size : pc->folio_size;
	m->blocks_per_folio = m->folio_size / m->block_size;
	g_assert(m->blocks_per_folio <= FOLIO_BLOCKS_MAX);
	m->nfolios = (size + m->folio_size - 1) / m->folio_size;
	tab_alloc(m, TAB_MIN_SHIFT);
}

void mapping_clear(struct mapping *m)
{
	if (m->dirty_next) {
		m->dirty_prev->dirty_next = m->dirty_next;
		m->dirty_next->dirty_prev = m->dirty_prev;
	}
	g_free(m->tab);
	*m = (struct mapping){0};
}

static void lru_del(struct folio *f)
{
	f->lru_prev->lru_next = f->lru_next;
	f->lru_next->lru_prev = f->lru_prev;
	f->lru_prev = f->lru_next = NULL;
}

static void lru_add(struct pagecache *pc, struct folio *f)
{
	f->lru_next = pc->lru.lru_next;
	f->lru_prev = &pc->lru;
	pc->lru.lru_next->lru_prev = f;
	pc->lru.lru_next = f;
}

void folio_touch(struct folio *f)
{
	struct pagecache *pc = f->m->pc;
	if (f->lru_next && pc->lru.lru_next != f) {
		lru_del(f);
		lru_add(pc, f);
	}
}

/* Evict the oldest clean, idle folio; false if there is none. */
static bool evictable(const struct folio *f)
{
	return !f->dirty && !f->locked && !f->writeback && !f->waiters;
}

static void evict(struct pagecache *pc, struct folio *f)
{
	lru_del(f);
	tab_del(f->m, f->index);
	sim_pool_put(&pc->folios, f);
	pc->st.nr_folios--;
	pc->st.evicted++;
}

/* Evict the oldest clean, idle folio; false if there is none. A busy
 * folio found on the way goes back to the head of the list, as
 * shrink_folio_list rotates folios under writeback, so that the next
 * search does not walk it again. */
static bool evict_one(struct pagecache *pc)
{
	unsigned n = pc->st.nr_folios;

	for (struct folio *f = pc->lru.lru_prev; f != &pc->lru && n--;
	     f = pc->lru.lru_prev) {
		if (!evictable(f)) {
			lru_del(f);
			lru_add(pc, f);
			continue;
		}
		evict(pc, f);
		return true;
	}
	return false;
}

void mapping_invalidate_range(struct mapping *m, uint64_t off, uint64_t len)
{
	uint64_t first = off / m->folio_size;
	uint64_t end = len ? (off + len - 1) / m->folio_size + 1 : first;
	/* Collected first: each eviction moves entries of the table. */
	g_autoptr(GPtrArray) victims = g_ptr_array_new();

	if (end - first > m->tab_mask + 1) {
		for (uint64_t i = 0; i <= m->tab_mask; i++) {
			struct folio *f = m->tab[i].folio;
			if (f && f->index >= first && f->index < end && evictable(f))
				g_ptr_array_add(victims, f);
		}
	} else {
		for (uint64_t i = first; i < end && i < m->nfolios; i++) {
			struct folio *f = mapping_folio(m, i);
			if (f && evictable(f))
				g_ptr_array_add(victims, f);
		}
	}
	for (unsigned i = 0; i < victims->len; i++)
		evict(m->pc, victims->pdata[i]);
}

void mapping_invalidate(struct mapping *m)
{
	mapping_invalidate_range(m, 0, m->nfolios * m->folio_size);
}

static struct folio *folio_get(struct pagecache *pc, struct xctx *x)
{
	if (pc->st.nr_folios >= pc->limit && evict_one(pc) && x)
		xctx_charge(x, st_reclaim, pc->p.reclaim);
	struct folio *f = sim_pool_get(&pc->folios);
	*f = (struct folio){0};
	if (++pc->st.nr_folios > pc->st.peak_folios)
		pc->st.peak_folios = pc->st.nr_folios;
	return f;
}

struct folio *folio_lookup(struct xctx *x, struct mapping *m, uint64_t index)
{
	struct folio *f = index < m->nfolios ? mapping_folio(m, index) : NULL;

	xctx_charge(x, st_lookup, m->pc->p.lookup);
	if (f)
		m->pc->st.hits++;
	else
		m->pc->st.misses++;
	return f;
}

static struct folio *insert(struct pagecache *pc, struct mapping *m,
			    uint64_t index, struct xctx *x)
{
	struct folio *f = folio_get(pc, x);

	g_assert(index < m->nfolios && !mapping_folio(m, index));
	f->m = m;
	f->index = index;
	tab_add(m, index, f);
	lru_add(pc, f);
	pc->st.inserted++;
	return f;
}

struct folio *folio_create(struct xctx *x, struct mapping *m, uint64_t index)
{
	struct pagecache *pc = m->pc;

	xctx_charge(x, st_alloc, pc->p.alloc);
	xctx_charge(x, st_insert, pc->p.insert);
	struct folio *f = insert(pc, m, index, x);
	f->locked = true;
	return f;
}

void folio_preload(struct mapping *m, uint64_t index)
{
	if (index >= m->nfolios || mapping_folio(m, index))
		return;
	struct folio *f = insert(m->pc, m, index, NULL);
	f->uptodate = m->blocks_per_folio == 64 ? UINT64_MAX :
		      (UINT64_C(1) << m->blocks_per_folio) - 1;
}

uint64_t folio_block_mask(const struct folio *f, uint64_t off, uint64_t len)
{
	const struct mapping *m = f->m;
	uint64_t start = f->index * m->folio_size;
	uint64_t lo = off > start ? off - start : 0;
	uint64_t hi = off + len - start;
	if (hi > m->folio_size)
		hi = m->folio_size;
	unsigned b0 = (unsigned)(lo / m->block_size);
	unsigned b1 = (unsigned)((hi + m->block_size - 1) / m->block_size);
	uint64_t mask = b1 - b0 == 64 ? UINT64_MAX : ((UINT64_C(1) << (b1 - b0)) - 1);
	return mask << b0;
}

void folio_mark_dirty(struct folio *f, uint64_t mask)
{
	struct mapping *m = f->m;
	struct pagecache *pc = m->pc;

	if (!f->dirty && mask) {
		if (m->nr_dirty++ == 0) {
			/* __mark_inode_dirty: on the flusher's list, oldest
			 * first. */
			m->dirtied_when = sim_now(host_sim(pc->h));
			m->dirty_prev = pc->dirty.dirty_prev;
			m->dirty_next = &pc->dirty;
			pc->dirty.dirty_prev->dirty_next = m;
			pc->dirty.dirty_prev = m;
		}
		pc->nr_dirty++;
		pc->st.dirtied++;
		f->dirty_next = m->dirty_head;
		m->dirty_head = f;
	}
	f->dirty |= mask;
}

struct mapping *pagecache_oldest_dirty(const struct pagecache *pc)
{
	return pc->dirty.dirty_next == &pc->dirty ? NULL : pc->dirty.dirty_next;
}

uint64_t pagecache_nr_dirty(const struct pagecache *pc)
{
	return pc->nr_dirty;
}

uint64_t pagecache_nr_writeback(const struct pagecache *pc)
{
	return pc->nr_writeback;
}

uint64_t pagecache_nr_limit(const struct pagecache *pc)
{
	return pc->limit;
}

struct host *pagecache_host(const struct pagecache *pc)
{
	return pc->h;
}

void pagecache_set_writeback(struct pagecache *pc, struct writeback *wb)
{
	pc->wb = wb;
}

struct writeback *pagecache_writeback(const struct pagecache *pc)
{
	return pc->wb;
}

static int by_index(const void *a, const void *b)
{
	const struct folio *x = *(struct folio *const *)a;
	const struct folio *y = *(struct folio *const *)b;
	return x->index < y->index ? -1 : x->index > y->index;
}

struct folio *mapping_take_dirty(struct mapping *m)
{
	struct folio *head = m->dirty_head, *out = NULL;
	unsigned n = 0;

	m->dirty_head = NULL;
	for (struct folio *f = head; f; f = f->dirty_next)
		n++;
	if (n < 2)
		return head;
	/* Writeback walks the file in index order. */
	GPtrArray *v = m->pc->sort;
	g_ptr_array_set_size(v, 0);
	for (struct folio *f = head; f; f = f->dirty_next)
		g_ptr_array_add(v, f);
	qsort(v->pdata, v->len, sizeof(void *), by_index);
	for (unsigned i = v->len; i-- > 0; ) {
		struct folio *f = v->pdata[i];
		f->dirty_next = out;
		out = f;
	}
	return out;
}

uint64_t folio_start_writeback(struct folio *f)
{
	struct mapping *m = f->m;
	struct pagecache *pc = m->pc;
	uint64_t blocks = f->dirty;

	if (blocks) {
		pc->nr_dirty--;
		if (--m->nr_dirty == 0) {
			m->dirty_prev->dirty_next = m->dirty_next;
			m->dirty_next->dirty_prev = m->dirty_prev;
			m->dirty_prev = m->dirty_next = NULL;
		}
	}
	f->dirty = 0;
	if (!f->writeback) {
		f->writeback = true;
		m->nr_writeback++;
		pc->nr_writeback++;
	}
	pc->st.written_back_blocks += (uint64_t)__builtin_popcountll(blocks);
	return blocks;
}

bool folio_end_writeback(struct folio *f)
{
	if (f->wb_bios && --f->wb_bios)
		return false;
	f->writeback = false;
	f->m->nr_writeback--;
	f->m->pc->nr_writeback--;
	return true;
}

void folio_wait(struct folio *f, struct folio_waiter *w)
{
	w->next = f->waiters;
	f->waiters = w;
}

void folio_unlock(struct xctx *x, struct folio *f)
{
	struct folio_waiter *w = f->waiters;

	f->locked = false;
	f->waiters = NULL;
	while (w) {
		struct folio_waiter *next = w->next;
		xctx_charge(x, st_unlock, f->m->pc->p.unlock);
		w->fn(x, w);
		w = next;
	}
}

void pagecache_get_stats(const struct pagecache *pc, struct pagecache_stats *s)
{
	*s = pc->st;
}
