/*
 * Controller registers: CAP, VS, CC, CSTS, AQA/ASQ/ACQ, doorbells,
 * enable and reset.
 *
 * Stands for: NVMe Base 2.0 3.1 (controller registers) and 3.5
 * (controller initialization and reset).

 */
#include "nvme_impl.h"
/* --- registers ------------------------------------------------------------------ */

static void reset(struct nvme_dev *d)
{
	/* Commands in flight are dropped with their queues; the cache keeps
	 * its data and goes on destaging (a reset is not a power loss). The
	 * register write comes from a host event, which in all likelihood was
	 * scheduled after the fetch of a Write due now. */
	dev_unstart_writes(d, true);
	d->epoch++;
	dev_free_queues(d);
	d->media_wait = d->room_wait = d->drain_wait = (struct fifo){0};
	d->units_busy = 0;
	if (d->outstanding)
		d->cnt.busy_ns += now(d) - d->busy_since;
	d->outstanding = 0;
	d->nsq_alloc = d->ncq_alloc = d->p.max_io_queues;
	d->io_queue_created = false;
	d->coalesce_thr = d->coalesce_time = 0;
	/* The volatile write cache feature does not persist across reset. */
	d->wce = d->p.vwc_present && d->p.write_cache_enabled;
	d->csts = 0;
}

/* CC.EN 0 -> 1: the admin queue and page size checks QEMU and the
 * specification make before setting CSTS.RDY (3.5.1). */
static bool enable_ok(const struct nvme_dev *d, uint32_t cc)
{
	uint32_t mps = NVME_CC_MPS(cc), page = 4096u << mps;

	return (d->aqa & 0xfff) != 0 && ((d->aqa >> 16) & 0xfff) != 0 &&
	       !(d->asq & (page - 1)) && !(d->acq & (page - 1)) &&
	       NVME_CC_CSS(cc) == 0 && mps <= d->p.mps_max &&
	       NVME_CC_IOSQES(cc) == 6 && NVME_CC_IOCQES(cc) == 4;
}

static void write_cc(struct nvme_dev *d, uint32_t v)
{
	uint32_t old = d->cc;

	d->cc = v;
	/* Enable or reset first, so that a write setting EN = 0 and SHN
	 * together leaves the shutdown status of the second. */
	if ((v & NVME_CC_EN) && !(old & NVME_CC_EN)) {
		if (enable_ok(d, v)) {
			d->page_size = 4096u << NVME_CC_MPS(v);
			after(d, d->p.enable_latency, EV_READY, NULL);
		} else {
			d->csts |= NVME_CSTS_CFS;
		}
	} else if (!(v & NVME_CC_EN) && (old & NVME_CC_EN)) {
		reset(d);
	}
	if (NVME_CC_SHN(v) && !NVME_CC_SHN(old)) {
		/* Shutdown: busy until the cache has reached media. */
		d->csts &= ~(3u << 2);
		if (d->ring_len == 0) {
			d->csts |= NVME_CSTS_SHST_DONE << 2;
		} else {
			d->csts |= NVME_CSTS_SHST_BUSY << 2;
			d->shutdown_pending = true;
		}
	} else if (!NVME_CC_SHN(v) && NVME_CC_SHN(old)) {
		d->csts &= ~(3u << 2);
		d->shutdown_pending = false;
	}
}

void dev_ready(struct nvme_dev *d)
{
	dev_alloc_cq(d, 0, d->acq, ((d->aqa >> 16) & 0xfff) + 1, 0, true);
	dev_alloc_sq(d, 0, 0, d->asq, (d->aqa & 0xfff) + 1);
	d->csts |= NVME_CSTS_RDY;
}

/* Post the completions that waited for room in cq, as far as it has. */
void dev_cq_drain(struct nvme_dev *d, struct dev_cq *cq)
{
	while (!dev_cq_full(d, cq) && cq->full_wait.head) {
		struct dev_cmd *cmd = fifo_pop(&cq->full_wait);
		dev_write_cqe(d, cq, cmd);
		dev_release(d, cmd);
	}
}

void nvme_dev_cq_doorbell_at(struct nvme_dev *d, uint16_t qid, uint32_t head,
			     sim_time at)
{
	struct dev_cq *cq = &d->cq[qid];

	if (qid == 0 || qid > d->p.max_io_queues || !(d->csts & NVME_CSTS_RDY) ||
	    !cq->live || head >= cq->size || at < now(d)) {
		d->cnt.bad_doorbells++;
		return;
	}
	dev_cq_full(d, cq);		/* an earlier one told ahead is in by now */
	g_assert(!cq->head_pending);
	cq->head_pending = true;
	cq->head_next = head;
	cq->head_next_at = at;
	if (cq->full_wait.head)
		after(d, at - now(d), EV_CQ_HEAD, cq);
}

static void doorbell(struct nvme_dev *d, uint64_t offset, uint32_t v)
{
	uint64_t idx = (offset - NVME_REG_DBS) / 4;
	uint64_t qid = idx / 2;

	if (offset & 3 || qid > d->p.max_io_queues || !(d->csts & NVME_CSTS_RDY))
		goto bad;
	if (idx & 1) {
		struct dev_cq *cq = &d->cq[qid];
		if (!cq->live || v >= cq->size)
			goto bad;
		cq->head = v;
		cq->head_pending = false;
		dev_cq_drain(d, cq);
		return;
	}
	struct dev_sq *sq = &d->sq[qid];
	if (!sq->live || v >= sq->size)
		goto bad;
	sq->tail = v;
	dev_sq_kick(d, sq);
	return;
bad:
	/* The specification reports these through an asynchronous event,
	 * which the model does not implement; it counts them instead. */
	d->cnt.bad_doorbells++;
}

uint64_t nvme_dev_mmio_read(struct nvme_dev *d, uint64_t offset, unsigned size)
{
	uint64_t v;

	if (!d->powered)
		return size == 8 ? UINT64_MAX : UINT32_MAX;
	switch (offset & ~(uint64_t)3) {
	case NVME_REG_CAP:
		v = d->cap;
		break;
	case NVME_REG_CAP + 4:
		v = d->cap >> 32;
		break;
	case NVME_REG_VS:
		v = d->p.version;
		break;
	case NVME_REG_INTMS:
	case NVME_REG_INTMC:
		v = d->intms;
		break;
	case NVME_REG_CC:
		v = d->cc;
		break;
	case NVME_REG_CSTS:
		v = d->csts;
		break;
	case NVME_REG_AQA:
		v = d->aqa;
		break;
	case NVME_REG_ASQ:
		v = d->asq;
		break;
	case NVME_REG_ASQ + 4:
		v = d->asq >> 32;
		break;
	case NVME_REG_ACQ:
		v = d->acq;
		break;
	case NVME_REG_ACQ + 4:
		v = d->acq >> 32;
		break;
	default:
		v = 0;
	}
	return size == 8 ? v : (uint32_t)v;
}

static void set_half(uint64_t *reg, uint64_t offset, unsigned size, uint64_t v)
{
	if (size == 8)
		*reg = v;
	else if (offset & 4)
		*reg = (*reg & 0xffffffffu) | v << 32;
	else
		*reg = (*reg & ~(uint64_t)0xffffffffu) | (uint32_t)v;
}

void nvme_dev_mmio_write(struct nvme_dev *d, uint64_t offset, unsigned size,
			 uint64_t value)
{
	uint32_t v = (uint32_t)value;

	if (!d->powered)
		return;
	if (offset >= NVME_REG_DBS) {
		doorbell(d, offset, v);
		return;
	}
	switch (offset & ~(uint64_t)3) {
	case NVME_REG_INTMS:
		d->intms |= v;
		break;
	case NVME_REG_INTMC:
		d->intms &= ~v;
		break;
	case NVME_REG_CC:
		write_cc(d, v);
		break;
	case NVME_REG_AQA:
		d->aqa = v;
		break;
	case NVME_REG_ASQ:
	case NVME_REG_ASQ + 4:
		set_half(&d->asq, offset, size, value);
		break;
	case NVME_REG_ACQ:
	case NVME_REG_ACQ + 4:
		set_half(&d->acq, offset, size, value);
		break;
	default:
		break;	/* read-only or reserved */
	}
}

