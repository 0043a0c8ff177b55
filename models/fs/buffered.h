/*
 * Buffered I/O through the page cache (mm/filemap.c, iomap buffered I/O).
 */
#ifndef STORSIM_BUFFERED_H
#define STORSIM_BUFFERED_H

#include "fs/fs.h"

/* Open ino for buffered I/O (its page-cache mapping is made on first
 * use). */
void buffered_open(struct inode *ino, struct sfile *f);
/* Put the whole file in the page cache, uptodate, at no simulated cost
 * (fio's pre_read before a job). */
void buffered_preload(struct inode *ino);

#endif
