/*
 * fio, simulated: the job's files: their names and layout at set-up,
 * opening and closing them each round, and the order they are served.
 *
 * Stands for fio 3.33's filesetup.c (setup_files, get_file_sizes,
 * add_file, get_rand_file_size, get_start_offset), io_u.c's
 * __get_next_file and set_io_u_file, and file service types.

 */
#include "fio_core.h"

/* The random maps of a run in all: 1 GiB covers 32 TiB in 4 KiB blocks. */
#define RANDMAP_BYTES_MAX	(1u << 30)

/* fio's __get_next_file: the next file in turn (roundrobin, and
 * sequential once a file is done), at random, or by a zipf, pareto or
 * normal draw. */
void fio_next_file(struct fio_thread *td)
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
void fio_file_served(struct fio_thread *td)
{
	if (td->nfiles == 1 || td->o->file_service == FIO_FSERVICE_SEQ)
		return;
	if (++td->file_served >= MAX(td->o->file_service_nr, 1u))
		fio_next_file(td);
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
struct fio_file *fio_serve_next_file(struct fio_thread *td)
{
	for (;;) {
		struct fio_file *f = &td->files[td->next_file];

		/* get_next_file_rand draws again, past a closing file too;
		 * where every file is, fio would draw for ever */
		if (f->round_done || (f->closing && !all_closing(td))) {
			fio_next_file(td);
			continue;
		}
		/* a closing file taken again is still open */
		if (f->closing) {
			f->closing = false;
			f->in_use = true;
		}
		if (!f->in_use) {
			if (td->o->openfiles && td->files_in_use >= td->o->openfiles) {
				fio_next_file(td);
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
bool fio_file_done(struct fio_thread *td, struct fio_file *f)
{
	/* td_io_close_file; put_file closes the file, and lets openfiles=
	 * open another (nr_open_files), once its last io_u is reaped */
	if (f->in_use) {
		f->in_use = false;
		f->closing = f->refs > 0;
		if (!f->closing)
			td->files_in_use--;
	}
	fio_next_file(td);
	/* A non-uniform file service never has a file done: its pass
	 * starts again (fio_file_reset), and the job ends by its bytes. A
	 * fresh pass may fail on one draw and fit on the next (a zoned_abs
	 * zone past the region, a pick past the end of the file in the last
	 * strided zone), and fio tries again; where none ever fits, fio
	 * spins for ever, and after FRESH_FAILS_MAX tries in a row the file
	 * is done, so the run ends. */
	if (fio_fservice_nonuniform(td->o->file_service)) {
		if (f->pass_used || ++td->fresh_fails < FRESH_FAILS_MAX) {
			fio_file_new_pass(td, f);
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
	td->round_wait = fio_another_round(td);
	return false;
}

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
void fio_invalidate(const struct fio_thread *td, struct sfile *f)
{
	if (td->o->invalidate && f && f->ops->fadvise_dontneed)
		f->ops->fadvise_dontneed(f);
}

/* td_io_open_file, as the job starts and again each round (fio closes
 * the files between rounds): a block device counts its openers, for its
 * last close; fio gives its fadvise hint and invalidates. */
void fio_open_files(struct fio_thread *td)
{
	for (unsigned i = 0; i < td->nfiles; i++) {
		struct fio_file *f = &td->files[i];
		if (!f->f || f->open)
			continue;
		f->open = true;
		if (f->f->bdev)
			blkdev_get(f->f->bdev);
		fadvise_hint(td, f->f);
		fio_invalidate(td, f->f);
	}
}

/* close_files, after each round (clear_io_state) and at the end
 * (close_and_free_files): the next file's close; true when it ends the
 * step (a block device's last close writing back its cache), false once
 * all are closed. */
bool fio_close_step(struct fio_thread *td)
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

void fio_start_round(struct fio_thread *td)
{
	const struct job_options *o = td->o;

	fio_lat_target_init(td);
	fio_open_files(td);
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
		fio_seed_generators(td, false);
	td->round_bytes = 0;
	/* __get_next_file finds the last file served closed: a random file
	 * service draws the round's first file, as at the start, and the
	 * others go on from the file after it (get_next_file_rr's
	 * next_file), also when its turn or, for sequential, its pass was
	 * not over (fio 3.33, io_uring, rw=read:8k over 3 files of 512 KiB,
	 * loops=3: each round on the next file) */
	if (td->nfiles > 1 && (fio_fservice_draws(o) || td->file_picked))
		fio_next_file(td);
	/* and each file starts again from its start offset, in its first
	 * strided zone */
	td->zone_bytes = 0;
	for (unsigned i = 0; i < td->nfiles; i++) {
		td->files[i].round_done = false;
		td->files[i].in_use = false;
		td->files[i].region_start = td->files[i].round_origin;
		fio_file_new_pass(td, &td->files[i]);
	}
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
		struct env_open_args a = {
			.path = f->path,
			.direct = o->direct,
			.create_size = MAX(end, 1u),
			.create_written = true,
		};

		f->io_size = end;
		if (o->ioengine == FIO_ENGINE_NULL)
			continue;
		g_autoptr(GError) open_err = NULL;
		f->f = env_open(fio_env(td), &a, &open_err);
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
uint64_t fio_region_start(const struct fio_thread *td, uint64_t file_size,
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

bool fio_setup_files(struct fio_thread *td, GError **err)
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
		return fio_refuse(job, "file_append", err,
			      "the null engine's files have no end to append at");
	if ((o->size_percent || o->offset_percent || o->io_size_percent ||
	     o->offset_increment_percent) && o->ioengine == FIO_ENGINE_NULL)
		return fio_refuse(job, o->size_percent ? "size" : o->offset_percent ?
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
				  dev ? 0 : env_file_size(fio_env(td),
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
		struct env_open_args a = {
			.path = names->pdata[i],
			.direct = o->direct,
			/* fio lays out a file it creates: written when the job
			 * reads it or asks overwrite=1, else fallocated. */
			.create_size = sized || o->file_append ? want :
				       want + fio_region_start(td, 0, min_bs),
			.create_written = !writes || o->overwrite || o->pre_read,
			.create_fallocate = o->fallocate != FIO_FALLOC_NONE,
		};
		f->path = g_strdup(names->pdata[i]);
		if (o->ioengine == FIO_ENGINE_NULL && sized) {
			f->f = NULL;
			f->region_start = fio_region_start(td, want, min_bs);
			if (want <= f->region_start)
				return fio_refuse(job, "offset", err,
					      "the offset is past the end of a file of "
					      "filesize bytes");
			f->io_size = want - f->region_start;
		} else if (o->ioengine == FIO_ENGINE_NULL) {
			f->f = NULL;
			f->io_size = want ? want : 1ull << 30;
			f->region_start = fio_region_start(td, f->io_size, min_bs);
		} else {
			const char *ofile = job->file;
			int oline = job->line;
			jobopt_location(job, "filename", &ofile, &oline);
			/* setup_files with create_on_open lays nothing out:
			 * the file is created empty as it is opened, so fio's
			 * reads of it fail (EIO) and its writes extend it */
			if (o->create_on_open && !dev && !before)
				return fio_refuse_new_file(job, "create_on_open", err, f->path,
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
				return fio_refuse_new_file(job, "pre_read", err, f->path,
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
				       fio_region_start(td, before, min_bs) + per_file;
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
			f->f = env_open(fio_env(td), &a, err);
			if (!f->f) {
				g_prefix_error(err, "%s:%d: ", ofile, oline);
				return false;
			}
			/* get_start_offset takes offset=N% of the size the
			 * file had before the job laid it out: 0 for one it
			 * creates, whose first round starts at offset 0 */
			f->region_start = fio_region_start(td, dev ? f->f->size :
						       before, min_bs);
			f->round_origin = fio_region_start(td, f->f->size, min_bs);
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
		    !o->norandommap && o->random_generator != FIO_RANDGEN_LFSR) {
			/* fio allocates its map and fails the job when it
			 * cannot ("failed allocating random map"); storsim
			 * holds the maps of a run to RANDMAP_BYTES_MAX */
			uint64_t bytes = fio_randmap_bytes(f->nblocks);
			if (bytes > RANDMAP_BYTES_MAX - td->run->randmap_bytes) {
				g_autofree char *why = g_strdup_printf(
					"random offsets over %" PRIu64 " blocks of %s "
					"need a random map of %" PRIu64 " MiB (a bit "
					"a block, as fio's); the maps of a run are held "
					"to %u MiB; norandommap=1 or "
					"random_generator=lfsr needs none", f->nblocks,
					f->path, bytes >> 20, RANDMAP_BYTES_MAX >> 20);
				return fio_refuse(job, "norandommap", err, why);
			}
			td->run->randmap_bytes += bytes;
			fio_randmap_init(&f->map, f->nblocks);
		}
		/* init_random_map: an lfsr job's register per file, whatever
		 * the distribution, from the offsets' seed */
		if (fio_rw_random(o->rw) && o->random_generator == FIO_RANDGEN_LFSR) {
			f->lfsr_on = true;
			if (!fio_lfsr_init(&f->lfsr, f->nblocks, td->block_seed))
				return fio_refuse(job, "random_generator", err,
					      "fio fails this job: its seed puts "
					      "the LFSR of a file in its dead state "
					      "(\"failed initializing LFSR\"); "
					      "try another randseed");
		}
		if (f->nblocks > UINT32_MAX && !o->random_generator_set &&
		    o->random_generator == FIO_RANDGEN_TAUSWORTHE)
			td->offsets_reseed64 = true;
		fio_file_new_pass(td, f);
	}
	fio_file_dist_init(td);
	if (fio_fservice_draws(o) && td->nfiles > 1)
		fio_next_file(td);
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

