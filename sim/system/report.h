/*
 * The simulator's own figures for a finished run: the CPU profile (share of
 * busy CPU time by kernel stage, the simulated analogue of `perf report`),
 * per-CPU utilisation and context switches, and device counters.
 */
#ifndef STORSIM_REPORT_H
#define STORSIM_REPORT_H

#include <glib.h>
#include <json-c/json.h>

#include "system.h"

json_object *report_run_json(const struct system *sys);
/* The figures as lines of text, for storsim_text_block() (util.h). */
void report_run_text(const struct system *sys, GString *out);

#endif
