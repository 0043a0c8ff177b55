/*
 * iomap direct I/O (fs/iomap/direct-io.c) for files of a struct fs.
 */
#ifndef STORSIM_IOMAP_DIO_H
#define STORSIM_IOMAP_DIO_H

#include "fs/fs.h"

/* Open ino for direct I/O. */
void iomap_dio_open(struct inode *ino, struct sfile *f);

#endif
