/*
 * A host-side NVMe test driver: the part of an NVMe host driver that a
 * conformance test needs (enable the controller, admin queue, Identify,
 * features, one polled I/O queue pair, submit and poll by phase tag), over
 * a transport, so that the same sequence of commands runs against QEMU's
 * emulated NVMe (through qtest) and against storsim's device model.
 *
 * Host memory layout (bus addresses, the same on both transports): queues
 * and buffers live at fixed places below 8 MiB, inside QEMU's 256 MiB of
 * guest RAM; the model's host memory is sparse.
 */
#ifndef STORSIM_NVME_TESTER_H
#define STORSIM_NVME_TESTER_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "devices/nvme.h"
#include "devices/nvme_spec.h"
#include "engine/sim.h"

enum {
	NVME_TESTER_ASQ = 0x100000,
	NVME_TESTER_ACQ = 0x101000,
	NVME_TESTER_IOSQ = 0x102000,	/* up to 64 entries */
	NVME_TESTER_IOCQ = 0x103000,
	NVME_TESTER_IDENT = 0x104000,	/* 4 KiB Identify or DSM buffer */
	NVME_TESTER_PRPLIST = 0x105000,	/* one page of PRP entries */
	NVME_TESTER_DATA = 0x200000,	/* 2 MiB data buffer */
	NVME_TESTER_DATA2 = 0x400000,	/* second 2 MiB data buffer */
	NVME_TESTER_DATA_SIZE = 0x200000,
};

/* What the tester needs from the machine it drives. Each returns false
 * with *err set when the transport fails (QEMU died, a wait timed out). */
struct nvme_transport_ops {
	bool (*reg_read)(void *t, uint64_t off, unsigned size, uint64_t *v,
			 GError **err);
	bool (*reg_write)(void *t, uint64_t off, unsigned size, uint64_t v,
			  GError **err);
	bool (*mem_read)(void *t, uint64_t addr, void *buf, size_t len,
			 GError **err);
	bool (*mem_write)(void *t, uint64_t addr, const void *buf, size_t len,
			  GError **err);
	bool (*mem_zero)(void *t, uint64_t addr, size_t len, GError **err);
	/* Let the device make progress before the next poll. Sets *idle when
	 * it has nothing left to do (the model's event queue is empty). */
	bool (*progress)(void *t, bool *idle, GError **err);
	/* A clock for time limits: wall time for QEMU, simulated for the
	 * model. */
	uint64_t (*now_ns)(void *t);
};

struct nvme_tester_queue {
	uint64_t sq_base, cq_base;
	uint32_t entries, sq_tail, cq_head;
	uint16_t qid, next_cid;
	uint8_t phase;
	bool live;
};

struct nvme_tester {
	const struct nvme_transport_ops *ops;
	void *tr;
	uint64_t timeout_ns;
	uint64_t cap;
	uint32_t page_size;
	uint32_t lba_shift;		/* from Identify Namespace 1 */
	struct nvme_tester_queue q[2];	/* admin, I/O queue 1 */
	uint64_t cqe_time;		/* transport clock at the last CQE */
};

void nvme_tester_init(struct nvme_tester *t, const struct nvme_transport_ops *ops,
		      void *tr, uint64_t timeout_ns);

bool nvme_tester_reg_read(struct nvme_tester *t, uint64_t off, unsigned size,
			  uint64_t *v, GError **err);
bool nvme_tester_reg_write(struct nvme_tester *t, uint64_t off, unsigned size,
			   uint64_t v, GError **err);
bool nvme_tester_mem_read(struct nvme_tester *t, uint64_t addr, void *buf,
			  size_t len, GError **err);
bool nvme_tester_mem_write(struct nvme_tester *t, uint64_t addr,
			   const void *buf, size_t len, GError **err);

/* Disable, set up an admin queue pair of `entries`, enable with the
 * default CC and wait for CSTS.RDY (or CFS: an error). */
bool nvme_tester_enable(struct nvme_tester *t, uint32_t entries, GError **err);

/* Submit on queue qid (0 admin, 1 I/O); the CID is chosen here and
 * returned. Several may be outstanding; wait takes CQEs in CQ order. */
bool nvme_tester_submit(struct nvme_tester *t, unsigned qid,
			const struct nvme_sqe *e, uint16_t *cid, GError **err);
bool nvme_tester_wait(struct nvme_tester *t, unsigned qid,
		      struct nvme_cqe *cqe, GError **err);
/* Submit one command and wait for its completion. */
bool nvme_tester_cmd(struct nvme_tester *t, unsigned qid,
		     const struct nvme_sqe *e, struct nvme_cqe *cqe,
		     GError **err);

/* Create I/O CQ 1 (polled, no interrupts) and SQ 1 of `entries`. The
 * statuses are returned; a failing status is not an error here. */
bool nvme_tester_create_io_queues(struct nvme_tester *t, uint32_t entries,
				  uint16_t *cq_status, uint16_t *sq_status,
				  GError **err);

/* Identify into NVME_TESTER_IDENT, read back into buf (4096 bytes). */
bool nvme_tester_identify(struct nvme_tester *t, uint8_t cns, uint32_t nsid,
			  uint8_t *buf, struct nvme_cqe *cqe, GError **err);

/* PRP1/PRP2 for a page-aligned buffer at addr of len bytes; longer than
 * two pages uses the one PRP list page (so one such command at a time). */
bool nvme_tester_prps(struct nvme_tester *t, uint64_t addr, uint64_t len,
		      uint64_t *prp1, uint64_t *prp2, GError **err);

/* Read or Write nlb blocks at slba to or from the buffer at addr, on I/O
 * queue 1, waiting for completion. */
bool nvme_tester_rw(struct nvme_tester *t, uint8_t opcode, uint64_t slba,
		    uint32_t nlb, uint64_t addr, bool fua, struct nvme_cqe *cqe,
		    GError **err);

/* Normal shutdown: CC.SHN = 01b, wait for CSTS.SHST = 10b. */
bool nvme_tester_shutdown(struct nvme_tester *t, GError **err);

/* --- transports --------------------------------------------------------- */

/* storsim's device on a simulated host with sparse memory. */
struct nvme_model_host {
	struct sim sim;
	struct nvme_dev *dev;
	GHashTable *mem;	/* 4 KiB page index -> page */
	uint64_t irqs;		/* MSI-X messages received */
	uint16_t last_vector;
};

bool nvme_model_host_init(struct nvme_model_host *h,
			  const struct nvme_dev_params *p, uint64_t seed,
			  GError **err);
void nvme_model_host_destroy(struct nvme_model_host *h);
extern const struct nvme_transport_ops nvme_model_transport;

/* QEMU's emulated NVMe through qtest: finds the controller on PCI bus 0
 * (class 010802), maps BAR0 and enables memory and bus mastering. */
struct qtest;
struct nvme_qemu_host {
	struct qtest *qt;
	uint64_t bar0;
	uint16_t vendor, device;
	uint8_t slot;
};

bool nvme_qemu_host_init(struct nvme_qemu_host *h, struct qtest *qt,
			 GError **err);
extern const struct nvme_transport_ops nvme_qemu_transport;

#endif
