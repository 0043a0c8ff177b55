/*
 * fio's random_distribution: which block of a file a random I/O picks
 * under zipf, pareto or normal. Uniform and zoned picks are fio.c's, as
 * they draw from the job's offset generator.
 */
#ifndef STORSIM_FIO_RAND_H
#define STORSIM_FIO_RAND_H

#include <stdbool.h>
#include <stdint.h>

#include "fio_taus.h"
#include "options.h"

struct fio_rand {
	enum fio_rand_dist kind;
	uint64_t n;		/* ranges (blocks) */
	double param;		/* zipf theta, pareto h, normal sigma (%) */
	double zetan, zeta2;	/* zipf: partial zeta sums */
	double pareto_pow;
	uint64_t rand_off;	/* where rank 0 lands */
	bool hashed;		/* ranks scattered before rand_off moves them */
	unsigned stddev;	/* normal: the widening, in ranges */
	struct fio_taus t;	/* the file's own */
};

/* fio's seed of a file's zipf, pareto or normal draws under randrepeat:
 * Bob Jenkins' hash of the file's name as fio knows it, times the job's
 * thread number (__init_rand_distribution). */
uint32_t fio_rand_file_seed(const char *fio_name, unsigned thread_number);
/* Set r up for distribution kind (zipf, pareto or normal) with its
 * parameter and center (-1: none) over n ranges, drawing from seed; the
 * ranks hashed as random_distribution's are, or, as file_service_type's
 * are, not (zipf_disable_hash). */
void fio_rand_init(struct fio_rand *r, enum fio_rand_dist kind, double param,
		   double center, uint64_t n, uint32_t seed, bool hashed);
/* The next block, in [0, n). */
uint64_t fio_rand_next(struct fio_rand *r);

#endif
