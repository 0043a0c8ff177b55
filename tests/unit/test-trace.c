/*
 * Description: the trace readers, fio's replay options and the iolog v3
 * writer. Expected records of the example traces are worked by hand from
 * the files' text (traces/examples/README.md says how each was made; the
 * blktrace ones from make-blktrace.pl's table, which blkparse also reads,
 * see tests/trace-fio.sh); error messages name file, line (or record and
 * byte) and field.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "trace/trace.h"
#include "engine/util.h"

static char *tmpdir;

/* A file in the test's directory holding len bytes of text. */
static char *write_tmp(const char *name, const void *text, size_t len)
{
	char *path = g_build_filename(tmpdir, name, NULL);

	g_assert_true(g_file_set_contents(path, text, (gssize)len, NULL));
	return path;
}

static char *example(const char *name)
{
	return g_test_build_filename(G_TEST_DIST, "traces", "examples", name,
				     NULL);
}

/* All records of path; NULL with *err on a read error. */
static GArray *read_all_with(const char *path, const struct trace_read_opts *o,
			     struct trace_reader **keep, GError **err)
{
	struct trace_reader *r = trace_open_with(path, o, err);
	GArray *recs;
	struct trace_record rec;
	int got;

	if (!r)
		return NULL;
	recs = g_array_new(FALSE, FALSE, sizeof(rec));
	while ((got = trace_next(r, &rec, err)) > 0)
		g_array_append_val(recs, rec);
	if (got < 0) {
		g_array_free(recs, TRUE);
		recs = NULL;
	}
	if (keep)
		*keep = r;
	else
		trace_close(r);
	return recs;
}

static GArray *read_all(const char *path, enum trace_format fmt,
			struct trace_reader **keep)
{
	struct trace_read_opts o;
	g_autoptr(GError) err = NULL;
	GArray *recs;

	trace_read_opts_init(&o);
	o.format = fmt;
	recs = read_all_with(path, &o, keep, &err);
	g_assert_no_error(err);
	return recs;
}

static void assert_records(GArray *got, const struct trace_record *want,
			   unsigned n)
{
	g_assert_cmpuint(got->len, ==, n);
	for (unsigned i = 0; i < n; i++) {
		const struct trace_record *g = &g_array_index(got, struct trace_record, i);

		g_test_message("record %u", i);
		g_assert_cmpuint(g->time_ns, ==, want[i].time_ns);
		g_assert_cmpstr(trace_op_name(g->op), ==, trace_op_name(want[i].op));
		g_assert_cmpuint(g->file, ==, want[i].file);
		g_assert_cmpuint(g->offset, ==, want[i].offset);
		g_assert_cmpuint(g->length, ==, want[i].length);
	}
}

/* One struct blk_io_trace, little-endian, on device dev. */
static void blk_record_on(GByteArray *b, uint32_t dev, uint32_t magic,
			  uint64_t time, uint64_t sector, uint32_t bytes,
			  uint32_t action, uint16_t pdu_len)
{
	uint8_t t[48] = { 0 };

	magic = GUINT32_TO_LE(magic);
	time = GUINT64_TO_LE(time);
	sector = GUINT64_TO_LE(sector);
	bytes = GUINT32_TO_LE(bytes);
	action = GUINT32_TO_LE(action);
	dev = GUINT32_TO_LE(dev);
	pdu_len = GUINT16_TO_LE(pdu_len);
	memcpy(t, &magic, 4);
	memcpy(t + 8, &time, 8);
	memcpy(t + 16, &sector, 8);
	memcpy(t + 24, &bytes, 4);
	memcpy(t + 28, &action, 4);
	memcpy(t + 36, &dev, 4);
	memcpy(t + 46, &pdu_len, 2);
	g_byte_array_append(b, t, sizeof(t));
}

static void blk_record(GByteArray *b, uint32_t magic, uint64_t time,
		       uint64_t sector, uint32_t bytes, uint32_t action,
		       uint16_t pdu_len)
{
	blk_record_on(b, 8u << 20, magic, time, sector, bytes, action, pdu_len);
}

#define BLK_Q_READ (1u | (0x111u << 16))	/* QUEUE, READ|QUEUE|FS */

#define R TRACE_OP_READ
#define W TRACE_OP_WRITE

/* --- the examples --- */

/* fio 3.33's write_iolog output; times are µs after the first line (17 µs),
 * since fio replays the first line without delay. */
static const struct trace_record v3_want[] = {
	{ 0, TRACE_OP_ADD, 0, 0, 0 },
	{ 105000, TRACE_OP_OPEN, 0, 0, 0 },
	{ 109000, W, 0, 0, 4096 },
	{ 133000, R, 0, 20480, 4096 },
	{ 3429000, R, 0, 24576, 4096 },
	{ 3629000, W, 0, 12288, 4096 },
	{ 3643000, W, 0, 16384, 4096 },
	{ 3652000, TRACE_OP_SYNC, 0, 16384, 0 },
	{ 7424000, W, 0, 28672, 4096 },
	{ 7438000, R, 0, 4096, 4096 },
	{ 7596000, R, 0, 8192, 4096 },
	{ 7687000, TRACE_OP_CLOSE, 0, 0, 0 },
};

/* fio-v2.iolog, "wait 200" and "wait 500" on the way. */
#define V2_RECORDS(t1, t2) { \
	{ 0, TRACE_OP_ADD, 0, 0, 0 }, { 0, TRACE_OP_ADD, 1, 0, 0 }, \
	{ 0, TRACE_OP_OPEN, 0, 0, 0 }, { 0, TRACE_OP_OPEN, 1, 0, 0 }, \
	{ 0, R, 0, 0, 4096 }, { 0, W, 1, 8192, 8192 }, \
	{ t1, TRACE_OP_TRIM, 0, 1048576, 65536 }, \
	{ t1, TRACE_OP_SYNC, 1, 0, 0 }, \
	{ t2, TRACE_OP_DATASYNC, 1, 0, 0 }, { t2, W, 0, 4096, 512 }, \
	{ t2, TRACE_OP_CLOSE, 0, 0, 0 }, { t2, TRACE_OP_CLOSE, 1, 0, 0 } }

/* as fio 3.33 does: until 200 ms, then until 500 ms after the start */
static const struct trace_record v2_want[] = V2_RECORDS(200000000, 500000000);

/* make-blktrace.pl's queue events; t0 is the first one. */
static const struct trace_record blktrace_want[] = {
	{ 0, R, 0, 2048 * 512, 4096 },
	{ 49000, W, 0, 4096 * 512, 8192 },
	{ 120000, TRACE_OP_FLUSH, 0, 0, 0 },
	{ 150000, TRACE_OP_TRIM, 0, 100 * 512, 65536 },
	{ 200000, R, 1, 1000000ull * 512, 131072 },
	{ 260000, W, 0, 8 * 512, 512 },
};

/* FILETIME ticks of 100 ns after 128166372003061629 */
static const struct trace_record msr_want[] = {
	{ 0, W, 0, 7014912, 4096 },
	{ 100000, R, 0, 1105182720, 8192 },
	{ 400000, W, 1, 1105182720, 1024 },
	{ 1000000, R, 0, 0, 65536 },
	{ 2000000, W, 2, 4096, 4096 },
	{ 3000000, R, 1, 512, 512 },
};

/* LBA x 512; Size in bytes; seconds */
static const struct trace_record spc_want[] = {
	{ 0, W, 0, 303567ull * 512, 3584 },
	{ 26000, W, 1, 55590ull * 512, 3072 },
	{ 5413000, R, 0, 303574ull * 512, 3584 },
	{ 10000000, R, 2, 512, 512 },
	{ 1500000000, W, 0, 12 * 512, 8192 },
};

/* sectors of 512 bytes, ns */
static const struct trace_record disksim_want[] = {
	{ 0, R, 0, 2048 * 512, 8 * 512 },
	{ 1500, W, 0, 4096 * 512, 16 * 512 },
	{ 1500, R, 1, 0, 256 * 512 },
	{ 9000, W, 0, 2048 * 512, 8 * 512 },
	{ 249000, R, 1, 8 * 512, 512 },
};

static const struct example {
	const char *file;
	enum trace_format fmt;
	int version;
	const struct trace_record *want;
	unsigned n;
	const char *files[4];
	uint64_t units, skipped;	/* lines or records; not replayed */
} examples[] = {
	{ "fio-v3.iolog", TRACE_IOLOG, 3, v3_want, G_N_ELEMENTS(v3_want),
	  { "example.img" }, 13, 0 },
	{ "fio-v2.iolog", TRACE_IOLOG, 2, v2_want, G_N_ELEMENTS(v2_want),
	  { "/data/a.img", "/data/b.img" }, 15, 0 },
	/* 12 records: 2 notify, G, D, C and a zero-byte Q not replayed */
	{ "blktrace.bin", TRACE_BLKTRACE, 0, blktrace_want,
	  G_N_ELEMENTS(blktrace_want), { "/dev/block/8:0", "/dev/block/259:1" },
	  12, 6 },
	{ "blktrace-be.bin", TRACE_BLKTRACE, 0, blktrace_want,
	  G_N_ELEMENTS(blktrace_want), { "/dev/block/8:0", "/dev/block/259:1" },
	  12, 6 },
	/* blkparse prints no notify records: G, D, C and "Q N" are skipped;
	 * 10 event lines, then its summary, 35 lines in all */
	{ "blkparse.txt", TRACE_BLKPARSE, 0, blktrace_want,
	  G_N_ELEMENTS(blktrace_want), { "/dev/block/8:0", "/dev/block/259:1" },
	  35, 4 },
	{ "msr.csv", TRACE_MSR_CSV, 0, msr_want, G_N_ELEMENTS(msr_want),
	  { "hm_0", "prxy_0", "hm_1" }, 6, 0 },
	{ "spc.csv", TRACE_SPC_CSV, 0, spc_want, G_N_ELEMENTS(spc_want),
	  { "asu0", "asu1", "asu2" }, 5, 0 },
	{ "disksim.trace", TRACE_DISKSIM, 0, disksim_want,
	  G_N_ELEMENTS(disksim_want), { "dev0", "dev1" }, 5, 0 },
};

/* Read an example, the format detected, and check every record. */
static void test_example(gconstpointer data)
{
	const struct example *e = data;
	g_autofree char *path = example(e->file);
	struct trace_reader *r;
	struct trace_read_stats st;
	g_autoptr(GArray) got = read_all(path, TRACE_AUTO, &r);
	unsigned nfiles = 0;

	assert_records(got, e->want, e->n);
	g_assert_cmpstr(trace_format_name(trace_reader_format(r)), ==,
			trace_format_name(e->fmt));
	g_assert_cmpint(trace_iolog_version(r), ==, e->version);
	while (nfiles < G_N_ELEMENTS(e->files) && e->files[nfiles])
		nfiles++;
	g_assert_cmpuint(trace_nfiles(r), ==, nfiles);
	for (unsigned i = 0; i < nfiles; i++)
		g_assert_cmpstr(trace_file_name(r, i), ==, e->files[i]);
	trace_read_stats(r, &st);
	g_assert_cmpuint(st.units, ==, e->units);
	g_assert_cmpuint(st.skipped, ==, e->skipped);
	trace_close(r);
}

static void test_iolog_v2_howto_wait(void)
{
	/* as the HOWTO says: 200 µs, then 500 µs more */
	static const struct trace_record want[] = V2_RECORDS(200000, 700000);
	g_autofree char *path = example("fio-v2.iolog");
	struct trace_read_opts o;
	g_autoptr(GError) err = NULL;
	g_autoptr(GArray) got = NULL;

	trace_read_opts_init(&o);
	o.v2_wait = TRACE_V2_WAIT_HOWTO;
	got = read_all_with(path, &o, NULL, &err);
	g_assert_no_error(err);
	assert_records(got, want, G_N_ELEMENTS(want));
}

static void test_iolog_v2_howto_discards_small_waits(void)
{
	static const char text[] = "fio version 2 iolog\nf add\n"
		"f wait 99 0\nf read 0 512\nf wait 100 0\nf read 0 512\n";
	static const struct trace_record want[] = {
		{ 0, TRACE_OP_ADD, 0, 0, 0 }, { 0, R, 0, 0, 512 },
		{ 100000, R, 0, 0, 512 },
	};
	g_autofree char *path = write_tmp("small-wait.log", text, strlen(text));
	struct trace_read_opts o;
	g_autoptr(GError) err = NULL;
	g_autoptr(GArray) got = NULL;

	trace_read_opts_init(&o);
	o.v2_wait = TRACE_V2_WAIT_HOWTO;
	got = read_all_with(path, &o, NULL, &err);
	g_assert_no_error(err);
	assert_records(got, want, G_N_ELEMENTS(want));
}

/* --- options of the reader --- */

static void test_time_unit_override(void)
{
	static const char text[] = "1.5 0 0 1 1\n2.25 0 0 1 1\n";
	g_autofree char *path = write_tmp("ms.trace", text, strlen(text));
	struct trace_read_opts o;
	g_autoptr(GError) err = NULL;
	g_autoptr(GArray) got = NULL;

	trace_read_opts_init(&o);
	g_assert_true(trace_time_unit_parse("ms", &o.time_unit, &err));
	got = read_all_with(path, &o, NULL, &err);
	g_assert_no_error(err);
	g_assert_cmpuint(got->len, ==, 2);
	g_assert_cmpuint(g_array_index(got, struct trace_record, 1).time_ns, ==,
			 750000);
}

static void test_time_units(void)
{
	/* 1.5 units in ns, floor, with the DiskSim reader */
	static const struct {
		const char *unit;
		uint64_t ns;
	} cases[] = {
		{ "ps", 0 }, { "ns", 1 }, { "100ns", 150 }, { "us", 1500 },
		{ "ms", 1500000 }, { "s", 1500000000 },
	};
	static const char text[] = "0 0 0 1 1\n1.5 0 0 1 1\n";
	g_autofree char *path = write_tmp("units.trace", text, strlen(text));

	for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct trace_read_opts o;
		g_autoptr(GError) err = NULL;
		g_autoptr(GArray) got = NULL;

		trace_read_opts_init(&o);
		g_assert_true(trace_time_unit_parse(cases[i].unit, &o.time_unit, &err));
		got = read_all_with(path, &o, NULL, &err);
		g_assert_no_error(err);
		g_test_message("unit %s", cases[i].unit);
		g_assert_cmpuint(g_array_index(got, struct trace_record, 1).time_ns,
				 ==, cases[i].ns);
	}
}

static void test_lba_size_override(void)
{
	static const char text[] = "0,3,1024,r,0.0\n";
	g_autofree char *path = write_tmp("lba.csv", text, strlen(text));
	struct trace_read_opts o;
	g_autoptr(GError) err = NULL;
	g_autoptr(GArray) got = NULL;

	trace_read_opts_init(&o);
	o.lba_size = 4096;
	got = read_all_with(path, &o, NULL, &err);
	g_assert_no_error(err);
	g_assert_cmpuint(g_array_index(got, struct trace_record, 0).offset, ==,
			 3 * 4096);
	/* Size stays in bytes, as the SPC specification says */
	g_assert_cmpuint(g_array_index(got, struct trace_record, 0).length, ==,
			 1024);
}

static void test_time_going_backwards(void)
{
	/* fio's delay_since_ttime: a step back is no delay, and the next
	 * step counts from the earlier stamp */
	static const char text[] = "100 0 0 1 1\n300 0 0 1 1\n200 0 0 1 1\n"
				   "250 0 0 1 1\n";
	static const struct trace_record want[] = {
		{ 0, R, 0, 0, 512 }, { 200, R, 0, 0, 512 },
		{ 200, R, 0, 0, 512 }, { 250, R, 0, 0, 512 },
	};
	g_autofree char *path = write_tmp("back.trace", text, strlen(text));
	struct trace_reader *r;
	struct trace_read_stats st;
	g_autoptr(GArray) got = read_all(path, TRACE_AUTO, &r);

	assert_records(got, want, G_N_ELEMENTS(want));
	trace_read_stats(r, &st);
	g_assert_cmpuint(st.backsteps, ==, 1);
	trace_close(r);
}

static void test_crlf_and_blank_lines(void)
{
	static const char text[] = "\r\n1000 0 2048 8 1\r\n\r\n2500 0 4096 16 0\r\n"
		"2500 1 0 256 1\n10000 0 2048 8 0\n250000 1 8 1 1";
	g_autofree char *path = write_tmp("crlf.trace", text, strlen(text));
	g_autoptr(GArray) got = read_all(path, TRACE_AUTO, NULL);

	/* the example's records, the last line without its newline */
	assert_records(got, disksim_want, G_N_ELEMENTS(disksim_want));
}

static void test_gzip_input(void)
{
	g_autofree char *path = example("disksim.trace");
	g_autofree char *text = NULL, *gz = NULL;
	gsize len;
	g_autoptr(GZlibCompressor) z =
		g_zlib_compressor_new(G_ZLIB_COMPRESSOR_FORMAT_GZIP, 6);
	g_autoptr(GOutputStream) mem = g_memory_output_stream_new_resizable();
	g_autoptr(GOutputStream) out =
		g_converter_output_stream_new(mem, G_CONVERTER(z));
	g_autoptr(GArray) got = NULL;

	g_assert_true(g_file_get_contents(path, &text, &len, NULL));
	g_assert_true(g_output_stream_write_all(out, text, len, NULL, NULL, NULL));
	g_assert_true(g_output_stream_close(out, NULL, NULL));
	gz = write_tmp("disksim.trace.gz",
		       g_memory_output_stream_get_data(G_MEMORY_OUTPUT_STREAM(mem)),
		       g_memory_output_stream_get_data_size(G_MEMORY_OUTPUT_STREAM(mem)));
	got = read_all(gz, TRACE_AUTO, NULL);
	assert_records(got, disksim_want, G_N_ELEMENTS(disksim_want));
}

static void test_reading_is_deterministic(void)
{
	g_autofree char *path = example("blkparse.txt");
	g_autoptr(GArray) a = read_all(path, TRACE_AUTO, NULL);
	g_autoptr(GArray) b = read_all(path, TRACE_AUTO, NULL);

	g_assert_cmpuint(a->len, ==, b->len);
	g_assert_cmpmem(a->data, a->len * sizeof(struct trace_record),
			b->data, b->len * sizeof(struct trace_record));
}

/* Files past the first few are found by their hashed name: 40 of them,
 * interleaved (record i on file 7i mod 40 at sector i), keep their names. */
#define NINTERLEAVED 120

static void check_interleaved(const char *path, const char *name_prefix)
{
	struct trace_reader *r;
	g_autoptr(GArray) got = read_all(path, TRACE_AUTO, &r);

	g_assert_cmpuint(got->len, ==, NINTERLEAVED);
	g_assert_cmpuint(trace_nfiles(r), ==, 40);
	for (unsigned i = 0; i < NINTERLEAVED; i++) {
		const struct trace_record *rec =
			&g_array_index(got, struct trace_record, i);
		g_autofree char *want = g_strdup_printf("%s%u", name_prefix,
							(i * 7) % 40);

		g_assert_cmpstr(trace_file_name(r, rec->file), ==, want);
		g_assert_cmpuint(rec->offset, ==, i * 512ull);
	}
	trace_close(r);
}

static void test_many_files_interleaved(void)
{
	GString *s = g_string_new(NULL);
	g_autofree char *path = NULL;

	for (unsigned i = 0; i < NINTERLEAVED; i++)
		g_string_append_printf(s, "%u %u %u 1 1\n", i, (i * 7) % 40, i);
	path = write_tmp("interleaved.trace", s->str, s->len);
	g_string_free(s, TRUE);
	check_interleaved(path, "dev");
}

static void test_many_devices_interleaved(void)
{
	g_autoptr(GByteArray) b = g_byte_array_new();
	g_autofree char *path = NULL;

	for (unsigned i = 0; i < NINTERLEAVED; i++)
		blk_record_on(b, (259u << 20) | ((i * 7) % 40), 0x65617407,
			      1000 * i, i, 4096, BLK_Q_READ, 0);
	path = write_tmp("interleaved.bin", b->data, b->len);
	check_interleaved(path, "/dev/block/259:");
}

static void test_file_table_is_bounded(void)
{
	/* 65537 distinct devices: more than a trace may name */
	GString *s = g_string_new(NULL);
	g_autofree char *path = NULL;
	g_autoptr(GError) err = NULL;
	g_autoptr(GArray) got = NULL;
	struct trace_read_opts o;

	for (unsigned i = 0; i <= 65536; i++)
		g_string_append_printf(s, "%u %u 0 1 1\n", i, i);
	path = write_tmp("many.trace", s->str, s->len);
	g_string_free(s, TRUE);
	trace_read_opts_init(&o);
	got = read_all_with(path, &o, NULL, &err);
	g_assert_null(got);
	g_assert_error(err, STORSIM_ERROR, STORSIM_ERROR_INPUT);
	g_assert_true(g_str_has_suffix(err->message,
		":65537: more than 65536 distinct files or devices"));
}

/* --- malformed input --- */

#define IOLOG2 "fio version 2 iolog\nf add\n"

static void test_rejects_bad_text(void)
{
	/* FILE stands for the file's path in the message */
	static const struct {
		enum trace_format fmt;
		const char *text, *message;
	} cases[] = {
		{ TRACE_AUTO, "0,4096,4096\n1,0,512\n",
		  "FILE:1: iolog version 1 is no longer supported (fio refuses it "
		  "too): the first line must be 'fio version 2 iolog' or 'fio "
		  "version 3 iolog'" },
		{ TRACE_IOLOG, "fio version 4 iolog\n",
		  "FILE:1: iolog version 1 is no longer supported (fio refuses it "
		  "too): the first line must be 'fio version 2 iolog' or 'fio "
		  "version 3 iolog'" },
		{ TRACE_AUTO, IOLOG2 "f read abc 4096\n",
		  "FILE:3: field 'offset': 'abc' is not a number" },
		{ TRACE_AUTO, IOLOG2 "f read -5 4096\n",
		  "FILE:3: field 'offset': -5 is negative" },
		{ TRACE_AUTO, IOLOG2 "f read 18446744073709551616 4096\n",
		  "FILE:3: field 'offset': 18446744073709551616 is out of range "
		  "(at most 18446744073709551615)" },
		{ TRACE_AUTO, IOLOG2 "f write 0 4294967296\n",
		  "FILE:3: field 'length': 4294967296 is more than fio reads (32 bits)" },
		{ TRACE_AUTO, IOLOG2 "f write 18446744073709551615 512\n",
		  "FILE:3: field 'offset': offset + length passes 2^64" },
		{ TRACE_AUTO, IOLOG2 "f read 0 0\n",
		  "FILE:3: field 'length': a read of 0 bytes" },
		{ TRACE_AUTO, IOLOG2 "f read 0\n",
		  "FILE:3: 3 fields; a v2 line is 'FILE ACTION' or 'FILE ACTION "
		  "OFFSET LENGTH'" },
		{ TRACE_AUTO, IOLOG2 "f read 0 1 2 3\n",
		  "FILE:3: more than 5 fields; a v2 line is 'FILE ACTION' or 'FILE "
		  "ACTION OFFSET LENGTH'" },
		{ TRACE_AUTO, IOLOG2 "f frob 0 1\n",
		  "FILE:3: field 'action': unknown action 'frob'" },
		{ TRACE_AUTO, IOLOG2 "f open 0 1\n",
		  "FILE:3: field 'action': 'open' takes no OFFSET or LENGTH" },
		{ TRACE_AUTO, IOLOG2 "g read 0 4096\n",
		  "FILE:3: field 'file': 'g' was not added ('FILE add' must come first)" },
		{ TRACE_AUTO, "fio version 2 iolog\ng open\n",
		  "FILE:2: field 'file': 'g' was not added ('FILE add' must come first)" },
		{ TRACE_AUTO, "fio version 3 iolog\n0 f add\n5 f wait 10 0\n",
		  "FILE:3: field 'action': 'wait' is not allowed in a v3 iolog "
		  "(fio ignores it)" },
		{ TRACE_AUTO, "fio version 3 iolog\nx f add\n",
		  "FILE:2: field 'time': 'x' is not a number" },
		{ TRACE_AUTO, "fio version 3 iolog\n0 f read 0 512\n",
		  "FILE:2: field 'file': 'f' was not added ('FILE add' must come first)" },
		{ TRACE_AUTO, "fio version 3 iolog\n0 f add 0\n",
		  "FILE:2: 4 fields; a v3 line is 'TIME FILE ACTION' or 'TIME FILE "
		  "ACTION OFFSET LENGTH'" },
		{ TRACE_IOLOG, "",
		  "FILE: the trace is empty" },
		{ TRACE_AUTO, "\n\n",
		  "FILE: the trace is empty" },
		{ TRACE_AUTO, "hello world\n",
		  "FILE: cannot tell the trace's format from its first line or bytes; "
		  "name it (iolog, blktrace, blkparse, msr, spc, disksim)" },
		/* blkparse */
		{ TRACE_BLKPARSE, "  8,0  0  1  0.00x000000  4242  Q   R 2048 + 8 [fio]\n",
		  "FILE:1: field 'time': '0.00x000000' is not a number" },
		{ TRACE_AUTO, "  8,0  0  1  0.000000000  4242  Q  XZ 2048 + 8 [fio]\n",
		  "FILE:1: field 'rwbs': 'XZ' is not RWBS" },
		{ TRACE_AUTO, "  8,0  0  1  0.000000000  4242  Q   R 2048 + x [fio]\n",
		  "FILE:1: field 'blocks': 'x' is not a number" },
		{ TRACE_BLKPARSE, "  8,0  0  1  0.000000000  4242\n",
		  "FILE:1: 5 fields; a blkparse event line has at least 7 (MAJ,MIN "
		  "CPU SEQ TIME PID ACTION RWBS)" },
		{ TRACE_BLKPARSE, "  8  0  1  0.000000000  4242  Q  R 8 + 8 [a]\n",
		  "FILE:1: field 'device': '8' is not MAJ,MIN" },
		{ TRACE_AUTO, "  8,0  0  1  0.000000000  4242  Q   R 4096 (12 34) [fio]\n",
		  "FILE:1: a Q event with no 'SECTOR + BLOCKS' (a SCSI passthrough "
		  "event?) cannot be replayed" },
		{ TRACE_AUTO, "4096,0  0  1  0.000000000  4242  Q  R 8 + 8 [a]\n",
		  "FILE:1: field 'device': 4096,0 is not a Linux dev_t" },
		/* MSR */
		{ TRACE_AUTO, "128166372003061629,hm,0,Write,7014912,4096,26\n"
			      "128166372003061630,hm,0,Write,7014912,4096\n",
		  "FILE:2: 6 fields; expected 7 (Timestamp,Hostname,DiskNumber,"
		  "Type,Offset,Size,ResponseTime)" },
		{ TRACE_MSR_CSV, "128166372003061629,hm,0,Erase,7014912,4096,26\n",
		  "FILE:1: field 'Type': 'Erase' is neither Read nor Write" },
		{ TRACE_AUTO, "128166372003061629,hm,0,Read,-1,4096,26\n",
		  "FILE:1: field 'Offset': -1 is negative" },
		{ TRACE_AUTO, "128166372003061629,hm,x,Read,0,4096,26\n",
		  "FILE:1: field 'DiskNumber': 'x' is not a number" },
		{ TRACE_AUTO, "99999999999999999999,hm,0,Read,0,4096,26\n",
		  "FILE:1: field 'Timestamp': 99999999999999999999 is out of range "
		  "(at most 18446744073709551615)" },
		{ TRACE_AUTO, "184467440737095517,hm,0,Read,0,4096,26\n",
		  "FILE:1: field 'Timestamp': 184467440737095517 x 100 does not fit "
		  "in 64 bits" },
		/* SPC */
		{ TRACE_SPC_CSV, "0,x,3584,w,0.0\n",
		  "FILE:1: field 'LBA': 'x' is not a number" },
		{ TRACE_AUTO, "0,36028797018963968,3584,w,0.0\n",
		  "FILE:1: field 'LBA': 36028797018963968 x 512 does not fit in 64 bits" },
		{ TRACE_AUTO, "0,1,3584,w,0.0\n0,1,3584,q,0.1\n",
		  "FILE:2: field 'Opcode': 'q' is neither r nor w" },
		{ TRACE_AUTO, "0,1,3584,w,0.0\n0,1,3584,w,1.2.3\n",
		  "FILE:2: field 'Timestamp': '1.2.3' is not a number" },
		/* DiskSim */
		{ TRACE_AUTO, "1000 0 2048 8 1\n1000 0 2048 8 1 7\n",
		  "FILE:2: more than 5 fields; expected 5 (time device block size flags)" },
		{ TRACE_DISKSIM, "1000 0 2048 8\n",
		  "FILE:1: 4 fields; expected 5 (time device block size flags)" },
		{ TRACE_AUTO, "1000 0 2048 8 1\n1000 0 2048 -8 1\n",
		  "FILE:2: field 'size': -8 is negative" },
		{ TRACE_AUTO, "1000 0 2048 8 1\n-1.5 0 2048 8 1\n",
		  "FILE:2: field 'time': -1.5 is negative" },
		{ TRACE_AUTO, "1000 0 2048 8 1\n. 0 2048 8 1\n",
		  "FILE:2: field 'time': '.' is not a number" },
	};

	for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *name = g_strdup_printf("bad-%u.txt", i);
		g_autofree char *path = write_tmp(name, cases[i].text,
						  strlen(cases[i].text));
		g_autofree char *want = NULL;
		g_auto(GStrv) parts = g_strsplit(cases[i].message, "FILE", 2);
		struct trace_read_opts o;
		g_autoptr(GError) err = NULL;
		g_autoptr(GArray) got = NULL;

		want = g_strjoinv(path, parts);
		trace_read_opts_init(&o);
		o.format = cases[i].fmt;
		got = read_all_with(path, &o, NULL, &err);
		g_test_message("case %u: %s", i, cases[i].text);
		g_assert_null(got);
		g_assert_error(err, STORSIM_ERROR, STORSIM_ERROR_INPUT);
		g_assert_cmpstr(err->message, ==, want);
	}
}

static void test_rejects_long_line(void)
{
	GString *s = g_string_new("fio version 2 iolog\n");
	g_autofree char *path = NULL;
	g_autoptr(GError) err = NULL;
	g_autoptr(GArray) got = NULL;
	struct trace_read_opts o;

	g_string_append_c(s, 'f');
	for (unsigned i = 0; i < 70000; i++)
		g_string_append_c(s, 'x');
	g_string_append(s, " add\n");
	path = write_tmp("long.log", s->str, s->len);
	g_string_free(s, TRUE);
	trace_read_opts_init(&o);
	got = read_all_with(path, &o, NULL, &err);
	g_assert_null(got);
	g_assert_true(g_str_has_suffix(err->message, ":2: line longer than 65536 bytes"));
}

static void test_rejects_bad_blktrace(void)
{
	static const struct {
		unsigned nrec;		/* good records first */
		uint32_t magic;		/* of the last record */
		uint16_t pdu_len;
		unsigned cut;		/* bytes cut off the end */
		const char *message;
	} cases[] = {
		{ 1, 0x65617407, 0, 28,
		  "FILE: record 2 (byte 48): truncated record: 20 of 48 bytes" },
		{ 1, 0x12345678, 0, 0,
		  "FILE: record 2 (byte 48): field 'magic': 0x12345678 is not "
		  "blktrace's 0x65617407" },
		{ 2, 0x65617406, 0, 0,
		  "FILE: record 3 (byte 96): field 'magic': blktrace version 6; "
		  "fio reads version 7" },
		{ 1, 0x65617407, 100, 90,
		  "FILE: record 2 (byte 48): field 'pdu_len': 100 bytes of payload, "
		  "10 left in the file" },
		{ 1, 0x07746165, 0, 0,	/* byte orders mixed in one file */
		  "FILE: record 2 (byte 48): field 'magic': 0x07746165 is not "
		  "blktrace's 0x65617407" },
	};

	for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GByteArray) b = g_byte_array_new();
		g_autofree char *name = g_strdup_printf("bad-%u.bin", i);
		g_autofree char *path = NULL, *want = NULL;
		g_auto(GStrv) parts = g_strsplit(cases[i].message, "FILE", 2);
		g_autoptr(GError) err = NULL;
		g_autoptr(GArray) got = NULL;
		struct trace_read_opts o;

		for (unsigned n = 0; n < cases[i].nrec; n++)
			blk_record(b, 0x65617407, 1000 * n, 8 * n, 4096, BLK_Q_READ, 0);
		blk_record(b, cases[i].magic, 0, 0, 4096, BLK_Q_READ,
			   cases[i].pdu_len);
		for (unsigned n = 0; n < cases[i].pdu_len; n++)
			g_byte_array_append(b, (const guint8 *)"", 1);
		g_byte_array_set_size(b, b->len - cases[i].cut);
		path = write_tmp(name, b->data, b->len);
		want = g_strjoinv(path, parts);
		trace_read_opts_init(&o);
		got = read_all_with(path, &o, NULL, &err);
		g_test_message("case %u", i);
		g_assert_null(got);
		g_assert_error(err, STORSIM_ERROR, STORSIM_ERROR_INPUT);
		g_assert_cmpstr(err->message, ==, want);
	}
}

static void test_blktrace_forced_on_text(void)
{
	static const char text[] = "fio version 2 iolog\n";
	g_autofree char *path = write_tmp("text-as-bin.log", text, strlen(text));
	g_autofree char *want = g_strdup_printf("%s: record 1 (byte 0): field "
		"'magic': 0x206f6966 is not blktrace's 0x65617407 in either byte "
		"order", path);
	g_autoptr(GError) err = NULL;
	struct trace_reader *r = trace_open(path, TRACE_BLKTRACE, &err);

	g_assert_null(r);
	g_assert_cmpstr(err->message, ==, want);
}

static void test_missing_file(void)
{
	g_autofree char *path = g_build_filename(tmpdir, "absent", NULL);
	g_autoptr(GError) err = NULL;

	g_assert_null(trace_open(path, TRACE_AUTO, &err));
	g_assert_error(err, STORSIM_ERROR, STORSIM_ERROR_INPUT);
	g_assert_true(g_str_has_prefix(err->message, path));
	g_assert_nonnull(strstr(err->message, "cannot open"));
}

/* --- replay options --- */

static void test_replay_apply(void)
{
	static const struct {
		const char *opt, *value;
		enum trace_format src;
		struct trace_record in, out;
		bool keep;
	} cases[] = {
		{ "replay_no_stall", NULL, TRACE_IOLOG,
		  { 5000, R, 3, 4096, 512 }, { 0, R, 3, 4096, 512 }, true },
		{ "replay_no_stall", "0", TRACE_IOLOG,
		  { 5000, R, 3, 4096, 512 }, { 5000, R, 3, 4096, 512 }, true },
		/* percent of the recorded rate: 200 halves the times */
		{ "replay_time_scale", "200", TRACE_IOLOG,
		  { 5000, R, 0, 0, 512 }, { 2500, R, 0, 0, 512 }, true },
		{ "replay_time_scale", "50", TRACE_IOLOG,
		  { 5000, R, 0, 0, 512 }, { 10000, R, 0, 0, 512 }, true },
		{ "replay_time_scale", "300", TRACE_IOLOG,
		  { 1000, R, 0, 0, 512 }, { 333, R, 0, 0, 512 }, true },
		{ "replay_time_scale", "1", TRACE_IOLOG,
		  { UINT64_MAX / 10, R, 0, 0, 512 }, { UINT64_MAX, R, 0, 0, 512 }, true },
		{ "replay_redirect", "/dev/nvme0n1", TRACE_MSR_CSV,
		  { 7, W, 2, 4096, 512 }, { 7, W, 0, 4096, 512 }, true },
		/* offsets down; block-trace lengths up; others' lengths kept */
		{ "replay_align", "4096", TRACE_IOLOG,
		  { 0, W, 0, 5000, 5000 }, { 0, W, 0, 4096, 5000 }, true },
		{ "replay_align", "4096", TRACE_BLKTRACE,
		  { 0, W, 0, 5000, 5000 }, { 0, W, 0, 4096, 8192 }, true },
		{ "replay_align", "4096", TRACE_BLKPARSE,
		  { 0, R, 0, 8192, 4096 }, { 0, R, 0, 8192, 4096 }, true },
		{ "replay_scale", "2", TRACE_IOLOG,
		  { 0, R, 0, 8193, 512 }, { 0, R, 0, 4096, 512 }, true },
		{ "replay_scale", "1", TRACE_IOLOG,
		  { 0, R, 0, 8193, 512 }, { 0, R, 0, 8193, 512 }, true },
		{ "replay_skip", "write", TRACE_IOLOG,
		  { 0, W, 0, 0, 512 }, { 0, W, 0, 0, 512 }, false },
		{ "replay_skip", "write", TRACE_IOLOG,
		  { 0, R, 0, 0, 512 }, { 0, R, 0, 0, 512 }, true },
		{ "replay_skip", "read,sync", TRACE_BLKTRACE,
		  { 0, TRACE_OP_FLUSH, 0, 0, 0 }, { 0, TRACE_OP_FLUSH, 0, 0, 0 }, false },
	};

	for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct trace_replay_opts o;
		struct trace_record rec = cases[i].in;
		g_autoptr(GError) err = NULL;

		trace_replay_opts_init(&o);
		g_assert_true(trace_replay_opt_set(&o, cases[i].opt, cases[i].value,
						   &err));
		g_test_message("case %u: %s=%s", i, cases[i].opt, cases[i].value);
		g_assert_cmpint(trace_replay_apply(&o, cases[i].src, &rec), ==,
				cases[i].keep);
		g_assert_cmpuint(rec.time_ns, ==, cases[i].out.time_ns);
		g_assert_cmpuint(rec.file, ==, cases[i].out.file);
		g_assert_cmpuint(rec.offset, ==, cases[i].out.offset);
		g_assert_cmpuint(rec.length, ==, cases[i].out.length);
	}
}

static void test_replay_scale_then_align(void)
{
	/* fio divides by replay_scale first, then aligns */
	struct trace_replay_opts o;
	struct trace_record rec = { 0, R, 0, 12288, 4096 };

	trace_replay_opts_init(&o);
	g_assert_true(trace_replay_opt_set(&o, "replay_scale", "2", NULL));
	g_assert_true(trace_replay_opt_set(&o, "replay_align", "4096", NULL));
	g_assert_true(trace_replay_apply(&o, TRACE_IOLOG, &rec));
	g_assert_cmpuint(rec.offset, ==, 4096);
}

static void test_replay_defaults_change_nothing(void)
{
	struct trace_replay_opts o;
	struct trace_record rec = { 12345, W, 4, 4097, 513 }, before = rec;

	trace_replay_opts_init(&o);
	g_assert_true(trace_replay_apply(&o, TRACE_BLKTRACE, &rec));
	g_assert_cmpmem(&rec, sizeof(rec), &before, sizeof(before));
}

static void test_replay_opt_rejects(void)
{
	static const struct {
		const char *name, *value, *message;
	} cases[] = {
		{ "replay_align", "3000", "option 'replay_align': 3000 is not a power of 2" },
		{ "replay_align", "4k", "option 'replay_align': '4k' is not a whole "
		  "number from 0 to 18446744073709551615" },
		{ "replay_time_scale", "0", "option 'replay_time_scale': '0' is not "
		  "a whole number from 1 to 4294967295" },
		{ "replay_time_scale", NULL, "option 'replay_time_scale': needs a value" },
		{ "replay_no_stall", "maybe", "option 'replay_no_stall': 'maybe' is not 0 or 1" },
		{ "replay_skip", "read,erase", "option 'replay_skip': unknown kind "
		  "'erase' (read, write, trim, sync)" },
		{ "replay_redirect", "", "option 'replay_redirect': is empty" },
		{ "replay_fast", "1", "option 'replay_fast': not a replay option" },
	};

	for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct trace_replay_opts o;
		g_autoptr(GError) err = NULL;

		trace_replay_opts_init(&o);
		g_assert_false(trace_replay_opt_set(&o, cases[i].name, cases[i].value,
						    &err));
		g_assert_cmpstr(err->message, ==, cases[i].message);
	}
}

/* --- writer --- */

static void test_writer_layout(void)
{
	/* fio 3.33's write_iolog layout (fio-formats.md 4.1): integer µs,
	 * name, action, and for I/O offset and length; sync with length 0;
	 * closes at the end */
	static const char want[] =
		"fio version 3 iolog\n"
		"0 /data/f add\n"
		"0 /data/f open\n"
		"883 /data/f read 503808 4096\n"
		"1998 /data/f write 3940352 8192\n"
		"2441 /data/f sync 0 0\n"
		"2441 /data/f trim 0 65536\n"
		"2500 /data/f datasync 0 0\n"
		"2500 /data/f close\n";
	g_autofree char *path = g_build_filename(tmpdir, "layout.log", NULL);
	g_autofree char *text = NULL;
	g_autoptr(GError) err = NULL;
	struct iolog_writer *w = iolog_writer_new(path, &err);

	g_assert_no_error(err);
	iolog_writer_file(w, 0, "/data/f");
	iolog_writer_io(w, 883999, 0, R, 503808, 4096);	/* truncated to µs */
	iolog_writer_io(w, 1998000, 0, W, 3940352, 8192);
	iolog_writer_io(w, 2441000, 0, TRACE_OP_FLUSH, 0, 0);
	iolog_writer_io(w, 2441000, 0, TRACE_OP_TRIM, 0, 65536);
	iolog_writer_io(w, 2500000, 0, TRACE_OP_DATASYNC, 0, 0);
	g_assert_true(iolog_writer_close(w, &err));
	g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
	g_assert_cmpstr(text, ==, want);
}

static void test_writer_round_trip(void)
{
	/* as they read back: a file's add and open at the time of the line
	 * before; /a reopened for its datasync after its close; closes after
	 * the last I/O */
	static const struct trace_record want[] = {
		{ 0, TRACE_OP_ADD, 0, 0, 0 }, { 0, TRACE_OP_OPEN, 0, 0, 0 },
		{ 1000, W, 0, 0, 4096 },
		{ 1000, TRACE_OP_ADD, 1, 0, 0 }, { 1000, TRACE_OP_OPEN, 1, 0, 0 },
		{ 5000, R, 1, 1ull << 40, 131072 },
		{ 7000, TRACE_OP_CLOSE, 0, 0, 0 },
		{ 9000, TRACE_OP_TRIM, 1, 8192, 4096 },
		{ 12000, TRACE_OP_OPEN, 0, 0, 0 },
		{ 12000, TRACE_OP_DATASYNC, 0, 0, 0 },
		{ 12000, TRACE_OP_SYNC, 1, 0, 0 },
		{ 12000, TRACE_OP_CLOSE, 0, 0, 0 }, { 12000, TRACE_OP_CLOSE, 1, 0, 0 },
	};
	g_autofree char *path = g_build_filename(tmpdir, "round.log", NULL);
	g_autoptr(GError) err = NULL;
	g_autoptr(GArray) got = NULL;
	struct iolog_writer *w = iolog_writer_new(path, &err);
	struct trace_reader *r;

	g_assert_no_error(err);
	iolog_writer_file(w, 0, "/a");
	iolog_writer_io(w, 1000, 0, W, 0, 4096);
	iolog_writer_file(w, 1, "/b");
	iolog_writer_io(w, 5000, 1, R, 1ull << 40, 131072);
	iolog_writer_io(w, 6000, 1, TRACE_OP_OPEN, 0, 0);	/* already open */
	iolog_writer_io(w, 7000, 0, TRACE_OP_CLOSE, 0, 0);
	iolog_writer_io(w, 9000, 1, TRACE_OP_TRIM, 8192, 4096);
	iolog_writer_io(w, 12000, 0, TRACE_OP_DATASYNC, 0, 0);
	iolog_writer_io(w, 12000, 1, TRACE_OP_SYNC, 0, 0);
	g_assert_true(iolog_writer_close(w, &err));
	got = read_all(path, TRACE_AUTO, &r);
	assert_records(got, want, G_N_ELEMENTS(want));
	g_assert_cmpstr(trace_file_name(r, 0), ==, "/a");
	g_assert_cmpstr(trace_file_name(r, 1), ==, "/b");
	trace_close(r);
}

static void test_writer_publishes_whole(void)
{
	g_autofree char *path = g_build_filename(tmpdir, "whole.log", NULL);
	g_autofree char *text = NULL;
	g_autoptr(GError) err = NULL;
	struct iolog_writer *w;

	g_assert_true(g_file_set_contents(path, "old\n", -1, NULL));
	w = iolog_writer_new(path, &err);
	iolog_writer_file(w, 0, "/a");
	for (unsigned i = 0; i < 100000; i++)
		iolog_writer_io(w, i * 1000ull, 0, R, i * 4096ull, 4096);
	/* nothing shows before close */
	g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
	g_assert_cmpstr(text, ==, "old\n");
	iolog_writer_abort(w);
	g_clear_pointer(&text, g_free);
	g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
	g_assert_cmpstr(text, ==, "old\n");
	/* and no temporary file is left beside it */
	{
		g_autoptr(GDir) d = g_dir_open(tmpdir, 0, NULL);
		const char *n;

		while ((n = g_dir_read_name(d)))
			g_assert_false(g_str_has_prefix(n, "whole.log."));
	}
}

static void test_writer_rejects(void)
{
	static const struct {
		const char *name;
		uint32_t file;
		uint64_t len;
		const char *message;
	} cases[] = {
		{ "/my file", 0, 512, "FILE: file name '/my file': an iolog name is "
		  "1 to 256 bytes without white space" },
		{ "/a", 1, 512, "FILE: file 1 used before iolog_writer_file" },
		{ "/a", 0, 1ull << 32, "FILE: length 4294967296 is more than fio "
		  "reads (32 bits)" },
	};

	for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *name = g_strdup_printf("rej-%u.log", i);
		g_autofree char *path = g_build_filename(tmpdir, name, NULL);
		g_autofree char *want = NULL;
		g_auto(GStrv) parts = g_strsplit(cases[i].message, "FILE", 2);
		g_autoptr(GError) err = NULL;
		struct iolog_writer *w = iolog_writer_new(path, &err);

		want = g_strjoinv(path, parts);
		iolog_writer_file(w, 0, cases[i].name);
		iolog_writer_io(w, 0, cases[i].file, W, 0, cases[i].len);
		g_assert_false(iolog_writer_close(w, &err));
		g_assert_cmpstr(err->message, ==, want);
		g_assert_false(g_file_test(path, G_FILE_TEST_EXISTS));
	}
}

static void test_writer_cannot_create(void)
{
	g_autofree char *path = g_build_filename(tmpdir, "no", "such", "x.log", NULL);
	g_autoptr(GError) err = NULL;

	g_assert_null(iolog_writer_new(path, &err));
	g_assert_error(err, STORSIM_ERROR, STORSIM_ERROR_INPUT);
	g_assert_true(g_str_has_prefix(err->message, path));
	g_assert_nonnull(strstr(err->message, "cannot create"));
}

static void remove_tree(const char *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *n;

	while (d && (n = g_dir_read_name(d))) {
		g_autofree char *p = g_build_filename(dir, n, NULL);

		g_remove(p);
	}
	g_rmdir(dir);
}

int main(int argc, char **argv)
{
	int ret;

	g_test_init(&argc, &argv, NULL);
	tmpdir = g_dir_make_tmp("storsim-trace-XXXXXX", NULL);
	g_assert_nonnull(tmpdir);

	for (unsigned i = 0; i < G_N_ELEMENTS(examples); i++) {
		g_autofree char *name = g_strdup_printf("/trace/example/%s",
							examples[i].file);

		g_test_add_data_func(name, &examples[i], test_example);
	}
	g_test_add_func("/trace/iolog/v2-wait-as-howto", test_iolog_v2_howto_wait);
	g_test_add_func("/trace/iolog/v2-howto-discards-small-waits",
			test_iolog_v2_howto_discards_small_waits);
	g_test_add_func("/trace/read/time-unit-override", test_time_unit_override);
	g_test_add_func("/trace/read/time-units", test_time_units);
	g_test_add_func("/trace/read/lba-size-override", test_lba_size_override);
	g_test_add_func("/trace/read/time-going-backwards", test_time_going_backwards);
	g_test_add_func("/trace/read/crlf-and-blank-lines", test_crlf_and_blank_lines);
	g_test_add_func("/trace/read/gzip", test_gzip_input);
	g_test_add_func("/trace/read/deterministic", test_reading_is_deterministic);
	g_test_add_func("/trace/read/many-files-interleaved",
			test_many_files_interleaved);
	g_test_add_func("/trace/read/many-devices-interleaved",
			test_many_devices_interleaved);
	g_test_add_func("/trace/read/file-table-bounded", test_file_table_is_bounded);
	g_test_add_func("/trace/reject/text", test_rejects_bad_text);
	g_test_add_func("/trace/reject/long-line", test_rejects_long_line);
	g_test_add_func("/trace/reject/blktrace", test_rejects_bad_blktrace);
	g_test_add_func("/trace/reject/blktrace-forced-on-text",
			test_blktrace_forced_on_text);
	g_test_add_func("/trace/reject/missing-file", test_missing_file);
	g_test_add_func("/trace/replay/apply", test_replay_apply);
	g_test_add_func("/trace/replay/scale-then-align", test_replay_scale_then_align);
	g_test_add_func("/trace/replay/defaults-change-nothing",
			test_replay_defaults_change_nothing);
	g_test_add_func("/trace/replay/rejects", test_replay_opt_rejects);
	g_test_add_func("/trace/writer/layout", test_writer_layout);
	g_test_add_func("/trace/writer/round-trip", test_writer_round_trip);
	g_test_add_func("/trace/writer/publishes-whole", test_writer_publishes_whole);
	g_test_add_func("/trace/writer/rejects", test_writer_rejects);
	g_test_add_func("/trace/writer/cannot-create", test_writer_cannot_create);
	ret = g_test_run();
	remove_tree(tmpdir);
	g_free(tmpdir);
	return ret;
}
