# tests/: unit tests (GLib g_test, TAP), golden-output, reproduction and
# conformance checks, fuzz target, benchmarks.

TEST_EXTENSIONS = .sh
LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
SH_LOG_DRIVER = $(LOG_DRIVER)
SH_LOG_COMPILER = $(SHELL)
AM_TESTS_ENVIRONMENT = \
	G_TEST_SRCDIR="$(abs_srcdir)" G_TEST_BUILDDIR="$(abs_builddir)" \
	STORSIM="$(abs_builddir)/storsim" top_srcdir="$(abs_top_srcdir)" \
	top_builddir="$(abs_top_builddir)" QEMU_SYSTEM="$(QEMU_SYSTEM)" \
	MALLOC_PERTURB_=$$(($${RANDOM:-256} % 256)); export G_TEST_SRCDIR G_TEST_BUILDDIR \
	STORSIM top_srcdir top_builddir QEMU_SYSTEM MALLOC_PERTURB_;

EXTRA_DIST += tests/tap.sh

check_PROGRAMS += tests/unit/test-evq
tests_unit_test_evq_SOURCES = tests/unit/test-evq.c
tests_unit_test_evq_LDADD = $(STORSIM_LIBS)
TESTS += tests/unit/test-evq

# Job files: the parser's corpus (tests/jobs/{valid,invalid}) and Debian's
# fio examples, read by a small driver around jobfile_parse().
check_PROGRAMS += tests/jobs/jobparse
tests_jobs_jobparse_SOURCES = tests/jobs/jobparse.c
tests_jobs_jobparse_LDADD = $(STORSIM_LIBS)

check_PROGRAMS += tests/unit/test-options tests/unit/test-jobfile
tests_unit_test_options_SOURCES = tests/unit/test-options.c
tests_unit_test_options_LDADD = $(STORSIM_LIBS)
tests_unit_test_jobfile_SOURCES = tests/unit/test-jobfile.c
tests_unit_test_jobfile_LDADD = $(STORSIM_LIBS)
TESTS += tests/unit/test-options tests/unit/test-jobfile
