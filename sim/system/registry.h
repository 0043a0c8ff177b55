/*
 * The registry of models and the parameter sets a run is made of.
 *
 * Every model that takes parameters has a row in model_registry[]: its
 * name (the key in profiles and in `--set NAME.PARAM=VALUE`), the kind of
 * profile that sets it, its parameter table and where its parameters live.
 * Host profiles set the CPU costs of every kernel and user stage on one
 * machine (struct stack_params); device and file-system profiles set one
 * device or file system each; the kernel features are the variant switches.
 */
#ifndef STORSIM_REGISTRY_H
#define STORSIM_REGISTRY_H

#include <stddef.h>

#include "block/blk_mq.h"
#include "devices/nvme.h"
#include "drivers/loop.h"
#include "drivers/null_blk.h"
#include "drivers/nvme.h"
#include "drivers/nvme_ioctl.h"
#include "syscalls/aio.h"
#include "workloads/fio/fio.h"
#include "syscalls/io_uring.h"
#include "workloads/t_io_uring/t_io_uring.h"
#include "block/blkdev.h"
#include "fs/fs.h"
#include "fs/pagecache.h"
#include "fs/shmem.h"
#include "host/host.h"
#include "host/workqueue.h"
#include "kernel.h"
#include "engine/params.h"

/* Everything a host profile sets. */
struct stack_params {
	struct host_params cpu;
	struct workqueue_params workqueue;
	struct fio_params fio;
	struct t_io_uring_params t_io_uring;
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

enum model_kind {
	MODEL_HOST,	/* part of a host profile (CPU costs) */
	MODEL_DEVICE,	/* a device profile */
	MODEL_FS,	/* a file-system profile */
	MODEL_KERNEL,	/* kernel features (variants) */
};

struct model_info {
	const char *name;
	enum model_kind kind;
	const struct param_def *params;
	size_t size;		/* of its params struct */
	size_t offset;		/* MODEL_HOST: offset in struct stack_params */
	const char *summary;
	const char *doc;	/* its page under docs/models/ */
};

extern const struct model_info model_registry[];

const struct model_info *model_find(const char *name);
/* Where a kind of model is set, as a reader would put it: "host profile",
 * "--kernel FEATURE=VALUE", ... */
const char *model_set_by(enum model_kind k);

#endif
