/*
 * Description: io-wq. Driven directly with work that blocks until told:
 * a pool never grows beyond its bound and creates workers one at a time;
 * with idle workers, a batch of enqueues wakes one worker under the 5.7
 * rule (the others are started by hand-off, one after another) and one
 * worker per item under the 5.15 rule. Through io_uring: buffered random
 * reads that miss the page cache make io-wq workers without async
 * buffered reads and none with them.
 */
#include <glib.h>

#include "syscalls/io_wq.h"
#include "system/workload.h"

#define NCPUS 4
#define ITEMS_MAX 16

/* Work that blocks in execute() until the test wakes it. */
struct item {
	struct io_wq_work work;
	struct task *worker;	/* who ran it */
	sim_time started;
	bool resumed;
};

struct bench {
	struct sim_component c;	/* the submitting task's steps */
	struct sim s;
	struct host *h;
	struct kernel_features k;
	struct io_wq *wq;
	struct task *submitter;
	struct item items[ITEMS_MAX];
	unsigned first, n;	/* the items the next step enqueues */
	unsigned started;
	uint64_t enqueue_wakeups;	/* wake-ups the enqueues made */
};

static stage_id st_wakeup;

static enum io_wq_exec item_execute(struct xctx *x, struct io_wq_work *w,
				    void *data)
{
	struct bench *b = data;
	struct item *it = (struct item *)w;

	it->worker = xctx_task(x);
	it->started = sim_now(&b->s);
	b->started++;
	return IO_WQ_WAITS;
}

static enum io_wq_exec item_resume(struct xctx *x, struct io_wq_work *w, void *data)
{
	(void)x;
	(void)data;
	((struct item *)w)->resumed = true;
	return IO_WQ_DONE;
}

static const struct io_wq_ops item_ops = {
	.execute = item_execute,
	.resume = item_resume,
};

enum { BENCH_SUBMIT, BENCH_WAKE_ALL };

static void bench_handle(struct sim_component *c, unsigned type, void *ptr,
			 uint64_t arg)
{
	struct bench *b = (struct bench *)c;
	struct xctx *x = host_current(b->h);

	(void)ptr;
	(void)arg;
	if (type == BENCH_WAKE_ALL) {	/* in a hard IRQ: the reads are done */
		for (unsigned i = 0; i < b->first; i++)
			if (b->items[i].worker && !b->items[i].resumed)
				io_wq_work_wake(x, &b->items[i].work);
		return;
	}
	uint64_t before = host_stage_count(b->h)[st_wakeup];
	for (unsigned i = b->first; i < b->first + b->n; i++)
		io_wq_enqueue(x, b->wq, &b->items[i].work);
	b->enqueue_wakeups = host_stage_count(b->h)[st_wakeup] - before;
	b->first += b->n;
	task_exit(b->submitter);
}

static const struct sim_component_ops bench_ops = {
	.name = "bench",
	.handle = bench_handle,
};

static void bench_init(struct bench *b, bool wake_free_worker, unsigned max)
{
	struct host_params hp;
	struct io_wq_params wp;

	*b = (struct bench){0};
	params_set_defaults(host_param_table, &hp);
	params_set_defaults(io_wq_param_table, &wp);
	params_set_defaults(kernel_param_table, &b->k);
	hp.ncpus = NCPUS;
	b->k.io_wq_wake_free_worker = wake_free_worker;
	sim_init(&b->s, 1);
	b->h = host_new(&b->s, &hp);
	params_clear(host_param_table, &hp);
	st_wakeup = stage_register("wakeup", CPU_SYS, NULL);
	sim_component_init(&b->s, &b->c, &bench_ops, "bench");
	b->wq = io_wq_new(b->h, &wp, &b->k, IO_WQ_WORKER_PREFIX "/test", max,
			  &item_ops, b);
}

static void bench_clear(struct bench *b)
{
	io_wq_free(b->wq);
	host_free(b->h);
	sim_destroy(&b->s);
}

/* A new submitting task enqueues n items in one step; run until every
 * worker sleeps. */
static void submit(struct bench *b, unsigned n)
{
	g_assert_cmpuint(b->first + n, <=, ITEMS_MAX);
	b->n = n;
	b->submitter = task_new(b->h, "submitter", TASK_USER, 1, NULL);
	task_start(b->submitter, SIM_MSG(&b->c, BENCH_SUBMIT, NULL, 0));
	sim_run(&b->s, SIM_TIME_MAX);
}

/* End the wait of every started item, from an interrupt on CPU 0. */
static void wake_all(struct bench *b)
{
	cpu_raise_irq(host_cpu(b->h, 0), SIM_MSG(&b->c, BENCH_WAKE_ALL, NULL, 0));
	sim_run(&b->s, SIM_TIME_MAX);
}

/* Blocked workers hold their items: the pool stops at its bound, and
 * the queued items run once workers are free again. */
static void test_pool_stops_at_bound(gconstpointer data)
{
	struct bench b;

	bench_init(&b, GPOINTER_TO_INT(data), 3);
	submit(&b, 8);
	g_assert_cmpuint(io_wq_nr_workers(b.wq), ==, 3);
	g_assert_cmpuint(b.started, ==, 3);
	while (b.started < 8)
		wake_all(&b);
	wake_all(&b);
	for (unsigned i = 0; i < 8; i++)
		g_assert_true(b.items[i].resumed);
	g_assert_cmpuint(io_wq_nr_workers(b.wq), ==, 3);
	bench_clear(&b);
}

/* With no worker yet, both rules create one when no worker runs: each
 * item's worker is created after the previous one blocked. */
static void test_workers_created_one_at_a_time(gconstpointer data)
{
	struct bench b;

	bench_init(&b, GPOINTER_TO_INT(data), 8);
	submit(&b, 4);
	g_assert_cmpuint(io_wq_nr_workers(b.wq), ==, 4);
	for (unsigned i = 1; i < 4; i++) {
		g_assert_true(b.items[i].worker != b.items[i - 1].worker);
		g_assert_cmpuint(b.items[i].started, >, b.items[i - 1].started);
	}
	bench_clear(&b);
}

struct dispatch_case {
	const char *path;
	bool wake_free_worker;
	uint64_t enqueue_wakeups;	/* of 4 idle workers, for 4 items */
};

static const struct dispatch_case dispatch_cases[] = {
	{"/io-wq/dispatch/5.7-wakes-one-worker-per-batch", false, 1},
	{"/io-wq/dispatch/5.15-wakes-a-worker-per-item", true, 4},
};

/* Four workers made and idle, then four items in one submission. */
static void test_dispatch(gconstpointer data)
{
	const struct dispatch_case *c = data;
	struct bench b;

	bench_init(&b, c->wake_free_worker, 8);
	submit(&b, 4);
	wake_all(&b);
	g_assert_cmpuint(b.started, ==, 4);
	submit(&b, 4);
	g_assert_cmpuint(b.enqueue_wakeups, ==, c->enqueue_wakeups);
	/* Either way every item runs, each on a worker of its own. */
	g_assert_cmpuint(b.started, ==, 8);
	for (unsigned i = 5; i < 8; i++)
		for (unsigned j = 4; j < i; j++)
			g_assert_true(b.items[i].worker != b.items[j].worker);
	if (!c->wake_free_worker) {
		/* Each worker that blocks wakes the next idle one: the items
		 * start in turn, and no worker is made while one is idle. */
		for (unsigned i = 5; i < 8; i++)
			g_assert_cmpuint(b.items[i].started, >, b.items[i - 1].started);
		g_assert_cmpuint(io_wq_nr_workers(b.wq), ==, 4);
	}
	bench_clear(&b);
}

/* ---- through io_uring ---- */

struct uring_case {
	const char *path;
	const char *kernel;
	bool workers;
};

static const struct uring_case uring_cases[] = {
	{"/io-wq/uring-buffered-reads/punted-without-async-reads",
	 "async_buffered_reads=false", true},
	{"/io-wq/uring-buffered-reads/no-workers-with-async-reads",
	 "async_buffered_reads=true", false},
};

/* 4096 random 4 KiB buffered reads of a 16 MiB file at depth 32, the page
 * cache empty at the start. */
static void test_uring_buffered_reads(gconstpointer data)
{
	const struct uring_case *c = data;
	struct system_config cfg;
	struct run_metrics m = {0};
	g_autoptr(GError) err = NULL;
	g_autofree char *job = g_test_build_filename(G_TEST_DIST, "tests", "unit",
						     "buffered-randread.fio", NULL);
	char *env[] = {"ENGINE=io_uring", "DEPTH=32", "PRE_READ=0", NULL};

	system_config_init(&cfg);
	g_ptr_array_add(cfg.files, g_strdup("/f=16m:written"));
	g_ptr_array_add(cfg.kernel, g_strdup(c->kernel));
	g_assert_true(workload_fio(&cfg, job, env, &m, &err));
	g_assert_no_error(err);
	g_assert_cmpuint(m.ios, ==, 4096);
	g_assert_cmpuint(m.dev_bytes[0], ==, 16 << 20);
	if (c->workers) {
		/* At most min(SQ entries, 4 x CPUs) = 32 on the default host. */
		g_assert_cmpuint(m.workers, >, 0);
		g_assert_cmpuint(m.workers, <=, 32);
		g_assert_cmpuint(m.worker_ns, >, 0);
	} else {
		g_assert_cmpuint(m.workers, ==, 0);
	}
	run_metrics_clear(&m);
	system_config_clear(&cfg);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_data_func("/io-wq/pool-stops-at-bound/5.7", GINT_TO_POINTER(0),
			     test_pool_stops_at_bound);
	g_test_add_data_func("/io-wq/pool-stops-at-bound/5.15", GINT_TO_POINTER(1),
			     test_pool_stops_at_bound);
	g_test_add_data_func("/io-wq/workers-created-one-at-a-time/5.7",
			     GINT_TO_POINTER(0), test_workers_created_one_at_a_time);
	g_test_add_data_func("/io-wq/workers-created-one-at-a-time/5.15",
			     GINT_TO_POINTER(1), test_workers_created_one_at_a_time);
	for (unsigned i = 0; i < G_N_ELEMENTS(dispatch_cases); i++)
		g_test_add_data_func(dispatch_cases[i].path, &dispatch_cases[i],
				     test_dispatch);
	for (unsigned i = 0; i < G_N_ELEMENTS(uring_cases); i++)
		g_test_add_data_func(uring_cases[i].path, &uring_cases[i],
				     test_uring_buffered_reads);
	return g_test_run();
}
