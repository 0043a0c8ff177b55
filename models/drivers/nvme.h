/*
 * The NVMe host driver (drivers/nvme/host/pci.c) in front of a simulated
 * NVMe controller.
 */
#ifndef STORSIM_NVME_DRV_H
#define STORSIM_NVME_DRV_H

#include "block/blk_mq.h"
#include "devices/nvme.h"
#include "kernel.h"
#include "engine/params.h"

/* CPU costs and driver settings (host profile, model "nvme_drv"). */
struct nvme_drv_params {
	sim_time queue_rq;	/* nvme_queue_rq: set up the command, map data */
	sim_time map_seg;	/* per data segment beyond the first (PRP list) */
	sim_time sq_doorbell;	/* the SQ tail doorbell write (posted MMIO) */
	sim_time irq;		/* nvme_irq: entry and CQ check */
	sim_time cqe;		/* per CQE: nvme_handle_cqe, request lookup */
	sim_time complete_batch;/* nvme_pci_complete_batch, per batch */
	sim_time cq_doorbell;	/* the CQ head doorbell write */
	sim_time poll;		/* one nvme_poll pass */
	uint32_t io_queue_depth;/* module parameter io_queue_depth */
	uint32_t poll_queues;	/* module parameter poll_queues */
};

extern const struct param_def nvme_drv_param_table[];

struct nvme_drv;

/* Create the device, bring it up through its registers and admin queue
 * (running the simulation while it answers), and register the block
 * queue. */
struct nvme_drv *nvme_drv_new(struct host *h, const char *name,
			      const struct nvme_dev_params *devp,
			      const struct nvme_drv_params *p,
			      const struct blk_mq_params *blk,
			      const struct kernel_features *k, GError **err);
void nvme_drv_free(struct nvme_drv *d);
struct blk_queue *nvme_drv_queue(struct nvme_drv *d);
struct nvme_dev *nvme_drv_device(struct nvme_drv *d);
/* The device lost power (and the simulation was stopped there). */
bool nvme_drv_power_lost(const struct nvme_drv *d);

#endif
