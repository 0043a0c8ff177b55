/*
 * fio's random map (sim/workloads/fio/fio_randmap.c): a free block is taken
 * as drawn, a used one gives way to the next free block after it, round
 * to the start, and a full map answers FIO_RANDMAP_NONE until cleared; a
 * run of blocks is taken up to the first used one; the search alone
 * takes nothing.
 */
#include <glib.h>
#include <string.h>

#include "workloads/fio/fio_randmap.h"

static void test_free_block_is_taken_as_drawn(void)
{
	struct fio_randmap m;

	fio_randmap_init(&m, 100);
	g_assert_cmpuint(fio_randmap_take(&m, 42), ==, 42);
	g_assert_cmpuint(fio_randmap_take(&m, 7), ==, 7);
	fio_randmap_destroy(&m);
}

static void test_used_block_gives_way_to_the_next_free(void)
{
	struct fio_randmap m;

	fio_randmap_init(&m, 100);
	fio_randmap_take(&m, 42);
	fio_randmap_take(&m, 43);
	g_assert_cmpuint(fio_randmap_take(&m, 42), ==, 44);
	fio_randmap_destroy(&m);
}

static void test_search_wraps_to_the_start(void)
{
	struct fio_randmap m;

	fio_randmap_init(&m, 100);
	fio_randmap_take(&m, 99);
	g_assert_cmpuint(fio_randmap_take(&m, 99), ==, 0);
	fio_randmap_destroy(&m);
}

/* Past whole words of used blocks, through the levels above, for map
 * sizes around the word and level boundaries. */
static void test_next_free_looks_without_taking(void)
{
	struct fio_randmap m;

	fio_randmap_init(&m, 100);
	fio_randmap_take(&m, 42);
	g_assert_cmpuint(fio_randmap_next_free(&m, 42), ==, 43);
	g_assert_cmpuint(fio_randmap_next_free(&m, 42), ==, 43);
	g_assert_cmpuint(fio_randmap_take(&m, 43), ==, 43);
	fio_randmap_destroy(&m);
}

static void test_every_block_once_then_none(void)
{
	static const uint64_t sizes[] = {1, 63, 64, 65, 4095, 4096, 4097, 300000};

	for (size_t s = 0; s < G_N_ELEMENTS(sizes); s++) {
		uint64_t n = sizes[s];
		g_autofree guint8 *seen = g_new0(guint8, n);
		struct fio_randmap m;

		fio_randmap_init(&m, n);
		for (int pass = 0; pass < 2; pass++) {
			memset(seen, 0, n);
			for (uint64_t i = 0; i < n; i++) {
				/* always the same draw: each take finds the
				 * next free block along the whole map */
				uint64_t b = fio_randmap_take(&m, n / 3);
				g_assert_cmpuint(b, <, n);
				g_assert_false(seen[b]);
				seen[b] = 1;
			}
			g_assert_cmpuint(fio_randmap_take(&m, 0), ==, FIO_RANDMAP_NONE);
			fio_randmap_clear(&m);
		}
		fio_randmap_destroy(&m);
	}
}

static void test_run_stops_at_the_first_used_block(void)
{
	struct fio_randmap m;

	fio_randmap_init(&m, 100);
	fio_randmap_take(&m, 13);
	g_assert_cmpuint(fio_randmap_take_run(&m, 10, 8), ==, 3);
	g_assert_cmpuint(fio_randmap_take(&m, 10), ==, 14);
	fio_randmap_destroy(&m);
}

/* axmap_set_nr: past the last block to the end of its word (blocks 100
 * to 127 of a 100-block map), but not past a word that the last block
 * ends. */
static void test_run_goes_on_to_the_end_of_the_last_word(void)
{
	static const struct {
		uint64_t nblocks, from, n, taken;
	} cases[] = {
		{100, 98, 8, 8},
		{100, 98, 40, 30},
		{128, 126, 8, 2},
		{64, 63, 4, 1},
	};

	for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct fio_randmap m;

		fio_randmap_init(&m, cases[i].nblocks);
		g_assert_cmpuint(fio_randmap_take_run(&m, cases[i].from,
						      cases[i].n), ==,
				 cases[i].taken);
		g_assert_cmpuint(fio_randmap_next_free(&m, cases[i].from), ==, 0);
		fio_randmap_destroy(&m);
	}
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/fio-randmap/free-block-is-taken-as-drawn",
			test_free_block_is_taken_as_drawn);
	g_test_add_func("/fio-randmap/used-block-gives-way-to-the-next-free",
			test_used_block_gives_way_to_the_next_free);
	g_test_add_func("/fio-randmap/search-wraps-to-the-start",
			test_search_wraps_to_the_start);
	g_test_add_func("/fio-randmap/next-free-looks-without-taking",
			test_next_free_looks_without_taking);
	g_test_add_func("/fio-randmap/every-block-once-then-none",
			test_every_block_once_then_none);
	g_test_add_func("/fio-randmap/run-goes-on-to-the-end-of-the-last-word",
			test_run_goes_on_to_the_end_of_the_last_word);
	g_test_add_func("/fio-randmap/run-stops-at-the-first-used-block",
			test_run_stops_at_the_first_used_block);
	return g_test_run();
}
