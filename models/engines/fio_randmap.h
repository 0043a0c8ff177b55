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
void fio_randmap_destroy(struct fio_randmap *m);
/* A new pass: every block free again. */
void fio_randmap_clear(struct fio_randmap *m);
/* Use block b, or if it is used the first free block after it, wrapping
 * to the start (axmap_next_free); FIO_RANDMAP_NONE when none is free. */
uint64_t fio_randmap_take(struct fio_randmap *m, uint64_t b);

#endif
