/* Error reporting helpers. */
#include <string.h>
#include <sys/stat.h>
#include <glib/gstdio.h>

#include "util.h"

G_DEFINE_QUARK(storsim-error-quark, storsim_error)

/*
 * A message quotes what it refuses, and what it refuses may be a value of
 * megabytes (a job-file line, an expression nested thousands deep): past
 * MESSAGE_MAX bytes its middle is left out, keeping the start, which says
 * where and what, and the end, which usually says what is wrong.
 */
#define MESSAGE_MAX	480
#define MESSAGE_HEAD	300

static gboolean utf8_continuation(char c)
{
	return ((unsigned char)c & 0xc0) == 0x80;
}

static void elide_middle(GString *msg)
{
	gsize head = MESSAGE_HEAD, tail;
	char note[48];

	if (msg->len <= MESSAGE_MAX)
		return;
	tail = msg->len - (MESSAGE_MAX - MESSAGE_HEAD - sizeof(note));
	/* cut between characters, not inside one */
	while (head > 0 && utf8_continuation(msg->str[head]))
		head--;
	while (tail < msg->len && utf8_continuation(msg->str[tail]))
		tail++;
	g_snprintf(note, sizeof(note), "[...%" G_GSIZE_FORMAT " bytes...]",
		   tail - head);
	g_string_erase(msg, (gssize)head, (gssize)(tail - head));
	g_string_insert(msg, (gssize)head, note);
}

static void located_error(GError **err, int code, const char *file, int line,
			  const char *option, const char *fmt, va_list ap)
{
	GString *msg = g_string_new(NULL);

	if (file) {
		g_string_append(msg, file);
		if (line > 0)
			g_string_append_printf(msg, ":%d", line);
		g_string_append(msg, ": ");
	}
	if (option)
		g_string_append_printf(msg, "option '%s': ", option);
	g_string_append_vprintf(msg, fmt, ap);
	elide_middle(msg);
	g_set_error_literal(err, STORSIM_ERROR, code, msg->str);
	g_string_free(msg, TRUE);
}

void storsim_input_error(GError **err, const char *file, int line,
			 const char *option, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	located_error(err, STORSIM_ERROR_INPUT, file, line, option, fmt, ap);
	va_end(ap);
}

void storsim_unsupported_error(GError **err, const char *file, int line,
			       const char *option, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	located_error(err, STORSIM_ERROR_UNSUPPORTED, file, line, option, fmt, ap);
	va_end(ap);
}

int storsim_json_key_line(const char *text, const char *key)
{
	g_autofree char *quoted = g_strdup_printf("\"%s\"", key);
	const char *hit = text ? strstr(text, quoted) : NULL;
	int line = 1;

	if (!hit)
		return 0;
	for (const char *p = text; p < hit; p++)
		line += *p == '\n';
	return line;
}

gboolean storsim_write_in_place(const char *path)
{
	GStatBuf st;

	if (g_lstat(path, &st) != 0)
		return FALSE;
	if (S_ISLNK(st.st_mode))
		return TRUE;
	return !S_ISREG(st.st_mode);
}

int storsim_strptr_cmp(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}
