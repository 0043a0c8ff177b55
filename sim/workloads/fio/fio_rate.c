/*
 * fio, simulated: rate limits (rate, rate_iops, rate_min) and think time.
 *
 * Stands for fio 3.33's backend.c (rate_ddir, usec_for_io in io_u.c,
 * handle_thinktime, usec_sleep, __check_min_rate).

 */
#include "fio_core.h"
/* fio's usec_for_io after an I/O of u's direction: when the next may go.
 * Linear: the bytes issued at the rate, in whole microseconds as fio
 * computes them; rate_iops with bssplit or a Poisson process: the last
 * time plus one interval (Poisson: exponentially distributed). */
void fio_rate_issued(struct fio_thread *td, const struct fio_io_u *u)
{
	const struct job_options *o = td->o;
	enum fio_ddir d = u->ddir;
	uint64_t bps = td->rate_bps[d];

	td->rate_issue_bytes[d] += u->len;
	if (!bps)
		return;
	uint64_t iops = bps / MAX(o->min_bs[d], 1u);
	if (o->rate_process == FIO_RATE_POISSON) {
		double unit = 1.0 - sim_rng_unit(&td->comp.rng);	/* (0, 1] */
		uint64_t us = iops ? (uint64_t)((double)(1000000 / iops) *
						 -log(unit)) : 0;
		td->rate_next[d] += us * SIM_USEC;
	} else if (!o->rate[d] && o->bssplit_nr[d]) {
		td->rate_next[d] += iops ? 1000000 / iops * SIM_USEC : 0;
	} else {
		uint64_t b = td->rate_issue_bytes[d];
		td->rate_next[d] = (b % bps * 1000000 / bps + b / bps * 1000000) *
				   SIM_USEC;
	}
}

/* fio's rate_ddir: the direction of the next I/O and how long to sleep
 * before it (0: go now). A mixed job turns to the other direction when
 * that one is behind its rate. */
sim_time fio_rate_wait(struct fio_thread *td)
{
	const struct job_options *o = td->o;
	sim_time now = sim_now(td->comp.sim) - td->rate_epoch;
	enum fio_ddir d = td->next_ddir, od = d == FIO_DDIR_READ ?
					      FIO_DDIR_WRITE : FIO_DDIR_READ;

	if (td->rate_next[d] <= now)
		return 0;
	bool mixed = fio_rw_does(o->rw, FIO_DDIR_READ) &&
		     fio_rw_does(o->rw, FIO_DDIR_WRITE);
	/* the turn stays: fio keeps rate_ddir's answer as rwmix_ddir */
	if (mixed && o->rwmix[od]) {
		if (td->rate_next[od] <= now) {
			td->next_ddir = td->rwmix_ddir = od;
			return 0;
		}
		if (td->rate_next[od] < td->rate_next[d])
			td->next_ddir = td->rwmix_ddir = d = od;
	}
	return td->rate_next[d] - now;
}

/*
 * check_min_rate: every rate_cycle ms, a direction with rate_min or
 * rate_iops_min that has done I/O but did less in the window fails the
 * job with EIO. As
 * fio 3.33 behaves, the checks start 2 s after the measured run starts and
 * the first only opens the window: a job far below its rate_min stops
 * 2 s + rate_cycle in (3001 ms with the default 1000 ms, 2251 with 250).
 */
bool fio_min_rate_failed(struct fio_thread *td)
{
	const struct job_options *o = td->o;
	sim_time now = sim_now(td->comp.sim);
	sim_time ms = o->rate_cycle ? (sim_time)o->rate_cycle * SIM_MSEC : SIM_MSEC;
	bool failed = false;

	if (now < td->ramp_end + 2 * SIM_SEC)
		return false;
	if (td->min_rate_on && now - td->min_rate_since < ms)
		return false;
	for (int d = 0; d < FIO_DDIR_COUNT; d++) {
		uint64_t bytes = td->stats->io_bytes[d], ios = td->stats->total_ios[d];
		/* Only the directions that have done I/O are checked. */
		if (td->min_rate_on && bytes) {
			double secs = (double)(now - td->min_rate_since) / SIM_SEC;
			failed |= o->rate_min[d] &&
				  (double)(bytes - td->min_rate_bytes[d]) <
				  (double)o->rate_min[d] * secs;
			failed |= o->rate_iops_min[d] &&
				  (double)(ios - td->min_rate_ios[d]) <
				  (double)o->rate_iops_min[d] * secs;
		}
		td->min_rate_bytes[d] = bytes;
		td->min_rate_ios[d] = ios;
	}
	td->min_rate_on = true;
	td->min_rate_since = now;
	return failed;
}

/* What thinktime_blocks counts (thinktime_blocks_counter): reads and
 * writes completed, or issued with thinktime_blocks_type=issue. */
uint64_t fio_think_counter(const struct fio_thread *td)
{
	return td->o->thinktime_blocks_type == FIO_THINK_ISSUE ?
	       td->ddir_issues[FIO_DDIR_READ] + td->ddir_issues[FIO_DDIR_WRITE] :
	       td->rw_completed;
}

/* handle_thinktime's test: thinktime_blocks more reads and writes have
 * been counted since the last think, after an I/O that was not a sync. */
bool fio_think_due(const struct fio_thread *td)
{
	const struct job_options *o = td->o;
	uint64_t n = fio_think_counter(td);

	return o->thinktime && !td->last_was_sync && n &&
	       n >= td->think_last + MAX(o->thinktime_blocks, 1u);
}

/* fio's usec_sleep until pause_end: nanosleep all but the granularity
 * fio measured at start-up (how long a 1 us nanosleep takes, the timer
 * slack above all), look at the clock, and spin what is left, so that the
 * sleep ends on time. busy: CPU time the step has charged already. Ends
 * the step. */
void fio_usec_sleep(struct fio_thread *td, sim_time busy)
{
	sim_time now = sim_now(td->comp.sim) + busy;
	sim_time left = td->pause_end > now ? td->pause_end - now : 0;

	if (left && left >= td->sleep_granularity) {
		task_nanosleep(td->task, left - td->sleep_granularity,
			       SIM_MSG(&td->comp, TD_SLEPT, NULL, 0));
		return;
	}
	if (left)
		xctx_charge(task_xctx(td->task), st_usec_spin, left);
	fio_resume(td);
}

/* A think or rate pause, once nothing is in flight: usec_spin, then
 * usec_sleep, cut at the job's runtime as fio cuts them. Ends the step. */
void fio_pause_now(struct fio_thread *td)
{
	sim_time now = sim_now(td->comp.sim);

	td->pausing = false;
	if (td->run_deadline && now + td->pause_spin + td->pause_sleep > td->run_deadline) {
		sim_time left = td->run_deadline > now ? td->run_deadline - now : 0;
		td->pause_spin = MIN(td->pause_spin, left);
		td->pause_sleep = left - td->pause_spin;
	}
	if (td->pause_spin)
		xctx_charge(task_xctx(td->task), st_think_spin, td->pause_spin);
	td->pause_end = now + td->pause_spin + td->pause_sleep;
	fio_usec_sleep(td, td->pause_spin);
}

