/*
 * Description: reading a trace takes memory bounded independently of its
 * length. A thread writes a few million generated records into a pipe;
 * the reader checks every record against the generator's formula (so
 * lines cut by the read buffer's edges are checked too) while the
 * process's peak resident size (VmHWM, reset through clear_refs) stays
 * within a small bound. The rate is printed as a TAP comment.
 */
#include <gio/gunixinputstream.h>
#include <glib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "trace/trace.h"

/* Far below what a trace held in memory would take: 3 million records of
 * 32 bytes are 96 MiB. */
#define GROWTH_LIMIT_KB (8 * 1024)

struct gen {
	int fd;
	enum trace_format fmt;
	uint64_t n;
};

/* Record i of every generated trace. */
static void expected(uint64_t i, struct trace_record *rec)
{
	rec->time_ns = i * 1000;
	rec->op = (i % 3) ? TRACE_OP_READ : TRACE_OP_WRITE;
	rec->file = 0;
	rec->offset = (i * 7919 % 1000003) * 4096;
	rec->length = 4096u << (i % 4);
}

static char *put_u64(char *p, uint64_t v)
{
	char tmp[24], *s = tmp + sizeof(tmp);

	do {
		*--s = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	memcpy(p, s, (size_t)(tmp + sizeof(tmp) - s));
	return p + (tmp + sizeof(tmp) - s);
}

static void write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		g_assert_cmpint(n, >, 0);
		buf += n;
		len -= (size_t)n;
	}
}

/* One record in the generator's format into p; returns its end. */
static char *format_record(const struct gen *g, uint64_t i, char *p)
{
	struct trace_record r;

	expected(i, &r);
	if (g->fmt == TRACE_IOLOG) {
		p = put_u64(p, r.time_ns / 1000);
		p = stpcpy(p, r.op == TRACE_OP_READ ? " /dev/x read " : " /dev/x write ");
		p = put_u64(p, r.offset);
		*p++ = ' ';
		p = put_u64(p, r.length);
		*p++ = '\n';
	} else if (g->fmt == TRACE_MSR_CSV) {
		p = put_u64(p, 128166372003061629ull + r.time_ns / 100);
		p = stpcpy(p, r.op == TRACE_OP_READ ? ",hm,0,Read," : ",hm,0,Write,");
		p = put_u64(p, r.offset);
		*p++ = ',';
		p = put_u64(p, r.length);
		p = stpcpy(p, ",26\n");
	} else {
		/* blk_io_trace, host order: Q with READ or WRITE, QUEUE, FS */
		uint32_t u32[2] = { 0x65617407, (uint32_t)i };
		uint64_t u64[2] = { 1000000000 + r.time_ns, r.offset / 512 };
		uint32_t rest[5] = { (uint32_t)r.length,
			1u | ((r.op == TRACE_OP_READ ? 0x111u : 0x112u) << 16),
			77, 8u << 20, 0 };
		uint32_t tail = 0;	/* error, pdu_len */

		memcpy(p, u32, 8);
		memcpy(p + 8, u64, 16);
		memcpy(p + 24, rest, 20);
		memcpy(p + 44, &tail, 4);
		p += 48;
	}
	return p;
}

static gpointer generate(gpointer data)
{
	struct gen *g = data;
	char buf[64 * 1024], *p = buf;

	if (g->fmt == TRACE_IOLOG)
		p = stpcpy(p, "fio version 3 iolog\n0 /dev/x add\n0 /dev/x open\n");
	for (uint64_t i = 0; i < g->n; i++) {
		if (p - buf > (ptrdiff_t)sizeof(buf) - 128) {
			write_all(g->fd, buf, (size_t)(p - buf));
			p = buf;
		}
		p = format_record(g, i, p);
	}
	write_all(g->fd, buf, (size_t)(p - buf));
	close(g->fd);
	return NULL;
}

static long status_kb(const char *key)
{
	g_autofree char *text = NULL;
	const char *p;

	g_assert_true(g_file_get_contents("/proc/self/status", &text, NULL, NULL));
	p = strstr(text, key);
	g_assert_nonnull(p);
	return strtol(p + strlen(key), NULL, 10);
}

static void stream(enum trace_format fmt, uint64_t n)
{
	struct gen g = { .fmt = fmt, .n = n };
	int fds[2];
	GThread *t;
	struct trace_read_opts o;
	struct trace_reader *r;
	struct trace_record rec, want;
	g_autoptr(GError) err = NULL;
	uint64_t i = 0, bad = 0;
	long base, peak;
	gint64 t0;
	FILE *clear;
	int got;

	g_assert_cmpint(pipe(fds), ==, 0);
	g.fd = fds[1];
	trace_read_opts_init(&o);
	o.format = fmt;
	t0 = g_get_monotonic_time();
	t = g_thread_new("generator", generate, &g);
	r = trace_open_stream(g_unix_input_stream_new(fds[0], TRUE), "pipe", &o,
			      &err);
	g_assert_no_error(err);
	/* Start the peak from here: "5" resets VmHWM to the current RSS. */
	clear = fopen("/proc/self/clear_refs", "w");
	if (clear) {
		fputs("5", clear);
		fclose(clear);
	}
	base = status_kb("VmRSS:");
	while ((got = trace_next(r, &rec, &err)) > 0) {
		if (rec.op == TRACE_OP_ADD || rec.op == TRACE_OP_OPEN)
			continue;
		expected(i++, &want);
		bad += rec.time_ns != want.time_ns || rec.op != want.op ||
		       rec.file != want.file || rec.offset != want.offset ||
		       rec.length != want.length;
	}
	peak = status_kb("VmHWM:");
	g_assert_no_error(err);
	g_assert_cmpint(got, ==, 0);
	g_thread_join(t);
	g_test_message("%s: %" G_GUINT64_FORMAT " records in %.2f s (%.1f M/s); "
		       "peak RSS %ld KiB above the start", trace_format_name(fmt),
		       i, (g_get_monotonic_time() - t0) / 1e6,
		       i / ((g_get_monotonic_time() - t0) / 1e6) / 1e6, peak - base);
	trace_close(r);
	g_assert_cmpuint(i, ==, n);
	g_assert_cmpuint(bad, ==, 0);
	if (!clear)
		g_test_skip("/proc/self/clear_refs not writable: peak not measured");
	else
		g_assert_cmpint(peak - base, <, GROWTH_LIMIT_KB);
}

static void test_iolog(void)
{
	stream(TRACE_IOLOG, 3000000);
}

static void test_blktrace(void)
{
	stream(TRACE_BLKTRACE, 2000000);
}

static void test_msr(void)
{
	stream(TRACE_MSR_CSV, 1000000);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/trace/stream/iolog-bounded", test_iolog);
	g_test_add_func("/trace/stream/blktrace-bounded", test_blktrace);
	g_test_add_func("/trace/stream/msr-bounded", test_msr);
	return g_test_run();
}
