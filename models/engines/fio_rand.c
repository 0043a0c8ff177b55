/*
 * fio's random_distribution: the block a random I/O picks.
 *
 * Stands for fio's lib/zipf.c, lib/gauss.c and the zoned cases of
 * io_u.c's get_next_rand_offset, as fio 3.33's HOWTO describes them:
 *   zipf:THETA[:CENTER]   block ranks Zipf-distributed with exponent
 *                         THETA, drawn by the method of Gray et al.
 *                         ("Quickly generating billion-record synthetic
 *                         databases", SIGMOD 1994); the normalising sum
 *                         runs over at most the first 10 M ranks, as
 *                         fio's does
 *   pareto:H[:CENTER]     rank = (n - 1) * u^(log H / log(1 - H)) for a
 *                         uniform u: H = 0.2 gives the 80/20 rule
 *   normal:0[:CENTER]     the mean of twelve uniform draws over the file
 *                         (a bell with a deviation of about n/12); fio
 *                         widens it for a deviation above 0 by a law this
 *                         model does not reproduce (fio.c refuses it)
 *   zoned:A/S:...         A percent of the I/Os go to the next S percent of
 *                         the file (zoned_abs: S bytes), uniform inside
 * Without a CENTER, zipf and pareto ranks are scattered over the file by
 * a multiplicative hash, as fio scatters them, so that the hot blocks are
 * not all at its start; a CENTER (0..1) puts the hot spot there instead.
 * The normal bell is at the middle unless a CENTER moves it. fio uses no
 * random map with these (its HOWTO says so), nor does the model.
 *
 * Parameters: the job's random_distribution. The draws come from the
 * job's random stream, so the blocks are not fio's, only their law.
 */
#include <glib.h>
#include <math.h>

#include "fio_rand.h"

#define ZIPF_MAX_TERMS 10000000u

/* Knuth's multiplicative (Fibonacci) hashing: nearby ranks land far
 * apart, and few of the hot ones on the same block. */
static uint64_t scatter(uint64_t x)
{
	return x * UINT64_C(0x9e3779b97f4a7c15);
}

void fio_rand_init(struct fio_rand *r, const struct job_options *o,
		   enum fio_ddir d, uint64_t n, uint64_t block_size)
{
	*r = (struct fio_rand){
		.kind = o->random_distribution, .n = n ? n : 1,
		.param = o->rand_param, .centered = o->rand_center >= 0,
		.zones = o->zones[d], .nzones = o->zones_nr[d],
		.block_size = block_size ? block_size : 1,
	};
	if (r->centered)
		r->shift = (uint64_t)(o->rand_center * (double)r->n);
	if (r->kind == FIO_RAND_ZIPF) {
		uint64_t terms = MIN(r->n, ZIPF_MAX_TERMS);
		for (uint64_t i = 1; i <= terms; i++)
			r->zetan += pow(1.0 / (double)i, r->param);
		r->zeta2 = 1.0 + pow(0.5, r->param);
	}
}

static uint64_t zipf_rank(const struct fio_rand *r, double u)
{
	double theta = r->param, n = (double)r->n;
	double alpha = 1.0 / (1.0 - theta);
	double eta = (1.0 - pow(2.0 / n, 1.0 - theta)) / (1.0 - r->zeta2 / r->zetan);
	double uz = u * r->zetan;

	if (uz < 1.0)
		return 0;
	if (uz < 1.0 + pow(0.5, theta))
		return 1;
	double v = n * pow(eta * u - eta + 1.0, alpha);
	return v >= n ? r->n - 1 : (uint64_t)v;
}

static uint64_t normal_rank(const struct fio_rand *r, struct sim_rng *rng)
{
	double n = (double)r->n, sum = 0;

	for (int i = 0; i < 12; i++)
		sum += sim_rng_unit(rng);
	double v = sum / 12.0 * n;
	return v >= n ? r->n - 1 : (uint64_t)v;
}

static uint64_t zoned_block(const struct fio_rand *r, struct sim_rng *rng)
{
	unsigned pick = (unsigned)sim_rng_below(rng, 100), acc = 0;
	uint64_t start = 0;

	for (unsigned i = 0; i < r->nzones; i++) {
		const struct fio_zone_split *z = &r->zones[i];
		uint64_t len = r->kind == FIO_RAND_ZONED_ABS ? z->size / r->block_size :
			       r->n * z->size_perc / 100;
		len = MAX(MIN(len, r->n - MIN(start, r->n)), 1u);
		acc += z->access_perc;
		if (pick < acc || i + 1 == r->nzones)
			return MIN(start + sim_rng_below(rng, len), r->n - 1);
		start += len;
	}
	return sim_rng_below(rng, r->n);
}

uint64_t fio_rand_next(const struct fio_rand *r, struct sim_rng *rng)
{
	uint64_t rank;

	switch (r->kind) {
	case FIO_RAND_ZIPF:
		rank = zipf_rank(r, sim_rng_unit(rng));
		break;
	case FIO_RAND_PARETO:
		rank = (uint64_t)((double)(r->n - 1) *
				  pow(sim_rng_unit(rng), log(r->param) / log(1.0 - r->param)));
		break;
	case FIO_RAND_NORMAL:
		/* The bell is at the middle; a center moves it there. */
		rank = normal_rank(r, rng);
		if (!r->centered)
			return rank;
		rank = (rank + r->n - r->n / 2) % r->n;
		break;
	case FIO_RAND_ZONED:
	case FIO_RAND_ZONED_ABS:
		return zoned_block(r, rng);
	default:
		return sim_rng_below(rng, r->n);
	}
	if (!r->centered && r->kind != FIO_RAND_NORMAL)
		rank = scatter(rank);
	return (rank + r->shift) % r->n;
}
