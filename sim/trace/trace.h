/*
 * Block traces in, fio iologs out: a streaming reader for fio iolog v2/v3,
 * blktrace binaries (as merged by blkparse -d), blkparse's default text,
 * MSR Cambridge (SNIA) CSV, SPC/UMass CSV and DiskSim/MQSim ASCII; fio's
 * replay options as a transform on the records; a writer of fio iolog v3.
 *
 * A reader holds one buffer and the table of file names, never the trace:
 * memory does not grow with the trace's length. docs/traces.md says which
 * unit each format's fields are read in and which of them are assumed.
 */
#ifndef STORSIM_TRACE_H
#define STORSIM_TRACE_H

#include <gio/gio.h>
#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

enum trace_format {
	TRACE_AUTO,		/* detect from the first bytes or line */
	TRACE_IOLOG,		/* fio iolog v2 or v3 */
	TRACE_BLKTRACE,		/* struct blk_io_trace records, either endian */
	TRACE_BLKPARSE,		/* blkparse's default text output */
	TRACE_MSR_CSV,		/* SNIA IOTTA MSR Cambridge CSV */
	TRACE_SPC_CSV,		/* SPC trace format (UMass Financial, WebSearch) */
	TRACE_DISKSIM,		/* DiskSim/MQSim ASCII */
	TRACE_FORMAT_NR,
};

enum trace_op {
	TRACE_OP_READ,
	TRACE_OP_WRITE,
	TRACE_OP_TRIM,
	TRACE_OP_SYNC,		/* fsync(2) of the file */
	TRACE_OP_DATASYNC,	/* fdatasync(2) */
	TRACE_OP_FLUSH,		/* a block-layer flush (blktrace F) */
	TRACE_OP_ADD,		/* iolog file actions */
	TRACE_OP_OPEN,
	TRACE_OP_CLOSE,
	TRACE_OP_NR,
};

struct trace_record {
	uint64_t time_ns;	/* replay time since the trace's start */
	enum trace_op op;
	uint32_t file;		/* index into the reader's file names */
	uint64_t offset;	/* bytes */
	uint64_t length;	/* bytes */
};

/* How fio's iolog v2 "wait OFFSET" line is read. */
enum trace_v2_wait {
	/* What fio 3.33 does (measured, docs/traces.md): wait until OFFSET
	 * milliseconds after the replay began. */
	TRACE_V2_WAIT_FIO,
	/* What fio's HOWTO says: wait OFFSET microseconds after the previous
	 * wait; values below 100 are discarded. */
	TRACE_V2_WAIT_HOWTO,
};

/* A unit of time: a value v means v * mul / div nanoseconds. */
struct trace_time_unit {
	uint64_t mul, div;
};

struct trace_read_opts {
	enum trace_format format;	/* TRACE_AUTO: detect */
	struct trace_time_unit time_unit;	/* {0, 0}: the format's own */
	uint32_t lba_size;	/* bytes per LBA for SPC; 0: 512 */
	enum trace_v2_wait v2_wait;
};

struct trace_reader;

/* Counts a reader keeps while it reads, for "storsim trace info". */
struct trace_read_stats {
	uint64_t units;		/* lines (text) or records (blktrace) read */
	uint64_t skipped;	/* of those, not replayed (as fio skips them) */
	uint64_t backsteps;	/* times a timestamp went backwards */
};

void trace_read_opts_init(struct trace_read_opts *o);

/*
 * Open path ("-" is standard input; gzip input is decompressed) and read
 * the format's header, detecting the format if asked. NULL with *err set
 * when the file cannot be read or is not in the format.
 */
struct trace_reader *trace_open(const char *path, enum trace_format fmt,
				GError **err);
struct trace_reader *trace_open_with(const char *path,
				     const struct trace_read_opts *o,
				     GError **err);
/* Read from a stream (taken over); name is used in messages. */
struct trace_reader *trace_open_stream(GInputStream *in, const char *name,
				       const struct trace_read_opts *o,
				       GError **err);

/* 1 with *rec filled, 0 at the end of the trace, -1 with *err set. */
int trace_next(struct trace_reader *r, struct trace_record *rec, GError **err);

const char *trace_file_name(const struct trace_reader *r, uint32_t file);
unsigned trace_nfiles(const struct trace_reader *r);
enum trace_format trace_reader_format(const struct trace_reader *r);
/* fio iolog version (2 or 3), 0 for other formats. */
int trace_iolog_version(const struct trace_reader *r);
void trace_read_stats(const struct trace_reader *r, struct trace_read_stats *s);
void trace_close(struct trace_reader *r);

const char *trace_format_name(enum trace_format fmt);
bool trace_format_parse(const char *name, enum trace_format *fmt, GError **err);
const char *trace_op_name(enum trace_op op);
/* Units: ps, ns, 100ns, us, ms, s. */
bool trace_time_unit_parse(const char *name, struct trace_time_unit *u,
			   GError **err);

/* fio's replay options, as fio's HOWTO and iolog.c/blktrace.c mean them. */
struct trace_replay_opts {
	bool no_stall;		/* replay_no_stall: all times become 0 */
	unsigned time_scale;	/* replay_time_scale: percent, 200 = 2x fast */
	const char *redirect;	/* replay_redirect: every I/O to file 0 */
	uint64_t align;		/* replay_align: power of 2, 0 = off */
	uint64_t scale;		/* replay_scale: divide offsets, 0/1 = off */
	unsigned skip;		/* replay_skip: bit (1 << trace_op) drops */
};

void trace_replay_opts_init(struct trace_replay_opts *o);
/* Set one option by its fio name ("replay_align") from its text value. */
bool trace_replay_opt_set(struct trace_replay_opts *o, const char *name,
			  const char *value, GError **err);
/*
 * Apply the options to a record read from a trace of format src (blktrace
 * lengths are rounded up to replay_align as fio does). False when the
 * record is to be dropped (replay_skip).
 */
bool trace_replay_apply(const struct trace_replay_opts *o,
			enum trace_format src, struct trace_record *rec);

/*
 * fio iolog v3 writer. The file appears at close, whole, or not at all:
 * lines go to a temporary file beside path, renamed over path at close.
 * Times are written in microseconds (truncated), as fio 3.33 writes them.
 */
struct iolog_writer;

struct iolog_writer *iolog_writer_new(const char *path, GError **err);
/* Declare file's name and write its "add" and "open" lines. */
void iolog_writer_file(struct iolog_writer *w, uint32_t file, const char *name);
/*
 * Write one action on a declared file. TRACE_OP_FLUSH is written as
 * "sync" (fio replays a blktrace flush as a sync); ADD is a no-op (done by
 * iolog_writer_file); OPEN of an open file and CLOSE of a closed one are
 * dropped so that fio sees each file opened once at a time.
 */
void iolog_writer_io(struct iolog_writer *w, uint64_t time_ns, uint32_t file,
		     enum trace_op op, uint64_t offset, uint64_t len);
/* Close files still open, then publish the file. False with *err set if
 * any step (or an earlier write) failed; the file then is not created. */
bool iolog_writer_close(struct iolog_writer *w, GError **err);
/* Discard everything written; path is left as it was. */
void iolog_writer_abort(struct iolog_writer *w);

#endif
