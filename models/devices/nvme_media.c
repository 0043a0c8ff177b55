/*
 * Media units, the PCIe link and the volatile write cache: reads and
 * writes occupy a media unit, cross the link, and writes wait in the
 * cache until destaged; Flush waits for what came before it.
 *
 * Stands for: the SSD's back end as NVMe Base 2.0 describes its
 * visible effects (Flush, FUA, Volatile Write Cache); the timings are
 * profile parameters (read/write latency and ns per KiB, media_units,
 * link_mbps, cache_bytes, destage_mbps, flush_latency_ns, media_jitter).

 */
#include "nvme_impl.h"
/* --- media, link and cache -------------------------------------------------- */

sim_time dev_jitter(struct nvme_dev *d, sim_time t)
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

	t = dev_jitter(d, t);
	d->units_busy++;
	d->cnt.media_busy_ns += t;
	if (rd)
		d->cnt.media_bytes_read += cmd->bytes;
	after(d, t, EV_MEDIA_DONE, cmd);
}

void dev_media_submit(struct nvme_dev *d, struct dev_cmd *cmd)
{
	if (d->units_busy < d->p.media_units)
		media_start(d, cmd);
	else
		fifo_push(&d->media_wait, cmd);
}

/* Time at which a transfer, ready at time at, ends on a link direction
 * that frees at *free. */
sim_time dev_link_transfer(struct nvme_dev *d, sim_time *free, sim_time at,
			      uint64_t bytes)
{
	sim_time start = MAX(at, *free);
	*free = start + bytes_time(bytes, d->link_fs);
	return *free;
}

/* Writes are numbered in the order they reach the cache or media, which is
 * the order a Flush's snapshot and the destage refer to. */
void dev_number_write(struct nvme_dev *d, struct dev_cmd *cmd, bool on_media)
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
	dev_number_write(d, cmd, false);
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
bool dev_drained_to(const struct nvme_dev *d, uint64_t snapshot)
{
	return d->ring_len == 0 || d->ring[d->ring_head].seq > snapshot;
}

void dev_finish_drain_waiter(struct nvme_dev *d, struct dev_cmd *cmd)
{
	if (cmd->route == ROUTE_FLUSH) {
		/* The controller finishes Flushes one at a time. */
		sim_time start = MAX(now(d), d->flush_free_at);
		d->flush_free_at = start + d->p.flush_latency;
		dev_complete_after(d, cmd, d->flush_free_at - now(d));
	} else {
		dev_complete_after(d, cmd, d->p.admin_latency);
	}
}

void dev_write_to_cache(struct nvme_dev *d, struct dev_cmd *cmd)
{
	cache_insert(d, cmd);
	dev_complete_after(d, cmd, cmd->route == ROUTE_META ? d->p.meta_latency :
							  d->p.cache_latency);
}

static bool room_for(const struct nvme_dev *d, const struct dev_cmd *cmd)
{
	return d->cache_used + cmd->bytes <= d->p.cache_bytes;
}

void dev_destage_done(struct nvme_dev *d)
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
	while (d->drain_wait.head && dev_drained_to(d, d->drain_wait.head->seq))
		dev_finish_drain_waiter(d, fifo_pop(&d->drain_wait));
	while (d->room_wait.head && room_for(d, d->room_wait.head))
		dev_write_to_cache(d, fifo_pop(&d->room_wait));
	if (d->shutdown_pending && d->ring_len == 0) {
		d->shutdown_pending = false;
		d->csts = (d->csts & ~(3u << 2)) | NVME_CSTS_SHST_DONE << 2;
	}
	destage_next(d);
}

/* Writes arrive here once their data has crossed the link. */
void dev_write_arrived(struct nvme_dev *d, struct dev_cmd *cmd)
{
	if (d->wce && !cmd->fua && cmd->bytes <= d->p.cache_bytes) {
		if (!d->room_wait.head && room_for(d, cmd)) {
			dev_write_to_cache(d, cmd);
		} else {
			d->cnt.cache_waits++;
			fifo_push(&d->room_wait, cmd);
		}
		return;
	}
	dev_media_submit(d, cmd);
}

void dev_media_done(struct nvme_dev *d, struct dev_cmd *cmd)
{
	d->units_busy--;
	if (d->media_wait.head)
		media_start(d, fifo_pop(&d->media_wait));
	if (cmd->route == ROUTE_READ) {
		if (d->store) {
			struct xfer x = {.dev_off = cmd->slba << d->p.lba_shift,
					 .to_host = true};
			cmd->status = dev_prp_walk(d, &cmd->sqe, cmd->bytes, &x);
		}
		sim_time done = dev_link_transfer(d, &d->link_tx_free, now(d),
					      cmd->bytes);
		dev_complete_after(d, cmd, done - now(d));
		return;
	}
	d->cnt.media_bytes_written += cmd->bytes;
	dev_number_write(d, cmd, true);
	dev_post_cqe(d, cmd);
}

