/*
 * Linux native AIO (fs/aio.c), the kernel side of libaio.
 */
#ifndef STORSIM_AIO_H
#define STORSIM_AIO_H

#include "fs/vfs.h"
#include "host/host.h"
#include "engine/params.h"

/* CPU costs (host profile, model "aio"). */
struct aio_params {
	sim_time submit_iocb;	/* io_submit per iocb: copy, aio_get_req, fget */
	sim_time complete;	/* aio_complete: fill the io_event, wake */
	sim_time getevents;	/* io_getevents: read_events around a copy-out */
	sim_time event_copy;	/* per io_event copied to user space */
};

extern const struct param_def aio_param_table[];

struct aio_iocb {
	struct sfile *file;
	bool write;
	uint64_t off;
	uint32_t len;
	uint32_t nr_segs;
	uint32_t kiflags;	/* KI_*: from the file's open flags */
	void *data;		/* returned in the io_event */
	struct io_trace *trace;	/* the submitter's latency stamps, or NULL */
};

struct aio_event {
	void *data;
	long res;
};

struct aio_ctx;

struct aio_ctx *aio_ctx_new(struct host *h, struct task *owner,
			    const struct aio_params *p, unsigned nr_events);
void aio_ctx_free(struct aio_ctx *c);

/* io_submit(2), in a step of the owner task; ends the step, delivering
 * done when the syscall returns. Buffered iocbs (no KI_DIRECT) are read
 * or written inside the call, which may sleep: iocbs must stay as they
 * are until done. */
void aio_io_submit(struct aio_ctx *c, const struct aio_iocb *iocbs, unsigned nr,
		   struct sim_msg done);
/* io_getevents(2): at least min_nr, at most nr events into out; ends the
 * step. The count is aio_last_events(). */
void aio_io_getevents(struct aio_ctx *c, unsigned min_nr, unsigned nr,
		      struct aio_event *out, struct sim_msg done);
unsigned aio_last_events(const struct aio_ctx *c);
/* Events waiting in the ring (what a user-space reap can take). */
unsigned aio_ring_available(const struct aio_ctx *c);
/* Take up to nr events from the ring in user space (userspace_reap). */
unsigned aio_ring_reap(struct aio_ctx *c, unsigned nr, struct aio_event *out);

#endif
