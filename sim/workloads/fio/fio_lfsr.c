/*
 * fio's LFSR block order (lib/lfsr.c in fio 3.33).
 *
 * The register has the fewest bits n (3 to 63) with 2^n > nblocks, and
 * the feedback taps of a maximal-length register of n bits, so its
 * states run through every value below 2^n except all ones before they
 * repeat; values past the last block are skipped. Each step shifts right,
 * sets the top bit, and when the bit shifted out was 0 flips the tap bits
 * (an XNOR register: all ones is the state it cannot leave). fio steps
 * the register "spin" + 1 times a value, spin 0 for block offsets, but
 * its spin bookkeeping makes the very first value two steps away (not
 * the first of later passes, as lfsr_reset leaves that count alone):
 * modelled as `first`.
 *
 * Source of the taps: the table fio carries (from the "LFSRtaps" list
 * that lib/lfsr.c cites, after Xilinx application note XAPP052):
 * for each register length, the bit positions, counted from 1, whose
 * feedback makes the register maximal.
 */
#include "fio_lfsr.h"

#define MAX_TAPS 6

static const uint8_t taps[64][MAX_TAPS] = {
	[3] = {3, 2},		[4] = {4, 3},		[5] = {5, 3},
	[6] = {6, 5},		[7] = {7, 6},		[8] = {8, 6, 5, 4},
	[9] = {9, 5},		[10] = {10, 7},		[11] = {11, 9},
	[12] = {12, 6, 4, 1},	[13] = {13, 4, 3, 1},	[14] = {14, 5, 3, 1},
	[15] = {15, 14},	[16] = {16, 15, 13, 4},	[17] = {17, 14},
	[18] = {18, 11},	[19] = {19, 6, 2, 1},	[20] = {20, 17},
	[21] = {21, 19},	[22] = {22, 21},	[23] = {23, 18},
	[24] = {24, 23, 22, 17}, [25] = {25, 22},	[26] = {26, 6, 2, 1},
	[27] = {27, 5, 2, 1},	[28] = {28, 25},	[29] = {29, 27},
	[30] = {30, 6, 4, 1},	[31] = {31, 28},	[32] = {32, 31, 29, 1},
	[33] = {33, 20},	[34] = {34, 27, 2, 1},	[35] = {35, 33},
	[36] = {36, 25},	[37] = {37, 5, 4, 3, 2, 1},
	[38] = {38, 6, 5, 1},	[39] = {39, 35},	[40] = {40, 38, 21, 19},
	[41] = {41, 38},	[42] = {42, 41, 20, 19}, [43] = {43, 42, 38, 37},
	[44] = {44, 43, 18, 17}, [45] = {45, 44, 42, 41}, [46] = {46, 45, 26, 25},
	[47] = {47, 42},	[48] = {48, 47, 21, 20}, [49] = {49, 40},
	[50] = {50, 49, 24, 23}, [51] = {51, 50, 36, 35}, [52] = {52, 49},
	[53] = {53, 52, 38, 37}, [54] = {54, 53, 18, 17}, [55] = {55, 31},
	[56] = {56, 55, 35, 34}, [57] = {57, 50},	[58] = {58, 39},
	[59] = {59, 58, 38, 37}, [60] = {60, 59},	[61] = {61, 60, 46, 45},
	[62] = {62, 61, 6, 5},	[63] = {63, 62},
};

bool fio_lfsr_init(struct fio_lfsr *l, uint64_t nblocks, uint64_t seed)
{
	unsigned bits = 3;

	while (bits < 63 && (UINT64_C(1) << bits) <= nblocks)
		bits++;
	l->feedback = 0;
	for (unsigned i = 0; i < MAX_TAPS && taps[bits][i]; i++)
		l->feedback |= UINT64_C(1) << (taps[bits][i] - 1);
	l->top = UINT64_C(1) << (bits - 1);
	l->last = nblocks - 1;
	l->first = true;
	return fio_lfsr_reset(l, seed);
}

bool fio_lfsr_reset(struct fio_lfsr *l, uint64_t seed)
{
	uint64_t all = (l->top << 1) - 1;

	l->state = seed & all;
	l->handed_out = 0;
	return l->state != all;
}

static inline void step(struct fio_lfsr *l)
{
	uint64_t flip = (l->state & 1) ? 0 : l->feedback;

	l->state = ((l->state >> 1) | l->top) ^ flip;
}

bool fio_lfsr_next(struct fio_lfsr *l, uint64_t *block)
{
	if (l->handed_out++ > l->last)
		return false;
	if (l->first) {
		l->first = false;
		step(l);
	}
	do
		step(l);
	while (l->state > l->last);
	*block = l->state;
	return true;
}
