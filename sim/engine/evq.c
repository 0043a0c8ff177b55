/*
 * Event queue storage: growth of the heap and the record pool, and the rare
 * renumbering of sequence numbers. The hot push/pop paths are inline in
 * evq.h.
 */
#include <glib.h>
#include <stdlib.h>

#include "evq.h"

void evq_init(struct evq *q)
{
	*q = (struct evq){0};
	q->cap = 1024;
	q->heap = g_new(evq_key, q->cap);
	evq_grow_records(q);
	evq_grow_timers(q);
}

void evq_destroy(struct evq *q)
{
	g_free(q->heap);
	g_free(q->rec);
	g_free(q->free_slots);
	g_free(q->theap);
	*q = (struct evq){0};
}

void evq_grow_heap(struct evq *q)
{
	q->cap *= 2;
	q->heap = g_renew(evq_key, q->heap, q->cap);
}

void evq_grow_records(struct evq *q)
{
	uint32_t old = q->nrec;
	uint32_t grown = old ? old * 2 : 1024;

	if (grown > EVQ_SLOT_MASK + 1u)
		grown = EVQ_SLOT_MASK + 1u;
	if (grown == old)
		g_error("storsim: more than %u pending events", EVQ_SLOT_MASK + 1u);

	q->rec = g_renew(struct evq_record, q->rec, grown);
	q->free_slots = g_renew(uint32_t, q->free_slots, grown);
	for (uint32_t s = old; s < grown; s++)
		q->rec[s] = (struct evq_record){0};
	/* Hand out low slots first: they are the ones most likely cached. */
	for (uint32_t s = grown; s > old; s--)
		q->free_slots[q->nfree++] = s - 1;
	q->nrec = grown;
}

void evq_grow_timers(struct evq *q)
{
	q->tcap = q->tcap ? q->tcap * 2 : 16;
	q->theap = g_renew(struct evq_tnode, q->theap, q->tcap);
}

/* A pending key and where it lives: heap[at], or theap[at - n]. */
struct pending {
	evq_key key;
	uint32_t at;
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
 * that order, within each heap too, so both stay valid heaps.
 */
void evq_renumber(struct evq *q)
{
	uint32_t total = q->n + q->tn;
	struct pending *all = g_new(struct pending, total);

	for (uint32_t i = 0; i < q->n; i++)
		all[i] = (struct pending){q->heap[i], i};
	for (uint32_t i = 0; i < q->tn; i++)
		all[q->n + i] = (struct pending){q->theap[i].key, q->n + i};
	qsort(all, total, sizeof(*all), pending_cmp);
	for (uint32_t r = 0; r < total; r++) {
		evq_key k = all[r].key;
		evq_key renumbered = (k >> 64 << 64) | ((evq_key)r << EVQ_SLOT_BITS) |
				     evq_key_slot(k);
		if (all[r].at < q->n)
			q->heap[all[r].at] = renumbered;
		else
			q->theap[all[r].at - q->n].key = renumbered;
	}
	g_free(all);
	q->seq = total;
}
