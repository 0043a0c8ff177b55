/*
 * fio's offset generator (sim/workloads/fio/fio_taus.c): the first blocks it
 * draws from a 4096-block file are those fio 3.33 wrote to its iolog for
 * the same job (null engine, size=16m, bs=4k, rw=randread, norandommap,
 * 8 I/Os, measured on the development machine), for each generator and
 * way of seeding; and a reseed starts the sequence again.
 */
#include <glib.h>

#include "workloads/fio/fio_taus.h"
#include "workloads/fio/options.h"

#define NBLOCKS 4096

struct offsets_case {
	const char *name;
	bool randrepeat, randseed_set, use64;
	uint64_t randseed;
	uint64_t fio_blocks[8];		/* fio 3.33's write_iolog / 4096 */
};

static const struct offsets_case cases[] = {
	{"tausworthe", true, false, false, 0x89,
	 {247, 3032, 3453, 1925, 1646, 3441, 1558, 1448}},
	{"tausworthe64", true, false, true, 0x89,
	 {3843, 107, 330, 407, 2167, 106, 1803, 1366}},
	{"randrepeat=0 randseed=1234", false, true, false, 1234,
	 {305, 1769, 298, 1080, 1043, 877, 1839, 5}},
};

static void test_first_blocks_are_fio_3_33s(gconstpointer data)
{
	const struct offsets_case *c = data;
	struct job_options o = {
		.randrepeat = c->randrepeat, .randseed = c->randseed,
		.randseed_set = c->randseed_set,
	};
	struct fio_taus t;

	fio_taus_seed(&t, fio_taus_job_seed(&o, FIO_TAUS_OFFSET, 1, 0), c->use64);
	for (unsigned i = 0; i < G_N_ELEMENTS(c->fio_blocks); i++)
		g_assert_cmpuint(fio_taus_block(&t, NBLOCKS), ==, c->fio_blocks[i]);
}

static void test_randseed_moves_nothing_under_randrepeat(void)
{
	struct job_options a = {.randrepeat = true, .randseed = 1, .randseed_set = true};
	struct job_options b = {.randrepeat = true, .randseed = 2, .randseed_set = true};

	g_assert_cmpuint(fio_taus_job_seed(&a, FIO_TAUS_OFFSET, 3, 0), ==,
			 fio_taus_job_seed(&b, FIO_TAUS_OFFSET, 3, 0));
}

static void test_unseeded_takes_the_runs_seed(void)
{
	struct job_options o = {.randrepeat = false};

	g_assert_cmpuint(fio_taus_job_seed(&o, FIO_TAUS_OFFSET, 1, 77), ==, 77);
}

static void test_reseed_starts_again(void)
{
	struct fio_taus t;
	uint64_t first = 0;

	fio_taus_seed(&t, 1234, false);
	first = fio_taus_next(&t);
	fio_taus_next(&t);
	fio_taus_seed(&t, 1234, false);
	g_assert_cmpuint(fio_taus_next(&t), ==, first);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *path = g_strdup_printf(
			"/fio-taus/first-blocks-are-fio-3.33s/%s", cases[i].name);
		g_test_add_data_func(path, &cases[i], test_first_blocks_are_fio_3_33s);
	}
	g_test_add_func("/fio-taus/randseed-moves-nothing-under-randrepeat",
			test_randseed_moves_nothing_under_randrepeat);
	g_test_add_func("/fio-taus/unseeded-takes-the-runs-seed",
			test_unseeded_takes_the_runs_seed);
	g_test_add_func("/fio-taus/reseed-starts-again", test_reseed_starts_again);
	return g_test_run();
}
