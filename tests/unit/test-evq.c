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
	g_test_add_func("/rng/streams-are-named", test_rng_streams_are_named);
	return g_test_run();
}
