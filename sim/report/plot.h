/*
 * Plots drawn by gnuplot (Debian's gnuplot-nox): each plot is a piece of
 * gnuplot script (its data inline, as datablocks) that this module draws
 * twice, as SVG and as PNG (pngcairo), at a fixed size, in one gnuplot
 * process fed on its standard input. gnuplot's output is deterministic:
 * the same script gives the same bytes.
 */
#ifndef STORSIM_PLOT_H
#define STORSIM_PLOT_H

#include <glib.h>
#include <stdbool.h>

struct plot {
	char *name;		/* files NAME.svg and NAME.png */
	char *title;		/* for the document's caption */
	unsigned width, height;	/* pixels */
	GString *data;		/* datablocks: "$name << EOD" ... "EOD" */
	GString *body;		/* set ..., plot ... */
};

struct plot *plot_new(const char *name, const char *title, unsigned width,
		      unsigned height);
void plot_free(struct plot *p);
/* Append s to out as a gnuplot string in single quotes. */
void plot_quote(GString *out, const char *s);

/* The gnuplot program: $STORSIM_GNUPLOT, or gnuplot on the PATH. */
const char *plot_program(void);
/* Draw every plot into dir; false, with gnuplot's complaint, if it fails
 * or is not installed. */
bool plot_render(const char *dir, GPtrArray *plots, GError **err);

#endif
