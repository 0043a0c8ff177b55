/*
 * Description: NVMe passthrough through io_uring (IORING_OP_URING_CMD on
 * /dev/ng0n1), driven from a task that submits on a ring of its own.
 * Where the SQE is copied into the command's async data: at prep for
 * every command on the stock kernel; on the patched one only for a
 * command forced async (IOSQE_ASYNC) or refused with -EAGAIN (no free
 * tag), at that moment; a command that went async reads the copy even
 * after its ring entry was reused. And the checks of the path: 128-byte
 * SQEs and 32-byte CQEs, no writes through a read-only open, polled
 * completion without interrupts.
 */
#include <glib.h>

#include "drivers/nvme_ioctl.h"
#include "syscalls/io_uring.h"
#include "system/system.h"

#define MAX_CMDS 64

struct prog {
	struct sim_component c;
	struct system *sys;
	struct task *task;
	struct io_ring *ring;
	struct sfile *f;
	unsigned ncmds;		/* passthrough reads to submit */
	bool write;		/* writes instead */
	bool force_async;	/* IOSQE_ASYNC on each */
	bool clobber;		/* then overwrite the ring with NOPs */
	unsigned step, reaped, expected;
	long res[MAX_CMDS];
	uint64_t lba_seen[MAX_CMDS];
	bool seen[MAX_CMDS];
	unsigned nops_ok;
};

struct opts {
	const char *kernel;	/* a --kernel setting, or NULL */
	const char *set;	/* a --set, or NULL */
	bool iopoll, sqe128_cqe32, writable;
};

static void push_cmds(struct prog *p)
{
	for (unsigned i = 0; i < p->ncmds; i++) {
		struct nvme_uring_cmd cmd = {
			.opcode = p->write ? 0x01 : 0x02, .nsid = 1,
			.slba = 8 * i, .nlb = 7, .data_len = 4096, .nr_segs = 1,
		};
		struct io_sqe sqe = {
			.op = IO_OP_URING_CMD, .file = p->f,
			.cmd_op = NVME_URING_CMD_IO, .fixed_buf = true,
			.force_async = p->force_async,
			.user_data = (void *)(uintptr_t)(i + 1),
		};
		nvme_uring_cmd_put(sqe.cmd, &cmd);
		g_assert_true(io_ring_sqe_push(p->ring, &sqe));
	}
}

/* NOPs whose command area says nothing a driver would take. */
static void push_clobber(struct prog *p)
{
	for (unsigned i = 0; i < p->ncmds; i++) {
		struct io_sqe sqe = {.op = IO_OP_NOP,
				     .user_data = (void *)(uintptr_t)(1000 + i)};
		memset(sqe.cmd, 0xff, sizeof(sqe.cmd));
		g_assert_true(io_ring_sqe_push(p->ring, &sqe));
	}
}

static void reap(struct prog *p)
{
	struct io_cqe cqe;

	while (io_ring_cq_pop(p->ring, &cqe)) {
		uintptr_t ud = (uintptr_t)cqe.user_data;
		p->reaped++;
		if (ud >= 1000) {
			p->nops_ok += cqe.res == 0;
			continue;
		}
		g_assert_cmpuint(ud, >=, 1);
		g_assert_cmpuint(ud, <=, p->ncmds);
		g_assert_false(p->seen[ud - 1]);
		p->seen[ud - 1] = true;
		p->res[ud - 1] = cqe.res;
	}
}

static void prog_step(struct sim_component *c, unsigned type, void *ptr,
		      uint64_t arg)
{
	struct prog *p = (struct prog *)c;
	struct sim_msg next = SIM_MSG(c, 0, NULL, 0);

	switch (p->step++) {
	case 0:
		push_cmds(p);
		io_uring_enter(p->ring, p->ncmds, 0, 0, next);
		return;
	case 1:
		if (p->clobber) {
			push_clobber(p);
			io_uring_enter(p->ring, p->ncmds, 0, 0, next);
			return;
		}
		/* fall through */
	default:
		reap(p);
		if (p->reaped == p->expected) {
			task_exit(p->task);
			return;
		}
		io_uring_enter(p->ring, 0, 1, IORING_ENTER_GETEVENTS, next);
		return;
	}
}

static const struct sim_component_ops prog_ops = {
	.name = "prog",
	.handle = prog_step,
};

/* Run the program on a system with one NVMe drive; st gets the ring's
 * counts. */
static void run(struct prog *p, const struct opts *o, struct io_ring_cmd_stats *st)
{
	struct system_config cfg;
	g_autoptr(GError) err = NULL;

	system_config_init(&cfg);
	g_ptr_array_add(cfg.devices, g_strdup("nvme0n1=optane-p5800x"));
	if (o->kernel)
		g_ptr_array_add(cfg.kernel, g_strdup(o->kernel));
	if (o->set)
		g_ptr_array_add(cfg.sets, g_strdup(o->set));
	if (o->iopoll)
		g_ptr_array_add(cfg.sets, g_strdup("nvme_drv.poll_queues=1"));
	p->sys = system_new(&cfg, &err);
	g_assert_no_error(err);
	system_config_clear(&cfg);

	struct env_open_args a = {.path = "/dev/ng0n1", .writable = o->writable};
	p->f = system_open_args(p->sys, &a, &err);
	g_assert_no_error(err);
	struct cpumask cpu0 = {{1}};
	p->task = task_new(p->sys->host, "prog", TASK_USER, 1, &cpu0);
	struct io_ring_config rc = {
		.sq_entries = p->ncmds, .cq_entries = 2 * p->ncmds,
		.iopoll = o->iopoll, .fixed_files = true,
		.sqe128 = o->sqe128_cqe32, .cqe32 = o->sqe128_cqe32,
	};
	p->ring = io_ring_new(p->sys->host, p->task, &p->sys->sp.io_uring,
			      &p->sys->sp.io_wq, &p->sys->kf, &rc);
	p->expected = p->ncmds * (p->clobber ? 2 : 1);
	sim_component_init(&p->sys->sim, &p->c, &prog_ops, "prog");
	task_start(p->task, SIM_MSG(&p->c, 0, NULL, 0));
	sim_run(&p->sys->sim, SIM_SEC);
	g_assert_cmpuint(p->reaped, ==, p->expected);
	io_ring_cmd_stats(p->ring, st);
}

static void done(struct prog *p)
{
	io_ring_free(p->ring);
	system_free(p->sys);
}

static void assert_all_ok(const struct prog *p)
{
	for (unsigned i = 0; i < p->ncmds; i++) {
		g_assert_true(p->seen[i]);
		g_assert_cmpint(p->res[i], ==, 0);
	}
}

static const struct opts plain = {.sqe128_cqe32 = true};
static const struct opts stock = {.sqe128_cqe32 = true,
				  .kernel = "uring_cmd_defer_sqe_copy=false"};
/* io_queue_depth 4: three tags per hardware queue for 16 commands. */
#define FEW_TAGS "nvme_drv.io_queue_depth=4"

static void test_stock_copies_at_prep(void)
{
	struct prog p = {.ncmds = 16};
	struct io_ring_cmd_stats st;

	run(&p, &stock, &st);
	assert_all_ok(&p);
	g_assert_cmpuint(st.cmds, ==, 16);
	g_assert_cmpuint(st.copies_at_prep, ==, 16);
	g_assert_cmpuint(st.copies_at_eagain, ==, 0);
	g_assert_cmpuint(st.punted, ==, 0);
	done(&p);
}

static void test_patched_copies_nothing_inline(void)
{
	struct prog p = {.ncmds = 16};
	struct io_ring_cmd_stats st;

	run(&p, &plain, &st);
	assert_all_ok(&p);
	g_assert_cmpuint(st.cmds, ==, 16);
	g_assert_cmpuint(st.copies_at_prep + st.copies_at_eagain, ==, 0);
	done(&p);
}

static void test_patched_copies_on_eagain(void)
{
	struct prog p = {.ncmds = 16, .clobber = true};
	struct opts o = plain;
	struct io_ring_cmd_stats st;

	o.set = FEW_TAGS;
	run(&p, &o, &st);
	/* Those refused went to io-wq with a copy, and read it there after
	 * the NOPs overwrote their ring entries. */
	assert_all_ok(&p);
	g_assert_cmpuint(p.nops_ok, ==, 16);
	g_assert_cmpuint(st.copies_at_prep, ==, 0);
	g_assert_cmpuint(st.copies_at_eagain, ==, 13);
	g_assert_cmpuint(st.punted, ==, 13);
	done(&p);
}

static void test_stock_copies_once_on_eagain(void)
{
	struct prog p = {.ncmds = 16, .clobber = true};
	struct opts o = stock;
	struct io_ring_cmd_stats st;

	o.set = FEW_TAGS;
	run(&p, &o, &st);
	assert_all_ok(&p);
	g_assert_cmpuint(st.copies_at_prep, ==, 16);
	g_assert_cmpuint(st.copies_at_eagain, ==, 0);
	g_assert_cmpuint(st.punted, ==, 13);
	done(&p);
}

static void test_patched_copies_forced_async_at_prep(void)
{
	struct prog p = {.ncmds = 16, .force_async = true, .clobber = true};
	struct io_ring_cmd_stats st;

	run(&p, &plain, &st);
	assert_all_ok(&p);
	g_assert_cmpuint(st.copies_at_prep, ==, 16);
	g_assert_cmpuint(st.copies_at_eagain, ==, 0);
	g_assert_cmpuint(st.punted, ==, 16);
	done(&p);
}

static void test_polled_without_interrupts(void)
{
	struct prog p = {.ncmds = 16};
	struct opts o = plain;
	struct io_ring_cmd_stats st;
	struct cpu_usage u;

	o.iopoll = true;
	run(&p, &o, &st);
	assert_all_ok(&p);
	cpu_usage(host_cpu(p.sys->host, 0), &u);
	g_assert_cmpuint(u.irqs, ==, 0);
	done(&p);
}

static void test_needs_big_sqes_and_cqes(void)
{
	struct prog p = {.ncmds = 4};
	struct opts o = plain;
	struct io_ring_cmd_stats st;

	o.sqe128_cqe32 = false;
	run(&p, &o, &st);
	for (unsigned i = 0; i < p.ncmds; i++)
		g_assert_cmpint(p.res[i], ==, -95);	/* -EOPNOTSUPP */
	done(&p);
}

static void test_write_needs_writable_open(void)
{
	struct prog p = {.ncmds = 4, .write = true};
	struct prog q = {.ncmds = 4, .write = true};
	struct opts o = plain;
	struct io_ring_cmd_stats st;

	run(&p, &o, &st);
	for (unsigned i = 0; i < p.ncmds; i++)
		g_assert_cmpint(p.res[i], ==, -13);	/* -EACCES */
	done(&p);
	o.writable = true;
	run(&q, &o, &st);
	assert_all_ok(&q);
	done(&q);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/uring-cmd/stock-copies-every-sqe-at-prep",
			test_stock_copies_at_prep);
	g_test_add_func("/uring-cmd/patched-copies-nothing-inline",
			test_patched_copies_nothing_inline);
	g_test_add_func("/uring-cmd/patched-copies-on-eagain-and-worker-reads-copy",
			test_patched_copies_on_eagain);
	g_test_add_func("/uring-cmd/stock-copies-once-on-eagain",
			test_stock_copies_once_on_eagain);
	g_test_add_func("/uring-cmd/patched-copies-forced-async-at-prep",
			test_patched_copies_forced_async_at_prep);
	g_test_add_func("/uring-cmd/polled-completes-without-interrupts",
			test_polled_without_interrupts);
	g_test_add_func("/uring-cmd/needs-128-byte-sqes-and-32-byte-cqes",
			test_needs_big_sqes_and_cqes);
	g_test_add_func("/uring-cmd/write-needs-writable-open",
			test_write_needs_writable_open);
	return g_test_run();
}
