/*
 * fio job files and fio-style command-line jobs, read into a list of jobs.
 *
 * The syntax is fio 3.33's (init.c:__parse_jobs_ini, parse_cmd_line): [name]
 * sections, any section whose name starts with "global" sets defaults for
 * the jobs after it, ';' and '#' comments (also at the end of a line),
 * "include FILE", ${VAR} from the environment, $ncpus, $pagesize and
 * $mb_memory followed by arithmetic, and --name=x --rw=... jobs on the
 * command line. Several job files run one after the other: the first job of
 * each later file gets an implicit stonewall, and, as in fio, a later file
 * starts from default global options.
 *
 * Command-line jobs come first, then the jobs of the files, as in fio.
 * Options given on the command line before any --name (or after
 * --name=global) are global options for the command-line jobs and the jobs
 * of the first file.
 *
 * $ncpus, $pagesize and $mb_memory are the simulated host's, given by the
 * caller in struct jobfile_env, never this machine's.
 */
#ifndef STORSIM_JOBFILE_H
#define STORSIM_JOBFILE_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "options.h"

struct jobfile_env {
	unsigned ncpus;			/* $ncpus; CPUs of the simulated host */
	uint64_t pagesize;		/* $pagesize, bytes */
	uint64_t mb_memory;		/* $mb_memory, MiB */
	/* "KEY=VALUE" strings ${KEY} is looked up in; NULL: the process's */
	const char *const *environ;
	bool no_include;		/* "include" is an error (fuzzing) */
};

/* An option as set in a section: fio's "job options" / "global options". */
struct job_opt {
	const char *name;	/* fio's name for it (not the alias written) */
	char *value;		/* after ${VAR} and $keyword expansion; "" if bare */
	const char *file;	/* job file, or "command line" */
	int line;		/* line, or position among the command-line options */
};

struct job {
	struct job_options o;
	char *section;		/* [section] name, or the --name value */
	const char *file;	/* where the section starts */
	int line;
	unsigned groupid;	/* reporting group */
	GArray *opts;		/* of struct job_opt: set in the job's own section */
	/* where each option was last set (own section, a global section or
	 * the command line), indexed by fio_option_index(); see
	 * jobopt_location() */
	struct opt_origin *origin;
};

struct job_list {
	GPtrArray *jobs;	/* of struct job *, in run order */
	GArray *global_opts;	/* of struct job_opt, from the global sections */
	GPtrArray *warnings;	/* of char *: ignored options, fio's fix-ups */
	GPtrArray *names;	/* owned file names the jobs point into */
};

/*
 * Read the jobs of cmdline_opts (fio options such as "--name=x",
 * "--rw=read", "--bs" "4k", in order; none is fine) and then of each job
 * file ("-" is standard input). On bad input, NULL and *err says
 * "FILE:LINE: option 'NAME': what is wrong" (the file of a command-line
 * option is "command line", its line its 1-based position in
 * cmdline_opts); options storsim refuses give STORSIM_ERROR_UNSUPPORTED,
 * anything else STORSIM_ERROR_INPUT.
 */
struct job_list *jobfile_parse(const struct jobfile_env *env, char **files,
			       int nfiles, char **cmdline_opts, int nopts,
			       GError **err);

/*
 * The same for one job file held in memory (len bytes, NUL bytes are an
 * error); name is used in messages and to resolve includes.
 */
struct job_list *jobfile_parse_buffer(const struct jobfile_env *env,
				      const char *name, const char *text,
				      size_t len, char **cmdline_opts, int nopts,
				      GError **err);

void job_list_free(struct job_list *l);

static inline struct job *job_list_get(const struct job_list *l, unsigned i)
{
	return g_ptr_array_index(l->jobs, i);
}

/*
 * Where option (a name or alias) was set for this job. False when it keeps
 * its default.
 */
bool jobopt_location(const struct job *job, const char *option,
		     const char **file, int *line);

#endif
