/*
 * The runs storsim calibrate and storsim validate real make on this
 * machine: one fio job per point, the same job file for the real fio and
 * for storsim, on the same device names and paths.
 */
#ifndef STORSIM_CAL_POINTS_H
#define STORSIM_CAL_POINTS_H

#include <glib.h>
#include <stdbool.h>

/* What a point runs against. */
enum cal_target {
	CAL_NULL,	/* fio's null engine: no kernel I/O at all */
	CAL_RAW,	/* /dev/loopN on a tmpfs file, losetup's default */
	CAL_RAW_DIO,	/* the same device with losetup --direct-io=on */
	CAL_XFS,	/* a file on XFS on a loop device on a tmpfs file */
	CAL_EXT4,	/* the same with ext4 */
	CAL_TARGET_NR,
};

struct cal_point {
	enum cal_target target;
	const char *engine;	/* fio ioengine */
	const char *rw;
	unsigned bs;		/* bytes */
	unsigned iodepth;
	unsigned numjobs;
	bool direct;
};

/* Where the targets are: device names and paths, real and simulated
 * alike. */
struct cal_places {
	char *raw_dev;		/* "loop3": the raw target's device */
	char *xfs_dev, *ext4_dev;
	char *xfs_file, *ext4_file;	/* the job's file on each */
	char *xfs_mnt, *ext4_mnt;
	unsigned region_mb;	/* the part of a device or file a job uses */
	unsigned file_mb;	/* each file-system target's file */
};

extern const struct cal_point cal_suite[];	/* calibration */
extern const unsigned cal_suite_len;
extern const struct cal_point cal_grid[];	/* validation */
extern const unsigned cal_grid_len;

const char *cal_target_name(enum cal_target t);
/* "raw/psync/randread/4k/qd1/j1/direct" */
char *cal_point_name(const struct cal_point *p);
bool cal_point_equal(const struct cal_point *a, const struct cal_point *b);
/* The index in the calibration suite of a grid point that is also in it,
 * or -1: the two sets must stay disjoint. */
int cal_grid_overlap(void);
/* The job file of a point; runtime=${CAL_RUNTIME}. */
char *cal_point_jobfile(const struct cal_point *p, const struct cal_places *pl);
/* Whether the point's job reads (its latency is the reads' then) */
bool cal_point_reads(const struct cal_point *p);

#endif
