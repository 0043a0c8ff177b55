/*
 * null_blk: a block device with no media (drivers/block/null_blk).
 */
#ifndef STORSIM_NULL_BLK_H
#define STORSIM_NULL_BLK_H

#include "block/blk_mq.h"
#include "kernel.h"
#include "engine/params.h"

enum null_irqmode { NULL_IRQ_NONE, NULL_IRQ_SOFTIRQ, NULL_IRQ_TIMER };

/* Module parameters (device profile, model "null_blk"). */
struct null_blk_params {
	sim_time completion_nsec;	/* timer mode: completion delay */
	int irqmode;			/* enum null_irqmode */
	uint32_t submit_queues;		/* 0 = 1; capped at the CPU count */
	uint32_t hw_queue_depth;
	uint32_t bs;			/* logical block size, bytes */
	uint64_t size_mb;
	uint32_t max_sectors;		/* 512-byte units */
};

/* CPU costs (host profile, model "null_blk_cpu"). */
struct null_blk_cpu_params {
	sim_time queue_rq;		/* null_queue_rq + null_handle_cmd */
	sim_time complete;		/* null_complete_rq / end_cmd */
};

extern const struct param_def null_blk_param_table[];
extern const struct param_def null_blk_cpu_param_table[];

struct null_blk;

struct null_blk *null_blk_new(struct host *h, const char *name,
			      const struct null_blk_params *p,
			      const struct null_blk_cpu_params *cpu,
			      const struct blk_mq_params *blk,
			      const struct kernel_features *k);
void null_blk_free(struct null_blk *n);
struct blk_queue *null_blk_queue(struct null_blk *n);

#endif
