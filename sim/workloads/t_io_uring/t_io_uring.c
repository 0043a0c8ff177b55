/*
 * t/io_uring: fio's raw io_uring benchmark, simulated.
 *
 * Stands for fio's t/io_uring.c (fio 3.33): each submitter thread keeps up
 * to -d reads in flight on its files; it prepares up to -s SQEs at a time,
 * submits them with one io_uring_enter, waits for -c completions when the
 * ring is full, and reaps every CQE that is there. The main thread prints
 * IOPS, bandwidth and I/Os per call once a (simulated) second, and at the
 * end "Maximum IOPS". The submit loop and the way it chooses how many to
 * submit and to wait for follow t/io_uring.c; as there, IOPS counts
 * submitted I/Os.
 *
 * Parameters (host profile, model "t_io_uring"), user CPU time (ns):
 *   prep_ns  per SQE prepared (random offset, SQE fill)
 *   reap_ns  per CQE reaped
 *   loop_ns  per pass of the submit loop
 *
 * Passthrough (-u1): the files are NVMe generic character devices
 * (/dev/ngXnY); the ring has 128-byte SQEs and 32-byte CQEs and each read
 * is an IORING_OP_URING_CMD carrying an NVMe Read (init_io_pt): cmd_op
 * NVME_URING_CMD_IO, a registered buffer with -B1 (IORING_URING_CMD_FIXED),
 * a CQE result of 0 for success. -O does not apply to it.
 *
 * Left out: -a (libaio), -S (preadv2), -N (no-op), -t latency tracking,
 * -X, -P, -D. Polled rings (-p1) poll the device's poll queues
 * (nvme_drv.poll_queues); without any, completions come by interrupt.
 */
#include <glib.h>
#include <string.h>

#include "t_io_uring.h"
#include "drivers/nvme_ioctl.h"
#include "workloads/env.h"
#include "engine/util.h"

#define P(field) offsetof(struct t_io_uring_params, field)
const struct param_def t_io_uring_param_table[] = {
	{"prep_ns", PARAM_TIME, P(prep), "20", 0, 1e6, "ns",
	 "user time per SQE prepared: random offset, SQE fill"},
	{"reap_ns", PARAM_TIME, P(reap), "10", 0, 1e6, "ns",
	 "user time per CQE reaped"},
	{"loop_ns", PARAM_TIME, P(loop), "20", 0, 1e6, "ns",
	 "user time per pass of the submit loop"},
	PARAM_END,
};

#define MAX_FDS 16

struct submitter {
	struct sim_component comp;
	struct t_io_uring *t;
	char name[32];
	struct task *task;
	struct io_ring *ring;
	struct sfile *files[MAX_FDS];
	uint64_t max_blocks[MAX_FDS];
	unsigned nfiles, cur_file;
	unsigned pending[MAX_FDS];
	uint64_t seq_block[MAX_FDS];
	unsigned inflight, prepped, to_submit;
	uint64_t done, calls, reaps;
	/* Latency by layer: a trace per I/O in flight, its slot in the CQE's
	 * user_data beside the file's index, and when it was prepped. */
	struct io_trace *traces;
	sim_time *started;
	unsigned *free_slots, nfree;
	/* --timeline: the I/Os' offsets, per slot, and the job's index */
	uint64_t *offsets;
	unsigned iotl_job;
};

struct t_io_uring {
	struct sim_component comp;	/* the main thread's one-second tick */
	struct workload_env env;	/* the machine it runs on */
	struct t_io_uring_opts o;
	struct t_io_uring_params p;
	struct submitter *subs;
	unsigned nsubs;
	GString *out;
	uint64_t last_done, last_calls, last_reaps;
	uint64_t max_iops;
	bool trace_layers;
	struct io_layers layers;
	double iops_sum, submit_sum, reap_sum;
	unsigned samples;
	unsigned seconds_left;
	uint32_t page_size;
};

enum { SUB_LOOP, SUB_SUBMIT, SUB_ENTERED };
enum { MAIN_TICK };

static stage_id st_prep, st_reap, st_loop;

void t_io_uring_opts_default(struct t_io_uring_opts *o)
{
	*o = (struct t_io_uring_opts){
		.depth = 128, .batch_submit = 32, .batch_complete = 32,
		.bs = 4096, .polled = true, .fixedbufs = true,
		.register_files = true, .nthreads = 1, .odirect = true,
		.runtime = 0, .random_io = true, .passthrough = false,
	};
}

static unsigned file_depth(const struct submitter *s)
{
	return (s->t->o.depth + s->nfiles - 1) / s->nfiles;
}

static uint64_t next_offset(struct submitter *s, unsigned fi)
{
	uint64_t block;

	if (s->t->o.random_io) {
		block = sim_rng_next(&s->comp.rng) % (s->max_blocks[fi] - 1);
	} else {
		block = s->seq_block[fi]++;
		if (s->seq_block[fi] >= s->max_blocks[fi])
			s->seq_block[fi] = 0;
	}
	return block * s->t->o.bs;
}

/* init_io_pt: the read as an NVMe command in the SQE's command area. */
static void pt_cmd(struct io_sqe *sqe, const struct sfile *f, uint32_t segs)
{
	struct nvme_uring_cmd cmd = {
		.opcode = 0x02, .nsid = 1,
		.slba = sqe->off / f->blksize,
		.nlb = sqe->len / f->blksize - 1,
		.data_len = sqe->len, .nr_segs = segs,
	};
	sqe->op = IO_OP_URING_CMD;
	sqe->cmd_op = NVME_URING_CMD_IO;
	nvme_uring_cmd_put(sqe->cmd, &cmd);
}

static unsigned prep_more(struct submitter *s, struct xctx *x, unsigned n)
{
	const struct t_io_uring_opts *o = &s->t->o;
	uint32_t segs = o->bs > s->t->page_size ? o->bs / s->t->page_size : 1;

	sim_time now = s->t->trace_layers ? xctx_clock(x) : 0;

	for (unsigned i = 0; i < n; i++) {
		unsigned fi = 0;
		if (s->nfiles > 1) {
			fi = s->cur_file;
			if (s->pending[fi] >= file_depth(s)) {
				s->cur_file = (s->cur_file + 1) % s->nfiles;
				fi = s->cur_file;
			}
		}
		s->pending[fi]++;
		struct io_sqe sqe = {
			.op = IO_OP_READ,
			.fixed_buf = o->fixedbufs,
			.file = s->files[fi],
			.off = next_offset(s, fi),
			.len = o->bs,
			.nr_segs = segs,
			.kiflags = o->odirect ? KI_DIRECT : 0,
			.user_data = (void *)(uintptr_t)fi,
		};
		if (o->passthrough)
			pt_cmd(&sqe, s->files[fi], segs);
		if (s->t->trace_layers) {
			unsigned slot = s->free_slots[--s->nfree];
			io_trace_reset(&s->traces[slot]);
			s->started[slot] = now;
			s->offsets[slot] = sqe.off;
			sqe.trace = &s->traces[slot];
			sqe.user_data = (void *)(uintptr_t)(slot * MAX_FDS + fi);
		}
		g_assert(io_ring_sqe_push(s->ring, &sqe));
	}
	xctx_charge(x, st_prep, s->t->p.prep * n);
	return n;
}

/* The I/O's span on the timeline: t/io_uring reads. */
static void timeline_io(struct submitter *s, unsigned slot, sim_time now)
{
	struct io_span sp = {
		.start = s->started[slot], .end = now, .tr = s->traces[slot],
		.offset = s->offsets[slot], .size = s->t->o.bs, .dir = IO_SPAN_READ,
		.job = (uint16_t)s->iotl_job,
	};
	io_timeline_add(s->t->env.iotl, &sp);
}

static unsigned reap(struct submitter *s, struct xctx *x)
{
	struct io_cqe cqe;
	unsigned n = 0;

	sim_time now = s->t->trace_layers ? xctx_clock(x) : 0;

	while (io_ring_cq_pop(s->ring, &cqe)) {
		uintptr_t ud = (uintptr_t)cqe.user_data;
		s->pending[ud % MAX_FDS]--;
		if (s->t->trace_layers) {
			unsigned slot = (unsigned)(ud / MAX_FDS);
			io_layers_add(&s->t->layers, s->started[slot],
				      &s->traces[slot], now);
			if (s->t->env.iotl)
				timeline_io(s, slot, now);
			s->free_slots[s->nfree++] = slot;
		}
		n++;
	}
	xctx_charge(x, st_reap, s->t->p.reap * n);
	s->inflight -= n;
	return n;
}

static void submit(struct submitter *s)
{
	const struct t_io_uring_opts *o = &s->t->o;
	unsigned to_wait;

	/* As t/io_uring: inflight already counts what is being submitted. */
	if (s->to_submit && s->inflight + s->to_submit <= o->depth)
		to_wait = 0;
	else
		to_wait = MIN(s->inflight + s->to_submit, o->batch_complete);
	io_uring_enter(s->ring, s->to_submit, to_wait,
		       to_wait ? IORING_ENTER_GETEVENTS : 0,
		       SIM_MSG(&s->comp, SUB_ENTERED, NULL, 0));
}

static void sub_handle(struct sim_component *c, unsigned type, void *ptr,
		       uint64_t arg)
{
	struct submitter *s = (struct submitter *)c;
	const struct t_io_uring_opts *o = &s->t->o;
	struct xctx *x = task_xctx(s->task);

	switch (type) {
	case SUB_LOOP:
		xctx_charge(x, st_loop, s->t->p.loop);
		if (!s->prepped && s->inflight < o->depth)
			s->prepped = prep_more(s, x, MIN(o->depth - s->inflight,
							o->batch_submit));
		s->inflight += s->prepped;
		s->to_submit = s->prepped;
		submit(s);
		return;
	case SUB_SUBMIT:
		submit(s);
		return;
	case SUB_ENTERED: {
		unsigned ret = io_ring_last_submitted(s->ring);
		s->calls++;
		s->reaps += reap(s, x);
		if (ret == 0) {
			s->to_submit = 0;
			task_then(s->task, SIM_MSG(c, s->inflight ? SUB_SUBMIT : SUB_LOOP,
						   NULL, 0));
			return;
		}
		s->done += ret;
		if (ret < s->to_submit) {
			s->prepped -= s->to_submit - ret;
			s->to_submit = s->prepped;
			task_then(s->task, SIM_MSG(c, SUB_SUBMIT, NULL, 0));
			return;
		}
		s->prepped = 0;
		task_then(s->task, SIM_MSG(c, SUB_LOOP, NULL, 0));
		return;
	}
	}
}

static const struct sim_component_ops sub_ops = {
	.name = "t_io_uring.submitter",
	.handle = sub_handle,
};

static void print_iops(GString *out, const char *what, uint64_t iops)
{
	if (iops > 1000000)
		g_string_append_printf(out, "%s=%.2fM", what, iops / 1000000.0);
	else if (iops > 100000)
		g_string_append_printf(out, "%s=%.2fK", what, iops / 1000.0);
	else
		g_string_append_printf(out, "%s=%" G_GUINT64_FORMAT, what, iops);
}

static void main_tick(struct t_io_uring *t)
{
	uint64_t done = 0, calls = 0, reaps = 0;

	if (t->seconds_left && --t->seconds_left == 0) {
		g_string_append(t->out, "Exiting on timeout\n");
		print_iops(t->out, "Maximum IOPS", t->max_iops);
		g_string_append_c(t->out, '\n');
		t->comp.sim->stop = true;
		return;
	}
	for (unsigned i = 0; i < t->nsubs; i++) {
		done += t->subs[i].done;
		calls += t->subs[i].calls;
		reaps += t->subs[i].reaps;
	}
	uint64_t iops = done - t->last_done;
	uint64_t bs = t->o.bs;
	uint64_t bw = bs > 1048576 ? iops * (bs / 1048576) : iops / (1048576 / bs);
	long rpc = -1, ipc = -1;
	if (calls - t->last_calls) {
		rpc = (long)((done - t->last_done) / (calls - t->last_calls));
		ipc = (long)((reaps - t->last_reaps) / (calls - t->last_calls));
		t->submit_sum += (double)(done - t->last_done) / (calls - t->last_calls);
		t->reap_sum += (double)(reaps - t->last_reaps) / (calls - t->last_calls);
	}
	print_iops(t->out, "IOPS", iops);
	if (bw > 2000)
		g_string_append_printf(t->out, ", BW=%.2fGiB/s", bw / 1000.0);
	else
		g_string_append_printf(t->out, ", BW=%" G_GUINT64_FORMAT "MiB/s", bw);
	g_string_append_printf(t->out, ", IOS/call=%ld/%ld\n", rpc, ipc);
	if (iops > t->max_iops)
		t->max_iops = iops;
	t->iops_sum += iops;
	t->samples++;
	t->last_done = done;
	t->last_calls = calls;
	t->last_reaps = reaps;
	sim_after(t->comp.sim, SIM_SEC, &t->comp, MAIN_TICK, NULL, 0);
}

static void main_handle(struct sim_component *c, unsigned type, void *ptr,
			uint64_t arg)
{
	main_tick((struct t_io_uring *)c);
}

static const struct sim_component_ops main_ops = {
	.name = "t_io_uring.main",
	.handle = main_handle,
};

struct t_io_uring *t_io_uring_new(const struct workload_env *env,
				  const struct t_io_uring_opts *o,
				  char **files, int nfiles, GError **err)
{
	struct t_io_uring *t;
	unsigned per_file, rem = 0, j = 0;

	if (nfiles < 1) {
		storsim_input_error(err, "command line", 0, NULL, "No files specified");
		return NULL;
	}
	if (o->depth == 0 || o->nthreads == 0 || o->bs == 0) {
		storsim_input_error(err, "command line", 0, o->depth == 0 ? "-d" :
				    o->nthreads == 0 ? "-n" : "-b", "must not be 0");
		return NULL;
	}
	if (o->runtime == 0) {
		storsim_input_error(err, "command line", 0, "-r",
				    "a simulated run needs a runtime in seconds");
		return NULL;
	}
	/* An IOPOLL ring fails buffered reads with -EOPNOTSUPP, on which
	 * t/io_uring stops; the model does not check CQE results. */
	if (o->polled && !o->odirect && !o->passthrough) {
		storsim_unsupported_error(err, "command line", 0, "-p",
					  "polled I/O needs O_DIRECT: with -O0, "
					  "every read fails; use -p0");
		return NULL;
	}
	st_prep = stage_register("t_io_uring_prep", CPU_USR, "prep_more_ios_uring");
	st_reap = stage_register("t_io_uring_reap", CPU_USR, "reap_events_uring");
	st_loop = stage_register("t_io_uring_loop", CPU_USR, "submitter_uring_fn");

	t = g_new0(struct t_io_uring, 1);
	t->env = *env;
	t->o = *o;
	t->o.batch_complete = MIN(o->batch_complete, o->depth);
	t->o.batch_submit = MIN(o->batch_submit, o->depth);
	t->p = *(const struct t_io_uring_params *)env->costs;
	t->page_size = (uint32_t)env->sp->cpu.page_size;
	t->nsubs = o->nthreads;
	t->subs = g_new0(struct submitter, t->nsubs);
	sim_component_init(env->sim, &t->comp, &main_ops, "t_io_uring");

	per_file = o->nthreads / (unsigned)nfiles;
	if (per_file == 0)
		per_file = 1;
	else
		rem = o->nthreads - per_file * (unsigned)nfiles;
	for (int i = 0; i < nfiles; i++) {
		struct env_open_args a = {.path = files[i],
					     .direct = o->odirect && !o->passthrough};
		struct sfile *f = env_open(env, &a, err);
		if (!f) {
			t_io_uring_free(t);
			return NULL;
		}
		if (o->passthrough && !f->ops->uring_cmd) {
			storsim_input_error(err, "command line", 0, files[i],
					    "-u1 needs an NVMe generic character "
					    "device (/dev/ngXnY): nvme_get_info fails on it");
			t_io_uring_free(t);
			return NULL;
		}
		if (o->passthrough && o->bs % f->blksize) {
			storsim_input_error(err, "command line", 0, "-b",
					    "error: bs:%u should be a multiple "
					    "logical_block_size:%u", o->bs, f->blksize);
			t_io_uring_free(t);
			return NULL;
		}
		if (f->size / o->bs <= 2) {
			storsim_input_error(err, "command line", 0, files[i],
					    "Zero file/device size?");
			t_io_uring_free(t);
			return NULL;
		}
		unsigned limit = per_file + (rem > 0 ? 1 : 0);
		for (unsigned k = 0; k < limit; k++) {
			struct submitter *s = &t->subs[(j + k) % t->nsubs];
			if (s->nfiles == MAX_FDS)
				break;
			s->files[s->nfiles] = f;
			s->max_blocks[s->nfiles] = f->size / o->bs - 1;
			s->nfiles++;
		}
		if (rem)
			rem--;
		j += limit;
	}
	for (unsigned i = 0; i < t->nsubs; i++) {
		struct submitter *s = &t->subs[i];
		struct io_ring_config rc = {
			.sq_entries = o->depth, .cq_entries = o->depth,
			.iopoll = o->polled, .fixed_files = o->register_files,
			.sqe128 = o->passthrough, .cqe32 = o->passthrough,
		};
		s->t = t;
		g_snprintf(s->name, sizeof(s->name), "submitter%u", i);
		sim_component_init(env->sim, &s->comp, &sub_ops, s->name);
		s->task = task_new(env->host, s->name, TASK_USER, 1, NULL);
		s->ring = io_ring_new(env->host, s->task, &env->sp->io_uring,
				      &env->sp->io_wq, env->kf, &rc);
	}
	/* --timeline: every I/O's span, from the stamps layers collect. */
	if (env->iotl)
		t_io_uring_trace_layers(t);
	return t;
}

void t_io_uring_run(struct t_io_uring *t, GString *out)
{
	const struct t_io_uring_opts *o = &t->o;

	t->out = out;
	for (unsigned i = 0; i < t->nsubs; i++) {
		struct submitter *s = &t->subs[i];
		g_string_append_printf(out, "submitter=%u, tid=%u, file=%s, node=-1\n",
				       i, 1000 + i, s->nfiles ? s->files[0]->path :
				       "(null)");
	}
	g_string_append_printf(out, "polled=%d, fixedbufs=%d/0, register_files=%d, "
			       "buffered=%d, QD=%u\n", o->polled, o->fixedbufs,
			       o->register_files, !o->odirect, o->depth);
	g_string_append_printf(out, "Engine=io_uring, sq_ring=%u, cq_ring=%u\n",
			       o->depth, o->depth);
	for (unsigned i = 0; i < t->nsubs; i++)
		task_start(t->subs[i].task, SIM_MSG(&t->subs[i].comp, SUB_LOOP, NULL, 0));
	t->seconds_left = o->runtime;
	sim_after(t->env.sim, SIM_SEC, &t->comp, MAIN_TICK, NULL, 0);
	sim_run(t->env.sim, SIM_TIME_MAX);
}

void t_io_uring_result(const struct t_io_uring *t, struct t_io_uring_result *r)
{
	uint64_t done = 0;
	for (unsigned i = 0; i < t->nsubs; i++)
		done += t->subs[i].done;
	*r = (struct t_io_uring_result){
		.iops_mean = t->samples ? t->iops_sum / t->samples : 0,
		.iops_max = t->max_iops,
		.seconds = t->samples,
		.ios_per_submit = t->samples ? t->submit_sum / t->samples : 0,
		.ios_per_reap = t->samples ? t->reap_sum / t->samples : 0,
		.done = done,
		.elapsed = sim_now(t->env.sim),
	};
}

void t_io_uring_trace_layers(struct t_io_uring *t)
{
	if (t->trace_layers)
		return;
	t->trace_layers = true;
	for (unsigned i = 0; i < t->nsubs; i++) {
		struct submitter *s = &t->subs[i];
		s->traces = g_new(struct io_trace, t->o.depth);
		s->started = g_new(sim_time, t->o.depth);
		s->free_slots = g_new(unsigned, t->o.depth);
		s->offsets = g_new(uint64_t, t->o.depth);
		for (s->nfree = 0; s->nfree < t->o.depth; s->nfree++)
			s->free_slots[s->nfree] = t->o.depth - 1 - s->nfree;
		if (t->env.iotl)
			s->iotl_job = io_timeline_job(t->env.iotl, s->name);
	}
}

void t_io_uring_layers(const struct t_io_uring *t, struct io_layers *l)
{
	*l = t->layers;
}

void t_io_uring_free(struct t_io_uring *t)
{
	if (!t)
		return;
	for (unsigned i = 0; i < t->nsubs; i++) {
		io_ring_free(t->subs[i].ring);
		g_free(t->subs[i].traces);
		g_free(t->subs[i].started);
		g_free(t->subs[i].free_slots);
		g_free(t->subs[i].offsets);
	}
	g_free(t->subs);
	g_free(t);
}
