/*
 * a job's options from defaults to complete: fio's defaults, copying
 * and clearing, and the fix-ups once every option of a job is known.
 *
 * Stands for fio 3.33's init.c (fill_default_options, fixup_options) and the
 * checks fio makes there, with their warnings.

 */
#include "options_impl.h"
static void apply_defaults(struct job_options *o, bool engine_only)
{
	struct fopt_ctx ctx = { .o = o, .file = "defaults", .ncpus = FIO_MAX_CPUS };

	for (const struct fio_option_def *d = fio_option_defs; d->name; d++) {
		if (!d->def || (engine_only && !d->engines) ||
		    (d->support != FOPT_MODELLED && d->support != FOPT_OUTPUT))
			continue;
		/* the table's defaults are tested to parse */
		if (!fopt_option_store(&ctx, d, d->def, NULL))
			g_assert_not_reached();
	}
}

static void reset_engine(struct job_options *o)
{
	memset(&o->eng, 0, sizeof(o->eng));
	o->eng.sqthread_poll_cpu = -1;
	apply_defaults(o, true);
}

/*
 * The defaults are worked out once and copied: a parse of a job file
 * starts from them several times. Never changed once built.
 */
static const struct job_options *defaults(void)
{
	static struct job_options *tmpl;

	if (g_once_init_enter(&tmpl)) {
		struct job_options *t = g_new0(struct job_options, 1);

		t->kb_base = 1024;
		t->rand_center = -1;
		t->fsrv_center = -1;
		t->stats = true;
		reset_engine(t);
		apply_defaults(t, false);
		g_once_init_leave(&tmpl, t);
	}
	return tmpl;
}

void job_options_init(struct job_options *o)
{
	job_options_copy(o, defaults());
}

void job_options_reset_engine(struct job_options *o)
{
	o->eng = defaults()->eng;
}

void job_options_copy(struct job_options *dst, const struct job_options *src)
{
	memcpy(dst, src, sizeof(*dst));
	for (int i = 0; i < JOB_OPTIONS_NSTRINGS; i++)
		dst->strv[i] = g_strdup(src->strv[i]);
}

void job_options_clear(struct job_options *o)
{
	for (int i = 0; i < JOB_OPTIONS_NSTRINGS; i++) {
		g_free(o->strv[i]);
		o->strv[i] = NULL;
	}
}

bool job_options_cpu_isset(const struct job_options *o, unsigned cpu)
{
	return cpu < FIO_MAX_CPUS && (o->cpus_allowed[cpu / 64] >> (cpu % 64)) & 1;
}

/* ------------------------------------------------------------------ */
/* A complete job                                                      */

static const struct opt_origin *origin_of(const struct opt_origin *origin,
					  const char *name)
{
	return &origin[fio_option_index(fio_option_find(name))];
}

static void fixup_warning(GPtrArray *warnings, const struct opt_origin *at,
			  const char *name, const char *msg)
{
	if (at->file)
		g_ptr_array_add(warnings, g_strdup_printf("%s:%d: option '%s': %s",
							  at->file, at->line, name, msg));
	else
		g_ptr_array_add(warnings, g_strdup_printf("option '%s': %s", name, msg));
}

static bool finish_error(GError **err, const struct opt_origin *at,
			 const char *name, const char *fmt, ...) G_GNUC_PRINTF(4, 5);

static bool finish_error(GError **err, const struct opt_origin *at,
			 const char *name, const char *fmt, ...)
{
	g_autofree char *msg = NULL;
	va_list ap;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	storsim_input_error(err, at->file, at->line, name, "%s", msg);
	return false;
}

static uint64_t sum3(const uint64_t *a)
{
	return a[0] + a[1] + a[2];
}

bool job_options_finish(struct job_options *o, const struct opt_origin *origin,
			GPtrArray *warnings, GError **err)
{
	uint64_t min_bs = UINT64_MAX;
	bool reads = fio_rw_does(o->rw, FIO_DDIR_READ);

	for (int d = 0; d < FIO_DDIR_COUNT; d++) {
		if (!o->min_bs[d])
			o->min_bs[d] = o->bs[d];
		if (!o->max_bs[d])
			o->max_bs[d] = o->bs[d];
		if (!o->ba[d] || !fio_rw_random(o->rw))
			o->ba[d] = o->min_bs[d];
		if (o->ba[d] != o->min_bs[d] && !o->norandommap) {
			o->norandommap = true;
			fixup_warning(warnings, origin_of(origin, "blockalign"), "blockalign",
				      "blockalign turns the random map off (as in fio)");
		}
		/* fio's td_min_bs(): over all three directions */
		min_bs = MIN(min_bs, o->min_bs[d]);
	}
	/* fixup_options: "strided zone mode only really works with 1
	 * file", asked before openfiles is cut down to nrfiles */
	if (o->zone_strided && o->openfiles > 1) {
		o->zone_strided = false;
		o->zone_size = o->zone_range = o->zone_skip = 0;
		fixup_warning(warnings, origin_of(origin, "openfiles"), "openfiles",
			      "openfiles above 1 turns strided zones off (as in fio)");
	}
	if (o->size && o->size < min_bs)
		return finish_error(err, origin_of(origin, "size"), "size",
				    "%" PRIu64 " bytes is less than the smallest block size (%"
				    PRIu64 " bytes)", o->size, min_bs);
	if ((sum3(o->rate) && o->rate_iops[0] + o->rate_iops[1] + o->rate_iops[2]))
		return finish_error(err, origin_of(origin, "rate_iops"), "rate_iops",
				    "rate and rate_iops cannot both be set");
	for (int d = 0; d < FIO_DDIR_COUNT; d++) {
		if (o->rate[d] && o->rate_min[d] > o->rate[d])
			return finish_error(err, origin_of(origin, "rate_min"), "rate_min",
					    "the minimum rate exceeds rate (as fio refuses it)");
		if (o->rate_iops[d] && o->rate_iops_min[d] > o->rate_iops[d])
			return finish_error(err, origin_of(origin, "rate_iops_min"),
					    "rate_iops_min", "the minimum rate exceeds "
					    "rate_iops (as fio refuses it)");
	}
	/* The engines' queues: io_uring_setup refuses more entries than
	 * IORING_MAX_ENTRIES (32768) with EINVAL, io_setup more events than
	 * fs.aio-max-nr (65536 by default) with EAGAIN, and fio fails the job
	 * ("io_queue_init"); the other engines take a buffer per I/O of the
	 * depth from fio, held to the same 65536. Measured with fio 3.33 on
	 * Linux 6.18: 32768 and 65536 run, one more fails. */
	unsigned depth_max = o->ioengine == FIO_ENGINE_IO_URING ? 32768 : 65536;
	if (o->iodepth > depth_max)
		return finish_error(err, origin_of(origin, "iodepth"), "iodepth",
				    "%u is more than %s takes (%u%s)", o->iodepth,
				    fio_ioengine_name(o->ioengine), depth_max,
				    o->ioengine == FIO_ENGINE_IO_URING ?
				    ", IORING_MAX_ENTRIES: fio fails the job with EINVAL" :
				    o->ioengine == FIO_ENGINE_LIBAIO ?
				    ", fs.aio-max-nr: fio fails the job with EAGAIN" :
				    ", storsim's limit");
	if (o->time_based && !o->runtime) {
		o->time_based = false;
		fixup_warning(warnings, origin_of(origin, "time_based"), "time_based",
			      "needs a runtime; ignored (as in fio)");
	}
	if (o->write_iolog && o->read_iolog) {
		fixup_warning(warnings, origin_of(origin, "write_iolog"), "write_iolog",
			      "read_iolog replaces it; ignored (as in fio)");
		g_free(o->write_iolog);
		o->write_iolog = NULL;
	}
	if (reads)
		o->overwrite = true;
	if (!o->file_size_high)
		o->file_size_high = o->file_size_low;
	if (o->thinktime_spin > o->thinktime)
		o->thinktime_spin = o->thinktime;
	if (!o->iodepth_low || o->iodepth_low > o->iodepth)
		o->iodepth_low = o->iodepth;
	if (!o->iodepth_batch || o->iodepth_batch > o->iodepth)
		o->iodepth_batch = o->iodepth;
	if (o->iodepth_batch_complete_min > o->iodepth_batch_complete_max)
		o->iodepth_batch_complete_max = o->iodepth_batch_complete_min;
	if (o->random_distribution != FIO_RAND_UNIFORM)
		o->norandommap = true;
	if (origin_of(origin, "randseed")->file)
		o->randseed_set = true;
	if (origin_of(origin, "random_generator")->file)
		o->random_generator_set = true;
	if (!o->loops)
		o->loops = 1;
	if (o->pre_read)
		o->invalidate = false;
	if (!o->unit_base)
		o->unit_base = 8;
	if (o->disable_lat)
		o->lat_percentiles = false;
	if (o->disable_clat)
		o->clat_percentiles = false;
	if (o->disable_slat)
		o->slat_percentiles = false;
	return true;
}

