/*
 * fio, simulated: filling an io_u (direction, size, offset, file) and
 * taking its completion.
 *
 * Stands for fio 3.33's io_u.c (get_io_u, fill_io_u, get_next_offset,
 * get_next_buflen, io_completed), rand_ddir and the random map's use, the
 * read_iolog hand-out (iolog.c's read_iolog_get, iolog_delay), and the
 * counters the engines report through (fio_io_issued, fio_io_done).

 */
#include "fio_core.h"
/* ---- offsets, sizes, directions ---- */

/* A new pass over f (fio_file_reset): its random map cleared, or for an
 * lfsr job its register back at the offsets' seed; the position at the
 * region's start, and no last I/O, which rw_sequencer=identical repeats as
 * the region's start. */
void fio_file_new_pass(struct fio_thread *td, struct fio_file *f)
{
	if (f->map.nlevels)
		fio_randmap_clear(&f->map);
	if (f->lfsr_on)
		fio_lfsr_reset(&f->lfsr, td->block_seed);
	memset(f->pos, 0, sizeof(f->pos));
	memset(f->last_start, 0, sizeof(f->last_start));
	f->pass_used = false;
}

/* Whether the service draws its files, and so the first of a round. */
bool fio_fservice_draws(const struct job_options *o)
{
	return o->file_service == FIO_FSERVICE_RANDOM || fio_fservice_nonuniform(o->file_service);
}

/* init_rand_file_service: 1024 ranges per file, as each seeding sets it
 * up again */
void fio_file_dist_init(struct fio_thread *td)
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
uint64_t fio_job_seed(struct fio_thread *td, enum fio_taus_purpose p, bool first)
{
	return fio_taus_job_seed(td->o, p, td->index + 1,
				 first ? sim_rng_next(&td->comp.rng) : 0);
}

/* fio's generators of the job, seeded as td_fill_rand_seeds seeds them:
 * at set-up (first) and for each loop under randrepeat, when a file of
 * more than 2^32 blocks has switched an unchosen generator to 64 bits
 * (check_rand_gen_limits). The rwmix, zone and percentage_random ones
 * are 32-bit whatever random_generator says. */
void fio_seed_generators(struct fio_thread *td, bool first)
{
	const struct job_options *o = td->o;
	bool use64 = o->random_generator == FIO_RANDGEN_TAUSWORTHE64 ||
		     td->offsets_reseed64;
	uint64_t block_seed = fio_job_seed(td, FIO_TAUS_OFFSET, first);

	if (first)
		td->block_seed = block_seed;
	fio_taus_seed(&td->offsets, block_seed, use64);
	fio_taus_seed(&td->rwmix, fio_job_seed(td, FIO_TAUS_RWMIX, first), false);
	fio_taus_seed(&td->file_size_rand, fio_job_seed(td, FIO_TAUS_FILE_SIZE, first), use64);
	fio_taus_seed(&td->zone_rand, fio_job_seed(td, FIO_TAUS_ZONE, first), false);
	uint64_t file_seed = fio_job_seed(td, FIO_TAUS_FILE, first);
	fio_taus_seed(&td->file_rand, file_seed, use64);
	/* fio hands the zipf, pareto and normal file service an unsigned
	 * int of it */
	td->file_seed = (uint32_t)file_seed;
	fio_file_dist_init(td);
	/* block sizes: a verifying job's writes take the reads' seed, a
	 * trimwrite's trims the writes' */
	uint64_t bs_seed[FIO_DDIR_COUNT];
	for (unsigned d = 0; d < FIO_DDIR_COUNT; d++)
		bs_seed[d] = fio_job_seed(td, FIO_TAUS_BS + d, first);
	if (o->verify != FIO_VERIFY_NONE)
		bs_seed[FIO_DDIR_WRITE] = bs_seed[FIO_DDIR_READ];
	if (fio_rw_does(o->rw, FIO_DDIR_TRIM) && fio_rw_does(o->rw, FIO_DDIR_WRITE))
		bs_seed[FIO_DDIR_TRIM] = bs_seed[FIO_DDIR_WRITE];
	for (unsigned d = 0; d < FIO_DDIR_COUNT; d++)
		fio_taus_seed(&td->bs_rand[d], bs_seed[d], use64);
	/* fio seeds each direction's from the reads' seed */
	uint64_t seq_seed = fio_job_seed(td, FIO_TAUS_SEQ_RAND_READ, first);
	for (unsigned d = 0; d < FIO_DDIR_COUNT; d++)
		fio_taus_seed(&td->seq_rand[d], seq_seed, false);
}

/* fio's rand_between(state, 1, 100): a percentage from 1 to 100. */
static unsigned percent_draw(struct fio_taus *t)
{
	return 1 + (unsigned)fio_taus_block(t, 100);
}

enum fio_ddir fio_pick_ddir(struct fio_thread *td)
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
uint64_t fio_file_size(const struct fio_file *f)
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
	return rel < f->io_size && f->region_start + rel < fio_file_size(f) &&
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
		if (f->region_start >= fio_file_size(f))
			f->region_start = f->round_origin;
		f->pos[d] = 0;
	}
	if (f->pos[d] >= td->zone_range)
		f->pos[d] = 0;
	/* fio_file_reset: every direction starts the zone again */
	if (td->zone_bytes % td->zone_range == 0) {
		if (fio_rw_random(o->rw))
			fio_file_new_pass(td, f);
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
	uint64_t real = fio_file_size(f);
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

/* loop_cache_invalidate, as a time_based job or a non-uniform file
 * service starts a file's pass again: under invalidate=1, buffered I/O
 * only. */
static void loop_invalidate(const struct fio_thread *td, struct fio_file *f)
{
	if (!td->o->direct)
		fio_invalidate(td, f->f);
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
	fio_file_new_pass(td, f);
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
bool fio_run_over(const struct fio_thread *td)
{
	return td->terminate ||
	       (td->run_deadline && sim_now(td->comp.sim) >= td->run_deadline);
}

bool fio_thread_done_issuing(struct fio_thread *td)
{
	return fio_run_over(td) || td->exhausted || td->error || td->lat_done;
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
bool fio_sync_due(const struct fio_thread *td)
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
void fio_io_u_init(struct fio_thread *td, struct fio_io_u *u,
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
void fio_fill_sync(struct fio_thread *td, struct fio_io_u *u,
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

/* fio's keep_running, at the end of a round: time_based jobs go round
 * again, so do jobs with loops= left; then not once number_ios reads and
 * writes are done, else while a whole block of io_size (or of the job's
 * size, while a file is not done) is left to issue. A round that issued
 * nothing ends the job. fio asks after the round's verify phase, whose
 * reads count as I/Os done and whose clear_io_state leaves no file done:
 * they are counted here ahead. */
bool fio_another_round(struct fio_thread *td)
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
	if (fio_verify_follows(td)) {
		fio_verify_settle(td);
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

/* Fill u with the next I/O; false when the job has no more to do. */
bool fio_fill_io_u(struct fio_thread *td, struct fio_io_u *u)
{
	if (td->verifying)
		return fio_verify_fill(td, u);
	/* do_io stops once the job's bytes (or number_ios) are issued,
	 * before any sync; with loops= left, keep_running still starts
	 * another round, which issues nothing but its end_fsync and ends
	 * the job. */
	if ((!td->o->time_based && td->bytes_issued >= td->io_budget) ||
	    number_ios_reached(td)) {
		td->round_wait = fio_another_round(td);
		return false;
	}
	if (fio_sync_due(td)) {
		const struct job_options *o = td->o;
		bool fsync = o->fsync_blocks &&
			     td->ddir_issues[FIO_DDIR_WRITE] % o->fsync_blocks == 0;
		/* set_io_u_file picks the sync's file as an I/O's */
		struct fio_file *f = td->files_done < td->nfiles ?
				     fio_serve_next_file(td) : &td->files[td->next_file];
		if (!f)
			return false;
		fio_fill_sync(td, u, f, !fsync);
		fio_file_served(td);
		return true;
	}
	/* do_io's own limit: a round ends once its bytes are issued; a
	 * time_based job's only for its verify phase. */
	if ((!td->o->time_based || fio_verify_wanted(td->o)) &&
	    td->round_bytes >= td->round_limit) {
		td->round_wait = fio_another_round(td);
		return false;
	}
	for (;;) {
		struct fio_file *f = fio_serve_next_file(td);
		if (!f)
			return false;
		enum fio_ddir d = td->ddir_chosen ? td->next_ddir : fio_pick_ddir(td);

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
				if (!fio_file_done(td, f))
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
				if (!fio_file_done(td, f))
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
			fio_file_served(td);
			if (d == FIO_DDIR_TRIM &&
			    fio_rw_does(td->o->rw, FIO_DDIR_WRITE)) {
				td->tw_write_due = true;
				td->tw_file = f;
				td->tw_offset = off;
				td->tw_len = bs;
			}
		}
		fio_io_u_init(td, u, f, d, off, bs);
		return true;
	}
}

/* ---- read_iolog ---- */


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
enum replay_step fio_replay_fill(struct fio_thread *td, struct fio_io_u *u)
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
		fio_fill_sync(td, u, f, rec->op == TRACE_OP_DATASYNC);
		return REPLAY_IO;
	}
	fio_io_u_init(td, u, f, rec->op == TRACE_OP_READ ? FIO_DDIR_READ :
		  rec->op == TRACE_OP_WRITE ? FIO_DDIR_WRITE : FIO_DDIR_TRIM,
		  rec->offset, rec->length);
	return REPLAY_IO;
}

struct fio_io_u *fio_io_u_get(struct fio_thread *td)
{
	struct fio_io_u *u = td->free_io_us;
	if (u)
		td->free_io_us = u->next;
	return u;
}

void fio_io_u_put(struct fio_thread *td, struct fio_io_u *u)
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
void fio_reset_counts(struct fio_thread *td, sim_time now)
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
	fio_reset_counts(td, now);
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

/* The I/O's span on the timeline. */
static void fio_timeline_io(struct fio_thread *td, const struct fio_io_u *u,
			    sim_time now)
{
	struct io_span s = {
		.start = u->start_time, .end = now, .tr = u->trace,
		.offset = u->offset, .size = u->len, .job = (uint16_t)td->iotl_job,
		.dir = u->ddir == FIO_DDIR_WRITE ? IO_SPAN_WRITE :
		       u->ddir == FIO_DDIR_TRIM ? IO_SPAN_TRIM : IO_SPAN_READ,
	};
	io_timeline_add(td->iotl, &s);
}

void fio_io_done(struct fio_thread *td, struct fio_io_u *u, long res)
{
	struct xctx *x = task_xctx(td->task);
	/* A synchronous engine reads the clock when the syscall has
	 * returned (td_io_queue), after the kernel's work of this step:
	 * the copy of a buffered read, the end of a direct one. */
	sim_time now = td->eng->sync ? xctx_clock(x) : sim_now(td->comp.sim);

	u->busy_ok = false;
	xctx_charge(x, st_complete, fio_costs(td)->io_u_complete);
	/* verify_io_u; the null engine's reads have no data to check */
	if (u->verify_read && res >= 0 && td->eng->needs_kernel)
		xctx_charge(x, st_verify, fio_verify_cost(td, u->len, false));
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
			if (td->trace_layers) {
				stats_add_layers(td->stats, (enum stats_ddir)u->ddir,
						 u->start_time, &u->trace, now);
				if (td->iotl)
					fio_timeline_io(td, u, now);
			}
			/* one test on the hot path for both options */
			if (__builtin_expect(td->lat_watch, 0)) {
				fio_check_max_latency(td, u, now - u->start_time);
				fio_lat_target_io(td, u, now - u->start_time);
			}
			if (td->logs)
				fio_logs_io(td->logs, now, (enum stats_ddir)u->ddir,
					    (uint64_t)res, u->offset,
					    now - u->issue_time, now - u->start_time);
			td->ios_done++;
		}
	}
	fio_io_u_put(td, u);
}

void fio_resume(struct fio_thread *td)
{
	task_then(td->task, SIM_MSG(&td->comp, TD_LOOP, NULL, 0));
}

