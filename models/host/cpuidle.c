/*
 * cpuidle: the idle state a CPU enters when it has nothing to run, chosen
 * by a governor, and the exit latency paid when it is woken.
 *
 * Stands for: drivers/cpuidle/cpuidle.c (the idle loop's state choice and
 * the residency it measures), drivers/cpuidle/poll_state.c (the polling
 * "state" 0 and its time limit), drivers/cpuidle/governors/menu.c as of
 * Linux 5.7-5.10 (menu_select, menu_update, get_typical_interval,
 * which_bucket, performance_multiplier), and the parts of
 * kernel/time/tick-sched.c the governor reads (tick_nohz_get_sleep_length,
 * tick_nohz_idle_got_tick, stopping and retaining the tick).
 *
 * Two governors (host parameter idle_governor):
 *
 * oracle: the state is the deepest whose target residency the idle period
 * turned out to reach. No prediction, no tick. This is what the host did
 * before the menu model, and the default.
 *
 * menu: the state is chosen when the CPU goes idle, from a prediction of
 * how long it will stay idle. The facts modelled, from menu.c:
 *   - The next timer event's distance (next_timer) is the starting point:
 *     here the earliest nanosleep hrtimer of a task asleep on the CPU, or,
 *     with none, the host's idle_next_timer_ns (the timer wheel's events,
 *     which the model does not have). With the tick running it is also
 *     bounded by the next tick for one check (delta_tick below).
 *   - Twelve correction factors, six buckets by next_timer's magnitude
 *     (<10 µs, <100 µs, <1 ms, <10 ms, <100 ms, more), doubled by whether
 *     any task that slept on this CPU waits in I/O (nr_iowait_cpu). Each is
 *     a fixed-point ratio, unity = 1024 * 8, starting at unity, updated
 *     after every idle period: factor -= factor / 8, then += 1024 *
 *     measured / next_timer (or += 1024 when measured >= 50 ms).
 *   - measured is the residency less the state's exit latency (half the
 *     residency when that is at most twice the exit latency), capped at
 *     next_timer; 45 ms (9/10 of 50 ms) when the tick woke the CPU although
 *     next_timer was more than a tick away; next_timer itself when the
 *     polling state hit its time limit.
 *   - predicted = next_timer * factor, rounded to µs; then the smaller of
 *     that and the "typical interval" of the last eight measured periods
 *     (µs): their mean when the variance is at most 400 µs^2 or the mean
 *     exceeds six standard deviations (with at least six samples left), the
 *     largest sample being dropped and the test repeated while more than
 *     six remain.
 *   - With the tick running, the exit latency may be at most predicted /
 *     (1 + 10 * nr_iowait): one task in I/O wait on the CPU makes any state
 *     whose exit latency exceeds a tenth of the prediction too slow. With
 *     the tick already stopped, predicted < tick is replaced by next_timer
 *     and the latency limit is off.
 *   - The state is the deepest whose target residency <= predicted and
 *     exit latency <= the limit. When even the first real state is too
 *     deep, the polling state is used only if a timer is due within that
 *     state's residency (or the latency limit forbids it); otherwise the
 *     first state. next_timer below the first state's residency means
 *     polling outright.
 *   - The tick is kept running when predicted < tick; then a state whose
 *     residency exceeds the time to the next tick is replaced by the
 *     deepest that fits. When predicted >= tick and a deeper state's
 *     residency exceeds predicted, the search stops keeping the tick (if
 *     running) or, if it is stopped, takes that deeper state when the
 *     shallow one has a residency under a tick and the deeper one fits
 *     before the next event.
 *   - A CPU that stops the tick leaves it stopped through interrupts that
 *     wake no task; it restarts when a task runs there.
 * The idle loop itself: the tick (every 1/HZ, aligned on all CPUs, as the
 * kernel's default without skew_tick) wakes an idle CPU whose tick runs,
 * the governor learns from that period and chooses again; polling stops
 * after the first state's target residency (cpuidle_poll_time) and the
 * governor chooses again; an idle period the no-timer guess says a timer
 * ends is ended there. The model replays these wake-ups when the real
 * wake-up comes (cpuidle_exit), so they cost no events. A tick's own work
 * and the exit latency it pays are not CPU time in the model, but a real
 * wake-up that arrives while the CPU is still leaving a state for a tick
 * waits for the rest of that exit.
 *
 * Polling is the kernel's state 0 (POLL, exit latency 0, residency 0):
 * here index -1, with no exit latency; idle_states lists the real states
 * (C1, C1E, C6 of intel_idle's skx_cstates for axboe-2020).
 *
 * Parameters (host profile, model "cpu"):
 *   idle_states          EXIT:RESIDENCY ns pairs, shallowest first
 *   idle_governor        oracle | menu
 *   hz                   CONFIG_HZ, the tick rate (menu only) (1/s)
 *   idle_next_timer_ns   next_timer when no task timer is pending (ns)
 *
 * Sources: Linux v5.7 drivers/cpuidle/governors/menu.c (constants BUCKETS
 * 12, INTERVALS 8, RESOLUTION 1024, DECAY 8, MAX_INTERESTING 50 ms; the
 * iowait multiplier 1 + 10 * nr_iowaiters), drivers/cpuidle/cpuidle.c
 * (cpuidle_poll_time), kernel/time/tick-sched.c
 * (tick_nohz_get_sleep_length), kernel/sched/core.c (rq->nr_iowait, set by
 * io_schedule's in_iowait, cleared at wake-up).
 *
 * Left out: PM QoS latency limits, the teo and ladder governors, hardware
 * promotion and demotion of states, the tick's handler time, per-state
 * disabling, frequency effects of deep states.
 */
#include <glib.h>
#include <limits.h>

#include "cpuidle.h"

const char *const idle_governor_names[] = {"oracle", "menu", NULL};

#define RESOLUTION 1024u
#define DECAY 8u
#define UNITY (RESOLUTION * DECAY)
#define MAX_INTERESTING (50 * SIM_MSEC)
#define NS_PER_US 1000u

void cpuidle_dev_init(struct cpuidle_dev *d)
{
	*d = (struct cpuidle_dev){.state = -1};
	for (unsigned i = 0; i < MENU_BUCKETS; i++)
		d->correction_factor[i] = UNITY;
}

static sim_time state_exit(const struct cpuidle_drv *drv, int i)
{
	return i < 0 ? 0 : drv->st[i].exit;
}

static sim_time state_residency(const struct cpuidle_drv *drv, int i)
{
	return i < 0 ? 0 : drv->st[i].residency;
}

static unsigned which_bucket(sim_time next_timer, unsigned nr_iowait)
{
	unsigned b = nr_iowait ? MENU_BUCKETS / 2 : 0;
	sim_time lim = 10 * NS_PER_US;

	for (unsigned i = 0; i < MENU_BUCKETS / 2 - 1; i++, lim *= 10)
		if (next_timer < lim)
			return b + i;
	return b + MENU_BUCKETS / 2 - 1;
}

/* The mean of the recent periods if they agree, else UINT_MAX; outliers
 * above are dropped one at a time while more than six samples remain. */
static unsigned typical_interval(const struct cpuidle_dev *d,
				 unsigned predicted_us)
{
	unsigned thresh = INT_MAX;

	for (;;) {
		unsigned min = UINT_MAX, max = 0, n = 0, avg;
		uint64_t sum = 0, var = 0;

		for (unsigned i = 0; i < MENU_INTERVALS; i++) {
			unsigned v = d->intervals[i];
			if (v > thresh)
				continue;
			sum += v;
			n++;
			max = MAX(max, v);
			min = MIN(min, v);
		}
		if (min >= predicted_us)
			return UINT_MAX;
		avg = (unsigned)(sum / n);
		for (unsigned i = 0; i < MENU_INTERVALS; i++) {
			unsigned v = d->intervals[i];
			if (v <= thresh) {
				int64_t diff = (int64_t)v - avg;
				var += (uint64_t)(diff * diff);
			}
		}
		var /= n;
		if (var <= UINT64_MAX / 36 &&
		    (((uint64_t)avg * avg > var * 36 && n * 4 >= MENU_INTERVALS * 3) ||
		     var <= 400))
			return avg;
		if (n * 4 <= MENU_INTERVALS * 3)
			return UINT_MAX;
		thresh = max - 1;
	}
}

/* The next tick strictly after t: ticks fall on multiples of the period. */
static sim_time next_tick(const struct cpuidle_drv *drv, sim_time t)
{
	return (t / drv->tick + 1) * drv->tick;
}

/* menu_select, at t, for the CPU's current timer and I/O waiters. */
static void menu_select(const struct cpuidle_drv *drv, struct cpuidle_dev *d,
			sim_time t)
{
	sim_time next_timer = d->timer_at > t ? d->timer_at - t : 0;
	sim_time delta_tick = d->tick_stopped ? next_timer :
			      MIN(next_tick(drv, t) - t, next_timer);
	sim_time tick = drv->tick, predicted, latency_req = SIM_TIME_MAX;
	uint64_t predicted_us;
	bool stop_tick = true;
	int idx = -1;

	d->entered = t;
	d->next_timer = next_timer;
	d->bucket = which_bucket(next_timer, d->nr_iowait);
	if (next_timer < drv->st[0].residency) {
		stop_tick = false;
		goto out;
	}
	predicted_us = (next_timer * d->correction_factor[d->bucket] +
			(uint64_t)UNITY * NS_PER_US / 2) / ((uint64_t)UNITY * NS_PER_US);
	predicted = MIN(predicted_us,
			(uint64_t)typical_interval(d, (unsigned)MIN(predicted_us,
								      UINT_MAX))) *
		    NS_PER_US;
	if (d->tick_stopped) {
		if (predicted < tick)
			predicted = next_timer;
	} else {
		latency_req = predicted / (1 + 10 * (sim_time)d->nr_iowait);
	}
	for (int i = 0; i < (int)drv->n; i++) {
		const struct idle_state *s = &drv->st[i];
		if (s->residency > predicted) {
			if (idx < 0 && s->exit <= latency_req &&
			    s->residency <= next_timer) {
				/* A real state rather than polling, as no timer
				 * comes within its residency. */
				predicted = s->residency;
				idx = i;
				break;
			}
			if (predicted < tick)
				break;
			if (!d->tick_stopped) {
				predicted = state_residency(drv, idx);
				break;
			}
			if (state_residency(drv, idx) < tick &&
			    s->residency <= delta_tick)
				idx = i;
			goto out;	/* stop_tick stays true */
		}
		if (s->exit > latency_req)
			break;
		idx = i;
	}
	if ((idx < 0 || predicted < tick) && !d->tick_stopped) {
		stop_tick = false;
		/* The tick will wake the CPU: no state deeper than fits
		 * before it. */
		while (idx >= 0 && state_residency(drv, idx) > delta_tick)
			idx--;
	}
out:
	d->state = idx;
	d->chosen[idx + 1]++;
	/* tick_nohz_idle_stop_tick: only worth it with no event within a
	 * tick; tick_nohz_idle_retain_tick leaves a stopped tick stopped. */
	if (stop_tick && next_timer > tick)
		d->tick_stopped = true;
}

/* menu_update for the period that ended after residency (entry to the
 * end of the exit) in the state chosen. */
static void menu_update(const struct cpuidle_drv *drv, struct cpuidle_dev *d,
			sim_time residency, bool by_tick, bool by_poll_limit)
{
	sim_time measured, ex = state_exit(drv, d->state);
	unsigned f = d->correction_factor[d->bucket];

	if (by_tick && d->next_timer > drv->tick)
		measured = 9 * MAX_INTERESTING / 10;
	else if (d->state < 0 && by_poll_limit)
		measured = d->next_timer;
	else if (residency > 2 * ex)
		measured = residency - ex;
	else
		measured = residency / 2;
	if (measured > d->next_timer)
		measured = d->next_timer;
	f -= f / DECAY;
	if (d->next_timer > 0 && measured < MAX_INTERESTING)
		f += (unsigned)(RESOLUTION * measured / d->next_timer);
	else
		f += RESOLUTION;
	d->correction_factor[d->bucket] = f;
	d->intervals[d->interval_ptr] = (unsigned)MIN(measured / NS_PER_US,
						       UINT_MAX);
	d->interval_ptr = (d->interval_ptr + 1) % MENU_INTERVALS;
}

void cpuidle_enter(const struct cpuidle_drv *drv, struct cpuidle_dev *d,
		   sim_time now, sim_time timer_at, unsigned nr_iowait)
{
	d->idle = true;
	d->entered = now;
	if (drv->governor != IDLE_GOV_MENU || !drv->n)
		return;
	d->nr_iowait = nr_iowait;
	d->timer_virtual = timer_at == SIM_TIME_MAX;
	d->timer_at = d->timer_virtual ? now + drv->no_timer : timer_at;
	menu_select(drv, d, now);
}

static sim_time oracle_exit(const struct cpuidle_drv *drv,
			    const struct cpuidle_dev *d, sim_time now)
{
	sim_time exit = 0;

	for (unsigned i = 0; i < drv->n; i++)
		if (now - d->entered >= drv->st[i].residency)
			exit = drv->st[i].exit;
	return exit;
}

sim_time cpuidle_exit(const struct cpuidle_drv *drv, struct cpuidle_dev *d,
		      sim_time now)
{
	sim_time ex;

	if (!d->idle)
		return 0;
	d->idle = false;
	if (drv->governor != IDLE_GOV_MENU || !drv->n)
		return oracle_exit(drv, d, now);
	if (now == d->entered)
		return 0;	/* woken before the state was entered */
	/* Replay what ended idle periods before now: the tick, the polling
	 * time limit, the guessed timer. */
	for (;;) {
		sim_time w = SIM_TIME_MAX;
		bool by_tick = false, by_poll = false;

		ex = state_exit(drv, d->state);
		if (d->state < 0) {
			/* cpuidle_poll_time: the first state's residency. */
			w = d->entered + MAX(drv->st[0].residency, 1);
			by_poll = true;
		}
		if (!d->tick_stopped && next_tick(drv, d->entered) < w) {
			w = next_tick(drv, d->entered);
			by_tick = true;
			by_poll = false;
		}
		if (d->timer_virtual && d->timer_at < w) {
			w = d->timer_at;
			by_tick = by_poll = false;
		}
		if (w >= now)
			break;
		menu_update(drv, d, w + ex - d->entered, by_tick, by_poll);
		if (w + ex >= now)
			return w + ex - now;	/* still leaving the state */
		if (d->timer_virtual && d->timer_at <= w + ex)
			d->timer_at = w + ex + drv->no_timer;
		menu_select(drv, d, w + ex);
	}
	menu_update(drv, d, now + ex - d->entered, false, false);
	return ex;
}
