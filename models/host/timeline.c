/*
 * The CPU timeline: which context ran on which CPU when, for `storsim
 * timeline` style output (host_timeline_record, host_timeline).
 *
 * Stands for nothing in the kernel; it is what `perf sched timehist` or
 * a trace of sched_switch would show of the simulated run.
 *
 * Parameters: none.
 */
#include "host_impl.h"
/* ---- timeline ---- */

void tl_add(struct host *h, unsigned cpu, const char *name, sim_time start,
		   sim_time end)
{
	struct timeline *tl = h->tl;

	start = MAX(start, tl->from);
	end = MIN(end, tl->to);
	if (end <= start)
		return;
	if (tl->last[cpu] >= 0) {
		struct host_slice *l = &g_array_index(tl->slices, struct host_slice,
						      tl->last[cpu]);
		if (l->name == name && l->end == start) {
			l->end = end;
			return;
		}
	}
	if (tl->slices->len >= tl->max) {
		tl->truncated = true;
		return;
	}
	struct host_slice s = {.start = start, .end = end, .name = name, .cpu = cpu};
	tl->last[cpu] = tl->slices->len;
	g_array_append_val(tl->slices, s);
}

const char *xctx_name(const struct xctx *x)
{
	if (x->task)
		return x->task->name;
	return x->level == XL_HARDIRQ ? "hardirq" : "softirq";
}

void host_timeline_record(struct host *h, sim_time from, sim_time to, size_t max)
{
	struct timeline *tl = g_new0(struct timeline, 1);

	tl->from = from;
	tl->to = to;
	tl->max = max;
	tl->slices = g_array_new(FALSE, FALSE, sizeof(struct host_slice));
	tl->last = g_new(int64_t, h->p.ncpus);
	for (unsigned i = 0; i < h->p.ncpus; i++)
		tl->last[i] = -1;
	h->tl = tl;
}

const struct host_slice *host_timeline(struct host *h, size_t *n,
				       bool *truncated)
{
	sim_time now = sim_now(h->sim);

	/* What runs or polls now, up to now. */
	for (unsigned i = 0; h->tl && i < h->p.ncpus; i++) {
		struct cpu *c = &h->cpus[i];
		if (c->running && now > c->run_start)
			tl_add(h, c->id, xctx_name(c->running), c->run_start, now);
		if (c->curr && c->curr->state == T_SPINNING && c->curr->spin_running) {
			spin_pause(c->curr, now);
			c->curr->spin_running = true;
			c->curr->spin_start = now;
		}
	}
	*n = h->tl ? h->tl->slices->len : 0;
	*truncated = h->tl && h->tl->truncated;
	return h->tl ? (const struct host_slice *)h->tl->slices->data : NULL;
}

