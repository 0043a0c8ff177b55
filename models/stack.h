/*
 * The kernel stack's parameters: what a host profile sets for the kernel,
 * one block per model, from the CPU and scheduler down to the block
 * drivers. Workloads' own user-space costs are not here: each workload
 * declares its own (sim/workloads/workload.h).
 */
#ifndef STORSIM_STACK_H
#define STORSIM_STACK_H

#include "block/blk_mq.h"
#include "block/blkdev.h"
#include "drivers/loop.h"
#include "drivers/null_blk.h"
#include "drivers/nvme.h"
#include "drivers/nvme_ioctl.h"
#include "fs/pagecache.h"
#include "fs/shmem.h"
#include "host/host.h"
#include "host/workqueue.h"
#include "syscalls/aio.h"
#include "syscalls/io_uring.h"

struct stack_params {
	struct host_params cpu;
	struct workqueue_params workqueue;
	struct io_uring_params io_uring;
	struct io_wq_params io_wq;
	struct aio_params aio;
	struct blkdev_params blkdev;
	struct pagecache_params pagecache;
	struct shmem_params shmem;
	struct blk_mq_params blk_mq;
	struct nvme_drv_params nvme_drv;
	struct nvme_ioctl_params nvme_ioctl;
	struct null_blk_cpu_params null_blk_cpu;
	struct loop_cpu_params loop_cpu;
};

#endif
