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

# Trace readers, replay options and the iolog writer (sim/trace*.c).
check_PROGRAMS += tests/unit/test-trace-cmd
tests_unit_test_trace_cmd_SOURCES = tests/unit/test-trace-cmd.c
tests_unit_test_trace_cmd_LDADD = $(STORSIM_LIBS)
check_PROGRAMS += tests/unit/test-trace
tests_unit_test_trace_SOURCES = tests/unit/test-trace.c
tests_unit_test_trace_LDADD = $(STORSIM_LIBS)
TESTS += tests/unit/test-trace
EXTRA_DIST += traces/examples
TESTS += tests/trace-fio.sh
EXTRA_DIST += tests/trace-fio.sh
TESTS += tests/trace-cmd.sh
EXTRA_DIST += tests/trace-cmd.sh
check_PROGRAMS += tests/unit/test-trace-stream
tests_unit_test_trace_stream_SOURCES = tests/unit/test-trace-stream.c
tests_unit_test_trace_stream_LDADD = $(STORSIM_LIBS)
TESTS += tests/unit/test-trace-stream

# Fuzzing the trace readers, as the job file reader is fuzzed (replay.c is
# the jobfile branch's replay driver, the same file).
FUZZ_TRACE_SRC = sim/trace.c sim/trace_iolog.c sim/trace_blktrace.c \
	sim/trace_csv.c sim/util.c tests/fuzz/fuzz-trace.c
check_PROGRAMS += tests/fuzz/fuzz-trace-replay
tests_fuzz_fuzz_trace_replay_SOURCES = tests/fuzz/fuzz-trace.c tests/fuzz/replay.c
tests_fuzz_fuzz_trace_replay_LDADD = $(STORSIM_LIBS)
TESTS += tests/fuzz-trace.sh
EXTRA_DIST += tests/fuzz-trace.sh tests/fuzz/corpus-trace
if HAVE_LIBFUZZER
tests/fuzz/fuzz-trace: $(FUZZ_TRACE_SRC:%=$(top_srcdir)/%) \
		$(top_srcdir)/sim/trace.h $(top_srcdir)/sim/trace_int.h $(top_srcdir)/sim/util.h
	@$(MKDIR_P) tests/fuzz
	$(AM_V_CCLD)$(CLANG) -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined \
		-I$(top_srcdir)/sim -I$(top_builddir) $(GLIB_CFLAGS) \
		$(FUZZ_TRACE_SRC:%=$(top_srcdir)/%) -o $@ $(GLIB_LIBS) -lm
tests/fuzz-trace.log: tests/fuzz/fuzz-trace
CLEANFILES += tests/fuzz/fuzz-trace
fuzz-trace-long: tests/fuzz/fuzz-trace
	@$(MKDIR_P) tests/fuzz/corpus-trace-long
	tests/fuzz/fuzz-trace -max_total_time=600 -timeout=10 \
		-artifact_prefix=tests/fuzz/ tests/fuzz/corpus-trace-long \
		$(top_srcdir)/traces/examples $(top_srcdir)/tests/fuzz/corpus-trace
else
fuzz-trace-long:
	@echo "fuzz-trace-long: configure found no clang with libFuzzer" >&2; exit 1
endif
.PHONY: fuzz-trace-long
