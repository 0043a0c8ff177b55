/*
 * fio's read_iolog: the records of a trace as a job's I/O.
 *
 * Stands for fio 3.33 iolog.c (read_iolog2 and blktrace.c's
 * load_blktrace, which read a trace into the job's list of io_pieces, and
 * read_iolog_get, which hands them out). The trace readers of sim/trace/trace.c
 * do the parsing and fio's replay_* options (docs/traces.md); this file
 * names the files a trace uses and hands out its records. The timing of
 * the replay, fio's iolog_delay, is the engine's (sim/workloads/fio/fio.c):
 * each record's delay is the gap between its time and the time of the
 * record before it.
 *
 * A trace is read twice: whole when the job is set up, so that a bad line
 * stops the run before it starts and every file is known (and opened) up
 * front; then one record at a time while the job runs. Memory does not
 * grow with the trace: the first pass keeps only the files.
 *
 * Sources: fio 3.33 iolog.c, blktrace.c; docs/traces.md.
 *
 * Left out: read_iolog_chunked (the whole-then-streaming reads make it
 * moot) and merge_blktrace_file (refused by the options).
 */
#include "fio_replay.h"

#include "options.h"

struct fio_replay {
	struct trace_replay_opts opts;
	char *path;
	struct trace_reader *reader;
	enum trace_format format;
	GArray *dense;		/* uint32 per trace file: index in names + 1 */
	GPtrArray *names;	/* files in order of first use */
	GArray *extents;	/* struct extent per file */
	uint64_t syncs;		/* sync, datasync and flush records */
};

struct extent {
	uint64_t end;		/* of the furthest I/O */
};

/* The index of a trace file in the replay's list, added at first use. */
static uint32_t file_index(struct fio_replay *r, uint32_t file)
{
	if (file >= r->dense->len)
		g_array_set_size(r->dense, file + 1);
	uint32_t *d = &g_array_index(r->dense, uint32_t, file);
	if (!*d) {
		const char *name = r->opts.redirect ? r->opts.redirect :
				   trace_file_name(r->reader, file);
		struct extent none = {0};

		g_ptr_array_add(r->names, g_strdup(name));
		g_array_append_val(r->extents, none);
		*d = r->names->len;
	}
	return *d - 1;
}

/* Read the next record through the options; the first pass also learns
 * the files and their extents from it. 1, 0 at the end, -1 on error. */
static int next_record(struct fio_replay *r, struct trace_record *rec,
		       GError **err)
{
	int got;

	while ((got = trace_next(r->reader, rec, err)) == 1) {
		if (!trace_replay_apply(&r->opts, r->format, rec))
			continue;
		rec->file = file_index(r, rec->file);
		return 1;
	}
	return got;
}

static bool is_io(enum trace_op op)
{
	return op == TRACE_OP_READ || op == TRACE_OP_WRITE || op == TRACE_OP_TRIM;
}

struct fio_replay *fio_replay_open(const struct job_options *o, GError **err)
{
	struct fio_replay *r = g_new0(struct fio_replay, 1);
	struct trace_record rec;
	uint64_t ios = 0;
	int got;

	trace_replay_opts_init(&r->opts);
	r->opts.no_stall = o->replay_no_stall;
	r->opts.time_scale = o->replay_time_scale ? o->replay_time_scale : 100;
	r->opts.redirect = o->replay_redirect;
	r->opts.align = o->replay_align;
	r->opts.scale = o->replay_scale;
	r->path = g_strdup(o->read_iolog);
	r->dense = g_array_new(FALSE, TRUE, sizeof(uint32_t));
	r->names = g_ptr_array_new_with_free_func(g_free);
	r->extents = g_array_new(FALSE, TRUE, sizeof(struct extent));

	if (o->replay_skip &&
	    !trace_replay_opt_set(&r->opts, "replay_skip", o->replay_skip, err))
		goto fail;
	r->reader = trace_open(r->path, TRACE_AUTO, err);
	if (!r->reader)
		goto fail;
	r->format = trace_reader_format(r->reader);
	/* fio's read_iolog2 fails a trace without reads, writes or waits
	 * ("failed initializing iolog"): syncs alone are not enough. A v2
	 * wait moves the records after it on; v3 has no waits. */
	bool v2 = trace_iolog_version(r->reader) == 2;
	while ((got = next_record(r, &rec, err)) == 1) {
		if (is_io(rec.op) || (v2 && rec.time_ns))
			ios++;
		if (rec.op == TRACE_OP_ADD || rec.op == TRACE_OP_OPEN ||
		    rec.op == TRACE_OP_CLOSE)
			continue;
		struct extent *e = &g_array_index(r->extents, struct extent,
						  rec.file);
		if (is_io(rec.op))
			e->end = MAX(e->end, rec.offset + rec.length);
		if (rec.op == TRACE_OP_SYNC || rec.op == TRACE_OP_DATASYNC ||
		    rec.op == TRACE_OP_FLUSH)
			r->syncs++;
	}
	if (got < 0)
		goto fail;
	if (!ios) {
		g_set_error(err, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
			    "%s: no I/O to replay (no read, write, trim or "
			    "wait: fio fails it)", r->path);
		goto fail;
	}
	/* The second pass meets the files in the same order. */
	trace_close(r->reader);
	r->reader = trace_open(r->path, r->format, err);
	if (!r->reader)
		goto fail;
	return r;
fail:
	fio_replay_free(r);
	return NULL;
}

unsigned fio_replay_nfiles(const struct fio_replay *r)
{
	return r->names->len;
}

const char *fio_replay_file_name(const struct fio_replay *r, unsigned i)
{
	return r->names->pdata[i];
}

uint64_t fio_replay_file_end(const struct fio_replay *r, unsigned i)
{
	return g_array_index(r->extents, struct extent, i).end;
}

uint64_t fio_replay_syncs(const struct fio_replay *r)
{
	return r->syncs;
}

int fio_replay_next(struct fio_replay *r, struct trace_record *rec)
{
	g_autoptr(GError) err = NULL;
	int got = next_record(r, rec, &err);

	/* The first pass read the same bytes without an error. */
	g_assert(got >= 0);
	return got;
}

void fio_replay_free(struct fio_replay *r)
{
	if (!r)
		return;
	if (r->reader)
		trace_close(r->reader);
	g_array_free(r->dense, TRUE);
	g_ptr_array_free(r->names, TRUE);
	g_array_free(r->extents, TRUE);
	g_free(r->path);
	g_free(r);
}
