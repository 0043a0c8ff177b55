
/*
 * fio's job options: value parsing, the table of every fio 3.33 option,
 * defaults, fio's fix-ups once a job is complete, and --cmdhelp.
 *
 * Stands for fio 3.33's parse.c (value syntax: units, kb_base, ranges,
 * per-direction lists, arithmetic), options.c and the option tables of
 * engines/<engine>.c, and init.c:fixup_options(). The table carries fio's
 * facts (names, aliases, types, defaults, ranges, allowed values, owning
 * engines); the help lines, the support status and all code are storsim's.
 *
 * Units: sizes in bytes, times in nanoseconds, rates in bytes or I/Os per
 * second, percentages as integers 0..100. kb_base (1024 or 1000) is the
 * multiplier of k/m/g/t/p; kib/mib/gib/tib/pib use the other one, as fio.
 *
 * Files: options_parse.c (the value parser), options_table.c (the table
 * and the options with a syntax of their own), options_finish.c (defaults
 * and the fix-ups of a complete job), this file (directions, names and
 * --cmdhelp); options_impl.h is what they share.
 *
 * Sources: github.com/axboe/fio at tag fio-3.33 (parse.c, options.c,
 * init.c, exp/expression-parser.l and .y, engines/), its HOWTO.rst, and
 * reference/fio-formats.md sections 1.1 to 1.4.
 */

#include "options_impl.h"

G_STATIC_ASSERT(sizeof(enum fio_rw) == sizeof(int));
G_STATIC_ASSERT(sizeof(enum fio_ioengine) == sizeof(int));

bool fio_rw_random(enum fio_rw rw)
{
	switch (rw) {
	case FIO_RW_RANDREAD:
	case FIO_RW_RANDWRITE:
	case FIO_RW_RANDTRIM:
	case FIO_RW_RANDRW:
	case FIO_RW_RANDTRIMWRITE:
		return true;
	default:
		return false;
	}
}

bool fio_rw_does(enum fio_rw rw, enum fio_ddir d)
{
	switch (rw) {
	case FIO_RW_READ:
	case FIO_RW_RANDREAD:
		return d == FIO_DDIR_READ;
	case FIO_RW_WRITE:
	case FIO_RW_RANDWRITE:
		return d == FIO_DDIR_WRITE;
	case FIO_RW_TRIM:
	case FIO_RW_RANDTRIM:
		return d == FIO_DDIR_TRIM;
	case FIO_RW_RW:
	case FIO_RW_RANDRW:
		return d == FIO_DDIR_READ || d == FIO_DDIR_WRITE;
	case FIO_RW_TRIMWRITE:
	case FIO_RW_RANDTRIMWRITE:
		return d == FIO_DDIR_TRIM || d == FIO_DDIR_WRITE;
	}
	return false;
}

/* ------------------------------------------------------------------ */
/* Help                                                                */

static void print_choices(GString *out, const struct fio_option_def *o)
{
	for (const struct fio_choice *c = o->choices; c && c->name; c++)
		g_string_append_printf(out, "%20s: %-14s%s\n",
				       c == o->choices ? "valid values" : "", c->name,
				       c->help ? c->help : "");
}

static void print_details(GString *out, const struct fio_option_def *o)
{
	g_string_append_printf(out, "%20s: %s\n", o->name, o->help);
	if (o->alias)
		g_string_append_printf(out, "%20s: %s\n", "alias", o->alias);
	g_string_append_printf(out, "%20s: %s\n", "type", fio_opt_type_name(o->type));
	g_string_append_printf(out, "%20s: %s\n", "default", o->def ? o->def : "no default");
	if (o->min || o->max) {
		g_string_append_printf(out, "%20s: min=%" PRId64, "range", o->min);
		if (o->max)
			g_string_append_printf(out, ", max=%" PRId64, o->max);
		g_string_append_c(out, '\n');
	}
	print_choices(out, o);
	if (o->engines)
		g_string_append_printf(out, "%20s: %s\n", "engines", o->engines);
	g_string_append_printf(out, "%20s: %s\n", "storsim support",
			       fio_opt_support_name(o->support));
}

bool fio_options_print_help(GString *out, const char *name)
{
	const struct fio_option_def *o;
	const char *closest;

	if (!name || strcmp(name, "all") == 0) {
		for (o = fio_option_defs; o->name; o++)
			g_string_append_printf(out, "%-24s: %s\n", o->name, o->help);
		return true;
	}
	o = fio_option_find(name);
	if (o) {
		print_details(out, o);
		return true;
	}
	g_string_append_printf(out, "No such option: %s\n", name);
	closest = fio_option_closest(name);
	if (closest) {
		g_string_append(out, "Closest match:\n");
		print_details(out, fio_option_find(closest));
	}
	return false;
}

static void md_cell(GString *out, const char *s)
{
	g_string_append(out, " ");
	for (; s && *s; s++) {
		if (*s == '|')
			g_string_append(out, "\\|");
		else
			g_string_append_c(out, *s);
	}
	g_string_append(out, " |");
}

void fio_options_print_markdown(GString *out)
{
	g_string_append(out, "| option | alias | type | default | engines | storsim | meaning |\n"
			     "|---|---|---|---|---|---|---|\n");
	for (const struct fio_option_def *o = fio_option_defs; o->name; o++) {
		g_autofree char *name = g_strdup_printf("`%s`", o->name);
		g_autofree char *alias = o->alias ? g_strdup_printf("`%s`", o->alias) : NULL;
		g_autofree char *def = o->def ? g_strdup_printf("`%s`", o->def) : NULL;

		g_string_append(out, "|");
		md_cell(out, name);
		md_cell(out, alias);
		md_cell(out, fio_opt_type_name(o->type));
		md_cell(out, def);
		md_cell(out, o->engines);
		md_cell(out, fio_opt_support_name(o->support));
		md_cell(out, o->help);
		g_string_append_c(out, '\n');
	}
}

const char *fio_rw_name(enum fio_rw rw)
{
	for (const struct fio_choice *c = fio_rw_choices; c->name; c++)
		if (c->value == (int)rw)
			return c->name;
	return "unknown";
}
