/*
 * A point in storsim: the system the real run had (its loop devices with
 * the device profile, XFS or ext4 mounted where the real ones were, the
 * job's file laid out written as calibrate wrote it), the same job file,
 * and the measures the real side takes: IOPS, the completion latency's
 * mean and 99th percentile over all jobs and directions, CPU time per I/O
 * over every simulated CPU (fio's, the kworkers', interrupts'), of which
 * user time, and fio's context switches per I/O.
 */
#include <gio/gio.h>
#include <string.h>

#include "simulate.h"

bool cal_simulate(const struct cal_profiles *pr, const struct cal_places *pl,
		  const struct cal_point *p, const char *runtime,
		  const char *dir, struct cal_measure *out,
		  struct run_metrics *m, GError **err)
{
	struct system_config cfg;
	struct run_metrics local = {0};
	struct run_metrics *rm = m ? m : &local;
	g_autofree char *job = cal_point_jobfile(p, pl);
	g_autofree char *path = g_build_filename(dir, "sim-job.fio", NULL);
	g_autofree char *env_rt = g_strconcat("CAL_RUNTIME=", runtime, NULL);
	char *env[] = {env_rt, NULL};
	const char *dev = pl->raw_dev;
	bool ok;

	memset(out, 0, sizeof(*out));
	if (!g_file_set_contents(path, job, -1, err))
		return false;
	system_config_init(&cfg);
	cfg.host = g_strdup(pr->host);
	if (p->target == CAL_XFS || p->target == CAL_EXT4) {
		bool xfs = p->target == CAL_XFS;
		dev = xfs ? pl->xfs_dev : pl->ext4_dev;
		g_ptr_array_add(cfg.mounts, g_strdup_printf(
			"%s=%s:%s", xfs ? pl->xfs_mnt : pl->ext4_mnt,
			xfs ? pr->xfs : pr->ext4, dev));
		g_ptr_array_add(cfg.files, g_strdup_printf(
			"%s=%um:written", xfs ? pl->xfs_file : pl->ext4_file,
			pl->file_mb));
	}
	g_ptr_array_add(cfg.devices, g_strdup_printf("%s=%s", dev, pr->loop));
	if (p->target == CAL_RAW_DIO)
		g_ptr_array_add(cfg.sets, g_strdup_printf("%s.direct_io=true", dev));
	ok = workload_fio(&cfg, path, env, rm, err);
	system_config_clear(&cfg);
	if (ok && rm->ios) {
		sim_time busy = 0;
		for (int c = 0; c < CPU_CLASS_NR; c++)
			busy += rm->class_ns[c];
		out->iops = rm->iops;
		out->lat_us = rm->clat_mean_ns / 1000.0;
		out->p99_us = (double)rm->clat_p99_ns / 1000.0;
		out->cpu_us = (double)busy / (double)rm->ios / 1000.0;
		out->usr_us = (double)rm->class_ns[CPU_USR] / (double)rm->ios / 1000.0;
		out->ctx = (double)rm->app_ctx / (double)rm->ios;
	} else if (ok) {
		g_set_error(err, G_IO_ERROR, G_IO_ERROR_FAILED,
			    "the simulated run did no I/O");
		ok = false;
	}
	if (!m)
		run_metrics_clear(&local);
	return ok;
}
