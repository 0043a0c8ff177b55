/*
 * Description: buffered I/O on a simulated system (an NVMe drive, XFS,
 * one file), driven through the file's operations as a synchronous
 * caller drives them: writeback after a 4 KiB write writes the folio or
 * the block as the dirty-tracking switch says, fsync flushes the drive
 * only when it has a volatile write cache, a read miss reads the device
 * once and a repeated read not at all, readahead opens a window at the
 * start of the file or one folio past the last read and reads the next
 * from its marker, and a pre-read file needs no device read (also
 * through fio's pre_read).
 */
#include <glib.h>

#include "devices/nvme.h"
#include "drivers/nvme.h"
#include "system/system.h"
#include "system/workload.h"

#define K 1024

enum op_kind { OP_READ, OP_WRITE, OP_FSYNC, OP_FDATASYNC };

struct op {
	enum op_kind kind;
	uint64_t off;
	uint32_t len;
};

#define OPS_MAX 4

/* A task that runs ops one after the other, sleeping in each as a
 * synchronous syscall does, and notes what the device did after each. */
struct driver {
	struct sim_component c;
	struct blk_queue *q;
	struct task *t;
	struct sfile *f;
	const struct op *ops;
	unsigned nops, next;
	struct kiocb k;
	struct fsync_op fsync;
	bool done;
	long res[OPS_MAX];
	struct blk_disk_stats after[OPS_MAX];
};

enum { DRV_ISSUE, DRV_IO_DONE, DRV_FSYNC_DONE };

static void drv_ki_complete(struct xctx *x, struct kiocb *iocb, long res)
{
	struct driver *d = iocb->owner;

	iocb->res = res;
	d->done = true;
	if (xctx_task(x) != d->t)
		xctx_wake(x, d->t);
}

static void drv_issue(struct driver *d, struct xctx *x)
{
	const struct op *op = &d->ops[d->next];
	long ret;

	if (op->kind == OP_FSYNC || op->kind == OP_FDATASYNC) {
		d->fsync = (struct fsync_op){
			.file = d->f, .datasync = op->kind == OP_FDATASYNC,
			.task = d->t, .done = SIM_MSG(&d->c, DRV_FSYNC_DONE, NULL, 0),
		};
		d->f->ops->fsync(x, &d->fsync);
		return;
	}
	d->k = (struct kiocb){
		.file = d->f, .pos = op->off, .len = op->len, .nr_segs = 1,
		.write = op->kind == OP_WRITE, .sync_wait = true,
		.ki_complete = drv_ki_complete, .owner = d,
	};
	d->done = false;
	ret = d->k.write ? d->f->ops->write_iter(x, &d->k) :
	      d->f->ops->read_iter(x, &d->k);
	if (ret != -EIOCBQUEUED) {
		d->k.res = ret;
		d->k.dio_complete = NULL;
	}
	struct sim_msg next = SIM_MSG(&d->c, DRV_IO_DONE, NULL, 0);
	if (ret != -EIOCBQUEUED || d->done)
		task_then(d->t, next);
	else
		task_sleep(d->t, next);
}

static void drv_handle(struct sim_component *c, unsigned type, void *ptr,
		       uint64_t arg)
{
	struct driver *d = (struct driver *)c;
	struct xctx *x = task_xctx(d->t);

	(void)ptr;
	(void)arg;
	if (type != DRV_ISSUE) {
		if (type == DRV_FSYNC_DONE) {
			d->res[d->next] = d->fsync.res;
		} else {
			if (d->k.dio_complete)
				d->k.dio_complete(x, &d->k);
			d->res[d->next] = d->k.res;
		}
		blk_queue_disk_stats(d->q, &d->after[d->next]);
		if (++d->next == d->nops) {
			task_exit(d->t);
			return;
		}
	}
	drv_issue(d, x);
}

static const struct sim_component_ops drv_ops = {
	.name = "driver",
	.handle = drv_handle,
};

/* The system a case runs on. */
struct setup {
	const char *device;	/* NVMe profile */
	uint32_t page_size;
	const char *kernel;	/* one switch, or NULL */
	bool pre_read;
};

/* Build the system, open /f (1 MiB, written) buffered, run ops. */
static struct system *run_ops(const struct setup *s, const struct op *ops,
			      unsigned nops, struct driver *d)
{
	struct system_config cfg;
	g_autoptr(GError) err = NULL;

	g_assert_cmpuint(nops, <=, OPS_MAX);
	system_config_init(&cfg);
	g_ptr_array_add(cfg.devices, g_strdup_printf("nvme0n1=%s", s->device));
	g_ptr_array_add(cfg.mounts, g_strdup("/=xfs:nvme0n1"));
	g_ptr_array_add(cfg.files, g_strdup("/f=1m:written"));
	g_ptr_array_add(cfg.sets, g_strdup_printf("cpu.page_size=%u", s->page_size));
	if (s->kernel)
		g_ptr_array_add(cfg.kernel, g_strdup(s->kernel));
	struct system *sys = system_new(&cfg, &err);
	g_assert_no_error(err);
	system_config_clear(&cfg);

	struct env_open_args a = {.path = "/f"};
	*d = (struct driver){.ops = ops, .nops = nops};
	d->f = system_open_args(sys, &a, &err);
	g_assert_no_error(err);
	if (s->pre_read)
		d->f->ops->preload(d->f, 0, d->f->size);
	d->q = ((struct system_device *)sys->devices->pdata[0])->q;
	/* Count only what the ops do, not the drive's bring-up. */
	system_reset_stats(sys);
	sim_component_init(&sys->sim, &d->c, &drv_ops, "driver");
	d->t = task_new(sys->host, "driver", TASK_USER, 1, NULL);
	task_start(d->t, SIM_MSG(&d->c, DRV_ISSUE, NULL, 0));
	sim_run(&sys->sim, SIM_TIME_MAX);
	g_assert_cmpuint(d->next, ==, nops);
	return sys;
}

static const struct nvme_dev_counters *nvme_counters(struct system *sys)
{
	struct system_device *dev = sys->devices->pdata[0];
	return nvme_dev_get_counters(nvme_drv_device(dev->nvme));
}

/* ---- writeback granularity ---- */

struct wb_case {
	const char *path;
	struct setup s;
	uint64_t written;	/* bytes the fsync writes to the device */
};

/* The cases write 4 KiB into the second 64 KiB of the file: the folio's
 * other blocks are uptodate when the file was pre-read, and writeback
 * writes only blocks that are uptodate. */
static const struct wb_case wb_cases[] = {
	{"/buffered/writeback/4k-pages/per-folio",
	 {"optane-p5800x", 4 * K, "iomap_per_block_dirty=false", true}, 4 * K},
	{"/buffered/writeback/4k-pages/per-block",
	 {"optane-p5800x", 4 * K, "iomap_per_block_dirty=true", true}, 4 * K},
	{"/buffered/writeback/64k-pages/per-folio-writes-folio",
	 {"optane-p5800x", 64 * K, "iomap_per_block_dirty=false", true}, 64 * K},
	{"/buffered/writeback/64k-pages/per-block-writes-block",
	 {"optane-p5800x", 64 * K, "iomap_per_block_dirty=true", true}, 4 * K},
	{"/buffered/writeback/64k-pages/per-folio-cold-folio-writes-block",
	 {"optane-p5800x", 64 * K, "iomap_per_block_dirty=false", false}, 4 * K},
};

static void test_writeback(gconstpointer data)
{
	const struct wb_case *c = data;
	const struct op ops[] = {
		{OP_WRITE, 64 * K + 8 * K, 4 * K},
		{OP_FSYNC},
	};
	struct driver d;
	struct system *sys = run_ops(&c->s, ops, G_N_ELEMENTS(ops), &d);

	g_assert_cmpint(d.res[0], ==, 4 * K);
	g_assert_cmpint(d.res[1], ==, 0);
	/* The write only dirties the cache; the fsync writes. */
	g_assert_cmpuint(d.after[0].sectors[1], ==, 0);
	g_assert_cmpuint(d.after[1].sectors[1] * 512, ==, c->written);
	g_assert_cmpuint(d.after[1].sectors[0], ==, 0);
	system_free(sys);
}

/* ---- cache flush ---- */

struct flush_case {
	const char *path;
	const char *device;
	enum op_kind sync;
	uint64_t flushes;
};

/* optane-p5800x has no volatile write cache (VWC 0), nand-nvme one. */
static const struct flush_case flush_cases[] = {
	{"/buffered/fsync-flush/no-volatile-cache/fsync", "optane-p5800x", OP_FSYNC, 0},
	{"/buffered/fsync-flush/no-volatile-cache/fdatasync", "optane-p5800x",
	 OP_FDATASYNC, 0},
	{"/buffered/fsync-flush/volatile-cache/fsync", "nand-nvme", OP_FSYNC, 1},
	{"/buffered/fsync-flush/volatile-cache/fdatasync", "nand-nvme", OP_FDATASYNC, 1},
};

static void test_fsync_flush(gconstpointer data)
{
	const struct flush_case *c = data;
	const struct setup s = {c->device, 4 * K, NULL, false};
	const struct op ops[] = {{OP_WRITE, 0, 4 * K}, {c->sync}};
	struct driver d;
	struct system *sys = run_ops(&s, ops, G_N_ELEMENTS(ops), &d);

	g_assert_cmpint(d.res[1], ==, 0);
	g_assert_cmpuint(d.after[1].sectors[1] * 512, ==, 4 * K);
	g_assert_cmpuint(nvme_counters(sys)->flushes, ==, c->flushes);
	g_assert_cmpuint(nvme_counters(sys)->flushes_completed, ==, c->flushes);
	system_free(sys);
}

/* ---- reads ---- */

/* A block not in the cache is read from the device once; reading it
 * again finds it there. */
static void test_read_miss_then_hit(void)
{
	const struct setup s = {"optane-p5800x", 4 * K, NULL, false};
	const struct op ops[] = {{OP_READ, 20 * K, 4 * K}, {OP_READ, 20 * K, 4 * K}};
	struct driver d;
	struct system *sys = run_ops(&s, ops, G_N_ELEMENTS(ops), &d);

	g_assert_cmpint(d.res[0], ==, 4 * K);
	g_assert_cmpint(d.res[1], ==, 4 * K);
	g_assert_cmpuint(d.after[0].ios[0], ==, 1);
	g_assert_cmpuint(d.after[0].sectors[0] * 512, ==, 4 * K);
	g_assert_cmpuint(d.after[1].ios[0], ==, 1);
	system_free(sys);
}

/* page_cache_sync_ra: the first read of the file opens a stream's first
 * window, four times a 4 KiB read (get_init_ra_size), in one device
 * read. */
static void test_first_read_reads_initial_window(void)
{
	const struct setup s = {"optane-p5800x", 4 * K, NULL, false};
	const struct op ops[] = {{OP_READ, 0, 4 * K}};
	struct driver d;
	struct system *sys = run_ops(&s, ops, G_N_ELEMENTS(ops), &d);

	g_assert_cmpint(d.res[0], ==, 4 * K);
	g_assert_cmpuint(d.after[0].ios[0], ==, 1);
	g_assert_cmpuint(d.after[0].sectors[0] * 512, ==, 16 * K);
	system_free(sys);
}

/* A miss one folio past where the last read ended is sequential
 * (filemap_read's ra->prev_pos): it opens a window too, where a read
 * elsewhere with nothing cached before it reads only itself. */
static void test_read_one_past_last_opens_window(void)
{
	const struct setup s = {"optane-p5800x", 4 * K, NULL, false};
	const struct op ops[] = {{OP_READ, 20 * K, 4 * K}, {OP_READ, 28 * K, 4 * K}};
	struct driver d;
	struct system *sys = run_ops(&s, ops, G_N_ELEMENTS(ops), &d);

	g_assert_cmpuint(d.after[0].sectors[0] * 512, ==, 4 * K);
	g_assert_cmpuint(d.after[1].ios[0], ==, 2);
	g_assert_cmpuint(d.after[1].sectors[0] * 512, ==, 4 * K + 16 * K);
	system_free(sys);
}

/* The readahead marker (PG_readahead) on the second folio of the first
 * window: reading that cached folio reads the next window, twice as
 * large (page_cache_async_ra); the reader does not wait for it. */
static void test_readahead_marker_reads_next_window(void)
{
	const struct setup s = {"optane-p5800x", 4 * K, NULL, false};
	const struct op ops[] = {{OP_READ, 0, 4 * K}, {OP_READ, 4 * K, 4 * K}};
	struct driver d;
	struct blk_disk_stats all;
	struct system *sys = run_ops(&s, ops, G_N_ELEMENTS(ops), &d);

	g_assert_cmpint(d.res[1], ==, 4 * K);
	g_assert_cmpuint(d.after[0].ios[0], ==, 1);
	g_assert_cmpuint(d.after[1].ios[0], ==, 1);	/* still in flight */
	blk_queue_disk_stats(d.q, &all);
	g_assert_cmpuint(all.ios[0], ==, 2);
	g_assert_cmpuint(all.sectors[0] * 512, ==, 16 * K + 32 * K);
	system_free(sys);
}

/* fio's pre_read puts the whole file in the cache before the job. */
static void test_pre_read_leaves_nothing_to_read(void)
{
	const struct setup s = {"optane-p5800x", 4 * K, NULL, true};
	const struct op ops[] = {
		{OP_READ, 0, 4 * K},
		{OP_READ, 512 * K, 64 * K},
		{OP_READ, 1024 * K - 4 * K, 4 * K},
	};
	struct driver d;
	struct system *sys = run_ops(&s, ops, G_N_ELEMENTS(ops), &d);

	g_assert_cmpint(d.res[1], ==, 64 * K);
	g_assert_cmpint(d.res[2], ==, 4 * K);
	g_assert_cmpuint(d.after[2].ios[0], ==, 0);
	system_free(sys);
}

/* The same through fio: pre_read=1 puts the file in the cache before
 * the job, so its 4096 reads leave the device idle; without it each
 * block is read from the device once. */
static void test_fio_pre_read(gconstpointer data)
{
	bool pre_read = GPOINTER_TO_INT(data);
	struct system_config cfg;
	struct run_metrics m = {0};
	g_autoptr(GError) err = NULL;
	g_autofree char *job = g_test_build_filename(G_TEST_DIST, "tests", "unit",
						     "buffered-randread.fio", NULL);
	char *env[] = {"ENGINE=psync", "DEPTH=1",
		       pre_read ? "PRE_READ=1" : "PRE_READ=0", NULL};

	system_config_init(&cfg);
	g_ptr_array_add(cfg.files, g_strdup("/f=16m:written"));
	g_assert_true(workload_fio(&cfg, job, env, &m, &err));
	g_assert_no_error(err);
	g_assert_cmpuint(m.ios, ==, 4096);
	g_assert_cmpuint(m.dev_bytes[0], ==, pre_read ? 0 : 16 << 20);
	run_metrics_clear(&m);
	system_config_clear(&cfg);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	for (unsigned i = 0; i < G_N_ELEMENTS(wb_cases); i++)
		g_test_add_data_func(wb_cases[i].path, &wb_cases[i], test_writeback);
	for (unsigned i = 0; i < G_N_ELEMENTS(flush_cases); i++)
		g_test_add_data_func(flush_cases[i].path, &flush_cases[i],
				     test_fsync_flush);
	g_test_add_func("/buffered/read-miss-then-hit", test_read_miss_then_hit);
	g_test_add_func("/buffered/readahead/first-read-reads-initial-window",
			test_first_read_reads_initial_window);
	g_test_add_func("/buffered/readahead/read-one-past-last-opens-window",
			test_read_one_past_last_opens_window);
	g_test_add_func("/buffered/readahead/marker-reads-next-window",
			test_readahead_marker_reads_next_window);
	g_test_add_func("/buffered/pre-read-leaves-nothing-to-read",
			test_pre_read_leaves_nothing_to_read);
	g_test_add_data_func("/buffered/fio/pre-read-reads-nothing",
			     GINT_TO_POINTER(1), test_fio_pre_read);
	g_test_add_data_func("/buffered/fio/no-pre-read-reads-each-block-once",
			     GINT_TO_POINTER(0), test_fio_pre_read);
	return g_test_run();
}
