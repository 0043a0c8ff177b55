/*
 * Description: the mq-deadline scheduler's rules, driven through blk-mq
 * with a driver that takes one request at a time and ends it a fixed
 * time later, so that the rest wait in the scheduler: requests go out in
 * batches of fifo_batch in sector order, a passed deadline sends the
 * oldest first, reads are preferred for writes_starved batches while
 * writes wait, and bios and requests merge into queued requests (back,
 * front, then with the neighbour; and on insertion), each merge counted
 * in the disk statistics; a CPU that finds dd->lock held by another
 * spins, one CPU alone never does. The expected orders are worked out by
 * hand from Linux's __dd_dispatch_request.
 */
#include <glib.h>

#include "block/blk_mq.h"
#include "kernel.h"

#define NBIOS 8
#define KIB 1024u
#define MS 1000000ull

struct bio_spec {
	uint64_t sector;
	uint8_t op;
};

/* What the driver saw of one request. */
struct seen_rq {
	uint64_t sector;
	uint32_t size, nbios;
};

struct bench {
	struct sim_component c;		/* the submitter's step */
	struct sim_component drv;	/* the device: ends requests */
	struct sim s;
	struct host *h;
	struct blk_mq_params p;
	struct blk_queue *q;
	struct task *submitters[2];	/* one per CPU */
	unsigned ncpus;
	const struct bio_spec *specs;
	unsigned nspecs;
	bool plugged;
	sim_time service;
	struct seen_rq rqs[NBIOS];
	unsigned nrqs;
};

/* The device's events: a request reached it, its service time is up, its
 * interrupt handler runs. */
enum { DRV_START, DRV_FIRES, DRV_IRQ };

static void drv_queue_rq(struct xctx *x, struct blk_hctx *hctx,
			 struct request *rq, bool last)
{
	struct bench *b = blk_hctx_driver_data(hctx);
	struct seen_rq *s = &b->rqs[b->nrqs++];

	(void)last;
	*s = (struct seen_rq){.sector = rq->sector, .size = rq->size};
	for (struct bio *bio = rq->bio; bio; bio = bio->next)
		s->nbios++;
	xctx_defer(x, SIM_MSG(&b->drv, DRV_START, rq, 0));
}

static void drv_handle(struct sim_component *c, unsigned type, void *ptr,
		       uint64_t arg)
{
	struct bench *b = (struct bench *)((char *)c - offsetof(struct bench, drv));

	(void)arg;
	switch (type) {
	case DRV_START:
		sim_after(&b->s, b->service, c, DRV_FIRES, ptr, 0);
		return;
	case DRV_FIRES:
		cpu_raise_irq(host_cpu(b->h, 0), SIM_MSG(c, DRV_IRQ, ptr, 0));
		return;
	case DRV_IRQ:
		blk_mq_complete_request(host_current(b->h), ptr, BLK_STS_OK);
		return;
	}
}

static const struct sim_component_ops drv_ops = {
	.name = "one-at-a-time",
	.handle = drv_handle,
};

static const struct blk_driver_ops drv = {
	.name = "one-at-a-time",
	.queue_rq = drv_queue_rq,
};

static void end_io(struct xctx *x, struct bio *bio)
{
	(void)x;
	bio_free(bio);
}

static void bench_handle(struct sim_component *c, unsigned type, void *ptr,
			 uint64_t arg)
{
	struct bench *b = (struct bench *)c;
	struct xctx *x = host_current(b->h);
	unsigned cpu = (unsigned)arg;

	(void)type;
	(void)ptr;
	if (b->plugged)
		blk_start_plug(x);
	/* The CPUs take turns through the bios. */
	for (unsigned i = cpu; i < b->nspecs; i += b->ncpus) {
		const struct bio_spec *s = &b->specs[i];
		struct bio *bio = bio_alloc(x, b->q, 1, false);
		bio->op = s->op;
		bio->sector = s->sector;
		bio->size = 4 * KIB;
		bio->nr_segs = 1;
		bio->end_io = end_io;
		bio->private = b;
		submit_bio(x, bio);
	}
	if (b->plugged)
		blk_finish_plug(x);
	task_exit(b->submitters[cpu]);
}

static const struct sim_component_ops bench_ops = {
	.name = "bench",
	.handle = bench_handle,
};

struct dd_case {
	const char *path;
	struct bio_spec bios[NBIOS];
	unsigned nbios;
	bool plugged;
	uint32_t read_expire, writes_starved, fifo_batch;	/* ms, count */
	sim_time service;
	struct seen_rq want[NBIOS];	/* the requests, in dispatch order */
	unsigned nwant;
	unsigned merges;
	unsigned ncpus;			/* submitting at once; 0: one */
};

#define W REQ_OP_WRITE
#define R REQ_OP_READ
#define ONE(s) {s, 4 * KIB, 1}

static const struct dd_case cases[] = {
	/* One request per batch; the read at 1000 came first and its
	 * deadline (500 ms) passes at the third completion. */
	{"/mq-deadline/fifo-expiry-beats-sector-order",
	 {{1000, R}, {100, R}, {200, R}, {300, R}, {400, R}}, 5, true,
	 500, 2, 1, 300 * MS,
	 {ONE(100), ONE(200), ONE(300), ONE(1000), ONE(400)}, 5, 0},
	{"/mq-deadline/sector-order-before-deadline",
	 {{1000, R}, {100, R}, {200, R}, {300, R}, {400, R}}, 5, true,
	 5000, 2, 1, 300 * MS,
	 {ONE(100), ONE(200), ONE(300), ONE(400), ONE(1000)}, 5, 0},
	/* The batch the scheduler starts in is a write one; then reads win
	 * twice over the waiting write, the third time the write goes. */
	{"/mq-deadline/writes-starved-2",
	 {{1000, W}, {2000, W}, {100, R}, {200, R}, {300, R}, {400, R}}, 6,
	 true, 500, 2, 1, 1 * MS,
	 {ONE(1000), ONE(100), ONE(200), ONE(2000), ONE(300), ONE(400)}, 6, 0},
	{"/mq-deadline/writes-starved-4",
	 {{1000, W}, {2000, W}, {100, R}, {200, R}, {300, R}, {400, R}}, 6,
	 true, 500, 4, 1, 1 * MS,
	 {ONE(1000), ONE(100), ONE(200), ONE(300), ONE(400), ONE(2000)}, 6, 0},
	/* Every deadline has passed (read_expire 0): a batch starts at the
	 * oldest and goes on in sector order for fifo_batch requests. */
	{"/mq-deadline/fifo-batch-1",
	 {{1000, R}, {100, R}, {400, R}, {200, R}, {300, R}}, 5, true,
	 0, 2, 1, 1 * MS,
	 {ONE(1000), ONE(100), ONE(400), ONE(200), ONE(300)}, 5, 0},
	{"/mq-deadline/fifo-batch-2",
	 {{1000, R}, {100, R}, {400, R}, {200, R}, {300, R}}, 5, true,
	 0, 2, 2, 1 * MS,
	 {ONE(1000), ONE(100), ONE(200), ONE(400), ONE(300)}, 5, 0},
	{"/mq-deadline/fifo-batch-16",
	 {{1000, R}, {100, R}, {400, R}, {200, R}, {300, R}}, 5, true,
	 0, 2, 16, 1 * MS,
	 {ONE(1000), ONE(100), ONE(200), ONE(300), ONE(400)}, 5, 0},
	/* Without a plug: 0 goes out, 1000 waits for the driver tag; the
	 * bio at 108 joins 100 at its end, which then takes in 116; 92
	 * joins it at its start. */
	{"/mq-deadline/bio-merges",
	 {{0, R}, {1000, R}, {100, R}, {116, R}, {108, R}, {92, R}}, 6, false,
	 500, 2, 16, 1 * MS,
	 {ONE(0), ONE(1000), {92, 16 * KIB, 4}}, 3, 3},
	/* The plug merges a bio with its last request only: 408 makes a
	 * request of its own, which joins 400 as it is inserted. */
	{"/mq-deadline/insert-merge",
	 {{400, R}, {600, R}, {408, R}}, 3, true, 500, 2, 16, 1 * MS,
	 {{400, 8 * KIB, 2}, ONE(600)}, 2, 1},
	/* Two CPUs submit at the same time: the second waits for the
	 * first's hold of dd->lock. */
	{"/mq-deadline/lock-spins-across-cpus",
	 {{0, R}, {1000, R}}, 2, false, 500, 2, 16, 1 * MS,
	 {ONE(0), ONE(1000)}, 2, 0, 2},
};

/* CPU time charged to dd->lock's spinning. */
static sim_time lock_spin(const struct host *h)
{
	for (stage_id i = 0; i < stage_count(); i++)
		if (g_str_equal(stage_get(i)->name, "dd_lock_spin"))
			return host_stage_ns(h)[i];
	g_assert_not_reached();
}

static void test_order(gconstpointer data)
{
	const struct dd_case *c = data;
	struct bench *b = g_new0(struct bench, 1);
	struct host_params hp;
	struct blk_disk_stats st;

	params_set_defaults(host_param_table, &hp);
	params_set_defaults(blk_mq_param_table, &b->p);
	params_set_defaults(mq_deadline_param_table, &b->p.mq_deadline);
	b->p.mq_deadline.read_expire = c->read_expire;
	b->p.mq_deadline.writes_starved = c->writes_starved;
	b->p.mq_deadline.fifo_batch = c->fifo_batch;
	b->ncpus = c->ncpus ? c->ncpus : 1;
	hp.ncpus = b->ncpus;
	sim_init(&b->s, 1);
	b->h = host_new(&b->s, &hp);
	params_clear(host_param_table, &hp);
	struct blk_queue_config cfg = {
		.name = "dd0",
		.nr_hw_queues = 1,
		.queue_depth = 1,
		.logical_block_size = 512,
		.max_sectors = 1024,
		.max_segments = 128,
		.capacity = 1u << 30,
		.plug_max = 32,
		.scheduler = "mq-deadline",
		.nr_requests = 64,
	};
	b->q = blk_queue_new(b->h, &b->p, &cfg, &drv, b);
	blk_hctx_set_driver_data(blk_queue_hctx(b->q, 0), b);
	b->specs = c->bios;
	b->nspecs = c->nbios;
	b->plugged = c->plugged;
	b->service = c->service;
	sim_component_init(&b->s, &b->c, &bench_ops, "bench");
	sim_component_init(&b->s, &b->drv, &drv_ops, "device");
	for (unsigned i = 0; i < b->ncpus; i++) {
		struct cpumask on = {0};
		cpumask_set(&on, i);
		b->submitters[i] = task_new(b->h, "submitter", TASK_USER, 1, &on);
		task_start(b->submitters[i], SIM_MSG(&b->c, 0, NULL, i));
	}
	sim_run(&b->s, SIM_TIME_MAX);

	g_assert_cmpuint(b->nrqs, ==, c->nwant);
	for (unsigned i = 0; i < c->nwant; i++) {
		g_assert_cmpuint(b->rqs[i].sector, ==, c->want[i].sector);
		g_assert_cmpuint(b->rqs[i].size, ==, c->want[i].size);
		g_assert_cmpuint(b->rqs[i].nbios, ==, c->want[i].nbios);
	}
	blk_queue_disk_stats(b->q, &st);
	g_assert_cmpuint(st.ios[0] + st.ios[1], ==, c->nwant);
	g_assert_cmpuint(st.merges[0] + st.merges[1], ==, c->merges);
	if (b->ncpus > 1)
		g_assert_cmpuint(lock_spin(b->h), >, 0);
	else
		g_assert_cmpuint(lock_spin(b->h), ==, 0);

	blk_queue_free(b->q);
	host_free(b->h);
	sim_destroy(&b->s);
	g_free(b);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++)
		g_test_add_data_func(cases[i].path, &cases[i], test_order);
	return g_test_run();
}
