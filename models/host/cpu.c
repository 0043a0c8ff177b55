/*
 * A CPU: runs the highest-priority context with pending work (hard IRQ,
 * soft IRQ, then its current task), keeps one event in the queue for that
 * context's next milestone, and takes interrupts.
 *
 * Stands for: the architecture's interrupt entry and exit, irq_exit and
 * __do_softirq (kernel/softirq.c), the scheduler's __schedule on the CPU,
 * and an idle CPU leaving its idle state (cpuidle.c decides which).
 *
 * Parameters (host table, host.c): irq_entry_ns, softirq_entry_ns,
 * idle_states, idle_governor. Sources: as host.c.
 */
#include "host_impl.h"
/* Credit the running context with the CPU time since it last started:
 * inline, as every CPU event and kick starts with it. */
static inline void cpu_progress(struct cpu *c)
{
	struct xctx *x = c->running;
	sim_time now = sim_now(c->comp.sim), ran = now - c->run_start;

	c->run_start = now;
	if (!x)
		return;
	if (__builtin_expect(c->h->tl != NULL, 0) && ran)
		tl_add(c->h, c->id, xctx_name(x), now - ran, now);
	if (ran <= x->debt) {
		x->debt -= ran;
	} else {
		x->done += ran - x->debt;
		x->debt = 0;
	}
}

static bool ms_due(struct xctx *x)
{
	return !ms_empty(x) && x->debt == 0 && ms_head(x)->at <= x->done;
}

/* Deliver msg as a step of x, which has reached the step's start. With
 * may_fold, see process(). */
static inline __attribute__((always_inline)) void
deliver_step(struct cpu *c, struct xctx *x, const struct sim_msg *msg,
	     bool may_fold)
{
	struct host *h = c->h;
	struct task *t = x->task;
	/* A step can start inside another's, when a wake-up there lets an
	 * idle CPU switch the woken task in: charges stay pending for
	 * h->current and h->unfolded only, so the inner step folds as it
	 * ends. A task's step that is not inside another's leaves its
	 * charges pending, for the task's next step to add to. */
	struct xctx *outer = h->current;
	g_assert(x->m.charged == x->settled);
	if (outer)
		fold(outer);
	else if (t && h->unfolded != x && h->unfolded)
		fold(h->unfolded);
	h->current = x;
	x->m.in_step = true;
	sim_msg_deliver(msg);
	if (t && !outer)
		h->unfolded = x;
	else
		fold(x);
	x->settled = x->m.charged;
	h->current = outer;
	if (!t) {
		x->m.in_step = false;
		if (may_fold && x == &c->hardirq && ms_empty(x) &&
		    (x->debt || x->m.charged > x->done))
			c->end_unpushed = true;
		else
			ms_push(x, MS_END, SIM_MSG(NULL, 0, NULL, 0), 0);
	}
	g_assert(!x->m.in_step);
}

/* Deliver every milestone of x that is due now: inlined in its two
 * callers, cpu_handle and cpu_dispatch, which the compiler stops doing on
 * its own once the function grows a little (a call costs 1% of a run).
 * With may_fold (cpu_dispatch, which tries irq_fold next), a hardirq
 * handler that leaves nothing but its end, not due yet, leaves that end
 * to irq_fold: most are folded, and then need no milestone. */
static inline __attribute__((always_inline)) void process(struct cpu *c,
							  struct xctx *x,
							  bool may_fold)
{
	while (ms_due(x)) {
		struct milestone m = *ms_head(x);
		struct task *t = x->task;

		if (m.kind == MS_STEP && t && should_preempt(c, t)) {
			preempt_curr(c);
			return;
		}
		x->head++;
		switch (m.kind) {
		case MS_ACTION:
			sim_msg_deliver(&m.msg);
			break;
		case MS_STEP:
			deliver_step(c, x, &m.msg, may_fold);
			break;
		case MS_END:
			break;
		case MS_SLEEP:
		case MS_SPIN:
			t->sleep_pending = false;
			if (t->wake_pending) {
				t->wake_pending = false;
				t->io_sleep = false;
				ms_push(x, MS_STEP, m.msg, 0);
				break;
			}
			t->on_wake = m.msg;
			if (m.kind == MS_SLEEP) {
				t->state = T_SLEEPING;
				t->use.nvcsw++;
				c->curr = NULL;
				/* io_schedule: counted in rq->nr_iowait. */
				if (t->io_sleep) {
					t->io_sleep = false;
					t->in_iowait = true;
					c->nr_iowait++;
				}
			} else {
				t->state = T_SPINNING;
				t->spin_stage = m.stage;
				t->spin_acc = 0;
				t->spin_running = false;
			}
			return;
		case MS_EXIT:
			t->state = T_DEAD;
			c->curr = NULL;
			return;
		}
	}
}

/* Start the next interrupt handler of q in x. */
static void irq_start(struct xctx *x, struct msgq *q, stage_id entry_stage,
		      sim_time entry)
{
	/* The handler is delivered as the interrupt starts; what it
	 * charges queues behind the entry cost. */
	ms_push(x, MS_STEP, q->m[q->head++ & q->mask], 0);
	account(x, entry_stage, entry);
	x->m.charged += entry;
	x->settled += entry;
}

/* Whether the interrupt context x has work, starting a handler if one is
 * raised; inline, as cpu_dispatch asks each time round. */
static inline bool irq_ready(struct xctx *x, struct msgq *q, stage_id entry_stage,
			     sim_time entry)
{
	if (!ms_empty(x))
		return true;
	if (q->head == q->tail)
		return false;
	irq_start(x, q, entry_stage, entry);
	return true;
}

/* The earliest nanosleep timer of a task asleep on c (tick_nohz_get_sleep_
 * length's hrtimers), SIM_TIME_MAX if none: looked for only by menu. */
static sim_time next_timer(const struct cpu *c)
{
	const struct host *h = c->h;
	sim_time at = SIM_TIME_MAX;

	if (h->idle.governor != IDLE_GOV_MENU || !h->nr_hrtimers)
		return at;
	for (unsigned i = 0; i < h->tasks->len; i++) {
		const struct task *t = g_ptr_array_index(h->tasks, i);
		if (t->hrtimer_at && t->cpu == c->id && t->hrtimer_at < at)
			at = t->hrtimer_at;
	}
	return at;
}

/*
 * A handler that has nothing left but its end, on a CPU that would then go
 * back to the task it interrupted and nothing else: rather than an event
 * at that end, the rest of the handler's time goes into the task's debt and
 * the task runs on, so the CPU's next event is the task's next milestone,
 * at the same time as after the end. The handler's time is in the CPU's
 * IRQ class already (folded as its step was delivered) and debt is charged
 * to no one, so no account changes; irq_end keeps the end, for what must
 * wait for it (irq_unfold). The timeline would show the task for the
 * handler: not while it records.
 *
 * One order is not kept: the task's timer is armed where the end's event
 * would have been, so an event scheduled while the handler's time passes,
 * for the very time of the task's milestone, now follows the milestone
 * instead of preceding it. Keeping that would cost a check on every event;
 * such a tie is rare (a few in a run of hundreds of thousands of folds).
 */
static bool irq_fold(struct cpu *c)
{
	struct xctx *x = &c->hardirq;
	struct task *t = c->curr;
	bool unpushed = c->end_unpushed;
	sim_time end;

	c->end_unpushed = false;
	if ((!unpushed && (x->tail - x->head != 1 ||
			   ms_head(x)->kind != MS_END)) ||
	    c->irqq.head != c->irqq.tail || !ms_empty(&c->softirq) ||
	    c->softq.head != c->softq.tail || !t || t->state != T_RUNNING ||
	    (c->need_resched && c->h->p.preempt == PREEMPT_FULL) || c->h->tl) {
		/* Where process() would have put it. */
		if (unpushed)
			ms_push(x, MS_END, SIM_MSG(NULL, 0, NULL, 0), 0);
		return false;
	}
	if (unpushed) {
		end = x->m.charged;
	} else {
		end = ms_head(x)->at;
		x->head++;
	}
	t->x.debt += end - x->done;
	c->irq_end = sim_now(c->h->sim) + (end - x->done);
	x->done = end;
	return true;
}

/* An interrupt or softirq raised before a folded handler's end, or a
 * wake-up there that a fully preemptible kernel acts on, waits for that
 * end as it would behind the hardirq context: give the CPU back to the
 * handler until then. Its end event goes where it would have been among
 * events of that time: the task's timer was armed in its place. */
void irq_unfold(struct cpu *c)
{
	struct xctx *x = &c->hardirq;
	sim_time left = c->irq_end - sim_now(c->h->sim);

	g_assert(c->running == &c->curr->x);
	cpu_progress(c);
	c->running->debt -= left;
	c->running = x;
	x->done = x->m.charged - left;
	ms_push(x, MS_END, SIM_MSG(NULL, 0, NULL, 0), 0);
	sim_timer_retime(c->h->sim, &c->timer, c->irq_end);
	c->irq_end = 0;
}

/* A spinning task stops polling while interrupt work runs. */
static inline void pause_spinner(struct cpu *c, sim_time now)
{
	if (c->curr && c->curr->state == T_SPINNING)
		spin_pause(c->curr, now);
}

/* When x, executed from now on, reaches its next milestone. */
static inline sim_time next_milestone_at(struct xctx *x, sim_time now)
{
	g_assert(!ms_empty(x));
	return now + x->debt + (ms_head(x)->at - x->done);
}

/* Execute x until its next milestone, which is not due yet. */
static inline void run_to_next(struct cpu *c, struct xctx *x, sim_time now)
{
	sim_time at = next_milestone_at(x, now);

	c->running = x;
	c->run_start = now;
	sim_timer_arm(c->h->sim, &c->timer, at, CPU_EVENT);
}

/*
 * Choose what the CPU executes next and schedule the event for its next
 * milestone. Milestones already due are delivered on the spot.
 */
void cpu_dispatch(struct cpu *c)
{
	struct sim *s = c->h->sim;
	const struct host_params *p = &c->h->p;

	if (c->in_process)
		return;
	g_assert(!c->running);
	for (;;) {
		struct xctx *x;
		sim_time now = sim_now(s);
		struct sim_msg handler;
		bool started = false;

		if (!ms_empty(&c->hardirq) || c->irqq.head != c->irqq.tail) {
			x = &c->hardirq;
			pause_spinner(c, now);
			/* A handler that starts at once (as they do when the
			 * last one has ended) is delivered below without
			 * going through its context's ring. */
			if (ms_empty(x) && !x->debt && x->m.charged <= x->done) {
				handler = c->irqq.m[c->irqq.head++ & c->irqq.mask];
				/* The entry, charged as in the handler's
				 * step, is folded with what the handler
				 * charges as the step ends. */
				xctx_charge(x, st_irq_entry, p->irq_entry);
				x->settled += p->irq_entry;
				started = true;
			} else if (ms_empty(x)) {
				irq_start(x, &c->irqq, st_irq_entry, p->irq_entry);
			}
		} else if (irq_ready(&c->softirq, &c->softq, st_softirq_entry,
				     p->softirq_entry)) {
			x = &c->softirq;
			pause_spinner(c, now);
		} else {
			struct task *t = c->curr;
			/* A fully preemptible kernel switches to the woken task
			 * as soon as nothing of higher priority is left to run,
			 * in the middle of the current task's work. */
			if (t && p->preempt == PREEMPT_FULL && c->need_resched &&
			    t->state == T_RUNNING && c->nrq) {
				preempt_curr(c);
				t = NULL;
			}
			if (!t) {
				update_min_vruntime(c);
				if (c->nrq == 0 && pull_task(c))
					continue;
				if (c->nrq == 0) {
					c->run_start = now;
					if (!c->idle) {
						c->idle = true;
						cpuidle_enter(&c->h->idle, &c->cpuidle,
							      now, next_timer(c),
							      c->nr_iowait);
					}
					return;
				}
				t = rq_take(c, rq_next(c));
				switch_in(c, t);
				if (t->spin_preempted) {
					t->spin_preempted = false;
					t->state = T_SPINNING;
				}
			}
			if (t->state == T_SPINNING && rq_has_work(c)) {
				yield_spinner(c);
				continue;
			}
			if (t->state == T_SPINNING) {
				if (!t->spin_running) {
					t->spin_running = true;
					t->spin_start = now;
				}
				return;
			}
			x = &t->x;
		}
		bool due = started || ms_due(x);
		if (due) {
			c->in_process = true;
			if (started)
				deliver_step(c, x, &handler, true);
			process(c, x, true);
			c->in_process = false;
		}
		/* A handler just delivered has only its end left (process()
		 * leaves no milestone due): the next time round would try to
		 * fold it. */
		if (x != &c->hardirq || !irq_fold(c)) {
			if (due)
				continue;
			run_to_next(c, x, now);
			return;
		}
		/* Folded: what the next time round would come to is the
		 * interrupted task, as irq_fold found nothing else to run. */
		x = &c->curr->x;
		if (ms_due(x))
			continue;
		run_to_next(c, x, now);
		return;
	}
}

/* Take the CPU away from whatever it executes, to re-decide. */
void cpu_kick(struct cpu *c)
{

	if (c->in_process) {
		c->kicked = true;
		return;
	}
	if (c->waking)
		return;
	if (c->idle) {
		struct host *h = c->h;
		sim_time now = sim_now(h->sim);
		sim_time exit = cpuidle_exit(&h->idle, &c->cpuidle, now);
		c->idle = false;
		if (exit) {
			c->waking = true;
			c->use.idle_exits++;
			if (h->tl)
				tl_add(h, c->id, "idle exit", now, now + exit);
			sim_schedule(h->sim, now + exit, &c->comp, CPU_WOKEN, NULL, 0);
			return;
		}
	}
	if (c->running) {
		cpu_progress(c);
		sim_timer_stop(c->h->sim, &c->timer);
		c->running = NULL;
	}
	cpu_dispatch(c);
}

static void cpu_handle(struct sim_component *comp, unsigned type, void *ptr,
		       uint64_t arg)
{
	struct cpu *c = (struct cpu *)comp;
	struct sim *s = comp->sim;

	if (type == CPU_WOKEN) {
		c->waking = false;
		cpu_dispatch(c);
		return;
	}
	for (;;) {
		struct xctx *x = c->running;

		cpu_progress(c);
		c->running = NULL;
		/* Past a folded handler's end and its place among that
		 * time's events, if this is the task's timer that took it. */
		c->irq_end = 0;
		c->kicked = false;
		c->in_process = true;
		process(c, x, false);
		c->in_process = false;
		/* Most events end here: the running task goes on to its next
		 * milestone, with no interrupt work and no reason to switch.
		 * That is what cpu_dispatch would choose, without its loop; a
		 * task that stays running left process() with its next
		 * milestone not due. The CPU ran the task, so no interrupt
		 * work was pending before process(), and what process()
		 * raised here kicked the CPU (irq_end is 0, so none unfolds
		 * a handler): a kick stands for the look at the interrupt
		 * contexts and their queues. */
		struct task *t = c->curr;
		if (!t || x != &t->x || t->state != T_RUNNING || c->need_resched ||
		    c->kicked)
			break;
		sim_time now = sim_now(s);
		sim_time at = next_milestone_at(x, now);
		if (!sim_next_is_at(s, at)) {
			run_to_next(c, x, now);
			return;
		}
		/* Nothing else happens before that milestone: its event
		 * is this CPU's next, taken here rather than through the
		 * queue. */
		c->running = x;
		c->run_start = now;
		sim_go_on(s, at);
	}
	cpu_dispatch(c);
}

const struct sim_component_ops cpu_ops = {
	.name = "cpu",
	.handle = cpu_handle,
};

/* ---- interrupts ---- */

void cpu_raise_irq_fields(struct cpu *c, struct sim_component *comp,
			  unsigned type, void *ptr, uint64_t arg)
{
	msgq_push(&c->irqq, SIM_MSG(comp, type, ptr, arg));
	c->use.irqs++;
	if (irq_folded(c))
		irq_unfold(c);
	else if (c->running != &c->hardirq)
		cpu_kick(c);
}

void cpu_raise_softirq_fields(struct cpu *c, struct sim_component *comp,
			      unsigned type, void *ptr, uint64_t arg)
{
	msgq_push(&c->softq, SIM_MSG(comp, type, ptr, arg));
	if (irq_folded(c))
		irq_unfold(c);
	else if (c->running != &c->hardirq && c->running != &c->softirq)
		cpu_kick(c);
}

unsigned cpu_id(const struct cpu *c)
{
	return c->id;
}

