/*
 * blktrace input, binary and as blkparse prints it, replayed the way fio
 * replays a blktrace: only queue (Q) events count, notify records and
 * zero-byte reads and writes are passed over, a discard is a trim, a flush
 * is a flush (fio issues it as a sync, with no data), anything else reads
 * or writes sector * 512 for the record's bytes according to the WRITE
 * category bit.
 *
 * Binary layout: 48-byte struct blk_io_trace records, in the byte order of
 * the machine that traced (the first magic tells which), each followed by
 * pdu_len bytes of payload; times in ns. Text: blkparse's default line
 * "MAJ,MIN CPU SEQ SEC.NSEC PID ACTION RWBS [SECTOR + BLOCKS] [COMMAND]",
 * RWBS giving F (flush) first, then D (discard), W, R or N (no data);
 * blocks are 512 bytes. The summary blkparse prints at the end is skipped.
 *
 * Each device becomes a file named /dev/block/MAJ:MIN, the link udev makes
 * to it, so that a converted trace names the traced disk on its own host.
 *
 * Sources: fio 3.33 blktrace.c (is_blktrace, read_blktrace, queue_trace,
 * handle_trace_{fs,discard,flush,notify}, byteswap_trace) and
 * blktrace_api.h (the record layout, __BLK_TA_* and BLK_TC_* values);
 * blkparse(1) "DEFAULT OUTPUT" and Debian blktrace 1.2.0's blkparse run on
 * records built by traces/examples/make-blktrace.pl (zero-byte events print
 * no "SECTOR + BLOCKS"). Facts only; the code is storsim's.
 */
#include <string.h>

#include "trace_int.h"
#include "engine/util.h"

#define BLK_IO_TRACE_MAGIC 0x65617400u
#define BLK_IO_TRACE_VERSION 0x07u
#define BLK_RECORD_SIZE 48
#define BLK_TA_QUEUE 1u
#define BLK_TC_READ (1u << 0)
#define BLK_TC_WRITE (1u << 1)
#define BLK_TC_FLUSH (1u << 2)
#define BLK_TC_NOTIFY (1u << 10)
#define BLK_TC_DISCARD (1u << 13)
#define BLK_SECTOR 512u

/* The file of a device: the first few devices are found by number, others
 * (rare) through their name. */
static bool device_file(struct trace_reader *r, uint32_t device, uint32_t *file,
			GError **err)
{
	char name[48];

	for (unsigned i = 0; i < r->u.blk.ndevs; i++) {
		if (r->u.blk.devs[i].dev == device) {
			*file = r->u.blk.devs[i].file;
			return true;
		}
	}
	g_snprintf(name, sizeof(name), "/dev/block/%u:%u", device >> 20,
		   device & 0xfffffu);
	if (!trace_file_intern(r, name, file, err))
		return false;
	if (r->u.blk.ndevs < G_N_ELEMENTS(r->u.blk.devs)) {
		r->u.blk.devs[r->u.blk.ndevs].dev = device;
		r->u.blk.devs[r->u.blk.ndevs++].file = *file;
	}
	return true;
}

/* One event, whichever way it was read: 1 and *rec for a replayed event,
 * 0 for one fio passes over, -1 with *err. */
static int blk_event(struct trace_reader *r, uint32_t action, uint32_t device,
		     uint64_t sector, uint64_t bytes, uint64_t stamp,
		     struct trace_record *rec, GError **err)
{
	uint32_t cat = action >> 16;
	uint64_t now;

	if ((action & 0xffff) != BLK_TA_QUEUE || (cat & BLK_TC_NOTIFY)) {
		r->stats.skipped++;
		return 0;
	}
	/* fio's clock follows every queue event, even one it then drops */
	if (!trace_clock(r, stamp, &now, err))
		return -1;
	if (cat & BLK_TC_DISCARD) {
		rec->op = TRACE_OP_TRIM;
	} else if (cat & BLK_TC_FLUSH) {
		rec->op = TRACE_OP_FLUSH;
		sector = bytes = 0;
	} else if (!bytes) {
		r->stats.skipped++;
		return 0;
	} else {
		rec->op = (cat & BLK_TC_WRITE) ? TRACE_OP_WRITE : TRACE_OP_READ;
	}
	if (!trace_mul(r, "sector", sector, BLK_SECTOR, &rec->offset, err) ||
	    !device_file(r, device, &rec->file, err))
		return -1;
	rec->time_ns = now;
	rec->length = bytes;
	return 1;
}

/* --- binary --- */

static bool blktrace_open(struct trace_reader *r, GError **err)
{
	uint32_t magic;

	if (r->end - r->start < sizeof(magic)) {
		storsim_input_error(err, r->name, 0, NULL,
				    "record 1 (byte 0): truncated record: %zu of %d bytes",
				    r->end - r->start, BLK_RECORD_SIZE);
		return false;
	}
	memcpy(&magic, r->buf + r->start, sizeof(magic));
	if ((magic & 0xffffff00u) == BLK_IO_TRACE_MAGIC) {
		r->u.blk.swap = false;
	} else if ((GUINT32_SWAP_LE_BE(magic) & 0xffffff00u) == BLK_IO_TRACE_MAGIC) {
		r->u.blk.swap = true;
	} else {
		storsim_input_error(err, r->name, 0, NULL,
				    "record 1 (byte 0): field 'magic': 0x%08x is "
				    "not blktrace's 0x656174%02x in either byte order",
				    magic, BLK_IO_TRACE_VERSION);
		return false;
	}
	if (!r->unit.mul)
		r->unit = (struct trace_time_unit){ 1, 1 };
	return true;
}

static uint32_t get32(const unsigned char *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? GUINT32_SWAP_LE_BE(v) : v;
}

static uint64_t get64(const unsigned char *p, bool swap)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? GUINT64_SWAP_LE_BE(v) : v;
}

static int blktrace_next(struct trace_reader *r, struct trace_record *rec,
			 GError **err)
{
	const bool swap = r->u.blk.swap;
	unsigned char t[BLK_RECORD_SIZE];

	for (;;) {
		gssize n;
		uint32_t magic;
		uint16_t pdu_len;
		int got;

		r->record_offset = trace_offset(r);
		n = trace_read_bytes(r, t, sizeof(t), err);
		if (n <= 0)
			return (int)n;
		r->line++;
		r->stats.units++;
		if (n < BLK_RECORD_SIZE) {
			trace_error(r, err, "truncated record: %zd of %d bytes",
				    n, BLK_RECORD_SIZE);
			return -1;
		}
		magic = get32(t, swap);
		if ((magic & 0xffffff00u) != BLK_IO_TRACE_MAGIC) {
			trace_error(r, err, "field 'magic': 0x%08x is not "
				    "blktrace's 0x656174%02x", magic,
				    BLK_IO_TRACE_VERSION);
			return -1;
		}
		if ((magic & 0xff) != BLK_IO_TRACE_VERSION) {
			trace_error(r, err, "field 'magic': blktrace version %u; "
				    "fio reads version %u", magic & 0xff,
				    BLK_IO_TRACE_VERSION);
			return -1;
		}
		memcpy(&pdu_len, t + 46, sizeof(pdu_len));
		if (swap)
			pdu_len = GUINT16_SWAP_LE_BE(pdu_len);
		n = trace_read_bytes(r, NULL, pdu_len, err);
		if (n < 0)
			return -1;
		if (n < pdu_len) {
			trace_error(r, err, "field 'pdu_len': %u bytes of payload, "
				    "%zd left in the file", pdu_len, n);
			return -1;
		}
		got = blk_event(r, get32(t + 28, swap), get32(t + 36, swap),
				get64(t + 16, swap), get32(t + 24, swap),
				get64(t + 8, swap), rec, err);
		if (got)
			return got;
	}
}

const struct trace_format_ops trace_blktrace_ops = {
	.name = "blktrace",
	.open = blktrace_open,
	.next = blktrace_next,
};

/* --- blkparse text --- */

static bool blkparse_open(struct trace_reader *r, GError **err)
{
	if (!r->unit.mul)
		r->unit = (struct trace_time_unit){ 1000000000, 1 };
	return true;
}

/* RWBS letters as category bits; false on a letter blkparse does not
 * print. */
static bool rwbs_category(const char *s, uint32_t *cat)
{
	uint32_t c = 0;

	if (*s == 'F') {
		c |= BLK_TC_FLUSH;
		s++;
	}
	switch (*s++) {
	case 'D':
		c |= BLK_TC_DISCARD;
		break;
	case 'W':
		c |= BLK_TC_WRITE;
		break;
	case 'R':
		c |= BLK_TC_READ;
		break;
	case 'N':
		break;
	default:
		return false;
	}
	/* then F (FUA), A (readahead), S (sync), M (metadata) */
	for (; *s; s++)
		if (!strchr("FASM", *s))
			return false;
	*cat = c;
	return true;
}

static int blkparse_next(struct trace_reader *r, struct trace_record *rec,
			 GError **err)
{
	char *line, *f[11];
	size_t len, fl[11];
	int got;

	while ((got = trace_getline(r, &line, &len, err)) > 0) {
		uint64_t maj, min, sector = 0, blocks = 0, stamp, ignored;
		uint32_t cat;
		char *comma;
		unsigned n;

		if (r->u.blk.summary)
			continue;
		/* blkparse's closing summary opens with "CPU0 (8,0):" */
		if (!strncmp(line, "CPU", 3) || !strncmp(line, "Total", 5)) {
			r->u.blk.summary = true;
			continue;
		}
		n = trace_split(line, len, 0, f, fl, 10);
		if (n == 0)
			continue;
		if (n < 7) {
			trace_error(r, err, "%u fields; a blkparse event line has "
				    "at least 7 (MAJ,MIN CPU SEQ TIME PID ACTION RWBS)",
				    n);
			return -1;
		}
		comma = memchr(f[0], ',', fl[0]);
		if (!comma) {
			trace_error(r, err, "field 'device': '%.40s' is not MAJ,MIN",
				    f[0]);
			return -1;
		}
		if (!trace_parse_u64(r, "device", f[0], (size_t)(comma - f[0]),
				     &maj, err) ||
		    !trace_parse_u64(r, "device", comma + 1,
				     fl[0] - (size_t)(comma - f[0]) - 1, &min, err) ||
		    !trace_parse_u64(r, "cpu", f[1], fl[1], &ignored, err) ||
		    !trace_parse_u64(r, "sequence", f[2], fl[2], &ignored, err) ||
		    !trace_parse_time(r, "time", f[3], fl[3], r->unit, &stamp, err) ||
		    !trace_parse_u64(r, "pid", f[4], fl[4], &ignored, err))
			return -1;
		if (maj >= (1u << 12) || min >= (1u << 20)) {
			trace_error(r, err, "field 'device': %" G_GUINT64_FORMAT
				    ",%" G_GUINT64_FORMAT " is not a Linux dev_t",
				    maj, min);
			return -1;
		}
		if (strcmp(f[5], "Q")) {
			r->stats.skipped++;
			continue;
		}
		if (!rwbs_category(f[6], &cat)) {
			trace_error(r, err, "field 'rwbs': '%.40s' is not RWBS",
				    f[6]);
			return -1;
		}
		if (n >= 10 && !strcmp(f[8], "+")) {
			if (!trace_parse_u64(r, "sector", f[7], fl[7], &sector, err) ||
			    !trace_parse_u64(r, "blocks", f[9], fl[9], &blocks, err))
				return -1;
		} else if (n > 7 && f[7][0] != '[') {
			trace_error(r, err, "a Q event with no 'SECTOR + BLOCKS' "
				    "(a SCSI passthrough event?) cannot be replayed");
			return -1;
		}
		if (blocks > UINT32_MAX / BLK_SECTOR) {
			trace_error(r, err, "field 'blocks': %" G_GUINT64_FORMAT
				    " is more than a blktrace record holds", blocks);
			return -1;
		}
		got = blk_event(r, BLK_TA_QUEUE | (cat << 16),
				(uint32_t)(maj << 20 | min), sector,
				blocks * BLK_SECTOR, stamp, rec, err);
		if (got)
			return got;
	}
	return got;
}

const struct trace_format_ops trace_blkparse_ops = {
	.name = "blkparse",
	.open = blkparse_open,
	.next = blkparse_next,
};
