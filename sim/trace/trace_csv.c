/*
 * Public block-trace text formats, one line per I/O, described as a table
 * of columns:
 *
 * - MSR Cambridge (SNIA IOTTA): "Timestamp,Hostname,DiskNumber,Type,
 *   Offset,Size,ResponseTime", no header; Type Read or Write; Offset and
 *   Size in bytes; Timestamp a Windows FILETIME (100 ns ticks), which is
 *   secondary-source knowledge only. Each Hostname_DiskNumber is a file.
 * - SPC (UMass Financial, WebSearch): "ASU,LBA,Size,Opcode,Timestamp";
 *   LBA in blocks whose size the trace's description gives (512 assumed),
 *   Size in bytes, Opcode r or w in either case, Timestamp in seconds from
 *   the trace's start. Each ASU is a file "asuN".
 * - DiskSim/MQSim ASCII: "time device block size flags", blank-separated;
 *   block and size in 512-byte sectors; flags bit 0 set for a read (MQSim
 *   writes 1 for read, 0 for write); time in ns as MQSim's sample
 *   workload.xml says (DiskSim itself uses ms: give the unit). Each device
 *   is a file "devN".
 *
 * Sources: /work/shared/reference/fio-formats.md section 5 (column
 * layouts; its [UNVERIFIED] marks carry over into docs/traces.md); the SPC
 * Trace File Format Specification 1.0.1 as quoted publicly (Size in bytes,
 * case-insensitive opcode, seconds, block size given by the trace's
 * description); MQSim src/host/ASCII_Trace_Definition.h and
 * IO_Flow_Trace_Based.cpp (column order, "0" = write, integer times).
 * Facts only; the code is storsim's.
 */
#include <string.h>

#include "trace_int.h"
#include "engine/util.h"

enum csv_op_kind {
	CSV_OP_WORD,		/* Read / Write */
	CSV_OP_LETTER,		/* r / w */
	CSV_OP_FLAGS,		/* an integer, bit 0 set for a read */
};

struct csv_layout {
	const char *const *names;	/* of the columns, for messages */
	char sep;		/* 0: blanks */
	unsigned ncols;
	int col_time, col_op, col_offset, col_length;
	int col_file[2];	/* joined by '_' when two; -1: unused */
	const char *file_prefix;	/* before a numeric file column */
	enum csv_op_kind op_kind;
	bool offset_in_lba, length_in_lba;
	int col_extra;		/* a column only checked to be a number */
	struct trace_time_unit unit;
};

static const char *const msr_names[] = { "Timestamp", "Hostname",
	"DiskNumber", "Type", "Offset", "Size", "ResponseTime" };
static const char *const spc_names[] = { "ASU", "LBA", "Size", "Opcode",
	"Timestamp" };
static const char *const disksim_names[] = { "time", "device", "block",
	"size", "flags" };

static const struct csv_layout msr = {
	.names = msr_names,
	.sep = ',', .ncols = 7,
	.col_time = 0, .col_file = { 1, 2 }, .col_op = 3, .col_offset = 4,
	.col_length = 5, .col_extra = 6,
	.op_kind = CSV_OP_WORD,
	.unit = { 100, 1 },
};

static const struct csv_layout spc = {
	.names = spc_names,
	.sep = ',', .ncols = 5,
	.col_file = { 0, -1 }, .file_prefix = "asu", .col_offset = 1,
	.col_length = 2, .col_op = 3, .col_time = 4, .col_extra = -1,
	.op_kind = CSV_OP_LETTER, .offset_in_lba = true,
	.unit = { 1000000000, 1 },
};

static const struct csv_layout disksim = {
	.names = disksim_names,
	.sep = 0, .ncols = 5,
	.col_time = 0, .col_file = { 1, -1 }, .file_prefix = "dev",
	.col_offset = 2, .col_length = 3, .col_op = 4, .col_extra = -1,
	.op_kind = CSV_OP_FLAGS, .offset_in_lba = true, .length_in_lba = true,
	.unit = { 1, 1 },
};

static const struct csv_layout *layout_of(const struct trace_reader *r)
{
	switch (r->format) {
	case TRACE_MSR_CSV:
		return &msr;
	case TRACE_SPC_CSV:
		return &spc;
	default:
		return &disksim;
	}
}

static bool csv_open(struct trace_reader *r, GError **err)
{
	if (!r->unit.mul)
		r->unit = layout_of(r)->unit;
	if (!r->opts.lba_size)
		r->opts.lba_size = 512;
	return true;
}

static bool parse_op(struct trace_reader *r, const struct csv_layout *l,
		     const char *s, size_t len, enum trace_op *op, GError **err)
{
	const char *field = l->names[l->col_op];
	uint64_t flags;

	switch (l->op_kind) {
	case CSV_OP_WORD:
		if (len == 4 && !g_ascii_strncasecmp(s, "read", 4)) {
			*op = TRACE_OP_READ;
			return true;
		}
		if (len == 5 && !g_ascii_strncasecmp(s, "write", 5)) {
			*op = TRACE_OP_WRITE;
			return true;
		}
		trace_error(r, err, "field '%s': '%.40s' is neither Read nor Write",
			    field, s);
		return false;
	case CSV_OP_LETTER:
		if (len == 1 && (*s == 'r' || *s == 'R')) {
			*op = TRACE_OP_READ;
			return true;
		}
		if (len == 1 && (*s == 'w' || *s == 'W')) {
			*op = TRACE_OP_WRITE;
			return true;
		}
		trace_error(r, err, "field '%s': '%.40s' is neither r nor w",
			    field, s);
		return false;
	case CSV_OP_FLAGS:
		if (!trace_parse_u64(r, field, s, len, &flags, err))
			return false;
		*op = (flags & 1) ? TRACE_OP_READ : TRACE_OP_WRITE;
		return true;
	}
	return false;
}

/* The file's name from its column(s), built in a fixed buffer: most
 * records name the previous record's file and cost only a compare. */
static bool csv_file(struct trace_reader *r, const struct csv_layout *l,
		     char **f, size_t *fl, uint32_t *file, GError **err)
{
	char name[2 * 128 + 8], *p = name;
	const char *s = f[l->col_file[0]];
	size_t n = fl[l->col_file[0]];

	if (l->file_prefix) {
		uint64_t id;

		/* a number, written without leading zeros */
		if (!trace_parse_u64(r, l->names[l->col_file[0]], s, n, &id, err))
			return false;
		while (n > 1 && *s == '0')
			s++, n--;
		p = stpcpy(p, l->file_prefix);
	} else if (!n || n > 128) {
		trace_error(r, err, "field '%s': empty or longer than 128 bytes",
			    l->names[l->col_file[0]]);
		return false;
	}
	memcpy(p, s, n);
	p += n;
	if (l->col_file[1] >= 0) {
		uint64_t disk;
		s = f[l->col_file[1]];
		n = fl[l->col_file[1]];
		/* a number fits in 20 digits, the buffer's room */
		if (!trace_parse_u64(r, l->names[l->col_file[1]], s, n, &disk, err))
			return false;
		*p++ = '_';
		memcpy(p, s, n);
		p += n;
	}
	*p = '\0';
	return trace_file_intern(r, name, file, err);
}

static void wrong_count(struct trace_reader *r, const struct csv_layout *l,
			unsigned n, GError **err)
{
	g_autoptr(GString) shape = g_string_new(NULL);

	for (unsigned i = 0; i < l->ncols; i++)
		g_string_append_printf(shape, "%s%s", i ? (l->sep ? "," : " ") : "",
				       l->names[i]);
	trace_error(r, err, "%s%u fields; expected %u (%s)",
		    n > l->ncols ? "more than " : "", MIN(n, l->ncols), l->ncols,
		    shape->str);
}

static int csv_next(struct trace_reader *r, struct trace_record *rec,
		    GError **err)
{
	const struct csv_layout *l = layout_of(r);
	const char *const *name = l->names;
	char *line, *f[8];
	size_t len, fl[8];
	int got;

	while ((got = trace_getline(r, &line, &len, err)) > 0) {
		uint64_t stamp, v;
		unsigned n = trace_split(line, len, l->sep, f, fl, l->ncols);

		if (n == 0 || (n == 1 && !fl[0]))
			continue;
		if (n != l->ncols) {
			wrong_count(r, l, n, err);
			return -1;
		}
		if (!trace_parse_time(r, name[l->col_time], f[l->col_time],
				      fl[l->col_time], r->unit, &stamp, err) ||
		    !parse_op(r, l, f[l->col_op], fl[l->col_op], &rec->op, err) ||
		    !trace_parse_u64(r, name[l->col_offset], f[l->col_offset],
				     fl[l->col_offset], &rec->offset, err) ||
		    !trace_parse_u64(r, name[l->col_length], f[l->col_length],
				     fl[l->col_length], &rec->length, err))
			return -1;
		if (l->col_extra >= 0 &&
		    !trace_parse_u64(r, name[l->col_extra], f[l->col_extra],
				     fl[l->col_extra], &v, err))
			return -1;
		if ((l->offset_in_lba &&
		     !trace_mul(r, name[l->col_offset], rec->offset,
				r->opts.lba_size, &rec->offset, err)) ||
		    (l->length_in_lba &&
		     !trace_mul(r, name[l->col_length], rec->length,
				r->opts.lba_size, &rec->length, err)))
			return -1;
		if (rec->offset > UINT64_MAX - rec->length) {
			trace_error(r, err, "field '%s': offset + size passes 2^64",
				    name[l->col_offset]);
			return -1;
		}
		if (!csv_file(r, l, f, fl, &rec->file, err) ||
		    !trace_clock(r, stamp, &rec->time_ns, err))
			return -1;
		/* The SPC spec allows a size of 0; nothing replays it. */
		if (!rec->length) {
			r->stats.skipped++;
			continue;
		}
		return 1;
	}
	return got;
}

const struct trace_format_ops trace_msr_ops = {
	.name = "msr", .open = csv_open, .next = csv_next,
};

const struct trace_format_ops trace_spc_ops = {
	.name = "spc", .open = csv_open, .next = csv_next,
};

const struct trace_format_ops trace_disksim_ops = {
	.name = "disksim", .open = csv_open, .next = csv_next,
};
