/*
 * Latency by layer (sim/engine/io_trace.c): an I/O's stamps cut its latency into
 * layers that add up to it whatever is missing or out of order; an I/O
 * of several requests crosses a point when the last of them does.
 */
#include <glib.h>

#include "engine/io_trace.h"

/* Stamps SUBMIT..COMPLETE at these times; 0 leaves one unset. */
static struct io_trace trace_of(const sim_time t[IOS_NR])
{
	struct io_trace tr;

	io_trace_reset(&tr);
	for (int s = 0; s < IOS_NR; s++)
		if (t[s])
			io_trace_stamp(&tr, s, t[s]);
	return tr;
}

static sim_time total(const struct io_layers *l)
{
	sim_time sum = 0;

	for (int i = 0; i < IOL_NR; i++)
		sum += l->sum[i];
	return sum;
}

static const struct {
	const char *what;
	sim_time start, end;
	sim_time t[IOS_NR];
	sim_time want[IOL_NR];
} cases[] = {
	{"every stamp, in order", 100, 1000,
	 {110, 130, 160, 200, 700, 720, 730, 800},
	 {10, 20, 30, 40, 500, 20, 10, 70, 200}},
	{"no bio: the kernel's time is its submission", 100, 1000,
	 {110, 0, 0, 0, 0, 0, 0, 800},
	 {10, 690, 0, 0, 0, 0, 0, 0, 200}},
	{"no device report: its time goes to the layer before", 100, 1000,
	 {110, 130, 160, 200, 0, 720, 730, 800},
	 {10, 20, 30, 40, 520, 0, 10, 70, 200}},
	{"a stamp behind the one before it adds nothing", 100, 1000,
	 {110, 130, 125, 200, 700, 720, 730, 800},
	 {10, 20, 0, 70, 500, 20, 10, 70, 200}},
	{"a stamp past the end is cut there", 100, 1000,
	 {110, 130, 160, 200, 700, 720, 730, 1200},
	 {10, 20, 30, 40, 500, 20, 10, 270, 0}},
	{"nothing stamped: all the application's submission", 100, 1000,
	 {0, 0, 0, 0, 0, 0, 0, 0},
	 {900, 0, 0, 0, 0, 0, 0, 0, 0}},
};

static void test_layers_add_up_to_the_latency(void)
{
	for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) {
		struct io_trace tr = trace_of(cases[c].t);
		struct io_layers l = {0};

		io_layers_add(&l, cases[c].start, &tr, cases[c].end);
		g_test_message("%s", cases[c].what);
		g_assert_cmpuint(l.ios, ==, 1);
		g_assert_cmpuint(total(&l), ==, cases[c].end - cases[c].start);
		for (int i = 0; i < IOL_NR; i++)
			g_assert_cmpuint(l.sum[i], ==, cases[c].want[i]);
	}
}

static void test_last_request_sets_the_point(void)
{
	struct io_trace tr;

	io_trace_reset(&tr);
	io_trace_stamp_last(&tr, IOS_END, 500);
	io_trace_stamp_last(&tr, IOS_END, 400);
	g_assert_cmpuint(tr.t[IOS_END], ==, 500);
	io_trace_stamp_last(&tr, IOS_END, 600);
	g_assert_cmpuint(tr.t[IOS_END], ==, 600);
	/* a reset trace takes the first stamp, whatever it was before */
	io_trace_reset(&tr);
	io_trace_stamp_last(&tr, IOS_END, 300);
	g_assert_cmpuint(tr.t[IOS_END], ==, 300);
}

static void test_merge_sums_both(void)
{
	static const sim_time t[IOS_NR] = {110, 130, 160, 200, 700, 720, 730, 800};
	struct io_trace tr = trace_of(t);
	struct io_layers a = {0}, b = {0};

	io_layers_add(&a, 100, &tr, 1000);
	io_layers_add(&b, 100, &tr, 900);
	io_layers_merge(&a, &b);
	g_assert_cmpuint(a.ios, ==, 2);
	g_assert_cmpuint(total(&a), ==, 900 + 800);
	g_assert_cmpuint(a.sum[IOL_DEVICE], ==, 1000);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/io-trace/layers-add-up-to-the-latency",
			test_layers_add_up_to_the_latency);
	g_test_add_func("/io-trace/last-request-sets-the-point",
			test_last_request_sets_the_point);
	g_test_add_func("/io-trace/merge-sums-both", test_merge_sums_both);
	return g_test_run();
}
