/*
 * fio's random_generator=lfsr: a maximal-length linear feedback shift
 * register over a file's blocks (fio 3.33's lib/lfsr.c), seeded with the
 * job's offset seed, so that an lfsr job visits the blocks in fio's own
 * order, each once per pass, with no random map.
 */
#ifndef STORSIM_FIO_LFSR_H
#define STORSIM_FIO_LFSR_H

#include <stdbool.h>
#include <stdint.h>

struct fio_lfsr {
	uint64_t feedback;	/* the taps, as a mask of state bits */
	uint64_t top;		/* the register's highest bit */
	uint64_t state;
	uint64_t last;		/* the largest block: nblocks - 1 */
	uint64_t handed_out;	/* blocks given this pass */
	bool first;		/* the first block is two steps away */
};

/* A register for nblocks blocks (at most 2^63 - 1), started at seed.
 * False for a seed that puts it in its one dead state (all bits set),
 * where fio fails the job ("failed initializing LFSR"). */
bool fio_lfsr_init(struct fio_lfsr *l, uint64_t nblocks, uint64_t seed);
/* A new pass from seed (fio's lfsr_reset); false as fio_lfsr_init. */
bool fio_lfsr_reset(struct fio_lfsr *l, uint64_t seed);
/* The next block of the pass into *block; false once every block has
 * been given. */
bool fio_lfsr_next(struct fio_lfsr *l, uint64_t *block);

#endif
