/*
 * Tasks: a program of steps run in a task's context, sleeping, spinning
 * and being woken; nanosleep's hrtimer; syscall entry costs.
 *
 * Stands for: struct task_struct's life (kernel/fork.c, do_exit), schedule()
 * and try_to_wake_up() as a task and its waker see them
 * (kernel/sched/core.c), hrtimer_nanosleep (kernel/time/hrtimer.c) with its
 * timer slack, and the syscall entry and exit path.
 *
 * Parameters (host table, host.c): syscall_ns, syscall_user_ns, wakeup_ns,
 * wakeup_remote_ns, timer_slack_ns. Sources: as host.c.
 */
#include "host_impl.h"
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

void task_free(struct task *t)
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

const struct sim_component_ops hrtimer_ops = {
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

