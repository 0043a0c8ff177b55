/*
 * cpuidle: which idle state a CPU with nothing to run enters, and what
 * leaving it costs. See cpuidle.c for what it stands for in the kernel.
 *
 * The host calls cpuidle_enter() when a CPU becomes idle and
 * cpuidle_exit() when an interrupt or a wake-up ends the idle period; the
 * latter returns the exit latency the CPU waits before it runs anything.
 */
#ifndef STORSIM_CPUIDLE_H
#define STORSIM_CPUIDLE_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/sim.h"

#define IDLE_STATES_MAX 8
#define MENU_BUCKETS 12
#define MENU_INTERVALS 8

struct idle_state {
	sim_time exit, residency;
};

enum idle_governor {
	IDLE_GOV_ORACLE,	/* the state the idle period's real length earns */
	IDLE_GOV_MENU,		/* drivers/cpuidle/governors/menu.c, Linux 5.7 */
};

extern const char *const idle_governor_names[];

/* The machine's states and the governor: one per host. */
struct cpuidle_drv {
	struct idle_state st[IDLE_STATES_MAX];	/* shallowest first */
	unsigned n;
	int governor;			/* enum idle_governor */
	sim_time tick;			/* the scheduler tick's period (1/HZ) */
	sim_time no_timer;		/* distance to the next timer event when
					 * the host knows of none on the CPU */
};

/* One CPU's governor state. */
struct cpuidle_dev {
	bool idle;
	sim_time entered;	/* when the current idle state was entered */
	int state;		/* -1: polling (no state), else an index */
	bool tick_stopped;	/* the tick is off until a task runs */
	bool timer_virtual;	/* timer_at is the no_timer guess, not a task's */
	sim_time timer_at;	/* the next timer event, absolute */
	unsigned nr_iowait;	/* tasks of this CPU asleep in I/O wait, at entry */
	/* menu's per-CPU data (struct menu_device) */
	sim_time next_timer;
	unsigned bucket;
	unsigned correction_factor[MENU_BUCKETS];
	unsigned intervals[MENU_INTERVALS];	/* µs */
	unsigned interval_ptr;
	/* How often each state was chosen (index 0: polling, i + 1: state
	 * i), counting re-selections after tick wake-ups; for tests and
	 * diagnosis. */
	uint64_t chosen[IDLE_STATES_MAX + 1];
};

void cpuidle_dev_init(struct cpuidle_dev *d);
/* The CPU has nothing to run from now. timer_at is the next timer event
 * armed on it (SIM_TIME_MAX: none), nr_iowait the tasks that went to
 * sleep on it in I/O wait and sleep still. */
void cpuidle_enter(const struct cpuidle_drv *drv, struct cpuidle_dev *d,
		   sim_time now, sim_time timer_at, unsigned nr_iowait);
/* Something ends the idle period now: the exit latency to wait. */
sim_time cpuidle_exit(const struct cpuidle_drv *drv, struct cpuidle_dev *d,
		      sim_time now);
/* A task runs on the CPU: the idle loop is left and the tick restarted. */
static inline void cpuidle_task_runs(struct cpuidle_dev *d)
{
	d->tick_stopped = false;
}

#endif
