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
}

void evq_destroy(struct evq *q)
{
	g_free(q->heap);
	g_free(q->rec);
	g_free(q->free_slots);
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

static int key_cmp(const void *a, const void *b)
{
	evq_key x = *(const evq_key *)a, y = *(const evq_key *)b;
	return x < y ? -1 : x > y;
}

/*
 * After 2^40 pushes the sequence field would overflow. Sorting the pending
 * keys and numbering them 0..n-1 keeps their order, and a sorted array is a
 * valid heap.
 */
void evq_renumber(struct evq *q)
{
	qsort(q->heap, q->n, sizeof(evq_key), key_cmp);
	for (uint32_t i = 0; i < q->n; i++) {
		evq_key k = q->heap[i];
		q->heap[i] = (k >> 64 << 64) | ((evq_key)i << EVQ_SLOT_BITS) |
			     evq_key_slot(k);
	}
	q->seq = q->n;
}
