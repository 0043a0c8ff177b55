/*
 * fio's random map: which blocks of a file this pass has used, so that a
 * uniform random pick visits every block once (lib/axmap.c).
 */
#ifndef STORSIM_FIO_RANDMAP_H
#define STORSIM_FIO_RANDMAP_H

#include <stdint.h>

#define FIO_RANDMAP_LEVELS 11	/* 64^11 > 2^64 blocks */
#define FIO_RANDMAP_NONE UINT64_MAX

struct fio_randmap {
	uint64_t nblocks;
	unsigned nlevels;
	/* level 0: a bit per block, set when used; level k: a bit per word
	 * of level k - 1, set when that word is full */
	uint64_t *bits[FIO_RANDMAP_LEVELS];
	uint64_t nwords[FIO_RANDMAP_LEVELS];
};

void fio_randmap_init(struct fio_randmap *m, uint64_t nblocks);
/* The bytes a map of nblocks takes, every level counted. */
uint64_t fio_randmap_bytes(uint64_t nblocks);
void fio_randmap_destroy(struct fio_randmap *m);
/* A new pass: every block free again. */
void fio_randmap_clear(struct fio_randmap *m);
/* Block b if it is free, or the first free block after it, wrapping to
 * the start (axmap_next_free); FIO_RANDMAP_NONE when none is free. The
 * map is left as it is. */
uint64_t fio_randmap_next_free(const struct fio_randmap *m, uint64_t b);
/* The search, when block b is used. */
uint64_t fio_randmap_take_next(struct fio_randmap *m, uint64_t b);

/* Use the free blocks from b on, at most n, stopping at the first used
 * one, and say how many (axmap_set_nr, by which fio shortens an I/O that
 * would cover blocks already done); a run through the last block goes on
 * to the end of its 64-block word, as axmap's does. */
uint64_t fio_randmap_take_run(struct fio_randmap *m, uint64_t b, uint64_t n);

/* Use block b, or if it is used the first free block after it, wrapping
 * to the start (axmap_next_free); FIO_RANDMAP_NONE when none is free.
 * Inline for the common case, a free block whose word stays not full. */
static inline uint64_t fio_randmap_take(struct fio_randmap *m, uint64_t b)
{
	uint64_t *word = &m->bits[0][b / 64], bit = 1ULL << (b % 64);

	if (!(*word & bit) && (*word | bit) != ~0ULL) {
		*word |= bit;
		return b;
	}
	return fio_randmap_take_next(m, b);
}

#endif
