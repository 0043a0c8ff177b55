/*
 * shmem: the data of a file on tmpfs.
 *
 * Stands for mm/shmem.c: shmem_file_read_iter (shmem_get_folio with
 * SGP_READ for each folio, copy_folio_to_iter) and shmem_file_write_iter
 * (inode_lock, generic_write_checks, file_remove_privs, file_update_time,
 * then generic_perform_write: shmem_write_begin, which finds the folio,
 * the copy, shmem_write_end, which marks it dirty). A tmpfs file has no
 * device under it: its pages are the page cache, so a read or a write is
 * a copy between the caller's buffer and those pages, and nothing is ever
 * written back. Neither path looks at IOCB_DIRECT: since Linux 6.6 tmpfs
 * accepts O_DIRECT opens (FMODE_CAN_ODIRECT, "tmpfs: trivial support for
 * direct IO") and serves them exactly as buffered ones.
 *
 * The file is taken to be resident in full, as a backing file written
 * before use is (storsim calibrate writes its loop devices' backing
 * files in full): no hole reads the zero page, no write allocates, and
 * there is no swap.
 *
 * Parameters (host profile, model "shmem"), CPU time (ns): read_iter_ns,
 * write_iter_ns, get_folio_ns (per folio), write_folio_ns (per folio
 * written); the copy is the page cache's copy_ns_per_kib (the same
 * copy_folio_to_iter / copy_page_from_iter).
 *
 * Left out: holes, huge pages (huge=never, the default), swap, the
 * i_size and block accounting of a write past the end.
 */
#include <glib.h>

#include "fs/shmem.h"

#define P(field) offsetof(struct shmem_params, field)
const struct param_def shmem_param_table[] = {
	{"read_iter_ns", PARAM_TIME, P(read_iter), "100", 0, 1e6, "ns",
	 "shmem_file_read_iter around its folio loop, file_accessed"},
	{"write_iter_ns", PARAM_TIME, P(write_iter), "200", 0, 1e6, "ns",
	 "shmem_file_write_iter: inode_lock, generic_write_checks, "
	 "file_remove_privs, file_update_time"},
	{"get_folio_ns", PARAM_TIME, P(get_folio), "40", 0, 1e6, "ns",
	 "shmem_get_folio of a resident folio: xarray lookup, reference"},
	{"write_folio_ns", PARAM_TIME, P(write_folio), "150", 0, 1e6, "ns",
	 "shmem_write_begin + shmem_write_end of one folio: lock, dirty, unlock"},
	PARAM_END,
};
#undef P

static stage_id st_read_iter, st_write_iter, st_get_folio, st_write_folio,
	st_copy_to, st_copy_from;

void shmem_register_stages(void)
{
	st_read_iter = stage_register("shmem_file_read_iter", CPU_SYS,
				      "shmem_file_read_iter");
	st_write_iter = stage_register("shmem_file_write_iter", CPU_SYS,
				       "shmem_file_write_iter");
	st_get_folio = stage_register("shmem_get_folio", CPU_SYS,
				      "shmem_get_folio, filemap_get_entry");
	st_write_folio = stage_register("shmem_write_begin_end", CPU_SYS,
					"shmem_write_begin, shmem_write_end");
	st_copy_to = stage_register("copy_to_iter", CPU_SYS,
				    "copy_folio_to_iter (kernel buffer)");
	st_copy_from = stage_register("copy_from_iter", CPU_SYS,
				      "copy_page_from_iter_atomic (kernel buffer)");
}

static uint64_t folios(uint64_t off, uint64_t len, uint64_t page_size)
{
	return len ? (off + len - 1) / page_size - off / page_size + 1 : 0;
}

long shmem_rw_iter(struct xctx *x, const struct shmem_params *p,
		   const struct pagecache_params *pc, uint64_t page_size,
		   const struct kiocb *iocb)
{
	uint64_t n = folios(iocb->pos, iocb->len, page_size);
	sim_time copy = (sim_time)(pc->copy_ns_per_kib * (double)iocb->len / 1024.0);

	if (iocb->write) {
		xctx_charge(x, st_write_iter, p->write_iter);
		xctx_charge(x, st_get_folio, p->get_folio * n);
		xctx_charge(x, st_write_folio, p->write_folio * n);
		xctx_charge(x, st_copy_from, copy);
	} else {
		xctx_charge(x, st_read_iter, p->read_iter);
		xctx_charge(x, st_get_folio, p->get_folio * n);
		xctx_charge(x, st_copy_to, copy);
	}
	return iocb->len;
}
