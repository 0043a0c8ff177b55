/*
 * The workloads storsim can run, and what each one's host profile sets:
 * its own user-space CPU costs (fio's io_u preparation, t/io_uring's SQE
 * fill), apart from the kernel stack's (models/stack.h).
 */
#ifndef STORSIM_WORKLOADS_H
#define STORSIM_WORKLOADS_H

#include "fio/fio.h"
#include "t_io_uring/t_io_uring.h"

/* Every workload's costs, one block each (host profile models "fio",
 * "t_io_uring"). */
struct workload_costs {
	struct fio_params fio;
	struct t_io_uring_params t_io_uring;
};

#endif
