/*
 * Reports of result stores (store.h): `storsim report`, and the --report
 * of sweep, compare and reproduce.
 *
 * From the stores' documents alone, into one directory:
 *   report.md     Markdown: what was run, the tables, the plots by name
 *   report.html   the same as one self-contained page (its plots inline
 *                 as SVG data, its style inline: nothing to fetch)
 *   *.csv         the tables: points.csv (one row per point: figures,
 *                 status, reason), cpu-by-stage.csv (CPU ns per I/O of
 *                 every stage), latency-by-layer.csv (us per I/O)
 *   *.svg, *.png  the plots, drawn by gnuplot (plot.h): IOPS and
 *                 bandwidth against the x variable (the queue depth when
 *                 there is one) per series (the other variables: the
 *                 strategy), mean, p50, p99 and p99.9 completion latency,
 *                 context switches per I/O, and stacked bars of CPU time
 *                 per I/O by stage and of latency by layer
 * A reproduce store has, instead, per experiment the published and the
 * simulated values side by side (table and plot) and its mechanism row's
 * CPU time by stage per variant.
 * Points that were refused are listed with their reason ("not modelled:
 * why"); points without a document yet (a sweep still running) as such.
 */
#ifndef STORSIM_RESULTS_REPORT_H
#define STORSIM_RESULTS_REPORT_H

#include <glib.h>
#include <stdbool.h>

/*
 * Report the stores dirs (NULL-terminated; each a store, or a directory
 * whose subdirectories are stores, as reproduce --results writes) into
 * outdir (made if missing).
 */
bool results_report_write(char **dirs, const char *outdir, GError **err);

#endif
