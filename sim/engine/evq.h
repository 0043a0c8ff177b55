/*
 * The event queue: the hottest code in storsim.
 *
 * Keys are 128-bit: the due time in the upper 64 bits and
 * (sequence << EVQ_SLOT_BITS | slot) in the lower 64, so one unsigned
 * comparison orders by time and then by the order of scheduling: equal
 * times never compare equal, and ties break the same way on every run. The
 * slot indexes a pooled event record (the key included); records are
 * recycled through a free list, so after warm-up scheduling allocates
 * nothing.
 *
 * Events wait in a 4-ary min-heap while there are few; when more than
 * EVQ_BOTTOM_MAX are pending it becomes the bottom of a ladder (Tang, Goh
 * and Thng, "Ladder queue: an O(1) priority queue structure for
 * large-scale discrete event simulation", ACM TOMACS 15(3), 2005), kept
 * exact:
 *
 *   bottom  the heap, holding every event due before bot_hi;
 *   rungs   arrays of buckets, each an unsorted list of the events due in
 *           its span of 2^shift ns; rung k+1 spans one bucket of rung k
 *           (the one being taken), finer; they cover [bot_hi, rung[0].hi);
 *   top     an unsorted array of the keys of everything later.
 *
 * Scheduling appends to the bucket the due time falls in (a shift and a
 * list link), or pushes onto the heap when it is due before bot_hi. When
 * the heap runs dry the finest rung's next bucket with events becomes the
 * heap; one with more than EVQ_SPLIT events is first spread over a finer
 * rung; when the rungs are used up the top is spread over a new rung, or,
 * when it holds few, becomes the heap again. A heap grown past
 * EVQ_BOTTOM_MAX is spread over a rung of its own. An event moves a few
 * times in its life whatever the number pending, and every comparison that
 * decides the order is between whole keys in the heap, so the order is
 * exactly that of one heap.
 *
 * Four children per node put a node's children in one 64-byte cache line
 * and halve the depth of a binary heap.
 *
 * Cancellation is lazy: a cancelled record is marked dead and dropped when
 * its key reaches the top of the heap.
 *
 * Timers are for what a component re-arms over and over with at most one
 * pending, a CPU's next milestone: a small binary heap of their own whose
 * entries know their place, so re-arming moves an entry instead of leaving
 * a dead record behind and pushing another. Their keys take sequence
 * numbers from the same counter as events', so taking the smaller top of
 * the two gives exactly the order one heap would.
 */
#ifndef STORSIM_EVQ_H
#define STORSIM_EVQ_H

#include <stdbool.h>
#include <stdint.h>

#define EVQ_SLOT_BITS 24u			/* up to 16M pending events */
#define EVQ_SLOT_MASK ((1u << EVQ_SLOT_BITS) - 1)
#define EVQ_SEQ_LIMIT (UINT64_C(1) << (64 - EVQ_SLOT_BITS))
#define EVQ_NIL UINT32_MAX
#define EVQ_RUNGS 8
#define EVQ_SPLIT 16		/* a bucket with more is spread over a finer rung */
#define EVQ_BOTTOM_MAX 64	/* a heap that grows past this is spread out */

typedef unsigned __int128 evq_key;

struct sim_component;

struct evq_record {
	evq_key key;			/* kept while it waits in a bucket */
	struct sim_component *comp;	/* NULL once cancelled or moved */
	void *ptr;
	uint64_t arg;
	uint32_t type;
	uint32_t gen;			/* bumped on reuse; guards cancel */
};

/* A timer: delivered to comp as (type, NULL, 0) when it expires. */
struct evq_timer {
	struct sim_component *comp;
	uint32_t type;
	uint32_t pos;			/* 1 + its index in theap; 0 unarmed */
};

struct evq_tnode {
	evq_key key;			/* the slot bits are unused */
	struct evq_timer *t;
};

struct evq_bucket {
	uint32_t head, count;
};

struct evq_rung {
	uint64_t lo, hi;		/* it spans [lo, hi) */
	struct evq_bucket *b;
	uint32_t nb, cur, shift, cap;	/* cur: the next bucket to take */
};

struct evq {
	evq_key *heap;			/* heap[1] starts a cache line */
	uint32_t n, cap;
	uint64_t bot_hi;
	uint32_t nr;
	struct evq_rung rung[EVQ_RUNGS];
	evq_key *top;
	uint32_t ntop, topcap;
	uint64_t top_min, top_max;
	struct evq_record *rec;
	uint32_t *next;			/* by slot: the next in its bucket */
	uint32_t *free_slots;
	uint32_t nfree, nrec;
	uint64_t seq;
	void *heap_mem;
	struct evq_tnode *theap;	/* armed timers */
	uint32_t tn, tcap;
};

void evq_init(struct evq *q);
void evq_destroy(struct evq *q);
void evq_grow_records(struct evq *q);
void evq_grow_heap(struct evq *q);
void evq_grow_top(struct evq *q);
void evq_renumber(struct evq *q);
void evq_spill(struct evq *q);
bool evq_refill(struct evq *q);
void evq_grow_timers(struct evq *q);

static inline uint64_t evq_key_time(evq_key k)
{
	return (uint64_t)(k >> 64);
}

static inline uint32_t evq_key_slot(evq_key k)
{
	return (uint32_t)k & EVQ_SLOT_MASK;
}

static inline uint32_t evq_alloc_slot(struct evq *q)
{
	if (__builtin_expect(q->nfree == 0, 0))
		evq_grow_records(q);
	return q->free_slots[--q->nfree];
}

static inline void evq_free_slot(struct evq *q, uint32_t slot)
{
	q->free_slots[q->nfree++] = slot;
}

/* The next sequence number, renumbering first when they run out. */
static inline evq_key evq_next_seq(struct evq *q)
{
	if (__builtin_expect(q->seq >= EVQ_SEQ_LIMIT, 0))
		evq_renumber(q);
	return (evq_key)q->seq++ << EVQ_SLOT_BITS;
}

static inline void evq_heap_push(struct evq *q, evq_key key)
{
	evq_key *h = q->heap;
	uint32_t i = q->n++;

	while (i > 0) {
		uint32_t parent = (i - 1) >> 2;
		if (h[parent] <= key)
			break;
		h[i] = h[parent];
		i = parent;
	}
	h[i] = key;
}

/* File the key of the record in slot where its due time belongs. */
static inline void evq_insert(struct evq *q, uint32_t slot, evq_key key)
{
	uint64_t t = evq_key_time(key);

	if (t < q->bot_hi) {
		if (__builtin_expect(q->n == q->cap, 0))
			evq_grow_heap(q);
		evq_heap_push(q, key);
		if (__builtin_expect(q->n > EVQ_BOTTOM_MAX, 0))
			evq_spill(q);
		return;
	}
	for (uint32_t k = q->nr; k-- > 0;) {
		struct evq_rung *r = &q->rung[k];
		if (t < r->hi) {
			struct evq_bucket *b = &r->b[(t - r->lo) >> r->shift];
			q->rec[slot].key = key;
			q->next[slot] = b->head;
			b->head = slot;
			b->count++;
			return;
		}
	}
	if (__builtin_expect(q->ntop == q->topcap, 0))
		evq_grow_top(q);
	if (!q->ntop || t < q->top_min)
		q->top_min = t;
	if (!q->ntop || t > q->top_max)
		q->top_max = t;
	q->top[q->ntop++] = key;
}

static inline uint64_t evq_push(struct evq *q, uint64_t time,
				struct sim_component *c, unsigned type,
				void *ptr, uint64_t arg)
{
	uint32_t slot = evq_alloc_slot(q);
	struct evq_record *r = &q->rec[slot];
	evq_key key = ((evq_key)time << 64) | evq_next_seq(q) | slot;

	r->comp = c;
	r->ptr = ptr;
	r->arg = arg;
	r->type = type;
	r->gen++;
	evq_insert(q, slot, key);
	return ((uint64_t)r->gen << 32) | slot;
}

static inline void evq_cancel(struct evq *q, uint64_t id)
{
	uint32_t slot = (uint32_t)id & EVQ_SLOT_MASK;

	if (id && slot < q->nrec && q->rec[slot].gen == (uint32_t)(id >> 32))
		q->rec[slot].comp = 0;
}

/*
 * Remove the heap's earliest key; the caller must have seen one there
 * (evq_first).
 *
 * Floyd's bottom-up variant: the hole left at the root walks down to a leaf
 * along the smallest children without comparing against the displaced last
 * key, which then sifts up from there. The last key almost always belongs
 * near the bottom, so this saves most of the comparisons of the classic
 * sift-down.
 */
static inline evq_key evq_pop(struct evq *q)
{
	evq_key *h = q->heap;
	evq_key top = h[0];
	evq_key last = h[--q->n];
	uint32_t n = q->n, i = 0;

	if (n == 0)
		return top;
	for (;;) {
		uint32_t c = 4 * i + 1;
		if (c + 4 <= n) {
			uint32_t a = h[c] <= h[c + 1] ? c : c + 1;
			uint32_t b = h[c + 2] <= h[c + 3] ? c + 2 : c + 3;
			uint32_t best = h[a] <= h[b] ? a : b;
			h[i] = h[best];
			i = best;
		} else {
			if (c < n) {
				uint32_t best = c;
				for (uint32_t j = c + 1; j < n; j++)
					if (h[j] < h[best])
						best = j;
				h[i] = h[best];
				i = best;
			}
			break;
		}
	}
	while (i > 0) {
		uint32_t parent = (i - 1) >> 2;
		if (h[parent] <= last)
			break;
		h[i] = h[parent];
		i = parent;
	}
	h[i] = last;
	return top;
}

/* The earliest pending event's key, cancelled or not (the heap's top,
 * refilled when empty); false when no event is pending (timers aside). */
static inline bool evq_first(struct evq *q, evq_key *k)
{
	if (__builtin_expect(!q->n, 0) && !evq_refill(q))
		return false;
	*k = q->heap[0];
	return true;
}

/* Place node at index i of the timer heap or above it (up) or below it
 * (down), keeping each timer's pos. */
static inline void evq_timer_up(struct evq *q, uint32_t i, struct evq_tnode node)
{
	struct evq_tnode *h = q->theap;

	while (i > 0 && h[(i - 1) / 2].key > node.key) {
		h[i] = h[(i - 1) / 2];
		h[i].t->pos = i + 1;
		i = (i - 1) / 2;
	}
	h[i] = node;
	node.t->pos = i + 1;
}

static inline void evq_timer_down(struct evq *q, uint32_t i, struct evq_tnode node)
{
	struct evq_tnode *h = q->theap;

	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= q->tn)
			break;
		if (c + 1 < q->tn && h[c + 1].key < h[c].key)
			c++;
		if (h[c].key > node.key)
			break;
		h[i] = h[c];
		h[i].t->pos = i + 1;
		i = c;
	}
	h[i] = node;
	node.t->pos = i + 1;
}

/* Arm t to expire at time, moving it if it is armed already. */
static inline void evq_timer_arm(struct evq *q, struct evq_timer *t,
				 uint64_t time, uint32_t type)
{
	struct evq_tnode node = {((evq_key)time << 64) | evq_next_seq(q), t};

	t->type = type;
	if (t->pos) {
		uint32_t i = t->pos - 1;
		if (node.key < q->theap[i].key)
			evq_timer_up(q, i, node);
		else
			evq_timer_down(q, i, node);
		return;
	}
	if (__builtin_expect(q->tn == q->tcap, 0))
		evq_grow_timers(q);
	evq_timer_up(q, q->tn++, node);
}

/* Move an armed timer to another time, keeping its place among equal
 * times: where it would be had it been armed for that time back when it
 * was last armed. */
static inline void evq_timer_retime(struct evq *q, struct evq_timer *t,
				    uint64_t time)
{
	uint32_t i = t->pos - 1;
	struct evq_tnode node = {((evq_key)time << 64) |
				 (uint64_t)q->theap[i].key, t};

	if (node.key < q->theap[i].key)
		evq_timer_up(q, i, node);
	else
		evq_timer_down(q, i, node);
}

static inline void evq_timer_stop(struct evq *q, struct evq_timer *t)
{
	if (!t->pos)
		return;
	uint32_t i = t->pos - 1;
	struct evq_tnode last = q->theap[--q->tn];

	t->pos = 0;
	if (i == q->tn)
		return;
	if (last.key < q->theap[i].key)
		evq_timer_up(q, i, last);
	else
		evq_timer_down(q, i, last);
}

#endif
