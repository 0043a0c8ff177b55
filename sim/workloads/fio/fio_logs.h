/*
 * fio's log files for one simulated job thread: write_lat_log,
 * write_bw_log and write_iops_log, with log_avg_msec, log_max_value,
 * log_offset, log_prio and per_job_logs, in fio 3.33's text format
 * (iolog.c: flush_samples), at simulated times.
 *
 * The files are real files on the host, named from the current directory
 * of the storsim process. Lines go through a fixed buffer per file that is
 * appended to the file whenever it fills and when the job ends, so a long
 * run keeps no samples in memory; with per_job_logs=0 a thread's lines
 * wait in a temporary file until it ends and are then appended whole, as
 * fio appends each thread's log when the thread ends.
 */
#ifndef STORSIM_FIO_LOGS_H
#define STORSIM_FIO_LOGS_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "jobfile.h"
#include "engine/sim.h"
#include "engine/stats.h"

struct fio_logs;

/*
 * Create (empty) the log files job asks for as fio's thread number jobnum
 * (from 1, clones counted), and make cfg take its bw and iops samples as
 * fio does when they are logged: per I/O with log_avg_msec=0, else every
 * log_avg_msec unless bwavgtime (iopsavgtime) was set. cfg->disable_slat
 * must already say whether the engine records slat. *out is NULL when the
 * job logs nothing. False, with "FILE:LINE: option 'write_lat_log': ..."
 * in *err, when a file cannot be created.
 */
bool fio_logs_new(const struct job *job, unsigned jobnum,
		  struct stats_config *cfg, struct fio_logs **out, GError **err);

/* The thread's statistics start at epoch (the end of its ramp_time, where
 * fio resets its log clock); js's windowed bw and iops samples go to the
 * logs from now on. */
void fio_logs_start(struct fio_logs *l, struct job_stats *js, sim_time epoch);

/* An I/O of bs bytes at offset was issued at now after slat ns. */
void fio_logs_slat(struct fio_logs *l, sim_time now, enum stats_ddir ddir,
		   uint64_t slat_ns, uint64_t bs, uint64_t offset);

/* An I/O completed at now, having moved bytes at offset, with its
 * completion and total latencies. */
void fio_logs_io(struct fio_logs *l, sim_time now, enum stats_ddir ddir,
		 uint64_t bytes, uint64_t offset, uint64_t clat_ns,
		 uint64_t lat_ns);

/* The thread ended at end: log what is left of the averaging windows and
 * write everything out. */
void fio_logs_finish(struct fio_logs *l, sim_time end);

/* False, with the message in *err, if a write has failed. */
bool fio_logs_check(const struct fio_logs *l, GError **err);

void fio_logs_free(struct fio_logs *l);

#endif
