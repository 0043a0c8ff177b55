/*
 * Between the simulated fio and its I/O engines: the job thread and io_u
 * as the engines see them, and the engine ops table (fio's ioengine_ops,
 * reduced to what a simulation needs).
 *
 * Every engine hook runs inside a step of the job thread's task and, except
 * for an async queue(), ends that step: it charges its user and kernel work
 * and continues the thread with fio_resume() (directly, or from a later
 * step after sleeping), having reported each finished io_u with
 * fio_io_done().
 */
#ifndef STORSIM_FIO_ENGINE_H
#define STORSIM_FIO_ENGINE_H

#include "fio.h"
#include "block/blkdev.h"
#include "fs/vfs.h"
#include "fio_lfsr.h"
#include "fio_rand.h"
#include "fio_randmap.h"
#include "fio_taus.h"
#include "fio_replay.h"
#include "host/host.h"
#include "engine/stats.h"
#include "workloads/env.h"

struct fio_thread;
struct fio_logs;

/* A write to read back and check (fio's io_piece). */
struct fio_verify_rec {
	uint64_t offset;
	uint32_t len;
	uint32_t file;
};

struct fio_file {
	struct sfile *f;
	char *path;
	uint64_t region_start;	/* offset= */
	uint64_t io_size;	/* bytes of the region the job uses */
	uint64_t nblocks;	/* of the smallest block size: the map's */
	struct fio_randmap map;	/* uniform random picks: blocks used */
	bool lfsr_on;		/* random_generator=lfsr: the order is lfsr's */
	struct fio_lfsr lfsr;
	/* sequential position in the region, and the offset of the last
	 * I/O, per direction (fio's last_pos, last_start) */
	uint64_t pos[FIO_DDIR_COUNT];
	struct fio_rand rand;	/* zipf, pareto, normal */
	uint64_t last_start[FIO_DDIR_COUNT];
	/* get_start_offset of the file as laid out: where a round after the
	 * first and a strided zone past the file's end start (offset=N% of a
	 * file the job created: of its size then, where the first round had
	 * 0) */
	uint64_t round_origin;
	uint64_t rand_span;	/* bytes random offsets range over */
	bool round_done;	/* its pass of this round is over */
	bool pass_used;		/* an I/O was picked in its current pass */
	bool in_use;		/* opened by get_next_file, for openfiles */
	bool open;		/* fio_file_open: closed between rounds */
	/* io_us in flight on it (fio's references less the open's own), and
	 * fio_file_closing: closed while some were, so it stays open, and
	 * is passed over, until the last is reaped */
	unsigned refs;
	bool closing;
};

struct fio_io_u {
	struct fio_thread *td;
	unsigned idx;
	enum fio_ddir ddir;
	bool sync_op;		/* fsync/fdatasync */
	bool verify_read;	/* do_verify's: checked as it completes */
	bool datasync;		/* fdatasync */
	bool busy_ok;		/* fio's IO_U_F_BUSY_OK: see pick_offset */
	struct fio_file *file;
	uint64_t offset;
	uint32_t len;
	uint32_t nr_segs;
	sim_time start_time, issue_time;
	struct io_trace trace;	/* its latency by layer (io_trace.h) */
	struct kiocb kiocb;	/* for engines that call the file directly */
	struct fio_io_u *next;
};

struct fio_engine_ops {
	const char *name;
	bool sync;	/* queue() performs the whole I/O and resumes */
	bool needs_kernel;	/* opens files (not the null engine) */
	/* Set up; refuse what is not modelled. Not required. */
	bool (*init)(struct fio_thread *td, GError **err);
	void (*cleanup)(struct fio_thread *td);
	/* Async: prepare u for the next commit, in the current step. Sync:
	 * do the I/O, report it and resume. Required. */
	void (*queue)(struct fio_thread *td, struct fio_io_u *u);
	/* Submit what queue() prepared; set each io_u's issue_time. */
	void (*commit)(struct fio_thread *td);
	/* Reap between min and max completions. */
	void (*getevents)(struct fio_thread *td, unsigned min, unsigned max);
	/* Whether queue() would answer FIO_Q_BUSY now: fio then reaps
	 * before it queues again. Not required. */
	bool (*busy)(const struct fio_thread *td);
};

struct fio_thread {
	struct sim_component comp;	/* first: events and the rng */
	struct fio_run *run;
	const struct job *job;
	const struct job_options *o;
	unsigned clone;		/* 0 for the job, then 1.. in thread order */
	unsigned jobnum;	/* fio's subjob_number: 0, then numjobs-1 down */
	unsigned phase;
	unsigned index;		/* among all threads, fio's job number */
	char name[80];
	struct task *task;
	bool trace_layers;	/* stamps collected: fio_run_trace_layers, --timeline */
	bool report_layers;	/* fio_run_trace_layers: in the output too */
	bool layer_tails;	/* ... with each layer's percentiles */
	struct io_timeline *iotl;	/* --timeline: its I/Os' spans, or NULL */
	unsigned iotl_job;
	const struct fio_engine_ops *eng;
	void *eng_data;
	uint32_t page_size;

	struct fio_file *files;
	unsigned nfiles, next_file;
	/* fio's generators: of uniform random offsets (random_state), of
	 * the direction of a mixed job (rwmix_state) and of percentage_random
	 * per direction (seq_rand_state), of block sizes per direction
	 * (bsrange_state), of the next file (next_file_state), of the zone
	 * of a zoned distribution (zone_state), of file sizes
	 * (file_size_state); whether a
	 * new loop seeds the
	 * offsets' as tausworthe64 */
	struct fio_taus offsets, rwmix, seq_rand[FIO_DDIR_COUNT],
		bs_rand[FIO_DDIR_COUNT], file_rand, zone_rand, file_size_rand;
	/* zipf, pareto or normal file service: the file of each I/O
	 * (next_file_zipf, next_file_gauss), seeded as next_file_state */
	struct fio_rand file_dist;
	uint32_t file_seed;
	bool picked_from_map;	/* the last offset: a random pick of the map */
	bool picked_random;	/* ... a random pick (fio's is_random) */
	bool offsets_reseed64;
	uint64_t block_seed;	/* the offsets' first seed (fio's FIO_RAND_BLOCK_OFF) */
	/* fio's rwmix cycle: the direction, and how many I/Os it issues
	 * before another is drawn (rwmix_issues); and fio's io_issues, the
	 * I/Os issued per direction, which the rwmix, fsync= and
	 * thinktime_blocks_type=issue counts read */
	enum fio_ddir rwmix_ddir;
	uint64_t rwmix_issues, ddir_issues[FIO_DDIR_COUNT];
	/* verify: the writes of this round (fio's io_hist), then read back */
	struct fio_verify_rec *vlog;
	size_t vlog_n, vlog_cap, vlog_next;
	bool verifying;		/* do_verify's reads are being issued */
	bool verify_round;	/* another round follows them */
	/* do_verify's reads so far, which fio's io_bytes and io_blocks
	 * count, and so keep_running does */
	uint64_t verify_bytes, verify_ios;
	char *error_detail;	/* what fio's log_err says of error, or NULL */
	/* latency_target: fio's latency_qd search (io_u.c lat_target_*) */
	unsigned lat_qd, lat_qd_high, lat_qd_low, lat_stable;
	sim_time lat_ts;	/* this window's start */
	uint64_t lat_blocks;	/* read/write I/Os done since the last reset */
	uint64_t lat_ios;	/* lat_blocks at the window's start */
	uint64_t lat_failed;	/* over the target this window */
	bool lat_end_run;	/* the final run at the depth found */
	bool lat_done;
	bool lat_quiesce;	/* reap all in flight before going on */
	bool lat_reset;		/* then start the final run's figures */
	bool lat_watch;		/* latency_target or a max_latency is set */
	bool verify_reopen;	/* do_verify's files are to be closed and opened */
	bool verified;		/* a verify phase ran: time split by phase */
	sim_time phase_start;	/* of the current write or verify phase */
	sim_time phase_ns[2];	/* write phases, verify phases */
	unsigned file_served;	/* I/Os to next_file in a row so far */
	bool file_picked;	/* next_file has been served since chosen */
	uint64_t zone_range;	/* zonemode=strided: bytes of a zone; 0 off */
	uint64_t zone_bytes;	/* done in this zone */
	struct fio_io_u *io_us;
	struct fio_io_u *free_io_us;
	unsigned inflight;	/* queued, committed or in the kernel */
	unsigned queued;	/* prepared, not yet committed */
	struct fio_io_u *thread_u;	/* the trim or sync in the thread */
	struct fsync_op fsync;		/* that sync (libaio's, in the thread) */
	struct fio_io_u *requeued;	/* a trim behind queued I/O (FIO_Q_BUSY) */
	bool requeue_reaped;		/* and the reap that follows is done */
	bool file_busy;		/* get_next_file's -EBUSY: reap, then fill */
	struct discard_op trim;
	/* trimwrite: the write of the blocks just trimmed is due */
	bool tw_write_due;
	struct fio_file *tw_file;
	uint64_t tw_offset, tw_len;
	bool draining;		/* full once: reaping down to iodepth_low */
	unsigned seq_left;	/* I/Os until rw=...:N takes a new offset */
	uint64_t io_size;	/* io_size=, or io_size=N% of the files */
	uint64_t io_budget;	/* bytes (io_size) */
	uint64_t bytes_issued, ios_done;
	unsigned loops_left;	/* rounds after this one (loops=) */
	unsigned files_done;	/* done for this round */
	unsigned files_in_use;	/* the files with in_use */
	bool round_wait;	/* reaping before the next round */
	uint64_t round_ios;	/* I/Os of this round so far */
	unsigned fresh_fails;	/* fills in a row that failed on a fresh pass */
	uint64_t round_bytes, round_limit;	/* issued, and do_io's limit */
	uint64_t job_size;	/* size=, up to what the files hold */
	/* fsync=/fdatasync=/end_fsync (fio's get_rw_ddir, should_fsync) */
	bool last_was_sync;
	unsigned end_fsyncs;	/* files synced at the end so far */
	bool closing;		/* closing the files after the last round */
	/* read_iolog: fio_replay.c's records, timed as iolog.c's
	 * iolog_delay times them */
	struct fio_replay *replay;
	struct trace_record rec;	/* the next record, once read */
	bool rec_read, rec_slept, replay_ended;
	sim_time rec_due;	/* when it goes */
	sim_time rec_prev;	/* the time of the record before it */
	sim_time last_issue;	/* of the last I/O or file action */
	sim_time time_offset;	/* a sleep's overshoot, carried over */
	sim_time sleep_start, sleep_delay;
	struct iolog_writer *iolog;	/* write_iolog */
	sim_time iolog_t0;		/* its times count from here */
	/* rate, rate_iops (fio's rate_ddir, usec_for_io): bytes per second
	 * per direction, bytes issued, and when the next I/O may go, in ns
	 * since rate_epoch (fio: rate_next_io_time, in microseconds since
	 * td->start: the job's start, then the ramp's end) */
	bool rated;
	uint64_t rate_bps[FIO_DDIR_COUNT], rate_issue_bytes[FIO_DDIR_COUNT];
	sim_time rate_next[FIO_DDIR_COUNT];
	sim_time rate_epoch;
	bool ramp_over;		/* fio's ramp_time_over has reset the counts */
	bool ddir_chosen;	/* next_ddir was drawn before a rate sleep */
	enum fio_ddir next_ddir;
	/* thinktime (handle_thinktime): completed reads and writes, and
	 * their count at the last think */
	uint64_t rw_completed, think_last;
	/* rate_min, rate_iops_min (check_min_rate): the window's start, and
	 * the bytes and I/Os done by then, per direction */
	bool checks_min_rate;	/* the job has a rate_min or rate_iops_min */
	bool min_rate_on;
	sim_time min_rate_since;
	uint64_t min_rate_bytes[FIO_DDIR_COUNT], min_rate_ios[FIO_DDIR_COUNT];
	/* a think or rate pause waits for the I/O in flight (io_u_quiesce),
	 * then spins and sleeps this long */
	bool pausing;
	sim_time pause_spin, pause_sleep, pause_end;
	sim_time sleep_granularity;	/* fio's ns_granularity */
	bool exhausted, started, finished, stats_on;
	bool terminate;		/* another job's exitall ended this one */
	int error;
	bool power_cut;		/* error is the power loss, not the job's own */

	sim_time start_time, ramp_end, run_deadline, end_time;
	struct task_usage usage_at_ramp;
	struct stats_config stats_cfg;
	struct job_stats *stats;
	struct fio_logs *logs;	/* NULL: the job writes no log files */
};

extern const struct fio_engine_ops fio_null_engine, fio_null_engine_sync,
	fio_sync_engine,
	fio_psync_engine, fio_vsync_engine, fio_pvsync_engine,
	fio_pvsync2_engine, fio_io_uring_engine, fio_libaio_engine;

/* The iocb flags the job's open flags give every I/O (O_DIRECT, O_SYNC,
 * O_DSYNC). */
uint32_t fio_open_flags(const struct fio_thread *td);

/* Where u collects its stamps, or NULL when the run reports no latency
 * by layer. */
static inline struct io_trace *fio_io_trace(const struct fio_thread *td,
					    struct fio_io_u *u)
{
	return td->trace_layers ? &u->trace : NULL;
}
/* Called by engines */
struct xctx *fio_xctx(struct fio_thread *td);
/* The machine the job runs on, and fio's own costs on it. */
const struct workload_env *fio_env(const struct fio_thread *td);
const struct fio_params *fio_costs(const struct fio_thread *td);
/* u left for the kernel now (its issue_time); nr I/Os went in one call. */
void fio_io_issued(struct fio_thread *td, struct fio_io_u *u);
void fio_submitted(struct fio_thread *td, unsigned nr);
/* An I/O done in queue() by an engine that has a commit hook: it counts
 * in the depth distribution, not as a submit call. */
void fio_issued_in_queue(struct fio_thread *td);
void fio_io_done(struct fio_thread *td, struct fio_io_u *u, long res);
void fio_reaped(struct fio_thread *td, unsigned nr);
void fio_resume(struct fio_thread *td);

#endif
