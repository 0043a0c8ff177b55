/*
 * A simulated system: one host, its devices and file systems, the kernel
 * features in force, built from profiles and command-line settings.
 */
#ifndef STORSIM_SYSTEM_H
#define STORSIM_SYSTEM_H

#include <glib.h>

#include <json-c/json.h>

#include "registry.h"
#include "engine/io_timeline.h"
#include "engine/sim.h"
#include "workloads/env.h"

struct system_config {
	char *host;		/* host profile name or path */
	GPtrArray *devices;	/* "NAME=PROFILE", e.g. "nullb0=null_blk" */
	GPtrArray *mounts;	/* "PATH=FSPROFILE:DEVICE", e.g. "/data=xfs:nvme0n1" */
	GPtrArray *files;	/* "PATH=SIZE[:written|unwritten|sparse]" */
	GPtrArray *sets;	/* "MODEL.PARAM=VALUE" or "DEVICE.PARAM=VALUE" */
	GPtrArray *kernel;	/* "FEATURE=VALUE" */
	char *power_loss;	/* "at:TIME" or "after:N"[@DEVICE] */
	uint64_t seed;
	char *timeline;		/* Trace Event JSON file to write, or NULL */
	char *timeline_window;	/* "FROM:TO" in simulated time */
};

/* With no device named, a system has this NVMe drive with an XFS at /. */
#define SYSTEM_DEFAULT_DEVICE "nvme0n1=optane-p5800x"
#define SYSTEM_DEFAULT_MOUNT "/=xfs:nvme0n1"

void system_config_init(struct system_config *c);
void system_config_clear(struct system_config *c);
/* dst (initialised) becomes a copy of src. */
void system_config_copy(struct system_config *dst, const struct system_config *src);
/* What is wrong with a --set (kernel false) or --kernel entry for a
 * system configured as c, or NULL: a model and its parameter, a device of
 * the system, a kernel feature. */
char *system_setting_problem(const struct system_config *c, const char *entry,
			     bool kernel);
/* Add the GOption entries for the settings above to a context. */
void system_config_add_options(struct system_config *c, GOptionContext *ctx);
/* The same for commands that run many points (sweep, compare): their
 * --timeline names a directory, with a timeline per point. */
void system_config_add_point_options(struct system_config *c, GOptionContext *ctx);

struct system_device {
	char *name;
	char *profile;
	const struct model_info *model;
	void *params;
	struct blk_queue *q;
	struct blkdev *bdev;
	struct fs *raw_fs;	/* its page cache's bdev inode, once opened buffered */
	struct null_blk *nullb;
	struct nvme_drv *nvme;
	struct loop_dev *loop;
	struct nvme_ns_chr *ng;	/* NVMe: /dev/ngXnY, the generic char device */
};

struct system_mount {
	char *path;
	char *profile;
	struct fs_params params;
	struct system_device *dev;
	struct fs *fs;
};

struct system {
	struct sim sim;
	struct stack_params sp;		/* the kernel stack */
	struct workload_costs wl;	/* the workloads' user-space costs */
	struct kernel_features kf;
	struct host *host;
	struct pagecache *pc;	/* shared by every file system */
	struct writeback *wb;	/* the page cache's */
	char *host_profile;
	GPtrArray *devices;	/* struct system_device * */
	GPtrArray *mounts;	/* struct system_mount * */
	GPtrArray *files;	/* struct sfile *, opened */
	sim_time stats_epoch;	/* the last system_reset_stats */
	struct sim_component comp;	/* timed power loss */
	struct system_device *power_loss_dev;
	sim_time power_loss_at;	/* 0: none, or by command count */
	char *timeline_file;	/* --timeline */
	struct io_timeline *iotl;	/* its I/Os' spans */
};

struct system *system_new(const struct system_config *cfg, GError **err);
void system_free(struct system *s);
/* Open a->path for I/O: /dev/NAME opens a device, any other path a file
 * on the file system mounted at its longest matching prefix. */
struct sfile *system_open_args(struct system *s,
			       const struct env_open_args *a, GError **err);
/* The size of the file at path on its mount, 0 when it does not exist
 * (what fio's get_file_sizes finds before a job lays its files out);
 * a device's or an unmounted path's size is not asked here. */
uint64_t system_file_size(struct system *s, const char *path);
/* Disk statistics (struct env_disk_stats) of each device that did I/O. */
void system_disk_stats(const struct system *s, GArray *disks);
/* Forget the accounting so far: CPU time, stages, disk statistics. */
void system_reset_stats(struct system *s);
/* Arm a power loss given with --power-loss at:TIME (counted from now). */
void system_arm_power_loss(struct system *s);
/* Whether a device lost power; its durability report. */
bool system_power_lost(const struct system *s);
void system_durability_report(const struct system *s, GString *text,
			      json_object *json, uint64_t *violations);
/* Write what each CPU ran (--timeline) as Trace Event JSON, for Perfetto
 * or chrome://tracing; nothing without --timeline. */
bool system_timeline_write(struct system *s, GError **err);
/* The environment a workload runs in on s (workloads/env.h), with the
 * costs of host model costs_model ("fio", "t_io_uring"; NULL: none). */
void system_env(struct system *s, const char *costs_model,
		struct workload_env *e);
/* One line per profile and setting, for reports. */
void system_describe(const struct system *s, GString *out);

#endif
