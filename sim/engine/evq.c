/*
 * Event queue storage and the ladder's rarer moves: growth of the heap, the
 * top and the record pool, spreading events over rungs, taking a bucket
 * into the heap, and the rare renumbering of sequence numbers. The hot
 * push and pop paths are inline in evq.h.
 */
#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "evq.h"

_Static_assert(sizeof(struct evq_record) == 48, "three records fill three lines");

void evq_init(struct evq *q)
{
	*q = (struct evq){.bot_hi = UINT64_MAX};
	evq_grow_heap(q);
	evq_grow_records(q);
	evq_grow_timers(q);
}

void evq_destroy(struct evq *q)
{
	g_aligned_free(q->heap_mem);
	g_aligned_free(q->rec);
	g_free(q->free_slots);
	g_free(q->next);
	g_free(q->top);
	g_free(q->theap);
	for (unsigned k = 0; k < EVQ_RUNGS; k++)
		g_free(q->rung[k].b);
	*q = (struct evq){0};
}

/* A node's four children are heap[4i+1..4i+4]: with heap[1] at a cache
 * line's start they share one line. */
void evq_grow_heap(struct evq *q)
{
	uint32_t cap = q->cap ? q->cap * 2 : 1024;
	void *mem = g_aligned_alloc(cap + 4, sizeof(evq_key), 64);
	evq_key *heap = (evq_key *)mem + 3;

	if (q->n)
		memcpy(heap, q->heap, q->n * sizeof(evq_key));
	g_aligned_free(q->heap_mem);
	q->heap_mem = mem;
	q->heap = heap;
	q->cap = cap;
}

void evq_grow_top(struct evq *q)
{
	q->topcap = q->topcap ? q->topcap * 2 : 1024;
	q->top = g_renew(evq_key, q->top, q->topcap);
}

void evq_grow_timers(struct evq *q)
{
	q->tcap = q->tcap ? q->tcap * 2 : 16;
	q->theap = g_renew(struct evq_tnode, q->theap, q->tcap);
}

void evq_grow_records(struct evq *q)
{
	uint32_t old = q->nrec;
	uint32_t grown = old ? old * 2 : 1024;

	if (grown > EVQ_SLOT_MASK + 1u)
		grown = EVQ_SLOT_MASK + 1u;
	if (grown == old)
		g_error("storsim: more than %u pending events", EVQ_SLOT_MASK + 1u);
	struct evq_record *rec = g_aligned_alloc0(grown, sizeof(*rec), 64);
	if (old)
		memcpy(rec, q->rec, old * sizeof(*rec));
	g_aligned_free(q->rec);
	q->rec = rec;
	q->free_slots = g_renew(uint32_t, q->free_slots, grown);
	q->next = g_renew(uint32_t, q->next, grown);
	/* Hand out low slots first: they are the ones most likely cached. */
	for (uint32_t s = grown; s > old; s--)
		q->free_slots[q->nfree++] = s - 1;
	q->nrec = grown;
}

static uint32_t ceil_log2(uint64_t v)
{
	return v <= 1 ? 0 : 64 - (uint32_t)__builtin_clzll(v - 1);
}

/* Make rung k span [lo, hi) with buckets of 2^shift ns, shift at most
 * shift_max, about want of them, all empty. */
static struct evq_rung *rung_open(struct evq *q, unsigned k, uint64_t lo,
				  uint64_t hi, uint32_t want, uint32_t shift_max)
{
	struct evq_rung *r = &q->rung[k];
	uint64_t span = hi - lo;
	uint32_t shift = ceil_log2(span);
	uint32_t lb = ceil_log2(want);

	shift = shift > lb ? shift - lb : 0;
	if (shift > shift_max)
		shift = shift_max;
	r->lo = lo;
	r->hi = hi;
	r->shift = shift;
	r->cur = 0;
	r->nb = (uint32_t)(((span - 1) >> shift) + 1);
	if (r->nb > r->cap) {
		r->cap = r->nb;
		g_free(r->b);
		r->b = g_new(struct evq_bucket, r->cap);
	}
	for (uint32_t i = 0; i < r->nb; i++)
		r->b[i] = (struct evq_bucket){EVQ_NIL, 0};
	return r;
}

/* File key in its bucket of r; the record keeps the key while there. */
static inline void rung_add(struct evq *q, struct evq_rung *r, evq_key key)
{
	uint32_t slot = evq_key_slot(key);
	struct evq_bucket *b = &r->b[(evq_key_time(key) - r->lo) >> r->shift];

	q->rec[slot].key = key;
	q->next[slot] = b->head;
	b->head = slot;
	b->count++;
}

/* Bottom-up heapify of heap[0..n). */
static void heapify(struct evq *q)
{
	evq_key *h = q->heap;
	uint32_t n = q->n;

	if (n < 2)
		return;
	for (uint32_t i = (n - 2) / 4 + 1; i-- > 0;) {
		evq_key key = h[i];
		uint32_t at = i;
		for (;;) {
			uint32_t c = 4 * at + 1, best = c;
			if (c >= n)
				break;
			for (uint32_t j = c + 1; j < c + 4 && j < n; j++)
				if (h[j] < h[best])
					best = j;
			if (h[best] >= key)
				break;
			h[at] = h[best];
			at = best;
		}
		h[at] = key;
	}
}

/* The due time one past the last, saturating: a bound for t < bound. */
static uint64_t past(uint64_t t)
{
	return t == UINT64_MAX ? t : t + 1;
}

/* The heap has grown past EVQ_BOTTOM_MAX: spread it over a new finest
 * rung from its earliest time to bot_hi (to its latest, when there is no
 * rung: the top takes what comes after), unless its events are all due at
 * one time or the rungs are all in use. */
void evq_spill(struct evq *q)
{
	uint64_t lo = evq_key_time(q->heap[0]), hi = q->bot_hi;

	if (q->nr == 0) {
		uint64_t max = lo;
		for (uint32_t i = 1; i < q->n; i++)
			if (evq_key_time(q->heap[i]) > max)
				max = evq_key_time(q->heap[i]);
		hi = past(max);
	}
	if (q->nr == EVQ_RUNGS || hi - lo < 2)
		return;
	struct evq_rung *r = rung_open(q, q->nr, lo, hi, q->n, 63);
	for (uint32_t i = 0; i < q->n; i++)
		rung_add(q, r, q->heap[i]);
	q->n = 0;
	q->bot_hi = lo;
	q->nr++;
}

/* The heap is empty: fill it with the next events, spreading buckets and
 * the top over rungs as needed. False when nothing is pending. */
bool evq_refill(struct evq *q)
{
	for (;;) {
		if (q->nr == 0) {
			if (!q->ntop)
				return false;
			/* Few left: a plain heap again, until it grows. */
			if (q->ntop <= EVQ_SPLIT || q->top_min == q->top_max) {
				while (q->cap < q->ntop)
					evq_grow_heap(q);
				memcpy(q->heap, q->top, q->ntop * sizeof(evq_key));
				q->n = q->ntop;
				q->ntop = 0;
				q->bot_hi = UINT64_MAX;
				heapify(q);
				return true;
			}
			struct evq_rung *r = rung_open(q, 0, q->top_min,
						       past(q->top_max), q->ntop, 63);
			for (uint32_t i = 0; i < q->ntop; i++)
				rung_add(q, r, q->top[i]);
			q->ntop = 0;
			q->bot_hi = r->lo;
			q->nr = 1;
			continue;
		}
		struct evq_rung *r = &q->rung[q->nr - 1];
		while (r->cur < r->nb && !r->b[r->cur].count)
			r->cur++;
		if (r->cur == r->nb) {
			q->bot_hi = r->hi;
			q->nr--;
			continue;
		}
		uint32_t bi = r->cur++;
		struct evq_bucket b = r->b[bi];
		uint64_t blo = r->lo + ((uint64_t)bi << r->shift);
		uint64_t bhi = r->cur == r->nb ? r->hi : blo + (UINT64_C(1) << r->shift);

		r->b[bi] = (struct evq_bucket){EVQ_NIL, 0};
		if (b.count > EVQ_SPLIT && r->shift > 0 && q->nr < EVQ_RUNGS) {
			struct evq_rung *c = rung_open(q, q->nr, blo, bhi, b.count,
						       r->shift - 1);
			for (uint32_t s = b.head; s != EVQ_NIL;) {
				uint32_t next = q->next[s];
				rung_add(q, c, q->rec[s].key);
				s = next;
			}
			q->bot_hi = blo;
			q->nr++;
			continue;
		}
		while (q->cap < b.count)
			evq_grow_heap(q);
		/* The slots first, from next[], asking for their records on the
		 * way, so that the records' cache misses overlap. */
		uint32_t *slots = (uint32_t *)q->heap;
		uint32_t m = 0;
		for (uint32_t s = b.head; s != EVQ_NIL; s = q->next[s]) {
			__builtin_prefetch(&q->rec[s]);
			slots[m++] = s;
		}
		/* Keys are wider than slots: fill from the end. */
		for (uint32_t i = m; i-- > 0;)
			q->heap[i] = q->rec[slots[i]].key;
		q->n = m;
		q->bot_hi = bhi;
		heapify(q);
		return true;
	}
}

/* A pending key and where it is kept. */
struct pending {
	evq_key key;
	uint32_t timer;			/* 1 + its index in theap, or 0 */
};

static int pending_cmp(const void *a, const void *b)
{
	evq_key x = ((const struct pending *)a)->key;
	evq_key y = ((const struct pending *)b)->key;
	return x < y ? -1 : x > y;
}

/*
 * After 2^40 sequence numbers the field would overflow. Numbering the
 * pending keys of events and timers together 0..n-1 in their order keeps
 * that order everywhere they are kept, so the heaps stay heaps.
 */
void evq_renumber(struct evq *q)
{
	GArray *all = g_array_new(FALSE, FALSE, sizeof(struct pending));
	struct pending p = {0};

	for (uint32_t i = 0; i < q->n; i++) {
		p.key = q->heap[i];
		g_array_append_val(all, p);
	}
	for (uint32_t i = 0; i < q->ntop; i++) {
		p.key = q->top[i];
		g_array_append_val(all, p);
	}
	for (uint32_t k = 0; k < q->nr; k++)
		for (uint32_t i = q->rung[k].cur; i < q->rung[k].nb; i++)
			for (uint32_t s = q->rung[k].b[i].head; s != EVQ_NIL;
			     s = q->next[s]) {
				p.key = q->rec[s].key;
				g_array_append_val(all, p);
			}
	for (uint32_t i = 0; i < q->tn; i++) {
		p = (struct pending){q->theap[i].key, i + 1};
		g_array_append_val(all, p);
	}
	g_array_sort(all, pending_cmp);
	for (uint32_t r = 0; r < all->len; r++) {
		const struct pending *e = &g_array_index(all, struct pending, r);
		evq_key renumbered = (e->key >> 64 << 64) | ((evq_key)r << EVQ_SLOT_BITS);
		if (e->timer)
			q->theap[e->timer - 1].key = renumbered;
		else
			q->rec[evq_key_slot(e->key)].key = renumbered |
							    evq_key_slot(e->key);
	}
	for (uint32_t i = 0; i < q->n; i++)
		q->heap[i] = q->rec[evq_key_slot(q->heap[i])].key;
	for (uint32_t i = 0; i < q->ntop; i++)
		q->top[i] = q->rec[evq_key_slot(q->top[i])].key;
	q->seq = all->len;
	g_array_free(all, TRUE);
}
