/*
 * NVMe passthrough through io_uring: the generic character device.
 *
 * Stands for drivers/nvme/host/ioctl.c (Linux 6.10): nvme_ns_chr_uring_cmd
 * -> nvme_ns_uring_cmd, which takes only 128-byte SQEs and 32-byte CQEs,
 * -> nvme_uring_cmd_io: read the command from the SQE, check it, allocate
 * a request directly from blk-mq (nvme_alloc_user_request ->
 * blk_mq_alloc_request, REQ_NOWAIT when io_uring issues without blocking,
 * REQ_POLLED on an IOPOLL ring), map the user buffer (a registered
 * buffer's bvec, IORING_URING_CMD_FIXED, or pinned user pages, after
 * importing the iovec array for NVME_URING_CMD_IO_VEC), set
 * nvme_uring_cmd_end_io and send it with blk_execute_rq_nowait: no file
 * system, no bio from above, no submit_bio. nvme_uring_cmd_end_io unmaps
 * the buffer and ends the io_uring command: on a poll queue directly (the
 * poller then posts the CQE), else through the issuer's task_work
 * (io_uring_cmd_do_in_task_lazy), which io_uring does here
 * (models/syscalls/io_uring.c). The CQE's res is 0 or an error, its
 * second half the command's result dword. And the device node of
 * drivers/nvme/host/core.c (nvme_add_ns_cdev, nvme_ns_chr_fops): no read,
 * write or fsync, only ioctl and uring_cmd.
 *
 * Without a free tag a non-blocking issue fails with -EAGAIN (io_uring
 * then copies the SQE, if it had not, and hands the command to io-wq);
 * the io-wq worker's blocking issue waits for a tag (blk_mq_get_tag) and
 * is issued again.
 *
 * Parameters (host profile, model "nvme_ioctl"), CPU time (ns):
 * uring_cmd_ns, import_iovec_ns, end_io_ns. The request's own costs are
 * blk_mq's (alloc_request_ns, bio_alloc_ns, bvec_set_ns or pin_page_ns
 * and bio_add_page_ns, execute_rq_ns, end_request_ns, bio_endio_ns) and
 * nvme_drv's.
 *
 * Left out: admin commands and any I/O command other than read and write
 * (refused with -EINVAL here; the kernel passes any), metadata buffers,
 * data lengths other than the command's blocks (refused), timeouts, the
 * NVMe status code in res (a failed command gives -EIO).
 */
#include <glib.h>

#include "devices/nvme_spec.h"
#include "drivers/nvme_ioctl.h"

#define P(field) offsetof(struct nvme_ioctl_params, field)
const struct param_def nvme_ioctl_param_table[] = {
	{"uring_cmd_ns", PARAM_TIME, P(uring_cmd), "40", 0, 1e6, "ns",
	 "nvme_ns_chr_uring_cmd, nvme_uring_cmd_io: the command's fields from "
	 "the SQE, checks, nvme_alloc_user_request's command set-up"},
	{"import_iovec_ns", PARAM_TIME, P(import_iovec), "30", 0, 1e6, "ns",
	 "import_iovec of the user's iovec array (NVME_URING_CMD_IO_VEC)"},
	{"end_io_ns", PARAM_TIME, P(end_io), "20", 0, 1e6, "ns",
	 "nvme_uring_cmd_end_io: status and result into the command"},
	PARAM_END,
};

/* An open file's view: the device, and whether it may write. */
struct ns_file {
	struct nvme_ns_chr *ns;
	bool writable;
};

struct nvme_ns_chr {
	struct blk_queue *q;
	struct nvme_ioctl_params p;
	struct ns_file ro, rw;
};

/* The command's state in io_uring_cmd's pdu (struct nvme_uring_cmd_pdu). */
struct cmd_pdu {
	struct request *req;
	struct blk_tag_waiter wait;	/* a blocking issue waiting for a tag */
};

_Static_assert(sizeof(struct cmd_pdu) <= sizeof(((struct uring_cmd *)0)->pdu),
	       "the pdu must fit io_uring_cmd's");

static stage_id st_uring_cmd, st_import_iovec, st_end_io;

static struct cmd_pdu *pdu_of(struct uring_cmd *c)
{
	return (struct cmd_pdu *)c->pdu;
}

static struct uring_cmd *cmd_of_wait(struct blk_tag_waiter *w)
{
	return (struct uring_cmd *)((char *)w - offsetof(struct cmd_pdu, wait) -
				    offsetof(struct uring_cmd, pdu));
}

static void tag_freed(struct xctx *x, struct blk_tag_waiter *w)
{
	struct uring_cmd *c = cmd_of_wait(w);

	c->retry(x, c);
}

static void uring_cmd_end_io(struct xctx *x, struct request *rq,
			     enum blk_status st)
{
	struct uring_cmd *c = rq->end_io_data;
	struct nvme_ns_chr *ns = ((struct ns_file *)c->file->priv)->ns;

	xctx_charge(x, st_end_io, ns->p.end_io);
	blk_rq_unmap_user(x, rq);
	pdu_of(c)->req = NULL;
	c->done(x, c, st == BLK_STS_OK ? 0 : -VFS_EIO, 0);
}

static long ns_uring_cmd(struct xctx *x, struct uring_cmd *c, unsigned flags)
{
	const struct ns_file *nf = c->file->priv;
	struct nvme_ns_chr *ns = nf->ns;
	const struct blk_queue_config *qc = blk_queue_config(ns->q);
	bool nonblock = flags & IOU_F_NONBLOCK;
	struct nvme_uring_cmd cmd;
	enum req_op op;

	if (!(flags & IOU_F_SQE128) || !(flags & IOU_F_CQE32))
		return -95;	/* -EOPNOTSUPP */
	if (c->cmd_op != NVME_URING_CMD_IO && c->cmd_op != NVME_URING_CMD_IO_VEC)
		return -25;	/* -ENOTTY */
	bool vec = c->cmd_op == NVME_URING_CMD_IO_VEC;
	xctx_charge(x, st_uring_cmd, ns->p.uring_cmd);
	memcpy(&cmd, c->sqe, sizeof(cmd));
	if (cmd.flags || cmd.nsid != 1)
		return -22;	/* -EINVAL */
	if (cmd.opcode == NVME_CMD_READ)
		op = REQ_OP_DRV_IN;
	else if (cmd.opcode == NVME_CMD_WRITE)
		op = REQ_OP_DRV_OUT;
	else
		return -22;
	if (op == REQ_OP_DRV_OUT && !nf->writable)
		return -13;	/* -EACCES: nvme_cmd_allowed */
	/* fixedbufs is only for non-vectored io (nvme_map_user_request) */
	if (c->fixed && vec)
		return -22;
	uint32_t len = vec ? cmd.iov_bytes : cmd.data_len;
	uint64_t blocks = (uint64_t)cmd.nlb + 1;
	if (len != blocks * qc->logical_block_size ||
	    (cmd.slba + blocks) * qc->logical_block_size > qc->capacity)
		return -22;

	struct cmd_pdu *pdu = pdu_of(c);
	pdu->wait.fn = tag_freed;
	struct request *rq = blk_mq_alloc_request(x, ns->q, op,
			(nonblock ? REQ_NOWAIT : 0) | ((flags & IOU_F_IOPOLL) ? REQ_POLLED : 0),
			nonblock ? NULL : &pdu->wait);
	if (!rq)
		return nonblock ? -VFS_EAGAIN : -EIOCBRETRY;
	rq->cmd_opcode = cmd.opcode;
	rq->sector = cmd.slba * qc->logical_block_size / 512;
	if (vec)
		xctx_charge(x, st_import_iovec, ns->p.import_iovec);
	int ret = blk_rq_map_user(x, rq, len, cmd.nr_segs ? cmd.nr_segs : 1,
				  c->fixed, c->trace);
	if (ret) {
		blk_mq_free_request(rq);
		return ret;
	}
	pdu->req = rq;
	rq->end_io = uring_cmd_end_io;
	rq->end_io_data = c;
	c->poll_cookie = blk_rq_is_poll(rq) ? rq->hctx : NULL;
	blk_execute_rq_nowait(x, rq);
	return -EIOCBQUEUED;
}

/* The character device has neither read_iter nor write_iter: read(2) and
 * write(2) fail with -EINVAL, and so does fsync. */
static long ns_rw(struct xctx *x, struct kiocb *iocb)
{
	return -22;
}

static void ns_fsync(struct xctx *x, struct fsync_op *op)
{
	op->res = -22;
	task_then(op->task, op->done);
}

static const struct file_ops ns_chr_fops = {
	.name = "nvme-generic",
	.read_iter = ns_rw,
	.write_iter = ns_rw,
	.fsync = ns_fsync,
	.uring_cmd = ns_uring_cmd,
};

struct nvme_ns_chr *nvme_ns_chr_new(struct blk_queue *q,
				    const struct nvme_ioctl_params *p)
{
	struct nvme_ns_chr *ns = g_new0(struct nvme_ns_chr, 1);

	st_uring_cmd = stage_register("nvme_uring_cmd_io", CPU_SYS,
				      "nvme_ns_chr_uring_cmd, nvme_uring_cmd_io");
	st_import_iovec = stage_register("nvme_import_iovec", CPU_SYS,
					 "import_iovec (nvme_map_user_request)");
	st_end_io = stage_register("nvme_uring_cmd_end_io", CPU_SYS,
				   "nvme_uring_cmd_end_io");
	ns->q = q;
	ns->p = *p;
	ns->ro = (struct ns_file){.ns = ns, .writable = false};
	ns->rw = (struct ns_file){.ns = ns, .writable = true};
	return ns;
}

void nvme_ns_chr_free(struct nvme_ns_chr *ns)
{
	g_free(ns);
}

void nvme_ns_chr_open(struct nvme_ns_chr *ns, struct sfile *f, const char *path,
		      bool writable)
{
	const struct blk_queue_config *qc = blk_queue_config(ns->q);

	*f = (struct sfile){
		.ops = &ns_chr_fops,
		.path = path,
		.size = qc->capacity,
		.blksize = qc->logical_block_size,
		.priv = writable ? &ns->rw : &ns->ro,
	};
}
