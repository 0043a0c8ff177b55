/*
 * Small helpers shared by the whole program: the error domain and the one
 * format every bad-input message uses ("FILE:LINE: option 'NAME': what is
 * wrong"), and size/time formatting.
 */
#ifndef STORSIM_UTIL_H
#define STORSIM_UTIL_H

#include <glib.h>
#include <stdint.h>

/*
 * x / d and x % d for d > 0, by a shift and a mask when d is a power of
 * two, as page, block and queue sizes nearly always are: on the per-I/O
 * paths a division instruction costs tens of cycles, perf put about 5% of
 * a run's time on them. The test of d is predicted right every time.
 */
static inline uint64_t udiv_fast(uint64_t x, uint64_t d)
{
	return d & (d - 1) ? x / d : x >> __builtin_ctzll(d);
}

static inline uint64_t umod_fast(uint64_t x, uint64_t d)
{
	return d & (d - 1) ? x % d : x & (d - 1);
}

#define STORSIM_ERROR storsim_error_quark()
GQuark storsim_error_quark(void);

enum storsim_error_code {
	STORSIM_ERROR_INPUT = 1,	/* bad job file, option, trace, profile */
	STORSIM_ERROR_UNSUPPORTED,	/* valid for fio, not modelled: refused */
	STORSIM_ERROR_IO,		/* reading or writing a file failed */
	STORSIM_ERROR_EXTERNAL,		/* QEMU, libvirt or another program failed */
};

/*
 * Set *err to an input error located at file:line and naming option. Any of
 * file (NULL), line (0) and option (NULL) may be left out.
 */
void storsim_input_error(GError **err, const char *file, int line,
			 const char *option, const char *fmt, ...)
	G_GNUC_PRINTF(5, 6);

/* Like storsim_input_error with code STORSIM_ERROR_UNSUPPORTED. */
void storsim_unsupported_error(GError **err, const char *file, int line,
			       const char *option, const char *fmt, ...)
	G_GNUC_PRINTF(5, 6);

/* The Levenshtein distance of a and b, or bound + 1 for anything above
 * bound (a hopeless candidate stops early). */
size_t storsim_edit_distance(const char *a, const char *b, size_t bound);

/* Of the n names (NULL ones skipped), the one nearest to name when near
 * enough to suggest ("did you mean"), or NULL. */
const char *storsim_closest(const char *name, const char *const *names, size_t n);

/* Order an array of strings (g_ptr_array_sort hands the comparison
 * pointers to the elements, not the elements). */
int storsim_strptr_cmp(gconstpointer a, gconstpointer b);

/* Line number (1-based) of the first occurrence of "key" (with quotes) in a
 * JSON text, or 0: json-c keeps no positions, so profile errors find the line
 * this way. */
int storsim_json_key_line(const char *text, const char *key);

/* Whether an output file at path must be written in place rather than
 * through a temporary file renamed over it: path is a device, a FIFO or a
 * socket (/dev/null, /dev/stdout), which the rename would replace with a
 * plain file, or a symbolic link, which it would replace with the file. */
gboolean storsim_write_in_place(const char *path);

/*
 * Append storsim's own lines after a program's text output (fio's): a
 * blank line, then every line of text behind "storsim: ", so that a script
 * reading the program's output can tell them from its own and skip them.
 */
void storsim_text_block(GString *out, const char *text);

#endif
