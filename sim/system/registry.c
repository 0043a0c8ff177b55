/*
 * The model registry: one row per parameterised model. Keep it sorted by
 * kind, then by the path an I/O takes.
 */
#include <string.h>

#include "registry.h"

#define HOST_PART(n, table, type, field, sum, page) \
	{.name = n, .kind = MODEL_HOST, .params = table, .size = sizeof(type), \
	 .offset = offsetof(struct stack_params, field), .summary = sum, \
	 .doc = page}

#define WORKLOAD_PART(n, table, type, field, sum, page) \
	{.name = n, .kind = MODEL_HOST, .params = table, .size = sizeof(type), \
	 .workload = true, .offset = offsetof(struct workload_costs, field), \
	 .summary = sum, .doc = page}

const struct model_info model_registry[] = {
	HOST_PART("cpu", host_param_table, struct host_params, cpu,
		  "CPUs, scheduler, interrupts, syscalls", "docs/models/host.md"),
	HOST_PART("workqueue", workqueue_param_table, struct workqueue_params,
		  workqueue, "workqueues and kworkers", "docs/models/workqueue.md"),
	WORKLOAD_PART("fio", fio_param_table, struct fio_params, fio,
		  "fio's own user-space costs", "docs/models/fio.md"),
	WORKLOAD_PART("t_io_uring", t_io_uring_param_table, struct t_io_uring_params,
		  t_io_uring, "t/io_uring user-space costs",
		  "docs/models/t_io_uring.md"),
	HOST_PART("io_uring", io_uring_param_table, struct io_uring_params,
		  io_uring, "io_uring submission and completion",
		  "docs/models/io_uring.md"),
	HOST_PART("io_wq", io_wq_param_table, struct io_wq_params, io_wq,
		  "io-wq worker threads for requests that would block",
		  "docs/models/io_wq.md"),
	HOST_PART("aio", aio_param_table, struct aio_params, aio,
		  "Linux native AIO (libaio)", "docs/models/aio.md"),
	HOST_PART("blkdev", blkdev_param_table, struct blkdev_params, blkdev,
		  "raw block device I/O: direct, and buffered through its page cache",
		  "docs/models/blkdev.md"),
	HOST_PART("pagecache", pagecache_param_table, struct pagecache_params,
		  pagecache, "page cache, buffered reads and writes, writeback",
		  "docs/models/pagecache.md"),
	HOST_PART("shmem", shmem_param_table, struct shmem_params, shmem,
		  "tmpfs file data: reads and writes of resident pages",
		  "docs/models/shmem.md"),
	HOST_PART("blk_mq", blk_mq_param_table, struct blk_mq_params, blk_mq,
		  "bios, requests, tags, plugging", "docs/models/blk_mq.md"),
	HOST_PART("mq_deadline", mq_deadline_param_table,
		  struct mq_deadline_params, blk_mq.mq_deadline,
		  "the mq-deadline I/O scheduler (blk_mq.scheduler=mq-deadline)",
		  "docs/models/mq-deadline.md"),
	HOST_PART("nvme_drv", nvme_drv_param_table, struct nvme_drv_params,
		  nvme_drv, "NVMe PCI host driver", "docs/models/nvme-driver.md"),
	HOST_PART("nvme_ioctl", nvme_ioctl_param_table, struct nvme_ioctl_params,
		  nvme_ioctl, "NVMe passthrough: the generic character device "
		  "and its io_uring command", "docs/models/nvme-ioctl.md"),
	HOST_PART("null_blk_cpu", null_blk_cpu_param_table,
		  struct null_blk_cpu_params, null_blk_cpu,
		  "null_blk CPU costs", "docs/models/null_blk.md"),
	HOST_PART("loop_cpu", loop_cpu_param_table, struct loop_cpu_params,
		  loop_cpu, "loop block driver CPU costs", "docs/models/loop.md"),
	{.name = "nvme", .kind = MODEL_DEVICE, .params = nvme_dev_param_table,
	 .size = sizeof(struct nvme_dev_params),
	 .summary = "NVMe controller and media", .doc = "docs/models/nvme-device.md"},
	{.name = "null_blk", .kind = MODEL_DEVICE, .params = null_blk_param_table,
	 .size = sizeof(struct null_blk_params),
	 .summary = "null_blk module parameters", .doc = "docs/models/null_blk.md"},
	{.name = "loop", .kind = MODEL_DEVICE, .params = loop_param_table,
	 .size = sizeof(struct loop_params),
	 .summary = "loop device on a tmpfs file (losetup settings)",
	 .doc = "docs/models/loop.md"},
	{.name = "fs", .kind = MODEL_FS, .params = fs_param_table,
	 .size = sizeof(struct fs_params),
	 .summary = "file system (XFS, ext4): blocks and path costs",
	 .doc = "docs/models/fs.md"},
	{.name = "kernel", .kind = MODEL_KERNEL, .params = kernel_param_table,
	 .size = sizeof(struct kernel_features),
	 .summary = "kernel feature switches (variants)",
	 .doc = "docs/models/kernel.md"},
	{.name = NULL},
};

const struct model_info *model_find(const char *name)
{
	for (const struct model_info *m = model_registry; m->name; m++)
		if (strcmp(m->name, name) == 0)
			return m;
	return NULL;
}

const char *model_set_by(enum model_kind k)
{
	static const char *const where[] = {
		[MODEL_HOST] = "host profile", [MODEL_DEVICE] = "device profile",
		[MODEL_FS] = "file-system profile",
		[MODEL_KERNEL] = "--kernel FEATURE=VALUE",
	};
	return where[k];
}

void *model_values(const struct model_info *m, struct stack_params *sp,
		   struct workload_costs *wl)
{
	return (m->workload ? (char *)wl : (char *)sp) + m->offset;
}
