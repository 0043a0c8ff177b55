/*
 * The NVMe PCI host driver.
 *
 * Stands for drivers/nvme/host/pci.c and core.c: nvme_reset_work
 * (controller enable, admin queue, Identify, Set Features Number of
 * Queues, one I/O queue pair per CPU plus poll queues, or what the
 * controller grants, shared by the CPUs), nvme_queue_rq
 * (nvme_setup_cmd, nvme_map_data, the SQE copy, the SQ tail doorbell when
 * the batch ends: bd->last), nvme_irq -> nvme_poll_cq -> nvme_handle_cqe ->
 * nvme_pci_complete_rq (or, with the kernel switch nvme_complete_batch,
 * Linux 5.16, blk_mq_add_to_batch and then nvme_pci_complete_batch ->
 * blk_mq_end_request_batch for all the CQEs of a pass), and nvme_poll for
 * polled queues.
 *
 * The driver owns the queues' rings in simulated host memory; the device
 * reads SQEs and writes CQEs there by DMA. Each I/O queue's interrupt
 * vector is affine to the CPUs whose submissions use that queue (managed
 * IRQ affinity) and fires on the first of them, so with a queue per CPU a
 * completion interrupts the submitting CPU. Poll
 * queues have no interrupt: the device's CQE write wakes the task spinning
 * on that queue.
 *
 * Parameters (host profile, model "nvme_drv"): CPU costs queue_rq_ns,
 * map_seg_ns, sq_doorbell_ns, irq_ns, cqe_ns, complete_batch_ns,
 * cq_doorbell_ns, poll_ns; module parameters io_queue_depth, poll_queues.
 * complete_batch_ns is the part of blk_mq's end_request_ns that a batch
 * pays once (the clock read, the tag and queue reference release): a batch
 * of one costs what an unbatched end does, each further request saves it.
 *
 * Left out: PRP lists and SGLs as memory (payload addresses are
 * symbolic), interrupt coalescing by the driver, write queues, timeouts
 * and resets, multiple namespaces (namespace 1 is the block device).
 */
#include <glib.h>
#include <string.h>

#include "devices/nvme_spec.h"
#include "drivers/nvme.h"
#include "engine/util.h"

#define P(field) offsetof(struct nvme_drv_params, field)
const struct param_def nvme_drv_param_table[] = {
	{"queue_rq_ns", PARAM_TIME, P(queue_rq), "80", 0, 1e6, "ns",
	 "nvme_queue_rq: nvme_setup_cmd, map one data segment, copy the SQE"},
	{"map_seg_ns", PARAM_TIME, P(map_seg), "15", 0, 1e6, "ns",
	 "per data segment beyond the first (PRP list entries)"},
	{"sq_doorbell_ns", PARAM_TIME, P(sq_doorbell), "30", 0, 1e6, "ns",
	 "write the SQ tail doorbell (posted MMIO write)"},
	{"irq_ns", PARAM_TIME, P(irq), "50", 0, 1e6, "ns",
	 "nvme_irq: look at the completion queue"},
	{"cqe_ns", PARAM_TIME, P(cqe), "40", 0, 1e6, "ns",
	 "per CQE: nvme_handle_cqe, find the request, complete it"},
	{"complete_batch_ns", PARAM_TIME, P(complete_batch), "30", 0, 1e6, "ns",
	 "nvme_pci_complete_batch, once per batch: the part of blk_mq.end_request_ns "
	 "(clock read, tag and queue reference release) a batch pays once"},
	{"cq_doorbell_ns", PARAM_TIME, P(cq_doorbell), "30", 0, 1e6, "ns",
	 "write the CQ head doorbell"},
	{"poll_ns", PARAM_TIME, P(poll), "40", 0, 1e6, "ns",
	 "one nvme_poll pass over a poll queue"},
	{"io_queue_depth", PARAM_U32, P(io_queue_depth), "1024", 2, 65536, "count",
	 "entries per I/O queue (module parameter io_queue_depth)"},
	{"poll_queues", PARAM_U32, P(poll_queues), "0", 0, 256, "count",
	 "polled I/O queues (module parameter poll_queues)"},
	PARAM_END,
};

/* Simulated host memory: one region per ring, plus scratch for admin data. */
#define MEM_QUEUE_SHIFT 24u
#define MEM_CQ_OFFSET (1u << 23)
#define MEM_DSM_OFFSET (MEM_CQ_OFFSET + (1u << 22))	/* a DSM range per entry */
#define MEM_SCRATCH ((uint64_t)0xffff << MEM_QUEUE_SHIFT)
#define MEM_DATA (UINT64_C(1) << 44)	/* payload: symbolic, never read */

struct nvme_queue {
	struct nvme_drv *drv;
	uint16_t qid;
	uint16_t vector;
	unsigned cpu;		/* the CPU its interrupt is affine to */
	bool poll;
	struct nvme_sqe *sq;
	struct nvme_cqe *cq;
	sim_time *cqe_at;	/* when the device wrote each CQ entry */
	struct nvme_dsm_range *dsm;	/* by tag: a discard's range list */
	uint32_t depth;
	uint32_t sq_tail;
	uint32_t cq_head;
	uint8_t cq_phase;
	/* Entries queued and CQEs consumed since the start, and how many of
	 * each the last doorbell written announced: a doorbell is written at
	 * the end of the work that queued it, so one from a context that an
	 * interrupt preempted can come after the interrupt's newer one; the
	 * kernel writes it under the queue's lock, never going backwards. */
	uint64_t sq_count, sq_count_rung;
	uint64_t cq_count, cq_count_rung;
	struct blk_hctx *hctx;
	/* The tasks spinning for a CQE on this poll queue: several when CPUs
	 * share it (fewer poll queues than CPUs), each woken by the next CQE. */
	struct task **pollers;
	unsigned npollers, pollers_cap;
};

struct nvme_drv {
	struct sim_component comp;
	struct host *h;
	struct sim *sim;
	char *name;
	struct nvme_drv_params p;
	const struct kernel_features *k;
	struct nvme_dev_params devp;
	struct nvme_dev *dev;
	struct nvme_queue *queues;	/* [0] admin, [1..n] I/O */
	unsigned nqueues;		/* 1 + the I/O queues the device granted */
	unsigned ndefault, npoll;	/* I/O queues with an interrupt, polled */
	uint8_t scratch[NVME_IDENTIFY_SIZE];
	uint16_t admin_cid;
	struct blk_queue *q;
	bool power_lost;
	bool traced;		/* an I/O with latency stamps came by */
};

enum { DRV_IRQ, DRV_SQ_DOORBELL, DRV_CQ_DOORBELL };

static stage_id st_queue_rq, st_map, st_sq_db, st_irq, st_cqe, st_batch,
	st_cq_db, st_poll;

/* The rings of a queue and when each CQ entry came: made as the queue is
 * first used, so that a queue no CPU submits to (one per CPU and drive,
 * as the kernel makes them) costs no ring memory. */
static __attribute__((noinline, cold)) void queue_rings(struct nvme_queue *nq)
{
	nq->sq = g_new0(struct nvme_sqe, nq->depth);
	nq->cq = g_new0(struct nvme_cqe, nq->depth);
	nq->cqe_at = g_new0(sim_time, nq->depth);
}

static inline void queue_rings_need(struct nvme_queue *nq)
{
	if (__builtin_expect(!nq->sq, 0))
		queue_rings(nq);
}

static void *mem_at(struct nvme_drv *d, uint64_t addr, size_t len)
{
	if (addr >= MEM_DATA)
		return NULL;
	if ((addr & ~(uint64_t)(NVME_IDENTIFY_SIZE - 1)) == MEM_SCRATCH) {
		g_assert(addr - MEM_SCRATCH + len <= sizeof(d->scratch));
		return d->scratch + (addr - MEM_SCRATCH);
	}
	unsigned qid = (unsigned)(addr >> MEM_QUEUE_SHIFT);
	uint64_t off = addr & ((1u << MEM_QUEUE_SHIFT) - 1);
	g_assert(qid < d->nqueues);
	struct nvme_queue *nq = &d->queues[qid];
	/* The device reaches a queue's rings only after its doorbell, so
	 * after nvme_queue_rq made them. */
	if (off >= MEM_DSM_OFFSET) {
		off -= MEM_DSM_OFFSET;
		if (!nq->dsm)
			nq->dsm = g_new0(struct nvme_dsm_range, nq->depth);
		g_assert(off + len <= nq->depth * sizeof(struct nvme_dsm_range));
		return (uint8_t *)nq->dsm + off;
	}
	if (off >= MEM_CQ_OFFSET) {
		off -= MEM_CQ_OFFSET;
		g_assert(off + len <= nq->depth * sizeof(struct nvme_cqe));
		return (uint8_t *)nq->cq + off;
	}
	g_assert(off + len <= nq->depth * sizeof(struct nvme_sqe));
	return (uint8_t *)nq->sq + off;
}

/* An SQE read or a CQE written is copied inline, by size known here: the
 * library's memcpy for a length only known at run time cost a call and
 * its size dispatch on both, twice per I/O. */
static inline void copy_entry(void *dst, const void *src, size_t len)
{
	if (len == NVME_SQE_SIZE)
		memcpy(dst, src, NVME_SQE_SIZE);
	else if (len == NVME_CQE_SIZE)
		memcpy(dst, src, NVME_CQE_SIZE);
	else
		memcpy(dst, src, len);
}

/* Every task spinning on the queue sees the new CQE: in the kernel each
 * one's blk_rq_poll finds it, whoever's request it completes. */
static void pollers_wake(struct nvme_queue *nq)
{
	unsigned n = nq->npollers;

	nq->npollers = 0;
	for (unsigned i = 0; i < n; i++)
		task_wake(nq->pollers[i]);
}

static __attribute__((noinline, cold)) void pollers_grow(struct nvme_queue *nq)
{
	nq->pollers_cap = nq->pollers_cap ? 2 * nq->pollers_cap : 2;
	nq->pollers = g_renew(struct task *, nq->pollers, nq->pollers_cap);
}

static void pollers_add(struct nvme_queue *nq, struct task *t)
{
	for (unsigned i = 0; i < nq->npollers; i++)
		if (nq->pollers[i] == t)
			return;
	if (nq->npollers == nq->pollers_cap)
		pollers_grow(nq);
	nq->pollers[nq->npollers++] = t;
}

static void host_dma_read(void *host, uint64_t addr, void *buf, size_t len)
{
	void *src = mem_at(host, addr, len);
	if (src)
		copy_entry(buf, src, len);
	else
		memset(buf, 0, len);
}

static void host_dma_write(void *host, uint64_t addr, const void *buf, size_t len)
{
	struct nvme_drv *d = host;
	void *dst = mem_at(d, addr, len);

	if (!dst)
		return;
	copy_entry(dst, buf, len);
	unsigned qid = (unsigned)(addr >> MEM_QUEUE_SHIFT);
	if (addr >= MEM_SCRATCH)
		return;
	struct nvme_queue *nq = &d->queues[qid];
	uint64_t off = addr & ((1u << MEM_QUEUE_SHIFT) - 1);
	if ((!d->traced && !nq->npollers) || off < MEM_CQ_OFFSET ||
	    off >= MEM_DSM_OFFSET)
		return;
	if (d->traced)
		nq->cqe_at[(off - MEM_CQ_OFFSET) / sizeof(struct nvme_cqe)] =
			sim_now(d->sim);
	if (nq->poll && nq->npollers)
		pollers_wake(nq);
}

static void host_irq(void *host, uint16_t vector)
{
	struct nvme_drv *d = host;

	if (vector == 0 || vector >= d->nqueues)
		return;	/* the admin queue is polled by the set-up code */
	struct nvme_queue *nq = &d->queues[vector];
	cpu_raise_irq(host_cpu(d->h, nq->cpu), SIM_MSG(&d->comp, DRV_IRQ, nq, 0));
}

/* The machine lost power with its drive: nothing after this point
 * happens, so the simulation ends here. */
static void host_power_lost(void *host)
{
	struct nvme_drv *d = host;

	d->power_lost = true;
	d->sim->stop = true;
}

static const struct nvme_host_ops host_ops = {
	.dma_read = host_dma_read,
	.dma_write = host_dma_write,
	.irq = host_irq,
	.power_lost = host_power_lost,
};

static uint64_t sq_addr(uint16_t qid)
{
	return (uint64_t)qid << MEM_QUEUE_SHIFT;
}

static uint64_t cq_addr(uint16_t qid)
{
	return sq_addr(qid) + MEM_CQ_OFFSET;
}

static uint64_t sq_doorbell(uint16_t qid)
{
	return NVME_REG_DBS + 8u * qid;
}

static void queue_alloc(struct nvme_drv *d, uint16_t qid, uint32_t depth)
{
	struct nvme_queue *nq = &d->queues[qid];
	*nq = (struct nvme_queue){.drv = d, .qid = qid, .depth = depth,
				   .cq_phase = 1, .vector = qid};
}

/* ---- bring-up: admin commands with the simulation run until done ---- */

static bool cq_has_entry(const struct nvme_queue *nq)
{
	return NVME_CQE_PHASE(&nq->cq[nq->cq_head]) == nq->cq_phase;
}

static struct nvme_cqe cq_pop(struct nvme_queue *nq)
{
	struct nvme_cqe c = nq->cq[nq->cq_head];
	nq->cq_count++;
	if (++nq->cq_head == nq->depth) {
		nq->cq_head = 0;
		nq->cq_phase ^= 1;
	}
	return c;
}

static bool admin(struct nvme_drv *d, struct nvme_sqe *sqe, uint32_t *result,
		  GError **err)
{
	struct nvme_queue *aq = &d->queues[0];

	sqe->cid = d->admin_cid++;
	aq->sq[aq->sq_tail] = *sqe;
	aq->sq_tail = (aq->sq_tail + 1) % aq->depth;
	nvme_dev_mmio_write(d->dev, sq_doorbell(0), 4, aq->sq_tail);
	for (int spins = 0; !cq_has_entry(aq); spins++) {
		sim_time next;
		if (!sim_next_time(d->sim, &next) || spins > 1000000) {
			g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_EXTERNAL,
				    "%s: admin command %#x got no completion",
				    d->name, sqe->opcode);
			return false;
		}
		sim_run(d->sim, next);
	}
	struct nvme_cqe c = cq_pop(aq);
	nvme_dev_mmio_write(d->dev, sq_doorbell(0) + 4, 4, aq->cq_head);
	if (NVME_CQE_STATUS(&c)) {
		g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_EXTERNAL,
			    "%s: admin command %#x failed: %s", d->name, sqe->opcode,
			    nvme_status_name(NVME_CQE_STATUS(&c)));
		return false;
	}
	if (result)
		*result = c.result;
	return true;
}

static bool bring_up(struct nvme_drv *d, uint32_t *mdts_bytes, uint32_t *lbs,
		     uint64_t *blocks, bool *vwc, bool *dsm, GError **err)
{
	struct nvme_sqe sqe;
	uint64_t cap = nvme_dev_mmio_read(d->dev, NVME_REG_CAP, 8);
	uint32_t mqes = NVME_CAP_MQES(cap) + 1;

	nvme_dev_mmio_write(d->dev, NVME_REG_CC, 4, 0);
	nvme_dev_mmio_write(d->dev, NVME_REG_AQA, 4, NVME_AQA(d->queues[0].depth,
							     d->queues[0].depth));
	nvme_dev_mmio_write(d->dev, NVME_REG_ASQ, 8, sq_addr(0));
	nvme_dev_mmio_write(d->dev, NVME_REG_ACQ, 8, cq_addr(0));
	nvme_dev_mmio_write(d->dev, NVME_REG_CC, 4, NVME_CC_ENABLE_DEFAULT);
	while (!(nvme_dev_mmio_read(d->dev, NVME_REG_CSTS, 4) & NVME_CSTS_RDY)) {
		sim_time next;
		if (!sim_next_time(d->sim, &next)) {
			g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_EXTERNAL,
				    "%s: controller never became ready", d->name);
			return false;
		}
		sim_run(d->sim, next);
	}

	nvme_sqe_identify(&sqe, NVME_CNS_CTRL, 0, MEM_SCRATCH);
	if (!admin(d, &sqe, NULL, err))
		return false;
	uint8_t mdts = d->scratch[NVME_IDC_MDTS];
	*mdts_bytes = mdts ? (uint32_t)(4096u << mdts) : 0;
	*vwc = d->scratch[NVME_IDC_VWC] & NVME_VWC_PRESENT;
	*dsm = nvme_get16(d->scratch + NVME_IDC_ONCS) & NVME_ONCS_DSM;

	nvme_sqe_identify(&sqe, NVME_CNS_NS, 1, MEM_SCRATCH);
	if (!admin(d, &sqe, NULL, err))
		return false;
	*blocks = nvme_get64(d->scratch + NVME_IDNS_NSZE);
	uint8_t flbas = d->scratch[NVME_IDNS_FLBAS] & 0xf;
	*lbs = 1u << d->scratch[NVME_IDNS_LBAF_LBADS(flbas)];

	/* nvme_setup_io_queues: ask for a queue per CPU plus the poll
	 * queues; a device that grants fewer gets them all, poll queues
	 * first cut to leave at least one with an interrupt
	 * (nvme_setup_irqs), and the CPUs share what is left. */
	unsigned nio = d->nqueues - 1;
	uint32_t granted;
	nvme_sqe_set_num_queues(&sqe, (uint16_t)nio, (uint16_t)nio);
	if (!admin(d, &sqe, &granted, err))
		return false;
	nio = MIN(nio, MIN(granted & 0xffff, granted >> 16) + 1);
	d->npoll = MIN(d->p.poll_queues, nio - 1);
	d->ndefault = nio - d->npoll;
	d->nqueues = 1 + nio;
	uint32_t depth = MIN(d->p.io_queue_depth, mqes);
	for (uint16_t qid = 1; qid <= nio; qid++) {
		struct nvme_queue *nq = &d->queues[qid];
		queue_alloc(d, qid, depth);
		nq->poll = qid > d->ndefault;
		nvme_sqe_create_cq(&sqe, qid, depth, cq_addr(qid), qid, !nq->poll);
		if (!admin(d, &sqe, NULL, err))
			return false;
		nvme_sqe_create_sq(&sqe, qid, depth, sq_addr(qid), qid);
		if (!admin(d, &sqe, NULL, err))
			return false;
	}
	return true;
}

/* ---- I/O ---- */

static void nvme_queue_rq(struct xctx *x, struct blk_hctx *hctx,
			  struct request *rq, bool last)
{
	struct nvme_queue *nq = blk_hctx_driver_data(hctx);
	struct nvme_drv *d = nq->drv;
	uint32_t lbs = blk_queue_config(d->q)->logical_block_size;
	queue_rings_need(nq);
	struct nvme_sqe *e = &nq->sq[nq->sq_tail];

	xctx_charge(x, st_queue_rq, d->p.queue_rq);
	if (rq->nr_segs > 1)
		xctx_charge(x, st_map, d->p.map_seg * (rq->nr_segs - 1));
	switch (rq->op) {
	case REQ_OP_READ:
	case REQ_OP_WRITE:
		nvme_sqe_rw(e, rq->op == REQ_OP_WRITE ? NVME_CMD_WRITE : NVME_CMD_READ,
			    1, udiv_fast(rq->sector * 512, lbs),
			    udiv_fast(rq->size, lbs), MEM_DATA, 0, rq->flags & REQ_FUA);
		break;
	case REQ_OP_DRV_IN:
	case REQ_OP_DRV_OUT:
		/* nvme_setup_passthrough: the user's command as it came
		 * (nvme_ioctl.c allows I/O reads and writes only). */
		nvme_sqe_rw(e, rq->cmd_opcode, 1, udiv_fast(rq->sector * 512, lbs),
			    udiv_fast(rq->size, lbs), MEM_DATA, 0, false);
		break;
	case REQ_OP_FLUSH:
		nvme_sqe_flush(e, 1);
		break;
	case REQ_OP_WRITE_ZEROES:
		nvme_sqe_write_zeroes(e, 1, rq->sector * 512 / lbs, rq->size / lbs);
		break;
	case REQ_OP_DISCARD: {
		/* nvme_setup_discard: one range, in memory the device reads
		 * (the request's special payload in the kernel). */
		if (!nq->dsm)
			nq->dsm = g_new0(struct nvme_dsm_range, nq->depth);
		struct nvme_dsm_range *r = &nq->dsm[rq->tag];
		*r = (struct nvme_dsm_range){
			.nlb = rq->size / lbs, .slba = rq->sector * 512 / lbs,
		};
		nvme_sqe_dsm_deallocate(e, 1, 1, sq_addr(nq->qid) + MEM_DSM_OFFSET +
					(uint64_t)rq->tag * sizeof(*r));
		break;
	}
	}
	e->cid = (uint16_t)rq->tag;
	rq->drv = nq;
	d->traced |= blk_rq_traced(rq);
	if (++nq->sq_tail == nq->depth)
		nq->sq_tail = 0;
	nq->sq_count++;
	if (last) {
		xctx_charge(x, st_sq_db, d->p.sq_doorbell);
		xctx_defer(x, SIM_MSG(&d->comp, DRV_SQ_DOORBELL, nq, nq->sq_count));
	}
}

/* The CQ head doorbell, written where x's work charged so far ends. An
 * interrupt handler gets there at a time known now, which the device is
 * told instead of being sent the write later: an event less per
 * interrupt. A polling task may be preempted before: its write waits. */
static void ring_cq_doorbell(struct nvme_drv *d, struct nvme_queue *nq,
			     struct xctx *x)
{
	if (!xctx_in_hardirq(x)) {
		xctx_defer(x, SIM_MSG(&d->comp, DRV_CQ_DOORBELL, nq, nq->cq_count));
		return;
	}
	nq->cq_count_rung = nq->cq_count;
	/* cq_count % depth, which cq_pop keeps in cq_head */
	nvme_dev_cq_doorbell_at(d->dev, nq->qid, nq->cq_head, xctx_clock(x));
}

/*
 * nvme_poll_cq: handle every CQE the device has posted, then ring the CQ
 * doorbell. Without batching each request ends as its CQE is handled
 * (nvme_pci_complete_rq). With it (Linux 5.16) a successful one joins the
 * batch (blk_mq_add_to_batch), and once the doorbell is rung
 * nvme_pci_complete_batch ends them all with blk_mq_end_request_batch,
 * which pays its share of ending a request (complete_batch_ns) once.
 */
static unsigned process_cq(struct nvme_drv *d, struct nvme_queue *nq,
			   struct xctx *x)
{
	struct request *batch = NULL, **tail = &batch;
	unsigned n = 0;

	while (cq_has_entry(nq)) {
		sim_time written = nq->cqe_at[nq->cq_head];
		struct nvme_cqe c = cq_pop(nq);
		struct request *rq = blk_hctx_request(nq->hctx, c.cid);
		if (d->traced) {
			blk_rq_stamp(rq, IOS_DEVICE_DONE, written);
			blk_rq_stamp_cpu(rq, IOS_HANDLE, xctx_clock(x),
					 cpu_id(xctx_cpu(x)));
		}
		xctx_charge(x, st_cqe, d->p.cqe);
		n++;
		if (d->k->nvme_complete_batch && !NVME_CQE_STATUS(&c)) {
			rq->next = NULL;
			*tail = rq;
			tail = &rq->next;
			continue;
		}
		blk_mq_complete_request(x, rq, NVME_CQE_STATUS(&c) ? BLK_STS_IOERR :
					BLK_STS_OK);
	}
	if (n) {
		xctx_charge(x, st_cq_db, d->p.cq_doorbell);
		ring_cq_doorbell(d, nq, x);
	}
	if (batch)
		xctx_charge(x, st_batch, d->p.complete_batch);
	while (batch) {
		/* Ending it may hand its tag, and the request, to a waiting bio. */
		struct request *rq = batch;
		batch = rq->next;
		blk_mq_end_request_batched(x, rq, BLK_STS_OK, d->p.complete_batch);
	}
	return n;
}

static unsigned nvme_poll(struct xctx *x, struct blk_hctx *hctx)
{
	struct nvme_queue *nq = blk_hctx_driver_data(hctx);

	queue_rings_need(nq);
	xctx_charge(x, st_poll, nq->drv->p.poll);
	return process_cq(nq->drv, nq, x);
}

static void nvme_poll_arm(struct blk_hctx *hctx, struct task *poller)
{
	struct nvme_queue *nq = blk_hctx_driver_data(hctx);

	queue_rings_need(nq);
	if (cq_has_entry(nq))
		task_wake(poller);
	else
		pollers_add(nq, poller);
}

/* The requests a doorbell announces, up to the count of entries queued
 * when it was written, reach the device now. */
static void stamp_issued(struct nvme_drv *d, struct nvme_queue *nq,
			 uint64_t sq_count)
{
	sim_time now = sim_now(d->sim);

	for (uint64_t n = nq->sq_count_rung; n < sq_count; n++) {
		const struct nvme_sqe *e = &nq->sq[n % nq->depth];
		struct request *rq = blk_hctx_request(nq->hctx, e->cid);
		blk_rq_stamp(rq, IOS_ISSUE, now);
	}
}

static void drv_handle(struct sim_component *c, unsigned type, void *ptr,
		       uint64_t arg)
{
	struct nvme_drv *d = (struct nvme_drv *)c;
	struct nvme_queue *nq = ptr;

	switch (type) {
	case DRV_IRQ: {
		struct xctx *x = host_current(d->h);
		xctx_charge(x, st_irq, d->p.irq);
		process_cq(d, nq, x);
		break;
	}
	case DRV_SQ_DOORBELL:
		if (arg <= nq->sq_count_rung)
			break;	/* a newer doorbell announced these already */
		if (d->traced)
			stamp_issued(d, nq, arg);
		nq->sq_count_rung = arg;
		nvme_dev_mmio_write(d->dev, sq_doorbell(nq->qid), 4,
				    (uint32_t)umod_fast(arg, nq->depth));
		break;
	case DRV_CQ_DOORBELL:
		if (arg <= nq->cq_count_rung)
			break;
		nq->cq_count_rung = arg;
		nvme_dev_mmio_write(d->dev, sq_doorbell(nq->qid) + 4, 4,
				    (uint32_t)umod_fast(arg, nq->depth));
		break;
	}
}

static const struct sim_component_ops drv_ops = {
	.name = "nvme_drv",
	.handle = drv_handle,
};

static const struct blk_driver_ops nvme_blk_ops = {
	.name = "nvme",
	.queue_rq = nvme_queue_rq,
	.poll = nvme_poll,
	.poll_arm = nvme_poll_arm,
};

struct nvme_drv *nvme_drv_new(struct host *h, const char *name,
			      const struct nvme_dev_params *devp,
			      const struct nvme_drv_params *p,
			      const struct blk_mq_params *blk,
			      const struct kernel_features *k, GError **err)
{
	struct nvme_drv *d;
	unsigned ncpus = host_ncpus(h);
	uint32_t mdts_bytes, lbs;
	uint64_t blocks;
	bool vwc, dsm;

	if (k->nvme_complete_batch && p->complete_batch > blk->end_request) {
		storsim_input_error(err, NULL, 0, "nvme_drv.complete_batch_ns",
				    "%s: %" G_GUINT64_FORMAT " ns is more than "
				    "blk_mq.end_request_ns (%" G_GUINT64_FORMAT " ns), "
				    "of which it is the part a batch pays once", name,
				    p->complete_batch, blk->end_request);
		return NULL;
	}
	d = g_new0(struct nvme_drv, 1);
	st_queue_rq = stage_register("nvme_queue_rq", CPU_SYS,
				     "nvme_queue_rq, nvme_setup_cmd, nvme_map_data");
	st_map = stage_register("nvme_map_data", CPU_SYS, "nvme_map_data (PRP list)");
	st_sq_db = stage_register("nvme_sq_doorbell", CPU_SYS,
				  "nvme_write_sq_db");
	st_irq = stage_register("nvme_irq", CPU_SYS, "nvme_irq");
	st_cqe = stage_register("nvme_handle_cqe", CPU_SYS,
				"nvme_handle_cqe, nvme_pci_complete_rq");
	st_batch = stage_register("nvme_complete_batch", CPU_SYS,
				  "nvme_pci_complete_batch");
	st_cq_db = stage_register("nvme_cq_doorbell", CPU_SYS, "nvme_ring_cq_doorbell");
	st_poll = stage_register("nvme_poll", CPU_SYS, "nvme_poll");

	d->h = h;
	d->sim = host_sim(h);
	d->name = g_strdup(name);
	d->p = *p;
	d->k = k;
	sim_component_init(d->sim, &d->comp, &drv_ops, d->name);
	d->nqueues = 1 + ncpus + p->poll_queues;
	d->queues = g_new0(struct nvme_queue, d->nqueues);
	queue_alloc(d, 0, 32);
	queue_rings(&d->queues[0]);
	d->dev = nvme_dev_new(d->sim, d->name, devp, &host_ops, d, err);
	if (!d->dev || !bring_up(d, &mdts_bytes, &lbs, &blocks, &vwc, &dsm, err)) {
		nvme_drv_free(d);
		return NULL;
	}
	uint32_t max_bytes = mdts_bytes ? MIN(mdts_bytes, 1u << 20) : 1u << 20;
	struct blk_queue_config cfg = {
		.name = name,
		.nr_hw_queues = d->ndefault,
		.nr_poll_queues = d->npoll,
		.queue_depth = d->queues[1].depth - 1,
		.logical_block_size = lbs,
		.max_sectors = max_bytes / 512,
		.max_segments = 128,
		.capacity = blocks * lbs,
		.write_cache = vwc,
		.fua = vwc,
		.nowait = true,
		.discard = dsm,
		.plug_max = d->k->blk_plug_32 ? 32 : 16,
	};
	d->q = blk_queue_new(h, blk, &cfg, &nvme_blk_ops, d);
	for (unsigned i = 0; i < blk_queue_nr_hctx(d->q); i++) {
		struct blk_hctx *hc = blk_queue_hctx(d->q, i);
		struct nvme_queue *nq = &d->queues[i + 1];
		nq->hctx = hc;
		blk_hctx_set_driver_data(hc, nq);
	}
	/* Managed IRQ affinity: a queue's vector is affine to the CPUs that
	 * blk-mq maps to it, and fires on the first of them. */
	for (unsigned c = ncpus; c-- > 0;)
		((struct nvme_queue *)blk_hctx_driver_data(
			blk_queue_map(d->q, c, false)))->cpu = c;
	return d;
}

void nvme_drv_free(struct nvme_drv *d)
{
	if (!d)
		return;
	blk_queue_free(d->q);
	nvme_dev_free(d->dev);
	for (unsigned i = 0; i < d->nqueues; i++) {
		g_free(d->queues[i].sq);
		g_free(d->queues[i].cq);
		g_free(d->queues[i].cqe_at);
		g_free(d->queues[i].dsm);
		g_free(d->queues[i].pollers);
	}
	g_free(d->queues);
	g_free(d->name);
	g_free(d);
}

struct blk_queue *nvme_drv_queue(struct nvme_drv *d)
{
	return d->q;
}

struct nvme_dev *nvme_drv_device(struct nvme_drv *d)
{
	return d->dev;
}

bool nvme_drv_power_lost(const struct nvme_drv *d)
{
	return d->power_lost;
}
