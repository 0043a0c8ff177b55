/*
 * Description: storsim's writers reproduce real fio 3.33 output. Each case
 * in tests/golden/ holds a run of fio (fio-output.txt: json+ and normal), the
 * per-I/O latency logs fio wrote in that run, and case.ini with what a
 * simulation supplies (runtimes, CPU, pids). The samples are recorded
 * through the stats API and rendered; the JSON must match fio's key by key
 * in fio's order with equal values, the normal text must match byte for
 * byte, and the serialiser must lay out fio's own document as fio did.
 */
#include <glib.h>
#include <string.h>

#include "workloads/fio/output.h"
#include "engine/stats.h"

#define MAX_JOBS 8

struct golden {
	GKeyFile *kf;
	char *dir;
	char *expected;		/* fio-output.txt */
	struct output_run run;
	struct output_job jobs[MAX_JOBS];
	struct job_stats *stats[MAX_JOBS];
	struct output_option *options[MAX_JOBS + 1];	/* [0] = global */
	struct output_disk disk;
	GPtrArray *strings;	/* everything the run points at */
};

static char *keep(struct golden *g, char *s)
{
	g_ptr_array_add(g->strings, s);
	return s;
}

static const char *get(struct golden *g, const char *group, const char *key)
{
	g_autoptr(GError) err = NULL;
	char *v = g_key_file_get_string(g->kf, group, key, &err);

	g_assert_no_error(err);
	return keep(g, v);
}

static uint64_t get_u64(struct golden *g, const char *group, const char *key)
{
	return g_ascii_strtoull(get(g, group, key), NULL, 10);
}

static bool get_flag(struct golden *g, const char *group, const char *key)
{
	return g_key_file_has_key(g->kf, group, key, NULL) &&
	       g_key_file_get_boolean(g->kf, group, key, NULL);
}

/* An ordered option list from a key-file group (key order is kept). */
static struct output_option *load_options(struct golden *g, const char *group,
					  size_t *n)
{
	g_auto(GStrv) keys = NULL;
	struct output_option *o;
	gsize len = 0;

	*n = 0;
	if (!g_key_file_has_group(g->kf, group))
		return NULL;
	keys = g_key_file_get_keys(g->kf, group, &len, NULL);
	o = g_new0(struct output_option, len);
	for (gsize i = 0; i < len; i++) {
		o[i].name = keep(g, g_strdup(keys[i]));
		o[i].value = get(g, group, keys[i]);
	}
	*n = len;
	return o;
}

struct log_row {
	uint64_t msec, value, ddir, bs;
};

/* A fio latency log: "msec, value, ddir, bs, prio" per I/O, in the order
 * fio recorded the samples. */
static GArray *load_log(struct golden *g, const char *name)
{
	g_autofree char *path = g_build_filename(g->dir, name, NULL);
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	GArray *rows = g_array_new(FALSE, FALSE, sizeof(struct log_row));

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return rows;
	lines = g_strsplit(text, "\n", -1);
	for (char **l = lines; *l && **l; l++) {
		g_auto(GStrv) f = g_strsplit(*l, ",", -1);
		struct log_row row;

		g_assert_cmpuint(g_strv_length(f), ==, 5);
		row.msec = g_ascii_strtoull(g_strstrip(f[0]), NULL, 10);
		row.value = g_ascii_strtoull(g_strstrip(f[1]), NULL, 10);
		row.ddir = g_ascii_strtoull(g_strstrip(f[2]), NULL, 10);
		row.bs = g_ascii_strtoull(g_strstrip(f[3]), NULL, 10);
		g_array_append_val(rows, row);
	}
	return rows;
}

/* Replay job i's I/Os: every engine in these runs submits and reaps one
 * I/O at a time at depth 1, as fio's 100 % depth figures show. */
static struct job_stats *replay(struct golden *g, const char *group, int i,
				bool *has_slat)
{
	g_autofree char *n_clat = g_strdup_printf("lat_clat.%d.txt", i);
	g_autofree char *n_lat = g_strdup_printf("lat_lat.%d.txt", i);
	g_autofree char *n_slat = g_strdup_printf("lat_slat.%d.txt", i);
	GArray *clat = load_log(g, n_clat), *lat = load_log(g, n_lat);
	GArray *slat = load_log(g, n_slat);
	struct stats_config cfg;
	struct job_stats *js;

	g_assert_cmpuint(clat->len, >, 0);
	g_assert_cmpuint(lat->len, ==, clat->len);
	*has_slat = slat->len > 0;
	stats_config_init(&cfg);
	/* the runs logged bw and iops per I/O (log_avg_msec=0) */
	cfg.bw_per_io = cfg.iops_per_io = true;
	cfg.disable_slat = !*has_slat;
	js = stats_new(&cfg, 0);
	for (guint k = 0; k < clat->len; k++) {
		const struct log_row *c = &g_array_index(clat, struct log_row, k);
		const struct log_row *l = &g_array_index(lat, struct log_row, k);
		uint64_t s = *has_slat ?
			     g_array_index(slat, struct log_row, k).value : 0;
		sim_time t = c->msec * SIM_MSEC;

		stats_add_submit(js, t, 1, 1);
		stats_add_io(js, (enum stats_ddir)c->ddir, t, c->bs, s,
			     c->value, l->value);
		stats_add_reap(js, t, 1);
	}
	stats_set_cpu(js, get_u64(g, group, "usr_us") * SIM_USEC,
		      get_u64(g, group, "sys_us") * SIM_USEC,
		      get_u64(g, group, "ctx"), get_u64(g, group, "minf"),
		      get_u64(g, group, "majf"));
	stats_finish(js, get_u64(g, group, "end_us") * SIM_USEC);
	g_array_free(clat, TRUE);
	g_array_free(lat, TRUE);
	g_array_free(slat, TRUE);
	return js;
}

static void load(struct golden *g, const char *name)
{
	g_autoptr(GError) err = NULL;
	g_autofree char *ini = NULL, *out = NULL;
	size_t n;

	memset(g, 0, sizeof(*g));
	g->strings = g_ptr_array_new_with_free_func(g_free);
	g->dir = g_test_build_filename(G_TEST_DIST, "tests", "golden", name, NULL);
	ini = g_build_filename(g->dir, "case.ini", NULL);
	out = g_build_filename(g->dir, "fio-output.txt", NULL);
	g->kf = g_key_file_new();
	g_key_file_load_from_file(g->kf, ini, G_KEY_FILE_NONE, &err);
	g_assert_no_error(err);
	g_file_get_contents(out, &g->expected, NULL, &err);
	g_assert_no_error(err);

	g->run.version = get(g, "run", "version");
	g->run.timestamp = (int64_t)get_u64(g, "run", "timestamp");
	g->options[0] = load_options(g, "global options", &n);
	g->run.global_options = g->options[0];
	g->run.nr_global_options = n;
	if (g_key_file_has_key(g->kf, "run", "disks", NULL)) {
		g_autofree char *group = g_strdup_printf("disk %s",
					get(g, "run", "disks"));
		g_auto(GStrv) ios = g_strsplit(get(g, group, "ios"), ";", 2);
		g_auto(GStrv) merges = g_strsplit(get(g, group, "merges"), ";", 2);
		g_auto(GStrv) ticks = g_strsplit(get(g, group, "ticks"), ";", 2);

		g->disk.name = get(g, "run", "disks");
		for (int k = 0; k < 2; k++) {
			g->disk.ios[k] = g_ascii_strtoull(ios[k], NULL, 10);
			g->disk.merges[k] = g_ascii_strtoull(merges[k], NULL, 10);
			g->disk.ticks[k] = g_ascii_strtoull(ticks[k], NULL, 10);
		}
		g->disk.in_queue = get_u64(g, group, "in_queue");
		g->disk.util = g_ascii_strtod(get(g, group, "util"), NULL);
		g->run.disks = &g->disk;
		g->run.nr_disks = 1;
	}
	for (int i = 1; i <= MAX_JOBS; i++) {
		g_autofree char *group = g_strdup_printf("job %d", i);
		g_autofree char *ogroup = g_strdup_printf("job %d options", i);
		struct output_job *j = &g->jobs[i - 1];
		bool has_slat;

		if (!g_key_file_has_group(g->kf, group))
			break;
		output_job_init(j);
		j->name = get(g, group, "name");
		j->groupid = (unsigned)get_u64(g, group, "groupid");
		j->pid = (int)get_u64(g, group, "pid");
		j->elapsed_s = (unsigned)get_u64(g, group, "elapsed");
		j->rw = get(g, group, "rw");
		j->ioengine = get(g, group, "ioengine");
		j->iodepth = (unsigned)get_u64(g, group, "iodepth");
		j->latency_depth = j->iodepth;
		j->numjobs = (unsigned)get_u64(g, group, "numjobs");
		j->group_reporting = get_flag(g, group, "group_reporting");
		j->is_clone = get_flag(g, group, "clone");
		for (int d = 0; d < STATS_DDIR_NR; d++)
			j->min_bs[d] = j->max_bs[d] = get_u64(g, group, "bs");
		g->options[i] = load_options(g, ogroup, &n);
		j->options = g->options[i];
		j->nr_options = n;
		g->stats[i - 1] = replay(g, group, i, &has_slat);
		j->stats = g->stats[i - 1];
		g->run.nr_jobs = (size_t)i;
	}
	g->run.jobs = g->jobs;
}

static void unload(struct golden *g)
{
	for (int i = 0; i < MAX_JOBS; i++)
		stats_free(g->stats[i]);
	for (int i = 0; i <= MAX_JOBS; i++)
		g_free(g->options[i]);
	g_ptr_array_free(g->strings, TRUE);
	g_key_file_free(g->kf);
	g_free(g->expected);
	g_free(g->dir);
}

/* fio-output.txt = normal preamble, the JSON document, the normal results. */
static void split_expected(const char *text, char **normal, char **json)
{
	const char *open = strstr(text, "\n{\n"), *close = strstr(text, "\n}\n");
	g_autofree char *preamble = NULL;

	g_assert_nonnull(open);
	g_assert_nonnull(close);
	preamble = g_strndup(text, (gsize)(open + 1 - text));
	*json = g_strndup(open + 1, (gsize)(close + 2 - (open + 1)));
	*normal = g_strconcat(preamble, close + 3, NULL);
}

/*
 * Line by line, so a failure shows the first line that differs. fio's
 * "Laying out IO file" notice comes from creating the test file, not from
 * the results; the writers do not print it.
 */
static void assert_same_text(const char *mine, const char *fio)
{
	g_auto(GStrv) a = g_strsplit(mine, "\n", -1);
	g_auto(GStrv) b = g_strsplit(fio, "\n", -1);
	unsigned i = 0, j = 0;

	for (; a[i] && b[j]; i++, j++) {
		if (strstr(b[j], ": Laying out IO file") && strcmp(a[i], b[j]))
			j++;
		g_assert_cmpstr(a[i], ==, b[j]);
	}
	g_assert_null(a[i]);
	g_assert_null(b[j]);
}

static char *dbl(double v)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE + 320];

	return g_strdup(g_ascii_formatd(buf, sizeof(buf), "%f", v));
}

static bool is_echoed_option(const char *path, const char *key)
{
	static const char *const echoed[] = { "iodepth", "numjobs", "bs", "rw" };

	if (!g_str_has_suffix(path, "/job options"))
		return false;
	for (unsigned i = 0; i < G_N_ELEMENTS(echoed); i++)
		if (!strcmp(key, echoed[i]))
			return true;
	return false;
}

/*
 * Same keys in the same order and equal values, with two allowed
 * differences: storsim echoes iodepth/numjobs/bs/rw into "job options"
 * when fio left them out, and timestamp_ms has no milliseconds.
 */
static void compare(struct json_object *mine, struct json_object *fio,
		    const char *path)
{
	enum json_type t = json_object_get_type(fio);

	if (json_object_get_type(mine) != t)
		g_test_message("type differs at %s", path);
	g_assert_cmpint(json_object_get_type(mine), ==, t);
	if (t == json_type_object) {
		struct json_object_iterator a = json_object_iter_begin(mine);
		struct json_object_iterator ae = json_object_iter_end(mine);
		struct json_object_iterator b = json_object_iter_begin(fio);
		struct json_object_iterator be = json_object_iter_end(fio);

		while (!json_object_iter_equal(&a, &ae)) {
			const char *ka = json_object_iter_peek_name(&a);
			const char *kb = json_object_iter_equal(&b, &be) ? "(end)" :
					 json_object_iter_peek_name(&b);
			g_autofree char *sub = g_strdup_printf("%s/%s", path, ka);

			if (strcmp(ka, kb) && is_echoed_option(path, ka) &&
			    !json_object_object_get_ex(fio, ka, NULL)) {
				json_object_iter_next(&a);
				continue;
			}
			if (strcmp(ka, kb))
				g_test_message("at %s: storsim has '%s', fio '%s'",
					       path, ka, kb);
			g_assert_cmpstr(ka, ==, kb);
			if (strcmp(ka, "timestamp_ms"))
				compare(json_object_iter_peek_value(&a),
					json_object_iter_peek_value(&b), sub);
			json_object_iter_next(&a);
			json_object_iter_next(&b);
		}
		if (!json_object_iter_equal(&b, &be))
			g_test_message("at %s: fio has more, from '%s'", path,
				       json_object_iter_peek_name(&b));
		g_assert_true(json_object_iter_equal(&b, &be));
	} else if (t == json_type_array) {
		g_assert_cmpuint(json_object_array_length(mine), ==,
				 json_object_array_length(fio));
		for (size_t i = 0; i < json_object_array_length(fio); i++) {
			g_autofree char *sub = g_strdup_printf("%s[%zu]", path, i);

			compare(json_object_array_get_idx(mine, i),
				json_object_array_get_idx(fio, i), sub);
		}
	} else if (t == json_type_double) {
		g_autofree char *a = dbl(json_object_get_double(mine));
		g_autofree char *b = dbl(json_object_get_double(fio));

		if (strcmp(a, b))
			g_test_message("value differs at %s", path);
		g_assert_cmpstr(a, ==, b);
	} else {
		const char *a = json_object_to_json_string(mine);
		const char *b = json_object_to_json_string(fio);

		if (strcmp(a, b))
			g_test_message("value differs at %s", path);
		g_assert_cmpstr(a, ==, b);
	}
}

static void test_json(gconstpointer name)
{
	struct golden g;
	g_autofree char *normal = NULL, *json = NULL;
	struct json_object *fio, *mine;

	load(&g, name);
	split_expected(g.expected, &normal, &json);
	fio = json_tokener_parse(json);
	g_assert_nonnull(fio);
	mine = output_json(&g.run, true);
	compare(mine, fio, "");
	json_object_put(mine);
	json_object_put(fio);
	unload(&g);
}

static void test_normal(gconstpointer name)
{
	struct golden g;
	g_autofree char *normal = NULL, *json = NULL;
	GString *mine = g_string_new(NULL);

	load(&g, name);
	split_expected(g.expected, &normal, &json);
	output_normal_preamble(mine, &g.run);
	output_normal_results(mine, &g.run);
	assert_same_text(mine->str, normal);
	g_string_free(mine, TRUE);
	unload(&g);
}

static void test_layout(gconstpointer name)
{
	struct golden g;
	g_autofree char *normal = NULL, *json = NULL;
	GString *mine = g_string_new(NULL);
	struct json_object *fio;

	load(&g, name);
	split_expected(g.expected, &normal, &json);
	fio = json_tokener_parse(json);
	output_json_print(mine, fio);
	assert_same_text(mine->str, json);
	json_object_put(fio);
	g_string_free(mine, TRUE);
	unload(&g);
}

/* The whole file has fio's order: preamble, JSON document, results. */
static void test_render_order(gconstpointer name)
{
	struct golden g;
	g_autofree char *text = NULL, *normal = NULL, *json = NULL;
	g_autofree char *my_normal = NULL, *my_json = NULL;
	struct json_object *mine, *fio;

	load(&g, name);
	text = output_render(&g.run, OUTPUT_NORMAL | OUTPUT_JSON |
				     OUTPUT_JSON_PLUS);
	split_expected(text, &my_normal, &my_json);
	split_expected(g.expected, &normal, &json);
	assert_same_text(my_normal, normal);
	mine = json_tokener_parse(my_json);
	fio = json_tokener_parse(json);
	g_assert_nonnull(mine);
	compare(mine, fio, "");
	json_object_put(mine);
	json_object_put(fio);
	unload(&g);
}

int main(int argc, char **argv)
{
	static const char *const cases[] = { "fio-psync", "fio-null", "fio-group" };

	g_test_init(&argc, &argv, NULL);
	for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *p1 = g_strdup_printf("/output/golden/%s/json", cases[i]);
		g_autofree char *p2 = g_strdup_printf("/output/golden/%s/normal", cases[i]);
		g_autofree char *p3 = g_strdup_printf("/output/golden/%s/layout", cases[i]);
		g_autofree char *p4 = g_strdup_printf("/output/golden/%s/render-order", cases[i]);

		g_test_add_data_func(p1, cases[i], test_json);
		g_test_add_data_func(p2, cases[i], test_normal);
		g_test_add_data_func(p3, cases[i], test_layout);
		g_test_add_data_func(p4, cases[i], test_render_order);
	}
	return g_test_run();
}
