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

# The full-system check's host side (sim/guest.c), without a VM.
check_PROGRAMS += tests/unit/test-guest
tests_unit_test_guest_SOURCES = tests/unit/test-guest.c
tests_unit_test_guest_LDADD = $(STORSIM_LIBS)
TESTS += tests/unit/test-guest
TESTS += tests/guest-cli.sh
EXTRA_DIST += tests/guest-cli.sh

# make check-guest (docs/guest.md): a Debian guest under TCG through libvirt's
# embedded QEMU driver runs tests/guest/*.fio on QEMU's emulated NVMe. Takes
# minutes and root; not part of make check.
GUEST_SWEEP = randread:1:2:4:8:16:32,randwrite:1:8:32
GUEST_RUNTIME = 5
GUEST_VCPUS = 2
EXTRA_DIST += tests/guest/check-guest.sh tests/guest/randread.fio tests/guest/randwrite.fio \
	scripts/build-guest.sh scripts/setup-libvirt-embed.sh scripts/guest/init
if HAVE_LIBVIRT
check-guest: storsim-guest
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	GUEST_SWEEP='$(GUEST_SWEEP)' GUEST_RUNTIME='$(GUEST_RUNTIME)' GUEST_VCPUS='$(GUEST_VCPUS)' \
	$(SHELL) $(top_srcdir)/tests/guest/check-guest.sh
else
check-guest:
	@echo "check-guest needs libvirt: install libvirt-dev and re-run configure" >&2; exit 1
endif
.PHONY: check-guest
