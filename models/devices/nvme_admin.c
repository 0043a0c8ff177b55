/*
 * NVMe admin commands: Identify, Get and Set Features, creating and
 * deleting I/O queues.
 *
 * Stands for: NVMe Base 2.0 5.17 (Identify controller and namespace data),
 * 5.27.1 (Volatile Write Cache, Number of Queues, Interrupt Coalescing),
 * 5.4 to 5.7 (Create/Delete I/O Submission and Completion Queue), and
 * QEMU 7.2 hw/nvme/ctrl.c for the order of its checks.
 *
 * Parameters: identity and limits (nvme.c table): serial, model_name,
 * firmware, max_io_queues, msix_vectors, mdts, admin_latency_ns.

 */
#include "nvme_impl.h"
/* --- identify data -------------------------------------------------------- */

static void put_ascii(uint8_t *dst, size_t len, const char *s)
{
	size_t n = s ? strlen(s) : 0;
	memset(dst, ' ', len);
	memcpy(dst, s, MIN(n, len));
}

void dev_build_identify(struct nvme_dev *d)
{
	const struct nvme_dev_params *p = &d->p;
	uint8_t *c = d->id_ctrl, *n = d->id_ns;
	uint16_t oncs = NVME_ONCS_SAVE_SELECT;

	memset(c, 0, NVME_IDENTIFY_SIZE);
	nvme_put16(c + NVME_IDC_VID, (uint16_t)p->vid);
	nvme_put16(c + NVME_IDC_SSVID, (uint16_t)p->ssvid);
	put_ascii(c + NVME_IDC_SN, 20, p->serial);
	put_ascii(c + NVME_IDC_MN, 40, p->model_name);
	put_ascii(c + NVME_IDC_FR, 8, p->firmware);
	c[NVME_IDC_MDTS] = (uint8_t)p->mdts;
	nvme_put32(c + NVME_IDC_VER, p->version);
	c[NVME_IDC_CNTRLTYPE] = 1;	/* I/O controller */
	/* Abort is the only optional-limit admin command; 3 (four aborts) is
	 * the value the specification recommends. */
	c[NVME_IDC_ACL] = 3;
	c[NVME_IDC_SQES] = 0x66;	/* 64-byte SQEs only */
	c[NVME_IDC_CQES] = 0x44;	/* 16-byte CQEs only */
	nvme_put32(c + NVME_IDC_NN, p->nn);
	if (p->dsm)
		oncs |= NVME_ONCS_DSM;
	if (p->write_zeroes)
		oncs |= NVME_ONCS_WRITE_ZEROES;
	nvme_put16(c + NVME_IDC_ONCS, oncs);
	if (p->vwc_present)
		c[NVME_IDC_VWC] = NVME_VWC_PRESENT |
				  (p->flush_broadcast ? NVME_VWC_BCAST_YES :
							NVME_VWC_BCAST_NO);
	g_autofree char *nqn = g_strdup_printf("nqn.2024-01.io.storsim:%s",
					       p->serial ? p->serial : "");
	memcpy(c + NVME_IDC_SUBNQN, nqn, MIN(strlen(nqn), 255u));

	memset(n, 0, NVME_IDENTIFY_SIZE);
	nvme_put64(n + NVME_IDNS_NSZE, p->ns_blocks);
	nvme_put64(n + NVME_IDNS_NCAP, p->ns_blocks);
	nvme_put64(n + NVME_IDNS_NUSE, p->ns_blocks);
	n[NVME_IDNS_NLBAF] = 0;		/* one format */
	n[NVME_IDNS_FLBAS] = 0;
	/* Deallocated blocks read as zeroes: that is what the data store does. */
	n[NVME_IDNS_DLFEAT] = p->dsm ? 1 : 0;
	n[NVME_IDNS_LBAF_LBADS(0)] = (uint8_t)p->lba_shift;
}

/* --- admin commands ----------------------------------------------------------- */

static uint16_t identify(struct nvme_dev *d, struct dev_cmd *cmd)
{
	const struct nvme_sqe *e = &cmd->sqe;
	uint8_t list[NVME_IDENTIFY_SIZE] = {0};

	switch (e->cdw10 & 0xff) {
	case NVME_CNS_NS:
		if (e->nsid == 0 || e->nsid > d->p.nn)
			return NVME_SC_INVALID_NS | NVME_DNR;
		/* An inactive NSID yields a zero-filled structure. */
		return dev_to_host(d, e, e->nsid == 1 ? d->id_ns : list, sizeof(list));
	case NVME_CNS_CTRL:
		return dev_to_host(d, e, d->id_ctrl, sizeof(d->id_ctrl));
	case NVME_CNS_NS_ACTIVE_LIST:
		/* Lists NSIDs greater than the one given; FFFFFFFEh and
		 * FFFFFFFFh leave nothing to list and are invalid. */
		if (e->nsid >= NVME_NSID_BROADCAST - 1)
			return NVME_SC_INVALID_NS | NVME_DNR;
		if (e->nsid < 1)
			nvme_put32(list, 1);
		return dev_to_host(d, e, list, sizeof(list));
	default:
		return NVME_SC_INVALID_FIELD | NVME_DNR;
	}
}

/* Saveable (bit 0), namespace specific (1), changeable (2) per feature;
 * 0 = not supported. No feature is saveable: the model keeps no
 * non-volatile feature store. */
static uint32_t feature_caps(const struct nvme_dev *d, uint8_t fid)
{
	switch (fid) {
	case NVME_FEAT_VOLATILE_WC:
		return d->p.vwc_present ? NVME_FEAT_CAP_CHANGE : 0;
	case NVME_FEAT_NUM_QUEUES:
	case NVME_FEAT_IRQ_COALESCE:
		return NVME_FEAT_CAP_CHANGE;
	default:
		return 0;
	}
}

static uint32_t feature_default(const struct nvme_dev *d, uint8_t fid)
{
	switch (fid) {
	case NVME_FEAT_VOLATILE_WC:
		return d->p.write_cache_enabled;
	case NVME_FEAT_NUM_QUEUES:
		return (d->p.max_io_queues - 1) << 16 | (d->p.max_io_queues - 1);
	default:
		return 0;
	}
}

static uint16_t get_features(struct nvme_dev *d, struct dev_cmd *cmd)
{
	uint8_t fid = cmd->sqe.cdw10 & 0xff;
	unsigned sel = (cmd->sqe.cdw10 >> 8) & 0x7;
	uint32_t caps = feature_caps(d, fid);

	if (!caps || sel > NVME_SEL_SUPPORTED)
		return NVME_SC_INVALID_FIELD | NVME_DNR;
	switch (sel) {
	case NVME_SEL_SUPPORTED:
		cmd->result = caps;
		return NVME_SC_SUCCESS;
	case NVME_SEL_DEFAULT:
	case NVME_SEL_SAVED:	/* nothing saved: the default answers */
		cmd->result = feature_default(d, fid);
		return NVME_SC_SUCCESS;
	}
	switch (fid) {
	case NVME_FEAT_VOLATILE_WC:
		cmd->result = d->wce;
		break;
	case NVME_FEAT_NUM_QUEUES:
		cmd->result = (d->ncq_alloc - 1) << 16 | (d->nsq_alloc - 1);
		break;
	case NVME_FEAT_IRQ_COALESCE:
		cmd->result = (uint32_t)d->coalesce_time << 8 | d->coalesce_thr;
		break;
	}
	return NVME_SC_SUCCESS;
}

static uint16_t set_features(struct nvme_dev *d, struct dev_cmd *cmd)
{
	const struct nvme_sqe *e = &cmd->sqe;
	uint8_t fid = e->cdw10 & 0xff;
	uint32_t caps = feature_caps(d, fid), v = e->cdw11;

	if (!caps)
		return NVME_SC_INVALID_FIELD | NVME_DNR;
	if ((e->cdw10 & NVME_SET_FEAT_SV) && !(caps & NVME_FEAT_CAP_SAVE))
		return NVME_SC_FEATURE_NOT_SAVEABLE | NVME_DNR;
	/* None of these is namespace specific: NSID must be 0 or broadcast. */
	if (e->nsid && e->nsid != NVME_NSID_BROADCAST)
		return e->nsid > d->p.nn ? NVME_SC_INVALID_NS | NVME_DNR :
					   NVME_SC_FEATURE_NOT_NS_SPECIFIC | NVME_DNR;
	switch (fid) {
	case NVME_FEAT_VOLATILE_WC: {
		bool on = v & 1;
		if (on || !d->wce) {
			d->wce = on;
			return NVME_SC_SUCCESS;
		}
		/* Turning the cache off: new writes go to media at once;
		 * the command completes when the cache has drained, and writes
		 * that were waiting for room go to media instead. */
		d->wce = false;
		for (struct dev_cmd *w; (w = fifo_pop(&d->room_wait));)
			dev_media_submit(d, w);
		if (d->ring_len == 0)
			return NVME_SC_SUCCESS;
		cmd->seq = d->write_seq;
		fifo_push(&d->drain_wait, cmd);
		return STATUS_DEFERRED;
	}
	case NVME_FEAT_NUM_QUEUES: {
		uint32_t nsq = (v & 0xffff) + 1, ncq = (v >> 16) + 1;
		if ((v & 0xffff) == 0xffff || (v >> 16) == 0xffff)
			return NVME_SC_INVALID_FIELD | NVME_DNR;
		/* Allowed only before the first I/O queue exists (5.27.1.7). */
		if (d->io_queue_created)
			return NVME_SC_CMD_SEQ_ERROR | NVME_DNR;
		d->nsq_alloc = MIN(nsq, d->p.max_io_queues);
		d->ncq_alloc = MIN(ncq, d->p.max_io_queues);
		cmd->result = (d->ncq_alloc - 1) << 16 | (d->nsq_alloc - 1);
		return NVME_SC_SUCCESS;
	}
	case NVME_FEAT_IRQ_COALESCE:
		d->coalesce_thr = v & 0xff;
		d->coalesce_time = (v >> 8) & 0xff;
		return NVME_SC_SUCCESS;
	}
	g_assert_not_reached();
}

static uint16_t create_cq(struct nvme_dev *d, const struct nvme_sqe *e)
{
	uint16_t qid = e->cdw10 & 0xffff, vector = e->cdw11 >> 16;
	uint32_t size = (e->cdw10 >> 16) + 1;

	if (qid == 0 || qid > d->ncq_alloc || d->cq[qid].live)
		return NVME_SC_QID_INVALID | NVME_DNR;
	if (size < 2 || size > d->p.max_queue_entries)
		return NVME_SC_QUEUE_SIZE | NVME_DNR;
	if (e->prp1 & (d->page_size - 1))
		return NVME_SC_PRP_OFFSET_INVALID | NVME_DNR;
	if (!(e->cdw11 & 1))	/* CAP.CQR: queues must be contiguous */
		return NVME_SC_INVALID_FIELD | NVME_DNR;
	if (vector >= d->p.msix_vectors)
		return NVME_SC_INVALID_VECTOR | NVME_DNR;
	dev_alloc_cq(d, qid, e->prp1, size, vector, e->cdw11 & 2);
	d->io_queue_created = true;
	return NVME_SC_SUCCESS;
}

static uint16_t create_sq(struct nvme_dev *d, const struct nvme_sqe *e)
{
	uint16_t qid = e->cdw10 & 0xffff, cqid = e->cdw11 >> 16;
	uint32_t size = (e->cdw10 >> 16) + 1;

	if (cqid == 0 || cqid > d->p.max_io_queues || !d->cq[cqid].live)
		return NVME_SC_CQ_INVALID | NVME_DNR;
	if (qid == 0 || qid > d->nsq_alloc || d->sq[qid].live)
		return NVME_SC_QID_INVALID | NVME_DNR;
	if (size < 2 || size > d->p.max_queue_entries)
		return NVME_SC_QUEUE_SIZE | NVME_DNR;
	if (e->prp1 & (d->page_size - 1))
		return NVME_SC_PRP_OFFSET_INVALID | NVME_DNR;
	if (!(e->cdw11 & 1))
		return NVME_SC_INVALID_FIELD | NVME_DNR;
	dev_alloc_sq(d, qid, cqid, e->prp1, size);
	d->io_queue_created = true;
	return NVME_SC_SUCCESS;
}

static uint16_t delete_sq(struct nvme_dev *d, struct dev_cmd *cmd)
{
	uint16_t qid = cmd->sqe.cdw10 & 0xffff;

	if (qid == 0 || qid > d->p.max_io_queues || !d->sq[qid].live ||
	    d->sq[qid].deleter)
		return NVME_SC_QID_INVALID | NVME_DNR;
	struct dev_sq *sq = &d->sq[qid];
	/* Commands already fetched run to completion (the host has quiesced
	 * the queue); the deletion completes after the last of them. */
	if (sq->outstanding) {
		sq->deleter = cmd;
		return STATUS_DEFERRED;
	}
	d->cq[sq->cqid].sq_count--;
	dev_sq_free_cmds(sq);
	*sq = (struct dev_sq){0};
	return NVME_SC_SUCCESS;
}

static uint16_t delete_cq(struct nvme_dev *d, uint16_t qid)
{
	if (qid == 0 || qid > d->p.max_io_queues || !d->cq[qid].live)
		return NVME_SC_QID_INVALID | NVME_DNR;
	/* A CQ with SQs still bound cannot go; once they are deleted it
	 * can, so this status carries no DNR. */
	if (d->cq[qid].sq_count)
		return NVME_SC_INVALID_QUEUE_DELETION;
	d->cq[qid] = (struct dev_cq){0};
	return NVME_SC_SUCCESS;
}

uint16_t dev_admin_exec(struct nvme_dev *d, struct dev_cmd *cmd)
{
	const struct nvme_sqe *e = &cmd->sqe;

	d->cnt.admin_cmds++;
	switch (e->opcode) {
	case NVME_ADMIN_DELETE_SQ:
	case NVME_ADMIN_CREATE_SQ:
	case NVME_ADMIN_DELETE_CQ:
	case NVME_ADMIN_CREATE_CQ:
	case NVME_ADMIN_IDENTIFY:
	case NVME_ADMIN_ABORT:
	case NVME_ADMIN_SET_FEATURES:
	case NVME_ADMIN_GET_FEATURES:
		break;
	default:
		return NVME_SC_INVALID_OPCODE | NVME_DNR;
	}
	/* PCIe admin commands use PRPs only; the model has no fused pairs
	 * (FUSES = 0), so a fused command would fail again: DNR. */
	if (NVME_SQE_PSDT(e->flags) || NVME_SQE_FUSE(e->flags))
		return NVME_SC_INVALID_FIELD | NVME_DNR;
	switch (e->opcode) {
	case NVME_ADMIN_DELETE_SQ:
		return delete_sq(d, cmd);
	case NVME_ADMIN_CREATE_SQ:
		return create_sq(d, e);
	case NVME_ADMIN_DELETE_CQ:
		return delete_cq(d, e->cdw10 & 0xffff);
	case NVME_ADMIN_CREATE_CQ:
		return create_cq(d, e);
	case NVME_ADMIN_IDENTIFY:
		return identify(d, cmd);
	case NVME_ADMIN_ABORT: {
		/* Abort always answers "not aborted" (DW0 bit 0): a command
		 * in this model is never stuck waiting for an abort. */
		uint16_t sqid = e->cdw10 & 0xffff;
		cmd->result = 1;
		if (sqid > d->p.max_io_queues || !d->sq[sqid].live)
			return NVME_SC_INVALID_FIELD | NVME_DNR;
		return NVME_SC_SUCCESS;
	}
	case NVME_ADMIN_SET_FEATURES:
		return set_features(d, cmd);
	case NVME_ADMIN_GET_FEATURES:
		return get_features(d, cmd);
	}
	g_assert_not_reached();
}

