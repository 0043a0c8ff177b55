/*
 * fio's job options: one table row per option fio 3.33 knows, the typed
 * struct the modelled ones are parsed into, and the value parser.
 *
 * Every fio 3.33 option (core options of options.c and the options of every
 * engine under engines/) is a row of fio_option_defs[], with its alias, fio's
 * type, fio's default, a help line, the engines it belongs to, and storsim's
 * support status:
 *
 *   MODELLED  storsim simulates its effect; the value lands in a typed field
 *             of struct job_options;
 *   OUTPUT    it only shapes output or logs;
 *   IGNORED   not modelled, and no value of it can change what storsim
 *             reports: a non-default value gives one warning line;
 *   REFUSED   not modelled, and a non-default value would change the
 *             results: the run stops (its default value is fine).
 *
 * Values follow fio's parser (parse.c, options.c at tag fio-3.33): sizes
 * with k/m/g/t/p (powers of kb_base) and kib/mib/... (the "opposite" base),
 * 0x hex, N% where fio takes a percentage, times with us/ms/s/m/h/d (a bare
 * number is seconds for "is_seconds" options, microseconds otherwise),
 * "(expr)" arithmetic, read,write,trim lists, lo-hi ranges, choices checked
 * against fio's list. Units: sizes in bytes, times in nanoseconds, rates in
 * bytes (or I/Os) per second. Where fio silently misreads a value (a
 * fraction, an unknown unit, "bs = 4k"), storsim stops with a message.
 */
#ifndef STORSIM_OPTIONS_H
#define STORSIM_OPTIONS_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Data directions; per-direction arrays are indexed by these. */
enum fio_ddir {
	FIO_DDIR_READ = 0,
	FIO_DDIR_WRITE = 1,
	FIO_DDIR_TRIM = 2,
	FIO_DDIR_COUNT = 3,
};

enum fio_rw {
	FIO_RW_READ,
	FIO_RW_WRITE,
	FIO_RW_TRIM,
	FIO_RW_RANDREAD,
	FIO_RW_RANDWRITE,
	FIO_RW_RANDTRIM,
	FIO_RW_RW,		/* also "readwrite": sequential mixed */
	FIO_RW_RANDRW,
	FIO_RW_TRIMWRITE,
	FIO_RW_RANDTRIMWRITE,
};

/* Whether rw issues I/O of direction d; whether its offsets are random. */
bool fio_rw_does(enum fio_rw rw, enum fio_ddir d);
bool fio_rw_random(enum fio_rw rw);
/* fio's name for rw, as its output prints it ("randrw"). */
const char *fio_rw_name(enum fio_rw rw);

enum fio_rw_sequencer { FIO_RWSEQ_SEQUENTIAL, FIO_RWSEQ_IDENTICAL };
/* exit_what: which jobs exitall ends */
enum fio_exit_what { FIO_EXIT_GROUP, FIO_EXIT_STONEWALL, FIO_EXIT_ALL };
/* file_service_type: fio's FIO_FSERVICE_* without its flag bits; the
 * non-uniform ones take the numbers of their random_distribution */
enum fio_file_service {
	FIO_FSERVICE_RANDOM = 0,
	FIO_FSERVICE_ZIPF = 1,
	FIO_FSERVICE_PARETO = 2,
	FIO_FSERVICE_NORMAL = 3,
	FIO_FSERVICE_RR = 4,
	FIO_FSERVICE_SEQ = 5,
};
/* zipf, pareto and normal: a file drawn for every I/O, never one done */
static inline bool fio_fservice_nonuniform(enum fio_file_service s)
{
	return s == FIO_FSERVICE_ZIPF || s == FIO_FSERVICE_PARETO ||
	       s == FIO_FSERVICE_NORMAL;
}
enum fio_sync_mode { FIO_SYNC_NONE, FIO_SYNC_SYNC, FIO_SYNC_DSYNC };
enum fio_fallocate {
	FIO_FALLOC_NONE,
	FIO_FALLOC_NATIVE,
	FIO_FALLOC_POSIX,
	FIO_FALLOC_KEEP,
	FIO_FALLOC_TRUNCATE,
};
/* verify: fio's VERIFY_* checksums, in its option's order */
enum fio_verify {
	FIO_VERIFY_NONE,
	FIO_VERIFY_MD5,
	FIO_VERIFY_CRC64,
	FIO_VERIFY_CRC32,
	FIO_VERIFY_CRC32C,
	FIO_VERIFY_CRC16,
	FIO_VERIFY_CRC7,
	FIO_VERIFY_SHA1,
	FIO_VERIFY_SHA256,
	FIO_VERIFY_SHA512,
	FIO_VERIFY_SHA3_224,
	FIO_VERIFY_SHA3_256,
	FIO_VERIFY_SHA3_384,
	FIO_VERIFY_SHA3_512,
	FIO_VERIFY_XXHASH,
	FIO_VERIFY_META,
	FIO_VERIFY_PATTERN,
	FIO_VERIFY_NULL,
	FIO_VERIFY_COUNT,
};
/* fadvise_hint: fio's F_ADV_* */
enum fio_fadvise {
	FIO_FADV_NONE,		/* "0": no posix_fadvise */
	FIO_FADV_TYPE,		/* "1": RANDOM or SEQUENTIAL by the job's rw */
	FIO_FADV_RANDOM,
	FIO_FADV_SEQUENTIAL,
};
enum fio_rand_dist {
	FIO_RAND_UNIFORM,	/* "random" */
	FIO_RAND_ZIPF,
	FIO_RAND_PARETO,
	FIO_RAND_NORMAL,
	FIO_RAND_ZONED,
	FIO_RAND_ZONED_ABS,
};
enum fio_rand_gen { FIO_RANDGEN_TAUSWORTHE, FIO_RANDGEN_LFSR,
		    FIO_RANDGEN_TAUSWORTHE64 };
enum fio_rate_process { FIO_RATE_LINEAR, FIO_RATE_POISSON };
/* What thinktime_blocks counts: I/Os completed or I/Os issued. */
enum fio_think_count { FIO_THINK_COMPLETE, FIO_THINK_ISSUE };
enum fio_cpus_policy { FIO_CPUS_SHARED, FIO_CPUS_SPLIT };
enum fio_unified_rw { FIO_UNIFIED_NONE, FIO_UNIFIED_MIXED, FIO_UNIFIED_BOTH };
/* The engines storsim models; every other fio engine name is refused. */
enum fio_ioengine {
	FIO_ENGINE_NULL,
	FIO_ENGINE_SYNC,
	FIO_ENGINE_PSYNC,
	FIO_ENGINE_VSYNC,
	FIO_ENGINE_PVSYNC,
	FIO_ENGINE_PVSYNC2,
	FIO_ENGINE_LIBAIO,
	FIO_ENGINE_IO_URING,
};
const char *fio_ioengine_name(enum fio_ioengine e);

#define FIO_BSSPLIT_MAX		64	/* fio's BSSPLIT_MAX */
#define FIO_ZONESPLIT_MAX	256	/* fio's ZONESPLIT_MAX */
#define FIO_PERCENTILE_MAX	20	/* fio's FIO_IO_U_LIST_MAX_LEN */
#define FIO_MAX_CPUS		1024
#define FIO_CPU_WORDS		(FIO_MAX_CPUS / 64)

struct fio_bssplit {
	uint64_t bs;		/* bytes */
	unsigned perc;		/* percent of I/Os of this direction */
};

/* One zone of random_distribution=zoned (size_perc) or zoned_abs (size). */
struct fio_zone_split {
	unsigned access_perc;
	unsigned size_perc;
	uint64_t size;		/* bytes */
};

/* Options of the modelled engines; other engines are refused. */
struct fio_engine_options {
	bool hipri;				/* io_uring, pvsync2 */
	unsigned hipri_percentage;		/* pvsync2 */
	bool fixedbufs;				/* io_uring */
	bool registerfiles;
	bool sqthread_poll;
	int sqthread_poll_cpu;			/* -1 = not pinned */
	int nonvectored;			/* -1 = engine default */
	unsigned force_async;			/* every Nth SQE, 0 = never */
	bool userspace_reap;			/* libaio */
};

/*
 * The strings of a job, kept together so that copying and freeing a job
 * walks one array. NULL means unset.
 */
#define JOB_OPTIONS_NSTRINGS 13

/*
 * The typed values of one job, defaults as fio 3.33 and after the rules of
 * fio's fixup_options() (e.g. iodepth_batch defaults to iodepth, bsrange to
 * bs, gtod_reduce clears the percentiles). Sizes are bytes, times
 * nanoseconds, per-direction arrays indexed by enum fio_ddir.
 */
struct job_options {
	union {
		struct {
			char *name;
			char *description;
			char *wait_for;
			char *filename;		/* ':'-separated, '\:' escapes */
			char *directory;
			char *filename_format;
			char *write_iolog;
			char *read_iolog;
			char *replay_redirect;
			char *replay_skip;	/* read,write,trim,sync */
			char *bw_log_file;	/* prefix; NULL = job name */
			char *lat_log_file;
			char *iops_log_file;
		};
		char *strv[JOB_OPTIONS_NSTRINGS];
	};

	enum fio_rw rw;
	int64_t rw_seq_add;	/* rw=write:N, bytes added after each I/O */
	unsigned rw_seq_nr;	/* rw=randread:N, I/Os per random offset */
	enum fio_rw_sequencer rw_sequencer;
	enum fio_file_service file_service;	/* file_service_type */
	unsigned file_service_nr;	/* I/Os to a file before the next */
	/* zipf, pareto and normal file service: theta, h or sigma, and the
	 * center (0..1, or -1 when not given) */
	double fsrv_param, fsrv_center;
	unsigned rwmix[2];	/* percent reads, writes */

	uint64_t bs[FIO_DDIR_COUNT];
	uint64_t min_bs[FIO_DDIR_COUNT];	/* bsrange (or bs) */
	uint64_t max_bs[FIO_DDIR_COUNT];
	uint64_t ba[FIO_DDIR_COUNT];		/* blockalign */
	struct fio_bssplit bssplit[FIO_DDIR_COUNT][FIO_BSSPLIT_MAX];
	unsigned bssplit_nr[FIO_DDIR_COUNT];

	uint64_t size;			/* 0 = the file or device size */
	unsigned size_percent;		/* size=N%, else 0 */
	uint64_t io_size;
	unsigned io_size_percent;
	uint64_t file_size_low, file_size_high;
	uint64_t offset;
	unsigned offset_percent;
	uint32_t offset_align;	/* of an N% offset; 0: the smallest block */
	uint64_t offset_increment;
	unsigned offset_increment_percent;
	unsigned nrfiles;
	uint32_t openfiles;	/* 0: all */

	unsigned iodepth;
	unsigned iodepth_batch;
	unsigned iodepth_batch_complete_min;
	unsigned iodepth_batch_complete_max;
	unsigned iodepth_low;

	bool direct;			/* buffered = !direct */
	enum fio_sync_mode sync;
	unsigned fsync_blocks;
	unsigned fdatasync_blocks;
	bool end_fsync;
	bool fsync_on_close;
	bool overwrite;
	bool pre_read;
	enum fio_fallocate fallocate;
	enum fio_fadvise fadvise_hint;
	enum fio_verify verify;
	bool do_verify;
	bool create_on_open;
	bool file_append;	/* the region starts at the file's end */
	bool invalidate;

	unsigned numjobs;		/* the runner clones the job */
	uint64_t runtime;		/* ns; 0 = until the I/O is done */
	bool time_based;
	uint64_t ramp_time;		/* ns */
	uint64_t start_delay, start_delay_high;	/* ns; a range draws */
	unsigned loops;
	uint64_t number_ios;		/* 0 = no limit */

	bool stonewall;
	bool new_group;
	bool group_reporting;
	/* zonemode=strided: zone_size bytes in each zone_range, then a skip
	 * of zone_skip (fio's setup_strided_zone_mode) */
	bool zone_strided;
	uint64_t zone_size, zone_range, zone_skip;
	bool exitall;
	enum fio_exit_what exit_what;
	bool exitall_on_error;

	bool norandommap;
	/* sizes by how the offset came (fio's is_random): sequential ones
	 * take the read bs values, random ones the write values */
	bool bs_is_seq_rand;
	bool bs_unaligned;	/* drawn sizes not cut to a multiple of min_bs */
	uint64_t randseed;
	bool randseed_set;
	bool randrepeat, allrandrepeat;	/* how fio seeds the offsets */
	enum fio_rand_dist random_distribution;
	double rand_param;		/* zipf theta, pareto h, normal sigma */
	double rand_center;		/* 0..1, or -1 when not given */
	struct fio_zone_split zones[FIO_DDIR_COUNT][FIO_ZONESPLIT_MAX];
	unsigned zones_nr[FIO_DDIR_COUNT];
	unsigned percentage_random[FIO_DDIR_COUNT];
	enum fio_rand_gen random_generator;
	bool random_generator_set;

	uint64_t rate[FIO_DDIR_COUNT];		/* bytes per second */
	unsigned rate_iops[FIO_DDIR_COUNT];
	uint64_t rate_min[FIO_DDIR_COUNT];	/* bytes per second */
	unsigned rate_iops_min[FIO_DDIR_COUNT];
	unsigned rate_cycle;			/* ms */
	enum fio_rate_process rate_process;
	uint64_t thinktime;			/* ns */
	uint64_t max_latency[FIO_DDIR_COUNT];	/* ns, 0 = none */
	uint64_t latency_target;		/* ns, 0 = none */
	uint64_t latency_window;		/* ns */
	double latency_percentile;		/* of I/Os under the target */
	bool latency_run;
	uint64_t thinktime_spin;		/* ns */
	unsigned thinktime_blocks;
	enum fio_think_count thinktime_blocks_type;

	enum fio_ioengine ioengine;
	uint64_t cpus_allowed[FIO_CPU_WORDS];	/* bit n = CPU n */
	bool cpus_allowed_set;
	enum fio_cpus_policy cpus_allowed_policy;

	unsigned kb_base;			/* 1024 or 1000 */
	unsigned unit_base;			/* 8 bytes, 1 bits */
	double percentile_list[FIO_PERCENTILE_MAX];
	unsigned percentile_nr;
	unsigned percentile_precision;		/* digits after the point */
	bool clat_percentiles;
	bool lat_percentiles;
	bool slat_percentiles;
	bool disable_lat;
	bool disable_clat;
	bool disable_slat;
	bool disable_bw;
	bool gtod_reduce;
	bool stats;

	bool replay_no_stall;
	unsigned replay_time_scale;		/* percent */
	unsigned replay_align;			/* bytes, power of 2 */
	unsigned replay_scale;
	bool write_bw_log;
	bool write_lat_log;
	bool write_iops_log;
	uint64_t log_avg_time;			/* ns; log_avg_msec */
	bool log_offset;
	bool log_max_value;
	bool log_prio;
	bool per_job_logs;
	uint64_t bw_avg_time;			/* ns; bwavgtime */
	uint64_t iops_avg_time;			/* ns; iopsavgtime */
	enum fio_unified_rw unified_rw_reporting;

	struct fio_engine_options eng;
};

/* Set every field to fio 3.33's default. */
void job_options_init(struct job_options *o);
/* Deep copy; dst must be cleared or never initialised. */
void job_options_copy(struct job_options *dst, const struct job_options *src);
/* Free the strings. */
void job_options_clear(struct job_options *o);
bool job_options_cpu_isset(const struct job_options *o, unsigned cpu);

/* fio's option types (parse.h), as shown by --cmdhelp and the docs. */
enum fio_opt_type {
	FOPT_STR,		/* one of a fixed set (or text for a callback) */
	FOPT_STR_ULL,
	FOPT_STR_MULTI,		/* several of a fixed set, ','-separated */
	FOPT_STR_VAL,		/* number with size units */
	FOPT_STR_VAL_TIME,	/* number with time units */
	FOPT_STR_VAL_ZONE,	/* size, N% or Nz (zones) */
	FOPT_STR_STORE,		/* free text */
	FOPT_RANGE,		/* lo-hi, per direction */
	FOPT_INT,
	FOPT_ULL,
	FOPT_BOOL,		/* 0 or 1, value required */
	FOPT_FLOAT_LIST,	/* ':'-separated */
	FOPT_STR_SET,		/* bare flag or 0/1 */
	FOPT_DEPRECATED,	/* fio 3.33 rejects it */
	FOPT_SOFT_DEPRECATED,	/* fio 3.33 accepts and ignores it */
};

enum fio_opt_support {
	FOPT_MODELLED,
	FOPT_OUTPUT,
	FOPT_IGNORED,
	FOPT_REFUSED,
};

struct fio_choice {
	const char *name;
	int value;
	const char *help;
};

/* Where a value lands in struct job_options. */
enum fio_opt_field {
	FIELD_NONE,		/* not stored (or stored by a callback) */
	FIELD_BOOL,
	FIELD_INT,		/* int, also enums */
	FIELD_U32,		/* unsigned */
	FIELD_U64,		/* uint64_t: bytes, counts */
	FIELD_NS,		/* uint64_t nanoseconds */
	FIELD_STR,		/* char *, owned */
};

/* Row flags. */
#define FOPT_F_SECONDS	(1u << 0)	/* a bare time is seconds */
#define FOPT_F_TIME	(1u << 1)	/* INT/ULL read as a time */
#define FOPT_F_PERCENT	(1u << 2)	/* accepts N% */
#define FOPT_F_PERDIR	(1u << 3)	/* read,write,trim values */
#define FOPT_F_BARE	(1u << 4)	/* in a job file the value is optional */
#define FOPT_F_POW2	(1u << 5)
#define FOPT_F_POSTFIX	(1u << 6)	/* choice may be followed by ":..." */
#define FOPT_F_NEG	(1u << 7)	/* stores the negation (buffered) */
#define FOPT_F_HI	(1u << 8)	/* takes lo-hi too; off_hi gets hi */
#define FOPT_F_MSEC	(1u << 9)	/* a count of milliseconds, stored in ns */

struct fopt_ctx;

struct fio_option_def {
	const char *name;
	const char *alias;		/* fio's other name, or NULL */
	enum fio_opt_type type;
	const char *def;		/* fio's default as text, or NULL */
	const char *help;
	enum fio_opt_support support;
	const char *engines;		/* ','-separated engine names; NULL = core */
	const struct fio_choice *choices;	/* NULL-terminated */
	int64_t min, max;		/* inclusive; both 0 = the type's range */
	double fmin, fmax;		/* FLOAT_LIST bounds; both 0 = any */
	unsigned maxlen;		/* FLOAT_LIST entries */
	unsigned flags;			/* FOPT_F_* */
	int prio;			/* in a job file, higher is applied first */
	const char *inverse;		/* option whose value this one also sets */
	enum fio_opt_field field;
	size_t off;			/* offsetof(struct job_options, ...) */
	size_t off_hi;			/* range tops, or a second field */
	/* Parses and stores a value the generic parser cannot. */
	bool (*parse)(struct fopt_ctx *ctx, const struct fio_option_def *o,
		      const char *value, GError **err);
};

extern const struct fio_option_def fio_option_defs[];
size_t fio_option_count(void);
size_t fio_option_index(const struct fio_option_def *o);

/* The row whose name or alias is name, or NULL. */
const struct fio_option_def *fio_option_find(const char *name);
/* The known name closest to name, if close enough to suggest, or NULL. */
const char *fio_option_closest(const char *name);
bool fio_option_in_engine(const struct fio_option_def *o, const char *engine);
const char *fio_opt_type_name(enum fio_opt_type t);
const char *fio_opt_support_name(enum fio_opt_support s);

/* Whether name is an engine fio 3.33 knows (modelled or not). */
bool fio_engine_known(const char *name);

/* Where the option being parsed comes from, and where its value goes. */
struct fopt_ctx {
	struct job_options *o;
	const char *file;	/* for messages: job file or "command line" */
	int line;
	const char *name;	/* the name as written (maybe an alias) */
	unsigned ncpus;		/* CPUs of the simulated host */
	GPtrArray *warnings;	/* of char *: IGNORED options and fix-ups */
};

/*
 * Parse value (NULL for a bare flag) for option o and store it. IGNORED
 * options set away from their default add a warning; REFUSED ones fail with
 * STORSIM_ERROR_UNSUPPORTED; bad values fail with STORSIM_ERROR_INPUT.
 */
bool fio_option_set(struct fopt_ctx *ctx, const struct fio_option_def *o,
		    const char *value, GError **err);

/* Put the engine options back to their defaults. */
void job_options_reset_engine(struct job_options *o);

/* Where each option of a job was set, indexed by fio_option_index(). */
struct opt_origin {
	const char *file;	/* NULL: default */
	int line;
};

/*
 * Apply fio's fixup_options() rules and reject what fio rejects once a job
 * is complete (size below the block size, rate with rate_iops, ...). Errors
 * and warnings name the line the offending option came from.
 */
bool job_options_finish(struct job_options *o, const struct opt_origin *origin,
			GPtrArray *warnings, GError **err);

/*
 * Evaluate fio's "(expr)" arithmetic: + - * / % ^, parentheses, unary minus,
 * numbers with a decimal point, and (with units) the suffixes of fio's
 * expression lexer (k m g t p with 1024, kib mib gib tib pib with 1000,
 * us ms s h d, and m as minutes when is_time). Integer arithmetic stays exact
 * until a float enters. Returns false with *msg (to free) on a syntax error,
 * division by zero or overflow.
 */
#define FIO_EXPR_UNITS	(1u << 0)
#define FIO_EXPR_TIME	(1u << 1)
#define FIO_EXPR_FLOAT	(1u << 2)	/* numbers may have a fraction */
bool fio_expr_eval(const char *text, unsigned flags, int64_t *ival,
		   double *dval, bool *units_seen, char **msg);

/*
 * fio --cmdhelp: with name NULL or "all", every option and its help; else
 * the option's details (type, default, range, choices, engines, storsim
 * support). Returns false, after suggesting the closest name, when there is
 * no such option.
 */
bool fio_options_print_help(GString *out, const char *name);
/* The option table as Markdown, for docs/job-files.md. */
void fio_options_print_markdown(GString *out);

#endif
