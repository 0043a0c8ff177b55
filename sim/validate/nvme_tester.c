/*
 * Host-side NVMe test driver over a transport (see nvme_tester.h): the
 * steps a host driver takes to bring a controller up (NVMe Base
 * Specification 2.0, 3.5.1), submit commands and poll completions by
 * their phase tag (4.6), and the two transports it runs over.
 *
 * Parameters: the time limit of every wait (ns of the transport's clock).
 * Sources: NVMe Base 2.0; for QEMU's PCI set-up, the steps recorded in
 * reference/qemu-nvme-and-libvirt.md, 2.3 (configuration mechanism #1
 * through ports 0xcf8/0xcfc, 64-bit BAR0 of 16 KiB, command register bits
 * 1 and 2).
 */
#include <string.h>

#include "nvme_tester.h"
#include "qtest.h"
#include "engine/util.h"

/* Failures of QEMU or of the device under test. */
#define fail(err, ...) \
	g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_EXTERNAL, __VA_ARGS__)

void nvme_tester_init(struct nvme_tester *t, const struct nvme_transport_ops *ops,
		      void *tr, uint64_t timeout_ns)
{
	*t = (struct nvme_tester){.ops = ops, .tr = tr, .timeout_ns = timeout_ns,
				  .page_size = 4096, .lba_shift = 9};
}

bool nvme_tester_reg_read(struct nvme_tester *t, uint64_t off, unsigned size,
			  uint64_t *v, GError **err)
{
	return t->ops->reg_read(t->tr, off, size, v, err);
}

bool nvme_tester_reg_write(struct nvme_tester *t, uint64_t off, unsigned size,
			   uint64_t v, GError **err)
{
	return t->ops->reg_write(t->tr, off, size, v, err);
}

bool nvme_tester_mem_read(struct nvme_tester *t, uint64_t addr, void *buf,
			  size_t len, GError **err)
{
	return t->ops->mem_read(t->tr, addr, buf, len, err);
}

bool nvme_tester_mem_write(struct nvme_tester *t, uint64_t addr,
			   const void *buf, size_t len, GError **err)
{
	return t->ops->mem_write(t->tr, addr, buf, len, err);
}

/* Poll CSTS until (csts & mask) == want, or CFS, or the time limit. */
static bool wait_csts(struct nvme_tester *t, uint32_t mask, uint32_t want,
		      const char *what, GError **err)
{
	uint64_t start = t->ops->now_ns(t->tr), v;
	bool idle = false;

	for (;;) {
		if (!nvme_tester_reg_read(t, NVME_REG_CSTS, 4, &v, err))
			return false;
		if (v & NVME_CSTS_CFS) {
			fail(err, "controller fatal status while waiting for %s", what);
			return false;
		}
		if ((v & mask) == want)
			return true;
		if (idle || t->ops->now_ns(t->tr) - start > t->timeout_ns) {
			fail(err, "timed out waiting for %s (CSTS %#x)", what,
			     (unsigned)v);
			return false;
		}
		if (!t->ops->progress(t->tr, &idle, err))
			return false;
	}
}

bool nvme_tester_enable(struct nvme_tester *t, uint32_t entries, GError **err)
{
	uint64_t cap;

	if (!nvme_tester_reg_read(t, NVME_REG_CAP, 8, &cap, err) ||
	    !nvme_tester_reg_write(t, NVME_REG_CC, 4, 0, err) ||
	    !wait_csts(t, NVME_CSTS_RDY, 0, "CSTS.RDY = 0", err))
		return false;
	t->cap = cap;
	t->q[0] = (struct nvme_tester_queue){
		.sq_base = NVME_TESTER_ASQ, .cq_base = NVME_TESTER_ACQ,
		.entries = entries, .phase = 1, .live = true,
	};
	/* A zeroed CQ: no stale entry can carry the expected phase. */
	return t->ops->mem_zero(t->tr, NVME_TESTER_ACQ, 4096, err) &&
	       nvme_tester_reg_write(t, NVME_REG_AQA, 4, NVME_AQA(entries, entries),
				     err) &&
	       nvme_tester_reg_write(t, NVME_REG_ASQ, 8, NVME_TESTER_ASQ, err) &&
	       nvme_tester_reg_write(t, NVME_REG_ACQ, 8, NVME_TESTER_ACQ, err) &&
	       /* Mask pin-based interrupts: completions are polled. */
	       nvme_tester_reg_write(t, NVME_REG_INTMS, 4, 0xffffffffu, err) &&
	       nvme_tester_reg_write(t, NVME_REG_CC, 4, NVME_CC_ENABLE_DEFAULT, err) &&
	       wait_csts(t, NVME_CSTS_RDY, NVME_CSTS_RDY, "CSTS.RDY = 1", err);
}

bool nvme_tester_submit(struct nvme_tester *t, unsigned qid,
			const struct nvme_sqe *e, uint16_t *cid, GError **err)
{
	struct nvme_tester_queue *q = &t->q[qid];
	struct nvme_sqe s = *e;

	if (!q->live) {
		fail(err, "queue %u was not created", qid);
		return false;
	}
	s.cid = q->next_cid++;
	if (cid)
		*cid = s.cid;
	if (!nvme_tester_mem_write(t, q->sq_base + (uint64_t)q->sq_tail * NVME_SQE_SIZE,
				   &s, sizeof(s), err))
		return false;
	q->sq_tail = (q->sq_tail + 1) % q->entries;
	return nvme_tester_reg_write(t, NVME_REG_DBS + 8u * qid, 4, q->sq_tail, err);
}

bool nvme_tester_wait(struct nvme_tester *t, unsigned qid, struct nvme_cqe *cqe,
		      GError **err)
{
	struct nvme_tester_queue *q = &t->q[qid];
	uint64_t start = t->ops->now_ns(t->tr);
	uint64_t addr = q->cq_base + (uint64_t)q->cq_head * NVME_CQE_SIZE;
	bool idle = false;

	for (;;) {
		if (!nvme_tester_mem_read(t, addr, cqe, sizeof(*cqe), err))
			return false;
		if (NVME_CQE_PHASE(cqe) == q->phase)
			break;
		if (idle || t->ops->now_ns(t->tr) - start > t->timeout_ns) {
			fail(err, "no completion on queue %u%s", qid,
			     idle ? " (the device went idle)" : " (timed out)");
			return false;
		}
		if (!t->ops->progress(t->tr, &idle, err))
			return false;
	}
	t->cqe_time = t->ops->now_ns(t->tr);
	if (++q->cq_head == q->entries) {
		q->cq_head = 0;
		q->phase ^= 1;
	}
	return nvme_tester_reg_write(t, NVME_REG_DBS + 8u * qid + 4, 4,
				     q->cq_head, err);
}

bool nvme_tester_cmd(struct nvme_tester *t, unsigned qid,
		     const struct nvme_sqe *e, struct nvme_cqe *cqe, GError **err)
{
	uint16_t cid;

	if (!nvme_tester_submit(t, qid, e, &cid, err) ||
	    !nvme_tester_wait(t, qid, cqe, err))
		return false;
	if (cqe->cid != cid) {
		fail(err, "completion for CID %u while waiting for %u", cqe->cid, cid);
		return false;
	}
	return true;
}

bool nvme_tester_create_io_queues(struct nvme_tester *t, uint32_t entries,
				  uint16_t *cq_status, uint16_t *sq_status,
				  GError **err)
{
	struct nvme_sqe e;
	struct nvme_cqe c;

	if (!t->ops->mem_zero(t->tr, NVME_TESTER_IOCQ, 4096, err))
		return false;
	nvme_sqe_create_cq(&e, 1, entries, NVME_TESTER_IOCQ, 0, false);
	if (!nvme_tester_cmd(t, 0, &e, &c, err))
		return false;
	*cq_status = NVME_CQE_STATUS(&c);
	nvme_sqe_create_sq(&e, 1, entries, NVME_TESTER_IOSQ, 1);
	if (!nvme_tester_cmd(t, 0, &e, &c, err))
		return false;
	*sq_status = NVME_CQE_STATUS(&c);
	if (!*cq_status && !*sq_status)
		t->q[1] = (struct nvme_tester_queue){
			.sq_base = NVME_TESTER_IOSQ, .cq_base = NVME_TESTER_IOCQ,
			.entries = entries, .qid = 1, .phase = 1, .live = true,
		};
	return true;
}

bool nvme_tester_identify(struct nvme_tester *t, uint8_t cns, uint32_t nsid,
			  uint8_t *buf, struct nvme_cqe *cqe, GError **err)
{
	struct nvme_sqe e;

	memset(buf, 0xa5, NVME_IDENTIFY_SIZE);
	if (!nvme_tester_mem_write(t, NVME_TESTER_IDENT, buf, NVME_IDENTIFY_SIZE, err))
		return false;
	nvme_sqe_identify(&e, cns, nsid, NVME_TESTER_IDENT);
	return nvme_tester_cmd(t, 0, &e, cqe, err) &&
	       nvme_tester_mem_read(t, NVME_TESTER_IDENT, buf, NVME_IDENTIFY_SIZE,
				    err);
}

bool nvme_tester_prps(struct nvme_tester *t, uint64_t addr, uint64_t len,
		      uint64_t *prp1, uint64_t *prp2, GError **err)
{
	uint64_t ps = t->page_size, pages = (len + ps - 1) / ps;

	*prp1 = addr;
	*prp2 = 0;
	if (pages <= 1)
		return true;
	if (pages == 2) {
		*prp2 = addr + ps;
		return true;
	}
	if (pages - 1 > ps / 8) {
		fail(err, "transfer of %" G_GUINT64_FORMAT " bytes needs more than "
		     "one PRP list page", len);
		return false;
	}
	g_autofree uint64_t *list = g_new(uint64_t, pages - 1);
	for (uint64_t i = 1; i < pages; i++)
		list[i - 1] = addr + i * ps;
	*prp2 = NVME_TESTER_PRPLIST;
	return nvme_tester_mem_write(t, NVME_TESTER_PRPLIST, list,
				     (pages - 1) * sizeof(uint64_t), err);
}

bool nvme_tester_rw(struct nvme_tester *t, uint8_t opcode, uint64_t slba,
		    uint32_t nlb, uint64_t addr, bool fua, struct nvme_cqe *cqe,
		    GError **err)
{
	struct nvme_sqe e;
	uint64_t prp1, prp2;

	if (!nvme_tester_prps(t, addr, (uint64_t)nlb << t->lba_shift, &prp1, &prp2,
			      err))
		return false;
	nvme_sqe_rw(&e, opcode, 1, slba, nlb, prp1, prp2, fua);
	return nvme_tester_cmd(t, 1, &e, cqe, err);
}

bool nvme_tester_shutdown(struct nvme_tester *t, GError **err)
{
	uint64_t cc;

	return nvme_tester_reg_read(t, NVME_REG_CC, 4, &cc, err) &&
	       nvme_tester_reg_write(t, NVME_REG_CC, 4,
				     (cc & ~(3u << 14)) | NVME_CC_SHN_NORMAL << 14,
				     err) &&
	       wait_csts(t, 3u << 2, NVME_CSTS_SHST_DONE << 2, "shutdown", err);
}

/* --- the model transport ----------------------------------------------------- */

#define PAGE 4096u

static uint8_t *model_page(struct nvme_model_host *h, uint64_t addr, bool create)
{
	gpointer key = GSIZE_TO_POINTER(addr / PAGE);
	uint8_t *p = g_hash_table_lookup(h->mem, key);

	if (!p && create) {
		p = g_malloc0(PAGE);
		g_hash_table_insert(h->mem, key, p);
	}
	return p;
}

static void model_copy(struct nvme_model_host *h, uint64_t addr, void *buf,
		       size_t len, bool to_mem)
{
	uint8_t *b = buf;

	while (len) {
		size_t in = addr % PAGE, n = MIN(len, PAGE - in);
		uint8_t *p = model_page(h, addr, to_mem);
		if (to_mem)
			memcpy(p + in, b, n);
		else if (p)
			memcpy(b, p + in, n);
		else
			memset(b, 0, n);
		addr += n;
		b += n;
		len -= n;
	}
}

static void model_dma_read(void *host, uint64_t addr, void *buf, size_t len)
{
	model_copy(host, addr, buf, len, false);
}

/* Every device write may be the CQE being polled for: stop the run so
 * the tester sees it at the simulated time it was written. */
static void model_dma_write(void *host, uint64_t addr, const void *buf, size_t len)
{
	struct nvme_model_host *h = host;
	model_copy(h, addr, (void *)buf, len, true);
	h->sim.stop = true;
}

static void model_irq(void *host, uint16_t vector)
{
	struct nvme_model_host *h = host;
	h->irqs++;
	h->last_vector = vector;
}

static const struct nvme_host_ops model_host_ops = {
	.dma_read = model_dma_read,
	.dma_write = model_dma_write,
	.irq = model_irq,
};

bool nvme_model_host_init(struct nvme_model_host *h,
			  const struct nvme_dev_params *p, uint64_t seed,
			  GError **err)
{
	*h = (struct nvme_model_host){0};
	sim_init(&h->sim, seed);
	h->mem = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
	h->dev = nvme_dev_new(&h->sim, "nvme0", p, &model_host_ops, h, err);
	if (!h->dev) {
		nvme_model_host_destroy(h);
		return false;
	}
	return true;
}

void nvme_model_host_destroy(struct nvme_model_host *h)
{
	nvme_dev_free(h->dev);
	h->dev = NULL;
	if (h->mem)
		g_hash_table_destroy(h->mem);
	h->mem = NULL;
	sim_destroy(&h->sim);
}

static bool model_reg_read(void *t, uint64_t off, unsigned size, uint64_t *v,
			   GError **err)
{
	(void)err;
	*v = nvme_dev_mmio_read(((struct nvme_model_host *)t)->dev, off, size);
	return true;
}

static bool model_reg_write(void *t, uint64_t off, unsigned size, uint64_t v,
			    GError **err)
{
	(void)err;
	nvme_dev_mmio_write(((struct nvme_model_host *)t)->dev, off, size, v);
	return true;
}

static bool model_mem_read(void *t, uint64_t addr, void *buf, size_t len,
			   GError **err)
{
	(void)err;
	model_copy(t, addr, buf, len, false);
	return true;
}

static bool model_mem_write(void *t, uint64_t addr, const void *buf, size_t len,
			    GError **err)
{
	(void)err;
	model_copy(t, addr, (void *)buf, len, true);
	return true;
}

static bool model_mem_zero(void *t, uint64_t addr, size_t len, GError **err)
{
	struct nvme_model_host *h = t;
	(void)err;
	while (len) {
		size_t in = addr % PAGE, n = MIN(len, PAGE - in);
		uint8_t *p = model_page(h, addr, false);
		if (p)
			memset(p + in, 0, n);
		addr += n;
		len -= n;
	}
	return true;
}

static bool model_progress(void *t, bool *idle, GError **err)
{
	struct nvme_model_host *h = t;
	(void)err;
	*idle = sim_run(&h->sim, SIM_TIME_MAX) == 0;
	return true;
}

static uint64_t model_now(void *t)
{
	return sim_now(&((struct nvme_model_host *)t)->sim);
}

const struct nvme_transport_ops nvme_model_transport = {
	.reg_read = model_reg_read,
	.reg_write = model_reg_write,
	.mem_read = model_mem_read,
	.mem_write = model_mem_write,
	.mem_zero = model_mem_zero,
	.progress = model_progress,
	.now_ns = model_now,
};

/* --- the QEMU transport ------------------------------------------------------ */

#define PCI_ADDR 0xcf8
#define PCI_DATA 0xcfc
#define QEMU_BAR0 0xe0000000u	/* free MMIO space below 4 GiB on q35 */

static uint32_t cfg_addr(uint8_t slot, uint8_t reg)
{
	return 0x80000000u | (uint32_t)slot << 11 | reg;
}

static bool cfg_read(struct qtest *q, uint8_t slot, uint8_t reg, uint32_t *v,
		     GError **err)
{
	return qtest_outl(q, PCI_ADDR, cfg_addr(slot, reg), err) &&
	       qtest_inl(q, PCI_DATA, v, err);
}

static bool cfg_write(struct qtest *q, uint8_t slot, uint8_t reg, uint32_t v,
		      GError **err)
{
	return qtest_outl(q, PCI_ADDR, cfg_addr(slot, reg), err) &&
	       qtest_outl(q, PCI_DATA, v, err);
}

bool nvme_qemu_host_init(struct nvme_qemu_host *h, struct qtest *qt,
			 GError **err)
{
	uint32_t id, class, bar, cmd;

	*h = (struct nvme_qemu_host){.qt = qt};
	/* The machine is stopped (-S): firmware never ran, so nothing is
	 * mapped until we program it. */
	for (uint8_t slot = 0; slot < 32; slot++) {
		if (!cfg_read(qt, slot, 0x00, &id, err))
			return false;
		if (id == 0xffffffffu)
			continue;
		if (!cfg_read(qt, slot, 0x08, &class, err))
			return false;
		if (class >> 8 != 0x010802)
			continue;
		h->slot = slot;
		h->vendor = (uint16_t)id;
		h->device = (uint16_t)(id >> 16);
		/* Size BAR0: all ones in, size mask out; it must be a 64-bit
		 * memory BAR. */
		if (!cfg_write(qt, slot, 0x10, 0xffffffffu, err) ||
		    !cfg_read(qt, slot, 0x10, &bar, err))
			return false;
		if ((bar & 0x7) != 0x4) {
			fail(err, "NVMe BAR0 is not a 64-bit memory BAR (%#x)", bar);
			return false;
		}
		h->bar0 = QEMU_BAR0;
		return cfg_write(qt, slot, 0x10, QEMU_BAR0, err) &&
		       cfg_write(qt, slot, 0x14, 0, err) &&
		       cfg_read(qt, slot, 0x04, &cmd, err) &&
		       cfg_write(qt, slot, 0x04, (cmd & 0xffff) | 0x6, err);
	}
	fail(err, "no NVMe controller (class 010802) on PCI bus 0");
	return false;
}

static bool qemu_reg_read(void *t, uint64_t off, unsigned size, uint64_t *v,
			  GError **err)
{
	struct nvme_qemu_host *h = t;
	uint32_t x;

	if (size == 8)
		return qtest_readq(h->qt, h->bar0 + off, v, err);
	if (!qtest_readl(h->qt, h->bar0 + off, &x, err))
		return false;
	*v = x;
	return true;
}

static bool qemu_reg_write(void *t, uint64_t off, unsigned size, uint64_t v,
			   GError **err)
{
	struct nvme_qemu_host *h = t;

	if (size == 8)
		return qtest_writeq(h->qt, h->bar0 + off, v, err);
	return qtest_writel(h->qt, h->bar0 + off, (uint32_t)v, err);
}

static bool qemu_mem_read(void *t, uint64_t addr, void *buf, size_t len,
			  GError **err)
{
	return qtest_memread(((struct nvme_qemu_host *)t)->qt, addr, buf, len, err);
}

static bool qemu_mem_write(void *t, uint64_t addr, const void *buf, size_t len,
			   GError **err)
{
	return qtest_memwrite(((struct nvme_qemu_host *)t)->qt, addr, buf, len, err);
}

static bool qemu_mem_zero(void *t, uint64_t addr, size_t len, GError **err)
{
	return qtest_memset(((struct nvme_qemu_host *)t)->qt, addr, 0, len, err);
}

/* QEMU runs its device in its own main loop: polling again is progress. */
static bool qemu_progress(void *t, bool *idle, GError **err)
{
	(void)t;
	(void)err;
	*idle = false;
	g_usleep(50);
	return true;
}

static uint64_t qemu_now(void *t)
{
	(void)t;
	return (uint64_t)g_get_monotonic_time() * 1000;
}

const struct nvme_transport_ops nvme_qemu_transport = {
	.reg_read = qemu_reg_read,
	.reg_write = qemu_reg_write,
	.mem_read = qemu_mem_read,
	.mem_write = qemu_mem_write,
	.mem_zero = qemu_mem_zero,
	.progress = qemu_progress,
	.now_ns = qemu_now,
};
