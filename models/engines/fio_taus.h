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
	FIO_TAUS_SEQ_RAND_READ = 10,	/* percentage_random (every direction's) */
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
uint64_t fio_taus_next(struct fio_taus *t);
/* fio's rand_max: the largest output */
uint64_t fio_taus_max(const struct fio_taus *t);
/* A block in [0, nblocks): nblocks * (r / (rand_max + 1)), in double
 * precision as fio computes it. */
uint64_t fio_taus_block(struct fio_taus *t, uint64_t nblocks);

#endif
