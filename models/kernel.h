/*
 * Kernel features: the switches that change the path an I/O takes.
 *
 * Each field stands for a kernel change whose effect storsim reproduces;
 * a variant of an experiment is a set of these switches (`--kernel
 * NAME=VALUE`). They carry no costs: the costs of each path live with the
 * model that walks it.
 */
#ifndef STORSIM_KERNEL_H
#define STORSIM_KERNEL_H

#include <stdbool.h>

#include "engine/params.h"

struct kernel_features {
	/* iomap: IOCB_DIO_CALLER_COMP (Linux 6.6): an async DIO write
	 * completes in the issuer's task_work instead of a workqueue. */
	bool dio_caller_comp;
	/* block: bio reuses the caller's bvec array for direct I/O from a
	 * bvec iterator (Linux 5.12, "no-copy bvec") instead of copying it. */
	bool bio_nocopy_bvec;
	/* iomap: per-block dirty state in large folios (Linux 6.6). */
	bool iomap_per_block_dirty;
	/* io_uring: async buffered reads by page-unlock callback and
	 * task_work retry (Linux 5.9) instead of io-wq punts. */
	bool async_buffered_reads;
	/* io_uring: wake a DEFER_TASKRUN waiter only once enough task_work
	 * is queued to satisfy its wait (IOU_F_TWQ_LAZY_WAKE, Linux 6.5). */
	bool io_uring_lazy_wake;
	/* io-wq: every enqueue wakes an idle worker (Linux 5.15); before, one
	 * was woken only when no worker was running. */
	bool io_wq_wake_free_worker;
	/* io_uring: IORING_SETUP_COOP_TASKRUN (5.19) and DEFER_TASKRUN
	 * (6.1) exist; without them fio sets up a plain ring. */
	bool io_uring_defer_taskrun;
	/* nvme-pci: complete a batch of CQEs with one
	 * blk_mq_end_request_batch (Linux 5.16). */
	bool nvme_complete_batch;
	/* blk-mq: a task's plug holds up to 32 requests before it is
	 * flushed to the drivers (Linux 5.16, BLK_MAX_REQUEST_COUNT); 16
	 * before. */
	bool blk_plug_32;
	/* io_uring: io_uring_cmd_prep leaves a passthrough command's SQE in
	 * the ring and copies it into async data only when the command goes
	 * async, on -EAGAIN or IOSQE_ASYNC (Linux 6.10, 5eff57fa9f3a); before,
	 * prep copied every SQE. */
	bool uring_cmd_defer_sqe_copy;
};

extern const struct param_def kernel_param_table[];

#endif
