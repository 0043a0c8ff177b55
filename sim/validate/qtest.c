/*
 * qtest client: starts QEMU with its qtest chardev on a unix socket we
 * listen on, then speaks QEMU's line protocol (softmmu/qtest.c): one
 * request per line, one "OK [value]" or "FAIL ..." reply, with "IRQ raise
 * N" / "IRQ lower N" lines that may arrive in between and are skipped.
 *
 * Parameters: qtest_options (binary, drive cache mode, device write-cache,
 * serial, image size in bytes, per-wait limit in ms, trace pattern).
 * Sources: reference/qemu-nvme-and-libvirt.md sections 2.1-2.3 (the
 * working command line, protocol commands, that QEMU connects as a client
 * and does not exit when the socket closes).
 */
#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <gio/gunixsocketaddress.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "qtest.h"
#include "engine/util.h"

struct qtest {
	GSubprocess *proc;
	GMainContext *ctx;
	GSocket *listener, *conn;
	GString *in;
	char *dir, *sock_path, *image, *pid_path, *trace_path, *err_path;
	gint64 timeout_us;
	bool exited, keep;
};

/* Failures of QEMU or of the device under test. */
#define fail(err, ...) \
	g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_EXTERNAL, __VA_ARGS__)

char *qtest_find_qemu(const char *explicit_path)
{
	if (explicit_path)
		return g_file_test(explicit_path, G_FILE_TEST_IS_EXECUTABLE) ?
		       g_strdup(explicit_path) : NULL;
	return g_find_program_in_path("qemu-system-x86_64");
}

const char *qtest_tempdir(const struct qtest *q)
{
	return q->dir;
}

char *qtest_trace_text(const struct qtest *q)
{
	char *text = NULL;

	if (!q->trace_path || !g_file_get_contents(q->trace_path, &text, NULL, NULL))
		return NULL;
	return text;
}

static void qemu_exited(GObject *src, GAsyncResult *res, gpointer data)
{
	struct qtest *q = data;
	g_subprocess_wait_finish(G_SUBPROCESS(src), res, NULL);
	q->exited = true;
}

/* Let the exit callback run; wait up to ms for QEMU to be gone. */
static bool wait_exit(struct qtest *q, unsigned ms)
{
	gint64 end = g_get_monotonic_time() + (gint64)ms * 1000;

	while (!q->exited && g_get_monotonic_time() < end) {
		if (!g_main_context_iteration(q->ctx, FALSE))
			g_usleep(2000);
	}
	return q->exited;
}

static char *stderr_tail(const struct qtest *q)
{
	char *text = NULL;

	if (!g_file_get_contents(q->err_path, &text, NULL, NULL) || !*text) {
		g_free(text);
		return g_strdup("(nothing on stderr)");
	}
	g_strstrip(text);
	return text;
}

static void remove_temp(struct qtest *q)
{
	const char *files[] = {q->sock_path, q->image, q->pid_path, q->trace_path,
			       q->err_path};

	if (!q->dir)
		return;
	if (q->keep) {
		g_printerr("storsim: QEMU files kept in %s\n", q->dir);
		return;
	}
	for (unsigned i = 0; i < G_N_ELEMENTS(files); i++)
		if (files[i])
			g_unlink(files[i]);
	g_rmdir(q->dir);
}

void qtest_stop(struct qtest *q)
{
	if (!q)
		return;
	if (q->conn)
		g_socket_close(q->conn, NULL);
	if (q->proc && !q->exited) {
		/* QEMU under TCG does not exit when the socket closes: signal
		 * its pid, and insist if it lingers. */
		g_subprocess_send_signal(q->proc, SIGTERM);
		if (!wait_exit(q, 3000)) {
			g_subprocess_force_exit(q->proc);
			wait_exit(q, 3000);
		}
	}
	g_clear_object(&q->conn);
	if (q->listener)
		g_socket_close(q->listener, NULL);
	g_clear_object(&q->listener);
	g_clear_object(&q->proc);
	remove_temp(q);
	if (q->ctx)
		g_main_context_unref(q->ctx);
	if (q->in)
		g_string_free(q->in, TRUE);
	g_free(q->dir);
	g_free(q->sock_path);
	g_free(q->image);
	g_free(q->pid_path);
	g_free(q->trace_path);
	g_free(q->err_path);
	g_free(q);
}

static bool make_image(struct qtest *q, uint64_t bytes, GError **err)
{
	int fd = g_open(q->image, O_CREAT | O_WRONLY | O_TRUNC, 0600);

	if (fd < 0 || ftruncate(fd, (off_t)bytes) != 0) {
		fail(err, "cannot create %s: %s", q->image, g_strerror(errno));
		if (fd >= 0)
			close(fd);
		return false;
	}
	close(fd);
	return true;
}

static bool listen_socket(struct qtest *q, GError **err)
{
	g_autoptr(GSocketAddress) addr = g_unix_socket_address_new(q->sock_path);

	q->listener = g_socket_new(G_SOCKET_FAMILY_UNIX, G_SOCKET_TYPE_STREAM,
				   G_SOCKET_PROTOCOL_DEFAULT, err);
	return q->listener && g_socket_bind(q->listener, addr, TRUE, err) &&
	       g_socket_listen(q->listener, err);
}

static bool spawn(struct qtest *q, const struct qtest_options *o,
		  const char *qemu, GError **err)
{
	g_autoptr(GSubprocessLauncher) l = g_subprocess_launcher_new(
		G_SUBPROCESS_FLAGS_STDOUT_SILENCE);
	g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func(g_free);
	char *drive = g_strdup_printf("file=%s,if=none,id=d0,format=raw,cache=%s",
				      q->image, o->cache ? o->cache : "writeback");
	char *dev = g_strdup_printf("nvme,serial=%s,drive=d0,addr=04.0%s%s",
				    o->serial ? o->serial : "storsim0001",
				    o->write_cache ? ",write-cache=" : "",
				    o->write_cache ? o->write_cache : "");
	const char *fixed[] = {"-machine", "q35", "-accel", "tcg", "-display",
			       "none", "-nodefaults", "-m", "256M", "-S",
			       "-qtest-log", "/dev/null"};

	g_ptr_array_add(argv, g_strdup(qemu));
	for (unsigned i = 0; i < G_N_ELEMENTS(fixed); i++)
		g_ptr_array_add(argv, g_strdup(fixed[i]));
	g_ptr_array_add(argv, g_strdup("-qtest"));
	g_ptr_array_add(argv, g_strdup_printf("unix:%s", q->sock_path));
	g_ptr_array_add(argv, g_strdup("-drive"));
	g_ptr_array_add(argv, drive);
	g_ptr_array_add(argv, g_strdup("-device"));
	g_ptr_array_add(argv, dev);
	g_ptr_array_add(argv, g_strdup("-pidfile"));
	g_ptr_array_add(argv, g_strdup(q->pid_path));
	if (o->trace) {
		g_ptr_array_add(argv, g_strdup("-trace"));
		g_ptr_array_add(argv, g_strdup(o->trace));
		g_ptr_array_add(argv, g_strdup("-D"));
		g_ptr_array_add(argv, g_strdup(q->trace_path));
	}
	g_ptr_array_add(argv, NULL);

	g_subprocess_launcher_set_stdin_file_path(l, "/dev/null");
	g_subprocess_launcher_set_stderr_file_path(l, q->err_path);
	q->proc = g_subprocess_launcher_spawnv(l, (const char *const *)argv->pdata,
					       err);
	if (!q->proc)
		return false;
	g_main_context_push_thread_default(q->ctx);
	g_subprocess_wait_async(q->proc, NULL, qemu_exited, q);
	g_main_context_pop_thread_default(q->ctx);
	return true;
}

/* QEMU connects to us; wait for that, or for it to die trying. */
static bool accept_qemu(struct qtest *q, GError **err)
{
	gint64 end = g_get_monotonic_time() + q->timeout_us;

	while (g_get_monotonic_time() < end) {
		g_main_context_iteration(q->ctx, FALSE);
		if (q->exited) {
			g_autofree char *why = stderr_tail(q);
			fail(err, "QEMU exited before connecting: %s", why);
			return false;
		}
		if (g_socket_condition_timed_wait(q->listener, G_IO_IN, 20000,
						  NULL, NULL)) {
			q->conn = g_socket_accept(q->listener, NULL, err);
			return q->conn != NULL;
		}
	}
	fail(err, "QEMU did not connect to %s within %" G_GINT64_FORMAT " ms",
	     q->sock_path, q->timeout_us / 1000);
	return false;
}

struct qtest *qtest_start(const struct qtest_options *o, GError **err)
{
	g_autofree char *qemu = qtest_find_qemu(o->qemu);
	struct qtest *q = g_new0(struct qtest, 1);

	q->timeout_us = (gint64)(o->timeout_ms ? o->timeout_ms : 10000) * 1000;
	q->keep = o->keep_temp;
	q->ctx = g_main_context_new();
	q->in = g_string_new(NULL);
	if (!qemu) {
		fail(err, "qemu-system-x86_64 not found%s%s",
		     o->qemu ? " at " : " in PATH", o->qemu ? o->qemu : "");
		goto bad;
	}
	q->dir = g_dir_make_tmp("storsim-qtest-XXXXXX", err);
	if (!q->dir)
		goto bad;
	q->sock_path = g_build_filename(q->dir, "qtest.sock", NULL);
	q->image = g_build_filename(q->dir, "disk.raw", NULL);
	q->pid_path = g_build_filename(q->dir, "qemu.pid", NULL);
	q->err_path = g_build_filename(q->dir, "qemu.stderr", NULL);
	if (o->trace)
		q->trace_path = g_build_filename(q->dir, "trace.log", NULL);
	if (!make_image(q, o->image_bytes, err) || !listen_socket(q, err) ||
	    !spawn(q, o, qemu, err) || !accept_qemu(q, err))
		goto bad;
	return q;
bad:
	qtest_stop(q);
	return NULL;
}

static bool send_line(struct qtest *q, const char *line, GError **err)
{
	size_t len = strlen(line), off = 0;

	while (off < len) {
		if (!g_socket_condition_timed_wait(q->conn, G_IO_OUT, q->timeout_us,
						   NULL, NULL)) {
			fail(err, "QEMU stopped reading (qtest request timed out)");
			return false;
		}
		gssize n = g_socket_send(q->conn, line + off, len - off, NULL, err);
		if (n <= 0)
			return false;
		off += (size_t)n;
	}
	return true;
}

/* The next reply line that is not an IRQ notice, without its newline. */
static char *recv_reply(struct qtest *q, const char *what, GError **err)
{
	char buf[65536];

	for (;;) {
		char *nl = memchr(q->in->str, '\n', q->in->len);
		if (nl) {
			char *line = g_strndup(q->in->str, nl - q->in->str);
			g_string_erase(q->in, 0, nl - q->in->str + 1);
			if (!g_str_has_prefix(line, "IRQ "))
				return line;
			g_free(line);
			continue;
		}
		if (!g_socket_condition_timed_wait(q->conn, G_IO_IN, q->timeout_us,
						   NULL, NULL)) {
			fail(err, "QEMU did not answer '%s' within %" G_GINT64_FORMAT
			     " ms", what, q->timeout_us / 1000);
			return NULL;
		}
		gssize n = g_socket_receive(q->conn, buf, sizeof(buf), NULL, err);
		if (n < 0)
			return NULL;
		if (n == 0) {
			fail(err, "QEMU closed the qtest connection during '%s'", what);
			return NULL;
		}
		g_string_append_len(q->in, buf, n);
	}
}

/* Send one request; on "OK" return what follows it (maybe ""). */
static char *request(struct qtest *q, GError **err, const char *fmt, ...)
	G_GNUC_PRINTF(3, 4);

static char *request(struct qtest *q, GError **err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	g_autofree char *cmd = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_autofree char *line = g_strconcat(cmd, "\n", NULL);
	char *word_end = strchr(cmd, ' ');
	g_autofree char *what = g_strndup(cmd, word_end ? (size_t)(word_end - cmd) : strlen(cmd));

	if (!send_line(q, line, err))
		return NULL;
	g_autofree char *reply = recv_reply(q, what, err);
	if (!reply)
		return NULL;
	if (!g_str_has_prefix(reply, "OK")) {
		fail(err, "QEMU refused '%s': %s", what, reply);
		return NULL;
	}
	return g_strdup(g_strstrip(reply + 2));
}

static bool ok_reply(char *reply)
{
	bool ok = reply != NULL;
	g_free(reply);
	return ok;
}

static bool parse_value(const char *text, uint64_t *v, GError **err)
{
	char *end;

	errno = 0;
	*v = g_ascii_strtoull(text, &end, 0);
	if (errno || end == text) {
		fail(err, "unexpected qtest reply value '%s'", text);
		return false;
	}
	return true;
}

bool qtest_outl(struct qtest *q, uint16_t port, uint32_t v, GError **err)
{
	return ok_reply(request(q, err, "outl 0x%x 0x%x", port, v));
}

bool qtest_writel(struct qtest *q, uint64_t addr, uint32_t v, GError **err)
{
	return ok_reply(request(q, err, "writel 0x%" G_GINT64_MODIFIER
					  "x 0x%x", addr, v));
}

bool qtest_writeq(struct qtest *q, uint64_t addr, uint64_t v, GError **err)
{
	return ok_reply(request(q, err, "writeq 0x%" G_GINT64_MODIFIER
					  "x 0x%" G_GINT64_MODIFIER "x", addr, v));
}

static bool read_value(char *reply, uint64_t *v, GError **err)
{
	bool ok = reply && parse_value(reply, v, err);
	g_free(reply);
	return ok;
}

bool qtest_inl(struct qtest *q, uint16_t port, uint32_t *v, GError **err)
{
	uint64_t x = 0;
	bool ok = read_value(request(q, err, "inl 0x%x", port), &x, err);
	*v = (uint32_t)x;
	return ok;
}

bool qtest_readl(struct qtest *q, uint64_t addr, uint32_t *v, GError **err)
{
	uint64_t x = 0;
	bool ok = read_value(request(q, err, "readl 0x%" G_GINT64_MODIFIER "x",
					addr), &x, err);
	*v = (uint32_t)x;
	return ok;
}

bool qtest_readq(struct qtest *q, uint64_t addr, uint64_t *v, GError **err)
{
	return read_value(request(q, err, "readq 0x%" G_GINT64_MODIFIER "x",
				     addr), v, err);
}

bool qtest_memread(struct qtest *q, uint64_t addr, void *buf, size_t len,
		   GError **err)
{
	g_autofree char *reply = request(q, err, "b64read 0x%" G_GINT64_MODIFIER
					 "x 0x%zx", addr, len);
	gsize n = 0;

	if (!reply)
		return false;
	g_autofree guchar *data = g_base64_decode(reply, &n);
	if (n != len) {
		fail(err, "b64read of %zu bytes returned %zu", len, (size_t)n);
		return false;
	}
	memcpy(buf, data, len);
	return true;
}

bool qtest_memwrite(struct qtest *q, uint64_t addr, const void *buf,
		    size_t len, GError **err)
{
	g_autofree char *b64 = g_base64_encode(buf, len);
	return ok_reply(request(q, err, "b64write 0x%" G_GINT64_MODIFIER
					  "x 0x%zx %s", addr, len, b64));
}

bool qtest_memset(struct qtest *q, uint64_t addr, uint8_t v, size_t len,
		  GError **err)
{
	return ok_reply(request(q, err, "memset 0x%" G_GINT64_MODIFIER
					  "x 0x%zx 0x%02x", addr, len, v));
}
