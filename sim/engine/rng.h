/*
 * Random streams. Each component owns one, seeded from the run seed and the
 * component's name, so adding a component never shifts another's draws.
 * The generator is xoshiro256** (Blackman and Vigna, 2018), seeded through
 * splitmix64 as its authors recommend.
 */
#ifndef STORSIM_RNG_H
#define STORSIM_RNG_H

#include <stdint.h>

struct sim_rng {
	uint64_t s[4];
};

void sim_rng_seed(struct sim_rng *r, uint64_t seed, const char *stream_name);

static inline uint64_t sim_rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t sim_rng_next(struct sim_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = sim_rng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = sim_rng_rotl(s[3], 45);
	return result;
}

/* Uniform in [0, bound) without modulo bias worth caring about (Lemire's
 * multiply-shift; bias below 2^-64 * bound). */
static inline uint64_t sim_rng_below(struct sim_rng *r, uint64_t bound)
{
	return (uint64_t)(((unsigned __int128)sim_rng_next(r) * bound) >> 64);
}

/* Uniform in [0, 1). */
static inline double sim_rng_unit(struct sim_rng *r)
{
	return (double)(sim_rng_next(r) >> 11) * 0x1.0p-53;
}

/*
 * A distribution drawn by one table lookup: its quantiles at (i + 0.5) / N
 * are computed once, so a draw costs a random number and a load instead of
 * logarithms and cosines. With N = 1024 the tails beyond the 0.05 % and
 * 99.95 % quantiles are cut off.
 */
#define SIM_DIST_TABLE_BITS 10
#define SIM_DIST_TABLE_N (1u << SIM_DIST_TABLE_BITS)

struct sim_dist_table {
	double q[SIM_DIST_TABLE_N];
};

/* A lognormal factor with mean 1 and the given standard deviation. */
void sim_dist_table_lognormal(struct sim_dist_table *t, double stddev);

static inline double sim_dist_table_draw(const struct sim_dist_table *t,
					 struct sim_rng *r)
{
	return t->q[sim_rng_next(r) >> (64 - SIM_DIST_TABLE_BITS)];
}

double sim_rng_exponential(struct sim_rng *r, double mean);
double sim_rng_normal(struct sim_rng *r, double mean, double stddev);
double sim_rng_lognormal(struct sim_rng *r, double mean, double stddev);

#endif
