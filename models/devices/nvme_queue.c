/*
 * Submission and completion queues: doorbells start fetches, commands
 * are fetched and executed, completions are posted with phase tags and
 * interrupts raised (with coalescing).
 *
 * Stands for: NVMe Base 2.0 4.1 and 4.6 (queue pairs, phase tag,
 * completion entries), 5.27.1.5 (Interrupt Coalescing), MSI-X.
 *
 * Parameters (nvme.c table): fetch_latency_ns, cmd_overhead_ns.

 */
#include "nvme_impl.h"
/* --- interrupts and completions -------------------------------------------- */

void dev_raise_irq(struct nvme_dev *d, struct dev_cq *cq)
{
	d->cnt.irqs++;
	d->ops->irq(d->host, cq->vector);
}

static void cq_signal(struct nvme_dev *d, struct dev_cq *cq)
{
	if (!cq->ien)
		return;
	/* Coalescing never applies to the admin queue (Base 5.27.1.9). */
	if (cq->qid == 0 || (d->coalesce_thr == 0 && d->coalesce_time == 0)) {
		dev_raise_irq(d, cq);
		return;
	}
	if (++cq->coalesce_pending > d->coalesce_thr) {
		cq->coalesce_pending = 0;
		dev_raise_irq(d, cq);
	} else if (!cq->coalesce_armed && d->coalesce_time) {
		cq->coalesce_armed = true;
		after(d, (sim_time)d->coalesce_time * 100 * SIM_USEC, EV_COALESCE, cq);
	}
}

bool dev_cq_full(const struct nvme_dev *d, struct dev_cq *cq)
{
	if (cq->head_pending && cq->head_next_at <= now(d)) {
		cq->head = cq->head_next;
		cq->head_pending = false;
	}
	return (cq->tail + 1 == cq->size ? 0 : cq->tail + 1) == cq->head;
}

static void busy_change(struct nvme_dev *d, int delta)
{
	if (delta > 0 && d->outstanding++ == 0)
		d->busy_since = now(d);
	else if (delta < 0 && --d->outstanding == 0)
		d->cnt.busy_ns += now(d) - d->busy_since;
}

void dev_release(struct nvme_dev *d, struct dev_cmd *cmd)
{
	struct dev_sq *sq = cmd->sq;

	if (cmd->status)
		d->cnt.errors++;
	/* A Flush promises durability when the host sees it complete. */
	if (cmd->route == ROUTE_FLUSH && !cmd->status) {
		d->cnt.flushes_completed++;
		if (d->p.track_durability)
			dur_flush_completed(&d->dur, cmd->seq);
	}
	cmd->next = sq->free;
	sq->free = cmd;
	sq->outstanding--;
	busy_change(d, -1);
	if (sq->qid && d->p.power_loss_after_commands &&
	    ++d->io_completed >= d->p.power_loss_after_commands && !d->dying) {
		/* Acknowledge nothing more, and lose power as the next event. */
		d->dying = true;
		after(d, 0, EV_POWER_LOSS, NULL);
	}
	if (sq->deleter && sq->outstanding == 0) {
		struct dev_cmd *del = sq->deleter;
		d->cq[sq->cqid].sq_count--;
		dev_sq_free_cmds(sq);
		*sq = (struct dev_sq){0};
		del->status = NVME_SC_SUCCESS;
		dev_post_cqe(d, del);
		return;
	}
	dev_sq_kick(d, sq);
}

/* The host sees the CQE: a successful write is acknowledged now. */
static void acknowledge(struct nvme_dev *d, struct dev_cmd *cmd)
{
	if (!d->p.track_durability || cmd->status ||
	    (cmd->route != ROUTE_WRITE && cmd->route != ROUTE_META))
		return;
	dur_ack(&d->dur, now(d), cmd->slba, cmd->nlb, cmd->seq,
		cmd->on_media || cmd->seq <= d->destaged_seq);
}

void dev_write_cqe(struct nvme_dev *d, struct dev_cq *cq, struct dev_cmd *cmd)
{
	struct nvme_cqe e = {
		.result = cmd->result,
		.sq_head = (uint16_t)cmd->sq->head,
		.sq_id = cmd->sq->qid,
		.cid = cmd->sqe.cid,
		.status = (uint16_t)(cmd->status << 1 | cq->phase),
	};

	d->ops->dma_write(d->host, cq->base + (uint64_t)cq->tail * NVME_CQE_SIZE,
			  &e, sizeof(e));
	if (++cq->tail == cq->size) {
		cq->tail = 0;
		cq->phase ^= 1;
	}
	acknowledge(d, cmd);
	cq_signal(d, cq);
}

void dev_post_cqe(struct nvme_dev *d, struct dev_cmd *cmd)
{
	struct dev_cq *cq = &d->cq[cmd->sq->cqid];

	if (d->dying)
		return;
	if (dev_cq_full(d, cq) || cq->full_wait.head) {
		fifo_push(&cq->full_wait, cmd);
		return;
	}
	dev_write_cqe(d, cq, cmd);
	dev_release(d, cmd);
}

void dev_complete_after(struct nvme_dev *d, struct dev_cmd *cmd, sim_time t)
{
	if (t)
		after(d, t, EV_COMPLETE, cmd);
	else
		dev_post_cqe(d, cmd);
}

/* --- fetch ------------------------------------------------------------------ */

/*
 * The entries between head and tail are fetched when the doorbell is rung:
 * reading them then or fetch_latency later is the same, as the host may
 * not touch an entry the device has not consumed. Each command then
 * executes fetch_latency + cmd_overhead after the doorbell, which saves
 * the simulation an event per command.
 */
static void fetch(struct nvme_dev *d, struct dev_sq *sq);

void dev_sq_free_cmds(struct dev_sq *sq)
{
	for (uint32_t k = 0; k < sq->made; k += CMD_CHUNK)
		g_free(sq->chunk[k / CMD_CHUNK]);
	g_clear_pointer(&sq->chunk, g_free);
	sq->made = 0;
	sq->free = NULL;
}

/* CMD_CHUNK more command slots, for when every one made is outstanding. */
static __attribute__((noinline, cold)) void sq_make_cmds(struct dev_sq *sq)
{
	uint32_t n = MIN(CMD_CHUNK, sq->size - sq->made);
	struct dev_cmd *cmds = g_new0(struct dev_cmd, n);

	sq->chunk[sq->made / CMD_CHUNK] = cmds;
	for (uint32_t i = n; i-- > 0;) {
		cmds[i].next = sq->free;
		sq->free = &cmds[i];
	}
	sq->made += n;
}

void dev_sq_kick(struct nvme_dev *d, struct dev_sq *sq)
{
	if (sq->live && sq->head != sq->tail && sq->outstanding < sq->size &&
	    !sq->deleter)
		fetch(d, sq);
}

/*
 * Commands fetched together execute at the same time, in fetch order: their
 * EXEC events would be consecutive in the event queue, as nothing scheduled
 * later sorts between them. So they share one event, which executes them
 * one after another. A Write started at fetch ends the chain, as its data's
 * arrival may be due at that same time, between two EXEC events.
 */
static void fetch(struct nvme_dev *d, struct dev_sq *sq)
{
	struct dev_cmd *prev = NULL;	/* the chain's last command */

	while (sq->live && sq->head != sq->tail && sq->outstanding < sq->size &&
	       !sq->deleter) {
		if (__builtin_expect(!sq->free, 0))
			sq_make_cmds(sq);
		struct dev_cmd *cmd = sq->free;

		sq->free = cmd->next;
		d->ops->dma_read(d->host,
				 sq->base + (uint64_t)sq->head * NVME_SQE_SIZE,
				 &cmd->sqe, NVME_SQE_SIZE);
		if (++sq->head == sq->size)
			sq->head = 0;
		sq->outstanding++;
		busy_change(d, +1);
		cmd->sq = sq;
		cmd->status = NVME_SC_SUCCESS;
		cmd->result = 0;
		cmd->fua = false;
		cmd->on_media = false;
		cmd->route = ROUTE_NONE;
		cmd->exec_at = now(d) + d->p.fetch_latency + d->p.cmd_overhead;
		if (dev_write_at_fetch(d, cmd)) {
			prev = NULL;
			continue;
		}
		cmd->next = NULL;
		if (prev)
			prev->next = cmd;
		else
			after(d, cmd->exec_at - now(d), EV_EXEC, cmd);
		prev = cmd;
	}
}

bool dev_alloc_sq(struct nvme_dev *d, uint16_t qid, uint16_t cqid,
		     uint64_t base, uint32_t size)
{
	struct dev_sq *sq = &d->sq[qid];

	*sq = (struct dev_sq){.base = base, .size = size, .qid = qid,
			      .cqid = cqid, .live = true};
	sq->chunk = g_new0(struct dev_cmd *, (size + CMD_CHUNK - 1) / CMD_CHUNK);
	d->cq[cqid].sq_count++;
	return true;
}

void dev_alloc_cq(struct nvme_dev *d, uint16_t qid, uint64_t base,
		     uint32_t size, uint16_t vector, bool ien)
{
	d->cq[qid] = (struct dev_cq){.base = base, .size = size, .qid = qid,
				     .vector = vector, .ien = ien, .phase = 1,
				     .live = true};
}

