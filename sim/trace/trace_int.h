/*
 * Inside the trace readers: the reader state shared by trace.c (buffering,
 * detection, the file table, the replay clock) and the per-format parsers
 * in trace_iolog.c, trace_blktrace.c and trace_csv.c.
 */
#ifndef STORSIM_TRACE_INT_H
#define STORSIM_TRACE_INT_H

#include "trace.h"

/* Longest text line a reader accepts; the buffer holds a few of them. */
#define TRACE_LINE_MAX (64 * 1024)
#define TRACE_BUF_SIZE (4 * TRACE_LINE_MAX)
/* More distinct files than this is taken for a broken trace: the table
 * must stay small whatever the trace's length. */
#define TRACE_FILES_MAX 65536
/* Up to this many files, a name is looked up by comparing, not hashing. */
#define TRACE_FILES_SCAN 16

struct trace_format_ops {
	const char *name;
	/* Read the header, if the format has one, and set up state. */
	bool (*open)(struct trace_reader *r, GError **err);
	int (*next)(struct trace_reader *r, struct trace_record *rec,
		    GError **err);
};

extern const struct trace_format_ops trace_iolog_ops;
extern const struct trace_format_ops trace_blktrace_ops;
extern const struct trace_format_ops trace_blkparse_ops;
extern const struct trace_format_ops trace_msr_ops;
extern const struct trace_format_ops trace_spc_ops;
extern const struct trace_format_ops trace_disksim_ops;

struct trace_reader {
	char *name;			/* for messages */
	enum trace_format format;
	const struct trace_format_ops *ops;
	struct trace_read_opts opts;
	struct trace_time_unit unit;	/* opts' or the format's default */

	GInputStream *in;
	char *buf;
	size_t start, end;		/* unread bytes are buf[start, end) */
	bool eof;
	uint64_t consumed;		/* bytes of input before buf[start] */

	uint64_t line;			/* last line (text) or record read */
	uint64_t record_offset;		/* blktrace: byte where it starts */
	struct trace_read_stats stats;

	GPtrArray *names;		/* file index -> name */
	GHashTable *index;		/* name -> index + 1 */
	uint32_t last_file;		/* the previous lookup's answer */

	bool clock_started;
	uint64_t last_stamp;		/* the previous timestamp, ns */
	uint64_t now;			/* replay time, ns */

	union {
		struct {
			int version;
			uint64_t wait_until;	/* TRACE_V2_WAIT_FIO */
		} iolog;
		struct {
			bool swap;
			bool summary;	/* blkparse: past the events */
			unsigned ndevs;
			struct {	/* the first devices seen */
				uint32_t dev, file;
			} devs[TRACE_FILES_SCAN];
		} blk;
	} u;
};

/* Next line (without its end of line, NUL-terminated, writable) in *line;
 * 1, 0 at the end, -1 with *err set (too long, read error). */
int trace_getline(struct trace_reader *r, char **line, size_t *len,
		  GError **err);
/* Read exactly n bytes (n <= TRACE_LINE_MAX); returns bytes read, which is
 * less than n only at the end of input, or -1 with *err set. */
gssize trace_read_bytes(struct trace_reader *r, void *dst, size_t n,
			GError **err);
/* Byte offset in the (decompressed) input of the next unread byte. */
static inline uint64_t trace_offset(const struct trace_reader *r)
{
	return r->consumed + r->start;
}

/* Index of the file called name; adds it when new. Compares with the
 * previous answer first so that a trace on one file hashes nothing. */
bool trace_file_intern(struct trace_reader *r, const char *name,
		       uint32_t *file, GError **err);
/* Existing index of name (iolog files must be added before use). */
bool trace_file_lookup(struct trace_reader *r, const char *name,
		       uint32_t *file);

/* Advance the replay clock to a record stamped stamp (ns, in the trace's
 * own clock) and give the replay time in *now: the first record is at 0 and
 * a step backwards counts as no time, as fio's delay_since_ttime. */
bool trace_clock(struct trace_reader *r, uint64_t stamp, uint64_t *now,
		 GError **err);

/* Field parsing. Each sets *err naming the reader's file and line and the
 * field when the text is not a (non-negative, in range) decimal number. */
bool trace_parse_u64(struct trace_reader *r, const char *field,
		     const char *s, size_t len, uint64_t *v, GError **err);
/* A decimal number with an optional fraction, times the unit, in ns. */
bool trace_parse_time(struct trace_reader *r, const char *field,
		      const char *s, size_t len, struct trace_time_unit unit,
		      uint64_t *ns, GError **err);
/* value * mul without overflow, else *err about field. */
bool trace_mul(struct trace_reader *r, const char *field, uint64_t value,
	       uint64_t mul, uint64_t *out, GError **err);

/* Split s at sep (or at runs of blanks when sep is 0) into at most max
 * fields; blanks around each field are trimmed. Returns the number of
 * fields, max + 1 if there are more. */
unsigned trace_split(char *s, size_t len, char sep, char **f, size_t *flen,
		     unsigned max);

/* Set *err to an input error at the reader's current line, or for a
 * blktrace at its current record and byte offset. */
void trace_error(struct trace_reader *r, GError **err, const char *fmt, ...)
	G_GNUC_PRINTF(3, 4);

#endif
