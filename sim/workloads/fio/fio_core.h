/*
 * The fio core's private declarations, shared by its files and not by the
 * engines (which see fio_engine.h): the run of all jobs, the stage ids of
 * fio's own CPU costs, and the functions one part of the core calls in
 * another. The parts: fio.c (parameters, accessors), fio_io_u.c (filling
 * an io_u: directions, sizes, offsets; completions), fio_file.c (the job's
 * files: names and layout at set-up, opening, the order they are served),
 * fio_verify.c, fio_lat_target.c, fio_rate.c (rate and think time),
 * fio_loop.c (the thread's loop, do_io), fio_setup.c (checking a job,
 * making its threads), fio_results.c (the output).
 */
#ifndef STORSIM_FIO_CORE_H
#define STORSIM_FIO_CORE_H

#include <glib.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "config.h"
#include "fio.h"
#include "fio_engine.h"
#include "fio_logs.h"
#include "engine/stats.h"
#include "workloads/env.h"
#include "engine/util.h"
enum { TD_BEGIN, TD_LOOP, TD_PHASE_DONE, TD_SLEPT, TD_TRIMMED, TD_SYNCED,
       TD_CLOSED };

/* fio's FIO_FSERVICE_SHIFT: a non-uniform file service draws from 2^10
 * ranges per file */
#define FSERVICE_SHIFT 10

/* What the next record of a read_iolog replay is (fio_io_u.c). */
enum replay_step { REPLAY_IO, REPLAY_WAIT, REPLAY_END };

struct fio_run {
	struct sim_component comp;
	struct workload_env env;	/* the machine it runs on */
	const struct job_list *jl;
	GPtrArray *threads;	/* struct fio_thread *, in job order */
	unsigned phase, nphases;
	unsigned running;
	sim_time genesis;	/* the run's start: startdelay counts from it */
	struct output_run out;
	GArray *out_jobs;	/* struct output_job */
	GPtrArray *owned;	/* what the output points into */
	GPtrArray *sums;	/* struct job_stats *: group_reporting sums */
	GPtrArray *extras;	/* json_object *: each job's "storsim" */
	GArray *disks;		/* struct output_disk */
	uint64_t randmap_bytes;	/* of every file's random map */
};

bool fio_another_round(struct fio_thread *td);
void fio_check_max_latency(struct fio_thread *td, const struct fio_io_u *u,
			      sim_time lat);
bool fio_close_step(struct fio_thread *td);
unsigned fio_depth(const struct fio_thread *td);
void fio_engine_cleanup(struct fio_thread *td);
void fio_file_dist_init(struct fio_thread *td);
bool fio_file_done(struct fio_thread *td, struct fio_file *f);
void fio_file_new_pass(struct fio_thread *td, struct fio_file *f);
void fio_file_served(struct fio_thread *td);
uint64_t fio_file_size(const struct fio_file *f);
bool fio_fill_io_u(struct fio_thread *td, struct fio_io_u *u);
void fio_fill_sync(struct fio_thread *td, struct fio_io_u *u,
		      struct fio_file *f, bool datasync);
bool fio_fservice_draws(const struct job_options *o);
struct fio_io_u *fio_io_u_get(struct fio_thread *td);
void fio_invalidate(const struct fio_thread *td, struct sfile *f);
void fio_io_u_init(struct fio_thread *td, struct fio_io_u *u,
		      struct fio_file *f, enum fio_ddir d, uint64_t off,
		      uint64_t len);
uint64_t fio_job_seed(struct fio_thread *td, enum fio_taus_purpose p, bool first);
void fio_lat_reset_stats(struct fio_thread *td);
void fio_lat_target_check(struct fio_thread *td);
void fio_lat_target_init(struct fio_thread *td);
void fio_lat_target_io(struct fio_thread *td, const struct fio_io_u *u,
			  sim_time lat);
bool fio_min_rate_failed(struct fio_thread *td);
void fio_next_file(struct fio_thread *td);
void fio_open_files(struct fio_thread *td);
void fio_pause_now(struct fio_thread *td);
enum fio_ddir fio_pick_ddir(struct fio_thread *td);
void fio_io_u_put(struct fio_thread *td, struct fio_io_u *u);
void fio_rate_issued(struct fio_thread *td, const struct fio_io_u *u);
sim_time fio_rate_wait(struct fio_thread *td);
bool fio_refuse(const struct job *job, const char *option, GError **err,
		   const char *why);
uint64_t fio_region_start(const struct fio_thread *td, uint64_t file_size,
			     uint64_t min_bs);
enum replay_step fio_replay_fill(struct fio_thread *td, struct fio_io_u *u);
void fio_reset_counts(struct fio_thread *td, sim_time now);
extern const struct sim_component_ops fio_run_ops;
bool fio_run_over(const struct fio_thread *td);
void fio_seed_generators(struct fio_thread *td, bool first);
struct fio_file *fio_serve_next_file(struct fio_thread *td);
bool fio_setup_files(struct fio_thread *td, GError **err);
extern stage_id st_prep, st_complete, st_loop, st_think_spin, st_usec_spin,
	st_verify;
sim_time fio_start_delay(struct fio_thread *td);
void fio_start_phase(struct fio_run *r);
void fio_start_round(struct fio_thread *td);
bool fio_sync_due(const struct fio_thread *td);
extern const struct sim_component_ops fio_td_ops;
uint64_t fio_think_counter(const struct fio_thread *td);
bool fio_think_due(const struct fio_thread *td);
bool fio_thread_done_issuing(struct fio_thread *td);
void fio_usec_sleep(struct fio_thread *td, sim_time busy);
bool fio_verify_begin(struct fio_thread *td, bool round_follows);
sim_time fio_verify_cost(const struct fio_thread *td, uint64_t len,
			    bool write);
void fio_verify_end(struct fio_thread *td);
bool fio_verify_fill(struct fio_thread *td, struct fio_io_u *u);
bool fio_verify_follows(const struct fio_thread *td);
void fio_verify_log(struct fio_thread *td, const struct fio_io_u *u);
void fio_verify_phase_switch(struct fio_thread *td);
void fio_verify_settle(struct fio_thread *td);
bool fio_verify_wanted(const struct job_options *o);

bool G_GNUC_PRINTF(5, 6)
fio_refuse_new_file(const struct job *job, const char *option, GError **err,
		    const char *path, const char *why_fmt, ...);
#endif

