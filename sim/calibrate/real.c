/*
 * Real runs on this machine: the targets, fio 3.33, and what a run costs.
 *
 * The targets are made the way the project's notes say a shared machine
 * allows (PROTOCOL.md): a tmpfs mounted in a fresh temporary directory,
 * files written in full on it, free loop devices over them
 * (losetup -f --show), XFS and ext4 made by mkfs.xfs and mkfs.ext4 (its
 * lazy initialisation off, so no kernel thread writes inode tables during
 * the runs) and mounted in the same directory; teardown undoes each step
 * that was done, also after SIGINT or SIGTERM.
 *
 * A run is fio --output-format=json on the point's job file with
 * CAL_RUNTIME in the environment. fio's JSON gives IOPS, the completion
 * latency's mean and 99th percentile (unified_rw_reporting=mixed: reads
 * and writes together; group_reporting: all jobs together), the jobs'
 * user and system time and their context switches. The kernel threads'
 * CPU time (the loop workers, XFS's and ext4's, ksoftirqd) is not fio's:
 * it is read from /proc/PID/schedstat (exact runtime in ns,
 * CONFIG_SCHED_INFO) of the tasks flagged PF_KTHREAD that work for our
 * devices (a kworker names the workqueue it last ran: "-loop3",
 * "dio/loop4"; "xfsaild/loop4", "jbd2/loop5-8") and of ksoftirqd,
 * sampled every 250 ms while fio runs, over the samples inside the job's
 * measured phase (its last job_runtime, less 250 ms at each end for
 * start-up and exit), and charged to the run's I/Os at that rate. Other
 * users' kernel threads (their writeback) count as other load. /proc/stat over the same window
 * gives the machine's busy time: what neither fio nor a kernel thread
 * used is other users' load, reported next to the run, and the steal
 * time the hypervisor took from the vCPUs.
 *
 * Left out of the CPU time: hard and soft interrupts taken while a CPU
 * was idle (without CONFIG_IRQ_TIME_ACCOUNTING the kernel counts them in
 * no task), and fio's main process (its status thread), a few tenths of a
 * percent of a CPU.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib-unix.h>
#include <glib/gstdio.h>
#include <json-c/json.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "engine/util.h"
#include "real.h"

#define PF_KTHREAD 0x00200000u
#define SAMPLE_MS 250

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

void real_catch_signals(void)
{
	struct sigaction sa = {.sa_handler = on_signal};

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

bool real_interrupted(void)
{
	return interrupted;
}

/* Run argv; its standard output in *out if out. */
static bool run_cmd(const char *const *argv, char **out, GError **err)
{
	g_autoptr(GSubprocess) p = g_subprocess_newv(
		argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
		err);
	g_autofree char *o = NULL, *e = NULL;

	if (!p)
		return false;
	if (!g_subprocess_communicate_utf8(p, NULL, NULL, &o, &e, err))
		return false;
	if (!g_subprocess_get_if_exited(p) || g_subprocess_get_exit_status(p)) {
		g_autofree char *cmd = g_strjoinv(" ", (char **)argv);
		g_set_error(err, G_IO_ERROR, G_IO_ERROR_FAILED, "'%s' failed: %s",
			    cmd, e && *e ? g_strstrip(e) : "no message");
		return false;
	}
	if (out)
		*out = g_strstrip(g_steal_pointer(&o));
	return true;
}

bool real_env_check(const char *fio, GError **err)
{
	g_autofree char *ver = NULL;

	if (geteuid() != 0) {
		g_set_error(err, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
			    "needs root: it mounts a tmpfs, sets up loop devices "
			    "and makes file systems on them");
		return false;
	}
	const char *tools[] = {"losetup", "mkfs.xfs", "mkfs.ext4", "mount",
			       "umount", NULL};
	for (const char **t = tools; *t; t++) {
		g_autofree char *path = g_find_program_in_path(*t);
		if (!path) {
			g_set_error(err, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
				    "%s is not installed (Debian: %s)", *t,
				    strcmp(*t, "mkfs.xfs") == 0 ? "xfsprogs" :
				    strcmp(*t, "mkfs.ext4") == 0 ? "e2fsprogs" :
				    "mount");
			return false;
		}
	}
	const char *argv[] = {fio, "--version", NULL};
	if (!run_cmd(argv, &ver, err))
		return false;
	if (strcmp(ver, "fio-3.33") != 0) {
		g_set_error(err, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
			    "%s is %s; the suite and storsim's fio model are fio-3.33's",
			    fio, ver);
		return false;
	}
	return true;
}

/* A file of mb MiB written in full (zeroes), so that every page exists. */
static bool write_file(const char *path, unsigned mb, GError **err)
{
	static char buf[1 << 20];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0)
		goto fail;
	for (unsigned i = 0; i < mb; i++)
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf)) {
			close(fd);
			goto fail;
		}
	if (fsync(fd) || close(fd))
		goto fail;
	return true;
fail:
	g_set_error(err, G_IO_ERROR, g_io_error_from_errno(errno),
		    "writing %s: %s", path, g_strerror(errno));
	return false;
}

static bool mount_fs(struct real_env *e, int i, const char *mkfs,
		     const char *const *mkfs_opts, const char *mnt, char **file,
		     unsigned file_mb, GError **err)
{
	const char *argv[8];
	unsigned n = 0;

	argv[n++] = mkfs;
	for (const char *const *o = mkfs_opts; *o; o++)
		argv[n++] = *o;
	argv[n++] = e->loop[i];
	argv[n] = NULL;
	if (!run_cmd(argv, NULL, err))
		return false;
	if (g_mkdir(mnt, 0700)) {
		g_set_error(err, G_IO_ERROR, g_io_error_from_errno(errno),
			    "mkdir %s: %s", mnt, g_strerror(errno));
		return false;
	}
	const char *m[] = {"mount", e->loop[i], mnt, NULL};
	if (!run_cmd(m, NULL, err))
		return false;
	e->mounted[i] = true;
	*file = g_build_filename(mnt, "f", NULL);
	return write_file(*file, file_mb, err);
}

bool real_env_setup(struct real_env *e, const char *fio, unsigned backing_mb,
		    unsigned region_mb, GError **err)
{
	g_autofree char *size = g_strdup_printf("size=%um", 3 * backing_mb + 64);
	static const char *const roles[3] = {"raw", "xfs", "ext4"};

	memset(e, 0, sizeof(*e));
	e->fio = g_strdup(fio);
	e->backing_mb = backing_mb;
	e->dir = g_dir_make_tmp("storsim-calibrate-XXXXXX", err);
	if (!e->dir)
		return false;
	e->tmpfs = g_build_filename(e->dir, "tmpfs", NULL);
	if (g_mkdir(e->tmpfs, 0700)) {
		g_set_error(err, G_IO_ERROR, g_io_error_from_errno(errno),
			    "mkdir %s: %s", e->tmpfs, g_strerror(errno));
		goto fail;
	}
	const char *mt[] = {"mount", "-t", "tmpfs", "-o", size, "storsim-calibrate",
			    e->tmpfs, NULL};
	if (!run_cmd(mt, NULL, err))
		goto fail;
	e->mounted[0] = true;
	for (int i = 0; i < 3; i++) {
		g_autofree char *name = g_strdup_printf("%s.img", roles[i]);
		e->backing[i] = g_build_filename(e->tmpfs, name, NULL);
		if (!write_file(e->backing[i], backing_mb, err))
			goto fail;
		const char *ls[] = {"losetup", "-f", "--show", e->backing[i], NULL};
		if (!run_cmd(ls, &e->loop[i], err))
			goto fail;
	}
	e->pl.raw_dev = g_path_get_basename(e->loop[0]);
	e->pl.xfs_dev = g_path_get_basename(e->loop[1]);
	e->pl.ext4_dev = g_path_get_basename(e->loop[2]);
	e->pl.region_mb = region_mb;
	e->pl.file_mb = region_mb;
	e->pl.xfs_mnt = g_build_filename(e->dir, "xfs", NULL);
	e->pl.ext4_mnt = g_build_filename(e->dir, "ext4", NULL);
	static const char *const xfs_opts[] = {"-f", "-q", NULL};
	static const char *const ext4_opts[] = {
		"-F", "-q", "-E", "lazy_itable_init=0,lazy_journal_init=0", NULL};
	if (!mount_fs(e, 1, "mkfs.xfs", xfs_opts, e->pl.xfs_mnt, &e->pl.xfs_file,
		      region_mb, err) ||
	    !mount_fs(e, 2, "mkfs.ext4", ext4_opts, e->pl.ext4_mnt,
		      &e->pl.ext4_file, region_mb, err))
		goto fail;
	return true;
fail:
	real_env_teardown(e);
	return false;
}

/* Teardown goes on past a failed step, and says what it left behind. */
static void undo(const char *const *argv)
{
	g_autoptr(GError) err = NULL;

	if (!run_cmd(argv, NULL, &err))
		fprintf(stderr, "storsim calibrate: teardown: %s\n", err->message);
}

void real_env_teardown(struct real_env *e)
{
	const char *mnts[3] = {NULL, e->pl.xfs_mnt, e->pl.ext4_mnt};

	for (int i = 2; i >= 1; i--)
		if (e->mounted[i]) {
			const char *u[] = {"umount", mnts[i], NULL};
			undo(u);
			e->mounted[i] = false;
		}
	for (int i = 2; i >= 0; i--)
		if (e->loop[i]) {
			const char *d[] = {"losetup", "-d", e->loop[i], NULL};
			undo(d);
			g_clear_pointer(&e->loop[i], g_free);
		}
	if (e->mounted[0]) {
		const char *u[] = {"umount", e->tmpfs, NULL};
		undo(u);
		e->mounted[0] = false;
	}
	for (int i = 0; i < 3; i++)
		g_clear_pointer(&e->backing[i], g_free);
	if (e->pl.xfs_mnt)
		g_rmdir(e->pl.xfs_mnt);
	if (e->pl.ext4_mnt)
		g_rmdir(e->pl.ext4_mnt);
	if (e->tmpfs)
		g_rmdir(e->tmpfs);
	if (e->dir) {
		g_autofree char *job = g_build_filename(e->dir, "job.fio", NULL);
		g_unlink(job);
		g_rmdir(e->dir);
	}
	g_clear_pointer(&e->tmpfs, g_free);
	g_clear_pointer(&e->dir, g_free);
	g_clear_pointer(&e->fio, g_free);
	g_clear_pointer(&e->pl.raw_dev, g_free);
	g_clear_pointer(&e->pl.xfs_dev, g_free);
	g_clear_pointer(&e->pl.ext4_dev, g_free);
	g_clear_pointer(&e->pl.xfs_mnt, g_free);
	g_clear_pointer(&e->pl.ext4_mnt, g_free);
	g_clear_pointer(&e->pl.xfs_file, g_free);
	g_clear_pointer(&e->pl.ext4_file, g_free);
}

/* ---- sampling ---- */

struct sample {
	gint64 t_us;
	GHashTable *kt;		/* kernel thread's pid -> its runtime (ns) */
	guint64 stat_busy, stat_steal;	/* USER_HZ ticks, all CPUs */
};

struct sampler {
	GArray *samples;	/* struct sample */
	GHashTable *kpids;	/* pid -> 1 (kernel thread) or 2 (not) */
	GHashTable *ours;	/* kernel threads seen working for our devices */
	const char *const *devs;	/* "loop3", ...: our devices, NULL-ended */
	GMainLoop *loop;
	GSubprocess *fio;
	char *out, *errout;
	GError *err;
	bool done;
};

static bool read_text(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	return true;
}

/* Whether pid is a kernel thread (field 9, flags, of /proc/PID/stat),
 * and its name now (a kworker's ends with the workqueue it last ran). */
static bool kthread_comm(const char *pid, char *comm, size_t len)
{
	char path[64], buf[1024];
	const char *p, *q;

	g_snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	if (!read_text(path, buf, sizeof(buf)) || !(p = strchr(buf, '(')) ||
	    !(q = strrchr(buf, ')')))
		return false;
	/* after ") ": state ppid pgrp session tty_nr tpgid flags */
	unsigned long flags = 0;
	if (sscanf(q + 2, "%*c %*d %*d %*d %*d %*d %lu", &flags) != 1)
		return false;
	g_strlcpy(comm, p + 1, MIN(len, (size_t)(q - p)));
	return flags & PF_KTHREAD;
}

/* A kernel thread works for us when its name mentions one of our
 * devices (loop3's worker "kworker/u8:1-loop3", "dio/loop4",
 * "xfs-conv/loop4", "jbd2/loop5-8", "xfsaild/loop4") or it is ksoftirqd. */
static bool works_for_us(const char *comm, const char *const *devs)
{
	if (g_str_has_prefix(comm, "ksoftirqd/"))
		return true;
	for (const char *const *d = devs; *d; d++) {
		size_t n = strlen(*d);
		for (const char *at = comm; (at = strstr(at, *d)); at++)
			if (!g_ascii_isdigit(at[n]))
				return true;
	}
	return false;
}

static void kthreads_sample(struct sampler *s, GHashTable *kt)
{
	GDir *d = g_dir_open("/proc", 0, NULL);
	const char *name;

	if (!d)
		return;
	while ((name = g_dir_read_name(d))) {
		char comm[64];
		if (!g_ascii_isdigit(name[0]))
			continue;
		gpointer known = g_hash_table_lookup(s->kpids, name);
		if (known && GPOINTER_TO_INT(known) != 1)
			continue;
		bool kthread = kthread_comm(name, comm, sizeof(comm));
		if (!known)
			g_hash_table_insert(s->kpids, g_strdup(name),
					    GINT_TO_POINTER(kthread ? 1 : 2));
		if (!kthread)
			continue;
		if (works_for_us(comm, s->devs) && !g_hash_table_contains(s->ours, name))
			g_hash_table_add(s->ours, g_strdup(name));
		char path[64], buf[128];
		g_snprintf(path, sizeof(path), "/proc/%s/schedstat", name);
		if (read_text(path, buf, sizeof(buf)))
			g_hash_table_insert(kt, g_strdup(name), GSIZE_TO_POINTER(
				(gsize)g_ascii_strtoull(buf, NULL, 10)));
	}
	g_dir_close(d);
}

/* Our kernel threads' runtime at a sample. */
static guint64 ours_ns(const struct sampler *s, const struct sample *x)
{
	GHashTableIter it;
	gpointer pid;
	guint64 sum = 0;

	g_hash_table_iter_init(&it, s->ours);
	while (g_hash_table_iter_next(&it, &pid, NULL))
		sum += GPOINTER_TO_SIZE(g_hash_table_lookup(x->kt, pid));
	return sum;
}

static void stat_ticks(guint64 *busy, guint64 *steal)
{
	char buf[512];
	guint64 v[8] = {0};

	*busy = *steal = 0;
	if (!read_text("/proc/stat", buf, sizeof(buf)) ||
	    sscanf(buf, "cpu %lu %lu %lu %lu %lu %lu %lu %lu", &v[0], &v[1], &v[2],
		   &v[3], &v[4], &v[5], &v[6], &v[7]) != 8)
		return;
	/* user nice system idle iowait irq softirq steal */
	*busy = v[0] + v[1] + v[2] + v[5] + v[6];
	*steal = v[7];
}

double real_busy_cpus(unsigned ms)
{
	guint64 b0, b1, st;
	gint64 t0 = g_get_monotonic_time();

	stat_ticks(&b0, &st);
	g_usleep((gulong)ms * 1000);
	stat_ticks(&b1, &st);
	double dt = (double)(g_get_monotonic_time() - t0) / 1e6;
	return (double)(b1 - b0) / (double)sysconf(_SC_CLK_TCK) / dt;
}

static void take_sample(struct sampler *s)
{
	struct sample x = {.t_us = g_get_monotonic_time()};

	x.kt = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	kthreads_sample(s, x.kt);
	stat_ticks(&x.stat_busy, &x.stat_steal);
	g_array_append_val(s->samples, x);
}

static gboolean on_tick(gpointer data)
{
	struct sampler *s = data;

	if (s->done)
		return G_SOURCE_REMOVE;
	if (interrupted)
		g_subprocess_send_signal(s->fio, SIGTERM);
	take_sample(s);
	return G_SOURCE_CONTINUE;
}

static void on_fio_done(GObject *src, GAsyncResult *res, gpointer data)
{
	struct sampler *s = data;

	take_sample(s);
	s->done = true;
	g_subprocess_communicate_utf8_finish(G_SUBPROCESS(src), res, &s->out,
					     &s->errout, &s->err);
	g_main_loop_quit(s->loop);
}

/* ---- fio's JSON ---- */

static json_object *jget(json_object *o, const char *key)
{
	json_object *v = NULL;
	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static double jnum(json_object *o, const char *key)
{
	json_object *v = jget(o, key);
	return v ? json_object_get_double(v) : 0;
}

/* The one group-reported job's figures. */
static bool parse_fio(const char *text, struct cal_measure *m, double *cpu_s,
		      double *usr_s, double *runtime_s, double *ios,
		      GError **err)
{
	json_object *root = json_tokener_parse(text);
	json_object *jobs = jget(root, "jobs"), *job, *mixed, *clat, *pct;
	bool ok = false;

	if (!jobs || json_object_array_length(jobs) != 1) {
		g_set_error(err, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
			    "fio's JSON has no single job (group_reporting)");
		goto out;
	}
	job = json_object_array_get_idx(jobs, 0);
	if (jnum(job, "error")) {
		g_set_error(err, G_IO_ERROR, G_IO_ERROR_FAILED,
			    "fio's job failed: error %d", (int)jnum(job, "error"));
		goto out;
	}
	mixed = jget(job, "mixed");
	clat = jget(mixed, "clat_ns");
	pct = jget(clat, "percentile");
	*ios = jnum(mixed, "total_ios");
	if (!mixed || !clat || *ios <= 0) {
		g_set_error(err, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
			    "fio's JSON has no I/O in its mixed block");
		goto out;
	}
	/* group_reporting: job_runtime is summed over the jobs, and the CPU
	 * shares are of that sum */
	double rt = jnum(job, "job_runtime") / 1000.0;
	*usr_s = jnum(job, "usr_cpu") / 100.0 * rt;
	*cpu_s = *usr_s + jnum(job, "sys_cpu") / 100.0 * rt;
	*runtime_s = jnum(mixed, "runtime") / 1000.0;
	m->iops = jnum(mixed, "iops");
	m->lat_us = jnum(clat, "mean") / 1000.0;
	m->p99_us = jnum(pct, "99.000000") / 1000.0;
	m->ctx = jnum(job, "ctx") / *ios;
	ok = true;
out:
	json_object_put(root);
	return ok;
}

static bool set_raw_dio(struct real_env *e, bool on, GError **err)
{
	if (e->raw_dio == on)
		return true;
	const char *argv[] = {"losetup", on ? "--direct-io=on" : "--direct-io=off",
			      e->loop[0], NULL};
	if (!run_cmd(argv, NULL, err))
		return false;
	e->raw_dio = on;
	return true;
}

/* Write back what a buffered write left dirty, so that the next run does
 * not pay for it. */
static void sync_fs(const char *mnt)
{
	int fd = open(mnt, O_RDONLY | O_DIRECTORY);
	if (fd >= 0) {
		syncfs(fd);
		close(fd);
	}
}

bool real_run(struct real_env *e, const struct cal_point *p,
	      const char *runtime, struct cal_measure *out, GError **err)
{
	g_autofree char *job = cal_point_jobfile(p, &e->pl);
	g_autofree char *path = g_build_filename(e->dir, "job.fio", NULL);
	g_autoptr(GSubprocessLauncher) l = NULL;
	struct sampler s = {0};
	bool ok = false;

	memset(out, 0, sizeof(*out));
	if (!set_raw_dio(e, p->target == CAL_RAW_DIO, err) ||
	    !g_file_set_contents(path, job, -1, err))
		return false;
	l = g_subprocess_launcher_new(G_SUBPROCESS_FLAGS_STDOUT_PIPE |
				      G_SUBPROCESS_FLAGS_STDERR_PIPE);
	g_subprocess_launcher_setenv(l, "CAL_RUNTIME", runtime, TRUE);
	const char *devs[] = {e->pl.raw_dev, e->pl.xfs_dev, e->pl.ext4_dev, NULL};
	s.samples = g_array_new(FALSE, FALSE, sizeof(struct sample));
	s.kpids = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	s.ours = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	s.devs = devs;
	take_sample(&s);
	s.fio = g_subprocess_launcher_spawn(l, err, e->fio, "--output-format=json",
					    path, NULL);
	if (!s.fio)
		goto out;
	s.loop = g_main_loop_new(NULL, FALSE);
	g_timeout_add(SAMPLE_MS, on_tick, &s);
	g_subprocess_communicate_utf8_async(s.fio, NULL, NULL, on_fio_done, &s);
	g_main_loop_run(s.loop);
	if (interrupted) {
		g_set_error(err, G_IO_ERROR, G_IO_ERROR_CANCELLED, "interrupted");
		goto out;
	}
	if (s.err) {
		g_propagate_error(err, g_steal_pointer(&s.err));
		goto out;
	}
	if (!g_subprocess_get_if_exited(s.fio) ||
	    g_subprocess_get_exit_status(s.fio)) {
		g_set_error(err, G_IO_ERROR, G_IO_ERROR_FAILED, "fio failed: %s",
			    s.errout && *s.errout ? g_strstrip(s.errout) : "no message");
		goto out;
	}
	double cpu_s, usr_s, rt, ios;
	if (!parse_fio(s.out, out, &cpu_s, &usr_s, &rt, &ios, err))
		goto out;

	/* The window: the job's measured phase, as far as the samples go. */
	struct sample *first = &g_array_index(s.samples, struct sample, 0);
	struct sample *last = &g_array_index(s.samples, struct sample,
					     s.samples->len - 1);
	gint64 lo = last->t_us - (gint64)(rt * 1e6) + SAMPLE_MS * 1000,
	       hi = last->t_us - SAMPLE_MS * 1000;
	struct sample *a = NULL, *b = NULL;
	for (unsigned i = 0; i < s.samples->len; i++) {
		struct sample *x = &g_array_index(s.samples, struct sample, i);
		if (!a && x->t_us >= lo)
			a = x;
		if (x->t_us <= hi)
			b = x;
	}
	if (!a || !b || b <= a) {	/* too short a run: all of it */
		a = first;
		b = last;
	}
	double dt = (double)(b->t_us - a->t_us) / 1e6;
	guint64 ka = ours_ns(&s, a), kb = ours_ns(&s, b);
	double krate = kb > ka ? (double)(kb - ka) / 1e9 / dt : 0;
	double busy = (double)(b->stat_busy - a->stat_busy) /
		      (double)sysconf(_SC_CLK_TCK) / dt;
	double fio_rate = rt > 0 ? cpu_s / rt : 0;
	out->cpu_us = (cpu_s + krate * rt) / ios * 1e6;
	out->usr_us = usr_s / ios * 1e6;
	out->other_cpus = MAX(0.0, busy - krate - fio_rate);
	out->steal_cpus = (double)(b->stat_steal - a->stat_steal) /
			  (double)sysconf(_SC_CLK_TCK) / dt;
	ok = true;
out:
	if (p->target == CAL_XFS)
		sync_fs(e->pl.xfs_mnt);
	else if (p->target == CAL_EXT4)
		sync_fs(e->pl.ext4_mnt);
	if (s.loop)
		g_main_loop_unref(s.loop);
	g_clear_object(&s.fio);
	g_free(s.out);
	g_free(s.errout);
	g_clear_error(&s.err);
	for (unsigned i = 0; i < s.samples->len; i++)
		g_hash_table_destroy(g_array_index(s.samples, struct sample, i).kt);
	g_array_free(s.samples, TRUE);
	g_hash_table_destroy(s.kpids);
	g_hash_table_destroy(s.ours);
	return ok;
}

/* ---- machine facts ---- */

static char *read_trimmed(const char *path)
{
	char *t = NULL;
	if (!g_file_get_contents(path, &t, NULL, NULL))
		return NULL;
	return g_strstrip(t);
}

static unsigned read_uint(const char *path, unsigned def)
{
	g_autofree char *t = read_trimmed(path);
	return t ? (unsigned)g_ascii_strtoull(t, NULL, 10) : def;
}

void real_facts_read(struct real_facts *f, const struct real_env *e)
{
	struct utsname u;
	g_autofree char *meminfo = NULL, *cpuinfo = NULL, *cfg = NULL;

	memset(f, 0, sizeof(*f));
	f->ncpus = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	f->page_size = (unsigned)sysconf(_SC_PAGESIZE);
	if (g_file_get_contents("/proc/meminfo", &meminfo, NULL, NULL)) {
		const char *m = strstr(meminfo, "MemTotal:");
		if (m)
			f->mem_mb = (unsigned)(g_ascii_strtoull(m + 9, NULL, 10) / 1024);
	}
	if (g_file_get_contents("/proc/cpuinfo", &cpuinfo, NULL, NULL)) {
		const char *m = strstr(cpuinfo, "model name");
		if (m && (m = strchr(m, ':')))
			f->cpu_model = g_strstrip(g_strndup(m + 1, strcspn(m + 1, "\n")));
	}
	f->kernel = g_strdup(uname(&u) == 0 ? u.release : "unknown");
	/* CONFIG_HZ and the preemption model from the kernel's config when
	 * it shows it; else the Debian kernel's (250, voluntary) */
	f->hz = 250;
	f->preempt = g_strdup("voluntary");
	{
		g_autofree char *gz = NULL;
		const char *argv[] = {"zcat", "/proc/config.gz", NULL};
		if (run_cmd(argv, &gz, NULL)) {
			const char *h = strstr(gz, "\nCONFIG_HZ=");
			if (h)
				f->hz = (unsigned)g_ascii_strtoull(h + 11, NULL, 10);
			g_free(f->preempt);
			f->preempt = g_strdup(strstr(gz, "\nCONFIG_PREEMPT_NONE=y") ? "none" :
					      strstr(gz, "\nCONFIG_PREEMPT=y") ? "full" :
					      "voluntary");
		}
	}
	/* idle states: exit latency and target residency in us in sysfs */
	GString *idle = g_string_new("");
	for (int i = 0; i < 10; i++) {
		g_autofree char *dir = g_strdup_printf(
			"/sys/devices/system/cpu/cpu0/cpuidle/state%d", i);
		g_autofree char *lat = g_build_filename(dir, "latency", NULL);
		g_autofree char *res = g_build_filename(dir, "residency", NULL);
		g_autofree char *dis = g_build_filename(dir, "disable", NULL);
		if (!g_file_test(lat, G_FILE_TEST_EXISTS))
			break;
		unsigned l = read_uint(lat, 0), r = read_uint(res, 0);
		if (read_uint(dis, 0) || (l == 0 && r == 0))	/* POLL */
			continue;
		g_string_append_printf(idle, "%s%u:%u", idle->len ? "," : "",
				       l * 1000, r * 1000);
	}
	f->idle_states = g_string_free(idle, FALSE);
	f->idle_driver = read_trimmed("/sys/devices/system/cpu/cpuidle/current_driver");
	if (!f->idle_driver)
		f->idle_driver = g_strdup("none");
	f->dirty_background_ratio = read_uint("/proc/sys/vm/dirty_background_ratio", 10);
	f->dirty_ratio = read_uint("/proc/sys/vm/dirty_ratio", 20);
	f->dirty_expire_ms = read_uint("/proc/sys/vm/dirty_expire_centisecs", 3000) * 10;
	f->dirty_writeback_ms = read_uint("/proc/sys/vm/dirty_writeback_centisecs", 500) * 10;
	f->read_ahead_kb = 128;
	if (e && e->pl.raw_dev) {
		g_autofree char *ra = g_strdup_printf("/sys/block/%s/queue/read_ahead_kb",
						      e->pl.raw_dev);
		f->read_ahead_kb = read_uint(ra, 128);
	}
	{
		g_autofree char *sh = read_trimmed(
			"/sys/devices/system/cpu/cpu0/cache/index3/shared_cpu_list");
		g_autofree char *all = read_trimmed("/sys/devices/system/cpu/online");
		f->share_cache = sh && all && strcmp(sh, all) == 0;
	}
	(void)cfg;
}

void real_facts_clear(struct real_facts *f)
{
	g_free(f->preempt);
	g_free(f->idle_states);
	g_free(f->idle_driver);
	g_free(f->kernel);
	g_free(f->cpu_model);
	memset(f, 0, sizeof(*f));
}
