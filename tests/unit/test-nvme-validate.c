/*
 * Description: the QEMU comparison gives "agree" to equal values, "known
 * difference" only to a recorded check with QEMU's recorded value, and
 * DIFFERENT to anything else; the qtest client gives up, with QEMU's own
 * words or a time-out, instead of hanging, and leaves no process behind.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "validate/qtest.h"
#include "validate/validate.h"

struct verdict_case {
	const char *path, *check, *qemu, *storsim;
	enum validate_verdict expect;
};

static const struct verdict_case verdict_cases[] = {
	{"/validate/verdict/equal-values-agree", "CAP.MQES", "2047", "2047",
	 VALIDATE_AGREE},
	{"/validate/verdict/recorded-difference-is-known",
	 "Write with PRP1 not dword aligned", "SCT=0 SC=0x00 DNR=0",
	 "SCT=0 SC=0x13 DNR=1", VALIDATE_KNOWN},
	{"/validate/verdict/config-prefix-is-ignored",
	 "[cache=none] FUA write on media at completion", "no", "yes",
	 VALIDATE_KNOWN},
	{"/validate/verdict/other-qemu-value-is-different",
	 "Write with PRP1 not dword aligned", "SCT=0 SC=0x02 DNR=1",
	 "SCT=0 SC=0x13 DNR=1", VALIDATE_DIFFERENT},
	{"/validate/verdict/unrecorded-check-is-different", "CAP.MQES", "2047",
	 "1023", VALIDATE_DIFFERENT},
};

static void test_verdict(gconstpointer data)
{
	const struct verdict_case *vc = data;
	const char *reason;

	g_assert_cmpint(validate_verdict(vc->check, vc->qemu, vc->storsim, &reason),
			==, vc->expect);
	/* A known difference always says why; the others say nothing. */
	g_assert_cmpint(*reason != '\0', ==, vc->expect == VALIDATE_KNOWN);
}

/* A stand-in for qemu-system-x86_64 made of a shell script. */
static char *fake_qemu(const char *dir, const char *body)
{
	char *path = g_build_filename(dir, "fake-qemu", NULL);
	g_autofree char *text = g_strdup_printf("#!/bin/sh\n%s\n", body);
	g_assert_true(g_file_set_contents(path, text, -1, NULL));
	g_assert_cmpint(g_chmod(path, 0755), ==, 0);
	return path;
}

static void test_qemu_that_never_connects(void)
{
	g_autofree char *dir = g_dir_make_tmp("storsim-fake-XXXXXX", NULL);
	g_autofree char *pidfile = g_build_filename(dir, "pid", NULL);
	g_autofree char *body = g_strdup_printf("echo $$ > %s; exec sleep 60",
						 pidfile);
	g_autofree char *qemu = fake_qemu(dir, body);
	struct qtest_options o = {.qemu = qemu, .image_bytes = 1 << 20,
				  .timeout_ms = 300};
	g_autoptr(GError) err = NULL;
	g_autofree char *pid = NULL;
	gint64 t0 = g_get_monotonic_time();

	g_assert_null(qtest_start(&o, &err));
	g_assert_nonnull(strstr(err->message, "did not connect"));
	g_assert_cmpint(g_get_monotonic_time() - t0, <, 5 * G_USEC_PER_SEC);
	/* The stand-in was killed by its pid. */
	g_assert_true(g_file_get_contents(pidfile, &pid, NULL, NULL));
	g_assert_cmpint(kill(atoi(pid), 0), !=, 0);
	g_unlink(pidfile);
	g_unlink(qemu);
	g_rmdir(dir);
}

static void test_qemu_that_exits(void)
{
	g_autofree char *dir = g_dir_make_tmp("storsim-fake-XXXXXX", NULL);
	g_autofree char *qemu = fake_qemu(dir, "echo 'no such machine' >&2; exit 1");
	struct qtest_options o = {.qemu = qemu, .image_bytes = 1 << 20,
				  .timeout_ms = 5000};
	g_autoptr(GError) err = NULL;

	g_assert_null(qtest_start(&o, &err));
	g_assert_nonnull(strstr(err->message, "exited before connecting"));
	g_assert_nonnull(strstr(err->message, "no such machine"));
	g_unlink(qemu);
	g_rmdir(dir);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	for (unsigned i = 0; i < G_N_ELEMENTS(verdict_cases); i++)
		g_test_add_data_func(verdict_cases[i].path, &verdict_cases[i],
				     test_verdict);
	g_test_add_func("/validate/qtest/qemu-that-never-connects",
			test_qemu_that_never_connects);
	g_test_add_func("/validate/qtest/qemu-that-exits", test_qemu_that_exits);
	return g_test_run();
}
