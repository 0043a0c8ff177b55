/* The simulated CPU profile and utilisation of a run, in text and JSON. */
#include <math.h>
#include <string.h>

#include "report.h"

static json_object *jnum(double x)
{
	return json_object_new_double(round(x * 1e6) / 1e6);
}

static sim_time total_busy(const struct system *sys)
{
	const sim_time *ns = host_stage_ns(sys->host);
	sim_time t = 0;
	for (unsigned s = 0; s < stage_count(); s++)
		t += ns[s];
	return t;
}

/* Stages with time, most expensive first (ties by name, for a stable
 * order). */
static GArray *sorted_stages(const struct system *sys)
{
	const sim_time *ns = host_stage_ns(sys->host);
	GArray *ids = g_array_new(FALSE, FALSE, sizeof(stage_id));

	for (unsigned s = 0; s < stage_count(); s++) {
		if (!ns[s])
			continue;
		stage_id id = (stage_id)s;
		unsigned i = ids->len;
		g_array_append_val(ids, id);
		while (i > 0) {
			stage_id prev = g_array_index(ids, stage_id, i - 1);
			if (ns[prev] > ns[id] ||
			    (ns[prev] == ns[id] &&
			     g_strcmp0(stage_get(prev)->name, stage_get(id)->name) < 0))
				break;
			g_array_index(ids, stage_id, i) = prev;
			g_array_index(ids, stage_id, i - 1) = id;
			i--;
		}
	}
	return ids;
}

static sim_time elapsed(const struct system *sys)
{
	return sim_now(&sys->sim) - sys->stats_epoch;
}

json_object *report_run_json(const struct system *sys)
{
	json_object *o = json_object_new_object(), *prof = json_object_new_array();
	json_object *cpus = json_object_new_array();
	const sim_time *ns = host_stage_ns(sys->host);
	const uint64_t *cnt = host_stage_count(sys->host);
	sim_time busy = total_busy(sys), span = elapsed(sys);
	g_autoptr(GArray) ids = sorted_stages(sys);
	g_autoptr(GString) desc = g_string_new(NULL);

	system_describe(sys, desc);
	json_object_object_add(o, "system", json_object_new_string(desc->str));
	json_object_object_add(o, "simulated_ns", json_object_new_int64((int64_t)span));
	json_object_object_add(o, "events", json_object_new_int64(
				       (int64_t)sys->sim.events_run));
	for (unsigned i = 0; i < ids->len; i++) {
		stage_id s = g_array_index(ids, stage_id, i);
		const struct stage_info *si = stage_get(s);
		json_object *e = json_object_new_object();
		json_object_object_add(e, "stage", json_object_new_string(si->name));
		if (si->kernel_fn)
			json_object_object_add(e, "stands_for",
					       json_object_new_string(si->kernel_fn));
		json_object_object_add(e, "ns", json_object_new_int64((int64_t)ns[s]));
		json_object_object_add(e, "calls", json_object_new_int64((int64_t)cnt[s]));
		json_object_object_add(e, "share", jnum(busy ? (double)ns[s] / busy : 0));
		json_object_array_add(prof, e);
	}
	json_object_object_add(o, "cpu_profile", prof);
	for (unsigned c = 0; c < host_ncpus(sys->host); c++) {
		struct cpu_usage u;
		cpu_usage(host_cpu(sys->host, c), &u);
		json_object *e = json_object_new_object();
		json_object_object_add(e, "cpu", json_object_new_int((int)c));
		for (int k = 0; k < CPU_CLASS_NR; k++)
			json_object_object_add(e, cpu_class_name(k),
					       jnum(span ? (double)u.class_ns[k] / span : 0));
		json_object_object_add(e, "ctx_switches",
				       json_object_new_int64((int64_t)u.ctx_switches));
		json_object_object_add(e, "irqs", json_object_new_int64((int64_t)u.irqs));
		json_object_array_add(cpus, e);
	}
	json_object_object_add(o, "cpus", cpus);
	json_object *devs = json_object_new_object();
	for (unsigned i = 0; i < sys->devices->len; i++) {
		const struct system_device *d = sys->devices->pdata[i];
		if (d->nvme)
			json_object_object_add(devs, d->name,
					       nvme_dev_counters_json(nvme_drv_device(d->nvme)));
	}
	json_object_object_add(o, "devices", devs);
	return o;
}

void report_run_text(const struct system *sys, GString *out)
{
	const sim_time *ns = host_stage_ns(sys->host);
	const uint64_t *cnt = host_stage_count(sys->host);
	sim_time busy = total_busy(sys), span = elapsed(sys);
	g_autoptr(GArray) ids = sorted_stages(sys);

	system_describe(sys, out);
	g_string_append(out, "simulated CPU profile, share of busy CPU time by "
			     "stage:\n");
	for (unsigned i = 0; i < ids->len; i++) {
		stage_id s = g_array_index(ids, stage_id, i);
		const struct stage_info *si = stage_get(s);
		g_string_append_printf(out, "  %6.2f%%  %12.3f ms  %10" G_GUINT64_FORMAT
				       "  %s", busy ? 100.0 * ns[s] / busy : 0,
				       ns[s] / 1e6, cnt[s], si->name);
		if (si->kernel_fn)
			g_string_append_printf(out, " (%s)", si->kernel_fn);
		g_string_append_c(out, '\n');
	}
	for (unsigned c = 0; c < host_ncpus(sys->host); c++) {
		struct cpu_usage u;
		sim_time b = 0;
		cpu_usage(host_cpu(sys->host, c), &u);
		for (int k = 0; k < CPU_CLASS_NR; k++)
			b += u.class_ns[k];
		if (!b)
			continue;
		g_string_append_printf(out, "cpu%u:", c);
		for (int k = 0; k < CPU_CLASS_NR; k++)
			g_string_append_printf(out, " %s=%.1f%%", cpu_class_name(k),
					       span ? 100.0 * u.class_ns[k] / span : 0);
		g_string_append_printf(out, " idle=%.1f%% ctx=%" G_GUINT64_FORMAT
				       " irqs=%" G_GUINT64_FORMAT "\n",
				       /* spinning to the last event can
					* overrun the span by a hair */
				       span && b < span ? 100.0 - 100.0 * b / span : 0,
				       u.ctx_switches, u.irqs);
	}
}
