/*
 * What every file in the simulated kernel offers to the engines above it:
 * struct kiocb and the read_iter/write_iter/iopoll entry points
 * (include/linux/fs.h).
 *
 * All direct I/O is issued asynchronously at this level. A synchronous
 * caller (pread, a blocking io-wq worker) sets sync_wait, sleeps after the
 * call, and is woken by ki_complete; the file then leaves its completion
 * work in dio_complete for the caller to run in its own context, as the
 * kernel does for a synchronous dio (the waiter finishes the dio) and for
 * IOCB_DIO_CALLER_COMP. A dio_complete may find that the I/O must wait
 * again (a buffered write that reads a second block first): it leaves
 * -EIOCBQUEUED in res, and the caller sleeps until the next ki_complete.
 */
#ifndef STORSIM_VFS_H
#define STORSIM_VFS_H

#include <stdbool.h>
#include <stdint.h>

#include "host/host.h"
#include "engine/io_trace.h"

#define EIOCBQUEUED 529		/* the kernel's "completion will follow" */
/* Passed to ki_complete by an async page-unlock wake-up (IOCB_WAITQ): the
 * data is now in the page cache; the issuer retries the read. */
#define EIOCBRETRY 530
#define VFS_EAGAIN 11
#define VFS_EIO 5

/* iocb flags (IOCB_*) */
#define KI_DIRECT		(1u << 0)
#define KI_NOWAIT		(1u << 1)
#define KI_HIPRI		(1u << 2)	/* polled completion */
#define KI_DSYNC		(1u << 3)
#define KI_SYNC			(1u << 4)
#define KI_DIO_CALLER_COMP	(1u << 5)
#define KI_WAITQ		(1u << 6)	/* async page-unlock wake-ups */

struct sfile;
struct inode;
struct kiocb;
struct fsync_op;
struct blkdev;
struct blk_queue;

/* A wait for a page-cache folio to be unlocked (its read done), embedded
 * in the waiter. fn runs in the context that unlocks the folio. */
struct folio_waiter {
	void (*fn)(struct xctx *x, struct folio_waiter *w);
	void *arg;
	struct folio_waiter *next;
};

/*
 * An io_uring passthrough command (struct io_uring_cmd, include/linux/
 * io_uring/cmd.h): what io_uring hands a file's uring_cmd. sqe points at
 * the command area of the submission entry: the SQ ring's own entry while
 * the command is issued inline, the request's async copy once it has gone
 * async (the entry may then be reused). The file ends the command with
 * done (io_uring_cmd_done), in whatever context it completes; res2 goes
 * to the second half of a 32-byte CQE.
 */
struct uring_cmd {
	struct sfile *file;
	uint32_t cmd_op;	/* e.g. NVME_URING_CMD_IO */
	bool fixed;		/* IORING_URING_CMD_FIXED: a registered buffer */
	const void *sqe;	/* the command area (IO_URING_CMD_BYTES) */
	void (*done)(struct xctx *x, struct uring_cmd *c, long res,
		     uint64_t res2);
	/* Issued allowed to block (no IOU_F_NONBLOCK), a command that must
	 * wait (for a tag) makes ->uring_cmd return -EIOCBRETRY and calls
	 * retry, from the context that ends the wait, once it may be issued
	 * again. */
	void (*retry)(struct xctx *x, struct uring_cmd *c);
	void *poll_cookie;	/* polled: the blk_hctx to poll, else NULL */
	_Alignas(8) uint8_t pdu[32];	/* the file's per-command state */
	struct io_trace *trace;	/* the caller's latency stamps, or NULL */
};

/* The model's command area: the part of a 128-byte SQE past its header
 * that a passthrough command uses (80 bytes in the kernel). */
#define IO_URING_CMD_BYTES 32

/* issue_flags of ->uring_cmd (IO_URING_F_*) */
#define IOU_F_NONBLOCK	(1u << 0)
#define IOU_F_SQE128	(1u << 1)
#define IOU_F_CQE32	(1u << 2)
#define IOU_F_IOPOLL	(1u << 3)

typedef void (*ki_complete_fn)(struct xctx *x, struct kiocb *iocb, long res);
typedef void (*dio_complete_fn)(struct xctx *x, struct kiocb *iocb);

struct kiocb {
	struct sfile *file;
	uint64_t pos;
	uint32_t len;
	uint32_t nr_segs;	/* pages of the user buffer */
	bool bvec;		/* registered buffer: ITER_BVEC */
	bool write;
	bool sync_wait;		/* the caller sleeps until ki_complete */
	uint32_t flags;		/* KI_* */
	ki_complete_fn ki_complete;
	/* Set by the file when the caller must finish the I/O in its own
	 * context before reporting it (caller completion, synchronous dio). */
	dio_complete_fn dio_complete;
	void *private;		/* the file's per-I/O state */
	void *poll_cookie;	/* polled I/O: the blk_hctx to poll, else NULL */
	void *owner;		/* the caller's request */
	struct io_trace *trace;	/* the caller's latency stamps, or NULL */
	long res;
	struct folio_waiter waiter;	/* buffered reads waiting for a folio */
	/* A buffered write that waits for a block it covers in part to be
	 * read goes on from here: bytes copied so far, and the folio it
	 * waits for. */
	uint32_t written;
	uint64_t write_read_at;
};

/* Run the completion work the file left in dio_complete, in the caller's
 * context, once woken. False when the I/O must wait again: it left
 * -EIOCBQUEUED in res, and maybe the next dio_complete. */
static inline bool kiocb_dio_complete(struct xctx *x, struct kiocb *iocb)
{
	dio_complete_fn finish = iocb->dio_complete;

	if (!finish)
		return true;
	iocb->dio_complete = NULL;
	finish(x, iocb);
	return iocb->res != -EIOCBQUEUED;
}

struct file_ops {
	const char *name;
	/* Start the I/O in the caller's context. Returns -EIOCBQUEUED when
	 * ki_complete will be called later, a byte count when done already,
	 * or -VFS_EAGAIN when KI_NOWAIT was set and it would block. */
	long (*read_iter)(struct xctx *x, struct kiocb *iocb);
	long (*write_iter)(struct xctx *x, struct kiocb *iocb);
	/* fsync/fdatasync in op->task's current step, which it ends: op->done
	 * is that task's next step, delivered once the data (and, without
	 * datasync, the metadata) is durable; op->res then holds the result.
	 * Required. */
	void (*fsync)(struct xctx *x, struct fsync_op *op);
	/* posix_fadvise(POSIX_FADV_DONTNEED): drop cached clean data, at no
	 * simulated cost. Not required. */
	void (*fadvise_dontneed)(struct sfile *f);
	/* Put bytes [off, off + len) in the page cache, uptodate and clean,
	 * at no simulated cost (fio's pre_read, before its clock starts).
	 * Not required: only a cached file has it. */
	void (*preload)(struct sfile *f, uint64_t off, uint64_t len);
	/* io_uring passthrough (->uring_cmd), in the issuer's context:
	 * -EIOCBQUEUED when c->done follows, -VFS_EAGAIN when
	 * IOU_F_NONBLOCK was set and it would block, else the result, the
	 * command done. Only a passthrough device has it, whose read_iter
	 * and write_iter fail with -EINVAL as a file without them does. */
	long (*uring_cmd)(struct xctx *x, struct uring_cmd *c, unsigned issue_flags);
};

/* An fsync in progress, embedded in its caller. */
struct fsync_op {
	struct sim_component comp;	/* its own steps; set up by the file */
	struct sfile *file;
	bool datasync;
	struct task *task;
	struct sim_msg done;
	long res;
	/* the file's state of the operation */
	struct blk_queue *q;
	bool in_call;
	bool finished_inline;
	struct fsync_op *next;	/* waiting for the same file's writeback */
	/* A block device's last close (fs_sync_and_drop): the bdev inode
	 * whose cache goes once written back; NULL for an fsync. */
	struct inode *drop;
};

/* Polled I/O (KI_HIPRI): a file that submits a polled bio leaves the
 * hardware queue to poll in iocb->poll_cookie; the caller polls it with
 * blk_poll() (block/blk_mq.h) and arms a wake-up with blk_poll_arm(). */

/* The posix_fadvise advice that changes how this open file reads ahead
 * (mm/fadvise.c generic_fadvise). */
enum fadvise_advice {
	FADV_NORMAL,
	FADV_RANDOM,		/* FMODE_RANDOM: read only what is asked */
	FADV_SEQUENTIAL,	/* twice the device's readahead window */
};

/* An open file's readahead state (struct file_ra_state, include/linux/fs.h),
 * in folios: the last window read ahead, from start, size folios long, of
 * which the last async_size are ahead of the reader (the first of those
 * carries the readahead marker); prev_pos is the end of the last read, in
 * bytes (UINT64_MAX, as -1: none yet). */
struct file_ra_state {
	uint64_t start, size, async_size;
	uint64_t prev_pos;
};

struct sfile {
	const struct file_ops *ops;
	const char *path;
	uint64_t size;
	uint32_t blksize;	/* the unit of I/O that needs no read-modify-write */
	bool nowait;		/* FMODE_NOWAIT */
	bool buf_rasync;	/* FMODE_BUF_RASYNC */
	enum fadvise_advice ra_advice;
	struct file_ra_state ra;	/* buffered reads */
	struct blkdev *bdev;	/* a block device file: its ioctls; else NULL */
	void *priv;
};

#endif
