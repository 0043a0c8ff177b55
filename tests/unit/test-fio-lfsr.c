/*
 * fio's LFSR block order (sim/workloads/fio/fio_lfsr.c): the blocks are
 * those fio 3.33 wrote to its iolog for the same job (null engine,
 * bs=4k, rw=randread, random_generator=lfsr, fio's first thread,
 * measured on the development machine); every pass visits each block
 * once; a seed that is the register's dead state is refused.
 */
#include <glib.h>

#include "workloads/fio/fio_lfsr.h"
#include "workloads/fio/fio_taus.h"
#include "workloads/fio/options.h"

/* the offsets' seed of fio's first thread with the default randrepeat=1 */
static uint64_t first_thread_seed(void)
{
	struct job_options o = {.randrepeat = true};

	return fio_taus_job_seed(&o, FIO_TAUS_OFFSET, 1, 0);
}

static void test_first_blocks_of_16m_are_fio_3_33s(void)
{
	static const uint64_t fio_blocks[] = {3830, 1910, 950, 470, 230, 126, 50, 20};
	struct fio_lfsr l;
	uint64_t b;

	g_assert_true(fio_lfsr_init(&l, 4096, first_thread_seed()));
	for (unsigned i = 0; i < G_N_ELEMENTS(fio_blocks); i++) {
		g_assert_true(fio_lfsr_next(&l, &b));
		g_assert_cmpuint(b, ==, fio_blocks[i]);
	}
}

static void test_whole_pass_of_400k_is_fio_3_33s(void)
{
	static const uint64_t fio_blocks[100] = {
		27, 77, 19, 73, 18, 41, 84, 10, 37, 82, 9, 68, 2, 33, 80, 8, 36,
		50, 57, 92, 14, 39, 83, 26, 45, 86, 11, 69, 98, 17, 72, 4, 34,
		49, 88, 12, 38, 51, 89, 22, 43, 85, 21, 74, 5, 66, 1, 64, 0, 32,
		48, 56, 60, 62, 63, 95, 31, 79, 30, 47, 87, 29, 78, 7, 67, 97,
		24, 44, 54, 59, 93, 23, 75, 25, 76, 6, 35, 81, 20, 42, 53, 90,
		13, 70, 3, 65, 96, 16, 40, 52, 58, 61, 94, 15, 71, 99, 28, 46,
		55, 91,
	};
	struct fio_lfsr l;
	uint64_t b;

	g_assert_true(fio_lfsr_init(&l, 100, first_thread_seed()));
	for (unsigned i = 0; i < 100; i++) {
		g_assert_true(fio_lfsr_next(&l, &b));
		g_assert_cmpuint(b, ==, fio_blocks[i]);
	}
	g_assert_false(fio_lfsr_next(&l, &b));
}

/* Passes after a reset, for sizes around the register's lengths. */
static void test_every_pass_visits_each_block_once(gconstpointer data)
{
	uint64_t n = GPOINTER_TO_SIZE(data);
	g_autofree guint8 *seen = g_new0(guint8, n);
	struct fio_lfsr l;
	uint64_t b;

	g_assert_true(fio_lfsr_init(&l, n, 12345));
	for (unsigned pass = 1; pass <= 3; pass++) {
		for (uint64_t i = 0; i < n; i++) {
			g_assert_true(fio_lfsr_next(&l, &b));
			g_assert_cmpuint(b, <, n);
			g_assert_cmpuint(seen[b], ==, pass - 1);
			seen[b] = (guint8)pass;
		}
		g_assert_false(fio_lfsr_next(&l, &b));
		g_assert_true(fio_lfsr_reset(&l, 12345));
	}
}

static void test_dead_state_seed_is_refused(void)
{
	struct fio_lfsr l;

	/* 100 blocks take a 7-bit register: all ones is 0x7f */
	g_assert_false(fio_lfsr_init(&l, 100, 0x7f));
	g_assert_false(fio_lfsr_init(&l, 100, 0xff7f));
	g_assert_true(fio_lfsr_init(&l, 100, 0x7e));
}

int main(int argc, char **argv)
{
	static const uint64_t sizes[] = {1, 2, 7, 8, 9, 100, 4095, 4096, 5000};

	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/fio-lfsr/first-blocks-of-16m-are-fio-3.33s",
			test_first_blocks_of_16m_are_fio_3_33s);
	g_test_add_func("/fio-lfsr/whole-pass-of-400k-is-fio-3.33s",
			test_whole_pass_of_400k_is_fio_3_33s);
	for (unsigned i = 0; i < G_N_ELEMENTS(sizes); i++) {
		g_autofree char *path = g_strdup_printf(
			"/fio-lfsr/every-pass-visits-each-block-once/%" G_GUINT64_FORMAT,
			sizes[i]);
		g_test_add_data_func(path, GSIZE_TO_POINTER(sizes[i]),
				     test_every_pass_visits_each_block_once);
	}
	g_test_add_func("/fio-lfsr/dead-state-seed-is-refused",
			test_dead_state_seed_is_refused);
	return g_test_run();
}
