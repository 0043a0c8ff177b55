
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
 * Files, one per object of the controller: nvme.c (this: parameters,
 * life cycle, events, counters, power loss and its reports), nvme_regs.c
 * (registers, enable, reset), nvme_queue.c (queues, fetch, completions,
 * interrupts), nvme_dma.c (PRPs, transfers, payload store), nvme_admin.c,
 * nvme_io.c (the commands), nvme_media.c (media units, link, write
 * cache); nvme_impl.h holds their shared state.
 *
 * Hot path: command state comes from a pool of the queue's size, made a
 * chunk at a time as first needed; an SQE fetch is one 64-byte dma_read; payload moves only with
 * store_data; each command stage is at most one event; commands fetched
 * together share one execution event (see fetch()), and a Write without
 * payload that passes its checks needs none: it takes its turn on the link
 * when it is fetched, which gives the same times (see write_at_fetch()), so
 * it costs two events, its data's arrival and its completion (or media's);
 * every event carries the epoch it was scheduled in, so a reset or power
 * loss drops stale events without searching for them.
 */

#include "nvme_impl.h"

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

static void handle(struct sim_component *c, unsigned type, void *ptr,
		   uint64_t arg);

static const struct sim_component_ops nvme_dev_ops = {
	.name = "nvme-dev",
	.handle = handle,
};

/* --- life cycle ----------------------------------------------------------- */

void dev_free_queues(struct nvme_dev *d)
{
	for (uint32_t i = 0; i <= d->p.max_io_queues; i++) {
		dev_sq_free_cmds(&d->sq[i]);
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
	dev_build_identify(d);
	return d;
}

void nvme_dev_free(struct nvme_dev *d)
{
	if (!d)
		return;
	dev_free_queues(d);
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
		dev_ready(d);
		break;
	case EV_EXEC:
		dev_exec_chain(d, ptr);
		break;
	case EV_DATA_IN:
		dev_write_arrived(d, ptr);
		break;
	case EV_MEDIA_DONE:
		dev_media_done(d, ptr);
		break;
	case EV_COMPLETE:
		dev_post_cqe(d, ptr);
		break;
	case EV_DESTAGE_DONE:
		dev_destage_done(d);
		break;
	case EV_COALESCE: {
		struct dev_cq *cq = ptr;
		cq->coalesce_armed = false;
		if (cq->live && cq->coalesce_pending) {
			cq->coalesce_pending = 0;
			dev_raise_irq(d, cq);
		}
		break;
	}
	case EV_POWER_LOSS:
		/* Scheduled at this time, after the fetches of Writes due now. */
		power_loss(d, true);
		break;
	case EV_CQ_HEAD:
		if (((struct dev_cq *)ptr)->live)
			dev_cq_drain(d, ptr);
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
	dev_unstart_writes(d, tie_ran);
	if (d->p.track_durability)
		take_durability_report(d);
	/* Everything volatile goes: queued and running commands, the cache
	 * and the destage in progress; stale events die by their epoch. */
	d->epoch++;
	d->power_epoch++;
	dev_free_queues(d);
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
