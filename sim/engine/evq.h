/*
 * The event queue: the hottest code in storsim.
 *
 * A 4-ary implicit min-heap of 16-byte keys. Each key packs the due time in
 * its upper 64 bits and (sequence << EVQ_SLOT_BITS | slot) in its lower 64,
 * so one unsigned 128-bit comparison orders by time and then by the order of
 * scheduling: equal times never compare equal, and ties break the same way on
 * every run. The slot indexes a pooled event record; records are recycled
 * through a free list, so after warm-up scheduling allocates nothing.
 *
 * Four children per node put a node's children in one 64-byte cache line
 * and halve the depth of a binary heap.
 *
 * Cancellation is lazy: a cancelled record is marked dead and dropped when
 * its key reaches the top.
 *
 * Timers are for what a component re-arms over and over with at most one
 * pending, a CPU's next milestone: a small binary heap of their own whose
 * entries know their place, so re-arming moves an entry instead of leaving
 * a dead record behind and pushing another. Their keys take sequence
 * numbers from the same counter as events', so taking the smaller top of
 * the two heaps gives exactly the order one heap would.
 */
#ifndef STORSIM_EVQ_H
#define STORSIM_EVQ_H

#include <stdbool.h>
#include <stdint.h>

#define EVQ_SLOT_BITS 24u			/* up to 16M pending events */
#define EVQ_SLOT_MASK ((1u << EVQ_SLOT_BITS) - 1)
#define EVQ_SEQ_LIMIT (UINT64_C(1) << (64 - EVQ_SLOT_BITS))

typedef unsigned __int128 evq_key;

struct sim_component;

struct evq_record {
	struct sim_component *comp;	/* NULL once cancelled */
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

struct evq {
	evq_key *heap;
	uint32_t n, cap;
	struct evq_record *rec;
	uint32_t *free_slots;
	uint32_t nfree, nrec;
	uint64_t seq;
	struct evq_tnode *theap;	/* armed timers */
	uint32_t tn, tcap;
};

void evq_init(struct evq *q);
void evq_destroy(struct evq *q);
void evq_grow_records(struct evq *q);
void evq_grow_heap(struct evq *q);
void evq_renumber(struct evq *q);
void evq_grow_timers(struct evq *q);

static inline uint32_t evq_alloc_slot(struct evq *q)
{
	if (__builtin_expect(q->nfree == 0, 0))
		evq_grow_records(q);
	return q->free_slots[--q->nfree];
}

/* The next sequence number, renumbering first when they run out. */
static inline evq_key evq_next_seq(struct evq *q)
{
	if (__builtin_expect(q->seq >= EVQ_SEQ_LIMIT, 0))
		evq_renumber(q);
	return (evq_key)q->seq++ << EVQ_SLOT_BITS;
}

static inline uint64_t evq_push(struct evq *q, uint64_t time,
				struct sim_component *c, unsigned type,
				void *ptr, uint64_t arg)
{
	uint32_t slot = evq_alloc_slot(q);
	struct evq_record *r = &q->rec[slot];

	r->comp = c;
	r->ptr = ptr;
	r->arg = arg;
	r->type = type;
	r->gen++;

	if (__builtin_expect(q->n == q->cap, 0))
		evq_grow_heap(q);

	evq_key key = ((evq_key)time << 64) | evq_next_seq(q) | slot;
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
	return ((uint64_t)r->gen << 32) | slot;
}

static inline void evq_cancel(struct evq *q, uint64_t id)
{
	uint32_t slot = (uint32_t)id & EVQ_SLOT_MASK;

	if (id && slot < q->nrec && q->rec[slot].gen == (uint32_t)(id >> 32))
		q->rec[slot].comp = 0;
}

/*
 * Remove the earliest key; the caller must check q->n > 0 first.
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

static inline uint64_t evq_key_time(evq_key k)
{
	return (uint64_t)(k >> 64);
}

static inline uint32_t evq_key_slot(evq_key k)
{
	return (uint32_t)k & EVQ_SLOT_MASK;
}

static inline void evq_free_slot(struct evq *q, uint32_t slot)
{
	q->free_slots[q->nfree++] = slot;
}

#endif
