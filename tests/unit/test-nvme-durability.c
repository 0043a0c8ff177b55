/*
 * Description: the NVMe durability tracker classifies acknowledged writes
 * after a power loss (durable, lost, violation), honours Flush promises
 * only once the Flush completed, ignores stale destages, merges ranges
 * whose data is on media, and stops with a notice at its cap.
 *
 * These drive the tracker directly, as a device would, including as a
 * faulty device would (a promise without the data on media), which the
 * model itself never does.
 */
#include <glib.h>

#include "devices/nvme_durability.h"

static struct dur_range only_range(struct dur_tracker *t)
{
	g_autoptr(GArray) r = dur_report(t);
	g_assert_cmpuint(r->len, ==, 1);
	return g_array_index(r, struct dur_range, 0);
}

static void test_unflushed_write_is_lost(void)
{
	struct dur_tracker t;

	dur_init(&t, 64, 1, "d");
	dur_ack(&t, 0, 10, 4, 2, false);
	struct dur_range r = only_range(&t);
	g_assert_cmpint(r.state, ==, DUR_LOST);
	g_assert_cmpuint(r.slba, ==, 10);
	g_assert_cmpuint(r.nlb, ==, 4);
	dur_destroy(&t);
}

static void test_destaged_write_is_durable(void)
{
	struct dur_tracker t;

	dur_init(&t, 64, 1, "d");
	dur_ack(&t, 0, 10, 4, 2, false);
	dur_media(&t, 1, 10, 4, 2);
	g_assert_cmpint(only_range(&t).state, ==, DUR_DURABLE);
	dur_destroy(&t);
}

/* A completed Flush promised the write; if it is not on media, that is a
 * violation (a faulty device). */
static void test_promise_without_media_is_violation(void)
{
	struct dur_tracker t;

	dur_init(&t, 64, 1, "d");
	dur_ack(&t, 0, 0, 8, 2, false);
	dur_flush_started(&t, 2);
	dur_flush_completed(&t, 2);
	struct dur_range r = only_range(&t);
	g_assert_cmpint(r.state, ==, DUR_VIOLATION);
	g_assert_cmpuint(r.promised_seq, ==, 2);
	dur_destroy(&t);
}

/* A Flush that started but never completed promised nothing. */
static void test_unfinished_flush_promises_nothing(void)
{
	struct dur_tracker t;

	dur_init(&t, 64, 1, "d");
	dur_ack(&t, 0, 0, 8, 2, false);
	dur_flush_started(&t, 2);
	g_assert_cmpint(only_range(&t).state, ==, DUR_LOST);
	dur_destroy(&t);
}

/* Overwritten after the Flush started: the older promise survives the
 * overwrite once the Flush completes. */
static void test_overwrite_keeps_pending_promise(void)
{
	struct dur_tracker t;

	dur_init(&t, 64, 1, "d");
	dur_ack(&t, 0, 0, 8, 2, false);
	dur_flush_started(&t, 2);
	dur_ack(&t, 1, 0, 8, 3, false);
	dur_flush_completed(&t, 2);
	g_assert_cmpint(only_range(&t).state, ==, DUR_VIOLATION);
	dur_media(&t, 2, 0, 8, 2);	/* the promised data did reach media */
	g_assert_cmpint(only_range(&t).state, ==, DUR_LOST);
	dur_destroy(&t);
}

/* A destage of older data after newer data reached media changes
 * nothing: the newer write stays durable. */
static void test_stale_destage_ignored(void)
{
	struct dur_tracker t;

	dur_init(&t, 64, 1, "d");
	dur_ack(&t, 0, 0, 8, 2, false);
	dur_ack(&t, 1, 0, 8, 3, true);
	dur_media(&t, 2, 0, 8, 2);
	g_assert_cmpint(only_range(&t).state, ==, DUR_DURABLE);
	dur_destroy(&t);
}

/* A partial overwrite splits the range; the rest keeps its verdict. */
static void test_partial_overwrite_splits(void)
{
	struct dur_tracker t;
	g_autoptr(GArray) r = NULL;

	dur_init(&t, 64, 1, "d");
	dur_ack(&t, 0, 0, 16, 2, true);
	dur_ack(&t, 1, 4, 4, 3, false);
	r = dur_report(&t);
	g_assert_cmpuint(r->len, ==, 3);
	g_assert_cmpint(g_array_index(r, struct dur_range, 0).state, ==, DUR_DURABLE);
	g_assert_cmpint(g_array_index(r, struct dur_range, 1).state, ==, DUR_LOST);
	g_assert_cmpuint(g_array_index(r, struct dur_range, 1).slba, ==, 4);
	g_assert_cmpuint(g_array_index(r, struct dur_range, 1).nlb, ==, 4);
	g_assert_cmpint(g_array_index(r, struct dur_range, 2).state, ==, DUR_DURABLE);
	dur_destroy(&t);
}

/* Adjacent ranges whose data reached media collapse into one node. */
static void test_durable_neighbours_merge(void)
{
	struct dur_tracker t;

	dur_init(&t, 4096, 1, "d");
	for (uint64_t i = 0; i < 1000; i++)
		dur_ack(&t, i, i * 8, 8, i + 2, true);
	g_assert_cmpuint(dur_ranges(&t), ==, 1);
	struct dur_range r = only_range(&t);
	g_assert_cmpuint(r.nlb, ==, 8000);
	dur_destroy(&t);
}

/* At the cap the tracker stops rather than report half a picture. */
static void test_cap_stops_tracking(void)
{
	struct dur_tracker t;

	dur_init(&t, 16, 1, "d");
	for (uint64_t i = 0; i < 40; i++)
		dur_ack(&t, 100 + i, i * 16, 8, i + 2, false);
	g_assert_true(t.overflow);
	g_assert_cmpuint(t.overflow_at, ==, 116);
	g_assert_cmpuint(dur_ranges(&t), <=, 16);
	dur_destroy(&t);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/nvme-durability/unflushed-write-is-lost",
			test_unflushed_write_is_lost);
	g_test_add_func("/nvme-durability/destaged-write-is-durable",
			test_destaged_write_is_durable);
	g_test_add_func("/nvme-durability/promise-without-media-is-violation",
			test_promise_without_media_is_violation);
	g_test_add_func("/nvme-durability/unfinished-flush-promises-nothing",
			test_unfinished_flush_promises_nothing);
	g_test_add_func("/nvme-durability/overwrite-keeps-pending-promise",
			test_overwrite_keeps_pending_promise);
	g_test_add_func("/nvme-durability/stale-destage-ignored",
			test_stale_destage_ignored);
	g_test_add_func("/nvme-durability/partial-overwrite-splits",
			test_partial_overwrite_splits);
	g_test_add_func("/nvme-durability/durable-neighbours-merge",
			test_durable_neighbours_merge);
	g_test_add_func("/nvme-durability/cap-stops-tracking",
			test_cap_stops_tracking);
	return g_test_run();
}
