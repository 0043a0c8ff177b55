/*
 * The loop driver (models/drivers/loop.c) over a tmpfs file: requests are
 * served by the device's kworker through shmem's read_iter/write_iter
 * and completed there; commands queued while the worker runs are served
 * in the same run of its work item, one queued after it went idle queues
 * the work again; direct I/O takes the same path on tmpfs; a write pays
 * shmem's write_begin/end per page; a flush copies nothing.
 */
#include <glib.h>
#include <string.h>

#include "drivers/loop.h"

#define MAXBIOS 8

struct bench {
	struct sim_component c;
	struct sim s;
	struct host_params hp;
	struct host *h;
	struct blk_mq_params blk;
	struct workqueue_params wq;
	struct shmem_params sh;
	struct pagecache_params pc;
	struct loop_cpu_params cpu;
	struct loop_params lp;
	struct kernel_features kf;
	struct loop_dev *lo;
	struct task *submitter;
	/* what the submitter does: nbios bios of op and size, in one step or
	 * (gap > 0) one per step, gap ns of CPU apart */
	unsigned nbios;
	uint8_t op;
	uint32_t size;
	sim_time gap;
	unsigned submitted;
	/* what came back */
	unsigned ended;
	sim_time end_at[MAXBIOS];
	char end_ctx[MAXBIOS][48];
};

static void end_io(struct xctx *x, struct bio *bio)
{
	struct bench *b = bio->private;
	struct task *t = xctx_task(x);

	b->end_at[b->ended] = xctx_clock(x);
	g_strlcpy(b->end_ctx[b->ended], t ? task_name(t) : "irq",
		  sizeof(b->end_ctx[0]));
	b->ended++;
	bio_free(bio);
}

static void submit_one(struct bench *b, struct xctx *x)
{
	struct bio *bio = bio_alloc(x, loop_queue(b->lo), 1, false);

	bio->op = b->op;
	bio->sector = (uint64_t)b->submitted * 64;
	bio->size = b->size;
	bio->nr_segs = b->size ? (b->size + 4095) / 4096 : 0;
	bio->end_io = end_io;
	bio->private = b;
	submit_bio(x, bio);
	b->submitted++;
}

static void bench_handle(struct sim_component *c, unsigned type, void *ptr,
			 uint64_t arg)
{
	struct bench *b = (struct bench *)c;
	struct xctx *x = task_xctx(b->submitter);

	(void)type;
	(void)ptr;
	(void)arg;
	if (!b->gap) {
		while (b->submitted < b->nbios)
			submit_one(b, x);
		task_exit(b->submitter);
		return;
	}
	submit_one(b, x);
	if (b->submitted == b->nbios) {
		task_exit(b->submitter);
		return;
	}
	xctx_charge(x, stage_register("test_gap", CPU_USR, "the test's pause"),
		    b->gap);
	task_then(b->submitter, SIM_MSG(c, 0, NULL, 0));
}

static const struct sim_component_ops bench_ops = {
	.name = "bench",
	.handle = bench_handle,
};

static void setup(struct bench *b, bool direct_io)
{
	memset(b, 0, sizeof(*b));
	params_set_defaults(host_param_table, &b->hp);
	b->hp.ncpus = 2;
	params_set_defaults(blk_mq_param_table, &b->blk);
	params_set_defaults(workqueue_param_table, &b->wq);
	params_set_defaults(shmem_param_table, &b->sh);
	params_set_defaults(pagecache_param_table, &b->pc);
	params_set_defaults(loop_cpu_param_table, &b->cpu);
	params_set_defaults(loop_param_table, &b->lp);
	params_set_defaults(kernel_param_table, &b->kf);
	b->lp.direct_io = direct_io;
	sim_init(&b->s, 1);
	b->h = host_new(&b->s, &b->hp);
	b->lo = loop_new(b->h, "loop0", &b->lp, &b->cpu, &b->wq, &b->sh, &b->pc,
			 &b->blk, &b->kf);
	sim_component_init(&b->s, &b->c, &bench_ops, "bench");
	b->submitter = task_new(b->h, "fio", TASK_USER, 1, NULL);
	b->op = REQ_OP_READ;
	b->size = 4096;
	b->nbios = 1;
}

static void run(struct bench *b)
{
	task_start(b->submitter, SIM_MSG(&b->c, 0, NULL, 0));
	sim_run(&b->s, SIM_TIME_MAX);
}

static void teardown(struct bench *b)
{
	loop_free(b->lo);
	host_free(b->h);
	sim_destroy(&b->s);
	params_clear(host_param_table, &b->hp);
}

static sim_time stage_ns(struct bench *b, const char *name)
{
	const sim_time *ns = host_stage_ns(b->h);
	for (unsigned i = 0; i < stage_count(); i++)
		if (strcmp(stage_get((stage_id)i)->name, name) == 0)
			return ns[i];
	return 0;
}

static void test_read_is_served_and_completed_by_the_worker(void)
{
	struct bench b;
	setup(&b, false);
	run(&b);
	g_assert_cmpuint(b.ended, ==, 1);
	g_assert_cmpstr(b.end_ctx[0], ==, "kworker/u:loop0");
	g_assert_cmpuint(stage_ns(&b, "loop_queue_rq"), ==, b.cpu.queue_rq);
	g_assert_cmpuint(stage_ns(&b, "loop_handle_cmd"), ==, b.cpu.handle_cmd);
	g_assert_cmpuint(stage_ns(&b, "shmem_file_read_iter"), ==, b.sh.read_iter);
	g_assert_cmpuint(stage_ns(&b, "shmem_get_folio"), ==, b.sh.get_folio);
	g_assert_cmpuint(stage_ns(&b, "copy_to_iter"), ==,
			 (sim_time)(b.pc.copy_ns_per_kib * 4));
	g_assert_cmpuint(stage_ns(&b, "shmem_file_write_iter"), ==, 0);
	teardown(&b);
}

static void test_commands_queued_before_the_worker_runs_share_one_run(void)
{
	struct bench b;
	struct loop_stats st;
	setup(&b, false);
	b.nbios = 4;
	run(&b);
	loop_get_stats(b.lo, &st);
	g_assert_cmpuint(b.ended, ==, 4);
	g_assert_cmpuint(st.cmds, ==, 4);
	g_assert_cmpuint(st.work_runs, ==, 1);
	g_assert_cmpuint(stage_ns(&b, "queue_work"), ==, b.wq.queue_work);
	g_assert_cmpuint(stage_ns(&b, "process_one_work"), ==, b.wq.process_work);
	/* one after the other, in the order queued */
	for (unsigned i = 1; i < 4; i++)
		g_assert_cmpuint(b.end_at[i], >, b.end_at[i - 1]);
	teardown(&b);
}

static void test_a_command_after_the_worker_went_idle_queues_the_work_again(void)
{
	struct bench b;
	struct loop_stats st;
	setup(&b, false);
	b.nbios = 2;
	b.gap = 100000;	/* far longer than a command takes */
	run(&b);
	loop_get_stats(b.lo, &st);
	g_assert_cmpuint(b.ended, ==, 2);
	g_assert_cmpuint(st.work_runs, ==, 2);
	g_assert_cmpuint(stage_ns(&b, "queue_work"), ==, 2 * b.wq.queue_work);
	teardown(&b);
}

static void test_direct_io_on_tmpfs_takes_the_buffered_path(void)
{
	struct bench a, d;
	setup(&a, false);
	run(&a);
	setup(&d, true);
	run(&d);
	g_assert_cmpuint(a.ended, ==, 1);
	g_assert_cmpuint(d.ended, ==, 1);
	g_assert_cmpuint(a.end_at[0], ==, d.end_at[0]);
	teardown(&a);
	teardown(&d);
}

static void test_a_write_pays_write_begin_end_per_page(void)
{
	struct bench b;
	setup(&b, false);
	b.op = REQ_OP_WRITE;
	b.size = 16384;
	run(&b);
	g_assert_cmpuint(b.ended, ==, 1);
	g_assert_cmpuint(stage_ns(&b, "shmem_write_begin_end"), ==,
			 4 * b.sh.write_folio);
	g_assert_cmpuint(stage_ns(&b, "copy_from_iter"), ==,
			 (sim_time)(b.pc.copy_ns_per_kib * 16));
	g_assert_cmpuint(stage_ns(&b, "shmem_file_read_iter"), ==, 0);
	teardown(&b);
}

static void test_a_flush_copies_nothing(void)
{
	struct bench b;
	setup(&b, false);
	b.op = REQ_OP_FLUSH;
	b.size = 0;
	run(&b);
	g_assert_cmpuint(b.ended, ==, 1);
	g_assert_cmpstr(b.end_ctx[0], ==, "kworker/u:loop0");
	g_assert_cmpuint(stage_ns(&b, "copy_to_iter") + stage_ns(&b, "copy_from_iter"),
			 ==, 0);
	teardown(&b);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/loop/read-is-served-and-completed-by-the-worker",
			test_read_is_served_and_completed_by_the_worker);
	g_test_add_func("/loop/commands-queued-before-the-worker-runs-share-one-run",
			test_commands_queued_before_the_worker_runs_share_one_run);
	g_test_add_func("/loop/a-command-after-the-worker-went-idle-queues-the-work-again",
			test_a_command_after_the_worker_went_idle_queues_the_work_again);
	g_test_add_func("/loop/direct-io-on-tmpfs-takes-the-buffered-path",
			test_direct_io_on_tmpfs_takes_the_buffered_path);
	g_test_add_func("/loop/a-write-pays-write-begin-end-per-page",
			test_a_write_pays_write_begin_end_per_page);
	g_test_add_func("/loop/a-flush-copies-nothing", test_a_flush_copies_nothing);
	return g_test_run();
}
