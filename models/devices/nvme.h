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
 *
 * Bringing the controller up (what a host driver does, in this order):
 *   1. params: nvme_dev_params_init(), then a profile with
 *      profile_load_nvme() (sim/system/profile.h) and/or
 *      params_apply_override();
 *   2. d = nvme_dev_new(sim, "nvme0", &params, &host_ops, host, &err);
 *   3. mmio_write CC = 0; place the admin SQ and CQ (page aligned) in host
 *      memory; write AQA = NVME_AQA(sq, cq), ASQ, ACQ; write
 *      CC = NVME_CC_ENABLE_DEFAULT; run the simulation until CSTS.RDY = 1
 *      (params.enable_latency later);
 *   4. admin commands (builders in nvme_spec.h), each by writing the SQE
 *      at the admin SQ tail, ringing doorbell 0 and waiting for its CQE:
 *      Identify Controller (CNS 1), Identify Namespace 1 (CNS 0),
 *      Set Features Number of Queues (nvme_sqe_set_num_queues), then per
 *      CPU i (qid = i + 1): Create I/O CQ (qid, entries, base, vector, IEN)
 *      followed by Create I/O SQ (qid, entries, base, cqid = qid);
 *   5. I/O: write SQEs, ring SQ tail doorbell (NVME_REG_DBS + 8 * qid);
 *      on irq(vector) consume CQEs while their phase tag matches and write
 *      the CQ head doorbell (NVME_REG_DBS + 8 * qid + 4).
 */
#ifndef STORSIM_NVME_DEV_H
#define STORSIM_NVME_DEV_H

#include <glib.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine/params.h"
#include "engine/sim.h"

struct nvme_dev;

/* What the device needs from the host it is plugged into. */
struct nvme_host_ops {
	/* Read or write host memory at a bus address (SQEs, CQEs, PRPs,
	 * payload). Required. */
	void (*dma_read)(void *host, uint64_t addr, void *buf, size_t len);
	void (*dma_write)(void *host, uint64_t addr, const void *buf, size_t len);
	/* Raise MSI-X vector `vector`. Required. */
	void (*irq)(void *host, uint16_t vector);
	/* Called once when the device loses power (nvme_dev_power_loss(), or
	 * params.power_loss_after_commands reached). Not required. */
	void (*power_lost)(void *host);
};

/*
 * User-settable values; the rows of nvme_dev_param_table describe each
 * (unit, default, range, meaning). Identity values feed CAP, VS and the
 * Identify data; timing values are simulated nanoseconds or bandwidths.
 */
struct nvme_dev_params {
	/* identity and limits */
	uint32_t vid, ssvid;
	char *serial, *model_name, *firmware;
	uint32_t version;		/* VS register */
	uint32_t mdts;			/* log2 of CAP.MPSMIN pages; 0 = none */
	uint32_t max_queue_entries;	/* CAP.MQES + 1 */
	uint32_t cap_timeout;		/* CAP.TO, 500 ms units */
	uint32_t mps_max;		/* CAP.MPSMAX */
	uint32_t max_io_queues;
	uint32_t msix_vectors;
	uint32_t nn;			/* largest valid NSID */
	uint64_t ns_blocks;		/* namespace 1 size */
	uint32_t lba_shift;		/* LBADS */
	bool vwc_present, flush_broadcast, write_cache_enabled;
	bool dsm, write_zeroes;
	/* timing */
	sim_time enable_latency, fetch_latency, cmd_overhead, admin_latency;
	sim_time read_latency, write_latency;
	double read_ns_per_kib, write_ns_per_kib;
	double media_jitter;
	uint32_t media_units;
	double link_mbps;
	uint64_t cache_bytes;
	sim_time cache_latency;
	double destage_mbps;
	sim_time flush_latency, meta_latency;
	/* conformance, accounting and fault injection */
	bool store_data;
	uint64_t store_data_max_bytes;
	bool track_durability;
	uint32_t durability_max_ranges;
	uint64_t power_loss_after_commands;
};

extern const struct param_def nvme_dev_param_table[];

/* Defaults of every row (the "qemu-nvme" identity, neutral timings). */
void nvme_dev_params_init(struct nvme_dev_params *p);
void nvme_dev_params_clear(struct nvme_dev_params *p);

/* Cross-parameter checks (e.g. a cache needs a destage bandwidth). */
bool nvme_dev_params_check(const struct nvme_dev_params *p, GError **err);

/* A new controller, powered and disabled (CC.EN = 0). The device keeps a
 * copy of params; name must outlive it. */
struct nvme_dev *nvme_dev_new(struct sim *s, const char *name,
			      const struct nvme_dev_params *p,
			      const struct nvme_host_ops *ops, void *host,
			      GError **err);
void nvme_dev_free(struct nvme_dev *d);

/* Register access at BAR0 offset; size is 4 or 8 bytes. */
uint64_t nvme_dev_mmio_read(struct nvme_dev *d, uint64_t offset, unsigned size);
void nvme_dev_mmio_write(struct nvme_dev *d, uint64_t offset, unsigned size,
			 uint64_t value);

/*
 * A CQ head doorbell write of value head to queue qid that the host will
 * make at time at (>= now), told ahead: the host knows when its interrupt
 * handler, which nothing preempts, gets there. The head takes effect at
 * at, exactly as if written then (the device looks at a CQ head only to
 * see whether the queue is full), without an event for the write unless
 * completions wait for room. The write must be the queue's next one.
 */
void nvme_dev_cq_doorbell_at(struct nvme_dev *d, uint16_t qid, uint32_t head,
			     sim_time at);

/* Counters for reports. Times are simulated nanoseconds. */
struct nvme_dev_counters {
	uint64_t admin_cmds;
	uint64_t reads, writes, fua_writes, flushes, write_zeroes, dsms;
	uint64_t errors;		/* commands completed with status != 0 */
	uint64_t bytes_read, bytes_written;		/* host payload */
	uint64_t media_bytes_read, media_bytes_written;	/* incl. destage */
	uint64_t flushes_completed;
	uint64_t cache_peak_bytes;
	uint64_t cache_waits;		/* writes that waited for cache room */
	uint64_t irqs;
	uint64_t bad_doorbells;		/* ignored doorbell writes */
	sim_time busy_ns;		/* time with a command in the device */
	sim_time media_busy_ns;		/* summed over media units */
};

const struct nvme_dev_counters *nvme_dev_get_counters(const struct nvme_dev *d);
json_object *nvme_dev_counters_json(const struct nvme_dev *d);

/* Bytes the volatile write cache holds now (for tests and reports). */
uint64_t nvme_dev_cache_bytes(const struct nvme_dev *d);

/* Whether the volatile write cache is enabled now (Set Features 06h). */
bool nvme_dev_write_cache_enabled(const struct nvme_dev *d);

/* With params.track_durability: whether the newest acknowledged data of
 * every block of [slba, slba + nlb) is on media now. */
bool nvme_dev_on_media(const struct nvme_dev *d, uint64_t slba, uint64_t nlb);

/*
 * Power loss at the current simulated time: the volatile cache and every
 * command in flight are lost, the controller stops (registers read as all
 * ones, as a device gone from the bus). With params.track_durability the
 * durability report is then available. Calling it twice does nothing.
 */
void nvme_dev_power_loss(struct nvme_dev *d);
bool nvme_dev_powered(const struct nvme_dev *d);

/*
 * After a power loss (tracked devices only): per LBA range of acknowledged
 * writes, whether the newest acknowledged data is on media ("durable"),
 * was lost although the host was never told it was durable ("lost"), or
 * was lost although it was ("violation"). Counts are of writes. A device
 * whose tracking hit params.durability_max_ranges reports only that.
 */
struct nvme_durability_summary {
	bool available;			/* power lost with tracking on */
	bool complete;			/* the range cap was never hit */
	sim_time power_lost_at;
	sim_time tracking_stopped_at;	/* when !complete */
	uint64_t acked_writes;
	uint64_t lost_writes;		/* newest data lost */
	uint64_t violations;		/* promised durable, lost */
	uint64_t durable_blocks, lost_blocks, violated_blocks;
};

const struct nvme_durability_summary *
nvme_dev_durability_summary(const struct nvme_dev *d);
char *nvme_dev_durability_report_text(const struct nvme_dev *d);
json_object *nvme_dev_durability_report_json(const struct nvme_dev *d);

#endif
