/*
 * Trace input, the parts every format shares: opening (gzip and standard
 * input included), telling the format from the first bytes, the bounded
 * read buffer, the table of file names, the replay clock, number parsing,
 * and fio's replay options.
 *
 * Sources: fio 3.33 iolog.c (version lines; iolog v1 refused; the delay
 * between timestamps in delay_since_ttime, a step back counting as none;
 * replay_scale then replay_align on offsets), blktrace.c (is_blktrace: the
 * magic in either byte order; replay_align also rounding blktrace lengths
 * up), options.c and HOWTO (replay_* meanings and defaults). Facts only;
 * the code is storsim's.
 */
#include <errno.h>
#include <limits.h>
#include <gio/gunixinputstream.h>
#include <stdarg.h>
#include <string.h>

#include "trace_int.h"
#include "engine/util.h"

#define BLK_IO_TRACE_MAGIC 0x65617400u

static const struct {
	const char *name;
	const struct trace_format_ops *ops;
	const char *help;
} formats[TRACE_FORMAT_NR] = {
	[TRACE_AUTO] = { "auto", NULL, "detect from the first bytes" },
	[TRACE_IOLOG] = { "iolog", &trace_iolog_ops, "fio iolog v2 or v3" },
	[TRACE_BLKTRACE] = { "blktrace", &trace_blktrace_ops,
			     "blktrace binary (blkparse -d output)" },
	[TRACE_BLKPARSE] = { "blkparse", &trace_blkparse_ops,
			     "blkparse default text output" },
	[TRACE_MSR_CSV] = { "msr", &trace_msr_ops, "MSR Cambridge (SNIA) CSV" },
	[TRACE_SPC_CSV] = { "spc", &trace_spc_ops, "SPC/UMass CSV" },
	[TRACE_DISKSIM] = { "disksim", &trace_disksim_ops,
			    "DiskSim/MQSim ASCII" },
};

static const char *const op_names[TRACE_OP_NR] = {
	[TRACE_OP_READ] = "read", [TRACE_OP_WRITE] = "write",
	[TRACE_OP_TRIM] = "trim", [TRACE_OP_SYNC] = "sync",
	[TRACE_OP_DATASYNC] = "datasync", [TRACE_OP_FLUSH] = "flush",
	[TRACE_OP_ADD] = "add", [TRACE_OP_OPEN] = "open",
	[TRACE_OP_CLOSE] = "close",
};

const char *trace_format_name(enum trace_format fmt)
{
	return fmt < TRACE_FORMAT_NR ? formats[fmt].name : "?";
}

bool trace_format_parse(const char *name, enum trace_format *fmt, GError **err)
{
	GString *known = g_string_new(NULL);

	for (unsigned i = 0; i < TRACE_FORMAT_NR; i++) {
		if (!strcmp(name, formats[i].name)) {
			*fmt = i;
			g_string_free(known, TRUE);
			return true;
		}
		g_string_append_printf(known, "%s%s", i ? ", " : "",
				       formats[i].name);
	}
	storsim_input_error(err, NULL, 0, "format", "unknown trace format '%s' (%s)",
			    name, known->str);
	g_string_free(known, TRUE);
	return false;
}

const char *trace_op_name(enum trace_op op)
{
	return op < TRACE_OP_NR ? op_names[op] : "?";
}

bool trace_time_unit_parse(const char *name, struct trace_time_unit *u,
			   GError **err)
{
	static const struct {
		const char *name;
		struct trace_time_unit unit;
	} units[] = {
		{ "ps", { 1, 1000 } },
		{ "ns", { 1, 1 } },
		{ "100ns", { 100, 1 } },
		{ "us", { 1000, 1 } },
		{ "ms", { 1000000, 1 } },
		{ "s", { 1000000000, 1 } },
	};

	for (unsigned i = 0; i < G_N_ELEMENTS(units); i++) {
		if (!strcmp(name, units[i].name)) {
			*u = units[i].unit;
			return true;
		}
	}
	storsim_input_error(err, NULL, 0, "time-unit",
			    "unknown unit '%s' (ps, ns, 100ns, us, ms, s)", name);
	return false;
}

void trace_read_opts_init(struct trace_read_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->format = TRACE_AUTO;
	o->v2_wait = TRACE_V2_WAIT_FIO;
}

/* --- errors and number parsing --- */

void trace_error(struct trace_reader *r, GError **err, const char *fmt, ...)
{
	va_list ap;
	g_autofree char *msg = NULL;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	if (r->format == TRACE_BLKTRACE)
		storsim_input_error(err, r->name, 0, NULL,
				    "record %" G_GUINT64_FORMAT " (byte %"
				    G_GUINT64_FORMAT "): %s",
				    r->line, r->record_offset, msg);
	else
		storsim_input_error(err, r->name, r->line > INT_MAX ? 0 : (int)r->line,
				    NULL, "%s", msg);
}

/* Long fields are cut in messages: the line may be anything. */
#define SHOWN 40

bool trace_parse_u64(struct trace_reader *r, const char *field,
		     const char *s, size_t len, uint64_t *v, GError **err)
{
	uint64_t x = 0;

	if (!len) {
		trace_error(r, err, "field '%s' is empty", field);
		return false;
	}
	if (s[0] == '-' && len > 1 && g_ascii_isdigit(s[1])) {
		trace_error(r, err, "field '%s': %.*s is negative", field,
			    (int)MIN(len, SHOWN), s);
		return false;
	}
	for (size_t i = 0; i < len; i++) {
		if (!g_ascii_isdigit(s[i])) {
			trace_error(r, err, "field '%s': '%.*s' is not a number",
				    field, (int)MIN(len, SHOWN), s);
			return false;
		}
		if (x > (UINT64_MAX - (uint64_t)(s[i] - '0')) / 10) {
			trace_error(r, err, "field '%s': %.*s is out of range "
				    "(at most %" G_GUINT64_FORMAT ")", field,
				    (int)MIN(len, SHOWN), s, UINT64_MAX);
			return false;
		}
		x = x * 10 + (uint64_t)(s[i] - '0');
	}
	*v = x;
	return true;
}

bool trace_mul(struct trace_reader *r, const char *field, uint64_t value,
	       uint64_t mul, uint64_t *out, GError **err)
{
	if (mul && value > UINT64_MAX / mul) {
		trace_error(r, err, "field '%s': %" G_GUINT64_FORMAT " x %"
			    G_GUINT64_FORMAT " does not fit in 64 bits", field,
			    value, mul);
		return false;
	}
	*out = value * mul;
	return true;
}

bool trace_parse_time(struct trace_reader *r, const char *field,
		      const char *s, size_t len, struct trace_time_unit unit,
		      uint64_t *ns, GError **err)
{
	const char *dot = memchr(s, '.', len);
	size_t ilen = dot ? (size_t)(dot - s) : len, digits = 0;
	uint64_t whole = 0, frac = 0, pow10 = 1, scaled;

	if (!dot)
		return trace_parse_u64(r, field, s, len, &whole, err) &&
		       trace_mul(r, field, whole, unit.mul, &scaled, err) &&
		       (*ns = scaled / unit.div, true);
	/* "5." and ".5" are numbers to strtod, so they are here too */
	for (size_t i = 0; i < len; i++)
		digits += g_ascii_isdigit(s[i]) != 0;
	if (!digits || digits != len - 1) {
		trace_error(r, err, s[0] == '-' && digits == len - 2 ?
			    "field '%s': %.*s is negative" :
			    "field '%s': '%.*s' is not a number", field,
			    (int)MIN(len, SHOWN), s);
		return false;
	}
	if (ilen && !trace_parse_u64(r, field, s, ilen, &whole, err))
		return false;
	/* Nine digits go below a nanosecond for every unit up to the
	 * second; later ones cannot change the result. */
	for (size_t i = ilen + 1; i < len && i < ilen + 10; i++) {
		frac = frac * 10 + (uint64_t)(s[i] - '0');
		pow10 *= 10;
	}
	if (!trace_mul(r, field, whole, unit.mul, &scaled, err))
		return false;
	/* floor((whole + frac / pow10) * mul / div) without overflow: the
	 * remainder of the whole part joins the fraction. */
	*ns = scaled / unit.div +
	      ((scaled % unit.div) * pow10 + frac * unit.mul) / (unit.div * pow10);
	return true;
}

unsigned trace_split(char *s, size_t len, char sep, char **f, size_t *flen,
		     unsigned max)
{
	char *p = s, *end = s + len;
	unsigned n = 0;

	if (!sep) {
		for (;;) {
			while (p < end && (*p == ' ' || *p == '\t'))
				p++;
			if (p == end)
				return n;
			if (n == max)
				return max + 1;
			f[n] = p;
			while (p < end && *p != ' ' && *p != '\t')
				p++;
			flen[n] = (size_t)(p - f[n]);
			if (p < end)
				*p++ = '\0';
			n++;
		}
	}
	for (;;) {
		char *q = memchr(p, sep, (size_t)(end - p));
		char *fe = q ? q : end;

		if (n == max)
			return max + 1;
		while (p < fe && (*p == ' ' || *p == '\t'))
			p++;
		while (fe > p && (fe[-1] == ' ' || fe[-1] == '\t'))
			fe--;
		f[n] = p;
		flen[n] = (size_t)(fe - p);
		*fe = '\0';
		n++;
		if (!q)
			return n;
		p = q + 1;
	}
}

/* --- buffered input --- */

/* Keep the unread bytes and read more behind them: until the buffer is
 * full if whole, else until anything came (a pipe then does not wait for
 * its writer to fill the buffer). False on a read error. */
static bool fill(struct trace_reader *r, bool whole, GError **err)
{
	size_t had;

	g_autoptr(GError) local = NULL;
	gssize n;

	if (r->start) {
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->consumed += r->start;
		r->end -= r->start;
		r->start = 0;
	}
	had = r->end;
	while (!r->eof && r->end < TRACE_BUF_SIZE && (whole || r->end == had)) {
		n = g_input_stream_read(r->in, r->buf + r->end,
					TRACE_BUF_SIZE - r->end, NULL, &local);
		if (n < 0) {
			storsim_input_error(err, r->name, 0, NULL,
					    "cannot read: %s", local->message);
			return false;
		}
		if (n == 0)
			r->eof = true;
		r->end += (size_t)n;
	}
	return true;
}

int trace_getline(struct trace_reader *r, char **line, size_t *len,
		  GError **err)
{
	for (;;) {
		char *p = r->buf + r->start;
		size_t avail = r->end - r->start;
		char *nl = memchr(p, '\n', avail);

		if (nl || (r->eof && avail)) {
			size_t l = nl ? (size_t)(nl - p) : avail;

			if (l > TRACE_LINE_MAX)
				break;

			/* buf has one byte beyond TRACE_BUF_SIZE for this */
			p[l] = '\0';
			r->start += nl ? l + 1 : l;
			if (l && p[l - 1] == '\r')
				p[--l] = '\0';
			r->line++;
			r->stats.units++;
			*line = p;
			*len = l;
			return 1;
		}
		if (r->eof)
			return 0;
		if (avail > TRACE_LINE_MAX)
			break;
		if (!fill(r, false, err))
			return -1;
	}
	r->line++;
	trace_error(r, err, "line longer than %d bytes", TRACE_LINE_MAX);
	return -1;
}

gssize trace_read_bytes(struct trace_reader *r, void *dst, size_t n,
			GError **err)
{
	size_t done = 0;

	while (done < n) {
		size_t avail = r->end - r->start, take = MIN(avail, n - done);

		if (take) {
			if (dst)
				memcpy((char *)dst + done, r->buf + r->start, take);
			r->start += take;
			done += take;
			continue;
		}
		if (r->eof)
			break;
		if (!fill(r, false, err))
			return -1;
	}
	return (gssize)done;
}

/* --- files and the clock --- */

static bool add_file(struct trace_reader *r, const char *name, uint32_t *file,
		     GError **err)
{
	char *copy;

	if (r->names->len >= TRACE_FILES_MAX) {
		trace_error(r, err, "more than %d distinct files or devices",
			    TRACE_FILES_MAX);
		return false;
	}
	copy = g_strdup(name);
	g_ptr_array_add(r->names, copy);
	g_hash_table_insert(r->index, copy, GUINT_TO_POINTER(r->names->len));
	*file = r->names->len - 1;
	r->last_file = *file;
	return true;
}

bool trace_file_lookup(struct trace_reader *r, const char *name, uint32_t *file)
{
	gpointer v;

	if (r->names->len && !strcmp(g_ptr_array_index(r->names, r->last_file),
				     name)) {
		*file = r->last_file;
		return true;
	}
	/* A few files interleaved (the usual case) are found by comparing
	 * names; only a larger table is worth hashing the name. */
	if (r->names->len <= TRACE_FILES_SCAN) {
		for (uint32_t i = 0; i < r->names->len; i++) {
			if (!strcmp(g_ptr_array_index(r->names, i), name)) {
				*file = r->last_file = i;
				return true;
			}
		}
		return false;
	}
	v = g_hash_table_lookup(r->index, name);
	if (!v)
		return false;
	*file = GPOINTER_TO_UINT(v) - 1;
	r->last_file = *file;
	return true;
}

bool trace_file_intern(struct trace_reader *r, const char *name,
		       uint32_t *file, GError **err)
{
	return trace_file_lookup(r, name, file) || add_file(r, name, file, err);
}

bool trace_clock(struct trace_reader *r, uint64_t stamp, uint64_t *now,
		 GError **err)
{
	if (!r->clock_started) {
		r->clock_started = true;
	} else if (stamp >= r->last_stamp) {
		if (stamp - r->last_stamp > UINT64_MAX - r->now) {
			trace_error(r, err, "replay time passes 2^64 ns");
			return false;
		}
		r->now += stamp - r->last_stamp;
	} else {
		r->stats.backsteps++;
	}
	r->last_stamp = stamp;
	*now = r->now;
	return true;
}

/* --- opening --- */

static bool is_blktrace_magic(const unsigned char *p)
{
	uint32_t m;

	memcpy(&m, p, sizeof(m));
	return (m & 0xffffff00u) == BLK_IO_TRACE_MAGIC ||
	       (GUINT32_SWAP_LE_BE(m) & 0xffffff00u) == BLK_IO_TRACE_MAGIC;
}

static bool is_number(const char *s, size_t len, bool dot_ok)
{
	bool digit = false, dot = false;

	for (size_t i = 0; i < len; i++) {
		if (g_ascii_isdigit(s[i]))
			digit = true;
		else if (s[i] == '.' && dot_ok && !dot)
			dot = true;
		else
			return false;
	}
	return digit;
}

static bool is_one_of(const char *s, size_t len, const char *const *words)
{
	for (; *words; words++)
		if (strlen(*words) == len && !g_ascii_strncasecmp(s, *words, len))
			return true;
	return false;
}

/* blkparse's default line opens "MAJ,MIN CPU SEQ SEC.NSEC PID ACT RWBS". */
static bool looks_blkparse(char **f, size_t *fl, unsigned n)
{
	const char *comma;

	if (n < 7)
		return false;
	comma = memchr(f[0], ',', fl[0]);
	return comma && is_number(f[0], (size_t)(comma - f[0]), false) &&
	       is_number(comma + 1, fl[0] - (size_t)(comma - f[0]) - 1, false) &&
	       is_number(f[1], fl[1], false) && is_number(f[2], fl[2], false) &&
	       is_number(f[3], fl[3], true) && memchr(f[3], '.', fl[3]) &&
	       is_number(f[4], fl[4], false);
}

/* The format of a text trace from its first non-blank line. */
static enum trace_format detect_text(const char *first, size_t len)
{
	static const char *const msr_types[] = { "Read", "Write", NULL };
	static const char *const spc_ops[] = { "r", "w", NULL };
	char *f[8];
	size_t fl[8];
	g_autofree char *copy = g_strndup(first, len);
	unsigned n;

	if (g_str_has_prefix(first, "fio version "))
		return TRACE_IOLOG;
	n = trace_split(copy, len, ',', f, fl, 7);
	if (n == 7 && is_one_of(f[3], fl[3], msr_types))
		return TRACE_MSR_CSV;
	if (n == 5 && is_one_of(f[3], fl[3], spc_ops))
		return TRACE_SPC_CSV;
	/* fio 1.x wrote "rw,offset,length" with rw 0 or 1: an iolog v1,
	 * which the iolog reader refuses as fio does. */
	if (n == 3 && is_one_of(f[0], fl[0], (const char *const[]){ "0", "1", NULL }))
		return TRACE_IOLOG;
	memcpy(copy, first, len);
	n = trace_split(copy, len, 0, f, fl, 7);
	if (looks_blkparse(f, fl, n))
		return TRACE_BLKPARSE;
	if (n == 5) {
		unsigned i;

		for (i = 0; i < 5 && is_number(f[i], fl[i], i == 0); i++)
			;
		if (i == 5)
			return TRACE_DISKSIM;
	}
	return TRACE_AUTO;
}

static bool detect(struct trace_reader *r, GError **err)
{
	const char *p = r->buf + r->start, *end = r->buf + r->end, *nl;
	size_t len;

	if (r->end - r->start >= 4 && is_blktrace_magic((const unsigned char *)p)) {
		r->format = TRACE_BLKTRACE;
		return true;
	}
	/* Skip blank lines to the first line with something on it. */
	while (p < end && (*p == '\n' || *p == '\r' || *p == ' ' || *p == '\t'))
		p++;
	if (p == end) {
		storsim_input_error(err, r->name, 0, NULL, "the trace is empty");
		return false;
	}
	nl = memchr(p, '\n', (size_t)(end - p));
	len = nl ? (size_t)(nl - p) : (size_t)(end - p);
	if (p[len - 1] == '\r')
		len--;
	r->format = detect_text(p, len);
	if (r->format == TRACE_AUTO) {
		storsim_input_error(err, r->name, 0, NULL,
			"cannot tell the trace's format from its first line or "
			"bytes; name it (iolog, blktrace, blkparse, msr, spc, disksim)");
		return false;
	}
	return true;
}

static GInputStream *open_input(const char *path, GError **err)
{
	g_autoptr(GError) local = NULL;
	g_autoptr(GFile) file = NULL;
	GFileInputStream *in;

	if (!strcmp(path, "-"))
		return g_unix_input_stream_new(0, FALSE);
	file = g_file_new_for_path(path);
	in = g_file_read(file, NULL, &local);
	if (!in) {
		storsim_input_error(err, path, 0, NULL, "cannot open: %s",
				    local->message);
		return NULL;
	}
	return G_INPUT_STREAM(in);
}

/* A gzip stream (magic 1f 8b) is read through a decompressor. */
static GInputStream *maybe_gunzip(GInputStream *in, const char *name,
				  GError **err)
{
	g_autoptr(GError) local = NULL;
	GBufferedInputStream *b =
		G_BUFFERED_INPUT_STREAM(g_buffered_input_stream_new(in));
	const unsigned char *head;
	gsize have;

	g_object_unref(in);
	if (g_buffered_input_stream_fill(b, 2, NULL, &local) < 0) {
		storsim_input_error(err, name, 0, NULL, "cannot read: %s",
				    local->message);
		g_object_unref(b);
		return NULL;
	}
	head = g_buffered_input_stream_peek_buffer(b, &have);
	if (have >= 2 && head[0] == 0x1f && head[1] == 0x8b) {
		GZlibDecompressor *z =
			g_zlib_decompressor_new(G_ZLIB_COMPRESSOR_FORMAT_GZIP);
		GInputStream *c = g_converter_input_stream_new(G_INPUT_STREAM(b),
							       G_CONVERTER(z));

		g_object_unref(z);
		g_object_unref(b);
		return c;
	}
	return G_INPUT_STREAM(b);
}

struct trace_reader *trace_open_stream(GInputStream *in, const char *name,
				       const struct trace_read_opts *o,
				       GError **err)
{
	struct trace_reader *r = g_new0(struct trace_reader, 1);

	r->name = g_strdup(name);
	r->opts = *o;
	r->names = g_ptr_array_new_with_free_func(g_free);
	r->index = g_hash_table_new(g_str_hash, g_str_equal);
	r->buf = g_malloc(TRACE_BUF_SIZE + 1);
	r->in = maybe_gunzip(in, name, err);
	/* detection looks at the first line: read all it may need */
	if (!r->in || !fill(r, true, err))
		goto fail;
	r->format = o->format;
	if (r->format == TRACE_AUTO && !detect(r, err))
		goto fail;
	if (r->format >= TRACE_FORMAT_NR) {
		storsim_input_error(err, name, 0, NULL, "no such trace format");
		goto fail;
	}
	r->ops = formats[r->format].ops;
	r->unit = o->time_unit;
	if (!r->ops->open(r, err))
		goto fail;
	return r;
fail:
	trace_close(r);
	return NULL;
}

struct trace_reader *trace_open_with(const char *path,
				     const struct trace_read_opts *o,
				     GError **err)
{
	GInputStream *in = open_input(path, err);

	return in ? trace_open_stream(in, path, o, err) : NULL;
}

struct trace_reader *trace_open(const char *path, enum trace_format fmt,
				GError **err)
{
	struct trace_read_opts o;

	trace_read_opts_init(&o);
	o.format = fmt;
	return trace_open_with(path, &o, err);
}

int trace_next(struct trace_reader *r, struct trace_record *rec, GError **err)
{
	return r->ops->next(r, rec, err);
}

const char *trace_file_name(const struct trace_reader *r, uint32_t file)
{
	return file < r->names->len ? g_ptr_array_index(r->names, file) : NULL;
}

unsigned trace_nfiles(const struct trace_reader *r)
{
	return r->names->len;
}

enum trace_format trace_reader_format(const struct trace_reader *r)
{
	return r->format;
}

int trace_iolog_version(const struct trace_reader *r)
{
	return r->format == TRACE_IOLOG ? r->u.iolog.version : 0;
}

void trace_read_stats(const struct trace_reader *r, struct trace_read_stats *s)
{
	*s = r->stats;
}

void trace_close(struct trace_reader *r)
{
	if (!r)
		return;
	if (r->in)
		g_object_unref(r->in);
	g_hash_table_destroy(r->index);
	g_ptr_array_free(r->names, TRUE);
	g_free(r->buf);
	g_free(r->name);
	g_free(r);
}

/* --- replay options --- */

void trace_replay_opts_init(struct trace_replay_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->time_scale = 100;
}

static bool opt_uint(const char *name, const char *value, uint64_t min,
		     uint64_t max, uint64_t *out, GError **err)
{
	const char *p = value;
	uint64_t v = 0;

	if (!*p)
		goto bad;
	for (; *p; p++) {
		if (!g_ascii_isdigit(*p) || v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			goto bad;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (v < min || v > max)
		goto bad;
	*out = v;
	return true;
bad:
	storsim_input_error(err, NULL, 0, name,
			    "'%s' is not a whole number from %" G_GUINT64_FORMAT
			    " to %" G_GUINT64_FORMAT, value, min, max);
	return false;
}

static bool opt_skip(struct trace_replay_opts *o, const char *value,
		     GError **err)
{
	/* fio's replay_skip names; "sync" covers every kind of sync */
	static const struct {
		const char *name;
		unsigned mask;
	} kinds[] = {
		{ "read", 1u << TRACE_OP_READ },
		{ "write", 1u << TRACE_OP_WRITE },
		{ "trim", 1u << TRACE_OP_TRIM },
		{ "sync", (1u << TRACE_OP_SYNC) | (1u << TRACE_OP_DATASYNC) |
			  (1u << TRACE_OP_FLUSH) },
	};
	g_auto(GStrv) parts = g_strsplit(value, ",", -1);
	unsigned mask = 0;

	for (char **p = parts; *p; p++) {
		unsigned i;

		for (i = 0; i < G_N_ELEMENTS(kinds); i++)
			if (!strcmp(*p, kinds[i].name))
				break;
		if (i == G_N_ELEMENTS(kinds)) {
			storsim_input_error(err, NULL, 0, "replay_skip",
					    "unknown kind '%s' (read, write, trim, sync)",
					    *p);
			return false;
		}
		mask |= kinds[i].mask;
	}
	o->skip = mask;
	return true;
}

bool trace_replay_opt_set(struct trace_replay_opts *o, const char *name,
			  const char *value, GError **err)
{
	uint64_t v;

	if (!strcmp(name, "replay_no_stall")) {
		/* a bare flag, or fio's bool values */
		if (!value || !strcmp(value, "1") || !strcmp(value, "true")) {
			o->no_stall = true;
		} else if (!strcmp(value, "0") || !strcmp(value, "false")) {
			o->no_stall = false;
		} else {
			storsim_input_error(err, NULL, 0, name,
					    "'%s' is not 0 or 1", value);
			return false;
		}
		return true;
	}
	if (!value) {
		storsim_input_error(err, NULL, 0, name, "needs a value");
		return false;
	}
	if (!strcmp(name, "replay_time_scale")) {
		if (!opt_uint(name, value, 1, UINT32_MAX, &v, err))
			return false;
		o->time_scale = (unsigned)v;
	} else if (!strcmp(name, "replay_redirect")) {
		if (!*value) {
			storsim_input_error(err, NULL, 0, name, "is empty");
			return false;
		}
		o->redirect = value;
	} else if (!strcmp(name, "replay_align")) {
		if (!opt_uint(name, value, 0, UINT64_MAX, &v, err))
			return false;
		if (v & (v - 1)) {
			storsim_input_error(err, NULL, 0, name,
					    "%s is not a power of 2", value);
			return false;
		}
		o->align = v;
	} else if (!strcmp(name, "replay_scale")) {
		if (!opt_uint(name, value, 0, UINT64_MAX, &v, err))
			return false;
		o->scale = v;
	} else if (!strcmp(name, "replay_skip")) {
		return opt_skip(o, value, err);
	} else {
		storsim_input_error(err, NULL, 0, name, "not a replay option");
		return false;
	}
	return true;
}

bool trace_replay_apply(const struct trace_replay_opts *o,
			enum trace_format src, struct trace_record *rec)
{
	if (o->skip & (1u << rec->op))
		return false;
	if (o->no_stall) {
		rec->time_ns = 0;
	} else if (o->time_scale != 100) {
		/* t * 100 / scale, exactly, saturating past 2^64 ns */
		uint64_t s = o->time_scale, q = rec->time_ns / s;

		rec->time_ns = q > (UINT64_MAX - 99) / 100 ? UINT64_MAX :
			       q * 100 + (rec->time_ns % s) * 100 / s;
	}
	if (o->redirect)
		rec->file = 0;
	/* blktrace.c's t_bytes_align: block traces only, rounding up */
	if (o->align && (src == TRACE_BLKTRACE || src == TRACE_BLKPARSE) &&
	    rec->length <= UINT64_MAX - (o->align - 1))
		rec->length = (rec->length + o->align - 1) & ~(o->align - 1);
	if (o->scale > 1)
		rec->offset /= o->scale;
	if (o->align)
		rec->offset &= ~(o->align - 1);
	return true;
}
