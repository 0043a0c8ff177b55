/*
 * The check-guest launcher: boots the guest of guest_domain_xml() as a
 * transient domain of libvirt's embedded QEMU driver (qemu:///embed?root=DIR),
 * which runs inside this process, and waits until the guest powers off.
 *
 * What it relies on, as observed with libvirt 9.0 on Debian 12
 * (reference/qemu-nvme-and-libvirt.md, 4.2): the embedded driver needs a
 * thread running libvirt's event loop; it reads ROOT/etc/qemu.conf, where
 * stdio_handler = "file" keeps it away from virtlogd, and user/group root
 * let QEMU open the image, which libvirt does not label because it comes
 * through <qemu:commandline>; the privileged driver needs the libvirt-qemu
 * user and the kvm group (scripts/setup-libvirt-embed.sh). virt-qemu-run,
 * which does the same job, hung after its guest ended, so this launcher
 * polls the domain's state: a transient domain that has ended is gone.
 *
 * libvirt is loaded (GModule) when a guest is first started, not linked:
 * linked, its 40-odd libraries made every storsim start-up five times
 * longer (about 11 ms against 2 ms for `storsim --version`), for a
 * launcher only make check-guest uses.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <gmodule.h>
#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>

#include "guest.h"
#include "engine/util.h"

/* The libvirt calls the launcher makes, typed by libvirt's own header. */
#define LIBVIRT_CALLS(X) \
	X(virConnectClose) X(virConnectOpen) X(virDomainCreateXML) \
	X(virDomainDestroy) X(virDomainFree) X(virDomainGetState) \
	X(virEventAddTimeout) X(virEventRegisterDefaultImpl) \
	X(virEventRemoveTimeout) X(virEventRunDefaultImpl) X(virGetLastError) \
	X(virGetLastErrorMessage) X(virInitialize) X(virSetErrorFunc)

static struct {
#define FIELD(name) __typeof__(name) *name;
	LIBVIRT_CALLS(FIELD)
#undef FIELD
} lv;

/* The soname of the libvirt the launcher was built against (Debian 12's). */
#define LIBVIRT_SONAME "libvirt.so.0"

static gpointer libvirt_load(gpointer unused)
{
	GModule *m = g_module_open(LIBVIRT_SONAME, G_MODULE_BIND_LOCAL);

	if (!m)
		return g_strdup(g_module_error());
#define LOAD(name) \
	if (!g_module_symbol(m, #name, (gpointer *)&lv.name)) { \
		char *e = g_strdup(g_module_error()); \
		g_module_close(m); \
		return e; \
	}
	LIBVIRT_CALLS(LOAD)
#undef LOAD
	g_module_make_resident(m);
	return NULL;
}

/* How often the domain's state is read: small beside a boot of seconds. */
#define POLL_MS 200

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

/* libvirt prints its errors on stderr unless told otherwise; ours go in GErrors. */
static void quiet(void *data, virErrorPtr e)
{
}

/*
 * data is the driver root. libvirt's own log (the domain is "tainted" by
 * custom-argv, ...) goes to a file there unless the user chose otherwise;
 * this runs before any thread is started, so setenv is safe.
 */
static gpointer libvirt_setup(gpointer data)
{
	g_autofree char *log = g_build_filename(data, "libvirt.log", NULL);
	g_autofree char *outputs = g_strdup_printf("3:file:%s", log);

	g_setenv("LIBVIRT_LOG_OUTPUTS", outputs, FALSE);
	lv.virSetErrorFunc(NULL, quiet);
	return GINT_TO_POINTER(lv.virInitialize() == 0 && lv.virEventRegisterDefaultImpl() == 0);
}

static void libvirt_error(GError **err, const char *what)
{
	g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_EXTERNAL, "%s: %s", what,
		    lv.virGetLastErrorMessage());
}

struct event_loop {
	GThread *thread;
	gint running;
};

static gpointer event_loop_run(gpointer data)
{
	struct event_loop *l = data;

	while (g_atomic_int_get(&l->running))
		if (lv.virEventRunDefaultImpl() < 0)
			break;
	return NULL;
}

static void wake(int timer, void *opaque)
{
	lv.virEventRemoveTimeout(timer);
}

static void event_loop_stop(struct event_loop *l)
{
	g_atomic_int_set(&l->running, 0);
	/* A timer due now ends the loop's current, possibly idle, iteration. */
	lv.virEventAddTimeout(0, wake, NULL, NULL);
	g_thread_join(l->thread);
}

static bool write_qemu_conf(const char *root, GError **err)
{
	g_autofree char *dir = g_build_filename(root, "etc", NULL);
	g_autofree char *path = g_build_filename(dir, "qemu.conf", NULL);
	/*
	 * As root the driver would run QEMU as libvirt-qemu, which may not open
	 * the image. QEMU running as root needs no file's owner changed and
	 * restored, so the owner is not remembered either: libvirt keeps it in
	 * extended attributes of the files, and warns about stale ones left by
	 * an earlier run from a child process whose log goes to stderr.
	 */
	const char *conf = geteuid() == 0 ?
		"stdio_handler = \"file\"\nuser = \"root\"\ngroup = \"root\"\nremember_owner = 0\n" :
		"stdio_handler = \"file\"\n";

	if (g_mkdir_with_parents(dir, 0755) != 0) {
		g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_IO, "%s: %s", dir, g_strerror(errno));
		return false;
	}
	return g_file_set_contents(path, conf, -1, err);
}

/* Wait for dom to end; true when it did, false with *err on timeout or signal. */
static bool wait_for_end(virDomainPtr dom, unsigned int timeout_s, GError **err)
{
	gint64 deadline = g_get_monotonic_time() + (gint64)timeout_s * G_USEC_PER_SEC;

	for (;;) {
		int state, reason;

		if (lv.virDomainGetState(dom, &state, &reason, 0) < 0) {
			virErrorPtr e = lv.virGetLastError();

			if (e && e->code == VIR_ERR_NO_DOMAIN)
				return true;
			libvirt_error(err, "cannot read the guest's state");
			return false;
		}
		if (state == VIR_DOMAIN_SHUTOFF)
			return true;
		if (stop_signal) {
			g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_EXTERNAL,
				    "stopped by signal %d", (int)stop_signal);
			return false;
		}
		if (g_get_monotonic_time() >= deadline) {
			g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_EXTERNAL,
				    "the guest did not power off within %u s", timeout_s);
			return false;
		}
		g_usleep(POLL_MS * 1000);
	}
}

bool guest_run(const struct guest_run_opts *o, GError **err)
{
	static GOnce setup = G_ONCE_INIT;
	g_autofree char *xml = guest_domain_xml(o);
	g_autofree char *uri = g_strdup_printf("qemu:///embed?root=%s", o->root);
	struct event_loop loop = { .running = 1 };
	struct sigaction sa = { .sa_handler = on_signal }, old_int, old_term;
	virConnectPtr conn;
	virDomainPtr dom;
	bool ended;

	static GOnce load = G_ONCE_INIT;
	const char *load_error;

	if (!write_qemu_conf(o->root, err))
		return false;
	load_error = g_once(&load, libvirt_load, NULL);
	if (load_error) {
		g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_EXTERNAL,
			    "cannot load libvirt (%s; Debian's package is "
			    "libvirt0): %s", LIBVIRT_SONAME, load_error);
		return false;
	}
	if (!g_once(&setup, libvirt_setup, o->root)) {
		libvirt_error(err, "cannot set up libvirt");
		return false;
	}
	/* A console log left from an earlier run must not pass for this one's. */
	if (g_unlink(o->serial_log) != 0 && errno != ENOENT) {
		g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_IO, "%s: %s", o->serial_log,
			    g_strerror(errno));
		return false;
	}
	loop.thread = g_thread_new("libvirt-events", event_loop_run, &loop);
	conn = lv.virConnectOpen(uri);
	if (!conn) {
		libvirt_error(err, "cannot open the embedded QEMU driver (has scripts/setup-libvirt-embed.sh run?)");
		event_loop_stop(&loop);
		return false;
	}
	stop_signal = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	dom = lv.virDomainCreateXML(conn, xml, 0);
	if (!dom) {
		libvirt_error(err, "cannot start the guest");
		ended = false;
	} else {
		ended = wait_for_end(dom, o->timeout_s, err);
		/* Never leave a guest behind: QEMU outlives this process. */
		if (!ended) {
			lv.virDomainDestroy(dom);
			g_prefix_error(err, "destroyed the guest: ");
		}
		lv.virDomainFree(dom);
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	lv.virConnectClose(conn);
	event_loop_stop(&loop);
	return ended;
}
