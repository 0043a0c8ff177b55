/*
 * The CFS-like scheduler: per-CPU run queues ordered by virtual runtime,
 * wake-up placement and preemption, CPU selection at wake-up.
 *
 * Stands for: kernel/sched/fair.c (vruntime, place_entity,
 * check_preempt_wakeup, pick_next_entity, select_task_rq_fair's idle
 * sibling search, reduced to "an idle allowed CPU, else the previous
 * one") and kernel/sched/core.c (context_switch's cost).
 *
 * Parameters (host table, host.c): sched_latency_ns, wakeup_granularity_ns,
 * min_granularity_ns, ctx_switch_ns, ctx_switch_mm_ns, preempt.
 * Sources: as host.c.
 */
#include "host_impl.h"
static void rq_add(struct cpu *c, struct task *t)
{
	if (c->nrq == c->rqcap) {
		c->rqcap = c->rqcap ? c->rqcap * 2 : 8;
		c->rq = g_renew(struct task *, c->rq, c->rqcap);
	}
	c->rq[c->nrq++] = t;
	c->h->nr_queued++;
}

struct task *rq_take(struct cpu *c, unsigned i)
{
	struct task *t = c->rq[i];

	c->rq[i] = c->rq[--c->nrq];
	c->h->nr_queued--;
	return t;
}

/* newidle_balance: a CPU about to go idle takes a task waiting behind
 * another CPU's current one (one with work first), if it may run here. */
bool pull_task(struct cpu *c)
{
	struct host *h = c->h;
	struct task *spinner = NULL;
	struct cpu *from = NULL;
	unsigned at = 0;

	if (!h->nr_queued)
		return false;
	for (unsigned k = 1; k < h->p.ncpus; k++) {
		struct cpu *o = &h->cpus[(c->id + k) % h->p.ncpus];
		/* Only tasks waiting behind a running one: a CPU on its way
		 * out of idle runs its own. */
		if (!o->curr)
			continue;
		for (unsigned i = 0; i < o->nrq; i++) {
			struct task *t = o->rq[i];
			if (!cpumask_test(&t->allowed, c->id))
				continue;
			if (!t->spin_preempted) {
				from = o;
				at = i;
				goto found;
			}
			if (!spinner) {
				spinner = t;
				from = o;
				at = i;
			}
		}
	}
	if (!from)
		return false;
found:
	fold_current(h);
	struct task *t = rq_take(from, at);
	/* Keep its lag relative to the queue it joins. */
	t->vruntime = t->vruntime - MIN(t->vruntime, from->min_vruntime) +
		      c->min_vruntime;
	t->cpu = c->id;
	t->x.cpu = c;
	rq_add(c, t);
	return true;
}

/* The runnable task with the smallest vruntime; the earliest queued wins
 * ties, so the choice never depends on anything but the run's history. */
unsigned rq_best(const struct cpu *c)
{
	unsigned best = 0;
	for (unsigned i = 1; i < c->nrq; i++)
		if (c->rq[i]->vruntime < c->rq[best]->vruntime)
			best = i;
	return best;
}

/* The next task to run: the least vruntime, but one with work before
 * one that would only go on spinning. */
unsigned rq_next(const struct cpu *c)
{
	int best = -1;
	for (unsigned i = 0; i < c->nrq; i++)
		if (!c->rq[i]->spin_preempted &&
		    (best < 0 || c->rq[i]->vruntime < c->rq[best]->vruntime))
			best = (int)i;
	return best < 0 ? rq_best(c) : (unsigned)best;
}

bool rq_has_work(const struct cpu *c)
{
	for (unsigned i = 0; i < c->nrq; i++)
		if (!c->rq[i]->spin_preempted)
			return true;
	return false;
}

void update_min_vruntime(struct cpu *c)
{
	sim_time v = SIM_TIME_MAX;

	fold_current(c->h);

	if (c->curr)
		v = c->curr->vruntime;
	if (c->nrq) {
		sim_time r = c->rq[rq_best(c)]->vruntime;
		if (r < v)
			v = r;
	}
	if (v != SIM_TIME_MAX && v > c->min_vruntime)
		c->min_vruntime = v;
}

void preempt_curr(struct cpu *c)
{
	struct task *t = c->curr;

	t->state = T_RUNNABLE;
	t->use.nivcsw++;
	rq_add(c, t);
	c->curr = NULL;
	c->need_resched = false;
}

/* A busy-polling task gives the CPU to a task with work (a polling loop
 * calls cond_resched, CFS does the rest); it spins on when it gets the
 * CPU back, until woken. */
void yield_spinner(struct cpu *c)
{
	struct task *t = c->curr;

	spin_pause(t, sim_now(c->h->sim));
	t->spin_preempted = true;
	t->state = T_RUNNABLE;
	t->use.nivcsw++;
	rq_add(c, t);
	c->curr = NULL;
}

void switch_in(struct cpu *c, struct task *t)
{
	const struct host_params *p = &c->h->p;
	sim_time cost = p->ctx_switch;

	if (t->kind == TASK_USER && c->active_mm != t->mm_id) {
		cost += p->ctx_switch_mm;
		c->active_mm = t->mm_id;
	}
	c->curr = t;
	c->need_resched = false;
	c->use.ctx_switches++;
	cpuidle_task_runs(&c->cpuidle);
	t->state = T_RUNNING;
	t->cpu = c->id;
	t->x.cpu = c;
	t->run_since = sim_now(c->h->sim);
	account(&t->x, st_ctx_switch, cost);
	if (t->has_resume) {
		/* Woken from sleep: nothing is pending, so the step is
		 * delivered at once and its work queues behind the switch. */
		t->has_resume = false;
		ms_push(&t->x, MS_STEP, t->resume, 0);
		t->x.m.charged += cost;
		t->x.settled += cost;
	} else {
		/* Preempted: the switch comes before its pending work. */
		t->x.debt += cost;
	}
}

void spin_pause(struct task *t, sim_time now)
{
	if (t->spin_running) {
		struct host *h = t->x.h;
		t->spin_acc += now - t->spin_start;
		t->spin_running = false;
		if (h->tl) {
			if (!t->poll_name)
				t->poll_name = g_strdup_printf("%s (polling)", t->name);
			tl_add(h, t->cpu, t->poll_name, t->spin_start, now);
		}
	}
}

static bool cpu_is_idle(const struct cpu *c)
{
	return !c->curr && c->nrq == 0;
}

static struct cpu *select_cpu(struct host *h, struct task *t)
{
	unsigned n = h->p.ncpus;

	if (cpu_is_idle(&h->cpus[t->cpu]) && cpumask_test(&t->allowed, t->cpu))
		return &h->cpus[t->cpu];
	for (unsigned k = 1; k < n; k++) {
		unsigned i = (t->cpu + k) % n;
		if (cpumask_test(&t->allowed, i) && cpu_is_idle(&h->cpus[i]))
			return &h->cpus[i];
	}
	if (cpumask_test(&t->allowed, t->cpu))
		return &h->cpus[t->cpu];
	for (unsigned i = 0; i < n; i++)
		if (cpumask_test(&t->allowed, i))
			return &h->cpus[i];
	g_assert_not_reached();
}

void enqueue_woken(struct host *h, struct task *t, struct sim_msg step)
{
	struct cpu *c = select_cpu(h, t);
	sim_time floor_vr;

	/* Also brings the running task's vruntime up to date for the
	 * wake-up preemption check below. */
	update_min_vruntime(c);
	/* place_entity: a sleeper is credited at most half a latency period. */
	floor_vr = c->min_vruntime > h->p.sched_latency / 2 ?
		   c->min_vruntime - h->p.sched_latency / 2 : 0;
	if (t->vruntime < floor_vr)
		t->vruntime = floor_vr;
	t->state = T_RUNNABLE;
	t->cpu = c->id;
	t->x.cpu = c;
	t->has_resume = true;
	t->resume = step;
	rq_add(c, t);
	if (c->curr && c->curr->state == T_SPINNING) {
		yield_spinner(c);
		cpu_kick(c);
	} else if (!c->curr && !c->running) {
		cpu_kick(c);
	} else if (c->curr && c->curr->state == T_RUNNING &&
		   c->curr->vruntime > t->vruntime + h->p.wakeup_granularity) {
		c->need_resched = true;
		if (h->p.preempt == PREEMPT_FULL && irq_folded(c))
			irq_unfold(c);
	}
}

