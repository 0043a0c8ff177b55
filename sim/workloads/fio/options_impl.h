/*
 * fio's job options, private to their files: the parsed value, the
 * helpers the value parser (options_parse.c) offers the options with a
 * syntax of their own and the table (options_table.c), and what setting a
 * value (options_parse.c) and finishing a job (options_finish.c) share.
 * Everything else uses options.h.
 */
#ifndef STORSIM_OPTIONS_IMPL_H
#define STORSIM_OPTIONS_IMPL_H

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "engine/util.h"

#define OFF(f) offsetof(struct job_options, f)
#define FIELD_PTR(o, off, type) ((type *)((char *)(o) + (off)))

/* Every engine fio 3.33 registers (the .name of each ioengine_ops under
 * engines/). */
struct engine_info {
	const char *name;
	int modelled;		/* enum fio_ioengine, or -1 */
};

/* A value parsed by its option's type, before it is stored or compared. */
struct fopt_value {
	bool bare;			/* no "=value" */
	bool given[FIO_DDIR_COUNT];	/* fields present */
	uint64_t u[FIO_DDIR_COUNT];	/* numbers, ns, 0/1, choice values */
	uint64_t hi[FIO_DDIR_COUNT];	/* range tops */
	bool has_hi;
	bool pct;			/* N% */
	bool zone;			/* Nz */
	char *postfix;			/* after the ':' of a choice; owned */
	double f[FIO_PERCENTILE_MAX];
	unsigned nf;
	unsigned precision;		/* most digits after a point */
	const char *text;
};

bool fopt_bad_value(const struct fopt_ctx *ctx, const struct fio_option_def *o,
		      GError **err, const char *fmt, ...) G_GNUC_PRINTF(4, 5);
bool fopt_leading_number(const char *s, bool hex_ok, uint64_t *out,
			   const char **end);
bool fopt_option_store(struct fopt_ctx *ctx, const struct fio_option_def *o,
			 const char *value, GError **err);
bool fopt_parse_float(const struct fopt_ctx *ctx, const struct fio_option_def *o,
			const char *s, double *out, GError **err);
bool fopt_parse_size(const struct fopt_ctx *ctx, const struct fio_option_def *o,
		       const char *s, bool allow_neg, uint64_t *out, bool *pct,
		       bool *zone, GError **err);
bool fopt_refuse(const struct fopt_ctx *ctx, const struct fio_option_def *o,
		   GError **err, const char *fmt, ...) G_GNUC_PRINTF(4, 5);
extern const struct fio_choice fio_rw_choices[];
void fopt_value_free(struct fopt_value *v);
bool fopt_value_parse(const struct fopt_ctx *ctx, const struct fio_option_def *o,
			const char *text, struct fopt_value *v, GError **err);

#endif

