/*
 * Kernel feature switches. Defaults describe a kernel of late 2023 (6.6)
 * with every modelled improvement in; experiments turn them off to stand
 * for the kernel before a patch.
 */
#include "kernel.h"

#define K(field) offsetof(struct kernel_features, field)

const struct param_def kernel_param_table[] = {
	{"dio_caller_comp", PARAM_BOOL, K(dio_caller_comp), "true", 0, 0, "",
	 "iomap IOCB_DIO_CALLER_COMP: DIO write completion in the issuer's "
	 "task_work (6.6) instead of the dio workqueue"},
	{"bio_nocopy_bvec", PARAM_BOOL, K(bio_nocopy_bvec), "true", 0, 0, "",
	 "direct I/O from a bvec iterator reuses the bvec array (5.12) "
	 "instead of copying it into the bio"},
	{"iomap_per_block_dirty", PARAM_BOOL, K(iomap_per_block_dirty), "true", 0,
	 0, "", "iomap tracks dirty state per block of a folio (6.6) instead "
	 "of per folio"},
	{"async_buffered_reads", PARAM_BOOL, K(async_buffered_reads), "true", 0, 0,
	 "", "io_uring buffered reads retry from task_work on page unlock "
	 "(5.9) instead of blocking in io-wq workers"},
	{"io_uring_lazy_wake", PARAM_BOOL, K(io_uring_lazy_wake), "true", 0, 0, "",
	 "DEFER_TASKRUN waiters are woken only when enough task_work is "
	 "queued (6.5)"},
	{"io_wq_wake_free_worker", PARAM_BOOL, K(io_wq_wake_free_worker), "true", 0,
	 0, "", "io_wq_enqueue wakes an idle worker for every new item (5.15) "
	 "instead of only when no worker is running"},
	{"io_uring_defer_taskrun", PARAM_BOOL, K(io_uring_defer_taskrun), "true", 0,
	 0, "", "IORING_SETUP_COOP_TASKRUN and DEFER_TASKRUN exist (6.1); fio "
	 "falls back to a plain ring without them"},
	{"nvme_complete_batch", PARAM_BOOL, K(nvme_complete_batch), "true", 0, 0,
	 "", "nvme-pci ends a batch of requests per interrupt (5.16)"},
	{"blk_plug_32", PARAM_BOOL, K(blk_plug_32), "true", 0, 0, "",
	 "a plug holds 32 requests before blk-mq sends them to the driver "
	 "(5.16, BLK_MAX_REQUEST_COUNT) instead of 16"},
	{"uring_cmd_defer_sqe_copy", PARAM_BOOL, K(uring_cmd_defer_sqe_copy), "true",
	 0, 0, "", "io_uring_cmd_prep copies a passthrough SQE into async data only "
	 "when the command goes async (6.10) instead of for every command"},
	PARAM_END,
};
