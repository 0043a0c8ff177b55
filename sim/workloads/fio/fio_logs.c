/*
 * fio's log files (write_lat_log, write_bw_log, write_iops_log) for one
 * simulated job thread, as fio 3.33 writes them.
 *
 * Facts from fio 3.33 (init.c, stat.c, iolog.c, io_u.c), checked against
 * the Debian fio-3.33 binary:
 * - Names: PREFIX_slat.N.log, PREFIX_clat.N.log, PREFIX_lat.N.log,
 *   PREFIX_bw.N.log, PREFIX_iops.N.log; PREFIX is the option's value, or
 *   the job's name when it has none; N is the thread number (1 up, numjobs
 *   clones numbered after their job). per_job_logs=0 drops ".N" and
 *   appends to the file (fopen "a"), even one an earlier run left; with
 *   per_job_logs=1 the file is rewritten. A latency log is made only when
 *   its latency is not disabled (disable_slat, ...; gtod_reduce disables
 *   all three); the slat log of an engine that records no slat (psync,
 *   null at iodepth 1) exists and stays empty.
 * - Lines: "time, value, ddir, bs, prio", with log_offset=1 "time, value,
 *   ddir, bs, offset, prio"; prio is 0 or 1 (RT class), or "0x%04x" with
 *   log_prio=1. time is in ms since the thread's statistics started (the
 *   end of ramp_time), truncated.
 * - log_avg_msec=0: a line per I/O. slat at issue, clat and lat at
 *   completion, in ns; bw = bytes * 10^6 / clat ns (fio calls it KiB/s);
 *   iops 1; bs the bytes of the I/O. disable_bw leaves the bw log empty,
 *   gtod_reduce the iops log.
 * - log_avg_msec>0: a latency log keeps, per direction, the samples since
 *   its last line; when a sample arrives log_avg_msec or more after the
 *   window start, it writes their mean (rounded half up) or, with
 *   log_max_value, their maximum, at the time of that sample, with bs and
 *   offset 0, and the next window starts at that time rounded down to a
 *   multiple of log_avg_msec. What is left is written when the thread
 *   ends, at its run time. The bw and iops logs take fio's windowed
 *   samples instead, one line per window and direction at the window's
 *   end; fio then takes those samples every log_avg_msec (bwavgtime and
 *   iopsavgtime, when set, keep their own window).
 * storsim leaves out I/O priorities (prio is always 0), log compression,
 * histogram logs and log_unix_epoch.
 */
#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fio_logs.h"
#include "engine/util.h"

enum { LOG_SLAT, LOG_CLAT, LOG_LAT, LOG_BW, LOG_IOPS, LOG_NR };

static const struct {
	const char *type;	/* in the file name */
	const char *option;	/* that asks for it, for messages */
} kinds[LOG_NR] = {
	[LOG_SLAT] = {"slat", "write_lat_log"},
	[LOG_CLAT] = {"clat", "write_lat_log"},
	[LOG_LAT] = {"lat", "write_lat_log"},
	[LOG_BW] = {"bw", "write_bw_log"},
	[LOG_IOPS] = {"iops", "write_iops_log"},
};

/* Big enough that a flush is rare next to the lines written, small enough
 * for a few hundred threads with five logs each. */
#define LOG_BUF_SIZE (64 * 1024)
/* Six 20-digit numbers, their separators and the newline fit in this. */
#define LOG_LINE_MAX 160

/* log_avg_msec: the samples of one direction since its last line. */
struct log_window {
	struct stats_moments m;
	uint64_t start_ms;
};

struct log_file {
	char *path;		/* NULL: this log is not written */
	char *spool;		/* per_job_logs=0: what did not fit in buf */
	char *buf;
	size_t len;
	struct log_window win[STATS_DDIR_NR];
};

struct fio_logs {
	const struct job *job;
	struct log_file f[LOG_NR];
	sim_time epoch;
	uint64_t avg_ms;	/* log_avg_msec; 0: a line per sample */
	bool log_max, log_offset, log_prio, per_job;
	bool slat_lines;	/* the engine records slat */
	bool bw_per_io, iops_per_io;
	bool bw_windows, iops_windows;
	GError *error;		/* the first write that failed */
};

static void option_location(const struct fio_logs *l, unsigned k,
			    const char **file, int *line)
{
	*file = l->job->file;
	*line = l->job->line;
	jobopt_location(l->job, kinds[k].option, file, line);
}

static void fail(struct fio_logs *l, unsigned k, const char *path,
		 const char *why)
{
	const char *file;
	int line;

	if (l->error)
		return;
	option_location(l, k, &file, &line);
	storsim_input_error(&l->error, file, line, kinds[k].option,
			    "cannot write '%s': %s", path, why);
}

/* Append len bytes to path: 0, or the errno of what failed. */
static int append(const char *path, const char *data, size_t len)
{
	FILE *fp = fopen(path, "a");
	int e = 0;

	if (!fp)
		return errno;
	if (fwrite(data, 1, len, fp) != len)
		e = errno ? errno : EIO;
	if (fclose(fp) && !e)
		e = errno;
	return e;
}

/* Append the spool file to path, through buf. */
static int append_file(const char *path, const char *spool, char *buf)
{
	FILE *in = fopen(spool, "r");
	size_t n;
	int e = 0;

	if (!in)
		return errno;
	while (!e && (n = fread(buf, 1, LOG_BUF_SIZE, in)) > 0)
		e = append(path, buf, n);
	if (!e && ferror(in))
		e = EIO;
	fclose(in);
	return e;
}

/* The buffer is full: add it to the file, or with per_job_logs=0 to the
 * thread's spool, so that the shared file gets the thread's lines in one
 * piece when it ends. */
static void flush(struct fio_logs *l, unsigned k)
{
	struct log_file *f = &l->f[k];
	int e;

	if (!l->per_job && !f->spool) {
		GError *tmp_err = NULL;
		int fd = g_file_open_tmp("storsim-log-XXXXXX", &f->spool, &tmp_err);

		if (fd < 0) {
			fail(l, k, f->path, tmp_err->message);
			g_error_free(tmp_err);
			return;
		}
		close(fd);
	}
	e = append(f->spool ? f->spool : f->path, f->buf, f->len);
	if (e)
		fail(l, k, f->spool ? f->spool : f->path, g_strerror(e));
	f->len = 0;
}

static char *put_u64(char *p, uint64_t v)
{
	char tmp[20];
	unsigned n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

static char *put_sep(char *p)
{
	*p++ = ',';
	*p++ = ' ';
	return p;
}

static void put_line(struct fio_logs *l, unsigned k, uint64_t ms,
		     uint64_t value, enum stats_ddir ddir, uint64_t bs,
		     uint64_t offset)
{
	struct log_file *f = &l->f[k];
	char *p;

	if (l->error)
		return;
	if (f->len + LOG_LINE_MAX > LOG_BUF_SIZE)
		flush(l, k);
	p = f->buf + f->len;
	p = put_sep(put_u64(p, ms));
	p = put_sep(put_u64(p, value));
	p = put_sep(put_u64(p, (uint64_t)ddir));
	p = put_sep(put_u64(p, bs));
	if (l->log_offset)
		p = put_sep(put_u64(p, offset));
	/* storsim models no I/O priorities: fio's value for the default one */
	if (l->log_prio) {
		memcpy(p, "0x0000", 6);
		p += 6;
	} else {
		*p++ = '0';
	}
	*p++ = '\n';
	f->len = (size_t)(p - f->buf);
}

static uint64_t ms_since_epoch(const struct fio_logs *l, sim_time t)
{
	/* A power loss can end a thread inside its ramp_time. */
	return t > l->epoch ? (t - l->epoch) / SIM_MSEC : 0;
}

/* The averaged line of a window, if it has samples; then empty it. */
static void put_window(struct fio_logs *l, unsigned k, enum stats_ddir d,
		       uint64_t ms)
{
	struct log_window *w = &l->f[k].win[d];

	if (!w->m.samples)
		return;
	put_line(l, k, ms, l->log_max ? w->m.max : (uint64_t)(w->m.mean + 0.5),
		 d, 0, 0);
	w->m = (struct stats_moments){.min = UINT64_MAX};
}

static void log_sample(struct fio_logs *l, unsigned k, sim_time now,
		       enum stats_ddir d, uint64_t value, uint64_t bs,
		       uint64_t offset)
{
	uint64_t ms = ms_since_epoch(l, now);
	struct log_window *w = &l->f[k].win[d];

	if (!l->avg_ms) {
		put_line(l, k, ms, value, d, bs, offset);
		return;
	}
	stats_moments_add(&w->m, value);
	if (ms - w->start_ms < l->avg_ms)
		return;
	put_window(l, k, d, ms);
	w->start_ms = ms - ms % l->avg_ms;
}

/*
 * fio's rule for where a logged bw (iops) sample comes from (init.c): the
 * log averages over min(log_avg_msec, bwavgtime) when bwavgtime is set,
 * else over log_avg_msec, which then also becomes the window of the bw
 * samples; an average over 0 ms means a sample per I/O.
 */
static void sampling(const struct job *job, const char *avg_option,
		     uint64_t log_avg_ms, uint64_t *avg_ms, bool *per_io)
{
	const char *file;
	int line;
	bool set = jobopt_location(job, avg_option, &file, &line);
	uint64_t ms = set ? MIN(log_avg_ms, *avg_ms) : log_avg_ms;

	if (!ms)
		*per_io = true;
	else if (!set)
		*avg_ms = ms;
}

bool fio_logs_new(const struct job *job, unsigned jobnum,
		  struct stats_config *cfg, struct fio_logs **out, GError **err)
{
	const struct job_options *o = &job->o;
	const char *prefix[LOG_NR] = {
		[LOG_SLAT] = o->lat_log_file,
		[LOG_CLAT] = o->lat_log_file,
		[LOG_LAT] = o->lat_log_file,
		[LOG_BW] = o->bw_log_file,
		[LOG_IOPS] = o->iops_log_file,
	};
	const bool want[LOG_NR] = {
		[LOG_SLAT] = o->write_lat_log && !o->disable_slat,
		[LOG_CLAT] = o->write_lat_log && !o->disable_clat,
		[LOG_LAT] = o->write_lat_log && !o->disable_lat,
		[LOG_BW] = o->write_bw_log,
		[LOG_IOPS] = o->write_iops_log,
	};
	uint64_t log_avg_ms = o->log_avg_time / SIM_MSEC;
	struct fio_logs *l;

	*out = NULL;
	if (!o->write_lat_log && !o->write_bw_log && !o->write_iops_log)
		return true;
	if (o->write_bw_log)
		sampling(job, "bwavgtime", log_avg_ms, &cfg->bw_avg_ms,
			 &cfg->bw_per_io);
	if (o->write_iops_log)
		sampling(job, "iopsavgtime", log_avg_ms, &cfg->iops_avg_ms,
			 &cfg->iops_per_io);
	l = g_new0(struct fio_logs, 1);
	l->job = job;
	l->avg_ms = log_avg_ms;
	l->log_max = o->log_max_value;
	l->log_offset = o->log_offset;
	l->log_prio = o->log_prio;
	l->per_job = o->per_job_logs;
	l->slat_lines = !cfg->disable_slat;
	l->bw_per_io = o->write_bw_log && cfg->bw_per_io && !o->disable_bw;
	l->iops_per_io = o->write_iops_log && cfg->iops_per_io && !o->gtod_reduce;
	l->bw_windows = o->write_bw_log && !cfg->bw_per_io;
	l->iops_windows = o->write_iops_log && !cfg->iops_per_io;
	*out = l;
	for (unsigned k = 0; k < LOG_NR; k++) {
		struct log_file *f = &l->f[k];
		/* fio treats an empty prefix as none */
		const char *pre = prefix[k] && *prefix[k] ? prefix[k] : o->name;
		FILE *fp;

		if (!want[k])
			continue;
		f->path = l->per_job ?
			  g_strdup_printf("%s_%s.%u.log", pre, kinds[k].type, jobnum) :
			  g_strdup_printf("%s_%s.log", pre, kinds[k].type);
		f->buf = g_malloc(LOG_BUF_SIZE);
		for (int d = 0; d < STATS_DDIR_NR; d++)
			f->win[d].m.min = UINT64_MAX;
		/* Made now, so that a directory that is not there stops the
		 * run before it starts. */
		fp = fopen(f->path, l->per_job ? "w" : "a");
		if (!fp || fclose(fp)) {
			const char *file;
			int line;

			option_location(l, k, &file, &line);
			storsim_input_error(err, file, line, kinds[k].option,
					    "cannot create '%s': %s", f->path,
					    g_strerror(errno));
			return false;
		}
	}
	return true;
}

static void bw_sampled(void *arg, enum stats_ddir d, sim_time end,
		       uint64_t value)
{
	struct fio_logs *l = arg;

	put_line(l, LOG_BW, ms_since_epoch(l, end), value, d, 0, 0);
}

static void iops_sampled(void *arg, enum stats_ddir d, sim_time end,
			 uint64_t value)
{
	struct fio_logs *l = arg;

	put_line(l, LOG_IOPS, ms_since_epoch(l, end), value, d, 0, 0);
}

void fio_logs_start(struct fio_logs *l, struct job_stats *js, sim_time epoch)
{
	l->epoch = epoch;
	stats_watch_windows(js, l->bw_windows ? bw_sampled : NULL,
			    l->iops_windows ? iops_sampled : NULL, l);
}

void fio_logs_slat(struct fio_logs *l, sim_time now, enum stats_ddir ddir,
		   uint64_t slat_ns, uint64_t bs, uint64_t offset)
{
	if (l->slat_lines && l->f[LOG_SLAT].path)
		log_sample(l, LOG_SLAT, now, ddir, slat_ns, bs, offset);
}

void fio_logs_io(struct fio_logs *l, sim_time now, enum stats_ddir ddir,
		 uint64_t bytes, uint64_t offset, uint64_t clat_ns,
		 uint64_t lat_ns)
{
	if (l->f[LOG_LAT].path)
		log_sample(l, LOG_LAT, now, ddir, lat_ns, bytes, offset);
	if (l->f[LOG_CLAT].path)
		log_sample(l, LOG_CLAT, now, ddir, clat_ns, bytes, offset);
	if (l->bw_per_io)
		put_line(l, LOG_BW, ms_since_epoch(l, now),
			 clat_ns ? bytes * 1000000 / clat_ns : 0, ddir, bytes,
			 offset);
	if (l->iops_per_io)
		put_line(l, LOG_IOPS, ms_since_epoch(l, now), 1, ddir, bytes,
			 offset);
}

void fio_logs_finish(struct fio_logs *l, sim_time end)
{
	uint64_t ms = ms_since_epoch(l, end);

	for (unsigned k = 0; k < LOG_NR; k++) {
		struct log_file *f = &l->f[k];
		int e;

		if (!f->path)
			continue;
		for (int d = 0; d < STATS_DDIR_NR; d++)
			put_window(l, k, d, ms);
		if (l->error)
			continue;
		if (f->spool) {
			flush(l, k);
			e = l->error ? 0 : append_file(f->path, f->spool, f->buf);
			g_unlink(f->spool);
			g_clear_pointer(&f->spool, g_free);
		} else {
			e = append(f->path, f->buf, f->len);
		}
		if (e)
			fail(l, k, f->path, g_strerror(e));
		f->len = 0;
	}
}

bool fio_logs_check(const struct fio_logs *l, GError **err)
{
	if (!l->error)
		return true;
	g_propagate_error(err, g_error_copy(l->error));
	return false;
}

void fio_logs_free(struct fio_logs *l)
{
	if (!l)
		return;
	for (unsigned k = 0; k < LOG_NR; k++) {
		if (l->f[k].spool)
			g_unlink(l->f[k].spool);
		g_free(l->f[k].spool);
		g_free(l->f[k].path);
		g_free(l->f[k].buf);
	}
	if (l->error)
		g_error_free(l->error);
	g_free(l);
}
