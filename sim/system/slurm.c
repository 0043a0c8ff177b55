/* Sweeps as Slurm job arrays (slurm.h), sbatch run through GSubprocess. */
#include <errno.h>
#include <gio/gio.h>
#include <string.h>

#include <glib/gstdio.h>

#include "engine/util.h"
#include "slurm.h"

static const char *sbatch_program(void)
{
	const char *p = g_getenv("STORSIM_SBATCH");

	return p && *p ? p : "sbatch";
}

bool slurm_submit(const struct slurm_job *j, char **job_id, GError **err)
{
	g_autofree char *dir = g_build_filename(j->store, "slurm", NULL);
	g_autofree char *script = g_build_filename(dir, "job.sh", NULL);
	g_autofree char *self = g_file_read_link("/proc/self/exe", err);
	g_autofree char *cwd = g_get_current_dir();
	g_autoptr(GString) s = g_string_new("#!/bin/sh\n");
	g_autoptr(GError) local = NULL;

	if (!self)
		return false;
	if (g_mkdir_with_parents(dir, 0777) != 0) {
		g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_IO, "%s: %s", dir,
			    g_strerror(errno));
		return false;
	}
	g_autofree char *log = g_build_filename(dir, "task-%a.log", NULL);
	g_string_append_printf(s, "#SBATCH --job-name=storsim-%s\n#SBATCH --output=%s\n"
			       "# Each task runs its points of the sweep into the "
			       "store (storsim sweep --slurm).\nexec", j->task_argv[0],
			       log);
	g_autofree char *qself = g_shell_quote(self);
	g_string_append_printf(s, " %s", qself);
	for (char **a = j->task_argv; *a; a++) {
		g_autofree char *q = g_shell_quote(*a);
		g_string_append_printf(s, " %s", q);
	}
	g_autofree char *res = g_strdup_printf("--results=%s", j->store);
	g_autofree char *qres = g_shell_quote(res);
	g_string_append_printf(s, " %s --eta=never --slurm-task=%u\n", qres, j->tasks);
	if (!g_file_set_contents(script, s->str, -1, &local) ||
	    g_chmod(script, 0755) != 0) {
		g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_IO, "%s: %s", script,
			    local ? local->message : g_strerror(errno));
		return false;
	}

	g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(argv, g_strdup(sbatch_program()));
	g_ptr_array_add(argv, g_strdup("--parsable"));
	g_ptr_array_add(argv, g_strdup_printf("--array=0-%u", j->tasks - 1));
	g_ptr_array_add(argv, g_strdup_printf("--chdir=%s", cwd));
	if (j->wait)
		g_ptr_array_add(argv, g_strdup("--wait"));
	for (char **a = j->sbatch_args; a && *a; a++)
		g_ptr_array_add(argv, g_strdup(*a));
	g_ptr_array_add(argv, g_strdup(script));
	g_ptr_array_add(argv, NULL);
	GSubprocess *proc = g_subprocess_newv((const char *const *)argv->pdata,
					      G_SUBPROCESS_FLAGS_STDOUT_PIPE |
					      G_SUBPROCESS_FLAGS_STDERR_PIPE, &local);
	if (!proc) {
		g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_EXTERNAL,
			    "cannot run %s (%s): is Slurm's client installed?",
			    sbatch_program(), local->message);
		return false;
	}
	g_autofree char *out = NULL, *errtext = NULL;
	bool ok = g_subprocess_communicate_utf8(proc, NULL, NULL, &out, &errtext, &local);
	if (ok && (!g_subprocess_get_if_exited(proc) ||
		   g_subprocess_get_exit_status(proc) != 0)) {
		g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_EXTERNAL,
			    "%s failed: %s", sbatch_program(),
			    errtext ? g_strstrip(errtext) : "no message");
		ok = false;
	} else if (!ok) {
		g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_EXTERNAL, "%s: %s",
			    sbatch_program(), local->message);
	}
	g_object_unref(proc);
	if (ok) {
		/* --parsable: "JOBID" or "JOBID;CLUSTER", then any --wait lines */
		g_auto(GStrv) lines = g_strsplit(out ? out : "", "\n", 2);
		*job_id = g_strdup(g_strstrip(lines[0]));
	}
	return ok;
}

bool slurm_task_index(unsigned tasks, unsigned *index, GError **err)
{
	const char *v = g_getenv("SLURM_ARRAY_TASK_ID");
	char *end;
	guint64 k = v ? g_ascii_strtoull(v, &end, 10) : 0;

	if (!v || !*v || *end || k >= tasks) {
		storsim_input_error(err, "command line", 0, "--slurm-task",
				    "$SLURM_ARRAY_TASK_ID is %s%s%s: this is for "
				    "the tasks of a job array that storsim sweep "
				    "--slurm submits", v ? "'" : "not set",
				    v ? v : "", v ? "'" : "");
		return false;
	}
	*index = (unsigned)k;
	return true;
}
