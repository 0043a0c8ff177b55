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

/* One step of a component: ((s & mask) << k) ^ (((s << q) ^ s) >> shift) */
static uint32_t step32(uint32_t s, unsigned q, unsigned shift, uint32_t mask,
		       unsigned k)
{
	return ((s & mask) << k) ^ (((s << q) ^ s) >> shift);
}

static uint64_t step64(uint64_t s, unsigned q, unsigned shift, uint64_t mask,
		       unsigned k)
{
	return ((s & mask) << k) ^ (((s << q) ^ s) >> shift);
}

uint64_t fio_taus_next(struct fio_taus *t)
{
	uint64_t *s = t->s;

	if (!t->use64) {
		s[0] = step32((uint32_t)s[0], 13, 19, 0xfffffffeu, 12);
		s[1] = step32((uint32_t)s[1], 2, 25, 0xfffffff8u, 4);
		s[2] = step32((uint32_t)s[2], 3, 11, 0xfffffff0u, 17);
		return s[0] ^ s[1] ^ s[2];
	}
	s[0] = step64(s[0], 1, 53, UINT64_C(0xfffffffffffffffe), 10);
	s[1] = step64(s[1], 24, 50, UINT64_C(0xfffffffffffffe00), 5);
	s[2] = step64(s[2], 3, 23, UINT64_C(0xfffffffffffff000), 29);
	s[3] = step64(s[3], 5, 24, UINT64_C(0xfffffffffffe0000), 23);
	s[4] = step64(s[4], 3, 33, UINT64_C(0xffffffffff800000), 8);
	return s[0] ^ s[1] ^ s[2] ^ s[3] ^ s[4];
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

uint64_t fio_taus_max(const struct fio_taus *t)
{
	return t->use64 ? UINT64_MAX : UINT32_MAX;
}

uint64_t fio_taus_block(struct fio_taus *t, uint64_t nblocks)
{
	double max = (double)fio_taus_max(t);
	uint64_t r = fio_taus_next(t);

	return (uint64_t)((double)nblocks * ((double)r / (max + 1.0)));
}
