/*
 * storsim trace: look into a block trace ("info") and turn any supported
 * trace into a fio iolog v3 ("convert"), with fio's replay options applied
 * on the way, so that a trace can be replayed by real fio.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "trace/trace.h"
#include "engine/util.h"

/* Options both subcommands take: how to read the input. */
struct read_args {
	char *format, *time_unit, *v2_wait;
	gint lba_size;
};

static GOptionEntry *read_entries(struct read_args *a)
{
	const GOptionEntry entries[] = {
		{ "format", 'f', 0, G_OPTION_ARG_STRING, &a->format,
		  "Read as FMT: auto (default), iolog, blktrace, blkparse, msr, "
		  "spc, disksim", "FMT" },
		{ "time-unit", 0, 0, G_OPTION_ARG_STRING, &a->time_unit,
		  "Unit of the trace's timestamps: ps, ns, 100ns, us, ms, s "
		  "(default: the format's, see docs/traces.md)", "UNIT" },
		{ "lba-size", 0, 0, G_OPTION_ARG_INT, &a->lba_size,
		  "Bytes per block of spc and disksim addresses (default 512)",
		  "BYTES" },
		{ "v2-wait", 0, 0, G_OPTION_ARG_STRING, &a->v2_wait,
		  "Meaning of an iolog v2 wait: fio (default: until OFFSET ms "
		  "since the start, as fio 3.33 does) or howto (OFFSET us after "
		  "the previous wait)", "fio|howto" },
		{ NULL },
	};

	return g_memdup2(entries, sizeof(entries));
}

static bool read_opts_from(const struct read_args *a,
			   struct trace_read_opts *o, GError **err)
{
	trace_read_opts_init(o);
	if (a->format && !trace_format_parse(a->format, &o->format, err))
		return false;
	if (a->time_unit && !trace_time_unit_parse(a->time_unit, &o->time_unit, err))
		return false;
	/* any size: some arrays format 520-byte blocks */
	if (a->lba_size < 0) {
		storsim_input_error(err, NULL, 0, "lba-size", "%d is negative",
				    a->lba_size);
		return false;
	}
	o->lba_size = (uint32_t)a->lba_size;
	if (a->v2_wait) {
		if (!strcmp(a->v2_wait, "howto")) {
			o->v2_wait = TRACE_V2_WAIT_HOWTO;
		} else if (strcmp(a->v2_wait, "fio")) {
			storsim_input_error(err, NULL, 0, "v2-wait",
					    "'%s' is neither fio nor howto",
					    a->v2_wait);
			return false;
		}
	}
	return true;
}

static struct trace_reader *open_reader(const struct read_args *a,
					const char *path, GError **err)
{
	struct trace_read_opts o;

	return read_opts_from(a, &o, err) ? trace_open_with(path, &o, err) : NULL;
}

/* The exit status for a run that set err or not. */
static int report(const GError *err)
{
	if (!err)
		return 0;
	fprintf(stderr, "storsim trace: %s\n", err->message);
	return 1;
}

static void read_args_clear(struct read_args *a)
{
	g_free(a->format);
	g_free(a->time_unit);
	g_free(a->v2_wait);
}

/* Parse argv (argv[0] the subcommand's name) with the subcommand's own
 * entries, the reading options, and extra entries calling back with data.
 * False after printing the reason, *status then says what to return. */
static bool parse_args(const char *args, const char *summary,
		       const GOptionEntry *own, struct read_args *ra,
		       const GOptionEntry *extra, gpointer data,
		       int *argc, char ***argv, int nargs, int *status)
{
	g_autoptr(GOptionContext) ctx = g_option_context_new(args);
	GOptionGroup *main = g_option_group_new(NULL, NULL, NULL, data, NULL);
	g_autoptr(GError) err = NULL;
	g_autofree GOptionEntry *re = read_entries(ra);
	const char *self = g_get_prgname();

	g_option_context_set_summary(ctx, summary);
	if (own)
		g_option_group_add_entries(main, own);
	g_option_group_add_entries(main, re);
	if (extra)
		g_option_group_add_entries(main, extra);
	g_option_context_set_main_group(ctx, main);
	if (!cli_parse(ctx, argc, argv, &err)) {
		fprintf(stderr, "%s: %s\n", self, err->message);
		*status = 1;
		return false;
	}
	if (*argc - 1 != nargs) {
		fprintf(stderr, "%s: command line: expected %s\n"
			"Run '%s --help' for the options.\n", self, args, self);
		*status = 1;
		return false;
	}
	return true;
}

/* --- info --- */

#define SIZE_BUCKETS 64

struct info {
	uint64_t count[TRACE_OP_NR], bytes[TRACE_OP_NR];
	uint64_t sizes[SIZE_BUCKETS][3];	/* by floor(log2), read/write/trim */
	uint64_t records, first, last;
};

static void size_label(unsigned b, char *buf, size_t len)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB",
					     "PiB", "EiB" };

	g_snprintf(buf, len, "%" G_GUINT64_FORMAT " %s", (uint64_t)1 << (b % 10),
		   units[b / 10]);
}

static void print_info(const struct info *in, struct trace_reader *r,
		       const char *path)
{
	struct trace_read_stats st;
	unsigned nfiles = trace_nfiles(r);

	trace_read_stats(r, &st);
	printf("trace:    %s\n", path);
	if (trace_iolog_version(r))
		printf("format:   iolog v%d\n", trace_iolog_version(r));
	else
		printf("format:   %s\n", trace_format_name(trace_reader_format(r)));
	printf("records:  %" G_GUINT64_FORMAT " (from %" G_GUINT64_FORMAT " %s; "
	       "%" G_GUINT64_FORMAT " events not replayed)\n", in->records,
	       st.units, trace_reader_format(r) == TRACE_BLKTRACE ? "records" :
	       "lines", st.skipped);
	printf("files:    %u\n", nfiles);
	for (unsigned i = 0; i < nfiles && i < 20; i++)
		printf("  %4u  %s\n", i, trace_file_name(r, i));
	if (nfiles > 20)
		printf("  ... and %u more\n", nfiles - 20);
	printf("time:     %" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT
	       " s from the first record to the last; went backwards %"
	       G_GUINT64_FORMAT " times\n", (in->last - in->first) / 1000000000,
	       (in->last - in->first) % 1000000000, st.backsteps);
	printf("ops:      %-9s %12s %20s\n", "kind", "count", "bytes");
	for (int op = 0; op < TRACE_OP_NR; op++)
		if (in->count[op])
			printf("          %-9s %12" G_GUINT64_FORMAT " %20"
			       G_GUINT64_FORMAT "\n", trace_op_name(op),
			       in->count[op], in->bytes[op]);
	printf("sizes:    %-20s %12s %12s %12s\n", "length", "read", "write", "trim");
	for (unsigned b = 0; b < SIZE_BUCKETS; b++) {
		char lo[24], hi[24], label[52];

		if (!in->sizes[b][0] && !in->sizes[b][1] && !in->sizes[b][2])
			continue;
		size_label(b, lo, sizeof(lo));
		size_label(b + 1, hi, sizeof(hi));
		g_snprintf(label, sizeof(label), "[%s, %s)", lo, b == 63 ? "2^64 B" : hi);
		printf("          %-20s %12" G_GUINT64_FORMAT " %12" G_GUINT64_FORMAT
		       " %12" G_GUINT64_FORMAT "\n", label, in->sizes[b][0],
		       in->sizes[b][1], in->sizes[b][2]);
	}
}

/* Tally every record of r into *in; false with *err. */
static bool summarize(struct trace_reader *r, struct info *in, GError **err)
{
	struct trace_record rec;
	int got;

	while ((got = trace_next(r, &rec, err)) > 0) {
		if (!in->records++)
			in->first = rec.time_ns;
		in->last = rec.time_ns;
		in->count[rec.op]++;
		in->bytes[rec.op] += rec.length;
		if (rec.op <= TRACE_OP_TRIM && rec.length)
			in->sizes[63 - __builtin_clzll(rec.length)][rec.op]++;
	}
	return got == 0;
}

int cmd_trace_info(int argc, char **argv)
{
	struct read_args ra = { 0 };
	struct trace_reader *r = NULL;
	g_autoptr(GError) err = NULL;
	struct info in = { 0 };
	int status = 0;

	if (!parse_args("FILE", "Describe a block trace: its format, "
			"records, files, operations, bytes, time span and I/O sizes.",
			NULL, &ra, NULL, NULL, &argc, &argv, 1, &status))
		goto out;
	if ((r = open_reader(&ra, argv[1], &err)) && summarize(r, &in, &err))
		print_info(&in, r, argv[1]);
	status = report(err);
out:
	trace_close(r);
	read_args_clear(&ra);
	return status;
}

/* --- convert --- */

struct replay_args {
	struct trace_replay_opts o;
	char *redirect;		/* owns o.redirect: GOption frees value */
};

static gboolean replay_option(const char *name, const char *value, gpointer data,
			      GError **err)
{
	struct replay_args *a = data;

	/* name is "--replay_...", value NULL for a bare flag */
	if (!strcmp(name, "--replay_redirect") && value) {
		g_free(a->redirect);
		value = a->redirect = g_strdup(value);
	}
	return trace_replay_opt_set(&a->o, name + 2, value, err);
}

/* fio's replay options, by fio's names */
static const GOptionEntry replay_entries[] = {
	/* a flag; take_bool_options reads the "=0" and "=1" forms */
	{ "replay_no_stall", 0, G_OPTION_FLAG_NO_ARG,
	  G_OPTION_ARG_CALLBACK, replay_option,
	  "Drop the times: every record at 0 (also =0 or =1)", NULL },
	{ "replay_time_scale", 0, 0, G_OPTION_ARG_CALLBACK, replay_option,
	  "Replay at PCT percent of the recorded rate (200: twice as fast)",
	  "PCT" },
	{ "replay_redirect", 0, 0, G_OPTION_ARG_CALLBACK, replay_option,
	  "Send every I/O to this one file or device", "PATH" },
	{ "replay_align", 0, 0, G_OPTION_ARG_CALLBACK, replay_option,
	  "Align offsets down to this power of 2 (block traces: lengths up)",
	  "BYTES" },
	{ "replay_scale", 0, 0, G_OPTION_ARG_CALLBACK, replay_option,
	  "Divide offsets by N", "N" },
	{ "replay_skip", 0, 0, G_OPTION_ARG_CALLBACK, replay_option,
	  "Drop these kinds: read, write, trim, sync", "LIST" },
	{ NULL },
};

/*
 * GOption would take the word after an optional-argument flag for its
 * value ("--replay_no_stall IN OUT" eating IN), so the flag takes none and
 * fio's "--replay_no_stall=1" form is read here and removed from argv.
 */
static bool take_bool_options(struct replay_args *a, int *argc, char **argv,
			      GError **err)
{
	static const char flag[] = "--replay_no_stall=";
	int out = 1, i;

	for (i = 1; i < *argc && strcmp(argv[i], "--"); i++) {
		if (strncmp(argv[i], flag, strlen(flag)))
			argv[out++] = argv[i];
		else if (!trace_replay_opt_set(&a->o, "replay_no_stall",
					       argv[i] + strlen(flag), err))
			return false;
	}
	while (i < *argc)
		argv[out++] = argv[i++];
	argv[out] = NULL;
	*argc = out;
	return true;
}

/* Copy r to w through the replay options; false with *err. */
static bool convert(struct trace_reader *r, struct iolog_writer *w,
		    const struct trace_replay_opts *ro, GError **err)
{
	enum trace_format src = trace_reader_format(r);
	g_autoptr(GArray) declared = g_array_new(FALSE, TRUE, sizeof(bool));
	struct trace_record rec;
	int got;

	if (ro->redirect)
		iolog_writer_file(w, 0, ro->redirect);
	while ((got = trace_next(r, &rec, err)) > 0) {
		uint32_t file = rec.file;

		if (!trace_replay_apply(ro, src, &rec))
			continue;
		/* Files are declared when first seen; with a redirect, the
		 * one file was declared above. */
		if (!ro->redirect) {
			if (file >= declared->len)
				g_array_set_size(declared, file + 1);
			if (!g_array_index(declared, bool, file)) {
				g_array_index(declared, bool, file) = true;
				iolog_writer_file(w, file, trace_file_name(r, file));
				if (rec.op == TRACE_OP_ADD || rec.op == TRACE_OP_OPEN)
					continue;
			}
		} else if (rec.op <= TRACE_OP_CLOSE && rec.op >= TRACE_OP_ADD) {
			/* fio ignores re-adds and re-opens on a redirect; a
			 * close of one source file must not close the rest */
			continue;
		}
		iolog_writer_io(w, rec.time_ns, rec.file, rec.op, rec.offset,
				rec.length);
	}
	return got == 0;
}

int cmd_trace_convert(int argc, char **argv)
{
	struct read_args ra = { 0 };
	struct replay_args rp = { 0 };
	struct trace_reader *r = NULL;
	struct iolog_writer *w;
	g_autoptr(GError) err = NULL;
	g_autofree char *to = NULL;
	int status = 0;
	const GOptionEntry own[] = {
		{ "to", 't', 0, G_OPTION_ARG_STRING, &to,
		  "Output format: iolog (fio iolog v3, the default)", "FMT" },
		{ NULL },
	};

	trace_replay_opts_init(&rp.o);
	if (!take_bool_options(&rp, &argc, argv, &err)) {
		status = report(err);
		goto out;
	}
	if (!parse_args("IN OUT", "Convert a block trace to a fio "
			"iolog v3 that fio replays with --read_iolog=OUT.\n"
			"OUT appears whole or not at all.",
			own, &ra, replay_entries, &rp, &argc, &argv, 2, &status))
		goto out;
	if (to && strcmp(to, "iolog"))
		storsim_input_error(&err, NULL, 0, "to",
				    "unknown output format '%s' (iolog)", to);
	else if ((r = open_reader(&ra, argv[1], &err)) &&
		 (w = iolog_writer_new(argv[2], &err))) {
		if (convert(r, w, &rp.o, &err))
			iolog_writer_close(w, &err);
		else
			iolog_writer_abort(w);
	}
	status = report(err);
out:
	trace_close(r);
	read_args_clear(&ra);
	g_free(rp.redirect);
	return status;
}
