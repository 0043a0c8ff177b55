
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
 * Files, one per object: host.c (this: the parameters, building and
 * freeing a host, usage), xctx.c (execution contexts, milestones, charged
 * work), cpu.c (a CPU's dispatch and interrupts), sched.c (run queues,
 * wake-up placement and preemption), task.c (tasks, sleeps, wake-ups,
 * nanosleep), timeline.c (recording which context ran where); their
 * shared private types are in host_impl.h.
 *
 * Left out: SMT siblings, NUMA, load balancing between CPUs other than at
 * wake-up, priorities other than nice 0, real-time classes.
 */
#include "host_impl.h"

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

stage_id st_ctx_switch, st_wakeup, st_irq_entry, st_softirq_entry,
	st_syscall, st_syscall_user;

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
