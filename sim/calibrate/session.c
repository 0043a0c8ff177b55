/* Measuring a list of points, and keeping the measures in a JSON file. */
#include <gio/gio.h>
#include <json-c/json.h>
#include <string.h>

#include "config.h"
#include "engine/util.h"
#include "session.h"

void cal_session_init(struct cal_session *s, const struct cal_point *pts,
		      unsigned n, unsigned repeat, const char *runtime)
{
	memset(s, 0, sizeof(*s));
	s->pts = pts;
	s->n = n;
	s->repeat = repeat;
	s->runs = g_new0(struct cal_measure, (size_t)n * repeat);
	s->median = g_new0(struct cal_measure, n);
	s->runtime = g_strdup(runtime);
}

void cal_places_copy(struct cal_places *dst, const struct cal_places *src)
{
	dst->raw_dev = g_strdup(src->raw_dev);
	dst->xfs_dev = g_strdup(src->xfs_dev);
	dst->ext4_dev = g_strdup(src->ext4_dev);
	dst->xfs_file = g_strdup(src->xfs_file);
	dst->ext4_file = g_strdup(src->ext4_file);
	dst->xfs_mnt = g_strdup(src->xfs_mnt);
	dst->ext4_mnt = g_strdup(src->ext4_mnt);
	dst->region_mb = src->region_mb;
	dst->file_mb = src->file_mb;
}

void cal_places_clear(struct cal_places *pl)
{
	g_free(pl->raw_dev);
	g_free(pl->xfs_dev);
	g_free(pl->ext4_dev);
	g_free(pl->xfs_file);
	g_free(pl->ext4_file);
	g_free(pl->xfs_mnt);
	g_free(pl->ext4_mnt);
	memset(pl, 0, sizeof(*pl));
}

void cal_session_clear(struct cal_session *s)
{
	g_free(s->runs);
	g_free(s->median);
	g_free(s->runtime);
	cal_places_clear(&s->pl);
	real_facts_clear(&s->facts);
	memset(s, 0, sizeof(*s));
}

/* A point's median is over its quiet runs, when it has any: a run that
 * shared the machine with other work (more than quiet_cpus busy with it)
 * measured that work too. */
static void medians(struct cal_session *s)
{
	g_autofree struct cal_measure *quiet = g_new(struct cal_measure, s->repeat);

	for (unsigned i = 0; i < s->n; i++) {
		const struct cal_measure *runs = &s->runs[(size_t)i * s->repeat];
		unsigned nq = 0;
		for (unsigned k = 0; k < s->repeat; k++)
			if (!s->quiet_cpus || runs[k].other_cpus <= s->quiet_cpus)
				quiet[nq++] = runs[k];
		if (nq)
			cal_measure_median(quiet, nq, &s->median[i]);
		else
			cal_measure_median(runs, s->repeat, &s->median[i]);
	}
}

/* Wait until the machine is quiet enough, or the session's waiting
 * budget is spent; false only when interrupted. */
static bool wait_quiet(struct cal_session *s, struct progress_line *pl,
		       const char *what)
{
	if (!s->quiet_cpus)
		return true;
	for (;;) {
		gint64 t0 = g_get_monotonic_time();
		double busy = real_busy_cpus(300);
		if (real_interrupted())
			return false;
		if (busy <= s->quiet_cpus || s->waited_us >=
		    (gint64)s->quiet_wait_s * G_USEC_PER_SEC)
			return true;
		if (pl->on && progress_line_due(pl))
			progress_line_print(pl, "%s: waiting for the machine to be "
					    "quiet (%.2f CPUs busy with other work)",
					    what, busy);
		g_usleep(700000);
		s->waited_us += g_get_monotonic_time() - t0;
	}
}

bool cal_session_measure(struct cal_session *s, const char *fio,
			 unsigned backing_mb, unsigned region_mb,
			 enum progress_when when, const char *what, GError **err)
{
	struct real_env env;
	struct progress_line pl;
	gint64 t0 = g_get_monotonic_time();
	unsigned total = s->n * s->repeat, done = 0;
	bool ok = false;

	if (!real_env_check(fio, err) ||
	    !real_env_setup(&env, fio, backing_mb, region_mb, err))
		return false;
	real_catch_signals();
	cal_places_copy(&s->pl, &env.pl);
	real_facts_read(&s->facts, &env);
	progress_line_init(&pl, when, 0);
	for (unsigned k = 0; k < s->repeat; k++)
		for (unsigned i = 0; i < s->n; i++, done++) {
			g_autofree char *name = cal_point_name(&s->pts[i]);
			if (pl.on && (done == 0 || progress_line_due(&pl))) {
				double el = (double)(g_get_monotonic_time() - t0) / 1e6;
				double left = done ? el / done * (total - done) : 0;
				progress_line_print(&pl, "%s: real run %u/%u, pass %u/%u: "
						    "%s (%.0f s left)", what, done + 1,
						    total, k + 1, s->repeat, name, left);
			}
			struct cal_measure *m = &s->runs[(size_t)i * s->repeat + k];
			for (unsigned tries = 0;; tries++) {
				if (!wait_quiet(s, &pl, what) ||
				    !real_run(&env, &s->pts[i], s->runtime, m, err)) {
					if (real_interrupted())
						g_set_error(err, G_IO_ERROR,
							    G_IO_ERROR_CANCELLED,
							    "interrupted");
					g_prefix_error(err, "%s: ", name);
					goto out;
				}
				if (!s->quiet_cpus || m->other_cpus <= s->quiet_cpus)
					break;
				if (tries == 2 || s->waited_us >= (gint64)s->quiet_wait_s *
							     G_USEC_PER_SEC) {
					s->busy_runs++;
					break;
				}
				s->reruns++;
			}
		}
	medians(s);
	ok = true;
out:
	progress_line_end(&pl);
	real_env_teardown(&env);
	return ok;
}

static json_object *point_json(const struct cal_point *p)
{
	json_object *o = json_object_new_object();
	g_autofree char *name = cal_point_name(p);

	json_object_object_add(o, "name", json_object_new_string(name));
	json_object_object_add(o, "target",
			       json_object_new_string(cal_target_name(p->target)));
	json_object_object_add(o, "engine", json_object_new_string(p->engine));
	json_object_object_add(o, "rw", json_object_new_string(p->rw));
	json_object_object_add(o, "bs", json_object_new_int(p->bs));
	json_object_object_add(o, "iodepth", json_object_new_int(p->iodepth));
	json_object_object_add(o, "numjobs", json_object_new_int(p->numjobs));
	json_object_object_add(o, "direct", json_object_new_boolean(p->direct));
	return o;
}

static void add_str(json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, json_object_new_string(v ? v : ""));
}

bool cal_session_save(const struct cal_session *s, const char *path,
		      GError **err)
{
	json_object *root = json_object_new_object(), *pl = json_object_new_object(),
		    *facts = json_object_new_object(), *pts = json_object_new_array();
	const struct real_facts *f = &s->facts;
	bool ok;

	add_str(root, "storsim", PACKAGE_STRING);
	add_str(root, "runtime", s->runtime);
	json_object_object_add(root, "repeat", json_object_new_int(s->repeat));
	json_object_object_add(root, "busy_runs", json_object_new_int(s->busy_runs));
	json_object_object_add(root, "reruns", json_object_new_int(s->reruns));
	add_str(pl, "raw_dev", s->pl.raw_dev);
	add_str(pl, "xfs_dev", s->pl.xfs_dev);
	add_str(pl, "ext4_dev", s->pl.ext4_dev);
	add_str(pl, "xfs_mnt", s->pl.xfs_mnt);
	add_str(pl, "ext4_mnt", s->pl.ext4_mnt);
	add_str(pl, "xfs_file", s->pl.xfs_file);
	add_str(pl, "ext4_file", s->pl.ext4_file);
	json_object_object_add(pl, "region_mb", json_object_new_int(s->pl.region_mb));
	json_object_object_add(pl, "file_mb", json_object_new_int(s->pl.file_mb));
	json_object_object_add(root, "places", pl);
	add_str(facts, "kernel", f->kernel);
	add_str(facts, "cpu_model", f->cpu_model);
	json_object_object_add(facts, "ncpus", json_object_new_int(f->ncpus));
	json_object_object_add(facts, "page_size", json_object_new_int(f->page_size));
	json_object_object_add(facts, "hz", json_object_new_int(f->hz));
	json_object_object_add(facts, "mem_mb", json_object_new_int(f->mem_mb));
	add_str(facts, "preempt", f->preempt);
	add_str(facts, "idle_states", f->idle_states);
	add_str(facts, "idle_driver", f->idle_driver);
	json_object_object_add(facts, "dirty_background_ratio",
			       json_object_new_int(f->dirty_background_ratio));
	json_object_object_add(facts, "dirty_ratio", json_object_new_int(f->dirty_ratio));
	json_object_object_add(facts, "dirty_expire_ms",
			       json_object_new_int(f->dirty_expire_ms));
	json_object_object_add(facts, "dirty_writeback_ms",
			       json_object_new_int(f->dirty_writeback_ms));
	json_object_object_add(facts, "read_ahead_kb", json_object_new_int(f->read_ahead_kb));
	json_object_object_add(facts, "share_cache", json_object_new_boolean(f->share_cache));
	json_object_object_add(root, "facts", facts);
	for (unsigned i = 0; i < s->n; i++) {
		json_object *o = point_json(&s->pts[i]), *runs = json_object_new_array();
		for (unsigned k = 0; k < s->repeat; k++)
			json_object_array_add(runs, cal_measure_json(
				&s->runs[(size_t)i * s->repeat + k]));
		json_object_object_add(o, "runs", runs);
		json_object_object_add(o, "median", cal_measure_json(&s->median[i]));
		json_object_array_add(pts, o);
	}
	json_object_object_add(root, "points", pts);
	const char *text = json_object_to_json_string_ext(
		root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
		      JSON_C_TO_STRING_NOSLASHESCAPE);
	g_autofree char *withnl = g_strconcat(text, "\n", NULL);
	ok = g_file_set_contents(path, withnl, -1, err);
	json_object_put(root);
	return ok;
}

static const char *jstr(json_object *o, const char *k)
{
	json_object *v;
	return json_object_object_get_ex(o, k, &v) ? json_object_get_string(v) : NULL;
}

static double jnum(json_object *o, const char *k)
{
	json_object *v;
	return json_object_object_get_ex(o, k, &v) ? json_object_get_double(v) : 0;
}

static void measure_from(json_object *o, struct cal_measure *m)
{
	m->iops = jnum(o, "iops");
	m->lat_us = jnum(o, "lat_us");
	m->p99_us = jnum(o, "p99_us");
	m->cpu_us = jnum(o, "cpu_us");
	m->usr_us = jnum(o, "usr_us");
	m->ctx = jnum(o, "ctx");
	m->other_cpus = jnum(o, "other_cpus");
	m->steal_cpus = jnum(o, "steal_cpus");
}

bool cal_session_load(struct cal_session *s, const char *path, GError **err)
{
	g_autofree char *text = NULL;
	json_object *root, *pl, *facts, *pts, *v;
	bool ok = false;

	if (!g_file_get_contents(path, &text, NULL, err))
		return false;
	root = json_tokener_parse(text);
	if (!root || !json_object_object_get_ex(root, "places", &pl) ||
	    !json_object_object_get_ex(root, "facts", &facts) ||
	    !json_object_object_get_ex(root, "points", &pts)) {
		storsim_input_error(err, path, 0, "measurements",
				    "not a file of storsim's measurements");
		goto out;
	}
	unsigned repeat = (unsigned)jnum(root, "repeat");
	g_free(s->runs);
	s->repeat = repeat ? repeat : 1;
	s->runs = g_new0(struct cal_measure, (size_t)s->n * s->repeat);
	g_free(s->runtime);
	s->runtime = g_strdup(jstr(root, "runtime"));
	s->pl.raw_dev = g_strdup(jstr(pl, "raw_dev"));
	s->pl.xfs_dev = g_strdup(jstr(pl, "xfs_dev"));
	s->pl.ext4_dev = g_strdup(jstr(pl, "ext4_dev"));
	s->pl.xfs_mnt = g_strdup(jstr(pl, "xfs_mnt"));
	s->pl.ext4_mnt = g_strdup(jstr(pl, "ext4_mnt"));
	s->pl.xfs_file = g_strdup(jstr(pl, "xfs_file"));
	s->pl.ext4_file = g_strdup(jstr(pl, "ext4_file"));
	s->pl.region_mb = (unsigned)jnum(pl, "region_mb");
	s->pl.file_mb = (unsigned)jnum(pl, "file_mb");
	struct real_facts *f = &s->facts;
	f->kernel = g_strdup(jstr(facts, "kernel"));
	f->cpu_model = g_strdup(jstr(facts, "cpu_model"));
	f->ncpus = (unsigned)jnum(facts, "ncpus");
	f->page_size = (unsigned)jnum(facts, "page_size");
	f->hz = (unsigned)jnum(facts, "hz");
	f->mem_mb = (unsigned)jnum(facts, "mem_mb");
	f->preempt = g_strdup(jstr(facts, "preempt"));
	f->idle_states = g_strdup(jstr(facts, "idle_states"));
	f->idle_driver = g_strdup(jstr(facts, "idle_driver"));
	f->dirty_background_ratio = (unsigned)jnum(facts, "dirty_background_ratio");
	f->dirty_ratio = (unsigned)jnum(facts, "dirty_ratio");
	f->dirty_expire_ms = (unsigned)jnum(facts, "dirty_expire_ms");
	f->dirty_writeback_ms = (unsigned)jnum(facts, "dirty_writeback_ms");
	f->read_ahead_kb = (unsigned)jnum(facts, "read_ahead_kb");
	f->share_cache = json_object_object_get_ex(facts, "share_cache", &v) &&
			 json_object_get_boolean(v);
	for (unsigned i = 0; i < s->n; i++) {
		g_autofree char *name = cal_point_name(&s->pts[i]);
		json_object *found = NULL, *runs;
		for (size_t j = 0; j < json_object_array_length(pts); j++) {
			json_object *o = json_object_array_get_idx(pts, j);
			const char *nm = jstr(o, "name");
			if (nm && strcmp(nm, name) == 0)
				found = o;
		}
		if (!found || !json_object_object_get_ex(found, "runs", &runs) ||
		    json_object_array_length(runs) != s->repeat) {
			storsim_input_error(err, path, 0, "measurements",
					    "has no %u runs of %s", s->repeat, name);
			goto out;
		}
		for (unsigned k = 0; k < s->repeat; k++)
			measure_from(json_object_array_get_idx(runs, k),
				     &s->runs[(size_t)i * s->repeat + k]);
	}
	medians(s);
	ok = true;
out:
	json_object_put(root);
	return ok;
}

bool cal_parse_runtime(const char *opt, const char *s, char **out,
		       GError **err)
{
	char *end;
	double v = g_ascii_strtod(s, &end), ms = -1;

	if (end != s && (!*end || strcmp(end, "s") == 0))
		ms = v * 1000;
	else if (end != s && strcmp(end, "ms") == 0)
		ms = v;
	if (!(ms >= 100 && ms <= 600000)) {
		storsim_input_error(err, "command line", 0, opt,
				    "'%s' is not a time from 100ms to 600s", s);
		return false;
	}
	*out = g_strdup_printf("%.0fms", ms);
	return true;
}
