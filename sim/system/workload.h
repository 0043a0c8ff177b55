/*
 * Running one workload on one simulated system and collecting the figures
 * a report needs: the workload's own result (IOPS, bandwidth) and the
 * mechanism behind it (CPU time per I/O by stage, context switches,
 * utilisation).
 */
#ifndef STORSIM_WORKLOAD_H
#define STORSIM_WORKLOAD_H

#include <glib.h>

#include <json-c/json.h>

#include "engine/io_trace.h"
#include "engine/stage.h"
#include "system.h"

struct run_metrics {
	/* Asked of the workload: its I/Os' latency by layer (io_trace.h),
	 * at about 5% of the run's speed. */
	bool trace_layers;
	/* Asked of a fio workload: fio options as given on fio's command
	 * line before the job file ("--iodepth=4"), NULL-terminated. */
	char **fio_opts;
	/* Asked of the workload: its own report, as JSON (fio's JSON
	 * document with storsim's figures under "storsim"; for t/io_uring
	 * {"output": its text, "storsim": ...}), into report. */
	bool want_report;
	json_object *report;
	struct io_layers layers;	/* every job's I/Os, all directions */
	double iops;
	double bw_bytes;	/* bytes per second */
	uint64_t ios;		/* I/Os the per-I/O figures divide by */
	sim_time elapsed;
	/* the workload process, as time(1) sees it */
	sim_time app_elapsed;
	sim_time app_usr_ns, app_sys_ns;
	uint64_t app_ctx;	/* its context switches, voluntary or not */
	uint64_t app_bytes;	/* read and written by the application */
	/* io-wq workers (kernel threads, not the process's time) */
	unsigned workers;
	sim_time worker_ns;
	uint64_t dev_bytes[2];	/* read, written by the devices */
	uint64_t pc_hits, pc_misses;	/* page-cache lookups */
	double clat_mean_ns;		/* fio workloads: all jobs' I/Os */
	uint64_t clat_p50_ns, clat_p99_ns, clat_p999_ns;
	uint64_t idle_exits;
	unsigned ncpus;
	sim_time stage_ns[STAGE_MAX];
	uint64_t stage_calls[STAGE_MAX];
	sim_time class_ns[CPU_CLASS_NR];	/* all CPUs */
	double busiest_cpu_util;	/* busy fraction of the busiest CPU */
	unsigned busy_cpus;		/* CPUs busy more than 1% of the time */
	uint64_t ctx_switches;
	/* --power-loss: whether a device lost power, and the writes
	 * acknowledged as durable that did not survive */
	bool power_lost;
	uint64_t durability_violations;
	GString *job_errors;	/* fio: a line per job that failed, or NULL */
	GString *output;	/* what the workload printed */
};

void run_metrics_clear(struct run_metrics *m);

/* A figure of a run by name ("iops", "bw", "elapsed_s", "usr_s", "sys_s",
 * "app_cpu", "worker_cpu", "write_amplification"); false if unknown. */
bool run_metrics_result(const struct run_metrics *m, const char *name,
			double *value);
/* The names run_metrics_result() knows, for messages. */
const char *run_metrics_result_names(void);

/* Whether a workload of kind ("uring-bench" or "fio") run for runtime
 * seconds gives a result to report; if not, err says why. */
bool workload_runtime_check(const char *kind, unsigned runtime, GError **err);

/* t/io_uring with its command-line arguments (argv[0] is the command name). */
bool workload_uring_bench(const struct system_config *cfg, int argc, char **argv,
			  struct run_metrics *m, GError **err);

/* A fio job file run with extra environment ("KEY=VALUE", for ${KEY} in
 * the file). */
bool workload_fio(const struct system_config *cfg, const char *jobfile,
		  char **env, struct run_metrics *m, GError **err);

/* Parse t/io_uring arguments plus system options into o, cfg and files. */
bool uring_bench_parse(int *argc, char ***argv, struct t_io_uring_opts *o,
		       struct system_config *cfg, char ***files, GError **err);

/* Fill the mechanism figures of m from a finished system. */
void run_metrics_collect(struct run_metrics *m, struct system *sys,
			 uint64_t ios);

#endif
