/*
 * The timeline of a run (--timeline) as Trace Event JSON, which Perfetto
 * (ui.perfetto.dev) and chrome://tracing open. Every event is a json-c
 * object, written one after the other, so that any name (a job's, with a
 * tab or a quote) comes out escaped.
 *
 *   process "CPUs": a track per CPU, a slice for each stretch a task, an
 *     interrupt, a busy-polling task or an idle exit held it (host.h);
 *   process "I/Os": a slice per I/O the application completed, from its
 *     submission to its seeing the completion, with the layers it crossed
 *     (io_trace.h) nested in it, and its offset, size, direction and job
 *     as args; concurrent I/Os of a job take as many tracks ("lanes") as
 *     it has in flight at most; a counter of the I/Os in flight;
 *   a process per device: per hardware queue, the commands from the
 *     doorbell to their completion entry (on lanes, as they overlap) and
 *     a counter of its depth;
 *   a flow per I/O: from its start, to the CPU that submitted it (the
 *     kernel's entry: on that CPU's track, where the stamp falls, which
 *     can be an interrupt that preempted the submission), to the device
 *     queue, to the CPU that handled its completion (the interrupt, or
 *     the poller), to the I/O's end.
 */
#include <stdio.h>
#include <string.h>

#include "engine/util.h"
#include "system.h"
#include "workloads/fio/output.h"

enum { PID_CPUS = 1, PID_IOS = 2, PID_DEVICES = 3 };

struct writer {
	GString *o;
	size_t n;
};

static void emit(struct writer *w, json_object *ev)
{
	if (w->n++)
		g_string_append(w->o, ",\n");
	g_string_append(w->o, json_object_to_json_string_ext(ev, JSON_C_TO_STRING_PLAIN |
							   JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(ev);
}

/* A time in microseconds, as Trace Event wants it, to the nanosecond. */
static json_object *us(sim_time ns)
{
	char buf[40];

	snprintf(buf, sizeof(buf), "%" G_GUINT64_FORMAT ".%03u", ns / 1000,
		 (unsigned)(ns % 1000));
	return json_object_new_double_s((double)ns / 1e3, buf);
}

static json_object *event(const char *ph, const char *name, int pid, int tid)
{
	json_object *e = json_object_new_object();

	json_object_object_add(e, "ph", json_object_new_string(ph));
	if (name)
		json_object_object_add(e, "name", json_object_new_string(name));
	json_object_object_add(e, "pid", json_object_new_int(pid));
	if (tid >= 0)
		json_object_object_add(e, "tid", json_object_new_int(tid));
	return e;
}

static void meta(struct writer *w, const char *what, int pid, int tid,
		 const char *name, int sort)
{
	json_object *e = event("M", what, pid, tid), *a = json_object_new_object();

	json_object_object_add(a, "name", json_object_new_string(name));
	json_object_object_add(e, "args", a);
	emit(w, e);
	g_autofree char *idx = g_strconcat(g_str_has_prefix(what, "process") ?
					   "process" : "thread", "_sort_index", NULL);
	e = event("M", idx, pid, tid);
	a = json_object_new_object();
	json_object_object_add(a, "sort_index", json_object_new_int(sort));
	json_object_object_add(e, "args", a);
	emit(w, e);
}

static void slice(struct writer *w, const char *name, int pid, int tid,
		  sim_time start, sim_time end, json_object *args)
{
	json_object *e = event("X", name, pid, tid);

	json_object_object_add(e, "ts", us(start));
	json_object_object_add(e, "dur", us(end - start));
	if (args)
		json_object_object_add(e, "args", args);
	emit(w, e);
}

static void flow(struct writer *w, const char *ph, unsigned id, int pid, int tid,
		 sim_time at)
{
	json_object *e = event(ph, "I/O", pid, tid);

	json_object_object_add(e, "cat", json_object_new_string("io"));
	json_object_object_add(e, "id", json_object_new_int64(id));
	json_object_object_add(e, "ts", us(at));
	if (ph[0] == 'f')
		json_object_object_add(e, "bp", json_object_new_string("e"));
	emit(w, e);
}

/* ---- lanes and counters ---- */

/* Put overlapping intervals on the fewest lanes: each on the first lane
 * free at its start (intervals in order of start). */
struct lanes {
	GArray *free_at;	/* sim_time: when each lane's last interval ends */
};

static unsigned lane_take(struct lanes *l, sim_time start, sim_time end)
{
	for (unsigned i = 0; i < l->free_at->len; i++)
		if (g_array_index(l->free_at, sim_time, i) <= start) {
			g_array_index(l->free_at, sim_time, i) = end;
			return i;
		}
	g_array_append_val(l->free_at, end);
	return l->free_at->len - 1;
}

struct change {
	sim_time at;
	int delta;
};

static int change_cmp(gconstpointer a, gconstpointer b)
{
	const struct change *x = a, *y = b;

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	return x->delta - y->delta;	/* ends before starts at one time */
}

/* A counter track: its value after the changes at each time. */
static void counter(struct writer *w, const char *name, int pid, GArray *changes)
{
	int v = 0;

	g_array_sort(changes, change_cmp);
	for (unsigned i = 0; i < changes->len; i++) {
		const struct change *c = &g_array_index(changes, struct change, i);
		v += c->delta;
		if (i + 1 < changes->len &&
		    g_array_index(changes, struct change, i + 1).at == c->at)
			continue;
		json_object *e = event("C", name, pid, -1), *a = json_object_new_object();
		json_object_object_add(e, "ts", us(c->at));
		json_object_object_add(a, name, json_object_new_int(v));
		json_object_object_add(e, "args", a);
		emit(w, e);
	}
}

static void change_add(GArray *a, sim_time at, int delta)
{
	struct change c = {.at = at, .delta = delta};

	g_array_append_val(a, c);
}

/* ---- the I/Os ---- */

struct queue_track {
	const char *dev;
	unsigned hwq;
	int pid, tid0;		/* its first lane's tid */
	struct lanes lanes;
	GArray *depth;		/* struct change */
};

static const char *const dir_names[] = {"read", "write", "trim"};

static bool has(const struct io_trace *tr, enum io_stamp s)
{
	return tr->have & (1u << s);
}

static bool has_cpu(const struct io_trace *tr, enum io_stamp s)
{
	return tr->have_cpu & (1u << s);
}

static json_object *io_args(const struct io_timeline *t, const struct io_span *s,
			    unsigned id)
{
	json_object *a = json_object_new_object();

	json_object_object_add(a, "io", json_object_new_int64(id));
	json_object_object_add(a, "job", json_object_new_string(
		io_timeline_job_name(t, s->job)));
	json_object_object_add(a, "direction", json_object_new_string(dir_names[s->dir]));
	json_object_object_add(a, "offset", json_object_new_uint64(s->offset));
	json_object_object_add(a, "size", json_object_new_uint64(s->size));
	if (s->tr.dev) {
		json_object_object_add(a, "device", json_object_new_string(s->tr.dev));
		json_object_object_add(a, "queue", json_object_new_int(s->tr.hwq));
	}
	if (has_cpu(&s->tr, IOS_SUBMIT))
		json_object_object_add(a, "submit_cpu", json_object_new_int(s->tr.cpu[IOS_SUBMIT]));
	if (has_cpu(&s->tr, IOS_HANDLE))
		json_object_object_add(a, "completion_handler_cpu",
				       json_object_new_int(s->tr.cpu[IOS_HANDLE]));
	return a;
}

static int span_cmp(gconstpointer a, gconstpointer b)
{
	const struct io_span *x = *(const struct io_span *const *)a;
	const struct io_span *y = *(const struct io_span *const *)b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x < y ? -1 : x > y;
}

static struct queue_track *queue_of(GPtrArray *queues, const struct io_span *s)
{
	for (unsigned i = 0; i < queues->len; i++) {
		struct queue_track *q = queues->pdata[i];
		if (strcmp(q->dev, s->tr.dev) == 0 && q->hwq == s->tr.hwq)
			return q;
	}
	struct queue_track *q = g_new0(struct queue_track, 1);
	q->dev = s->tr.dev;
	q->hwq = s->tr.hwq;
	q->lanes.free_at = g_array_new(FALSE, FALSE, sizeof(sim_time));
	q->depth = g_array_new(FALSE, FALSE, sizeof(struct change));
	g_ptr_array_add(queues, q);
	return q;
}

static void queue_free(struct queue_track *q)
{
	g_array_free(q->lanes.free_at, TRUE);
	g_array_free(q->depth, TRUE);
	g_free(q);
}

static void ios_json(struct writer *w, const struct io_timeline *t, unsigned ncpus)
{
	size_t n;
	bool truncated;
	const struct io_span *spans = io_timeline_spans(t, &n, &truncated);
	g_autoptr(GPtrArray) order = g_ptr_array_new();
	g_autoptr(GPtrArray) queues = g_ptr_array_new_with_free_func((GDestroyNotify)queue_free);
	g_autoptr(GArray) inflight = g_array_new(FALSE, FALSE, sizeof(struct change));
	g_autofree unsigned *io_lane = g_new0(unsigned, MAX(n, 1));
	g_autofree unsigned *dev_lane = g_new0(unsigned, MAX(n, 1));
	GPtrArray *job_lanes = g_ptr_array_new();	/* struct lanes *, per job */

	for (size_t i = 0; i < n; i++)
		g_ptr_array_add(order, (gpointer)&spans[i]);
	g_ptr_array_sort(order, span_cmp);
	/* Lanes: per job for the I/Os, per queue for the commands. */
	for (unsigned k = 0; k < order->len; k++) {
		const struct io_span *s = order->pdata[k];
		size_t i = (size_t)(s - spans);
		while (job_lanes->len <= s->job) {
			struct lanes *l = g_new0(struct lanes, 1);
			l->free_at = g_array_new(FALSE, FALSE, sizeof(sim_time));
			g_ptr_array_add(job_lanes, l);
		}
		io_lane[i] = lane_take(job_lanes->pdata[s->job], s->start, s->end);
		change_add(inflight, s->start, 1);
		change_add(inflight, s->end, -1);
	}
	/* The device's commands, in order of the doorbell. */
	for (unsigned k = 0; k < order->len; k++) {
		const struct io_span *s = order->pdata[k];
		if (!s->tr.dev || !has(&s->tr, IOS_ISSUE) || !has(&s->tr, IOS_DEVICE_DONE))
			continue;
		struct queue_track *q = queue_of(queues, s);
		change_add(q->depth, s->tr.t[IOS_ISSUE], 1);
		change_add(q->depth, s->tr.t[IOS_DEVICE_DONE], -1);
	}
	g_autoptr(GArray) by_issue = g_array_new(FALSE, FALSE, sizeof(size_t));
	for (size_t i = 0; i < n; i++)
		if (spans[i].tr.dev && has(&spans[i].tr, IOS_ISSUE) &&
		    has(&spans[i].tr, IOS_DEVICE_DONE))
			g_array_append_val(by_issue, i);
	for (unsigned k = 1; k < by_issue->len; k++)	/* insertion: nearly sorted */
		for (unsigned j = k; j > 0; j--) {
			size_t *a = &g_array_index(by_issue, size_t, j - 1);
			size_t *b = &g_array_index(by_issue, size_t, j);
			if (spans[*a].tr.t[IOS_ISSUE] <= spans[*b].tr.t[IOS_ISSUE])
				break;
			size_t x = *a;
			*a = *b;
			*b = x;
		}
	for (unsigned k = 0; k < by_issue->len; k++) {
		size_t i = g_array_index(by_issue, size_t, k);
		struct queue_track *q = queue_of(queues, &spans[i]);
		dev_lane[i] = lane_take(&q->lanes, spans[i].tr.t[IOS_ISSUE],
					spans[i].tr.t[IOS_DEVICE_DONE]);
	}

	/* Tracks: the jobs' lanes, then per device its queues' lanes. */
	meta(w, "process_name", PID_IOS, -1, truncated ? "I/Os (timeline truncated)" :
	     "I/Os", PID_IOS);
	g_autofree int *job_tid0 = g_new0(int, MAX(job_lanes->len, 1u));
	int tid = 1;
	for (unsigned j = 0; j < job_lanes->len; j++) {
		struct lanes *l = job_lanes->pdata[j];
		job_tid0[j] = tid;
		for (unsigned k = 0; k < l->free_at->len; k++, tid++) {
			g_autofree char *name = g_strdup_printf("%s I/Os (%u)",
					io_timeline_job_name(t, j), k + 1);
			meta(w, "thread_name", PID_IOS, tid, name, tid);
		}
	}
	GPtrArray *devs = g_ptr_array_new();
	for (unsigned i = 0; i < queues->len; i++) {
		struct queue_track *q = queues->pdata[i];
		unsigned d = 0;
		while (d < devs->len && strcmp(devs->pdata[d], q->dev) != 0)
			d++;
		if (d == devs->len) {
			g_ptr_array_add(devs, (gpointer)q->dev);
			meta(w, "process_name", PID_DEVICES + (int)d, -1, q->dev,
			     PID_DEVICES + (int)d);
		}
		q->pid = PID_DEVICES + (int)d;
	}
	for (unsigned d = 0; d < devs->len; d++) {
		int dtid = 1;
		for (unsigned i = 0; i < queues->len; i++) {
			struct queue_track *q = queues->pdata[i];
			if (q->pid != PID_DEVICES + (int)d)
				continue;
			q->tid0 = dtid;
			for (unsigned k = 0; k < q->lanes.free_at->len; k++, dtid++) {
				g_autofree char *name = k ?
					g_strdup_printf("queue %u (%u)", q->hwq, k + 1) :
					g_strdup_printf("queue %u", q->hwq);
				meta(w, "thread_name", q->pid, dtid, name, dtid);
			}
		}
	}

	for (size_t i = 0; i < n; i++) {
		const struct io_span *s = &spans[i];
		const struct io_trace *tr = &s->tr;
		unsigned id = (unsigned)i + 1;
		int itid = job_tid0[s->job] + (int)io_lane[i];
		g_autofree char *name = g_strdup_printf("%s %u", dir_names[s->dir], s->size);
		slice(w, name, PID_IOS, itid, s->start, s->end, io_args(t, s, id));
		sim_time each[IOL_NR], at = s->start;
		io_trace_split(tr, s->start, s->end, each);
		for (int l = 0; l < IOL_NR; l++) {
			if (each[l])
				slice(w, io_layer_name(l), PID_IOS, itid, at, at + each[l], NULL);
			at += each[l];
		}
		struct queue_track *q = NULL;
		if (tr->dev && has(tr, IOS_ISSUE) && has(tr, IOS_DEVICE_DONE)) {
			q = queue_of(queues, s);
			slice(w, name, q->pid, q->tid0 + (int)dev_lane[i], tr->t[IOS_ISSUE],
			      tr->t[IOS_DEVICE_DONE], io_args(t, s, id));
		}
		/* The flow: from the I/O, through the CPU that submitted it,
		 * the device queue and the CPU that handled its completion,
		 * back to the I/O at its end (inside its slice). */
		flow(w, "s", id, PID_IOS, itid, s->start);
		if (has_cpu(tr, IOS_SUBMIT) && tr->cpu[IOS_SUBMIT] < ncpus)
			flow(w, "t", id, PID_CPUS, tr->cpu[IOS_SUBMIT], tr->t[IOS_SUBMIT]);
		if (q)
			flow(w, "t", id, q->pid, q->tid0 + (int)dev_lane[i], tr->t[IOS_ISSUE]);
		if (has_cpu(tr, IOS_HANDLE) && tr->cpu[IOS_HANDLE] < ncpus)
			flow(w, "t", id, PID_CPUS, tr->cpu[IOS_HANDLE], tr->t[IOS_HANDLE]);
		flow(w, "f", id, PID_IOS, itid, s->end > s->start ? s->end - 1 : s->end);
	}
	counter(w, "I/Os in flight", PID_IOS, inflight);
	for (unsigned i = 0; i < queues->len; i++) {
		struct queue_track *q = queues->pdata[i];
		g_autofree char *name = g_strdup_printf("queue %u depth", q->hwq);
		counter(w, name, q->pid, q->depth);
	}
	for (unsigned j = 0; j < job_lanes->len; j++) {
		struct lanes *l = job_lanes->pdata[j];
		g_array_free(l->free_at, TRUE);
		g_free(l);
	}
	g_ptr_array_free(job_lanes, TRUE);
	g_ptr_array_free(devs, TRUE);
}

bool system_timeline_write(struct system *s, GError **err)
{
	size_t n;
	bool truncated;
	const struct host_slice *sl;
	struct writer w = {.o = g_string_new("{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n")};

	if (!s->timeline_file) {
		g_string_free(w.o, TRUE);
		return true;
	}
	sl = host_timeline(s->host, &n, &truncated);
	meta(&w, "process_name", PID_CPUS, -1, truncated ? "CPUs (timeline truncated)" :
	     "CPUs", PID_CPUS);
	for (unsigned c = 0; c < host_ncpus(s->host); c++) {
		g_autofree char *name = g_strdup_printf("CPU %u", c);
		meta(&w, "thread_name", PID_CPUS, (int)c, name, (int)c);
	}
	for (size_t i = 0; i < n; i++)
		slice(&w, sl[i].name, PID_CPUS, (int)sl[i].cpu, sl[i].start, sl[i].end, NULL);
	if (s->iotl)
		ios_json(&w, s->iotl, host_ncpus(s->host));
	g_string_append(w.o, "\n]}\n");
	bool ok = output_write_file(s->timeline_file, w.o->str, err);
	g_string_free(w.o, TRUE);
	return ok;
}
