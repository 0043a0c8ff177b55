/*
 * fio, simulated: the job thread's loop: get an io_u, queue it, commit
 * at iodepth_batch, reap when the queue is full, quiesce, sync, and
 * start the next round or phase.
 *
 * Stands for fio 3.33's backend.c (thread_main, do_io, wait_for_completions,
 * io_u_quiesce, stonewall phases, exitall).

 */
#include "fio_core.h"
/* ---- the loop ---- */

/* wait_for: whether a thread of the job td waits for has yet to finish
 * (fio's waitee_running). */
static bool waitee_running(const struct fio_run *r, const struct fio_thread *td)
{
	if (!td->o->wait_for)
		return false;
	for (unsigned i = 0; i < r->threads->len; i++) {
		const struct fio_thread *p = r->threads->pdata[i];
		if (!p->finished && strcmp(p->o->name, td->o->wait_for) == 0)
			return true;
	}
	return false;
}

/* Start td at its start time, or now if a job it waited for ended later:
 * fio counts startdelay from the start of the run, not from the wait. */
static void launch(struct fio_run *r, struct fio_thread *td)
{
	struct sim *s = r->env.sim;
	const struct job_options *o = td->o;

	td->start_time = MAX(td->start_time, sim_now(s));
	td->rate_epoch = td->start_time;
	td->ramp_end = td->start_time + o->ramp_time;
	td->ramp_over = !o->ramp_time;
	td->run_deadline = o->runtime ? td->ramp_end + o->runtime : 0;
	stats_restart(td->stats, &td->stats_cfg, td->ramp_end);
	if (td->logs)
		fio_logs_start(td->logs, td->stats, td->ramp_end);
	td->started = true;
	sim_schedule(s, td->start_time, &td->comp, TD_BEGIN, NULL, 0);
}

/* Once per thread whose engine was set up: at its end, or when the run is
 * freed if the power loss cut it short. */
void fio_engine_cleanup(struct fio_thread *td)
{
	if (td->eng && td->eng->cleanup && td->eng_data)
		td->eng->cleanup(td);
	td->eng_data = NULL;
}

/*
 * exitall, as fio_terminate_threads: the other running jobs of the group
 * (exit_what=group), every running job (stonewall: the next group still
 * runs) or every job, started or not (all, and exitall_on_error after a
 * failure) stop issuing, reap and end.
 */
static void terminate_others(struct fio_thread *td)
{
	const struct job_options *o = td->o;
	struct fio_run *r = td->run;
	bool all = (o->exitall && o->exit_what == FIO_EXIT_ALL) ||
		   (o->exitall_on_error && td->error);

	if (!o->exitall && !all)
		return;
	for (unsigned i = 0; i < r->threads->len; i++) {
		struct fio_thread *w = r->threads->pdata[i];
		if (w == td || w->finished)
			continue;
		if (all || (w->started && (o->exit_what == FIO_EXIT_STONEWALL ||
					   w->job->groupid == td->job->groupid)))
			w->terminate = true;
	}
}

/* The thread exits, its files closed: the jobs waiting for it start. */
static void thread_exit(struct fio_thread *td)
{
	struct fio_run *r = td->run;

	td->finished = true;
	fio_engine_cleanup(td);
	task_exit(td->task);
	for (unsigned i = 0; i < r->threads->len; i++) {
		struct fio_thread *w = r->threads->pdata[i];
		if (w->phase == td->phase && !w->started && !waitee_running(r, w))
			launch(r, w);
	}
	if (--r->running == 0)
		sim_after(r->env.sim, 0, &r->comp, TD_PHASE_DONE, NULL, 0);
}

/* The job is over: its figures end here, before fio closes its files,
 * which may take a while (a block device's last close). */
static void thread_finish(struct fio_thread *td)
{
	struct task_usage u;

	td->end_time = sim_now(td->comp.sim);
	task_usage(td->task, &u);
	stats_set_cpu(td->stats, u.usr_ns - td->usage_at_ramp.usr_ns,
		      u.sys_ns - td->usage_at_ramp.sys_ns,
		      u.nvcsw + u.nivcsw - td->usage_at_ramp.nvcsw -
		      td->usage_at_ramp.nivcsw, 0, 0);
	if (td->verified) {
		fio_verify_phase_switch(td);
		stats_set_ddir_time(td->stats, STATS_WRITE, td->phase_ns[0]);
		stats_set_ddir_time(td->stats, STATS_READ, td->phase_ns[1]);
	}
	stats_finish(td->stats, td->end_time);
	if (td->logs)
		fio_logs_finish(td->logs, td->end_time);
	terminate_others(td);
	td->closing = true;
	if (!fio_close_step(td))
		thread_exit(td);
}

/* Start an io_u that fio's engine runs in the thread, its queue()
 * answering FIO_Q_COMPLETED: one syscall, counted as submitted. */
static struct xctx *in_thread_start(struct fio_thread *td, struct fio_io_u *u)
{
	struct xctx *x = task_xctx(td->task);

	xctx_syscall(x, 1);
	fio_io_issued(td, u);
	fio_submitted(td, 1);
	td->thread_u = u;
	return x;
}

static void in_thread_done(struct fio_thread *td, long res)
{
	struct fio_io_u *u = td->thread_u;

	td->thread_u = NULL;
	fio_io_done(td, u, res);
	fio_reaped(td, 1);
	fio_resume(td);
}

/*
 * do_io_u_trim: fio discards with ioctl(BLKDISCARD) in the thread, with
 * every engine but null, and counts one I/O submitted and one completed.
 * A file that is not a block device fails it with ENOTTY. Ends the step.
 */
static void trim(struct fio_thread *td, struct fio_io_u *u)
{
	struct xctx *x = in_thread_start(td, u);
	struct sfile *f = u->file->f;

	td->trim = (struct discard_op){
		.off = u->offset, .len = u->len, .task = td->task,
		.done = SIM_MSG(&td->comp, TD_TRIMMED, NULL, 0),
	};
	if (!f->bdev) {
		td->trim.res = -25;	/* -ENOTTY */
		task_then(td->task, td->trim.done);
		return;
	}
	blkdev_discard(x, f->bdev, &td->trim);
}

/* libaio's fsync and fdatasync: fio's engine calls do_io_u_sync in the
 * thread (fsync(2) or fdatasync(2)), as for a trim. Ends the step. */
static void sync_in_thread(struct fio_thread *td, struct fio_io_u *u)
{
	struct xctx *x = in_thread_start(td, u);

	td->fsync = (struct fsync_op){
		.file = u->file->f, .datasync = u->datasync, .task = td->task,
		.done = SIM_MSG(&td->comp, TD_SYNCED, NULL, 0),
	};
	u->file->f->ops->fsync(x, &td->fsync);
}

/* write_iolog: fio's log_io_u, as the io_u is queued. */
static void log_io_u(struct fio_thread *td, const struct fio_io_u *u)
{
	static const enum trace_op ops[FIO_DDIR_COUNT] = {
		[FIO_DDIR_READ] = TRACE_OP_READ, [FIO_DDIR_WRITE] = TRACE_OP_WRITE,
		[FIO_DDIR_TRIM] = TRACE_OP_TRIM,
	};
	enum trace_op op = !u->sync_op ? ops[u->ddir] :
			   u->datasync ? TRACE_OP_DATASYNC : TRACE_OP_SYNC;

	iolog_writer_io(td->iolog, sim_now(td->comp.sim) - td->iolog_t0,
			(uint32_t)(u->file - td->files), op, u->offset, u->len);
}

/* Queue a filled io_u; commit when the batch is full. Ends the step. */
static void issue(struct fio_thread *td, struct fio_io_u *u)
{
	const struct job_options *o = td->o;
	/* Trims, and libaio's syncs, run in the thread (fio's engine returns
	 * FIO_Q_COMPLETED from queue()). */
	bool trims = u->ddir == FIO_DDIR_TRIM && td->eng->needs_kernel;
	bool syncs = u->sync_op && td->eng == &fio_libaio_engine;

	/* An async engine's queue() answers FIO_Q_BUSY to a trim while
	 * I/Os it queued wait for a commit: fio commits, then tries again. */
	if ((trims || syncs) && td->queued) {
		td->requeued = u;
		td->queued = 0;
		td->eng->commit(td);
		return;
	}

	xctx_charge(task_xctx(td->task), st_prep, fio_costs(td)->io_u_prep);
	u->start_time = sim_now(td->comp.sim);
	td->last_issue = u->start_time;
	if (td->iolog)
		log_io_u(td, u);
	if (!u->sync_op && !u->verify_read) {
		td->bytes_issued += u->len;
		/* do_io's bytes_issued grows only for an io_u that queue()
		 * leaves queued (io_queue_event's FIO_Q_QUEUED): a synchronous
		 * engine's round, and a trim's, end when the files are done
		 * or the job's bytes are, not at size= (fio 3.33, psync,
		 * filesize=1m nrfiles=3 size=2m loops=2: rounds of 768 and
		 * 256 reads). */
		if (!td->eng->sync &&
		    !(u->ddir == FIO_DDIR_TRIM && td->eng->needs_kernel))
			td->round_bytes += u->len;
		td->ddir_issues[u->ddir]++;
		if (td->rated)
			fio_rate_issued(td, u);
		/* populate_verify_io_u fills and sums every write, with
		 * do_verify=0 too; log_io_piece keeps it for do_verify. */
		if (u->ddir == FIO_DDIR_WRITE && o->verify != FIO_VERIFY_NONE)
			xctx_charge(task_xctx(td->task), st_verify,
				    fio_verify_cost(td, u->len, true));
		if (u->ddir == FIO_DDIR_WRITE && fio_verify_wanted(o))
			fio_verify_log(td, u);
	} else if (u->verify_read) {
		td->verify_bytes += u->len;
		td->verify_ios++;
	}
	td->inflight++;
	u->file->refs++;
	if (trims) {
		trim(td, u);
		return;
	}
	if (syncs) {
		sync_in_thread(td, u);
		return;
	}
	if (td->trace_layers)
		io_trace_reset(&u->trace);
	td->eng->queue(td, u);
	if (td->eng->sync)
		return;	/* the engine resumes the loop */
	td->queued++;
	if (td->queued >= o->iodepth_batch || td->inflight >= fio_depth(td)) {
		td->queued = 0;
		td->eng->commit(td);
		return;
	}
	task_then(td->task, SIM_MSG(&td->comp, TD_LOOP, NULL, 0));
}

/* end_fsync (and fsync_on_close) at the end of each do_io, once its last
 * write is done: the next file's sync; false when all are issued or none
 * is due (should_fsync: not right after a sync). fio syncs each file again
 * as it closes it, after the job and outside its figures, which is not
 * simulated. */
static bool end_fsync_step(struct fio_thread *td)
{
	const struct job_options *o = td->o;

	if (!(o->end_fsync || o->fsync_on_close) ||
	    !fio_rw_does(o->rw, FIO_DDIR_WRITE) || td->error ||
	    td->end_fsyncs >= td->nfiles || (!td->end_fsyncs && td->last_was_sync))
		return false;
	struct fio_io_u *u = fio_io_u_get(td);
	fio_fill_sync(td, u, &td->files[td->end_fsyncs++], false);
	issue(td, u);
	return true;
}

/* One step towards nothing queued or in flight: commit what is queued,
 * else reap everything; false once there is nothing left out. */
static bool quiesce_step(struct fio_thread *td)
{
	if (td->queued) {
		td->queued = 0;
		td->eng->commit(td);
		return true;
	}
	if (td->inflight) {
		td->eng->getevents(td, td->inflight, td->inflight);
		return true;
	}
	return false;
}

/* wait_for_completions: reap at least iodepth_batch_complete_min of what
 * is in flight (at least one), at most iodepth_batch_complete_max (which
 * fixup_options keeps at or above the min). */
static void reap_some(struct fio_thread *td)
{
	const struct job_options *o = td->o;

	td->eng->getevents(td, MAX(1u, MIN(o->iodepth_batch_complete_min,
					   td->inflight)),
			   MAX(1u, o->iodepth_batch_complete_max));
}

/* get_next_file's -EBUSY with I/Os in flight: do_io reaps before it
 * fills again (io_u_queued_complete, which commits what is queued
 * first; file_busy stays until that reap). */
static void reap_busy(struct fio_thread *td)
{
	if (td->queued) {
		td->queued = 0;
		td->eng->commit(td);
		return;
	}
	td->file_busy = false;
	reap_some(td);
}

static void do_io(struct fio_thread *td)
{
	const struct job_options *o = td->o;
	struct xctx *x = task_xctx(td->task);
	const struct fio_params *fp = fio_costs(td);

	xctx_charge(x, st_loop, fp->loop);
	if (!td->stats_on && sim_now(td->comp.sim) >= td->ramp_end) {
		td->stats_on = true;
		task_usage(td->task, &td->usage_at_ramp);
	}
	if (td->checks_min_rate && !td->error && fio_min_rate_failed(td))
		td->error = 5;	/* EIO, as fio's td_verror in check_min_rate */
	if (o->latency_target && td->stats_on && !td->lat_quiesce)
		fio_lat_target_check(td);
	/* io_u_quiesce after a change of depth, before the final run */
	if (td->lat_quiesce) {
		if (quiesce_step(td))
			return;
		td->lat_quiesce = false;
		if (td->lat_reset)
			fio_lat_reset_stats(td);
	}
	bool stop = fio_thread_done_issuing(td);
	if (!stop && !td->pausing && !td->verifying && fio_think_due(td)) {
		td->think_last = fio_think_counter(td);
		td->pausing = true;
		td->pause_spin = MIN(o->thinktime_spin, o->thinktime);
		td->pause_sleep = o->thinktime - td->pause_spin;
	}
	if (!stop && !td->pausing && !td->verifying && td->rated && !fio_sync_due(td) &&
	    !td->draining && td->inflight < fio_depth(td)) {
		if (!td->ddir_chosen) {
			td->next_ddir = fio_pick_ddir(td);
			td->ddir_chosen = true;
		}
		sim_time wait = fio_rate_wait(td);
		if (wait) {
			td->pausing = true;
			td->pause_spin = 0;
			td->pause_sleep = wait;
		}
	}
	if (stop)
		td->pausing = false;
	if (td->pausing) {
		/* io_u_quiesce, then the pause */
		if (!quiesce_step(td))
			fio_pause_now(td);
		return;
	}
	/* The end of a round: do_io commits and reaps everything before
	 * keep_running lets the next one start. */
	if (td->round_wait && !stop) {
		if (quiesce_step(td))
			return;
		if (!td->verifying && end_fsync_step(td))
			return;
		if (td->verifying)
			fio_verify_end(td);
		else if (fio_verify_begin(td, true))
			td->round_wait = false;
		if (!td->verifying) {
			if (fio_close_step(td))
				return;
			fio_start_round(td);
		}
	}
	/* clear_io_state closes the files before do_verify, which opens them
	 * again as it reads: a block device's last close writes back and
	 * empties its cache, and each open invalidates as invalidate= says.
	 * Nothing syncs a regular file first: do_verify syncs and drops the
	 * files still open, and none is (fio 3.33 under strace). */
	if (td->verify_reopen) {
		if (fio_close_step(td))
			return;
		td->verify_reopen = false;
		fio_open_files(td);
	}
	/* iodepth_low: once the queue has been full, fio reaps until it is
	 * down to iodepth_low before it queues again (wait_for_completions). */
	if (td->inflight >= fio_depth(td))
		td->draining = true;
	else if (td->inflight <= o->iodepth_low)
		td->draining = false;
	/* FIO_Q_BUSY: fio requeues the io_u it filled and reaps first; the
	 * io_u keeps its offset, so filling it after the reap is the same. */
	bool busy = td->inflight && !td->queued && td->eng->busy &&
		    td->eng->busy(td);
	if (td->requeued) {
		/* After FIO_Q_BUSY fio reaps at least one completion
		 * (wait_for_completions) before it queues the io_u again. */
		if (td->inflight && !td->requeue_reaped) {
			td->requeue_reaped = true;
			reap_some(td);
			return;
		}
		struct fio_io_u *u = td->requeued;
		td->requeued = NULL;
		td->requeue_reaped = false;
		issue(td, u);
		return;
	}
	if (td->file_busy) {
		reap_busy(td);
		return;
	}
	if (!stop && !td->draining && !busy && td->replay) {
		struct fio_io_u *u = fio_io_u_get(td);
		g_assert(u);
		enum replay_step step = fio_replay_fill(td, u);
		if (step == REPLAY_IO) {
			issue(td, u);
			return;
		}
		fio_io_u_put(td, u);
		if (step == REPLAY_WAIT) {
			/* iolog_delay sleeps with I/O in flight, unreaped. */
			td->pause_end = td->run_deadline ?
					MIN(td->rec_due, td->run_deadline) :
					td->rec_due;
			fio_usec_sleep(td, 0);
			return;
		}
		/* read_iolog_get sets td->done, and td_io_getevents reaps
		 * nothing after it: what is in flight is left out of the
		 * figures. */
		td->replay_ended = true;
		td->exhausted = true;
		stop = true;
	}
	if (!stop && !td->draining && !busy) {
		struct fio_io_u *u = fio_io_u_get(td);
		g_assert(u);
		if (fio_fill_io_u(td, u)) {
			issue(td, u);
			return;
		}
		fio_io_u_put(td, u);
		if (td->file_busy) {
			reap_busy(td);
			return;
		}
		if (td->round_wait) {
			fio_resume(td);
			return;
		}
		td->exhausted = true;
		stop = true;
	}
	if (td->queued) {
		td->queued = 0;
		td->eng->commit(td);
		return;
	}
	if (td->inflight) {
		/* everything when quiescing */
		if (stop)
			td->eng->getevents(td, td->inflight, td->inflight);
		else
			reap_some(td);
		return;
	}
	if (end_fsync_step(td))
		return;
	if (td->verifying) {
		fio_verify_end(td);
	} else if (fio_verify_begin(td, false)) {
		td->exhausted = false;
		fio_resume(td);
		return;
	}
	thread_finish(td);
}

static void td_handle(struct sim_component *c, unsigned type, void *ptr,
		      uint64_t arg)
{
	struct fio_thread *td = (struct fio_thread *)c;

	if (type == TD_BEGIN) {
		const struct job_options *o = td->o;
		td->iolog_t0 = sim_now(td->comp.sim);
		td->lat_watch = o->latency_target || o->max_latency[FIO_DDIR_READ] ||
				o->max_latency[FIO_DDIR_WRITE] ||
				o->max_latency[FIO_DDIR_TRIM];
		fio_lat_target_init(td);
		fio_open_files(td);
		task_start(td->task, SIM_MSG(c, TD_LOOP, NULL, 0));
	} else if (type == TD_SLEPT) {
		fio_usec_sleep(td, 0);
	} else if (type == TD_TRIMMED) {
		in_thread_done(td, td->trim.res < 0 ? td->trim.res :
			       (long)td->thread_u->len);
	} else if (type == TD_SYNCED) {
		in_thread_done(td, td->fsync.res);
	} else if (type == TD_CLOSED) {
		if (fio_close_step(td))
			return;
		if (td->closing)
			thread_exit(td);
		else
			fio_resume(td);
	} else {
		do_io(td);
	}
}

const struct sim_component_ops fio_td_ops = {
	.name = "fio.thread",
	.handle = td_handle,
};

/* A thread's start_delay. fio draws a range's once per thread, in whole
 * microseconds, both ends included (fixup_options' rand_between), from
 * the thread's start-delay generator. */
sim_time fio_start_delay(struct fio_thread *td)
{
	const struct job_options *o = td->o;
	bool use64 = o->random_generator == FIO_RANDGEN_TAUSWORTHE64;
	uint64_t lo = o->start_delay / 1000, hi = o->start_delay_high / 1000;
	struct fio_taus gen;

	if (hi <= lo)
		return o->start_delay;
	fio_taus_seed(&gen, fio_job_seed(td, FIO_TAUS_START_DELAY, true), use64);
	/* rand32_upto takes the span as 32 bits */
	uint64_t span = use64 ? hi - lo : (uint32_t)(hi - lo);
	return (lo + fio_taus_block(&gen, span + 1)) * 1000;
}

/* Start the threads of the next stonewall phase (those waiting for a job
 * of it, when that job is done); stop after the last phase. A thread of a
 * later phase waits only for what is left of its startdelay: fio's
 * run_threads compares the delay with the time since genesis, the run's
 * start, in every phase. */
void fio_start_phase(struct fio_run *r)
{
	struct sim *s = r->env.sim;

	while (r->phase < r->nphases) {
		unsigned ph = r->phase++;
		for (unsigned i = 0; i < r->threads->len; i++) {
			struct fio_thread *td = r->threads->pdata[i];
			if (td->phase != ph)
				continue;
			td->start_time = r->genesis + fio_start_delay(td);
			r->running++;
			if (!waitee_running(r, td))
				launch(r, td);
		}
		if (r->running)
			return;
	}
	s->stop = true;
}

static void run_handle(struct sim_component *c, unsigned type, void *ptr,
		       uint64_t arg)
{
	fio_start_phase((struct fio_run *)c);
}

const struct sim_component_ops fio_run_ops = {
	.name = "fio",
	.handle = run_handle,
};

