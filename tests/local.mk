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

check_PROGRAMS += tests/unit/test-host
tests_unit_test_host_SOURCES = tests/unit/test-host.c
tests_unit_test_host_LDADD = $(STORSIM_LIBS)
TESTS += tests/unit/test-host

# Reproductions of published tables (shorter runtime than the experiments').
TESTS += tests/reproduce-nocopy-bvec.sh
EXTRA_DIST += tests/reproduce-nocopy-bvec.sh
check_PROGRAMS += tests/unit/test-stats
tests_unit_test_stats_SOURCES = tests/unit/test-stats.c
tests_unit_test_stats_LDADD = $(STORSIM_LIBS)
TESTS += tests/unit/test-stats

check_PROGRAMS += tests/unit/test-output-golden
tests_unit_test_output_golden_SOURCES = tests/unit/test-output-golden.c
tests_unit_test_output_golden_LDADD = $(STORSIM_LIBS)
TESTS += tests/unit/test-output-golden
EXTRA_DIST += tests/golden

check_PROGRAMS += tests/unit/test-output
tests_unit_test_output_SOURCES = tests/unit/test-output.c
tests_unit_test_output_LDADD = $(STORSIM_LIBS)
TESTS += tests/unit/test-output

check_PROGRAMS += tests/unit/test-output-sample
tests_unit_test_output_sample_SOURCES = tests/unit/test-output-sample.c
tests_unit_test_output_sample_LDADD = $(STORSIM_LIBS)
TESTS += tests/output-clat2csv.sh
EXTRA_DIST += tests/output-clat2csv.sh
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

# storsim validate qemu against Debian's QEMU.
TESTS += tests/validate-qemu.sh
EXTRA_DIST += tests/validate-qemu.sh

check_PROGRAMS += tests/unit/test-nvme-validate
tests_unit_test_nvme_validate_SOURCES = tests/unit/test-nvme-validate.c
tests_unit_test_nvme_validate_LDADD = $(STORSIM_LIBS)
TESTS += tests/unit/test-nvme-validate

# make bench: tests/bench/bench (docs/benchmarks.md). A check program, so
# that make all does not build it and the smoke test below keeps it
# working. BENCH_FLAGS passes options, e.g. BENCH_FLAGS=--json=bench.json.
# --wrap=sim_run lets it count the events of a workload run.
check_PROGRAMS += tests/bench/bench
tests_bench_bench_SOURCES = tests/bench/bench.c
tests_bench_bench_LDADD = $(STORSIM_LIBS)
tests_bench_bench_LDFLAGS = $(AM_LDFLAGS) -Wl,--wrap=sim_run
EXTRA_DIST += tests/bench/null-qd16.fio
TESTS += tests/bench-smoke.sh
EXTRA_DIST += tests/bench-smoke.sh

.PHONY: bench
bench: tests/bench/bench$(EXEEXT) storsim$(EXEEXT)
	tests/bench/bench --storsim=./storsim$(EXEEXT) $(BENCH_FLAGS)
