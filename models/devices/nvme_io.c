/*
 * NVMe I/O commands: Read, Write (with FUA), Flush, Write Zeroes and
 * Dataset Management, their checks and status codes.
 *
 * Stands for: NVM Command Set 1.0 3.2 and 4.1.1, NVMe Base 2.0
 * 4.6.1.2; the order of checks follows QEMU 7.2 hw/nvme/ctrl.c.
 *
 * Parameters (nvme.c table): meta_latency_ns, lba_shift, ns_blocks.

 */
#include "nvme_impl.h"
/* --- I/O commands -------------------------------------------------------------- */

static bool io_opcode_supported(const struct nvme_dev *d, uint8_t opc)
{
	switch (opc) {
	case NVME_CMD_FLUSH:
	case NVME_CMD_WRITE:
	case NVME_CMD_READ:
		return true;
	case NVME_CMD_WRITE_ZEROES:
		return d->p.write_zeroes;
	case NVME_CMD_DSM:
		return d->p.dsm;
	default:
		return false;
	}
}

/* NSID checks (Base 3.2.1): 0 and values above NN are invalid NSIDs;
 * valid NSIDs other than 1 are inactive, which is Invalid Field; the
 * broadcast value is accepted only by Flush, when VWC says so. */
static uint16_t check_nsid(const struct nvme_dev *d, const struct nvme_sqe *e)
{
	if (e->nsid == NVME_NSID_BROADCAST)
		return e->opcode == NVME_CMD_FLUSH && d->p.flush_broadcast ?
		       NVME_SC_SUCCESS : NVME_SC_INVALID_NS | NVME_DNR;
	if (e->nsid == 0 || e->nsid > d->p.nn)
		return NVME_SC_INVALID_NS | NVME_DNR;
	if (e->nsid != 1)
		return NVME_SC_INVALID_FIELD | NVME_DNR;
	return NVME_SC_SUCCESS;
}

static uint16_t check_range(const struct nvme_dev *d, uint64_t slba,
			    uint64_t nlb)
{
	if (slba >= d->p.ns_blocks || nlb > d->p.ns_blocks - slba)
		return NVME_SC_LBA_RANGE | NVME_DNR;
	return NVME_SC_SUCCESS;
}

static uint16_t dsm_exec(struct nvme_dev *d, struct dev_cmd *cmd)
{
	uint32_t nr = (cmd->sqe.cdw10 & 0xff) + 1;
	struct nvme_dsm_range r[256];
	struct xfer x = {.buf = (uint8_t *)r};
	uint64_t lo = UINT64_MAX, hi = 0;
	uint16_t st;

	cmd->slba = 0;
	cmd->nlb = 0;
	/* Without deallocate the attributes are hints: nothing to do. */
	if (!(cmd->sqe.cdw11 & NVME_DSM_ATTR_AD))
		return NVME_SC_SUCCESS;
	st = dev_prp_check(d, &cmd->sqe, nr * sizeof(r[0]));
	if (!st)
		st = dev_prp_walk(d, &cmd->sqe, nr * sizeof(r[0]), &x);
	if (st)
		return st;
	for (uint32_t i = 0; i < nr; i++)
		if (check_range(d, r[i].slba, r[i].nlb))
			return NVME_SC_LBA_RANGE | NVME_DNR;
	for (uint32_t i = 0; i < nr; i++) {
		if (!r[i].nlb)
			continue;
		if (d->store)
			dev_store_zero(d, r[i].slba << d->p.lba_shift,
				   (uint64_t)r[i].nlb << d->p.lba_shift);
		lo = MIN(lo, r[i].slba);
		hi = MAX(hi, r[i].slba + r[i].nlb);
	}
	/* The durability tracker sees one span covering all ranges: a
	 * deallocate is one mapping update. */
	if (lo != UINT64_MAX) {
		cmd->slba = lo;
		cmd->nlb = (uint32_t)MIN(hi - lo, UINT32_MAX);
	}
	return NVME_SC_SUCCESS;
}

/* The checks every I/O command makes first. */
static uint16_t io_check(const struct nvme_dev *d, const struct nvme_sqe *e)
{
	uint16_t st;

	/* NSID before opcode, as QEMU and the Linux target both order them. */
	if ((st = check_nsid(d, e)))
		return st;
	if (!io_opcode_supported(d, e->opcode))
		return NVME_SC_INVALID_OPCODE | NVME_DNR;
	if (NVME_SQE_PSDT(e->flags) || NVME_SQE_FUSE(e->flags))
		return NVME_SC_INVALID_FIELD | NVME_DNR;
	return NVME_SC_SUCCESS;
}

/* Read, Write and Write Zeroes: the range and FUA from the entry. */
static void rw_decode(const struct nvme_dev *d, struct dev_cmd *cmd)
{
	const struct nvme_sqe *e = &cmd->sqe;

	cmd->slba = (uint64_t)e->cdw11 << 32 | e->cdw10;
	cmd->nlb = (e->cdw12 & 0xffff) + 1;
	cmd->fua = e->opcode != NVME_CMD_READ && (e->cdw12 & NVME_RW_FUA);
	cmd->bytes = (uint64_t)cmd->nlb << d->p.lba_shift;
}

/* The checks of a decoded Read or Write: MDTS first, then bounds, then the
 * data pointer. */
static uint16_t rw_check(const struct nvme_dev *d, const struct dev_cmd *cmd)
{
	uint16_t st;

	if (d->p.mdts && cmd->bytes > (uint64_t)4096 << d->p.mdts)
		return NVME_SC_INVALID_FIELD | NVME_DNR;
	if ((st = check_range(d, cmd->slba, cmd->nlb)))
		return st;
	return dev_prp_check(d, &cmd->sqe, cmd->bytes);
}

/* A Write that passed its checks takes its turn on the link from the host
 * at its execution time. */
static void write_start(struct nvme_dev *d, struct dev_cmd *cmd)
{
	cmd->route = ROUTE_WRITE;
	d->cnt.bytes_written += cmd->bytes;
	d->cnt.fua_writes += cmd->fua;
	cmd->link_prev = d->link_rx_free;
	after(d, dev_link_transfer(d, &d->link_rx_free, cmd->exec_at, cmd->bytes) -
		 now(d), EV_DATA_IN, cmd);
}

static uint16_t io_exec(struct nvme_dev *d, struct dev_cmd *cmd)
{
	const struct nvme_sqe *e = &cmd->sqe;
	uint16_t st;

	if ((st = io_check(d, e)))
		return st;
	switch (e->opcode) {
	case NVME_CMD_FLUSH:
		d->cnt.flushes++;
		cmd->route = ROUTE_FLUSH;
		cmd->seq = d->write_seq;
		if (d->p.track_durability)
			dur_flush_started(&d->dur, cmd->seq);
		if (dev_drained_to(d, cmd->seq)) {
			dev_finish_drain_waiter(d, cmd);
		} else {
			fifo_push(&d->drain_wait, cmd);
		}
		return STATUS_DEFERRED;
	case NVME_CMD_DSM:
		d->cnt.dsms++;
		cmd->route = ROUTE_META;
		cmd->bytes = 0;
		if ((st = dsm_exec(d, cmd)))
			return st;
		break;
	case NVME_CMD_WRITE_ZEROES:
	case NVME_CMD_WRITE:
	case NVME_CMD_READ:
		rw_decode(d, cmd);
		if (e->opcode == NVME_CMD_WRITE_ZEROES) {
			d->cnt.write_zeroes++;
			cmd->route = ROUTE_META;
			cmd->bytes = 0;
			if ((st = check_range(d, cmd->slba, cmd->nlb)))
				return st;
			if (d->store)
				dev_store_zero(d, cmd->slba << d->p.lba_shift,
					   (uint64_t)cmd->nlb << d->p.lba_shift);
			break;
		}
		if (e->opcode == NVME_CMD_READ)
			d->cnt.reads++;
		else
			d->cnt.writes++;
		if ((st = rw_check(d, cmd)))
			return st;
		if (e->opcode == NVME_CMD_READ) {
			cmd->route = ROUTE_READ;
			d->cnt.bytes_read += cmd->bytes;
			dev_media_submit(d, cmd);
			return STATUS_DEFERRED;
		}
		/* Only writes with payload get here: others started at fetch. */
		struct xfer x = {.dev_off = cmd->slba << d->p.lba_shift};
		if (!dev_store_has_room(d, x.dev_off, cmd->bytes))
			return NVME_SC_INTERNAL;
		if ((st = dev_prp_walk(d, e, cmd->bytes, &x)))
			return st;
		write_start(d, cmd);
		return STATUS_DEFERRED;
	}
	/* Write Zeroes and deallocate: mapping updates that follow the
	 * write path without data, through the cache unless it is off. */
	if (d->wce && !cmd->fua) {
		dev_write_to_cache(d, cmd);
	} else {
		dev_number_write(d, cmd, true);
		dev_complete_after(d, cmd, d->p.meta_latency);
	}
	return STATUS_DEFERRED;
}

/*
 * A Write that will pass its checks, and moves no payload, does nothing at
 * its execution but take its turn on the link: the checks read only the
 * entry and fixed parameters, and execution times follow fetch order, which
 * is the order writes take their turns in. So its turn is taken here, and
 * the simulation saves its EXEC event. The times are the same; only the
 * arrival of its data, now scheduled at the fetch, comes before rather
 * than after an event due at the very same nanosecond that was scheduled
 * between fetch and execution (a Read fetched just after, say). A failing
 * Write keeps the event, to post its status at its execution time; with
 * store_data the payload is copied when the Write executes, against the
 * store as it is then.
 */
bool dev_write_at_fetch(struct nvme_dev *d, struct dev_cmd *cmd)
{
	if (cmd->sqe.opcode != NVME_CMD_WRITE || cmd->sq->qid == 0 || d->store ||
	    io_check(d, &cmd->sqe))
		return false;
	rw_decode(d, cmd);
	if (rw_check(d, cmd))
		return false;
	d->cnt.writes++;
	write_start(d, cmd);
	return true;
}

/*
 * A reset or power loss drops the commands in flight, and with them the
 * EXEC events of the Writes started at fetch that had not yet executed:
 * take back what those counted and their turns on the link, which were the
 * last ones taken. A Write due to execute at this very time executed
 * before if tie_ran (the event dropping it was scheduled after its fetch).
 */
void dev_unstart_writes(struct nvme_dev *d, bool tie_ran)
{
	sim_time t = now(d), link = SIM_TIME_MAX;

	if (d->store)
		return;		/* no Write started at fetch */
	for (uint32_t q = 1; q <= d->p.max_io_queues; q++) {
		struct dev_sq *sq = &d->sq[q];

		/* A free slot keeps the route of its last command, which may
		 * have completed at this very time: fetch sets it anew. */
		for (struct dev_cmd *c = sq->free; c; c = c->next)
			c->route = ROUTE_NONE;
		for (uint32_t i = 0; i < sq->made; i++) {
			const struct dev_cmd *c = &sq->chunk[i / CMD_CHUNK][i % CMD_CHUNK];

			if (c->route != ROUTE_WRITE || c->exec_at < t ||
			    (c->exec_at == t && tie_ran))
				continue;
			d->cnt.writes--;
			d->cnt.bytes_written -= c->bytes;
			d->cnt.fua_writes -= c->fua;
			link = MIN(link, c->link_prev);
		}
	}
	if (link != SIM_TIME_MAX)
		d->link_rx_free = link;
}

static void exec(struct nvme_dev *d, struct dev_cmd *cmd)
{
	uint16_t st;

	if (cmd->sq->qid == 0) {
		cmd->route = ROUTE_ADMIN;
		st = dev_admin_exec(d, cmd);
		if (st == STATUS_DEFERRED)
			return;
		cmd->status = st;
		dev_complete_after(d, cmd, d->p.admin_latency);
		return;
	}
	st = io_exec(d, cmd);
	if (st != STATUS_DEFERRED) {
		cmd->status = st;
		dev_post_cqe(d, cmd);
	}
}

/* The commands of a chain, as their own EXEC events would have run them:
 * one may reset the controller (a host that answers its CQE at once), and
 * the reset drops the rest as it would have dropped their events. */
void dev_exec_chain(struct nvme_dev *d, struct dev_cmd *cmd)
{
	uint64_t epoch = d->epoch;

	while (cmd && d->epoch == epoch) {
		struct dev_cmd *next = cmd->next;	/* exec may reuse it */

		exec(d, cmd);
		cmd = next;
	}
}

