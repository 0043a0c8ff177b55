/*
 * loop: a blk-mq driver that serves its requests from a file.
 *
 * Stands for drivers/block/loop.c as of Linux 6.18. loop_queue_rq starts
 * the request and hands it to loop_queue_work, which puts the command on
 * the device's list and queues the device's one work item on its
 * workqueue ("loop%d", WQ_UNBOUND): a kworker that may run on any CPU.
 * The worker's loop_process_work takes the commands off the list one by
 * one, looking at the list again after each, so commands queued while it
 * runs are served in the same run; for each, loop_handle_cmd ->
 * do_req_filebacked -> lo_rw_aio calls the backing file's read_iter or
 * write_iter on the request's pages (a bvec iterator). Since Linux 6.15
 * ("loop: stop using vfs_iter_{read,write} for buffered I/O") buffered
 * and direct devices take this same call, buffered with no kiocb flags
 * and direct (losetup --direct-io=on, LO_FLAGS_DIRECT_IO) with
 * IOCB_DIRECT and lo_rw_aio_complete as ki_complete. A backing file that
 * finishes the call at once returns its result, and lo_rw_aio completes
 * the command there: lo_rw_aio_complete -> blk_mq_complete_request ->
 * lo_complete_rq -> blk_mq_end_request, in the worker's context. On a
 * machine whose CPUs share a last-level cache (QUEUE_FLAG_SAME_COMP,
 * cpus_share_cache) blk_mq_complete_request does not send the completion
 * back to the submitting CPU, so the bio's end_io runs in the worker too,
 * and whatever waits for it is woken from there.
 *
 * The backing file is on tmpfs (models/fs/shmem.c): a read or a write is
 * a copy between the request's pages and the file's pages, whether or
 * not IOCB_DIRECT is set. Flushes (lo_req_flush -> vfs_fsync, tmpfs's
 * noop_fsync) cost only the command's handling; discards and write-zeroes
 * (lo_fallocate -> shmem_fallocate) too, since the file's pages are not
 * modelled one by one.
 *
 * Queue limits as a loop device on a tmpfs file shows them (Linux 6.18,
 * /sys/block/loopN/queue): one hardware queue, hw_queue_depth tags
 * (LOOP_DEFAULT_HW_Q_DEPTH 128), max_sectors_kb 1280, max_segments 128,
 * a volatile write cache (the file has ->fsync), no FUA, no I/O
 * scheduler by default (BLK_MQ_F_NO_SCHED_BY_DEFAULT).
 *
 * Parameters: device profile, model "loop": direct_io, size_mb,
 * logical_block_size, hw_queue_depth; host profile, model "loop_cpu":
 * queue_rq_ns, handle_cmd_ns, complete_ns (CPU time, ns). The worker's
 * queue_work and process_one_work are the workqueue's costs, the copies
 * shmem's and the page cache's.
 *
 * Left out: backing files other than tmpfs, asynchronous completion of
 * the backing file (a file on a block device), the IOCB_NOWAIT attempt in
 * loop_queue_rq (Linux 6.19, "loop: try to handle loop aio command via
 * NOWAIT IO first"), per-cgroup workers, partitions, offsets and size
 * limits. Commands join the list when loop_queue_rq's step runs, as the
 * workqueue model queues its items.
 */
#include <glib.h>

#include "drivers/loop.h"

#define P(field) offsetof(struct loop_params, field)
const struct param_def loop_param_table[] = {
	{"direct_io", PARAM_BOOL, P(direct_io), "false", 0, 0, "",
	 "losetup --direct-io=on: the worker calls the file with IOCB_DIRECT"},
	{"size_mb", PARAM_U64, P(size_mb), "1024", 1, 1e9, "MiB",
	 "the backing file's size: the device's capacity"},
	{"logical_block_size", PARAM_U32, P(logical_block_size), "512", 512, 4096,
	 "bytes", "losetup --sector-size"},
	{"hw_queue_depth", PARAM_U32, P(hw_queue_depth), "128", 1, 65536, "count",
	 "the loop module's hw_queue_depth: tags of the one hardware queue"},
	PARAM_END,
};
#undef P

#define P(field) offsetof(struct loop_cpu_params, field)
const struct param_def loop_cpu_param_table[] = {
	{"queue_rq_ns", PARAM_TIME, P(queue_rq), "150", 0, 1e6, "ns",
	 "loop_queue_rq: blk_mq_start_request, the command onto the list "
	 "(loop_queue_work) before queue_work"},
	{"handle_cmd_ns", PARAM_TIME, P(handle_cmd), "300", 0, 1e6, "ns",
	 "loop_handle_cmd, do_req_filebacked, lo_rw_aio: the kiocb and the "
	 "bvec iterator around the file's read_iter or write_iter"},
	{"complete_ns", PARAM_TIME, P(complete), "100", 0, 1e6, "ns",
	 "lo_rw_aio_complete and lo_complete_rq before blk_mq_end_request"},
	PARAM_END,
};
#undef P

struct loop_cmd {
	struct request *rq;
	struct loop_cmd *next;
};

struct loop_dev {
	struct host *h;
	struct loop_params p;
	struct loop_cpu_params cpu;
	const struct shmem_params *sh;
	const struct pagecache_params *pc;
	struct blk_queue *q;
	struct workqueue *wq;
	struct work work;
	bool work_queued;	/* WORK_STRUCT_PENDING: queued, not started */
	bool continuing;	/* the work function takes its next command */
	struct loop_cmd *cmds;	/* one per tag (the request's pdu) */
	struct loop_cmd *head, *tail;	/* rootcg_cmd_list */
	struct sim_component comp;	/* the work function's steps */
	struct loop_stats st;
	char *name;
};

enum { LOOP_WORK };

static stage_id st_queue_rq, st_handle_cmd, st_complete;

static void loop_queue_rq(struct xctx *x, struct blk_hctx *hctx,
			  struct request *rq, bool last)
{
	struct loop_dev *lo = blk_hctx_driver_data(hctx);
	struct loop_cmd *cmd = &lo->cmds[rq->tag];

	(void)last;
	xctx_charge(x, st_queue_rq, lo->cpu.queue_rq);
	if (blk_rq_traced(rq))
		blk_rq_stamp(rq, IOS_ISSUE, xctx_clock(x));
	cmd->rq = rq;
	cmd->next = NULL;
	if (lo->tail)
		lo->tail->next = cmd;
	else
		lo->head = cmd;
	lo->tail = cmd;
	/* queue_work is a no-op on a work item still pending. */
	if (!lo->work_queued) {
		lo->work_queued = true;
		queue_work(x, lo->wq, &lo->work);
	}
}

/* One command, in the worker: the file's read_iter or write_iter, then
 * the completion. */
static void serve(struct loop_dev *lo, struct xctx *x, struct request *rq)
{
	xctx_charge(x, st_handle_cmd, lo->cpu.handle_cmd);
	if (rq->op == REQ_OP_READ || rq->op == REQ_OP_WRITE) {
		/* lo_rw_aio: a bvec iterator over the request's pages */
		struct kiocb iocb = {
			.pos = rq->sector * 512,
			.len = rq->size,
			.nr_segs = rq->nr_segs,
			.bvec = true,
			.write = rq->op == REQ_OP_WRITE,
			.flags = lo->p.direct_io ? KI_DIRECT : 0,
		};
		shmem_rw_iter(x, lo->sh, lo->pc, host_params(lo->h)->page_size,
			      &iocb);
	}
	if (blk_rq_traced(rq)) {
		sim_time now = xctx_clock(x);
		blk_rq_stamp(rq, IOS_DEVICE_DONE, now);
		blk_rq_stamp_cpu(rq, IOS_HANDLE, now, cpu_id(xctx_cpu(x)));
	}
	xctx_charge(x, st_complete, lo->cpu.complete);
	blk_mq_complete_request(x, rq, BLK_STS_OK);
}

/* loop_process_work: one command per step of the worker, the list looked
 * at again after each. */
static void loop_handle(struct sim_component *comp, unsigned type, void *ptr,
			uint64_t arg)
{
	struct loop_dev *lo = ptr;
	struct xctx *x = host_current(lo->h);
	struct loop_cmd *cmd = lo->head;

	(void)comp;
	(void)type;
	(void)arg;
	if (!lo->continuing) {	/* a run of the work item: process_one_work */
		lo->work_queued = false;
		lo->st.work_runs++;
	}
	lo->continuing = false;
	if (!cmd)
		return;
	lo->head = cmd->next;
	if (!lo->head)
		lo->tail = NULL;
	lo->st.cmds++;
	serve(lo, x, cmd->rq);
	if (lo->head) {
		lo->continuing = true;
		work_again(&lo->work);
	}
}

static const struct sim_component_ops loop_ops = {
	.name = "loop",
	.handle = loop_handle,
};

static const struct blk_driver_ops loop_driver = {
	.name = "loop",
	.queue_rq = loop_queue_rq,
};

struct loop_dev *loop_new(struct host *h, const char *name,
			  const struct loop_params *p,
			  const struct loop_cpu_params *cpu,
			  const struct workqueue_params *wq,
			  const struct shmem_params *sh,
			  const struct pagecache_params *pc,
			  const struct blk_mq_params *blk,
			  const struct kernel_features *k)
{
	struct loop_dev *lo = g_new0(struct loop_dev, 1);

	st_queue_rq = stage_register("loop_queue_rq", CPU_SYS,
				     "loop_queue_rq, loop_queue_work");
	st_handle_cmd = stage_register("loop_handle_cmd", CPU_SYS,
				       "loop_handle_cmd, do_req_filebacked, lo_rw_aio");
	st_complete = stage_register("lo_rw_aio_complete", CPU_SYS,
				     "lo_rw_aio_complete, lo_complete_rq");
	shmem_register_stages();
	lo->h = h;
	lo->p = *p;
	lo->cpu = *cpu;
	lo->sh = sh;
	lo->pc = pc;
	lo->name = g_strdup(name);
	sim_component_init(host_sim(h), &lo->comp, &loop_ops, lo->name);
	lo->work.fn = SIM_MSG(&lo->comp, LOOP_WORK, lo, 0);
	lo->cmds = g_new0(struct loop_cmd, p->hw_queue_depth);
	g_autofree char *wqname = g_strdup_printf("loop%s",
		g_str_has_prefix(name, "loop") ? name + 4 : name);
	lo->wq = workqueue_new(h, wq, wqname, false);
	struct blk_queue_config cfg = {
		.name = name,
		.nr_hw_queues = 1,
		.queue_depth = p->hw_queue_depth,
		.logical_block_size = p->logical_block_size,
		.max_sectors = 2560,
		.max_segments = 128,
		.capacity = p->size_mb << 20,
		.write_cache = true,
		.nowait = true,
		.discard = true,
		.plug_max = k->blk_plug_32 ? 32 : 16,
	};
	lo->q = blk_queue_new(h, blk, &cfg, &loop_driver, lo);
	blk_hctx_set_driver_data(blk_queue_hctx(lo->q, 0), lo);
	return lo;
}

void loop_free(struct loop_dev *lo)
{
	if (!lo)
		return;
	blk_queue_free(lo->q);
	workqueue_free(lo->wq);
	g_free(lo->cmds);
	g_free(lo->name);
	g_free(lo);
}

struct blk_queue *loop_queue(struct loop_dev *lo)
{
	return lo->q;
}

void loop_get_stats(const struct loop_dev *lo, struct loop_stats *st)
{
	*st = lo->st;
}
