/*
 * The real machine's side of storsim calibrate and validate real: set up
 * the targets (a tmpfs, files on it, loop devices over them, XFS and
 * ext4 on two of them), run a point's job in fio 3.33 and measure it,
 * and take everything down again.
 */
#ifndef STORSIM_CAL_REAL_H
#define STORSIM_CAL_REAL_H

#include <glib.h>
#include <stdbool.h>

#include "measure.h"
#include "points.h"

struct real_env {
	char *dir;		/* the session's temporary directory */
	char *tmpfs;		/* the tmpfs mounted there */
	char *backing[3];	/* the loop devices' files on it */
	char *loop[3];		/* /dev/loopN: raw, xfs, ext4 */
	bool mounted[3];	/* tmpfs, xfs, ext4 */
	bool raw_dio;		/* the raw device's --direct-io now */
	struct cal_places pl;
	char *fio;		/* the fio binary */
	unsigned backing_mb;
};

/* Check that this can run here (root, fio 3.33, losetup, mkfs.xfs,
 * mkfs.ext4, mount): false with the reason otherwise. */
bool real_env_check(const char *fio, GError **err);
/* Set the targets up; on failure whatever was set up is taken down. */
bool real_env_setup(struct real_env *e, const char *fio, unsigned backing_mb,
		    unsigned region_mb, GError **err);
/* Take down what setup made, in reverse; safe to call twice. */
void real_env_teardown(struct real_env *e);

/* Run p's job (runtime as fio takes it, e.g. "2s") and measure it. */
bool real_run(struct real_env *e, const struct cal_point *p,
	      const char *runtime, struct cal_measure *out, GError **err);

/* The CPUs busy, all users together, over the next ms milliseconds. */
double real_busy_cpus(unsigned ms);

/* Stop at the next chance: SIGINT or SIGTERM came. */
bool real_interrupted(void);
/* Catch SIGINT, SIGTERM and SIGHUP so that teardown runs. */
void real_catch_signals(void);

/* Machine facts for a host profile, read from /proc and /sys. */
struct real_facts {
	unsigned ncpus, page_size, hz, mem_mb;
	char *preempt;		/* "none", "voluntary", "full" */
	char *idle_states;	/* as the host model takes them, "" for none */
	char *idle_driver;	/* cpuidle driver, for the source text */
	unsigned dirty_background_ratio, dirty_ratio;
	unsigned dirty_expire_ms, dirty_writeback_ms;
	unsigned read_ahead_kb;	/* of a loop device */
	char *kernel;		/* uname -r */
	char *cpu_model;
	bool share_cache;	/* the CPUs share their last-level cache */
};
void real_facts_read(struct real_facts *f, const struct real_env *e);
void real_facts_clear(struct real_facts *f);

#endif
