/* Measures of a point's run, and their medians and spreads over repeats. */
#include <glib.h>
#include <stdlib.h>

#include "measure.h"

const char *cal_metric_name(enum cal_metric m)
{
	static const char *const names[CAL_METRIC_NR] = {
		[CAL_IOPS] = "iops", [CAL_LAT] = "lat_us", [CAL_P99] = "p99_us",
		[CAL_CPU] = "cpu_us", [CAL_USR] = "usr_us", [CAL_CTX] = "ctx",
	};
	return names[m];
}

double cal_measure_get(const struct cal_measure *m, enum cal_metric k)
{
	switch (k) {
	case CAL_IOPS: return m->iops;
	case CAL_LAT: return m->lat_us;
	case CAL_P99: return m->p99_us;
	case CAL_CPU: return m->cpu_us;
	case CAL_USR: return m->usr_us;
	case CAL_CTX: return m->ctx;
	case CAL_METRIC_NR: break;
	}
	g_assert_not_reached();
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median_of(double *v, unsigned n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void cal_measure_median(const struct cal_measure *ms, unsigned n,
			struct cal_measure *out)
{
	g_autofree double *v = g_new(double, n ? n : 1);
#define MED(field) do { \
		for (unsigned i = 0; i < n; i++) \
			v[i] = ms[i].field; \
		out->field = n ? median_of(v, n) : 0; \
	} while (0)
	MED(iops);
	MED(lat_us);
	MED(p99_us);
	MED(cpu_us);
	MED(usr_us);
	MED(ctx);
	MED(other_cpus);
	MED(steal_cpus);
#undef MED
}

double cal_measure_spread(const struct cal_measure *ms, unsigned n,
			  enum cal_metric k)
{
	g_autofree double *v = NULL;
	double lo, hi, med;

	if (n < 2)
		return 0;
	v = g_new(double, n);
	for (unsigned i = 0; i < n; i++)
		v[i] = cal_measure_get(&ms[i], k);
	med = median_of(v, n);
	lo = v[0];
	hi = v[n - 1];
	return med > 0 ? (hi - lo) / med : 0;
}

json_object *cal_measure_json(const struct cal_measure *m)
{
	json_object *o = json_object_new_object();

	for (int k = 0; k < CAL_METRIC_NR; k++)
		json_object_object_add(o, cal_metric_name(k),
				       json_object_new_double(cal_measure_get(m, k)));
	json_object_object_add(o, "other_cpus", json_object_new_double(m->other_cpus));
	json_object_object_add(o, "steal_cpus", json_object_new_double(m->steal_cpus));
	return o;
}
