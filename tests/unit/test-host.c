/*
 * Description: the host model runs charged work in simulated time:
 * side effects land where the work puts them, interrupts preempt tasks
 * and delay them by exactly their own length, a handler's end costs no
 * event when the task runs on after it and what arrives before that end
 * still waits for it, sleep/wake and context switches are counted,
 * CPU-bound tasks share a CPU, spinning ends at the wake-up, a CPU leaving
 * an idle state starts its work that state's exit latency late, the menu
 * governor's state after a run of longer idle periods is deeper than the
 * oracle's and a task in I/O wait keeps it shallow, malformed idle states
 * are refused, many side effects or interrupts queued at once keep their
 * order.
 */
#include <glib.h>
#include <string.h>

#include "host/cpuidle.h"
#include "host/host.h"

static stage_id st_work, st_user, st_poll;

/* A scripted program: each step charges `cost` and ends as `ending`. */
enum ending { END_THEN, END_SLEEP, END_EXIT, END_SPIN };

struct prog {
	struct sim_component c;
	struct host *h;
	struct task *t;
	sim_time cost;
	unsigned steps_left;
	enum ending ending;
	GArray *step_times;	/* when each step began */
	GArray *action_times;	/* when deferred actions landed */
	bool defer_mid;		/* defer an action halfway through the step */
	unsigned defers;	/* else: split the work, an action after each part */
};

enum { PROG_STEP, PROG_ACTION };

static void prog_handle(struct sim_component *c, unsigned type, void *ptr,
			uint64_t arg)
{
	struct prog *p = (struct prog *)c;
	sim_time now = sim_now(c->sim);

	if (type == PROG_ACTION) {
		g_array_append_val(p->action_times, now);
		return;
	}
	g_array_append_val(p->step_times, now);
	struct xctx *x = host_current(p->h);
	g_assert_nonnull(x);
	if (p->defer_mid) {
		xctx_charge(x, st_work, p->cost / 2);
		xctx_defer(x, SIM_MSG(c, PROG_ACTION, NULL, 0));
		xctx_charge(x, st_work, p->cost - p->cost / 2);
	} else if (p->defers) {
		for (unsigned i = 0; i < p->defers; i++) {
			xctx_charge(x, st_work, p->cost / p->defers);
			xctx_defer(x, SIM_MSG(c, PROG_ACTION, NULL, 0));
		}
	} else {
		xctx_charge(x, st_work, p->cost);
	}
	if (!p->t) /* running as an interrupt handler */
		return;
	if (p->steps_left-- == 0) {
		task_exit(p->t);
		return;
	}
	struct sim_msg next = SIM_MSG(c, PROG_STEP, NULL, 0);
	switch (p->ending) {
	case END_THEN:
		task_then(p->t, next);
		break;
	case END_SLEEP:
		task_sleep(p->t, next);
		break;
	case END_SPIN:
		task_spin(p->t, st_poll, next);
		break;
	case END_EXIT:
		task_exit(p->t);
		break;
	}
}

static const struct sim_component_ops prog_ops = {
	.name = "prog",
	.handle = prog_handle,
};

static struct host_params test_params(unsigned ncpus)
{
	struct host_params p;
	params_set_defaults(host_param_table, &p);
	/* No idle states unless a test sets them (the default is ""). */
	params_clear(host_param_table, &p);
	p.ncpus = ncpus;
	p.ctx_switch = 100;
	p.ctx_switch_mm = 0;
	p.wakeup = 50;
	p.wakeup_remote = 0;
	p.irq_entry = 20;
	p.softirq_entry = 10;
	return p;
}

static struct prog *prog_new(struct sim *s, struct host *h, const char *name,
			     bool as_task, sim_time cost, unsigned steps,
			     enum ending ending)
{
	struct prog *p = g_new0(struct prog, 1);

	sim_component_init(s, &p->c, &prog_ops, name);
	p->h = h;
	p->cost = cost;
	p->steps_left = steps;
	p->ending = ending;
	p->step_times = g_array_new(FALSE, FALSE, sizeof(sim_time));
	p->action_times = g_array_new(FALSE, FALSE, sizeof(sim_time));
	if (as_task)
		p->t = task_new(h, name, TASK_USER, 1, NULL);
	return p;
}

static void prog_free(struct prog *p)
{
	g_array_free(p->step_times, TRUE);
	g_array_free(p->action_times, TRUE);
	g_free(p);
}

static sim_time at(GArray *a, unsigned i)
{
	g_assert_cmpuint(i, <, a->len);
	return g_array_index(a, sim_time, i);
}

static void setup_stages(void)
{
	st_work = stage_register("test_work", CPU_SYS, NULL);
	st_user = stage_register("test_user", CPU_USR, NULL);
	st_poll = stage_register("test_poll", CPU_SYS, NULL);
}

/* Steps follow each other after the charged work; the first is delivered
 * as the task is switched in and its work queues behind the switch cost. */
static void test_steps_follow_charged_work(void)
{
	struct sim s;
	sim_init(&s, 1);
	struct host_params hp = test_params(1);
	struct host *h = host_new(&s, &hp);
	struct prog *p = prog_new(&s, h, "p", true, 1000, 3, END_THEN);

	task_start(p->t, SIM_MSG(&p->c, PROG_STEP, NULL, 0));
	sim_run(&s, SIM_TIME_MAX);
	g_assert_cmpuint(p->step_times->len, ==, 4);
	g_assert_cmpuint(at(p->step_times, 0), ==, 0);
	g_assert_cmpuint(at(p->step_times, 1), ==, 1100);
	g_assert_cmpuint(at(p->step_times, 3), ==, 3100);
	struct task_usage u;
	task_usage(p->t, &u);
	g_assert_cmpuint(u.sys_ns, ==, 4 * 1000 + 100);
	prog_free(p);
	host_free(h);
	sim_destroy(&s);
}

/* A deferred action lands where the work before it ends. */
static void test_deferred_action_lands_mid_step(void)
{
	struct sim s;
	sim_init(&s, 1);
	struct host_params hp = test_params(1);
	struct host *h = host_new(&s, &hp);
	struct prog *p = prog_new(&s, h, "p", true, 1000, 0, END_THEN);

	p->defer_mid = true;
	task_start(p->t, SIM_MSG(&p->c, PROG_STEP, NULL, 0));
	sim_run(&s, SIM_TIME_MAX);
	g_assert_cmpuint(at(p->action_times, 0), ==, 100 + 500);
	prog_free(p);
	host_free(h);
	sim_destroy(&s);
}

/* A task's 1000 ns step with a side effect halfway (its work starts at
 * 100, after the switch in) and, 300 ns into that work, an interrupt whose
 * handler charges 300 ns: it ends at 400 + 20 + 300 = 720. */
struct irq_fixture {
	struct sim s;
	struct host *h;
	struct prog *p, *irq;
};

static void irq_fixture_start(struct irq_fixture *f)
{
	sim_init(&f->s, 1);
	struct host_params hp = test_params(1);
	f->h = host_new(&f->s, &hp);
	f->p = prog_new(&f->s, f->h, "p", true, 1000, 0, END_THEN);
	f->irq = prog_new(&f->s, f->h, "irq", false, 300, 0, END_THEN);
	f->p->defer_mid = true;
	task_start(f->p->t, SIM_MSG(&f->p->c, PROG_STEP, NULL, 0));
	sim_run(&f->s, 400);
	cpu_raise_irq(host_cpu(f->h, 0), SIM_MSG(&f->irq->c, PROG_STEP, NULL, 0));
}

static void irq_fixture_free(struct irq_fixture *f)
{
	prog_free(f->p);
	prog_free(f->irq);
	host_free(f->h);
	sim_destroy(&f->s);
}

/* An interrupt during a task's step delays the task's side effect by the
 * interrupt's entry cost plus its handler's work; the handler is delivered
 * as the interrupt starts. */
static void test_irq_preempts_and_delays_task(void)
{
	struct irq_fixture f;

	irq_fixture_start(&f);
	sim_run(&f.s, SIM_TIME_MAX);
	g_assert_cmpuint(at(f.irq->step_times, 0), ==, 400);
	g_assert_cmpuint(at(f.p->action_times, 0), ==, 100 + 500 + 20 + 300);
	struct cpu_usage cu;
	cpu_usage(host_cpu(f.h, 0), &cu);
	g_assert_cmpuint(cu.class_ns[CPU_IRQ], ==, 300 + 20);
	g_assert_cmpuint(cu.irqs, ==, 1);
	irq_fixture_free(&f);
}

/* A handler's end is no event of its own when the CPU goes back to the
 * task it interrupted: the task runs on with the handler's time before
 * its next milestone, which lands as late as after a separate end. */
static void test_irq_end_folds_into_task(void)
{
	struct irq_fixture f;

	irq_fixture_start(&f);
	/* The task's side effect and its exit: no event at 720. */
	g_assert_cmpuint(sim_run(&f.s, SIM_TIME_MAX), ==, 2);
	g_assert_cmpuint(at(f.p->action_times, 0), ==, 100 + 500 + 20 + 300);
	irq_fixture_free(&f);
}

/* An interrupt raised while a folded handler's time has not passed starts
 * at that handler's end, not before; the CPU's interrupt time and the
 * task's time are what the two handlers and the task charged. */
static void test_irq_waits_for_folded_handler(void)
{
	struct irq_fixture f;

	irq_fixture_start(&f);
	sim_run(&f.s, 500);
	cpu_raise_irq(host_cpu(f.h, 0), SIM_MSG(&f.irq->c, PROG_STEP, NULL, 0));
	sim_run(&f.s, SIM_TIME_MAX);
	g_assert_cmpuint(f.irq->step_times->len, ==, 2);
	g_assert_cmpuint(at(f.irq->step_times, 1), ==, 720);
	g_assert_cmpuint(at(f.p->action_times, 0), ==,
			 100 + 500 + 2 * (20 + 300));
	struct cpu_usage cu;
	cpu_usage(host_cpu(f.h, 0), &cu);
	g_assert_cmpuint(cu.class_ns[CPU_IRQ], ==, 2 * (20 + 300));
	g_assert_cmpuint(cu.irqs, ==, 2);
	struct task_usage u;
	task_usage(f.p->t, &u);
	g_assert_cmpuint(u.sys_ns, ==, 100 + 1000);
	irq_fixture_free(&f);
}

/* A softirq raised from elsewhere while a folded handler's time has not
 * passed runs at that handler's end, before the task. */
static void test_softirq_waits_for_folded_handler(void)
{
	struct irq_fixture f;

	irq_fixture_start(&f);
	struct prog *soft = prog_new(&f.s, f.h, "soft", false, 200, 0, END_THEN);
	sim_run(&f.s, 500);
	cpu_raise_softirq(host_cpu(f.h, 0), SIM_MSG(&soft->c, PROG_STEP, NULL, 0));
	sim_run(&f.s, SIM_TIME_MAX);
	g_assert_cmpuint(at(soft->step_times, 0), ==, 720);
	g_assert_cmpuint(at(f.p->action_times, 0), ==,
			 100 + 500 + 20 + 300 + 10 + 200);
	struct cpu_usage cu;
	cpu_usage(host_cpu(f.h, 0), &cu);
	g_assert_cmpuint(cu.class_ns[CPU_IRQ], ==, 20 + 300);
	g_assert_cmpuint(cu.class_ns[CPU_SOFTIRQ], ==, 10 + 200);
	prog_free(soft);
	irq_fixture_free(&f);
}

/* With full preemption, a wake-up while a folded handler's time has not
 * passed switches to the woken task at that handler's end, as the
 * interrupt returns, not at the running task's next milestone. */
static void test_full_preempt_wake_during_folded_handler(void)
{
	struct sim s;
	sim_init(&s, 1);
	struct host_params hp = test_params(1);
	hp.preempt = PREEMPT_FULL;
	hp.wakeup_granularity = 0;
	struct host *h = host_new(&s, &hp);
	struct prog *b = prog_new(&s, h, "b", true, 100, 1, END_SLEEP);
	struct prog *a = prog_new(&s, h, "a", true, 10000, 0, END_THEN);
	struct prog *irq = prog_new(&s, h, "irq", false, 300, 0, END_THEN);

	/* b works and sleeps at 200; a runs from there to 10300. */
	task_start(b->t, SIM_MSG(&b->c, PROG_STEP, NULL, 0));
	task_start(a->t, SIM_MSG(&a->c, PROG_STEP, NULL, 0));
	sim_run(&s, 5000);
	cpu_raise_irq(host_cpu(h, 0), SIM_MSG(&irq->c, PROG_STEP, NULL, 0));
	sim_run(&s, 5100);	/* the handler ends at 5320 */
	task_wake(b->t);
	sim_run(&s, SIM_TIME_MAX);
	g_assert_cmpuint(b->step_times->len, ==, 2);
	g_assert_cmpuint(at(b->step_times, 1), ==, 5000 + 20 + 300);
	prog_free(a);
	prog_free(b);
	prog_free(irq);
	host_free(h);
	sim_destroy(&s);
}

/* Sleep ends a step; the wake-up makes the task run again, its work after a
 * context switch; each sleep is one voluntary switch. */
static void test_sleep_until_woken(void)
{
	struct sim s;
	sim_init(&s, 1);
	struct host_params hp = test_params(1);
	struct host *h = host_new(&s, &hp);
	struct prog *p = prog_new(&s, h, "p", true, 1000, 1, END_SLEEP);

	task_start(p->t, SIM_MSG(&p->c, PROG_STEP, NULL, 0));
	sim_run(&s, SIM_TIME_MAX);
	g_assert_cmpuint(p->step_times->len, ==, 1);	/* asleep */
	sim_run(&s, 5000);
	sim_schedule(&s, 5000, &p->c, PROG_ACTION, NULL, 0);
	sim_run(&s, 5000);
	task_wake(p->t);
	sim_run(&s, SIM_TIME_MAX);
	g_assert_cmpuint(p->step_times->len, ==, 2);
	g_assert_cmpuint(at(p->step_times, 1), ==, 5000);
	struct task_usage u;
	task_usage(p->t, &u);
	g_assert_cmpuint(u.nvcsw, ==, 1);
	g_assert_cmpuint(u.sys_ns, ==, 2 * (100 + 1000));
	prog_free(p);
	host_free(h);
	sim_destroy(&s);
}

/* A wake-up that arrives while the task is still working towards its
 * sleep cancels the sleep: no context switch. */
static void test_wake_before_sleep_skips_sleep(void)
{
	struct sim s;
	sim_init(&s, 1);
	struct host_params hp = test_params(1);
	struct host *h = host_new(&s, &hp);
	struct prog *p = prog_new(&s, h, "p", true, 1000, 1, END_SLEEP);

	task_start(p->t, SIM_MSG(&p->c, PROG_STEP, NULL, 0));
	sim_run(&s, 500);
	task_wake(p->t);
	sim_run(&s, SIM_TIME_MAX);
	g_assert_cmpuint(p->step_times->len, ==, 2);
	g_assert_cmpuint(at(p->step_times, 1), ==, 1100);
	struct task_usage u;
	task_usage(p->t, &u);
	g_assert_cmpuint(u.nvcsw, ==, 0);
	prog_free(p);
	host_free(h);
	sim_destroy(&s);
}

/* Waking a task that is not waiting does nothing. */
static void test_wake_of_running_task_is_noop(void)
{
	struct sim s;
	sim_init(&s, 1);
	struct host_params hp = test_params(1);
	struct host *h = host_new(&s, &hp);
	struct prog *p = prog_new(&s, h, "p", true, 1000, 2, END_THEN);

	task_start(p->t, SIM_MSG(&p->c, PROG_STEP, NULL, 0));
	sim_run(&s, 500);
	task_wake(p->t);
	sim_run(&s, SIM_TIME_MAX);
	g_assert_cmpuint(p->step_times->len, ==, 3);
	g_assert_cmpuint(at(p->step_times, 2), ==, 2100);
	prog_free(p);
	host_free(h);
	sim_destroy(&s);
}

/* Two CPU-bound tasks pinned to one CPU both make progress. */
static void test_cpu_bound_tasks_share_a_cpu(void)
{
	struct sim s;
	sim_init(&s, 1);
	struct host_params hp = test_params(2);
	hp.min_granularity = 100000;
	struct host *h = host_new(&s, &hp);
	struct cpumask one = {{1}};
	struct prog *a = prog_new(&s, h, "a", false, 10000, 100000, END_THEN);
	struct prog *b = prog_new(&s, h, "b", false, 10000, 100000, END_THEN);

	a->t = task_new(h, "a", TASK_USER, 1, &one);
	b->t = task_new(h, "b", TASK_USER, 2, &one);
	task_start(a->t, SIM_MSG(&a->c, PROG_STEP, NULL, 0));
	task_start(b->t, SIM_MSG(&b->c, PROG_STEP, NULL, 0));
	sim_run(&s, 100 * SIM_MSEC);
	struct task_usage ua, ub;
	task_usage(a->t, &ua);
	task_usage(b->t, &ub);
	g_assert_cmpuint(ua.sys_ns, >, 40 * SIM_MSEC);
	g_assert_cmpuint(ub.sys_ns, >, 40 * SIM_MSEC);
	g_assert_cmpuint(ua.nivcsw, >, 0);
	prog_free(a);
	prog_free(b);
	host_free(h);
	sim_destroy(&s);
}

/* The CFS tunables are the kernel's for one CPU, multiplied at boot by
 * 1 + ilog2(min(ncpus, 8)) (kernel/sched/fair.c, update_sysctl). */
static void test_cfs_tunables_scale_with_cpus(void)
{
	static const struct {
		unsigned ncpus, factor;
	} cases[] = {
		{1, 1}, {2, 2}, {3, 2}, {4, 3}, {7, 3}, {8, 4}, {16, 4}, {64, 4},
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct sim s;
		sim_init(&s, 1);
		struct host_params hp = test_params(cases[i].ncpus);
		struct host *h = host_new(&s, &hp);
		const struct host_params *in = host_params(h);
		g_assert_cmpuint(in->sched_latency, ==, hp.sched_latency * cases[i].factor);
		g_assert_cmpuint(in->wakeup_granularity, ==,
				 hp.wakeup_granularity * cases[i].factor);
		g_assert_cmpuint(in->min_granularity, ==,
				 hp.min_granularity * cases[i].factor);
		host_free(h);
		sim_destroy(&s);
	}
	/* the defaults are the kernel's normalized values */
	struct host_params d = test_params(1);
	g_assert_cmpuint(d.sched_latency, ==, 6 * SIM_MSEC);
	g_assert_cmpuint(d.wakeup_granularity, ==, 1 * SIM_MSEC);
	g_assert_cmpuint(d.min_granularity, ==, 750 * SIM_USEC);
}

/* A woken task goes to an idle CPU rather than queue behind a busy one. */
static void test_wake_prefers_idle_cpu(void)
{
	struct sim s;
	sim_init(&s, 1);
	struct host_params hp = test_params(2);
	struct host *h = host_new(&s, &hp);
	struct prog *busy = prog_new(&s, h, "busy", true, 10000, 1000, END_THEN);
	struct prog *p = prog_new(&s, h, "p", true, 100, 1, END_SLEEP);

	task_start(busy->t, SIM_MSG(&busy->c, PROG_STEP, NULL, 0));
	task_start(p->t, SIM_MSG(&p->c, PROG_STEP, NULL, 0));
	sim_run(&s, 50000);
	g_assert_cmpuint(task_cpu(busy->t), !=, task_cpu(p->t));
	task_wake(p->t);
	sim_run(&s, 60000);
	g_assert_cmpuint(p->step_times->len, ==, 2);
	g_assert_cmpuint(at(p->step_times, 1), ==, 50000);
	prog_free(busy);
	prog_free(p);
	host_free(h);
	sim_destroy(&s);
}

/* A spinning task burns CPU until woken, and the time is charged to its
 * polling stage. */
static void test_spin_charges_until_wake(void)
{
	struct sim s;
	sim_init(&s, 1);
	struct host_params hp = test_params(1);
	struct host *h = host_new(&s, &hp);
	struct prog *p = prog_new(&s, h, "p", true, 1000, 1, END_SPIN);

	task_start(p->t, SIM_MSG(&p->c, PROG_STEP, NULL, 0));
	sim_run(&s, 6100);
	task_wake(p->t);
	sim_run(&s, SIM_TIME_MAX);
	g_assert_cmpuint(at(p->step_times, 1), ==, 6100);
	g_assert_cmpuint(host_stage_ns(h)[st_poll], ==, 5000);
	struct task_usage u;
	task_usage(p->t, &u);
	g_assert_cmpuint(u.nvcsw, ==, 0);
	prog_free(p);
	host_free(h);
	sim_destroy(&s);
}

/* ---- idle states ---- */

/* C1-like and C6-like states: exit 2 us after 5 us idle, 10 us after 50. */
#define IDLE_STATES "2000:5000,10000:50000"

struct idle_case {
	const char *path;
	sim_time idle;		/* how long the CPU is idle before the wake-up */
	bool by_irq;		/* an interrupt ends it, else a task wake-up */
	sim_time exit;		/* the delay expected */
};

static const struct idle_case idle_cases[] = {
	{"/host/idle/shorter-than-residency-no-exit", 4999, false, 0},
	{"/host/idle/at-residency-exits-shallow-state", 5000, false, 2000},
	{"/host/idle/between-residencies-exits-shallow-state", 49999, false, 2000},
	{"/host/idle/past-deep-residency-exits-deep-state", 60000, false, 10000},
	{"/host/idle/interrupt-short-idle-no-exit", 1000, true, 0},
	{"/host/idle/interrupt-exits-deep-state", 60000, true, 10000},
};

/* A task works 1000 ns and sleeps (the CPU is idle from 1100, after the
 * switch in); at 1100 + idle it is woken, or an interrupt arrives. */
static void test_idle_exit(gconstpointer data)
{
	const struct idle_case *c = data;
	struct sim s;
	sim_init(&s, 1);
	struct host_params hp = test_params(1);
	hp.idle_states = IDLE_STATES;
	g_assert_true(host_params_check(&hp, NULL));
	struct host *h = host_new(&s, &hp);
	struct prog *p = prog_new(&s, h, "p", true, 1000, 1, END_SLEEP);
	struct prog *irq = prog_new(&s, h, "irq", false, 300, 0, END_THEN);
	sim_time wake = 1100 + c->idle;

	task_start(p->t, SIM_MSG(&p->c, PROG_STEP, NULL, 0));
	sim_schedule(&s, wake, &p->c, PROG_ACTION, NULL, 0);
	sim_run(&s, wake);
	g_assert_cmpuint(sim_now(&s), ==, wake);
	if (c->by_irq)
		cpu_raise_irq(host_cpu(h, 0), SIM_MSG(&irq->c, PROG_STEP, NULL, 0));
	else
		task_wake(p->t);
	sim_run(&s, SIM_TIME_MAX);
	if (c->by_irq)
		g_assert_cmpuint(at(irq->step_times, 0), ==, wake + c->exit);
	else
		g_assert_cmpuint(at(p->step_times, 1), ==, wake + c->exit);
	struct cpu_usage cu;
	cpu_usage(host_cpu(h, 0), &cu);
	g_assert_cmpuint(cu.idle_exits, ==, c->exit ? 1 : 0);
	prog_free(p);
	prog_free(irq);
	host_free(h);
	sim_destroy(&s);
}

/* The governor's guess against the oracle: a task works 1000 ns (after a
 * 100 ns switch) and sleeps, a waker ends each sleep after the idle period
 * given; the delay of each wake-up is the exit latency paid. Twelve
 * periods of 80 µs teach menu to expect 80 µs, so the 20 µs period after
 * them finds the CPU in the deep state (residency 50 µs); the oracle gives
 * that period the shallow state. A task asleep in I/O wait caps menu's
 * exit latency at a tenth of the prediction (8 µs): shallow throughout. */
struct gov_case {
	const char *path;
	int governor;
	bool io;
	sim_time long_exit;	/* the exit after the twelfth 80 µs period */
	sim_time short_exit;	/* after the 20 µs period */
};

static const struct gov_case gov_cases[] = {
	{"/host/idle/oracle-short-after-long-exits-shallow", IDLE_GOV_ORACLE,
	 false, 10000, 2000},
	{"/host/idle/oracle-ignores-io-wait", IDLE_GOV_ORACLE, true, 10000, 2000},
	{"/host/idle/menu-short-after-long-exits-deep", IDLE_GOV_MENU, false,
	 10000, 10000},
	{"/host/idle/menu-io-wait-keeps-shallow", IDLE_GOV_MENU, true, 2000,
	 2000},
};

enum { NLONG = 12 };

struct waker {
	struct sim_component c;
	struct host *h;
	struct task *t;
	bool io;
	unsigned i;
	sim_time due[NLONG + 2];	/* when each wake-up was asked for */
	sim_time start[NLONG + 2];	/* when each step began */
};

enum { WAKER_STEP, WAKER_WAKE };

static void waker_handle(struct sim_component *c, unsigned type, void *ptr,
			 uint64_t arg)
{
	struct waker *w = (struct waker *)c;
	sim_time now = sim_now(c->sim);

	if (type == WAKER_WAKE) {
		task_wake(w->t);
		return;
	}
	w->start[w->i] = now;
	xctx_charge(host_current(w->h), st_work, 1000);
	if (w->i == NLONG + 1) {
		task_exit(w->t);
		return;
	}
	/* Idle from the end of the work, which follows the switch in. */
	sim_time idle = w->i < NLONG ? 80000 : 20000;
	sim_time end = now + 100 + 1000;
	w->due[w->i + 1] = end + idle;
	sim_schedule(c->sim, end + idle, c, WAKER_WAKE, NULL, 0);
	w->i++;
	if (w->io)
		task_io_sleep(w->t, SIM_MSG(c, WAKER_STEP, NULL, 0));
	else
		task_sleep(w->t, SIM_MSG(c, WAKER_STEP, NULL, 0));
}

static const struct sim_component_ops waker_ops = {
	.name = "waker",
	.handle = waker_handle,
};

static void test_governor(gconstpointer data)
{
	const struct gov_case *gc = data;
	struct sim s;
	sim_init(&s, 1);
	struct host_params hp = test_params(1);
	hp.idle_states = IDLE_STATES;
	hp.idle_governor = gc->governor;
	struct host *h = host_new(&s, &hp);
	struct waker *w = g_new0(struct waker, 1);

	sim_component_init(&s, &w->c, &waker_ops, "waker");
	w->h = h;
	w->io = gc->io;
	w->t = task_new(h, "sleeper", TASK_USER, 1, NULL);
	task_start(w->t, SIM_MSG(&w->c, WAKER_STEP, NULL, 0));
	sim_run(&s, SIM_TIME_MAX);
	g_assert_cmpuint(w->i, ==, NLONG + 1);
	/* A woken step is delivered as the CPU is out of its state. */
	g_assert_cmpuint(w->start[NLONG] - w->due[NLONG], ==, gc->long_exit);
	g_assert_cmpuint(w->start[NLONG + 1] - w->due[NLONG + 1], ==,
			 gc->short_exit);
	host_free(h);
	g_free(w);
	sim_destroy(&s);
}

struct idle_spec {
	const char *path;
	const char *spec;
	bool ok;
};

static const struct idle_spec idle_specs[] = {
	{"/host/idle-states/none", "", true},
	{"/host/idle-states/one", "2000:2000", true},
	{"/host/idle-states/three", "2000:2000,10000:20000,133000:600000", true},
	{"/host/idle-states/not-a-number", "abc", false},
	{"/host/idle-states/no-residency", "2000", false},
	{"/host/idle-states/empty-residency", "2000:", false},
	{"/host/idle-states/empty-exit", ":2000", false},
	{"/host/idle-states/three-fields", "1:2:3", false},
	{"/host/idle-states/trailing-comma", "2000:2000,", false},
	{"/host/idle-states/wrong-separator", "2000:2000;10000:20000", false},
	{"/host/idle-states/negative-exit", "-1:5000", false},
	{"/host/idle-states/negative-residency", "1000:-5000", false},
	{"/host/idle-states/space", " 1000:5000", false},
	{"/host/idle-states/hex", "0x10:5000", false},
	{"/host/idle-states/over-a-second", "2000000000:1", false},
	{"/host/idle-states/same-residency", "1000:5000,2000:5000", false},
	{"/host/idle-states/decreasing-residency", "1000:5000,2000:4000", false},
	{"/host/idle-states/more-than-eight",
	 "1:1,2:2,3:3,4:4,5:5,6:6,7:7,8:8,9:9", false},
};

/* A malformed value stops the run with the option's name and the value. */
static void test_idle_states_check(gconstpointer data)
{
	const struct idle_spec *c = data;
	struct host_params hp = test_params(1);
	g_autoptr(GError) err = NULL;

	hp.idle_states = (char *)c->spec;
	g_assert_cmpint(host_params_check(&hp, &err), ==, c->ok);
	if (c->ok) {
		g_assert_no_error(err);
		return;
	}
	g_assert_nonnull(err);
	g_autofree char *quoted = g_strdup_printf("'%s'", c->spec);
	g_assert_nonnull(strstr(err->message, "option 'cpu.idle_states'"));
	g_assert_nonnull(strstr(err->message, quoted));
}

/* More side effects in one step, and more interrupts raised at once, than
 * the rings start with: each lands in order, where its work ends. */
static void test_many_queued_keep_order(void)
{
	enum { N = 40 };
	struct sim s;
	sim_init(&s, 1);
	struct host_params hp = test_params(1);
	struct host *h = host_new(&s, &hp);
	struct prog *p = prog_new(&s, h, "p", true, 10 * N, 0, END_THEN);
	struct prog *irq = prog_new(&s, h, "irq", false, 30, 0, END_THEN);

	p->defers = N;
	task_start(p->t, SIM_MSG(&p->c, PROG_STEP, NULL, 0));
	for (unsigned i = 0; i < N; i++)
		cpu_raise_irq(host_cpu(h, 0), SIM_MSG(&irq->c, PROG_STEP, NULL, 0));
	sim_run(&s, SIM_TIME_MAX);
	/* The interrupts run first, one after another, then the task. */
	g_assert_cmpuint(irq->step_times->len, ==, N);
	for (unsigned i = 0; i < N; i++)
		g_assert_cmpuint(at(irq->step_times, i), ==, i * (20 + 30));
	g_assert_cmpuint(p->action_times->len, ==, N);
	for (unsigned i = 0; i < N; i++)
		g_assert_cmpuint(at(p->action_times, i), ==,
				 N * (20 + 30) + 100 + 10 * (i + 1));
	prog_free(p);
	prog_free(irq);
	host_free(h);
	sim_destroy(&s);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	setup_stages();
	g_test_add_func("/host/steps-follow-charged-work", test_steps_follow_charged_work);
	g_test_add_func("/host/deferred-action-lands-mid-step", test_deferred_action_lands_mid_step);
	g_test_add_func("/host/irq-preempts-and-delays-task", test_irq_preempts_and_delays_task);
	g_test_add_func("/host/irq-end-folds-into-task", test_irq_end_folds_into_task);
	g_test_add_func("/host/irq-waits-for-folded-handler",
			test_irq_waits_for_folded_handler);
	g_test_add_func("/host/softirq-waits-for-folded-handler",
			test_softirq_waits_for_folded_handler);
	g_test_add_func("/host/full-preempt-wake-during-folded-handler",
			test_full_preempt_wake_during_folded_handler);
	g_test_add_func("/host/sleep-until-woken", test_sleep_until_woken);
	g_test_add_func("/host/wake-before-sleep-skips-sleep", test_wake_before_sleep_skips_sleep);
	g_test_add_func("/host/wake-of-running-task-is-noop", test_wake_of_running_task_is_noop);
	g_test_add_func("/host/cpu-bound-tasks-share-a-cpu", test_cpu_bound_tasks_share_a_cpu);
	g_test_add_func("/host/cfs-tunables-scale-with-cpus",
			test_cfs_tunables_scale_with_cpus);
	g_test_add_func("/host/wake-prefers-idle-cpu", test_wake_prefers_idle_cpu);
	g_test_add_func("/host/spin-charges-until-wake", test_spin_charges_until_wake);
	g_test_add_func("/host/many-queued-keep-order", test_many_queued_keep_order);
	for (unsigned i = 0; i < G_N_ELEMENTS(idle_cases); i++)
		g_test_add_data_func(idle_cases[i].path, &idle_cases[i], test_idle_exit);
	for (unsigned i = 0; i < G_N_ELEMENTS(gov_cases); i++)
		g_test_add_data_func(gov_cases[i].path, &gov_cases[i], test_governor);
	for (unsigned i = 0; i < G_N_ELEMENTS(idle_specs); i++)
		g_test_add_data_func(idle_specs[i].path, &idle_specs[i],
				     test_idle_states_check);
	return g_test_run();
}
