/* Latency by layer: the stamps an I/O collects, summed per layer. */
#include <math.h>

#include "io_trace.h"

static const struct {
	const char *name;
	const char *what;
} layer_info[IOL_NR] = {
	[IOL_APP_SUBMIT] = {"app_submit",
			    "the application until the kernel has the I/O"},
	[IOL_KERNEL_SUBMIT] = {"kernel_submit",
			       "syscall/io_uring issue and the file system, to submit_bio"},
	[IOL_BLOCK_QUEUE] = {"block_queue",
			     "blk-mq: waiting for a tag, in the plug (blktrace Q2D)"},
	[IOL_DRIVER_SUBMIT] = {"driver_submit",
			       "the driver's command, to the doorbell"},
	[IOL_DEVICE] = {"device",
			"the device: fetch, transfer, media, cache, to the completion entry"},
	[IOL_INTERRUPT] = {"interrupt",
			   "completion entry to its handler: interrupt, idle exit, polling"},
	[IOL_BLOCK_COMPLETE] = {"block_complete",
				"the handler's completion work, to blk-mq's end (blktrace C)"},
	[IOL_KERNEL_COMPLETE] = {"kernel_complete",
				 "file system and io_uring completion: punt, task_work, CQE"},
	[IOL_APP_REAP] = {"app_reap",
			  "the posted completion until the application sees it"},
};

/* The points of one I/O in order and within it, for the rare I/O whose
 * stamps are incomplete or out of order. */
static void split_slow(const struct io_trace *tr, sim_time start,
		       sim_time end, sim_time each[IOL_NR])
{
	sim_time p[IOS_NR], next = end;

	/* An unset stamp takes the next set one's time: its layer is
	 * empty, and the time counts in the layer before. */
	for (int s = IOS_NR - 1; s >= 0; s--) {
		if (tr->have & (1u << s))
			next = tr->t[s] < end ? tr->t[s] : end;
		p[s] = next;
	}
	/* Stamps are projections of charged work; one taken before an
	 * interrupt preempted its context can lie behind a later one. Keep
	 * the points in order, so the layers add up. */
	sim_time prev = start;
	for (int s = 0; s < IOS_NR; s++) {
		sim_time t = p[s] > prev ? p[s] : prev;
		each[s] = t - prev;
		prev = t;
	}
	each[IOL_NR - 1] = end > prev ? end - prev : 0;
}

void io_trace_split(const struct io_trace *tr, sim_time start, sim_time end,
		    sim_time each[IOL_NR])
{
	const sim_time *t = tr->t;

	if (tr->have != (1u << IOS_NR) - 1 || start > t[0] || t[0] > t[1] ||
	    t[1] > t[2] || t[2] > t[3] || t[3] > t[4] || t[4] > t[5] ||
	    t[5] > t[6] || t[6] > t[7] || t[7] > end) {
		split_slow(tr, start, end, each);
		return;
	}
	each[IOL_APP_SUBMIT] = t[IOS_SUBMIT] - start;
	each[IOL_KERNEL_SUBMIT] = t[IOS_QUEUE] - t[IOS_SUBMIT];
	each[IOL_BLOCK_QUEUE] = t[IOS_DISPATCH] - t[IOS_QUEUE];
	each[IOL_DRIVER_SUBMIT] = t[IOS_ISSUE] - t[IOS_DISPATCH];
	each[IOL_DEVICE] = t[IOS_DEVICE_DONE] - t[IOS_ISSUE];
	each[IOL_INTERRUPT] = t[IOS_HANDLE] - t[IOS_DEVICE_DONE];
	each[IOL_BLOCK_COMPLETE] = t[IOS_END] - t[IOS_HANDLE];
	each[IOL_KERNEL_COMPLETE] = t[IOS_COMPLETE] - t[IOS_END];
	each[IOL_APP_REAP] = end - t[IOS_COMPLETE];
}

void io_layers_count(struct io_layers *l, const sim_time each[IOL_NR])
{
	l->ios++;
	for (int i = 0; i < IOL_NR; i++)
		l->sum[i] += each[i];
}

void io_layers_add(struct io_layers *l, sim_time start,
		   const struct io_trace *tr, sim_time end)
{
	sim_time each[IOL_NR];

	io_trace_split(tr, start, end, each);
	io_layers_count(l, each);
}

void io_layers_merge(struct io_layers *dst, const struct io_layers *src)
{
	dst->ios += src->ios;
	for (int i = 0; i < IOL_NR; i++)
		dst->sum[i] += src->sum[i];
}

double io_layers_mean(const struct io_layers *l, enum io_layer layer)
{
	return l->ios ? (double)l->sum[layer] / (double)l->ios : 0;
}

const double io_layer_pct[IOL_PCT_NR] = {50.0, 99.0, 99.9};

const char *io_layer_name(enum io_layer l)
{
	return layer_info[l].name;
}

static sim_time total(const struct io_layers *l)
{
	sim_time t = 0;

	for (int i = 0; i < IOL_NR; i++)
		t += l->sum[i];
	return t;
}

/* The percentiles: in the text in us, as the means; in the JSON in ns,
 * keyed as fio keys its clat percentiles (printf "%f"). */
void io_layers_text(const struct io_layers *l,
		    const struct io_layer_tails *tails, unsigned ndirs,
		    const char *const *names, GString *out)
{
	for (unsigned d = 0; d < ndirs; d++) {
		if (!l[d].ios)
			continue;
		double n = (double)l[d].ios, all = (double)total(&l[d]);
		g_string_append_printf(out, "%s latency by layer, mean of %" G_GUINT64_FORMAT
				       " I/Os: %.3f us\n", names[d], l[d].ios,
				       all / n / 1e3);
		g_string_append_printf(out, "  %10s     %6s", "mean", "share");
		for (int p = 0; p < IOL_PCT_NR; p++) {
			char pct[16], label[20];
			g_ascii_formatd(pct, sizeof(pct), "%g", io_layer_pct[p]);
			g_snprintf(label, sizeof(label), "p%s", pct);
			g_string_append_printf(out, "  %8s", label);
		}
		g_string_append(out, "\n");
		for (int i = 0; i < IOL_NR; i++) {
			g_string_append_printf(out, "  %10.3f us  %5.1f%%",
					       io_layers_mean(&l[d], i) / 1e3,
					       all > 0 ? 100.0 * (double)l[d].sum[i] / all : 0);
			for (int p = 0; p < IOL_PCT_NR; p++)
				g_string_append_printf(out, "  %8.3f",
						       (double)tails[d].ns[i][p] / 1e3);
			g_string_append_printf(out, " us  %-16s %s\n",
					       layer_info[i].name, layer_info[i].what);
		}
	}
}

json_object *io_layers_json(const struct io_layers *l,
			    const struct io_layer_tails *tails, unsigned ndirs,
			    const char *const *names)
{
	json_object *o = json_object_new_object();

	for (unsigned d = 0; d < ndirs; d++) {
		if (!l[d].ios)
			continue;
		double n = (double)l[d].ios, all = (double)total(&l[d]);
		json_object *e = json_object_new_object(), *arr = json_object_new_array();
		json_object_object_add(e, "ios", json_object_new_int64((int64_t)l[d].ios));
		json_object_object_add(e, "lat_mean_ns",
				       json_object_new_double(round(all / n * 1e3) / 1e3));
		for (int i = 0; i < IOL_NR; i++) {
			json_object *x = json_object_new_object();
			json_object_object_add(x, "layer",
					       json_object_new_string(layer_info[i].name));
			json_object_object_add(x, "mean_ns", json_object_new_double(
					round(io_layers_mean(&l[d], i) * 1e3) / 1e3));
			json_object_object_add(x, "share", json_object_new_double(
					all > 0 ? round((double)l[d].sum[i] / all * 1e6) / 1e6 : 0));
			json_object *pct = json_object_new_object();
			for (int p = 0; p < IOL_PCT_NR; p++) {
				char key[32];
				g_ascii_formatd(key, sizeof(key), "%f", io_layer_pct[p]);
				json_object_object_add(pct, key, json_object_new_int64(
						(int64_t)tails[d].ns[i][p]));
			}
			json_object_object_add(x, "percentile_ns", pct);
			json_object_array_add(arr, x);
		}
		json_object_object_add(e, "layers", arr);
		json_object_object_add(o, names[d], e);
	}
	return o;
}
