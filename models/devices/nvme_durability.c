/*
 * Durability accounting of the NVMe device model (see nvme_durability.h).
 *
 * It stands for what a power-loss test rig checks on a real drive: after
 * the power is cut, every write the drive acknowledged as durable (a FUA
 * write, a write with the volatile write cache disabled, or a write that
 * completed before a Flush that completed, NVMe Base Specification 2.0,
 * 5.27.1.4 and NVM Command Set Specification 1.0, 3.2.2 and 3.2.6) must
 * read back; other acknowledged writes may be lost.
 *
 * Parameters: max_ranges (count) caps the nodes held. Sequence number 0
 * means "no write"; 1 marks a range whose newest data is on media, so that
 * such ranges compare equal and merge whatever wrote them.
 */
#include <string.h>

#include "nvme_durability.h"

#define SEQ_NONE 0u
#define SEQ_SETTLED 1u

struct dur_node {
	uint64_t start, end;	/* LBAs [start, end) */
	uint64_t acked;		/* newest acknowledged write */
	uint64_t media;		/* newest write whose data is on media */
	uint64_t promised;	/* newest write promised durable (not on media) */
	uint64_t pending;	/* older write a started flush may promise */
	uint32_t prio, left, right;
};

void dur_init(struct dur_tracker *t, uint32_t max_ranges, uint64_t seed,
	      const char *name)
{
	*t = (struct dur_tracker){.max_nodes = max_ranges};
	g_autofree char *stream = g_strdup_printf("%s.durability", name);
	sim_rng_seed(&t->rng, seed, stream);
	t->cap = 64;
	t->nodes = g_new0(struct dur_node, t->cap);
	t->used = 1;	/* node 0 is the null node */
}

void dur_destroy(struct dur_tracker *t)
{
	g_free(t->nodes);
	t->nodes = NULL;
}

uint32_t dur_ranges(const struct dur_tracker *t)
{
	return t->live;
}

static uint32_t node_new(struct dur_tracker *t)
{
	uint32_t i;

	if (t->live >= t->max_nodes)
		return 0;
	if (t->free_list) {
		i = t->free_list;
		t->free_list = t->nodes[i].left;
	} else {
		if (t->used == t->cap) {
			t->cap *= 2;
			t->nodes = g_renew(struct dur_node, t->nodes, t->cap);
		}
		i = t->used++;
	}
	t->nodes[i] = (struct dur_node){.prio = (uint32_t)sim_rng_next(&t->rng)};
	t->live++;
	return i;
}

static void node_free(struct dur_tracker *t, uint32_t i)
{
	t->nodes[i].left = t->free_list;
	t->free_list = i;
	t->live--;
}

/* Split tree r into keys < key (*l) and >= key (*rr). */
static void split(struct dur_node *n, uint32_t r, uint64_t key, uint32_t *l,
		  uint32_t *rr)
{
	if (!r) {
		*l = *rr = 0;
		return;
	}
	if (n[r].start < key) {
		split(n, n[r].right, key, &n[r].right, rr);
		*l = r;
	} else {
		split(n, n[r].left, key, l, &n[r].left);
		*rr = r;
	}
}

static uint32_t merge(struct dur_node *n, uint32_t a, uint32_t b)
{
	if (!a || !b)
		return a ? a : b;
	if (n[a].prio > n[b].prio) {
		n[a].right = merge(n, n[a].right, b);
		return a;
	}
	n[b].left = merge(n, a, n[b].left);
	return b;
}

static void insert(struct dur_tracker *t, uint32_t i)
{
	uint32_t l, r;

	split(t->nodes, t->root, t->nodes[i].start, &l, &r);
	t->root = merge(t->nodes, merge(t->nodes, l, i), r);
}

static void erase(struct dur_tracker *t, uint64_t start)
{
	uint32_t l, m, r;

	split(t->nodes, t->root, start, &l, &m);
	split(t->nodes, m, start + 1, &m, &r);
	if (m)
		node_free(t, m);
	t->root = merge(t->nodes, l, r);
}

/* The node with the greatest start <= key, or 0. */
static uint32_t find_le(const struct dur_tracker *t, uint64_t key)
{
	uint32_t r = t->root, best = 0;

	while (r) {
		if (t->nodes[r].start <= key) {
			best = r;
			r = t->nodes[r].right;
		} else {
			r = t->nodes[r].left;
		}
	}
	return best;
}

/* The node with the smallest start >= key, or 0. */
static uint32_t find_ge(const struct dur_tracker *t, uint64_t key)
{
	uint32_t r = t->root, best = 0;

	while (r) {
		if (t->nodes[r].start >= key) {
			best = r;
			r = t->nodes[r].left;
		} else {
			r = t->nodes[r].right;
		}
	}
	return best;
}

static void stop(struct dur_tracker *t, sim_time now)
{
	if (!t->overflow) {
		t->overflow = true;
		t->overflow_at = now;
	}
}

/* Make a node boundary at LBA p, so no node straddles it. */
static bool cut(struct dur_tracker *t, sim_time now, uint64_t p)
{
	uint32_t i = find_le(t, p);

	if (!i || t->nodes[i].start == p || t->nodes[i].end <= p)
		return true;
	uint32_t j = node_new(t);
	if (!j) {
		stop(t, now);
		return false;
	}
	uint32_t prio = t->nodes[j].prio;
	t->nodes[j] = t->nodes[i];
	t->nodes[j].prio = prio;
	t->nodes[j].left = t->nodes[j].right = 0;
	t->nodes[j].start = p;
	t->nodes[i].end = p;
	insert(t, j);
	return true;
}

static void settle(struct dur_node *n)
{
	if (n->media >= n->acked) {
		n->acked = n->media = SEQ_SETTLED;
		n->promised = n->pending = SEQ_NONE;
	}
}

static bool same_state(const struct dur_node *a, const struct dur_node *b)
{
	return a->acked == b->acked && a->media == b->media &&
	       a->promised == b->promised && a->pending == b->pending;
}

/* Merge equal neighbours from the node at or before a up to b. */
static void coalesce(struct dur_tracker *t, uint64_t a, uint64_t b)
{
	uint32_t cur = find_le(t, a ? a - 1 : 0);

	if (!cur)
		cur = find_ge(t, a);
	while (cur && t->nodes[cur].start <= b) {
		struct dur_node *c = &t->nodes[cur];
		uint32_t nx = find_ge(t, c->end);

		if (nx && t->nodes[nx].start == c->end &&
		    same_state(c, &t->nodes[nx])) {
			c->end = t->nodes[nx].end;
			erase(t, t->nodes[nx].start);
			continue;
		}
		cur = nx;
	}
}

/* A flush that completed covers seq <= watermark: fold that in. */
static void fold_pending(const struct dur_tracker *t, struct dur_node *n)
{
	if (n->pending && n->pending <= t->watermark) {
		if (n->pending > n->promised)
			n->promised = n->pending;
		n->pending = SEQ_NONE;
	}
}

static void ack_node(struct dur_tracker *t, struct dur_node *n, uint64_t seq,
		     bool durable)
{
	uint64_t old = n->acked;

	fold_pending(t, n);
	/* The previous newest write matters only while its data is not on
	 * media: then a flush may have promised it, or may yet. */
	if (n->media < old) {
		if (old <= t->watermark && old > n->promised)
			n->promised = old;
		else if (old <= t->pending_max && old > n->pending)
			n->pending = old;
	}
	n->acked = seq;
	if (durable)
		n->media = seq;
	settle(n);
}

void dur_ack(struct dur_tracker *t, sim_time now, uint64_t slba, uint64_t nlb,
	     uint64_t seq, bool durable)
{
	uint64_t end = slba + nlb, pos = slba;

	if (t->overflow || nlb == 0)
		return;
	t->acked++;
	if (!cut(t, now, slba) || !cut(t, now, end))
		return;
	while (pos < end) {
		uint32_t i = find_ge(t, pos);
		if (!i || t->nodes[i].start > pos) {
			uint64_t gap_end = i && t->nodes[i].start < end ?
					   t->nodes[i].start : end;
			uint32_t j = node_new(t);
			if (!j) {
				stop(t, now);
				return;
			}
			t->nodes[j].start = pos;
			t->nodes[j].end = gap_end;
			ack_node(t, &t->nodes[j], seq, durable);
			insert(t, j);
			pos = gap_end;
			continue;
		}
		ack_node(t, &t->nodes[i], seq, durable);
		pos = t->nodes[i].end;
	}
	coalesce(t, slba, end);
}

void dur_media(struct dur_tracker *t, sim_time now, uint64_t slba,
	       uint64_t nlb, uint64_t seq)
{
	uint64_t end = slba + nlb, pos = slba;

	if (t->overflow || nlb == 0)
		return;
	if (!cut(t, now, slba) || !cut(t, now, end))
		return;
	for (uint32_t i = find_ge(t, pos); i && t->nodes[i].start < end;
	     i = find_ge(t, pos)) {
		struct dur_node *n = &t->nodes[i];
		/* A destage older than the media copy is stale: the mapping
		 * already points at newer data, so it changes nothing. */
		if (seq > n->media)
			n->media = seq;
		fold_pending(t, n);
		settle(n);
		pos = n->end;
	}
	coalesce(t, slba, end);
}

void dur_flush_started(struct dur_tracker *t, uint64_t snapshot)
{
	if (snapshot > t->pending_max)
		t->pending_max = snapshot;
}

void dur_flush_completed(struct dur_tracker *t, uint64_t snapshot)
{
	if (snapshot > t->watermark)
		t->watermark = snapshot;
}

bool dur_on_media(const struct dur_tracker *t, uint64_t slba, uint64_t nlb)
{
	uint64_t pos = slba, end = slba + nlb;

	if (t->overflow)
		return false;
	while (pos < end) {
		uint32_t i = find_le(t, pos);
		const struct dur_node *n = &t->nodes[i];
		if (!i || n->end <= pos || n->media < n->acked)
			return false;
		pos = n->end;
	}
	return true;
}

static void verdict(const struct dur_tracker *t, const struct dur_node *n,
		    struct dur_range *out)
{
	uint64_t promised = n->promised;

	if (n->pending && n->pending <= t->watermark && n->pending > promised)
		promised = n->pending;
	if (n->acked <= t->watermark && n->acked > promised)
		promised = n->acked;
	out->slba = n->start;
	out->nlb = n->end - n->start;
	out->acked_seq = n->acked == SEQ_SETTLED ? 0 : n->acked;
	out->promised_seq = 0;
	if (n->media >= n->acked) {
		out->state = DUR_DURABLE;
	} else if (n->media < promised) {
		out->state = DUR_VIOLATION;
		out->promised_seq = promised;
	} else {
		out->state = DUR_LOST;
	}
}

static void walk(const struct dur_tracker *t, uint32_t r, GArray *out)
{
	if (!r)
		return;
	walk(t, t->nodes[r].left, out);
	struct dur_range v;
	verdict(t, &t->nodes[r], &v);
	if (out->len) {
		struct dur_range *last =
			&g_array_index(out, struct dur_range, out->len - 1);
		if (last->slba + last->nlb == v.slba && last->state == v.state &&
		    last->acked_seq == v.acked_seq &&
		    last->promised_seq == v.promised_seq) {
			last->nlb += v.nlb;
			v.nlb = 0;
		}
	}
	if (v.nlb)
		g_array_append_val(out, v);
	walk(t, t->nodes[r].right, out);
}

GArray *dur_report(const struct dur_tracker *t)
{
	GArray *out = g_array_new(FALSE, FALSE, sizeof(struct dur_range));
	walk(t, t->root, out);
	return out;
}

const char *dur_state_name(enum dur_state s)
{
	static const char *const names[] = {
		[DUR_DURABLE] = "durable",
		[DUR_LOST] = "lost",
		[DUR_VIOLATION] = "violation",
	};
	return names[s];
}
