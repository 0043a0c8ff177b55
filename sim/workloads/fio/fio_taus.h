/*
 * fio's offset generator: the combined Tausworthe generators by which fio
 * 3.33 picks the block of a uniform random I/O (lib/rand.c, io_u.c's
 * __get_next_rand_offset), seeded as fio seeds them (init.c), so that a
 * job's random offsets are fio's own, one for one.
 */
#ifndef STORSIM_FIO_TAUS_H
#define STORSIM_FIO_TAUS_H

#include <stdbool.h>
#include <stdint.h>

/* random_generator=tausworthe (three 32-bit components, period about
 * 2^88) or tausworthe64 (five 64-bit ones, about 2^258) */
struct fio_taus {
	bool use64;
	uint64_t s[5];
};

struct job_options;

/* The generators of a job this model keeps, by their index among fio's
 * per-purpose seeds (fio.h's FIO_RAND_*_OFF). */
enum fio_taus_purpose {
	FIO_TAUS_BS = 0,		/* bsrange/bssplit sizes, per direction */
	FIO_TAUS_RWMIX = 4,		/* read or write, rw=randrw/rw */
	FIO_TAUS_FILE = 5,		/* file_service_type=random */
	FIO_TAUS_OFFSET = 6,		/* the block of a uniform random I/O */
	FIO_TAUS_FILE_SIZE = 7,		/* filesize=LOW-HIGH */
	FIO_TAUS_SEQ_RAND_READ = 10,	/* percentage_random (every direction's) */
	FIO_TAUS_START_DELAY = 13,	/* start_delay=LOW-HIGH */
	FIO_TAUS_ZONE = 16,		/* the zone of zoned, zoned_abs */
};

/* fio's seed of the generator for purpose p of job thread_number (1 for
 * the first, counting numjobs clones), as setup_random_seeds and
 * td_fill_rand_seeds make it: from randseed, or FIO_RANDSEED under
 * allrandrepeat; the offsets' from FIO_RANDSEED alone under randrepeat=1,
 * whatever randseed says; where fio would read /dev/urandom (randrepeat=0
 * without randseed), unseeded, the run's own. */
uint64_t fio_taus_job_seed(const struct job_options *o, enum fio_taus_purpose p,
			   unsigned thread_number, uint64_t unseeded);
/* init_rand_seed: a 32-bit generator takes the low 32 bits of seed. */
void fio_taus_seed(struct fio_taus *t, uint64_t seed, bool use64);

/* One step of a component: ((s & mask) << k) ^ (((s << q) ^ s) >> shift).
 * Inline, as a random job draws at least once per I/O. */
static inline uint32_t fio_taus_step32(uint32_t s, unsigned q, unsigned shift,
				       uint32_t mask, unsigned k)
{
	return ((s & mask) << k) ^ (((s << q) ^ s) >> shift);
}

static inline uint64_t fio_taus_step64(uint64_t s, unsigned q, unsigned shift,
				       uint64_t mask, unsigned k)
{
	return ((s & mask) << k) ^ (((s << q) ^ s) >> shift);
}

static inline uint64_t fio_taus_next(struct fio_taus *t)
{
	uint64_t *s = t->s;

	if (!t->use64) {
		s[0] = fio_taus_step32((uint32_t)s[0], 13, 19, 0xfffffffeu, 12);
		s[1] = fio_taus_step32((uint32_t)s[1], 2, 25, 0xfffffff8u, 4);
		s[2] = fio_taus_step32((uint32_t)s[2], 3, 11, 0xfffffff0u, 17);
		return s[0] ^ s[1] ^ s[2];
	}
	s[0] = fio_taus_step64(s[0], 1, 53, UINT64_C(0xfffffffffffffffe), 10);
	s[1] = fio_taus_step64(s[1], 24, 50, UINT64_C(0xfffffffffffffe00), 5);
	s[2] = fio_taus_step64(s[2], 3, 23, UINT64_C(0xfffffffffffff000), 29);
	s[3] = fio_taus_step64(s[3], 5, 24, UINT64_C(0xfffffffffffe0000), 23);
	s[4] = fio_taus_step64(s[4], 3, 33, UINT64_C(0xffffffffff800000), 8);
	return s[0] ^ s[1] ^ s[2] ^ s[3] ^ s[4];
}

/* fio's rand_max: the largest output */
static inline uint64_t fio_taus_max(const struct fio_taus *t)
{
	return t->use64 ? UINT64_MAX : UINT32_MAX;
}

/* A block in [0, nblocks): nblocks * (r / (rand_max + 1)), in double
 * precision as fio computes it. rand_max + 1 is 2^32 or 2^64 as a double
 * (UINT64_MAX rounds up to 2^64), and dividing by a power of two is
 * multiplying by its inverse, exactly: the same result without a
 * division's latency on every random offset. */
static inline uint64_t fio_taus_block(struct fio_taus *t, uint64_t nblocks)
{
	double inv = t->use64 ? 0x1p-64 : 0x1p-32;
	uint64_t r = fio_taus_next(t);

	return (uint64_t)((double)nblocks * ((double)r * inv));
}

#endif
