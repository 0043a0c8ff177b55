/*
 * fio's random_distribution: which block of a file a random I/O picks,
 * when not every block is equally likely (zipf, pareto, normal, zoned,
 * zoned_abs). Uniform picks stay in fio.c.
 */
#ifndef STORSIM_FIO_RAND_H
#define STORSIM_FIO_RAND_H

#include <stdbool.h>
#include <stdint.h>

#include "options.h"
#include "rng.h"

struct fio_rand {
	enum fio_rand_dist kind;
	uint64_t n;		/* blocks */
	double param;		/* zipf theta, pareto h, normal sigma (%) */
	double zetan, zeta2;	/* zipf: partial zeta sums */
	uint64_t shift;		/* the center's offset, in blocks */
	bool centered;		/* a CENTER was given */
	const struct fio_zone_split *zones;
	unsigned nzones;
	uint64_t block_size;	/* zoned_abs: zone sizes are in bytes */
};

/* Set r up for job o's direction d over n blocks of block_size bytes. */
void fio_rand_init(struct fio_rand *r, const struct job_options *o,
		   enum fio_ddir d, uint64_t n, uint64_t block_size);
/* The next block, in [0, n). */
uint64_t fio_rand_next(const struct fio_rand *r, struct sim_rng *rng);

#endif
