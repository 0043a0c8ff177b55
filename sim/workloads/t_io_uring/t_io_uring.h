/*
 * t/io_uring: fio's raw io_uring benchmark, as a simulated program.
 */
#ifndef STORSIM_T_IO_URING_H
#define STORSIM_T_IO_URING_H

#include <glib.h>

#include "syscalls/io_uring.h"
#include "engine/io_trace.h"

/* User-space CPU costs (host profile, model "t_io_uring"). */
struct t_io_uring_params {
	sim_time prep;		/* per SQE: offset, fill the SQE */
	sim_time reap;		/* per CQE: check, account */
	sim_time loop;		/* per pass of the submit loop */
};

extern const struct param_def t_io_uring_param_table[];

/* Command-line options, named as t/io_uring's letters. */
struct t_io_uring_opts {
	unsigned depth;		/* -d */
	unsigned batch_submit;	/* -s */
	unsigned batch_complete;/* -c */
	unsigned bs;		/* -b */
	bool polled;		/* -p */
	bool fixedbufs;		/* -B */
	bool register_files;	/* -F */
	unsigned nthreads;	/* -n */
	bool odirect;		/* -O */
	unsigned runtime;	/* -r, seconds; 0 = until stopped */
	bool random_io;		/* -R */
	bool passthrough;	/* -u: NVMe passthrough on /dev/ngXnY */
};

void t_io_uring_opts_default(struct t_io_uring_opts *o);

struct t_io_uring;
struct workload_env;

/* Set up the submitters on the files, in env (copied; its costs are
 * struct t_io_uring_params); errors name the option. */
struct t_io_uring *t_io_uring_new(const struct workload_env *env,
				  const struct t_io_uring_opts *o,
				  char **files, int nfiles, GError **err);
/* Have each I/O collect its latency stamps (io_trace.h), from its prep
 * to its reap; before t_io_uring_run. t_io_uring_layers sums them. */
void t_io_uring_trace_layers(struct t_io_uring *t);
void t_io_uring_layers(const struct t_io_uring *t, struct io_layers *l);
/* Run to the end; the output lines go to out, as t/io_uring prints them. */
void t_io_uring_run(struct t_io_uring *t, GString *out);
void t_io_uring_free(struct t_io_uring *t);

/* Results */
struct t_io_uring_result {
	double iops_mean;	/* mean of the per-second samples */
	uint64_t iops_max;	/* t/io_uring's "Maximum IOPS" */
	unsigned seconds;
	double ios_per_submit, ios_per_reap;
	uint64_t done;
	sim_time elapsed;
};

void t_io_uring_result(const struct t_io_uring *t, struct t_io_uring_result *r);

#endif
