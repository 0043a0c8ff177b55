/*
 * fio, simulated: the job threads of a job file and their I/O engines.
 */
#ifndef STORSIM_FIO_H
#define STORSIM_FIO_H

#include <glib.h>

#include "engine/io_trace.h"

#include "jobfile.h"
#include "options.h"
#include "host/host.h"
#include "output.h"
#include "engine/params.h"
#include "engine/sim.h"

/* fio's own user-space CPU costs (host profile, model "fio"). */
struct fio_params {
	sim_time io_u_prep;	/* get_io_u: direction, size, offset, clocks */
	sim_time io_u_complete;	/* io_completed: latencies, stats, put io_u */
	sim_time loop;		/* one pass of do_io's loop */
	sim_time sqe_prep;	/* io_uring engine: fill one SQE */
	sim_time cqe_reap;	/* io_uring engine: read one CQE */
	sim_time aio_prep;	/* libaio engine: io_prep_* one iocb */
	sim_time event_reap;	/* libaio engine: one io_event */
	double verify_fill;	/* verify: a write's buffer and header, ns/KiB */
	/* verify: one checksum over a block, ns/KiB, by enum fio_verify */
	double verify_sum[FIO_VERIFY_COUNT];
};

extern const struct param_def fio_param_table[];

struct fio_run;
struct workload_env;

/* Set up the jobs of jl (which must outlive the run) in env (copied; its
 * costs are struct fio_params): open or create their files, check what
 * storsim models. */
struct fio_run *fio_run_new(const struct workload_env *env,
			    const struct job_list *jl, GError **err);
/* Have each I/O collect its stamps on the way (io_trace.h), and report
 * each job's latency by layer with its results, with percentiles each
 * layer's histogram gives when asked for; off unless asked for, as it
 * costs the hot path about 10% (the histograms about 4% more). Before
 * fio_run_exec. */
void fio_run_trace_layers(struct fio_run *r, bool percentiles);
/* Every job's latency by layer, all directions summed, into l (zero
 * unless fio_run_trace_layers was called). */
void fio_run_layers(const struct fio_run *r, struct io_layers *l);
/* Run every job, group after group, to the end. */
bool fio_run_exec(struct fio_run *r, GError **err);
/* The simulated time the run will end at, when it is known beforehand:
 * every job time_based in one group (no stonewall); else 0. */
sim_time fio_run_horizon(const struct fio_run *r);
/* How many jobs (threads) ended with an error of their own, one line each
 * added to why; a power loss that cut a job short is not its error. fio
 * exits non-zero when a job fails. */
unsigned fio_run_failed(const struct fio_run *r, GString *why);
/* The results, as fio reports them; valid until fio_run_free. */
const struct output_run *fio_run_output(struct fio_run *r);
/* Totals for reports: I/Os completed in the measured window, its length,
 * and the summed IOPS and bytes per second of every job. */
void fio_run_totals(const struct fio_run *r, uint64_t *ios, double *iops,
		    double *bw_bytes);
/* What the fio process as a whole took, as time(1) would report it: the
 * longest job's run from its start, the bytes its jobs moved, and the CPU
 * time of its threads. */
void fio_run_process(const struct fio_run *r, sim_time *elapsed,
		     uint64_t *bytes, struct task_usage *use);
/* The completion latency of every job's I/Os together: its mean and the
 * npct percentiles pct[] (such as 99.0) into pct_ns[] (ns; 0 without
 * I/O). */
void fio_run_clat(const struct fio_run *r, double *mean, const double *pct,
		  unsigned npct, uint64_t *pct_ns);
void fio_run_free(struct fio_run *r);

#endif
