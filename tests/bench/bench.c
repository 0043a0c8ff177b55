/*
 * storsim's benchmark: how fast the engine and the published workloads run
 * on this machine, how long the simulator takes to start and how much
 * memory it holds (docs/benchmarks.md says what each figure means).
 *
 *   event queue  the hold model (pop the earliest event, push one at its
 *                time plus a random increment) with a fixed number of
 *                pending events, three ways: the engine's evq, a
 *                plain binary heap written here as the yardstick, and
 *                sim_run() delivering to a component that reschedules
 *                itself (queue plus dispatch)
 *   runs         simulated I/Os per wall second and events per simulated
 *                I/O of the published workloads, run through the same
 *                workload_*() calls and experiment files as
 *                storsim reproduce, and of a fio null-engine job
 *   fio          the yardstick: real fio (fio on PATH) running the same
 *                null-engine job file, for a figure of this machine's speed
 *                today that the simulated rates can be read against
 *   start-up     wall time from process start to the first event of the
 *                dio-caller-comp workload, and of storsim --version
 *
 * Every part reports the peak resident memory (VmHWM) it reached.
 *
 * The events of a run are counted, and its first workload event is seen,
 * through sim_run_observer: the workload calls build and free their system
 * inside, so nothing else can see it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <glib.h>
#include <glib/gstdio.h>
#include <json-c/json.h>

#include "config.h"
#include "system/experiment.h"
#include "engine/sim.h"
#include "system/workload.h"

#define MIB 1048576.0

static struct {
	char *parts;
	double evq_seconds;
	int evq_reps;
	char *evq_sizes;
	int runtime;
	int run_reps;
	int startup_reps;
	char *storsim;
	char *json;
	gboolean startup_child;
} opt = {
	.evq_seconds = 0.5,
	.evq_reps = 3,
	.run_reps = 3,
	.startup_reps = 5,
};

/* ---- wall and CPU clocks, memory ---- */

static double wall_s(void)
{
	return (double)g_get_monotonic_time() / 1e6;
}

static double cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Whether clear_refs could reset VmHWM, so that each part's peak is its own
 * rather than the highest of every part so far. */
static bool hwm_per_part = true;

static void peak_reset(void)
{
	FILE *f;

#ifdef __GLIBC__
	/* Memory a part before freed but malloc kept would count as this
	 * part's: give it back first. */
	malloc_trim(0);
#endif
	f = fopen("/proc/self/clear_refs", "w");

	if (!f || fputs("5", f) == EOF)
		hwm_per_part = false;
	if (f && fclose(f) != 0)
		hwm_per_part = false;
}

/* VmHWM in KiB, or -1 where /proc does not say. */
static long peak_kib(void)
{
	g_autofree char *status = NULL;
	const char *p;

	if (!g_file_get_contents("/proc/self/status", &status, NULL, NULL))
		return -1;
	p = strstr(status, "\nVmHWM:");
	return p ? strtol(p + 7, NULL, 10) : -1;
}

static char *cpu_model(void)
{
	g_autofree char *info = NULL;
	const char *p;

	if (!g_file_get_contents("/proc/cpuinfo", &info, NULL, NULL) ||
	    !(p = strstr(info, "model name")) || !(p = strchr(p, ':')))
		return g_strdup("unknown");
	p += strspn(p, ": \t");
	return g_strndup(p, strcspn(p, "\n"));
}

/* Wall-time figures from a machine shared with other work are low by the
 * share of the CPU this process did not get; say so under the row. */
static void busy_note(double cpu_share)
{
	if (cpu_share < 0.9)
		printf("  (this row got %.0f%% of a CPU: the machine was busy)\n",
		       100 * cpu_share);
}

/* ---- seeing inside a workload run ---- */

static struct probe {
	bool armed;		/* a workload run is under way */
	bool started;		/* its first workload event is due */
	int64_t first_event_us;	/* monotonic clock, when it was */
	uint64_t events;	/* delivered by every sim_run() while armed */
	bool exit_at_first;	/* start-up child: report and leave there */
} probe;

/*
 * Device bring-up runs the engine to fixed times (the NVMe driver's admin
 * commands); a workload runs it to the end, SIM_TIME_MAX. So the first run
 * to the end is the workload's start, with its first event at the top of
 * the queue.
 */
static void probe_observe(sim_time until, uint64_t ran, bool ended)
{
	if (!probe.armed)
		return;
	if (ended) {
		probe.events += ran;
		return;
	}
	if (!probe.started && until == SIM_TIME_MAX) {
		probe.started = true;
		probe.first_event_us = g_get_monotonic_time();
		if (probe.exit_at_first) {
			printf("first_event_us=%" G_GINT64_FORMAT " peak_kib=%ld\n",
			       probe.first_event_us, peak_kib());
			fflush(stdout);
			_exit(0);
		}
	}
}

/* ---- event queue: the hold model ---- */

/* Increments are drawn once, so that the timed loop measures the queue and
 * not the random number generator: exponential with a mean of 1 us, the
 * classic hold model's distribution. */
#define INC_COUNT 4096u
#define HOLD_BATCH 65536u

/*
 * The yardstick: the textbook binary heap (sift-up on push, sift-down with
 * two comparisons a level on pop) over the same 16-byte keys and the same
 * pooled records as evq, so that the difference is the heap's shape and
 * its pop, nothing else.
 */
struct bheap {
	evq_key *h;
	uint32_t n;
	struct evq_record *rec;
	uint32_t *free_slots;
	uint32_t nfree;
	uint64_t seq;
};

static void bheap_init(struct bheap *b, uint32_t cap)
{
	*b = (struct bheap){
		.h = g_new(evq_key, cap),
		.rec = g_new0(struct evq_record, cap),
		.free_slots = g_new(uint32_t, cap),
	};
	for (uint32_t s = cap; s > 0; s--)
		b->free_slots[b->nfree++] = s - 1;
}

static void bheap_destroy(struct bheap *b)
{
	g_free(b->h);
	g_free(b->rec);
	g_free(b->free_slots);
}

static inline void bheap_push(struct bheap *b, uint64_t time,
			      struct sim_component *c)
{
	uint32_t slot = b->free_slots[--b->nfree];
	struct evq_record *r = &b->rec[slot];
	evq_key key = ((evq_key)time << 64) | (b->seq++ << EVQ_SLOT_BITS) | slot;
	uint32_t i = b->n++;

	*r = (struct evq_record){.comp = c, .gen = r->gen + 1};
	while (i > 0 && b->h[(i - 1) / 2] > key) {
		b->h[i] = b->h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	b->h[i] = key;
}

static inline evq_key bheap_pop(struct bheap *b)
{
	evq_key top = b->h[0], last = b->h[--b->n];
	uint32_t i = 0, c;

	while ((c = 2 * i + 1) < b->n) {
		if (c + 1 < b->n && b->h[c + 1] < b->h[c])
			c++;
		if (last <= b->h[c])
			break;
		b->h[i] = b->h[c];
		i = c;
	}
	b->h[i] = last;
	return top;
}

enum hold_impl { HOLD_EVQ, HOLD_BINARY, HOLD_ENGINE, HOLD_NR };

static const char *const hold_impl_key[HOLD_NR] = {
	[HOLD_EVQ] = "evq",
	[HOLD_BINARY] = "binary_heap",
	[HOLD_ENGINE] = "sim_run",
};

struct hold {
	struct sim_component c;	/* the events' target; first, for the cast */
	uint32_t inc[INC_COUNT];
	uint32_t next_inc;
	sim_time last;		/* time of the previous pop */
	uint64_t disorder;	/* pops earlier than the one before: a bug */
	uint64_t left;		/* engine: events until it stops */
	struct evq q;
	struct bheap b;
	struct sim sim;
};

static inline sim_time hold_inc(struct hold *h)
{
	return h->inc[h->next_inc++ & (INC_COUNT - 1)];
}

/* The hold loop for both bare queues; inlined twice with binary constant,
 * so that neither copy tests it. The loop's own state lives in locals, so
 * that stores into the heap do not force the compiler to reload it. */
static inline __attribute__((always_inline)) void
hold_keys(struct hold *h, uint64_t ops, bool binary)
{
	sim_time last = h->last;
	uint64_t disorder = h->disorder;
	uint32_t next = h->next_inc;

	for (uint64_t i = 0; i < ops; i++) {
		evq_key k = 0;	/* the queue is never empty: evq_first sets it */
		if (binary) {
			k = bheap_pop(&h->b);
		} else {
			evq_first(&h->q, &k);
			evq_pop(&h->q);
		}
		uint32_t slot = evq_key_slot(k);
		sim_time t = evq_key_time(k);
		struct evq_record *r = binary ? &h->b.rec[slot] : &h->q.rec[slot];
		struct sim_component *c = r->comp;

		r->comp = NULL;
		if (binary)
			h->b.free_slots[h->b.nfree++] = slot;
		else
			evq_free_slot(&h->q, slot);
		disorder += t < last;
		last = t;
		t += h->inc[next++ & (INC_COUNT - 1)];
		if (binary)
			bheap_push(&h->b, t, c);
		else
			evq_push(&h->q, t, c, 0, NULL, 0);
	}
	h->last = last;
	h->disorder = disorder;
	h->next_inc = next;
}

static void hold_handle(struct sim_component *c, unsigned type, void *ptr,
			uint64_t arg)
{
	struct hold *h = (struct hold *)c;
	sim_time now = sim_now(c->sim);

	h->disorder += now < h->last;
	h->last = now;
	sim_after(c->sim, hold_inc(h), c, 0, NULL, 0);
	if (--h->left == 0)
		c->sim->stop = true;
}

static const struct sim_component_ops hold_ops = {
	.name = "bench-hold",
	.handle = hold_handle,
};

static void hold_run(struct hold *h, enum hold_impl impl, uint64_t ops)
{
	switch (impl) {
	case HOLD_EVQ:
		hold_keys(h, ops, false);
		break;
	case HOLD_BINARY:
		hold_keys(h, ops, true);
		break;
	case HOLD_ENGINE:
		h->left = ops;
		sim_run(&h->sim, SIM_TIME_MAX);
		break;
	case HOLD_NR:
		break;
	}
}

static struct hold *hold_new(enum hold_impl impl, uint32_t pending)
{
	struct hold *h = g_new0(struct hold, 1);
	struct sim_rng rng;

	sim_rng_seed(&rng, 1, "bench-hold");
	for (unsigned i = 0; i < INC_COUNT; i++)
		h->inc[i] = (uint32_t)lround(sim_rng_exponential(&rng, 1000.0));
	sim_init(&h->sim, 1);
	sim_component_init(&h->sim, &h->c, &hold_ops, "bench-hold");
	evq_init(&h->q);
	if (impl == HOLD_BINARY)
		bheap_init(&h->b, pending);
	for (uint32_t i = 0; i < pending; i++) {
		sim_time t = hold_inc(h);
		if (impl == HOLD_EVQ)
			evq_push(&h->q, t, &h->c, 0, NULL, 0);
		else if (impl == HOLD_BINARY)
			bheap_push(&h->b, t, &h->c);
		else
			sim_schedule(&h->sim, t, &h->c, 0, NULL, 0);
	}
	/* From a fresh fill the pending times are not yet those of the
	 * steady state; one full turnover gets there. */
	hold_run(h, impl, MAX(pending, HOLD_BATCH));
	return h;
}

static void hold_free(struct hold *h)
{
	bheap_destroy(&h->b);
	evq_destroy(&h->q);
	sim_destroy(&h->sim);
	g_free(h);
}

struct rate {
	double best;		/* operations per wall second, best repetition */
	double cpu_share;	/* CPU time over wall time in that repetition */
};

/* Run batches until a repetition has lasted opt.evq_seconds. */
static void hold_time(struct hold *h, enum hold_impl impl, struct rate *r)
{
	uint64_t ops = 0;
	double w0 = wall_s(), c0 = cpu_s(), w;

	do {
		hold_run(h, impl, HOLD_BATCH);
		ops += HOLD_BATCH;
	} while ((w = wall_s() - w0) < opt.evq_seconds);
	if (ops / w > r->best) {
		r->best = ops / w;
		r->cpu_share = (cpu_s() - c0) / w;
	}
}

static bool bench_evq(json_object *out, GError **err)
{
	g_auto(GStrv) sizes = g_strsplit(opt.evq_sizes, ",", -1);
	json_object *rows = json_object_new_array();

	json_object_object_add(out, "repetitions", json_object_new_int(opt.evq_reps));
	json_object_object_add(out, "seconds_per_repetition",
			       json_object_new_double(opt.evq_seconds));
	json_object_object_add(out, "sizes", rows);
	printf("\nEvent queue: hold model (pop the earliest event, push one at its "
	       "time + Exp(1 us)),\nbest of %d repetitions of %.2f s each, "
	       "in million events per wall second\n\n", opt.evq_reps,
	       opt.evq_seconds);
	printf("  %9s  %12s  %12s  %10s  %12s  %10s\n", "pending", "evq",
	       "binary heap", "evq/binary", "sim_run", "peak RSS");
	for (char **s = sizes; *s; s++) {
		char *end;
		uint64_t pending = g_ascii_strtoull(*s, &end, 10);
		struct rate r[HOLD_NR] = {0};
		struct hold *h[HOLD_NR];
		uint64_t disorder = 0;

		if (*end || pending == 0 || pending > EVQ_SLOT_MASK) {
			g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
				    "--evq-sizes: '%s' is not a count from 1 to %u", *s,
				    EVQ_SLOT_MASK);
			return false;
		}
		peak_reset();
		for (int i = 0; i < HOLD_NR; i++)
			h[i] = hold_new((enum hold_impl)i, (uint32_t)pending);
		/* Interleaved, so that a burst of load from elsewhere on the
		 * machine does not fall on one implementation only. */
		for (int rep = 0; rep < opt.evq_reps; rep++)
			for (int i = 0; i < HOLD_NR; i++)
				hold_time(h[i], (enum hold_impl)i, &r[i]);
		long kib = peak_kib();
		for (int i = 0; i < HOLD_NR; i++) {
			disorder += h[i]->disorder;
			hold_free(h[i]);
		}
		if (disorder) {
			g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
				    "hold model with %" G_GUINT64_FORMAT " pending: %"
				    G_GUINT64_FORMAT " events came out of time order",
				    pending, disorder);
			return false;
		}
		printf("  %9" G_GUINT64_FORMAT "  %8.2f M/s  %8.2f M/s  %9.2fx  "
		       "%8.2f M/s  %6.1f MiB\n", pending, r[HOLD_EVQ].best / 1e6,
		       r[HOLD_BINARY].best / 1e6, r[HOLD_EVQ].best / r[HOLD_BINARY].best,
		       r[HOLD_ENGINE].best / 1e6, (double)kib * 1024 / MIB);

		json_object *row = json_object_new_object();
		json_object_object_add(row, "pending", json_object_new_int64((int64_t)pending));
		for (int i = 0; i < HOLD_NR; i++) {
			g_autofree char *k = g_strdup_printf("%s_mevents_per_s",
							     hold_impl_key[i]);
			g_autofree char *c = g_strdup_printf("%s_cpu_share",
							     hold_impl_key[i]);
			json_object_object_add(row, k, json_object_new_double(r[i].best / 1e6));
			json_object_object_add(row, c, json_object_new_double(r[i].cpu_share));
		}
		json_object_object_add(row, "peak_rss_kib", json_object_new_int64(kib));
		json_object_array_add(rows, row);
		double least = MIN(r[HOLD_EVQ].cpu_share,
				   MIN(r[HOLD_BINARY].cpu_share, r[HOLD_ENGINE].cpu_share));
		busy_note(least);
	}
	return true;
}

/* ---- simulated runs ---- */

/* One cell of an experiment's table, or (experiment NULL) a job file on the
 * default system. */
struct bench_run {
	const char *key;	/* in the JSON */
	const char *label;
	const char *experiment;
	double row;		/* the experiment's variable */
	const char *variant;
	const char *jobfile;	/* under tests/bench/ */
	unsigned runtime;	/* simulated seconds when the experiment has none */
	unsigned trace_records;	/* a generated trace, the job's ${TRACE} */
};

static const struct bench_run bench_runs[] = {
	{
		.key = "nocopy_bvec_4k_new",
		.label = "nocopy-bvec bs=4096 new (t/io_uring)",
		.experiment = "nocopy-bvec", .row = 4096, .variant = "new",
	}, {
		.key = "dio_caller_comp_qd16_patched",
		.label = "dio-caller-comp iodepth=16 patched (fio)",
		.experiment = "dio-caller-comp", .row = 16, .variant = "patched",
	}, {
		.key = "fio_null_qd16",
		.label = "fio null engine iodepth=16",
		.jobfile = "null-qd16.fio", .runtime = 3,
	}, {
		.key = "replay_1m_libaio_qd32",
		.label = "iolog replay, 1 M records, libaio QD32",
		.jobfile = "replay.fio", .runtime = 10, .trace_records = 1000000,
	},
};

/* The generated trace of replay.fio: made once, removed at exit. */
static char *trace_path;

static void trace_remove(void)
{
	g_autofree char *dir = g_path_get_dirname(trace_path);

	g_unlink(trace_path);
	g_rmdir(dir);
}

static const char *bench_trace(unsigned records, GError **err)
{
	if (trace_path)
		return trace_path;
	g_autofree char *dir = g_dir_make_tmp("storsim-bench-XXXXXX", err);
	if (!dir)
		return NULL;
	trace_path = g_build_filename(dir, "replay.iolog", NULL);
	FILE *f = fopen(trace_path, "w");
	if (!f) {
		g_set_error(err, G_FILE_ERROR, g_file_error_from_errno(errno),
			    "%s: %s", trace_path, g_strerror(errno));
		return NULL;
	}
	GRand *rng = g_rand_new_with_seed(1);
	uint64_t t = 1;
	fputs("fio version 3 iolog\n0 /dev/nvme0n1 add\n0 /dev/nvme0n1 open\n", f);
	for (unsigned i = 0; i < records; i++) {
		t += (uint64_t)g_rand_int_range(rng, 1, 9);
		fprintf(f, "%" G_GUINT64_FORMAT " /dev/nvme0n1 %s %" G_GUINT64_FORMAT
			" 4096\n", t, g_rand_int_range(rng, 0, 10) < 7 ? "read" : "write",
			(uint64_t)g_rand_int_range(rng, 0, 1 << 18) * 4096);
	}
	g_rand_free(rng);
	if (fclose(f) != 0) {
		g_set_error(err, G_FILE_ERROR, g_file_error_from_errno(errno),
			    "%s: %s", trace_path, g_strerror(errno));
		return NULL;
	}
	atexit(trace_remove);
	return trace_path;
}

#define DIO_CALLER_COMP_RUN (&bench_runs[1])

/* Real fio's IOPS on the null-engine job, 0 until the fio part ran. Issue 3
 * set the 3 M target where fio's null engine ran 3.3 M IOPS, so the ratio
 * carries the target to a machine, or a day, of another speed. */
static double real_fio_iops;
#define TARGET_SIM_IOPS 3.0e6
#define TARGET_FIO_IOPS 3.3e6

static void add_strings(GPtrArray *to, const GPtrArray *from)
{
	for (unsigned i = 0; i < from->len; i++)
		g_ptr_array_add(to, g_strdup(from->pdata[i]));
}

static json_object *experiment_row(const struct experiment *e, double value)
{
	for (size_t r = 0; r < json_object_array_length(e->rows); r++) {
		json_object *row = json_object_array_get_idx(e->rows, r), *v;
		if (json_object_object_get_ex(row, e->variable, &v) &&
		    json_object_get_double(v) == value)
			return row;
	}
	return NULL;
}

static const struct experiment_variant *
experiment_variant(const struct experiment *e, const char *name)
{
	for (unsigned i = 0; i < e->variants->len; i++) {
		const struct experiment_variant *v = e->variants->pdata[i];
		if (strcmp(v->name, name) == 0)
			return v;
	}
	return NULL;
}

/* The system and workload arguments of one experiment cell, as storsim
 * reproduce builds them: the experiment's system, then the variant's. */
static bool experiment_cell(const struct bench_run *br, unsigned runtime,
			    struct system_config *cfg, GPtrArray **args,
			    struct experiment **ep, GError **err)
{
	struct experiment *e = experiment_load(br->experiment, err);
	const struct experiment_variant *v;
	json_object *row;

	if (!e)
		return false;
	*ep = e;
	row = experiment_row(e, br->row);
	v = experiment_variant(e, br->variant);
	if (!row || !v) {
		g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
			    "%s: no row %s=%g or no variant %s", e->path,
			    e->variable, br->row, br->variant);
		return false;
	}
	cfg->host = g_strdup(e->sys.host);
	cfg->seed = e->sys.seed;
	add_strings(cfg->devices, e->sys.devices);
	add_strings(cfg->mounts, e->sys.mounts);
	add_strings(cfg->files, e->sys.files);
	add_strings(cfg->sets, e->sys.sets);
	add_strings(cfg->sets, v->sets);
	add_strings(cfg->kernel, e->sys.kernel);
	add_strings(cfg->kernel, v->kernel);
	runtime = runtime ? runtime : e->runtime;
	if (strcmp(e->workload_kind, "fio") == 0) {
		*args = experiment_env(e, row, runtime, err);
	} else {
		*args = experiment_args(e, row, runtime, err);
		if (*args)
			g_ptr_array_insert(*args, 0, g_strdup(e->workload_kind));
	}
	if (*args)
		g_ptr_array_add(*args, NULL);
	return *args != NULL;
}

struct run_figures {
	uint64_t ios, events;
	double wall, cpu, setup;	/* seconds; setup: to the first event */
	double sim_iops;
	long peak_kib;
};

/* Run br once; the figures cover the workload call, system set-up
 * included, and not the reading of the experiment file. */
static bool run_once(const struct bench_run *br, struct run_figures *f,
		     GError **err)
{
	struct system_config cfg;
	struct experiment *e = NULL;
	GPtrArray *args = NULL;
	g_autofree char *jobfile = NULL;
	struct run_metrics m = {0};
	bool ok = false;

	system_config_init(&cfg);
	if (br->experiment) {
		if (!experiment_cell(br, (unsigned)opt.runtime, &cfg, &args, &e, err))
			goto out;
	} else {
		jobfile = g_build_filename(STORSIM_SRCDIR, "tests", "bench",
					   br->jobfile, NULL);
		args = g_ptr_array_new_with_free_func(g_free);
		g_ptr_array_add(args, g_strdup_printf("RUNTIME=%u", opt.runtime ?
						      (unsigned)opt.runtime : br->runtime));
		if (br->trace_records) {
			const char *trace = bench_trace(br->trace_records, err);
			if (!trace)
				goto out;
			g_ptr_array_add(args, g_strdup_printf("TRACE=%s", trace));
		}
		g_ptr_array_add(args, NULL);
	}
	probe = (struct probe){.armed = true, .exit_at_first = opt.startup_child};
	double w0 = wall_s(), c0 = cpu_s();
	if (!e || strcmp(e->workload_kind, "fio") == 0)
		ok = workload_fio(&cfg, e ? e->jobfile : jobfile, (char **)args->pdata,
				  &m, err);
	else
		ok = workload_uring_bench(&cfg, (int)args->len - 1,
					  (char **)args->pdata, &m, err);
	*f = (struct run_figures){
		.wall = wall_s() - w0,
		.cpu = cpu_s() - c0,
		.setup = (double)probe.first_event_us / 1e6 - w0,
		.ios = m.ios,
		.events = probe.events,
		.sim_iops = m.iops,
	};
	probe.armed = false;
	if (ok && (!probe.started || m.ios == 0)) {
		g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
			    "%s: the workload ran no I/O", br->label);
		ok = false;
	}
out:
	run_metrics_clear(&m);
	if (args)
		g_ptr_array_free(args, TRUE);
	if (e)
		experiment_free(e);
	system_config_clear(&cfg);
	return ok;
}

static bool bench_runs_part(json_object *out, GError **err)
{
	printf("\nSimulated runs: best of %d, wall time of the whole workload "
	       "(set-up included)\n\n", opt.run_reps);
	printf("  %-42s %9s %8s %8s %16s %10s %10s\n", "run", "sim I/Os",
	       "wall", "set-up", "sim I/Os/wall s", "events/IO", "peak RSS");
	for (size_t i = 0; i < G_N_ELEMENTS(bench_runs); i++) {
		const struct bench_run *br = &bench_runs[i];
		struct run_figures best = {0}, f;

		peak_reset();
		for (int rep = 0; rep < opt.run_reps; rep++) {
			if (!run_once(br, &f, err))
				return false;
			if (rep == 0 || f.wall < best.wall)
				best = f;
		}
		best.peak_kib = peak_kib();
		double rate = (double)best.ios / best.wall;
		double per_io = (double)best.events / (double)best.ios;
		printf("  %-42s %7.2f M %6.2f s %5.1f ms %11.2f M/s %10.2f %6.1f MiB\n",
		       br->label, (double)best.ios / 1e6, best.wall, best.setup * 1e3,
		       rate / 1e6, per_io, (double)best.peak_kib * 1024 / MIB);
		busy_note(best.cpu / best.wall);
		if (br == DIO_CALLER_COMP_RUN) {
			printf("  (the target, 3 M, is %s", rate >= TARGET_SIM_IOPS ?
			       "met" : "not met");
			if (real_fio_iops > 0)
				printf("; %.2f times real fio's null engine today, "
				       "where the target was set at %.2f times it",
				       rate / real_fio_iops,
				       TARGET_SIM_IOPS / TARGET_FIO_IOPS);
			printf(")\n");
		}

		json_object *o = json_object_new_object();
		json_object_object_add(o, "label", json_object_new_string(br->label));
		json_object_object_add(o, "sim_ios", json_object_new_int64((int64_t)best.ios));
		json_object_object_add(o, "sim_iops", json_object_new_double(best.sim_iops));
		json_object_object_add(o, "events", json_object_new_int64((int64_t)best.events));
		json_object_object_add(o, "events_per_io", json_object_new_double(per_io));
		json_object_object_add(o, "wall_s", json_object_new_double(best.wall));
		json_object_object_add(o, "cpu_s", json_object_new_double(best.cpu));
		json_object_object_add(o, "setup_ms", json_object_new_double(best.setup * 1e3));
		json_object_object_add(o, "sim_ios_per_wall_s", json_object_new_double(rate));
		json_object_object_add(o, "peak_rss_kib", json_object_new_int64(best.peak_kib));
		json_object_object_add(out, br->key, o);
	}
	json_object_object_add(out, "repetitions", json_object_new_int(opt.run_reps));
	return true;
}

/* ---- the yardstick: real fio ---- */

/* Run fio on the null-engine job once; its IOPS in *iops. */
static bool real_fio_once(char *fio, double *iops, GError **err)
{
	g_autofree char *job = g_build_filename(STORSIM_SRCDIR, "tests", "bench",
						"null-qd16.fio", NULL);
	char *argv[] = {fio, "--output-format=json", job, NULL};
	g_autofree char *runtime = g_strdup_printf("%d", opt.runtime ? opt.runtime : 3);
	g_auto(GStrv) env = g_environ_setenv(g_get_environ(), "RUNTIME", runtime, TRUE);
	g_autofree char *out = NULL;
	json_object *root, *jobs, *read, *v;
	int status;
	bool ok;

	if (!g_spawn_sync(NULL, argv, env, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
			  &out, NULL, &status, err))
		return false;
	if (!g_spawn_check_wait_status(status, err)) {
		g_prefix_error(err, "%s %s: ", fio, job);
		return false;
	}
	/* fio may print notes before its JSON document. */
	root = json_tokener_parse(strchr(out, '{') ? strchr(out, '{') : out);
	ok = root && json_object_object_get_ex(root, "jobs", &jobs) &&
	     json_object_array_length(jobs) > 0 &&
	     json_object_object_get_ex(json_object_array_get_idx(jobs, 0), "read",
				       &read) &&
	     json_object_object_get_ex(read, "iops", &v);
	if (ok)
		*iops = json_object_get_double(v);
	else
		g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
			    "%s %s: no jobs[0].read.iops in its JSON output", fio, job);
	json_object_put(root);
	return ok;
}

static bool bench_fio(json_object *out, GError **err)
{
	g_autofree char *fio = g_find_program_in_path("fio");
	g_autofree char *version = NULL;
	char *version_argv[] = {fio, "--version", NULL};
	double best = 0, iops;

	printf("\nReal fio, the yardstick: tests/bench/null-qd16.fio, %d s, best of %d\n\n",
	       opt.runtime ? opt.runtime : 3, opt.run_reps);
	if (!fio) {
		printf("  fio is not on PATH: skipped (scripts/bootstrap.sh installs it)\n");
		return true;
	}
	if (!g_spawn_sync(NULL, version_argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL,
			  NULL, NULL, &version, NULL, NULL, err))
		return false;
	g_strstrip(version);
	for (int rep = 0; rep < opt.run_reps; rep++) {
		if (!real_fio_once(fio, &iops, err))
			return false;
		best = MAX(best, iops);
	}
	real_fio_iops = best;
	printf("  %-42s %11.2f M IOPS\n", version, best / 1e6);
	json_object_object_add(out, "fio_version", json_object_new_string(version));
	json_object_object_add(out, "null_qd16_iops", json_object_new_double(best));
	json_object_object_add(out, "repetitions", json_object_new_int(opt.run_reps));
	return true;
}

/* ---- start-up ---- */

/* The start-up child: the dio-caller-comp run, which leaves at its first
 * workload event with the clock and its peak memory on stdout. */
static int startup_child(void)
{
	struct run_figures f;
	g_autoptr(GError) err = NULL;

	if (!run_once(DIO_CALLER_COMP_RUN, &f, &err))
		fprintf(stderr, "bench: %s\n", err->message);
	else
		fprintf(stderr, "bench: the run ended before its first event\n");
	return 1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Spawn argv opt.startup_reps times; the median of the wall time from just
 * before each spawn to the child's exit or, when first_event is given, to
 * the moment it prints. */
static bool startup_median(char **argv, bool first_event, double *median_ms,
			   long *child_kib, GError **err)
{
	g_autofree double *ms = g_new(double, opt.startup_reps);

	for (int i = 0; i < opt.startup_reps; i++) {
		g_autofree char *out = NULL;
		int status;
		int64_t t0 = g_get_monotonic_time(), t1;

		if (!g_spawn_sync(NULL, argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
				  &out, NULL, &status, err))
			return false;
		t1 = g_get_monotonic_time();
		if (!g_spawn_check_wait_status(status, err)) {
			g_prefix_error(err, "%s: ", argv[0]);
			return false;
		}
		if (first_event && sscanf(out, "first_event_us=%" G_GINT64_FORMAT
					  " peak_kib=%ld", &t1, child_kib) != 2) {
			g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
				    "start-up child printed '%s'", out);
			return false;
		}
		ms[i] = (double)(t1 - t0) / 1e3;
	}
	qsort(ms, (size_t)opt.startup_reps, sizeof(double), cmp_double);
	*median_ms = (ms[(opt.startup_reps - 1) / 2] + ms[opt.startup_reps / 2]) / 2;
	return true;
}

static bool bench_startup(json_object *out, GError **err)
{
	g_autofree char *self = g_file_read_link("/proc/self/exe", err);
	double run_ms, version_ms;
	long child_kib = -1;

	if (!self)
		return false;
	char *child_argv[] = {self, "--startup-child", NULL};
	char *version_argv[] = {opt.storsim, "--version", NULL};

	if (!startup_median(child_argv, true, &run_ms, &child_kib, err) ||
	    !startup_median(version_argv, false, &version_ms, NULL, err))
		return false;
	printf("\nStart-up: median of %d, from just before the process is "
	       "spawned\n\n", opt.startup_reps);
	printf("  %-52s %8.1f ms  peak RSS %6.1f MiB\n",
	       "dio-caller-comp, to its first workload event", run_ms,
	       (double)child_kib * 1024 / MIB);
	printf("  %-52s %8.1f ms\n", "storsim --version, to its exit", version_ms);
	json_object_object_add(out, "repetitions", json_object_new_int(opt.startup_reps));
	json_object_object_add(out, "dio_caller_comp_first_event_ms",
			       json_object_new_double(run_ms));
	json_object_object_add(out, "dio_caller_comp_peak_rss_kib",
			       json_object_new_int64(child_kib));
	json_object_object_add(out, "storsim_version_ms",
			       json_object_new_double(version_ms));
	return true;
}

/* ---- main ---- */

struct part {
	const char *name;
	bool (*run)(json_object *out, GError **err);
};

static const struct part parts[] = {
	{"evq", bench_evq},
	{"fio", bench_fio},
	{"runs", bench_runs_part},
	{"startup", bench_startup},
};

static bool parse_options(int *argc, char ***argv, GError **err)
{
	const GOptionEntry entries[] = {
		{"parts", 'p', 0, G_OPTION_ARG_STRING, &opt.parts,
		 "Parts to run, comma-separated: evq, fio, runs, startup (all)", "LIST"},
		{"evq-seconds", 0, 0, G_OPTION_ARG_DOUBLE, &opt.evq_seconds,
		 "Wall seconds of each event-queue repetition (0.5)", "S"},
		{"evq-reps", 0, 0, G_OPTION_ARG_INT, &opt.evq_reps,
		 "Event-queue repetitions, the best kept (3)", "N"},
		{"evq-sizes", 0, 0, G_OPTION_ARG_STRING, &opt.evq_sizes,
		 "Pending event counts (1000,100000,1000000)", "LIST"},
		{"runtime", 0, 0, G_OPTION_ARG_INT, &opt.runtime,
		 "Simulated seconds of every run (each run's own: 3, 10, 3)", "S"},
		{"run-reps", 0, 0, G_OPTION_ARG_INT, &opt.run_reps,
		 "Repetitions of each run, the fastest kept (3)", "N"},
		{"startup-reps", 0, 0, G_OPTION_ARG_INT, &opt.startup_reps,
		 "Start-up repetitions, the median kept (5)", "N"},
		{"storsim", 0, 0, G_OPTION_ARG_FILENAME, &opt.storsim,
		 "The storsim binary to start ($STORSIM, else ./storsim)", "PATH"},
		{"json", 0, 0, G_OPTION_ARG_FILENAME, &opt.json,
		 "Also write the figures to FILE as JSON", "FILE"},
		{"startup-child", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE,
		 &opt.startup_child, NULL, NULL},
		{NULL},
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new(NULL);

	g_option_context_set_summary(ctx,
		"Measure storsim: event-queue throughput, simulated I/Os per wall\n"
		"second of the published workloads, start-up time, peak memory.");
	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!g_option_context_parse(ctx, argc, argv, err))
		return false;
	if (*argc > 1 || opt.evq_seconds <= 0 || opt.evq_reps < 1 ||
	    opt.run_reps < 1 || opt.startup_reps < 1 || opt.runtime < 0) {
		g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
			    "%s", *argc > 1 ? "no arguments are taken, only options" :
			    "durations and repetitions must be positive");
		return false;
	}
	if (!opt.parts)
		opt.parts = g_strdup("evq,fio,runs,startup");
	if (!opt.evq_sizes)
		opt.evq_sizes = g_strdup("1000,100000,1000000");
	if (!opt.storsim)
		opt.storsim = g_strdup(g_getenv("STORSIM") ? g_getenv("STORSIM") :
				       "./storsim");
	return true;
}

static bool run_parts(json_object *root, GError **err)
{
	g_auto(GStrv) want = g_strsplit(opt.parts, ",", -1);

	for (char **w = want; *w; w++) {
		size_t i = 0;
		while (i < G_N_ELEMENTS(parts) && strcmp(parts[i].name, *w) != 0)
			i++;
		if (i == G_N_ELEMENTS(parts)) {
			g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
				    "--parts: '%s' is not evq, fio, runs or startup", *w);
			return false;
		}
	}
	for (size_t i = 0; i < G_N_ELEMENTS(parts); i++) {
		if (!g_strv_contains((const char *const *)want, parts[i].name))
			continue;
		json_object *o = json_object_new_object();
		json_object_object_add(root, parts[i].name, o);
		if (!parts[i].run(o, err))
			return false;
		fflush(stdout);
	}
	return true;
}

int main(int argc, char **argv)
{
	g_autoptr(GError) err = NULL;
	json_object *root = json_object_new_object();
	g_autofree char *model = cpu_model();
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	int status = 1;

	if (!parse_options(&argc, &argv, &err))
		goto out;
	sim_run_observer = probe_observe;
	if (opt.startup_child)
		return startup_child();
	printf("storsim benchmark: %s, %ld CPUs online, %u usable by this process "
	       "(nothing pinned)\n", model, online, g_get_num_processors());
	printf("built with: %s\n", STORSIM_BUILD_CFLAGS);
	json_object_object_add(root, "storsim_version", json_object_new_string(PACKAGE_VERSION));
	json_object_object_add(root, "cpu_model", json_object_new_string(model));
	json_object_object_add(root, "build_cflags",
			       json_object_new_string(STORSIM_BUILD_CFLAGS));
	json_object_object_add(root, "cpus_online", json_object_new_int64(online));
	json_object_object_add(root, "cpus_usable",
			       json_object_new_int((int)g_get_num_processors()));
	if (!run_parts(root, &err))
		goto out;
	json_object_object_add(root, "peak_rss_per_part",
			       json_object_new_boolean(hwm_per_part));
	if (!hwm_per_part)
		printf("\n(VmHWM could not be reset: each peak is the highest "
		       "since the benchmark started)\n");
	if (opt.json && json_object_to_file_ext(opt.json, root,
						JSON_C_TO_STRING_PRETTY) != 0) {
		g_set_error(&err, G_FILE_ERROR, g_file_error_from_errno(errno),
			    "%s: %s", opt.json, json_util_get_last_err());
		goto out;
	}
	status = 0;
out:
	if (err)
		fprintf(stderr, "bench: %s\n", err->message);
	json_object_put(root);
	return status;
}
