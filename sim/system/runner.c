/* Running a sweep's points (runner.h), with GLib's GSubprocess for the
 * worker processes. */
#include <gio/gio.h>
#include <string.h>

#include "engine/util.h"
#include "runner.h"

unsigned runner_default_jobs(void)
{
	return MAX(1u, g_get_num_processors());
}

struct run_state {
	const struct runner *r;
	GPtrArray *points;	/* struct point * */
	GPtrArray *defs;	/* json_object *, per point */
	GPtrArray *docs;	/* json_object *, per point, or NULL until run */
	GArray *todo;		/* unsigned: indices of the points to run */
	unsigned next;		/* into todo */
	unsigned running, finished, failed, stored;
	gint64 start_us;
	struct progress_line line;
	GError *error;		/* a worker that could not be started */
	char *self;		/* this program */
};

struct worker {
	struct run_state *st;
	unsigned index;
};

static char *clock_text(gint64 us)
{
	gint64 s = us / G_USEC_PER_SEC;

	return s >= 3600 ? g_strdup_printf("%" G_GINT64_FORMAT ":%02d:%02d", s / 3600,
					   (int)(s / 60 % 60), (int)(s % 60)) :
			   g_strdup_printf("%d:%02d", (int)(s / 60), (int)(s % 60));
}

static void show(struct run_state *st)
{
	gint64 spent = g_get_monotonic_time() - st->start_us;
	unsigned total = st->points->len, done = st->stored + st->finished;
	g_autofree char *el = clock_text(spent);
	g_autofree char *left = NULL;

	/* Points run at the pace of those that have run, N at a time. */
	if (st->finished && done < total)
		left = clock_text(spent / st->finished * (total - done));
	progress_line_print(&st->line, "%s: %u of %u points done, %u failed, "
			    "%s elapsed%s%s%s", st->r->what, done, total, st->failed,
			    el, left ? ", about " : "", left ? left : "",
			    left ? " left" : "");
}

static gboolean tick(gpointer data)
{
	struct run_state *st = data;

	if (progress_line_due(&st->line))
		show(st);
	return G_SOURCE_CONTINUE;
}

static void finished(struct run_state *st, unsigned i, json_object *doc)
{
	st->docs->pdata[i] = doc;
	st->finished++;
	st->failed += point_doc_status(doc) == POINT_FAILED;
	show(st);
}

bool runner_run_point(struct store *s, const struct point *p, GError **err)
{
	json_object *def = point_definition(p, err);

	if (!def)
		return false;
	bool ok = store_save(s, p, def, point_run(p), NULL, err);
	json_object_put(def);
	return ok;
}

/* The last line a worker wrote on its standard error, for a reason. */
static char *last_line(const char *text)
{
	g_auto(GStrv) lines = g_strsplit(text ? text : "", "\n", -1);

	for (unsigned n = g_strv_length(lines); n-- > 0; )
		if (*g_strstrip(lines[n]))
			return g_strdup(lines[n]);
	return NULL;
}

static void worker_exited(GObject *src, GAsyncResult *res, gpointer data)
{
	struct worker *w = data;
	struct run_state *st = w->st;
	GSubprocess *proc = G_SUBPROCESS(src);
	const struct point *p = st->points->pdata[w->index];
	json_object *def = st->defs->pdata[w->index];
	g_autofree char *errtext = NULL;
	g_autoptr(GError) e = NULL;

	g_subprocess_communicate_utf8_finish(proc, res, NULL, &errtext, &e);
	json_object *doc = store_load(st->r->store, p, def);
	if (!doc) {
		g_autofree char *line = last_line(errtext);
		g_autofree char *how = g_subprocess_get_if_signaled(proc) ?
			g_strdup_printf("was killed by signal %d",
					g_subprocess_get_term_sig(proc)) :
			g_strdup_printf("exited with status %d, writing no result",
					g_subprocess_get_if_exited(proc) ?
					g_subprocess_get_exit_status(proc) : -1);
		g_autofree char *why = g_strdup_printf("its worker process %s%s%s",
						       how, line ? ": " : "",
						       line ? line : "");
		g_autoptr(GError) serr = NULL;
		/* Recorded as failed, so that the next run tries it again. */
		if (!store_save(st->r->store, p, def, point_failed_doc(why), &doc, &serr))
			doc = store_document(st->r->command, def, point_failed_doc(why));
	}
	st->running--;
	finished(st, w->index, doc);
	g_object_unref(proc);
	g_free(w);
}

static bool spawn(struct run_state *st, unsigned i)
{
	const struct runner *r = st->r;
	g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func(g_free);

	g_ptr_array_add(argv, g_strdup(st->self));
	for (char **a = r->worker_argv; *a; a++)
		g_ptr_array_add(argv, g_strdup(*a));
	g_ptr_array_add(argv, g_strdup_printf("--results=%s", store_dir(r->store)));
	g_ptr_array_add(argv, g_strdup("--eta=never"));
	g_ptr_array_add(argv, g_strdup_printf("--point=%u", i));
	g_ptr_array_add(argv, NULL);
	GSubprocess *proc = g_subprocess_newv((const char *const *)argv->pdata,
					      G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
					      G_SUBPROCESS_FLAGS_STDERR_PIPE,
					      &st->error);
	if (!proc)
		return false;
	struct worker *w = g_new0(struct worker, 1);
	w->st = st;
	w->index = i;
	st->running++;
	g_subprocess_communicate_utf8_async(proc, NULL, NULL, worker_exited, w);
	return true;
}

static bool run_here(struct run_state *st, unsigned i, GError **err)
{
	const struct runner *r = st->r;
	const struct point *p = st->points->pdata[i];
	json_object *def = st->defs->pdata[i], *doc = NULL;
	json_object *result = point_run(p);

	if (r->store) {
		if (!store_save(r->store, p, def, result, &doc, err))
			return false;
	} else {
		doc = store_document(r->command, def, result);
	}
	finished(st, i, doc);
	return true;
}

bool runner_run(const struct runner *r, GPtrArray *points, GPtrArray **docs,
		GError **err)
{
	struct run_state st = {
		.r = r, .points = points,
		.defs = g_ptr_array_new_with_free_func(point_doc_free),
		.docs = g_ptr_array_new_with_free_func(point_doc_free),
		.todo = g_array_new(FALSE, FALSE, sizeof(unsigned)),
		.start_us = g_get_monotonic_time(),
	};
	bool ok = false;

	g_ptr_array_set_size(st.docs, points->len);
	for (unsigned i = 0; i < points->len; i++) {
		json_object *def = point_definition(points->pdata[i], err), *doc = NULL;
		if (!def)
			goto out;
		g_ptr_array_add(st.defs, def);
		if (r->store && !r->force)
			doc = store_load(r->store, points->pdata[i], def);
		if (doc && point_doc_status(doc) == POINT_FAILED) {
			json_object_put(doc);
			doc = NULL;
		}
		if (doc) {
			st.docs->pdata[i] = doc;
			st.stored++;
		} else {
			g_array_append_val(st.todo, i);
		}
	}
	progress_line_init(&st.line, r->when, 0);
	if (st.todo->len)
		show(&st);
	if (r->jobs <= 1 || st.todo->len <= 1 || !r->store) {
		for (unsigned k = 0; k < st.todo->len; k++) {
			if (!run_here(&st, g_array_index(st.todo, unsigned, k), err))
				goto out;
		}
	} else {
		st.self = g_file_read_link("/proc/self/exe", err);
		if (!st.self)
			goto out;
		guint timer = g_timeout_add(250, tick, &st);
		while (st.next < st.todo->len || st.running) {
			while (!st.error && st.running < r->jobs && st.next < st.todo->len)
				if (!spawn(&st, g_array_index(st.todo, unsigned, st.next++)))
					break;
			if (st.error && !st.running)
				break;
			g_main_context_iteration(NULL, TRUE);
		}
		g_source_remove(timer);
		if (st.error) {
			g_propagate_error(err, g_steal_pointer(&st.error));
			goto out;
		}
	}
	progress_line_end(&st.line);
	*docs = g_steal_pointer(&st.docs);
	ok = true;
out:
	progress_line_end(&st.line);
	if (st.docs)
		g_ptr_array_free(st.docs, TRUE);
	g_ptr_array_free(st.defs, TRUE);
	g_array_free(st.todo, TRUE);
	g_free(st.self);
	return ok;
}

void runner_count(GPtrArray *docs, unsigned *done, unsigned *refused,
		  unsigned *failed)
{
	*done = *refused = *failed = 0;
	for (unsigned i = 0; i < docs->len; i++) {
		json_object *d = docs->pdata[i];
		switch (point_doc_status(d)) {
		case POINT_DONE: (*done)++; break;
		case POINT_REFUSED: (*refused)++; break;
		case POINT_FAILED: (*failed)++; break;
		}
	}
}

char **runner_split_jobs(int *argc, char **argv)
{
	GPtrArray *a = g_ptr_array_new();

	for (int i = 0; i < *argc; i++) {
		const char *x = argv[i];
		if (i > 0 && x[0] == '-' && x[1] == 'j' && g_ascii_isdigit(x[2])) {
			g_ptr_array_add(a, g_strdup("-j"));
			g_ptr_array_add(a, g_strdup(x + 2));
		} else {
			g_ptr_array_add(a, g_strdup(x));
		}
	}
	*argc = (int)a->len;
	g_ptr_array_add(a, NULL);
	return (char **)g_ptr_array_free(a, FALSE);
}
