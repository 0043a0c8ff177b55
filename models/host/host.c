/*
 * Host CPUs, tasks, interrupts and the CFS-like scheduler.
 *
 * Stands for: kernel/sched/core.c (__schedule, try_to_wake_up,
 * context_switch), kernel/sched/fair.c (vruntime, place_entity,
 * check_preempt_wakeup, pick_next_entity), kernel/softirq.c (irq_exit,
 * __do_softirq) and the architecture's syscall and interrupt entry code.
 *
 * How time is kept. Each execution context (a task, or a CPU's hard-IRQ or
 * soft-IRQ context) owns a queue of milestones at offsets of its own work
 * counter: `charged` grows as code charges stage costs, `done` grows as the
 * CPU executes that work. A milestone is either a side effect to deliver
 * (xctx_defer) or the end of a step (task_then/sleep/spin/exit, or the end
 * of an interrupt handler). The CPU runs the highest-priority context with
 * pending work and keeps one event in the queue: the due time of that
 * context's next milestone. When a task goes on to a milestone that would
 * be the run's next event anyway, nothing else being due by then, its CPU
 * takes that event at once instead of through the queue (sim_next_is_at);
 * it still counts as an event. Preemption stops the clock of the preempted
 * context, so its remaining work and side effects slide by exactly the time
 * the preempting work took.
 *
 * Work that must happen before a preempted context's queued work (the
 * cost of switching back to it) is "debt": it is executed first, without
 * moving the context's milestones. A context that starts afresh (an
 * interrupt handler, a task woken from sleep) has its step delivered at
 * once and the entry or switch cost charged ahead of the step's own work.
 *
 * The hot path, an interrupt while a task runs, costs one CPU event, not
 * two: when all that is left of the handler is its end and the CPU would
 * then go back to that task unchanged, the rest of the handler's time
 * becomes the task's debt and the CPU's next event is the task's next
 * milestone (irq_fold). Until the handler's end has passed, anything that
 * would wait behind it (another interrupt, a softirq, a wake-up a fully
 * preemptible kernel acts on) gives the CPU back to the handler first
 * (irq_unfold).
 *
 * Parameters (host profile, model "cpu"), all per event on this host:
 *   ncpus                 CPUs (count)
 *   page_size             base page size (bytes)
 *   mem_mb                memory (MiB), for fio's $mb_memory
 *   syscall_ns            one syscall's entry and exit, with mitigations (ns)
 *   syscall_user_ns       user-mode time lost after each syscall returns:
 *                         TLB and cache refills after the page-table switch
 *                         of page-table isolation (ns)
 *   ctx_switch_ns         __schedule + switch_to (ns)
 *   ctx_switch_mm_ns      extra when the address space changes (ns)
 *   wakeup_ns             try_to_wake_up, paid by the waker (ns)
 *   wakeup_remote_ns      extra for waking a task on another CPU (ns)
 *   irq_entry_ns          hard IRQ entry and exit (ns)
 *   softirq_entry_ns      one __do_softirq pass (ns)
 *   idle_states           the CPU's idle states as EXIT:RESIDENCY pairs in
 *                         ns, shallowest first ("" = none): the interrupt
 *                         or wake-up IPI that ends an idle period takes the
 *                         exit latency of the state the CPU is in before
 *                         the CPU runs anything (not CPU time)
 *   idle_governor         which state an idle CPU is in (cpuidle.c): oracle,
 *                         the deepest whose target residency the period
 *                         reached, or menu, Linux 5.7's prediction
 *   hz                    the scheduler tick's rate, for menu (1/s)
 *   idle_next_timer_ns    for menu: the next timer event's distance when no
 *                         task's timer is pending on the CPU (ns)
 *   sched_latency_ns      CFS sysctl_sched_latency before CPU scaling (ns)
 *   wakeup_granularity_ns CFS sysctl_sched_wakeup_granularity, unscaled (ns)
 *   min_granularity_ns    CFS sysctl_sched_min_granularity, unscaled (ns)
 *   preempt               CONFIG_PREEMPT_NONE / _VOLUNTARY / PREEMPT: where
 *                         a task that a wake-up should preempt is switched out:
 *                         at the end of its current step (none, voluntary:
 *                         the next preemption point or return to user space),
 *                         or right when the interrupt that woke the other
 *                         task returns (full)
 *
 * Sources: the CFS defaults (6 ms latency, 0.75 ms minimum granularity,
 * 1 ms wake-up granularity; normalized_sysctl_sched_* in
 * kernel/sched/fair.c), which the host multiplies, as the kernel's
 * update_sysctl() does at boot, by 1 + ilog2(min(ncpus, 8)); per-event
 * costs are in each host profile with their sources.
 *
 * Left out: SMT siblings, NUMA, load balancing between CPUs other than at
 * wake-up, priorities other than nice 0, real-time classes.
 */
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

#define P(field) offsetof(struct host_params, field)

static const char *const preempt_models[] = {"none", "voluntary", "full", NULL};

const struct param_def host_param_table[] = {
	{"ncpus", PARAM_U32, P(ncpus), "1", 1, HOST_MAX_CPUS, "count",
	 "number of CPUs"},
	{"page_size", PARAM_U64, P(page_size), "4096", 4096, 65536, "bytes",
	 "base page size"},
	{"mem_mb", PARAM_U64, P(mem_mb), "16384", 1, 1 << 30, "MiB",
	 "memory size, for fio's $mb_memory"},
	{"syscall_ns", PARAM_TIME, P(syscall), "100", 0, 1e6, "ns",
	 "one syscall's user/kernel entry and exit, with mitigations"},
	{"syscall_user_ns", PARAM_TIME, P(syscall_user), "0", 0, 1e6, "ns",
	 "user time lost after each syscall (TLB refill after KPTI)"},
	{"ctx_switch_ns", PARAM_TIME, P(ctx_switch), "150", 0, 1e6, "ns",
	 "__schedule + switch_to between two tasks"},
	{"ctx_switch_mm_ns", PARAM_TIME, P(ctx_switch_mm), "0", 0, 1e6, "ns",
	 "extra cost when the incoming task has another address space"},
	{"wakeup_ns", PARAM_TIME, P(wakeup), "100", 0, 1e6, "ns",
	 "try_to_wake_up, paid by the waker"},
	{"wakeup_remote_ns", PARAM_TIME, P(wakeup_remote), "0", 0, 1e6, "ns",
	 "extra for waking a task that runs on another CPU (IPI)"},
	{"irq_entry_ns", PARAM_TIME, P(irq_entry), "100", 0, 1e6, "ns",
	 "hard interrupt entry and exit"},
	{"softirq_entry_ns", PARAM_TIME, P(softirq_entry), "50", 0, 1e6, "ns",
	 "one __do_softirq pass"},
	{"idle_states", PARAM_STRING, P(idle_states), "", 0, 0, "EXIT:RESIDENCY ns",
	 "idle states, shallowest first, e.g. 2000:2000,10000:20000; "
	 "an idle CPU starts EXIT later"},
	{"idle_governor", PARAM_ENUM, P(idle_governor), "oracle", 0, 0, "",
	 "which idle state an idle CPU is in: oracle, the deepest whose "
	 "target residency the idle period reached; menu, Linux 5.7's menu "
	 "governor's prediction at idle entry", idle_governor_names},
	{"hz", PARAM_U32, P(hz), "250", 100, 1000, "1/s",
	 "CONFIG_HZ, the scheduler tick's rate; with menu, a kept tick wakes "
	 "an idle CPU"},
	{"idle_next_timer_ns", PARAM_TIME, P(idle_next_timer), "100000000",
	 1000, 1e10, "ns", "menu: how far away the next timer event is when "
	 "no task's timer is pending on the CPU (the timer wheel's events)"},
	{"sched_latency_ns", PARAM_TIME, P(sched_latency), "6000000", 0, 1e10, "ns",
	 "CFS targeted latency for one CPU; the host scales it by "
	 "1 + ilog2(min(ncpus, 8)) as the kernel does"},
	{"wakeup_granularity_ns", PARAM_TIME, P(wakeup_granularity), "1000000", 0,
	 1e10, "ns", "CFS wake-up preemption granularity for one CPU, scaled "
	 "as sched_latency_ns"},
	{"min_granularity_ns", PARAM_TIME, P(min_granularity), "750000", 0, 1e10,
	 "ns", "CFS minimum slice before a runnable task can preempt, for one "
	 "CPU, scaled as sched_latency_ns"},
	{"preempt", PARAM_ENUM, P(preempt), "voluntary", 0, 0, "",
	 "kernel preemption model (CONFIG_PREEMPT_NONE/VOLUNTARY/PREEMPT)",
	 preempt_models},
	{"timer_slack_ns", PARAM_TIME, P(timer_slack), "50000", 0, 1e9, "ns",
	 "how late a normal task's nanosleep may end (its hrtimer's slack; "
	 "PR_SET_TIMERSLACK's default)"},
	PARAM_END,
};

static stage_id st_ctx_switch, st_wakeup, st_irq_entry, st_softirq_entry,
	st_syscall, st_syscall_user;

static void cpu_dispatch(struct cpu *c);

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

static void ms_push_grow(struct xctx *x, uint8_t kind, struct sim_msg msg,
			 stage_id st);

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

static __attribute__((noinline, cold)) void
ms_push_grow(struct xctx *x, uint8_t kind, struct sim_msg msg, stage_id st)
{
	x->ms = ring_grow(x->ms, sizeof(*x->ms), &x->head, &x->tail, &x->mask);
	ms_push(x, kind, msg, st);
}

static bool ms_empty(const struct xctx *x)
{
	return x->head == x->tail;
}

static struct milestone *ms_head(struct xctx *x)
{
	return &x->ms[x->head & x->mask];
}

static void msgq_push_grow(struct msgq *q, struct sim_msg m);

/* As ms_push. */
static inline void msgq_push(struct msgq *q, struct sim_msg m)
{
	if (__builtin_expect(q->tail - q->head > q->mask, 0)) {
		msgq_push_grow(q, m);
		return;
	}
	q->m[q->tail++ & q->mask] = m;
}

static __attribute__((noinline, cold)) void msgq_push_grow(struct msgq *q,
							   struct sim_msg m)
{
	q->m = ring_grow(q->m, sizeof(*q->m), &q->head, &q->tail, &q->mask);
	msgq_push(q, m);
}

static void xctx_init(struct xctx *x, struct host *h, struct cpu *c,
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

/* Before reading a task's vruntime or anyone's usage, and before a task
 * changes CPU (its pending time is its CPU's). Out of line: it is rare,
 * and inlined it makes the hot path's functions too big to inline. */
static __attribute__((noinline)) void fold_current(const struct host *h)
{
	if (h->current)
		fold(h->current);
	if (h->unfolded)
		fold(h->unfolded);
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

/* ---- executing work ---- */

/* Credit the running context with the CPU time since it last started. */
/* ---- timeline ---- */

static void spin_pause(struct task *t, sim_time now);

struct timeline {
	sim_time from, to;
	GArray *slices;		/* struct host_slice */
	size_t max;
	bool truncated;
	int64_t *last;		/* per CPU: index of its last slice, or -1 */
};

static void tl_add(struct host *h, unsigned cpu, const char *name, sim_time start,
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

static const char *xctx_name(const struct xctx *x)
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

static void rq_add(struct cpu *c, struct task *t)
{
	if (c->nrq == c->rqcap) {
		c->rqcap = c->rqcap ? c->rqcap * 2 : 8;
		c->rq = g_renew(struct task *, c->rq, c->rqcap);
	}
	c->rq[c->nrq++] = t;
	c->h->nr_queued++;
}

static struct task *rq_take(struct cpu *c, unsigned i)
{
	struct task *t = c->rq[i];

	c->rq[i] = c->rq[--c->nrq];
	c->h->nr_queued--;
	return t;
}

/* newidle_balance: a CPU about to go idle takes a task waiting behind
 * another CPU's current one (one with work first), if it may run here. */
static bool pull_task(struct cpu *c)
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
static unsigned rq_best(const struct cpu *c)
{
	unsigned best = 0;
	for (unsigned i = 1; i < c->nrq; i++)
		if (c->rq[i]->vruntime < c->rq[best]->vruntime)
			best = i;
	return best;
}

/* The next task to run: the least vruntime, but one with work before
 * one that would only go on spinning. */
static unsigned rq_next(const struct cpu *c)
{
	int best = -1;
	for (unsigned i = 0; i < c->nrq; i++)
		if (!c->rq[i]->spin_preempted &&
		    (best < 0 || c->rq[i]->vruntime < c->rq[best]->vruntime))
			best = (int)i;
	return best < 0 ? rq_best(c) : (unsigned)best;
}

static bool rq_has_work(const struct cpu *c)
{
	for (unsigned i = 0; i < c->nrq; i++)
		if (!c->rq[i]->spin_preempted)
			return true;
	return false;
}

static void update_min_vruntime(struct cpu *c)
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

static void preempt_curr(struct cpu *c)
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
static void yield_spinner(struct cpu *c)
{
	struct task *t = c->curr;

	spin_pause(t, sim_now(c->h->sim));
	t->spin_preempted = true;
	t->state = T_RUNNABLE;
	t->use.nivcsw++;
	rq_add(c, t);
	c->curr = NULL;
}

static void switch_in(struct cpu *c, struct task *t)
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

static void spin_pause(struct task *t, sim_time now)
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

/* Whether the CPU is still in a folded handler for what must wait for its
 * end: also at the end's time, until the event it would have had there
 * (the task's timer takes its place in the order) has passed. */
static inline bool irq_folded(const struct cpu *c)
{
	return c->irq_end && sim_now(c->h->sim) <= c->irq_end;
}

/* An interrupt or softirq raised before a folded handler's end, or a
 * wake-up there that a fully preemptible kernel acts on, waits for that
 * end as it would behind the hardirq context: give the CPU back to the
 * handler until then. Its end event goes where it would have been among
 * events of that time: the task's timer was armed in its place. */
static void irq_unfold(struct cpu *c)
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
static void cpu_dispatch(struct cpu *c)
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
static void cpu_kick(struct cpu *c)
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

static const struct sim_component_ops cpu_ops = {
	.name = "cpu",
	.handle = cpu_handle,
};

/* ---- tasks ---- */

struct task *task_new(struct host *h, const char *name, enum task_kind kind,
		      int mm_id, const struct cpumask *allowed)
{
	struct task *t = g_new0(struct task, 1);

	t->name = g_strdup(name);
	t->kind = kind;
	t->mm_id = mm_id;
	if (allowed) {
		t->allowed = *allowed;
	} else {
		for (unsigned i = 0; i < h->p.ncpus; i++)
			cpumask_set(&t->allowed, i);
	}
	t->cpu = 0;
	while (t->cpu < h->p.ncpus && !cpumask_test(&t->allowed, t->cpu))
		t->cpu++;
	g_assert(t->cpu < h->p.ncpus);
	xctx_init(&t->x, h, &h->cpus[t->cpu], t, XL_TASK);
	g_ptr_array_add(h->tasks, t);
	return t;
}

static void task_free(struct task *t)
{
	g_free(t->x.ms);
	g_free(t->poll_name);
	g_free(t->name);
	g_free(t);
}

struct xctx *task_xctx(struct task *t)
{
	return &t->x;
}

const char *task_name(const struct task *t)
{
	return t->name;
}

unsigned task_cpu(const struct task *t)
{
	return t->cpu;
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

static void enqueue_woken(struct host *h, struct task *t, struct sim_msg step)
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

void task_start(struct task *t, struct sim_msg first)
{
	g_assert(t->state == T_NEW);
	enqueue_woken(t->x.h, t, first);
}

static void end_step(struct task *t)
{
	g_assert(t->x.m.in_step);
	t->x.m.in_step = false;
}

void task_then_fields(struct task *t, struct sim_component *c, unsigned type,
		      void *ptr, uint64_t arg)
{
	end_step(t);
	ms_push(&t->x, MS_STEP, SIM_MSG(c, type, ptr, arg), 0);
}

void task_sleep_fields(struct task *t, struct sim_component *c, unsigned type,
		       void *ptr, uint64_t arg)
{
	end_step(t);
	t->sleep_pending = true;
	ms_push(&t->x, MS_SLEEP, SIM_MSG(c, type, ptr, arg), 0);
}

void task_io_sleep_fields(struct task *t, struct sim_component *c, unsigned type,
			  void *ptr, uint64_t arg)
{
	task_sleep_fields(t, c, type, ptr, arg);
	t->io_sleep = true;
}

void task_spin_fields(struct task *t, stage_id st, struct sim_component *c,
		      unsigned type, void *ptr, uint64_t arg)
{
	end_step(t);
	t->sleep_pending = true;
	ms_push(&t->x, MS_SPIN, SIM_MSG(c, type, ptr, arg), st);
}

void task_exit(struct task *t)
{
	end_step(t);
	ms_push(&t->x, MS_EXIT, SIM_MSG(NULL, 0, NULL, 0), 0);
}

void task_wake(struct task *t)
{
	struct host *h = t->x.h;
	struct cpu *c;

	switch (t->state) {
	case T_RUNNABLE:
		if (t->spin_preempted) {
			/* Its spin is over while it waits for the CPU. */
			t->spin_preempted = false;
			account(&t->x, t->spin_stage, t->spin_acc);
			ms_push(&t->x, MS_STEP, t->on_wake, 0);
			c = &h->cpus[t->cpu];
			if (c->curr && c->curr->state == T_SPINNING) {
				yield_spinner(c);
				cpu_kick(c);
			}
			return;
		}
		/* fall through */
	case T_RUNNING:
		/* Waking a task that is not waiting is a no-op, as in the
		 * kernel; one that is on its way to sleep will not sleep. */
		if (t->sleep_pending)
			t->wake_pending = true;
		return;
	case T_SLEEPING:
		if (t->in_iowait) {
			t->in_iowait = false;
			h->cpus[t->cpu].nr_iowait--;
		}
		enqueue_woken(h, t, t->on_wake);
		return;
	case T_SPINNING:
		c = &h->cpus[t->cpu];
		spin_pause(t, sim_now(h->sim));
		account(&t->x, t->spin_stage, t->spin_acc);
		t->state = T_RUNNING;
		ms_push(&t->x, MS_STEP, t->on_wake, 0);
		cpu_kick(c);
		return;
	case T_NEW:
	case T_DEAD:
		g_assert_not_reached();
	}
}

/* nanosleep: the timer is armed as the syscall's work ends; it fires its
 * slack after the time asked for (a lone timer expires at its hard
 * expiry) and wakes the task from an interrupt on the task's CPU. */
enum { HRT_ARM, HRT_EXPIRE, HRT_IRQ };

static void hrtimer_handle(struct sim_component *comp, unsigned type, void *ptr,
			   uint64_t arg)
{
	struct host *h = (struct host *)((char *)comp - offsetof(struct host, hrtimer));
	struct task *t = ptr;

	switch (type) {
	case HRT_ARM:
		sim_after(h->sim, arg + h->p.timer_slack, comp, HRT_EXPIRE, t, 0);
		t->hrtimer_at = sim_now(h->sim) + arg + h->p.timer_slack;
		h->nr_hrtimers++;
		break;
	case HRT_EXPIRE:
		t->hrtimer_at = 0;
		h->nr_hrtimers--;
		cpu_raise_irq(&h->cpus[t->cpu], SIM_MSG(comp, HRT_IRQ, t, 0));
		break;
	case HRT_IRQ:
		xctx_wake(h->current, t);
		break;
	}
}

static const struct sim_component_ops hrtimer_ops = {
	.name = "hrtimer",
	.handle = hrtimer_handle,
};

void task_nanosleep(struct task *t, sim_time ns, struct sim_msg on_wake)
{
	xctx_syscall(&t->x, 1);
	xctx_defer(&t->x, SIM_MSG(&t->x.h->hrtimer, HRT_ARM, t, ns));
	task_sleep(t, on_wake);
}

static void wake_action(struct sim_component *comp, unsigned type, void *ptr,
			uint64_t arg)
{
	task_wake(ptr);
}

static const struct sim_component_ops wake_ops = {
	.name = "wake",
	.handle = wake_action,
};

static struct sim_component wake_comp = {.ops = &wake_ops};

void xctx_syscall(struct xctx *x, unsigned n)
{
	xctx_charge(x, st_syscall, x->h->p.syscall * n);
	if (x->h->p.syscall_user)
		xctx_charge(x, st_syscall_user, x->h->p.syscall_user * n);
}

void xctx_wake(struct xctx *x, struct task *t)
{
	sim_time cost = x->h->p.wakeup;

	if (t->cpu != x->cpu->id && t->state == T_SLEEPING)
		cost += x->h->p.wakeup_remote;
	xctx_charge(x, st_wakeup, cost);
	xctx_defer(x, SIM_MSG(&wake_comp, 0, t, 0));
}

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

/* ---- host ---- */

/* One number of an idle state: decimal ns, no sign or spaces, at most a
 * second (real exit latencies and residencies are micro- to
 * milliseconds; a larger one is a typo, and must not overflow the clock). */
static bool parse_idle_ns(const char *s, sim_time *v)
{
	guint64 x;

	if (!g_ascii_string_to_unsigned(s, 10, 0, SIM_SEC, &x, NULL))
		return false;
	*v = x;
	return true;
}

/* Parse "EXIT:RESIDENCY,..." into st (may be NULL); false if malformed. */
static bool parse_idle_states(const char *spec, struct idle_state *st,
			      unsigned *n, GError **err)
{
	g_auto(GStrv) parts = g_strsplit(spec ? spec : "", ",", -1);
	sim_time prev = 0;

	*n = 0;
	for (char **p = parts; *p; p++) {
		g_auto(GStrv) pair = g_strsplit(*p, ":", -1);
		sim_time e, r;
		if (!**p && !p[1] && p == parts)
			break;
		if (g_strv_length(pair) != 2 || !parse_idle_ns(pair[0], &e) ||
		    !parse_idle_ns(pair[1], &r) || (*n && r <= prev) ||
		    *n == IDLE_STATES_MAX) {
			g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_INPUT,
				    "option 'cpu.idle_states': '%s' is not a list of "
				    "at most %d EXIT:RESIDENCY pairs in ns (each at "
				    "most 1 s), by increasing residency", spec,
				    IDLE_STATES_MAX);
			return false;
		}
		if (st)
			st[*n] = (struct idle_state){.exit = e, .residency = r};
		prev = r;
		(*n)++;
	}
	return true;
}

bool host_params_check(const struct host_params *p, GError **err)
{
	unsigned n;
	return parse_idle_states(p->idle_states, NULL, &n, err);
}

struct host *host_new(struct sim *s, const struct host_params *p)
{
	struct host *h = g_new0(struct host, 1);

	st_ctx_switch = stage_register("ctx_switch", CPU_SYS,
				       "__schedule, context_switch");
	st_wakeup = stage_register("wakeup", CPU_SYS, "try_to_wake_up");
	st_irq_entry = stage_register("irq_entry", CPU_SYS, "irq_enter, irq_exit");
	st_softirq_entry = stage_register("softirq_entry", CPU_SYS, "__do_softirq");
	st_syscall = stage_register("syscall", CPU_SYS,
				    "entry_SYSCALL_64, syscall_exit_to_user_mode");
	st_syscall_user = stage_register("syscall_user", CPU_USR,
					 "user-mode TLB refill after a syscall");
	h->sim = s;
	h->p = *p;
	h->p.idle_states = NULL;	/* the caller owns the string */
	/* update_sysctl(), SCHED_TUNABLESCALING_LOG: the CFS tunables grow
	 * with the CPU count, by 1 + ilog2(min(ncpus, 8)). */
	unsigned factor = g_bit_storage(MIN(p->ncpus, 8u));
	h->p.sched_latency *= factor;
	h->p.wakeup_granularity *= factor;
	h->p.min_granularity *= factor;
	bool idle_ok = parse_idle_states(p->idle_states, h->idle.st, &h->idle.n,
					 NULL);
	g_assert(idle_ok);
	h->idle.governor = p->idle_governor;
	h->idle.tick = SIM_SEC / p->hz;
	h->idle.no_timer = p->idle_next_timer;
	sim_component_init(s, &h->hrtimer, &hrtimer_ops, "hrtimer");
	h->tasks = g_ptr_array_new_with_free_func((GDestroyNotify)task_free);
	h->cpus = g_new0(struct cpu, p->ncpus);
	for (unsigned i = 0; i < p->ncpus; i++) {
		struct cpu *c = &h->cpus[i];
		c->h = h;
		c->id = i;
		c->active_mm = -1;
		cpuidle_dev_init(&c->cpuidle);
		g_snprintf(c->name, sizeof(c->name), "cpu%u", i);
		sim_component_init(s, &c->comp, &cpu_ops, c->name);
		sim_timer_init(&c->timer, &c->comp);
		xctx_init(&c->hardirq, h, c, NULL, XL_HARDIRQ);
		xctx_init(&c->softirq, h, c, NULL, XL_SOFTIRQ);
		c->irqq.mask = c->softq.mask = 15;
		c->irqq.m = g_new(struct sim_msg, 16);
		c->softq.m = g_new(struct sim_msg, 16);
	}
	return h;
}

void host_free_later(struct host *h, GDestroyNotify fn, void *ptr)
{
	if (!h->free_later)
		h->free_later = g_ptr_array_new();
	g_ptr_array_add(h->free_later, (gpointer)fn);
	g_ptr_array_add(h->free_later, ptr);
}

void host_free(struct host *h)
{
	if (!h)
		return;
	for (unsigned i = 0; i < h->p.ncpus; i++) {
		struct cpu *c = &h->cpus[i];
		g_free(c->hardirq.ms);
		g_free(c->softirq.ms);
		g_free(c->irqq.m);
		g_free(c->softq.m);
		g_free(c->rq);
	}
	for (unsigned i = 0; h->free_later && i < h->free_later->len; i += 2)
		((GDestroyNotify)h->free_later->pdata[i])(h->free_later->pdata[i + 1]);
	if (h->free_later)
		g_ptr_array_free(h->free_later, TRUE);
	g_free(h->cpus);
	g_ptr_array_free(h->tasks, TRUE);
	if (h->tl) {
		g_array_free(h->tl->slices, TRUE);
		g_free(h->tl->last);
		g_free(h->tl);
	}
	g_free(h);
}

const struct host_params *host_params(const struct host *h)
{
	return &h->p;
}

unsigned host_ncpus(const struct host *h)
{
	return h->p.ncpus;
}

struct cpu *host_cpu(struct host *h, unsigned id)
{
	g_assert(id < h->p.ncpus);
	return &h->cpus[id];
}

struct sim *host_sim(const struct host *h)
{
	return h->sim;
}

void task_usage(const struct task *t, struct task_usage *u)
{
	fold_current(t->x.h);
	*u = t->use;
}

void host_tasks_usage(const struct host *h, const char *prefix,
		      struct task_usage *sum, unsigned *n)
{
	*sum = (struct task_usage){0};
	*n = 0;
	fold_current(h);
	for (unsigned i = 0; i < h->tasks->len; i++) {
		const struct task *t = g_ptr_array_index(h->tasks, i);
		struct task_usage u;
		if (!g_str_has_prefix(t->name, prefix))
			continue;
		task_usage(t, &u);
		sum->usr_ns += u.usr_ns;
		sum->sys_ns += u.sys_ns;
		sum->nvcsw += u.nvcsw;
		sum->nivcsw += u.nivcsw;
		(*n)++;
	}
}

void cpu_usage(const struct cpu *c, struct cpu_usage *u)
{
	fold_current(c->h);
	*u = c->use;
}

const sim_time *host_stage_ns(const struct host *h)
{
	return h->stage_ns;
}

const uint64_t *host_stage_count(const struct host *h)
{
	return h->stage_cnt;
}

void host_reset_accounting(struct host *h)
{
	fold_current(h);
	memset(h->stage_ns, 0, sizeof(h->stage_ns));
	memset(h->stage_cnt, 0, sizeof(h->stage_cnt));
	for (unsigned i = 0; i < h->p.ncpus; i++)
		h->cpus[i].use = (struct cpu_usage){0};
	for (unsigned i = 0; i < h->tasks->len; i++) {
		struct task *t = g_ptr_array_index(h->tasks, i);
		t->use = (struct task_usage){0};
	}
}
