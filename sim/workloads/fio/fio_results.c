/*
 * fio, simulated: the run's results, as fio's stat.c gathers them for
 * its output (and storsim's own per-layer figures).
 *
 * Stands for fio 3.33's stat.c (show_run_stats, sum_thread_stats, group
 * reporting).

 */
#include "fio_core.h"
/* ---- results ---- */

static const char *keep(struct fio_run *r, char *s)
{
	g_ptr_array_add(r->owned, s);
	return s;
}

/* storsim's own figures of a job: where its latency went, by layer. */
static void layers_output(struct fio_run *r, struct output_job *oj,
			  const struct job_stats *st)
{
	static const char *const ddir_names[STATS_DDIR_NR] = {"read", "write", "trim"};
	static const char *const mixed[STATS_DDIR_NR] = {"mixed"};
	const char *const *names = st->cfg.unified ? mixed : ddir_names;
	unsigned n = st->cfg.unified ? 1 : STATS_DDIR_NR;
	struct io_layer_tails tails[STATS_DDIR_NR];
	GString *text = g_string_new(NULL);
	json_object *o = json_object_new_object();

	for (unsigned d = 0; d < n; d++)
		stats_layer_percentiles(st, (enum stats_ddir)d, &tails[d]);
	json_object_object_add(o, "latency_by_layer",
			       io_layers_json(st->layers, tails, n, names));
	g_ptr_array_add(r->extras, o);
	oj->json_extra = o;
	io_layers_text(st->layers, tails, n, names, text);
	GString *block = g_string_new(NULL);
	storsim_text_block(block, text->str);
	g_string_free(text, TRUE);
	oj->text_extra = keep(r, g_string_free(block, FALSE));
}

static void fill_output_job(struct fio_run *r, struct output_job *oj,
			    const struct fio_thread *td, const struct job_stats *st,
			    bool is_clone)
{
	const struct job *job = td->job;
	const struct job_options *o = td->o;
	unsigned n = job->opts->len;
	struct output_option *opts = g_new0(struct output_option, n);

	for (unsigned i = 0; i < n; i++) {
		const struct job_opt *jo = &g_array_index(job->opts, struct job_opt, i);
		opts[i].name = jo->name;
		opts[i].value = jo->value;
	}
	keep(r, (char *)opts);
	output_job_init(oj);
	oj->name = o->name;
	oj->groupid = job->groupid;
	oj->error = td->error;
	oj->verror = td->error ? g_strerror(td->error) : NULL;
	oj->pid = 1000 + (int)td->index;
	oj->description = o->description;
	oj->elapsed_s = (unsigned)((td->end_time + SIM_SEC - 1) / SIM_SEC);
	oj->options = opts;
	oj->nr_options = n;
	oj->rw = keep(r, g_strdup(fio_rw_name(o->rw)));
	for (int d = 0; d < STATS_DDIR_NR; d++) {
		oj->min_bs[d] = o->min_bs[d] ? o->min_bs[d] : o->bs[d];
		oj->max_bs[d] = o->max_bs[d] ? o->max_bs[d] : o->bs[d];
	}
	oj->bs_is_seq_rand = o->bs_is_seq_rand;
	oj->ioengine = fio_ioengine_name(o->ioengine);
	oj->iodepth = o->iodepth;
	oj->numjobs = o->numjobs;
	oj->is_clone = is_clone;
	oj->kb_base = o->kb_base;
	oj->unit_bits = o->unit_base == 1;
	oj->group_reporting = o->group_reporting;
	oj->unified = o->unified_rw_reporting == FIO_UNIFIED_MIXED;
	oj->latency_depth = o->latency_target ? td->lat_qd : o->iodepth;
	oj->latency_target = o->latency_target;
	oj->latency_window = o->latency_window / SIM_USEC;
	oj->latency_percentile = o->latency_percentile;
	oj->stats = st;
	/* Asked for, not only collected for the timeline. */
	if (td->report_layers)
		layers_output(r, oj, st);
}

/* fio's disk_util: the devices the machine says did I/O. */
static void add_disks(struct fio_run *r)
{
	g_autoptr(GArray) ds = g_array_new(FALSE, TRUE,
					   sizeof(struct env_disk_stats));

	env_disk_stats(&r->env, ds);
	for (unsigned i = 0; i < ds->len; i++) {
		const struct env_disk_stats *e =
			&g_array_index(ds, struct env_disk_stats, i);
		struct output_disk od = {
			.name = e->name, .in_queue = e->in_queue, .util = e->util,
		};
		for (int k = 0; k < 2; k++) {
			od.ios[k] = e->ios[k];
			od.merges[k] = e->merges[k];
			od.ticks[k] = e->ticks[k];
		}
		g_array_append_val(r->disks, od);
	}
}

static void build_output(struct fio_run *r)
{
	const struct job_list *jl = r->jl;

	for (unsigned i = 0; i < r->threads->len; i++) {
		struct fio_thread *td = r->threads->pdata[i];
		struct output_job oj;
		if (td->o->group_reporting) {
			/* One entry for the whole reporting group. */
			bool seen = false;
			for (unsigned k = 0; k < i; k++) {
				struct fio_thread *p = r->threads->pdata[k];
				seen |= p->o->group_reporting &&
					p->job->groupid == td->job->groupid;
			}
			if (seen)
				continue;
			struct job_stats *sum = stats_new(&td->stats_cfg, td->ramp_end);
			sum->members = 0;
			if (td->layer_tails)
				stats_keep_layer_tails(sum);
			for (unsigned k = i; k < r->threads->len; k++) {
				struct fio_thread *p = r->threads->pdata[k];
				if (p->job->groupid == td->job->groupid)
					stats_sum(sum, p->stats);
			}
			g_ptr_array_add(r->sums, sum);
			fill_output_job(r, &oj, td, sum, false);
		} else {
			fill_output_job(r, &oj, td, td->stats, td->clone > 0);
		}
		g_array_append_val(r->out_jobs, oj);
	}
	struct output_option *gopts = g_new0(struct output_option,
					     jl->global_opts->len);
	for (unsigned i = 0; i < jl->global_opts->len; i++) {
		const struct job_opt *jo = &g_array_index(jl->global_opts,
							  struct job_opt, i);
		gopts[i].name = jo->name;
		gopts[i].value = jo->value;
	}
	keep(r, (char *)gopts);
	add_disks(r);
	r->out = (struct output_run){
		.version = "storsim-" PACKAGE_VERSION,
		.timestamp = 0,
		.global_options = gopts,
		.nr_global_options = jl->global_opts->len,
		.jobs = (const struct output_job *)r->out_jobs->data,
		.nr_jobs = r->out_jobs->len,
		.disks = (const struct output_disk *)r->disks->data,
		.nr_disks = r->disks->len,
	};
}

void fio_run_trace_layers(struct fio_run *r, bool percentiles)
{
	for (unsigned i = 0; i < r->threads->len; i++) {
		struct fio_thread *td = r->threads->pdata[i];
		td->trace_layers = true;
		td->report_layers = true;
		td->layer_tails = percentiles;
		if (percentiles)
			stats_keep_layer_tails(td->stats);
	}
}

bool fio_run_exec(struct fio_run *r, GError **err)
{
	struct sim *s = r->env.sim;

	env_reset_stats(&r->env);
	env_arm_power_loss(&r->env);
	r->genesis = sim_now(s);
	fio_start_phase(r);
	sim_run(s, SIM_TIME_MAX);
	for (unsigned i = 0; i < r->threads->len; i++) {
		struct fio_thread *td = r->threads->pdata[i];
		if (!td->finished && env_power_lost(&r->env)) {
			/* The machine went down: the jobs end here, with their
			 * I/O in flight lost (EIO, as fio would see it). */
			if (!td->started)
				td->ramp_end = td->start_time = sim_now(s);
			td->error = 5;
			td->power_cut = true;
			td->end_time = sim_now(s);
			stats_finish(td->stats, td->end_time);
			if (td->logs)
				fio_logs_finish(td->logs, td->end_time);
			td->finished = true;
			continue;
		}
		if (!td->finished) {
			g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_EXTERNAL,
				    "job %s did not finish (simulation stalled at "
				    "%" G_GUINT64_FORMAT " ns)", td->name, sim_now(s));
			return false;
		}
		if (td->logs && !fio_logs_check(td->logs, err))
			return false;
		if (td->iolog) {
			bool written = iolog_writer_close(td->iolog, err);
			td->iolog = NULL;
			if (!written)
				return false;
		}
	}
	build_output(r);
	return true;
}

unsigned fio_run_failed(const struct fio_run *r, GString *why)
{
	unsigned n = 0;

	for (unsigned i = 0; i < r->threads->len; i++) {
		const struct fio_thread *td = r->threads->pdata[i];
		if (!td->error || td->power_cut)
			continue;
		g_string_append_printf(why, "job %s failed: error %d (%s)%s%s\n",
				       td->name, td->error, g_strerror(td->error),
				       td->error_detail ? ": " : "",
				       td->error_detail ? td->error_detail : "");
		n++;
	}
	return n;
}

const struct output_run *fio_run_output(struct fio_run *r)
{
	return &r->out;
}

sim_time fio_run_horizon(const struct fio_run *r)
{
	sim_time end = 0;

	if (r->nphases != 1)
		return 0;
	for (unsigned i = 0; i < r->threads->len; i++) {
		const struct job_options *o = ((struct fio_thread *)r->threads->pdata[i])->o;
		if (!o->time_based || !o->runtime)
			return 0;
		end = MAX(end, MAX(o->start_delay, o->start_delay_high) +
			       o->ramp_time + o->runtime);
	}
	return end;
}

void fio_run_totals(const struct fio_run *r, uint64_t *ios, double *iops,
		    double *bw_bytes)
{
	*ios = 0;
	*iops = 0;
	*bw_bytes = 0;
	for (unsigned i = 0; i < r->threads->len; i++) {
		const struct fio_thread *td = r->threads->pdata[i];
		double secs = (double)(td->end_time - td->ramp_end) / SIM_SEC;
		uint64_t bytes = 0, n = 0;
		for (int d = 0; d < STATS_DDIR_NR; d++) {
			bytes += td->stats->io_bytes[d];
			n += td->stats->total_ios[d];
		}
		*ios += n;
		if (secs > 0) {
			*iops += n / secs;
			*bw_bytes += bytes / secs;
		}
	}
}

void fio_run_process(const struct fio_run *r, sim_time *elapsed,
		     uint64_t *bytes, struct task_usage *use)
{
	*elapsed = 0;
	*bytes = 0;
	*use = (struct task_usage){0};
	for (unsigned i = 0; i < r->threads->len; i++) {
		const struct fio_thread *td = r->threads->pdata[i];
		struct task_usage u;
		if (!td->started)
			continue;
		*elapsed = MAX(*elapsed, td->end_time - td->start_time);
		for (int d = 0; d < STATS_DDIR_NR; d++)
			*bytes += td->stats->io_bytes[d];
		task_usage(td->task, &u);
		use->usr_ns += u.usr_ns;
		use->sys_ns += u.sys_ns;
		use->nvcsw += u.nvcsw;
		use->nivcsw += u.nivcsw;
	}
}

void fio_run_layers(const struct fio_run *r, struct io_layers *l)
{
	*l = (struct io_layers){0};
	for (unsigned i = 0; i < r->threads->len; i++) {
		const struct fio_thread *td = r->threads->pdata[i];
		for (int d = 0; d < STATS_DDIR_NR; d++)
			io_layers_merge(l, &td->stats->layers[d]);
	}
}

void fio_run_clat(const struct fio_run *r, double *mean, const double *pct,
		  unsigned npct, uint64_t *pct_ns)
{
	g_autofree uint64_t *plat = g_new0(uint64_t, STATS_PLAT_NR);
	uint64_t n = 0;
	double sum = 0;

	for (unsigned i = 0; i < r->threads->len; i++) {
		const struct fio_thread *td = r->threads->pdata[i];
		for (int d = 0; d < STATS_DDIR_NR; d++) {
			const struct stats_moments *m = &td->stats->lat[STATS_CLAT][d];
			n += m->samples;
			sum += m->mean * (double)m->samples;
			for (unsigned k = 0; k < STATS_PLAT_NR; k++)
				plat[k] += td->stats->plat[STATS_CLAT][d][k];
		}
	}
	*mean = n ? sum / (double)n : 0;
	memset(pct_ns, 0, npct * sizeof(*pct_ns));
	if (n)
		stats_percentiles(plat, n, pct, npct, pct_ns);
}

void fio_run_free(struct fio_run *r)
{
	if (!r)
		return;
	for (unsigned i = 0; i < r->threads->len; i++) {
		struct fio_thread *td = r->threads->pdata[i];
		fio_engine_cleanup(td);
		for (unsigned f = 0; f < td->nfiles; f++) {
			g_free(td->files[f].path);
			if (td->files[f].map.nlevels)
				fio_randmap_destroy(&td->files[f].map);
		}
		g_free(td->files);
		g_free(td->vlog);
		g_free(td->error_detail);
		fio_replay_free(td->replay);
		if (td->iolog)
			iolog_writer_abort(td->iolog);
		g_free(td->io_us);
		fio_logs_free(td->logs);
		stats_free(td->stats);
		g_free(td);
	}
	g_ptr_array_free(r->threads, TRUE);
	g_array_free(r->out_jobs, TRUE);
	g_ptr_array_free(r->owned, TRUE);
	g_ptr_array_free(r->sums, TRUE);
	g_ptr_array_free(r->extras, TRUE);
	g_array_free(r->disks, TRUE);
	g_free(r);
}
