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

/*
 * Levenshtein distance, for "did you mean"; anything above bound is
 * reported as bound + 1, which lets a hopeless candidate stop early.
 */
size_t storsim_edit_distance(const char *a, const char *b, size_t bound)
{
	size_t lb = strlen(b);
	g_autofree size_t *row = g_new(size_t, lb + 1);

	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; a[i - 1]; i++) {
		size_t diag = row[0], least;

		least = row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];

			row[j] = MIN(MIN(row[j] + 1, row[j - 1] + 1),
				     diag + (a[i - 1] != b[j - 1]));
			diag = up;
			least = MIN(least, row[j]);
		}
		if (least > bound)
			return bound + 1;
	}
	return MIN(row[lb], bound + 1);
}

/*
 * fio's rule for a suggestion (string_distance_ok()): at most half the
 * name's length apart. The first of the nearest wins, so that the order of
 * names decides ties.
 */
const char *storsim_closest(const char *name, const char *const *names, size_t n)
{
	size_t len = strlen(name), limit = (len + 1) / 2;
	const char *best = NULL;
	size_t best_d = SIZE_MAX;

	/* no name is near this long; spare the quadratic work */
	if (len > 64)
		return NULL;
	for (size_t i = 0; i < n && best_d; i++) {
		size_t clen, d;

		if (!names[i])
			continue;
		clen = strlen(names[i]);
		/* the distance is at least the difference in length */
		if ((clen > len ? clen - len : len - clen) > limit)
			continue;
		d = storsim_edit_distance(name, names[i], best_d <= limit ? best_d - 1 : limit);
		if (d < best_d) {
			best_d = d;
			best = names[i];
		}
	}
	return best && best_d <= limit ? best : NULL;
}

int storsim_strptr_cmp(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void storsim_text_block(GString *out, const char *text)
{
	if (!*text)
		return;
	g_string_append_c(out, '\n');
	for (const char *p = text; *p; ) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		g_string_append(out, "storsim: ");
		g_string_append_len(out, p, (gssize)len);
		g_string_append_c(out, '\n');
		p += len + (nl != NULL);
	}
}
