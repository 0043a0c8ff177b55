/* Building a simulated system from profiles and settings. */
#include <string.h>

#include "fs/buffered.h"
#include "fs/iomap_dio.h"
#include "fs/pagecache.h"
#include "fs/writeback.h"
#include "costs.h"
#include "profile.h"
#include "system.h"
#include "engine/util.h"

void system_config_init(struct system_config *c)
{
	*c = (struct system_config){0};
	c->devices = g_ptr_array_new_with_free_func(g_free);
	c->mounts = g_ptr_array_new_with_free_func(g_free);
	c->files = g_ptr_array_new_with_free_func(g_free);
	c->sets = g_ptr_array_new_with_free_func(g_free);
	c->kernel = g_ptr_array_new_with_free_func(g_free);
	c->seed = 1;
}

void system_config_clear(struct system_config *c)
{
	g_free(c->host);
	g_ptr_array_free(c->devices, TRUE);
	g_ptr_array_free(c->mounts, TRUE);
	g_ptr_array_free(c->files, TRUE);
	g_ptr_array_free(c->sets, TRUE);
	g_ptr_array_free(c->kernel, TRUE);
	g_free(c->power_loss);
	g_free(c->timeline);
	g_free(c->timeline_window);
	*c = (struct system_config){0};
}

static void copy_strings(GPtrArray *dst, const GPtrArray *src)
{
	for (unsigned i = 0; i < src->len; i++)
		g_ptr_array_add(dst, g_strdup(src->pdata[i]));
}

void system_config_copy(struct system_config *dst, const struct system_config *src)
{
	g_free(dst->host);
	dst->host = g_strdup(src->host);
	g_free(dst->power_loss);
	dst->power_loss = g_strdup(src->power_loss);
	g_free(dst->timeline);
	dst->timeline = g_strdup(src->timeline);
	g_free(dst->timeline_window);
	dst->timeline_window = g_strdup(src->timeline_window);
	dst->seed = src->seed;
	copy_strings(dst->devices, src->devices);
	copy_strings(dst->mounts, src->mounts);
	copy_strings(dst->files, src->files);
	copy_strings(dst->sets, src->sets);
	copy_strings(dst->kernel, src->kernel);
}

static gboolean add_to(GPtrArray *a, const char *value)
{
	g_ptr_array_add(a, g_strdup(value));
	return TRUE;
}

static gboolean opt_device(const char *name, const char *value, gpointer data,
			   GError **err)
{
	return add_to(((struct system_config *)data)->devices, value);
}

static gboolean opt_mount(const char *name, const char *value, gpointer data,
			  GError **err)
{
	return add_to(((struct system_config *)data)->mounts, value);
}

static gboolean opt_file(const char *name, const char *value, gpointer data,
			 GError **err)
{
	return add_to(((struct system_config *)data)->files, value);
}

static gboolean opt_set(const char *name, const char *value, gpointer data,
			GError **err)
{
	return add_to(((struct system_config *)data)->sets, value);
}

static gboolean opt_kernel(const char *name, const char *value, gpointer data,
			   GError **err)
{
	return add_to(((struct system_config *)data)->kernel, value);
}

static gboolean opt_seed(const char *name, const char *value, gpointer data,
			 GError **err)
{
	char *end;
	guint64 v = g_ascii_strtoull(value, &end, 0);
	if (!*value || *end) {
		storsim_input_error(err, "command line", 0, "seed",
				    "'%s' is not a number", value);
		return FALSE;
	}
	((struct system_config *)data)->seed = v;
	return TRUE;
}

static void add_options(struct system_config *c, GOptionContext *ctx,
			const char *timeline_help, const char *timeline_arg)
{
	const GOptionEntry entries[] = {
		{"host", 0, 0, G_OPTION_ARG_STRING, &c->host,
		 "Host profile (name or path)", "PROFILE"},
		{"device", 0, 0, G_OPTION_ARG_CALLBACK, opt_device,
		 "Add a device, e.g. nullb0=null_blk, loop0=loop-tmpfs or "
		 "nvme0n1=optane-p5800x",
		 "NAME=PROFILE"},
		{"mount", 0, 0, G_OPTION_ARG_CALLBACK, opt_mount,
		 "Mount a file system, e.g. /data=xfs:nvme0n1 (default: "
		 "nvme0n1=optane-p5800x with xfs at /)", "PATH=FS:DEVICE"},
		{"file", 0, 0, G_OPTION_ARG_CALLBACK, opt_file,
		 "A file that exists before the run, e.g. /data/f=10g:written",
		 "PATH=SIZE[:written|unwritten|sparse]"},
		{"set", 0, 0, G_OPTION_ARG_CALLBACK, opt_set,
		 "Override one parameter of a model or a device", "MODEL.PARAM=VALUE"},
		{"kernel", 0, 0, G_OPTION_ARG_CALLBACK, opt_kernel,
		 "Set a kernel feature (see 'storsim params kernel')",
		 "FEATURE=VALUE"},
		{"power-loss", 0, 0, G_OPTION_ARG_STRING, &c->power_loss,
		 "Cut the power of an NVMe device at a time (at:5ms) or after "
		 "N completed commands (after:1000), then report which "
		 "acknowledged writes survived", "at:TIME|after:N[@DEVICE]"},
		{"seed", 0, 0, G_OPTION_ARG_CALLBACK, opt_seed,
		 "Seed of every random stream (default 1)", "N"},
		{"timeline", 0, 0, G_OPTION_ARG_FILENAME, &c->timeline,
		 timeline_help, timeline_arg},
		{"timeline-window", 0, 0, G_OPTION_ARG_STRING, &c->timeline_window,
		 "The simulated time the timeline covers (default 0:10ms)",
		 "FROM:TO"},
		{NULL},
	};
	GOptionGroup *g = g_option_group_new("system", "Simulated system:",
					     "Show the system options", c, NULL);
	g_option_group_add_entries(g, entries);
	g_option_context_add_group(ctx, g);
}

void system_config_add_options(struct system_config *c, GOptionContext *ctx)
{
	add_options(c, ctx, "Write what each CPU ran as Trace Event JSON (Perfetto)",
		    "FILE");
}

void system_config_add_point_options(struct system_config *c, GOptionContext *ctx)
{
	add_options(c, ctx, "Write each point's timeline (Trace Event JSON, Perfetto) "
		    "into DIR, named as its result document", "DIR");
}

char *system_setting_problem(const struct system_config *c, const char *entry,
			     bool kernel)
{
	const char *eq = strchr(entry, '=');
	g_autofree char *name = eq ? g_strndup(entry, (gsize)(eq - entry)) : NULL;

	if (!name || !eq[1])
		return g_strdup_printf("'%s' is not %s=VALUE", entry,
				       kernel ? "FEATURE" : "MODEL.PARAM");
	if (kernel)
		return params_find(kernel_param_table, name) ? NULL :
		       g_strdup_printf("'%s': no kernel feature '%s' (see storsim "
				       "params kernel)", entry, name);
	const char *dot = strchr(name, '.');
	if (!dot)
		return g_strdup_printf("'%s' is not MODEL.PARAM=VALUE", entry);
	g_autofree char *model = g_strndup(name, (gsize)(dot - name));
	const struct model_info *m = model_find(model);
	if (m && !params_find(m->params, dot + 1))
		return g_strdup_printf("'%s': model %s has no parameter '%s' (see "
				       "storsim params %s)", entry, model, dot + 1,
				       model);
	if (m)
		return NULL;
	/* Device parameters ("nvme0n1.PARAM") are left to the device's
	 * model, which its profile chooses. */
	for (unsigned i = 0; i <= c->devices->len; i++) {
		const char *d = i < c->devices->len ? c->devices->pdata[i] :
				i ? "" : SYSTEM_DEFAULT_DEVICE;
		if (g_str_has_prefix(d, model) && d[strlen(model)] == '=')
			return NULL;
	}
	return g_strdup_printf("'%s': '%s' is neither a model nor a device of the "
			       "system", entry, model);
}

static bool parse_time_ns(const char *text, sim_time *out)
{
	char *end;
	double v = g_ascii_strtod(text, &end);
	double mult;

	if (end == text || v < 0)
		return false;
	if (strcmp(end, "ns") == 0)
		mult = 1;
	else if (strcmp(end, "us") == 0)
		mult = 1e3;
	else if (strcmp(end, "ms") == 0)
		mult = 1e6;
	else if (strcmp(end, "s") == 0 || *end == '\0')
		mult = 1e9;
	else
		return false;
	*out = (sim_time)(v * mult);
	return true;
}

/* A CPU's timeline holds at most this many slices (about 100 MB of JSON). */
#define TIMELINE_MAX_SLICES 1000000

static bool start_timeline(struct system *s, const struct system_config *cfg,
			   GError **err)
{
	const char *w = cfg->timeline_window ? cfg->timeline_window : "0:10ms";
	g_auto(GStrv) parts = g_strsplit(w, ":", 2);
	sim_time from, to;

	if (!parts[0] || !parts[1] || !parse_time_ns(parts[0], &from) ||
	    !parse_time_ns(parts[1], &to) || to <= from) {
		storsim_input_error(err, "command line", 0, "--timeline-window",
				    "'%s' is not FROM:TO, two times (e.g. 1s:1.01s) "
				    "with FROM before TO", w);
		return false;
	}
	host_timeline_record(s->host, from, to, TIMELINE_MAX_SLICES);
	/* An I/O is a dozen events: a quarter as many. */
	s->iotl = io_timeline_new(from, to, TIMELINE_MAX_SLICES / 4);
	s->timeline_file = g_strdup(cfg->timeline);
	return true;
}


struct scale_costs {
	struct system *s;
	double k;
};

static void scale_cost(const char *model, const char *param, void *d)
{
	struct scale_costs *c = d;
	const struct model_info *m = model_find(model);
	const struct param_def *row = params_find(m->params, param);
	char *f = (char *)model_values(m, &c->s->sp, &c->s->wl) + row->offset;

	if (row->type == PARAM_TIME)
		*(uint64_t *)f = (uint64_t)((double)*(uint64_t *)f * c->k + 0.5);
	else if (row->type == PARAM_DOUBLE)
		*(double *)f *= c->k;
}

/* The profile name applied to s->sp and s->wl, after the one it inherits with its
 * costs scaled; depth counts the inheritance so far. */
static bool apply_host_profile_at(struct system *s, const char *name, int depth,
				  GError **err)
{
	auto_profile *p = profile_load(name, "host", err);
	if (!p)
		return false;
	if (depth == 0)
		s->host_profile = g_strdup(p->name);
	if (p->parent) {
		if (depth == 4) {
			storsim_input_error(err, p->path,
					    storsim_json_key_line(p->text, "inherits"),
					    "inherits", "more than 4 profiles deep");
			return false;
		}
		if (!apply_host_profile_at(s, p->parent, depth + 1, err)) {
			g_prefix_error(err, "%s inherits %s: ", p->path, p->parent);
			return false;
		}
		struct scale_costs c = {.s = s, .k = p->cost_scale};
		for (unsigned j = 0; j < cost_ngroups; j++)
			if (!cost_groups[j].fs)
				cost_group_foreach(&cost_groups[j], scale_cost, &c);
	}
	if (!json_object_is_type(p->params, json_type_object)) {
		storsim_input_error(err, p->path, storsim_json_key_line(p->text, "params"),
				    "params", "must be an object of models");
		return false;
	}
	json_object_object_foreach(p->params, model, obj) {
		const struct model_info *m = model_find(model);
		if (!m || m->kind != MODEL_HOST) {
			storsim_input_error(err, p->path,
					    storsim_json_key_line(p->text, model), model,
					    "not a model a host profile sets (see "
					    "'storsim params')");
			return false;
		}
		if (!params_apply_json(m->params, model_values(m, &s->sp, &s->wl), obj,
				       p->path, p->text, err))
			return false;
	}
	return true;
}

static bool apply_host_profile(struct system *s, const char *name, GError **err)
{
	return apply_host_profile_at(s, name, 0, err);
}

static const struct model_info *device_model_for(const char *name)
{
	if (g_str_has_prefix(name, "nullb"))
		return model_find("null_blk");
	if (g_str_has_prefix(name, "nvme"))
		return model_find("nvme");
	if (g_str_has_prefix(name, "loop"))
		return model_find("loop");
	return NULL;
}

static bool add_device(struct system *s, const char *spec, GError **err)
{
	const char *eq = strchr(spec, '=');
	if (!eq || eq == spec || !eq[1]) {
		storsim_input_error(err, "command line", 0, "device",
				    "'%s': expected NAME=PROFILE", spec);
		return false;
	}
	g_autofree char *name = g_strndup(spec, eq - spec);
	const struct model_info *m = device_model_for(name);
	if (!m) {
		storsim_input_error(err, "command line", 0, "device",
				    "'%s': device names start with nvme (NVMe), "
				    "nullb (null_blk) or loop (loop)",
				    name);
		return false;
	}
	auto_profile *p = profile_load(eq + 1, "device", err);
	if (!p)
		return false;
	if (!p->model || strcmp(p->model, m->name) != 0) {
		storsim_input_error(err, p->path, storsim_json_key_line(p->text, "model"),
				    "model", "is \"%s\"; device %s needs a %s profile",
				    p->model ? p->model : "", name, m->name);
		return false;
	}
	struct system_device *d = g_new0(struct system_device, 1);
	d->name = g_steal_pointer(&name);
	d->profile = g_strdup(p->name);
	d->model = m;
	d->params = g_malloc0(m->size);
	g_ptr_array_add(s->devices, d);
	params_set_defaults(m->params, d->params);
	return params_apply_json(m->params, d->params, p->params, p->path, p->text,
				 err);
}

static bool add_mount(struct system *s, const char *spec, GError **err)
{
	const char *eq = strchr(spec, '=');
	const char *colon = eq ? strchr(eq, ':') : NULL;

	if (!eq || !colon || eq == spec || spec[0] != '/' || colon == eq + 1 ||
	    !colon[1]) {
		storsim_input_error(err, "command line", 0, "mount",
				    "'%s': expected /PATH=FSPROFILE:DEVICE", spec);
		return false;
	}
	g_autofree char *fsname = g_strndup(eq + 1, colon - eq - 1);
	struct system_device *d = NULL;
	for (unsigned i = 0; i < s->devices->len; i++) {
		struct system_device *x = s->devices->pdata[i];
		if (strcmp(x->name, colon + 1) == 0)
			d = x;
	}
	if (!d) {
		storsim_input_error(err, "command line", 0, "mount",
				    "'%s': no device %s (add it with --device)", spec,
				    colon + 1);
		return false;
	}
	auto_profile *p = profile_load(fsname, "fs", err);
	if (!p)
		return false;
	struct system_mount *m = g_new0(struct system_mount, 1);
	m->path = g_strndup(spec, eq - spec);
	if (strlen(m->path) > 1 && g_str_has_suffix(m->path, "/"))
		m->path[strlen(m->path) - 1] = '\0';
	m->profile = g_strdup(p->name);
	m->dev = d;
	g_ptr_array_add(s->mounts, m);
	params_set_defaults(fs_param_table, &m->params);
	return params_apply_json(fs_param_table, &m->params, p->params, p->path,
				 p->text, err);
}

/* The mount a path lies under (the longest matching mount point). */
static struct system_mount *mount_for(struct system *s, const char *path,
				      const char **rel)
{
	struct system_mount *best = NULL;
	size_t best_len = 0;

	for (unsigned i = 0; i < s->mounts->len; i++) {
		struct system_mount *m = s->mounts->pdata[i];
		size_t n = strlen(m->path);
		bool under = strcmp(m->path, "/") == 0 ? path[0] == '/' :
			     strncmp(path, m->path, n) == 0 &&
			     (path[n] == '/' || path[n] == '\0');
		if (under && n >= best_len) {
			best = m;
			best_len = n;
		}
	}
	if (best && rel)
		*rel = strcmp(best->path, "/") == 0 ? path : path + best_len;
	return best;
}

static bool parse_size(const char *text, uint64_t *out)
{
	char *end;
	double v = g_ascii_strtod(text, &end);
	uint64_t mult = 1;

	if (end == text || v < 0)
		return false;
	switch (g_ascii_tolower(*end)) {
	case 'k': mult = 1ull << 10; end++; break;
	case 'm': mult = 1ull << 20; end++; break;
	case 'g': mult = 1ull << 30; end++; break;
	case 't': mult = 1ull << 40; end++; break;
	default: break;
	}
	if (*end)
		return false;
	*out = (uint64_t)(v * mult);
	return true;
}

static bool add_file(struct system *s, const char *spec, GError **err)
{
	const char *eq = strchr(spec, '=');
	g_autofree char *path = eq ? g_strndup(spec, eq - spec) : NULL;
	g_auto(GStrv) parts = eq ? g_strsplit(eq + 1, ":", 2) : NULL;
	enum block_state st = BLOCK_WRITTEN;
	uint64_t size;
	const char *rel;

	if (!eq || !parts[0] || !parse_size(parts[0], &size) || size == 0) {
		storsim_input_error(err, "command line", 0, "file",
				    "'%s': expected PATH=SIZE[:written|unwritten|"
				    "sparse], e.g. /data/f=10g", spec);
		return false;
	}
	if (parts[1]) {
		if (strcmp(parts[1], "unwritten") == 0)
			st = BLOCK_UNWRITTEN;
		else if (strcmp(parts[1], "sparse") == 0)
			st = BLOCK_HOLE;
		else if (strcmp(parts[1], "written") != 0) {
			storsim_input_error(err, "command line", 0, "file",
					    "'%s': state must be written, unwritten "
					    "or sparse", parts[1]);
			return false;
		}
	}
	struct system_mount *m = mount_for(s, path, &rel);
	if (!m) {
		storsim_input_error(err, "command line", 0, "file",
				    "'%s': no file system is mounted there", path);
		return false;
	}
	if (!fs_create(m->fs, rel, size, st)) {
		storsim_input_error(err, "command line", 0, "file",
				    "'%s': does not fit on %s", path, m->dev->name);
		return false;
	}
	return true;
}

static struct system_device *find_device(struct system *s, const char *name)
{
	for (unsigned i = 0; i < s->devices->len; i++) {
		struct system_device *d = s->devices->pdata[i];
		if (strcmp(d->name, name) == 0)
			return d;
	}
	return NULL;
}

static bool apply_set(struct system *s, const char *spec, GError **err)
{
	const char *dot = strchr(spec, '.');
	if (!dot) {
		storsim_input_error(err, "command line", 0, "set",
				    "'%s': expected MODEL.PARAM=VALUE", spec);
		return false;
	}
	g_autofree char *target = g_strndup(spec, dot - spec);
	struct system_device *d = find_device(s, target);
	const struct model_info *m = model_find(target);

	if (d)
		return params_apply_override(d->model->params, d->params, dot + 1,
					     "set", spec, err);
	if (m && m->kind == MODEL_HOST)
		return params_apply_override(m->params, model_values(m, &s->sp, &s->wl),
					     dot + 1, "set", spec, err);
	if (m && m->kind == MODEL_KERNEL)
		return params_apply_override(m->params, &s->kf, dot + 1, "set",
					     spec, err);
	storsim_input_error(err, "command line", 0, "set",
			    "'%s' is neither a model nor a device", target);
	return false;
}

/* --power-loss: pick the device, track durability on it, and either let
 * the device count commands or remember the time. */
static bool setup_power_loss(struct system *s, const char *spec, GError **err)
{
	g_autofree char *when = g_strdup(spec);
	char *at = strchr(when, '@');
	struct system_device *d = NULL;

	if (at)
		*at++ = '\0';
	for (unsigned i = 0; i < s->devices->len && !d; i++) {
		struct system_device *x = s->devices->pdata[i];
		if (strcmp(x->model->name, "nvme") == 0 &&
		    (!at || strcmp(x->name, at) == 0))
			d = x;
	}
	if (!d) {
		storsim_input_error(err, "command line", 0, "power-loss",
				    "'%s': no NVMe device %s", spec, at ? at : "");
		return false;
	}
	struct nvme_dev_params *np = d->params;
	np->track_durability = true;
	s->power_loss_dev = d;
	uint64_t n;
	if (g_str_has_prefix(when, "after:")) {
		char *end;
		n = g_ascii_strtoull(when + 6, &end, 10);
		if (!when[6] || *end || n == 0) {
			storsim_input_error(err, "command line", 0, "power-loss",
					    "'%s': after: needs a count of commands", spec);
			return false;
		}
		np->power_loss_after_commands = n;
		return true;
	}
	if (!g_str_has_prefix(when, "at:") || !parse_time_ns(when + 3,
							    &s->power_loss_at) ||
	    s->power_loss_at == 0) {
		storsim_input_error(err, "command line", 0, "power-loss",
				    "'%s': expected at:TIME (e.g. at:5ms) or after:N",
				    spec);
		return false;
	}
	return true;
}

static void power_loss_event(struct sim_component *c, unsigned type, void *ptr,
			     uint64_t arg)
{
	struct system *s = ptr;
	nvme_dev_power_loss(nvme_drv_device(s->power_loss_dev->nvme));
}

static const struct sim_component_ops power_ops = {
	.name = "power",
	.handle = power_loss_event,
};

void system_arm_power_loss(struct system *s)
{
	if (s->power_loss_at)
		sim_after(&s->sim, s->power_loss_at, &s->comp, 0, s, 0);
}

bool system_power_lost(const struct system *s)
{
	return s->power_loss_dev && s->power_loss_dev->nvme &&
	       nvme_drv_power_lost(s->power_loss_dev->nvme);
}

void system_durability_report(const struct system *s, GString *text,
			      json_object *json, uint64_t *violations)
{
	*violations = 0;
	if (!system_power_lost(s))
		return;
	struct nvme_dev *d = nvme_drv_device(s->power_loss_dev->nvme);
	const struct nvme_durability_summary *sum = nvme_dev_durability_summary(d);
	g_autofree char *t = nvme_dev_durability_report_text(d);
	*violations = sum->violations;
	g_string_append_printf(text, "power lost on %s at %" G_GUINT64_FORMAT " ns\n%s",
			       s->power_loss_dev->name, sum->power_lost_at, t);
	if (json)
		json_object_object_add(json, "power_loss",
				       nvme_dev_durability_report_json(d));
}

static uint64_t folio_bytes(const struct system *s)
{
	return s->sp.pagecache.folio_kb ? (uint64_t)s->sp.pagecache.folio_kb * 1024 :
					  s->sp.cpu.page_size;
}

/* Whether a folio holds whole blocks of block_size bytes of what (a mount
 * point or a device), no more than a folio's dirty mask can tell apart;
 * makes the page cache on the first call. */
static bool folio_holds(struct system *s, uint32_t block_size, const char *what,
			GError **err)
{
	uint64_t page = s->sp.cpu.page_size, folio = folio_bytes(s);

	if (folio % page) {
		storsim_input_error(err, NULL, 0, "pagecache.folio_kb",
				    "%" G_GUINT64_FORMAT " KiB folios are not a "
				    "whole number of %" G_GUINT64_FORMAT "-byte "
				    "pages", folio / 1024, page);
		return false;
	}
	if (folio / block_size > FOLIO_BLOCKS_MAX) {
		storsim_input_error(err, NULL, 0, "pagecache.folio_kb",
				    "a %" G_GUINT64_FORMAT "-byte folio holds "
				    "more than %d blocks of %s's %u bytes",
				    folio, FOLIO_BLOCKS_MAX, what, block_size);
		return false;
	}
	if (!s->pc) {
		s->pc = pagecache_new(s->host, &s->sp.pagecache, (uint32_t)folio);
		s->wb = writeback_new(s->host, s->pc);
	}
	return true;
}

static bool build_devices(struct system *s, GError **err)
{
	for (unsigned i = 0; i < s->devices->len; i++) {
		struct system_device *d = s->devices->pdata[i];
		if (strcmp(d->model->name, "null_blk") == 0) {
			d->nullb = null_blk_new(s->host, d->name, d->params,
						&s->sp.null_blk_cpu, &s->sp.blk_mq,
						&s->kf);
			d->q = null_blk_queue(d->nullb);
		} else if (strcmp(d->model->name, "loop") == 0) {
			d->loop = loop_new(s->host, d->name, d->params,
					   &s->sp.loop_cpu, &s->sp.workqueue,
					   &s->sp.shmem, &s->sp.pagecache,
					   &s->sp.blk_mq, &s->kf);
			d->q = loop_queue(d->loop);
		} else {
			if (!nvme_dev_params_check(d->params, err))
				return false;
			d->nvme = nvme_drv_new(s->host, d->name, d->params,
					       &s->sp.nvme_drv, &s->sp.blk_mq, &s->kf, err);
			if (!d->nvme)
				return false;
			d->q = nvme_drv_queue(d->nvme);
			d->ng = nvme_ns_chr_new(d->q, &s->sp.nvme_ioctl);
		}
		d->bdev = blkdev_new(d->q, &s->sp.blkdev, &s->kf);
	}
	for (unsigned i = 0; i < s->mounts->len; i++) {
		struct system_mount *m = s->mounts->pdata[i];
		if (!folio_holds(s, m->params.block_size, m->path, err))
			return false;
	}
	for (unsigned i = 0; i < s->mounts->len; i++) {
		struct system_mount *m = s->mounts->pdata[i];
		m->fs = fs_new(s->host, m->path, m->dev->q, &m->params, &s->kf,
			       &s->sp.workqueue, s->pc);
	}
	return true;
}

struct system *system_new(const struct system_config *cfg, GError **err)
{
	struct system *s = g_new0(struct system, 1);

	sim_init(&s->sim, cfg->seed);
	sim_component_init(&s->sim, &s->comp, &power_ops, "power");
	s->devices = g_ptr_array_new();
	s->mounts = g_ptr_array_new();
	s->files = g_ptr_array_new_with_free_func(g_free);
	for (const struct model_info *m = model_registry; m->name; m++)
		if (m->kind == MODEL_HOST)
			params_set_defaults(m->params, model_values(m, &s->sp, &s->wl));
	params_set_defaults(kernel_param_table, &s->kf);

	if (!apply_host_profile(s, cfg->host ? cfg->host : "default", err))
		goto fail;
	for (unsigned i = 0; i < cfg->devices->len; i++)
		if (!add_device(s, cfg->devices->pdata[i], err))
			goto fail;
	if (cfg->devices->len == 0 && !add_device(s, SYSTEM_DEFAULT_DEVICE, err))
		goto fail;
	for (unsigned i = 0; i < cfg->mounts->len; i++)
		if (!add_mount(s, cfg->mounts->pdata[i], err))
			goto fail;
	if (cfg->devices->len == 0 && cfg->mounts->len == 0 &&
	    !add_mount(s, SYSTEM_DEFAULT_MOUNT, err))
		goto fail;
	if (cfg->power_loss && !setup_power_loss(s, cfg->power_loss, err))
		goto fail;
	for (unsigned i = 0; i < cfg->kernel->len; i++)
		if (!params_apply_override(kernel_param_table, &s->kf,
					   cfg->kernel->pdata[i], "kernel",
					   cfg->kernel->pdata[i], err))
			goto fail;
	for (unsigned i = 0; i < cfg->sets->len; i++)
		if (!apply_set(s, cfg->sets->pdata[i], err))
			goto fail;

	if (!host_params_check(&s->sp.cpu, err))
		goto fail;
	s->host = host_new(&s->sim, &s->sp.cpu);
	if (cfg->timeline && !start_timeline(s, cfg, err))
		goto fail;
	if (!build_devices(s, err))
		goto fail;
	for (unsigned i = 0; i < cfg->files->len; i++)
		if (!add_file(s, cfg->files->pdata[i], err))
			goto fail;
	return s;
fail:
	system_free(s);
	return NULL;
}

void system_free(struct system *s)
{
	if (!s)
		return;
	for (unsigned i = 0; i < s->mounts->len; i++) {
		struct system_mount *m = s->mounts->pdata[i];
		fs_free(m->fs);
		g_free(m->path);
		g_free(m->profile);
		g_free(m);
	}
	g_ptr_array_free(s->mounts, TRUE);
	for (unsigned i = 0; i < s->devices->len; i++)
		fs_free(((struct system_device *)s->devices->pdata[i])->raw_fs);
	writeback_free(s->wb);
	pagecache_free(s->pc);
	for (unsigned i = 0; i < s->devices->len; i++) {
		struct system_device *d = s->devices->pdata[i];
		blkdev_free(d->bdev);
		nvme_ns_chr_free(d->ng);
		null_blk_free(d->nullb);
		loop_free(d->loop);
		nvme_drv_free(d->nvme);
		if (d->model)
			params_clear(d->model->params, d->params);
		g_free(d->params);
		g_free(d->profile);
		g_free(d->name);
		g_free(d);
	}
	g_ptr_array_free(s->devices, TRUE);
	g_ptr_array_free(s->files, TRUE);
	host_free(s->host);
	for (const struct model_info *m = model_registry; m->name; m++)
		if (m->kind == MODEL_HOST)
			params_clear(m->params, model_values(m, &s->sp, &s->wl));
	sim_destroy(&s->sim);
	g_free(s->host_profile);
	g_free(s->timeline_file);
	io_timeline_free(s->iotl);
	g_free(s);
}

/* /dev/ngXnY: the generic character device of NVMe namespace nvmeXnY. */
static struct sfile *open_generic(struct system *s,
				  const struct env_open_args *a, GError **err)
{
	g_autofree char *name = g_strconcat("nvme", a->path + 7, NULL);
	struct system_device *d = find_device(s, name);

	if (!d || !d->ng) {
		storsim_input_error(err, NULL, 0, "filename",
				    "'%s': no such NVMe namespace in the simulated "
				    "system (its block device would be /dev/%s; add "
				    "it with --device %s=PROFILE)", a->path, name, name);
		return NULL;
	}
	struct sfile *f = g_new0(struct sfile, 1);
	nvme_ns_chr_open(d->ng, f, a->path, a->writable);
	g_ptr_array_add(s->files, f);
	return f;
}

struct sfile *system_open_args(struct system *s,
			       const struct env_open_args *a, GError **err)
{
	const char *path = a->path, *rel;

	if (g_str_has_prefix(path, "/dev/ng"))
		return open_generic(s, a, err);
	if (g_str_has_prefix(path, "/dev/")) {
		struct system_device *d = find_device(s, path + 5);
		if (!d) {
			storsim_input_error(err, NULL, 0, "filename",
					    "'%s': no such device in the simulated "
					    "system (add one with --device %s=PROFILE)",
					    path, path + 5);
			return NULL;
		}
		struct sfile *f;
		if (a->direct) {
			f = g_new0(struct sfile, 1);
			blkdev_open(d->bdev, f, path);
			g_ptr_array_add(s->files, f);
			return f;
		}
		if (!d->raw_fs) {
			struct fs_params fp;
			blkdev_fs_params(d->bdev, s->sp.cpu.page_size, &fp);
			if (!folio_holds(s, fp.block_size, path, err))
				return NULL;
			d->raw_fs = fs_new(s->host, path, d->q, &fp, &s->kf,
					   &s->sp.workqueue, s->pc);
		}
		f = g_new0(struct sfile, 1);
		buffered_open(fs_bdev_inode(d->raw_fs), f);
		blkdev_set_cache(d->bdev, fs_bdev_inode(d->raw_fs));
		f->path = path;
		f->bdev = d->bdev;
		g_ptr_array_add(s->files, f);
		return f;
	}
	struct system_mount *m = mount_for(s, path, &rel);
	if (!m) {
		storsim_input_error(err, NULL, 0, "filename",
				    "'%s': no file system is mounted there in the "
				    "simulated system (see --mount)", path);
		return NULL;
	}
	struct inode *ino = fs_lookup(m->fs, rel);
	if (!ino && a->create_size) {
		enum block_state st = a->create_written ? BLOCK_WRITTEN :
				      a->create_fallocate ? BLOCK_UNWRITTEN : BLOCK_HOLE;
		ino = fs_create(m->fs, rel, a->create_size, st);
		if (!ino) {
			storsim_input_error(err, NULL, 0, "size",
					    "'%s': %" G_GUINT64_FORMAT " bytes do not fit "
					    "on %s", path, a->create_size, m->dev->name);
			return NULL;
		}
	}
	if (!ino) {
		storsim_input_error(err, NULL, 0, "filename",
				    "'%s' does not exist and the job gives no size "
				    "to create it with", path);
		return NULL;
	}
	struct sfile *f = g_new0(struct sfile, 1);
	if (a->direct) {
		iomap_dio_open(ino, f);
	} else {
		buffered_open(ino, f);
	}
	g_ptr_array_add(s->files, f);
	return f;
}

uint64_t system_file_size(struct system *s, const char *path)
{
	const char *rel;
	struct system_mount *m = mount_for(s, path, &rel);
	struct inode *ino = m ? fs_lookup(m->fs, rel) : NULL;

	return ino ? ino->size : 0;
}

void system_disk_stats(const struct system *s, GArray *disks)
{
	sim_time now = sim_now(&s->sim);

	for (unsigned i = 0; i < s->devices->len; i++) {
		struct system_device *d = s->devices->pdata[i];
		struct blk_disk_stats st;
		struct env_disk_stats od = {.name = d->name};
		blk_queue_disk_stats(d->q, &st);
		/* fio lists the disks its jobs used, whatever for. */
		if (st.ios[0] + st.ios[1] + st.other == 0)
			continue;
		for (int k = 0; k < 2; k++) {
			od.ios[k] = st.ios[k];
			od.merges[k] = st.merges[k];
			od.ticks[k] = st.ticks[k] / SIM_MSEC;
		}
		od.in_queue = st.in_queue / SIM_MSEC;
		sim_time span = now - s->stats_epoch;
		od.util = span ? 100.0 * (double)st.busy / (double)span : 0;
		if (od.util > 100)
			od.util = 100;
		g_array_append_val(disks, od);
	}
}

void system_reset_stats(struct system *s)
{
	s->stats_epoch = sim_now(&s->sim);
	host_reset_accounting(s->host);
	for (unsigned i = 0; i < s->devices->len; i++)
		blk_queue_reset_stats(((struct system_device *)s->devices->pdata[i])->q);
}

void system_describe(const struct system *s, GString *out)
{
	g_string_append_printf(out, "host profile: %s (%u CPUs)\n", s->host_profile,
			       s->sp.cpu.ncpus);
	for (unsigned i = 0; i < s->devices->len; i++) {
		struct system_device *d = s->devices->pdata[i];
		g_string_append_printf(out, "device %s: %s profile %s\n", d->name,
				       d->model->name, d->profile);
	}
	for (unsigned i = 0; i < s->mounts->len; i++) {
		struct system_mount *m = s->mounts->pdata[i];
		g_string_append_printf(out, "mount %s: %s on %s\n", m->path,
				       m->profile, m->dev->name);
	}
	g_string_append(out, "kernel:");
	for (const struct param_def *r = kernel_param_table; r->name; r++) {
		g_autofree char *v = params_value_string(r, &s->kf);
		g_string_append_printf(out, " %s=%s", r->name, v);
	}
	g_string_append_c(out, '\n');
}

/* --- the workloads' environment (workloads/env.h) ------------------------ */

static struct sfile *env_sys_open(const struct workload_env *e,
				  const struct env_open_args *a, GError **err)
{
	return system_open_args(e->impl, a, err);
}

static uint64_t env_sys_file_size(const struct workload_env *e, const char *path)
{
	return system_file_size(e->impl, path);
}

static void env_sys_disk_stats(const struct workload_env *e, GArray *disks)
{
	system_disk_stats(e->impl, disks);
}

static void env_sys_reset_stats(const struct workload_env *e)
{
	system_reset_stats(e->impl);
}

static void env_sys_arm_power_loss(const struct workload_env *e)
{
	system_arm_power_loss(e->impl);
}

static bool env_sys_power_lost(const struct workload_env *e)
{
	return system_power_lost(e->impl);
}

static const struct workload_env_ops system_env_ops = {
	.open = env_sys_open,
	.file_size = env_sys_file_size,
	.disk_stats = env_sys_disk_stats,
	.reset_stats = env_sys_reset_stats,
	.arm_power_loss = env_sys_arm_power_loss,
	.power_lost = env_sys_power_lost,
};

void system_env(struct system *s, const char *costs_model,
		struct workload_env *e)
{
	const struct model_info *m = costs_model ? model_find(costs_model) : NULL;

	g_assert(!costs_model || (m && m->workload));
	*e = (struct workload_env){
		.sim = &s->sim,
		.host = s->host,
		.sp = &s->sp,
		.kf = &s->kf,
		.iotl = s->iotl,
		.costs = m ? model_values(m, &s->sp, &s->wl) : NULL,
		.ops = &system_env_ops,
		.impl = s,
	};
}
