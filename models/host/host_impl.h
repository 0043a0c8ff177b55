/*
 * The host model's private objects, shared by its files and nobody else:
 * execution contexts and their milestone rings (xctx.c), CPUs and their
 * interrupt contexts (cpu.c), the CFS-like run queues (sched.c), tasks and
 * their timers (task.c), the CPU timeline (timeline.c) and the host that
 * owns them all (host.c). Models outside models/host/ use host.h only.
 */
#ifndef STORSIM_HOST_IMPL_H
#define STORSIM_HOST_IMPL_H

#include <glib.h>
#include <string.h>

#include "cpuidle.h"
#include "host.h"
#include "engine/util.h"

enum ms_kind {
	MS_ACTION,	/* a side effect: deliver, then keep going */
	MS_STEP,	/* the next step of the context's program */
	MS_END,		/* an interrupt handler has returned */
	MS_SLEEP,	/* the task blocks until woken */
	MS_SPIN,	/* the task busy-polls until woken */
	MS_EXIT,	/* the task is done */
};

struct milestone {
	sim_time at;		/* offset in the context's work */
	struct sim_msg msg;
	uint8_t kind;
	stage_id stage;		/* MS_SPIN: what the polling is charged to */
};

enum xlevel { XL_HARDIRQ, XL_SOFTIRQ, XL_TASK };

struct xctx {
	struct xctx_meter m;	/* first: xctx_charge() sees only this */
	struct host *h;
	struct cpu *cpu;
	struct task *task;	/* NULL for interrupt contexts */
	uint8_t level;
	sim_time done;		/* work executed so far */
	/* m.charged as its last step ended, plus the entry and switch costs
	 * added since: anything else was charged outside a step */
	sim_time settled;
	sim_time debt;		/* work to execute before the next milestone */
	struct milestone *ms;	/* ring of pending milestones */
	uint32_t head, tail, mask;
};

enum task_state { T_NEW, T_RUNNABLE, T_RUNNING, T_SLEEPING, T_SPINNING, T_DEAD };

struct task {
	struct xctx x;
	char *name;
	char *poll_name;	/* timeline: "NAME (polling)", made when needed */
	enum task_kind kind;
	int mm_id;
	struct cpumask allowed;
	enum task_state state;
	unsigned cpu;
	sim_time vruntime;
	sim_time run_since;
	bool sleep_pending;	/* its last step ended in a sleep or spin */
	bool wake_pending;	/* woken before it got to that sleep */
	bool has_resume;
	struct sim_msg resume;	/* first step after being switched in */
	struct sim_msg on_wake;
	stage_id spin_stage;
	bool spin_running;
	bool spin_preempted;	/* spinning, put back on the runqueue */
	sim_time spin_start, spin_acc;
	bool io_sleep;		/* its pending sleep is in I/O wait (io_schedule) */
	bool in_iowait;		/* asleep, counted in its CPU's nr_iowait */
	sim_time hrtimer_at;	/* its nanosleep timer's expiry, 0 = none */
	struct task_usage use;
};

/* A CPU's events: its next milestone is due; it is out of its idle state. */
enum { CPU_EVENT, CPU_WOKEN };

struct msgq {
	struct sim_msg *m;
	uint32_t head, tail, mask;
};

struct cpu {
	struct sim_component comp;
	struct host *h;
	unsigned id;
	char name[16];
	struct xctx hardirq, softirq;
	struct msgq irqq, softq;
	struct task *curr;	/* owns the CPU: running, spinning or preempted by IRQ */
	struct xctx *running;	/* context whose work the CPU executes now */
	sim_time run_start;
	struct evq_timer timer;	/* the next milestone of running */
	sim_time irq_end;	/* a folded handler's end (irq_fold), or 0 */
	bool end_unpushed;	/* the handler just delivered has its end
				 * still to push (irq_fold) */
	struct task **rq;
	unsigned nrq, rqcap;
	sim_time min_vruntime;
	bool need_resched;
	bool in_process;	/* delivering milestones: defer re-dispatch */
	bool kicked;		/* cpu_kick came while in_process */
	bool idle;		/* nothing to run since cpuidle.entered */
	bool waking;		/* leaving its idle state */
	struct cpuidle_dev cpuidle;
	unsigned nr_iowait;	/* tasks that slept here in I/O wait, asleep */
	int active_mm;
	struct cpu_usage use;
};

struct host {
	struct sim *sim;
	struct host_params p;
	struct cpuidle_drv idle;
	unsigned nr_hrtimers;	/* tasks' nanosleep timers armed */
	unsigned nr_queued;	/* runnable tasks waiting on all runqueues */
	GPtrArray *free_later;	/* pairs: GDestroyNotify, pointer */
	struct timeline *tl;	/* recording, or NULL */
	struct cpu *cpus;
	GPtrArray *tasks;
	struct xctx *current;
	/* The task context whose last step's charges may still be pending:
	 * folded when another task's step starts or when anything reads
	 * usage or vruntime, so that a task's steps in a row fold once */
	struct xctx *unfolded;
	struct sim_component hrtimer;	/* tasks' nanosleep timers */
	sim_time stage_ns[STAGE_MAX];
	uint64_t stage_cnt[STAGE_MAX];
};

void cpu_dispatch(struct cpu *c);
void cpu_kick(struct cpu *c);
extern const struct sim_component_ops cpu_ops;
void enqueue_woken(struct host *h, struct task *t, struct sim_msg step);
/* A recording of which context ran where (timeline.c). */
struct timeline {
	sim_time from, to;
	GArray *slices;		/* struct host_slice */
	size_t max;
	bool truncated;
	int64_t *last;		/* per CPU: index of its last slice, or -1 */
};

__attribute__((noinline)) void fold_current(const struct host *h);
extern const struct sim_component_ops hrtimer_ops;
void irq_unfold(struct cpu *c);
void preempt_curr(struct cpu *c);
bool pull_task(struct cpu *c);
bool rq_has_work(const struct cpu *c);
unsigned rq_next(const struct cpu *c);
unsigned rq_best(const struct cpu *c);
struct task *rq_take(struct cpu *c, unsigned i);
void spin_pause(struct task *t, sim_time now);
extern stage_id st_ctx_switch, st_wakeup, st_irq_entry, st_softirq_entry,
	st_syscall, st_syscall_user;
void switch_in(struct cpu *c, struct task *t);
void task_free(struct task *t);
void tl_add(struct host *h, unsigned cpu, const char *name, sim_time start,
		   sim_time end);
void update_min_vruntime(struct cpu *c);
void xctx_init(struct xctx *x, struct host *h, struct cpu *c,
		      struct task *t, uint8_t level);
const char *xctx_name(const struct xctx *x);
void yield_spinner(struct cpu *c);

__attribute__((noinline, cold)) void
ms_push_grow(struct xctx *x, uint8_t kind, struct sim_msg msg, stage_id st);
__attribute__((noinline, cold)) void msgq_push_grow(struct msgq *q,
						    struct sim_msg m);

static inline bool ms_empty(const struct xctx *x)
{
	return x->head == x->tail;
}

static inline struct milestone *ms_head(struct xctx *x)
{
	return &x->ms[x->head & x->mask];
}

/* Inline, with growth out of the way: a few pushes per I/O. Growth is a
 * call that nothing follows, so that the pushes that do not grow (all but
 * a few in a run) save no registers. */
static inline void ms_push(struct xctx *x, uint8_t kind, struct sim_msg msg,
			   stage_id st)
{
	if (__builtin_expect(x->tail - x->head > x->mask, 0)) {
		ms_push_grow(x, kind, msg, st);
		return;
	}
	x->ms[x->tail++ & x->mask] = (struct milestone){
		.at = x->m.charged, .msg = msg, .kind = kind, .stage = st,
	};
}

/* As ms_push. */
static inline void msgq_push(struct msgq *q, struct sim_msg m)
{
	if (__builtin_expect(q->tail - q->head > q->mask, 0)) {
		msgq_push_grow(q, m);
		return;
	}
	q->m[q->tail++ & q->mask] = m;
}

/* Take what x has charged into its task's and CPU's usage and the task's
 * vruntime. Only the context whose step is being delivered (h->current)
 * and the task whose step was delivered last (h->unfolded) ever have
 * charges pending; see fold_current(). */
static inline void fold(struct xctx *x)
{
	sim_time *pend = x->m.pending;
	/* A task's time is user or system by its stage; an interrupt
	 * context's is its own class, whatever the stage. */
	sim_time usr = pend[CPU_USR];
	sim_time sys = pend[CPU_SYS] + pend[CPU_IRQ] + pend[CPU_SOFTIRQ];
	sim_time *cls = x->cpu->use.class_ns;

	memset(pend, 0, sizeof(x->m.pending));
	if (x->level == XL_HARDIRQ) {
		cls[CPU_IRQ] += usr + sys;
	} else if (x->level == XL_SOFTIRQ) {
		cls[CPU_SOFTIRQ] += usr + sys;
	} else {
		x->task->use.usr_ns += usr;
		x->task->use.sys_ns += sys;
		x->task->vruntime += usr + sys;
		cls[CPU_USR] += usr;
		cls[CPU_SYS] += sys;
	}
}

/* Account work that is not charged in a step: an entry or switch cost, a
 * spin's length. */
static inline void account(struct xctx *x, stage_id st, sim_time ns)
{
	x->m.stage_ns[st] += ns;
	x->m.stage_cnt[st]++;
	x->m.pending[stage_class[st]] += ns;
	fold(x);
}

static inline bool should_preempt(struct cpu *c, struct task *t)
{
	const struct host_params *p = &c->h->p;

	if (c->nrq == 0)
		return false;
	if (c->need_resched)
		return true;
	/* The tick's check: a task that has had its slice yields to one that
	 * is behind it. */
	if (sim_now(c->h->sim) - t->run_since < p->min_granularity)
		return false;
	fold_current(c->h);
	return c->rq[rq_best(c)]->vruntime < t->vruntime;
}

/* Whether the CPU is still in a folded handler for what must wait for its
 * end: also at the end's time, until the event it would have had there
 * (the task's timer takes its place in the order) has passed. */
static inline bool irq_folded(const struct cpu *c)
{
	return c->irq_end && sim_now(c->h->sim) <= c->irq_end;
}

#endif

