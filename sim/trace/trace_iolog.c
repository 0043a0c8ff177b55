/*
 * fio iologs: reading versions 2 and 3, writing version 3.
 *
 * A v2 line is "FILE ACTION" (add, open, close) or "FILE ACTION OFFSET
 * LENGTH" (read, write, trim, sync, datasync, wait); a v3 line puts a
 * timestamp first and has no wait. Anything else on the first line is a
 * v1 log, refused as fio refuses it. Unlike fio, which logs a bad line and
 * carries on, a bad line stops the read with its file, line and field.
 *
 * Units: offsets and lengths in bytes; v3 timestamps in microseconds since
 * the log began (fio's writer uses utime_since_now; its reader sleeps the
 * difference in microseconds); the v2 wait as enum trace_v2_wait says.
 *
 * Sources: fio 3.33 iolog.c (read_iolog: the sscanf shapes, with %256s
 * names and a 32-bit %u length; init_iolog_read: version lines; log_io_u
 * and log_file: the v3 line layout; read_iolog_get: a v2 wait sleeps until
 * OFFSET ms since fio started, which fio 3.33 was seen to do), HOWTO "Trace
 * file format". Facts only; the code is storsim's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "trace_int.h"
#include "engine/util.h"

static const char ver2[] = "fio version 2 iolog";
static const char ver3[] = "fio version 3 iolog";
/* fio reads names with %256s: a longer one would be cut into fields. */
#define IOLOG_NAME_MAX 256

enum { IOLOG_WAIT = TRACE_OP_NR };

static const struct {
	const char *name;
	int op;
	bool io;	/* takes OFFSET LENGTH */
} actions[] = {
	{ "read", TRACE_OP_READ, true },
	{ "write", TRACE_OP_WRITE, true },
	{ "trim", TRACE_OP_TRIM, true },
	{ "sync", TRACE_OP_SYNC, true },
	{ "datasync", TRACE_OP_DATASYNC, true },
	{ "wait", IOLOG_WAIT, true },
	{ "add", TRACE_OP_ADD, false },
	{ "open", TRACE_OP_OPEN, false },
	{ "close", TRACE_OP_CLOSE, false },
};

static bool iolog_open(struct trace_reader *r, GError **err)
{
	char *line;
	size_t len;
	int got = trace_getline(r, &line, &len, err);

	if (got < 0)
		return false;
	if (got == 0) {
		storsim_input_error(err, r->name, 0, NULL, "the trace is empty");
		return false;
	}
	/* fio compares the header's length only: the rest of the line is free */
	if (!strncmp(line, ver2, strlen(ver2))) {
		r->u.iolog.version = 2;
	} else if (!strncmp(line, ver3, strlen(ver3))) {
		r->u.iolog.version = 3;
	} else {
		trace_error(r, err, "iolog version 1 is no longer supported "
			    "(fio refuses it too): the first line must be '%s' "
			    "or '%s'", ver2, ver3);
		return false;
	}
	if (!r->unit.mul)
		r->unit = (struct trace_time_unit){ 1000, 1 };
	return true;
}

/* A v2 wait moves the replay clock; it is not a record of its own. */
static bool v2_wait(struct trace_reader *r, uint64_t value, GError **err)
{
	uint64_t t;

	if (r->opts.v2_wait == TRACE_V2_WAIT_HOWTO) {
		if (value < 100)
			return true;
		if (!trace_mul(r, "offset", value, 1000, &t, err))
			return false;
		if (t > UINT64_MAX - r->now) {
			trace_error(r, err, "replay time passes 2^64 ns");
			return false;
		}
		r->now += t;
		return true;
	}
	if (!trace_mul(r, "offset", value, 1000000, &t, err))
		return false;
	r->now = MAX(r->now, t);
	return true;
}

static int iolog_next(struct trace_reader *r, struct trace_record *rec,
		      GError **err)
{
	const bool v3 = r->u.iolog.version == 3;
	const unsigned first = v3 ? 1 : 0;	/* index of the file name */
	char *line, *f[6];
	size_t len, fl[6];
	int got;

	while ((got = trace_getline(r, &line, &len, err)) > 0) {
		unsigned n = trace_split(line, len, 0, f, fl, 5), a;
		uint64_t offset = 0, length = 0, stamp = 0;

		if (n == 0)
			continue;
		if (n != first + 2 && n != first + 4) {
			trace_error(r, err, "%s%u fields; a v%d line is %s",
				    n > 5 ? "more than " : "", MIN(n, 5u),
				    r->u.iolog.version, v3 ?
				    "'TIME FILE ACTION' or 'TIME FILE ACTION OFFSET LENGTH'" :
				    "'FILE ACTION' or 'FILE ACTION OFFSET LENGTH'");
			return -1;
		}
		for (a = 0; a < G_N_ELEMENTS(actions); a++)
			if (!strcmp(f[first + 1], actions[a].name))
				break;
		if (a == G_N_ELEMENTS(actions)) {
			trace_error(r, err, "field 'action': unknown action '%.40s'",
				    f[first + 1]);
			return -1;
		}
		if (actions[a].io != (n == first + 4)) {
			trace_error(r, err, "field 'action': '%s' %s", actions[a].name,
				    actions[a].io ? "needs OFFSET and LENGTH" :
				    "takes no OFFSET or LENGTH");
			return -1;
		}
		if (v3 && actions[a].op == IOLOG_WAIT) {
			trace_error(r, err, "field 'action': 'wait' is not allowed "
				    "in a v3 iolog (fio ignores it)");
			return -1;
		}
		if (fl[first] > IOLOG_NAME_MAX) {
			trace_error(r, err, "field 'file': name longer than %d bytes "
				    "(fio reads at most %d)", IOLOG_NAME_MAX,
				    IOLOG_NAME_MAX);
			return -1;
		}
		if (v3 && !trace_parse_time(r, "time", f[0], fl[0], r->unit,
					    &stamp, err))
			return -1;
		if (actions[a].io) {
			if (!trace_parse_u64(r, "offset", f[first + 2], fl[first + 2],
					     &offset, err) ||
			    !trace_parse_u64(r, "length", f[first + 3], fl[first + 3],
					     &length, err))
				return -1;
		}
		if (actions[a].op == IOLOG_WAIT) {
			if (!v2_wait(r, offset, err))
				return -1;
			continue;
		}
		if (length > UINT32_MAX) {
			trace_error(r, err, "field 'length': %" G_GUINT64_FORMAT
				    " is more than fio reads (32 bits)", length);
			return -1;
		}
		if (!length && actions[a].op <= TRACE_OP_TRIM) {
			trace_error(r, err, "field 'length': a %s of 0 bytes",
				    actions[a].name);
			return -1;
		}
		if (offset > UINT64_MAX - length) {
			trace_error(r, err, "field 'offset': offset + length "
				    "passes 2^64");
			return -1;
		}
		if (actions[a].op == TRACE_OP_ADD) {
			if (!trace_file_intern(r, f[first], &rec->file, err))
				return -1;
		} else if (!trace_file_lookup(r, f[first], &rec->file)) {
			trace_error(r, err, "field 'file': '%.256s' was not added "
				    "('FILE add' must come first)", f[first]);
			return -1;
		}
		if (v3 && !trace_clock(r, stamp, &r->now, err))
			return -1;
		rec->time_ns = r->now;
		rec->op = (enum trace_op)actions[a].op;
		rec->offset = offset;
		rec->length = length;
		return 1;
	}
	return got;
}

const struct trace_format_ops trace_iolog_ops = {
	.name = "iolog",
	.open = iolog_open,
	.next = iolog_next,
};

/* --- writer --- */

struct iolog_file {
	char *name;	/* NULL: not declared */
	size_t len;
	bool open;
};

struct iolog_writer {
	char *path, *tmp;
	FILE *f;
	GError *error;		/* the first failure; reported at close */
	GArray *files;		/* struct iolog_file by index */
	uint64_t last_us;	/* time of the last line written */
};

struct iolog_writer *iolog_writer_new(const char *path, GError **err)
{
	struct iolog_writer *w;
	/* Whole or not at all, through a temporary file renamed into place,
	 * except where the rename would replace a device or a link. */
	gboolean in_place = storsim_write_in_place(path);
	char *tmp = in_place ? NULL : g_strconcat(path, ".XXXXXX", NULL);
	int fd = in_place ? open(path, O_WRONLY | O_TRUNC | O_CLOEXEC) :
			    g_mkstemp_full(tmp, O_WRONLY | O_CLOEXEC, 0666);
	FILE *f;

	if (fd < 0) {
		storsim_input_error(err, path, 0, NULL, "cannot create: %s",
				    g_strerror(errno));
		g_free(tmp);
		return NULL;
	}
	f = fdopen(fd, "w");
	if (!f) {
		storsim_input_error(err, path, 0, NULL, "cannot create: %s",
				    g_strerror(errno));
		close(fd);
		if (tmp)
			unlink(tmp);
		g_free(tmp);
		return NULL;
	}
	w = g_new0(struct iolog_writer, 1);
	w->path = g_strdup(path);
	w->tmp = tmp;
	w->f = f;
	w->files = g_array_new(FALSE, TRUE, sizeof(struct iolog_file));
	fprintf(f, "%s\n", ver3);
	return w;
}

static void writer_fail(struct iolog_writer *w, const char *fmt, ...)
	G_GNUC_PRINTF(2, 3);

static void writer_fail(struct iolog_writer *w, const char *fmt, ...)
{
	va_list ap;
	g_autofree char *msg = NULL;

	if (w->error)
		return;
	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	storsim_input_error(&w->error, w->path, 0, NULL, "%s", msg);
}

/* Digits of v at the end of buf; returns where they start. */
static char *utoa(uint64_t v, char *end)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

static void put_u64(char **p, uint64_t v)
{
	char tmp[24], *s = utoa(v, tmp + sizeof(tmp));
	size_t n = (size_t)(tmp + sizeof(tmp) - s);

	memcpy(*p, s, n);
	*p += n;
}

static void put_str(char **p, const char *s, size_t n)
{
	memcpy(*p, s, n);
	*p += n;
}

/* One line "TIME NAME WORD[ OFFSET LENGTH]". */
static void write_line(struct iolog_writer *w, uint64_t us,
		       const struct iolog_file *file, const char *word,
		       bool io, uint64_t offset, uint64_t len)
{
	char line[IOLOG_NAME_MAX + 96], *p = line;

	put_u64(&p, us);
	*p++ = ' ';
	put_str(&p, file->name, file->len);
	*p++ = ' ';
	put_str(&p, word, strlen(word));
	if (io) {
		*p++ = ' ';
		put_u64(&p, offset);
		*p++ = ' ';
		put_u64(&p, len);
	}
	*p++ = '\n';
	fwrite(line, 1, (size_t)(p - line), w->f);
	w->last_us = us;
}

void iolog_writer_file(struct iolog_writer *w, uint32_t file, const char *name)
{
	struct iolog_file *fe;
	size_t len = strlen(name);

	if (w->error)
		return;
	if (!len || len > IOLOG_NAME_MAX || strpbrk(name, " \t\r\n\v\f")) {
		writer_fail(w, "file name '%.256s': an iolog name is 1 to %d "
			    "bytes without white space", name, IOLOG_NAME_MAX);
		return;
	}
	if (file >= TRACE_FILES_MAX) {
		writer_fail(w, "file index %u: more than %d files", file,
			    TRACE_FILES_MAX);
		return;
	}
	if (file >= w->files->len)
		g_array_set_size(w->files, file + 1);
	fe = &g_array_index(w->files, struct iolog_file, file);
	if (fe->name) {
		writer_fail(w, "file %u declared twice", file);
		return;
	}
	fe->name = g_strdup(name);
	fe->len = len;
	write_line(w, w->last_us, fe, "add", false, 0, 0);
	write_line(w, w->last_us, fe, "open", false, 0, 0);
	fe->open = true;
}

void iolog_writer_io(struct iolog_writer *w, uint64_t time_ns, uint32_t file,
		     enum trace_op op, uint64_t offset, uint64_t len)
{
	static const char *const words[TRACE_OP_NR] = {
		[TRACE_OP_READ] = "read", [TRACE_OP_WRITE] = "write",
		[TRACE_OP_TRIM] = "trim", [TRACE_OP_SYNC] = "sync",
		[TRACE_OP_DATASYNC] = "datasync", [TRACE_OP_FLUSH] = "sync",
	};
	struct iolog_file *fe;
	uint64_t us = time_ns / 1000;

	if (w->error)
		return;
	if (file >= w->files->len ||
	    !(fe = &g_array_index(w->files, struct iolog_file, file))->name) {
		writer_fail(w, "file %u used before iolog_writer_file", file);
		return;
	}
	switch (op) {
	case TRACE_OP_ADD:
		return;
	case TRACE_OP_OPEN:
		if (!fe->open)
			write_line(w, us, fe, "open", false, 0, 0);
		fe->open = true;
		return;
	case TRACE_OP_CLOSE:
		if (fe->open)
			write_line(w, us, fe, "close", false, 0, 0);
		fe->open = false;
		return;
	default:
		break;
	}
	if (op >= TRACE_OP_NR) {
		writer_fail(w, "unknown operation %d", (int)op);
		return;
	}
	if (len > UINT32_MAX) {
		writer_fail(w, "length %" G_GUINT64_FORMAT " is more than fio "
			    "reads (32 bits)", len);
		return;
	}
	if (!fe->open) {
		write_line(w, us, fe, "open", false, 0, 0);
		fe->open = true;
	}
	write_line(w, us, fe, words[op], true, offset, len);
}

static void writer_free(struct iolog_writer *w)
{
	for (unsigned i = 0; i < w->files->len; i++)
		g_free(g_array_index(w->files, struct iolog_file, i).name);
	g_array_free(w->files, TRUE);
	g_clear_error(&w->error);
	g_free(w->path);
	g_free(w->tmp);
	g_free(w);
}

bool iolog_writer_close(struct iolog_writer *w, GError **err)
{
	for (unsigned i = 0; i < w->files->len; i++) {
		struct iolog_file *fe = &g_array_index(w->files, struct iolog_file, i);

		if (fe->name && fe->open)
			write_line(w, w->last_us, fe, "close", false, 0, 0);
	}
	if (!w->error && (fflush(w->f) || ferror(w->f) ||
			  (w->tmp && fsync(fileno(w->f)))))
		writer_fail(w, "cannot write: %s", g_strerror(errno));
	if (fclose(w->f) && !w->error)
		writer_fail(w, "cannot write: %s", g_strerror(errno));
	if (!w->error && w->tmp && rename(w->tmp, w->path))
		writer_fail(w, "cannot rename %s into place: %s", w->tmp,
			    g_strerror(errno));
	if (w->error) {
		if (w->tmp)
			unlink(w->tmp);
		g_propagate_error(err, g_steal_pointer(&w->error));
		writer_free(w);
		return false;
	}
	writer_free(w);
	return true;
}

void iolog_writer_abort(struct iolog_writer *w)
{
	fclose(w->f);
	if (w->tmp)
		unlink(w->tmp);
	writer_free(w);
}
