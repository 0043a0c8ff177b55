/*
 * Execution contexts: a task's, or a CPU's hard-IRQ or soft-IRQ context.
 *
 * Stands for the state the kernel keeps per context of execution (the
 * task's kernel stack, a CPU's irq_stack and softirq state): here, the work
 * charged to the context (xctx_charge), the work the CPU has executed of it,
 * and the ring of milestones (side effects to deliver, the end of a step)
 * at offsets of that work; see host.c for how time is kept. Also the
 * per-stage CPU-time accounting that fio's usr/sys and storsim's profile
 * read.
 *
 * Parameters: none of its own (host.c's table).
 */
#include "host_impl.h"
/* ---- rings ---- */

/* Double a full ring of elements of size sz, unwrapping it; returns the
 * new storage. */
static void *ring_grow(void *ring, size_t sz, uint32_t *head, uint32_t *tail,
		       uint32_t *mask)
{
	uint32_t n = *tail - *head, cap = (*mask + 1) * 2;
	char *a = g_malloc_n(cap, sz);

	for (uint32_t i = 0; i < n; i++)
		memcpy(a + i * sz, (char *)ring + ((*head + i) & *mask) * sz, sz);
	g_free(ring);
	*head = 0;
	*tail = n;
	*mask = cap - 1;
	return a;
}

void
ms_push_grow(struct xctx *x, uint8_t kind, struct sim_msg msg, stage_id st)
{
	x->ms = ring_grow(x->ms, sizeof(*x->ms), &x->head, &x->tail, &x->mask);
	ms_push(x, kind, msg, st);
}

void msgq_push_grow(struct msgq *q, struct sim_msg m)
{
	q->m = ring_grow(q->m, sizeof(*q->m), &q->head, &q->tail, &q->mask);
	msgq_push(q, m);
}

void xctx_init(struct xctx *x, struct host *h, struct cpu *c,
		      struct task *t, uint8_t level)
{
	*x = (struct xctx){.h = h, .cpu = c, .task = t, .level = level};
	x->m.stage_ns = h->stage_ns;
	x->m.stage_cnt = h->stage_cnt;
	x->mask = 15;
	x->ms = g_new(struct milestone, x->mask + 1);
}

/* ---- accounting ---- */

_Static_assert(offsetof(struct xctx, m) == 0,
	       "xctx_charge() takes a context for its meter");

/* Before reading a task's vruntime or anyone's usage, and before a task
 * changes CPU (its pending time is its CPU's). Out of line: it is rare,
 * and inlined it makes the hot path's functions too big to inline. */
__attribute__((noinline)) void fold_current(const struct host *h)
{
	if (h->current)
		fold(h->current);
	if (h->unfolded)
		fold(h->unfolded);
}

void xctx_defer_fields(struct xctx *x, struct sim_component *c, unsigned type,
		       void *ptr, uint64_t arg)
{
	g_assert(x->m.in_step);
	ms_push(x, MS_ACTION, SIM_MSG(c, type, ptr, arg), 0);
}

sim_time xctx_clock(const struct xctx *x)
{
	sim_time ahead = x->m.charged > x->done ? x->m.charged - x->done : 0;

	return sim_now(x->h->sim) + x->debt + ahead;
}

struct task *xctx_task(const struct xctx *x)
{
	return x->task;
}

struct cpu *xctx_cpu(const struct xctx *x)
{
	return x->cpu;
}

bool xctx_in_irq(const struct xctx *x)
{
	return x->level != XL_TASK;
}

bool xctx_in_hardirq(const struct xctx *x)
{
	return x->level == XL_HARDIRQ;
}

struct xctx *host_current(const struct host *h)
{
	return h->current;
}

