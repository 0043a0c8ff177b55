/*
 * loop: a block device backed by a file (drivers/block/loop.c), here a
 * file on tmpfs.
 */
#ifndef STORSIM_LOOP_H
#define STORSIM_LOOP_H

#include "block/blk_mq.h"
#include "fs/pagecache.h"
#include "fs/shmem.h"
#include "host/workqueue.h"
#include "kernel.h"
#include "engine/params.h"

/* The device (device profile, model "loop"): losetup's settings. */
struct loop_params {
	bool direct_io;			/* --direct-io=on: LO_FLAGS_DIRECT_IO */
	uint64_t size_mb;		/* the backing file's size, MiB */
	uint32_t logical_block_size;	/* --sector-size, bytes */
	uint32_t hw_queue_depth;	/* module parameter hw_queue_depth */
};

/* CPU costs (host profile, model "loop_cpu"). */
struct loop_cpu_params {
	sim_time queue_rq;	/* loop_queue_rq + loop_queue_work, before queue_work */
	sim_time handle_cmd;	/* loop_handle_cmd, do_req_filebacked, lo_rw_aio set-up */
	sim_time complete;	/* lo_rw_aio_complete, lo_complete_rq */
};

extern const struct param_def loop_param_table[];
extern const struct param_def loop_cpu_param_table[];

struct loop_dev;

/* The CPU costs of the workqueue, the backing file and its page cache
 * copies are the host's (wq, sh, pc). */
struct loop_dev *loop_new(struct host *h, const char *name,
			  const struct loop_params *p,
			  const struct loop_cpu_params *cpu,
			  const struct workqueue_params *wq,
			  const struct shmem_params *sh,
			  const struct pagecache_params *pc,
			  const struct blk_mq_params *blk,
			  const struct kernel_features *k);
void loop_free(struct loop_dev *lo);
struct blk_queue *loop_queue(struct loop_dev *lo);

/* Counters: requests the worker served, and runs of its work item. */
struct loop_stats {
	uint64_t cmds;
	uint64_t work_runs;	/* process_one_work calls of the loop work */
};
void loop_get_stats(const struct loop_dev *lo, struct loop_stats *st);

#endif
