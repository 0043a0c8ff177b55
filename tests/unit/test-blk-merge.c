/*
 * Description: blk-mq's plug merging, driven directly: bios submitted in
 * one step under a plug join the plugged request they continue (back) or
 * precede (front), within max_sectors and max_segments, never with a
 * flush or FUA write, a different operation, a queue with nomerges or
 * without a plug; the pieces a split cuts off do not merge, its last one
 * may. A merged request reaches the driver once, ends each of its bios,
 * stamps each bio's trace, and counts the merges in the disk statistics.
 */
#include <glib.h>

#include "block/blk_mq.h"
#include "kernel.h"

#define NBIOS 8
#define KIB 1024u

/* A bio a case submits: where, how much, what. */
struct bio_spec {
	uint64_t sector;
	uint32_t size;
	uint32_t segs;
	uint8_t op;
	uint32_t flags;
};

/* What the driver saw of one request. */
struct seen_rq {
	uint64_t sector;
	uint32_t size, nbios;
};

struct bench {
	struct sim_component c;
	struct sim s;
	struct host *h;
	struct blk_mq_params p;
	struct blk_queue *q;
	struct task *submitter;
	const struct bio_spec *specs;
	unsigned nspecs;
	bool plugged;
	struct seen_rq rqs[NBIOS];
	unsigned nrqs;
	struct io_trace traces[NBIOS];
	unsigned ended[NBIOS];	/* end_io calls per submitted bio */
};

/* null_blk's irqmode=none: the request ends inside queue_rq. */
static void drv_queue_rq(struct xctx *x, struct blk_hctx *hctx,
			 struct request *rq, bool last)
{
	struct bench *b = blk_hctx_driver_data(hctx);
	struct seen_rq *s = &b->rqs[b->nrqs++];

	(void)last;
	*s = (struct seen_rq){.sector = rq->sector, .size = rq->size};
	for (struct bio *bio = rq->bio; bio; bio = bio->next)
		s->nbios++;
	blk_rq_stamp(rq, IOS_ISSUE, xctx_clock(x));
	blk_mq_complete_request(x, rq, BLK_STS_OK);
}

static const struct blk_driver_ops drv = {
	.name = "merge-test",
	.queue_rq = drv_queue_rq,
};

static void end_io(struct xctx *x, struct bio *bio)
{
	struct bench *b = bio->private;

	(void)x;
	b->ended[bio->trace - b->traces]++;
	bio_free(bio);
}

static void bench_handle(struct sim_component *c, unsigned type, void *ptr,
			 uint64_t arg)
{
	struct bench *b = (struct bench *)c;
	struct xctx *x = host_current(b->h);

	(void)type;
	(void)ptr;
	(void)arg;
	if (b->plugged)
		blk_start_plug(x);
	for (unsigned i = 0; i < b->nspecs; i++) {
		const struct bio_spec *s = &b->specs[i];
		struct bio *bio = bio_alloc(x, b->q, s->segs, false);
		bio->op = s->op;
		bio->flags = s->flags;
		bio->sector = s->sector;
		bio->size = s->size;
		bio->nr_segs = s->segs;
		bio->end_io = end_io;
		bio->private = b;
		bio->trace = &b->traces[i];
		io_trace_reset(bio->trace);
		submit_bio(x, bio);
	}
	if (b->plugged)
		blk_finish_plug(x);
	task_exit(b->submitter);
}

static const struct sim_component_ops bench_ops = {
	.name = "bench",
	.handle = bench_handle,
};

struct merge_case {
	const char *path;
	struct bio_spec bios[NBIOS];
	unsigned nbios;
	bool plugged;
	uint32_t max_sectors, max_segments;
	bool nomerges;
	struct seen_rq want[NBIOS];	/* the requests, in dispatch order */
	unsigned nwant;
};

#define W REQ_OP_WRITE
#define R REQ_OP_READ

static const struct merge_case cases[] = {
	{"/blk-merge/back", {{0, 4 * KIB, 1, W}, {8, 4 * KIB, 1, W},
	 {16, 4 * KIB, 1, W}}, 3, true, 1024, 128, false,
	 {{0, 12 * KIB, 3}}, 1},
	{"/blk-merge/front", {{8, 4 * KIB, 1, R}, {0, 4 * KIB, 1, R}}, 2,
	 true, 1024, 128, false, {{0, 8 * KIB, 2}}, 1},
	{"/blk-merge/no-plug", {{0, 4 * KIB, 1, W}, {8, 4 * KIB, 1, W}}, 2,
	 false, 1024, 128, false, {{0, 4 * KIB, 1}, {8, 4 * KIB, 1}}, 2},
	{"/blk-merge/nomerges", {{0, 4 * KIB, 1, W}, {8, 4 * KIB, 1, W}}, 2,
	 true, 1024, 128, true, {{0, 4 * KIB, 1}, {8, 4 * KIB, 1}}, 2},
	{"/blk-merge/not-adjacent", {{0, 4 * KIB, 1, W}, {16, 4 * KIB, 1, W}},
	 2, true, 1024, 128, false, {{0, 4 * KIB, 1}, {16, 4 * KIB, 1}}, 2},
	{"/blk-merge/other-op", {{0, 4 * KIB, 1, W}, {8, 4 * KIB, 1, R}}, 2,
	 true, 1024, 128, false, {{0, 4 * KIB, 1}, {8, 4 * KIB, 1}}, 2},
	{"/blk-merge/fua-request", {{0, 4 * KIB, 1, W, REQ_FUA},
	 {8, 4 * KIB, 1, W}}, 2, true, 1024, 128, false,
	 {{0, 4 * KIB, 1}, {8, 4 * KIB, 1}}, 2},
	{"/blk-merge/fua-bio", {{0, 4 * KIB, 1, W}, {8, 4 * KIB, 1, W, REQ_FUA}},
	 2, true, 1024, 128, false, {{0, 4 * KIB, 1}, {8, 4 * KIB, 1}}, 2},
	{"/blk-merge/nowait-merges", {{0, 4 * KIB, 1, W, REQ_NOWAIT},
	 {8, 4 * KIB, 1, W, REQ_NOWAIT}}, 2, true, 1024, 128, false,
	 {{0, 8 * KIB, 2}}, 1},
	/* 8 KiB at most: the third bio starts a request of its own, which
	 * the fourth joins. */
	{"/blk-merge/max-sectors", {{0, 4 * KIB, 1, W}, {8, 4 * KIB, 1, W},
	 {16, 4 * KIB, 1, W}, {24, 4 * KIB, 1, W}}, 4, true, 16, 128, false,
	 {{0, 8 * KIB, 2}, {16, 8 * KIB, 2}}, 2},
	{"/blk-merge/max-segments", {{0, 8 * KIB, 2, W}, {16, 8 * KIB, 2, W},
	 {32, 8 * KIB, 2, W}}, 3, true, 1024, 4, false,
	 {{0, 16 * KIB, 2}, {32, 8 * KIB, 1}}, 2},
	/* 12 KiB in pieces of 8 KiB at most: the piece cut off the front
	 * does not merge, the rest does. */
	{"/blk-merge/split", {{0, 12 * KIB, 3, W}, {24, 4 * KIB, 1, W}}, 2,
	 true, 16, 128, false, {{0, 8 * KIB, 1}, {16, 8 * KIB, 2}}, 2},
};

static void test_merge(gconstpointer data)
{
	const struct merge_case *c = data;
	struct bench *b = g_new0(struct bench, 1);
	struct host_params hp;
	struct kernel_features k;
	struct blk_disk_stats st;
	uint64_t bios_merged = 0;

	params_set_defaults(host_param_table, &hp);
	params_set_defaults(kernel_param_table, &k);
	params_set_defaults(blk_mq_param_table, &b->p);
	hp.ncpus = 1;
	sim_init(&b->s, 1);
	b->h = host_new(&b->s, &hp);
	params_clear(host_param_table, &hp);
	struct blk_queue_config cfg = {
		.name = "merge0",
		.nr_hw_queues = 1,
		.queue_depth = 64,
		.logical_block_size = 512,
		.max_sectors = c->max_sectors,
		.max_segments = c->max_segments,
		.capacity = 1u << 30,
		.plug_max = 32,
		.nomerges = c->nomerges,
	};
	b->q = blk_queue_new(b->h, &b->p, &cfg, &drv, b);
	blk_hctx_set_driver_data(blk_queue_hctx(b->q, 0), b);
	b->specs = c->bios;
	b->nspecs = c->nbios;
	b->plugged = c->plugged;
	sim_component_init(&b->s, &b->c, &bench_ops, "bench");
	b->submitter = task_new(b->h, "submitter", TASK_USER, 1, NULL);
	task_start(b->submitter, SIM_MSG(&b->c, 0, NULL, 0));
	sim_run(&b->s, SIM_TIME_MAX);

	g_assert_cmpuint(b->nrqs, ==, c->nwant);
	for (unsigned i = 0; i < c->nwant; i++) {
		g_assert_cmpuint(b->rqs[i].sector, ==, c->want[i].sector);
		g_assert_cmpuint(b->rqs[i].size, ==, c->want[i].size);
		g_assert_cmpuint(b->rqs[i].nbios, ==, c->want[i].nbios);
		bios_merged += b->rqs[i].nbios - 1;
	}
	for (unsigned i = 0; i < c->nbios; i++) {
		const struct io_trace *tr = &b->traces[i];
		g_assert_cmpuint(b->ended[i], ==, 1);
		g_assert_true(tr->have & (1u << IOS_DISPATCH));
		g_assert_true(tr->have & (1u << IOS_ISSUE));
		g_assert_true(tr->have & (1u << IOS_END));
	}
	blk_queue_disk_stats(b->q, &st);
	g_assert_cmpuint(st.ios[0] + st.ios[1], ==, c->nwant);
	g_assert_cmpuint(st.merges[0] + st.merges[1], ==, bios_merged);
	g_assert_cmpuint(st.merges[c->bios[0].op == R], ==, 0);

	blk_queue_free(b->q);
	host_free(b->h);
	sim_destroy(&b->s);
	g_free(b);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++)
		g_test_add_data_func(cases[i].path, &cases[i], test_merge);
	return g_test_run();
}
