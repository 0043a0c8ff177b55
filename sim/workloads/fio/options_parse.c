/*
 * fio's option values: arithmetic, sizes, times, ranges, per-direction
 * lists and choices, parsed and stored by each option's type.
 *
 * Stands for fio 3.33's parse.c (check_str_bytes, str_to_decimal,
 * check_range_bytes, __handle_option, the kb_base and unit rules) and
 * exp/expression-parser.l and .y (the arithmetic of $(( ... )) values).
 *
 * Units: sizes in bytes, times in nanoseconds, percentages 0..100.

 */
#include "options_impl.h"
/* ------------------------------------------------------------------ */
/* Arithmetic                                                          */

/*
 * A small recursive-descent evaluator. Precedence, loosest first:
 * + -, then * / %, then ^ (right-associative), then unary minus, then a
 * unit suffix after a number or a parenthesised expression. Each
 * parenthesis, unary minus and '^' recurses, so their nesting is held to
 * EXPR_DEPTH_MAX, far above what a job writes and far below what the stack
 * holds (fio's bison parser has no such limit of its own to copy).
 */
#define EXPR_DEPTH_MAX	100

struct expr_num {
	bool isf;
	int64_t i;
	double d;
};

struct expr {
	const char *p;
	unsigned flags;
	bool units_seen;
	unsigned depth;		/* of recursion now */
	char *msg;
};

static bool expr_fail(struct expr *x, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static bool expr_fail(struct expr *x, const char *fmt, ...)
{
	va_list ap;

	if (!x->msg) {
		va_start(ap, fmt);
		x->msg = g_strdup_vprintf(fmt, ap);
		va_end(ap);
	}
	return false;
}

static void expr_skip(struct expr *x)
{
	while (*x->p == ' ' || *x->p == '\t')
		x->p++;
}

static double num_d(const struct expr_num *n)
{
	return n->isf ? n->d : (double)n->i;
}

static bool expr_sum(struct expr *x, struct expr_num *out);

/* Step one level deeper; false, with the message, past the limit. */
static bool expr_enter(struct expr *x)
{
	if (++x->depth <= EXPR_DEPTH_MAX)
		return true;
	return expr_fail(x, "nested more than %d deep (parentheses, unary "
			 "minus and '^' count; storsim's limit)", EXPR_DEPTH_MAX);
}

/* Multiplier of an expression suffix; fio's lexer fixes k at 1024. */
static bool expr_suffix(struct expr *x, struct expr_num *n)
{
	static const struct {
		const char *s;
		int64_t mult;
		bool time;	/* a time unit (microseconds) */
	} sfx[] = {
		{ "kib", 1000LL, false }, { "mib", 1000000LL, false },
		{ "gib", 1000000000LL, false }, { "tib", 1000000000000LL, false },
		{ "pib", 1000000000000000LL, false },
		{ "kb", 1LL << 10, false }, { "mb", 1LL << 20, false },
		{ "gb", 1LL << 30, false }, { "tb", 1LL << 40, false },
		{ "pb", 1LL << 50, false },
		{ "ms", 1000LL, true }, { "us", 1LL, true },
		{ "k", 1LL << 10, false }, { "g", 1LL << 30, false },
		{ "t", 1LL << 40, false }, { "p", 1LL << 50, false },
		{ "s", 1000000LL, true }, { "h", 3600000000LL, true },
		{ "d", 86400000000LL, true },
	};
	const char *start = x->p;
	size_t len = 0;
	int64_t mult = 0;

	while (g_ascii_isalpha(start[len]))
		len++;
	if (!len)
		return true;
	if (!(x->flags & FIO_EXPR_UNITS))
		return expr_fail(x, "unexpected '%.*s'", (int)len, start);
	if (len == 1 && g_ascii_tolower(*start) == 'm')
		mult = (x->flags & FIO_EXPR_TIME) ? 60000000LL : 1LL << 20;
	for (size_t i = 0; !mult && i < G_N_ELEMENTS(sfx); i++)
		if (strlen(sfx[i].s) == len &&
		    g_ascii_strncasecmp(sfx[i].s, start, len) == 0)
			mult = sfx[i].mult;
	if (!mult)
		return expr_fail(x, "unknown unit '%.*s'", (int)len, start);
	x->p += len;
	x->units_seen = true;
	if (n->isf) {
		n->d *= (double)mult;
	} else if (__builtin_mul_overflow(n->i, mult, &n->i)) {
		return expr_fail(x, "number too large");
	}
	return true;
}

static bool expr_primary(struct expr *x, struct expr_num *n)
{
	char *end;

	expr_skip(x);
	if (*x->p == '(') {
		x->p++;
		if (!expr_enter(x) || !expr_sum(x, n))
			return false;
		x->depth--;
		expr_skip(x);
		if (*x->p != ')')
			return expr_fail(x, "missing ')'");
		x->p++;
	} else if (x->p[0] == '0' && (x->p[1] == 'x' || x->p[1] == 'X')) {
		errno = 0;
		unsigned long long v = strtoull(x->p + 2, &end, 16);
		if (end == x->p + 2 || errno || v > INT64_MAX)
			return expr_fail(x, "bad hex number");
		n->isf = false;
		n->i = (int64_t)v;
		x->p = end;
	} else if (g_ascii_isdigit(*x->p) || *x->p == '.') {
		const char *q = x->p;
		bool frac = false;

		while (g_ascii_isdigit(*q))
			q++;
		if (*q == '.' || ((*q == 'e' || *q == 'E') &&
				  (g_ascii_isdigit(q[1]) || q[1] == '-' || q[1] == '+')))
			frac = true;
		if (frac) {
			if (!(x->flags & FIO_EXPR_FLOAT))
				return expr_fail(x, "fractions are not allowed here");
			n->isf = true;
			n->d = g_ascii_strtod(x->p, &end);
			if (end == x->p || !isfinite(n->d))
				return expr_fail(x, "bad number");
		} else {
			errno = 0;
			unsigned long long v = strtoull(x->p, &end, 10);
			if (errno || v > INT64_MAX)
				return expr_fail(x, "number too large");
			n->isf = false;
			n->i = (int64_t)v;
		}
		x->p = end;
	} else if (*x->p) {
		return expr_fail(x, "unexpected '%c'", *x->p);
	} else {
		return expr_fail(x, "expression ends early");
	}
	return expr_suffix(x, n);
}

static bool expr_unary(struct expr *x, struct expr_num *n)
{
	expr_skip(x);
	if (*x->p == '-') {
		x->p++;
		if (!expr_enter(x) || !expr_unary(x, n))
			return false;
		x->depth--;
		if (n->isf)
			n->d = -n->d;
		else if (n->i == INT64_MIN)
			return expr_fail(x, "number too large");
		else
			n->i = -n->i;
		return true;
	}
	return expr_primary(x, n);
}

static bool expr_power(struct expr *x, struct expr_num *n)
{
	struct expr_num e;

	if (!expr_unary(x, n))
		return false;
	expr_skip(x);
	if (*x->p != '^')
		return true;
	x->p++;
	if (!expr_enter(x) || !expr_power(x, &e))
		return false;
	x->depth--;
	if (!n->isf && !e.isf && e.i >= 0) {
		int64_t r = 1;

		/* |base| >= 2 overflows within 64 steps */
		if (n->i == 0 || n->i == 1)
			r = e.i == 0 ? 1 : n->i;
		else if (n->i == -1)
			r = e.i % 2 ? -1 : 1;
		else
			for (int64_t k = 0; k < e.i; k++)
				if (__builtin_mul_overflow(r, n->i, &r))
					return expr_fail(x, "number too large");
		n->i = r;
		return true;
	}
	n->d = pow(num_d(n), num_d(&e));
	n->isf = true;
	if (!isfinite(n->d))
		return expr_fail(x, "number too large");
	return true;
}

static bool expr_product(struct expr *x, struct expr_num *n)
{
	struct expr_num r;

	if (!expr_power(x, n))
		return false;
	for (;;) {
		char op;

		expr_skip(x);
		op = *x->p;
		if (op != '*' && op != '/' && op != '%')
			return true;
		x->p++;
		if (!expr_power(x, &r))
			return false;
		if (op == '%' && (n->isf || r.isf))
			return expr_fail(x, "'%%' needs whole numbers");
		if (op != '*' && num_d(&r) == 0)
			return expr_fail(x, "division by zero");
		if (n->isf || r.isf) {
			n->d = op == '*' ? num_d(n) * num_d(&r) : num_d(n) / num_d(&r);
			n->isf = true;
			if (!isfinite(n->d))
				return expr_fail(x, "number too large");
		} else if (op == '*') {
			if (__builtin_mul_overflow(n->i, r.i, &n->i))
				return expr_fail(x, "number too large");
		} else if (n->i == INT64_MIN && r.i == -1) {
			return expr_fail(x, "number too large");
		} else {
			n->i = op == '/' ? n->i / r.i : n->i % r.i;
		}
	}
}

static bool expr_sum(struct expr *x, struct expr_num *n)
{
	struct expr_num r;

	if (!expr_product(x, n))
		return false;
	for (;;) {
		char op;

		expr_skip(x);
		op = *x->p;
		if (op != '+' && op != '-')
			return true;
		x->p++;
		if (!expr_product(x, &r))
			return false;
		if (n->isf || r.isf) {
			n->d = op == '+' ? num_d(n) + num_d(&r) : num_d(n) - num_d(&r);
			n->isf = true;
		} else if (op == '+' ? __builtin_add_overflow(n->i, r.i, &n->i)
				     : __builtin_sub_overflow(n->i, r.i, &n->i)) {
			return expr_fail(x, "number too large");
		}
	}
}

bool fio_expr_eval(const char *text, unsigned flags, int64_t *ival,
		   double *dval, bool *units_seen, char **msg)
{
	struct expr x = { .p = text, .flags = flags };
	struct expr_num n = { 0 };

	if (expr_sum(&x, &n)) {
		expr_skip(&x);
		if (*x.p)
			expr_fail(&x, "unexpected '%c'", *x.p);
	}
	if (x.msg) {
		*msg = x.msg;
		return false;
	}
	if (n.isf) {
		if (n.d >= 9.2e18 || n.d <= -9.2e18) {
			*msg = g_strdup("number too large");
			return false;
		}
		*ival = (int64_t)n.d;
		*dval = n.d;
	} else {
		*ival = n.i;
		*dval = (double)n.i;
	}
	if (units_seen)
		*units_seen = x.units_seen;
	*msg = NULL;
	return true;
}

/* ------------------------------------------------------------------ */
/* Values                                                              */

void fopt_value_free(struct fopt_value *v)
{
	g_free(v->postfix);
	v->postfix = NULL;
}

static const char *opt_label(const struct fopt_ctx *ctx,
			     const struct fio_option_def *o)
{
	return ctx->name ? ctx->name : o->name;
}

bool fopt_bad_value(const struct fopt_ctx *ctx, const struct fio_option_def *o,
		      GError **err, const char *fmt, ...)
{
	va_list ap;
	g_autofree char *msg = NULL;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	storsim_input_error(err, ctx->file, ctx->line, opt_label(ctx, o), "%s", msg);
	return false;
}

static unsigned ctx_kb_base(const struct fopt_ctx *ctx)
{
	return ctx->o && ctx->o->kb_base ? ctx->o->kb_base : 1024;
}

/*
 * Multiplier of a size suffix. k..p are powers of kb_base; the IEC forms
 * kib..pib are powers of the other base, as fio keeps them.
 */
static bool size_mult(const char *suf, unsigned kb_base, uint64_t *mult)
{
	static const struct {
		const char *s;
		unsigned pow;
		bool iec;
	} units[] = {
		{ "", 0, false }, { "b", 0, false },
		{ "k", 1, false }, { "kb", 1, false }, { "kib", 1, true },
		{ "m", 2, false }, { "mb", 2, false }, { "mib", 2, true },
		{ "g", 3, false }, { "gb", 3, false }, { "gib", 3, true },
		{ "t", 4, false }, { "tb", 4, false }, { "tib", 4, true },
		{ "p", 5, false }, { "pb", 5, false }, { "pib", 5, true },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(units); i++) {
		if (g_ascii_strcasecmp(units[i].s, suf) == 0) {
			uint64_t base = kb_base, m = 1;

			if (units[i].iec)
				base = kb_base == 1000 ? 1024 : 1000;
			for (unsigned p = 0; p < units[i].pow; p++)
				m *= base;
			*mult = m;
			return true;
		}
	}
	return false;
}

static bool eval_or_fail(const struct fopt_ctx *ctx, const struct fio_option_def *o,
			 const char *s, unsigned flags, int64_t *iv, double *dv,
			 bool *units, GError **err)
{
	g_autofree char *msg = NULL;

	if (fio_expr_eval(s, flags, iv, dv, units, &msg))
		return true;
	return fopt_bad_value(ctx, o, err, "bad expression '%s': %s", s, msg);
}

/* Digits (or 0x hex digits) at the start of s; *end after them. */
bool fopt_leading_number(const char *s, bool hex_ok, uint64_t *out,
			   const char **end)
{
	char *e;

	errno = 0;
	if (hex_ok && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		if (!g_ascii_isxdigit(s[2]))
			return false;
		*out = strtoull(s + 2, &e, 16);
	} else {
		if (!g_ascii_isdigit(s[0]))
			return false;
		*out = strtoull(s, &e, 10);
	}
	*end = e;
	return errno == 0;
}

/*
 * A size or count: number, then a unit, "%" (pct) or "z" (zone) where
 * allowed, or "(expr)". Negative only when allow_neg.
 */
bool fopt_parse_size(const struct fopt_ctx *ctx, const struct fio_option_def *o,
		       const char *s, bool allow_neg, uint64_t *out, bool *pct,
		       bool *zone, GError **err)
{
	const char *p = s, *end;
	bool neg = false, hex;
	uint64_t mag, mult;

	if (*s == '(') {
		int64_t iv;
		double dv;

		if (!eval_or_fail(ctx, o, s, FIO_EXPR_UNITS | FIO_EXPR_FLOAT,
				  &iv, &dv, NULL, err))
			return false;
		if (iv < 0 && !allow_neg)
			return fopt_bad_value(ctx, o, err, "'%s' is negative", s);
		*out = (uint64_t)iv;
		return true;
	}
	if (*p == '-' && allow_neg) {
		neg = true;
		p++;
	}
	hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
	if (!fopt_leading_number(p, true, &mag, &end))
		return fopt_bad_value(ctx, o, err, errno == ERANGE ? "'%s' is too large"
							      : "'%s' is not a number", s);
	if (hex && *end)
		return fopt_bad_value(ctx, o, err, "'%s': a hex number takes no unit", s);
	if (*end == '.')
		return fopt_bad_value(ctx, o, err,
				 "'%s': fio takes no fraction here (it would read %" PRIu64
				 "); use a smaller unit", s, mag);
	if (*end == '%' && !end[1]) {
		if (!pct)
			return fopt_bad_value(ctx, o, err, "'%s': a percentage is not accepted here", s);
		if (mag > 100)
			return fopt_bad_value(ctx, o, err, "'%s': a percentage above 100", s);
		*pct = true;
		*out = mag;
		return true;
	}
	if ((*end == 'z' || *end == 'Z') && !end[1] && zone) {
		*zone = true;
		*out = mag;
		return true;
	}
	if (!size_mult(end, ctx_kb_base(ctx), &mult))
		return fopt_bad_value(ctx, o, err,
				 "'%s': unknown unit '%s' (k, m, g, t, p, kib, mib, gib, tib, pib or b)",
				 s, end);
	if (__builtin_mul_overflow(mag, mult, &mag) || (neg && mag > (uint64_t)INT64_MAX))
		return fopt_bad_value(ctx, o, err, "'%s' is too large", s);
	*out = neg ? (uint64_t)(-(int64_t)mag) : mag;
	return true;
}

/*
 * A time: number and unit, or "(expr)" (microseconds unless a unit is
 * given). A bare number is seconds for is_seconds options, microseconds for
 * the others, as fio. Result in nanoseconds.
 */
static bool parse_time(const struct fopt_ctx *ctx, const struct fio_option_def *o,
		       const char *s, uint64_t *ns, GError **err)
{
	static const struct {
		const char *s;
		uint64_t usec;
	} units[] = {
		{ "us", 1 }, { "usec", 1 }, { "ms", 1000 }, { "msec", 1000 },
		{ "s", 1000000 }, { "m", 60000000 }, { "h", 3600000000ULL },
		{ "d", 86400000000ULL },
	};
	bool secs = o->flags & FOPT_F_SECONDS;
	uint64_t mag, mult = 0;
	const char *end;

	if (*s == '(') {
		int64_t iv;
		double dv;
		bool units_seen;

		if (!eval_or_fail(ctx, o, s, FIO_EXPR_UNITS | FIO_EXPR_TIME | FIO_EXPR_FLOAT,
				  &iv, &dv, &units_seen, err))
			return false;
		if (iv < 0)
			return fopt_bad_value(ctx, o, err, "'%s' is negative", s);
		if (!units_seen && secs && __builtin_mul_overflow(iv, 1000000, &iv))
			return fopt_bad_value(ctx, o, err, "'%s' is too large", s);
		/* fio keeps whole seconds of an expression for is_seconds */
		if (secs)
			iv -= iv % 1000000;
		mag = (uint64_t)iv;
		mult = 1;
	} else {
		if (!fopt_leading_number(s, false, &mag, &end))
			return fopt_bad_value(ctx, o, err, "'%s' is not a time", s);
		if (*end == '.')
			return fopt_bad_value(ctx, o, err,
					 "'%s': fio takes no fraction here (it would read %" PRIu64
					 "); use a smaller unit", s, mag);
		if (!*end)
			mult = secs ? 1000000 : 1;
		for (size_t i = 0; !mult && i < G_N_ELEMENTS(units); i++)
			if (g_ascii_strcasecmp(units[i].s, end) == 0)
				mult = units[i].usec;
		if (!mult)
			return fopt_bad_value(ctx, o, err,
					 "'%s': unknown time unit '%s' (us, ms, s, m, h or d)",
					 s, end);
	}
	if (__builtin_mul_overflow(mag, mult, &mag) ||
	    __builtin_mul_overflow(mag, 1000, &mag))
		return fopt_bad_value(ctx, o, err, "'%s' is too long", s);
	*ns = mag;
	return true;
}

bool fopt_parse_float(const struct fopt_ctx *ctx, const struct fio_option_def *o,
			const char *s, double *out, GError **err)
{
	char *end;

	if (*s == '(') {
		int64_t iv;

		return eval_or_fail(ctx, o, s, FIO_EXPR_UNITS | FIO_EXPR_FLOAT,
				    &iv, out, NULL, err);
	}
	*out = g_ascii_strtod(s, &end);
	if (end == s || *end || !isfinite(*out) || g_ascii_isspace(*s))
		return fopt_bad_value(ctx, o, err, "'%s' is not a number", s);
	return true;
}

/* fio's check_int: decimal or 0x hex, no unit. */
static bool parse_plain_int(const struct fopt_ctx *ctx, const struct fio_option_def *o,
			    const char *s, uint64_t *out, GError **err)
{
	const char *end;

	if (!fopt_leading_number(s, true, out, &end) || *end || *out > UINT32_MAX)
		return fopt_bad_value(ctx, o, err, "'%s' is not %s", s,
				 o->type == FOPT_BOOL ? "0 or 1" : "a whole number");
	return true;
}

static bool check_range(const struct fopt_ctx *ctx, const struct fio_option_def *o,
			uint64_t v, GError **err)
{
	bool timed = o->type == FOPT_STR_VAL_TIME || (o->flags & FOPT_F_TIME);

	if (o->min < 0) {
		int64_t lo = o->min, hi = o->max ? o->max : INT32_MAX;

		if ((int64_t)v < lo || (int64_t)v > hi)
			return fopt_bad_value(ctx, o, err, "%" PRId64 " is outside %" PRId64
					 "..%" PRId64, (int64_t)v, lo, hi);
		return true;
	}
	uint64_t hi = UINT64_MAX;

	if (o->max)
		hi = (uint64_t)o->max;
	else if (o->type == FOPT_BOOL)
		hi = 1;
	else if (o->type == FOPT_INT || o->type == FOPT_STR_SET)
		hi = timed ? UINT32_MAX * 1000ULL : UINT32_MAX;
	if (v < (uint64_t)o->min)
		return fopt_bad_value(ctx, o, err, "%" PRIu64 " is below the minimum %" PRId64,
				 v, o->min);
	if (v > hi)
		return fopt_bad_value(ctx, o, err, "%" PRIu64 " is above the maximum %" PRIu64,
				 v, hi);
	if ((o->flags & FOPT_F_POW2) && v && (v & (v - 1)))
		return fopt_bad_value(ctx, o, err, "%" PRIu64 " is not a power of 2", v);
	return true;
}

static bool parse_one_number(const struct fopt_ctx *ctx, const struct fio_option_def *o,
			     const char *s, uint64_t *out, struct fopt_value *v,
			     GError **err)
{
	bool ok;

	if (!*s)
		return fopt_bad_value(ctx, o, err, "empty value");
	switch (o->type) {
	case FOPT_BOOL:
	case FOPT_STR_SET:
		ok = parse_plain_int(ctx, o, s, out, err);
		break;
	case FOPT_STR_VAL_TIME:
		ok = parse_time(ctx, o, s, out, err);
		break;
	default:
		if (o->flags & FOPT_F_TIME)
			ok = parse_time(ctx, o, s, out, err);
		else
			ok = fopt_parse_size(ctx, o, s, o->min < 0, out,
					(o->flags & FOPT_F_PERCENT) ? &v->pct : NULL,
					o->type == FOPT_STR_VAL_ZONE ? &v->zone : NULL, err);
		break;
	}
	if (!ok || v->pct || v->zone)
		return ok;
	return check_range(ctx, o, *out, err);
}

/* Split "lo-hi" or "lo:hi" outside parentheses; NULL when there is none. */
static char *range_sep(char *s)
{
	int depth = 0;

	for (char *p = s; *p; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')')
			depth--;
		else if (!depth && p != s && (*p == '-' || *p == ':'))
			return p;
	}
	return NULL;
}

/*
 * Numbers: one field, or read,write,trim fields for per-direction options.
 * As fio, an empty field keeps that direction, and the last field given also
 * sets the directions after it (bs=4k,8k: writes and trims 8k).
 */
static bool parse_numbers(const struct fopt_ctx *ctx, const struct fio_option_def *o,
			  const char *text, struct fopt_value *v, GError **err)
{
	g_autofree char *copy = g_strdup(text);
	g_auto(GStrv) fields = NULL;
	bool ranged = o->type == FOPT_RANGE || (o->flags & FOPT_F_HI);
	size_t len = strlen(copy), n;
	int last = -1;

	if (len > 1 && copy[len - 1] == ',')
		copy[len - 1] = '\0';
	/* fio's handle_option() ends each field at a ',', or, when none is
	 * left, at a ':' or a '-': bs=4k-64k is 4k reads and 64k writes. */
	if (!ranged && (o->flags & FOPT_F_PERDIR))
		for (char *p = copy, *sep; *p; p = sep + 1) {
			sep = strchr(p, ',');
			if (!sep)
				sep = strpbrk(p, ":-");
			if (!sep)
				break;
			*sep = ',';
		}
	fields = g_strsplit(copy, ",", 0);
	n = g_strv_length(fields);
	if (n > 1 && !(o->flags & FOPT_F_PERDIR))
		return fopt_bad_value(ctx, o, err, "'%s': takes a single value", text);
	if (n > FIO_DDIR_COUNT)
		return fopt_bad_value(ctx, o, err,
				 "'%s': at most 3 values (read,write,trim)", text);
	for (size_t i = 0; i < n; i++) {
		char *f = fields[i], *sep = ranged ? range_sep(f) : NULL;

		if (!*f)
			continue;
		if (sep) {
			*sep = '\0';
			if (!parse_one_number(ctx, o, f, &v->u[i], v, err) ||
			    !parse_one_number(ctx, o, sep + 1, &v->hi[i], v, err))
				return false;
			if (v->u[i] > v->hi[i]) {
				uint64_t t = v->u[i];

				v->u[i] = v->hi[i];
				v->hi[i] = t;
			}
			v->has_hi = true;
		} else if (o->type == FOPT_RANGE) {
			return fopt_bad_value(ctx, o, err, "'%s' is not a range lo-hi", f);
		} else {
			if (!parse_one_number(ctx, o, f, &v->u[i], v, err))
				return false;
			v->hi[i] = v->u[i];
		}
		v->given[i] = true;
		last = (int)i;
	}
	if (last < 0)
		return fopt_bad_value(ctx, o, err, "empty value");
	if (last == (int)n - 1) {
		for (size_t i = n; i < FIO_DDIR_COUNT; i++) {
			v->u[i] = v->u[last];
			v->hi[i] = v->hi[last];
			v->given[i] = true;
		}
	}
	return true;
}

static const struct fio_choice *choice_find(const struct fio_choice *c,
					    const char *name, size_t len)
{
	for (; c && c->name; c++)
		if (strlen(c->name) == len && strncmp(c->name, name, len) == 0)
			return c;
	return NULL;
}

static bool no_such_choice(const struct fopt_ctx *ctx, const struct fio_option_def *o,
			   const char *name, size_t len, GError **err)
{
	g_autoptr(GString) list = g_string_new(NULL);

	for (const struct fio_choice *c = o->choices; c->name; c++)
		g_string_append_printf(list, "%s%s", list->len ? ", " : "", c->name);
	return fopt_bad_value(ctx, o, err, "'%.*s' is not one of: %s", (int)len, name,
			 list->str);
}

/* One of a fixed set (or several, ','-separated, for STR_MULTI). */
static bool parse_choice(const struct fopt_ctx *ctx, const struct fio_option_def *o,
			 const char *text, struct fopt_value *v, GError **err)
{
	const char *colon = strchr(text, ':');
	size_t len = colon ? (size_t)(colon - text) : strlen(text);

	if (!*text)
		return fopt_bad_value(ctx, o, err, "empty value");
	if (!o->choices)
		return true;	/* text for the option's own parser */
	if (colon && !(o->flags & FOPT_F_POSTFIX))
		return fopt_bad_value(ctx, o, err, "'%s': takes no ':' suffix", text);
	if (o->type == FOPT_STR_MULTI) {
		const char *p = text;

		while (p < text + len) {
			const char *comma = memchr(p, ',', (size_t)(text + len - p));
			size_t l = comma ? (size_t)(comma - p) : (size_t)(text + len - p);
			const struct fio_choice *c = choice_find(o->choices, p, l);

			if (!c)
				return no_such_choice(ctx, o, p, l, err);
			v->u[0] |= (uint64_t)c->value;
			p += l + 1;
		}
	} else {
		const struct fio_choice *c = choice_find(o->choices, text, len);

		if (!c)
			return no_such_choice(ctx, o, text, len, err);
		v->u[0] = (uint64_t)(int64_t)c->value;
	}
	v->given[0] = true;
	if (colon)
		v->postfix = g_strdup(colon + 1);
	return true;
}

static bool parse_float_list(const struct fopt_ctx *ctx, const struct fio_option_def *o,
			     const char *text, struct fopt_value *v, GError **err)
{
	g_auto(GStrv) items = g_strsplit(text, ":", 0);
	unsigned max = o->maxlen ? o->maxlen : FIO_PERCENTILE_MAX;

	for (size_t i = 0; items[i]; i++) {
		const char *dot = strchr(items[i], '.');
		double f;

		if (v->nf == max)
			return fopt_bad_value(ctx, o, err, "'%s': more than %u values", text, max);
		if (!fopt_parse_float(ctx, o, items[i], &f, err))
			return false;
		if ((o->fmin || o->fmax) && (f < o->fmin || f > o->fmax))
			return fopt_bad_value(ctx, o, err, "%g is outside %g..%g", f,
					 o->fmin, o->fmax);
		if (dot) {
			unsigned digits = 0;

			while (g_ascii_isdigit(dot[1 + digits]))
				digits++;
			v->precision = MAX(v->precision, digits);
		}
		v->f[v->nf++] = f;
	}
	return true;
}

/* Parse text (NULL when bare) by the option's type. */
bool fopt_value_parse(const struct fopt_ctx *ctx, const struct fio_option_def *o,
			const char *text, struct fopt_value *v, GError **err)
{
	memset(v, 0, sizeof(*v));
	v->text = text;
	if (o->type == FOPT_DEPRECATED)
		return fopt_bad_value(ctx, o, err, "deprecated; fio 3.33 rejects it");
	if (!text) {
		v->bare = true;
		if (o->type == FOPT_STR_SET || o->type == FOPT_SOFT_DEPRECATED) {
			v->u[0] = 1;
			v->given[0] = true;
			return true;
		}
		if (o->flags & FOPT_F_BARE)
			return true;
		return fopt_bad_value(ctx, o, err, "needs a value");
	}
	switch (o->type) {
	case FOPT_SOFT_DEPRECATED:
		return true;
	case FOPT_STR_STORE:
	case FOPT_STR_ULL:
		if (!*text)
			return fopt_bad_value(ctx, o, err, "empty value");
		return true;
	case FOPT_STR:
	case FOPT_STR_MULTI:
		return parse_choice(ctx, o, text, v, err);
	case FOPT_FLOAT_LIST:
		return parse_float_list(ctx, o, text, v, err);
	default:
		return parse_numbers(ctx, o, text, v, err);
	}
}

/* Whether v is what the option's default means. */
static bool value_is_default(const struct fopt_ctx *ctx, const struct fio_option_def *o,
			     const struct fopt_value *v)
{
	struct fopt_value d;
	bool same = true;

	if (o->type == FOPT_SOFT_DEPRECATED)
		return false;
	if (o->def) {
		struct fopt_ctx dctx = *ctx;

		/* the table's defaults are tested to parse */
		if (!fopt_value_parse(&dctx, o, o->def, &d, NULL))
			g_assert_not_reached();
	} else {
		memset(&d, 0, sizeof(d));
	}
	switch (o->type) {
	case FOPT_STR_STORE:
	case FOPT_STR_ULL:
		same = g_strcmp0(v->text, o->def) == 0;
		break;
	case FOPT_STR:
	case FOPT_STR_MULTI:
		if (!o->choices)
			same = g_strcmp0(v->text, o->def) == 0;
		else
			same = v->u[0] == d.u[0] && g_strcmp0(v->postfix, d.postfix) == 0;
		break;
	case FOPT_FLOAT_LIST:
		same = v->nf == d.nf &&
		       memcmp(v->f, d.f, v->nf * sizeof(v->f[0])) == 0;
		break;
	case FOPT_BOOL:
	case FOPT_STR_SET:
		same = !v->u[0] == !d.u[0];
		break;
	default:
		same = v->pct == d.pct && v->zone == d.zone;
		for (int i = 0; i < FIO_DDIR_COUNT; i++)
			if (v->given[i] && (v->u[i] != d.u[i] || v->hi[i] != d.hi[i]))
				same = false;
		break;
	}
	fopt_value_free(&d);
	return same;
}

static void store_dirs(void *field, size_t elem, const struct fopt_value *v,
		       const uint64_t *vals, bool perdir)
{
	for (int i = 0; i < (perdir ? FIO_DDIR_COUNT : 1); i++) {
		if (!v->given[i])
			continue;
		if (elem == sizeof(uint64_t))
			((uint64_t *)field)[i] = vals[i];
		else
			((unsigned *)field)[i] = (unsigned)vals[i];
	}
}

/* Store a parsed value into its field. */
static void value_store(struct fopt_ctx *ctx, const struct fio_option_def *o,
			const struct fopt_value *v)
{
	void *f = FIELD_PTR(ctx->o, o->off, void);
	bool perdir = o->flags & FOPT_F_PERDIR;

	switch (o->field) {
	case FIELD_NONE:
		break;
	case FIELD_BOOL:
		*(bool *)f = (v->u[0] != 0) != !!(o->flags & FOPT_F_NEG);
		break;
	case FIELD_INT:
		*(int *)f = (int)(int64_t)v->u[0];
		break;
	case FIELD_U32:
		store_dirs(f, sizeof(unsigned), v, v->u, perdir);
		break;
	case FIELD_NS:
		if (o->flags & FOPT_F_MSEC) {
			*(uint64_t *)f = v->u[0] * 1000000;
			break;
		}
		/* fall through */
	case FIELD_U64:
		store_dirs(f, sizeof(uint64_t), v, v->u, perdir);
		if ((o->flags & FOPT_F_HI) || o->type == FOPT_RANGE)
			store_dirs(FIELD_PTR(ctx->o, o->off_hi, void), sizeof(uint64_t),
				   v, v->hi, perdir);
		break;
	case FIELD_STR:
		g_free(*(char **)f);
		*(char **)f = g_strdup(v->text);
		break;
	}
}

/* The REFUSED message, with what exactly is not modelled. */
bool fopt_refuse(const struct fopt_ctx *ctx, const struct fio_option_def *o,
		   GError **err, const char *fmt, ...)
{
	g_autofree char *detail = NULL;
	va_list ap;

	if (fmt) {
		va_start(ap, fmt);
		detail = g_strdup_vprintf(fmt, ap);
		va_end(ap);
	}
	storsim_unsupported_error(err, ctx->file, ctx->line, opt_label(ctx, o),
				  "not modelled by storsim; this value would change the results%s%s%s",
				  detail ? " (" : "", detail ? detail : "", detail ? ")" : "");
	return false;
}

/* Parse and store without the support rules: defaults and modelled values. */
bool fopt_option_store(struct fopt_ctx *ctx, const struct fio_option_def *o,
			 const char *value, GError **err)
{
	struct fopt_value v;

	if (o->parse)
		return o->parse(ctx, o, value, err);
	if (!fopt_value_parse(ctx, o, value, &v, err))
		return false;
	value_store(ctx, o, &v);
	fopt_value_free(&v);
	return true;
}

bool fio_option_set(struct fopt_ctx *ctx, const struct fio_option_def *o,
		    const char *value, GError **err)
{
	struct fopt_value v;
	bool dflt;

	if (o->support == FOPT_MODELLED || o->support == FOPT_OUTPUT)
		return fopt_option_store(ctx, o, value, err);
	if (!fopt_value_parse(ctx, o, value, &v, err))
		return false;
	dflt = value_is_default(ctx, o, &v);
	fopt_value_free(&v);
	if (dflt)
		return true;
	if (o->support == FOPT_REFUSED)
		return fopt_refuse(ctx, o, err, NULL);
	g_ptr_array_add(ctx->warnings,
			 g_strdup_printf("%s:%d: option '%s' is not modelled by storsim; "
					 "ignored (it does not change the simulated results)",
					 ctx->file, ctx->line, opt_label(ctx, o)));
	return true;
}

/*
 * fio's fill_default_options(): each row's default, in table order (only
 * the engine options' when engine_only).
 */
