/*
 * fio, simulated: checking a job against what is modelled, and making
 * its threads and the run.
 *
 * Stands for fio 3.33's init.c (add_job, numjobs clones), backend.c's
 * run_threads, and the engines' registration (one table).

 */
#include "fio_core.h"
static const struct {
	enum fio_ioengine id;
	const struct fio_engine_ops *ops;
} engines[] = {
	{FIO_ENGINE_NULL, &fio_null_engine},
	{FIO_ENGINE_SYNC, &fio_sync_engine},
	{FIO_ENGINE_PSYNC, &fio_psync_engine},
	{FIO_ENGINE_VSYNC, &fio_vsync_engine},
	{FIO_ENGINE_PVSYNC, &fio_pvsync_engine},
	{FIO_ENGINE_PVSYNC2, &fio_pvsync2_engine},
	{FIO_ENGINE_LIBAIO, &fio_libaio_engine},
	{FIO_ENGINE_IO_URING, &fio_io_uring_engine},
};

/* ---- set-up ---- */

static const struct fio_engine_ops *engine_for(enum fio_ioengine e)
{
	for (unsigned i = 0; i < G_N_ELEMENTS(engines); i++)
		if (engines[i].id == e)
			return engines[i].ops;
	return NULL;
}

bool fio_refuse(const struct job *job, const char *option, GError **err,
		   const char *why)
{
	const char *file = job->file;
	int line = job->line;

	jobopt_location(job, option, &file, &line);
	storsim_unsupported_error(err, file, line, option, "%s", why);
	return false;
}

/* Refuse a job, at option's line, for a file that does not exist and
 * that fio would create in a way the model does not follow (why_fmt). */
bool
fio_refuse_new_file(const struct job *job, const char *option, GError **err,
		const char *path, const char *why_fmt, ...)
{
	va_list ap;

	va_start(ap, why_fmt);
	g_autofree char *why = g_strdup_vprintf(why_fmt, ap);
	va_end(ap);
	g_autofree char *msg = g_strdup_printf(
		"'%s' does not exist, and %s, which is not modelled; give the "
		"file with --file=%s=SIZE", path, why, path);
	return fio_refuse(job, option, err, msg);
}

/* What the job asks for that the simulation would get wrong. */
static bool check_modelled(const struct job *job, GError **err)
{
	const struct job_options *o = &job->o;

	if (o->verify == FIO_VERIFY_META || o->verify == FIO_VERIFY_PATTERN)
		return fio_refuse(job, "verify", err, "meta and pattern checks are "
			      "not modelled (the checksums and null are)");
	if (o->verify != FIO_VERIFY_NONE &&
	    (fio_rw_does(o->rw, FIO_DDIR_READ) || fio_rw_does(o->rw, FIO_DDIR_TRIM)))
		return fio_refuse(job, "verify", err, "a job that reads or trims "
			      "checks data written before it ran; only write "
			      "jobs and their verify phase are modelled");
	if (o->latency_target) {
		const char *with = o->rate[0] || o->rate[1] || o->rate[2] ? "rate" :
				   o->rate_iops[0] || o->rate_iops[1] || o->rate_iops[2] ?
				   "rate_iops" : o->thinktime ? "thinktime" :
				   o->number_ios ? "number_ios" :
				   o->verify != FIO_VERIFY_NONE ? "verify" :
				   o->read_iolog ? "read_iolog" :
				   o->write_lat_log || o->write_bw_log || o->write_iops_log ?
				   "write_*_log" : NULL;
		g_autofree char *why = with ? g_strdup_printf(
			"not modelled together with %s (fio restarts the job's "
			"figures for its final run)", with) : NULL;
		if (with)
			return fio_refuse(job, "latency_target", err, why);
	}
	if (o->verify != FIO_VERIFY_NONE && o->read_iolog)
		return fio_refuse(job, "verify", err, "a replayed trace is not "
			      "verified");
	const struct fio_engine_ops *eng = engine_for(o->ioengine);
	const char *sync_opt = o->fsync_blocks ? "fsync" :
			       o->fdatasync_blocks ? "fdatasync" :
			       o->end_fsync ? "end_fsync" :
			       o->fsync_on_close ? "fsync_on_close" : NULL;
	if (sync_opt && eng == &fio_io_uring_engine && o->eng.hipri)
		return fio_refuse(job, sync_opt, err, "an IOPOLL ring (hipri) takes "
			      "reads and writes only; the kernel refuses fsync on it");
	if (o->zone_strided != !!o->zone_size) {
		const char *file = job->file;
		int line = job->line;
		const char *opt = o->zone_strided ? "zonemode" : "zonesize";
		jobopt_location(job, opt, &file, &line);
		storsim_input_error(err, file, line, opt, o->zone_strided ?
				    "zonemode=strided needs zonesize" :
				    "zonesize needs zonemode=strided (fio: "
				    "\"--zonemode=none and --zonesize are not "
				    "compatible\")");
		return false;
	}
	if (o->write_iolog && !o->read_iolog && o->numjobs > 1)
		return fio_refuse(job, "write_iolog", err,
			      "every clone of the job (numjobs) would write the "
			      "same log; give each job its own");
	return true;
}

/* write_iolog (fio's log_file, log_io_u): an iolog v3 of what the job
 * issues, its files added and opened first; written whole at the end of
 * the run. read_iolog replaces it, as in fio. */
static bool open_iolog(struct fio_thread *td, GError **err)
{
	const struct job_options *o = td->o;

	if (!o->write_iolog || o->read_iolog)
		return true;
	td->iolog = iolog_writer_new(o->write_iolog, err);
	if (!td->iolog) {
		const char *ofile = td->job->file;
		int oline = td->job->line;
		jobopt_location(td->job, "write_iolog", &ofile, &oline);
		g_prefix_error(err, "%s:%d: option 'write_iolog': ", ofile, oline);
		return false;
	}
	for (unsigned i = 0; i < td->nfiles; i++)
		iolog_writer_file(td->iolog, i, td->files[i].path);
	return true;
}

static struct fio_thread *thread_new(struct fio_run *r, const struct job *job,
				     unsigned clone, unsigned index,
				     unsigned phase, GError **err)
{
	struct fio_thread *td = g_new0(struct fio_thread, 1);
	const struct job_options *o = &job->o;
	const struct workload_env *env = &r->env;
	struct cpumask allowed = {{0}};
	unsigned ncpus = host_ncpus(env->host);

	td->run = r;
	td->job = job;
	td->o = o;
	td->clone = clone;
	/* add_job numbers the clones from the last: with numjobs=3 the
	 * second thread is subjob 2 (files j.2.N, offset_increment x 2) */
	td->jobnum = clone ? MAX(o->numjobs, 1u) - clone : 0;
	td->index = index;
	td->phase = phase;
	td->page_size = (uint32_t)env->sp->cpu.page_size;
	g_snprintf(td->name, sizeof(td->name), "fio/%s.%u", job->section, clone);
	g_ptr_array_add(r->threads, td);
	sim_component_init(env->sim, &td->comp, &fio_td_ops, td->name);
	/* randseed= fixes the job's random numbers whatever the run's seed,
	 * as fio derives all of a job's from it (setup_random_seeds). */
	if (o->randseed_set)
		sim_rng_seed(&td->comp.rng, o->randseed, td->name);
	fio_seed_generators(td, true);
	/* fio starts ddir_seq_nr at 1, so that the first I/O takes a new
	 * random offset rather than going on from 0 (init.c, add_job) */
	td->seq_left = 1;

	td->eng = engine_for(o->ioengine);
	if (!td->eng) {
		fio_refuse(job, "ioengine", err, "this engine is not modelled yet");
		return NULL;
	}
	if (!check_modelled(job, err) || !fio_setup_files(td, err) ||
	    !open_iolog(td, err))
		return NULL;

	if (o->cpus_allowed_set) {
		unsigned n = 0, which = 0;
		for (unsigned c = 0; c < ncpus; c++)
			n += job_options_cpu_isset(o, c);
		if (n == 0) {
			fio_refuse(job, "cpus_allowed", err,
			       "names no CPU of the simulated host");
			return NULL;
		}
		for (unsigned c = 0; c < ncpus; c++) {
			if (!job_options_cpu_isset(o, c))
				continue;
			/* cpus_allowed_policy=split: each thread gets one,
			 * by its number in the whole run (fio_cpus_split of
			 * thread_number - 1), not in its job */
			if (o->cpus_allowed_policy == FIO_CPUS_SHARED ||
			    which++ % n == index % n)
				cpumask_set(&allowed, c);
		}
	}
	td->task = task_new(env->host, td->name, TASK_USER, 100 + (int)index,
			    o->cpus_allowed_set ? &allowed : NULL);
	td->io_us = g_new0(struct fio_io_u, o->iodepth);
	for (unsigned i = 0; i < o->iodepth; i++) {
		td->io_us[i].idx = i;
		fio_io_u_put(td, &td->io_us[i]);
	}

	if (td->eng->init && !td->eng->init(td, err))
		return NULL;
	/* fio_time_init's calibration: the longest of ten nanosleep(1 us)
	 * calls, from the clock read before to the one after. */
	const struct host_params *hp = host_params(env->host);
	td->sleep_granularity = SIM_USEC + hp->timer_slack + hp->syscall +
				hp->irq_entry + hp->wakeup + hp->ctx_switch;
	/* fio's __setup_rate: rate, else rate_iops times the smallest bs. */
	for (int d = 0; d < FIO_DDIR_COUNT; d++) {
		td->checks_min_rate |= o->rate_min[d] || o->rate_iops_min[d];
		td->rate_bps[d] = o->rate[d] ? o->rate[d] :
				  (uint64_t)o->rate_iops[d] * o->min_bs[d];
		td->rated |= td->rate_bps[d] != 0;
	}
	/* After init: an engine may turn out synchronous (null at iodepth 1). */
	stats_config_init(&td->stats_cfg);
	td->stats_cfg.disable_lat = o->disable_lat;
	td->stats_cfg.disable_clat = o->disable_clat;
	td->stats_cfg.disable_slat = o->disable_slat || td->eng->sync;
	td->stats_cfg.disable_bw = o->disable_bw;
	td->stats_cfg.clat_percentiles = o->clat_percentiles;
	td->stats_cfg.unified = o->unified_rw_reporting == FIO_UNIFIED_MIXED;
	td->stats_cfg.lat_percentiles = o->lat_percentiles;
	td->stats_cfg.slat_percentiles = o->slat_percentiles;
	if (o->percentile_nr) {
		td->stats_cfg.nr_percentiles = o->percentile_nr;
		memcpy(td->stats_cfg.percentiles, o->percentile_list,
		       sizeof(double) * o->percentile_nr);
	}
	td->stats_cfg.bw_avg_ms = o->bw_avg_time / SIM_MSEC;
	td->stats_cfg.iops_avg_ms = o->iops_avg_time / SIM_MSEC;
	if (!fio_logs_new(job, td->index + 1, &td->stats_cfg, &td->logs, err))
		return NULL;
	td->stats = stats_new(&td->stats_cfg, 0);
	return td;
}

static void json_put(void *o)
{
	json_object_put(o);
}

struct fio_run *fio_run_new(const struct workload_env *env,
			    const struct job_list *jl,
			    GError **err)
{
	struct fio_run *r = g_new0(struct fio_run, 1);
	unsigned index = 0, phase = 0;

	st_prep = stage_register("fio_get_io_u", CPU_USR, "fio: get_io_u");
	st_verify = stage_register("fio_verify", CPU_USR,
				   "fio: fill and checksum verify blocks");
	st_complete = stage_register("fio_io_completed", CPU_USR, "fio: io_completed");
	st_loop = stage_register("fio_do_io", CPU_USR, "fio: do_io");
	st_think_spin = stage_register("fio_thinktime_spin", CPU_USR,
				       "fio: usec_spin (thinktime_spin)");
	st_usec_spin = stage_register("fio_usec_sleep_spin", CPU_USR,
				      "fio: usec_sleep, the spin after nanosleep");
	r->env = *env;
	r->jl = jl;
	r->threads = g_ptr_array_new();
	r->out_jobs = g_array_new(FALSE, TRUE, sizeof(struct output_job));
	r->owned = g_ptr_array_new_with_free_func(g_free);
	r->sums = g_ptr_array_new_with_free_func((GDestroyNotify)stats_free);
	r->extras = g_ptr_array_new_with_free_func(json_put);
	r->disks = g_array_new(FALSE, TRUE, sizeof(struct output_disk));
	sim_component_init(env->sim, &r->comp, &fio_run_ops, "fio");
	for (unsigned j = 0; j < jl->jobs->len; j++) {
		const struct job *job = jl->jobs->pdata[j];
		if (j > 0 && job->o.stonewall)
			phase++;
		for (unsigned c = 0; c < MAX(job->o.numjobs, 1u); c++) {
			if (!thread_new(r, job, c, index++, phase, err)) {
				fio_run_free(r);
				return NULL;
			}
		}
	}
	r->nphases = phase + 1;
	/* --timeline: every I/O's span, from the stamps layers collect. */
	for (unsigned i = 0; env->iotl && i < r->threads->len; i++) {
		struct fio_thread *td = r->threads->pdata[i];
		td->iotl = env->iotl;
		td->iotl_job = io_timeline_job(env->iotl, td->name);
		td->trace_layers = true;
	}
	return r;
}

