/*
 * the table of every fio 3.33 option (names, aliases, types, defaults,
 * ranges, choices, owning engines, whether storsim models it), the options
 * with a syntax of their own, and the list of fio's engines.
 *
 * Stands for fio 3.33's options.c (fio_options[]), the option tables of
 * engines/<engine>.c, and ioengines.c's engine names. The help lines and
 * the support status are storsim's.

 */
#include "options_impl.h"
/* ------------------------------------------------------------------ */
/* Engines                                                             */

static const struct engine_info engines[] = {
	{ "null", FIO_ENGINE_NULL },
	{ "sync", FIO_ENGINE_SYNC },
	{ "psync", FIO_ENGINE_PSYNC },
	{ "vsync", FIO_ENGINE_VSYNC },
	{ "pvsync", FIO_ENGINE_PVSYNC },
	{ "pvsync2", FIO_ENGINE_PVSYNC2 },
	{ "libaio", FIO_ENGINE_LIBAIO },
	{ "io_uring", FIO_ENGINE_IO_URING },
	{ "io_uring_cmd", -1 },
	{ "cpuio", -1 },
	{ "dev-dax", -1 },
	{ "dfs", -1 },
	{ "e4defrag", -1 },
	{ "exec", -1 },
	{ "falloc", -1 },
	{ "filecreate", -1 },
	{ "filestat", -1 },
	{ "filedelete", -1 },
	{ "ftruncate", -1 },
	{ "gfapi", -1 },
	{ "gfapi_async", -1 },
	{ "http", -1 },
	{ "ime_psync", -1 },
	{ "ime_psyncv", -1 },
	{ "ime_aio", -1 },
	{ "libcufile", -1 },
	{ "libhdfs", -1 },
	{ "libiscsi", -1 },
	{ "libpmem", -1 },
	{ "librpma_apm_client", -1 },
	{ "librpma_apm_server", -1 },
	{ "librpma_gpspm_client", -1 },
	{ "librpma_gpspm_server", -1 },
	{ "libzbc", -1 },
	{ "mmap", -1 },
	{ "mtd", -1 },
	{ "nbd", -1 },
	{ "net", -1 },
	{ "netsplice", -1 },
	{ "nfs", -1 },
	{ "pmemblk", -1 },
	{ "posixaio", -1 },
	{ "rados", -1 },
	{ "rbd", -1 },
	{ "rdma", -1 },
	{ "sg", -1 },
	{ "solarisaio", -1 },
	{ "splice", -1 },
	{ "windowsaio", -1 },
	{ "xnvme", -1 },
};

static const struct engine_info *engine_find(const char *name)
{
	for (size_t i = 0; i < G_N_ELEMENTS(engines); i++)
		if (strcmp(engines[i].name, name) == 0)
			return &engines[i];
	return NULL;
}

static const struct engine_info *engine_of(enum fio_ioengine e)
{
	for (size_t i = 0; i < G_N_ELEMENTS(engines); i++)
		if (engines[i].modelled == (int)e)
			return &engines[i];
	g_assert_not_reached();
}

const char *fio_ioengine_name(enum fio_ioengine e)
{
	return engine_of(e)->name;
}

bool fio_engine_known(const char *name)
{
	return engine_find(name) != NULL;
}

/* ------------------------------------------------------------------ */
/* Options with their own syntax                                       */

const struct fio_choice fio_rw_choices[] = {
	{ "read", FIO_RW_READ, "sequential reads" },
	{ "write", FIO_RW_WRITE, "sequential writes" },
	{ "trim", FIO_RW_TRIM, "sequential trims" },
	{ "randread", FIO_RW_RANDREAD, "random reads" },
	{ "randwrite", FIO_RW_RANDWRITE, "random writes" },
	{ "randtrim", FIO_RW_RANDTRIM, "random trims" },
	{ "rw", FIO_RW_RW, "sequential mixed reads and writes" },
	{ "readwrite", FIO_RW_RW, "same as rw" },
	{ "randrw", FIO_RW_RANDRW, "random mixed reads and writes" },
	{ "trimwrite", FIO_RW_TRIMWRITE, "sequential trim, then write of each block" },
	{ "randtrimwrite", FIO_RW_RANDTRIMWRITE, "random trim, then write of each block" },
	{ NULL, 0, NULL },
};

/* Numbers after ':' in rw=, random_distribution=: whole, at least 1. */
static bool parse_count(const struct fopt_ctx *ctx, const struct fio_option_def *o,
			const char *s, const char *what, uint64_t *out, GError **err)
{
	const char *end;

	if (!fopt_leading_number(s, false, out, &end) || *end || !*out || *out > UINT32_MAX)
		return fopt_bad_value(ctx, o, err, "'%s': %s must be a whole number from 1",
				 s, what);
	return true;
}

/*
 * rw=NAME[:N]: for random patterns N is the number of I/Os issued at each
 * random offset before a new one is drawn; for sequential ones N bytes are
 * added (or, negative, taken) after each I/O.
 */
static bool opt_rw(struct fopt_ctx *ctx, const struct fio_option_def *o,
		   const char *text, GError **err)
{
	struct fopt_value v;
	struct job_options *jo = ctx->o;
	bool ok = true;

	if (!fopt_value_parse(ctx, o, text, &v, err))
		return false;
	jo->rw = (enum fio_rw)v.u[0];
	jo->rw_seq_nr = 1;
	jo->rw_seq_add = 0;
	if (v.postfix) {
		uint64_t n;

		if (fio_rw_random(jo->rw)) {
			ok = parse_count(ctx, o, v.postfix, "the I/Os per random offset",
					 &n, err);
			jo->rw_seq_nr = (unsigned)n;
		} else {
			ok = fopt_parse_size(ctx, o, v.postfix, true, &n, NULL, NULL, err);
			jo->rw_seq_add = (int64_t)n;
		}
	}
	fopt_value_free(&v);
	return ok;
}

/*
 * Split "a[,b[,c]]" by direction the way fio's str_split_parse() does: one
 * list serves all three directions, two give reads and writes (trims take
 * the writes' list), three give each. Returns the number of lists, or 0.
 */
static unsigned split_directions(const struct fopt_ctx *ctx, const struct fio_option_def *o,
				 const char *text, char *lists[FIO_DDIR_COUNT],
				 char **buf, GError **err)
{
	char *p, *c1, *c2;

	*buf = p = g_strdup(text);
	c1 = strchr(p, ',');
	c2 = c1 ? strchr(c1 + 1, ',') : NULL;
	if (c2 && strchr(c2 + 1, ',')) {
		fopt_bad_value(ctx, o, err, "'%s': at most 3 lists (read,write,trim)", text);
		return 0;
	}
	if (c1)
		*c1 = '\0';
	if (c2)
		*c2 = '\0';
	lists[FIO_DDIR_READ] = p;
	lists[FIO_DDIR_WRITE] = c1 ? c1 + 1 : p;
	lists[FIO_DDIR_TRIM] = c2 ? c2 + 1 : lists[FIO_DDIR_WRITE];
	return c2 ? 3 : c1 ? 2 : 1;
}

/* Items of a ':'-separated list; a trailing ':' ends it, as in fio. */
static GStrv split_items(const struct fopt_ctx *ctx, const struct fio_option_def *o,
			 const char *list, GError **err)
{
	GStrv items = g_strsplit(list, ":", 0);
	guint n = g_strv_length(items);

	if (n && !*items[n - 1]) {
		g_free(items[n - 1]);
		items[n - 1] = NULL;
	}
	for (guint i = 0; items[i]; i++) {
		if (!*items[i]) {
			fopt_bad_value(ctx, o, err, "'%s': empty entry", list);
			g_strfreev(items);
			return NULL;
		}
	}
	return items;
}

/*
 * A percentage after '/' in bssplit and zoned lists. As fio, a blank or 0
 * percentage is "not given" and later shares what is left of 100.
 */
static bool parse_share(const struct fopt_ctx *ctx, const struct fio_option_def *o,
			const char *s, unsigned *perc, bool *blank, GError **err)
{
	uint64_t n = 0;
	const char *end;

	if (s && *s && (!fopt_leading_number(s, false, &n, &end) || *end || n > 100))
		return fopt_bad_value(ctx, o, err, "'%s' is not a percentage 0..100", s);
	*perc = (unsigned)n;
	*blank = n == 0;
	return true;
}

/* Give each blank share an equal part of what the others leave of 100. */
static unsigned share_blanks(unsigned total, unsigned blanks, unsigned entries)
{
	if (!blanks)
		return 0;
	/* fio counts a lone blank entry as having given 100 already, which
	 * leaves it 0: a lone zoned:100 zone is empty, so every pick is the
	 * region's first block, and a lone bssplit size is never drawn,
	 * which shows once a later bsrange makes the job draw sizes */
	if (blanks == 1 && entries == 1)
		return 0;
	return (100 - total) / blanks;
}

static bool bssplit_list(const struct fopt_ctx *ctx, const struct fio_option_def *o,
			 const char *list, struct fio_bssplit *out, unsigned *nr,
			 GError **err)
{
	g_auto(GStrv) items = split_items(ctx, o, list, err);
	unsigned n = 0, total = 0, blanks = 0, share;
	bool blank[FIO_BSSPLIT_MAX];

	if (!items)
		return false;
	for (; items[n]; n++) {
		char *slash = strchr(items[n], '/');

		if (n == FIO_BSSPLIT_MAX)
			return fopt_bad_value(ctx, o, err, "more than %d block sizes in '%s'",
					 FIO_BSSPLIT_MAX, list);
		if (slash)
			*slash = '\0';
		if (!fopt_parse_size(ctx, o, items[n], false, &out[n].bs, NULL, NULL, err) ||
		    !parse_share(ctx, o, slash ? slash + 1 : NULL, &out[n].perc,
				 &blank[n], err))
			return false;
		if (!out[n].bs)
			return fopt_bad_value(ctx, o, err, "block size 0 in '%s'", list);
		blanks += blank[n];
		total += out[n].perc;
	}
	if (total > 100)
		return fopt_bad_value(ctx, o, err, "'%s': percentages add up to %u, more than 100",
				 list, total);
	if (n && !blanks && total != 100)
		return fopt_bad_value(ctx, o, err, "'%s': percentages add up to %u, not 100",
				 list, total);
	share = share_blanks(total, blanks, n);
	for (unsigned i = 0; i < n; i++)
		if (blank[i])
			out[i].perc = share;
	/* fio sorts the sizes by share, for its draw (bssplit_ddir's qsort;
	 * equal shares keep their order) */
	for (unsigned i = 1; i < n; i++) {
		struct fio_bssplit e = out[i];
		unsigned j = i;
		for (; j > 0 && out[j - 1].perc > e.perc; j--)
			out[j] = out[j - 1];
		out[j] = e;
	}
	*nr = n;
	return true;
}

/*
 * bssplit=bs/pct:bs/pct[,write list[,trim list]]. A direction whose list is
 * empty keeps what it had. A list sets its direction's min_bs and max_bs
 * then and there, as fio's bssplit_ddir does, so with bsrange in the same
 * job the later of the two gives them: the bounds the sizes are aligned to
 * and cut at, and the block of the offsets.
 */
static bool opt_bssplit(struct fopt_ctx *ctx, const struct fio_option_def *o,
			const char *text, GError **err)
{
	struct fopt_value v;
	char *lists[FIO_DDIR_COUNT];
	g_autofree char *buf = NULL;
	struct fio_bssplit tmp[FIO_BSSPLIT_MAX];
	unsigned nr = 0;

	if (!fopt_value_parse(ctx, o, text, &v, err) ||
	    !split_directions(ctx, o, text, lists, &buf, err))
		return false;
	for (int d = 0; d < FIO_DDIR_COUNT; d++) {
		if (!bssplit_list(ctx, o, lists[d], tmp, &nr, err))
			return false;
		if (!nr)
			continue;
		memcpy(ctx->o->bssplit[d], tmp, nr * sizeof(tmp[0]));
		ctx->o->bssplit_nr[d] = nr;
		ctx->o->min_bs[d] = UINT64_MAX;
		ctx->o->max_bs[d] = 0;
		for (unsigned i = 0; i < nr; i++) {
			ctx->o->min_bs[d] = MIN(ctx->o->min_bs[d], tmp[i].bs);
			ctx->o->max_bs[d] = MAX(ctx->o->max_bs[d], tmp[i].bs);
		}
	}
	return true;
}

static const struct fio_choice rand_dist_choices[] = {
	{ "random", FIO_RAND_UNIFORM, "uniform" },
	{ "zipf", FIO_RAND_ZIPF, "zipf:theta[:center], theta 1.1 if not given" },
	{ "pareto", FIO_RAND_PARETO, "pareto:h[:center], h 0.2 if not given" },
	{ "normal", FIO_RAND_NORMAL, "normal:sigma[:center], sigma 0 if not given" },
	{ "zoned", FIO_RAND_ZONED, "zoned:access%/size%:..." },
	{ "zoned_abs", FIO_RAND_ZONED_ABS, "zoned_abs:access%/size:..." },
	{ NULL, 0, NULL },
};

/*
 * One direction of zoned (sizes as percentages) or zoned_abs (sizes in
 * bytes). Access percentages must add up to exactly 100.
 */
static bool zone_list(const struct fopt_ctx *ctx, const struct fio_option_def *o,
		      const char *list, bool absolute, struct fio_zone_split *out,
		      unsigned *nr, GError **err)
{
	g_auto(GStrv) items = split_items(ctx, o, list, err);
	unsigned n = 0, access = 0, sizes = 0, blanks = 0, share;
	bool blank[FIO_ZONESPLIT_MAX];

	if (!items)
		return false;
	for (; items[n]; n++) {
		char *slash = strchr(items[n], '/');
		uint64_t a;

		if (n == FIO_ZONESPLIT_MAX)
			return fopt_bad_value(ctx, o, err, "more than %d zones in '%s'",
					 FIO_ZONESPLIT_MAX, list);
		if (slash)
			*slash = '\0';
		if (!*items[n])
			return fopt_bad_value(ctx, o, err, "zone '/%s' needs an access percentage",
					 slash ? slash + 1 : "");
		if (!parse_share(ctx, o, items[n], &out[n].access_perc, &blank[n], err))
			return false;
		a = out[n].access_perc;
		blank[n] = false;
		out[n].size = 0;
		out[n].size_perc = 0;
		if (absolute) {
			if (!slash)
				return fopt_bad_value(ctx, o, err, "zone '%s' needs a size", items[n]);
			if (!fopt_parse_size(ctx, o, slash + 1, false, &out[n].size, NULL, NULL, err))
				return false;
		} else if (!parse_share(ctx, o, slash ? slash + 1 : NULL,
					&out[n].size_perc, &blank[n], err)) {
			return false;
		}
		access += (unsigned)a;
		sizes += out[n].size_perc;
		blanks += blank[n];
	}
	if (n && access != 100)
		return fopt_bad_value(ctx, o, err, "'%s': access percentages add up to %u, not 100",
				 list, access);
	if (sizes > 100)
		return fopt_bad_value(ctx, o, err, "'%s': size percentages add up to %u, more than 100",
				 list, sizes);
	share = share_blanks(sizes, blanks, n);
	for (unsigned i = 0; i < n; i++)
		if (blank[i])
			out[i].size_perc = share;
	*nr = n;
	return true;
}

/* none and mixed; both (each direction and their sum) is not modelled. */
static bool opt_unified(struct fopt_ctx *ctx, const struct fio_option_def *o,
			const char *text, GError **err)
{
	struct fopt_value v;
	bool ok = true;

	if (!fopt_value_parse(ctx, o, text, &v, err))
		return false;
	ctx->o->unified_rw_reporting = (enum fio_unified_rw)v.u[0];
	if (ctx->o->unified_rw_reporting == FIO_UNIFIED_BOTH)
		ok = fopt_refuse(ctx, o, err, "both: each direction and their sum");
	fopt_value_free(&v);
	return ok;
}

/* The VALUE[:CENTER] of a zipf, pareto or normal distribution, for
 * random_distribution and file_service_type alike (fio's
 * split_parse_distr and its checks), with fio's defaults. */
static bool dist_params(struct fopt_ctx *ctx, const struct fio_option_def *o,
			enum fio_rand_dist kind, char *postfix, double *param,
			double *center, GError **err)
{
	static const double deflt[] = { [FIO_RAND_ZIPF] = 1.1,
					[FIO_RAND_PARETO] = 0.2,
					[FIO_RAND_NORMAL] = 0.0 };
	char *c = postfix ? strchr(postfix, ':') : NULL;
	double p = deflt[kind];

	*center = -1;
	if (c)
		*c++ = '\0';
	if ((postfix && !fopt_parse_float(ctx, o, postfix, &p, err)) ||
	    (c && !fopt_parse_float(ctx, o, c, center, err)))
		return false;
	*param = p;
	if (c && (*center < 0 || *center > 1))
		return fopt_bad_value(ctx, o, err, "center %g is outside 0..1", *center);
	if (kind == FIO_RAND_ZIPF && p == 1.0)
		return fopt_bad_value(ctx, o, err, "zipf theta must not be 1.0");
	if (kind == FIO_RAND_PARETO && (p <= 0 || p >= 1))
		return fopt_bad_value(ctx, o, err, "pareto h %g is outside (0, 1)", p);
	if (kind == FIO_RAND_NORMAL && (p < 0 || p >= 100))
		return fopt_bad_value(ctx, o, err, "normal deviation %g is outside [0, 100)", p);
	return true;
}

/* fio's str_fst_cb: random, roundrobin and sequential, with ":N" I/Os to
 * a file before the next is picked; zipf, pareto and normal (gauss), with
 * ":VALUE[:CENTER]", pick a file for every I/O. */
static bool opt_file_service_type(struct fopt_ctx *ctx,
				  const struct fio_option_def *o,
				  const char *text, GError **err)
{
	struct fopt_value v;
	struct job_options *jo = ctx->o;
	bool ok = true;

	if (!fopt_value_parse(ctx, o, text, &v, err))
		return false;
	jo->file_service = (enum fio_file_service)v.u[0];
	jo->file_service_nr = 1;
	if (fio_fservice_nonuniform(jo->file_service)) {
		ok = dist_params(ctx, o, (enum fio_rand_dist)jo->file_service,
				 v.postfix, &jo->fsrv_param, &jo->fsrv_center, err);
	} else if (v.postfix) {
		uint64_t n;
		ok = parse_count(ctx, o, v.postfix, "the I/Os per file", &n, err);
		jo->file_service_nr = (unsigned)n;
	}
	fopt_value_free(&v);
	return ok;
}

static bool opt_random_distribution(struct fopt_ctx *ctx, const struct fio_option_def *o,
				    const char *text, GError **err)
{
	struct job_options *jo = ctx->o;
	struct fopt_value v;
	bool ok = true;

	if (!fopt_value_parse(ctx, o, text, &v, err))
		return false;
	jo->random_distribution = (enum fio_rand_dist)v.u[0];
	jo->rand_center = -1;
	memset(jo->zones_nr, 0, sizeof(jo->zones_nr));
	switch (jo->random_distribution) {
	case FIO_RAND_UNIFORM:
		if (v.postfix)
			ok = fopt_bad_value(ctx, o, err, "'random' takes no parameter");
		break;
	case FIO_RAND_ZIPF:
	case FIO_RAND_PARETO:
	case FIO_RAND_NORMAL:
		ok = dist_params(ctx, o, jo->random_distribution, v.postfix,
				 &jo->rand_param, &jo->rand_center, err);
		break;
	case FIO_RAND_ZONED:
	case FIO_RAND_ZONED_ABS: {
		char *lists[FIO_DDIR_COUNT];
		g_autofree char *buf = NULL;

		if (!v.postfix || !*v.postfix) {
			ok = fopt_bad_value(ctx, o, err, "'%s' needs zones after ':'", text);
			break;
		}
		/* fio 3.33's option parser fails on a list per direction */
		if (strchr(v.postfix, ',')) {
			ok = fopt_bad_value(ctx, o, err, "'%s': fio 3.33 takes one zone list, "
				       "for every direction (it fails on ',')", text);
			break;
		}
		if (!split_directions(ctx, o, v.postfix, lists, &buf, err)) {
			ok = false;
			break;
		}
		for (int d = 0; ok && d < FIO_DDIR_COUNT; d++)
			ok = zone_list(ctx, o, lists[d],
				       jo->random_distribution == FIO_RAND_ZONED_ABS,
				       jo->zones[d], &jo->zones_nr[d], err);
		break;
	}
	}
	fopt_value_free(&v);
	return ok;
}

static bool set_cpu(const struct fopt_ctx *ctx, const struct fio_option_def *o,
		    uint64_t *mask, uint64_t cpu, GError **err)
{
	if (cpu >= ctx->ncpus || cpu >= FIO_MAX_CPUS)
		return fopt_bad_value(ctx, o, err,
				 "CPU %" PRIu64 " does not exist on the simulated host (%u CPUs)",
				 cpu, MIN(ctx->ncpus, FIO_MAX_CPUS));
	mask[cpu / 64] |= 1ULL << (cpu % 64);
	return true;
}

/* cpus_allowed=0-3,5: CPUs and ranges, each below the host's CPU count. */
static bool opt_cpus_allowed(struct fopt_ctx *ctx, const struct fio_option_def *o,
			     const char *text, GError **err)
{
	uint64_t mask[FIO_CPU_WORDS] = { 0 };
	g_auto(GStrv) parts = NULL;
	struct fopt_value v;

	if (!fopt_value_parse(ctx, o, text, &v, err))
		return false;
	parts = g_strsplit(text, ",", 0);
	for (guint i = 0; parts[i]; i++) {
		const char *end;
		uint64_t lo, hi;

		if (!fopt_leading_number(parts[i], false, &lo, &end))
			return fopt_bad_value(ctx, o, err, "'%s' is not a CPU list", text);
		hi = lo;
		if (*end == '-' && !fopt_leading_number(end + 1, false, &hi, &end))
			return fopt_bad_value(ctx, o, err, "'%s' is not a CPU list", text);
		if (*end)
			return fopt_bad_value(ctx, o, err, "'%s' is not a CPU list", text);
		if (lo > hi)
			return fopt_bad_value(ctx, o, err, "CPU range '%s' is empty", parts[i]);
		for (uint64_t c = lo; c <= hi; c++)
			if (!set_cpu(ctx, o, mask, c, err))
				return false;
	}
	memcpy(ctx->o->cpus_allowed, mask, sizeof(mask));
	ctx->o->cpus_allowed_set = true;
	return true;
}

/* cpumask=N: the same set as a 32-bit mask. */
static bool opt_cpumask(struct fopt_ctx *ctx, const struct fio_option_def *o,
			const char *text, GError **err)
{
	uint64_t mask[FIO_CPU_WORDS] = { 0 };
	struct fopt_value v;

	if (!fopt_value_parse(ctx, o, text, &v, err))
		return false;
	for (unsigned c = 0; c < 32; c++)
		if ((v.u[0] >> c) & 1 && !set_cpu(ctx, o, mask, c, err))
			return false;
	memcpy(ctx->o->cpus_allowed, mask, sizeof(mask));
	ctx->o->cpus_allowed_set = true;
	return true;
}

static bool opt_sqthread_poll_cpu(struct fopt_ctx *ctx, const struct fio_option_def *o,
				  const char *text, GError **err)
{
	uint64_t mask[FIO_CPU_WORDS] = { 0 };
	struct fopt_value v;

	if (!fopt_value_parse(ctx, o, text, &v, err) || !set_cpu(ctx, o, mask, v.u[0], err))
		return false;
	ctx->o->eng.sqthread_poll_cpu = (int)v.u[0];
	return true;
}

static GString *modelled_engines(void)
{
	GString *s = g_string_new(NULL);

	for (size_t i = 0; i < G_N_ELEMENTS(engines); i++)
		if (engines[i].modelled >= 0)
			g_string_append_printf(s, "%s%s", s->len ? ", " : "", engines[i].name);
	return s;
}

/*
 * ioengine=NAME: the modelled engines are stored; any other fio engine, an
 * external one ("external:lib.so", a path) or an unknown name (fio would
 * try to dlopen it) is refused.
 */
static bool opt_ioengine(struct fopt_ctx *ctx, const struct fio_option_def *o,
			 const char *text, GError **err)
{
	g_autoptr(GString) list = modelled_engines();
	const struct engine_info *e;
	struct fopt_value v;
	const char *name = text, *closest = NULL;
	size_t best = SIZE_MAX;

	if (!fopt_value_parse(ctx, o, text, &v, err))
		return false;
	/* fio's load_ioengine() turns these prefixes into libaio */
	if (g_str_has_prefix(name, "linuxaio") || g_str_has_prefix(name, "aio"))
		name = "libaio";
	e = engine_find(name);
	if (e && e->modelled >= 0) {
		ctx->o->ioengine = (enum fio_ioengine)e->modelled;
		return true;
	}
	if (e)
		return fopt_refuse(ctx, o, err, "engine '%s'; storsim models %s", name, list->str);
	for (size_t i = 0; i < G_N_ELEMENTS(engines); i++) {
		size_t d = storsim_edit_distance(name, engines[i].name, 2);

		if (d < best) {
			best = d;
			closest = engines[i].name;
		}
	}
	if (best > 2 || g_str_has_prefix(name, "external"))
		closest = NULL;
	return fopt_refuse(ctx, o, err,
		      "'%s' is not a fio 3.33 built-in engine; fio would load it as an "
		      "external engine%s%s%s", text, closest ? "; did you mean '" : "",
		      closest ? closest : "", closest ? "'?" : "");
}

/* filename: a ':'-separated list whose empty entries fio skips; one
 * with no entry at all (":", "::") names no file, and fio runs such a
 * job doing no I/O, which would be a silently empty run. */
static bool opt_filename(struct fopt_ctx *ctx, const struct fio_option_def *o,
			 const char *text, GError **err)
{
	struct fopt_value v;

	if (!fopt_value_parse(ctx, o, text, &v, err))
		return false;
	if (strspn(text, ":") == strlen(text))
		return fopt_bad_value(ctx, o, err, "'%s' names no file "
				      "(entries are ':'-separated; '\\:' is a colon)",
				      text);
	g_free(ctx->o->filename);
	ctx->o->filename = g_strdup(text);
	return true;
}

/* write_bw_log[=prefix]: the flag at off, the optional prefix at off_hi. */
static bool opt_log(struct fopt_ctx *ctx, const struct fio_option_def *o,
		    const char *text, GError **err)
{
	char **prefix = FIELD_PTR(ctx->o, o->off_hi, char *);
	struct fopt_value v;

	if (!fopt_value_parse(ctx, o, text, &v, err))
		return false;
	*FIELD_PTR(ctx->o, o->off, bool) = true;
	if (text) {
		g_free(*prefix);
		*prefix = g_strdup(text);
	}
	return true;
}

/* gtod_reduce=1 turns off what needs many clock reads, as fio's callback. */
static bool opt_gtod_reduce(struct fopt_ctx *ctx, const struct fio_option_def *o,
			    const char *text, GError **err)
{
	struct job_options *jo = ctx->o;
	struct fopt_value v;

	if (!fopt_value_parse(ctx, o, text, &v, err))
		return false;
	jo->gtod_reduce = v.u[0] != 0;
	if (jo->gtod_reduce) {
		jo->disable_lat = jo->disable_clat = jo->disable_slat = true;
		jo->disable_bw = true;
		jo->clat_percentiles = jo->lat_percentiles = false;
		jo->slat_percentiles = false;
	}
	return true;
}

/* rwmixread and rwmixwrite set each other's complement. */
static bool opt_rwmix(struct fopt_ctx *ctx, const struct fio_option_def *o,
		      const char *text, GError **err)
{
	bool write = strcmp(o->name, "rwmixwrite") == 0;
	struct fopt_value v;

	if (!fopt_value_parse(ctx, o, text, &v, err))
		return false;
	ctx->o->rwmix[write] = (unsigned)v.u[0];
	ctx->o->rwmix[!write] = 100 - (unsigned)v.u[0];
	return true;
}

/*
 * size, io_size, offset, offset_increment: bytes at off, or N% of the file
 * at off_hi. Zone counts (Nz) only mean something with zonemode=zbd.
 */
static bool opt_size_or_pct(struct fopt_ctx *ctx, const struct fio_option_def *o,
			    const char *text, GError **err)
{
	struct fopt_value v;

	if (!fopt_value_parse(ctx, o, text, &v, err))
		return false;
	if (v.zone)
		return fopt_refuse(ctx, o, err, "a zone count needs zonemode=zbd");
	/* fio's str_size_cb and its kind clear the bytes for a percentage,
	 * but leave a percentage given before in place for bytes, and the
	 * percentage wins: size=50% then size=256k is 50% of the file. */
	if (v.pct) {
		*FIELD_PTR(ctx->o, o->off, uint64_t) = 0;
		*FIELD_PTR(ctx->o, o->off_hi, unsigned) = (unsigned)v.u[0];
	} else {
		*FIELD_PTR(ctx->o, o->off, uint64_t) = v.u[0];
	}
	return true;
}

/* zonemode: none and strided; zbd (zoned block devices) is not modelled. */
static bool opt_zonemode(struct fopt_ctx *ctx, const struct fio_option_def *o,
			 const char *text, GError **err)
{
	struct fopt_value v;
	bool ok = true;

	if (!fopt_value_parse(ctx, o, text, &v, err))
		return false;
	if (v.u[0] == 2)
		ok = fopt_refuse(ctx, o, err, "zoned block devices (zbd)");
	ctx->o->zone_strided = v.u[0] == 1;
	fopt_value_free(&v);
	return ok;
}

/* zoneskip: bytes; a percentage or a zone count is not modelled. */
static bool opt_zoneskip(struct fopt_ctx *ctx, const struct fio_option_def *o,
			 const char *text, GError **err)
{
	struct fopt_value v;

	if (!fopt_value_parse(ctx, o, text, &v, err))
		return false;
	if (v.zone || v.pct)
		return fopt_refuse(ctx, o, err, "a zone skip in percent or zones");
	ctx->o->zone_skip = v.u[0];
	return true;
}

static bool opt_latency_percentile(struct fopt_ctx *ctx,
				   const struct fio_option_def *o,
				   const char *text, GError **err)
{
	struct fopt_value v;

	if (!fopt_value_parse(ctx, o, text, &v, err))
		return false;
	ctx->o->latency_percentile = v.nf ? v.f[0] : 100.0;
	return true;
}

static bool opt_percentile_list(struct fopt_ctx *ctx, const struct fio_option_def *o,
				const char *text, GError **err)
{
	struct fopt_value v;

	if (!fopt_value_parse(ctx, o, text, &v, err))
		return false;
	memcpy(ctx->o->percentile_list, v.f, sizeof(v.f));
	ctx->o->percentile_nr = v.nf;
	ctx->o->percentile_precision = v.precision;
	return true;
}

/* ------------------------------------------------------------------ */
/* The table                                                           */

static const struct fio_choice lockfile_choices[] = {
	{ "none", 0, NULL },
	{ "exclusive", 1, NULL },
	{ "readwrite", 2, NULL },
	{ NULL, 0, NULL },
};

static const struct fio_choice rwseq_choices[] = {
	{ "sequential", FIO_RWSEQ_SEQUENTIAL, NULL },
	{ "identical", FIO_RWSEQ_IDENTICAL, NULL },
	{ NULL, 0, NULL },
};

static const struct fio_choice io_submit_mode_choices[] = {
	{ "inline", 0, NULL },
	{ "offload", 1, NULL },
	{ NULL, 0, NULL },
};

static const struct fio_choice randgen_choices[] = {
	{ "tausworthe", FIO_RANDGEN_TAUSWORTHE, NULL },
	{ "lfsr", FIO_RANDGEN_LFSR, NULL },
	{ "tausworthe64", FIO_RANDGEN_TAUSWORTHE64, NULL },
	{ NULL, 0, NULL },
};

static const struct fio_choice file_service_type_choices[] = {
	{ "random", 0, NULL },
	{ "zipf", 1, NULL },
	{ "pareto", 2, NULL },
	{ "normal", 3, NULL },
	{ "gauss", 3, NULL },
	{ "roundrobin", 4, NULL },
	{ "sequential", 5, NULL },
	{ NULL, 0, NULL },
};

static const struct fio_choice fallocate_choices[] = {
	{ "none", FIO_FALLOC_NONE, NULL },
	{ "native", FIO_FALLOC_NATIVE, NULL },
	{ "posix", FIO_FALLOC_POSIX, NULL },
	{ "keep", FIO_FALLOC_KEEP, NULL },
	{ "truncate", FIO_FALLOC_TRUNCATE, NULL },
	{ "0", FIO_FALLOC_NONE, NULL },
	{ "1", FIO_FALLOC_POSIX, NULL },
	{ NULL, 0, NULL },
};

static const struct fio_choice fadvise_hint_choices[] = {
	{ "0", FIO_FADV_NONE, NULL },
	{ "1", FIO_FADV_TYPE, NULL },
	{ "random", FIO_FADV_RANDOM, NULL },
	{ "sequential", FIO_FADV_SEQUENTIAL, NULL },
	{ NULL, 0, NULL },
};

static const struct fio_choice sync_file_range_choices[] = {
	{ "wait_before", 1, NULL },
	{ "write", 2, NULL },
	{ "wait_after", 4, NULL },
	{ NULL, 0, NULL },
};

static const struct fio_choice clocksource_choices[] = {
	{ "gettimeofday", 0, NULL },
	{ "clock_gettime", 1, NULL },
	{ "cpu", 2, NULL },
	{ NULL, 0, NULL },
};

static const struct fio_choice mem_choices[] = {
	{ "malloc", 0, NULL },
	{ "shm", 1, NULL },
	{ "shmhuge", 2, NULL },
	{ "mmap", 3, NULL },
	{ "mmapshared", 4, NULL },
	{ "mmaphuge", 5, NULL },
	{ "cudamalloc", 6, NULL },
	{ NULL, 0, NULL },
};

static const struct fio_choice verify_choices[] = {
	{ "0", FIO_VERIFY_NONE, NULL },
	{ "md5", FIO_VERIFY_MD5, NULL },
	{ "crc64", FIO_VERIFY_CRC64, NULL },
	{ "crc32", FIO_VERIFY_CRC32, NULL },
	{ "crc32c-intel", FIO_VERIFY_CRC32C, NULL },
	{ "crc32c", FIO_VERIFY_CRC32C, NULL },
	{ "crc16", FIO_VERIFY_CRC16, NULL },
	{ "crc7", FIO_VERIFY_CRC7, NULL },
	{ "sha1", FIO_VERIFY_SHA1, NULL },
	{ "sha256", FIO_VERIFY_SHA256, NULL },
	{ "sha512", FIO_VERIFY_SHA512, NULL },
	{ "sha3-224", FIO_VERIFY_SHA3_224, NULL },
	{ "sha3-256", FIO_VERIFY_SHA3_256, NULL },
	{ "sha3-384", FIO_VERIFY_SHA3_384, NULL },
	{ "sha3-512", FIO_VERIFY_SHA3_512, NULL },
	{ "xxhash", FIO_VERIFY_XXHASH, NULL },
	{ "meta", FIO_VERIFY_META, NULL },
	{ "pattern", FIO_VERIFY_PATTERN, NULL },
	{ "null", FIO_VERIFY_NULL, NULL },
	{ NULL, 0, NULL },
};

static const struct fio_choice zonemode_choices[] = {
	{ "none", 0, NULL },
	{ "strided", 1, NULL },
	{ "zbd", 2, NULL },
	{ NULL, 0, NULL },
};

static const struct fio_choice thinktime_blocks_type_choices[] = {
	{ "complete", 0, NULL },
	{ "issue", 1, NULL },
	{ NULL, 0, NULL },
};

static const struct fio_choice rate_process_choices[] = {
	{ "linear", FIO_RATE_LINEAR, NULL },
	{ "poisson", FIO_RATE_POISSON, NULL },
	{ NULL, 0, NULL },
};

static const struct fio_choice sync_choices[] = {
	{ "none", FIO_SYNC_NONE, NULL },
	{ "0", FIO_SYNC_NONE, NULL },
	{ "sync", FIO_SYNC_SYNC, NULL },
	{ "1", FIO_SYNC_SYNC, NULL },
	{ "dsync", FIO_SYNC_DSYNC, NULL },
	{ NULL, 0, NULL },
};

static const struct fio_choice write_hint_choices[] = {
	{ "none", 0, NULL },
	{ "short", 1, NULL },
	{ "medium", 2, NULL },
	{ "long", 3, NULL },
	{ "extreme", 4, NULL },
	{ NULL, 0, NULL },
};

static const struct fio_choice cpus_policy_choices[] = {
	{ "shared", FIO_CPUS_SHARED, NULL },
	{ "split", FIO_CPUS_SPLIT, NULL },
	{ NULL, 0, NULL },
};

static const struct fio_choice exit_what_choices[] = {
	{ "group", FIO_EXIT_GROUP, NULL },
	{ "stonewall", FIO_EXIT_STONEWALL, NULL },
	{ "all", FIO_EXIT_ALL, NULL },
	{ NULL, 0, NULL },
};

static const struct fio_choice dedupe_mode_choices[] = {
	{ "repeat", 0, NULL },
	{ "working_set", 1, NULL },
	{ NULL, 0, NULL },
};

static const struct fio_choice unified_choices[] = {
	{ "none", FIO_UNIFIED_NONE, NULL },
	{ "mixed", FIO_UNIFIED_MIXED, NULL },
	{ "both", FIO_UNIFIED_BOTH, NULL },
	{ "0", FIO_UNIFIED_NONE, NULL },
	{ "1", FIO_UNIFIED_MIXED, NULL },
	{ "2", FIO_UNIFIED_BOTH, NULL },
	{ NULL, 0, NULL },
};

static const struct fio_choice continue_on_error_choices[] = {
	{ "none", 0, NULL },
	{ "read", 1, NULL },
	{ "write", 2, NULL },
	{ "io", 3, NULL },
	{ "verify", 4, NULL },
	{ "all", 5, NULL },
	{ "0", 0, NULL },
	{ "1", 5, NULL },
	{ NULL, 0, NULL },
};

static const struct fio_choice kb_base_choices[] = {
	{ "1024", 1024, NULL },
	{ "1000", 1000, NULL },
	{ NULL, 0, NULL },
};

static const struct fio_choice unit_base_choices[] = {
	{ "0", 0, NULL },
	{ "8", 8, NULL },
	{ "1", 1, NULL },
	{ NULL, 0, NULL },
};

static const struct fio_choice steadystate_choices[] = {
	{ "iops", 0, NULL },
	{ "iops_slope", 1, NULL },
	{ "bw", 2, NULL },
	{ "bw_slope", 3, NULL },
	{ NULL, 0, NULL },
};

static const struct fio_choice cpumode_choices[] = {
	{ "noop", 0, NULL },
	{ "qsort", 1, NULL },
	{ NULL, 0, NULL },
};

static const struct fio_choice stat_type_choices[] = {
	{ "stat", 0, NULL },
	{ "lstat", 1, NULL },
	{ "statx", 2, NULL },
	{ NULL, 0, NULL },
};

static const struct fio_choice https_choices[] = {
	{ "off", 0, NULL },
	{ "on", 1, NULL },
	{ "insecure", 2, NULL },
	{ NULL, 0, NULL },
};

static const struct fio_choice http_mode_choices[] = {
	{ "webdav", 0, NULL },
	{ "s3", 1, NULL },
	{ "swift", 2, NULL },
	{ NULL, 0, NULL },
};

static const struct fio_choice cmd_type_choices[] = {
	{ "nvme", 0, NULL },
	{ NULL, 0, NULL },
};

static const struct fio_choice cuda_io_choices[] = {
	{ "cufile", 0, NULL },
	{ "posix", 1, NULL },
	{ NULL, 0, NULL },
};

static const struct fio_choice protocol_choices[] = {
	{ "tcp", 0, NULL },
	{ "tcpv6", 1, NULL },
	{ "udp", 2, NULL },
	{ "udpv6", 3, NULL },
	{ "unix", 4, NULL },
	{ NULL, 0, NULL },
};

static const struct fio_choice verb_choices[] = {
	{ "write", 0, NULL },
	{ "read", 1, NULL },
	{ "send", 2, NULL },
	{ "recv", 3, NULL },
	{ NULL, 0, NULL },
};

static const struct fio_choice sg_write_mode_choices[] = {
	{ "write", 0, NULL },
	{ "write_and_verify", 1, NULL },
	{ "verify", 1, NULL },
	{ "write_same", 2, NULL },
	{ "same", 2, NULL },
	{ "write_same_ndob", 3, NULL },
	{ "verify_bytchk_00", 4, NULL },
	{ "verify_bytchk_01", 5, NULL },
	{ "verify_bytchk_11", 6, NULL },
	{ "write_stream", 7, NULL },
	{ NULL, 0, NULL },
};

const struct fio_option_def fio_option_defs[] = {
	{
		.name = "description", .type = FOPT_STR_STORE,
		.support = FOPT_MODELLED, .field = FIELD_STR,
		.off = OFF(description),
		.help = "Free text describing the job, shown with its results",
	},
	{
		.name = "name", .type = FOPT_STR_STORE,
		.support = FOPT_MODELLED, .field = FIELD_STR, .off = OFF(name),
		.help = "Job name; on the command line --name starts a new job",
	},
	{
		.name = "wait_for", .type = FOPT_STR_STORE,
		.support = FOPT_MODELLED, .field = FIELD_STR,
		.off = OFF(wait_for),
		.help = "Start only after the named earlier job has finished",
	},
	{
		.name = "filename", .type = FOPT_STR_STORE, .prio = -1,
		.support = FOPT_MODELLED, .field = FIELD_STR,
		.off = OFF(filename), .parse = opt_filename,
		.help = "Files or devices of the job, ':'-separated ('\\:' is a colon)",
	},
	{
		.name = "directory", .type = FOPT_STR_STORE,
		.support = FOPT_MODELLED, .field = FIELD_STR,
		.off = OFF(directory),
		.help = "Directory of the job's files; in a ':'-separated list, clone N takes entry N modulo its length",
	},
	{
		.name = "filename_format", .type = FOPT_STR_STORE,
		.def = "$jobname.$jobnum.$filenum", .prio = -1,
		.support = FOPT_MODELLED, .field = FIELD_STR,
		.off = OFF(filename_format),
		.help = "Template of generated file names: $jobname, $jobnum, $filenum",
	},
	{
		.name = "unique_filename", .type = FOPT_BOOL, .def = "1",
		.support = FOPT_IGNORED,
		.help = "For network clients, prefix file names with the client's address",
	},
	{
		.name = "lockfile", .type = FOPT_STR, .def = "none",
		.choices = lockfile_choices, .prio = 1, .support = FOPT_REFUSED,
		.help = "Lock each file while doing I/O to it",
	},
	{
		.name = "opendir", .type = FOPT_STR_STORE,
		.support = FOPT_REFUSED,
		.help = "Add every file below this directory to the job",
	},
	{
		.name = "rw", .alias = "readwrite", .type = FOPT_STR,
		.def = "read", .choices = fio_rw_choices, .flags = FOPT_F_POSTFIX,
		.support = FOPT_MODELLED, .parse = opt_rw,
		.help = "I/O pattern; rw=NAME:N adds an offset modifier",
	},
	{
		.name = "rw_sequencer", .type = FOPT_STR, .def = "sequential",
		.choices = rwseq_choices, .support = FOPT_MODELLED,
		.field = FIELD_INT, .off = OFF(rw_sequencer),
		.help = "What N of rw=NAME:N means: new offsets (sequential) or repeats (identical)",
	},
	{
		.name = "ioengine", .type = FOPT_STR_STORE, .def = "psync",
		.support = FOPT_MODELLED, .parse = opt_ioengine,
		.help = "How the job issues I/O",
	},
	{
		.name = "iodepth", .type = FOPT_INT, .def = "1", .min = 1,
		.support = FOPT_MODELLED, .field = FIELD_U32,
		.off = OFF(iodepth), .help = "I/Os kept in flight",
	},
	{
		.name = "iodepth_batch", .alias = "iodepth_batch_submit",
		.type = FOPT_INT, .def = "1", .support = FOPT_MODELLED,
		.field = FIELD_U32, .off = OFF(iodepth_batch),
		.help = "I/Os submitted per call (0: iodepth)",
	},
	{
		.name = "iodepth_batch_complete_min",
		.alias = "iodepth_batch_complete", .type = FOPT_INT, .def = "1",
		.support = FOPT_MODELLED, .field = FIELD_U32,
		.off = OFF(iodepth_batch_complete_min),
		.help = "Fewest completions reaped per call",
	},
	{
		.name = "iodepth_batch_complete_max", .type = FOPT_INT,
		.support = FOPT_MODELLED, .field = FIELD_U32,
		.off = OFF(iodepth_batch_complete_max),
		.help = "Most completions reaped per call (0: iodepth_batch_complete_min)",
	},
	{
		.name = "iodepth_low", .type = FOPT_INT,
		.support = FOPT_MODELLED, .field = FIELD_U32,
		.off = OFF(iodepth_low),
		.help = "Refill the queue only once it has drained to this depth",
	},
	{
		.name = "serialize_overlap", .type = FOPT_BOOL, .def = "0",
		.support = FOPT_REFUSED,
		.help = "Hold back an I/O that overlaps one in flight",
	},
	{
		.name = "io_submit_mode", .type = FOPT_STR, .def = "inline",
		.choices = io_submit_mode_choices, .support = FOPT_REFUSED,
		.help = "Submit from the job (inline) or from a helper thread (offload)",
	},
	{
		.name = "size", .type = FOPT_STR_VAL_ZONE,
		.flags = FOPT_F_PERCENT, .support = FOPT_MODELLED,
		.off = OFF(size), .off_hi = OFF(size_percent),
		.parse = opt_size_or_pct,
		.help = "Bytes of the job's region, or N% of the file or device",
	},
	{
		.name = "io_size", .alias = "io_limit",
		.type = FOPT_STR_VAL_ZONE, .flags = FOPT_F_PERCENT,
		.support = FOPT_MODELLED, .off = OFF(io_size),
		.off_hi = OFF(io_size_percent), .parse = opt_size_or_pct,
		.help = "Bytes of I/O to do, or N% of size (default: size)",
	},
	{
		.name = "fill_device", .alias = "fill_fs", .type = FOPT_BOOL,
		.def = "0", .support = FOPT_REFUSED,
		.help = "Write until the device or file system is full",
	},
	{
		.name = "filesize", .type = FOPT_STR_VAL, .min = 1,
		.flags = FOPT_F_HI, .support = FOPT_MODELLED,
		.field = FIELD_U64, .off = OFF(file_size_low),
		.off_hi = OFF(file_size_high),
		.help = "Size of each file; lo-hi draws one per file",
	},
	{
		.name = "file_append", .type = FOPT_BOOL, .def = "0",
		.support = FOPT_MODELLED, .field = FIELD_BOOL,
		.off = OFF(file_append),
		.help = "Start the I/O at the end of each file (refused for "
			"a file that exists: fio would extend it)",
	},
	{
		.name = "offset", .alias = "fileoffset",
		.type = FOPT_STR_VAL_ZONE, .def = "0", .flags = FOPT_F_PERCENT,
		.support = FOPT_MODELLED, .off = OFF(offset),
		.off_hi = OFF(offset_percent), .parse = opt_size_or_pct,
		.help = "Start of the I/O region, in bytes or N% of the file",
	},
	{
		.name = "offset_align", .type = FOPT_INT, .def = "0",
		.support = FOPT_MODELLED, .field = FIELD_U32,
		.off = OFF(offset_align),
		.help = "Alignment of an offset given as N% (0: the smallest block)",
	},
	{
		.name = "offset_increment", .type = FOPT_STR_VAL_ZONE,
		.def = "0", .flags = FOPT_F_PERCENT, .support = FOPT_MODELLED,
		.off = OFF(offset_increment),
		.off_hi = OFF(offset_increment_percent),
		.parse = opt_size_or_pct,
		.help = "Offset added for each clone of the job (numjobs)",
	},
	{
		.name = "number_ios", .type = FOPT_STR_VAL, .def = "0",
		.support = FOPT_MODELLED, .field = FIELD_U64,
		.off = OFF(number_ios),
		.help = "Stop after this many I/Os (0: no limit)",
	},
	{
		.name = "bs", .alias = "blocksize", .type = FOPT_ULL,
		.def = "4096", .min = 1, .flags = FOPT_F_PERDIR,
		.support = FOPT_MODELLED, .field = FIELD_U64, .off = OFF(bs),
		.help = "Block size: bs=READ[,WRITE[,TRIM]]",
	},
	{
		.name = "ba", .alias = "blockalign", .type = FOPT_ULL, .min = 1,
		.flags = FOPT_F_PERDIR, .support = FOPT_MODELLED,
		.field = FIELD_U64, .off = OFF(ba),
		.help = "Alignment of random offsets (default: the block size)",
	},
	{
		.name = "bsrange", .alias = "blocksize_range",
		.type = FOPT_RANGE, .min = 1, .flags = FOPT_F_PERDIR,
		.support = FOPT_MODELLED, .field = FIELD_U64,
		.off = OFF(min_bs), .off_hi = OFF(max_bs),
		.help = "Block sizes drawn from LO-HI, per direction",
	},
	{
		.name = "bssplit", .type = FOPT_STR_ULL,
		.support = FOPT_MODELLED, .parse = opt_bssplit,
		.help = "Weighted block sizes: bs/pct:bs/pct[,write list[,trim list]]",
	},
	{
		.name = "bs_unaligned", .alias = "blocksize_unaligned",
		.type = FOPT_STR_SET, .support = FOPT_MODELLED,
		.field = FIELD_BOOL, .off = OFF(bs_unaligned),
		.help = "Let bsrange and bssplit sizes be any byte count, not multiples of the smallest",
	},
	{
		.name = "bs_is_seq_rand", .type = FOPT_BOOL, .def = "0",
		.support = FOPT_MODELLED, .field = FIELD_BOOL,
		.off = OFF(bs_is_seq_rand),
		.help = "Size sequential I/Os by the read bs values and random ones by the write values",
	},
	{
		.name = "randrepeat", .type = FOPT_BOOL, .def = "1",
		.support = FOPT_MODELLED, .field = FIELD_BOOL, .off = OFF(randrepeat),
		.help = "Seed the random offsets by the job's number, whatever randseed says (0: from randseed, or the run's seed)",
	},
	{
		.name = "randseed", .type = FOPT_STR_VAL, .def = "0x89",
		.support = FOPT_MODELLED, .field = FIELD_U64,
		.off = OFF(randseed), .help = "Seed of the random generators",
	},
	{
		.name = "norandommap", .type = FOPT_STR_SET,
		.support = FOPT_MODELLED, .field = FIELD_BOOL,
		.off = OFF(norandommap),
		.help = "Draw random offsets without tracking the blocks already done",
	},
	{
		.name = "softrandommap", .type = FOPT_BOOL, .def = "0",
		.support = FOPT_IGNORED,
		.help = "Go on without a random map when it cannot be allocated",
	},
	{
		.name = "random_generator", .type = FOPT_STR,
		.def = "tausworthe", .choices = randgen_choices,
		.support = FOPT_MODELLED, .field = FIELD_INT,
		.off = OFF(random_generator),
		.help = "Generator of random offsets",
	},
	{
		.name = "random_distribution", .type = FOPT_STR,
		.def = "random", .choices = rand_dist_choices,
		.flags = FOPT_F_POSTFIX, .support = FOPT_MODELLED,
		.parse = opt_random_distribution,
		.help = "Distribution of random offsets",
	},
	{
		.name = "percentage_random", .type = FOPT_INT,
		.def = "100,100,100", .max = 100, .flags = FOPT_F_PERDIR,
		.inverse = "percentage_sequential", .support = FOPT_MODELLED,
		.field = FIELD_U32, .off = OFF(percentage_random),
		.help = "Percent of I/Os at random offsets (the rest sequential), per direction",
	},
	{
		.name = "percentage_sequential", .type = FOPT_DEPRECATED,
		.support = FOPT_REFUSED,
		.help = "Deprecated; fio 3.33 rejects it (use percentage_random)",
	},
	{
		.name = "allrandrepeat", .type = FOPT_BOOL, .def = "0",
		.support = FOPT_MODELLED, .field = FIELD_BOOL, .off = OFF(allrandrepeat),
		.help = "Repeatable random numbers for everything, not only offsets (the offsets' seed by the job's number also under randrepeat=0)",
	},
	{
		.name = "nrfiles", .alias = "nr_files", .type = FOPT_INT,
		.def = "1", .support = FOPT_MODELLED, .field = FIELD_U32,
		.off = OFF(nrfiles),
		.help = "Number of files the job's size is spread over",
	},
	{
		.name = "openfiles", .type = FOPT_INT, .def = "0",
		.support = FOPT_MODELLED, .field = FIELD_U32,
		.off = OFF(openfiles),
		.help = "Most files held open at once (0: nrfiles)",
	},
	{
		.name = "file_service_type", .type = FOPT_STR,
		.def = "roundrobin", .choices = file_service_type_choices,
		.flags = FOPT_F_POSTFIX, .support = FOPT_MODELLED,
		.parse = opt_file_service_type,
		.help = "How the next file to do I/O to is picked",
	},
	{
		.name = "fallocate", .type = FOPT_STR, .def = "native",
		.choices = fallocate_choices, .support = FOPT_MODELLED,
		.field = FIELD_INT, .off = OFF(fallocate),
		.help = "How files are preallocated when laid out",
	},
	{
		.name = "fadvise_hint", .type = FOPT_STR, .def = "1",
		.choices = fadvise_hint_choices, .support = FOPT_MODELLED,
		.field = FIELD_INT, .off = OFF(fadvise_hint),
		.help = "posix_fadvise() hint of the access pattern",
	},
	{
		.name = "fsync", .type = FOPT_INT, .def = "0",
		.support = FOPT_MODELLED, .field = FIELD_U32,
		.off = OFF(fsync_blocks),
		.help = "fsync after every N writes (0: never)",
	},
	{
		.name = "fdatasync", .type = FOPT_INT, .def = "0",
		.support = FOPT_MODELLED, .field = FIELD_U32,
		.off = OFF(fdatasync_blocks),
		.help = "fdatasync after every N writes (0: never)",
	},
	{
		.name = "write_barrier", .type = FOPT_INT, .def = "0",
		.support = FOPT_REFUSED,
		.help = "Make every Nth write a barrier write",
	},
	{
		.name = "sync_file_range", .type = FOPT_STR_MULTI,
		.choices = sync_file_range_choices, .flags = FOPT_F_POSTFIX,
		.support = FOPT_REFUSED,
		.help = "sync_file_range() every N writes with these flags",
	},
	{
		.name = "direct", .type = FOPT_BOOL, .def = "0",
		.inverse = "buffered", .support = FOPT_MODELLED,
		.field = FIELD_BOOL, .off = OFF(direct),
		.help = "O_DIRECT I/O, bypassing the page cache",
	},
	{
		.name = "atomic", .type = FOPT_BOOL, .def = "0",
		.support = FOPT_REFUSED, .help = "O_ATOMIC direct writes",
	},
	{
		.name = "buffered", .type = FOPT_BOOL, .def = "1",
		.flags = FOPT_F_NEG, .inverse = "direct",
		.support = FOPT_MODELLED, .field = FIELD_BOOL,
		.off = OFF(direct),
		.help = "I/O through the page cache (the opposite of direct)",
	},
	{
		.name = "overwrite", .type = FOPT_BOOL, .def = "0",
		.support = FOPT_MODELLED, .field = FIELD_BOOL,
		.off = OFF(overwrite),
		.help = "Write over data laid out beforehand",
	},
	{
		.name = "loops", .type = FOPT_INT, .def = "1",
		.support = FOPT_MODELLED, .field = FIELD_U32, .off = OFF(loops),
		.help = "Run the workload this many times",
	},
	{
		.name = "numjobs", .type = FOPT_INT, .def = "1", .min = 1,
		.support = FOPT_MODELLED, .field = FIELD_U32,
		.off = OFF(numjobs),
		.help = "Clones of the job, run in parallel",
	},
	{
		.name = "startdelay", .type = FOPT_STR_VAL_TIME, .def = "0",
		.flags = FOPT_F_HI | FOPT_F_SECONDS, .support = FOPT_MODELLED,
		.field = FIELD_NS, .off = OFF(start_delay),
		.off_hi = OFF(start_delay_high),
		.help = "Wait this long from the start of the run (in a later stonewall phase, what is left of it); LO-HI draws one per thread, as fio (which then starts it at its next 100 ms poll)",
	},
	{
		.name = "runtime", .alias = "timeout",
		.type = FOPT_STR_VAL_TIME, .def = "0", .flags = FOPT_F_SECONDS,
		.support = FOPT_MODELLED, .field = FIELD_NS,
		.off = OFF(runtime),
		.help = "Stop after this long (0: when the I/O is done)",
	},
	{
		.name = "time_based", .type = FOPT_STR_SET,
		.support = FOPT_MODELLED, .field = FIELD_BOOL,
		.off = OFF(time_based),
		.help = "Repeat the workload until runtime has passed",
	},
	{
		.name = "verify_only", .type = FOPT_STR_SET,
		.support = FOPT_REFUSED,
		.help = "Only verify data written earlier",
	},
	{
		.name = "ramp_time", .type = FOPT_STR_VAL_TIME,
		.flags = FOPT_F_SECONDS, .support = FOPT_MODELLED,
		.field = FIELD_NS, .off = OFF(ramp_time),
		.help = "Run this long before results count",
	},
	{
		.name = "clocksource", .type = FOPT_STR,
		.choices = clocksource_choices, .support = FOPT_IGNORED,
		.help = "Clock fio reads for timing",
	},
	{
		.name = "mem", .alias = "iomem", .type = FOPT_STR,
		.def = "malloc", .choices = mem_choices,
		.flags = FOPT_F_POSTFIX, .support = FOPT_IGNORED,
		.help = "Memory backing the I/O buffers (mmap types take :file)",
	},
	{
		.name = "iomem_align", .alias = "mem_align", .type = FOPT_INT,
		.def = "0", .support = FOPT_IGNORED,
		.help = "Alignment of the I/O buffers in memory",
	},
	{
		.name = "verify", .type = FOPT_STR, .def = "0",
		.choices = verify_choices, .support = FOPT_MODELLED,
		.field = FIELD_INT, .off = OFF(verify),
		.help = "Check written data with this method",
	},
	{
		.name = "do_verify", .type = FOPT_BOOL, .def = "1",
		.support = FOPT_MODELLED, .field = FIELD_BOOL, .off = OFF(do_verify),
		.help = "Run the verify phase after the writes (with verify)",
	},
	{
		.name = "verifysort", .type = FOPT_SOFT_DEPRECATED,
		.support = FOPT_IGNORED,
		.help = "Deprecated; fio 3.33 ignores it",
	},
	{
		.name = "verifysort_nr", .type = FOPT_SOFT_DEPRECATED,
		.support = FOPT_IGNORED,
		.help = "Deprecated; fio 3.33 ignores it",
	},
	{
		.name = "verify_interval", .type = FOPT_INT, .min = 80,
		.support = FOPT_IGNORED,
		.help = "Checksum every N bytes of a block (with verify)",
	},
	{
		.name = "verify_offset", .type = FOPT_INT, .min = 40,
		.support = FOPT_IGNORED,
		.help = "Place the verify header N bytes into the block (with verify)",
	},
	{
		.name = "verify_pattern", .type = FOPT_STR,
		.support = FOPT_REFUSED,
		.help = "Pattern to write and check (sets verify=pattern)",
	},
	{
		.name = "verify_fatal", .type = FOPT_BOOL, .def = "0",
		.support = FOPT_IGNORED,
		.help = "Stop at the first verify failure (with verify)",
	},
	{
		.name = "verify_dump", .type = FOPT_BOOL, .def = "0",
		.support = FOPT_IGNORED,
		.help = "Dump blocks that fail verification (with verify)",
	},
	{
		.name = "verify_async", .type = FOPT_INT, .def = "0",
		.support = FOPT_REFUSED,
		.help = "Threads that verify in the background (with verify)",
	},
	{
		.name = "verify_backlog", .type = FOPT_STR_VAL,
		.support = FOPT_REFUSED,
		.help = "Verify after every N blocks written (with verify)",
	},
	{
		.name = "verify_backlog_batch", .type = FOPT_INT,
		.support = FOPT_IGNORED,
		.help = "Blocks verified per backlog round (with verify)",
	},
	{
		.name = "verify_async_cpus", .type = FOPT_STR,
		.support = FOPT_IGNORED,
		.help = "CPUs of the background verify threads",
	},
	{
		.name = "experimental_verify", .type = FOPT_BOOL,
		.support = FOPT_REFUSED,
		.help = "Experimental verification (with verify)",
	},
	{
		.name = "verify_state_load", .type = FOPT_BOOL,
		.support = FOPT_IGNORED,
		.help = "Load the verify state of an earlier run (with verify)",
	},
	{
		.name = "verify_state_save", .type = FOPT_BOOL, .def = "1",
		.support = FOPT_IGNORED,
		.help = "Save the verify state at the end (with verify)",
	},
	{
		.name = "trim_percentage", .type = FOPT_INT, .def = "0",
		.max = 100, .support = FOPT_REFUSED,
		.help = "Trim this percent of the blocks written (with verify)",
	},
	{
		.name = "trim_verify_zero", .type = FOPT_BOOL, .def = "1",
		.support = FOPT_IGNORED,
		.help = "Check that trimmed blocks read back as zeroes",
	},
	{
		.name = "trim_backlog", .type = FOPT_STR_VAL,
		.support = FOPT_REFUSED,
		.help = "Trim after every N blocks written",
	},
	{
		.name = "trim_backlog_batch", .type = FOPT_INT,
		.support = FOPT_IGNORED,
		.help = "Blocks trimmed per backlog round",
	},
	{
		.name = "write_iolog", .type = FOPT_STR_STORE,
		.support = FOPT_MODELLED, .field = FIELD_STR,
		.off = OFF(write_iolog),
		.help = "Write the job's I/O as an iolog to this file",
	},
	{
		.name = "read_iolog", .type = FOPT_STR_STORE,
		.support = FOPT_MODELLED, .field = FIELD_STR,
		.off = OFF(read_iolog),
		.help = "Replay the I/O of this iolog or blktrace file",
	},
	{
		.name = "read_iolog_chunked", .type = FOPT_BOOL, .def = "0",
		.support = FOPT_IGNORED,
		.help = "Read the iolog a part at a time",
	},
	{
		.name = "replay_no_stall", .type = FOPT_BOOL, .def = "0",
		.support = FOPT_MODELLED, .field = FIELD_BOOL,
		.off = OFF(replay_no_stall),
		.help = "Replay as fast as possible, ignoring the log's timing",
	},
	{
		.name = "replay_redirect", .type = FOPT_STR_STORE,
		.support = FOPT_MODELLED, .field = FIELD_STR,
		.off = OFF(replay_redirect),
		.help = "Replay every I/O onto this device",
	},
	{
		.name = "replay_scale", .type = FOPT_INT, .def = "1",
		.support = FOPT_MODELLED, .field = FIELD_U32,
		.off = OFF(replay_scale),
		.help = "Divide replayed offsets by this",
	},
	{
		.name = "replay_align", .type = FOPT_INT, .flags = FOPT_F_POW2,
		.support = FOPT_MODELLED, .field = FIELD_U32,
		.off = OFF(replay_align),
		.help = "Align replayed offsets to this many bytes",
	},
	{
		.name = "replay_time_scale", .type = FOPT_INT, .def = "100",
		.min = 1, .support = FOPT_MODELLED, .field = FIELD_U32,
		.off = OFF(replay_time_scale),
		.help = "Replay timing as this percent of the log's",
	},
	{
		.name = "replay_skip", .type = FOPT_STR_STORE,
		.support = FOPT_MODELLED, .field = FIELD_STR,
		.off = OFF(replay_skip),
		.help = "Leave out these I/O types when replaying (read,write,trim,sync)",
	},
	{
		.name = "merge_blktrace_file", .type = FOPT_STR_STORE,
		.support = FOPT_REFUSED,
		.help = "Merge the traces of read_iolog into this file and replay it",
	},
	{
		.name = "merge_blktrace_scalars", .type = FOPT_FLOAT_LIST,
		.maxlen = 20, .support = FOPT_REFUSED,
		.help = "Time scale of each merged trace, in percent",
	},
	{
		.name = "merge_blktrace_iters", .type = FOPT_FLOAT_LIST,
		.maxlen = 20, .support = FOPT_REFUSED,
		.help = "Times each merged trace is repeated",
	},
	{
		.name = "exec_prerun", .type = FOPT_STR_STORE,
		.support = FOPT_IGNORED,
		.help = "Run this command before the job",
	},
	{
		.name = "exec_postrun", .type = FOPT_STR_STORE,
		.support = FOPT_IGNORED,
		.help = "Run this command after the job",
	},
	{
		.name = "ioscheduler", .type = FOPT_STR_STORE,
		.support = FOPT_REFUSED,
		.help = "Switch the device to this I/O scheduler",
	},
	{
		.name = "zonemode", .type = FOPT_STR, .def = "none",
		.choices = zonemode_choices, .support = FOPT_MODELLED,
		.parse = opt_zonemode,
		.help = "How zonesize, zonerange and zoneskip apply",
	},
	{
		.name = "zonesize", .type = FOPT_STR_VAL, .def = "0",
		.support = FOPT_MODELLED, .field = FIELD_U64,
		.off = OFF(zone_size), .help = "Bytes done per zone",
	},
	{
		.name = "zonecapacity", .type = FOPT_STR_VAL, .def = "0",
		.support = FOPT_REFUSED, .help = "Usable bytes of each zone",
	},
	{
		.name = "zonerange", .type = FOPT_STR_VAL, .def = "0",
		.support = FOPT_MODELLED, .field = FIELD_U64,
		.off = OFF(zone_range), .help = "Size of a zone of the region",
	},
	{
		.name = "zoneskip", .type = FOPT_STR_VAL_ZONE, .def = "0",
		.support = FOPT_MODELLED, .parse = opt_zoneskip,
		.help = "Bytes skipped after each zone",
	},
	{
		.name = "read_beyond_wp", .type = FOPT_BOOL, .def = "0",
		.support = FOPT_REFUSED,
		.help = "Let reads go past a zone's write pointer",
	},
	{
		.name = "max_open_zones", .type = FOPT_INT, .def = "0",
		.max = 4096, .support = FOPT_REFUSED,
		.help = "Most zones open for writing at once",
	},
	{
		.name = "job_max_open_zones", .type = FOPT_INT, .def = "0",
		.max = 4096, .support = FOPT_REFUSED,
		.help = "Most zones this job keeps open for writing",
	},
	{
		.name = "ignore_zone_limits", .type = FOPT_BOOL, .def = "0",
		.support = FOPT_REFUSED,
		.help = "Ignore the device's open and active zone limits",
	},
	{
		.name = "zone_reset_threshold", .type = FOPT_FLOAT_LIST,
		.maxlen = 1, .fmin = 0, .fmax = 1, .support = FOPT_REFUSED,
		.help = "Fraction of valid data that triggers zone resets",
	},
	{
		.name = "zone_reset_frequency", .type = FOPT_FLOAT_LIST,
		.maxlen = 1, .fmin = 0, .fmax = 1, .support = FOPT_REFUSED,
		.help = "How often zones are reset, 0..1",
	},
	{
		.name = "lockmem", .type = FOPT_STR_VAL, .def = "0",
		.support = FOPT_REFUSED,
		.help = "Pin this much memory, leaving less for the page cache",
	},
	{
		.name = "rwmixread", .type = FOPT_INT, .def = "50", .max = 100,
		.inverse = "rwmixwrite", .support = FOPT_MODELLED,
		.parse = opt_rwmix, .help = "Percent reads of a mixed workload",
	},
	{
		.name = "rwmixwrite", .type = FOPT_INT, .def = "50", .max = 100,
		.inverse = "rwmixread", .support = FOPT_MODELLED,
		.parse = opt_rwmix,
		.help = "Percent writes of a mixed workload",
	},
	{
		.name = "rwmixcycle", .type = FOPT_DEPRECATED,
		.support = FOPT_REFUSED,
		.help = "Deprecated; fio 3.33 rejects it",
	},
	{
		.name = "nice", .type = FOPT_INT, .def = "0", .min = -20,
		.max = 19, .support = FOPT_REFUSED,
		.help = "CPU nice value of the job",
	},
	{
		.name = "prio", .type = FOPT_INT, .max = 7,
		.support = FOPT_IGNORED,
		.help = "I/O priority level (the none scheduler storsim models ignores it)",
	},
	{
		.name = "prioclass", .type = FOPT_INT, .max = 3,
		.support = FOPT_IGNORED,
		.help = "I/O priority class (the none scheduler storsim models ignores it)",
	},
	{
		.name = "thinktime", .type = FOPT_INT, .def = "0",
		.flags = FOPT_F_TIME, .support = FOPT_MODELLED,
		.field = FIELD_NS, .off = OFF(thinktime),
		.help = "Idle time between I/Os (microseconds unless a unit is given)",
	},
	{
		.name = "thinktime_spin", .type = FOPT_INT, .def = "0",
		.flags = FOPT_F_TIME, .support = FOPT_MODELLED,
		.field = FIELD_NS, .off = OFF(thinktime_spin),
		.help = "Part of thinktime spent spinning on the CPU",
	},
	{
		.name = "thinktime_blocks", .type = FOPT_INT, .def = "1",
		.support = FOPT_MODELLED, .field = FIELD_U32,
		.off = OFF(thinktime_blocks),
		.help = "I/Os between two think times",
	},
	{
		.name = "thinktime_blocks_type", .type = FOPT_STR,
		.def = "complete", .choices = thinktime_blocks_type_choices,
		.support = FOPT_MODELLED,
		.field = FIELD_INT, .off = OFF(thinktime_blocks_type),
		.help = "Count thinktime_blocks at completion or at issue",
	},
	{
		.name = "thinktime_iotime", .type = FOPT_INT, .def = "0",
		.flags = FOPT_F_TIME | FOPT_F_SECONDS, .support = FOPT_REFUSED,
		.help = "Time of I/O between two think times",
	},
	{
		.name = "rate", .type = FOPT_ULL, .flags = FOPT_F_PERDIR,
		.support = FOPT_MODELLED, .field = FIELD_U64, .off = OFF(rate),
		.help = "Bandwidth cap in bytes/s, per direction",
	},
	{
		.name = "rate_min", .alias = "ratemin", .type = FOPT_ULL,
		.flags = FOPT_F_PERDIR, .support = FOPT_MODELLED,
		.field = FIELD_U64, .off = OFF(rate_min),
		.help = "End the job if its bandwidth falls below this",
	},
	{
		.name = "rate_iops", .type = FOPT_INT, .flags = FOPT_F_PERDIR,
		.support = FOPT_MODELLED, .field = FIELD_U32,
		.off = OFF(rate_iops), .help = "IOPS cap, per direction",
	},
	{
		.name = "rate_iops_min", .type = FOPT_INT,
		.flags = FOPT_F_PERDIR, .support = FOPT_MODELLED,
		.field = FIELD_U32, .off = OFF(rate_iops_min),
		.help = "End the job if its IOPS fall below this",
	},
	{
		.name = "rate_process", .type = FOPT_STR, .def = "linear",
		.choices = rate_process_choices, .support = FOPT_MODELLED,
		.field = FIELD_INT, .off = OFF(rate_process),
		.help = "Spacing of rated I/Os: even (linear) or random (poisson)",
	},
	{
		.name = "rate_cycle", .alias = "ratecycle", .type = FOPT_INT,
		.def = "1000", .support = FOPT_MODELLED, .field = FIELD_U32,
		.off = OFF(rate_cycle),
		.help = "Window of the rate_min check, in ms",
	},
	{
		.name = "rate_ignore_thinktime", .type = FOPT_BOOL,
		.support = FOPT_REFUSED,
		.help = "Keep the rate over think times",
	},
	{
		.name = "max_latency", .type = FOPT_ULL,
		.flags = FOPT_F_PERDIR | FOPT_F_TIME, .support = FOPT_MODELLED,
		.field = FIELD_NS, .off = OFF(max_latency),
		.help = "End the job when an I/O takes longer than this",
	},
	{
		.name = "latency_target", .type = FOPT_STR_VAL_TIME,
		.support = FOPT_MODELLED, .field = FIELD_NS, .off = OFF(latency_target),
		.help = "Find the deepest queue that keeps latency under this",
	},
	{
		.name = "latency_window", .type = FOPT_STR_VAL_TIME,
		.support = FOPT_MODELLED, .field = FIELD_NS, .off = OFF(latency_window),
		.help = "Time latency_target must hold (with latency_target)",
	},
	{
		.name = "latency_percentile", .type = FOPT_FLOAT_LIST,
		.def = "100", .maxlen = 1, .fmin = 0.0, .fmax = 100.0,
		.support = FOPT_MODELLED, .parse = opt_latency_percentile,
		.help = "Percent of I/Os under latency_target (with latency_target)",
	},
	{
		.name = "latency_run", .type = FOPT_BOOL, .def = "0",
		.support = FOPT_MODELLED, .field = FIELD_BOOL, .off = OFF(latency_run),
		.help = "Keep adjusting the depth for latency_target (with latency_target)",
	},
	{
		.name = "invalidate", .type = FOPT_BOOL, .def = "1",
		.support = FOPT_MODELLED, .field = FIELD_BOOL,
		.off = OFF(invalidate),
		.help = "Drop the files' cached pages before the job",
	},
	{
		.name = "sync", .type = FOPT_STR, .def = "none",
		.choices = sync_choices, .support = FOPT_MODELLED,
		.field = FIELD_INT, .off = OFF(sync),
		.help = "Open files O_SYNC (sync, 1) or O_DSYNC (dsync)",
	},
	{
		.name = "write_hint", .type = FOPT_STR,
		.choices = write_hint_choices, .support = FOPT_REFUSED,
		.help = "Write lifetime hint given to the device",
	},
	{
		.name = "create_serialize", .type = FOPT_BOOL, .def = "1",
		.support = FOPT_IGNORED,
		.help = "Lay out the jobs' files one job at a time",
	},
	{
		.name = "create_fsync", .type = FOPT_BOOL, .def = "1",
		.support = FOPT_IGNORED,
		.help = "fsync files after laying them out",
	},
	{
		.name = "create_on_open", .type = FOPT_BOOL, .def = "0",
		.support = FOPT_MODELLED, .field = FIELD_BOOL,
		.off = OFF(create_on_open),
		.help = "Create files when first opened for I/O (refused for "
			"a file the job would create: fio leaves it empty)",
	},
	{
		.name = "create_only", .type = FOPT_BOOL, .def = "0",
		.support = FOPT_REFUSED,
		.help = "Only lay out the files, do no I/O",
	},
	{
		.name = "allow_file_create", .type = FOPT_BOOL, .def = "1",
		.support = FOPT_IGNORED, .help = "Let fio create missing files",
	},
	{
		.name = "allow_mounted_write", .type = FOPT_BOOL, .def = "0",
		.support = FOPT_IGNORED,
		.help = "Allow writes to a mounted block device",
	},
	{
		.name = "pre_read", .type = FOPT_BOOL, .def = "0",
		.support = FOPT_MODELLED, .field = FIELD_BOOL,
		.off = OFF(pre_read),
		.help = "Read the files into the page cache before the job",
	},
	{
		.name = "cpumask", .type = FOPT_INT, .support = FOPT_MODELLED,
		.parse = opt_cpumask,
		.help = "CPUs the job may run on, as a bit mask",
	},
	{
		.name = "cpus_allowed", .type = FOPT_STR,
		.support = FOPT_MODELLED, .parse = opt_cpus_allowed,
		.help = "CPUs the job may run on, e.g. 0-3,5",
	},
	{
		.name = "cpus_allowed_policy", .type = FOPT_STR,
		.def = "shared", .choices = cpus_policy_choices, .prio = 1,
		.support = FOPT_MODELLED, .field = FIELD_INT,
		.off = OFF(cpus_allowed_policy),
		.help = "Clones share the CPU set (shared) or take one CPU each (split)",
	},
	{
		.name = "numa_cpu_nodes", .type = FOPT_STR,
		.support = FOPT_REFUSED,
		.help = "Run the job on these NUMA nodes",
	},
	{
		.name = "numa_mem_policy", .type = FOPT_STR,
		.support = FOPT_REFUSED,
		.help = "NUMA memory policy of the job",
	},
	{
		.name = "gpu_dev_id", .type = FOPT_INT, .def = "0",
		.support = FOPT_IGNORED, .help = "GPU used for GPUDirect RDMA",
	},
	{
		.name = "end_fsync", .type = FOPT_BOOL, .def = "0",
		.support = FOPT_MODELLED, .field = FIELD_BOOL,
		.off = OFF(end_fsync), .help = "fsync once the writes are done",
	},
	{
		.name = "fsync_on_close", .type = FOPT_BOOL, .def = "0",
		.support = FOPT_MODELLED, .field = FIELD_BOOL,
		.off = OFF(fsync_on_close),
		.help = "fsync each file when it is closed",
	},
	{
		.name = "unlink", .type = FOPT_BOOL, .def = "0",
		.support = FOPT_IGNORED,
		.help = "Delete the files after the job",
	},
	{
		.name = "unlink_each_loop", .type = FOPT_BOOL, .def = "0",
		.support = FOPT_REFUSED,
		.help = "Delete the files after each loop",
	},
	{
		.name = "exitall", .type = FOPT_STR_SET,
		.support = FOPT_MODELLED, .field = FIELD_BOOL,
		.off = OFF(exitall),
		.help = "When this job ends, end the others",
	},
	{
		.name = "exit_what", .type = FOPT_STR, .def = "group",
		.choices = exit_what_choices, .support = FOPT_MODELLED,
		.field = FIELD_INT, .off = OFF(exit_what),
		.help = "Which jobs exitall ends: group, stonewall or all",
	},
	{
		.name = "exitall_on_error", .type = FOPT_STR_SET,
		.support = FOPT_MODELLED, .field = FIELD_BOOL,
		.off = OFF(exitall_on_error),
		.help = "When this job fails, end the others",
	},
	{
		.name = "stonewall", .alias = "wait_for_previous",
		.type = FOPT_STR_SET, .support = FOPT_MODELLED,
		.field = FIELD_BOOL, .off = OFF(stonewall),
		.help = "Wait for all earlier jobs to finish; starts a new group",
	},
	{
		.name = "new_group", .type = FOPT_STR_SET,
		.support = FOPT_MODELLED, .field = FIELD_BOOL,
		.off = OFF(new_group), .help = "Start a new reporting group",
	},
	{
		.name = "thread", .type = FOPT_STR_SET, .support = FOPT_IGNORED,
		.help = "Run jobs as threads instead of processes",
	},
	{
		.name = "per_job_logs", .type = FOPT_BOOL, .def = "1",
		.support = FOPT_OUTPUT, .field = FIELD_BOOL,
		.off = OFF(per_job_logs),
		.help = "Put the job number in log file names",
	},
	{
		.name = "write_bw_log", .type = FOPT_STR, .flags = FOPT_F_BARE,
		.support = FOPT_MODELLED, .off = OFF(write_bw_log),
		.off_hi = OFF(bw_log_file), .parse = opt_log,
		.help = "Log bandwidth samples to PREFIX_bw.N.log",
	},
	{
		.name = "write_lat_log", .type = FOPT_STR, .flags = FOPT_F_BARE,
		.support = FOPT_MODELLED, .off = OFF(write_lat_log),
		.off_hi = OFF(lat_log_file), .parse = opt_log,
		.help = "Log latency samples to PREFIX_{slat,clat,lat}.N.log",
	},
	{
		.name = "write_iops_log", .type = FOPT_STR,
		.flags = FOPT_F_BARE, .support = FOPT_MODELLED,
		.off = OFF(write_iops_log), .off_hi = OFF(iops_log_file),
		.parse = opt_log,
		.help = "Log IOPS samples to PREFIX_iops.N.log",
	},
	{
		.name = "log_entries", .type = FOPT_INT, .def = "1024",
		.min = 1024, .max = 1048576, .support = FOPT_OUTPUT,
		.help = "Initial number of entries of a log",
	},
	{
		.name = "log_avg_msec", .type = FOPT_INT, .def = "0",
		.flags = FOPT_F_MSEC, .support = FOPT_MODELLED,
		.field = FIELD_NS, .off = OFF(log_avg_time),
		.help = "Average log samples over this many ms (0: every I/O)",
	},
	{
		.name = "log_hist_msec", .type = FOPT_INT, .def = "0",
		.support = FOPT_OUTPUT,
		.help = "Log latency histograms every this many ms",
	},
	{
		.name = "log_hist_coarseness", .type = FOPT_INT, .def = "0",
		.support = FOPT_OUTPUT,
		.help = "Merge histogram bins, 0 (fine) to 6 (coarse)",
	},
	{
		.name = "write_hist_log", .type = FOPT_STR,
		.flags = FOPT_F_BARE, .support = FOPT_OUTPUT,
		.help = "Log latency histograms to PREFIX_clat_hist.N.log",
	},
	{
		.name = "log_max_value", .type = FOPT_BOOL, .def = "0",
		.support = FOPT_OUTPUT, .field = FIELD_BOOL,
		.off = OFF(log_max_value),
		.help = "Log the largest sample of a window, not the mean",
	},
	{
		.name = "log_offset", .type = FOPT_BOOL, .def = "0",
		.support = FOPT_MODELLED, .field = FIELD_BOOL,
		.off = OFF(log_offset),
		.help = "Add each I/O's offset to log lines",
	},
	{
		.name = "log_prio", .type = FOPT_BOOL, .def = "0",
		.support = FOPT_OUTPUT, .field = FIELD_BOOL, .off = OFF(log_prio),
		.help = "Log the full I/O priority",
	},
	{
		.name = "log_compression", .type = FOPT_INT, .min = 1024,
		.max = 536870912, .support = FOPT_OUTPUT,
		.help = "Compress logs in chunks of this size",
	},
	{
		.name = "log_compression_cpus", .type = FOPT_STR,
		.support = FOPT_OUTPUT, .help = "CPUs that compress logs",
	},
	{
		.name = "log_store_compressed", .type = FOPT_BOOL,
		.support = FOPT_OUTPUT, .help = "Keep logs compressed on disk",
	},
	{
		.name = "log_unix_epoch", .type = FOPT_BOOL,
		.support = FOPT_OUTPUT, .help = "Log time stamps as Unix time",
	},
	{
		.name = "log_alternate_epoch", .type = FOPT_BOOL,
		.support = FOPT_OUTPUT,
		.help = "Log time stamps from another clock's epoch",
	},
	{
		.name = "log_alternate_epoch_clock_id", .type = FOPT_INT,
		.support = FOPT_OUTPUT, .help = "Clock of log_alternate_epoch",
	},
	{
		.name = "block_error_percentiles", .type = FOPT_BOOL,
		.def = "0", .support = FOPT_OUTPUT,
		.help = "Histogram of trim block errors",
	},
	{
		.name = "bwavgtime", .type = FOPT_INT, .def = "500",
		.flags = FOPT_F_MSEC, .support = FOPT_MODELLED,
		.field = FIELD_NS, .off = OFF(bw_avg_time),
		.help = "Window of bandwidth samples, in ms",
	},
	{
		.name = "iopsavgtime", .type = FOPT_INT, .def = "500",
		.flags = FOPT_F_MSEC, .support = FOPT_MODELLED,
		.field = FIELD_NS, .off = OFF(iops_avg_time),
		.help = "Window of IOPS samples, in ms",
	},
	{
		.name = "group_reporting", .type = FOPT_STR_SET,
		.support = FOPT_MODELLED, .field = FIELD_BOOL,
		.off = OFF(group_reporting),
		.help = "Report each group's jobs as one",
	},
	{
		.name = "stats", .type = FOPT_BOOL, .def = "1",
		.support = FOPT_OUTPUT, .field = FIELD_BOOL, .off = OFF(stats),
		.help = "Collect statistics for the job",
	},
	{
		.name = "zero_buffers", .type = FOPT_STR_SET,
		.support = FOPT_IGNORED, .help = "Fill I/O buffers with zeroes",
	},
	{
		.name = "refill_buffers", .type = FOPT_STR_SET,
		.support = FOPT_IGNORED,
		.help = "Refill I/O buffers before every write",
	},
	{
		.name = "scramble_buffers", .type = FOPT_BOOL, .def = "1",
		.support = FOPT_IGNORED,
		.help = "Change I/O buffers a little before every write",
	},
	{
		.name = "buffer_pattern", .type = FOPT_STR,
		.support = FOPT_IGNORED,
		.help = "Fill I/O buffers with this pattern",
	},
	{
		.name = "buffer_compress_percentage", .type = FOPT_INT,
		.max = 100, .support = FOPT_IGNORED,
		.help = "How compressible written data is, in percent",
	},
	{
		.name = "buffer_compress_chunk", .type = FOPT_INT, .def = "512",
		.support = FOPT_IGNORED,
		.help = "Size of the compressible parts of a buffer",
	},
	{
		.name = "dedupe_percentage", .type = FOPT_INT, .max = 100,
		.support = FOPT_IGNORED,
		.help = "Percent of written blocks that repeat earlier ones",
	},
	{
		.name = "dedupe_global", .type = FOPT_BOOL, .def = "0",
		.support = FOPT_IGNORED,
		.help = "Share repeated blocks between jobs",
	},
	{
		.name = "dedupe_mode", .type = FOPT_STR, .def = "repeat",
		.choices = dedupe_mode_choices, .support = FOPT_IGNORED,
		.help = "How repeated blocks are made",
	},
	{
		.name = "dedupe_working_set_percentage", .type = FOPT_INT,
		.def = "5", .max = 100, .support = FOPT_IGNORED,
		.help = "Size of the working set of repeated blocks, in percent",
	},
	{
		.name = "clat_percentiles", .type = FOPT_BOOL, .def = "1",
		.support = FOPT_MODELLED, .field = FIELD_BOOL,
		.off = OFF(clat_percentiles),
		.help = "Report completion latency percentiles",
	},
	{
		.name = "lat_percentiles", .type = FOPT_BOOL, .def = "0",
		.support = FOPT_MODELLED, .field = FIELD_BOOL,
		.off = OFF(lat_percentiles),
		.help = "Report total latency percentiles",
	},
	{
		.name = "slat_percentiles", .type = FOPT_BOOL, .def = "0",
		.support = FOPT_MODELLED, .field = FIELD_BOOL,
		.off = OFF(slat_percentiles),
		.help = "Report submission latency percentiles",
	},
	{
		.name = "percentile_list", .type = FOPT_FLOAT_LIST,
		.def = "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99",
		.maxlen = 20, .fmin = 0.0, .fmax = 100.0,
		.support = FOPT_MODELLED, .parse = opt_percentile_list,
		.help = "Percentiles to report, e.g. 50:99:99.9",
	},
	{
		.name = "significant_figures", .type = FOPT_INT, .def = "4",
		.min = 1, .max = 10, .support = FOPT_OUTPUT,
		.help = "Significant figures of the normal output",
	},
	{
		.name = "disk_util", .type = FOPT_BOOL, .def = "1",
		.support = FOPT_OUTPUT, .help = "Report disk utilisation",
	},
	{
		.name = "gtod_reduce", .type = FOPT_BOOL, .def = "0",
		.support = FOPT_MODELLED, .parse = opt_gtod_reduce,
		.help = "Fewer clock reads: no slat, clat, lat or bandwidth figures",
	},
	{
		.name = "disable_lat", .type = FOPT_BOOL, .def = "0",
		.support = FOPT_MODELLED, .field = FIELD_BOOL,
		.off = OFF(disable_lat), .help = "Do not measure total latency",
	},
	{
		.name = "disable_clat", .type = FOPT_BOOL, .def = "0",
		.support = FOPT_MODELLED, .field = FIELD_BOOL,
		.off = OFF(disable_clat),
		.help = "Do not measure completion latency",
	},
	{
		.name = "disable_slat", .type = FOPT_BOOL, .def = "0",
		.support = FOPT_MODELLED, .field = FIELD_BOOL,
		.off = OFF(disable_slat),
		.help = "Do not measure submission latency",
	},
	{
		.name = "disable_bw_measurement", .alias = "disable_bw",
		.type = FOPT_BOOL, .def = "0", .support = FOPT_MODELLED,
		.field = FIELD_BOOL, .off = OFF(disable_bw),
		.help = "Do not sample bandwidth",
	},
	{
		.name = "gtod_cpu", .type = FOPT_INT, .support = FOPT_IGNORED,
		.help = "Dedicate this CPU to a time-keeping thread",
	},
	{
		.name = "unified_rw_reporting", .type = FOPT_STR, .def = "none",
		.choices = unified_choices, .support = FOPT_MODELLED,
		.parse = opt_unified,
		.help = "Report directions apart (none), together (mixed) or both",
	},
	{
		.name = "continue_on_error", .type = FOPT_STR, .def = "none",
		.choices = continue_on_error_choices, .support = FOPT_REFUSED,
		.help = "Carry on after I/O errors",
	},
	{
		.name = "ignore_error", .type = FOPT_STR,
		.support = FOPT_IGNORED,
		.help = "Errors to carry on after, per direction",
	},
	{
		.name = "error_dump", .type = FOPT_BOOL, .def = "0",
		.support = FOPT_OUTPUT, .help = "Print every error",
	},
	{
		.name = "profile", .type = FOPT_STR_STORE,
		.support = FOPT_REFUSED,
		.help = "Run a built-in profile (tiobench, act)",
	},
	{
		.name = "cgroup", .type = FOPT_STR_STORE,
		.support = FOPT_IGNORED, .help = "Run the job in this cgroup",
	},
	{
		.name = "cgroup_nodelete", .type = FOPT_BOOL, .def = "0",
		.support = FOPT_IGNORED,
		.help = "Keep the cgroup after the job",
	},
	{
		.name = "cgroup_weight", .type = FOPT_INT, .min = 100,
		.max = 1000, .support = FOPT_REFUSED,
		.help = "Weight of the job's cgroup",
	},
	{
		.name = "uid", .type = FOPT_INT, .support = FOPT_IGNORED,
		.help = "Run the job as this user",
	},
	{
		.name = "gid", .type = FOPT_INT, .support = FOPT_IGNORED,
		.help = "Run the job as this group",
	},
	{
		.name = "kb_base", .type = FOPT_STR, .def = "1024",
		.choices = kb_base_choices, .prio = 1, .support = FOPT_MODELLED,
		.field = FIELD_U32, .off = OFF(kb_base),
		.help = "Base of k, m, g...: 1024, or 1000 (kib, mib... take the other)",
	},
	{
		.name = "unit_base", .type = FOPT_STR,
		.choices = unit_base_choices, .prio = 1,
		.support = FOPT_MODELLED, .field = FIELD_U32,
		.off = OFF(unit_base),
		.help = "Report bandwidth in bytes (8) or bits (1); 0: by engine",
	},
	{
		.name = "hugepage-size", .type = FOPT_INT, .def = "4194304",
		.support = FOPT_IGNORED,
		.help = "Huge page size for mem=shmhuge or mmaphuge",
	},
	{
		.name = "flow_id", .type = FOPT_INT, .def = "0",
		.support = FOPT_IGNORED,
		.help = "Flow shared by jobs of flow control",
	},
	{
		.name = "flow", .type = FOPT_INT, .def = "0", .max = 1000,
		.support = FOPT_REFUSED,
		.help = "Weight of the job in flow control between jobs",
	},
	{
		.name = "flow_watermark", .type = FOPT_SOFT_DEPRECATED,
		.support = FOPT_IGNORED,
		.help = "Deprecated; fio 3.33 ignores it",
	},
	{
		.name = "flow_sleep", .type = FOPT_INT, .def = "0",
		.support = FOPT_IGNORED,
		.help = "Sleep after being held back by flow control, in us",
	},
	{
		.name = "steadystate", .alias = "ss", .type = FOPT_STR,
		.def = "iops_slope:0.01%", .choices = steadystate_choices,
		.flags = FOPT_F_POSTFIX, .support = FOPT_IGNORED,
		.help = "Criterion of steady state, e.g. iops_slope:0.1%",
	},
	{
		.name = "steadystate_duration", .alias = "ss_dur",
		.type = FOPT_STR_VAL_TIME, .def = "0", .flags = FOPT_F_SECONDS,
		.support = FOPT_REFUSED,
		.help = "End the job once steady state holds this long",
	},
	{
		.name = "steadystate_ramp_time", .alias = "ss_ramp",
		.type = FOPT_STR_VAL_TIME, .def = "0", .flags = FOPT_F_SECONDS,
		.support = FOPT_IGNORED,
		.help = "Wait this long before checking steady state",
	},
	{
		.name = "block", .type = FOPT_INT, .def = "4096",
		.support = FOPT_IGNORED,
		.help = "tiobench profile: block size in bytes",
	},
	{
		.name = "numruns", .type = FOPT_INT, .support = FOPT_IGNORED,
		.help = "tiobench profile: number of runs",
	},
	{
		.name = "dir", .type = FOPT_STR_STORE, .support = FOPT_IGNORED,
		.help = "tiobench profile: test directory",
	},
	{
		.name = "threads", .type = FOPT_INT, .support = FOPT_IGNORED,
		.help = "tiobench profile: number of threads",
	},
	{
		.name = "device-names", .type = FOPT_STR_STORE,
		.support = FOPT_IGNORED, .help = "act profile: devices to test",
	},
	{
		.name = "load", .type = FOPT_INT, .def = "1",
		.support = FOPT_IGNORED, .help = "act profile: load multiplier",
	},
	{
		.name = "test-duration", .type = FOPT_STR_VAL_TIME,
		.def = "24h", .support = FOPT_IGNORED,
		.help = "act profile: length of the whole test",
	},
	{
		.name = "threads-per-queue", .type = FOPT_INT, .def = "8",
		.support = FOPT_IGNORED,
		.help = "act profile: read threads per device",
	},
	{
		.name = "read-req-num-512-blocks", .type = FOPT_INT, .def = "3",
		.support = FOPT_IGNORED,
		.help = "act profile: 512-byte blocks per read",
	},
	{
		.name = "large-block-op-kbytes", .type = FOPT_INT,
		.def = "131072", .support = FOPT_IGNORED,
		.help = "act profile: KiB of each large write",
	},
	{
		.name = "prep", .type = FOPT_STR_SET, .support = FOPT_IGNORED,
		.help = "act profile: run the prep phase",
	},
	{
		.name = "cpuload", .type = FOPT_INT, .engines = "cpuio",
		.support = FOPT_REFUSED, .help = "Percent of a CPU to burn",
	},
	{
		.name = "cpumode", .type = FOPT_STR, .def = "noop",
		.engines = "cpuio", .choices = cpumode_choices,
		.support = FOPT_REFUSED,
		.help = "How to burn CPU: noop or qsort",
	},
	{
		.name = "cpuchunks", .type = FOPT_INT, .def = "50000",
		.engines = "cpuio", .support = FOPT_REFUSED,
		.help = "Length of a CPU burn cycle, in us",
	},
	{
		.name = "exit_on_io_done", .type = FOPT_BOOL, .def = "0",
		.engines = "cpuio", .support = FOPT_REFUSED,
		.help = "Stop burning CPU when the I/O jobs are done",
	},
	{
		.name = "pool", .type = FOPT_STR_STORE,
		.engines = "dfs,rados,rbd", .support = FOPT_REFUSED,
		.help = "Pool name or uuid (dfs, rados, rbd)",
	},
	{
		.name = "cont", .type = FOPT_STR_STORE, .engines = "dfs",
		.support = FOPT_REFUSED, .help = "DAOS container",
	},
	{
		.name = "chunk_size", .alias = "chunck_size", .type = FOPT_ULL,
		.engines = "dfs,libhdfs", .support = FOPT_REFUSED,
		.help = "Chunk size (dfs: bytes of a DFS chunk; libhdfs: bytes per HDFS chunk)",
	},
	{
		.name = "object_class", .type = FOPT_STR_STORE,
		.engines = "dfs", .support = FOPT_REFUSED,
		.help = "DAOS object class",
	},
	{
		.name = "donorname", .type = FOPT_STR_STORE,
		.engines = "e4defrag", .support = FOPT_REFUSED,
		.help = "File that donates blocks to e4defrag",
	},
	{
		.name = "inplace", .type = FOPT_INT, .engines = "e4defrag",
		.max = 1, .support = FOPT_REFUSED,
		.help = "Allocate and free space within the defrag event",
	},
	{
		.name = "program", .type = FOPT_STR_STORE, .engines = "exec",
		.support = FOPT_REFUSED, .help = "Program exec runs",
	},
	{
		.name = "arguments", .type = FOPT_STR_STORE, .engines = "exec",
		.support = FOPT_REFUSED, .help = "Arguments of the program",
	},
	{
		.name = "grace_time", .type = FOPT_INT, .def = "1",
		.engines = "exec", .support = FOPT_REFUSED,
		.help = "Seconds before SIGKILL follows SIGTERM",
	},
	{
		.name = "std_redirect", .type = FOPT_BOOL, .def = "1",
		.engines = "exec", .support = FOPT_REFUSED,
		.help = "Send the program's output to files",
	},
	{
		.name = "stat_type", .type = FOPT_STR, .def = "stat",
		.engines = "filecreate,filestat,filedelete",
		.choices = stat_type_choices, .support = FOPT_REFUSED,
		.help = "stat call filestat measures: stat, lstat or statx",
	},
	{
		.name = "volume", .type = FOPT_STR_STORE,
		.engines = "gfapi,gfapi_async", .support = FOPT_REFUSED,
		.help = "GlusterFS volume",
	},
	{
		.name = "brick", .type = FOPT_STR_STORE,
		.engines = "gfapi,gfapi_async", .support = FOPT_REFUSED,
		.help = "GlusterFS brick",
	},
	{
		.name = "single-instance", .type = FOPT_BOOL,
		.engines = "gfapi,gfapi_async", .support = FOPT_REFUSED,
		.help = "Share one GlusterFS instance",
	},
	{
		.name = "https", .type = FOPT_STR, .def = "off",
		.engines = "http", .choices = https_choices,
		.support = FOPT_REFUSED,
		.help = "Use HTTPS: off, on, or insecure",
	},
	{
		.name = "http_host", .type = FOPT_STR_STORE, .def = "localhost",
		.engines = "http", .support = FOPT_REFUSED,
		.help = "HTTP server, or S3 bucket host",
	},
	{
		.name = "http_user", .type = FOPT_STR_STORE, .engines = "http",
		.support = FOPT_REFUSED, .help = "HTTP user name",
	},
	{
		.name = "http_pass", .type = FOPT_STR_STORE, .engines = "http",
		.support = FOPT_REFUSED, .help = "HTTP password",
	},
	{
		.name = "http_s3_key", .type = FOPT_STR_STORE,
		.engines = "http", .support = FOPT_REFUSED,
		.help = "S3 secret key",
	},
	{
		.name = "http_s3_keyid", .type = FOPT_STR_STORE,
		.engines = "http", .support = FOPT_REFUSED, .help = "S3 key id",
	},
	{
		.name = "http_swift_auth_token", .type = FOPT_STR_STORE,
		.engines = "http", .support = FOPT_REFUSED,
		.help = "OpenStack Swift auth token",
	},
	{
		.name = "http_s3_region", .type = FOPT_STR_STORE,
		.def = "us-east-1", .engines = "http", .support = FOPT_REFUSED,
		.help = "S3 region",
	},
	{
		.name = "http_s3_sse_customer_key", .type = FOPT_STR_STORE,
		.engines = "http", .support = FOPT_REFUSED,
		.help = "S3 server-side encryption key",
	},
	{
		.name = "http_s3_sse_customer_algorithm",
		.type = FOPT_STR_STORE, .def = "AES256", .engines = "http",
		.support = FOPT_REFUSED,
		.help = "S3 server-side encryption algorithm",
	},
	{
		.name = "http_s3_storage_class", .type = FOPT_STR_STORE,
		.def = "STANDARD", .engines = "http", .support = FOPT_REFUSED,
		.help = "S3 storage class",
	},
	{
		.name = "http_mode", .type = FOPT_STR, .def = "webdav",
		.engines = "http", .choices = http_mode_choices,
		.support = FOPT_REFUSED,
		.help = "Protocol: webdav, s3 or swift",
	},
	{
		.name = "http_verbose", .type = FOPT_INT, .def = "0",
		.engines = "http", .support = FOPT_REFUSED,
		.help = "Verbosity of the http engine",
	},
	{
		.name = "hipri", .type = FOPT_STR_SET,
		.engines = "io_uring,io_uring_cmd,pvsync2,sg,xnvme",
		.support = FOPT_MODELLED, .field = FIELD_BOOL,
		.off = OFF(eng.hipri),
		.help = "Polled completions (IORING_SETUP_IOPOLL, RWF_HIPRI)",
	},
	{
		.name = "cmdprio_percentage", .type = FOPT_INT,
		.engines = "io_uring,io_uring_cmd,libaio", .max = 100,
		.flags = FOPT_F_PERDIR, .support = FOPT_IGNORED,
		.help = "Percent of I/Os sent with the cmdprio priority, per direction",
	},
	{
		.name = "cmdprio_class", .type = FOPT_INT,
		.engines = "io_uring,io_uring_cmd,libaio", .min = 1, .max = 3,
		.flags = FOPT_F_PERDIR, .support = FOPT_IGNORED,
		.help = "Priority class of cmdprio_percentage I/Os, per direction",
	},
	{
		.name = "cmdprio", .type = FOPT_INT,
		.engines = "io_uring,io_uring_cmd,libaio", .max = 7,
		.flags = FOPT_F_PERDIR, .support = FOPT_IGNORED,
		.help = "Priority level of cmdprio_percentage I/Os, per direction",
	},
	{
		.name = "cmdprio_bssplit", .type = FOPT_STR_STORE,
		.engines = "io_uring,io_uring_cmd,libaio",
		.support = FOPT_IGNORED,
		.help = "Priorities by block size: bs/pct[/class/level]:...",
	},
	{
		.name = "fixedbufs", .type = FOPT_STR_SET,
		.engines = "io_uring,io_uring_cmd", .support = FOPT_MODELLED,
		.field = FIELD_BOOL, .off = OFF(eng.fixedbufs),
		.help = "Register the I/O buffers with the ring",
	},
	{
		.name = "registerfiles", .type = FOPT_STR_SET,
		.engines = "io_uring,io_uring_cmd", .support = FOPT_MODELLED,
		.field = FIELD_BOOL, .off = OFF(eng.registerfiles),
		.help = "Register the files with the ring",
	},
	{
		.name = "sqthread_poll", .type = FOPT_STR_SET,
		.engines = "io_uring,io_uring_cmd,xnvme",
		.support = FOPT_MODELLED, .field = FIELD_BOOL,
		.off = OFF(eng.sqthread_poll),
		.help = "A kernel thread polls the submission queue (SQPOLL)",
	},
	{
		.name = "sqthread_poll_cpu", .type = FOPT_INT,
		.engines = "io_uring,io_uring_cmd", .support = FOPT_MODELLED,
		.parse = opt_sqthread_poll_cpu,
		.help = "CPU of the SQPOLL thread",
	},
	{
		.name = "nonvectored", .type = FOPT_INT, .def = "-1",
		.engines = "io_uring,io_uring_cmd", .min = -1,
		.support = FOPT_IGNORED, .field = FIELD_INT,
		.off = OFF(eng.nonvectored),
		.help = "Non-vectored read/write commands (-1: the engine's choice)",
	},
	{
		.name = "uncached", .type = FOPT_INT,
		.engines = "io_uring,io_uring_cmd,pvsync2",
		.support = FOPT_REFUSED, .help = "RWF_UNCACHED buffered I/O",
	},
	{
		.name = "nowait", .type = FOPT_BOOL,
		.engines = "io_uring,io_uring_cmd,libaio,pvsync2",
		.support = FOPT_REFUSED,
		.help = "RWF_NOWAIT: fail rather than block",
	},
	{
		.name = "force_async", .type = FOPT_INT,
		.engines = "io_uring,io_uring_cmd", .support = FOPT_MODELLED,
		.field = FIELD_U32, .off = OFF(eng.force_async),
		.help = "Set IOSQE_ASYNC on every Nth request (0: never)",
	},
	{
		.name = "cmd_type", .type = FOPT_STR, .def = "nvme",
		.engines = "io_uring,io_uring_cmd", .choices = cmd_type_choices,
		.support = FOPT_IGNORED,
		.help = "Command set of io_uring_cmd passthrough",
	},
	{
		.name = "userspace_reap", .type = FOPT_STR_SET,
		.engines = "libaio", .support = FOPT_MODELLED,
		.field = FIELD_BOOL, .off = OFF(eng.userspace_reap),
		.help = "Reap completions from the ring in user space",
	},
	{
		.name = "gpu_dev_ids", .type = FOPT_STR_STORE,
		.engines = "libcufile", .support = FOPT_REFUSED,
		.help = "GPU ids, one per job clone",
	},
	{
		.name = "cuda_io", .type = FOPT_STR, .def = "cufile",
		.engines = "libcufile", .choices = cuda_io_choices,
		.support = FOPT_REFUSED,
		.help = "I/O path of libcufile: cufile or posix",
	},
	{
		.name = "namenode", .type = FOPT_STR_STORE, .def = "localhost",
		.engines = "libhdfs", .support = FOPT_REFUSED,
		.help = "HDFS name node",
	},
	{
		.name = "hostname", .type = FOPT_STR_STORE,
		.engines = "libhdfs,net,netsplice,rdma",
		.support = FOPT_REFUSED,
		.help = "Host to connect to (net, rdma, libhdfs)",
	},
	{
		.name = "port", .type = FOPT_STR_STORE,
		.engines = "libhdfs,librpma_apm_client,librpma_apm_server,librpma_gpspm_client,librpma_gpspm_server,net,netsplice,rdma",
		.min = 1, .max = 65535, .support = FOPT_REFUSED,
		.help = "Port (net, rdma, libhdfs: a number; librpma: text)",
	},
	{
		.name = "hdfsdirectory", .type = FOPT_STR_STORE, .def = "/",
		.engines = "libhdfs", .support = FOPT_REFUSED,
		.help = "HDFS directory of the chunks",
	},
	{
		.name = "single_instance", .type = FOPT_BOOL, .def = "1",
		.engines = "libhdfs", .support = FOPT_REFUSED,
		.help = "Share one HDFS instance",
	},
	{
		.name = "hdfs_use_direct", .type = FOPT_BOOL, .def = "0",
		.engines = "libhdfs", .support = FOPT_REFUSED,
		.help = "Use readDirect instead of hdfsRead",
	},
	{
		.name = "initiator", .type = FOPT_STR_STORE,
		.def = "iqn.2019-04.org.fio:fio", .engines = "libiscsi",
		.support = FOPT_REFUSED, .help = "iSCSI initiator name",
	},
	{
		.name = "serverip", .type = FOPT_STR_STORE,
		.engines = "librpma_apm_client,librpma_apm_server,librpma_gpspm_client,librpma_gpspm_server",
		.support = FOPT_REFUSED,
		.help = "IP address of the librpma server",
	},
	{
		.name = "direct_write_to_pmem", .type = FOPT_BOOL,
		.engines = "librpma_apm_client,librpma_apm_server,librpma_gpspm_client,librpma_gpspm_server",
		.support = FOPT_REFUSED,
		.help = "The server writes straight to persistent memory",
	},
	{
		.name = "busy_wait_polling", .type = FOPT_BOOL, .def = "1",
		.engines = "librpma_apm_client,librpma_apm_server,librpma_gpspm_client,librpma_gpspm_server",
		.support = FOPT_REFUSED,
		.help = "Busy-wait for completions (librpma)",
	},
	{
		.name = "thp", .type = FOPT_INT, .engines = "mmap",
		.support = FOPT_REFUSED,
		.help = "madvise() transparent huge pages on the mapping",
	},
	{
		.name = "skip_bad", .type = FOPT_BOOL, .def = "0",
		.engines = "mtd", .support = FOPT_REFUSED,
		.help = "Skip bad MTD blocks",
	},
	{
		.name = "uri", .type = FOPT_STR_STORE, .engines = "nbd",
		.support = FOPT_REFUSED, .help = "NBD URI",
	},
	{
		.name = "protocol", .alias = "proto", .type = FOPT_STR,
		.def = "tcp", .engines = "net,netsplice",
		.choices = protocol_choices, .support = FOPT_REFUSED,
		.help = "Network protocol: tcp, tcpv6, udp, udpv6 or unix",
	},
	{
		.name = "nodelay", .type = FOPT_BOOL,
		.engines = "net,netsplice", .support = FOPT_REFUSED,
		.help = "TCP_NODELAY on the socket",
	},
	{
		.name = "listen", .type = FOPT_STR_SET,
		.engines = "net,netsplice", .support = FOPT_REFUSED,
		.help = "Wait for a connection instead of connecting",
	},
	{
		.name = "pingpong", .type = FOPT_STR_SET,
		.engines = "net,netsplice", .support = FOPT_REFUSED,
		.help = "Answer each message before the next is sent",
	},
	{
		.name = "interface", .type = FOPT_STR_STORE,
		.engines = "net,netsplice", .support = FOPT_REFUSED,
		.help = "Network interface of multicast traffic",
	},
	{
		.name = "ttl", .type = FOPT_INT, .def = "1",
		.engines = "net,netsplice", .support = FOPT_REFUSED,
		.help = "Time to live of multicast packets",
	},
	{
		.name = "window_size", .type = FOPT_INT,
		.engines = "net,netsplice", .support = FOPT_REFUSED,
		.help = "Socket buffer size",
	},
	{
		.name = "mss", .type = FOPT_INT, .engines = "net,netsplice",
		.support = FOPT_REFUSED, .help = "TCP maximum segment size",
	},
	{
		.name = "nfs_url", .type = FOPT_STR_STORE, .engines = "nfs",
		.support = FOPT_REFUSED,
		.help = "NFS URL, e.g. nfs://server/export",
	},
	{
		.name = "clustername", .type = FOPT_STR_STORE,
		.engines = "rados,rbd", .support = FOPT_REFUSED,
		.help = "Ceph cluster name",
	},
	{
		.name = "clientname", .type = FOPT_STR_STORE,
		.engines = "rados,rbd", .support = FOPT_REFUSED,
		.help = "Ceph client name",
	},
	{
		.name = "conf", .type = FOPT_STR_STORE,
		.def = "/etc/ceph/ceph.conf", .engines = "rados",
		.support = FOPT_REFUSED, .help = "Ceph configuration file",
	},
	{
		.name = "busy_poll", .type = FOPT_BOOL, .def = "0",
		.engines = "rados,rbd", .support = FOPT_REFUSED,
		.help = "Busy-poll for completions (rados, rbd)",
	},
	{
		.name = "touch_objects", .type = FOPT_BOOL, .def = "1",
		.engines = "rados", .support = FOPT_REFUSED,
		.help = "Create the objects at start",
	},
	{
		.name = "rbdname", .type = FOPT_STR_STORE, .engines = "rbd",
		.support = FOPT_REFUSED, .help = "RBD image",
	},
	{
		.name = "bindname", .type = FOPT_STR_STORE, .engines = "rdma",
		.support = FOPT_REFUSED, .help = "Local address to bind (rdma)",
	},
	{
		.name = "verb", .alias = "proto", .type = FOPT_STR,
		.def = "write", .engines = "rdma", .choices = verb_choices,
		.support = FOPT_REFUSED,
		.help = "RDMA verb: write, read, send or recv",
	},
	{
		.name = "readfua", .type = FOPT_BOOL, .def = "0",
		.engines = "sg", .support = FOPT_REFUSED,
		.help = "FUA bit on SCSI reads",
	},
	{
		.name = "writefua", .type = FOPT_BOOL, .def = "0",
		.engines = "sg", .support = FOPT_REFUSED,
		.help = "FUA bit on SCSI writes",
	},
	{
		.name = "sg_write_mode", .type = FOPT_STR, .def = "write",
		.engines = "sg", .choices = sg_write_mode_choices,
		.support = FOPT_REFUSED, .help = "SCSI write command to use",
	},
	{
		.name = "stream_id", .type = FOPT_INT, .def = "0",
		.engines = "sg", .support = FOPT_REFUSED,
		.help = "Stream of WRITE STREAM(16) commands",
	},
	{
		.name = "hipri_percentage", .type = FOPT_INT, .def = "100",
		.engines = "pvsync2", .max = 100, .support = FOPT_MODELLED,
		.field = FIELD_U32, .off = OFF(eng.hipri_percentage),
		.help = "Percent of I/Os sent with RWF_HIPRI",
	},
	{
		.name = "no_completion_thread", .type = FOPT_STR_SET,
		.engines = "windowsaio", .support = FOPT_REFUSED,
		.help = "Poll completions without a separate thread",
	},
	{
		.name = "xnvme_be", .type = FOPT_STR_STORE, .engines = "xnvme",
		.support = FOPT_REFUSED, .help = "xNVMe backend",
	},
	{
		.name = "xnvme_async", .type = FOPT_STR_STORE,
		.engines = "xnvme", .support = FOPT_REFUSED,
		.help = "xNVMe asynchronous interface",
	},
	{
		.name = "xnvme_sync", .type = FOPT_STR_STORE,
		.engines = "xnvme", .support = FOPT_REFUSED,
		.help = "xNVMe synchronous interface",
	},
	{
		.name = "xnvme_admin", .type = FOPT_STR_STORE,
		.engines = "xnvme", .support = FOPT_REFUSED,
		.help = "xNVMe admin command interface",
	},
	{
		.name = "xnvme_dev_nsid", .type = FOPT_INT, .engines = "xnvme",
		.support = FOPT_REFUSED,
		.help = "NVMe namespace of the user-space driver",
	},
	{
		.name = "xnvme_iovec", .type = FOPT_STR_SET, .engines = "xnvme",
		.support = FOPT_REFUSED, .help = "Vectored I/O through xNVMe",
	},
	{
		.name = "svcl", .type = FOPT_STR_STORE, .engines = "dfs",
		.support = FOPT_REFUSED,
		.help = "DAOS pool service ranks (DAOS API before 1.0)",
	},
	{ .name = NULL },
};

size_t fio_option_count(void)
{
	return G_N_ELEMENTS(fio_option_defs) - 1;
}

size_t fio_option_index(const struct fio_option_def *o)
{
	return (size_t)(o - fio_option_defs);
}

const struct fio_option_def *fio_option_find(const char *name)
{
	for (const struct fio_option_def *o = fio_option_defs; o->name; o++)
		if (strcmp(o->name, name) == 0 || (o->alias && strcmp(o->alias, name) == 0))
			return o;
	return NULL;
}

const char *fio_option_closest(const char *name)
{
	const char *names[2 * G_N_ELEMENTS(fio_option_defs)];
	size_t n = 0;

	for (const struct fio_option_def *o = fio_option_defs; o->name; o++) {
		names[n++] = o->name;
		names[n++] = o->alias;
	}
	return storsim_closest(name, names, n);
}

bool fio_option_in_engine(const struct fio_option_def *o, const char *engine)
{
	size_t len = strlen(engine);

	for (const char *p = o->engines; p && *p;) {
		const char *comma = strchr(p, ',');
		size_t l = comma ? (size_t)(comma - p) : strlen(p);

		if (l == len && strncmp(p, engine, len) == 0)
			return true;
		p += l + (comma != NULL);
	}
	return false;
}

const char *fio_opt_type_name(enum fio_opt_type t)
{
	static const char *const names[] = {
		[FOPT_STR] = "str", [FOPT_STR_ULL] = "str",
		[FOPT_STR_MULTI] = "str list", [FOPT_STR_VAL] = "size",
		[FOPT_STR_VAL_TIME] = "time", [FOPT_STR_VAL_ZONE] = "size",
		[FOPT_STR_STORE] = "text", [FOPT_RANGE] = "range",
		[FOPT_INT] = "int", [FOPT_ULL] = "int", [FOPT_BOOL] = "bool",
		[FOPT_FLOAT_LIST] = "float list", [FOPT_STR_SET] = "flag",
		[FOPT_DEPRECATED] = "deprecated",
		[FOPT_SOFT_DEPRECATED] = "deprecated",
	};
	return names[t];
}

const char *fio_opt_support_name(enum fio_opt_support s)
{
	static const char *const names[] = {
		[FOPT_MODELLED] = "modelled", [FOPT_OUTPUT] = "output",
		[FOPT_IGNORED] = "ignored", [FOPT_REFUSED] = "refused",
	};
	return names[s];
}

