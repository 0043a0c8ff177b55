/*
 * Durability accounting for the NVMe device model: which acknowledged
 * writes are on media, which the host was told are durable, and, after a
 * power loss, which were lost.
 *
 * Every write gets a sequence number when the device acknowledges it
 * (posts, or commits to posting, its CQE). The tracker keeps disjoint LBA
 * ranges, each with the newest acknowledged write, the newest write whose
 * data is on media, and the newest write the host was promised is durable
 * and that is not known to be on media. A Flush promises every write
 * acknowledged before it started, but only once it completes, so the
 * tracker takes the flush's snapshot as "pending" and the completion as the
 * watermark that turns pending into promised. Ranges whose newest data is
 * on media collapse into one "durable" state and merge with their
 * neighbours, so the tracker holds about as many ranges as there are dirty
 * writes plus islands of written space. It is capped; when the cap is hit
 * it stops and says so, rather than report a half-tracked verdict.
 *
 * The ranges live in a treap of pooled nodes: insert, erase and neighbour
 * searches are O(log n) and allocate only when the pool grows.
 */
#ifndef STORSIM_NVME_DURABILITY_H
#define STORSIM_NVME_DURABILITY_H

#include <glib.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine/rng.h"
#include "engine/sim.h"

struct dur_node;

struct dur_tracker {
	struct dur_node *nodes;	/* pool; index 0 is the null node */
	uint32_t cap, used, max_nodes, free_list, root, live;
	struct sim_rng rng;	/* treap priorities */
	uint64_t watermark;	/* flushes completed cover seq <= this */
	uint64_t pending_max;	/* largest snapshot of a started flush */
	uint64_t acked;		/* writes recorded */
	bool overflow;
	sim_time overflow_at;
};

enum dur_state {
	DUR_DURABLE,		/* newest acknowledged data on media */
	DUR_LOST,		/* newest data lost, never promised */
	DUR_VIOLATION,		/* data promised durable is not on media */
};

/* One range of the report taken at power loss. */
struct dur_range {
	uint64_t slba, nlb;
	enum dur_state state;
	uint64_t acked_seq;	/* newest acknowledged write (0 if durable) */
	uint64_t promised_seq;	/* newest promised write (violations) */
};

void dur_init(struct dur_tracker *t, uint32_t max_ranges, uint64_t seed,
	      const char *name);
void dur_destroy(struct dur_tracker *t);

/* Write `seq` (increasing) acknowledged; durable when its data reached
 * media before the acknowledgement (FUA, or cache off). */
void dur_ack(struct dur_tracker *t, sim_time now, uint64_t slba, uint64_t nlb,
	     uint64_t seq, bool durable);
/* The data of write `seq` reached media (cache destage). */
void dur_media(struct dur_tracker *t, sim_time now, uint64_t slba,
	       uint64_t nlb, uint64_t seq);
/* A flush started covering writes acknowledged up to `snapshot`, or one
 * such flush completed successfully. */
void dur_flush_started(struct dur_tracker *t, uint64_t snapshot);
void dur_flush_completed(struct dur_tracker *t, uint64_t snapshot);

/* Whether the newest acknowledged data of every block in the range is on
 * media (false for blocks never written, or after the cap was hit). */
bool dur_on_media(const struct dur_tracker *t, uint64_t slba, uint64_t nlb);

/* The verdict per range, in LBA order (adjacent equal verdicts merged). */
GArray *dur_report(const struct dur_tracker *t);

/* Number of ranges held now (for tests of merging). */
uint32_t dur_ranges(const struct dur_tracker *t);

const char *dur_state_name(enum dur_state s);

#endif
