/*
 * The mq-deadline I/O scheduler: per direction, requests in sector order
 * and in arrival order with a deadline; batches of sequential requests,
 * reads preferred over writes for a bounded number of batches.
 */
#ifndef STORSIM_MQ_DEADLINE_H
#define STORSIM_MQ_DEADLINE_H

#include <stdint.h>

#include "engine/params.h"
#include "engine/sim.h"

/* Its tunables (queue/iosched/) and CPU costs: host profile, model
 * "mq_deadline". */
struct mq_deadline_params {
	uint32_t read_expire;		/* ms */
	uint32_t write_expire;		/* ms */
	uint32_t writes_starved;	/* read batches before a write batch */
	uint32_t fifo_batch;		/* requests in a batch */
	bool front_merges;
	sim_time insert;		/* per request inserted */
	sim_time dispatch;		/* per request taken out */
	sim_time merge;			/* per bio merge attempt */
};

extern const struct param_def mq_deadline_param_table[];

struct elevator_ops;
extern const struct elevator_ops mq_deadline_ops;

#endif
