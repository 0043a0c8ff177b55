/*
 * shmem (tmpfs) file data: the read_iter and write_iter of a file whose
 * pages are all in memory (mm/shmem.c).
 */
#ifndef STORSIM_SHMEM_H
#define STORSIM_SHMEM_H

#include "fs/pagecache.h"
#include "fs/vfs.h"
#include "host/host.h"
#include "engine/params.h"

/* CPU costs (host profile, model "shmem"). */
struct shmem_params {
	sim_time read_iter;	/* shmem_file_read_iter around its folio loop */
	sim_time write_iter;	/* shmem_file_write_iter: inode lock, checks, times */
	sim_time get_folio;	/* shmem_get_folio of a resident folio */
	sim_time write_folio;	/* shmem_write_begin + shmem_write_end per folio */
};

extern const struct param_def shmem_param_table[];

/* Register the stages below; once, by the model that calls them. */
void shmem_register_stages(void);

/*
 * shmem_file_read_iter or (iocb->write) shmem_file_write_iter: copy
 * iocb->len bytes at iocb->pos of a tmpfs file to or from the caller's
 * pages, in x's context: the call's set-up, then per folio touched the
 * lookup (for a write also write_begin/end) and the copy at the page
 * cache's copy_ns_per_kib. page_size is the folio size. KI_DIRECT is
 * served as buffered I/O, as tmpfs does. Returns the bytes done: the
 * call never waits.
 */
long shmem_rw_iter(struct xctx *x, const struct shmem_params *p,
		   const struct pagecache_params *pc, uint64_t page_size,
		   const struct kiocb *iocb);

#endif
