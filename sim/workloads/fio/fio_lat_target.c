/*
 * fio, simulated: latency_target's depth search and max_latency.
 *
 * Stands for fio 3.33's io_u.c (lat_target_init, lat_target_check,
 * lat_target_success, __lat_target_failed, lat_fatal).

 */
#include "fio_core.h"
/* ---- latency_target ---- */

/* How deep the job may queue: latency_target's current depth, or iodepth. */
unsigned fio_depth(const struct fio_thread *td)
{
	return td->o->latency_target ? td->lat_qd : td->o->iodepth;
}

static void lat_new_cycle(struct fio_thread *td)
{
	td->lat_ts = sim_now(td->comp.sim);
	td->lat_ios = td->lat_blocks;
	td->lat_failed = 0;
}

/* lat_target_init, as each do_io starts: from depth 1, up to iodepth. */
void fio_lat_target_init(struct fio_thread *td)
{
	td->lat_end_run = false;
	if (!td->o->latency_target)
		return;
	td->lat_qd = 1;
	td->lat_qd_high = td->o->iodepth;
	td->lat_qd_low = 1;
	lat_new_cycle(td);
}

/* __lat_target_failed: halve towards the last good depth and quiesce;
 * true at depth 1, where the job fails. */
static bool lat_target_down(struct fio_thread *td)
{
	if (td->lat_qd == 1)
		return true;
	td->lat_qd_high = td->lat_qd;
	if (td->lat_qd == td->lat_qd_low)
		td->lat_qd_low--;
	td->lat_qd = (td->lat_qd + td->lat_qd_low) / 2;
	td->lat_stable = 0;
	td->lat_quiesce = true;
	lat_new_cycle(td);
	return false;
}

/* lat_target_success: double (or bisect up to the last failing depth);
 * the same depth twice starts the final run, whose figures alone are
 * reported, and ends the job after it. */
static void lat_target_up(struct fio_thread *td)
{
	const struct job_options *o = td->o;
	unsigned qd = td->lat_qd;

	td->lat_qd_low = td->lat_qd;
	if (td->lat_qd + 1 == td->lat_qd_high && ++td->lat_stable >= 3) {
		td->lat_qd_high++;
		td->lat_stable = 0;
	}
	if (td->lat_qd_high != o->iodepth)
		td->lat_qd = (td->lat_qd + td->lat_qd_high) / 2;
	else
		td->lat_qd *= 2;
	td->lat_qd = MIN(td->lat_qd, o->iodepth);
	if (!o->latency_run && td->lat_qd == qd) {
		if (td->lat_end_run) {
			td->lat_done = true;
		} else {
			td->lat_quiesce = true;
			td->lat_reset = true;
			td->lat_end_run = true;
		}
	}
	lat_new_cycle(td);
}

/* lat_target_check, once per pass of the loop after the ramp: at the end
 * of each latency_window, up if enough I/Os met the target, else down. */
void fio_lat_target_check(struct fio_thread *td)
{
	sim_time now = sim_now(td->comp.sim);

	if (now - td->lat_ts < td->o->latency_window)
		return;
	uint64_t ios = td->lat_blocks - td->lat_ios;
	/* 0/0 is NaN, which is below any percentile, as in fio */
	double ok = (double)(ios - td->lat_failed) / (double)ios * 100.0;
	if (ok >= td->o->latency_percentile)
		lat_target_up(td);
	else
		lat_target_down(td);
}

/* reset_all_stats for the final run: its figures, CPU time and runtime
 * start now. */
void fio_lat_reset_stats(struct fio_thread *td)
{
	sim_time now = sim_now(td->comp.sim);

	td->lat_reset = false;
	fio_reset_counts(td, now);
	td->ramp_end = now;
	td->stats_on = false;
	if (td->o->runtime)
		td->run_deadline = now + td->o->runtime;
	stats_restart(td->stats, &td->stats_cfg, now);
	td->lat_blocks = 0;
	lat_new_cycle(td);
}

/* io_u.c's lat_fatal: the job fails with ETIMEDOUT, fio's message kept
 * for its failure line. */
static void lat_fatal(struct fio_thread *td, const struct fio_io_u *u,
		      sim_time lat, uint64_t max)
{
	static const char *const names[FIO_DDIR_COUNT] = {"read", "write", "trim"};

	if (td->error)
		return;
	td->error_detail = g_strdup_printf(
		"latency of %" PRIu64 " nsec exceeds specified max (%" PRIu64
		" nsec): %s %s %" PRIu64 " %u", (uint64_t)lat, max,
		u->file->path, names[u->ddir], u->offset, u->len);
	td->error = 110;	/* ETIMEDOUT */
}

/* An I/O slower than max_latency (its total latency, as fio measures
 * it) fails the job as it completes. */
void fio_check_max_latency(struct fio_thread *td, const struct fio_io_u *u,
			      sim_time lat)
{
	uint64_t max = td->o->max_latency[u->ddir];

	if (max && lat > max && !td->o->disable_lat)
		lat_fatal(td, u, lat, max);
}

/* An I/O over latency_target: with latency_percentile=100 the depth goes
 * down at once (at depth 1 the job fails, as with max_latency); else it
 * counts against the window. */
void fio_lat_target_io(struct fio_thread *td, const struct fio_io_u *u,
			  sim_time lat)
{
	const struct job_options *o = td->o;

	td->lat_blocks++;
	if (!o->latency_target || lat <= o->latency_target || o->disable_lat)
		return;
	if (o->latency_percentile < 100.0) {
		td->lat_failed++;
		return;
	}
	if (lat_target_down(td))
		lat_fatal(td, u, lat, o->latency_target);
}

