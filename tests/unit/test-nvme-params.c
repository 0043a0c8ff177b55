/*
 * Description: NVMe device profiles load through the parameter table;
 * every shipped profile is valid; bad profiles are refused with the file,
 * line and parameter named; cross-parameter checks catch contradictions.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "devices/nvme.h"
#include "system/profile.h"

/* The folder holds every device model's profiles; only "nvme" ones here. */
static bool is_nvme_profile(const char *path)
{
	json_object *root = json_object_from_file(path), *model;
	bool yes = root && json_object_object_get_ex(root, "model", &model) &&
		   strcmp(json_object_get_string(model), "nvme") == 0;
	json_object_put(root);
	return yes;
}

static void test_shipped_profiles_load(void)
{
	const char *dir = STORSIM_SRCDIR "/models/profiles/devices";
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *name;
	unsigned n = 0;

	g_assert_nonnull(d);
	while ((name = g_dir_read_name(d))) {
		g_autofree char *path = g_build_filename(dir, name, NULL);
		struct nvme_dev_params p;
		g_autoptr(GError) err = NULL;

		if (!g_str_has_suffix(name, ".json") || !is_nvme_profile(path))
			continue;
		nvme_dev_params_init(&p);
		g_assert_true(profile_load_nvme(&p, path, &err));
		g_assert_no_error(err);
		nvme_dev_params_clear(&p);
		n++;
	}
	g_assert_cmpuint(n, >=, 2);
}

static void test_profile_by_name(void)
{
	struct nvme_dev_params p;
	g_autoptr(GError) err = NULL;

	nvme_dev_params_init(&p);
	p.nn = 1;
	g_assert_true(profile_load_nvme(&p, "qemu-nvme", &err));
	g_assert_no_error(err);
	g_assert_cmpuint(p.nn, ==, 256);
	g_assert_cmpstr(p.model_name, ==, "QEMU NVMe Ctrl");
	nvme_dev_params_clear(&p);
}

struct bad_case {
	const char *path;
	const char *text;
	const char *message;	/* must appear in the error */
};

static const struct bad_case bad_cases[] = {
	{"/nvme-params/bad/wrong-unit",
	 "{\"profile\": \"bad\", \"kind\": \"device\", \"model\": \"nvme\",\n \"params\": {\n  \"read_latency\": {\"value\": 5, "
	 "\"unit\": \"us\", \"source\": \"x\"}}}\n",
	 ":3: option 'read_latency': unit must be \"ns\""},
	{"/nvme-params/bad/unknown-parameter",
	 "{\"profile\": \"bad\", \"kind\": \"device\", \"model\": \"nvme\",\n \"params\": {\"warp\": {\"value\": 1, "
	 "\"unit\": \"\", \"source\": \"x\"}}}\n",
	 ":2: option 'warp': unknown parameter"},
	{"/nvme-params/bad/out-of-range",
	 "{\"profile\": \"bad\", \"kind\": \"device\", \"model\": \"nvme\", \"params\": {\n\"lba_shift\": {\"value\": 13, "
	 "\"unit\": \"log2(bytes)\", \"source\": \"x\"}}}\n",
	 ":2: option 'lba_shift': 13 is outside"},
	{"/nvme-params/bad/wrong-model",
	 "{\"profile\": \"bad\", \"kind\": \"device\", \"model\": \"sata\", \"params\": {}}\n", "option 'model': must be \"nvme\""},
	{"/nvme-params/bad/not-json",
	 "{\"profile\": \"bad\", \"kind\": \"device\", \"model\": \"nvme\",\n \"params\": {\n", ":3: invalid JSON"},
	{"/nvme-params/bad/cache-without-vwc",
	 "{\"profile\": \"bad\", \"kind\": \"device\", \"model\": \"nvme\", \"params\": {\"vwc_present\": {\"value\": false, "
	 "\"unit\": \"\", \"source\": \"x\"}}}\n",
	 "option 'write_cache_enabled': needs vwc_present = true"},
};

static void test_bad_profile(gconstpointer data)
{
	const struct bad_case *bc = data;
	g_autofree char *dir = g_dir_make_tmp("storsim-nvme-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "bad.json", NULL);
	struct nvme_dev_params p;
	g_autoptr(GError) err = NULL;

	g_assert_true(g_file_set_contents(path, bc->text, -1, NULL));
	nvme_dev_params_init(&p);
	g_assert_false(profile_load_nvme(&p, path, &err));
	g_assert_nonnull(err);
	g_assert_true(g_str_has_prefix(err->message, path));
	if (!strstr(err->message, bc->message))
		g_error("'%s' does not contain '%s'", err->message, bc->message);
	nvme_dev_params_clear(&p);
	g_unlink(path);
	g_rmdir(dir);
}

static void test_missing_profile(void)
{
	struct nvme_dev_params p;
	g_autoptr(GError) err = NULL;

	nvme_dev_params_init(&p);
	g_assert_false(profile_load_nvme(&p, "no-such-drive", &err));
	g_assert_nonnull(strstr(err->message, "'no-such-drive'"));
	nvme_dev_params_clear(&p);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/nvme-params/shipped-profiles-load",
			test_shipped_profiles_load);
	g_test_add_func("/nvme-params/profile-by-name", test_profile_by_name);
	for (unsigned i = 0; i < G_N_ELEMENTS(bad_cases); i++)
		g_test_add_data_func(bad_cases[i].path, &bad_cases[i], test_bad_profile);
	g_test_add_func("/nvme-params/missing-profile", test_missing_profile);
	return g_test_run();
}
