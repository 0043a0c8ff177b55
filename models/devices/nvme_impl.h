/*
 * The NVMe controller model's private state, shared by its files and no one
 * else: the controller (nvme.c: parameters, life cycle, events, counters
 * and reports), its registers and doorbells (nvme_regs.c), queues, fetch
 * and completions (nvme_queue.c), host memory and the payload store
 * (nvme_dma.c), admin commands (nvme_admin.c), I/O commands (nvme_io.c),
 * and media, link and write cache (nvme_media.c). Other models use nvme.h.
 */
#ifndef STORSIM_NVME_IMPL_H
#define STORSIM_NVME_IMPL_H

#include <errno.h>
#include <math.h>
#include <string.h>

#include "nvme.h"
#include "nvme_durability.h"
#include "nvme_spec.h"
#include "engine/util.h"
/* --- state -------------------------------------------------------------- */

enum ev {
	EV_READY,		/* CC.EN took effect */
	EV_EXEC,		/* ptr = command */
	EV_DATA_IN,		/* write data arrived over the link */
	EV_MEDIA_DONE,		/* media operation finished */
	EV_COMPLETE,		/* post the CQE */
	EV_DESTAGE_DONE,	/* head of the cache reached media */
	EV_COALESCE,		/* ptr = CQ: aggregation time expired */
	EV_CQ_HEAD,		/* ptr = CQ: a head told ahead takes effect */
	EV_POWER_LOSS,
};

enum route {
	ROUTE_NONE,		/* failed before it was routed */
	ROUTE_ADMIN,
	ROUTE_READ,
	ROUTE_WRITE,
	ROUTE_META,		/* Write Zeroes, deallocate */
	ROUTE_FLUSH,
};

struct dev_cmd {
	struct nvme_sqe sqe;
	struct dev_sq *sq;
	struct dev_cmd *next;	/* free list, an EXEC chain or a wait list */
	uint64_t slba, bytes, seq;
	sim_time exec_at;	/* fetch + fetch_latency + cmd_overhead */
	sim_time link_prev;	/* link_rx_free before a Write took its turn */
	uint32_t nlb, result;
	uint16_t status;
	uint8_t route;
	bool fua;
	bool on_media;		/* data reached media before the CQE */
};

struct fifo {
	struct dev_cmd *head, *tail;
};

struct dev_sq {
	uint64_t base;
	uint32_t size, head, tail, outstanding;
	uint16_t qid, cqid;
	bool live;
	/* A command slot per queue entry (the host can never have more
	 * outstanding, and a fetched command keeps its slot until its CQE is
	 * posted), made CMD_CHUNK at a time as first needed: a queue holds
	 * the memory of the most it ever had outstanding. */
	struct dev_cmd **chunk;
	uint32_t made;
	struct dev_cmd *free;
	struct dev_cmd *deleter;	/* Delete I/O SQ waiting for idle */
};

struct dev_cq {
	uint64_t base;
	uint32_t size, head, tail, sq_count, coalesce_pending;
	/* A head doorbell told ahead (nvme_dev_cq_doorbell_at): head
	 * becomes head_next at head_next_at. */
	bool head_pending;
	uint32_t head_next;
	sim_time head_next_at;
	uint16_t qid, vector;
	uint8_t phase;
	bool live, ien, coalesce_armed;
	struct fifo full_wait;	/* completions waiting for CQ room */
};

struct cache_entry {
	uint64_t seq, slba, bytes;
	uint32_t nlb;
};

struct nvme_dev {
	struct sim_component c;
	struct nvme_dev_params p;
	struct sim_dist_table *jitter;	/* media_jitter > 0: its factors */
	const struct nvme_host_ops *ops;
	void *host;

	/* registers */
	uint64_t cap, asq, acq;
	uint32_t cc, csts, aqa, intms;
	uint32_t page_size;
	bool powered, dying;
	uint64_t epoch;		/* commands; bumped by reset and power loss */
	uint64_t power_epoch;	/* the cache, a pending power loss */

	/* queues, indexed by qid */
	struct dev_sq *sq;
	struct dev_cq *cq;
	uint32_t nsq_alloc, ncq_alloc;
	bool io_queue_created;

	/* features */
	bool wce;
	uint8_t coalesce_thr, coalesce_time;

	/* media and link */
	uint32_t units_busy;
	struct fifo media_wait;
	sim_time link_rx_free, link_tx_free;
	uint64_t read_fs, write_fs, link_fs, destage_fs;	/* fs per byte */

	/* volatile write cache: a FIFO ring destaged from its head */
	struct cache_entry *ring;
	uint32_t ring_cap, ring_head, ring_len;
	uint64_t cache_used;
	bool destaging;
	struct fifo room_wait;	/* writes waiting for cache room */
	struct fifo drain_wait;	/* Flush and VWC-off waiting for destage */
	bool shutdown_pending;
	uint64_t write_seq;	/* last sequence number given to a write */
	uint64_t destaged_seq;	/* every cached write up to this is on media */
	sim_time flush_free_at;	/* the controller's Flush stage is busy until */

	/* accounting */
	uint32_t outstanding;
	sim_time busy_since;
	uint64_t io_completed;
	struct nvme_dev_counters cnt;

	/* payload, with store_data: 4 KiB chunk index -> 4096 bytes */
	GHashTable *store;
	uint64_t store_bytes;

	/* durability */
	struct dur_tracker dur;
	GArray *dur_ranges;
	struct nvme_durability_summary dur_sum;

	uint8_t id_ctrl[NVME_IDENTIFY_SIZE];
	uint8_t id_ns[NVME_IDENTIFY_SIZE];
};

#define STORE_CHUNK 4096u

/* A transfer between host memory and the payload store (nvme_dma.c). */
struct xfer {
	uint64_t dev_off;	/* byte offset in the namespace */
	bool to_host;
	uint8_t *buf;		/* admin data instead of the store, or NULL */
};
#define STATUS_DEFERRED 0xffffu	/* completes later, from a wait list */
#define CMD_CHUNK 64u		/* command slots made at a time (struct dev_sq) */

static inline void fifo_push(struct fifo *f, struct dev_cmd *c)
{
	c->next = NULL;
	if (f->tail)
		f->tail->next = c;
	else
		f->head = c;
	f->tail = c;
}

static inline struct dev_cmd *fifo_pop(struct fifo *f)
{
	struct dev_cmd *c = f->head;
	if (c) {
		f->head = c->next;
		if (!f->head)
			f->tail = NULL;
	}
	return c;
}
static inline sim_time now(const struct nvme_dev *d)
{
	return sim_now(d->c.sim);
}

/* The cache and a pending power loss outlive a controller reset; the
 * rest belongs to the commands a reset drops. */
static inline uint64_t epoch_of(const struct nvme_dev *d, unsigned type)
{
	return type == EV_DESTAGE_DONE || type == EV_POWER_LOSS ?
	       d->power_epoch : d->epoch;
}

static inline void after(struct nvme_dev *d, sim_time delay, unsigned type, void *ptr)
{
	sim_after(d->c.sim, delay, &d->c, type, ptr, epoch_of(d, type));
}

/* Femtoseconds per byte for a bandwidth in MB/s (10^6 bytes per second);
 * integers keep every run's durations identical. 0 means unlimited. */
static inline uint64_t fs_per_byte_mbps(double mbps)
{
	return mbps > 0 ? (uint64_t)llround(1e9 / mbps) : 0;
}

static inline uint64_t fs_per_byte_ns_kib(double ns_per_kib)
{
	return (uint64_t)llround(ns_per_kib * 1e6 / 1024.0);
}

static inline sim_time bytes_time(uint64_t bytes, uint64_t fs_per_byte)
{
	uint64_t fs;

	/* The 128-bit division is a library call: once per command, only
	 * when the product does not fit. */
	if (__builtin_expect(!__builtin_mul_overflow(bytes, fs_per_byte, &fs) &&
			     fs <= UINT64_MAX - 500000, 1))
		return (fs + 500000) / 1000000;
	return (sim_time)(((unsigned __int128)bytes * fs_per_byte + 500000) /
			  1000000);
}

uint16_t dev_admin_exec(struct nvme_dev *d, struct dev_cmd *cmd);
void dev_alloc_cq(struct nvme_dev *d, uint16_t qid, uint64_t base,
		     uint32_t size, uint16_t vector, bool ien);
bool dev_alloc_sq(struct nvme_dev *d, uint16_t qid, uint16_t cqid,
		     uint64_t base, uint32_t size);
void dev_build_identify(struct nvme_dev *d);
void dev_complete_after(struct nvme_dev *d, struct dev_cmd *cmd, sim_time t);
void dev_cq_drain(struct nvme_dev *d, struct dev_cq *cq);
bool dev_cq_full(const struct nvme_dev *d, struct dev_cq *cq);
void dev_destage_done(struct nvme_dev *d);
bool dev_drained_to(const struct nvme_dev *d, uint64_t snapshot);
void dev_exec_chain(struct nvme_dev *d, struct dev_cmd *cmd);
void dev_finish_drain_waiter(struct nvme_dev *d, struct dev_cmd *cmd);
void dev_free_queues(struct nvme_dev *d);
void dev_sq_free_cmds(struct dev_sq *sq);
sim_time dev_jitter(struct nvme_dev *d, sim_time t);
sim_time dev_link_transfer(struct nvme_dev *d, sim_time *free, sim_time at,
			      uint64_t bytes);
void dev_media_done(struct nvme_dev *d, struct dev_cmd *cmd);
void dev_media_submit(struct nvme_dev *d, struct dev_cmd *cmd);
void dev_number_write(struct nvme_dev *d, struct dev_cmd *cmd, bool on_media);
void dev_post_cqe(struct nvme_dev *d, struct dev_cmd *cmd);
uint16_t dev_prp_check(const struct nvme_dev *d, const struct nvme_sqe *e,
			  uint64_t len);
uint16_t dev_prp_walk(struct nvme_dev *d, const struct nvme_sqe *e,
			 uint64_t len, struct xfer *x);
void dev_raise_irq(struct nvme_dev *d, struct dev_cq *cq);
void dev_ready(struct nvme_dev *d);
void dev_release(struct nvme_dev *d, struct dev_cmd *cmd);
void dev_sq_kick(struct nvme_dev *d, struct dev_sq *sq);
bool dev_store_has_room(struct nvme_dev *d, uint64_t off, uint64_t len);
void dev_store_zero(struct nvme_dev *d, uint64_t off, uint64_t len);
uint16_t dev_to_host(struct nvme_dev *d, const struct nvme_sqe *e,
			const void *buf, size_t len);
void dev_unstart_writes(struct nvme_dev *d, bool tie_ran);
void dev_write_arrived(struct nvme_dev *d, struct dev_cmd *cmd);
bool dev_write_at_fetch(struct nvme_dev *d, struct dev_cmd *cmd);
void dev_write_cqe(struct nvme_dev *d, struct dev_cq *cq, struct dev_cmd *cmd);
void dev_write_to_cache(struct nvme_dev *d, struct dev_cmd *cmd);

#endif

