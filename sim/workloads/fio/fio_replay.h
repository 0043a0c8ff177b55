/*
 * fio's read_iolog: a job's I/O taken from a trace instead of generated.
 * The trace is read twice: once whole when the job is set up, to name the
 * files it uses and check it, then a record at a time as the job issues.
 */
#ifndef STORSIM_FIO_REPLAY_H
#define STORSIM_FIO_REPLAY_H

#include <glib.h>
#include <stdint.h>

#include "trace/trace.h"

struct job_options;
struct fio_replay;

/*
 * Open o->read_iolog with o's replay_* options and read it whole. NULL
 * with *err set (the trace's own FILE:LINE message) when it cannot be
 * read or holds no I/O.
 */
struct fio_replay *fio_replay_open(const struct job_options *o, GError **err);

/* The files the trace names, in order of first use (one with
 * replay_redirect), and the end of the furthest I/O on each. */
unsigned fio_replay_nfiles(const struct fio_replay *r);
const char *fio_replay_file_name(const struct fio_replay *r, unsigned i);
uint64_t fio_replay_file_end(const struct fio_replay *r, unsigned i);
/* Its sync, datasync and flush records. */
uint64_t fio_replay_syncs(const struct fio_replay *r);

/*
 * The next record, replay options applied and rec->file an index of the
 * list above; add, open and close records included. 1, or 0 at the end.
 */
int fio_replay_next(struct fio_replay *r, struct trace_record *rec);

void fio_replay_free(struct fio_replay *r);

#endif
