/*
 * Host memory as the controller sees it: PRP lists, data transfers, and
 * the namespace payload store.
 *
 * Stands for: NVMe Base 2.0 4.1.1 (PRP entries and lists) and the
 * controller's DMA engine; the store keeps namespace data only when the
 * run asks for it (store_data).

 */
#include "nvme_impl.h"
/* --- payload store -------------------------------------------------------- */


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
bool dev_store_has_room(struct nvme_dev *d, uint64_t off, uint64_t len)
{
	uint64_t need = 0;
	for (uint64_t i = off / STORE_CHUNK; i <= (off + len - 1) / STORE_CHUNK; i++)
		if (!g_hash_table_contains(d->store, GSIZE_TO_POINTER(i)))
			need += STORE_CHUNK;
	return d->store_bytes + need <= d->p.store_data_max_bytes;
}

void dev_store_zero(struct nvme_dev *d, uint64_t off, uint64_t len)
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
uint16_t dev_prp_walk(struct nvme_dev *d, const struct nvme_sqe *e,
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
uint16_t dev_prp_check(const struct nvme_dev *d, const struct nvme_sqe *e,
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

uint16_t dev_to_host(struct nvme_dev *d, const struct nvme_sqe *e,
			const void *buf, size_t len)
{
	struct xfer x = {.to_host = true, .buf = (uint8_t *)buf};
	uint16_t st = dev_prp_check(d, e, len);
	return st ? st : dev_prp_walk(d, e, len, &x);
}

