/*
 * Completion strategies: named bundles of what it takes to complete I/O
 * one way (kernel switches, model parameters, fio options, ${VAR}s of the
 * job file), declared as data so that `storsim compare` can run a
 * workload under each and a user can add their own.
 *
 * A strategies file (traces/strategies.json, any strategies.json of
 * $STORSIM_TRACES_PATH, or one given with --strategy-file) is
 *   {"strategies": [{"name": "polled", "describe": "...",
 *                    "fio": ["hipri=1"], "kernel": ["FEATURE=VALUE"],
 *                    "sets": ["MODEL.PARAM=VALUE"], "env": ["VAR=VALUE"]},
 *                   ...]}
 * A later file's strategy of the same name replaces an earlier one's.
 */
#ifndef STORSIM_STRATEGY_H
#define STORSIM_STRATEGY_H

#include <glib.h>

#include "system.h"

struct strategy {
	char *name, *describe;
	char *file;		/* where it was declared */
	int line;
	GPtrArray *fio;		/* char *: "NAME=VALUE" fio options */
	GPtrArray *kernel;	/* char *: "FEATURE=VALUE" */
	GPtrArray *sets;	/* char *: "MODEL.PARAM=VALUE" */
	GPtrArray *env;		/* char *: "VAR=VALUE" */
};

/* The strategies of the traces directories' strategies.json (the first
 * that has one), then of each of files, in order; checked against the
 * system c (its kernel features, models and devices). */
GPtrArray *strategies_load(char **files, const struct system_config *c,
			   GError **err);
const struct strategy *strategy_find(GPtrArray *strategies, const char *name);
/* The names of every strategy, comma-separated, for messages. */
char *strategies_names(GPtrArray *strategies);

#endif
