/*
 * fio's random_distribution: which block of a file a random I/O picks,
 * when not every block is equally likely (zipf, pareto, normal, zoned,
 * zoned_abs). Uniform picks stay in fio.c.
 */
#ifndef STORSIM_FIO_RAND_H
#define STORSIM_FIO_RAND_H

#include <stdbool.h>
#include <stdint.h>

#include "fio_taus.h"
#include "options.h"
#include "rng.h"

struct fio_rand {
	enum fio_rand_dist kind;
	uint64_t n;		/* ranges (blocks) */
	double param;		/* zipf theta, pareto h, normal sigma (%) */
	double zetan, zeta2;	/* zipf: partial zeta sums */
	double pareto_pow;
	uint64_t rand_off;	/* where rank 0 lands */
	unsigned stddev;	/* normal: the widening, in ranges */
	struct fio_taus t;	/* zipf, pareto, normal: the file's own */
	const struct fio_zone_split *zones;
	unsigned nzones;
	uint64_t block_size;	/* zoned_abs: zone sizes are in bytes */
};

/* Whether the distribution keeps a state per direction (the zoned ones,
 * whose zones are per direction) rather than one per file. */
bool fio_rand_per_direction(enum fio_rand_dist kind);
/* fio's seed of a file's zipf, pareto or normal draws under randrepeat:
 * Bob Jenkins' hash of the file's name as fio knows it, times the job's
 * thread number (__init_rand_distribution). */
uint32_t fio_rand_file_seed(const char *fio_name, unsigned thread_number);
/* Set r up for job o's direction d over n ranges of block_size bytes,
 * drawing from seed (zipf, pareto, normal). */
void fio_rand_init(struct fio_rand *r, const struct job_options *o,
		   enum fio_ddir d, uint64_t n, uint64_t block_size, uint32_t seed);
/* The next block, in [0, n); the zoned ones draw from rng. */
uint64_t fio_rand_next(struct fio_rand *r, struct sim_rng *rng);

#endif
