/* Per-I/O spans for the timeline (io_timeline.h). */
#include "io_timeline.h"

struct io_timeline {
	sim_time from, to;
	size_t max;
	bool truncated;
	GArray *spans;		/* struct io_span */
	GPtrArray *jobs;	/* char * */
};

struct io_timeline *io_timeline_new(sim_time from, sim_time to, size_t max)
{
	struct io_timeline *t = g_new0(struct io_timeline, 1);

	t->from = from;
	t->to = to;
	t->max = max;
	t->spans = g_array_new(FALSE, FALSE, sizeof(struct io_span));
	t->jobs = g_ptr_array_new_with_free_func(g_free);
	return t;
}

void io_timeline_free(struct io_timeline *t)
{
	if (!t)
		return;
	g_array_free(t->spans, TRUE);
	g_ptr_array_free(t->jobs, TRUE);
	g_free(t);
}

unsigned io_timeline_job(struct io_timeline *t, const char *name)
{
	g_ptr_array_add(t->jobs, g_strdup(name));
	return t->jobs->len - 1;
}

const char *io_timeline_job_name(const struct io_timeline *t, unsigned job)
{
	return job < t->jobs->len ? t->jobs->pdata[job] : "?";
}

void io_timeline_add(struct io_timeline *t, const struct io_span *s)
{
	/* Submitted and seen complete within the window, so that every
	 * point of its flow lies on the CPUs' slices, which the window cuts. */
	if (s->start < t->from || s->end > t->to)
		return;
	if (t->spans->len >= t->max) {
		t->truncated = true;
		return;
	}
	g_array_append_val(t->spans, *s);
}

const struct io_span *io_timeline_spans(const struct io_timeline *t, size_t *n,
					bool *truncated)
{
	*n = t->spans->len;
	*truncated = t->truncated;
	return (const struct io_span *)t->spans->data;
}
