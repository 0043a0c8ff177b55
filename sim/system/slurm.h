/*
 * Sweeps on a Slurm cluster: the grid submitted as one job array (sbatch
 * --array=0-(N-1)), whose task K runs the points I with I mod N = K that
 * the shared result store does not hold yet, into that store: `storsim
 * COMMAND ARGS... --results DIR --slurm-task=N`, reading K from
 * $SLURM_ARRAY_TASK_ID. Slurm does the scheduling across machines; storsim
 * only writes the batch script (DIR/slurm/job.sh, each task's log beside
 * it) and hands it to sbatch ($STORSIM_SBATCH, or sbatch on the PATH).
 *
 * What a cluster needs: the storsim binary at the same path on every
 * node that runs tasks (this one's, as /proc/self/exe names it), the job
 * file and the store on a file system the nodes share, at the same paths.
 */
#ifndef STORSIM_SLURM_H
#define STORSIM_SLURM_H

#include <glib.h>
#include <stdbool.h>

struct slurm_job {
	const char *store;	/* the result store, an absolute path */
	char **task_argv;	/* the command's name and arguments */
	unsigned tasks;		/* array tasks */
	char **sbatch_args;	/* more options for sbatch, or NULL */
	bool wait;		/* sbatch --wait: return when the job has ended */
};

/* Write the batch script and submit it; *job_id: what sbatch answered. */
bool slurm_submit(const struct slurm_job *j, char **job_id, GError **err);
/* This task's index, from $SLURM_ARRAY_TASK_ID, below tasks. */
bool slurm_task_index(unsigned tasks, unsigned *index, GError **err);

#endif
