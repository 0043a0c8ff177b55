/*
 * Running a sweep's points: every one that the result store does not hold
 * finished yet, in this process one after the other, or in up to N worker
 * processes at once, each `storsim COMMAND ARGS... --results DIR
 * --point=I`, which builds the same grid and runs its point I into the
 * store. Either way the caller gets every point's document, in the grid's
 * order, read back as the store has it: the tables made of them are the
 * same bytes whatever N is and whether a point ran now or earlier.
 *
 * One progress line (--eta) counts the points done and failed, the wall
 * time spent and an estimate of the time left.
 */
#ifndef STORSIM_RUNNER_H
#define STORSIM_RUNNER_H

#include <glib.h>
#include <json-c/json.h>

#include "engine/progress.h"
#include "point.h"
#include "store.h"

struct runner {
	const char *what;	/* "storsim sweep": starts the progress line */
	unsigned jobs;		/* worker processes; 1: this process */
	bool force;		/* run points again that the store holds */
	enum progress_when when;
	/* The command a worker runs (the program, the command's name and
	 * its arguments), to which the runner adds --results, --eta and
	 * --point; NULL-terminated. */
	char **worker_argv;
	struct store *store;	/* NULL: no store, and jobs is 1 */
	json_object *command;	/* the documents' "command" without a store */
};

/* The -j option: how many points to run at once (default: the CPUs). */
#define RUNNER_JOBS_HELP "Run N points at once, in worker processes (default: the number of CPUs)"
unsigned runner_default_jobs(void);
/* A copy of argv with "-j4" split into "-j" "4", as GOption wants it. */
char **runner_split_jobs(int *argc, char **argv);

/*
 * Fill *docs with every point's document, in order. A point that is
 * refused or fails is a document too; false only when the store cannot
 * be written or a worker cannot be started.
 */
bool runner_run(const struct runner *r, GPtrArray *points, GPtrArray **docs,
		GError **err);

/* A worker's part: run p and write its document into s. */
bool runner_run_point(struct store *s, const struct point *p, GError **err);

/* The documents' count of each status, for the caller's summary. */
void runner_count(GPtrArray *docs, unsigned *done, unsigned *refused,
		  unsigned *failed);

#endif
