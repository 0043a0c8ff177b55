/*
 * fio's random_distribution: the block a random I/O picks.
 *
 * Stands for fio 3.33's lib/zipf.c, lib/gauss.c and filesetup.c's
 * __init_rand_distribution:
 *   zipf:THETA[:CENTER]   block ranks Zipf-distributed with exponent
 *                         THETA, drawn by the method of Gray et al.
 *                         ("Quickly generating billion-record synthetic
 *                         databases", SIGMOD 1994); the normalising sum
 *                         runs over at most the first 10 M ranks
 *   pareto:H[:CENTER]     rank = (n - 1) * u^(log H / log(1 - H)) for a
 *                         uniform u: H = 0.2 gives the 80/20 rule
 *   normal:SIGMA[:CENTER] the mean of twelve uniform draws over the file,
 *                         moved by up to +-SIGMA/2 percent of it
 * They are fio's own numbers: each file draws from a
 * Tausworthe generator of its own (fio_taus.h), seeded by a hash of its
 * name times the job's thread number (under randrepeat=0, by the offsets'
 * seed), u is r / 2^32-1 as fio divides, and every rank is scattered by
 * fio's 64-bit golden-ratio multiplication before it is moved by rand_off
 * (the generator's first output, or CENTER times the ranges: fio
 * scatters a centered distribution too, so the center moves hashed ranks,
 * not a hot spot). fio keeps no random map with these, nor does the
 * model. The zoned distributions are fio.c's (pick_zoned).
 *
 * file_service_type's zipf, pareto and normal draw a file the same way,
 * over 1024 ranges per file, from the job's file-service seed, with the
 * ranks not scattered (init_rand_file_service, zipf_disable_hash).
 *
 * Parameters: the job's random_distribution, or its file_service_type.
 */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "fio_rand.h"

#define ZIPF_MAX_TERMS 10000000u

/* fio's __hash_u64 */
#define GOLDEN_RATIO_64 UINT64_C(0x61c8864680b583eb)
/* fio's JHASH_INITVAL */
#define GOLDEN_RATIO_32 0x61c88647u

static uint32_t rol32(uint32_t w, unsigned s)
{
	return (w << s) | (w >> (32 - s));
}

/*
 * fio's jhash (hash.h): Bob Jenkins' lookup3 mixing, except that fio's
 * loop over all but the last 12 bytes adds one byte of each word, not the
 * word; kept, as it decides the seed.
 */
static uint32_t fio_jhash(const uint8_t *k, uint32_t len)
{
	uint32_t a, b, c;

	a = b = c = GOLDEN_RATIO_32 + len;
	for (; len > 12; len -= 12, k += 12) {
		a += k[0];
		b += k[4];
		c += k[8];
		a -= c; a ^= rol32(c, 4); c += b;
		b -= a; b ^= rol32(a, 6); a += c;
		c -= b; c ^= rol32(b, 8); b += a;
		a -= c; a ^= rol32(c, 16); c += b;
		b -= a; b ^= rol32(a, 19); a += c;
		c -= b; c ^= rol32(b, 4); b += a;
	}
	if (!len)
		return c;
	/* the last bytes, little end first into a, b and c */
	uint32_t w[3] = {0, 0, 0};
	for (uint32_t i = 0; i < len; i++)
		w[i / 4] += (uint32_t)k[i] << (8 * (i % 4));
	a += w[0];
	b += w[1];
	c += w[2];
	c ^= b; c -= rol32(b, 14);
	a ^= c; a -= rol32(c, 11);
	b ^= a; b -= rol32(a, 25);
	c ^= b; c -= rol32(b, 16);
	a ^= c; a -= rol32(c, 4);
	b ^= a; b -= rol32(a, 14);
	c ^= b; c -= rol32(b, 24);
	return c;
}

uint32_t fio_rand_file_seed(const char *fio_name, unsigned thread_number)
{
	return fio_jhash((const uint8_t *)fio_name, (uint32_t)strlen(fio_name)) *
	       thread_number;
}

void fio_rand_init(struct fio_rand *r, enum fio_rand_dist kind, double param,
		   double center, uint64_t n, uint32_t seed, bool hashed)
{
	*r = (struct fio_rand){
		.kind = kind, .n = n ? n : 1, .param = param, .hashed = hashed,
	};
	fio_taus_seed(&r->t, seed, false);
	if (r->kind == FIO_RAND_NORMAL) {
		/* gauss_init: no draw for rand_off; a center below the middle
		 * wraps as fio's conversion to unsigned does */
		if (r->param != 0.0) {
			r->stddev = (unsigned)ceil((double)r->n * r->param / 100.0);
			r->stddev = (unsigned)MIN((uint64_t)r->stddev, r->n / 2);
		}
		if (center >= 0)
			r->rand_off = (uint32_t)(int64_t)((double)r->n *
							  (center - 0.5));
		return;
	}
	/* shared_rand_init */
	r->rand_off = fio_taus_next(&r->t);
	if (center >= 0)
		r->rand_off = (uint64_t)((double)r->n * center);
	if (r->kind == FIO_RAND_ZIPF) {
		uint64_t terms = MIN(r->n, ZIPF_MAX_TERMS);
		for (uint64_t i = 1; i <= terms; i++)
			r->zetan += pow(1.0 / (double)i, r->param);
		r->zeta2 = pow(1.0, r->param) + pow(0.5, r->param);
	} else {
		r->pareto_pow = log(r->param) / log(1.0 - r->param);
	}
}

/* u in [0, 1] as fio's zipf and pareto take it: r / (2^32 - 1) */
static double unit(struct fio_taus *t)
{
	return (double)fio_taus_next(t) / (double)UINT32_MAX;
}

static uint64_t zipf_rank(struct fio_rand *r)
{
	double theta = r->param, n = (double)r->n;
	double alpha = 1.0 / (1.0 - theta);
	double eta = (1.0 - pow(2.0 / n, 1.0 - theta)) / (1.0 - r->zeta2 / r->zetan);
	double u = unit(&r->t);
	double uz = u * r->zetan;

	if (uz < 1.0)
		return 0;
	if (uz < 1.0 + pow(0.5, theta))
		return 1;
	return (uint64_t)(n * pow(eta * u - eta + 1.0, alpha));
}

/* gauss_next: the mean of twelve draws, moved by gauss_dev, halved until
 * it stays below n */
static uint64_t normal_rank(struct fio_rand *r)
{
	uint64_t sum = 0;

	for (int i = 0; i < 12; i++)
		sum += fio_taus_next(&r->t) % (r->n + 1);
	sum = (sum + 11) / 12;
	if (r->stddev) {
		uint32_t x = (uint32_t)fio_taus_next(&r->t);
		int dev = (int)((double)r->stddev * (x / ((double)UINT32_MAX + 1.0)));
		dev -= (int)(r->stddev / 2);
		while (sum + (uint64_t)(int64_t)dev >= r->n)
			dev /= 2;
		sum += (uint64_t)(int64_t)dev;
	}
	return sum;
}

uint64_t fio_rand_next(struct fio_rand *r)
{
	uint64_t rank;

	if (r->kind == FIO_RAND_ZIPF)
		rank = zipf_rank(r);
	else if (r->kind == FIO_RAND_PARETO)
		rank = (uint64_t)((double)(r->n - 1) * pow(unit(&r->t), r->pareto_pow));
	else
		rank = normal_rank(r);
	if (r->hashed)
		rank *= GOLDEN_RATIO_64;
	return (rank + r->rand_off) % r->n;
}
