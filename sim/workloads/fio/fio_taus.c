/*
 * fio's offset generator (fio 3.33's lib/rand.c, init.c, io_u.c).
 *
 * fio draws the block of a uniform random I/O from its own generator,
 * one per job, apart from the other random choices (read or write, block
 * size, file): L'Ecuyer's maximally equidistributed combined Tausworthe
 * generators, "taus88" for random_generator=tausworthe (the default) and
 * "taus258" for tausworthe64 (P. L'Ecuyer, "Maximally Equidistributed
 * Combined Tausworthe Generators", Math. Comp. 65 (1996) 203-213;
 * "Tables of Maximally Equidistributed Combined LFSR Generators", Math.
 * Comp. 68 (1999) 261-269). Each component is a linear feedback shift
 * register given by two shifts, a mask and a third shift; the output is
 * their exclusive or.
 *
 * Seeding, as fio does it: a linear congruential chain from the seed
 * (multiplier 69069, or 6906969069 for 64 bits, exclusive-or the seed,
 * starting from 53: fio writes (2^31) + (2^17) + (2^7), and ^ is C's
 * exclusive or); a component below its bound (1, 7, 15, then 33 and 49
 * for the 64-bit generator's two more) has the bound added, which keeps
 * each away from the all-zero state; then six outputs are thrown away. The seed of a job's
 * offsets is FIO_RANDSEED (0xb1899bed) times its thread number (1 for the
 * first job, counting numjobs clones) under randrepeat=1, which is why
 * randseed= does not move fio 3.33's offsets unless randrepeat=0; and a
 * new loop starts the sequence again (clear_io_state reseeds).
 *
 * The block is lastb * (r / (rand_max + 1.0)) with r converted to double,
 * so the low bits of a 64-bit output are rounded away, as in fio.
 */
#include "fio_taus.h"
#include "options.h"

#define FIO_RANDSEED UINT64_C(0xb1899bed)
/* setup_random_seeds' multiplier */
#define SEED_STEP UINT64_C(0x9e370001)
#define LCG_START 53u

uint64_t fio_taus_job_seed(const struct job_options *o, enum fio_taus_purpose p,
			   unsigned thread_number, uint64_t unseeded)
{
	uint64_t seed = o->randseed;

	if (p == FIO_TAUS_OFFSET && o->randrepeat)
		return FIO_RANDSEED * thread_number;
	if (o->allrandrepeat)
		return FIO_RANDSEED * thread_number + p;
	if (!o->randrepeat && !o->randseed_set)
		return unseeded;
	for (unsigned i = 0; i < 4 + (unsigned)p; i++)
		seed *= SEED_STEP;
	return seed * thread_number + p;
}

static uint64_t at_least(uint64_t x, uint64_t bound)
{
	return x < bound ? x + bound : x;
}

void fio_taus_seed(struct fio_taus *t, uint64_t seed, bool use64)
{
	static const uint64_t bound[5] = {1, 7, 15, 33, 49};

	t->use64 = use64;
	if (!use64) {
		uint32_t x = LCG_START, s32 = (uint32_t)seed;
		for (unsigned i = 0; i < 3; i++) {
			x = (uint32_t)at_least((uint32_t)(x * 69069u ^ s32), bound[i]);
			t->s[i] = x;
		}
		t->s[3] = t->s[4] = 0;
	} else {
		uint64_t x = LCG_START;
		for (unsigned i = 0; i < 5; i++) {
			x = at_least(x * UINT64_C(6906969069) ^ seed, bound[i]);
			t->s[i] = x;
		}
	}
	for (unsigned i = 0; i < 6; i++)
		fio_taus_next(t);
}
