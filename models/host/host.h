/*
 * The host: CPUs, tasks, interrupts and the scheduler.
 *
 * All kernel and user work in storsim runs on simulated CPUs. Code that
 * stands for a kernel path runs inside an execution context (a task, or a
 * CPU's hard-IRQ or soft-IRQ context) and, instead of taking time itself,
 * charges the time each stage would take:
 *
 *	struct xctx *x = host_current(h);
 *	xctx_charge(x, st_bio_alloc, p->bio_alloc_ns);
 *	xctx_charge(x, st_nvme_queue_rq, p->queue_rq_ns);
 *	xctx_defer(x, SIM_MSG(&dev->comp, DEV_DOORBELL, cmd, 0));
 *	xctx_charge(x, st_syscall_exit, p->syscall_ns);
 *	task_then(task, SIM_MSG(&job->comp, JOB_NEXT, job, 0));
 *
 * The CPU executes the charged work in order. A deferred message is a side
 * effect other components can see (a doorbell write, a wake-up, a
 * completion posted): it is delivered when the CPU has executed the work
 * charged before it, so if an interrupt preempts the context, the side
 * effect is delayed by the interrupt just as it would be on a real CPU.
 * A task's step ends with exactly one of task_then(), task_sleep(),
 * task_spin() or task_exit(); the next step is a message delivered when the
 * work is done (and, for a sleep, after someone wakes the task).
 *
 * Hard IRQ work preempts soft IRQ work, which preempts tasks. Tasks are
 * scheduled per CPU in the manner of CFS: virtual runtime, placement of
 * woken tasks a bounded distance behind min_vruntime, wake-up preemption
 * when the woken task is more than the wake-up granularity behind the
 * running one, and preemption at step boundaries (the simulated analogue
 * of the next preemption point).
 *
 * Parameters (host profile, model "cpu"): see host_param_table in host.c.
 */
#ifndef STORSIM_HOST_H
#define STORSIM_HOST_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/params.h"
#include "engine/sim.h"
#include "engine/stage.h"

#define HOST_MAX_CPUS 256

struct host;
struct cpu;
struct task;
struct xctx;

struct cpumask {
	uint64_t bits[HOST_MAX_CPUS / 64];
};

static inline void cpumask_set(struct cpumask *m, unsigned cpu)
{
	m->bits[cpu / 64] |= UINT64_C(1) << (cpu % 64);
}

static inline bool cpumask_test(const struct cpumask *m, unsigned cpu)
{
	return (m->bits[cpu / 64] >> (cpu % 64)) & 1;
}

enum preempt_model {
	PREEMPT_NONE,		/* switch only where the task blocks or yields */
	PREEMPT_VOLUNTARY,	/* ... and at explicit preemption points */
	PREEMPT_FULL,		/* ... and as soon as a wake-up asks, even in
				 * the kernel (at interrupt exit) */
};

struct host_params {
	uint32_t ncpus;
	uint64_t page_size;		/* bytes */
	uint64_t mem_mb;		/* MiB, for $mb_memory */
	sim_time syscall;		/* user/kernel entry + exit of one syscall */
	sim_time syscall_user;		/* user time lost after each syscall */
	sim_time ctx_switch;		/* __schedule + switch_to between tasks */
	sim_time ctx_switch_mm;		/* extra when the address space changes */
	sim_time wakeup;		/* try_to_wake_up, charged to the waker */
	sim_time wakeup_remote;		/* extra for a wake-up on another CPU (IPI) */
	sim_time irq_entry;		/* hard IRQ entry and exit */
	sim_time softirq_entry;		/* one __do_softirq pass */
	char *idle_states;		/* "EXIT:RESIDENCY,..." in ns, shallow first */
	int idle_governor;		/* enum idle_governor (cpuidle.h) */
	uint32_t hz;			/* tick rate, for the menu governor */
	sim_time idle_next_timer;	/* menu: next timer when none is known */
	/* CFS tunables for one CPU, as the kernel's normalized_sysctl_*;
	 * host_new() scales them by the CPU count */
	sim_time sched_latency;		/* targeted latency */
	sim_time wakeup_granularity;	/* wake-up preemption granularity */
	sim_time min_granularity;	/* minimum slice before tick preemption */
	int preempt;			/* enum preempt_model */
	sim_time timer_slack;		/* how late a nanosleep may end */
};

extern const struct param_def host_param_table[];

/* Host life cycle */
bool host_params_check(const struct host_params *p, GError **err);
struct host *host_new(struct sim *s, const struct host_params *p);
/* Free ptr with fn when the host is freed: for what a task still running
 * may use after its owner has let go of it. */
void host_free_later(struct host *h, GDestroyNotify fn, void *ptr);
void host_free(struct host *h);
/* The parameters in force: the CFS tunables as scaled for the CPUs. */
const struct host_params *host_params(const struct host *h);
unsigned host_ncpus(const struct host *h);
struct cpu *host_cpu(struct host *h, unsigned id);
struct sim *host_sim(const struct host *h);

/* The context whose step is being delivered right now (NULL outside). */
struct xctx *host_current(const struct host *h);

/*
 * What a charge updates: the start of every execution context, public only
 * so that xctx_charge() can be inline, as models charge some thirty times
 * per I/O. A charge adds to the host's per-stage sums and to the context's
 * work at once, and to pending[]; the task's and the CPU's usage and the
 * task's vruntime take pending[] in when the step ends (a task's, not
 * inside another step: when another task's step starts), or earlier when
 * something reads them, so they never lag behind where they are looked at.
 */
struct xctx_meter {
	sim_time charged;		/* work charged so far */
	sim_time pending[CPU_CLASS_NR];	/* by stage class: not in usage yet */
	sim_time *stage_ns;		/* the host's per-stage sums */
	uint64_t *stage_cnt;
	bool in_step;			/* a step is being delivered */
};

/*
 * Charging work and deferring side effects (only inside a step). A charge
 * does not test in_step: at some thirty charges per I/O that test cost 2%
 * of a run's instructions. Work charged outside a step is caught instead
 * where the context's next step starts (host.c's process()).
 */
static inline void xctx_charge(struct xctx *x, stage_id st, sim_time ns)
{
	struct xctx_meter *m = (struct xctx_meter *)x;

	m->stage_ns[st] += ns;
	m->stage_cnt[st]++;
	m->charged += ns;
	m->pending[stage_class[st]] += ns;
}

/* When the work x has charged so far will have run, if nothing preempts
 * x: the simulated time of "here" inside a step (the step itself is
 * delivered when its context reaches its start). */
sim_time xctx_clock(const struct xctx *x);

/*
 * The functions below that take a message are inline wrappers handing it
 * on field by field (the *_fields functions). A struct sim_msg passed by
 * value goes through the stack, and reading it back with wider loads than
 * it was written with stalls store forwarding: on every step of every
 * task, a few percent of the run time.
 */
void xctx_defer_fields(struct xctx *x, struct sim_component *c, unsigned type,
		       void *ptr, uint64_t arg);
static inline void xctx_defer(struct xctx *x, struct sim_msg action)
{
	xctx_defer_fields(x, action.c, action.type, action.ptr, action.arg);
}
/* Charge the wake-up cost to x, then wake t when x gets there. */
void xctx_wake(struct xctx *x, struct task *t);
/* n syscalls' entry and exit, in a task's step: their kernel cost and the
 * user time they cost after returning. */
void xctx_syscall(struct xctx *x, unsigned n);
struct task *xctx_task(const struct xctx *x);	/* NULL for IRQ contexts */
struct cpu *xctx_cpu(const struct xctx *x);
bool xctx_in_irq(const struct xctx *x);
/* A hard-IRQ context: nothing preempts it, so xctx_clock() is exactly when
 * its work charged so far ends. */
bool xctx_in_hardirq(const struct xctx *x);

/* Tasks */
enum task_kind {
	TASK_USER,	/* has its own address space (mm) */
	TASK_KTHREAD,	/* kworker, io-wq worker: borrows the last mm (lazy TLB) */
};

struct task *task_new(struct host *h, const char *name, enum task_kind kind,
		      int mm_id, const struct cpumask *allowed);
/* Make t runnable; first is delivered as its first step. */
void task_start(struct task *t, struct sim_msg first);
struct xctx *task_xctx(struct task *t);
const char *task_name(const struct task *t);
unsigned task_cpu(const struct task *t);	/* where it runs or last ran */

/* End of a step: exactly one of these. */
void task_then_fields(struct task *t, struct sim_component *c, unsigned type,
		      void *ptr, uint64_t arg);
static inline void task_then(struct task *t, struct sim_msg next)
{
	task_then_fields(t, next.c, next.type, next.ptr, next.arg);
}
void task_sleep_fields(struct task *t, struct sim_component *c, unsigned type,
		       void *ptr, uint64_t arg);
static inline void task_sleep(struct task *t, struct sim_msg on_wake)
{
	task_sleep_fields(t, on_wake.c, on_wake.type, on_wake.ptr, on_wake.arg);
}
/* A sleep in I/O wait (io_schedule: a read waiting for its page, a direct
 * I/O or fsync waiting for the device): the same as task_sleep, but the
 * task counts in its CPU's nr_iowait while asleep, which keeps the menu
 * idle governor away from deep states there. */
void task_io_sleep_fields(struct task *t, struct sim_component *c,
			  unsigned type, void *ptr, uint64_t arg);
static inline void task_io_sleep(struct task *t, struct sim_msg on_wake)
{
	task_io_sleep_fields(t, on_wake.c, on_wake.type, on_wake.ptr,
			     on_wake.arg);
}
/* Busy-poll (counted as CPU time of stage st) until task_wake(). */
void task_spin_fields(struct task *t, stage_id st, struct sim_component *c,
		      unsigned type, void *ptr, uint64_t arg);
static inline void task_spin(struct task *t, stage_id st, struct sim_msg on_wake)
{
	task_spin_fields(t, st, on_wake.c, on_wake.type, on_wake.ptr, on_wake.arg);
}
void task_exit(struct task *t);
/* nanosleep(ns): the syscall, then asleep until a timer wakes the task,
 * ns plus the host's timer slack after the step's work. */
void task_nanosleep(struct task *t, sim_time ns, struct sim_msg on_wake);

/* Wake t now (from a deferred action or from outside any context). */
void task_wake(struct task *t);

/* Interrupts: handler is delivered as a step in the CPU's hard or soft IRQ
 * context; it charges its work and returns. */
void cpu_raise_irq_fields(struct cpu *c, struct sim_component *comp,
			  unsigned type, void *ptr, uint64_t arg);
static inline void cpu_raise_irq(struct cpu *c, struct sim_msg handler)
{
	cpu_raise_irq_fields(c, handler.c, handler.type, handler.ptr, handler.arg);
}
void cpu_raise_softirq_fields(struct cpu *c, struct sim_component *comp,
			      unsigned type, void *ptr, uint64_t arg);
static inline void cpu_raise_softirq(struct cpu *c, struct sim_msg handler)
{
	cpu_raise_softirq_fields(c, handler.c, handler.type, handler.ptr,
				 handler.arg);
}
unsigned cpu_id(const struct cpu *c);

/* Accounting */
struct task_usage {
	sim_time usr_ns, sys_ns;
	uint64_t nvcsw, nivcsw;		/* voluntary, involuntary switches */
};

struct cpu_usage {
	sim_time class_ns[CPU_CLASS_NR];
	uint64_t ctx_switches;
	uint64_t irqs;
	uint64_t idle_exits;	/* wake-ups that paid an idle state's exit latency */
};

void task_usage(const struct task *t, struct task_usage *u);
/* Timeline: record what each CPU runs between from and to (at most max
 * slices; later ones are dropped and *truncated says so). A slice's name
 * is the task's, "hardirq", "softirq", "TASK (polling)" or "idle exit";
 * names live as long as the host. */
struct host_slice {
	sim_time start, end;
	const char *name;
	unsigned cpu;
};
void host_timeline_record(struct host *h, sim_time from, sim_time to, size_t max);
const struct host_slice *host_timeline(struct host *h, size_t *n,
				       bool *truncated);

/* The summed usage of every task whose name starts with prefix, and their
 * number. */
void host_tasks_usage(const struct host *h, const char *prefix,
		      struct task_usage *sum, unsigned *n);
void cpu_usage(const struct cpu *c, struct cpu_usage *u);
/* CPU time per stage summed over all CPUs since start or the last reset. */
const sim_time *host_stage_ns(const struct host *h);
const uint64_t *host_stage_count(const struct host *h);
/*
 * Forget all accounting so far: stages, CPUs and tasks. A fio run does
 * this when it starts (system_reset_stats), so the host's figures cover
 * its ramp_time too, like fio's disk statistics; fio's own per-job CPU
 * times start at the end of the ramp (fio's reset_all_stats), and the fio
 * model takes them as the difference from a task_usage() there.
 */
void host_reset_accounting(struct host *h);

#endif
