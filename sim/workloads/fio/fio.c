/*
 * fio, simulated: job threads, their I/O units and the run around them.
 *
 * Stands for fio 3.33's backend.c (thread_main, do_io: get an io_u, queue
 * it, commit when iodepth_batch is reached, wait for completions when the
 * queue is full, quiesce at the end), io_u.c (get_io_u: data direction by
 * rwmix, block size from bs/bsrange/bssplit, offset sequential or random
 * with or without a random map; io_completed: slat/clat/lat), filesetup.c
 * (file names, sizes, layout of files that do not exist yet) and init.c
 * (numjobs clones, stonewall groups). Each job thread is a simulated task
 * running fio's loop; its CPU time is what fio itself costs (host profile
 * model "fio") plus the kernel paths its engine calls.
 *
 * Times follow fio: start_time when the io_u is queued, issue_time when the
 * submission returns (slat between), completion when fio reaps it (clat
 * from issue, lat from start). Synchronous engines record no slat.
 *
 * Parameters (host profile, model "fio"), user CPU time (ns): io_u_prep,
 * io_u_complete, loop, sqe_prep, cqe_reap, aio_prep, event_reap; per KiB
 * (ns/KiB): verify_fill and one verify_ALGO per checksum.
 *
 * latency_target: fio's depth search (lat_target_*), the depth the loop
 * queues to changing per latency_window; max_latency fails the job.
 *
 * verify: each write is filled and summed; after each round do_verify
 * syncs the files, drops their cache and reads the round's writes back
 * (fio's io_hist: in write order with a random map, else sorted by offset
 * and each block once), summing each read as it completes.
 *
 * Rate limits (rate, rate_iops; rate_process linear or poisson) and
 * think times (thinktime, thinktime_spin, thinktime_blocks) pause the loop
 * as fio's rate_ddir and handle_thinktime do: reap everything in flight
 * (io_u_quiesce), spin, then nanosleep, which ends the host's timer slack
 * late. Rates count from the job's start.
 *
 * Left out (refused when set, see check_modelled): thinktime counted by
 * time (thinktime_iotime), non-uniform file_service_type, verify's meta
 * and pattern checks and its backlog and async modes. The random map is
 * fio's rule (a drawn block, or the next free one after it:
 * fio_randmap.c), and the random numbers that choose files, directions,
 * offsets and sizes are fio's own (fio_taus.c, fio_rand.c). Laying out a
 * new file takes no simulated time.
 */
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
#include "system/report.h"
#include "system/system.h"
#include "engine/util.h"

#define P(field) offsetof(struct fio_params, field)
const struct param_def fio_param_table[] = {
	{"io_u_prep_ns", PARAM_TIME, P(io_u_prep), "100", 0, 1e6, "ns",
	 "get_io_u: direction, block size, offset, timestamps"},
	{"io_u_complete_ns", PARAM_TIME, P(io_u_complete), "100", 0, 1e6, "ns",
	 "io_completed: latencies, statistics, put the io_u"},
	{"loop_ns", PARAM_TIME, P(loop), "20", 0, 1e6, "ns",
	 "one pass of do_io's loop"},
	{"sqe_prep_ns", PARAM_TIME, P(sqe_prep), "20", 0, 1e6, "ns",
	 "io_uring engine: fill one SQE"},
	{"cqe_reap_ns", PARAM_TIME, P(cqe_reap), "15", 0, 1e6, "ns",
	 "io_uring engine: read one CQE"},
	{"aio_prep_ns", PARAM_TIME, P(aio_prep), "20", 0, 1e6, "ns",
	 "libaio engine: prepare one iocb"},
	{"event_reap_ns", PARAM_TIME, P(event_reap), "15", 0, 1e6, "ns",
	 "libaio engine: read one io_event"},
	/* fio 3.33 on the development machine (docs/benchmarks.md): the
	 * checksums from fio --crctest's MiB/s; the fill from its null engine
	 * writing 4 GiB in 1 MiB blocks with verify=crc32c and md5,
	 * do_verify=0, less the checksum (207 and 217 ns/KiB). */
	{"verify_fill_ns_per_kib", PARAM_DOUBLE, P(verify_fill), "210", 0, 1e6,
	 "ns/KiB", "verify: fill a write's buffer with random data and its "
	 "verify header"},
#define SUM(name, field, def) \
	{"verify_" name "_ns_per_kib", PARAM_DOUBLE, \
	 P(verify_sum[FIO_VERIFY_##field]), def, 0, 1e7, "ns/KiB", \
	 "verify=" name ": checksum a block, as each write is filled and " \
	 "each verify read is checked"}
	SUM("md5", MD5, "1464"),
	SUM("crc64", CRC64, "2243"),
	SUM("crc32", CRC32, "2525"),
	SUM("crc32c", CRC32C, "105"),
	SUM("crc16", CRC16, "2272"),
	SUM("crc7", CRC7, "1965"),
	SUM("sha1", SHA1, "1314"),
	SUM("sha256", SHA256, "2943"),
	SUM("sha512", SHA512, "1880"),
	SUM("sha3_224", SHA3_224, "12870"),
	SUM("sha3_256", SHA3_256, "13533"),
	SUM("sha3_384", SHA3_384, "17863"),
	SUM("sha3_512", SHA3_512, "26437"),
	SUM("xxhash", XXHASH, "318"),
#undef SUM
	PARAM_END,
};

enum { TD_BEGIN, TD_LOOP, TD_PHASE_DONE, TD_SLEPT, TD_TRIMMED, TD_SYNCED,
       TD_CLOSED };

struct fio_run {
	struct sim_component comp;
	struct system *sys;
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
};

static stage_id st_prep, st_complete, st_loop, st_think_spin, st_usec_spin,
	st_verify;

static const struct {
	enum fio_ioengine id;
	const struct fio_engine_ops *ops;
} engines[] = {
	{FIO_ENGINE_NULL, &fio_null_engine},
	{FIO_ENGINE_SYNC, &fio_sync_engine},
	{FIO_ENGINE_PSYNC, &fio_psync_engine},
	{FIO_ENGINE_VSYNC, &fio_vsync_engine},
	{FIO_ENGINE_PVSYNC, &fio_pvsync_engine},
	{FIO_ENGINE_PVSYNC2, &fio_pvsync2_engine},
	{FIO_ENGINE_LIBAIO, &fio_libaio_engine},
	{FIO_ENGINE_IO_URING, &fio_io_uring_engine},
};

struct xctx *fio_xctx(struct fio_thread *td)
{
	return task_xctx(td->task);
}

struct system *fio_system(struct fio_thread *td)
{
	return td->run->sys;
}

uint32_t fio_open_flags(const struct fio_thread *td)
{
	uint32_t f = td->o->direct ? KI_DIRECT : 0;

	if (td->o->sync == FIO_SYNC_DSYNC)
		f |= KI_DSYNC;
	else if (td->o->sync == FIO_SYNC_SYNC)
		f |= KI_DSYNC | KI_SYNC;
	return f;
}

/* ---- offsets, sizes, directions ---- */

/* A new pass over f (fio_file_reset): its random map cleared, or for an
 * lfsr job its register back at the offsets' seed; the position at the
 * region's start, and no last I/O, which rw_sequencer=identical repeats as
 * the region's start. */
static void file_new_pass(struct fio_thread *td, struct fio_file *f)
{
	if (f->map.nlevels)
		fio_randmap_clear(&f->map);
	if (f->lfsr_on)
		fio_lfsr_reset(&f->lfsr, td->block_seed);
	memset(f->pos, 0, sizeof(f->pos));
	memset(f->last_start, 0, sizeof(f->last_start));
	f->pass_used = false;
}

/* fio's FIO_FSERVICE_SHIFT: a non-uniform file service draws from 2^10
 * ranges per file */
#define FSERVICE_SHIFT 10

/* Whether the service draws its files, and so the first of a round. */
static bool fservice_draws(const struct job_options *o)
{
	return o->file_service == FIO_FSERVICE_RANDOM || fio_fservice_nonuniform(o->file_service);
}

/* init_rand_file_service: 1024 ranges per file, as each seeding sets it
 * up again */
static void file_dist_init(struct fio_thread *td)
{
	const struct job_options *o = td->o;

	if (fio_fservice_nonuniform(o->file_service) && td->nfiles)
		fio_rand_init(&td->file_dist, (enum fio_rand_dist)o->file_service,
			      o->fsrv_param, o->fsrv_center,
			      (uint64_t)td->nfiles << FSERVICE_SHIFT,
			      td->file_seed, false);
}

/* The seed of the job's generator for purpose p; at set-up, where fio
 * would seed from /dev/urandom, one from the job's stream. */
static uint64_t job_seed(struct fio_thread *td, enum fio_taus_purpose p, bool first)
{
	return fio_taus_job_seed(td->o, p, td->index + 1,
				 first ? sim_rng_next(&td->comp.rng) : 0);
}

/* fio's generators of the job, seeded as td_fill_rand_seeds seeds them:
 * at set-up (first) and for each loop under randrepeat, when a file of
 * more than 2^32 blocks has switched an unchosen generator to 64 bits
 * (check_rand_gen_limits). The rwmix, zone and percentage_random ones
 * are 32-bit whatever random_generator says. */
static void seed_generators(struct fio_thread *td, bool first)
{
	const struct job_options *o = td->o;
	bool use64 = o->random_generator == FIO_RANDGEN_TAUSWORTHE64 ||
		     td->offsets_reseed64;
	uint64_t block_seed = job_seed(td, FIO_TAUS_OFFSET, first);

	if (first)
		td->block_seed = block_seed;
	fio_taus_seed(&td->offsets, block_seed, use64);
	fio_taus_seed(&td->rwmix, job_seed(td, FIO_TAUS_RWMIX, first), false);
	fio_taus_seed(&td->file_size_rand, job_seed(td, FIO_TAUS_FILE_SIZE, first), use64);
	fio_taus_seed(&td->zone_rand, job_seed(td, FIO_TAUS_ZONE, first), false);
	uint64_t file_seed = job_seed(td, FIO_TAUS_FILE, first);
	fio_taus_seed(&td->file_rand, file_seed, use64);
	/* fio hands the zipf, pareto and normal file service an unsigned
	 * int of it */
	td->file_seed = (uint32_t)file_seed;
	file_dist_init(td);
	/* block sizes: a verifying job's writes take the reads' seed, a
	 * trimwrite's trims the writes' */
	uint64_t bs_seed[FIO_DDIR_COUNT];
	for (unsigned d = 0; d < FIO_DDIR_COUNT; d++)
		bs_seed[d] = job_seed(td, FIO_TAUS_BS + d, first);
	if (o->verify != FIO_VERIFY_NONE)
		bs_seed[FIO_DDIR_WRITE] = bs_seed[FIO_DDIR_READ];
	if (fio_rw_does(o->rw, FIO_DDIR_TRIM) && fio_rw_does(o->rw, FIO_DDIR_WRITE))
		bs_seed[FIO_DDIR_TRIM] = bs_seed[FIO_DDIR_WRITE];
	for (unsigned d = 0; d < FIO_DDIR_COUNT; d++)
		fio_taus_seed(&td->bs_rand[d], bs_seed[d], use64);
	/* fio seeds each direction's from the reads' seed */
	uint64_t seq_seed = job_seed(td, FIO_TAUS_SEQ_RAND_READ, first);
	for (unsigned d = 0; d < FIO_DDIR_COUNT; d++)
		fio_taus_seed(&td->seq_rand[d], seq_seed, false);
}

/* fio's rand_between(state, 1, 100): a percentage from 1 to 100. */
static unsigned percent_draw(struct fio_taus *t)
{
	return 1 + (unsigned)fio_taus_block(t, 100);
}

static enum fio_ddir pick_ddir(struct fio_thread *td)
{
	const struct job_options *o = td->o;
	bool r = fio_rw_does(o->rw, FIO_DDIR_READ);
	bool w = fio_rw_does(o->rw, FIO_DDIR_WRITE);

	/* trimwrite: a trim, then a write of the same blocks, and again */
	if (fio_rw_does(o->rw, FIO_DDIR_TRIM))
		return w && td->tw_write_due ? FIO_DDIR_WRITE : FIO_DDIR_TRIM;
	if (!(r && w))
		return w ? FIO_DDIR_WRITE : FIO_DDIR_READ;
	/* get_rw_ddir: a direction is drawn once the current one has issued
	 * its share of the other's issues so far (set_rwmix_bytes), so the
	 * mix comes in runs where one direction lags. */
	if (td->ddir_issues[td->rwmix_ddir] >= td->rwmix_issues) {
		enum fio_ddir d = percent_draw(&td->rwmix) <= o->rwmix[FIO_DDIR_READ] ?
				  FIO_DDIR_READ : FIO_DDIR_WRITE;
		if (d != td->rwmix_ddir)
			td->rwmix_issues = td->ddir_issues[td->rwmix_ddir] *
					   o->rwmix[d] / 100;
		td->rwmix_ddir = d;
	}
	return td->rwmix_ddir;
}

/* fio's mark_random_map: an I/O longer than the block its offset took
 * uses the blocks after it too, in units of the direction's smallest
 * block, up to the first one already used, where it is cut short. */
static uint64_t mark_covered(struct fio_file *f, uint64_t minbs, uint64_t rel,
			     uint64_t len)
{
	uint64_t n = (len + minbs - 1) / minbs;
	uint64_t used = 1 + fio_randmap_take_run(&f->map, rel / minbs + 1, n - 1);

	return MIN(len, used * minbs);
}

/* fio's io_u_fits: an I/O of len at rel ends within io_size of the
 * file's start offset, wherever a zone has moved region_start. fio asks
 * get_start_offset anew, of the file's size now: for offset=N% of a file
 * the job created, N% of its laid-out size even in the first round, whose
 * region starts at 0 (then fill_io_u's check of the file's end ends the
 * pass). */
static bool io_fits(const struct fio_file *f, uint64_t rel, uint64_t len)
{
	return f->region_start + rel + len <= f->round_origin + f->io_size;
}

/*
 * fio's get_next_buflen: a size between min_bs and max_bs, drawn after the
 * offset, again until the I/O fits (false when not even min_bs does).
 * bsrange: min_bs + max_bs * u, cut down to a multiple of min_bs (not
 * with bs_unaligned) and to max_bs, so that the sizes are about uniform
 * in steps of min_bs. bssplit: the first size, in order of increasing
 * share (fio sorts them), whose running share covers the draw and that
 * fits. min_bs and max_bs come from
 * whichever of bsrange and bssplit the job gave last, so a listed size
 * below a later bsrange's minimum comes out as 0, which fio takes as no
 * size at all: the file's pass ends as when none fits.
 */
static bool pick_buflen(struct fio_thread *td, const struct fio_file *f,
			enum fio_ddir d, uint64_t rel, uint64_t *len)
{
	const struct job_options *o = td->o;
	struct fio_taus *t = &td->bs_rand[d];
	uint64_t minbs = o->min_bs[d], maxbs = o->max_bs[d], buflen = 0;

	if (!io_fits(f, rel, minbs))
		return false;
	do {
		if (!o->bssplit_nr[d]) {
			buflen = minbs + fio_taus_block(t, maxbs);
		} else {
			uint64_t r = fio_taus_next(t), share = 0;
			for (unsigned i = 0; i < o->bssplit_nr[d]; i++) {
				const struct fio_bssplit *b = &o->bssplit[d][i];
				if (!b->perc)
					continue;
				buflen = b->bs;
				share += b->perc;
				if (r / share <= fio_taus_max(t) / 100 &&
				    io_fits(f, rel, buflen))
					break;
			}
		}
		if (!o->bs_unaligned)
			buflen -= !(minbs & (minbs - 1)) ? buflen & (minbs - 1) :
							   buflen % minbs;
		buflen = MIN(buflen, maxbs);
	} while (!io_fits(f, rel, buflen));
	*len = buflen;
	return buflen != 0;
}

/* fio's last_block: the multiples of blockalign that leave room for the
 * smallest block, the number a uniform pick draws from; none in a strided
 * zone smaller than the block. */
static uint64_t last_block(const struct fio_file *f, const struct job_options *o,
			   enum fio_ddir d)
{
	uint64_t room = f->rand_span - (o->min_bs[d] > o->ba[d] ?
					o->min_bs[d] - o->ba[d] : 0);

	return udiv_fast(room, o->ba[d]);
}

/* __get_next_rand_offset without a map: a block of span, or with an
 * lfsr the register's next block of the whole file, whatever the span
 * (false once it has given them all) */
static bool rand_offset(struct fio_thread *td, struct fio_file *f,
			uint64_t span, uint64_t *b)
{
	if (f->lfsr_on)
		return fio_lfsr_next(&f->lfsr, b);
	*b = fio_taus_block(&td->offsets, span);
	return true;
}

/*
 * fio's __get_next_rand_offset_zoned and _zoned_abs: a percentage from
 * the zone generator picks the zone whose access share covers it (fio's
 * zone_state_index), the offsets' generator a block inside the zone; an
 * lfsr's block lands anywhere past the zone's start, and past the region
 * it does not fit. False where fio's fill fails: a zoned_abs zone past the
 * region, or an lfsr that has given every block.
 */
static bool pick_zoned(struct fio_thread *td, struct fio_file *f,
		       enum fio_ddir d, uint64_t lastb, uint64_t *b)
{
	const struct job_options *o = td->o;
	const struct fio_zone_split *z = o->zones[d];
	uint64_t size_before = 0;
	unsigned nz = o->zones_nr[d], v, access_before = 0, perc_before = 0, i = 0;

	if (!nz)
		return rand_offset(td, f, lastb, b);
	v = percent_draw(&td->zone_rand);
	while (i + 1 < nz && v > access_before + z[i].access_perc) {
		access_before += z[i].access_perc;
		perc_before += z[i].size_perc;
		size_before += z[i].size;
		i++;
	}
	if (o->random_distribution == FIO_RAND_ZONED_ABS) {
		uint64_t start = size_before / o->ba[d];
		uint64_t end = (size_before + z[i].size) / o->ba[d];
		if (end > lastb || !rand_offset(td, f, end - start, b))
			return false;
		*b += start;
		return true;
	}
	if (!rand_offset(td, f, lastb * z[i].size_perc / 100, b))
		return false;
	*b += perc_before * lastb / 100;
	return true;
}

/* The file's size (the null engine's: the end of the job's region). */
static uint64_t file_size(const struct fio_file *f)
{
	return f->f ? f->f->size : f->round_origin + f->io_size;
}

/*
 * What fio's get_next_offset and get_next_buflen ask of a random pick:
 * that it starts inside io_size and the file, and that the smallest block
 * it may take, bs, fits from there (io_u_fits). Not that it lies in the span
 * the draw came from: a map or LFSR of blocks smaller than this
 * direction's hands out blocks past the span, which fail these checks only
 * where the span is the region, not a strided zone (a 128 KiB zone's map
 * of 4 KiB blocks takes 8 KiB writes up to 248 KiB from its start).
 */
static bool random_pick_fits(const struct fio_file *f, uint64_t rel,
			     uint64_t bs)
{
	return rel < f->io_size && f->region_start + rel < file_size(f) &&
	       io_fits(f, rel, bs);
}

/* How a random pick came out: a block that fits; none left to draw
 * (get_next_rand_offset failed: the pass is over, unless a time_based job
 * or a non-uniform file service starts it again); or a block that fails
 * get_next_offset's or get_next_buflen's checks, which ends the pass. */
enum rand_pick {
	RAND_OK,
	RAND_NONE,
	RAND_NO_FIT,
};

/* A random offset in f for a bs-sized I/O in direction d, relative to the
 * region. With mark false a block from the random map stays free (fio's
 * IO_U_F_BUSY_OK: mark_random_map skips it). */
static enum rand_pick pick_random(struct fio_thread *td, struct fio_file *f,
				  enum fio_ddir d, uint64_t bs, bool mark,
				  uint64_t *rel)
{
	const struct job_options *o = td->o;
	/* Block b is at b times the direction's blockalign, also where the
	 * span is not a whole number of blocks (fio's get_next_block: b *
	 * ba[ddir]; the map's bit b stands for it, whatever the map's own
	 * block size). */
	uint64_t align = o->ba[d], lastb;

	if (o->random_distribution != FIO_RAND_UNIFORM &&
	    o->random_distribution != FIO_RAND_ZONED &&
	    o->random_distribution != FIO_RAND_ZONED_ABS) {
		/* fio keeps no random map for the distributions, so a pass
		 * never ends; the ranges cover io_size from wherever the
		 * region (or a strided zone) starts, so an I/O can run past
		 * its end: it does not fit (get_next_buflen) and fio's fill
		 * ends the pass */
		*rel = fio_rand_next(&f->rand) * align;
		return io_fits(f, *rel, bs) ? RAND_OK : RAND_NO_FIT;
	}
	/* fio's get_next_rand_offset ends the pass where not one block
	 * fits the span */
	lastb = last_block(f, o, d);
	if (!lastb)
		return RAND_NONE;
	if (o->random_distribution != FIO_RAND_UNIFORM) {
		uint64_t b;
		if (!pick_zoned(td, f, d, lastb, &b))
			return RAND_NONE;
		*rel = b * align;
	} else if (o->norandommap && o->random_generator != FIO_RANDGEN_LFSR) {
		/* lfsr visits every block once per pass without a map, as
		 * the map does (fio's filesetup.c: no axmap with an LFSR). */
		*rel = fio_taus_block(&td->offsets, lastb) * align;
	} else if (f->map.nlevels) {
		uint64_t drawn = fio_taus_block(&td->offsets,
				MIN(lastb, f->nblocks));
		uint64_t b = mark ? fio_randmap_take(&f->map, drawn) :
			     fio_randmap_next_free(&f->map, drawn);
		if (b == FIO_RANDMAP_NONE)
			return RAND_NONE;
		*rel = b * align;
		td->picked_from_map = mark;
	} else {
		/* lfsr: every block once per pass, in the register's order,
		 * over blocks of the smallest size, as the map's */
		uint64_t b;
		if (!fio_lfsr_next(&f->lfsr, &b))
			return RAND_NONE;
		*rel = b * align;
	}
	/* a pick that fails these ends the file's pass (do_io) */
	return random_pick_fits(f, *rel, bs) ? RAND_OK : RAND_NO_FIT;
}

/*
 * zonemode=strided (fio's setup_strided_zone_mode), before each read or
 * write: after zonesize bytes the region moves zonerange + zoneskip on,
 * back to the file's start offset past its end; within a zone the offsets
 * go round zonerange bytes, and the random order starts over each time.
 */
static void zone_step(struct fio_thread *td, struct fio_file *f, enum fio_ddir d)
{
	const struct job_options *o = td->o;

	if (td->zone_bytes >= o->zone_size) {
		td->zone_bytes = 0;
		f->region_start += td->zone_range + o->zone_skip;
		/* get_start_offset, asked now: of the laid-out file, and
		 * its end under file_append */
		if (f->region_start >= file_size(f))
			f->region_start = f->round_origin;
		f->pos[d] = 0;
	}
	if (f->pos[d] >= td->zone_range)
		f->pos[d] = 0;
	/* fio_file_reset: every direction starts the zone again */
	if (td->zone_bytes % td->zone_range == 0) {
		if (fio_rw_random(o->rw))
			file_new_pass(td, f);
		memset(f->pos, 0, sizeof(f->pos));
	}
}

/* What fio's sequential pick found. */
enum seq_pick {
	SEQ_OK,
	SEQ_PAST_END,	/* get_next_seq_offset: past the file's end */
	SEQ_NO_FIT,	/* get_next_offset's or get_next_buflen's checks */
};

/*
 * fio's get_next_seq_offset, with get_next_offset's and get_next_buflen's
 * checks: the next sequential offset in f, relative to the region. Past
 * the end of the file, a random job's in-between I/O takes a random block
 * instead (get_next_block); an offset inside the file whose I/O does not
 * fit ends the pass (fill_io_u), as at the partial last block of a file
 * of size=1m/3. rw=NAME:N leaves a hole of N bytes after
 * each I/O but the first; a hole that runs past the end of the file starts
 * the file over (fio's "holed IO" wrap), so rw=read:4k goes round a 1 MiB
 * file until its bytes are issued, while rw=read:8k, whose last hole ends
 * at the end of the file, makes one pass. A negative N steps back: past
 * the region's start (fio's unsigned sum runs past the file) it goes on
 * from N before the region's end, and a job whose region does not start
 * at 0 begins there on its second I/O ("only rewind if we already hit the
 * end").
 */
static enum seq_pick seq_next(const struct fio_thread *td,
			      const struct fio_file *f, enum fio_ddir d,
			      uint64_t bs, uint64_t *rel)
{
	uint64_t real = file_size(f);
	uint64_t pos = f->pos[d];
	int64_t add = td->o->rw_seq_add;
	/* fio's end of the region for a backward job: io_size taken as an
	 * offset in the file, as fio's last_pos takes it */
	uint64_t end = MIN(real, f->io_size);

	if (f->region_start + pos >= real)
		return SEQ_PAST_END;
	if (add < 0 && !pos && f->region_start)
		pos = end - f->region_start;
	if (pos && add) {
		pos += (uint64_t)add;
		if (pos >= real)	/* fio compares the relative offset */
			pos = add > 0 ? f->region_start : end + (uint64_t)add;
	}
	*rel = pos;
	/* io_u_fits (io_fits) */
	if (!io_fits(f, pos, bs) ||
	    f->region_start + pos >= real)
		return SEQ_NO_FIT;
	return SEQ_OK;
}

#define NO_PICK UINT64_MAX

/* Where a fill that failed after picking rel leaves its io_u's offset,
 * which a sync on that io_u then logs (write_iolog): get_next_block sets
 * the pick, and get_next_offset adds the region's start only once the
 * pick is inside io_size. */
static void fill_failed_at(struct fio_io_u *u, const struct fio_file *f,
			   uint64_t rel)
{
	if (rel != NO_PICK)
		u->offset = rel >= f->io_size ? rel : f->region_start + rel;
}

/* The direction whose sizes an I/O of direction d takes: its own, or with
 * bs_is_seq_rand the write values for an offset that came at random and
 * the read values for one that came in sequence (fio's is_random). */
static inline enum fio_ddir size_ddir(const struct job_options *o,
				      enum fio_ddir d, bool random)
{
	if (__builtin_expect(!o->bs_is_seq_rand, 1))
		return d;
	return random ? FIO_DDIR_WRITE : FIO_DDIR_READ;
}

/* The smallest size such an I/O takes, which the checks that it fits
 * take: bs, d's, or the other direction's under bs_is_seq_rand. */
static inline uint64_t fit_bs(const struct job_options *o, enum fio_ddir d,
			      uint64_t bs, bool random)
{
	if (__builtin_expect(!o->bs_is_seq_rand, 1))
		return bs;
	return o->min_bs[size_ddir(o, d, random)];
}

static void invalidate(const struct fio_thread *td, struct sfile *f);

/* loop_cache_invalidate, as a time_based job or a non-uniform file
 * service starts a file's pass again: under invalidate=1, buffered I/O
 * only. */
static void loop_invalidate(const struct fio_thread *td, struct fio_file *f)
{
	if (!td->o->direct)
		invalidate(td, f->f);
}

/* get_next_rand_block, once get_next_rand_offset has found no block: in a
 * time_based job and under a non-uniform file service the file starts its
 * pass again (fio_file_reset) and picks once more, within the same
 * get_next_offset (no new rw=...:N count, no new percentage_random draw).
 * Out of the way of the picks that succeed. */
static __attribute__((noinline, cold)) enum rand_pick
pick_random_anew(struct fio_thread *td, struct fio_file *f, enum fio_ddir d,
		 uint64_t bs, bool mark, uint64_t *rel)
{
	if (!td->o->time_based && !fio_fservice_nonuniform(td->o->file_service))
		return RAND_NONE;
	file_new_pass(td, f);
	loop_invalidate(td, f);
	return pick_random(td, f, d, bs, mark, rel);
}

/* get_next_rand_block */
static inline enum rand_pick rand_block(struct fio_thread *td,
					struct fio_file *f, enum fio_ddir d,
					uint64_t bs, bool mark, uint64_t *rel)
{
	enum rand_pick r = pick_random(td, f, d, bs, mark, rel);

	if (__builtin_expect(r == RAND_NONE, 0))
		r = pick_random_anew(td, f, d, bs, mark, rel);
	return r;
}

/* get_next_seq_offset's start: a time_based job with one file goes back
 * to the region's start (a strided zone's) once its last I/O has reached
 * io_size past get_start_offset, asked anew: under file_append, of the
 * laid-out file, so a job that created its file never goes back. */
static inline void seq_wrap(struct fio_thread *td, struct fio_file *f,
			    enum fio_ddir d)
{
	if (__builtin_expect(td->o->time_based, 0) && td->nfiles == 1 &&
	    f->region_start + f->pos[d] >= f->round_origin + f->io_size) {
		f->pos[d] = 0;
		loop_invalidate(td, f);
	}
}

/*
 * The next offset in f for a bs-sized I/O in direction d, filled into u,
 * or false at the end of a pass. As fio's get_next_offset: with
 * rw=randNAME:N only every Nth I/O takes a new offset, the ones between go
 * on from the last I/O (rw_sequencer=sequential) or repeat it (identical);
 * a new offset is random with probability percentage_random, else it goes
 * on from the last I/O too, and where that runs off the region it is
 * random after all (a time_based job with one file starts the region
 * again instead).
 *
 * get_next_block marks every pick but a new random one IO_U_F_BUSY_OK,
 * and only io_completed clears the mark: it stays on an io_u through a
 * fill that failed (the file was done, the next file is tried) and back
 * in the free list, and a random block picked while it is on stays free
 * in the map (mark_random_map skips it), to be picked again later.
 */
static bool pick_offset(struct fio_thread *td, struct fio_io_u *u,
			struct fio_file *f, enum fio_ddir d, uint64_t bs,
			uint64_t *off)
{
	const struct job_options *o = td->o;
	bool random = fio_rw_random(o->rw);
	bool new_offset = --td->seq_left == 0;
	uint64_t rel = NO_PICK;

	td->picked_from_map = false;
	td->picked_random = false;
	if (new_offset)
		td->seq_left = o->rw_seq_nr;
	else
		u->busy_ok = true;
	if (!new_offset && o->rw_sequencer == FIO_RWSEQ_IDENTICAL) {
		rel = f->last_start[d];
	} else if (!random) {
		seq_wrap(td, f, d);
		if (seq_next(td, f, d, fit_bs(o, d, bs, false), &rel) != SEQ_OK)
			goto failed;
	} else if (new_offset && (o->percentage_random[d] >= 100 ||
				  percent_draw(&td->seq_rand[d]) <=
				  o->percentage_random[d])) {
		uint64_t rbs = fit_bs(o, d, bs, true);
		if (rand_block(td, f, d, rbs, !u->busy_ok, &rel) != RAND_OK)
			goto failed;
		td->picked_random = true;
	} else {
		/* the random block a sequential pick falls back to at the
		 * end of the file stays free in the map too */
		u->busy_ok = true;
		seq_wrap(td, f, d);
		uint64_t sbs = fit_bs(o, d, bs, false);
		enum seq_pick seq = seq_next(td, f, d, sbs, &rel);
		if (seq == SEQ_NO_FIT ||
		    (seq == SEQ_PAST_END &&
		     rand_block(td, f, d, sbs, false, &rel) != RAND_OK))
			goto failed;
	}
	f->last_start[d] = rel;
	f->pos[d] = rel + bs;
	*off = f->region_start + rel;
	return true;
failed:
	fill_failed_at(u, f, rel);
	return false;
}

/* Ended by another job (exitall) or by its runtime. */
static bool run_over(const struct fio_thread *td)
{
	return td->terminate ||
	       (td->run_deadline && sim_now(td->comp.sim) >= td->run_deadline);
}

static bool thread_done_issuing(struct fio_thread *td)
{
	return run_over(td) || td->exhausted || td->error || td->lat_done;
}

/* fio's exceeds_number_ios: reads, writes and trims done, plus every I/O
 * in flight, syncs included; number_ios is per loop. do_io does not ask
 * it of a time_based job. */
static bool number_ios_reached(const struct fio_thread *td)
{
	const struct job_options *o = td->o;

	return o->number_ios && !o->time_based &&
	       td->rw_completed + td->inflight >=
			o->number_ios * MAX(o->loops, 1u);
}

/* fio's get_rw_ddir: once the write count is a multiple of fsync=
 * (fdatasync=), the next I/O is an fsync (fdatasync) of the next file,
 * and so is every I/O after it until a sync completes (fio's
 * last_was_sync): a read completing in between asks for one more. */
static bool sync_due(const struct fio_thread *td)
{
	const struct job_options *o = td->o;
	uint64_t n = td->ddir_issues[FIO_DDIR_WRITE];

	if (td->last_was_sync || !n)
		return false;
	return (o->fsync_blocks && n % o->fsync_blocks == 0) ||
	       (o->fdatasync_blocks && n % o->fdatasync_blocks == 0);
}

/*
 * Set u up for an I/O of len bytes at off in f. The kiocb is left as it
 * is: the engines that use it set it whole, and zeroing it for every I/O
 * showed in the profile.
 */
static void io_u_init(struct fio_thread *td, struct fio_io_u *u,
		      struct fio_file *f, enum fio_ddir d, uint64_t off,
		      uint64_t len)
{
	u->td = td;
	u->ddir = d;
	u->sync_op = false;
	u->verify_read = false;
	u->datasync = false;
	u->file = f;
	u->offset = off;
	u->len = (uint32_t)len;
	u->nr_segs = (uint32_t)udiv_fast(umod_fast(off, td->page_size) + len +
					 td->page_size - 1, td->page_size);
	u->start_time = 0;
	u->issue_time = 0;
	u->next = NULL;
}

/* A sync keeps the offset its io_u had last (0 if never used), as fio's
 * __get_io_u clears the length and not the offset: write_iolog shows it. */
static void fill_sync(struct fio_thread *td, struct fio_io_u *u,
		      struct fio_file *f, bool datasync)
{
	unsigned idx = u->idx;
	uint64_t stale_offset = u->offset;

	*u = (struct fio_io_u){
		.td = td, .idx = idx, .ddir = FIO_DDIR_WRITE, .sync_op = true,
		.datasync = datasync, .file = f, .offset = stale_offset,
	};
}

/* fio's td_max_bs: the largest max_bs of the three directions, the
 * job's or not (rw=randread bs=4k,64k: 64 KiB), and whichever of bsrange
 * and bssplit came last gave it, even where bssplit lists larger sizes. */
static uint64_t job_max_bs(const struct job_options *o)
{
	uint64_t m = 0;

	for (int d = 0; d < FIO_DDIR_COUNT; d++)
		m = MAX(m, o->max_bs[d]);
	return m;
}

static bool verify_follows(const struct fio_thread *td);
static void verify_settle(struct fio_thread *td);

/* fio's keep_running, at the end of a round: time_based jobs go round
 * again, so do jobs with loops= left; then not once number_ios reads and
 * writes are done, else while a whole block of io_size (or of the job's
 * size, while a file is not done) is left to issue. A round that issued
 * nothing ends the job. fio asks after the round's verify phase, whose
 * reads count as I/Os done and whose clear_io_state leaves no file done:
 * they are counted here ahead. */
static bool another_round(struct fio_thread *td)
{
	const struct job_options *o = td->o;
	uint64_t ios = td->ddir_issues[FIO_DDIR_READ] +
		       td->ddir_issues[FIO_DDIR_WRITE] +
		       td->ddir_issues[FIO_DDIR_TRIM] + td->verify_ios;
	uint64_t bytes = td->bytes_issued + td->verify_bytes;
	bool files_left = td->files_done < td->nfiles;

	if (!td->round_ios)
		return false;
	if (o->time_based)
		return true;
	if (td->loops_left) {
		td->loops_left--;
		return true;
	}
	if (verify_follows(td)) {
		verify_settle(td);
		for (size_t i = 0; i < td->vlog_n; i++)
			bytes += td->vlog[i].len;
		ios += td->vlog_n;
		files_left = true;
	}
	if (o->number_ios && ios >= o->number_ios * MAX(o->loops, 1u))
		return false;
	return bytes + job_max_bs(o) <=
	       (td->io_size ? td->io_size : td->job_size) &&
	       (td->io_size || files_left);
}

/* fio's __get_next_file: the next file in turn (roundrobin, and
 * sequential once a file is done), at random, or by a zipf, pareto or
 * normal draw. */
static void next_file(struct fio_thread *td)
{
	if (td->o->file_service == FIO_FSERVICE_RANDOM)
		td->next_file = (unsigned)fio_taus_block(&td->file_rand, td->nfiles);
	else if (fio_fservice_nonuniform(td->o->file_service))
		td->next_file = (unsigned)(fio_rand_next(&td->file_dist) >>
					   FSERVICE_SHIFT);
	else
		td->next_file = (td->next_file + 1) % td->nfiles;
	td->file_served = 0;
	td->file_picked = false;
}

/* After an I/O or a sync on the current file: file_service_nr of them,
 * then the next file (sequential: the same file until it is done). */
static void file_served(struct fio_thread *td)
{
	if (td->nfiles == 1 || td->o->file_service == FIO_FSERVICE_SEQ)
		return;
	if (++td->file_served >= MAX(td->o->file_service_nr, 1u))
		next_file(td);
}

/* fio_file_closing on every file */
static bool all_closing(const struct fio_thread *td)
{
	for (unsigned i = 0; i < td->nfiles; i++)
		if (!td->files[i].closing)
			return false;
	return true;
}

/*
 * fio's get_next_file: the next file to serve that is not done for the
 * round, or NULL for -EBUSY. fio opens a file as it first serves it, and
 * with openfiles= held open the file it comes to next is busy until a
 * file is done and closed; do_io then tries again with the one after
 * it, at once, or with I/Os in flight once it has reaped (file_busy): a
 * reap can close a done file whose last io_u it was.
 */
static struct fio_file *serve_next_file(struct fio_thread *td)
{
	for (;;) {
		struct fio_file *f = &td->files[td->next_file];

		/* get_next_file_rand draws again, past a closing file too;
		 * where every file is, fio would draw for ever */
		if (f->round_done || (f->closing && !all_closing(td))) {
			next_file(td);
			continue;
		}
		/* a closing file taken again is still open */
		if (f->closing) {
			f->closing = false;
			f->in_use = true;
		}
		if (!f->in_use) {
			if (td->o->openfiles && td->files_in_use >= td->o->openfiles) {
				next_file(td);
				if (td->inflight) {
					td->file_busy = true;
					return NULL;
				}
				continue;
			}
			f->in_use = true;
			td->files_in_use++;
		}
		td->file_picked = true;
		return f;
	}
}

/* Fills in a row that may fail on fresh passes before a file is done. */
#define FRESH_FAILS_MAX 100000

/* fio's set_io_u_file: a file whose pass is over is closed and done for
 * the round, and the job goes on with the others (true). When all are
 * done, do_io ends: the job has no more to do, or, once what is in flight
 * is reaped, another round starts (round_wait). */
static bool file_done(struct fio_thread *td, struct fio_file *f)
{
	/* td_io_close_file; put_file closes the file, and lets openfiles=
	 * open another (nr_open_files), once its last io_u is reaped */
	if (f->in_use) {
		f->in_use = false;
		f->closing = f->refs > 0;
		if (!f->closing)
			td->files_in_use--;
	}
	next_file(td);
	/* A non-uniform file service never has a file done: its pass
	 * starts again (fio_file_reset), and the job ends by its bytes. A
	 * fresh pass may fail on one draw and fit on the next (a zoned_abs
	 * zone past the region, a pick past the end of the file in the last
	 * strided zone), and fio tries again; where none ever fits, fio
	 * spins for ever, and after FRESH_FAILS_MAX tries in a row the file
	 * is done, so the run ends. */
	if (fio_fservice_nonuniform(td->o->file_service)) {
		if (f->pass_used || ++td->fresh_fails < FRESH_FAILS_MAX) {
			file_new_pass(td, f);
			return true;
		}
		g_printerr("storsim: job %s: no I/O fits file %s in %d tries "
			   "in a row; fio 3.33 would try for ever, storsim "
			   "counts the file done\n", td->name, f->path,
			   FRESH_FAILS_MAX);
	}
	f->round_done = true;
	if (++td->files_done < td->nfiles)
		return true;
	td->round_wait = another_round(td);
	return false;
}

static void lat_target_init(struct fio_thread *td);

/* td_io_open_file: the access pattern fio tells the kernel (fadvise_hint;
 * "1", the default, by whether the job is random). */
static void fadvise_hint(const struct fio_thread *td, struct sfile *f)
{
	switch (td->o->fadvise_hint) {
	case FIO_FADV_NONE:
		break;
	case FIO_FADV_TYPE:
		f->ra_advice = fio_rw_random(td->o->rw) ? FADV_RANDOM :
							  FADV_SEQUENTIAL;
		break;
	case FIO_FADV_RANDOM:
		f->ra_advice = FADV_RANDOM;
		break;
	case FIO_FADV_SEQUENTIAL:
		f->ra_advice = FADV_SEQUENTIAL;
		break;
	}
}

/* file_invalidate_cache, with invalidate=1: fio drops the file's cached
 * pages each time it opens the file and each time a time_based job starts
 * it over (loop_cache_invalidate), so such a job reads from the device on
 * every pass (Linux 6.18, 1 s of random 4 KiB reads over a 4 MiB file on
 * ext4: 69694 device reads; 962 with invalidate=0). The writeback of dirty
 * pages it starts (POSIX_FADV_DONTNEED, BLKFLSBUF) is left out. */
static void invalidate(const struct fio_thread *td, struct sfile *f)
{
	if (td->o->invalidate && f && f->ops->fadvise_dontneed)
		f->ops->fadvise_dontneed(f);
}

/* td_io_open_file, as the job starts and again each round (fio closes
 * the files between rounds): a block device counts its openers, for its
 * last close; fio gives its fadvise hint and invalidates. */
static void open_files(struct fio_thread *td)
{
	for (unsigned i = 0; i < td->nfiles; i++) {
		struct fio_file *f = &td->files[i];
		if (!f->f || f->open)
			continue;
		f->open = true;
		if (f->f->bdev)
			blkdev_get(f->f->bdev);
		fadvise_hint(td, f->f);
		invalidate(td, f->f);
	}
}

/* close_files, after each round (clear_io_state) and at the end
 * (close_and_free_files): the next file's close; true when it ends the
 * step (a block device's last close writing back its cache), false once
 * all are closed. */
static bool close_step(struct fio_thread *td)
{
	for (unsigned i = 0; i < td->nfiles; i++) {
		struct fio_file *f = &td->files[i];
		if (!f->open)
			continue;
		f->open = false;
		if (!f->f->bdev)
			continue;
		td->fsync = (struct fsync_op){
			.task = td->task, .done = SIM_MSG(&td->comp, TD_CLOSED, NULL, 0),
		};
		if (blkdev_put(task_xctx(td->task), f->f->bdev, &td->fsync))
			return true;
	}
	return false;
}

static void start_round(struct fio_thread *td)
{
	const struct job_options *o = td->o;

	lat_target_init(td);
	open_files(td);
	td->end_fsyncs = 0;
	/* clear_io_state's reset_io_counters: a sync due at the end of the
	 * last round is due again (fio 3.33, fsync=4 over 8 writes, loops=2:
	 * two syncs between the rounds) */
	td->last_was_sync = false;
	td->round_wait = false;
	td->files_done = 0;
	td->files_in_use = 0;
	td->round_ios = 0;
	/* clear_io_state reseeds under randrepeat: each loop repeats the
	 * first one's numbers; randseed= has turned randrepeat off by then
	 * (fixup_options), so its loops go on with the numbers */
	td->rwmix_issues = 0;
	if (o->randrepeat && !o->randseed_set)
		seed_generators(td, false);
	td->round_bytes = 0;
	/* __get_next_file finds the last file served closed: a random file
	 * service draws the round's first file, as at the start, and the
	 * others go on from the file after it (get_next_file_rr's
	 * next_file), also when its turn or, for sequential, its pass was
	 * not over (fio 3.33, io_uring, rw=read:8k over 3 files of 512 KiB,
	 * loops=3: each round on the next file) */
	if (td->nfiles > 1 && (fservice_draws(o) || td->file_picked))
		next_file(td);
	/* and each file starts again from its start offset, in its first
	 * strided zone */
	td->zone_bytes = 0;
	for (unsigned i = 0; i < td->nfiles; i++) {
		td->files[i].round_done = false;
		td->files[i].in_use = false;
		td->files[i].region_start = td->files[i].round_origin;
		file_new_pass(td, &td->files[i]);
	}
}

/* ---- verify ---- */

static bool verify_wanted(const struct job_options *o)
{
	return o->verify != FIO_VERIFY_NONE && o->do_verify &&
	       fio_rw_does(o->rw, FIO_DDIR_WRITE);
}

/* User CPU to check (or, for a write, to fill and sum) len bytes. */
static sim_time verify_cost(const struct fio_thread *td, uint64_t len,
			    bool write)
{
	const struct fio_params *fp = &td->run->sys->sp.fio;
	enum fio_verify v = td->o->verify;

	if (v == FIO_VERIFY_NULL)
		return 0;	/* fio neither fills nor sums */
	return (sim_time)((fp->verify_sum[v] + (write ? fp->verify_fill : 0)) *
			  (double)len / 1024.0 + 0.5);
}

/* log_io_piece: every write is kept to be read back. */
static void verify_log(struct fio_thread *td, const struct fio_io_u *u)
{
	if (td->vlog_n == td->vlog_cap) {
		td->vlog_cap = td->vlog_cap ? 2 * td->vlog_cap : 256;
		td->vlog = g_renew(struct fio_verify_rec, td->vlog, td->vlog_cap);
	}
	td->vlog[td->vlog_n++] = (struct fio_verify_rec){
		.offset = u->offset, .len = u->len,
		.file = (uint32_t)(u->file - td->files),
	};
}

static gint vrec_cmp(gconstpointer a, gconstpointer b, gpointer unused)
{
	const struct fio_verify_rec *x = a, *y = b;

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static gint vrec_tree_cmp(gconstpointer a, gconstpointer b)
{
	return vrec_cmp(a, b, NULL);
}

/* An entry of the tree that overlaps r, or NULL: with the entries kept
 * apart, only the first at or after r's offset and the one before it can. */
static GTreeNode *vrec_overlap(GTree *t, const struct fio_verify_rec *r)
{
	GTreeNode *next = g_tree_lower_bound(t, r);
	GTreeNode *prev = next ? g_tree_node_previous(next) : g_tree_node_last(t);
	const struct fio_verify_rec *e;

	if (next) {
		e = g_tree_node_key(next);
		if (e->file == r->file && e->offset < r->offset + r->len)
			return next;
	}
	if (prev) {
		e = g_tree_node_key(prev);
		if (e->file == r->file && e->offset + e->len > r->offset)
			return prev;
	}
	return NULL;
}

/* Without a random map fio keeps the writes in a tree by file and
 * offset, each write dropping every earlier one it overlaps, even in
 * part (log_io_piece): read back in that order, once each (rw=write:-8k
 * with 4 and 16 KiB blocks: a 16 KiB write drops the two 4 KiB ones
 * inside it). With a map, in the order they were written: the list as
 * do_verify takes it (sorting it again changes nothing). */
static void verify_settle(struct fio_thread *td)
{
	if (!td->vlog_n || td->files[0].map.nlevels)
		return;
	GTree *t = g_tree_new(vrec_tree_cmp);
	for (size_t i = 0; i < td->vlog_n; i++) {
		GTreeNode *o;
		while ((o = vrec_overlap(t, &td->vlog[i])))
			g_tree_remove(t, g_tree_node_key(o));
		g_tree_insert(t, &td->vlog[i], NULL);
	}
	struct fio_verify_rec *kept = g_new(struct fio_verify_rec, g_tree_nnodes(t));
	size_t n = 0;
	for (GTreeNode *o = g_tree_node_first(t); o; o = g_tree_node_next(o))
		kept[n++] = *(const struct fio_verify_rec *)g_tree_node_key(o);
	g_tree_destroy(t);
	memcpy(td->vlog, kept, n * sizeof(*kept));
	g_free(kept);
	td->vlog_n = n;
}

/* update_runtime at the end of a do_io or do_verify: the phase's time
 * counts for writes or for reads (from the ramp's end). */
static void verify_phase_switch(struct fio_thread *td)
{
	sim_time now = sim_now(td->comp.sim), from = MAX(td->phase_start, td->ramp_end);

	if (now > from)
		td->phase_ns[td->verifying] += now - from;
	td->phase_start = now;
}

/* Whether do_verify follows this round's do_io: not once the run is over,
 * as a time_based job's is when its runtime ends a round. */
static bool verify_follows(const struct fio_thread *td)
{
	return verify_wanted(td->o) && td->vlog_n &&
	       !td->error && !run_over(td);
}

/*
 * do_verify, after do_io: once a round's writes and syncs are done, read
 * back what they wrote, through the same engine and depth.
 */
static bool verify_begin(struct fio_thread *td, bool round_follows)
{
	if (!verify_follows(td))
		return false;
	verify_settle(td);
	td->vlog_next = 0;
	/* clear_io_state closes the files before do_verify, which opens
	 * them again as it reads (see do_io) */
	td->verify_reopen = true;
	verify_phase_switch(td);
	td->verifying = true;
	td->verified = true;
	td->verify_round = round_follows;
	return true;
}

static void verify_end(struct fio_thread *td)
{
	verify_phase_switch(td);
	td->verifying = false;
	td->vlog_n = 0;
}

/* The next read of do_verify; at the end, the round that follows. */
static bool verify_fill(struct fio_thread *td, struct fio_io_u *u)
{
	if (td->vlog_next == td->vlog_n) {
		td->round_wait = td->verify_round;
		return false;
	}
	const struct fio_verify_rec *r = &td->vlog[td->vlog_next++];
	io_u_init(td, u, &td->files[r->file], FIO_DDIR_READ, r->offset, r->len);
	u->verify_read = true;
	return true;
}

/* Fill u with the next I/O; false when the job has no more to do. */
static bool fill_io_u(struct fio_thread *td, struct fio_io_u *u)
{
	if (td->verifying)
		return verify_fill(td, u);
	/* do_io stops once the job's bytes (or number_ios) are issued,
	 * before any sync; with loops= left, keep_running still starts
	 * another round, which issues nothing but its end_fsync and ends
	 * the job. */
	if ((!td->o->time_based && td->bytes_issued >= td->io_budget) ||
	    number_ios_reached(td)) {
		td->round_wait = another_round(td);
		return false;
	}
	if (sync_due(td)) {
		const struct job_options *o = td->o;
		bool fsync = o->fsync_blocks &&
			     td->ddir_issues[FIO_DDIR_WRITE] % o->fsync_blocks == 0;
		/* set_io_u_file picks the sync's file as an I/O's */
		struct fio_file *f = td->files_done < td->nfiles ?
				     serve_next_file(td) : &td->files[td->next_file];
		if (!f)
			return false;
		fill_sync(td, u, f, !fsync);
		file_served(td);
		return true;
	}
	/* do_io's own limit: a round ends once its bytes are issued; a
	 * time_based job's only for its verify phase. */
	if ((!td->o->time_based || verify_wanted(td->o)) &&
	    td->round_bytes >= td->round_limit) {
		td->round_wait = another_round(td);
		return false;
	}
	for (;;) {
		struct fio_file *f = serve_next_file(td);
		if (!f)
			return false;
		enum fio_ddir d = td->ddir_chosen ? td->next_ddir : pick_ddir(td);

		td->ddir_chosen = false;
		/* fio picks the offset for the smallest block, then the size */
		uint64_t bs = td->o->min_bs[d], off;

		if (td->tw_write_due) {
			td->tw_write_due = false;
			f = td->tw_file;
			off = td->tw_offset;
			bs = td->tw_len;
		} else {
			if (td->zone_range)
				zone_step(td, f, d);
			if (!pick_offset(td, u, f, d, bs, &off)) {
				if (!file_done(td, f))
					return false;
				continue;
			}
			enum fio_ddir bd = size_ddir(td->o, d, td->picked_random);
			bool sized = td->o->max_bs[bd] > td->o->min_bs[bd];
			uint64_t rel = off - f->region_start, pick_bs = bs;

			if (!sized)
				bs = td->o->min_bs[bd];
			/* no size that fits, or (fill_io_u) an I/O that would
			 * end past the end of the file (offset=N% of a file
			 * the job created), checked before the random map
			 * shortens it: the file's pass is over, its pick left
			 * on the io_u */
			if ((sized && !pick_buflen(td, f, bd, rel, &bs)) ||
			    (f->f && off + bs > f->f->size)) {
				u->offset = off;
				if (!file_done(td, f))
					return false;
				continue;
			}
			if (bs != pick_bs) {
				if (td->picked_from_map)
					bs = mark_covered(f, td->o->min_bs[d], rel, bs);
				f->pos[d] = rel + bs;
			}
			td->round_ios++;
			td->fresh_fails = 0;
			f->pass_used = true;
			td->zone_bytes += bs;
			file_served(td);
			if (d == FIO_DDIR_TRIM &&
			    fio_rw_does(td->o->rw, FIO_DDIR_WRITE)) {
				td->tw_write_due = true;
				td->tw_file = f;
				td->tw_offset = off;
				td->tw_len = bs;
			}
		}
		io_u_init(td, u, f, d, off, bs);
		return true;
	}
}

/* ---- read_iolog ---- */

enum replay_step { REPLAY_IO, REPLAY_WAIT, REPLAY_END };

/* iolog_delay: a record goes its delay after the last I/O or file action
 * went (at once if that is past), less what the last sleep overshot. */
static sim_time replay_due(struct fio_thread *td, sim_time delay, sim_time now)
{
	sim_time since = now - td->last_issue;

	td->rec_slept = false;
	if (!delay)
		return now;
	if (delay < td->time_offset) {
		td->time_offset = 0;
		return now;
	}
	sim_time left = delay - td->time_offset;
	if (left < since)
		return now;
	td->rec_slept = true;
	td->sleep_start = now;
	td->sleep_delay = delay;
	return now + (left - since);
}

/*
 * read_iolog_get: fill u with the next I/O of the trace, once its time
 * has come. An add record only moves the clock on (fio reads it with the
 * log); open and close records are waited for and do nothing else.
 */
static enum replay_step replay_fill(struct fio_thread *td, struct fio_io_u *u)
{
	sim_time now = sim_now(td->comp.sim);
	struct trace_record *rec = &td->rec;

	for (;;) {
		if (!td->rec_read) {
			if (!fio_replay_next(td->replay, rec))
				return REPLAY_END;
			sim_time delay = rec->time_ns > td->rec_prev ?
					 rec->time_ns - td->rec_prev : 0;
			td->rec_prev = rec->time_ns;
			if (rec->op == TRACE_OP_ADD)
				continue;
			td->rec_read = true;
			td->rec_due = replay_due(td, delay, now);
		}
		if (now < td->rec_due)
			return REPLAY_WAIT;
		if (td->rec_slept) {
			sim_time slept = now - td->sleep_start;
			td->time_offset = slept > td->sleep_delay ?
					  slept - td->sleep_delay : 0;
		}
		td->rec_read = false;
		td->last_issue = now;
		if (rec->op == TRACE_OP_OPEN || rec->op == TRACE_OP_CLOSE)
			continue;
		break;
	}
	struct fio_file *f = &td->files[rec->file];
	if (rec->op == TRACE_OP_SYNC || rec->op == TRACE_OP_DATASYNC ||
	    rec->op == TRACE_OP_FLUSH) {
		fill_sync(td, u, f, rec->op == TRACE_OP_DATASYNC);
		return REPLAY_IO;
	}
	io_u_init(td, u, f, rec->op == TRACE_OP_READ ? FIO_DDIR_READ :
		  rec->op == TRACE_OP_WRITE ? FIO_DDIR_WRITE : FIO_DDIR_TRIM,
		  rec->offset, rec->length);
	return REPLAY_IO;
}

static struct fio_io_u *get_io_u(struct fio_thread *td)
{
	struct fio_io_u *u = td->free_io_us;
	if (u)
		td->free_io_us = u->next;
	return u;
}

static void put_io_u(struct fio_thread *td, struct fio_io_u *u)
{
	u->next = td->free_io_us;
	td->free_io_us = u;
}

/* ---- what engines report ---- */

/* What fio's reset_all_stats (at the ramp's end; before latency_target's
 * final run) does to the job's cycles, besides its figures: the counts of
 * I/Os issued (io_issues) and completed start again, and with them the
 * rwmix, fsync=, thinktime_blocks and number_ios counts (thinktime's last mark stays,
 * so the next think waits for the counts to pass it again), and so do
 * rwmix_issues, the strided zone's bytes, last_was_sync and the rate
 * schedule, which counts from now (td->start is reset). */
static void reset_counts(struct fio_thread *td, sim_time now)
{
	memset(td->ddir_issues, 0, sizeof(td->ddir_issues));
	td->verify_ios = 0;
	td->rw_completed = 0;
	td->rwmix_issues = 0;
	td->zone_bytes = 0;
	td->last_was_sync = false;
	memset(td->rate_issue_bytes, 0, sizeof(td->rate_issue_bytes));
	memset(td->rate_next, 0, sizeof(td->rate_next));
	td->rate_epoch = now;
}

/* fio's ramp_time_over, asked as an I/O is queued or completes: the
 * first time after the ramp it resets the counts. */
static void ramp_check(struct fio_thread *td, sim_time now)
{
	if (td->ramp_over || now < td->ramp_end)
		return;
	td->ramp_over = true;
	reset_counts(td, now);
}

void fio_io_issued(struct fio_thread *td, struct fio_io_u *u)
{
	u->issue_time = sim_now(td->comp.sim);
	/* io_u_queued, where an async engine's submission returns, asks
	 * for the ramp's end too when slat is measured */
	if (!td->eng->sync && !td->o->disable_slat && td->o->stats)
		ramp_check(td, u->issue_time);
	/* fio logs slat as the submission returns (io_u_queued) */
	if (td->logs && td->stats_on && !u->sync_op &&
	    u->start_time >= td->ramp_end)
		fio_logs_slat(td->logs, u->issue_time, (enum stats_ddir)u->ddir,
			      u->issue_time - u->start_time, u->len, u->offset);
}

/* fio's runstate TD_FSYNCING: the end_fsync of each file, after the last
 * write. fio leaves these syncs out of the sync count, the sync latencies
 * and the depth distribution (td_io_queue counts a sync in total_io_u[]
 * and io_u_map[] only outside TD_FSYNCING; fio 3.33 prints
 * "total=0,256,0,0" for 256 writes with end_fsync=1). */
static bool fsyncing(const struct fio_thread *td)
{
	/* do_verify after them runs as TD_VERIFYING */
	return td->end_fsyncs > 0 && !td->verifying;
}

void fio_submitted(struct fio_thread *td, unsigned nr)
{
	if (td->stats_on && nr)
		stats_add_submit(td->stats, sim_now(td->comp.sim), nr,
				 fsyncing(td) ? 0 : td->inflight);
}

void fio_issued_in_queue(struct fio_thread *td)
{
	if (td->stats_on)
		stats_add_depth(td->stats, sim_now(td->comp.sim), 1, td->inflight);
}

void fio_reaped(struct fio_thread *td, unsigned nr)
{
	if (td->stats_on && nr)
		stats_add_reap(td->stats, sim_now(td->comp.sim), nr);
}

/* ---- latency_target ---- */

/* How deep the job may queue: latency_target's current depth, or iodepth. */
static unsigned depth(const struct fio_thread *td)
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
static void lat_target_init(struct fio_thread *td)
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
static void lat_target_check(struct fio_thread *td)
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
static void lat_reset_stats(struct fio_thread *td)
{
	sim_time now = sim_now(td->comp.sim);

	td->lat_reset = false;
	reset_counts(td, now);
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
static void check_max_latency(struct fio_thread *td, const struct fio_io_u *u,
			      sim_time lat)
{
	uint64_t max = td->o->max_latency[u->ddir];

	if (max && lat > max && !td->o->disable_lat)
		lat_fatal(td, u, lat, max);
}

/* An I/O over latency_target: with latency_percentile=100 the depth goes
 * down at once (at depth 1 the job fails, as with max_latency); else it
 * counts against the window. */
static void lat_target_io(struct fio_thread *td, const struct fio_io_u *u,
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

void fio_io_done(struct fio_thread *td, struct fio_io_u *u, long res)
{
	struct xctx *x = task_xctx(td->task);
	/* A synchronous engine reads the clock when the syscall has
	 * returned (td_io_queue), after the kernel's work of this step:
	 * the copy of a buffered read, the end of a direct one. */
	sim_time now = td->eng->sync ? xctx_clock(x) : sim_now(td->comp.sim);

	u->busy_ok = false;
	xctx_charge(x, st_complete, td->run->sys->sp.fio.io_u_complete);
	/* verify_io_u; the null engine's reads have no data to check */
	if (u->verify_read && res >= 0 && td->eng->needs_kernel)
		xctx_charge(x, st_verify, verify_cost(td, u->len, false));
	g_assert(td->inflight > 0);
	td->inflight--;
	/* put_file: the last reference of a closing file closes it */
	if (--u->file->refs == 0 && u->file->closing) {
		u->file->closing = false;
		td->files_in_use--;
	}
	/* fio's io_completed: an async engine keeps issuing syncs until one
	 * completes, and writes after it until a write completes. */
	td->last_was_sync = u->sync_op;
	if (res >= 0 && !u->sync_op)
		td->rw_completed++;
	ramp_check(td, now);
	if (res < 0) {
		if (!td->error)
			td->error = (int)-res;
		if (td->stats_on && u->start_time >= td->ramp_end && !u->sync_op)
			stats_add_failed(td->stats, (enum stats_ddir)u->ddir, now);
	} else if (td->stats_on && u->start_time >= td->ramp_end &&
		   td->replay_ended) {
		/* Issued, never reaped (fio's td->done): counts, no figures. */
		if (u->sync_op)
			stats_add_sync(td->stats, now, STATS_NO_LAT, u->datasync);
		else
			stats_add_failed(td->stats, (enum stats_ddir)u->ddir, now);
	} else if (td->stats_on && u->start_time >= td->ramp_end) {
		if (u->sync_op) {
			if (!fsyncing(td))
				stats_add_sync(td->stats, now, now - u->start_time,
					       u->datasync);
		} else {
			/* A trim completes inside queue() (FIO_Q_COMPLETED):
			 * fio records no slat for it. */
			bool in_queue = u->ddir == FIO_DDIR_TRIM &&
					td->eng->needs_kernel;
			stats_add_io(td->stats, (enum stats_ddir)u->ddir, now,
				     (uint64_t)res, in_queue ? STATS_NO_SLAT :
				     u->issue_time - u->start_time,
				     now - u->issue_time, now - u->start_time);
			if (td->trace_layers)
				stats_add_layers(td->stats, (enum stats_ddir)u->ddir,
						 u->start_time, &u->trace, now);
			/* one test on the hot path for both options */
			if (__builtin_expect(td->lat_watch, 0)) {
				check_max_latency(td, u, now - u->start_time);
				lat_target_io(td, u, now - u->start_time);
			}
			if (td->logs)
				fio_logs_io(td->logs, now, (enum stats_ddir)u->ddir,
					    (uint64_t)res, u->offset,
					    now - u->issue_time, now - u->start_time);
			td->ios_done++;
		}
	}
	put_io_u(td, u);
}

void fio_resume(struct fio_thread *td)
{
	task_then(td->task, SIM_MSG(&td->comp, TD_LOOP, NULL, 0));
}

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
	struct sim *s = &r->sys->sim;
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
static void engine_cleanup(struct fio_thread *td)
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
	engine_cleanup(td);
	task_exit(td->task);
	for (unsigned i = 0; i < r->threads->len; i++) {
		struct fio_thread *w = r->threads->pdata[i];
		if (w->phase == td->phase && !w->started && !waitee_running(r, w))
			launch(r, w);
	}
	if (--r->running == 0)
		sim_after(&r->sys->sim, 0, &r->comp, TD_PHASE_DONE, NULL, 0);
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
		verify_phase_switch(td);
		stats_set_ddir_time(td->stats, STATS_WRITE, td->phase_ns[0]);
		stats_set_ddir_time(td->stats, STATS_READ, td->phase_ns[1]);
	}
	stats_finish(td->stats, td->end_time);
	if (td->logs)
		fio_logs_finish(td->logs, td->end_time);
	terminate_others(td);
	td->closing = true;
	if (!close_step(td))
		thread_exit(td);
}

/* fio's usec_for_io after an I/O of u's direction: when the next may go.
 * Linear: the bytes issued at the rate, in whole microseconds as fio
 * computes them; rate_iops with bssplit or a Poisson process: the last
 * time plus one interval (Poisson: exponentially distributed). */
static void rate_issued(struct fio_thread *td, const struct fio_io_u *u)
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
static sim_time rate_wait(struct fio_thread *td)
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
static bool min_rate_failed(struct fio_thread *td)
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
static uint64_t think_count(const struct fio_thread *td)
{
	return td->o->thinktime_blocks_type == FIO_THINK_ISSUE ?
	       td->ddir_issues[FIO_DDIR_READ] + td->ddir_issues[FIO_DDIR_WRITE] :
	       td->rw_completed;
}

/* handle_thinktime's test: thinktime_blocks more reads and writes have
 * been counted since the last think, after an I/O that was not a sync. */
static bool think_due(const struct fio_thread *td)
{
	const struct job_options *o = td->o;
	uint64_t n = think_count(td);

	return o->thinktime && !td->last_was_sync && n &&
	       n >= td->think_last + MAX(o->thinktime_blocks, 1u);
}

/* fio's usec_sleep until pause_end: nanosleep all but the granularity
 * fio measured at start-up (how long a 1 us nanosleep takes, the timer
 * slack above all), look at the clock, and spin what is left, so that the
 * sleep ends on time. busy: CPU time the step has charged already. Ends
 * the step. */
static void usec_sleep(struct fio_thread *td, sim_time busy)
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
static void pause_now(struct fio_thread *td)
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
	usec_sleep(td, td->pause_spin);
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

	xctx_charge(task_xctx(td->task), st_prep, td->run->sys->sp.fio.io_u_prep);
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
			rate_issued(td, u);
		/* populate_verify_io_u fills and sums every write, with
		 * do_verify=0 too; log_io_piece keeps it for do_verify. */
		if (u->ddir == FIO_DDIR_WRITE && o->verify != FIO_VERIFY_NONE)
			xctx_charge(task_xctx(td->task), st_verify,
				    verify_cost(td, u->len, true));
		if (u->ddir == FIO_DDIR_WRITE && verify_wanted(o))
			verify_log(td, u);
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
	io_trace_reset(&u->trace);
	td->eng->queue(td, u);
	if (td->eng->sync)
		return;	/* the engine resumes the loop */
	td->queued++;
	if (td->queued >= o->iodepth_batch || td->inflight >= depth(td)) {
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
	struct fio_io_u *u = get_io_u(td);
	fill_sync(td, u, &td->files[td->end_fsyncs++], false);
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
	const struct fio_params *fp = &td->run->sys->sp.fio;

	xctx_charge(x, st_loop, fp->loop);
	if (!td->stats_on && sim_now(td->comp.sim) >= td->ramp_end) {
		td->stats_on = true;
		task_usage(td->task, &td->usage_at_ramp);
	}
	if (td->checks_min_rate && !td->error && min_rate_failed(td))
		td->error = 5;	/* EIO, as fio's td_verror in check_min_rate */
	if (o->latency_target && td->stats_on && !td->lat_quiesce)
		lat_target_check(td);
	/* io_u_quiesce after a change of depth, before the final run */
	if (td->lat_quiesce) {
		if (quiesce_step(td))
			return;
		td->lat_quiesce = false;
		if (td->lat_reset)
			lat_reset_stats(td);
	}
	bool stop = thread_done_issuing(td);
	if (!stop && !td->pausing && !td->verifying && think_due(td)) {
		td->think_last = think_count(td);
		td->pausing = true;
		td->pause_spin = MIN(o->thinktime_spin, o->thinktime);
		td->pause_sleep = o->thinktime - td->pause_spin;
	}
	if (!stop && !td->pausing && !td->verifying && td->rated && !sync_due(td) &&
	    !td->draining && td->inflight < depth(td)) {
		if (!td->ddir_chosen) {
			td->next_ddir = pick_ddir(td);
			td->ddir_chosen = true;
		}
		sim_time wait = rate_wait(td);
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
			pause_now(td);
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
			verify_end(td);
		else if (verify_begin(td, true))
			td->round_wait = false;
		if (!td->verifying) {
			if (close_step(td))
				return;
			start_round(td);
		}
	}
	/* clear_io_state closes the files before do_verify, which opens them
	 * again as it reads: a block device's last close writes back and
	 * empties its cache, and each open invalidates as invalidate= says.
	 * Nothing syncs a regular file first: do_verify syncs and drops the
	 * files still open, and none is (fio 3.33 under strace). */
	if (td->verify_reopen) {
		if (close_step(td))
			return;
		td->verify_reopen = false;
		open_files(td);
	}
	/* iodepth_low: once the queue has been full, fio reaps until it is
	 * down to iodepth_low before it queues again (wait_for_completions). */
	if (td->inflight >= depth(td))
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
		struct fio_io_u *u = get_io_u(td);
		g_assert(u);
		enum replay_step step = replay_fill(td, u);
		if (step == REPLAY_IO) {
			issue(td, u);
			return;
		}
		put_io_u(td, u);
		if (step == REPLAY_WAIT) {
			/* iolog_delay sleeps with I/O in flight, unreaped. */
			td->pause_end = td->run_deadline ?
					MIN(td->rec_due, td->run_deadline) :
					td->rec_due;
			usec_sleep(td, 0);
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
		struct fio_io_u *u = get_io_u(td);
		g_assert(u);
		if (fill_io_u(td, u)) {
			issue(td, u);
			return;
		}
		put_io_u(td, u);
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
		verify_end(td);
	} else if (verify_begin(td, false)) {
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
		lat_target_init(td);
		open_files(td);
		task_start(td->task, SIM_MSG(c, TD_LOOP, NULL, 0));
	} else if (type == TD_SLEPT) {
		usec_sleep(td, 0);
	} else if (type == TD_TRIMMED) {
		in_thread_done(td, td->trim.res < 0 ? td->trim.res :
			       (long)td->thread_u->len);
	} else if (type == TD_SYNCED) {
		in_thread_done(td, td->fsync.res);
	} else if (type == TD_CLOSED) {
		if (close_step(td))
			return;
		if (td->closing)
			thread_exit(td);
		else
			fio_resume(td);
	} else {
		do_io(td);
	}
}

static const struct sim_component_ops td_ops = {
	.name = "fio.thread",
	.handle = td_handle,
};

/* A thread's start_delay. fio draws a range's once per thread, in whole
 * microseconds, both ends included (fixup_options' rand_between), from
 * the thread's start-delay generator. */
static sim_time start_delay(struct fio_thread *td)
{
	const struct job_options *o = td->o;
	bool use64 = o->random_generator == FIO_RANDGEN_TAUSWORTHE64;
	uint64_t lo = o->start_delay / 1000, hi = o->start_delay_high / 1000;
	struct fio_taus gen;

	if (hi <= lo)
		return o->start_delay;
	fio_taus_seed(&gen, job_seed(td, FIO_TAUS_START_DELAY, true), use64);
	/* rand32_upto takes the span as 32 bits */
	uint64_t span = use64 ? hi - lo : (uint32_t)(hi - lo);
	return (lo + fio_taus_block(&gen, span + 1)) * 1000;
}

/* Start the threads of the next stonewall phase (those waiting for a job
 * of it, when that job is done); stop after the last phase. A thread of a
 * later phase waits only for what is left of its startdelay: fio's
 * run_threads compares the delay with the time since genesis, the run's
 * start, in every phase. */
static void start_phase(struct fio_run *r)
{
	struct sim *s = &r->sys->sim;

	while (r->phase < r->nphases) {
		unsigned ph = r->phase++;
		for (unsigned i = 0; i < r->threads->len; i++) {
			struct fio_thread *td = r->threads->pdata[i];
			if (td->phase != ph)
				continue;
			td->start_time = r->genesis + start_delay(td);
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
	start_phase((struct fio_run *)c);
}

static const struct sim_component_ops run_ops = {
	.name = "fio",
	.handle = run_handle,
};

/* ---- set-up ---- */

static const struct fio_engine_ops *engine_for(enum fio_ioengine e)
{
	for (unsigned i = 0; i < G_N_ELEMENTS(engines); i++)
		if (engines[i].id == e)
			return engines[i].ops;
	return NULL;
}

static bool refuse(const struct job *job, const char *option, GError **err,
		   const char *why)
{
	const char *file = job->file;
	int line = job->line;

	jobopt_location(job, option, &file, &line);
	storsim_unsupported_error(err, file, line, option, "%s", why);
	return false;
}

/* Refuse a job, at option's line, for a file that does not exist and
 * that fio would create in a way the model does not follow (why_fmt). */
static bool G_GNUC_PRINTF(5, 6)
refuse_new_file(const struct job *job, const char *option, GError **err,
		const char *path, const char *why_fmt, ...)
{
	va_list ap;

	va_start(ap, why_fmt);
	g_autofree char *why = g_strdup_vprintf(why_fmt, ap);
	va_end(ap);
	g_autofree char *msg = g_strdup_printf(
		"'%s' does not exist, and %s, which is not modelled; give the "
		"file with --file=%s=SIZE", path, why, path);
	return refuse(job, option, err, msg);
}

/* What the job asks for that the simulation would get wrong. */
static bool check_modelled(const struct job *job, GError **err)
{
	const struct job_options *o = &job->o;

	if (o->verify == FIO_VERIFY_META || o->verify == FIO_VERIFY_PATTERN)
		return refuse(job, "verify", err, "meta and pattern checks are "
			      "not modelled (the checksums and null are)");
	if (o->verify != FIO_VERIFY_NONE &&
	    (fio_rw_does(o->rw, FIO_DDIR_READ) || fio_rw_does(o->rw, FIO_DDIR_TRIM)))
		return refuse(job, "verify", err, "a job that reads or trims "
			      "checks data written before it ran; only write "
			      "jobs and their verify phase are modelled");
	if (o->latency_target) {
		const char *with = o->rate[0] || o->rate[1] || o->rate[2] ? "rate" :
				   o->rate_iops[0] || o->rate_iops[1] || o->rate_iops[2] ?
				   "rate_iops" : o->thinktime ? "thinktime" :
				   o->number_ios ? "number_ios" :
				   o->verify != FIO_VERIFY_NONE ? "verify" :
				   o->read_iolog ? "read_iolog" :
				   o->write_lat_log || o->write_bw_log || o->write_iops_log ?
				   "write_*_log" : NULL;
		g_autofree char *why = with ? g_strdup_printf(
			"not modelled together with %s (fio restarts the job's "
			"figures for its final run)", with) : NULL;
		if (with)
			return refuse(job, "latency_target", err, why);
	}
	if (o->verify != FIO_VERIFY_NONE && o->read_iolog)
		return refuse(job, "verify", err, "a replayed trace is not "
			      "verified");
	const struct fio_engine_ops *eng = engine_for(o->ioengine);
	const char *sync_opt = o->fsync_blocks ? "fsync" :
			       o->fdatasync_blocks ? "fdatasync" :
			       o->end_fsync ? "end_fsync" :
			       o->fsync_on_close ? "fsync_on_close" : NULL;
	if (sync_opt && eng == &fio_io_uring_engine && o->eng.hipri)
		return refuse(job, sync_opt, err, "an IOPOLL ring (hipri) takes "
			      "reads and writes only; the kernel refuses fsync on it");
	if (o->zone_strided != !!o->zone_size) {
		const char *file = job->file;
		int line = job->line;
		const char *opt = o->zone_strided ? "zonemode" : "zonesize";
		jobopt_location(job, opt, &file, &line);
		storsim_input_error(err, file, line, opt, o->zone_strided ?
				    "zonemode=strided needs zonesize" :
				    "zonesize needs zonemode=strided (fio: "
				    "\"--zonemode=none and --zonesize are not "
				    "compatible\")");
		return false;
	}
	if (o->write_iolog && !o->read_iolog && o->numjobs > 1)
		return refuse(job, "write_iolog", err,
			      "every clone of the job (numjobs) would write the "
			      "same log; give each job its own");
	return true;
}

/* A list option as fio's get_next_str splits it: ':'-separated, '\:'
 * a colon, empty entries skipped. */
static GPtrArray *fio_str_list(const char *s)
{
	GPtrArray *list = g_ptr_array_new_with_free_func(g_free);
	GString *cur = g_string_new(NULL);

	for (const char *p = s; ; p++) {
		if (*p == '\\' && p[1] == ':') {
			g_string_append_c(cur, ':');
			p++;
		} else if (*p == ':' || *p == '\0') {
			if (cur->len)
				g_ptr_array_add(list, g_strdup(cur->str));
			g_string_truncate(cur, 0);
			if (!*p)
				break;
		} else {
			g_string_append_c(cur, *p);
		}
	}
	g_string_free(cur, TRUE);
	return list;
}

/* The directory= entry the files of clone jobnum go into (fio's
 * set_name_idx: entry jobnum modulo their number); NULL without one. */
static char *job_directory(const struct job_options *o, unsigned jobnum)
{
	if (!o->directory)
		return NULL;
	g_autoptr(GPtrArray) dirs = fio_str_list(o->directory);
	return dirs->len ? g_strdup(g_ptr_array_index(dirs, jobnum % dirs->len)) :
			   NULL;
}

/* Add a file as fio's add_file names it: the directory, a separator and
 * the name as given, also when the name is absolute (directory=/d
 * filename=/x is /d//x to fio). That spelling goes into fio_names, as it
 * seeds the random distributions; the path in the simulated system, where
 * fio runs in "/", into names. */
static void add_file_name(GPtrArray *names, GPtrArray *fio_names,
			  const char *dir, const char *name)
{
	char *spelt = dir ? g_strdup_printf("%s/%s", dir, name) : g_strdup(name);

	g_ptr_array_add(names, g_canonicalize_filename(spelt, "/"));
	g_ptr_array_add(fio_names, spelt);
}

/* fio's file names: filename= in the first directory= entry, else
 * filename_format ($jobname.$jobnum.$filenum) in the clone's entry. */
static GPtrArray *file_names(const struct job *job, unsigned jobnum,
			     GPtrArray *fio_names)
{
	const struct job_options *o = &job->o;
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);

	if (o->filename) {
		g_autofree char *dir = job_directory(o, 0);
		g_autoptr(GPtrArray) given = fio_str_list(o->filename);
		for (unsigned i = 0; i < given->len; i++)
			add_file_name(names, fio_names, dir,
				      g_ptr_array_index(given, i));
	} else {
		g_autofree char *dir = job_directory(o, jobnum);
		const char *fmt = o->filename_format ? o->filename_format :
				  "$jobname.$jobnum.$filenum";
		for (unsigned i = 0; i < MAX(o->nrfiles, 1u); i++) {
			GString *s = g_string_new(NULL);
			for (const char *p = fmt; *p; ) {
				if (g_str_has_prefix(p, "$jobname")) {
					g_string_append(s, job->section);
					p += 8;
				} else if (g_str_has_prefix(p, "$jobnum")) {
					g_string_append_printf(s, "%u", jobnum);
					p += 7;
				} else if (g_str_has_prefix(p, "$filenum")) {
					g_string_append_printf(s, "%u", i);
					p += 8;
				} else {
					g_string_append_c(s, *p++);
				}
			}
			add_file_name(names, fio_names, dir, s->str);
			g_string_free(s, TRUE);
		}
	}
	return names;
}

/* read_iolog: the files are the trace's, each opened (laid out written,
 * as large as the trace needs, if it does not exist) and checked against
 * the I/O the trace does on it. */
static bool setup_replay_files(struct fio_thread *td, GError **err)
{
	const struct job *job = td->job;
	const struct job_options *o = td->o;
	const char *ofile = job->file;
	int oline = job->line;

	if (o->replay_skip) {
		struct trace_replay_opts check;
		trace_replay_opts_init(&check);
		if (!trace_replay_opt_set(&check, "replay_skip", o->replay_skip,
					  err)) {
			jobopt_location(job, "replay_skip", &ofile, &oline);
			g_prefix_error(err, "%s:%d: ", ofile, oline);
			return false;
		}
	}
	jobopt_location(job, "read_iolog", &ofile, &oline);
	td->replay = fio_replay_open(o, err);
	if (!td->replay) {
		g_prefix_error(err, "%s:%d: option 'read_iolog': ", ofile, oline);
		return false;
	}
	if (fio_replay_syncs(td->replay) && td->eng == &fio_io_uring_engine &&
	    o->eng.hipri) {
		storsim_unsupported_error(err, ofile, oline, "read_iolog",
			"the trace has %" G_GUINT64_FORMAT " syncs, and an IOPOLL "
			"ring (hipri) takes reads and writes only; the kernel "
			"refuses fsync on it", fio_replay_syncs(td->replay));
		return false;
	}
	td->nfiles = fio_replay_nfiles(td->replay);
	td->files = g_new0(struct fio_file, td->nfiles);
	for (unsigned i = 0; i < td->nfiles; i++) {
		struct fio_file *f = &td->files[i];
		uint64_t end = fio_replay_file_end(td->replay, i);
		/* the simulated fio runs in "/", where a relative name in
		 * the trace lands, as one in filename= does */
		f->path = g_canonicalize_filename(fio_replay_file_name(td->replay, i),
						  "/");
		struct system_open_args a = {
			.path = f->path,
			.direct = o->direct,
			.create_size = MAX(end, 1u),
			.create_written = true,
		};

		f->io_size = end;
		if (o->ioengine == FIO_ENGINE_NULL)
			continue;
		g_autoptr(GError) open_err = NULL;
		f->f = system_open_args(fio_system(td), &a, &open_err);
		if (!f->f) {
			/* The system names filename=; here the trace names it. */
			const char *msg = open_err->message, *opt = "option 'filename': ";
			if (g_str_has_prefix(msg, opt))
				msg += strlen(opt);
			storsim_input_error(err, ofile, oline, "read_iolog",
					    "a file of the trace: %s", msg);
			return false;
		}
		if (end > f->f->size) {
			storsim_input_error(err, ofile, oline, "read_iolog",
					    "the trace does I/O up to byte %"
					    G_GUINT64_FORMAT " of '%s', which is %"
					    G_GUINT64_FORMAT " bytes", end, f->path,
					    f->f->size);
			return false;
		}
	}
	return true;
}

/* fio's get_rand_file_size: filesize=LOW-HIGH gives each file a size
 * from LOW up to HIGH, drawn by the job's file size generator, down to a
 * multiple of the smallest block of any direction. */
static uint64_t rand_file_size(struct fio_thread *td)
{
	const struct job_options *o = td->o;
	uint64_t min_bs = MIN(o->min_bs[FIO_DDIR_READ],
			      MIN(o->min_bs[FIO_DDIR_WRITE], o->min_bs[FIO_DDIR_TRIM]));
	uint64_t size = o->file_size_low +
			fio_taus_block(&td->file_size_rand,
				       o->file_size_high - o->file_size_low);

	return size - size % min_bs;
}

/* fio's get_start_offset: offset=, or offset=N% of the file, plus
 * offset_increment (or N% of the file) times the clone's subjob number;
 * either percentage rounds the sum up to offset_align, else the smallest
 * block. */
static uint64_t region_start(const struct fio_thread *td, uint64_t file_size,
			     uint64_t min_bs)
{
	const struct job_options *o = td->o;
	bool align = o->offset_percent || o->offset_increment_percent;
	uint64_t inc = o->offset_increment_percent ?
		       o->offset_increment_percent * file_size / 100 :
		       o->offset_increment;
	uint64_t off = (o->offset_percent ? file_size * o->offset_percent / 100 :
					    o->offset) +
		       (uint64_t)td->jobnum * inc;

	if (!align)
		return off;
	uint64_t a = o->offset_align ? o->offset_align : min_bs;
	return (off + a - 1) / a * a;
}

static bool setup_files(struct fio_thread *td, GError **err)
{
	const struct job *job = td->job;
	const struct job_options *o = td->o;
	g_autoptr(GPtrArray) fio_names = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) names = file_names(job, td->jobnum, fio_names);
	bool writes = fio_rw_does(o->rw, FIO_DDIR_WRITE);
	uint64_t per_file = o->size ? o->size / names->len : 0;

	if (o->read_iolog)
		return setup_replay_files(td, err);
	if (o->file_append && o->ioengine == FIO_ENGINE_NULL)
		return refuse(job, "file_append", err,
			      "the null engine's files have no end to append at");
	if ((o->size_percent || o->offset_percent || o->io_size_percent ||
	     o->offset_increment_percent) && o->ioengine == FIO_ENGINE_NULL)
		return refuse(job, o->size_percent ? "size" : o->offset_percent ?
			      "offset" : o->io_size_percent ? "io_size" :
			      "offset_increment", err,
			      "the null engine's files have no size to take a "
			      "percentage of");
	/* fio's td_min_bs and rw_min_bs, which size the random map and
	 * align an N% offset: over all three directions, the job's or not
	 * (bsrange=4k-16k,8k-8k: a map of 4 KiB blocks for 8 KiB writes,
	 * whose picks past its first half end the pass) */
	uint64_t min_bs = UINT64_MAX;
	for (int d = 0; d < FIO_DDIR_COUNT; d++)
		min_bs = MIN(min_bs, o->min_bs[d] ? o->min_bs[d] : o->bs[d]);
	td->nfiles = names->len;
	td->files = g_new0(struct fio_file, td->nfiles);
	for (unsigned i = 0; i < td->nfiles; i++) {
		struct fio_file *f = &td->files[i];
		/* fio's setup_files: a file whose size lies outside
		 * filesize=LOW-HIGH gets LOW, or a size drawn between them
		 * (get_rand_file_size). A file the job creates has none; the
		 * null engine's files have size/nrfiles when size= is given,
		 * so they keep it when it is in the range (fio 3.33: 3 files
		 * of 1m-10m with size=4m each take 341 reads of 4 KiB, 5
		 * files of 256k-2m with size=1m take 51-52 over drawn sizes). */
		bool dev = g_str_has_prefix(names->pdata[i], "/dev/");
		uint64_t before = o->ioengine == FIO_ENGINE_NULL ? per_file :
				  dev ? 0 : system_file_size(fio_system(td),
							     names->pdata[i]);
		uint64_t want = per_file;
		bool sized = o->file_size_low &&
			     (o->ioengine != FIO_ENGINE_NULL || !o->size ||
			      per_file < o->file_size_low ||
			      per_file > o->file_size_high);
		if (sized && !dev && before >= o->file_size_low &&
		    before <= o->file_size_high)
			want = before;
		else if (sized)
			want = o->file_size_high == o->file_size_low ?
			       o->file_size_low : rand_file_size(td);
		/* filesize= is the file's size, offset= inside it; size= is
		 * the region's, after offset= (fio's setup_files: io_size =
		 * filesize - file_offset, or size / nrfiles) */
		struct system_open_args a = {
			.path = names->pdata[i],
			.direct = o->direct,
			/* fio lays out a file it creates: written when the job
			 * reads it or asks overwrite=1, else fallocated. */
			.create_size = sized || o->file_append ? want :
				       want + region_start(td, 0, min_bs),
			.create_written = !writes || o->overwrite || o->pre_read,
			.create_fallocate = o->fallocate != FIO_FALLOC_NONE,
		};
		f->path = g_strdup(names->pdata[i]);
		if (o->ioengine == FIO_ENGINE_NULL && sized) {
			f->f = NULL;
			f->region_start = region_start(td, want, min_bs);
			if (want <= f->region_start)
				return refuse(job, "offset", err,
					      "the offset is past the end of a file of "
					      "filesize bytes");
			f->io_size = want - f->region_start;
		} else if (o->ioengine == FIO_ENGINE_NULL) {
			f->f = NULL;
			f->io_size = want ? want : 1ull << 30;
			f->region_start = region_start(td, f->io_size, min_bs);
		} else {
			const char *ofile = job->file;
			int oline = job->line;
			jobopt_location(job, "filename", &ofile, &oline);
			/* setup_files with create_on_open lays nothing out:
			 * the file is created empty as it is opened, so fio's
			 * reads of it fail (EIO) and its writes extend it */
			if (o->create_on_open && !dev && !before)
				return refuse_new_file(job, "create_on_open", err, f->path,
						       "fio would create it empty, not "
						       "laid out (its reads fail, its "
						       "writes extend it)");
			/* extend_file: a job that only writes, without
			 * overwrite=1, fallocates the file it creates and
			 * writes nothing; fallocate=none or keep leaves it
			 * empty, and pre_read's first read() comes back
			 * short (EIO) */
			if (o->pre_read && !dev && !before && !o->overwrite &&
			    !fio_rw_does(o->rw, FIO_DDIR_READ) &&
			    (o->fallocate == FIO_FALLOC_NONE ||
			     o->fallocate == FIO_FALLOC_KEEP)) {
				return refuse_new_file(job, "pre_read", err, f->path,
						       "a job that only writes would create "
						       "it empty (fallocate=%s), so fio's "
						       "pre_read fails (EIO)",
						       o->fallocate == FIO_FALLOC_NONE ?
						       "none" : "keep");
			}
			/* setup_files: a file that ends before the region
			 * does is laid out again at the region's end
			 * (extend_file unlinks it and writes it anew) */
			/* file_append: get_start_offset is a file's size,
			 * so a file that exists is extended past its end */
			if (o->file_append && !dev && before) {
				jobopt_location(job, "file_append", &ofile, &oline);
				storsim_input_error(err, ofile, oline, "file_append",
						    "'%s' exists (%" G_GUINT64_FORMAT " bytes): "
						    "fio would start at its end and extend it "
						    "(extend_file), which is not modelled",
						    f->path, before);
				return false;
			}
			/* filesize= outside a file's size is where its region
			 * ends, per_file bytes past its offset otherwise */
			uint64_t end = sized ? want :
				       region_start(td, before, min_bs) + per_file;
			if (!dev && before && (sized || per_file) && end > before) {
				storsim_input_error(err, ofile, oline, "filename",
						    "'%s' is %" G_GUINT64_FORMAT " bytes "
						    "and the job's region ends at %" G_GUINT64_FORMAT
						    ": fio would delete it and lay it out "
						    "again (extend_file), which is not "
						    "modelled; give it whole with "
						    "--file=%s=%" G_GUINT64_FORMAT,
						    f->path, before, end, f->path, end);
				return false;
			}
			f->f = system_open_args(fio_system(td), &a, err);
			if (!f->f) {
				g_prefix_error(err, "%s:%d: ", ofile, oline);
				return false;
			}
			/* get_start_offset takes offset=N% of the size the
			 * file had before the job laid it out: 0 for one it
			 * creates, whose first round starts at offset 0 */
			f->region_start = region_start(td, dev ? f->f->size :
						       before, min_bs);
			f->round_origin = region_start(td, f->f->size, min_bs);
			/* file_append: the file's size whatever offset= says,
			 * so 0 for a file the job creates, and its laid-out
			 * end in later rounds, where nothing is left to do */
			if (o->file_append && !dev) {
				f->region_start = before;
				f->round_origin = f->f->size;
			}
			/* where filesize= sets a file's region, an offset at
			 * or past it leaves none: fio stops the job (past:
			 * setup_files' err_offset; at: no block fits) */
			if (sized && want != before &&
			    f->region_start >= o->file_size_low) {
				jobopt_location(job, "offset", &ofile, &oline);
				storsim_input_error(err, ofile, oline, "offset",
						    "%" G_GUINT64_FORMAT " leaves nothing "
						    "of filesize=%" G_GUINT64_FORMAT
						    " in '%s'", f->region_start,
						    o->file_size_low, f->path);
				return false;
			}
			if (f->f->size <= f->region_start) {
				storsim_input_error(err, ofile, oline, "filename",
						    "'%s' is %" G_GUINT64_FORMAT " bytes, "
						    "no room at offset %" G_GUINT64_FORMAT,
						    f->path, f->f->size, f->region_start);
				return false;
			}
			uint64_t avail = f->f->size -
					 (o->file_append && !dev ? 0 : f->region_start);
			f->io_size = want && want < avail && !sized ? want : avail;
			/* a file larger than filesize= keeps its size, but
			 * the job's region ends at filesize= (fio 3.33:
			 * filesize=64k of a 1 MiB file, 16 reads) */
			if (sized && want > f->region_start)
				f->io_size = MIN(f->io_size, want - f->region_start);
			/* setup_files: size=N% of the region's end (the
			 * file's, or size= bytes given after the percentage
			 * past the offset), up to that end, whole smallest
			 * blocks. */
			if (o->size_percent && o->size_percent != 100) {
				uint64_t rend = MIN(f->region_start + f->io_size,
						    f->f->size);
				f->io_size = MIN(rend * o->size_percent / 100,
						 rend - f->region_start);
				f->io_size -= f->io_size % min_bs;
			}
		}
		/* pre_read_files: fio reads each file's region first. */
		if (o->pre_read && f->f && f->f->ops->preload)
			f->f->ops->preload(f->f, f->region_start, f->io_size);
		if (!f->f)
			f->round_origin = f->region_start;
		f->rand_span = f->io_size;
		f->nblocks = MAX(f->io_size / min_bs, 1u);
		if (o->zone_strided) {
			td->zone_range = o->zone_range ? o->zone_range : o->zone_size;
			/* init_random_map and last_block: the zone's range,
			 * even where it is larger than the file, so that a
			 * pick past io_size ends the pass */
			f->rand_span = td->zone_range;
			f->nblocks = MAX(f->rand_span / min_bs, 1u);
		}
		if (o->random_distribution != FIO_RAND_UNIFORM &&
		    o->random_distribution != FIO_RAND_ZONED &&
		    o->random_distribution != FIO_RAND_ZONED_ABS) {
			/* __init_rand_distribution: ranges of the smaller of the
			 * read and write block over the region, one state per
			 * file, seeded by its name, or by the offsets' seed once
			 * fixup_options has turned randrepeat off for randseed=
			 * (after the offsets' seed was made under randrepeat,
			 * so that seed is still FIO_RANDSEED's) */
			uint64_t range = MIN(o->min_bs[FIO_DDIR_READ],
					     o->min_bs[FIO_DDIR_WRITE]);
			uint64_t nranges = (f->io_size + range - 1) / range;
			uint32_t seed = o->randrepeat && !o->randseed_set ?
				fio_rand_file_seed(fio_names->pdata[i], td->index + 1) :
				(uint32_t)td->block_seed;
			fio_rand_init(&f->rand, o->random_distribution,
				      o->rand_param, o->rand_center, nranges,
				      seed, true);
		}
		if (fio_rw_random(o->rw) && o->random_distribution == FIO_RAND_UNIFORM &&
		    !o->norandommap && o->random_generator != FIO_RANDGEN_LFSR)
			fio_randmap_init(&f->map, f->nblocks);
		/* init_random_map: an lfsr job's register per file, whatever
		 * the distribution, from the offsets' seed */
		if (fio_rw_random(o->rw) && o->random_generator == FIO_RANDGEN_LFSR) {
			f->lfsr_on = true;
			if (!fio_lfsr_init(&f->lfsr, f->nblocks, td->block_seed))
				return refuse(job, "random_generator", err,
					      "fio fails this job: its seed puts "
					      "the LFSR of a file in its dead state "
					      "(\"failed initializing LFSR\"); "
					      "try another randseed");
		}
		if (f->nblocks > UINT32_MAX && !o->random_generator_set &&
		    o->random_generator == FIO_RANDGEN_TAUSWORTHE)
			td->offsets_reseed64 = true;
		file_new_pass(td, f);
	}
	file_dist_init(td);
	if (fservice_draws(o) && td->nfiles > 1)
		next_file(td);
	/* setup_files: io_size=N% takes N% of each file's region into the
	 * job's size, not into io_size= bytes, which win where both are
	 * given (io_size=50% then io_size=64k: 64 KiB) */
	uint64_t total = 0;
	unsigned pct = o->io_size_percent ? o->io_size_percent : 100;
	for (unsigned i = 0; i < td->nfiles; i++)
		total += td->files[i].io_size * pct / 100;
	td->io_size = o->io_size;
	/* setup_files: the job's size is size=, down to what its files hold;
	 * files that filesize= made larger keep their size and the job
	 * stops after size= bytes over all of them (fio 3.33: 512 reads
	 * for filesize=1m size=2m nrfiles=3). */
	if (o->size && o->size < total)
		total = o->size;
	td->io_budget = (td->io_size ? td->io_size : total) * MAX(o->loops, 1u);
	td->loops_left = MAX(o->loops, 1u) - 1;
	/* do_io's total_bytes: a round is the job's size, or for random
	 * writes without a random map io_size= if larger (the option, not
	 * times loops: libaio, norandommap, loops=2 over 256 blocks, rounds
	 * of 256 writes; a synchronous engine's round goes on to the job's
	 * budget, as io_queue_event counts only queued I/Os). */
	td->job_size = total;
	td->round_limit = total;
	if (fio_rw_random(o->rw) && fio_rw_does(o->rw, FIO_DDIR_WRITE) &&
	    o->norandommap)
		td->round_limit = MAX(total, td->io_size);
	/* trimwrite trims the size and writes it: both count (fio 3.33
	 * issues 16 trims and 16 writes of 4 KiB for size=64k). */
	if (fio_rw_does(o->rw, FIO_DDIR_TRIM) && fio_rw_does(o->rw, FIO_DDIR_WRITE)) {
		td->io_budget *= 2;
		td->round_limit += total;
	}
	return true;
}

/* write_iolog (fio's log_file, log_io_u): an iolog v3 of what the job
 * issues, its files added and opened first; written whole at the end of
 * the run. read_iolog replaces it, as in fio. */
static bool open_iolog(struct fio_thread *td, GError **err)
{
	const struct job_options *o = td->o;

	if (!o->write_iolog || o->read_iolog)
		return true;
	td->iolog = iolog_writer_new(o->write_iolog, err);
	if (!td->iolog) {
		const char *ofile = td->job->file;
		int oline = td->job->line;
		jobopt_location(td->job, "write_iolog", &ofile, &oline);
		g_prefix_error(err, "%s:%d: option 'write_iolog': ", ofile, oline);
		return false;
	}
	for (unsigned i = 0; i < td->nfiles; i++)
		iolog_writer_file(td->iolog, i, td->files[i].path);
	return true;
}

static struct fio_thread *thread_new(struct fio_run *r, const struct job *job,
				     unsigned clone, unsigned index,
				     unsigned phase, GError **err)
{
	struct fio_thread *td = g_new0(struct fio_thread, 1);
	const struct job_options *o = &job->o;
	struct system *sys = r->sys;
	struct cpumask allowed = {{0}};
	unsigned ncpus = host_ncpus(sys->host);

	td->run = r;
	td->job = job;
	td->o = o;
	td->clone = clone;
	/* add_job numbers the clones from the last: with numjobs=3 the
	 * second thread is subjob 2 (files j.2.N, offset_increment x 2) */
	td->jobnum = clone ? MAX(o->numjobs, 1u) - clone : 0;
	td->index = index;
	td->phase = phase;
	td->page_size = (uint32_t)sys->sp.cpu.page_size;
	g_snprintf(td->name, sizeof(td->name), "fio/%s.%u", job->section, clone);
	g_ptr_array_add(r->threads, td);
	sim_component_init(&sys->sim, &td->comp, &td_ops, td->name);
	/* randseed= fixes the job's random numbers whatever the run's seed,
	 * as fio derives all of a job's from it (setup_random_seeds). */
	if (o->randseed_set)
		sim_rng_seed(&td->comp.rng, o->randseed, td->name);
	seed_generators(td, true);
	/* fio starts ddir_seq_nr at 1, so that the first I/O takes a new
	 * random offset rather than going on from 0 (init.c, add_job) */
	td->seq_left = 1;

	td->eng = engine_for(o->ioengine);
	if (!td->eng) {
		refuse(job, "ioengine", err, "this engine is not modelled yet");
		return NULL;
	}
	if (!check_modelled(job, err) || !setup_files(td, err) ||
	    !open_iolog(td, err))
		return NULL;

	if (o->cpus_allowed_set) {
		unsigned n = 0, which = 0;
		for (unsigned c = 0; c < ncpus; c++)
			n += job_options_cpu_isset(o, c);
		if (n == 0) {
			refuse(job, "cpus_allowed", err,
			       "names no CPU of the simulated host");
			return NULL;
		}
		for (unsigned c = 0; c < ncpus; c++) {
			if (!job_options_cpu_isset(o, c))
				continue;
			/* cpus_allowed_policy=split: each thread gets one,
			 * by its number in the whole run (fio_cpus_split of
			 * thread_number - 1), not in its job */
			if (o->cpus_allowed_policy == FIO_CPUS_SHARED ||
			    which++ % n == index % n)
				cpumask_set(&allowed, c);
		}
	}
	td->task = task_new(sys->host, td->name, TASK_USER, 100 + (int)index,
			    o->cpus_allowed_set ? &allowed : NULL);
	td->io_us = g_new0(struct fio_io_u, o->iodepth);
	for (unsigned i = 0; i < o->iodepth; i++) {
		td->io_us[i].idx = i;
		put_io_u(td, &td->io_us[i]);
	}

	if (td->eng->init && !td->eng->init(td, err))
		return NULL;
	/* fio_time_init's calibration: the longest of ten nanosleep(1 us)
	 * calls, from the clock read before to the one after. */
	const struct host_params *hp = host_params(sys->host);
	td->sleep_granularity = SIM_USEC + hp->timer_slack + hp->syscall +
				hp->irq_entry + hp->wakeup + hp->ctx_switch;
	/* fio's __setup_rate: rate, else rate_iops times the smallest bs. */
	for (int d = 0; d < FIO_DDIR_COUNT; d++) {
		td->checks_min_rate |= o->rate_min[d] || o->rate_iops_min[d];
		td->rate_bps[d] = o->rate[d] ? o->rate[d] :
				  (uint64_t)o->rate_iops[d] * o->min_bs[d];
		td->rated |= td->rate_bps[d] != 0;
	}
	/* After init: an engine may turn out synchronous (null at iodepth 1). */
	stats_config_init(&td->stats_cfg);
	td->stats_cfg.disable_lat = o->disable_lat;
	td->stats_cfg.disable_clat = o->disable_clat;
	td->stats_cfg.disable_slat = o->disable_slat || td->eng->sync;
	td->stats_cfg.disable_bw = o->disable_bw;
	td->stats_cfg.clat_percentiles = o->clat_percentiles;
	td->stats_cfg.unified = o->unified_rw_reporting == FIO_UNIFIED_MIXED;
	td->stats_cfg.lat_percentiles = o->lat_percentiles;
	td->stats_cfg.slat_percentiles = o->slat_percentiles;
	if (o->percentile_nr) {
		td->stats_cfg.nr_percentiles = o->percentile_nr;
		memcpy(td->stats_cfg.percentiles, o->percentile_list,
		       sizeof(double) * o->percentile_nr);
	}
	td->stats_cfg.bw_avg_ms = o->bw_avg_time / SIM_MSEC;
	td->stats_cfg.iops_avg_ms = o->iops_avg_time / SIM_MSEC;
	if (!fio_logs_new(job, td->index + 1, &td->stats_cfg, &td->logs, err))
		return NULL;
	td->stats = stats_new(&td->stats_cfg, 0);
	return td;
}

static void json_put(void *o)
{
	json_object_put(o);
}

struct fio_run *fio_run_new(struct system *sys, const struct job_list *jl,
			    GError **err)
{
	struct fio_run *r = g_new0(struct fio_run, 1);
	unsigned index = 0, phase = 0;

	st_prep = stage_register("fio_get_io_u", CPU_USR, "fio: get_io_u");
	st_verify = stage_register("fio_verify", CPU_USR,
				   "fio: fill and checksum verify blocks");
	st_complete = stage_register("fio_io_completed", CPU_USR, "fio: io_completed");
	st_loop = stage_register("fio_do_io", CPU_USR, "fio: do_io");
	st_think_spin = stage_register("fio_thinktime_spin", CPU_USR,
				       "fio: usec_spin (thinktime_spin)");
	st_usec_spin = stage_register("fio_usec_sleep_spin", CPU_USR,
				      "fio: usec_sleep, the spin after nanosleep");
	r->sys = sys;
	r->jl = jl;
	r->threads = g_ptr_array_new();
	r->out_jobs = g_array_new(FALSE, TRUE, sizeof(struct output_job));
	r->owned = g_ptr_array_new_with_free_func(g_free);
	r->sums = g_ptr_array_new_with_free_func((GDestroyNotify)stats_free);
	r->extras = g_ptr_array_new_with_free_func(json_put);
	r->disks = g_array_new(FALSE, TRUE, sizeof(struct output_disk));
	sim_component_init(&sys->sim, &r->comp, &run_ops, "fio");
	for (unsigned j = 0; j < jl->jobs->len; j++) {
		const struct job *job = jl->jobs->pdata[j];
		if (j > 0 && job->o.stonewall)
			phase++;
		for (unsigned c = 0; c < MAX(job->o.numjobs, 1u); c++) {
			if (!thread_new(r, job, c, index++, phase, err)) {
				fio_run_free(r);
				return NULL;
			}
		}
	}
	r->nphases = phase + 1;
	return r;
}

/* ---- results ---- */

static const char *keep(struct fio_run *r, char *s)
{
	g_ptr_array_add(r->owned, s);
	return s;
}

/* storsim's own figures of a job: where its latency went, by layer. */
static void layers_output(struct fio_run *r, struct output_job *oj,
			  const struct job_stats *st)
{
	static const char *const ddir_names[STATS_DDIR_NR] = {"read", "write", "trim"};
	static const char *const mixed[STATS_DDIR_NR] = {"mixed"};
	const char *const *names = st->cfg.unified ? mixed : ddir_names;
	unsigned n = st->cfg.unified ? 1 : STATS_DDIR_NR;
	struct io_layer_tails tails[STATS_DDIR_NR];
	GString *text = g_string_new(NULL);
	json_object *o = json_object_new_object();

	for (unsigned d = 0; d < n; d++)
		stats_layer_percentiles(st, (enum stats_ddir)d, &tails[d]);
	json_object_object_add(o, "latency_by_layer",
			       io_layers_json(st->layers, tails, n, names));
	g_ptr_array_add(r->extras, o);
	oj->json_extra = o;
	io_layers_text(st->layers, tails, n, names, text);
	GString *block = g_string_new(NULL);
	report_text_block(block, text->str);
	g_string_free(text, TRUE);
	oj->text_extra = keep(r, g_string_free(block, FALSE));
}

static void fill_output_job(struct fio_run *r, struct output_job *oj,
			    const struct fio_thread *td, const struct job_stats *st,
			    bool is_clone)
{
	const struct job *job = td->job;
	const struct job_options *o = td->o;
	unsigned n = job->opts->len;
	struct output_option *opts = g_new0(struct output_option, n);

	for (unsigned i = 0; i < n; i++) {
		const struct job_opt *jo = &g_array_index(job->opts, struct job_opt, i);
		opts[i].name = jo->name;
		opts[i].value = jo->value;
	}
	keep(r, (char *)opts);
	output_job_init(oj);
	oj->name = job->section;
	oj->groupid = job->groupid;
	oj->error = td->error;
	oj->verror = td->error ? g_strerror(td->error) : NULL;
	oj->pid = 1000 + (int)td->index;
	oj->description = o->description;
	oj->elapsed_s = (unsigned)((td->end_time + SIM_SEC - 1) / SIM_SEC);
	oj->options = opts;
	oj->nr_options = n;
	oj->rw = keep(r, g_strdup(fio_rw_name(o->rw)));
	for (int d = 0; d < STATS_DDIR_NR; d++) {
		oj->min_bs[d] = o->min_bs[d] ? o->min_bs[d] : o->bs[d];
		oj->max_bs[d] = o->max_bs[d] ? o->max_bs[d] : o->bs[d];
	}
	oj->bs_is_seq_rand = o->bs_is_seq_rand;
	oj->ioengine = fio_ioengine_name(o->ioengine);
	oj->iodepth = o->iodepth;
	oj->numjobs = o->numjobs;
	oj->is_clone = is_clone;
	oj->kb_base = o->kb_base;
	oj->unit_bits = o->unit_base == 1;
	oj->group_reporting = o->group_reporting;
	oj->unified = o->unified_rw_reporting == FIO_UNIFIED_MIXED;
	oj->latency_depth = o->latency_target ? td->lat_qd : o->iodepth;
	oj->latency_target = o->latency_target;
	oj->latency_window = o->latency_window / SIM_USEC;
	oj->latency_percentile = o->latency_percentile;
	oj->stats = st;
	if (td->trace_layers)
		layers_output(r, oj, st);
}

static void build_output(struct fio_run *r)
{
	const struct job_list *jl = r->jl;

	for (unsigned i = 0; i < r->threads->len; i++) {
		struct fio_thread *td = r->threads->pdata[i];
		struct output_job oj;
		if (td->o->group_reporting) {
			/* One entry for the whole reporting group. */
			bool seen = false;
			for (unsigned k = 0; k < i; k++) {
				struct fio_thread *p = r->threads->pdata[k];
				seen |= p->o->group_reporting &&
					p->job->groupid == td->job->groupid;
			}
			if (seen)
				continue;
			struct job_stats *sum = stats_new(&td->stats_cfg, td->ramp_end);
			sum->members = 0;
			if (td->layer_tails)
				stats_keep_layer_tails(sum);
			for (unsigned k = i; k < r->threads->len; k++) {
				struct fio_thread *p = r->threads->pdata[k];
				if (p->job->groupid == td->job->groupid)
					stats_sum(sum, p->stats);
			}
			g_ptr_array_add(r->sums, sum);
			fill_output_job(r, &oj, td, sum, false);
		} else {
			fill_output_job(r, &oj, td, td->stats, td->clone > 0);
		}
		g_array_append_val(r->out_jobs, oj);
	}
	struct output_option *gopts = g_new0(struct output_option,
					     jl->global_opts->len);
	for (unsigned i = 0; i < jl->global_opts->len; i++) {
		const struct job_opt *jo = &g_array_index(jl->global_opts,
							  struct job_opt, i);
		gopts[i].name = jo->name;
		gopts[i].value = jo->value;
	}
	keep(r, (char *)gopts);
	system_disk_stats(r->sys, r->disks);
	r->out = (struct output_run){
		.version = "storsim-" PACKAGE_VERSION,
		.timestamp = 0,
		.global_options = gopts,
		.nr_global_options = jl->global_opts->len,
		.jobs = (const struct output_job *)r->out_jobs->data,
		.nr_jobs = r->out_jobs->len,
		.disks = (const struct output_disk *)r->disks->data,
		.nr_disks = r->disks->len,
	};
}

void fio_run_trace_layers(struct fio_run *r, bool percentiles)
{
	for (unsigned i = 0; i < r->threads->len; i++) {
		struct fio_thread *td = r->threads->pdata[i];
		td->trace_layers = true;
		td->layer_tails = percentiles;
		if (percentiles)
			stats_keep_layer_tails(td->stats);
	}
}

bool fio_run_exec(struct fio_run *r, GError **err)
{
	struct sim *s = &r->sys->sim;

	system_reset_stats(r->sys);
	system_arm_power_loss(r->sys);
	r->genesis = sim_now(s);
	start_phase(r);
	sim_run(s, SIM_TIME_MAX);
	for (unsigned i = 0; i < r->threads->len; i++) {
		struct fio_thread *td = r->threads->pdata[i];
		if (!td->finished && system_power_lost(r->sys)) {
			/* The machine went down: the jobs end here, with their
			 * I/O in flight lost (EIO, as fio would see it). */
			if (!td->started)
				td->ramp_end = td->start_time = sim_now(s);
			td->error = 5;
			td->power_cut = true;
			td->end_time = sim_now(s);
			stats_finish(td->stats, td->end_time);
			if (td->logs)
				fio_logs_finish(td->logs, td->end_time);
			td->finished = true;
			continue;
		}
		if (!td->finished) {
			g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_EXTERNAL,
				    "job %s did not finish (simulation stalled at "
				    "%" G_GUINT64_FORMAT " ns)", td->name, sim_now(s));
			return false;
		}
		if (td->logs && !fio_logs_check(td->logs, err))
			return false;
		if (td->iolog) {
			bool written = iolog_writer_close(td->iolog, err);
			td->iolog = NULL;
			if (!written)
				return false;
		}
	}
	build_output(r);
	return true;
}

unsigned fio_run_failed(const struct fio_run *r, GString *why)
{
	unsigned n = 0;

	for (unsigned i = 0; i < r->threads->len; i++) {
		const struct fio_thread *td = r->threads->pdata[i];
		if (!td->error || td->power_cut)
			continue;
		g_string_append_printf(why, "job %s failed: error %d (%s)%s%s\n",
				       td->name, td->error, g_strerror(td->error),
				       td->error_detail ? ": " : "",
				       td->error_detail ? td->error_detail : "");
		n++;
	}
	return n;
}

const struct output_run *fio_run_output(struct fio_run *r)
{
	return &r->out;
}

sim_time fio_run_horizon(const struct fio_run *r)
{
	sim_time end = 0;

	if (r->nphases != 1)
		return 0;
	for (unsigned i = 0; i < r->threads->len; i++) {
		const struct job_options *o = ((struct fio_thread *)r->threads->pdata[i])->o;
		if (!o->time_based || !o->runtime)
			return 0;
		end = MAX(end, MAX(o->start_delay, o->start_delay_high) +
			       o->ramp_time + o->runtime);
	}
	return end;
}

void fio_run_totals(const struct fio_run *r, uint64_t *ios, double *iops,
		    double *bw_bytes)
{
	*ios = 0;
	*iops = 0;
	*bw_bytes = 0;
	for (unsigned i = 0; i < r->threads->len; i++) {
		const struct fio_thread *td = r->threads->pdata[i];
		double secs = (double)(td->end_time - td->ramp_end) / SIM_SEC;
		uint64_t bytes = 0, n = 0;
		for (int d = 0; d < STATS_DDIR_NR; d++) {
			bytes += td->stats->io_bytes[d];
			n += td->stats->total_ios[d];
		}
		*ios += n;
		if (secs > 0) {
			*iops += n / secs;
			*bw_bytes += bytes / secs;
		}
	}
}

void fio_run_process(const struct fio_run *r, sim_time *elapsed,
		     uint64_t *bytes, struct task_usage *use)
{
	*elapsed = 0;
	*bytes = 0;
	*use = (struct task_usage){0};
	for (unsigned i = 0; i < r->threads->len; i++) {
		const struct fio_thread *td = r->threads->pdata[i];
		struct task_usage u;
		if (!td->started)
			continue;
		*elapsed = MAX(*elapsed, td->end_time - td->start_time);
		for (int d = 0; d < STATS_DDIR_NR; d++)
			*bytes += td->stats->io_bytes[d];
		task_usage(td->task, &u);
		use->usr_ns += u.usr_ns;
		use->sys_ns += u.sys_ns;
		use->nvcsw += u.nvcsw;
		use->nivcsw += u.nivcsw;
	}
}

void fio_run_layers(const struct fio_run *r, struct io_layers *l)
{
	*l = (struct io_layers){0};
	for (unsigned i = 0; i < r->threads->len; i++) {
		const struct fio_thread *td = r->threads->pdata[i];
		for (int d = 0; d < STATS_DDIR_NR; d++)
			io_layers_merge(l, &td->stats->layers[d]);
	}
}

void fio_run_clat(const struct fio_run *r, double *mean, uint64_t *p99)
{
	g_autofree uint64_t *plat = g_new0(uint64_t, STATS_PLAT_NR);
	static const double p[] = {99.0};
	uint64_t n = 0;
	double sum = 0;

	for (unsigned i = 0; i < r->threads->len; i++) {
		const struct fio_thread *td = r->threads->pdata[i];
		for (int d = 0; d < STATS_DDIR_NR; d++) {
			const struct stats_moments *m = &td->stats->lat[STATS_CLAT][d];
			n += m->samples;
			sum += m->mean * (double)m->samples;
			for (unsigned k = 0; k < STATS_PLAT_NR; k++)
				plat[k] += td->stats->plat[STATS_CLAT][d][k];
		}
	}
	*mean = n ? sum / (double)n : 0;
	*p99 = 0;
	if (n)
		stats_percentiles(plat, n, p, 1, p99);
}

void fio_run_free(struct fio_run *r)
{
	if (!r)
		return;
	for (unsigned i = 0; i < r->threads->len; i++) {
		struct fio_thread *td = r->threads->pdata[i];
		engine_cleanup(td);
		for (unsigned f = 0; f < td->nfiles; f++) {
			g_free(td->files[f].path);
			if (td->files[f].map.nlevels)
				fio_randmap_destroy(&td->files[f].map);
		}
		g_free(td->files);
		g_free(td->vlog);
		g_free(td->error_detail);
		fio_replay_free(td->replay);
		if (td->iolog)
			iolog_writer_abort(td->iolog);
		g_free(td->io_us);
		fio_logs_free(td->logs);
		stats_free(td->stats);
		g_free(td);
	}
	g_ptr_array_free(r->threads, TRUE);
	g_array_free(r->out_jobs, TRUE);
	g_ptr_array_free(r->owned, TRUE);
	g_ptr_array_free(r->sums, TRUE);
	g_ptr_array_free(r->extras, TRUE);
	g_array_free(r->disks, TRUE);
	g_free(r);
}
