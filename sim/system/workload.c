/* Running workloads and collecting their figures. */
#include <string.h>

#include "workloads/fio/fio.h"
#include "workloads/fio/output.h"
#include "syscalls/io_wq.h"
#include "fs/pagecache.h"
#include "engine/util.h"
#include "report.h"
#include "workload.h"
#include "cli/cli.h"

void run_metrics_clear(struct run_metrics *m)
{
	if (m->output)
		g_string_free(m->output, TRUE);
	if (m->job_errors)
		g_string_free(m->job_errors, TRUE);
	if (m->report)
		json_object_put(m->report);
	*m = (struct run_metrics){0};
}

static double ns_to_s(sim_time ns)
{
	return (double)ns / SIM_SEC;
}

static double share(sim_time ns, sim_time of)
{
	return of ? (double)ns / (double)of : 0;
}

static double result_iops(const struct run_metrics *m) { return m->iops; }
static double result_bw(const struct run_metrics *m) { return m->bw_bytes; }
static double result_elapsed(const struct run_metrics *m)
{
	return ns_to_s(m->app_elapsed);
}
static double result_usr(const struct run_metrics *m) { return ns_to_s(m->app_usr_ns); }
static double result_sys(const struct run_metrics *m) { return ns_to_s(m->app_sys_ns); }
static double result_app_cpu(const struct run_metrics *m)
{
	return share(m->app_usr_ns + m->app_sys_ns, m->app_elapsed);
}
static double result_worker_cpu(const struct run_metrics *m)
{
	return share(m->worker_ns, m->app_elapsed);
}
static double result_wa(const struct run_metrics *m)
{
	return m->app_bytes ? (double)(m->dev_bytes[0] + m->dev_bytes[1]) /
			      (double)m->app_bytes : 0;
}

static const struct {
	const char *name;
	double (*get)(const struct run_metrics *m);
} results[] = {
	{"iops", result_iops},
	{"bw", result_bw},
	{"elapsed_s", result_elapsed},
	{"usr_s", result_usr},
	{"sys_s", result_sys},
	{"app_cpu", result_app_cpu},
	{"worker_cpu", result_worker_cpu},
	{"write_amplification", result_wa},
};

bool run_metrics_result(const struct run_metrics *m, const char *name,
			double *value)
{
	for (unsigned i = 0; i < G_N_ELEMENTS(results); i++)
		if (strcmp(results[i].name, name) == 0) {
			if (m)
				*value = results[i].get(m);
			return true;
		}
	return false;
}

const char *run_metrics_result_names(void)
{
	static char names[256];

	if (!names[0])
		for (unsigned i = 0; i < G_N_ELEMENTS(results); i++)
			g_strlcat(names, i ? ", " : "", sizeof(names)),
			g_strlcat(names, results[i].name, sizeof(names));
	return names;
}

void run_metrics_collect(struct run_metrics *m, struct system *sys,
			 uint64_t ios)
{
	struct host *h = sys->host;
	sim_time elapsed = sim_now(&sys->sim);
	struct task_usage wu;

	m->ios = ios;
	m->elapsed = elapsed;
	m->ncpus = host_ncpus(h);
	memcpy(m->stage_ns, host_stage_ns(h), sizeof(m->stage_ns));
	memcpy(m->stage_calls, host_stage_count(h), sizeof(m->stage_calls));
	for (unsigned i = 0; i < m->ncpus; i++) {
		struct cpu_usage u;
		sim_time busy = 0;
		cpu_usage(host_cpu(h, i), &u);
		for (int c = 0; c < CPU_CLASS_NR; c++) {
			m->class_ns[c] += u.class_ns[c];
			busy += u.class_ns[c];
		}
		m->ctx_switches += u.ctx_switches;
		m->idle_exits += u.idle_exits;
		double util = elapsed ? (double)busy / (double)elapsed : 0;
		if (util > m->busiest_cpu_util)
			m->busiest_cpu_util = util;
		if (util > 0.01)
			m->busy_cpus++;
	}
	host_tasks_usage(h, IO_WQ_WORKER_PREFIX, &wu, &m->workers);
	m->worker_ns = wu.usr_ns + wu.sys_ns;
	for (unsigned i = 0; i < sys->devices->len; i++) {
		struct system_device *d = sys->devices->pdata[i];
		struct blk_disk_stats st;
		blk_queue_disk_stats(d->q, &st);
		m->dev_bytes[0] += st.sectors[0] * 512;
		m->dev_bytes[1] += st.sectors[1] * 512;
	}
	if (sys->pc) {
		struct pagecache_stats ps;
		pagecache_get_stats(sys->pc, &ps);
		m->pc_hits = ps.hits;
		m->pc_misses = ps.misses;
	}
	if (!m->app_elapsed)
		m->app_elapsed = elapsed;
}

/*
 * t/io_uring takes its options getopt-style, value attached ("-p0", "-d128");
 * GOption wants them apart. Split the attached form of t/io_uring's letters.
 */
static GPtrArray *split_attached(int argc, char **argv)
{
	GPtrArray *a = g_ptr_array_new_with_free_func(g_free);

	for (int i = 0; i < argc; i++) {
		const char *s = argv[i];
		if (i > 0 && s[0] == '-' && s[1] && strchr("dscbpBFnOrRu", s[1]) &&
		    s[2]) {
			g_ptr_array_add(a, g_strndup(s, 2));
			g_ptr_array_add(a, g_strdup(s + 2));
		} else {
			g_ptr_array_add(a, g_strdup(s));
		}
	}
	g_ptr_array_add(a, NULL);
	return a;
}

bool uring_bench_parse(int *argc, char ***argv, struct t_io_uring_opts *o,
		       struct system_config *cfg, char ***files, GError **err)
{
	gint d, s, c, b, p, B, F, n, O, r, R, u;
	g_autoptr(GPtrArray) split = split_attached(*argc, *argv);
	int sargc = (int)split->len - 1;
	/* GOption reorders the array it parses: give it a copy of the
	 * pointers so that split still owns every string. */
	g_autofree char **sargv_mem = g_memdup2(split->pdata,
						split->len * sizeof(char *));
	char **sargv = sargv_mem;

	t_io_uring_opts_default(o);
	d = (gint)o->depth; s = (gint)o->batch_submit; c = (gint)o->batch_complete;
	b = (gint)o->bs; p = o->polled; B = o->fixedbufs; F = o->register_files;
	n = (gint)o->nthreads; O = o->odirect; r = (gint)o->runtime;
	R = o->random_io;
	u = o->passthrough;
	const GOptionEntry entries[] = {
		{"depth", 'd', 0, G_OPTION_ARG_INT, &d, "I/O depth (128)", "N"},
		{"submit", 's', 0, G_OPTION_ARG_INT, &s, "Batch submit (32)", "N"},
		{"complete", 'c', 0, G_OPTION_ARG_INT, &c, "Batch complete (32)", "N"},
		{"bs", 'b', 0, G_OPTION_ARG_INT, &b, "Block size in bytes (4096)", "N"},
		{"polled", 'p', 0, G_OPTION_ARG_INT, &p, "Polled I/O (1)", "0|1"},
		{"fixedbufs", 'B', 0, G_OPTION_ARG_INT, &B, "Fixed buffers (1)", "0|1"},
		{"register-files", 'F', 0, G_OPTION_ARG_INT, &F,
		 "Registered files (1)", "0|1"},
		{"threads", 'n', 0, G_OPTION_ARG_INT, &n, "Submitter threads (1)", "N"},
		{"odirect", 'O', 0, G_OPTION_ARG_INT, &O, "O_DIRECT (1)", "0|1"},
		{"runtime", 'r', 0, G_OPTION_ARG_INT, &r,
		 "Runtime in simulated seconds (required)", "S"},
		{"random", 'R', 0, G_OPTION_ARG_INT, &R, "Random I/O (1)", "0|1"},
		{"passthrough", 'u', 0, G_OPTION_ARG_INT, &u,
		 "NVMe passthrough: io_uring commands on /dev/ngXnY (0)", "0|1"},
		{G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, files, NULL,
		 "[--] FILE..."},
		{NULL},
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new(NULL);

	g_option_context_set_summary(ctx,
		"Run fio's t/io_uring benchmark on the simulated system and print\n"
		"its output lines. Options take t/io_uring's letters.");
	g_option_context_add_main_entries(ctx, entries, NULL);
	system_config_add_options(cfg, ctx);
	if (!cli_parse(ctx, &sargc, &sargv, err))
		return false;
	if (d <= 0 || s < 0 || c < 0 || b <= 0 || n <= 0 || r < 0) {
		storsim_input_error(err, "command line", 0,
				    d <= 0 ? "-d" : s < 0 ? "-s" : c < 0 ? "-c" :
				    b <= 0 ? "-b" : n <= 0 ? "-n" : "-r",
				    "must be a positive number");
		return false;
	}
	if (cfg->power_loss) {
		storsim_unsupported_error(err, "command line", 0, "power-loss",
					  "t/io_uring only reads, so a power loss has "
					  "no acknowledged write to check; run a write "
					  "job with storsim run --power-loss");
		return false;
	}
	o->depth = (unsigned)d;
	o->batch_submit = s ? (unsigned)s : 1;
	o->batch_complete = c ? (unsigned)c : 1;
	o->bs = (unsigned)b;
	o->polled = p;
	o->fixedbufs = B;
	o->register_files = F;
	o->nthreads = (unsigned)n;
	o->odirect = O;
	o->runtime = (unsigned)r;
	o->random_io = R;
	o->passthrough = u;
	return true;
}

bool workload_runtime_check(const char *kind, unsigned runtime, GError **err)
{
	/* t/io_uring prints IOPS at the end of each second but the first, and
	 * the result is their mean: a shorter run has none to give. */
	if (strcmp(kind, "uring-bench") == 0 && runtime < 2) {
		storsim_input_error(err, "command line", 0, "runtime",
				    "%u s is too short for t/io_uring, which reports "
				    "IOPS once a second and not for the first second; "
				    "give it 2 s or more", runtime);
		return false;
	}
	return true;
}

/* Put copies of from's strings before to's. */
static void prepend(GPtrArray *to, const GPtrArray *from)
{
	for (unsigned i = 0; i < from->len; i++)
		g_ptr_array_insert(to, (gint)i, g_strdup(from->pdata[i]));
}

bool workload_uring_bench(const struct system_config *base, int argc,
			  char **argv, struct run_metrics *m, GError **err)
{
	struct t_io_uring_opts o;
	struct system_config cfg;
	g_auto(GStrv) files = NULL;
	g_auto(GStrv) args = g_new0(char *, argc + 1);
	struct system *sys = NULL;
	struct t_io_uring *t = NULL;
	bool ok = false;

	for (int i = 0; i < argc; i++)
		args[i] = g_strdup(argv[i]);
	char **pargs = args;
	system_config_init(&cfg);
	if (!uring_bench_parse(&argc, &pargs, &o, &cfg, &files, err))
		goto out;
	/* The experiment's system, then whatever the arguments add. */
	g_free(cfg.host);
	cfg.host = g_strdup(base->host);
	cfg.seed = base->seed;
	if (base->timeline) {
		g_free(cfg.timeline);
		g_free(cfg.timeline_window);
		cfg.timeline = g_strdup(base->timeline);
		cfg.timeline_window = g_strdup(base->timeline_window);
	}
	prepend(cfg.devices, base->devices);
	prepend(cfg.mounts, base->mounts);
	prepend(cfg.files, base->files);
	prepend(cfg.sets, base->sets);
	prepend(cfg.kernel, base->kernel);

	sys = system_new(&cfg, err);
	if (!sys)
		goto out;
	struct workload_env env;
	system_env(sys, "t_io_uring", &env);
	t = t_io_uring_new(&env, &o, files,
			   files ? (int)g_strv_length(files) : 0, err);
	if (!t)
		goto out;
	m->output = g_string_new(NULL);
	if (m->trace_layers)
		t_io_uring_trace_layers(t);
	t_io_uring_run(t, m->output);
	t_io_uring_layers(t, &m->layers);
	struct t_io_uring_result r;
	t_io_uring_result(t, &r);
	m->iops = r.iops_mean;
	m->bw_bytes = r.iops_mean * o.bs;
	run_metrics_collect(m, sys, r.done);
	if (m->want_report) {
		m->report = json_object_new_object();
		json_object_object_add(m->report, "output",
				       json_object_new_string(m->output->str));
		json_object_object_add(m->report, "storsim", report_run_json(sys));
	}
	ok = system_timeline_write(sys, err);
out:
	t_io_uring_free(t);
	system_free(sys);
	system_config_clear(&cfg);
	return ok;
}

bool workload_fio(const struct system_config *cfg, const char *jobfile,
		  char **env, struct run_metrics *m, GError **err)
{
	struct system *sys = system_new(cfg, err);
	struct job_list *jl = NULL;
	struct fio_run *run = NULL;
	bool ok = false;

	if (!sys)
		return false;
	g_auto(GStrv) environ = g_get_environ();
	for (char **e = env; e && *e; e++) {
		g_auto(GStrv) kv = g_strsplit(*e, "=", 2);
		environ = g_environ_setenv(environ, kv[0], kv[1] ? kv[1] : "", TRUE);
	}
	struct jobfile_env je = {
		.ncpus = host_ncpus(sys->host),
		.pagesize = sys->sp.cpu.page_size,
		.mb_memory = sys->sp.cpu.mem_mb,
		.environ = (const char *const *)environ,
	};
	char *files[] = {(char *)jobfile};
	int nopts = m->fio_opts ? (int)g_strv_length(m->fio_opts) : 0;
	jl = jobfile_parse(&je, files, 1, m->fio_opts, nopts, err);
	if (!jl)
		goto out;
	struct workload_env we;
	system_env(sys, "fio", &we);
	run = fio_run_new(&we, jl, err);
	/* Reproduce and sweep print the layers' means only. */
	if (run && m->trace_layers)
		fio_run_trace_layers(run, false);
	if (!run || !fio_run_exec(run, err))
		goto out;
	fio_run_layers(run, &m->layers);
	uint64_t ios;
	struct task_usage app;
	fio_run_totals(run, &ios, &m->iops, &m->bw_bytes);
	fio_run_process(run, &m->app_elapsed, &m->app_bytes, &app);
	static const double pct[] = {50.0, 99.0, 99.9};
	uint64_t pct_ns[G_N_ELEMENTS(pct)];
	fio_run_clat(run, &m->clat_mean_ns, pct, G_N_ELEMENTS(pct), pct_ns);
	m->clat_p50_ns = pct_ns[0];
	m->clat_p99_ns = pct_ns[1];
	m->clat_p999_ns = pct_ns[2];
	m->app_usr_ns = app.usr_ns;
	m->app_sys_ns = app.sys_ns;
	m->app_ctx = app.nvcsw + app.nivcsw;
	run_metrics_collect(m, sys, ios);
	m->power_lost = system_power_lost(sys);
	GString *failed = g_string_new(NULL);
	if (fio_run_failed(run, failed))
		m->job_errors = failed;
	else
		g_string_free(failed, TRUE);
	if (m->want_report) {
		struct output_run out = *fio_run_output(run);
		g_autoptr(GString) text = g_string_new(NULL);
		json_object *extra = report_run_json(sys);
		system_durability_report(sys, text, extra,
					 &m->durability_violations);
		out.json_extra = extra;
		m->report = output_json(&out, false);
		json_object_put(extra);
	} else if (m->power_lost) {
		g_autoptr(GString) text = g_string_new(NULL);
		system_durability_report(sys, text, NULL, &m->durability_violations);
	}
	ok = system_timeline_write(sys, err);
out:
	fio_run_free(run);
	if (jl)
		job_list_free(jl);
	system_free(sys);
	return ok;
}
