/*
 * A list of points measured on this machine: every point run `repeat`
 * times, the passes interleaved (all points once, then all again), so
 * that a slow spell of the machine spreads over the points instead of
 * falling on one, and each point's spread shows the machine's noise.
 */
#ifndef STORSIM_CAL_SESSION_H
#define STORSIM_CAL_SESSION_H

#include "engine/progress.h"
#include "measure.h"
#include "points.h"
#include "real.h"

struct cal_session {
	const struct cal_point *pts;
	unsigned n, repeat;
	struct cal_measure *runs;	/* [i * repeat + k] */
	struct cal_measure *median;	/* [i] */
	struct cal_places pl;		/* where the real runs were */
	struct real_facts facts;
	char *runtime;
	/* A shared machine: before each real run, wait until no more than
	 * quiet_cpus CPUs are busy with other work; a run during which more
	 * were busy is run again, up to twice. The waits of the whole session
	 * take at most quiet_wait_s seconds; then the runs go on regardless,
	 * and say so. quiet_cpus 0: never wait. */
	double quiet_cpus;
	unsigned quiet_wait_s;
	gint64 waited_us;
	unsigned busy_runs;	/* real runs kept although the machine was busy */
	unsigned reruns;	/* real runs made again because it was */
};

void cal_session_init(struct cal_session *s, const struct cal_point *pts,
		      unsigned n, unsigned repeat, const char *runtime);
void cal_session_clear(struct cal_session *s);
/* Set the targets up, run every point, take them down. what names the
 * command in the progress line. */
bool cal_session_measure(struct cal_session *s, const char *fio,
			 unsigned backing_mb, unsigned region_mb,
			 enum progress_when when, const char *what, GError **err);
bool cal_session_save(const struct cal_session *s, const char *path,
		      GError **err);
/* Read a saved session of the same points (by name), for a fit or a
 * comparison without measuring again. */
bool cal_session_load(struct cal_session *s, const char *path, GError **err);
/* A run time as fio takes it ("2000ms"), from "2", "2s" or "2000ms";
 * opt names the option in the error. */
bool cal_parse_runtime(const char *opt, const char *s, char **out,
		       GError **err);
/* Copy where-things-are for simulating (strings duplicated). */
void cal_places_copy(struct cal_places *dst, const struct cal_places *src);
void cal_places_clear(struct cal_places *pl);

#endif
