/*
 * A host profile that inherits another ("inherits": {"profile",
 * "cost_scale"}) gets the parent's values with every CPU cost scaled and
 * nothing else scaled, then its own params unscaled; inheritance nests;
 * and a cost_scale without a source, unit or sane value, a profile that
 * inherits itself, or an inherits block of the wrong shape, is refused
 * with the file and the option named.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "system/system.h"

static char *dir;

static char *write_profile(const char *name, const char *body)
{
	g_autofree char *file = g_strconcat(name, ".json", NULL);
	char *path = g_build_filename(dir, "hosts", file, NULL);
	g_assert_true(g_file_set_contents(path, body, -1, NULL));
	return path;
}

static struct system *build(const char *host, GError **err)
{
	struct system_config cfg;
	struct system *s;

	system_config_init(&cfg);
	cfg.host = g_strdup(host);
	g_ptr_array_add(cfg.devices, g_strdup("nullb0=null_blk"));
	s = system_new(&cfg, err);
	system_config_clear(&cfg);
	return s;
}

#define PARENT \
	"{\"profile\": \"parent\", \"kind\": \"host\", \"params\": {" \
	"\"cpu\": {\"ncpus\": {\"value\": 4, \"unit\": \"count\", \"source\": \"t\"}," \
	"  \"syscall_ns\": {\"value\": 100, \"unit\": \"ns\", \"source\": \"t\"}," \
	"  \"timer_slack_ns\": {\"value\": 40000, \"unit\": \"ns\", \"source\": \"t\"}}," \
	"\"blk_mq\": {\"submit_bio_ns\": {\"value\": 80, \"unit\": \"ns\", \"source\": \"t\"}}," \
	"\"pagecache\": {\"copy_ns_per_kib\": {\"value\": 50, \"unit\": \"ns/KiB\", \"source\": \"t\"}}}}"

static void test_costs_scale_and_nothing_else(void)
{
	g_autoptr(GError) err = NULL;
	g_autofree char *parent = write_profile("parent", PARENT);
	g_autofree char *child = write_profile("child",
		"{\"profile\": \"child\", \"kind\": \"host\", \"inherits\": {"
		"\"profile\": \"parent\", \"cost_scale\": {\"value\": 2.5, \"unit\": \"\","
		" \"source\": \"test\"}}, \"params\": {\"blk_mq\": {\"bio_alloc_ns\": "
		"{\"value\": 7, \"unit\": \"ns\", \"source\": \"t\"}}}}");
	g_autofree char *grandchild = write_profile("grandchild",
		"{\"profile\": \"grandchild\", \"kind\": \"host\", \"inherits\": {"
		"\"profile\": \"child\", \"cost_scale\": {\"value\": 2, \"unit\": \"\","
		" \"source\": \"test\"}}, \"params\": {}}");
	struct system *s;

	g_setenv("STORSIM_PROFILE_PATH", dir, TRUE);
	s = build(child, &err);
	g_assert_no_error(err);
	g_assert_cmpuint(s->sp.cpu.syscall, ==, 250);
	g_assert_cmpuint(s->sp.blk_mq.submit_bio, ==, 200);
	g_assert_cmpfloat_with_epsilon(s->sp.pagecache.copy_ns_per_kib, 125, 1e-9);
	/* not costs: as inherited */
	g_assert_cmpuint(s->sp.cpu.ncpus, ==, 4);
	g_assert_cmpuint(s->sp.cpu.timer_slack, ==, 40000);
	/* its own: unscaled */
	g_assert_cmpuint(s->sp.blk_mq.bio_alloc, ==, 7);
	system_free(s);

	s = build(grandchild, &err);
	g_assert_no_error(err);
	g_assert_cmpuint(s->sp.cpu.syscall, ==, 500);
	g_assert_cmpuint(s->sp.blk_mq.bio_alloc, ==, 14);
	g_assert_cmpuint(s->sp.cpu.ncpus, ==, 4);
	system_free(s);
	g_unsetenv("STORSIM_PROFILE_PATH");
	g_unlink(parent);
	g_unlink(child);
	g_unlink(grandchild);
}

static void refused(const char *name, const char *inherits, const char *kind,
		    const char *want)
{
	g_autoptr(GError) err = NULL;
	g_autofree char *body = g_strdup_printf(
		"{\"profile\": \"%s\", \"kind\": \"%s\",%s \"params\": {}}", name,
		kind, inherits);
	g_autofree char *path = write_profile(name, body);
	struct system *s = build(path, &err);

	g_assert_null(s);
	g_assert_nonnull(err);
	g_test_message("%s", err->message);
	g_assert_nonnull(strstr(err->message, path));
	g_assert_nonnull(strstr(err->message, want));
	g_unlink(path);
}

static void test_bad_inherits_are_refused(void)
{
	g_autofree char *parent = write_profile("parent", PARENT);

	g_setenv("STORSIM_PROFILE_PATH", dir, TRUE);
	refused("a", " \"inherits\": {\"profile\": \"parent\", \"cost_scale\": "
		"{\"value\": 2, \"unit\": \"\"}},", "host", "option 'cost_scale': needs a \"source\"");
	refused("b", " \"inherits\": {\"profile\": \"parent\", \"cost_scale\": "
		"{\"value\": 2, \"unit\": \"ns\", \"source\": \"x\"}},", "host",
		"option 'cost_scale': needs \"unit\": \"\"");
	refused("c", " \"inherits\": {\"profile\": \"parent\", \"cost_scale\": "
		"{\"value\": 0, \"unit\": \"\", \"source\": \"x\"}},", "host",
		"option 'cost_scale': needs a \"value\" above 0");
	refused("d", " \"inherits\": {\"profile\": \"d\", \"cost_scale\": "
		"{\"value\": 1, \"unit\": \"\", \"source\": \"x\"}},", "host",
		"cannot inherit itself");
	refused("e", " \"inherits\": {\"profile\": \"parent\"},", "host",
		"option 'inherits': must be");
	refused("f", " \"inherits\": {\"profile\": \"parent\", \"scale\": 2, "
		"\"cost_scale\": {\"value\": 1, \"unit\": \"\", \"source\": \"x\"}},",
		"host", "option 'scale': unknown key of inherits");
	g_unsetenv("STORSIM_PROFILE_PATH");
	g_unlink(parent);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	dir = g_dir_make_tmp("test-inherits-XXXXXX", NULL);
	g_autofree char *hosts = g_build_filename(dir, "hosts", NULL);
	g_mkdir(hosts, 0700);
	g_test_add_func("/profile/inherits/costs-scale-and-nothing-else",
			test_costs_scale_and_nothing_else);
	g_test_add_func("/profile/inherits/bad-inherits-are-refused",
			test_bad_inherits_are_refused);
	int r = g_test_run();
	g_rmdir(hosts);
	g_rmdir(dir);
	return r;
}
