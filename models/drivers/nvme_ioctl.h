/*
 * NVMe passthrough: the namespace's generic character device (/dev/ngXnY)
 * and its io_uring command (drivers/nvme/host/ioctl.c), and the command
 * a program puts in a 128-byte SQE for it (include/uapi/linux/
 * nvme_ioctl.h).
 */
#ifndef STORSIM_NVME_IOCTL_H
#define STORSIM_NVME_IOCTL_H

#include <string.h>

#include "block/blk_mq.h"
#include "fs/vfs.h"
#include "engine/params.h"

/* sqe->cmd_op: _IOWR('N', 0x80 / 0x81, struct nvme_uring_cmd), 72 bytes. */
#define NVME_URING_CMD_IO	0xc0484e80u
#define NVME_URING_CMD_IO_VEC	0xc0484e81u

/*
 * struct nvme_uring_cmd as the model carries it in the SQE's command area:
 * the fields the driver reads. The kernel's has addr, metadata and
 * cdw2..cdw15 besides; nr_segs and iov_bytes stand for what the buffer's
 * address leads the kernel to (its pages; with NVME_URING_CMD_IO_VEC, the
 * bytes its iovecs cover).
 */
struct nvme_uring_cmd {
	uint8_t opcode;		/* NVM command set: 01h write, 02h read */
	uint8_t flags;		/* must be 0 */
	uint16_t rsvd;
	uint32_t nsid;
	uint64_t slba;		/* cdw10, cdw11 */
	uint32_t nlb;		/* cdw12 bits 15:0: blocks - 1 */
	uint32_t data_len;	/* bytes; with IO_VEC, the number of iovecs */
	uint32_t iov_bytes;	/* IO_VEC: the bytes the iovecs cover */
	uint32_t nr_segs;	/* pages the buffer spans */
};

_Static_assert(sizeof(struct nvme_uring_cmd) <= IO_URING_CMD_BYTES,
	       "struct nvme_uring_cmd must fit an SQE's command area");

static inline void nvme_uring_cmd_put(uint8_t *area, const struct nvme_uring_cmd *c)
{
	memcpy(area, c, sizeof(*c));
}

/* CPU costs (host profile, model "nvme_ioctl"). */
struct nvme_ioctl_params {
	sim_time uring_cmd;	/* nvme_uring_cmd_io up to the request */
	sim_time import_iovec;	/* import the user's iovec array (IO_VEC) */
	sim_time end_io;	/* nvme_uring_cmd_end_io: status and result */
};

extern const struct param_def nvme_ioctl_param_table[];

struct nvme_ns_chr;

/* The generic character device of the namespace behind q (namespace 1). */
struct nvme_ns_chr *nvme_ns_chr_new(struct blk_queue *q,
				    const struct nvme_ioctl_params *p);
void nvme_ns_chr_free(struct nvme_ns_chr *ns);
/* Open it: writable says whether the file was opened for writing
 * (nvme_cmd_allowed refuses a write command otherwise). */
void nvme_ns_chr_open(struct nvme_ns_chr *ns, struct sfile *f, const char *path,
		      bool writable);

#endif
