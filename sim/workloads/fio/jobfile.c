/*
 * fio job files and command-line jobs: sections, comments, includes,
 * expansion, global scoping, stonewalls and reporting groups.
 *
 * Stands for fio 3.33's init.c (__parse_jobs_ini, parse_cmd_line, add_job,
 * wait_for_ok) and options.c (fio_option_dup_subs, fio_keyword_replace,
 * fio_options_parse). Parameters come from struct jobfile_env: the
 * simulated host's CPU count, page size (bytes) and memory (MiB) for
 * $ncpus, $pagesize and $mb_memory. Where fio pipes "$ncpus*2" to bc, the
 * arithmetic evaluator of options.c does the sum.
 *
 * Order of work, as fio: a section's lines are gathered (includes spliced
 * in), then expanded, then applied, core options first by priority
 * (kb_base and unit_base before the rest, filename last), then the options
 * of the job's engine; on the command line options apply in the order
 * given.
 *
 * Sources: github.com/axboe/fio tag fio-3.33, init.c and options.c;
 * reference/fio-formats.md sections 1.1 and 1.2.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jobfile.h"
#include "engine/util.h"

#define SECTION_NAME_MAX	255		/* fio reads "[%255[^\n]]" */
#define JOB_FILE_MAX		(16u << 20)	/* bytes */
#define INCLUDE_DEPTH_MAX	64
/* fio reads a job file with fgets into OPT_LEN_MAX (8192) bytes: a longer
 * line comes out as two, the second a "Bad option"; a line whose ${VAR}s
 * expand past OPT_LEN_MAX fails fio_option_dup_subs ("failed parsing").
 * Both measured with fio 3.33: 8191 characters read whole, 8192 split. */
#define OPT_LEN_MAX		8192
#define LINE_MAX_LEN		(OPT_LEN_MAX - 1)
/* fio's FIO_MAX_JOBS (os/os.h): jobs in all, numjobs clones counted. */
#define JOBS_MAX		4096
/* fio has no limit on files; each costs storsim about 700 bytes and its
 * set-up time, and nrfiles=4000000000 never got to run. Counted over every
 * job and clone. */
#define FILES_MAX		1000000u

static const char cmdline_file[] = "command line";

/* A line of a section as read: comments cut, blanks trimmed. */
struct raw_line {
	char *text;
	const char *file;
	int line;
};

struct section {
	char *name;		/* NULL for the command line's global part */
	const char *file;
	int line;
	bool global;
	bool cmdline;		/* in order, without expansion */
	GArray *lines;		/* of struct raw_line */
};

/* A line split into option and value, ready to apply. */
struct opt_line {
	const struct fio_option_def *def;
	char *name;		/* as written */
	char *value;		/* NULL: bare */
	const char *file;
	int line;
};

/* What a section's options are applied to. */
struct target {
	struct job_options *o;
	struct opt_origin *origin;
	GArray *pairs;		/* of struct job_opt */
};

struct parser {
	const struct jobfile_env *env;
	struct job_list *list;
	struct job_options global;
	struct opt_origin *global_origin;
	unsigned groupid;
	unsigned group_jobs;	/* jobs in the current group so far */
	uint64_t njobs;		/* so far, clones counted */
	uint64_t nfiles;	/* so far, over every clone */
	bool stonewall_next;	/* first job of a later file */
	GPtrArray *include_stack;	/* of char *: files being read */
};

static void raw_line_clear(void *p)
{
	g_free(((struct raw_line *)p)->text);
}

static void job_opt_clear(void *p)
{
	g_free(((struct job_opt *)p)->value);
}

static void opt_line_clear(struct opt_line *l)
{
	g_free(l->name);
	g_free(l->value);
}

static struct section *section_new(const char *name, const char *file, int line,
				   bool cmdline)
{
	struct section *s = g_new0(struct section, 1);

	s->name = g_strdup(name);
	s->file = file;
	s->line = line;
	/* fio: !strncmp(name, "global", 6) */
	s->global = !name || strncmp(name, "global", 6) == 0;
	s->cmdline = cmdline;
	s->lines = g_array_new(FALSE, TRUE, sizeof(struct raw_line));
	g_array_set_clear_func(s->lines, raw_line_clear);
	return s;
}

static void section_free(struct section *s)
{
	if (!s)
		return;
	g_free(s->name);
	g_array_free(s->lines, TRUE);
	g_free(s);
}

static void section_add(struct section *s, const char *text, const char *file,
			int line)
{
	struct raw_line r = { g_strdup(text), file, line };

	g_array_append_val(s->lines, r);
}

static const char *intern(struct parser *p, const char *name)
{
	for (guint i = 0; i < p->list->names->len; i++)
		if (strcmp(g_ptr_array_index(p->list->names, i), name) == 0)
			return g_ptr_array_index(p->list->names, i);
	g_ptr_array_add(p->list->names, g_strdup(name));
	return g_ptr_array_index(p->list->names, p->list->names->len - 1);
}

/* ------------------------------------------------------------------ */
/* Reading                                                             */

static bool read_stream(FILE *f, const char *name, char **text, size_t *len,
			GError **err)
{
	GString *s = g_string_new(NULL);
	char buf[4096];
	size_t n;

	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		g_string_append_len(s, buf, (gssize)n);
		if (s->len > JOB_FILE_MAX) {
			g_string_free(s, TRUE);
			storsim_input_error(err, name, 0, NULL, "larger than %u bytes",
					    JOB_FILE_MAX);
			return false;
		}
	}
	*len = s->len;
	*text = g_string_free(s, FALSE);
	return true;
}

/* A job file: a regular file of reasonable size, or "-" for stdin. */
static bool read_job_file(const char *path, char **text, size_t *len,
			  GError **err)
{
	g_autoptr(GError) gerr = NULL;
	struct stat st;

	if (strcmp(path, "-") == 0)
		return read_stream(stdin, "standard input", text, len, err);
	if (stat(path, &st) != 0) {
		storsim_input_error(err, path, 0, NULL, "cannot read the job file: %s",
				    g_strerror(errno));
		return false;
	}
	if (!S_ISREG(st.st_mode)) {
		storsim_input_error(err, path, 0, NULL, "not a regular file");
		return false;
	}
	if ((uint64_t)st.st_size > JOB_FILE_MAX) {
		storsim_input_error(err, path, 0, NULL, "larger than %u bytes",
				    JOB_FILE_MAX);
		return false;
	}
	if (!g_file_get_contents(path, text, len, &gerr)) {
		storsim_input_error(err, path, 0, NULL, "cannot read the job file: %s",
				    gerr->message);
		return false;
	}
	return true;
}

/*
 * fio's strip_blank_front() and strip_blank_end(): drop leading blanks, cut
 * at the first ';' and then at the first '#', drop trailing blanks and
 * control characters. Works in place.
 */
static char *clean_line(char *s)
{
	char *end;

	while (g_ascii_isspace(*s))
		s++;
	s[strcspn(s, ";")] = '\0';
	s[strcspn(s, "#")] = '\0';
	end = s + strlen(s);
	while (end > s && (g_ascii_isspace(end[-1]) || g_ascii_iscntrl(end[-1])))
		end--;
	*end = '\0';
	return s;
}

/* "include FILE": the name after "include" and blanks, or NULL. */
static const char *include_name(const char *s)
{
	if (!g_str_has_prefix(s, "include") || !g_ascii_isspace(s[7]))
		return NULL;
	s += 7;
	while (g_ascii_isspace(*s))
		s++;
	return s;
}

/* The key of "key=value", for messages about a line. */
static char *line_key(const char *s)
{
	return g_strndup(s, strcspn(s, "="));
}

typedef bool (*line_fn)(struct parser *p, void *data, char *s, const char *file,
			int line, GError **err);

/* Call fn for each non-empty line of text, cleaned. */
static bool for_each_line(struct parser *p, const char *file, char *text,
			  size_t len, line_fn fn, void *data, GError **err)
{
	char *pos = text, *end = text + len;
	int line = 0;

	while (pos < end) {
		char *nl = memchr(pos, '\n', (size_t)(end - pos));
		char *stop = nl ? nl : end;

		line++;
		if (stop - pos > LINE_MAX_LEN) {
			storsim_input_error(err, file, line, NULL,
					    "line of %td bytes: longer than fio's "
					    "line buffer takes (%d bytes, OPT_LEN_MAX "
					    "with its end); fio would read it as two lines",
					    stop - pos, LINE_MAX_LEN);
			return false;
		}
		if (memchr(pos, '\0', (size_t)(stop - pos))) {
			storsim_input_error(err, file, line, NULL,
					    "contains a NUL byte; not a job file");
			return false;
		}
		*stop = '\0';
		char *s = clean_line(pos);

		if (*s && !fn(p, data, s, file, line, err))
			return false;
		pos = stop + 1;
	}
	return true;
}

static bool read_lines(struct parser *p, struct section *sec, const char *file,
		       int line, const char *name, unsigned depth, GError **err);

struct include_data {
	struct section *sec;
	unsigned depth;
};

static bool included_line(struct parser *p, void *data, char *s, const char *file,
			  int line, GError **err)
{
	struct include_data *d = data;
	const char *inc = include_name(s);

	if (*s == '[') {
		storsim_input_error(err, file, line, NULL,
				    "no new sections in included files");
		return false;
	}
	if (inc)
		return read_lines(p, d->sec, file, line, inc, d->depth + 1, err);
	section_add(d->sec, s, file, line);
	return true;
}

static bool on_include_stack(struct parser *p, const char *real)
{
	for (guint i = 0; i < p->include_stack->len; i++)
		if (strcmp(g_ptr_array_index(p->include_stack, i), real) == 0)
			return true;
	return false;
}

/*
 * Splice the lines of an included file into sec. As fio, a relative name is
 * tried as given, then next to the including file.
 */
static bool read_lines(struct parser *p, struct section *sec, const char *file,
		       int line, const char *name, unsigned depth, GError **err)
{
	g_autofree char *path = NULL, *real = NULL, *text = NULL;
	struct include_data d = { sec, depth };
	size_t len;
	bool ok;

	if (p->env->no_include) {
		storsim_input_error(err, file, line, NULL, "include is disabled here");
		return false;
	}
	if (!*name) {
		storsim_input_error(err, file, line, NULL, "include needs a file name");
		return false;
	}
	if (g_path_is_absolute(name) || access(name, F_OK) == 0) {
		path = g_strdup(name);
	} else {
		g_autofree char *dir = g_path_get_dirname(file);

		path = g_build_filename(dir, name, NULL);
	}
	real = realpath(path, NULL);
	if (!real) {
		storsim_input_error(err, file, line, NULL, "cannot include '%s': %s",
				    name, g_strerror(errno));
		return false;
	}
	if (on_include_stack(p, real)) {
		storsim_input_error(err, file, line, NULL,
				    "include loop: '%s' is already being read", name);
		return false;
	}
	if (depth > INCLUDE_DEPTH_MAX) {
		storsim_input_error(err, file, line, NULL,
				    "includes nested more than %d deep", INCLUDE_DEPTH_MAX);
		return false;
	}
	if (!read_job_file(path, &text, &len, err))
		return false;
	g_ptr_array_add(p->include_stack, g_steal_pointer(&real));
	ok = for_each_line(p, intern(p, path), text, len, included_line, &d, err);
	g_ptr_array_remove_index(p->include_stack, p->include_stack->len - 1);
	return ok;
}

/* ------------------------------------------------------------------ */
/* Expansion                                                           */

static const char *env_lookup(const struct parser *p, const char *name)
{
	const char *v;

	if (!p->env->environ) {
		v = g_getenv(name);
		return v ? v : "";
	}
	for (const char *const *e = p->env->environ; *e; e++) {
		size_t n = strlen(name);

		if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
			return *e + n + 1;
	}
	return "";
}

/* fio_option_dup_subs(): ${VAR} only; undefined is empty. A line that
 * grows past OPT_LEN_MAX is refused as soon as it does, before a line of
 * many ${BIG} takes gigabytes. */
static GString *expand_env(const struct parser *p, const struct raw_line *r,
			   GError **err)
{
	GString *out = g_string_new(NULL);

	for (const char *q = r->text; *q;) {
		const char *close = q[0] == '$' && q[1] == '{' ? strchr(q, '}') : NULL;

		if (close && close > q + 2) {
			g_autofree char *name = g_strndup(q + 2, (gsize)(close - q - 2));

			g_string_append(out, env_lookup(p, name));
			q = close + 1;
		} else {
			g_string_append_c(out, *q++);
		}
		if (out->len > OPT_LEN_MAX) {
			g_autofree char *key = line_key(r->text);

			storsim_input_error(err, r->file, r->line, g_strstrip(key),
					    "its ${VAR}s expand to more than %d bytes "
					    "(fio's OPT_LEN_MAX)", OPT_LEN_MAX);
			g_string_free(out, TRUE);
			return NULL;
		}
	}
	return out;
}

/*
 * fio_keyword_replace(): $pagesize, $mb_memory and $ncpus are replaced
 * wherever they appear; if one was and the line has + - * or /, the value is
 * worked out as bc would (whole numbers).
 */
static bool expand_keywords(const struct parser *p, GString *s, const char *file,
			    int line, GError **err)
{
	const struct {
		const char *word;
		uint64_t value;
	} kw[] = {
		{ "$pagesize", p->env->pagesize },
		{ "$mb_memory", p->env->mb_memory },
		{ "$ncpus", p->env->ncpus },
	};
	bool replaced = false;
	char *eq;

	for (size_t i = 0; i < G_N_ELEMENTS(kw); i++) {
		g_autofree char *num = g_strdup_printf("%" PRIu64, kw[i].value);

		replaced |= g_string_replace(s, kw[i].word, num, 0) > 0;
	}
	eq = strchr(s->str, '=');
	if (replaced && eq && strpbrk(s->str, "+-*/")) {
		g_autofree char *key = g_strndup(s->str, (gsize)(eq - s->str));
		g_autofree char *msg = NULL;
		int64_t iv;
		double dv;

		if (!fio_expr_eval(eq + 1, 0, &iv, &dv, NULL, &msg)) {
			storsim_input_error(err, file, line, g_strstrip(key),
					    "cannot work out '%s': %s", eq + 1, msg);
			return false;
		}
		g_string_truncate(s, (gsize)(eq - s->str) + 1);
		g_string_append_printf(s, "%" PRId64, iv);
	}
	return true;
}

/* ------------------------------------------------------------------ */
/* Applying options                                                    */

static bool unknown_option(const char *name, const char *file, int line,
			   GError **err)
{
	const char *closest = fio_option_closest(name);

	if (closest)
		storsim_input_error(err, file, line, name,
				    "unknown option; did you mean '%s'?", closest);
	else
		storsim_input_error(err, file, line, name, "unknown option");
	return false;
}

/* Expand (job files only) and split a line into option and value. */
static bool prepare_line(const struct parser *p, const struct section *sec,
			 const struct raw_line *r, struct opt_line *out,
			 GError **err)
{
	g_autoptr(GString) s = NULL;
	char *eq;

	memset(out, 0, sizeof(*out));
	out->file = r->file;
	out->line = r->line;
	if (sec->cmdline) {
		s = g_string_new(r->text);
	} else {
		s = expand_env(p, r, err);
		if (!s || !expand_keywords(p, s, r->file, r->line, err))
			return false;
	}
	eq = strchr(s->str, '=');
	out->name = g_strndup(s->str, eq ? (gsize)(eq - s->str) : s->len);
	g_strchomp(out->name);
	if (eq)
		out->value = g_strdup(eq + 1);
	if (!*out->name) {
		storsim_input_error(err, r->file, r->line, NULL,
				    "'%s': no option name before '='", s->str);
		return false;
	}
	if (out->value && g_ascii_isspace(*out->value)) {
		storsim_input_error(err, r->file, r->line, out->name,
				    "blank after '=' (fio would read '%s' with it); remove it",
				    out->value);
		return false;
	}
	out->def = fio_option_find(out->name);
	if (!out->def)
		return unknown_option(out->name, r->file, r->line, err);
	return true;
}

static void set_origin(struct target *t, const struct fio_option_def *def,
		       const char *file, int line)
{
	struct opt_origin at = { file, line };

	t->origin[fio_option_index(def)] = at;
	if (def->inverse)
		t->origin[fio_option_index(fio_option_find(def->inverse))] = at;
}

static bool apply_line(struct parser *p, struct target *t, const struct opt_line *l,
		       const struct fio_option_def *def, GError **err)
{
	struct fopt_ctx ctx = {
		.o = t->o, .file = l->file, .line = l->line, .name = l->name,
		.ncpus = p->env->ncpus, .warnings = p->list->warnings,
	};
	struct job_opt pair = { def->name, g_strdup(l->value ? l->value : ""),
				l->file, l->line };

	if (!fio_option_set(&ctx, def, l->value, err)) {
		g_free(pair.value);
		return false;
	}
	set_origin(t, def, l->file, l->line);
	g_array_append_val(t->pairs, pair);
	return true;
}

/* The row of an engine option for this engine (net and rdma share "proto"). */
static const struct fio_option_def *engine_row(const char *name, const char *engine)
{
	for (size_t i = 0; i < fio_option_count(); i++) {
		const struct fio_option_def *o = &fio_option_defs[i];

		if ((strcmp(o->name, name) == 0 || g_strcmp0(o->alias, name) == 0) &&
		    fio_option_in_engine(o, engine))
			return o;
	}
	return NULL;
}

/*
 * Apply a section: core options (in priority order for a job file), then,
 * once the engine is known, the engine's options. parent is the engine the
 * target had before. fio keeps its engine options only for an engine with
 * the same option table (init.c:ioengine_load); no two modelled engines
 * share one (io_uring_cmd, which shares io_uring's, is not modelled), so
 * they stay only with the same engine.
 */
static bool apply_section(struct parser *p, const struct section *sec,
			  struct target *t, GError **err)
{
	static const int prios[] = { 1, 0, -1 };
	enum fio_ioengine parent = t->o->ioengine;
	guint n = sec->lines->len;
	struct opt_line *lines = g_new0(struct opt_line, n ? n : 1);
	bool ok = true;
	const char *engine;

	for (guint i = 0; ok && i < n; i++)
		ok = prepare_line(p, sec, &g_array_index(sec->lines, struct raw_line, i),
				  &lines[i], err);
	for (size_t k = 0; ok && k < G_N_ELEMENTS(prios); k++) {
		for (guint i = 0; ok && i < n; i++) {
			const struct fio_option_def *d = lines[i].def;

			if (!d->engines && (sec->cmdline ? k == 1 : d->prio == prios[k]))
				ok = apply_line(p, t, &lines[i], d, err);
		}
	}
	if (ok && parent != t->o->ioengine) {
		job_options_reset_engine(t->o);
		for (size_t i = 0; i < fio_option_count(); i++)
			if (fio_option_defs[i].engines)
				t->origin[i].file = NULL;
	}
	engine = fio_ioengine_name(t->o->ioengine);
	for (guint i = 0; ok && i < n; i++) {
		const struct fio_option_def *d = lines[i].def;

		if (!d || !d->engines)
			continue;
		d = engine_row(lines[i].name, engine);
		if (!d) {
			storsim_input_error(err, lines[i].file, lines[i].line, lines[i].name,
					    "not an option of ioengine '%s' (it belongs to %s)",
					    engine, lines[i].def->engines);
			ok = false;
			break;
		}
		ok = apply_line(p, t, &lines[i], d, err);
	}
	for (guint i = 0; i < n; i++)
		opt_line_clear(&lines[i]);
	g_free(lines);
	return ok;
}

static bool apply_global(struct parser *p, const struct section *sec, GError **err)
{
	struct target t = { &p->global, p->global_origin, p->list->global_opts };

	return apply_section(p, sec, &t, err);
}

static void job_free(void *ptr)
{
	struct job *j = ptr;

	job_options_clear(&j->o);
	g_free(j->section);
	if (j->opts)
		g_array_free(j->opts, TRUE);
	g_free(j->origin);
	g_free(j);
}

static const struct opt_origin *job_origin(const struct job *j, const char *name)
{
	return &j->origin[fio_option_index(fio_option_find(name))];
}

/* fio's wait_for_ok(): exactly one earlier job of that name, not itself. */
static bool check_wait_for(const struct parser *p, const struct job *j, GError **err)
{
	const struct opt_origin *at = job_origin(j, "wait_for");
	unsigned found = 0;

	if (!j->o.wait_for)
		return true;
	if (strcmp(j->o.wait_for, j->o.name) == 0) {
		storsim_input_error(err, at->file, at->line, "wait_for",
				    "a job cannot wait for itself ('%s')", j->o.wait_for);
		return false;
	}
	for (guint i = 0; i < p->list->jobs->len; i++)
		found += strcmp(job_list_get(p->list, i)->o.name, j->o.wait_for) == 0;
	if (!found)
		storsim_input_error(err, at->file, at->line, "wait_for",
				    "no earlier job is named '%s'", j->o.wait_for);
	else if (found > 1)
		storsim_input_error(err, at->file, at->line, "wait_for",
				    "%u earlier jobs are named '%s'; the name must be unique",
				    found, j->o.wait_for);
	return found == 1;
}

/*
 * fio's add_job(): stonewall or new_group after jobs in the current group
 * opens the next group; with group_reporting, the jobs of a group must
 * agree on lat_percentiles.
 */
static bool assign_group(struct parser *p, struct job *j, GError **err)
{
	if ((j->o.stonewall || j->o.new_group) && p->group_jobs) {
		p->groupid++;
		p->group_jobs = 0;
	}
	j->groupid = p->groupid;
	p->group_jobs++;
	if (!j->o.group_reporting || p->group_jobs < 2)
		return true;
	for (guint i = 0; i < p->list->jobs->len; i++) {
		const struct job *prev = job_list_get(p->list, i);

		if (prev->groupid == j->groupid && j->o.stats &&
		    prev->o.lat_percentiles != j->o.lat_percentiles) {
			const struct opt_origin *at = job_origin(j, "lat_percentiles");

			storsim_input_error(err, at->file ? at->file : j->file,
					    at->file ? at->line : j->line, "lat_percentiles",
					    "differs from job '%s' of the same reporting group",
					    prev->o.name);
			return false;
		}
	}
	return true;
}

/* The files a job names: its filename= entries, else nrfiles. */
static uint64_t job_files(const struct job_options *o)
{
	uint64_t n = 0;

	if (!o->filename)
		return MAX(o->nrfiles, 1u);
	/* ':'-separated, empty entries skipped, '\:' inside a name */
	bool inside = false;
	for (const char *q = o->filename; *q; q++) {
		if (*q == ':') {
			inside = false;
			continue;
		}
		n += !inside;
		inside = true;
		if (*q == '\\' && q[1] == ':')
			q++;
	}
	return n;
}

/* fio's FIO_MAX_JOBS, and storsim's limit on files, over the whole run. */
static bool check_counts(struct parser *p, const struct job *j, GError **err)
{
	uint64_t clones = MAX(j->o.numjobs, 1u);
	const struct opt_origin *at;

	p->njobs += clones;
	p->nfiles += clones * job_files(&j->o);
	if (p->njobs > JOBS_MAX) {
		at = job_origin(j, "numjobs");
		storsim_input_error(err, at->file ? at->file : j->file,
				    at->file ? at->line : j->line, "numjobs",
				    "%" PRIu64 " jobs in all, numjobs clones counted: more "
				    "than fio's maximum of %d (FIO_MAX_JOBS)", p->njobs,
				    JOBS_MAX);
		return false;
	}
	if (p->nfiles > FILES_MAX) {
		const char *opt = j->o.filename ? "filename" : "nrfiles";

		at = job_origin(j, opt);
		storsim_input_error(err, at->file ? at->file : j->file,
				    at->file ? at->line : j->line, opt,
				    "%" PRIu64 " files in all, over every job and clone: "
				    "more than storsim's limit of %u", p->nfiles, FILES_MAX);
		return false;
	}
	return true;
}

static bool add_job(struct parser *p, const struct section *sec, GError **err)
{
	size_t n = fio_option_count();
	struct job *j = g_new0(struct job, 1);
	struct target t;

	job_options_copy(&j->o, &p->global);
	j->origin = g_memdup2(p->global_origin, n * sizeof(*j->origin));
	j->opts = g_array_new(FALSE, TRUE, sizeof(struct job_opt));
	g_array_set_clear_func(j->opts, job_opt_clear);
	j->section = g_strdup(sec->name);
	j->file = sec->file;
	j->line = sec->line;
	g_free(j->o.name);
	j->o.name = g_strdup(sec->name);
	if (p->stonewall_next) {
		j->o.stonewall = true;
		p->stonewall_next = false;
	}
	t = (struct target){ &j->o, j->origin, j->opts };
	if (!apply_section(p, sec, &t, err) ||
	    !job_options_finish(&j->o, j->origin, p->list->warnings, err) ||
	    !check_counts(p, j, err) || !check_wait_for(p, j, err) ||
	    !assign_group(p, j, err)) {
		job_free(j);
		return false;
	}
	g_ptr_array_add(p->list->jobs, j);
	return true;
}

static bool end_section(struct parser *p, struct section *sec, GError **err)
{
	bool ok = sec->global ? apply_global(p, sec, err) : add_job(p, sec, err);

	section_free(sec);
	return ok;
}

/* ------------------------------------------------------------------ */
/* Job files                                                           */

struct file_data {
	struct section *cur;
};

static bool section_header(struct parser *p, struct file_data *d, const char *s,
			   const char *file, int line, GError **err)
{
	size_t len = strlen(s);
	g_autofree char *name = NULL;

	if (len < 2 || s[len - 1] != ']') {
		storsim_input_error(err, file, line, NULL,
				    "'%s': a section header is [name]", s);
		return false;
	}
	if (len == 2) {
		storsim_input_error(err, file, line, NULL, "empty section name");
		return false;
	}
	if (len - 2 > SECTION_NAME_MAX) {
		storsim_input_error(err, file, line, NULL,
				    "section name longer than %d characters", SECTION_NAME_MAX);
		return false;
	}
	if (d->cur) {
		struct section *done = d->cur;

		d->cur = NULL;
		if (!end_section(p, done, err))
			return false;
	}
	name = g_strndup(s + 1, len - 2);
	d->cur = section_new(name, file, line, false);
	return true;
}

static bool file_line(struct parser *p, void *data, char *s, const char *file,
		      int line, GError **err)
{
	struct file_data *d = data;
	const char *inc = include_name(s);

	if (*s == '[')
		return section_header(p, d, s, file, line, err);
	if (!d->cur && inc) {
		storsim_input_error(err, file, line, NULL, "include outside of any [section]");
		return false;
	}
	if (!d->cur) {
		g_autofree char *key = line_key(s);

		storsim_input_error(err, file, line, key, "outside of any [section]");
		return false;
	}
	if (inc)
		return read_lines(p, d->cur, file, line, inc, 1, err);
	section_add(d->cur, s, file, line);
	return true;
}

static void reset_globals(struct parser *p)
{
	job_options_clear(&p->global);
	job_options_init(&p->global);
	memset(p->global_origin, 0, fio_option_count() * sizeof(*p->global_origin));
}

/*
 * One job file. As fio, a later file starts from default globals and its
 * first job waits for all jobs before it.
 */
static bool parse_text(struct parser *p, const char *name, char *text, size_t len,
		       int index, GError **err)
{
	const char *file = intern(p, name);
	struct file_data d = { NULL };
	char *real = realpath(name, NULL);
	bool ok;

	if (index > 0) {
		reset_globals(p);
		p->stonewall_next = true;
	}
	g_ptr_array_add(p->include_stack, real ? real : g_strdup(name));
	ok = for_each_line(p, file, text, len, file_line, &d, err);
	g_ptr_array_remove_index(p->include_stack, p->include_stack->len - 1);
	if (d.cur) {
		if (ok)
			ok = end_section(p, d.cur, err);
		else
			section_free(d.cur);
	}
	return ok;
}

/* ------------------------------------------------------------------ */
/* The command line                                                    */

/*
 * "--opt=value", "-opt=value", "--opt value" (options that need a value
 * take the next argument, as getopt does) and "--flag". --name starts a
 * job, or addresses the global options when its value starts with
 * "global".
 */
static bool parse_cmdline(struct parser *p, char **args, int n, GError **err)
{
	struct section *cur = section_new(NULL, cmdline_file, 0, true);

	for (int i = 0; i < n; i++) {
		const char *a = args[i], *eq;
		g_autofree char *key = NULL;
		g_autofree char *text = NULL;
		int pos = i + 1;

		if (a[0] != '-' || !a[1] || (a[1] == '-' && !a[2])) {
			storsim_input_error(err, cmdline_file, pos, NULL,
					    "'%s' is not an option (--name=value)", a);
			section_free(cur);
			return false;
		}
		a += a[1] == '-' ? 2 : 1;
		eq = strchr(a, '=');
		key = g_strndup(a, eq ? (gsize)(eq - a) : strlen(a));
		if (eq) {
			text = g_strdup(a);
		} else {
			const struct fio_option_def *d = fio_option_find(key);

			if (d && d->type != FOPT_STR_SET && d->type != FOPT_SOFT_DEPRECATED &&
			    i + 1 < n)
				text = g_strdup_printf("%s=%s", key, args[++i]);
			else
				text = g_strdup(key);
		}
		if (strcmp(key, "name") == 0) {
			const char *val = strchr(text, '=');

			if (!val || !val[1]) {
				storsim_input_error(err, cmdline_file, pos, "name", "needs a value");
				section_free(cur);
				return false;
			}
			if (!end_section(p, cur, err))
				return false;
			cur = section_new(strncmp(val + 1, "global", 6) == 0 ? NULL : val + 1,
					  cmdline_file, pos, true);
		}
		section_add(cur, text, cmdline_file, pos);
	}
	return end_section(p, cur, err);
}

/* ------------------------------------------------------------------ */

static struct job_list *job_list_new(void)
{
	struct job_list *l = g_new0(struct job_list, 1);

	l->jobs = g_ptr_array_new_with_free_func(job_free);
	l->global_opts = g_array_new(FALSE, TRUE, sizeof(struct job_opt));
	g_array_set_clear_func(l->global_opts, job_opt_clear);
	l->warnings = g_ptr_array_new_with_free_func(g_free);
	l->names = g_ptr_array_new_with_free_func(g_free);
	return l;
}

void job_list_free(struct job_list *l)
{
	if (!l)
		return;
	g_ptr_array_free(l->jobs, TRUE);
	g_array_free(l->global_opts, TRUE);
	g_ptr_array_free(l->warnings, TRUE);
	g_ptr_array_free(l->names, TRUE);
	g_free(l);
}

static void parser_init(struct parser *p, const struct jobfile_env *env)
{
	memset(p, 0, sizeof(*p));
	p->env = env;
	p->list = job_list_new();
	job_options_init(&p->global);
	p->global_origin = g_new0(struct opt_origin, fio_option_count());
	p->include_stack = g_ptr_array_new_with_free_func(g_free);
}

/* Hand over the list, or free it on error. */
static struct job_list *parser_finish(struct parser *p, bool ok, GError **err)
{
	struct job_list *l = p->list;

	if (ok && !l->jobs->len) {
		storsim_input_error(err, NULL, 0, NULL,
				    "no job defined (give a job file or --name=...)");
		ok = false;
	}
	job_options_clear(&p->global);
	g_free(p->global_origin);
	g_ptr_array_free(p->include_stack, TRUE);
	if (!ok) {
		job_list_free(l);
		return NULL;
	}
	return l;
}

struct job_list *jobfile_parse(const struct jobfile_env *env, char **files,
			       int nfiles, char **cmdline_opts, int nopts,
			       GError **err)
{
	struct parser p;
	bool ok;

	parser_init(&p, env);
	ok = parse_cmdline(&p, cmdline_opts, nopts, err);
	for (int i = 0; ok && i < nfiles; i++) {
		const char *name = strcmp(files[i], "-") ? files[i] : "standard input";
		g_autofree char *text = NULL;
		size_t len;

		ok = read_job_file(files[i], &text, &len, err) &&
		     parse_text(&p, name, text, len, i, err);
	}
	return parser_finish(&p, ok, err);
}

struct job_list *jobfile_parse_buffer(const struct jobfile_env *env,
				      const char *name, const char *text,
				      size_t len, char **cmdline_opts, int nopts,
				      GError **err)
{
	g_autofree char *copy = g_malloc(len + 1);
	struct parser p;
	bool ok;

	memcpy(copy, text, len);
	copy[len] = '\0';
	parser_init(&p, env);
	ok = parse_cmdline(&p, cmdline_opts, nopts, err) &&
	     parse_text(&p, name, copy, len, 0, err);
	return parser_finish(&p, ok, err);
}

bool jobopt_location(const struct job *job, const char *option,
		     const char **file, int *line)
{
	const struct fio_option_def *o = fio_option_find(option);
	const struct opt_origin *at;

	if (!o)
		return false;
	at = &job->origin[fio_option_index(o)];
	if (!at->file)
		return false;
	*file = at->file;
	*line = at->line;
	return true;
}
