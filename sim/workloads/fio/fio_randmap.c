/*
 * fio's random map, for uniform random I/O without norandommap.
 *
 * Stands for fio's lib/axmap.c as io_u.c's get_next_rand_offset uses it
 * (fio 3.33): the job draws a block uniformly; if the map says it was
 * used this pass, the I/O takes the first free block after it, wrapping
 * round to the file's start, and marks it. Late in a pass most draws land
 * on used blocks, so the I/O goes right after an earlier one: the blocks a
 * buffered job dirties between two syncs form runs that writeback merges,
 * and reads find their neighbours cached, which readahead looks at. The
 * levels of "word full" bits keep the search short, as axmap's do.
 *
 * Parameters: none. The draws come from the job's random stream, so the
 * blocks are not fio's, only the way they are chosen.
 */
#include <glib.h>
#include <string.h>

#include "fio_randmap.h"

/* Set the bits past the last block (or word) of each level: never free.
 * A padded word still has a real bit clear, so no level above changes. */
static void pad(struct fio_randmap *m)
{
	uint64_t n = m->nblocks;

	for (unsigned l = 0; l < m->nlevels; l++) {
		if (n % 64)
			m->bits[l][m->nwords[l] - 1] |= ~0ULL << (n % 64);
		n = m->nwords[l];
	}
}

uint64_t fio_randmap_bytes(uint64_t nblocks)
{
	uint64_t n = MAX(nblocks, 1), bytes = 0;

	do {
		n = (n + 63) / 64;
		bytes += n * sizeof(uint64_t);
	} while (n > 1);
	return bytes;
}

void fio_randmap_init(struct fio_randmap *m, uint64_t nblocks)
{
	uint64_t n = MAX(nblocks, 1);

	*m = (struct fio_randmap){.nblocks = n};
	do {
		n = (n + 63) / 64;
		m->nwords[m->nlevels] = n;
		m->bits[m->nlevels] = g_new0(uint64_t, n);
		m->nlevels++;
	} while (n > 1);
	pad(m);
}

void fio_randmap_destroy(struct fio_randmap *m)
{
	for (unsigned l = 0; l < m->nlevels; l++)
		g_free(m->bits[l]);
	*m = (struct fio_randmap){0};
}

void fio_randmap_clear(struct fio_randmap *m)
{
	for (unsigned l = 0; l < m->nlevels; l++)
		memset(m->bits[l], 0, m->nwords[l] * sizeof(uint64_t));
	pad(m);
}

/* The first clear bit at index >= i of level l, or FIO_RANDMAP_NONE. */
static uint64_t first_free(const struct fio_randmap *m, unsigned l, uint64_t i)
{
	uint64_t w = i / 64;

	if (w >= m->nwords[l])
		return FIO_RANDMAP_NONE;
	uint64_t free = ~m->bits[l][w] & (~0ULL << (i % 64));
	if (free)
		return w * 64 + (uint64_t)__builtin_ctzll(free);
	if (l + 1 == m->nlevels)
		return FIO_RANDMAP_NONE;
	/* The next word of this level with room, from the level above. */
	w = first_free(m, l + 1, w + 1);
	if (w == FIO_RANDMAP_NONE)
		return FIO_RANDMAP_NONE;
	return w * 64 + (uint64_t)__builtin_ctzll(~m->bits[l][w]);
}

static void set(struct fio_randmap *m, uint64_t b)
{
	for (unsigned l = 0; l < m->nlevels; l++) {
		uint64_t *word = &m->bits[l][b / 64];
		*word |= 1ULL << (b % 64);
		if (*word != ~0ULL)
			return;
		b /= 64;
	}
}

uint64_t fio_randmap_next_free(const struct fio_randmap *m, uint64_t b)
{
	uint64_t f = first_free(m, 0, b);

	return f != FIO_RANDMAP_NONE ? f : first_free(m, 0, 0);
}

uint64_t fio_randmap_take_next(struct fio_randmap *m, uint64_t b)
{
	uint64_t f = fio_randmap_next_free(m, b);

	if (f != FIO_RANDMAP_NONE)
		set(m, f);
	return f;
}

/*
 * axmap_set_nr bounds a run by the map's words, not its blocks: past the
 * last block it goes on through the rest of that block's word, whose bits
 * no pick can reach, so that a run gets there only through the last block
 * and finds them free (here they are padded already). Where the last block
 * ends a word, fio 3.33 goes on into memory past its map (__axmap_set
 * lets bit_nr == nr_bits through), which is not modelled: the run stops.
 */
uint64_t fio_randmap_take_run(struct fio_randmap *m, uint64_t b, uint64_t n)
{
	uint64_t done = 0, words_end = (m->nblocks + 63) / 64 * 64;

	for (; done < n && b + done < m->nblocks; done++) {
		uint64_t i = b + done;
		if (m->bits[0][i / 64] & (1ULL << (i % 64)))
			break;
		set(m, i);
	}
	if (b + done == m->nblocks)
		done = MIN(n, words_end - b);
	return done;
}
