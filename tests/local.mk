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

check_PROGRAMS += tests/unit/test-nvme
tests_unit_test_nvme_SOURCES = tests/unit/test-nvme.c
tests_unit_test_nvme_LDADD = $(STORSIM_LIBS)
TESTS += tests/unit/test-nvme

check_PROGRAMS += tests/unit/test-nvme-durability tests/unit/test-nvme-params
tests_unit_test_nvme_durability_SOURCES = tests/unit/test-nvme-durability.c
tests_unit_test_nvme_durability_LDADD = $(STORSIM_LIBS)
tests_unit_test_nvme_params_SOURCES = tests/unit/test-nvme-params.c
tests_unit_test_nvme_params_LDADD = $(STORSIM_LIBS)
TESTS += tests/unit/test-nvme-durability tests/unit/test-nvme-params

# storsim validate qemu, until sim/main.c dispatches "validate".
check_PROGRAMS += tests/unit/test-nvme-validate-cli
tests_unit_test_nvme_validate_cli_SOURCES = tests/unit/test-nvme-validate-cli.c
tests_unit_test_nvme_validate_cli_LDADD = $(STORSIM_LIBS)
TESTS += tests/validate-qemu.sh
EXTRA_DIST += tests/validate-qemu.sh

check_PROGRAMS += tests/unit/test-nvme-validate
tests_unit_test_nvme_validate_SOURCES = tests/unit/test-nvme-validate.c
tests_unit_test_nvme_validate_LDADD = $(STORSIM_LIBS)
TESTS += tests/unit/test-nvme-validate
