/* The progress line: see progress.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "progress.h"
#include "util.h"

bool progress_when_parse(const char *s, enum progress_when *when, GError **err)
{
	static const char *const names[] = {"auto", "always", "never"};

	for (unsigned i = 0; i < G_N_ELEMENTS(names); i++) {
		if (strcmp(s, names[i]) == 0) {
			*when = (enum progress_when)i;
			return true;
		}
	}
	storsim_input_error(err, "command line", 0, "eta",
			    "'%s' is not auto, always or never", s);
	return false;
}

/* fio's check_str_time for is_seconds, and its floor of DISK_UTIL_MSEC. */
bool progress_interval_parse(const char *s, gint64 *us, GError **err)
{
	static const struct {
		const char *name;
		gint64 us;
	} units[] = {
		{"", G_USEC_PER_SEC}, {"us", 1}, {"ms", 1000},
		{"s", G_USEC_PER_SEC}, {"m", 60 * G_USEC_PER_SEC},
	};
	char *end;
	guint64 v;

	if (!g_ascii_isdigit(*s))
		goto bad;
	v = g_ascii_strtoull(s, &end, 10);
	for (unsigned i = 0; i < G_N_ELEMENTS(units); i++) {
		if (g_ascii_strcasecmp(end, units[i].name) != 0)
			continue;
		if (v > (guint64)G_MAXINT64 / (guint64)units[i].us)
			goto bad;
		*us = (gint64)v * units[i].us;
		if (*us >= 250 * 1000)
			return true;
		storsim_input_error(err, "command line", 0, "eta-interval",
				    "'%s' is shorter than 250ms", s);
		return false;
	}
bad:
	storsim_input_error(err, "command line", 0, "eta-interval",
			    "'%s' is not a time (a whole number, with us, ms, s "
			    "or m)", s);
	return false;
}

void progress_line_init(struct progress_line *p, enum progress_when when,
			gint64 period_us)
{
	bool tty = isatty(STDERR_FILENO);

	*p = (struct progress_line){
		.on = when == PROGRESS_ALWAYS || (when == PROGRESS_AUTO && tty),
		.tty = tty,
		.period_us = period_us ? period_us : tty ? PROGRESS_TTY_PERIOD :
							   PROGRESS_LOG_PERIOD,
		.last_us = g_get_monotonic_time(),
	};
}

bool progress_line_due(struct progress_line *p)
{
	gint64 now = g_get_monotonic_time();

	if (!p->on || now - p->last_us < p->period_us)
		return false;
	p->last_us = now;
	return true;
}

void progress_line_print(struct progress_line *p, const char *fmt, ...)
{
	va_list ap;

	if (!p->on)
		return;
	va_start(ap, fmt);
	g_autofree char *text = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	if (p->tty) {
		int len = (int)strlen(text);
		/* Pad over what is left of a longer last line. */
		fprintf(stderr, "\r%s%*s", text, MAX(p->width - len, 0), "");
		p->width = MAX(p->width, len);
	} else {
		fprintf(stderr, "%s\n", text);
	}
	p->shown = true;
}

void progress_line_end(struct progress_line *p)
{
	if (p->shown && p->tty)
		fprintf(stderr, "\r%*s\r", p->width, "");
	p->shown = false;
	p->width = 0;
}
