/*
 * NVMe controller and media: the public face of the device model.
 *
 * The device is driven the way a real controller is: the host reads and
 * writes controller registers (CAP, VS, CC, CSTS, AQA, ASQ, ACQ and the
 * doorbells, NVMe base specification 2.0, section 3.1), places submission
 * queue entries in its own memory and rings a doorbell; the device fetches
 * the entries by DMA, executes them in simulated time, writes completion
 * queue entries back by DMA and raises an MSI-X vector. The same device
 * therefore serves the timed I/O path (models/drivers/nvme.c) and the
 * command-level conformance suite that runs side by side with QEMU.
 *
 * Data payloads move only when the device stores data (params.store_data,
 * for conformance tests); timed runs move no payload bytes.
 */
#ifndef STORSIM_NVME_DEV_H
#define STORSIM_NVME_DEV_H

#include <glib.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>

#include "params.h"
#include "sim.h"

struct nvme_dev;
struct nvme_dev_params;		/* defined in nvme.c's companion header */

/* What the device needs from the host it is plugged into. */
struct nvme_host_ops {
	/* Read or write host memory at a bus address (SQEs, CQEs, PRPs,
	 * payload). Required. */
	void (*dma_read)(void *host, uint64_t addr, void *buf, size_t len);
	void (*dma_write)(void *host, uint64_t addr, const void *buf, size_t len);
	/* Raise MSI-X vector `vector`. Required. */
	void (*irq)(void *host, uint16_t vector);
};

#endif
