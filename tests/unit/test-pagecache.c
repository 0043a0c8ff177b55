/*
 * Description: the page cache's bookkeeping: which blocks of a folio a
 * byte range covers, a folio counted dirty once however often it is
 * dirtied, writeback taking dirty folios in file order, eviction of the
 * oldest clean and idle folio once the cache is full, and an unlock that
 * runs each waiter exactly once; a mapping as big as a 2 TB device that
 * finds every cached folio, and none evicted, after thousands of
 * evictions scattered over it, with a table sized by the folios cached.
 */
#include <glib.h>

#include "fs/pagecache.h"

/* A host of one CPU and a page cache of folio_size folios. */
struct fixture {
	struct sim s;
	struct host *h;
	struct pagecache *pc;
	struct mapping m;
};

static void fixture_init(struct fixture *fx, uint32_t folio_size,
			 uint32_t block_size, uint64_t file_size, uint32_t cache_mb)
{
	struct host_params hp;
	struct pagecache_params pp;

	params_set_defaults(host_param_table, &hp);
	params_set_defaults(pagecache_param_table, &pp);
	pp.cache_mb = cache_mb;
	sim_init(&fx->s, 1);
	fx->h = host_new(&fx->s, &hp);
	params_clear(host_param_table, &hp);
	fx->pc = pagecache_new(fx->h, &pp, folio_size);
	mapping_init(&fx->m, fx->pc, NULL, file_size, block_size);
}

static void fixture_clear(struct fixture *fx)
{
	mapping_clear(&fx->m);
	pagecache_free(fx->pc);
	host_free(fx->h);
	sim_destroy(&fx->s);
}

/* The folio at index, put in the cache clean and uptodate. */
static struct folio *cached(struct fixture *fx, uint64_t index)
{
	folio_preload(&fx->m, index);
	g_assert_nonnull(mapping_folio(&fx->m, index));
	return mapping_folio(&fx->m, index);
}

/* ---- folio_block_mask ---- */

struct mask_case {
	const char *path;
	uint32_t folio_size, block_size;
	uint64_t index, off, len;
	uint64_t mask;
};

#define K 1024
static const struct mask_case mask_cases[] = {
	{"/pagecache/block-mask/4k-folio-4k-blocks/whole",
	 4 * K, 4 * K, 0, 0, 4 * K, 0x1},
	{"/pagecache/block-mask/4k-folio-4k-blocks/range-over-folio",
	 4 * K, 4 * K, 1, 2 * K, 8 * K, 0x1},
	{"/pagecache/block-mask/4k-folio-1k-blocks/one-block",
	 4 * K, 1 * K, 0, 1 * K, 1 * K, 0x2},
	{"/pagecache/block-mask/4k-folio-1k-blocks/partial-blocks-round-out",
	 4 * K, 1 * K, 0, 512, 1 * K, 0x3},
	{"/pagecache/block-mask/4k-folio-1k-blocks/tail-of-range-past-folio",
	 4 * K, 1 * K, 0, 2 * K, 6 * K, 0xc},
	{"/pagecache/block-mask/4k-folio-1k-blocks/head-of-range-before-folio",
	 4 * K, 1 * K, 1, 3 * K, 2 * K, 0x1},
	{"/pagecache/block-mask/64k-folio-4k-blocks/first-block",
	 64 * K, 4 * K, 0, 0, 4 * K, 0x1},
	{"/pagecache/block-mask/64k-folio-4k-blocks/last-block",
	 64 * K, 4 * K, 0, 60 * K, 4 * K, 0x8000},
	{"/pagecache/block-mask/64k-folio-4k-blocks/middle-blocks",
	 64 * K, 4 * K, 2, 128 * K + 12 * K, 8 * K, 0x18},
	{"/pagecache/block-mask/64k-folio-4k-blocks/range-over-folio",
	 64 * K, 4 * K, 1, 0, 192 * K, 0xffff},
	{"/pagecache/block-mask/64k-folio-1k-blocks/whole",
	 64 * K, 1 * K, 0, 0, 64 * K, UINT64_MAX},
	{"/pagecache/block-mask/64k-folio-1k-blocks/last-block",
	 64 * K, 1 * K, 3, 256 * K - 1 * K, 1 * K, UINT64_C(1) << 63},
	{"/pagecache/block-mask/64k-folio-1k-blocks/sub-block-write",
	 64 * K, 1 * K, 0, 5 * K + 100, 200, 0x20},
};

static void test_block_mask(gconstpointer data)
{
	const struct mask_case *c = data;
	struct fixture fx;

	fixture_init(&fx, c->folio_size, c->block_size, 1 << 20, 64);
	struct folio f = {.m = &fx.m, .index = c->index};
	g_assert_cmphex(folio_block_mask(&f, c->off, c->len), ==, c->mask);
	fixture_clear(&fx);
}

/* ---- dirty state ---- */

/* Dirtying blocks of a folio that is already dirty adds blocks, not
 * another dirty folio. */
static void test_mark_dirty_counts_folio_once(void)
{
	struct fixture fx;
	struct pagecache_stats st;

	fixture_init(&fx, 64 * K, 4 * K, 1 << 20, 64);
	struct folio *a = cached(&fx, 3), *b = cached(&fx, 7);
	folio_mark_dirty(a, 0);
	g_assert_cmpuint(fx.m.nr_dirty, ==, 0);
	folio_mark_dirty(a, 0x1);
	folio_mark_dirty(a, 0x4);
	folio_mark_dirty(a, 0x1);
	g_assert_cmpuint(fx.m.nr_dirty, ==, 1);
	g_assert_cmphex(a->dirty, ==, 0x5);
	folio_mark_dirty(b, 0x8000);
	g_assert_cmpuint(fx.m.nr_dirty, ==, 2);
	pagecache_get_stats(fx.pc, &st);
	g_assert_cmpuint(st.dirtied, ==, 2);
	fixture_clear(&fx);
}

/* Writeback walks the file in index order, whatever order the folios
 * were dirtied in; the counts cross the 64 folios the sort keeps on the
 * stack. */
static void test_take_dirty_in_index_order(gconstpointer data)
{
	unsigned n = GPOINTER_TO_UINT(data);
	struct fixture fx;

	fixture_init(&fx, 4 * K, 4 * K, 1 << 20, 64);
	/* 97 is prime and above every n, so i * 97 mod 256 visits n distinct
	 * indices out of order. */
	for (unsigned i = 0; i < n; i++)
		folio_mark_dirty(cached(&fx, (i * 97) % 256), 0x1);
	unsigned seen = 0;
	int64_t prev = -1;
	for (struct folio *f = mapping_take_dirty(&fx.m); f; f = f->dirty_next) {
		g_assert_cmpint((int64_t)f->index, >, prev);
		prev = (int64_t)f->index;
		seen++;
	}
	g_assert_cmpuint(seen, ==, n);
	g_assert_null(fx.m.dirty_head);
	fixture_clear(&fx);
}

/* ---- eviction ---- */

enum busy { BUSY_NONE, BUSY_DIRTY, BUSY_LOCKED, BUSY_WRITEBACK, BUSY_WAITED };

struct evict_case {
	const char *path;
	enum busy oldest;	/* the state of the oldest folio */
	uint64_t evicted;	/* the folio that must go */
};

static const struct evict_case evict_cases[] = {
	{"/pagecache/evict/oldest-clean-folio", BUSY_NONE, 0},
	{"/pagecache/evict/keeps-dirty", BUSY_DIRTY, 1},
	{"/pagecache/evict/keeps-locked", BUSY_LOCKED, 1},
	{"/pagecache/evict/keeps-under-writeback", BUSY_WRITEBACK, 1},
	{"/pagecache/evict/keeps-waited-on", BUSY_WAITED, 1},
};

static void no_wake(struct xctx *x, struct folio_waiter *w)
{
	(void)x;
	(void)w;
}

/* A cache of 1 MiB holds 256 folios of 4 KiB: the 257th evicts one. */
static void test_evict(gconstpointer data)
{
	const struct evict_case *c = data;
	struct fixture fx;
	struct folio_waiter w = {.fn = no_wake};
	struct pagecache_stats st;

	fixture_init(&fx, 4 * K, 4 * K, 2 << 20, 1);
	for (uint64_t i = 0; i < 256; i++)
		cached(&fx, i);
	struct folio *oldest = mapping_folio(&fx.m, 0);
	switch (c->oldest) {
	case BUSY_NONE:
		break;
	case BUSY_DIRTY:
		folio_mark_dirty(oldest, 0x1);
		break;
	case BUSY_LOCKED:
		oldest->locked = true;
		break;
	case BUSY_WRITEBACK:
		oldest->writeback = true;
		break;
	case BUSY_WAITED:
		folio_wait(oldest, &w);
		break;
	}
	pagecache_get_stats(fx.pc, &st);
	g_assert_cmpuint(st.evicted, ==, 0);
	cached(&fx, 256);
	pagecache_get_stats(fx.pc, &st);
	g_assert_cmpuint(st.evicted, ==, 1);
	g_assert_cmpuint(st.nr_folios, ==, 256);
	for (uint64_t i = 0; i <= 256; i++)
		if (i == c->evicted)
			g_assert_null(mapping_folio(&fx.m, i));
		else
			g_assert_nonnull(mapping_folio(&fx.m, i));
	fixture_clear(&fx);
}

/* A folio used again is no longer the oldest. */
static void test_touch_saves_from_eviction(void)
{
	struct fixture fx;

	fixture_init(&fx, 4 * K, 4 * K, 2 << 20, 1);
	for (uint64_t i = 0; i < 256; i++)
		cached(&fx, i);
	folio_touch(mapping_folio(&fx.m, 0));
	cached(&fx, 256);
	g_assert_nonnull(mapping_folio(&fx.m, 0));
	g_assert_null(mapping_folio(&fx.m, 1));
	fixture_clear(&fx);
}

/* ---- unlock and waiters ---- */

struct counted_waiter {
	struct folio_waiter w;
	unsigned calls;
};

static void count_wake(struct xctx *x, struct folio_waiter *w)
{
	struct counted_waiter *cw = (struct counted_waiter *)w;

	g_assert_nonnull(x);
	cw->calls++;
}

/* folio_unlock charges CPU time, so it runs in a task's step: twice, to
 * see that a second unlock finds no waiter left. */
struct unlocker {
	struct sim_component c;
	struct task *t;
	struct folio *f;
	unsigned unlocks;
};

static void unlocker_handle(struct sim_component *c, unsigned type, void *ptr,
			    uint64_t arg)
{
	struct unlocker *u = (struct unlocker *)c;
	struct xctx *x = task_xctx(u->t);

	(void)type;
	(void)ptr;
	(void)arg;
	folio_unlock(x, u->f);
	if (++u->unlocks < 2)
		task_then(u->t, SIM_MSG(c, 0, NULL, 0));
	else
		task_exit(u->t);
}

static const struct sim_component_ops unlocker_ops = {
	.name = "unlocker",
	.handle = unlocker_handle,
};

static void test_unlock_runs_each_waiter_once(void)
{
	struct fixture fx;
	struct counted_waiter cw[3];
	struct unlocker u = {0};

	fixture_init(&fx, 4 * K, 4 * K, 1 << 20, 64);
	struct folio *f = cached(&fx, 0);
	f->locked = true;
	for (unsigned i = 0; i < G_N_ELEMENTS(cw); i++) {
		cw[i] = (struct counted_waiter){.w.fn = count_wake};
		folio_wait(f, &cw[i].w);
	}
	sim_component_init(&fx.s, &u.c, &unlocker_ops, "unlocker");
	u.f = f;
	u.t = task_new(fx.h, "unlocker", TASK_USER, 1, NULL);
	task_start(u.t, SIM_MSG(&u.c, 0, NULL, 0));
	sim_run(&fx.s, SIM_TIME_MAX);
	g_assert_cmpuint(u.unlocks, ==, 2);
	for (unsigned i = 0; i < G_N_ELEMENTS(cw); i++)
		g_assert_cmpuint(cw[i].calls, ==, 1);
	g_assert_false(f->locked);
	g_assert_null(f->waiters);
	stage_id st = stage_register("folio_unlock", CPU_SYS, NULL);
	g_assert_cmpuint(host_stage_count(fx.h)[st], ==, G_N_ELEMENTS(cw));
	fixture_clear(&fx);
}

/* ---- the mapping's table ---- */

static uint64_t anywhere(GRand *r, uint64_t n)
{
	return ((uint64_t)g_rand_int(r) << 13 |
		(uint64_t)g_rand_int_range(r, 0, 1 << 13)) % n;
}

static bool contains(const uint64_t *a, unsigned n, uint64_t v)
{
	for (unsigned i = 0; i < n; i++)
		if (a[i] == v)
			return true;
	return false;
}

static void test_huge_mapping_finds_survivors(void)
{
	const uint64_t size = UINT64_C(2) << 40;	/* 2 TiB: 2^29 folios */
	const unsigned n = 5000, limit = 256;	/* 1 MiB of 4 KiB folios */
	struct fixture fx;
	GRand *r = g_rand_new_with_seed(7);
	uint64_t *idx = g_new(uint64_t, n);
	struct pagecache_stats st;

	fixture_init(&fx, 4 * K, 4 * K, size, 1);
	for (unsigned i = 0; i < n; i++) {
		/* Scattered, every fourth next to the one before, no repeats. */
		uint64_t v = i % 4 == 3 ? (idx[i - 1] + 1) % fx.m.nfolios :
			     anywhere(r, fx.m.nfolios);
		while (contains(idx, i, v))
			v = anywhere(r, fx.m.nfolios);
		idx[i] = v;
		cached(&fx, v);
	}
	pagecache_get_stats(fx.pc, &st);
	g_assert_cmpuint(st.evicted, ==, n - limit);
	for (unsigned i = 0; i < n; i++) {
		struct folio *f = mapping_folio(&fx.m, idx[i]);
		if (i < n - limit) {
			g_assert_null(f);
		} else {
			g_assert_nonnull(f);
			g_assert_cmpuint(f->index, ==, idx[i]);
		}
	}
	/* The table follows the folios cached, not the 2^29 of the file. */
	g_assert_cmpuint(fx.m.tab_mask + 1, <=, 4 * limit);
	mapping_invalidate(&fx.m);
	for (unsigned i = n - limit; i < n; i++)
		g_assert_null(mapping_folio(&fx.m, idx[i]));
	g_free(idx);
	g_rand_free(r);
	fixture_clear(&fx);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	for (unsigned i = 0; i < G_N_ELEMENTS(mask_cases); i++)
		g_test_add_data_func(mask_cases[i].path, &mask_cases[i],
				     test_block_mask);
	g_test_add_func("/pagecache/mark-dirty-counts-folio-once",
			test_mark_dirty_counts_folio_once);
	g_test_add_data_func("/pagecache/take-dirty-in-index-order/one",
			     GUINT_TO_POINTER(1), test_take_dirty_in_index_order);
	g_test_add_data_func("/pagecache/take-dirty-in-index-order/few",
			     GUINT_TO_POINTER(6), test_take_dirty_in_index_order);
	g_test_add_data_func("/pagecache/take-dirty-in-index-order/many",
			     GUINT_TO_POINTER(90), test_take_dirty_in_index_order);
	for (unsigned i = 0; i < G_N_ELEMENTS(evict_cases); i++)
		g_test_add_data_func(evict_cases[i].path, &evict_cases[i], test_evict);
	g_test_add_func("/pagecache/touch-saves-from-eviction",
			test_touch_saves_from_eviction);
	g_test_add_func("/pagecache/unlock-runs-each-waiter-once",
			test_unlock_runs_each_waiter_once);
	g_test_add_func("/pagecache/mapping/huge-file-finds-survivors",
			test_huge_mapping_finds_survivors);
	return g_test_run();
}
