/*
 * Description: the event queue delivers events in (time, scheduling order),
 * skips cancelled events, survives growth and sequence renumbering; timers
 * take their place in that order as events scheduled when they were last
 * armed would, also when moved to another time without re-arming.
 */
#include <glib.h>

#include "engine/sim.h"

struct recorder {
	struct sim_component c;
	GArray *seen;	/* of uint64_t args, in delivery order */
	GArray *times;	/* of sim_time */
};

/* Events are scheduled with type 0 and their number in arg; a timer
 * armed with type T is seen as TIMER_SEEN + T. */
#define TIMER_SEEN 1000000u

static void record(struct sim_component *c, unsigned type, void *ptr, uint64_t arg)
{
	struct recorder *r = (struct recorder *)c;
	sim_time now = sim_now(c->sim);
	uint64_t what = type ? TIMER_SEEN + type : arg;
	g_array_append_val(r->seen, what);
	g_array_append_val(r->times, now);
}

static const struct sim_component_ops recorder_ops = {
	.name = "recorder",
	.handle = record,
};

static void recorder_init(struct sim *s, struct recorder *r)
{
	sim_component_init(s, &r->c, &recorder_ops, "rec");
	r->seen = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	r->times = g_array_new(FALSE, FALSE, sizeof(sim_time));
}

static void recorder_free(struct recorder *r)
{
	g_array_free(r->seen, TRUE);
	g_array_free(r->times, TRUE);
}

static void test_orders_by_time(void)
{
	struct sim s;
	struct recorder r;
	static const sim_time at[] = {50, 10, 40, 20, 30};

	sim_init(&s, 1);
	recorder_init(&s, &r);
	for (unsigned i = 0; i < G_N_ELEMENTS(at); i++)
		sim_schedule(&s, at[i], &r.c, 0, NULL, at[i]);
	sim_run(&s, SIM_TIME_MAX);
	g_assert_cmpuint(r.seen->len, ==, 5);
	for (unsigned i = 0; i < 5; i++)
		g_assert_cmpuint(g_array_index(r.seen, uint64_t, i), ==, (i + 1) * 10);
	recorder_free(&r);
	sim_destroy(&s);
}

static void test_ties_break_by_schedule_order(void)
{
	struct sim s;
	struct recorder r;

	sim_init(&s, 1);
	recorder_init(&s, &r);
	for (uint64_t i = 0; i < 100; i++)
		sim_schedule(&s, 7, &r.c, 0, NULL, i);
	sim_run(&s, SIM_TIME_MAX);
	for (uint64_t i = 0; i < 100; i++)
		g_assert_cmpuint(g_array_index(r.seen, uint64_t, i), ==, i);
	recorder_free(&r);
	sim_destroy(&s);
}

static void test_cancel_skips_event(void)
{
	struct sim s;
	struct recorder r;

	sim_init(&s, 1);
	recorder_init(&s, &r);
	sim_schedule(&s, 1, &r.c, 0, NULL, 1);
	sim_event_id id = sim_schedule(&s, 2, &r.c, 0, NULL, 2);
	sim_schedule(&s, 3, &r.c, 0, NULL, 3);
	sim_cancel(&s, id);
	sim_run(&s, SIM_TIME_MAX);
	g_assert_cmpuint(r.seen->len, ==, 2);
	g_assert_cmpuint(g_array_index(r.seen, uint64_t, 1), ==, 3);
	recorder_free(&r);
	sim_destroy(&s);
}

static void test_cancel_after_run_is_harmless(void)
{
	struct sim s;
	struct recorder r;

	sim_init(&s, 1);
	recorder_init(&s, &r);
	sim_event_id old = sim_schedule(&s, 1, &r.c, 0, NULL, 1);
	sim_run(&s, SIM_TIME_MAX);
	/* The slot is reused by this event; the stale id must not kill it. */
	sim_schedule(&s, 2, &r.c, 0, NULL, 2);
	sim_cancel(&s, old);
	sim_run(&s, SIM_TIME_MAX);
	g_assert_cmpuint(r.seen->len, ==, 2);
	recorder_free(&r);
	sim_destroy(&s);
}

static void test_run_until_stops_at_horizon(void)
{
	struct sim s;
	struct recorder r;

	sim_init(&s, 1);
	recorder_init(&s, &r);
	sim_schedule(&s, 10, &r.c, 0, NULL, 1);
	sim_schedule(&s, 20, &r.c, 0, NULL, 2);
	g_assert_cmpuint(sim_run(&s, 15), ==, 1);
	g_assert_cmpuint(sim_now(&s), ==, 15);
	g_assert_cmpuint(sim_run(&s, SIM_TIME_MAX), ==, 1);
	recorder_free(&r);
	sim_destroy(&s);
}

/* Many random events through growth of both heap and record pool come out
 * sorted, ties in scheduling order. */
static void test_random_many_sorted(void)
{
	struct sim s;
	struct recorder r;
	GRand *g = g_rand_new_with_seed(42);
	enum { N = 200000 };

	sim_init(&s, 1);
	recorder_init(&s, &r);
	for (uint64_t i = 0; i < N; i++)
		sim_schedule(&s, g_rand_int_range(g, 0, 1000), &r.c, 0, NULL, i);
	sim_run(&s, SIM_TIME_MAX);
	g_assert_cmpuint(r.seen->len, ==, N);
	for (unsigned i = 1; i < N; i++) {
		sim_time t0 = g_array_index(r.times, sim_time, i - 1);
		sim_time t1 = g_array_index(r.times, sim_time, i);
		g_assert_cmpuint(t0, <=, t1);
		if (t0 == t1)
			g_assert_cmpuint(g_array_index(r.seen, uint64_t, i - 1), <,
					 g_array_index(r.seen, uint64_t, i));
	}
	g_rand_free(g);
	recorder_free(&r);
	sim_destroy(&s);
}

static void test_renumber_keeps_order(void)
{
	struct sim s;
	struct recorder r;

	sim_init(&s, 1);
	recorder_init(&s, &r);
	for (uint64_t i = 0; i < 1000; i++)
		sim_schedule(&s, 1000 - (i % 10), &r.c, 0, NULL, i);
	evq_renumber(&s.q);
	g_assert_cmpuint(s.q.seq, ==, 1000);
	sim_schedule(&s, 991, &r.c, 0, NULL, 5000);
	sim_run(&s, SIM_TIME_MAX);
	/* Time 991 holds i = 9, 19, ..., 999, then the late 5000. */
	g_assert_cmpuint(g_array_index(r.seen, uint64_t, 0), ==, 9);
	g_assert_cmpuint(g_array_index(r.seen, uint64_t, 99), ==, 999);
	g_assert_cmpuint(g_array_index(r.seen, uint64_t, 100), ==, 5000);
	recorder_free(&r);
	sim_destroy(&s);
}

static uint64_t seen(const struct recorder *r, unsigned i)
{
	return g_array_index(r->seen, uint64_t, i);
}

static void assert_seen(const struct recorder *r, const uint64_t *want, unsigned n)
{
	g_assert_cmpuint(r->seen->len, ==, n);
	for (unsigned i = 0; i < n; i++)
		g_assert_cmpuint(seen(r, i), ==, want[i]);
}

/* Re-arming moves a timer: it is delivered once, at its last time. */
static void test_timer_rearm_moves_it(void)
{
	struct sim s;
	struct recorder r;
	struct evq_timer t;

	sim_init(&s, 1);
	recorder_init(&s, &r);
	sim_timer_init(&t, &r.c);
	sim_timer_arm(&s, &t, 10, 1);
	sim_schedule(&s, 20, &r.c, 0, NULL, 20);
	sim_timer_arm(&s, &t, 30, 2);
	sim_run(&s, SIM_TIME_MAX);
	static const uint64_t want[] = {20, TIMER_SEEN + 2};
	assert_seen(&r, want, G_N_ELEMENTS(want));
	g_assert_cmpuint(g_array_index(r.times, sim_time, 1), ==, 30);
	recorder_free(&r);
	sim_destroy(&s);
}

/* At equal times a timer goes where an event scheduled when it was last
 * armed would: after the events scheduled before, before those after. */
static void test_timer_ties_break_by_arming_order(void)
{
	struct sim s;
	struct recorder r;
	struct evq_timer early, late;

	sim_init(&s, 1);
	recorder_init(&s, &r);
	sim_timer_init(&early, &r.c);
	sim_timer_init(&late, &r.c);
	sim_schedule(&s, 5, &r.c, 0, NULL, 1);
	sim_timer_arm(&s, &early, 5, 1);
	sim_timer_arm(&s, &late, 9, 2);
	sim_schedule(&s, 5, &r.c, 0, NULL, 2);
	sim_timer_arm(&s, &late, 5, 2);		/* now after event 2 */
	sim_schedule(&s, 5, &r.c, 0, NULL, 3);
	sim_run(&s, SIM_TIME_MAX);
	static const uint64_t want[] = {1, TIMER_SEEN + 1, 2, TIMER_SEEN + 2, 3};
	assert_seen(&r, want, G_N_ELEMENTS(want));
	recorder_free(&r);
	sim_destroy(&s);
}

/* Retiming a timer keeps its place among equal times: it goes where it
 * would be had it been armed for its new time when it was last armed,
 * before an event scheduled since for that time. */
static void test_timer_retime_keeps_arming_order(void)
{
	struct sim s;
	struct recorder r;
	struct evq_timer t;

	sim_init(&s, 1);
	recorder_init(&s, &r);
	sim_timer_init(&t, &r.c);
	sim_schedule(&s, 5, &r.c, 0, NULL, 1);
	sim_timer_arm(&s, &t, 9, 1);
	sim_schedule(&s, 5, &r.c, 0, NULL, 2);
	sim_timer_retime(&s, &t, 5);
	sim_run(&s, SIM_TIME_MAX);
	static const uint64_t want[] = {1, TIMER_SEEN + 1, 2};
	assert_seen(&r, want, G_N_ELEMENTS(want));
	g_assert_cmpuint(g_array_index(r.times, sim_time, 1), ==, 5);
	recorder_free(&r);
	sim_destroy(&s);
}

/* A stopped timer is not delivered; the others keep their order through
 * the removal. */
static void test_timer_stop_skips_it(void)
{
	struct sim s;
	struct recorder r;
	struct evq_timer t[6];

	sim_init(&s, 1);
	recorder_init(&s, &r);
	for (unsigned i = 0; i < 6; i++) {
		sim_timer_init(&t[i], &r.c);
		sim_timer_arm(&s, &t[i], 60 - 10 * i, i + 1);
	}
	sim_timer_stop(&s, &t[2]);
	sim_timer_stop(&s, &t[2]);
	sim_run(&s, SIM_TIME_MAX);
	static const uint64_t want[] = {
		TIMER_SEEN + 6, TIMER_SEEN + 5, TIMER_SEEN + 4, TIMER_SEEN + 2,
		TIMER_SEEN + 1,
	};
	assert_seen(&r, want, G_N_ELEMENTS(want));
	recorder_free(&r);
	sim_destroy(&s);
}

/* Renumbering orders events and timers together. */
static void test_renumber_keeps_timer_order(void)
{
	struct sim s;
	struct recorder r;
	struct evq_timer t;

	sim_init(&s, 1);
	recorder_init(&s, &r);
	sim_timer_init(&t, &r.c);
	sim_schedule(&s, 7, &r.c, 0, NULL, 1);
	sim_timer_arm(&s, &t, 7, 1);
	sim_schedule(&s, 7, &r.c, 0, NULL, 2);
	evq_renumber(&s.q);
	g_assert_cmpuint(s.q.seq, ==, 3);
	sim_run(&s, SIM_TIME_MAX);
	static const uint64_t want[] = {1, TIMER_SEEN + 1, 2};
	assert_seen(&r, want, G_N_ELEMENTS(want));
	recorder_free(&r);
	sim_destroy(&s);
}

static void test_rng_streams_are_named(void)
{
	struct sim_rng a, b, c;

	sim_rng_seed(&a, 7, "nvme0");
	sim_rng_seed(&b, 7, "nvme0");
	sim_rng_seed(&c, 7, "nvme1");
	uint64_t va = sim_rng_next(&a);
	g_assert_cmpuint(va, ==, sim_rng_next(&b));
	g_assert_cmpuint(va, !=, sim_rng_next(&c));
	for (int i = 0; i < 1000; i++)
		g_assert_cmpuint(sim_rng_below(&a, 10), <, 10);
}

/*
 * A churn that drives the ladder through all its moves: about 20000
 * pending, each delivery scheduling more at distances from 0 ns to 100 ms
 * (ties, near and far), some cancelled, timers re-armed, a few events at
 * the very end of time. What is delivered must be every live event once,
 * in (time, scheduling order), as one heap would give them.
 */
enum { CHURN_TIMERS = 8 };

struct churn {
	struct sim_component c;
	GRand *g;
	GArray *sched_at;	/* by schedule index: its time */
	GArray *ids;		/* by schedule index: its event id */
	GArray *dead;		/* by schedule index: cancelled or re-armed */
	GArray *seen;		/* schedule indexes, in delivery order */
	struct evq_timer t[CHURN_TIMERS];
	uint64_t timer_idx[CHURN_TIMERS];	/* schedule index of its arming */
	unsigned left;		/* deliveries that still schedule */
};

static sim_time churn_distance(GRand *g)
{
	switch (g_rand_int_range(g, 0, 10)) {
	case 0: case 1: return 0;
	case 2: return (sim_time)g_rand_int_range(g, 0, 4);
	case 3: case 4: case 5: return (sim_time)g_rand_int_range(g, 0, 20000);
	case 6: case 7: return (sim_time)g_rand_int_range(g, 0, 3000000);
	case 8: return (sim_time)g_rand_int_range(g, 0, 100000000);
	default: return (sim_time)g_rand_int_range(g, 0, 500);
	}
}

static void churn_schedule(struct churn *ch, sim_time at)
{
	uint64_t idx = ch->sched_at->len;
	bool dead = false;
	sim_event_id id = sim_schedule(ch->c.sim, at, &ch->c, 0, NULL, idx);

	g_array_append_val(ch->sched_at, at);
	g_array_append_val(ch->ids, id);
	g_array_append_val(ch->dead, dead);
}

static void churn_handle(struct sim_component *c, unsigned type, void *ptr,
			 uint64_t arg)
{
	struct churn *ch = (struct churn *)c;
	sim_time now = sim_now(c->sim);
	uint64_t idx = type ? ch->timer_idx[type - 1] : arg;

	(void)ptr;
	g_array_append_val(ch->seen, idx);
	if (!ch->left)
		return;
	ch->left--;
	for (int n = g_rand_int_range(ch->g, 0, 3); n > 0; n--)
		churn_schedule(ch, now + churn_distance(ch->g));
	if (g_rand_int_range(ch->g, 0, 8) == 0) {
		uint64_t victim = (uint64_t)g_rand_int_range(ch->g, 0, (gint32)ch->ids->len);
		if (g_array_index(ch->sched_at, sim_time, victim) > now &&
		    !g_array_index(ch->dead, bool, victim)) {
			sim_cancel(c->sim, g_array_index(ch->ids, sim_event_id, victim));
			g_array_index(ch->dead, bool, victim) = true;
		}
	}
	if (g_rand_int_range(ch->g, 0, 4) == 0) {
		unsigned k = (unsigned)g_rand_int_range(ch->g, 0, CHURN_TIMERS);
		sim_time at = now + churn_distance(ch->g);
		bool dead = false;
		sim_event_id none = 0;
		if (ch->t[k].pos)
			g_array_index(ch->dead, bool, ch->timer_idx[k]) = true;
		ch->timer_idx[k] = ch->sched_at->len;
		g_array_append_val(ch->sched_at, at);
		g_array_append_val(ch->ids, none);
		g_array_append_val(ch->dead, dead);
		sim_timer_arm(c->sim, &ch->t[k], at, k + 1);
	}
}

static const struct sim_component_ops churn_ops = {
	.name = "churn",
	.handle = churn_handle,
};

static void test_ladder_churn_keeps_heap_order(void)
{
	struct sim s;
	struct churn ch = {.left = 400000};

	sim_init(&s, 1);
	sim_component_init(&s, &ch.c, &churn_ops, "churn");
	ch.g = g_rand_new_with_seed(7);
	ch.sched_at = g_array_new(FALSE, FALSE, sizeof(sim_time));
	ch.ids = g_array_new(FALSE, FALSE, sizeof(sim_event_id));
	ch.dead = g_array_new(FALSE, FALSE, sizeof(bool));
	ch.seen = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	for (unsigned k = 0; k < CHURN_TIMERS; k++)
		sim_timer_init(&ch.t[k], &ch.c);
	for (unsigned i = 0; i < 20000; i++)
		churn_schedule(&ch, churn_distance(ch.g));
	for (unsigned i = 0; i < 3; i++)
		churn_schedule(&ch, SIM_TIME_MAX - i);
	sim_run(&s, SIM_TIME_MAX);

	unsigned live = 0;
	for (unsigned i = 0; i < ch.dead->len; i++)
		live += !g_array_index(ch.dead, bool, i);
	g_assert_cmpuint(ch.seen->len, ==, live);
	for (unsigned i = 0; i < ch.seen->len; i++) {
		uint64_t x = g_array_index(ch.seen, uint64_t, i);
		g_assert_false(g_array_index(ch.dead, bool, x));
		g_array_index(ch.dead, bool, x) = true;	/* once only */
		if (i == 0)
			continue;
		uint64_t w = g_array_index(ch.seen, uint64_t, i - 1);
		sim_time tx = g_array_index(ch.sched_at, sim_time, x);
		sim_time tw = g_array_index(ch.sched_at, sim_time, w);
		g_assert_cmpuint(tw, <=, tx);
		if (tw == tx)
			g_assert_cmpuint(w, <, x);
	}
	g_rand_free(ch.g);
	g_array_free(ch.sched_at, TRUE);
	g_array_free(ch.ids, TRUE);
	g_array_free(ch.dead, TRUE);
	g_array_free(ch.seen, TRUE);
	sim_destroy(&s);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/evq/orders-by-time", test_orders_by_time);
	g_test_add_func("/evq/ties-break-by-schedule-order", test_ties_break_by_schedule_order);
	g_test_add_func("/evq/cancel-skips-event", test_cancel_skips_event);
	g_test_add_func("/evq/cancel-after-run-is-harmless", test_cancel_after_run_is_harmless);
	g_test_add_func("/evq/run-until-stops-at-horizon", test_run_until_stops_at_horizon);
	g_test_add_func("/evq/random-many-sorted", test_random_many_sorted);
	g_test_add_func("/evq/renumber-keeps-order", test_renumber_keeps_order);
	g_test_add_func("/evq/timer-rearm-moves-it", test_timer_rearm_moves_it);
	g_test_add_func("/evq/timer-ties-break-by-arming-order",
			test_timer_ties_break_by_arming_order);
	g_test_add_func("/evq/timer-retime-keeps-arming-order",
			test_timer_retime_keeps_arming_order);
	g_test_add_func("/evq/timer-stop-skips-it", test_timer_stop_skips_it);
	g_test_add_func("/evq/renumber-keeps-timer-order", test_renumber_keeps_timer_order);
	g_test_add_func("/evq/ladder-churn-keeps-heap-order",
			test_ladder_churn_keeps_heap_order);
	g_test_add_func("/rng/streams-are-named", test_rng_streams_are_named);
	return g_test_run();
}
