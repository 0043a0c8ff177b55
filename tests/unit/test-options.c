/*
 * Description: fio option values (sizes and kb_base, times, per-direction
 * lists, ranges, bssplit, float and CPU lists, choices, distributions,
 * booleans, arithmetic), the support rules (ignored, refused, output),
 * fio's fix-ups, help, and the consistency of the option table.
 *
 * Expected values come from fio 3.33's documented behaviour: the kb_base
 * table of reference/fio-formats.md section 1.3 was measured with the fio
 * 3.33 binary; the others follow the HOWTO and parse.c rules.
 */
#include <stdio.h>
#include <string.h>

#include "workloads/fio/options.h"
#include "engine/util.h"

#define KiB 1024ULL
#define MiB (1024ULL * 1024)
#define SEC 1000000000ULL	/* ns */
#define MSEC 1000000ULL
#define USEC 1000ULL

struct fixture {
	struct job_options o;
	GPtrArray *warnings;
};

static struct fixture *fixture_new(void)
{
	struct fixture *f = g_new0(struct fixture, 1);

	job_options_init(&f->o);
	f->warnings = g_ptr_array_new_with_free_func(g_free);
	return f;
}

static void fixture_free(struct fixture *f)
{
	job_options_clear(&f->o);
	g_ptr_array_free(f->warnings, TRUE);
	g_free(f);
}

/* Set one option as line 7 of t.fio, on a host with 8 CPUs. */
static bool set(struct fixture *f, const char *name, const char *value, GError **err)
{
	const struct fio_option_def *d = fio_option_find(name);
	struct fopt_ctx ctx = {
		.o = &f->o, .file = "t.fio", .line = 7, .name = name,
		.ncpus = 8, .warnings = f->warnings,
	};

	g_assert_nonnull(d);
	return fio_option_set(&ctx, d, value, err);
}

static void set_ok(struct fixture *f, const char *name, const char *value)
{
	g_autoptr(GError) err = NULL;

	if (!set(f, name, value, &err))
		g_error("%s=%s: %s", name, value ? value : "(bare)", err->message);
}

/* The option is rejected, with a message that contains want. */
static void set_fails(const char *name, const char *value, const char *want)
{
	struct fixture *f = fixture_new();
	g_autoptr(GError) err = NULL;

	if (set(f, name, value, &err))
		g_error("%s=%s was accepted", name, value ? value : "(bare)");
	g_assert_error(err, STORSIM_ERROR, STORSIM_ERROR_INPUT);
	if (!strstr(err->message, want))
		g_error("%s=%s: '%s' lacks '%s'", name, value, err->message, want);
	g_assert_true(g_str_has_prefix(err->message, "t.fio:7: option '"));
	fixture_free(f);
}

/* reference/fio-formats.md 1.3, measured with fio 3.33. */
static void test_kb_base_table(void)
{
	static const struct {
		const char *kb_base, *bs, *size;
		uint64_t want_bs, want_size;
	} rows[] = {
		{ NULL, "4KiB", "1MiB", 4000, 1000000 },
		{ "1000", "4k", "1m", 4000, 1000000 },
		{ "1000", "4KiB", "1MiB", 4096, 1048576 },
		{ NULL, "4k", "1m", 4096, 1048576 },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
		struct fixture *f = fixture_new();

		if (rows[i].kb_base)
			set_ok(f, "kb_base", rows[i].kb_base);
		set_ok(f, "bs", rows[i].bs);
		set_ok(f, "size", rows[i].size);
		g_assert_cmpuint(f->o.bs[FIO_DDIR_READ], ==, rows[i].want_bs);
		g_assert_cmpuint(f->o.size, ==, rows[i].want_size);
		fixture_free(f);
	}
}

static void test_size_units(void)
{
	static const struct {
		const char *v;
		uint64_t want;
	} rows[] = {
		{ "100", 100 }, { "512b", 512 }, { "512B", 512 },
		{ "1k", KiB }, { "1K", KiB }, { "1kb", KiB }, { "1KB", KiB },
		{ "1kib", 1000 }, { "2m", 2 * MiB }, { "2MiB", 2000000 },
		{ "1g", 1024 * MiB }, { "1gib", 1000000000 },
		{ "1t", 1024ULL * 1024 * MiB }, { "1tib", 1000000000000ULL },
		{ "1p", 1024ULL * 1024 * 1024 * MiB }, { "1pib", 1000000000000000ULL },
		{ "0x10", 16 }, { "0X1F", 31 },
		{ "(2*4096)", 8192 }, { "(1k+1)", 1025 }, { "(2^10)", 1024 },
		{ "(1kib)", 1000 }, { "(1.5*1024)", 1536 },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
		struct fixture *f = fixture_new();

		set_ok(f, "number_ios", rows[i].v);
		if (f->o.number_ios != rows[i].want)
			g_error("number_ios=%s gave %" G_GUINT64_FORMAT, rows[i].v, f->o.number_ios);
		fixture_free(f);
	}
}

static void test_size_rejects(void)
{
	set_fails("size", "1.5g", "no fraction");
	set_fails("size", "4kx", "unknown unit");
	set_fails("size", "abc", "not a number");
	set_fails("size", "", "empty value");
	set_fails("size", "0x10k", "hex number takes no unit");
	set_fails("size", "-1", "not a number");
	set_fails("bs", "20%", "percentage is not accepted");
	set_fails("bs", "2z", "unknown unit");
	set_fails("size", "(2*", "bad expression");
	set_fails("size", "(1/0)", "division by zero");
	set_fails("size", "99999999999999999999", "too large");
	set_fails("size", "16384p", "too large");
	set_fails("iodepth", "0", "below the minimum 1");
	set_fails("iodepth", "4294967296", "above the maximum");
	set_fails("rwmixread", "101", "above the maximum 100");
	set_fails("replay_align", "3000", "not a power of 2");
}

static void test_percentages(void)
{
	struct fixture *f = fixture_new();
	g_autoptr(GError) err = NULL;

	set_ok(f, "size", "20%");
	g_assert_cmpuint(f->o.size, ==, 0);
	g_assert_cmpuint(f->o.size_percent, ==, 20);
	set_ok(f, "offset", "10%");
	g_assert_cmpuint(f->o.offset_percent, ==, 10);
	set_ok(f, "io_size", "1m");
	g_assert_cmpuint(f->o.io_size, ==, MiB);
	g_assert_cmpuint(f->o.io_size_percent, ==, 0);
	fixture_free(f);
	set_fails("io_size", "150%", "above 100");
	/* a zone count needs zonemode=zbd, which storsim refuses */
	f = fixture_new();
	g_assert_false(set(f, "size", "10z", &err));
	g_assert_error(err, STORSIM_ERROR, STORSIM_ERROR_UNSUPPORTED);
	fixture_free(f);
}

static void test_time_units(void)
{
	static const struct {
		const char *opt, *v;
		uint64_t want;	/* ns */
	} rows[] = {
		/* is_seconds: a bare number is seconds */
		{ "runtime", "10", 10 * SEC }, { "runtime", "10s", 10 * SEC },
		{ "runtime", "100ms", 100 * MSEC }, { "runtime", "3msec", 3 * MSEC },
		{ "runtime", "500us", 500 * USEC }, { "runtime", "2usec", 2 * USEC },
		{ "runtime", "1m", 60 * SEC }, { "runtime", "1h", 3600 * SEC },
		{ "runtime", "1d", 86400 * SEC }, { "runtime", "10S", 10 * SEC },
		{ "ramp_time", "(2)", 2 * SEC },
		/* fio keeps whole seconds of an expression for is_seconds */
		{ "runtime", "(1500ms)", 1 * SEC },
		/* others: a bare number is microseconds */
		{ "thinktime", "10", 10 * USEC }, { "thinktime", "1ms", MSEC },
		{ "thinktime", "(1500ms)", 1500 * MSEC },
		{ "thinktime", "(2*5)", 10 * USEC },
		/* log_avg_msec is a count of milliseconds */
		{ "log_avg_msec", "250", 250 * MSEC },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
		struct fixture *f = fixture_new();
		const struct fio_option_def *d = fio_option_find(rows[i].opt);
		uint64_t got;

		set_ok(f, rows[i].opt, rows[i].v);
		got = *(uint64_t *)((char *)&f->o + d->off);
		if (got != rows[i].want)
			g_error("%s=%s gave %" G_GUINT64_FORMAT " ns", rows[i].opt, rows[i].v, got);
		fixture_free(f);
	}
}

static void test_time_rejects(void)
{
	set_fails("runtime", "10sec", "unknown time unit");
	set_fails("runtime", "1.5s", "no fraction");
	set_fails("runtime", "10ns", "unknown time unit");
	set_fails("runtime", "soon", "not a time");
	set_fails("runtime", "(10x)", "bad expression");
}

static void test_per_direction(void)
{
	static const struct {
		const char *v;
		uint64_t r, w, t;
	} rows[] = {
		{ "1m", MiB, MiB, MiB },
		{ "1m,2m", MiB, 2 * MiB, 2 * MiB },
		{ ",10m", 0, 10 * MiB, 10 * MiB },
		{ "1m,,3m", MiB, 0, 3 * MiB },
		{ "1m,", MiB, MiB, MiB },
		{ "1m,2m,3m", MiB, 2 * MiB, 3 * MiB },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
		struct fixture *f = fixture_new();

		set_ok(f, "rate", rows[i].v);
		g_assert_cmpuint(f->o.rate[FIO_DDIR_READ], ==, rows[i].r);
		g_assert_cmpuint(f->o.rate[FIO_DDIR_WRITE], ==, rows[i].w);
		g_assert_cmpuint(f->o.rate[FIO_DDIR_TRIM], ==, rows[i].t);
		fixture_free(f);
	}
	set_fails("rate", "1,2,3,4", "at most 3 values");
	set_fails("rate", ",", "empty value");
	set_fails("iodepth", "4,8", "takes a single value");
}

static void test_ranges(void)
{
	struct fixture *f = fixture_new();

	set_ok(f, "bsrange", "1k-4k");
	for (int d = 0; d < FIO_DDIR_COUNT; d++) {
		g_assert_cmpuint(f->o.min_bs[d], ==, KiB);
		g_assert_cmpuint(f->o.max_bs[d], ==, 4 * KiB);
	}
	set_ok(f, "bsrange", "8k:2k,16k-32k");
	g_assert_cmpuint(f->o.min_bs[FIO_DDIR_READ], ==, 2 * KiB);
	g_assert_cmpuint(f->o.max_bs[FIO_DDIR_READ], ==, 8 * KiB);
	g_assert_cmpuint(f->o.min_bs[FIO_DDIR_TRIM], ==, 16 * KiB);
	g_assert_cmpuint(f->o.max_bs[FIO_DDIR_TRIM], ==, 32 * KiB);
	set_ok(f, "filesize", "1m-2m");
	g_assert_cmpuint(f->o.file_size_low, ==, MiB);
	g_assert_cmpuint(f->o.file_size_high, ==, 2 * MiB);
	set_ok(f, "filesize", "3m");
	g_assert_cmpuint(f->o.file_size_low, ==, 3 * MiB);
	g_assert_cmpuint(f->o.file_size_high, ==, 3 * MiB);
	set_ok(f, "startdelay", "1-5");
	g_assert_cmpuint(f->o.start_delay, ==, SEC);
	g_assert_cmpuint(f->o.start_delay_high, ==, 5 * SEC);
	fixture_free(f);
	set_fails("bsrange", "4k", "not a range");
	set_fails("bsrange", "1k-x", "not a number");
}

struct bssplit_case {
	const char *v;
	unsigned nr[FIO_DDIR_COUNT];
	unsigned bs_kib[FIO_DDIR_COUNT][4];
	unsigned perc[FIO_DDIR_COUNT][4];
};

static void test_bssplit(void)
{
	static const struct bssplit_case rows[] = {
		/* in order of increasing share, as fio sorts them */
		{ "4k/10:64k/50:32k/40", { 3, 3, 3 },
		  { { 4, 32, 64 }, { 4, 32, 64 }, { 4, 32, 64 } },
		  { { 10, 40, 50 }, { 10, 40, 50 }, { 10, 40, 50 } } },
		/* blank percentages share what is left; equal shares keep
		 * their order */
		{ "4k/50:8k:16k/", { 3, 3, 3 },
		  { { 8, 16, 4 }, { 8, 16, 4 }, { 8, 16, 4 } },
		  { { 25, 25, 50 }, { 25, 25, 50 }, { 25, 25, 50 } } },
		/* a lone size without a share keeps 0, as fio's
		 * bssplit_ddir leaves it */
		{ "4k", { 1, 1, 1 }, { { 4 }, { 4 }, { 4 } }, { { 0 }, { 0 }, { 0 } } },
		/* reads, then writes; trims take the write list */
		{ "2k/50:4k/50,4k/90:8k/10", { 2, 2, 2 },
		  { { 2, 4 }, { 8, 4 }, { 8, 4 } },
		  { { 50, 50 }, { 10, 90 }, { 10, 90 } } },
		{ "1k/100,2k/100,3k/100", { 1, 1, 1 },
		  { { 1 }, { 2 }, { 3 } }, { { 100 }, { 100 }, { 100 } } },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
		struct fixture *f = fixture_new();

		set_ok(f, "bssplit", rows[i].v);
		for (int d = 0; d < FIO_DDIR_COUNT; d++) {
			g_assert_cmpuint(f->o.bssplit_nr[d], ==, rows[i].nr[d]);
			for (unsigned k = 0; k < rows[i].nr[d]; k++) {
				g_assert_cmpuint(f->o.bssplit[d][k].bs, ==, rows[i].bs_kib[d][k] * KiB);
				g_assert_cmpuint(f->o.bssplit[d][k].perc, ==, rows[i].perc[d][k]);
			}
		}
		fixture_free(f);
	}
}

static void test_bssplit_rejects(void)
{
	g_autoptr(GString) many = g_string_new(NULL);

	for (int i = 0; i < 65; i++)
		g_string_append_printf(many, "%s%dk", i ? ":" : "", i + 1);
	set_fails("bssplit", "4k/60:8k/50", "more than 100");
	set_fails("bssplit", "4k/10:8k/20", "add up to 30, not 100");
	set_fails("bssplit", "4k/60:8k/50:16k", "more than 100");
	set_fails("bssplit", "4k/101", "not a percentage");
	set_fails("bssplit", "0/100", "block size 0");
	set_fails("bssplit", "4k/50::8k/50", "empty entry");
	set_fails("bssplit", many->str, "more than 64 block sizes");
	set_fails("bssplit", "1k,2k,3k,4k", "at most 3 lists");
}

static void test_float_list(void)
{
	struct fixture *f = fixture_new();
	g_autoptr(GString) many = g_string_new(NULL);

	set_ok(f, "percentile_list", "50:99:99.95");
	g_assert_cmpuint(f->o.percentile_nr, ==, 3);
	g_assert_cmpfloat(f->o.percentile_list[2], ==, 99.95);
	g_assert_cmpuint(f->o.percentile_precision, ==, 2);
	fixture_free(f);
	for (int i = 0; i < 21; i++)
		g_string_append_printf(many, "%s%d", i ? ":" : "", i + 1);
	set_fails("percentile_list", many->str, "more than 20 values");
	set_fails("percentile_list", "50:101", "outside 0..100");
	set_fails("percentile_list", "50:x", "not a number");
}

static void test_default_percentiles(void)
{
	static const double fio_default[] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80,
					      90, 95, 99, 99.5, 99.9, 99.95, 99.99 };
	struct fixture *f = fixture_new();

	g_assert_cmpuint(f->o.percentile_nr, ==, G_N_ELEMENTS(fio_default));
	for (size_t i = 0; i < G_N_ELEMENTS(fio_default); i++)
		g_assert_cmpfloat(f->o.percentile_list[i], ==, fio_default[i]);
	fixture_free(f);
}

static void test_cpu_lists(void)
{
	struct fixture *f = fixture_new();

	set_ok(f, "cpus_allowed", "0-3,5");
	g_assert_true(f->o.cpus_allowed_set);
	for (unsigned c = 0; c < 8; c++)
		g_assert_cmpint(job_options_cpu_isset(&f->o, c), ==, c <= 3 || c == 5);
	set_ok(f, "cpumask", "0x5");
	for (unsigned c = 0; c < 8; c++)
		g_assert_cmpint(job_options_cpu_isset(&f->o, c), ==, c == 0 || c == 2);
	fixture_free(f);
	set_fails("cpus_allowed", "8", "CPU 8 does not exist on the simulated host (8 CPUs)");
	set_fails("cpus_allowed", "3-1", "is empty");
	set_fails("cpus_allowed", "0,,1", "not a CPU list");
	set_fails("cpus_allowed", "a", "not a CPU list");
	set_fails("cpumask", "0x100", "CPU 8 does not exist");
}

static void test_choices(void)
{
	static const struct {
		const char *opt, *v;
		size_t off;
		int want;
	} rows[] = {
		{ "rw", "randwrite", offsetof(struct job_options, rw), FIO_RW_RANDWRITE },
		{ "rw", "readwrite", offsetof(struct job_options, rw), FIO_RW_RW },
		{ "readwrite", "randtrimwrite", offsetof(struct job_options, rw), FIO_RW_RANDTRIMWRITE },
		{ "fallocate", "0", offsetof(struct job_options, fallocate), FIO_FALLOC_NONE },
		{ "fallocate", "1", offsetof(struct job_options, fallocate), FIO_FALLOC_POSIX },
		{ "fallocate", "keep", offsetof(struct job_options, fallocate), FIO_FALLOC_KEEP },
		{ "sync", "dsync", offsetof(struct job_options, sync), FIO_SYNC_DSYNC },
		{ "sync", "1", offsetof(struct job_options, sync), FIO_SYNC_SYNC },
		{ "cpus_allowed_policy", "split", offsetof(struct job_options, cpus_allowed_policy),
		  FIO_CPUS_SPLIT },
		{ "random_generator", "lfsr", offsetof(struct job_options, random_generator),
		  FIO_RANDGEN_LFSR },
		{ "rate_process", "poisson", offsetof(struct job_options, rate_process),
		  FIO_RATE_POISSON },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
		struct fixture *f = fixture_new();

		set_ok(f, rows[i].opt, rows[i].v);
		g_assert_cmpint(*(int *)((char *)&f->o + rows[i].off), ==, rows[i].want);
		fixture_free(f);
	}
	set_fails("rw", "randomread", "'randomread' is not one of: read, write");
	set_fails("fallocate", "none:1", "takes no ':' suffix");
	set_fails("rw", "", "empty value");
}

static void test_rw_modifiers(void)
{
	struct fixture *f = fixture_new();

	set_ok(f, "rw", "randread:8");
	g_assert_cmpuint(f->o.rw_seq_nr, ==, 8);
	g_assert_cmpint(f->o.rw_seq_add, ==, 0);
	set_ok(f, "rw", "read:-8k");
	g_assert_cmpuint(f->o.rw_seq_nr, ==, 1);
	g_assert_cmpint(f->o.rw_seq_add, ==, -8192);
	set_ok(f, "rw", "write:112k");
	g_assert_cmpint(f->o.rw_seq_add, ==, 112 * 1024);
	fixture_free(f);
	set_fails("rw", "randread:0", "whole number from 1");
	set_fails("rw", "randread:x", "whole number from 1");
	set_fails("rw", "write:z", "not a number");
}

/* The non-uniform file services take random_distribution's
 * VALUE[:CENTER], with its defaults and checks, into fields of their own. */
static void test_file_service_distribution(void)
{
	struct fixture *f = fixture_new();

	set_ok(f, "file_service_type", "zipf:1.2:0.3");
	g_assert_cmpint(f->o.file_service, ==, FIO_FSERVICE_ZIPF);
	g_assert_cmpfloat(f->o.fsrv_param, ==, 1.2);
	g_assert_cmpfloat(f->o.fsrv_center, ==, 0.3);
	g_assert_cmpfloat(f->o.rand_center, ==, -1);
	set_ok(f, "file_service_type", "pareto");
	g_assert_cmpfloat(f->o.fsrv_param, ==, 0.2);
	g_assert_cmpfloat(f->o.fsrv_center, ==, -1);
	set_ok(f, "file_service_type", "gauss:10");
	g_assert_cmpint(f->o.file_service, ==, FIO_FSERVICE_NORMAL);
	g_assert_cmpuint(f->o.file_service_nr, ==, 1);
	fixture_free(f);
	set_fails("file_service_type", "zipf:1", "theta must not be 1.0");
	set_fails("file_service_type", "pareto:1.5", "outside (0, 1)");
	set_fails("file_service_type", "normal:5:2", "center 2 is outside");
}

static void test_random_distribution(void)
{
	struct fixture *f = fixture_new();

	g_assert_cmpint(f->o.random_distribution, ==, FIO_RAND_UNIFORM);
	set_ok(f, "random_distribution", "zipf");
	g_assert_cmpfloat(f->o.rand_param, ==, 1.1);
	set_ok(f, "random_distribution", "zipf:1.2:0.3");
	g_assert_cmpfloat(f->o.rand_param, ==, 1.2);
	g_assert_cmpfloat(f->o.rand_center, ==, 0.3);
	set_ok(f, "random_distribution", "pareto");
	g_assert_cmpfloat(f->o.rand_param, ==, 0.2);
	g_assert_cmpfloat(f->o.rand_center, ==, -1);
	set_ok(f, "random_distribution", "normal:10");
	g_assert_cmpfloat(f->o.rand_param, ==, 10);
	set_ok(f, "random_distribution", "zoned:50/5:30/15:20/");
	g_assert_cmpint(f->o.random_distribution, ==, FIO_RAND_ZONED);
	g_assert_cmpuint(f->o.zones_nr[FIO_DDIR_WRITE], ==, 3);
	g_assert_cmpuint(f->o.zones[FIO_DDIR_WRITE][1].access_perc, ==, 30);
	g_assert_cmpuint(f->o.zones[FIO_DDIR_WRITE][2].size_perc, ==, 80);
	set_ok(f, "random_distribution", "zoned_abs:60/10g:40/100g");
	g_assert_cmpuint(f->o.zones[FIO_DDIR_READ][1].size, ==, 100ULL * 1024 * MiB);
	fixture_free(f);
	set_fails("random_distribution", "zipf:1", "must not be 1.0");
	set_fails("random_distribution", "pareto:1.5", "outside (0, 1)");
	set_fails("random_distribution", "normal:100", "outside [0, 100)");
	set_fails("random_distribution", "zipf:1.2:2", "center 2 is outside 0..1");
	set_fails("random_distribution", "random:1", "takes no parameter");
	set_fails("random_distribution", "zoned", "needs zones");
	set_fails("random_distribution", "zoned:60/10:30/90", "add up to 90, not 100");
	set_fails("random_distribution", "zoned_abs:100", "needs a size");
}

static void test_booleans(void)
{
	struct fixture *f = fixture_new();

	set_ok(f, "direct", "1");
	g_assert_true(f->o.direct);
	set_ok(f, "direct", "0x0");
	g_assert_false(f->o.direct);
	set_ok(f, "buffered", "0");
	g_assert_true(f->o.direct);
	set_ok(f, "stonewall", NULL);
	g_assert_true(f->o.stonewall);
	set_ok(f, "stonewall", "0");
	g_assert_false(f->o.stonewall);
	set_ok(f, "write_bw_log", NULL);
	g_assert_true(f->o.write_bw_log);
	g_assert_null(f->o.bw_log_file);
	set_ok(f, "write_lat_log", "prio-run.log");
	g_assert_cmpstr(f->o.lat_log_file, ==, "prio-run.log");
	fixture_free(f);
	set_fails("direct", "true", "not 0 or 1");
	set_fails("direct", "2", "above the maximum 1");
	set_fails("direct", "yes", "not 0 or 1");
	set_fails("direct", NULL, "needs a value");
	set_fails("description", NULL, "needs a value");
}

static void test_ignored_warns_only_off_default(void)
{
	struct fixture *f = fixture_new();

	set_ok(f, "thread", "0");
	set_ok(f, "create_serialize", "1");
	g_assert_cmpuint(f->warnings->len, ==, 0);
	set_ok(f, "create_serialize", "0");
	g_assert_cmpuint(f->warnings->len, ==, 1);
	g_assert_cmpstr(g_ptr_array_index(f->warnings, 0), ==,
			"t.fio:7: option 'create_serialize' is not modelled by storsim; ignored "
			"(it does not change the simulated results)");
	fixture_free(f);
}

static void test_refused_only_off_default(void)
{
	struct fixture *f = fixture_new();
	g_autoptr(GError) err = NULL;

	set_ok(f, "verify_backlog", "0");
	set_ok(f, "io_submit_mode", "inline");
	g_assert_false(set(f, "verify_backlog", "16", &err));
	g_assert_error(err, STORSIM_ERROR, STORSIM_ERROR_UNSUPPORTED);
	g_assert_cmpstr(err->message, ==,
			"t.fio:7: option 'verify_backlog': not modelled by storsim; this "
			"value would change the results");
	g_assert_cmpuint(f->warnings->len, ==, 0);
	fixture_free(f);
}

static void test_output_options_are_quiet(void)
{
	struct fixture *f = fixture_new();

	set_ok(f, "significant_figures", "6");
	set_ok(f, "stats", "0");
	g_assert_false(f->o.stats);
	g_assert_cmpuint(f->warnings->len, ==, 0);
	fixture_free(f);
}

static void test_ioengines(void)
{
	static const struct {
		const char *v;
		enum fio_ioengine want;
	} ok[] = {
		{ "null", FIO_ENGINE_NULL }, { "sync", FIO_ENGINE_SYNC },
		{ "psync", FIO_ENGINE_PSYNC }, { "vsync", FIO_ENGINE_VSYNC },
		{ "pvsync", FIO_ENGINE_PVSYNC }, { "pvsync2", FIO_ENGINE_PVSYNC2 },
		{ "libaio", FIO_ENGINE_LIBAIO }, { "linuxaio", FIO_ENGINE_LIBAIO },
		{ "aio", FIO_ENGINE_LIBAIO }, { "io_uring", FIO_ENGINE_IO_URING },
	};
	static const struct {
		const char *v, *want;
	} refused[] = {
		{ "rbd", "engine 'rbd'; storsim models null, sync" },
		/* a fio engine storsim does not simulate, even if io_uring is */
		{ "io_uring_cmd", "engine 'io_uring_cmd'; storsim models null, sync, "
		  "psync, vsync, pvsync, pvsync2, libaio, io_uring)" },
		{ "posixaio", "engine 'posixaio'" },
		{ "io_urin", "did you mean 'io_uring'?" },
		{ "external:/lib/x.so", "fio would load it as an external engine)" },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(ok); i++) {
		struct fixture *f = fixture_new();

		set_ok(f, "ioengine", ok[i].v);
		g_assert_cmpint(f->o.ioengine, ==, ok[i].want);
		fixture_free(f);
	}
	for (size_t i = 0; i < G_N_ELEMENTS(refused); i++) {
		struct fixture *f = fixture_new();
		g_autoptr(GError) err = NULL;

		g_assert_false(set(f, "ioengine", refused[i].v, &err));
		g_assert_error(err, STORSIM_ERROR, STORSIM_ERROR_UNSUPPORTED);
		if (!strstr(err->message, refused[i].want))
			g_error("ioengine=%s: '%s' lacks '%s'", refused[i].v, err->message,
				refused[i].want);
		fixture_free(f);
	}
	g_assert_cmpint(fio_engine_known("rbd"), ==, true);
	g_assert_cmpint(fio_engine_known("cpp_null"), ==, false);
}

static void test_expressions(void)
{
	static const struct {
		const char *e;
		unsigned flags;
		int64_t want;
	} rows[] = {
		{ "1+2*3", 0, 7 }, { "(1+2)*3", 0, 9 }, { "2^10", 0, 1024 },
		{ "2^3^2", 0, 512 }, { "-2^2", 0, 4 }, { "7/2", 0, 3 },
		{ "7%3", 0, 1 }, { "10-2-3", 0, 5 }, { " 4 * ( 2 + 1 ) ", 0, 12 },
		{ "-1^3", 0, -1 }, { "0x10*2", 0, 32 },
		{ "1.5*2", FIO_EXPR_FLOAT, 3 },
		{ "4k", FIO_EXPR_UNITS, 4096 }, { "2m", FIO_EXPR_UNITS, 2 << 20 },
		{ "2m", FIO_EXPR_UNITS | FIO_EXPR_TIME, 120000000 },
		{ "1s+1ms", FIO_EXPR_UNITS | FIO_EXPR_TIME, 1001000 },
	};
	static const struct {
		const char *e;
		unsigned flags;
		const char *want;
	} bad[] = {
		{ "1/0", 0, "division by zero" }, { "1%0", 0, "division by zero" },
		{ "2*", 0, "ends early" }, { "(1", 0, "missing ')'" },
		{ "1)", 0, "unexpected ')'" },
		{ "9223372036854775807+1", 0, "too large" },
		{ "2^64", 0, "too large" }, { "1.5", 0, "fractions" },
		{ "4k", 0, "unexpected 'k'" }, { "4q", FIO_EXPR_UNITS, "unknown unit" },
		{ "1.5%2", FIO_EXPR_FLOAT, "whole numbers" },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
		g_autofree char *msg = NULL;
		int64_t iv;
		double dv;

		if (!fio_expr_eval(rows[i].e, rows[i].flags, &iv, &dv, NULL, &msg))
			g_error("%s: %s", rows[i].e, msg);
		if (iv != rows[i].want)
			g_error("%s gave %" G_GINT64_FORMAT, rows[i].e, iv);
	}
	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autofree char *msg = NULL;
		int64_t iv;
		double dv;

		if (fio_expr_eval(bad[i].e, bad[i].flags, &iv, &dv, NULL, &msg))
			g_error("%s was accepted", bad[i].e);
		if (!strstr(msg, bad[i].want))
			g_error("%s: '%s' lacks '%s'", bad[i].e, msg, bad[i].want);
	}
}

/* A recursive parser on hostile input: nesting is refused past its limit
 * with a message that says so, however deep (a 100000-deep expression
 * once overflowed the stack), and accepted up to it. */
static void test_expression_nesting_limit(void)
{
	static const char *const opens[] = { "(", "-", "1^" };

	for (size_t k = 0; k < G_N_ELEMENTS(opens); k++) {
		for (size_t depth = 100; depth <= 100000; depth *= 10) {
			GString *e = g_string_new(NULL);
			g_autofree char *msg = NULL;
			int64_t iv;
			double dv;
			bool ok;

			for (size_t i = 0; i < depth; i++)
				g_string_append(e, opens[k]);
			g_string_append_c(e, '1');
			if (k == 0)
				for (size_t i = 0; i < depth; i++)
					g_string_append_c(e, ')');
			ok = fio_expr_eval(e->str, 0, &iv, &dv, NULL, &msg);
			if (depth == 100 && (!ok || iv != 1))
				g_error("%s x%zu: refused at the limit: %s", opens[k],
					depth, msg);
			if (depth > 100 && (ok || !strstr(msg, "nested more than 100 deep")))
				g_error("%s x%zu: %s", opens[k], depth, ok ? "accepted" : msg);
			g_string_free(e, TRUE);
		}
	}
	set_fails("size", "((((((((((((((((((((((((((((((((((((((((((((((((((("
		  "((((((((((((((((((((((((((((((((((((((((((((((((((1", "nested more than");
}

/* A message quoting a huge value keeps its start (where, which option)
 * and its end (what is wrong), and leaves out the middle. */
static void test_huge_value_message_is_shortened(void)
{
	struct fixture *f = fixture_new();
	g_autoptr(GError) err = NULL;
	g_autofree char *value = g_strnfill(200000, '(');

	g_assert_false(set(f, "size", value, &err));
	g_assert_cmpuint(strlen(err->message), <, 600);
	g_assert_true(g_str_has_prefix(err->message, "t.fio:7: option 'size': "));
	g_assert_nonnull(strstr(err->message, "bytes...]"));
	g_assert_true(g_str_has_suffix(err->message, "storsim's limit)"));
	fixture_free(f);
}

static bool finish(struct fixture *f, GError **err)
{
	g_autofree struct opt_origin *origin = g_new0(struct opt_origin, fio_option_count());

	for (size_t i = 0; i < fio_option_count(); i++)
		origin[i] = (struct opt_origin){ "t.fio", (int)i + 1 };
	return job_options_finish(&f->o, origin, f->warnings, err);
}

/* min_bs and max_bs are set by bsrange and by bssplit as each is parsed,
 * so the later one gives them; the list stays for the sizes' draw. */
static void test_bssplit_bsrange_order(void)
{
	struct fixture *f = fixture_new();
	g_autoptr(GError) err = NULL;

	set_ok(f, "bsrange", "4k-16k");
	set_ok(f, "bssplit", ",8k/50:32k/50");
	g_assert_cmpuint(f->o.min_bs[FIO_DDIR_READ], ==, 4 * KiB);
	g_assert_cmpuint(f->o.max_bs[FIO_DDIR_READ], ==, 16 * KiB);
	g_assert_cmpuint(f->o.min_bs[FIO_DDIR_WRITE], ==, 8 * KiB);
	g_assert_cmpuint(f->o.max_bs[FIO_DDIR_WRITE], ==, 32 * KiB);
	g_assert_cmpuint(f->o.min_bs[FIO_DDIR_TRIM], ==, 8 * KiB);
	g_assert_cmpuint(f->o.max_bs[FIO_DDIR_TRIM], ==, 32 * KiB);
	set_ok(f, "bsrange", "2k-4k,4k-64k");
	g_assert_cmpuint(f->o.bssplit_nr[FIO_DDIR_WRITE], ==, 2);
	g_assert_cmpuint(f->o.min_bs[FIO_DDIR_READ], ==, 2 * KiB);
	g_assert_cmpuint(f->o.max_bs[FIO_DDIR_READ], ==, 4 * KiB);
	g_assert_cmpuint(f->o.min_bs[FIO_DDIR_WRITE], ==, 4 * KiB);
	g_assert_cmpuint(f->o.max_bs[FIO_DDIR_WRITE], ==, 64 * KiB);
	/* bs, whenever given, only stands in for a bound neither gave */
	set_ok(f, "bs", "1m");
	g_assert_true(finish(f, &err));
	g_assert_cmpuint(f->o.min_bs[FIO_DDIR_WRITE], ==, 4 * KiB);
	g_assert_cmpuint(f->o.max_bs[FIO_DDIR_WRITE], ==, 64 * KiB);
	fixture_free(f);
}

static void test_fixups(void)
{
	struct fixture *f = fixture_new();
	g_autoptr(GError) err = NULL;

	set_ok(f, "iodepth", "32");
	set_ok(f, "iodepth_batch_complete_min", "4");
	set_ok(f, "time_based", NULL);
	set_ok(f, "gtod_reduce", "1");
	set_ok(f, "randseed", "42");
	set_ok(f, "bssplit", "4k/50:64k/50");
	set_ok(f, "random_distribution", "zipf:1.2");
	g_assert_true(finish(f, &err));
	/* fio's default batch of 1 stays; an unset low mark becomes iodepth */
	g_assert_cmpuint(f->o.iodepth_batch, ==, 1);
	g_assert_cmpuint(f->o.iodepth_low, ==, 32);
	g_assert_cmpuint(f->o.iodepth_batch_complete_max, ==, 4);
	g_assert_false(f->o.time_based);
	g_assert_cmpuint(f->warnings->len, ==, 1);
	g_assert_nonnull(strstr(g_ptr_array_index(f->warnings, 0), "option 'time_based': needs a runtime"));
	g_assert_false(f->o.clat_percentiles);
	g_assert_true(f->o.disable_slat);
	g_assert_true(f->o.randseed_set);
	g_assert_cmpuint(f->o.min_bs[FIO_DDIR_WRITE], ==, 4 * KiB);
	g_assert_cmpuint(f->o.max_bs[FIO_DDIR_WRITE], ==, 64 * KiB);
	g_assert_true(f->o.norandommap);
	g_assert_cmpuint(f->o.unit_base, ==, 8);
	fixture_free(f);
	/* a batch of 0, or above the depth, means the whole depth */
	f = fixture_new();
	set_ok(f, "iodepth", "8");
	set_ok(f, "iodepth_batch", "0");
	g_assert_true(finish(f, &err));
	g_assert_cmpuint(f->o.iodepth_batch, ==, 8);
	fixture_free(f);
}

static void test_fixup_rejects(void)
{
	struct fixture *f = fixture_new();
	g_autoptr(GError) err = NULL;
	size_t size_row = fio_option_index(fio_option_find("size"));
	g_autofree char *want = g_strdup_printf("t.fio:%zu: option 'size':", size_row + 1);

	set_ok(f, "bs", "64k");
	set_ok(f, "size", "8k");
	g_assert_false(finish(f, &err));
	g_assert_error(err, STORSIM_ERROR, STORSIM_ERROR_INPUT);
	g_assert_true(g_str_has_prefix(err->message, want));
	g_assert_nonnull(strstr(err->message, "less than the smallest block size (65536"));
	fixture_free(f);
	g_clear_error(&err);
	f = fixture_new();
	set_ok(f, "rate", "1m");
	set_ok(f, "rate_iops", "100");
	g_assert_false(finish(f, &err));
	g_assert_nonnull(strstr(err->message, "rate and rate_iops cannot both be set"));
	fixture_free(f);
}

/* Each row is well formed, and each default parses without a warning. */
static void test_table_consistency(void)
{
	struct fixture *f = fixture_new();

	for (size_t i = 0; i < fio_option_count(); i++) {
		const struct fio_option_def *o = &fio_option_defs[i];
		g_autoptr(GError) err = NULL;

		g_assert_nonnull(o->name);
		if (!o->help || !*o->help)
			g_error("%s has no help", o->name);
		g_assert_cmpint(o->support, >=, FOPT_MODELLED);
		g_assert_cmpint(o->support, <=, FOPT_REFUSED);
		if (o->support == FOPT_MODELLED && o->field == FIELD_NONE && !o->parse)
			g_error("%s is modelled but stored nowhere", o->name);
		if (o->field != FIELD_NONE && o->off >= sizeof(struct job_options))
			g_error("%s: offset outside struct job_options", o->name);
		if (o->inverse && !fio_option_find(o->inverse))
			g_error("%s: inverse %s unknown", o->name, o->inverse);
		if (o->engines) {
			g_auto(GStrv) e = g_strsplit(o->engines, ",", 0);

			for (size_t k = 0; e[k]; k++)
				if (!fio_engine_known(e[k]))
					g_error("%s: engine %s unknown", o->name, e[k]);
		}
		/* a row finds itself by name and alias (first of a shared alias) */
		g_assert_true(fio_option_find(o->name) == o);
		if (o->def && o->type != FOPT_DEPRECATED && !set(f, o->name, o->def, &err))
			g_error("default of %s does not parse: %s", o->name, err->message);
		for (size_t k = i + 1; k < fio_option_count(); k++) {
			const struct fio_option_def *p = &fio_option_defs[k];

			if (strcmp(o->name, p->name) == 0 || g_strcmp0(o->name, p->alias) == 0 ||
			    g_strcmp0(o->alias, p->name) == 0)
				g_error("%s is in the table twice", o->name);
			/* one shared alias: net's protocol and rdma's verb ("proto") */
			if (o->alias && g_strcmp0(o->alias, p->alias) == 0 &&
			    strcmp(o->alias, "proto") != 0)
				g_error("alias %s is used twice", o->alias);
		}
	}
	g_assert_cmpuint(f->warnings->len, ==, 0);
	fixture_free(f);
}

/* The 80 most used keys of Debian's fio-examples (fio-formats.md 1.4). */
static void test_table_knows_common_options(void)
{
	static const char *const common[] = {
		"rw", "ioengine", "bs", "size", "iodepth", "filename", "direct",
		"numjobs", "stonewall", "runtime", "time_based", "group_reporting",
		"verify", "thread", "name", "norandommap", "directory", "filesize",
		"port", "zonemode", "nrfiles", "buffered", "io_size", "blocksize",
		"filename_format", "zonesize", "rwmixread", "http_mode", "https",
		"http_host", "http_verbose", "create_serialize", "ramp_time",
		"bssplit", "offset", "disable_slat", "cpus_allowed_policy",
		"disable_clat", "number_ios", "hostname", "serverip", "startdelay",
		"gtod_reduce", "loops", "clat_percentiles", "disable_lat", "pool",
		"create_on_open", "new_group", "rwmixwrite", "iodepth_batch_complete",
		"http_s3_key", "http_s3_keyid", "http_s3_region", "random_distribution",
		"sync", "sg_write_mode", "buffer_pattern", "rate", "flow",
		"write_lat_log", "cmdprio_class", "prioclass", "log_prio", "cpumode",
		"cpuload", "verify_dump", "verify_backlog", "write_bw_log", "inplace",
		"donorname", "continue_on_error", "exitall", "ignore_error",
		"fallocate", "openfiles", "unlink", "io_submit_mode", "rate_iops",
		"gpu_dev_id",
	};

	for (size_t i = 0; i < G_N_ELEMENTS(common); i++)
		if (!fio_option_find(common[i]))
			g_error("%s is missing", common[i]);
}

/* The modelled options are exactly the ones the simulator is built for. */
static void test_modelled_set(void)
{
	static const char *const modelled[] = {
		"name", "description", "readwrite", "rw_sequencer", "rwmixread",
		"rwmixwrite", "blocksize", "blocksize_range", "bssplit", "blockalign",
		"blocksize_unaligned", "bs_is_seq_rand",
		"size", "io_limit", "filesize", "offset", "offset_align",
		"offset_increment", "nrfiles", "openfiles",
		"filename", "directory", "filename_format", "iodepth",
		"iodepth_batch_submit", "iodepth_batch_complete",
		"iodepth_batch_complete_max", "iodepth_low", "direct", "buffered",
		"sync", "fsync", "fdatasync", "end_fsync", "fsync_on_close",
		"overwrite", "pre_read", "fallocate", "invalidate", "create_on_open",
		"file_append",
		"numjobs", "timeout", "time_based", "ramp_time", "startdelay", "loops",
		"number_ios", "wait_for_previous", "new_group", "wait_for",
		"group_reporting", "norandommap", "randseed", "randrepeat", "allrandrepeat",
		"random_distribution", "percentage_random", "random_generator", "rate",
		"rate_iops", "rate_min", "rate_iops_min", "rate_cycle",
		"rate_process", "thinktime", "thinktime_blocks",
		"thinktime_blocks_type", "thinktime_spin", "ioengine", "cpus_allowed", "cpumask",
		"cpus_allowed_policy", "kb_base", "unit_base", "percentile_list",
		"clat_percentiles", "lat_percentiles", "slat_percentiles",
		"disable_lat", "disable_clat", "disable_slat", "disable_bw_measurement",
		"gtod_reduce", "write_iolog", "read_iolog", "replay_no_stall",
		"replay_time_scale", "replay_redirect", "replay_align", "replay_scale",
		"replay_skip", "file_service_type", "unified_rw_reporting",
		"exitall", "exit_what", "exitall_on_error", "zonemode", "zonesize",
		"fadvise_hint", "verify", "do_verify", "max_latency", "latency_target",
		"latency_window", "latency_percentile", "latency_run",
		"zonerange", "zoneskip",
		"write_bw_log", "write_lat_log", "write_iops_log", "log_avg_msec",
		"log_offset", "bwavgtime", "iopsavgtime",
		"hipri", "fixedbufs", "registerfiles", "sqthread_poll",
		"sqthread_poll_cpu", "force_async",
		"userspace_reap", "hipri_percentage",
	};
	size_t rows = 0;

	for (size_t i = 0; i < G_N_ELEMENTS(modelled); i++) {
		const struct fio_option_def *o = fio_option_find(modelled[i]);

		g_assert_nonnull(o);
		if (o->support != FOPT_MODELLED)
			g_error("%s is %s", modelled[i], fio_opt_support_name(o->support));
	}
	for (size_t i = 0; i < fio_option_count(); i++)
		rows += fio_option_defs[i].support == FOPT_MODELLED;
	/* every name above is its own row */
	g_assert_cmpuint(rows, ==, G_N_ELEMENTS(modelled));
}

static void test_closest_name(void)
{
	g_assert_cmpstr(fio_option_closest("blocksze"), ==, "blocksize");
	g_assert_cmpstr(fio_option_closest("iodpeth"), ==, "iodepth");
	g_assert_null(fio_option_closest("qqqqqqqqqqqqqqqqqqqqqq"));
}

static void test_help(void)
{
	g_autoptr(GString) out = g_string_new(NULL);
	unsigned lines = 0;

	g_assert_true(fio_options_print_help(out, "blocksize"));
	g_assert_nonnull(strstr(out->str, "                  bs: Block size"));
	g_assert_nonnull(strstr(out->str, "               alias: blocksize\n"));
	g_assert_nonnull(strstr(out->str, "             default: 4096\n"));
	g_assert_nonnull(strstr(out->str, "     storsim support: modelled\n"));
	g_string_truncate(out, 0);
	g_assert_true(fio_options_print_help(out, "fallocate"));
	g_assert_nonnull(strstr(out->str, "        valid values: none"));
	g_string_truncate(out, 0);
	g_assert_false(fio_options_print_help(out, "iodpeth"));
	g_assert_true(g_str_has_prefix(out->str, "No such option: iodpeth\nClosest match:\n"));
	g_assert_nonnull(strstr(out->str, "             iodepth: "));
	g_string_truncate(out, 0);
	g_assert_true(fio_options_print_help(out, NULL));
	for (const char *p = out->str; *p; p++)
		lines += *p == '\n';
	g_assert_cmpuint(lines, ==, fio_option_count());
}

/* docs/job-files.md carries the table exactly as the code prints it. */
static void test_docs_table_is_current(void)
{
	g_autofree char *path = g_test_build_filename(G_TEST_DIST, "docs", "job-files.md", NULL);
	g_autofree char *doc = NULL;
	g_autoptr(GString) table = g_string_new(NULL);

	fio_options_print_markdown(table);
	g_assert_true(g_file_get_contents(path, &doc, NULL, NULL));
	if (!strstr(doc, table->str))
		g_error("docs/job-files.md: the option table is out of date; regenerate it "
			"with tests/unit/test-options --markdown");
}

int main(int argc, char **argv)
{
	/* prints the table for docs/job-files.md */
	if (argc == 2 && strcmp(argv[1], "--markdown") == 0) {
		g_autoptr(GString) s = g_string_new(NULL);

		fio_options_print_markdown(s);
		fputs(s->str, stdout);
		return 0;
	}
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/options/kb-base-table", test_kb_base_table);
	g_test_add_func("/options/size-units", test_size_units);
	g_test_add_func("/options/size-rejects", test_size_rejects);
	g_test_add_func("/options/percentages", test_percentages);
	g_test_add_func("/options/time-units", test_time_units);
	g_test_add_func("/options/time-rejects", test_time_rejects);
	g_test_add_func("/options/per-direction", test_per_direction);
	g_test_add_func("/options/ranges", test_ranges);
	g_test_add_func("/options/bssplit", test_bssplit);
	g_test_add_func("/options/bssplit-and-bsrange-later-one-bounds", test_bssplit_bsrange_order);
	g_test_add_func("/options/bssplit-rejects", test_bssplit_rejects);
	g_test_add_func("/options/float-list", test_float_list);
	g_test_add_func("/options/default-percentiles", test_default_percentiles);
	g_test_add_func("/options/cpu-lists", test_cpu_lists);
	g_test_add_func("/options/choices", test_choices);
	g_test_add_func("/options/rw-modifiers", test_rw_modifiers);
	g_test_add_func("/options/random-distribution", test_random_distribution);
	g_test_add_func("/options/file-service-distribution",
			test_file_service_distribution);
	g_test_add_func("/options/booleans", test_booleans);
	g_test_add_func("/options/ignored-warns-only-off-default",
			test_ignored_warns_only_off_default);
	g_test_add_func("/options/refused-only-off-default", test_refused_only_off_default);
	g_test_add_func("/options/output-options-are-quiet", test_output_options_are_quiet);
	g_test_add_func("/options/ioengines", test_ioengines);
	g_test_add_func("/options/expressions", test_expressions);
	g_test_add_func("/options/expression-nesting-limit", test_expression_nesting_limit);
	g_test_add_func("/options/huge-value-message-is-shortened",
			test_huge_value_message_is_shortened);
	g_test_add_func("/options/fixups", test_fixups);
	g_test_add_func("/options/fixup-rejects", test_fixup_rejects);
	g_test_add_func("/options/table-consistency", test_table_consistency);
	g_test_add_func("/options/table-knows-common-options", test_table_knows_common_options);
	g_test_add_func("/options/modelled-set", test_modelled_set);
	g_test_add_func("/options/closest-name", test_closest_name);
	g_test_add_func("/options/help", test_help);
	g_test_add_func("/options/docs-table-is-current", test_docs_table_is_current);
	return g_test_run();
}
