/*
 * The progress line of a long command (storsim run, reproduce, sweep), as
 * fio's --eta=WHEN decides when it shows: on a terminal only (auto, the
 * default), always, or never. On a terminal the line is rewritten in place;
 * elsewhere (a log, a CI job) each update is a line of its own. A caller
 * that asks progress_line_due prints at most once a period of wall time:
 * fio's --eta-interval=TIME, or by default half a second on a terminal and
 * PROGRESS_LOG_PERIOD elsewhere.
 */
#ifndef STORSIM_PROGRESS_H
#define STORSIM_PROGRESS_H

#include <stdbool.h>
#include <glib.h>

enum progress_when { PROGRESS_AUTO, PROGRESS_ALWAYS, PROGRESS_NEVER };

#define PROGRESS_TTY_PERIOD (G_USEC_PER_SEC / 2)
#define PROGRESS_LOG_PERIOD (10 * G_USEC_PER_SEC)

struct progress_line {
	bool on, tty, shown;
	gint64 period_us, last_us;
	int width;		/* of the last line written in place */
};

/* The --eta option's entry text, shared by the commands that take it. */
#define PROGRESS_ETA_HELP "When to show the progress line: auto (on a terminal, the default), always or never"
#define PROGRESS_INTERVAL_HELP "Update the progress line every TIME of wall time (s unless a unit is given: us, ms, s, m; 250ms at least)"

bool progress_when_parse(const char *s, enum progress_when *when, GError **err);
/* --eta-interval's TIME, in microseconds. */
bool progress_interval_parse(const char *s, gint64 *us, GError **err);
/* period_us 0: the default period. */
void progress_line_init(struct progress_line *p, enum progress_when when,
			gint64 period_us);
/* Whether a rate-limited caller should print now (and, if so, from now
 * on counts the period again). */
bool progress_line_due(struct progress_line *p);
void progress_line_print(struct progress_line *p, const char *fmt, ...)
	G_GNUC_PRINTF(2, 3);
/* Wipe a line written in place, before the results. */
void progress_line_end(struct progress_line *p);

#endif
