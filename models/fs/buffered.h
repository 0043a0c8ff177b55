/*
 * Buffered I/O through the page cache (mm/filemap.c, iomap buffered I/O).
 */
#ifndef STORSIM_BUFFERED_H
#define STORSIM_BUFFERED_H

#include "fs/fs.h"

/* Open ino for buffered I/O (its page-cache mapping is made on first
 * use). */
void buffered_open(struct inode *ino, struct sfile *f);

#endif
