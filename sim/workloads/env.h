/*
 * The environment a workload runs in: everything a front-end (fio,
 * t/io_uring, trace replay) may reach of the simulated machine.
 *
 * A workload opens files, reads the clock, makes tasks on the host and
 * rings or contexts on the kernel's syscall interfaces (models/syscalls),
 * and asks for disk statistics or a power loss, through this and nothing
 * else: it does not see the system builder (sim/system), which fills an
 * env for each run. The kernel models it reaches through the env are the
 * ones a real program reaches through system calls.
 */
#ifndef STORSIM_WORKLOAD_ENV_H
#define STORSIM_WORKLOAD_ENV_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine/io_timeline.h"
#include "engine/sim.h"
#include "fs/vfs.h"
#include "kernel.h"
#include "stack.h"

/* How a workload opens a file, and how it is laid out if it does not
 * exist. */
struct env_open_args {
	const char *path;	/* /dev/NAME, or a path on a mount */
	bool direct;		/* O_DIRECT */
	bool writable;		/* O_RDWR or O_WRONLY (a passthrough device checks) */
	uint64_t create_size;	/* 0: the file must exist */
	bool create_written;	/* lay it out written (else fallocated) */
	bool create_fallocate;	/* unwritten extents, else holes */
};

/* One device's statistics since the last env_reset_stats, as
 * /proc/diskstats would give them (what fio's disk_util prints). */
struct env_disk_stats {
	const char *name;
	uint64_t ios[2], merges[2], ticks[2];	/* read, write; ticks in ms */
	uint64_t in_queue;			/* ms */
	double util;				/* percent of the span busy */
};

struct workload_env;

/* What the system behind an env does for it; every hook required. */
struct workload_env_ops {
	/* Open a->path for I/O: /dev/NAME opens a device, any other path a
	 * file on the file system mounted at its longest matching prefix. */
	struct sfile *(*open)(const struct workload_env *e,
			      const struct env_open_args *a, GError **err);
	/* The size of the file at path on its mount, 0 when it does not
	 * exist; a device's size is not asked here. */
	uint64_t (*file_size)(const struct workload_env *e, const char *path);
	/* Every device that did I/O since the last reset (disks). */
	void (*disk_stats)(const struct workload_env *e, GArray *disks);
	/* Forget the accounting so far: CPU time, stages, disk statistics. */
	void (*reset_stats)(const struct workload_env *e);
	/* Arm a power loss given with --power-loss at:TIME (from now). */
	void (*arm_power_loss)(const struct workload_env *e);
	/* Whether a device lost power. */
	bool (*power_lost)(const struct workload_env *e);
};

struct workload_env {
	struct sim *sim;			/* the clock and event queue */
	struct host *host;			/* CPUs, tasks, scheduler */
	const struct stack_params *sp;		/* the kernel stack's parameters */
	const struct kernel_features *kf;	/* the variants in force */
	struct io_timeline *iotl;		/* --timeline's I/O spans, or NULL */
	const void *costs;	/* the workload's own user-space costs, as the
				 * host profile sets them (its params struct) */
	const struct workload_env_ops *ops;
	void *impl;		/* the system behind the hooks */
};

static inline struct sfile *env_open(const struct workload_env *e,
				     const struct env_open_args *a,
				     GError **err)
{
	return e->ops->open(e, a, err);
}

static inline uint64_t env_file_size(const struct workload_env *e,
				     const char *path)
{
	return e->ops->file_size(e, path);
}

/* Appends struct env_disk_stats to disks. */
static inline void env_disk_stats(const struct workload_env *e, GArray *disks)
{
	e->ops->disk_stats(e, disks);
}

static inline void env_reset_stats(const struct workload_env *e)
{
	e->ops->reset_stats(e);
}

static inline void env_arm_power_loss(const struct workload_env *e)
{
	e->ops->arm_power_loss(e);
}

static inline bool env_power_lost(const struct workload_env *e)
{
	return e->ops->power_lost(e);
}

#endif
