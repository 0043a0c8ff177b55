/*
 * NVMe controller and media.
 *
 * Stands for an NVMe SSD behind PCIe as the NVM Express Base Specification
 * 2.0 and the NVM Command Set Specification 1.0 describe it: controller
 * registers and doorbells (Base 3.1), admin and I/O queue pairs with phase
 * tags (Base 4.1, 4.6), Identify (Base 5.17), Get/Set Features for the
 * Volatile Write Cache, Number of Queues and Interrupt Coalescing (Base
 * 5.27.1), queue creation and deletion (Base 5.4, 5.5, 5.6, 5.7), Read,
 * Write with FUA, Flush, Write Zeroes and Dataset Management (NVM 3.2) and
 * the status codes those commands define (Base 4.6.1.2, NVM 4.1.1).
 *
 * Time: a doorbell makes the controller fetch the new entries after
 * fetch_latency (ns); each command then costs cmd_overhead (ns) before it
 * executes. Admin commands take admin_latency (ns). A read occupies one of
 * media_units for read_latency + size * read_ns_per_kib (ns, ns/KiB), times
 * a lognormal factor of mean 1 and relative deviation media_jitter, then
 * crosses the link (link_mbps, MB/s, each direction; 0 = unlimited). A
 * write crosses the link, then either enters the volatile write cache
 * (cache_bytes; it completes cache_latency ns later, or waits for room) or,
 * with the cache off or FUA set, occupies a media unit for write_latency +
 * size * write_ns_per_kib. The cache destages in arrival order at
 * destage_mbps (MB/s). A Flush completes flush_latency (ns) after every
 * write acknowledged before it started is on media, the controller
 * finishing one Flush at a time (committing the cache's mapping updates
 * is one serial operation; an estimate, as the drives' firmware is not
 * public). Write Zeroes and
 * deallocate are mapping updates of meta_latency (ns) that go through the
 * cache in order, carrying no data.
 *
 * Sources: NVMe specifications above; QEMU 7.2 hw/nvme/ctrl.c for the
 * identity and limits of the "qemu-nvme" profile and for the order of its
 * checks (reference/qemu-nvme-and-libvirt.md); timings come from profiles.
 *
 * Hot path: command state comes from a pool sized when the queue is
 * created; an SQE fetch is one 64-byte dma_read; payload moves only with
 * store_data; each command stage is at most one event; commands fetched
 * together share one execution event (see fetch()), and a Write without
 * payload that passes its checks needs none: it takes its turn on the link
 * when it is fetched, which gives the same times (see write_at_fetch()), so
 * it costs two events, its data's arrival and its completion (or media's);
 * every event carries the epoch it was scheduled in, so a reset or power
 * loss drops stale events without searching for them.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "nvme.h"
#include "nvme_durability.h"
#include "nvme_spec.h"
#include "system/profile.h"
#include "engine/util.h"

/* --- parameters --------------------------------------------------------- */

/* One table row; designated fields leave choices NULL. */
#define ROW(n, t, f, def_, lo, hi, u, h) \
	{.name = (n), .type = (t), .offset = offsetof(struct nvme_dev_params, f), \
	 .def = (def_), .min = (lo), .max = (hi), .unit = (u), .help = (h)}

const struct param_def nvme_dev_param_table[] = {
	ROW("vid", PARAM_U32, vid, "0x1b36", 0, 65535, "id",
	    "PCI vendor ID, reported in Identify VID"),
	ROW("ssvid", PARAM_U32, ssvid, "0x1af4", 0, 65535, "id",
	    "PCI subsystem vendor ID, Identify SSVID"),
	ROW("serial", PARAM_STRING, serial, "storsim0001", 0, 0, "text",
	    "serial number, Identify SN (20 characters at most)"),
	ROW("model_name", PARAM_STRING, model_name, "QEMU NVMe Ctrl", 0, 0, "text",
	    "model number, Identify MN (40 characters at most)"),
	ROW("firmware", PARAM_STRING, firmware, "7.2.22", 0, 0, "text",
	    "firmware revision, Identify FR (8 characters at most)"),
	ROW("version", PARAM_U32, version, "0x10400", 0, 0, "id",
	    "VS register and Identify VER: major in bits 31:16, minor 15:8"),
	ROW("mdts", PARAM_U32, mdts, "7", 0, 20, "log2(CAP.MPSMIN pages)",
	    "maximum data transfer size; 0 = no limit"),
	ROW("max_queue_entries", PARAM_U32, max_queue_entries, "2048", 2, 65536,
	    "count", "largest queue the controller accepts (CAP.MQES + 1)"),
	ROW("cap_timeout", PARAM_U32, cap_timeout, "15", 1, 255, "500 ms",
	    "CAP.TO: worst-case time to ready, reported only"),
	ROW("mps_max", PARAM_U32, mps_max, "4", 0, 15, "log2(4 KiB)",
	    "CAP.MPSMAX: largest host memory page size"),
	ROW("max_io_queues", PARAM_U32, max_io_queues, "64", 1, 65535, "count",
	    "I/O submission and completion queues the controller can allocate"),
	ROW("msix_vectors", PARAM_U32, msix_vectors, "65", 1, 2048, "count",
	    "MSI-X vectors; a CQ's interrupt vector must be below this"),
	ROW("nn", PARAM_U32, nn, "256", 1, 0xfffffffe, "count",
	    "Identify NN: largest valid NSID (only NSID 1 is attached)"),
	ROW("ns_blocks", PARAM_U64, ns_blocks, "131072", 1, 1e15, "blocks",
	    "size of namespace 1 (NSZE = NCAP = NUSE)"),
	ROW("lba_shift", PARAM_U32, lba_shift, "9", 9, 12, "log2(bytes)",
	    "LBA data size of namespace 1 (LBADS)"),
	ROW("vwc_present", PARAM_BOOL, vwc_present, "true", 0, 0, "",
	    "a volatile write cache is present (Identify VWC bit 0)"),
	ROW("flush_broadcast", PARAM_BOOL, flush_broadcast, "true", 0, 0, "",
	    "Flush accepts NSID FFFFFFFFh (Identify VWC bits 2:1)"),
	ROW("write_cache_enabled", PARAM_BOOL, write_cache_enabled, "true", 0, 0,
	    "", "volatile write cache enabled at power-on (feature 06h default)"),
	ROW("dsm", PARAM_BOOL, dsm, "true", 0, 0, "",
	    "Dataset Management (deallocate) supported (ONCS bit 2)"),
	ROW("write_zeroes", PARAM_BOOL, write_zeroes, "true", 0, 0, "",
	    "Write Zeroes supported (ONCS bit 3)"),
	ROW("enable_latency", PARAM_TIME, enable_latency, "1000", 0, 1e12, "ns",
	    "CC.EN = 1 to CSTS.RDY = 1"),
	ROW("fetch_latency", PARAM_TIME, fetch_latency, "300", 0, 1e9, "ns",
	    "SQ tail doorbell to the fetch of the new entries"),
	ROW("cmd_overhead", PARAM_TIME, cmd_overhead, "1000", 0, 1e9, "ns",
	    "controller processing of a fetched command before it executes"),
	ROW("admin_latency", PARAM_TIME, admin_latency, "10000", 0, 1e12, "ns",
	    "execution time of an admin command"),
	ROW("read_latency", PARAM_TIME, read_latency, "60000", 0, 1e12, "ns",
	    "fixed part of a media read"),
	ROW("read_ns_per_kib", PARAM_DOUBLE, read_ns_per_kib, "250", 0, 1e9,
	    "ns/KiB", "per-size part of a media read"),
	ROW("write_latency", PARAM_TIME, write_latency, "200000", 0, 1e12, "ns",
	    "fixed part of a media write (cache off or FUA)"),
	ROW("write_ns_per_kib", PARAM_DOUBLE, write_ns_per_kib, "500", 0, 1e9,
	    "ns/KiB", "per-size part of a media write"),
	ROW("media_jitter", PARAM_DOUBLE, media_jitter, "0", 0, 10, "ratio",
	    "relative standard deviation of a lognormal factor on media times"),
	ROW("media_units", PARAM_U32, media_units, "16", 1, 65536, "count",
	    "media operations that can run at once (dies, planes, channels)"),
	ROW("link_mbps", PARAM_DOUBLE, link_mbps, "3500", 0, 1e6, "MB/s",
	    "host link bandwidth per direction; 0 = unlimited"),
	ROW("cache_bytes", PARAM_U64, cache_bytes, "268435456", 0, 1e15, "bytes",
	    "volatile write cache capacity"),
	ROW("cache_latency", PARAM_TIME, cache_latency, "2000", 0, 1e12, "ns",
	    "time to place a write's data in the cache once it has arrived"),
	ROW("destage_mbps", PARAM_DOUBLE, destage_mbps, "1500", 0, 1e6, "MB/s",
	    "rate at which the cache writes to media; 0 = instantly"),
	ROW("flush_latency", PARAM_TIME, flush_latency, "5000", 0, 1e12, "ns",
	    "fixed cost of a Flush once the cache has destaged"),
	ROW("meta_latency", PARAM_TIME, meta_latency, "2000", 0, 1e12, "ns",
	    "execution time of Write Zeroes and Dataset Management"),
	ROW("store_data", PARAM_BOOL, store_data, "false", 0, 0, "",
	    "move and keep payload data (conformance tests; sparse 4 KiB blocks)"),
	ROW("store_data_max_bytes", PARAM_U64, store_data_max_bytes, "67108864",
	 4096, 1e12, "bytes", "bound on stored data; beyond it writes fail"),
	ROW("track_durability", PARAM_BOOL, track_durability, "false", 0, 0, "",
	    "record acknowledged writes for the power-loss durability report"),
	ROW("durability_max_ranges", PARAM_U32, durability_max_ranges, "262144",
	 16, 1e8, "count", "LBA ranges the durability tracker may hold"),
	ROW("power_loss_after_commands", PARAM_U64, power_loss_after_commands,
	    "0", 0, 0, "count", "lose power once this many I/O commands completed; "
	    "0 = never"),
	PARAM_END,
};

void nvme_dev_params_init(struct nvme_dev_params *p)
{
	memset(p, 0, sizeof(*p));
	params_set_defaults(nvme_dev_param_table, p);
}

void nvme_dev_params_clear(struct nvme_dev_params *p)
{
	params_clear(nvme_dev_param_table, p);
}

bool nvme_dev_params_load(struct nvme_dev_params *p, const char *name_or_path,
			  GError **err)
{
	auto_profile *prof = profile_load(name_or_path, "device", err);

	if (!prof)
		return false;
	if (!prof->model || strcmp(prof->model, "nvme") != 0) {
		storsim_input_error(err, prof->path,
				    storsim_json_key_line(prof->text, "model"), "model",
				    "must be \"nvme\"");
		return false;
	}
	if (!params_apply_json(nvme_dev_param_table, p, prof->params, prof->path,
			       prof->text, err))
		return false;
	if (!nvme_dev_params_check(p, err)) {
		g_prefix_error(err, "%s: ", prof->path);
		return false;
	}
	return true;
}

bool nvme_dev_params_check(const struct nvme_dev_params *p, GError **err)
{
	if (p->write_cache_enabled && !p->vwc_present) {
		storsim_input_error(err, NULL, 0, "write_cache_enabled",
				    "needs vwc_present = true");
		return false;
	}
	if (p->vwc_present && p->cache_bytes == 0) {
		storsim_input_error(err, NULL, 0, "cache_bytes",
				    "must be > 0 when vwc_present = true");
		return false;
	}
	if (strlen(p->serial ? p->serial : "") > 20 ||
	    strlen(p->model_name ? p->model_name : "") > 40 ||
	    strlen(p->firmware ? p->firmware : "") > 8) {
		storsim_input_error(err, NULL, 0, "serial",
				    "serial, model_name and firmware are at most "
				    "20, 40 and 8 characters");
		return false;
	}
	if (p->msix_vectors > p->max_io_queues + 1u) {
		storsim_input_error(err, NULL, 0, "msix_vectors",
				    "at most max_io_queues + 1 (%u)",
				    p->max_io_queues + 1);
		return false;
	}
	if (p->ns_blocks > (UINT64_MAX >> p->lba_shift)) {
		storsim_input_error(err, NULL, 0, "ns_blocks", "too large");
		return false;
	}
	return true;
}

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
	struct dev_cmd *pool, *free;
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
#define STATUS_DEFERRED 0xffffu	/* completes later, from a wait list */

static void fifo_push(struct fifo *f, struct dev_cmd *c)
{
	c->next = NULL;
	if (f->tail)
		f->tail->next = c;
	else
		f->head = c;
	f->tail = c;
}

static struct dev_cmd *fifo_pop(struct fifo *f)
{
	struct dev_cmd *c = f->head;
	if (c) {
		f->head = c->next;
		if (!f->head)
			f->tail = NULL;
	}
	return c;
}

static void handle(struct sim_component *c, unsigned type, void *ptr,
		   uint64_t arg);

static const struct sim_component_ops nvme_dev_ops = {
	.name = "nvme-dev",
	.handle = handle,
};

static sim_time now(const struct nvme_dev *d)
{
	return sim_now(d->c.sim);
}

/* The cache and a pending power loss outlive a controller reset; the
 * rest belongs to the commands a reset drops. */
static uint64_t epoch_of(const struct nvme_dev *d, unsigned type)
{
	return type == EV_DESTAGE_DONE || type == EV_POWER_LOSS ?
	       d->power_epoch : d->epoch;
}

static void after(struct nvme_dev *d, sim_time delay, unsigned type, void *ptr)
{
	sim_after(d->c.sim, delay, &d->c, type, ptr, epoch_of(d, type));
}

/* Femtoseconds per byte for a bandwidth in MB/s (10^6 bytes per second);
 * integers keep every run's durations identical. 0 means unlimited. */
static uint64_t fs_per_byte_mbps(double mbps)
{
	return mbps > 0 ? (uint64_t)llround(1e9 / mbps) : 0;
}

static uint64_t fs_per_byte_ns_kib(double ns_per_kib)
{
	return (uint64_t)llround(ns_per_kib * 1e6 / 1024.0);
}

static sim_time bytes_time(uint64_t bytes, uint64_t fs_per_byte)
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

/* --- identify data -------------------------------------------------------- */

static void put_ascii(uint8_t *dst, size_t len, const char *s)
{
	size_t n = s ? strlen(s) : 0;
	memset(dst, ' ', len);
	memcpy(dst, s, MIN(n, len));
}

static void build_identify(struct nvme_dev *d)
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

/* --- life cycle ----------------------------------------------------------- */

static void free_queues(struct nvme_dev *d)
{
	for (uint32_t i = 0; i <= d->p.max_io_queues; i++) {
		g_clear_pointer(&d->sq[i].pool, g_free);
		d->sq[i] = (struct dev_sq){0};
		d->cq[i] = (struct dev_cq){0};
	}
}

struct nvme_dev *nvme_dev_new(struct sim *s, const char *name,
			      const struct nvme_dev_params *p,
			      const struct nvme_host_ops *ops, void *host,
			      GError **err)
{
	if (!nvme_dev_params_check(p, err))
		return NULL;

	struct nvme_dev *d = g_new0(struct nvme_dev, 1);

	sim_component_init(s, &d->c, &nvme_dev_ops, name);
	d->p = *p;
	d->p.serial = g_strdup(p->serial);
	d->p.model_name = g_strdup(p->model_name);
	d->p.firmware = g_strdup(p->firmware);
	d->ops = ops;
	d->host = host;
	d->powered = true;
	d->cap = (uint64_t)(p->max_queue_entries - 1) |
		 (uint64_t)1 << 16 |			/* CQR */
		 (uint64_t)p->cap_timeout << 24 |
		 (uint64_t)1 << 37 |			/* CSS: NVM command set */
		 (uint64_t)p->mps_max << 52;
	d->sq = g_new0(struct dev_sq, p->max_io_queues + 1);
	d->cq = g_new0(struct dev_cq, p->max_io_queues + 1);
	if (p->media_jitter > 0) {
		d->jitter = g_new(struct sim_dist_table, 1);
		sim_dist_table_lognormal(d->jitter, p->media_jitter);
	}
	d->nsq_alloc = d->ncq_alloc = p->max_io_queues;
	d->wce = p->vwc_present && p->write_cache_enabled;
	d->read_fs = fs_per_byte_ns_kib(p->read_ns_per_kib);
	d->write_fs = fs_per_byte_ns_kib(p->write_ns_per_kib);
	d->link_fs = fs_per_byte_mbps(p->link_mbps);
	d->destage_fs = fs_per_byte_mbps(p->destage_mbps);
	d->ring_cap = 64;
	d->ring = g_new(struct cache_entry, d->ring_cap);
	if (p->store_data)
		d->store = g_hash_table_new_full(g_direct_hash, g_direct_equal,
						 NULL, g_free);
	if (p->track_durability)
		dur_init(&d->dur, p->durability_max_ranges, s->seed, name);
	build_identify(d);
	return d;
}

void nvme_dev_free(struct nvme_dev *d)
{
	if (!d)
		return;
	free_queues(d);
	g_free(d->sq);
	g_free(d->cq);
	g_free(d->jitter);
	g_free(d->ring);
	if (d->store)
		g_hash_table_destroy(d->store);
	if (d->p.track_durability)
		dur_destroy(&d->dur);
	if (d->dur_ranges)
		g_array_free(d->dur_ranges, TRUE);
	nvme_dev_params_clear(&d->p);
	g_free(d);
}

/* --- payload store -------------------------------------------------------- */

struct xfer {
	uint64_t dev_off;	/* byte offset in the namespace */
	bool to_host;
	uint8_t *buf;		/* admin data instead of the store, or NULL */
};

static const uint8_t zero_chunk[STORE_CHUNK];

/* Move one host segment between host memory and the store or buffer. */
static void xfer_segment(struct nvme_dev *d, uint64_t addr, uint64_t off,
			 uint64_t len, struct xfer *x)
{
	if (x->buf) {
		if (x->to_host)
			d->ops->dma_write(d->host, addr, x->buf + off, len);
		else
			d->ops->dma_read(d->host, addr, x->buf + off, len);
		return;
	}
	while (len) {
		uint64_t pos = x->dev_off + off;
		uint64_t idx = pos / STORE_CHUNK, in = pos % STORE_CHUNK;
		uint64_t n = MIN(len, STORE_CHUNK - in);
		uint8_t *chunk = g_hash_table_lookup(d->store, GSIZE_TO_POINTER(idx));

		if (x->to_host) {
			d->ops->dma_write(d->host, addr,
					  (chunk ? chunk : zero_chunk) + in, n);
		} else {
			if (!chunk) {
				chunk = g_malloc0(STORE_CHUNK);
				g_hash_table_insert(d->store, GSIZE_TO_POINTER(idx), chunk);
				d->store_bytes += STORE_CHUNK;
			}
			d->ops->dma_read(d->host, addr, chunk + in, n);
		}
		addr += n;
		off += n;
		len -= n;
	}
}

/* Whether writing [off, off + len) keeps the store within its bound. */
static bool store_has_room(struct nvme_dev *d, uint64_t off, uint64_t len)
{
	uint64_t need = 0;
	for (uint64_t i = off / STORE_CHUNK; i <= (off + len - 1) / STORE_CHUNK; i++)
		if (!g_hash_table_contains(d->store, GSIZE_TO_POINTER(i)))
			need += STORE_CHUNK;
	return d->store_bytes + need <= d->p.store_data_max_bytes;
}

static void store_zero(struct nvme_dev *d, uint64_t off, uint64_t len)
{
	while (len) {
		uint64_t idx = off / STORE_CHUNK, in = off % STORE_CHUNK;
		uint64_t n = MIN(len, STORE_CHUNK - in);
		uint8_t *chunk = g_hash_table_lookup(d->store, GSIZE_TO_POINTER(idx));

		if (chunk && n == STORE_CHUNK) {
			g_hash_table_remove(d->store, GSIZE_TO_POINTER(idx));
			d->store_bytes -= STORE_CHUNK;
		} else if (chunk) {
			memset(chunk + in, 0, n);
		}
		off += n;
		len -= n;
	}
}

/*
 * Walk the PRP entries of a transfer of len bytes (Base 4.1.1): PRP1 may
 * start inside a page; PRP2 is the second page when two pages suffice, or
 * else points at a list whose last entry chains to the next list page.
 * Entries after the first must be page aligned.
 */
static uint16_t prp_walk(struct nvme_dev *d, const struct nvme_sqe *e,
			 uint64_t len, struct xfer *x)
{
	uint64_t ps = d->page_size, done;
	uint64_t first = MIN(len, ps - (e->prp1 & (ps - 1)));

	xfer_segment(d, e->prp1, 0, first, x);
	done = first;
	if (done == len)
		return NVME_SC_SUCCESS;
	if (len - done <= ps) {
		if (e->prp2 & (ps - 1))
			return NVME_SC_PRP_OFFSET_INVALID | NVME_DNR;
		xfer_segment(d, e->prp2, done, len - done, x);
		return NVME_SC_SUCCESS;
	}
	uint64_t list = e->prp2;
	while (done < len) {
		uint64_t slots = (ps - (list & (ps - 1))) / 8;
		for (uint64_t i = 0; i < slots && done < len; i++) {
			uint64_t entry;
			d->ops->dma_read(d->host, list + 8 * i, &entry, 8);
			if (i == slots - 1 && len - done > ps) {
				if (entry & 7)
					return NVME_SC_PRP_OFFSET_INVALID | NVME_DNR;
				list = entry;
				break;
			}
			if (entry & (ps - 1))
				return NVME_SC_PRP_OFFSET_INVALID | NVME_DNR;
			uint64_t n = MIN(ps, len - done);
			xfer_segment(d, entry, done, n, x);
			done += n;
		}
	}
	return NVME_SC_SUCCESS;
}

/* The checks on PRP1 and PRP2 that need no memory access. */
static uint16_t prp_check(const struct nvme_dev *d, const struct nvme_sqe *e,
			  uint64_t len)
{
	uint64_t ps = d->page_size;
	uint64_t first = ps - (e->prp1 & (ps - 1));

	if (e->prp1 & 3)
		return NVME_SC_PRP_OFFSET_INVALID | NVME_DNR;
	if (len <= first)
		return NVME_SC_SUCCESS;
	if (len - first <= ps ? (e->prp2 & (ps - 1)) : (e->prp2 & 7))
		return NVME_SC_PRP_OFFSET_INVALID | NVME_DNR;
	return NVME_SC_SUCCESS;
}

static uint16_t to_host(struct nvme_dev *d, const struct nvme_sqe *e,
			const void *buf, size_t len)
{
	struct xfer x = {.to_host = true, .buf = (uint8_t *)buf};
	uint16_t st = prp_check(d, e, len);
	return st ? st : prp_walk(d, e, len, &x);
}

/* --- interrupts and completions -------------------------------------------- */

static void raise_irq(struct nvme_dev *d, struct dev_cq *cq)
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
		raise_irq(d, cq);
		return;
	}
	if (++cq->coalesce_pending > d->coalesce_thr) {
		cq->coalesce_pending = 0;
		raise_irq(d, cq);
	} else if (!cq->coalesce_armed && d->coalesce_time) {
		cq->coalesce_armed = true;
		after(d, (sim_time)d->coalesce_time * 100 * SIM_USEC, EV_COALESCE, cq);
	}
}

static bool cq_full(const struct nvme_dev *d, struct dev_cq *cq)
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

static void sq_kick(struct nvme_dev *d, struct dev_sq *sq);
static void post_cqe(struct nvme_dev *d, struct dev_cmd *cmd);

static void release(struct nvme_dev *d, struct dev_cmd *cmd)
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
		g_clear_pointer(&sq->pool, g_free);
		*sq = (struct dev_sq){0};
		del->status = NVME_SC_SUCCESS;
		post_cqe(d, del);
		return;
	}
	sq_kick(d, sq);
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

static void write_cqe(struct nvme_dev *d, struct dev_cq *cq, struct dev_cmd *cmd)
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

static void post_cqe(struct nvme_dev *d, struct dev_cmd *cmd)
{
	struct dev_cq *cq = &d->cq[cmd->sq->cqid];

	if (d->dying)
		return;
	if (cq_full(d, cq) || cq->full_wait.head) {
		fifo_push(&cq->full_wait, cmd);
		return;
	}
	write_cqe(d, cq, cmd);
	release(d, cmd);
}

static void complete_after(struct nvme_dev *d, struct dev_cmd *cmd, sim_time t)
{
	if (t)
		after(d, t, EV_COMPLETE, cmd);
	else
		post_cqe(d, cmd);
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
static bool write_at_fetch(struct nvme_dev *d, struct dev_cmd *cmd);

static void sq_kick(struct nvme_dev *d, struct dev_sq *sq)
{
	if (sq->live && sq->head != sq->tail && sq->free && !sq->deleter)
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

	while (sq->live && sq->head != sq->tail && sq->free && !sq->deleter) {
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
		if (write_at_fetch(d, cmd)) {
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

static bool alloc_sq(struct nvme_dev *d, uint16_t qid, uint16_t cqid,
		     uint64_t base, uint32_t size)
{
	struct dev_sq *sq = &d->sq[qid];

	*sq = (struct dev_sq){.base = base, .size = size, .qid = qid,
			      .cqid = cqid, .live = true};
	/* A command slot per queue entry: the host can never have more
	 * entries outstanding in the ring, and a fetched command keeps its
	 * slot until its CQE is posted. */
	sq->pool = g_new0(struct dev_cmd, size);
	for (uint32_t i = 0; i < size; i++) {
		sq->pool[i].next = sq->free;
		sq->free = &sq->pool[i];
	}
	d->cq[cqid].sq_count++;
	return true;
}

static void alloc_cq(struct nvme_dev *d, uint16_t qid, uint64_t base,
		     uint32_t size, uint16_t vector, bool ien)
{
	d->cq[qid] = (struct dev_cq){.base = base, .size = size, .qid = qid,
				     .vector = vector, .ien = ien, .phase = 1,
				     .live = true};
}

/* --- media, link and cache -------------------------------------------------- */

static sim_time jitter(struct nvme_dev *d, sim_time t)
{
	if (!d->jitter || t == 0)
		return t;
	double v = (double)t * sim_dist_table_draw(d->jitter, &d->c.rng);
	/* llround for v >= 0, without the library call: the fraction of a
	 * double below 2^63 is exact. */
	sim_time whole = (sim_time)v;

	return whole + (v - (double)whole >= 0.5);
}

static void media_start(struct nvme_dev *d, struct dev_cmd *cmd)
{
	bool rd = cmd->route == ROUTE_READ;
	sim_time t = rd ? d->p.read_latency + bytes_time(cmd->bytes, d->read_fs) :
			  d->p.write_latency + bytes_time(cmd->bytes, d->write_fs);

	t = jitter(d, t);
	d->units_busy++;
	d->cnt.media_busy_ns += t;
	if (rd)
		d->cnt.media_bytes_read += cmd->bytes;
	after(d, t, EV_MEDIA_DONE, cmd);
}

static void media_submit(struct nvme_dev *d, struct dev_cmd *cmd)
{
	if (d->units_busy < d->p.media_units)
		media_start(d, cmd);
	else
		fifo_push(&d->media_wait, cmd);
}

/* Time at which a transfer, ready at time at, ends on a link direction
 * that frees at *free. */
static sim_time link_transfer(struct nvme_dev *d, sim_time *free, sim_time at,
			      uint64_t bytes)
{
	sim_time start = MAX(at, *free);
	*free = start + bytes_time(bytes, d->link_fs);
	return *free;
}

/* Writes are numbered in the order they reach the cache or media, which is
 * the order a Flush's snapshot and the destage refer to. */
static void number_write(struct nvme_dev *d, struct dev_cmd *cmd, bool on_media)
{
	/* 0 and 1 are the durability tracker's markers. */
	if (d->write_seq < 1)
		d->write_seq = 1;
	cmd->seq = ++d->write_seq;
	cmd->on_media = on_media;
}

static void destage_next(struct nvme_dev *d)
{
	if (d->destaging || d->ring_len == 0)
		return;
	d->destaging = true;
	after(d, bytes_time(d->ring[d->ring_head].bytes, d->destage_fs),
	      EV_DESTAGE_DONE, NULL);
}

static void cache_insert(struct nvme_dev *d, struct dev_cmd *cmd)
{
	if (d->ring_len == d->ring_cap) {
		/* Grow in place: unwrap the ring into a doubled array. */
		struct cache_entry *r = g_new(struct cache_entry, d->ring_cap * 2);
		for (uint32_t i = 0; i < d->ring_len; i++)
			r[i] = d->ring[(d->ring_head + i) % d->ring_cap];
		g_free(d->ring);
		d->ring = r;
		d->ring_head = 0;
		d->ring_cap *= 2;
	}
	number_write(d, cmd, false);
	d->ring[(d->ring_head + d->ring_len++) % d->ring_cap] = (struct cache_entry){
		.seq = cmd->seq, .slba = cmd->slba, .bytes = cmd->bytes,
		.nlb = cmd->nlb,
	};
	d->cache_used += cmd->bytes;
	if (d->cache_used > d->cnt.cache_peak_bytes)
		d->cnt.cache_peak_bytes = d->cache_used;
	destage_next(d);
}

/* Whether every cache entry with seq <= snapshot has reached media. */
static bool drained_to(const struct nvme_dev *d, uint64_t snapshot)
{
	return d->ring_len == 0 || d->ring[d->ring_head].seq > snapshot;
}

static void finish_drain_waiter(struct nvme_dev *d, struct dev_cmd *cmd)
{
	if (cmd->route == ROUTE_FLUSH) {
		/* The controller finishes Flushes one at a time. */
		sim_time start = MAX(now(d), d->flush_free_at);
		d->flush_free_at = start + d->p.flush_latency;
		complete_after(d, cmd, d->flush_free_at - now(d));
	} else {
		complete_after(d, cmd, d->p.admin_latency);
	}
}

static void write_to_cache(struct nvme_dev *d, struct dev_cmd *cmd)
{
	cache_insert(d, cmd);
	complete_after(d, cmd, cmd->route == ROUTE_META ? d->p.meta_latency :
							  d->p.cache_latency);
}

static bool room_for(const struct nvme_dev *d, const struct dev_cmd *cmd)
{
	return d->cache_used + cmd->bytes <= d->p.cache_bytes;
}

static void destage_done(struct nvme_dev *d)
{
	struct cache_entry e = d->ring[d->ring_head];

	d->ring_head = (d->ring_head + 1) % d->ring_cap;
	d->ring_len--;
	d->cache_used -= e.bytes;
	d->cnt.media_bytes_written += e.bytes;
	d->destaging = false;
	d->destaged_seq = e.seq;
	if (d->p.track_durability)
		dur_media(&d->dur, now(d), e.slba, e.nlb, e.seq);

	/* Drain waiters are in snapshot order: release the satisfied ones. */
	while (d->drain_wait.head && drained_to(d, d->drain_wait.head->seq))
		finish_drain_waiter(d, fifo_pop(&d->drain_wait));
	while (d->room_wait.head && room_for(d, d->room_wait.head))
		write_to_cache(d, fifo_pop(&d->room_wait));
	if (d->shutdown_pending && d->ring_len == 0) {
		d->shutdown_pending = false;
		d->csts = (d->csts & ~(3u << 2)) | NVME_CSTS_SHST_DONE << 2;
	}
	destage_next(d);
}

/* Writes arrive here once their data has crossed the link. */
static void write_arrived(struct nvme_dev *d, struct dev_cmd *cmd)
{
	if (d->wce && !cmd->fua && cmd->bytes <= d->p.cache_bytes) {
		if (!d->room_wait.head && room_for(d, cmd)) {
			write_to_cache(d, cmd);
		} else {
			d->cnt.cache_waits++;
			fifo_push(&d->room_wait, cmd);
		}
		return;
	}
	media_submit(d, cmd);
}

static void media_done(struct nvme_dev *d, struct dev_cmd *cmd)
{
	d->units_busy--;
	if (d->media_wait.head)
		media_start(d, fifo_pop(&d->media_wait));
	if (cmd->route == ROUTE_READ) {
		if (d->store) {
			struct xfer x = {.dev_off = cmd->slba << d->p.lba_shift,
					 .to_host = true};
			cmd->status = prp_walk(d, &cmd->sqe, cmd->bytes, &x);
		}
		sim_time done = link_transfer(d, &d->link_tx_free, now(d),
					      cmd->bytes);
		complete_after(d, cmd, done - now(d));
		return;
	}
	d->cnt.media_bytes_written += cmd->bytes;
	number_write(d, cmd, true);
	post_cqe(d, cmd);
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
		return to_host(d, e, e->nsid == 1 ? d->id_ns : list, sizeof(list));
	case NVME_CNS_CTRL:
		return to_host(d, e, d->id_ctrl, sizeof(d->id_ctrl));
	case NVME_CNS_NS_ACTIVE_LIST:
		/* Lists NSIDs greater than the one given; FFFFFFFEh and
		 * FFFFFFFFh leave nothing to list and are invalid. */
		if (e->nsid >= NVME_NSID_BROADCAST - 1)
			return NVME_SC_INVALID_NS | NVME_DNR;
		if (e->nsid < 1)
			nvme_put32(list, 1);
		return to_host(d, e, list, sizeof(list));
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
			media_submit(d, w);
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
	alloc_cq(d, qid, e->prp1, size, vector, e->cdw11 & 2);
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
	alloc_sq(d, qid, cqid, e->prp1, size);
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
	g_clear_pointer(&sq->pool, g_free);
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

static uint16_t admin_exec(struct nvme_dev *d, struct dev_cmd *cmd)
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
	st = prp_check(d, &cmd->sqe, nr * sizeof(r[0]));
	if (!st)
		st = prp_walk(d, &cmd->sqe, nr * sizeof(r[0]), &x);
	if (st)
		return st;
	for (uint32_t i = 0; i < nr; i++)
		if (check_range(d, r[i].slba, r[i].nlb))
			return NVME_SC_LBA_RANGE | NVME_DNR;
	for (uint32_t i = 0; i < nr; i++) {
		if (!r[i].nlb)
			continue;
		if (d->store)
			store_zero(d, r[i].slba << d->p.lba_shift,
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
	return prp_check(d, &cmd->sqe, cmd->bytes);
}

/* A Write that passed its checks takes its turn on the link from the host
 * at its execution time. */
static void write_start(struct nvme_dev *d, struct dev_cmd *cmd)
{
	cmd->route = ROUTE_WRITE;
	d->cnt.bytes_written += cmd->bytes;
	d->cnt.fua_writes += cmd->fua;
	cmd->link_prev = d->link_rx_free;
	after(d, link_transfer(d, &d->link_rx_free, cmd->exec_at, cmd->bytes) -
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
		if (drained_to(d, cmd->seq)) {
			finish_drain_waiter(d, cmd);
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
				store_zero(d, cmd->slba << d->p.lba_shift,
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
			media_submit(d, cmd);
			return STATUS_DEFERRED;
		}
		/* Only writes with payload get here: others started at fetch. */
		struct xfer x = {.dev_off = cmd->slba << d->p.lba_shift};
		if (!store_has_room(d, x.dev_off, cmd->bytes))
			return NVME_SC_INTERNAL;
		if ((st = prp_walk(d, e, cmd->bytes, &x)))
			return st;
		write_start(d, cmd);
		return STATUS_DEFERRED;
	}
	/* Write Zeroes and deallocate: mapping updates that follow the
	 * write path without data, through the cache unless it is off. */
	if (d->wce && !cmd->fua) {
		write_to_cache(d, cmd);
	} else {
		number_write(d, cmd, true);
		complete_after(d, cmd, d->p.meta_latency);
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
static bool write_at_fetch(struct nvme_dev *d, struct dev_cmd *cmd)
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
static void unstart_writes(struct nvme_dev *d, bool tie_ran)
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
		for (uint32_t i = 0; sq->pool && i < sq->size; i++) {
			const struct dev_cmd *c = &sq->pool[i];

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
		st = admin_exec(d, cmd);
		if (st == STATUS_DEFERRED)
			return;
		cmd->status = st;
		complete_after(d, cmd, d->p.admin_latency);
		return;
	}
	st = io_exec(d, cmd);
	if (st != STATUS_DEFERRED) {
		cmd->status = st;
		post_cqe(d, cmd);
	}
}

/* The commands of a chain, as their own EXEC events would have run them:
 * one may reset the controller (a host that answers its CQE at once), and
 * the reset drops the rest as it would have dropped their events. */
static void exec_chain(struct nvme_dev *d, struct dev_cmd *cmd)
{
	uint64_t epoch = d->epoch;

	while (cmd && d->epoch == epoch) {
		struct dev_cmd *next = cmd->next;	/* exec may reuse it */

		exec(d, cmd);
		cmd = next;
	}
}

/* --- registers ------------------------------------------------------------------ */

static void reset(struct nvme_dev *d)
{
	/* Commands in flight are dropped with their queues; the cache keeps
	 * its data and goes on destaging (a reset is not a power loss). The
	 * register write comes from a host event, which in all likelihood was
	 * scheduled after the fetch of a Write due now. */
	unstart_writes(d, true);
	d->epoch++;
	free_queues(d);
	d->media_wait = d->room_wait = d->drain_wait = (struct fifo){0};
	d->units_busy = 0;
	if (d->outstanding)
		d->cnt.busy_ns += now(d) - d->busy_since;
	d->outstanding = 0;
	d->nsq_alloc = d->ncq_alloc = d->p.max_io_queues;
	d->io_queue_created = false;
	d->coalesce_thr = d->coalesce_time = 0;
	/* The volatile write cache feature does not persist across reset. */
	d->wce = d->p.vwc_present && d->p.write_cache_enabled;
	d->csts = 0;
}

/* CC.EN 0 -> 1: the admin queue and page size checks QEMU and the
 * specification make before setting CSTS.RDY (3.5.1). */
static bool enable_ok(const struct nvme_dev *d, uint32_t cc)
{
	uint32_t mps = NVME_CC_MPS(cc), page = 4096u << mps;

	return (d->aqa & 0xfff) != 0 && ((d->aqa >> 16) & 0xfff) != 0 &&
	       !(d->asq & (page - 1)) && !(d->acq & (page - 1)) &&
	       NVME_CC_CSS(cc) == 0 && mps <= d->p.mps_max &&
	       NVME_CC_IOSQES(cc) == 6 && NVME_CC_IOCQES(cc) == 4;
}

static void write_cc(struct nvme_dev *d, uint32_t v)
{
	uint32_t old = d->cc;

	d->cc = v;
	/* Enable or reset first, so that a write setting EN = 0 and SHN
	 * together leaves the shutdown status of the second. */
	if ((v & NVME_CC_EN) && !(old & NVME_CC_EN)) {
		if (enable_ok(d, v)) {
			d->page_size = 4096u << NVME_CC_MPS(v);
			after(d, d->p.enable_latency, EV_READY, NULL);
		} else {
			d->csts |= NVME_CSTS_CFS;
		}
	} else if (!(v & NVME_CC_EN) && (old & NVME_CC_EN)) {
		reset(d);
	}
	if (NVME_CC_SHN(v) && !NVME_CC_SHN(old)) {
		/* Shutdown: busy until the cache has reached media. */
		d->csts &= ~(3u << 2);
		if (d->ring_len == 0) {
			d->csts |= NVME_CSTS_SHST_DONE << 2;
		} else {
			d->csts |= NVME_CSTS_SHST_BUSY << 2;
			d->shutdown_pending = true;
		}
	} else if (!NVME_CC_SHN(v) && NVME_CC_SHN(old)) {
		d->csts &= ~(3u << 2);
		d->shutdown_pending = false;
	}
}

static void ready(struct nvme_dev *d)
{
	alloc_cq(d, 0, d->acq, ((d->aqa >> 16) & 0xfff) + 1, 0, true);
	alloc_sq(d, 0, 0, d->asq, (d->aqa & 0xfff) + 1);
	d->csts |= NVME_CSTS_RDY;
}

/* Post the completions that waited for room in cq, as far as it has. */
static void cq_drain(struct nvme_dev *d, struct dev_cq *cq)
{
	while (!cq_full(d, cq) && cq->full_wait.head) {
		struct dev_cmd *cmd = fifo_pop(&cq->full_wait);
		write_cqe(d, cq, cmd);
		release(d, cmd);
	}
}

void nvme_dev_cq_doorbell_at(struct nvme_dev *d, uint16_t qid, uint32_t head,
			     sim_time at)
{
	struct dev_cq *cq = &d->cq[qid];

	if (qid == 0 || qid > d->p.max_io_queues || !(d->csts & NVME_CSTS_RDY) ||
	    !cq->live || head >= cq->size || at < now(d)) {
		d->cnt.bad_doorbells++;
		return;
	}
	cq_full(d, cq);		/* an earlier one told ahead is in by now */
	g_assert(!cq->head_pending);
	cq->head_pending = true;
	cq->head_next = head;
	cq->head_next_at = at;
	if (cq->full_wait.head)
		after(d, at - now(d), EV_CQ_HEAD, cq);
}

static void doorbell(struct nvme_dev *d, uint64_t offset, uint32_t v)
{
	uint64_t idx = (offset - NVME_REG_DBS) / 4;
	uint64_t qid = idx / 2;

	if (offset & 3 || qid > d->p.max_io_queues || !(d->csts & NVME_CSTS_RDY))
		goto bad;
	if (idx & 1) {
		struct dev_cq *cq = &d->cq[qid];
		if (!cq->live || v >= cq->size)
			goto bad;
		cq->head = v;
		cq->head_pending = false;
		cq_drain(d, cq);
		return;
	}
	struct dev_sq *sq = &d->sq[qid];
	if (!sq->live || v >= sq->size)
		goto bad;
	sq->tail = v;
	sq_kick(d, sq);
	return;
bad:
	/* The specification reports these through an asynchronous event,
	 * which the model does not implement; it counts them instead. */
	d->cnt.bad_doorbells++;
}

uint64_t nvme_dev_mmio_read(struct nvme_dev *d, uint64_t offset, unsigned size)
{
	uint64_t v;

	if (!d->powered)
		return size == 8 ? UINT64_MAX : UINT32_MAX;
	switch (offset & ~(uint64_t)3) {
	case NVME_REG_CAP:
		v = d->cap;
		break;
	case NVME_REG_CAP + 4:
		v = d->cap >> 32;
		break;
	case NVME_REG_VS:
		v = d->p.version;
		break;
	case NVME_REG_INTMS:
	case NVME_REG_INTMC:
		v = d->intms;
		break;
	case NVME_REG_CC:
		v = d->cc;
		break;
	case NVME_REG_CSTS:
		v = d->csts;
		break;
	case NVME_REG_AQA:
		v = d->aqa;
		break;
	case NVME_REG_ASQ:
		v = d->asq;
		break;
	case NVME_REG_ASQ + 4:
		v = d->asq >> 32;
		break;
	case NVME_REG_ACQ:
		v = d->acq;
		break;
	case NVME_REG_ACQ + 4:
		v = d->acq >> 32;
		break;
	default:
		v = 0;
	}
	return size == 8 ? v : (uint32_t)v;
}

static void set_half(uint64_t *reg, uint64_t offset, unsigned size, uint64_t v)
{
	if (size == 8)
		*reg = v;
	else if (offset & 4)
		*reg = (*reg & 0xffffffffu) | v << 32;
	else
		*reg = (*reg & ~(uint64_t)0xffffffffu) | (uint32_t)v;
}

void nvme_dev_mmio_write(struct nvme_dev *d, uint64_t offset, unsigned size,
			 uint64_t value)
{
	uint32_t v = (uint32_t)value;

	if (!d->powered)
		return;
	if (offset >= NVME_REG_DBS) {
		doorbell(d, offset, v);
		return;
	}
	switch (offset & ~(uint64_t)3) {
	case NVME_REG_INTMS:
		d->intms |= v;
		break;
	case NVME_REG_INTMC:
		d->intms &= ~v;
		break;
	case NVME_REG_CC:
		write_cc(d, v);
		break;
	case NVME_REG_AQA:
		d->aqa = v;
		break;
	case NVME_REG_ASQ:
	case NVME_REG_ASQ + 4:
		set_half(&d->asq, offset, size, value);
		break;
	case NVME_REG_ACQ:
	case NVME_REG_ACQ + 4:
		set_half(&d->acq, offset, size, value);
		break;
	default:
		break;	/* read-only or reserved */
	}
}

/* --- events ---------------------------------------------------------------------- */

static void power_loss(struct nvme_dev *d, bool tie_ran);

static void handle(struct sim_component *c, unsigned type, void *ptr,
		   uint64_t arg)
{
	struct nvme_dev *d = (struct nvme_dev *)c;

	if (!d->powered || arg != epoch_of(d, type))
		return;
	switch (type) {
	case EV_READY:
		ready(d);
		break;
	case EV_EXEC:
		exec_chain(d, ptr);
		break;
	case EV_DATA_IN:
		write_arrived(d, ptr);
		break;
	case EV_MEDIA_DONE:
		media_done(d, ptr);
		break;
	case EV_COMPLETE:
		post_cqe(d, ptr);
		break;
	case EV_DESTAGE_DONE:
		destage_done(d);
		break;
	case EV_COALESCE: {
		struct dev_cq *cq = ptr;
		cq->coalesce_armed = false;
		if (cq->live && cq->coalesce_pending) {
			cq->coalesce_pending = 0;
			raise_irq(d, cq);
		}
		break;
	}
	case EV_POWER_LOSS:
		/* Scheduled at this time, after the fetches of Writes due now. */
		power_loss(d, true);
		break;
	case EV_CQ_HEAD:
		if (((struct dev_cq *)ptr)->live)
			cq_drain(d, ptr);
		break;
	}
}

/* --- counters and reports ----------------------------------------------------------- */

const struct nvme_dev_counters *nvme_dev_get_counters(const struct nvme_dev *d)
{
	return &d->cnt;
}

uint64_t nvme_dev_cache_bytes(const struct nvme_dev *d)
{
	return d->cache_used;
}

bool nvme_dev_write_cache_enabled(const struct nvme_dev *d)
{
	return d->wce;
}

bool nvme_dev_on_media(const struct nvme_dev *d, uint64_t slba, uint64_t nlb)
{
	return d->p.track_durability && dur_on_media(&d->dur, slba, nlb);
}

bool nvme_dev_powered(const struct nvme_dev *d)
{
	return d->powered;
}

json_object *nvme_dev_counters_json(const struct nvme_dev *d)
{
	const struct nvme_dev_counters *k = &d->cnt;
	sim_time busy = k->busy_ns;
	json_object *o = json_object_new_object();

	if (d->outstanding)
		busy += now(d) - d->busy_since;
#define ADD(name, v) json_object_object_add(o, name, json_object_new_uint64(v))
	ADD("admin_cmds", k->admin_cmds);
	ADD("reads", k->reads);
	ADD("writes", k->writes);
	ADD("fua_writes", k->fua_writes);
	ADD("flushes", k->flushes);
	ADD("flushes_completed", k->flushes_completed);
	ADD("write_zeroes", k->write_zeroes);
	ADD("dsm", k->dsms);
	ADD("errors", k->errors);
	ADD("bytes_read", k->bytes_read);
	ADD("bytes_written", k->bytes_written);
	ADD("media_bytes_read", k->media_bytes_read);
	ADD("media_bytes_written", k->media_bytes_written);
	ADD("cache_bytes_now", d->cache_used);
	ADD("cache_peak_bytes", k->cache_peak_bytes);
	ADD("cache_waits", k->cache_waits);
	ADD("irqs", k->irqs);
	ADD("bad_doorbells", k->bad_doorbells);
	ADD("busy_ns", busy);
	ADD("media_busy_ns", k->media_busy_ns);
#undef ADD
	return o;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Distinct nonzero values among n, in place (sorts the array). */
static uint64_t distinct(GArray *seqs)
{
	uint64_t k = 0;

	g_array_sort(seqs, cmp_u64);
	for (guint i = 0; i < seqs->len; i++) {
		uint64_t v = g_array_index(seqs, uint64_t, i);
		if (v && (i == 0 || v != g_array_index(seqs, uint64_t, i - 1)))
			k++;
	}
	return k;
}

static void take_durability_report(struct nvme_dev *d)
{
	struct nvme_durability_summary *s = &d->dur_sum;
	g_autoptr(GArray) lost = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	g_autoptr(GArray) bad = g_array_new(FALSE, FALSE, sizeof(uint64_t));

	*s = (struct nvme_durability_summary){
		.available = true,
		.complete = !d->dur.overflow,
		.power_lost_at = now(d),
		.tracking_stopped_at = d->dur.overflow_at,
		.acked_writes = d->dur.acked,
	};
	if (!s->complete)
		return;
	d->dur_ranges = dur_report(&d->dur);
	for (guint i = 0; i < d->dur_ranges->len; i++) {
		const struct dur_range *r =
			&g_array_index(d->dur_ranges, struct dur_range, i);
		switch (r->state) {
		case DUR_DURABLE:
			s->durable_blocks += r->nlb;
			break;
		case DUR_VIOLATION:
			s->violated_blocks += r->nlb;
			g_array_append_val(bad, r->promised_seq);
			/* the newest data is lost too */
			G_GNUC_FALLTHROUGH;
		case DUR_LOST:
			s->lost_blocks += r->nlb;
			g_array_append_val(lost, r->acked_seq);
			break;
		}
	}
	s->lost_writes = distinct(lost);
	s->violations = distinct(bad);
}

/* tie_ran: as for unstart_writes(). */
static void power_loss(struct nvme_dev *d, bool tie_ran)
{
	if (!d->powered)
		return;
	unstart_writes(d, tie_ran);
	if (d->p.track_durability)
		take_durability_report(d);
	/* Everything volatile goes: queued and running commands, the cache
	 * and the destage in progress; stale events die by their epoch. */
	d->epoch++;
	d->power_epoch++;
	free_queues(d);
	if (d->outstanding)
		d->cnt.busy_ns += now(d) - d->busy_since;
	d->outstanding = 0;
	d->ring_len = 0;
	d->cache_used = 0;
	d->destaging = false;
	d->powered = false;
	d->cc = d->csts = 0;
	if (d->ops->power_lost)
		d->ops->power_lost(d->host);
}

/* From outside, as a power loss at a set time that was scheduled before
 * the run began, and so before every fetch. */
void nvme_dev_power_loss(struct nvme_dev *d)
{
	power_loss(d, false);
}

const struct nvme_durability_summary *
nvme_dev_durability_summary(const struct nvme_dev *d)
{
	return &d->dur_sum;
}

#define REPORT_LINES 50	/* per verdict in the text form */

char *nvme_dev_durability_report_text(const struct nvme_dev *d)
{
	const struct nvme_durability_summary *s = &d->dur_sum;
	GString *o = g_string_new(NULL);

	if (!s->available) {
		g_string_append(o, "durability: no report (power not lost, or "
				   "track_durability off)\n");
		return g_string_free(o, FALSE);
	}
	g_string_append_printf(o, "durability at power loss, t=%" G_GUINT64_FORMAT
			       " ns: %" G_GUINT64_FORMAT " acknowledged writes\n",
			       s->power_lost_at, s->acked_writes);
	if (!s->complete) {
		g_string_append_printf(o, "  incomplete: the tracker hit its cap of "
				       "%u ranges at t=%" G_GUINT64_FORMAT " ns and "
				       "stopped; no verdict\n",
				       d->p.durability_max_ranges,
				       s->tracking_stopped_at);
		return g_string_free(o, FALSE);
	}
	g_string_append_printf(o, "  durable blocks %" G_GUINT64_FORMAT
			       ", lost blocks %" G_GUINT64_FORMAT " (%"
			       G_GUINT64_FORMAT " writes), violations %"
			       G_GUINT64_FORMAT " writes (%" G_GUINT64_FORMAT
			       " blocks)\n", s->durable_blocks, s->lost_blocks,
			       s->lost_writes, s->violations, s->violated_blocks);
	for (enum dur_state st = DUR_DURABLE; st <= DUR_VIOLATION; st++) {
		unsigned shown = 0, total = 0;
		for (guint i = 0; i < d->dur_ranges->len; i++) {
			const struct dur_range *r =
				&g_array_index(d->dur_ranges, struct dur_range, i);
			if (r->state != st)
				continue;
			if (total++ >= REPORT_LINES)
				continue;
			shown++;
			g_string_append_printf(o, "  %-9s lba %" G_GUINT64_FORMAT
					       "+%" G_GUINT64_FORMAT "\n",
					       dur_state_name(st), r->slba, r->nlb);
		}
		if (total > shown)
			g_string_append_printf(o, "  %-9s ... and %u more ranges\n",
					       dur_state_name(st), total - shown);
	}
	return g_string_free(o, FALSE);
}

json_object *nvme_dev_durability_report_json(const struct nvme_dev *d)
{
	const struct nvme_durability_summary *s = &d->dur_sum;
	json_object *o = json_object_new_object();

	json_object_object_add(o, "available", json_object_new_boolean(s->available));
	if (!s->available)
		return o;
	json_object_object_add(o, "complete", json_object_new_boolean(s->complete));
	json_object_object_add(o, "power_lost_ns",
			       json_object_new_uint64(s->power_lost_at));
	json_object_object_add(o, "acked_writes",
			       json_object_new_uint64(s->acked_writes));
	if (!s->complete) {
		json_object_object_add(o, "tracking_stopped_ns",
				       json_object_new_uint64(s->tracking_stopped_at));
		return o;
	}
	json_object_object_add(o, "lost_writes", json_object_new_uint64(s->lost_writes));
	json_object_object_add(o, "violations", json_object_new_uint64(s->violations));
	json_object_object_add(o, "durable_blocks",
			       json_object_new_uint64(s->durable_blocks));
	json_object_object_add(o, "lost_blocks", json_object_new_uint64(s->lost_blocks));
	json_object_object_add(o, "violated_blocks",
			       json_object_new_uint64(s->violated_blocks));
	json_object *ranges = json_object_new_array();
	for (guint i = 0; i < d->dur_ranges->len; i++) {
		const struct dur_range *r =
			&g_array_index(d->dur_ranges, struct dur_range, i);
		json_object *jr = json_object_new_object();
		json_object_object_add(jr, "slba", json_object_new_uint64(r->slba));
		json_object_object_add(jr, "nlb", json_object_new_uint64(r->nlb));
		json_object_object_add(jr, "state",
				       json_object_new_string(dur_state_name(r->state)));
		json_object_array_add(ranges, jr);
	}
	json_object_object_add(o, "ranges", ranges);
	return o;
}

const char *nvme_status_name(uint16_t status)
{
	switch (status & 0x7ff) {
	case NVME_SC_SUCCESS: return "Success";
	case NVME_SC_INVALID_OPCODE: return "Invalid Command Opcode";
	case NVME_SC_INVALID_FIELD: return "Invalid Field in Command";
	case NVME_SC_DATA_XFER_ERROR: return "Data Transfer Error";
	case NVME_SC_INTERNAL: return "Internal Error";
	case NVME_SC_ABORT_REQ: return "Command Abort Requested";
	case NVME_SC_ABORT_SQ_DELETED: return "Aborted: SQ Deletion";
	case NVME_SC_INVALID_NS: return "Invalid Namespace or Format";
	case NVME_SC_CMD_SEQ_ERROR: return "Command Sequence Error";
	case NVME_SC_PRP_OFFSET_INVALID: return "PRP Offset Invalid";
	case NVME_SC_LBA_RANGE: return "LBA Out of Range";
	case NVME_SC_CQ_INVALID: return "Completion Queue Invalid";
	case NVME_SC_QID_INVALID: return "Invalid Queue Identifier";
	case NVME_SC_QUEUE_SIZE: return "Invalid Queue Size";
	case NVME_SC_INVALID_VECTOR: return "Invalid Interrupt Vector";
	case NVME_SC_INVALID_QUEUE_DELETION: return "Invalid Queue Deletion";
	case NVME_SC_FEATURE_NOT_SAVEABLE: return "Feature Not Saveable";
	case NVME_SC_FEATURE_NOT_CHANGEABLE: return "Feature Not Changeable";
	case NVME_SC_FEATURE_NOT_NS_SPECIFIC: return "Feature Not NS Specific";
	default: return "other";
	}
}
