/* Random streams: seeding and the non-uniform distributions. */
#include <math.h>
#include <string.h>

#include "rng.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* FNV-1a: stable across platforms and GLib versions, unlike g_str_hash. */
static uint64_t name_hash(const char *name)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);
	for (; name && *name; name++) {
		h ^= (unsigned char)*name;
		h *= UINT64_C(0x100000001b3);
	}
	return h;
}

void sim_rng_seed(struct sim_rng *r, uint64_t seed, const char *stream_name)
{
	uint64_t x = seed ^ name_hash(stream_name);
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

double sim_rng_exponential(struct sim_rng *r, double mean)
{
	return -mean * log1p(-sim_rng_unit(r));
}

/* Box-Muller; one of the pair is dropped to keep the stream stateless. */
double sim_rng_normal(struct sim_rng *r, double mean, double stddev)
{
	double u1 = 1.0 - sim_rng_unit(r);
	double u2 = sim_rng_unit(r);
	return mean + stddev * sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

/* A lognormal parametrised by the mean and standard deviation of the
 * resulting distribution, not of the underlying normal. */
double sim_rng_lognormal(struct sim_rng *r, double mean, double stddev)
{
	if (stddev <= 0.0)
		return mean;
	double v = log(1.0 + (stddev * stddev) / (mean * mean));
	double mu = log(mean) - v / 2.0;
	return exp(sim_rng_normal(r, mu, sqrt(v)));
}

/* The standard normal quantile of p, by bisection on the CDF. */
static double normal_quantile(double p)
{
	double lo = -10, hi = 10;
	for (int i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;
		/* Once lo and hi are neighbours no step changes them: the
		 * CDF calls left would only cost start-up time. */
		if (mid == lo || mid == hi)
			break;
		if (0.5 * erfc(-mid / M_SQRT2) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

void sim_dist_table_lognormal(struct sim_dist_table *t, double stddev)
{
	double v = log(1.0 + stddev * stddev);
	double mu = -v / 2.0;

	for (unsigned i = 0; i < SIM_DIST_TABLE_N; i++) {
		double p = (i + 0.5) / SIM_DIST_TABLE_N;
		t->q[i] = stddev > 0 ? exp(mu + sqrt(v) * normal_quantile(p)) : 1.0;
	}
}
