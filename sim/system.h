/*
 * A simulated system: one host, its devices and file systems, the kernel
 * features in force, built from profiles and command-line settings.
 */
#ifndef STORSIM_SYSTEM_H
#define STORSIM_SYSTEM_H

#include <glib.h>

#include "registry.h"
#include "sim.h"

struct system_config {
	char *host;		/* host profile name or path */
	GPtrArray *devices;	/* "NAME=PROFILE", e.g. "nullb0=null_blk" */
	GPtrArray *sets;	/* "MODEL.PARAM=VALUE" or "DEVICE.PARAM=VALUE" */
	GPtrArray *kernel;	/* "FEATURE=VALUE" */
	uint64_t seed;
};

void system_config_init(struct system_config *c);
void system_config_clear(struct system_config *c);
/* Add the GOption entries for the settings above to a context. */
void system_config_add_options(struct system_config *c, GOptionContext *ctx);

struct system_device {
	char *name;
	char *profile;
	const struct model_info *model;
	void *params;
	struct blk_queue *q;
	struct blkdev *bdev;
	struct null_blk *nullb;
};

struct system {
	struct sim sim;
	struct stack_params sp;
	struct kernel_features kf;
	struct host *host;
	char *host_profile;
	GPtrArray *devices;	/* struct system_device * */
	GPtrArray *files;	/* struct sfile *, opened */
};

struct system *system_new(const struct system_config *cfg, GError **err);
void system_free(struct system *s);
/* Open path for I/O: /dev/NAME opens a device. */
struct sfile *system_open(struct system *s, const char *path, GError **err);
/* One line per profile and setting, for reports. */
void system_describe(const struct system *s, GString *out);

#endif
