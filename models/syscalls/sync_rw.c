/*
 * A task inside a blocking read_iter or write_iter.
 *
 * Stands for the waits a task makes inside a read or write it cannot
 * return from early: the synchronous dio's wait in __iomap_dio_rw
 * (blk_io_schedule until the last bio ends, or, with IOCB_HIPRI, a
 * bio_poll loop), blkdev_direct_IO's, filemap_read's folio wait
 * (folio_wait_locked) and balance_dirty_pages' sleep. The files of this
 * model issue everything asynchronously (fs/vfs.h), so the waiting is
 * done here, for every caller that blocks: the synchronous system calls
 * (read, pread, preadv2: fs/read_write.c, new_sync_read with a kiocb
 * that has no ki_complete) and io_submit on a file opened without
 * O_DIRECT (fs/aio.c, aio_read/aio_write: the kiocb has ki_complete, but
 * filemap_read and iomap_file_buffered_write block all the same unless
 * asked not to with IOCB_NOWAIT, which libaio does not set).
 *
 * Once woken, the task finishes the I/O in its own context, as the kernel
 * does: the copy of a buffered read (the rest of filemap_read), the end
 * of a synchronous dio (iomap_dio_complete). A completion the task finds
 * itself, inline in the call or by its own polling, needs no wake-up.
 * A write to a buffered file opened O_DSYNC or O_SYNC then writes its
 * data back (and with O_SYNC the metadata) before the call returns, as
 * generic_write_sync does: the file's fdatasync or fsync, in the same
 * call.
 *
 * Parameters: none of its own. The spin of a polled wait is CPU time of
 * stage dio_poll_spin; the sleep and wake-up cost what the host model
 * charges for them.
 * Sources: Linux fs/iomap/direct-io.c (__iomap_dio_rw), mm/filemap.c
 * (filemap_read, filemap_update_page), mm/page-writeback.c
 * (balance_dirty_pages), fs/aio.c (aio_read, aio_write, aio_rw_done),
 * include/linux/fs.h (generic_write_sync).
 * Left out: signals (a killable wait that ends early).
 */
#include <glib.h>

#include "block/blk_mq.h"
#include "sync_rw.h"

enum { SYNC_RW_WOKEN, SYNC_RW_POLL, SYNC_RW_SYNCED };

static stage_id st_poll_spin;

void sync_rw_register_stages(void)
{
	st_poll_spin = stage_register("dio_poll_spin", CPU_SYS,
				      "__iomap_dio_rw / blkdev wait: bio_poll loop");
}

static void sync_rw_ki_complete(struct xctx *x, struct kiocb *iocb, long res)
{
	struct sync_rw *w = iocb->owner;

	iocb->res = res;
	w->done = true;
	/* Found by the task itself (inline, or by its own polling): no
	 * wake-up; else the completing context wakes it. */
	if (xctx_task(x) != w->task)
		xctx_wake(x, w->task);
}

/* The polled wait of a synchronous dio (RWF_HIPRI): poll the queue, spin
 * until something arrives, poll again. */
static void sync_rw_poll(struct sync_rw *w)
{
	blk_poll(task_xctx(w->task), w->iocb->poll_cookie);
	if (w->done) {
		task_then(w->task, SIM_MSG(&w->comp, SYNC_RW_WOKEN, NULL, 0));
		return;
	}
	task_spin(w->task, st_poll_spin, SIM_MSG(&w->comp, SYNC_RW_POLL, NULL, 0));
	blk_poll_arm(w->iocb->poll_cookie, w->task);
}

/* After a call that returned ret: go on at once, or sleep (or poll) until
 * ki_complete. */
static void sync_rw_wait(struct sync_rw *w, long ret)
{
	if (ret != -EIOCBQUEUED || w->done)
		task_then(w->task, SIM_MSG(&w->comp, SYNC_RW_WOKEN, NULL, 0));
	else if (w->iocb->poll_cookie)
		sync_rw_poll(w);
	else
		task_io_sleep(w->task, SIM_MSG(&w->comp, SYNC_RW_WOKEN, NULL, 0));
}

void sync_rw_start(struct sync_rw *w, struct xctx *x, struct kiocb *iocb)
{
	struct sfile *f = iocb->file;
	long ret;

	iocb->sync_wait = true;
	iocb->ki_complete = sync_rw_ki_complete;
	iocb->owner = w;
	w->iocb = iocb;
	w->done = false;
	ret = iocb->write ? f->ops->write_iter(x, iocb) : f->ops->read_iter(x, iocb);
	if (ret != -EIOCBQUEUED) {
		iocb->res = ret;
		iocb->dio_complete = NULL;
	}
	sync_rw_wait(w, ret);
}

static void sync_rw_handle(struct sim_component *c, unsigned type, void *ptr,
			   uint64_t arg)
{
	struct sync_rw *w = (struct sync_rw *)c;
	struct kiocb *iocb = w->iocb;
	struct xctx *x = task_xctx(w->task);

	if (type == SYNC_RW_POLL) {
		sync_rw_poll(w);
		return;
	}
	if (type == SYNC_RW_SYNCED) {
		if (w->sync.res < 0)
			iocb->res = w->sync.res;
		w->finish(x, iocb, w->arg);
		return;
	}
	w->done = false;	/* a dio_complete that waits again is woken anew */
	if (!kiocb_dio_complete(x, iocb)) {
		sync_rw_wait(w, iocb->res);
		return;
	}
	if (iocb->write && (iocb->flags & KI_DSYNC) && !(iocb->flags & KI_DIRECT) &&
	    iocb->res >= 0) {
		w->sync = (struct fsync_op){
			.file = iocb->file, .datasync = !(iocb->flags & KI_SYNC),
			.task = w->task,
			.done = SIM_MSG(&w->comp, SYNC_RW_SYNCED, NULL, 0),
		};
		iocb->file->ops->fsync(x, &w->sync);
		return;
	}
	w->finish(x, iocb, w->arg);
}

static const struct sim_component_ops sync_rw_ops = {
	.name = "sync_rw",
	.handle = sync_rw_handle,
};

void sync_rw_init(struct sync_rw *w, struct sim *s, const char *name,
		  struct task *t, sync_rw_done_fn done, void *arg)
{
	*w = (struct sync_rw){.task = t, .finish = done, .arg = arg};
	sync_rw_register_stages();
	sim_component_init(s, &w->comp, &sync_rw_ops, name);
}

struct sync_rw *sync_rw_new(struct sim *s, const char *name, struct task *t,
			    sync_rw_done_fn done, void *arg)
{
	struct sync_rw *w = g_new0(struct sync_rw, 1);

	sync_rw_init(w, s, name, t, done, arg);
	return w;
}

void sync_rw_free(struct sync_rw *w)
{
	g_free(w);
}
