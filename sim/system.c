/* Building a simulated system from profiles and settings. */
#include <string.h>

#include "profile.h"
#include "system.h"
#include "util.h"

void system_config_init(struct system_config *c)
{
	*c = (struct system_config){0};
	c->devices = g_ptr_array_new_with_free_func(g_free);
	c->sets = g_ptr_array_new_with_free_func(g_free);
	c->kernel = g_ptr_array_new_with_free_func(g_free);
	c->seed = 1;
}

void system_config_clear(struct system_config *c)
{
	g_free(c->host);
	g_ptr_array_free(c->devices, TRUE);
	g_ptr_array_free(c->sets, TRUE);
	g_ptr_array_free(c->kernel, TRUE);
	*c = (struct system_config){0};
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

void system_config_add_options(struct system_config *c, GOptionContext *ctx)
{
	const GOptionEntry entries[] = {
		{"host", 0, 0, G_OPTION_ARG_STRING, &c->host,
		 "Host profile (name or path)", "PROFILE"},
		{"device", 0, 0, G_OPTION_ARG_CALLBACK, opt_device,
		 "Add a device, e.g. nullb0=null_blk or nvme0n1=optane-p5800x",
		 "NAME=PROFILE"},
		{"set", 0, 0, G_OPTION_ARG_CALLBACK, opt_set,
		 "Override one parameter of a model or a device", "MODEL.PARAM=VALUE"},
		{"kernel", 0, 0, G_OPTION_ARG_CALLBACK, opt_kernel,
		 "Set a kernel feature (see 'storsim params kernel')",
		 "FEATURE=VALUE"},
		{"seed", 0, 0, G_OPTION_ARG_CALLBACK, opt_seed,
		 "Seed of every random stream (default 1)", "N"},
		{NULL},
	};
	GOptionGroup *g = g_option_group_new("system", "Simulated system:",
					     "Show the system options", c, NULL);
	g_option_group_add_entries(g, entries);
	g_option_context_add_group(ctx, g);
}

static bool apply_host_profile(struct system *s, const char *name, GError **err)
{
	auto_profile *p = profile_load(name, "host", err);
	if (!p)
		return false;
	s->host_profile = g_strdup(p->name);
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
		if (!params_apply_json(m->params, (char *)&s->sp + m->offset, obj,
				       p->path, p->text, err))
			return false;
	}
	return true;
}

static const struct model_info *device_model_for(const char *name)
{
	if (g_str_has_prefix(name, "nullb"))
		return model_find("null_blk");
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
				    "'%s': device names start with nullb (null_blk)",
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
		return params_apply_override(d->model->params, d->params, dot + 1, err);
	if (m && m->kind == MODEL_HOST)
		return params_apply_override(m->params, (char *)&s->sp + m->offset,
					     dot + 1, err);
	if (m && m->kind == MODEL_KERNEL)
		return params_apply_override(m->params, &s->kf, dot + 1, err);
	storsim_input_error(err, "command line", 0, "set",
			    "'%s' is neither a model nor a device", target);
	return false;
}

static void build_devices(struct system *s)
{
	for (unsigned i = 0; i < s->devices->len; i++) {
		struct system_device *d = s->devices->pdata[i];
		if (strcmp(d->model->name, "null_blk") == 0) {
			d->nullb = null_blk_new(s->host, d->name, d->params,
						&s->sp.null_blk_cpu, &s->sp.blk_mq);
			d->q = null_blk_queue(d->nullb);
		}
		d->bdev = blkdev_new(d->q, &s->sp.blkdev, &s->kf);
	}
}

struct system *system_new(const struct system_config *cfg, GError **err)
{
	struct system *s = g_new0(struct system, 1);

	sim_init(&s->sim, cfg->seed);
	s->devices = g_ptr_array_new();
	s->files = g_ptr_array_new_with_free_func(g_free);
	for (const struct model_info *m = model_registry; m->name; m++)
		if (m->kind == MODEL_HOST)
			params_set_defaults(m->params, (char *)&s->sp + m->offset);
	params_set_defaults(kernel_param_table, &s->kf);

	if (!apply_host_profile(s, cfg->host ? cfg->host : "default", err))
		goto fail;
	for (unsigned i = 0; i < cfg->devices->len; i++)
		if (!add_device(s, cfg->devices->pdata[i], err))
			goto fail;
	for (unsigned i = 0; i < cfg->kernel->len; i++)
		if (!params_apply_override(kernel_param_table, &s->kf,
					   cfg->kernel->pdata[i], err))
			goto fail;
	for (unsigned i = 0; i < cfg->sets->len; i++)
		if (!apply_set(s, cfg->sets->pdata[i], err))
			goto fail;

	s->host = host_new(&s->sim, &s->sp.cpu);
	build_devices(s);
	return s;
fail:
	system_free(s);
	return NULL;
}

void system_free(struct system *s)
{
	if (!s)
		return;
	for (unsigned i = 0; i < s->devices->len; i++) {
		struct system_device *d = s->devices->pdata[i];
		blkdev_free(d->bdev);
		null_blk_free(d->nullb);
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
	sim_destroy(&s->sim);
	g_free(s->host_profile);
	g_free(s);
}

struct sfile *system_open(struct system *s, const char *path, GError **err)
{
	if (g_str_has_prefix(path, "/dev/")) {
		struct system_device *d = find_device(s, path + 5);
		if (!d) {
			storsim_input_error(err, NULL, 0, "filename",
					    "'%s': no such device in the simulated "
					    "system (add one with --device %s=PROFILE)",
					    path, path + 5);
			return NULL;
		}
		struct sfile *f = g_new0(struct sfile, 1);
		blkdev_open(d->bdev, f, path);
		g_ptr_array_add(s->files, f);
		return f;
	}
	storsim_input_error(err, NULL, 0, "filename",
			    "'%s': no file system is mounted there in the "
			    "simulated system", path);
	return NULL;
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
	g_string_append(out, "kernel:");
	for (const struct param_def *r = kernel_param_table; r->name; r++) {
		g_autofree char *v = params_value_string(r, &s->kf);
		g_string_append_printf(out, " %s=%s", r->name, v);
	}
	g_string_append_c(out, '\n');
}
