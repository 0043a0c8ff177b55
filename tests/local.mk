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
# sweep and compare: result store, workers, resume, strategies
TESTS += tests/sweep-store.sh tests/compare.sh tests/report.sh tests/sweep-slurm.sh
EXTRA_DIST += tests/sweep-store.sh tests/compare.sh tests/report.sh tests/sweep-slurm.sh
EXTRA_DIST += tests/reproduce-nocopy-bvec.sh
check_PROGRAMS += tests/unit/test-stats
tests_unit_test_stats_SOURCES = tests/unit/test-stats.c
tests_unit_test_stats_LDADD = $(STORSIM_LIBS)
TESTS += tests/unit/test-stats

# fio's log files: the writer, storsim's logs against its JSON, and
# their layout against the installed fio 3.33's
check_PROGRAMS += tests/unit/test-fio-logs
tests_unit_test_fio_logs_SOURCES = tests/unit/test-fio-logs.c
tests_unit_test_fio_logs_LDADD = $(STORSIM_LIBS)
TESTS += tests/unit/test-fio-logs tests/fio-logs.sh tests/fio-logs-vs-fio.sh
EXTRA_DIST += tests/fio-logs.sh tests/fio-logs-vs-fio.sh

# fio's null engine issues each io_u once
TESTS += tests/fio-null.sh tests/fio-null-vs-fio.sh tests/bs-directions-vs-fio.sh \
	tests/terse.sh
TESTS += tests/rate-thinktime.sh tests/output-special-files.sh tests/blkdev-buffered.sh \
	tests/io-uring-teardown.sh tests/run-progress.sh tests/trim.sh \
	tests/buffered-osync.sh tests/libaio-buffered.sh tests/random-distribution.sh
EXTRA_DIST += tests/rate-thinktime.sh tests/output-special-files.sh tests/blkdev-buffered.sh \
	tests/io-uring-teardown.sh tests/run-progress.sh tests/trim.sh \
	tests/buffered-osync.sh tests/libaio-buffered.sh tests/random-distribution.sh
EXTRA_DIST += tests/fio-null.sh tests/fio-null-vs-fio.sh tests/bs-directions-vs-fio.sh \
	tests/terse.sh

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

# The job file corpus (valid/ must parse, invalid/ must fail as each file
# says) and Debian's fio examples.
TESTS += tests/jobs.sh tests/fio-examples.sh tests/options-vs-fio.sh
EXTRA_DIST += tests/jobs.sh tests/fio-examples.sh tests/options-vs-fio.sh tests/jobs/valid tests/jobs/invalid

# Fuzzing the job file reader. The replay driver feeds the seed corpus to
# the target with the normal compiler (and sanitizers, if configured); with
# clang's libFuzzer the target is also built for a 20 s run in make check
# and a 10 min one in make fuzz-long.
FUZZ_JOBFILE_SRC = sim/workloads/fio/jobfile.c sim/workloads/fio/options.c \
	sim/workloads/fio/options_parse.c sim/workloads/fio/options_table.c \
	sim/workloads/fio/options_finish.c sim/engine/util.c \
	tests/fuzz/fuzz-jobfile.c
check_PROGRAMS += tests/fuzz/fuzz-jobfile-replay
tests_fuzz_fuzz_jobfile_replay_SOURCES = tests/fuzz/fuzz-jobfile.c tests/fuzz/replay.c
tests_fuzz_fuzz_jobfile_replay_LDADD = $(STORSIM_LIBS)
TESTS += tests/fuzz-jobfile.sh
EXTRA_DIST += tests/fuzz-jobfile.sh tests/fuzz/corpus
if HAVE_LIBFUZZER
tests/fuzz/fuzz-jobfile: $(FUZZ_JOBFILE_SRC:%=$(top_srcdir)/%) \
		$(top_srcdir)/sim/workloads/fio/jobfile.h $(top_srcdir)/sim/workloads/fio/options.h \
		$(top_srcdir)/sim/workloads/fio/options_impl.h $(top_srcdir)/sim/engine/util.h
	@$(MKDIR_P) tests/fuzz
	$(AM_V_CCLD)$(CLANG) -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined \
		-I$(top_srcdir)/sim -I$(top_builddir) $(GLIB_CFLAGS) \
		$(FUZZ_JOBFILE_SRC:%=$(top_srcdir)/%) -o $@ $(GLIB_LIBS) -lm
tests/fuzz-jobfile.log: tests/fuzz/fuzz-jobfile
CLEANFILES += tests/fuzz/fuzz-jobfile
fuzz-long: tests/fuzz/fuzz-jobfile
	@$(MKDIR_P) tests/fuzz/corpus-long
	tests/fuzz/fuzz-jobfile -max_total_time=600 -timeout=10 \
		-artifact_prefix=tests/fuzz/ tests/fuzz/corpus-long $(top_srcdir)/tests/fuzz/corpus
else
fuzz-long:
	@echo "make fuzz-long needs clang with libFuzzer, which configure did not find"; exit 1
endif
.PHONY: fuzz-long

# make fuzz-runs: random fio command lines through the whole simulator,
# each run checked for crashes, stalls, errors fio would not report and,
# every tenth, determinism (tests/fuzz/random-runs.py, docs/HACKING.md).
FUZZ_RUNS = 300
FUZZ_SEED = 1
fuzz-runs: storsim$(EXEEXT)
	python3 $(top_srcdir)/tests/fuzz/random-runs.py --storsim=./storsim$(EXEEXT) \
		--runs=$(FUZZ_RUNS) --seed=$(FUZZ_SEED)
.PHONY: fuzz-runs
EXTRA_DIST += tests/fuzz/random-runs.py

# make fuzz-vs-fio: random jobs run in fio 3.33 and in storsim on real
# files, every I/O of their write_iologs and their counts compared
# (tests/fuzz/vs-fio.py); FUZZ_REPLAY=1 replays random traces instead,
# FUZZ_TIME_BASED=1 makes the jobs time_based.
fuzz-vs-fio: storsim$(EXEEXT)
	python3 $(top_srcdir)/tests/fuzz/vs-fio.py --storsim=./storsim$(EXEEXT) \
		--runs=$(FUZZ_RUNS) --seed=$(FUZZ_SEED) $(if $(FUZZ_REPLAY),--replay) \
		$(if $(FUZZ_TIME_BASED),--time-based)
.PHONY: fuzz-vs-fio
EXTRA_DIST += tests/fuzz/vs-fio.py

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

TESTS += tests/reproduce-dio-caller-comp.sh
EXTRA_DIST += tests/reproduce-dio-caller-comp.sh
TESTS += tests/reproduce-iomap-per-block-dirty.sh
EXTRA_DIST += tests/reproduce-iomap-per-block-dirty.sh
TESTS += tests/reproduce-async-buffered-reads.sh
EXTRA_DIST += tests/reproduce-async-buffered-reads.sh
TESTS += tests/writeback.sh
EXTRA_DIST += tests/writeback.sh tests/jobs/writeback
TESTS += tests/buffered-partial-folio.sh tests/nvme-doorbell-order.sh
EXTRA_DIST += tests/buffered-partial-folio.sh tests/nvme-doorbell-order.sh
TESTS += tests/sqpoll.sh
EXTRA_DIST += tests/sqpoll.sh tests/jobs/sqpoll
TESTS += tests/io-uring-fsync.sh tests/io-uring-reissue.sh
EXTRA_DIST += tests/io-uring-fsync.sh tests/io-uring-reissue.sh
TESTS += tests/pagecache-invalidate.sh
EXTRA_DIST += tests/pagecache-invalidate.sh tests/jobs/pagecache
TESTS += tests/sweep.sh
EXTRA_DIST += tests/sweep.sh tests/jobs/sweep
TESTS += tests/timeline.sh
EXTRA_DIST += tests/timeline.sh
TESTS += tests/readahead.sh
EXTRA_DIST += tests/readahead.sh
TESTS += tests/blkdev-close.sh
EXTRA_DIST += tests/blkdev-close.sh
TESTS += tests/buffered-partial-block.sh
EXTRA_DIST += tests/buffered-partial-block.sh
TESTS += tests/experiment-errors.sh
EXTRA_DIST += tests/experiment-errors.sh

# The full-system check's host side (sim/validate/guest.c), without a VM.
check_PROGRAMS += tests/unit/test-guest
tests_unit_test_guest_SOURCES = tests/unit/test-guest.c
tests_unit_test_guest_LDADD = $(STORSIM_LIBS)
TESTS += tests/unit/test-guest
TESTS += tests/guest-cli.sh
EXTRA_DIST += tests/guest-cli.sh

# The HTML report in headless Chromium (skipped where it is missing);
# make check-browser installs Debian's chromium (root) and runs it: about
# 15 s once installed.
TESTS += tests/report-browser.sh
EXTRA_DIST += tests/report-browser.sh
CLEANFILES += tests/report-browser.png
check-browser: storsim$(EXEEXT)
	@command -v chromium >/dev/null 2>&1 || { \
		test "$$(id -u)" -eq 0 || { echo "check-browser: installing chromium needs root" >&2; exit 1; }; \
		echo "check-browser: installing chromium"; \
		apt-get update -q && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -q --no-install-recommends chromium; }
	$(MAKE) $(AM_MAKEFLAGS) check TESTS=tests/report-browser.sh
	@grep -q '^PASS' tests/report-browser.log && ! grep -q '^SKIP' tests/report-browser.log
.PHONY: check-browser

# make check-slurm (docs/user-guide.md, Sweeps on a Slurm cluster): a
# one-node Slurm cluster on this machine (slurm-wlm and munge, installed
# if missing; root) runs a 40-point sweep as a job array, whose store must
# equal a local -j run's. About 2-3 minutes; not part of make check.
EXTRA_DIST += tests/slurm/check-slurm.sh
check-slurm: storsim$(EXEEXT)
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	$(SHELL) $(top_srcdir)/tests/slurm/check-slurm.sh
.PHONY: check-slurm

# make check-guest (docs/guest.md): a Debian guest under TCG through libvirt's
# embedded QEMU driver runs tests/guest/*.fio on QEMU's emulated NVMe. Takes
# minutes and root; not part of make check.
GUEST_SWEEP = randread:1:2:4:8:16:32,randwrite:1:8:32
GUEST_RUNTIME = 5
GUEST_VCPUS = 2
EXTRA_DIST += tests/guest/check-guest.sh tests/guest/randread.fio tests/guest/randwrite.fio \
	scripts/build-guest.sh scripts/setup-libvirt-embed.sh scripts/guest/init
if HAVE_LIBVIRT
check-guest: storsim$(EXEEXT)
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	GUEST_SWEEP='$(GUEST_SWEEP)' GUEST_RUNTIME='$(GUEST_RUNTIME)' GUEST_VCPUS='$(GUEST_VCPUS)' \
	$(SHELL) $(top_srcdir)/tests/guest/check-guest.sh
else
check-guest:
	@echo "check-guest needs libvirt: install libvirt-dev and re-run configure" >&2; exit 1
endif
.PHONY: check-guest

TESTS += tests/power-loss.sh
EXTRA_DIST += tests/power-loss.sh
TESTS += tests/system-options.sh
EXTRA_DIST += tests/system-options.sh

# Hostile and careless input (issue 25): refusals, limits, output errors.
HARDEN_TESTS = tests/name-option.sh tests/filename-list.sh tests/input-limits.sh
TESTS += $(HARDEN_TESTS)
EXTRA_DIST += $(HARDEN_TESTS)
TESTS += tests/params.sh
EXTRA_DIST += tests/params.sh
TESTS += tests/fio-offsets.sh tests/offsets-vs-fio.sh tests/directory-list.sh tests/start-delay.sh tests/ramp-counts.sh \
	tests/real-files-vs-fio.sh tests/clone-offsets-vs-fio.sh tests/cpus-allowed-split.sh tests/nvme-queue-sharing.sh \
	tests/create-on-open.sh tests/file-append.sh tests/time-based-vs-fio.sh
EXTRA_DIST += tests/fio-offsets.sh tests/offsets-vs-fio.sh tests/directory-list.sh tests/start-delay.sh tests/ramp-counts.sh \
	tests/real-files-vs-fio.sh tests/clone-offsets-vs-fio.sh tests/cpus-allowed-split.sh tests/nvme-queue-sharing.sh \
	tests/create-on-open.sh tests/file-append.sh tests/time-based-vs-fio.sh
TESTS += tests/run-status.sh
EXTRA_DIST += tests/run-status.sh
TESTS += tests/pre-read-empty.sh
EXTRA_DIST += tests/pre-read-empty.sh
TESTS += tests/reproduce-uring-bench.sh
EXTRA_DIST += tests/reproduce-uring-bench.sh
TESTS += tests/blkdev-dio.sh
EXTRA_DIST += tests/blkdev-dio.sh
TESTS += tests/null-blk.sh
EXTRA_DIST += tests/null-blk.sh
TESTS += tests/ramp.sh
EXTRA_DIST += tests/ramp.sh
TESTS += tests/nvme-batch.sh
EXTRA_DIST += tests/nvme-batch.sh

# Trace readers, replay options and the iolog writer (sim/trace*.c).
check_PROGRAMS += tests/unit/test-trace
tests_unit_test_trace_SOURCES = tests/unit/test-trace.c
tests_unit_test_trace_LDADD = $(STORSIM_LIBS)
TESTS += tests/unit/test-trace
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
FUZZ_TRACE_SRC = sim/trace/trace.c sim/trace/trace_iolog.c sim/trace/trace_blktrace.c \
	sim/trace/trace_csv.c sim/engine/util.c tests/fuzz/fuzz-trace.c
check_PROGRAMS += tests/fuzz/fuzz-trace-replay
tests_fuzz_fuzz_trace_replay_SOURCES = tests/fuzz/fuzz-trace.c tests/fuzz/replay.c
tests_fuzz_fuzz_trace_replay_LDADD = $(STORSIM_LIBS)
TESTS += tests/fuzz-trace.sh
EXTRA_DIST += tests/fuzz-trace.sh tests/fuzz/corpus-trace
if HAVE_LIBFUZZER
tests/fuzz/fuzz-trace: $(FUZZ_TRACE_SRC:%=$(top_srcdir)/%) \
		$(top_srcdir)/sim/trace/trace.h $(top_srcdir)/sim/trace/trace_int.h $(top_srcdir)/sim/engine/util.h
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

TESTS += tests/littles-law.sh tests/determinism.sh
EXTRA_DIST += tests/littles-law.sh tests/determinism.sh
# make bench: tests/bench/bench (docs/benchmarks.md). A check program, so
# that make all does not build it and the smoke test below keeps it
# working. BENCH_FLAGS passes options, e.g. BENCH_FLAGS=--json=bench.json.
check_PROGRAMS += tests/bench/bench
tests_bench_bench_SOURCES = tests/bench/bench.c
tests_bench_bench_LDADD = $(STORSIM_LIBS)
tests_bench_bench_CFLAGS = $(AM_CFLAGS) $(LTO_CFLAGS)
tests_bench_bench_LDFLAGS = $(SAN_CFLAGS) $(NOPIE_LDFLAGS) $(LTO_LDFLAGS)
EXTRA_DIST += tests/bench/null-qd16.fio tests/bench/replay.fio
TESTS += tests/bench-smoke.sh
EXTRA_DIST += tests/bench-smoke.sh

.PHONY: bench
bench: tests/bench/bench$(EXEEXT) storsim$(EXEEXT)
	tests/bench/bench --storsim=./storsim$(EXEEXT) $(BENCH_FLAGS)

# Buffered I/O: the page cache, buffered reads and writes, fsync.
check_PROGRAMS += tests/unit/test-pagecache tests/unit/test-buffered
tests_unit_test_pagecache_SOURCES = tests/unit/test-pagecache.c
tests_unit_test_pagecache_LDADD = $(STORSIM_LIBS)
tests_unit_test_buffered_SOURCES = tests/unit/test-buffered.c
tests_unit_test_buffered_LDADD = $(STORSIM_LIBS)
TESTS += tests/unit/test-pagecache tests/unit/test-buffered
# The template model, and how a model's unit test drives it.
check_PROGRAMS += tests/unit/test-skeleton
tests_unit_test_skeleton_SOURCES = tests/unit/test-skeleton.c
tests_unit_test_skeleton_LDADD = $(STORSIM_LIBS)
TESTS += tests/unit/test-skeleton
check_PROGRAMS += tests/unit/test-fio-randmap
tests_unit_test_fio_randmap_SOURCES = tests/unit/test-fio-randmap.c
tests_unit_test_fio_randmap_LDADD = $(STORSIM_LIBS)
TESTS += tests/unit/test-fio-randmap
check_PROGRAMS += tests/unit/test-fio-taus
tests_unit_test_fio_taus_SOURCES = tests/unit/test-fio-taus.c
tests_unit_test_fio_taus_LDADD = $(STORSIM_LIBS)
TESTS += tests/unit/test-fio-taus
check_PROGRAMS += tests/unit/test-fio-lfsr
tests_unit_test_fio_lfsr_SOURCES = tests/unit/test-fio-lfsr.c
tests_unit_test_fio_lfsr_LDADD = $(STORSIM_LIBS)
TESTS += tests/unit/test-fio-lfsr
check_PROGRAMS += tests/unit/test-io-wq
tests_unit_test_io_wq_SOURCES = tests/unit/test-io-wq.c
tests_unit_test_io_wq_LDADD = $(STORSIM_LIBS)
TESTS += tests/unit/test-io-wq
check_PROGRAMS += tests/unit/test-uring-cmd
tests_unit_test_uring_cmd_SOURCES = tests/unit/test-uring-cmd.c
tests_unit_test_uring_cmd_LDADD = $(STORSIM_LIBS)
TESTS += tests/unit/test-uring-cmd
EXTRA_DIST += tests/unit/buffered-randread.fio
TESTS += tests/fio-fsync.sh tests/uring-bench-buffered.sh tests/read-iolog.sh \
	tests/job-end-vs-fio.sh tests/size-percent-vs-fio.sh tests/file-service-vs-fio.sh \
	tests/unified-rw.sh tests/exitall.sh tests/zonemode-vs-fio.sh \
	tests/flush-disk-stats.sh tests/random-map.sh tests/verify-vs-fio.sh \
	tests/max-latency.sh tests/latency-target.sh tests/round-syncs-vs-fio.sh
EXTRA_DIST += tests/fio-fsync.sh tests/uring-bench-buffered.sh tests/read-iolog.sh \
	tests/job-end-vs-fio.sh tests/issued-lines.sh tests/size-percent-vs-fio.sh \
	tests/file-service-vs-fio.sh tests/unified-rw.sh tests/exitall.sh \
	tests/zonemode-vs-fio.sh tests/flush-disk-stats.sh tests/random-map.sh \
	tests/verify-vs-fio.sh tests/max-latency.sh tests/latency-target.sh \
	tests/round-syncs-vs-fio.sh

# The parameter tables of docs/models are the code's.
TESTS += tests/docs-params.sh
EXTRA_DIST += tests/docs-params.sh
TESTS += tests/latency-by-layer.sh
EXTRA_DIST += tests/latency-by-layer.sh
check_PROGRAMS += tests/unit/test-io-trace
tests_unit_test_io_trace_SOURCES = tests/unit/test-io-trace.c
tests_unit_test_io_trace_LDADD = $(STORSIM_LIBS)
TESTS += tests/unit/test-io-trace
TESTS += tests/plug-merge.sh
EXTRA_DIST += tests/plug-merge.sh
check_PROGRAMS += tests/unit/test-blk-merge
tests_unit_test_blk_merge_SOURCES = tests/unit/test-blk-merge.c
tests_unit_test_blk_merge_LDADD = $(STORSIM_LIBS)
TESTS += tests/unit/test-blk-merge
check_PROGRAMS += tests/unit/test-mq-deadline
tests_unit_test_mq_deadline_SOURCES = tests/unit/test-mq-deadline.c
tests_unit_test_mq_deadline_LDADD = $(STORSIM_LIBS)
TESTS += tests/unit/test-mq-deadline tests/mq-deadline.sh
EXTRA_DIST += tests/mq-deadline.sh

# The loop driver over a tmpfs file, and /dev/loopN as a device
check_PROGRAMS += tests/unit/test-loop
tests_unit_test_loop_SOURCES = tests/unit/test-loop.c
tests_unit_test_loop_LDADD = $(STORSIM_LIBS)
TESTS += tests/unit/test-loop
TESTS += tests/loop-device.sh
EXTRA_DIST += tests/loop-device.sh

# storsim calibrate: the fit's least squares
check_PROGRAMS += tests/unit/test-lsq
tests_unit_test_lsq_SOURCES = tests/unit/test-lsq.c
tests_unit_test_lsq_LDADD = $(STORSIM_LIBS)
TESTS += tests/unit/test-lsq

# storsim calibrate: the fit finds known scales; suite and grid are disjoint
check_PROGRAMS += tests/unit/test-calibrate-fit
tests_unit_test_calibrate_fit_SOURCES = tests/unit/test-calibrate-fit.c
tests_unit_test_calibrate_fit_LDADD = $(STORSIM_LIBS)
TESTS += tests/unit/test-calibrate-fit
TESTS += tests/calibrate-cli.sh
EXTRA_DIST += tests/calibrate-cli.sh

# make check-real (docs/calibrate.md): storsim calibrate on this machine's
# own kernel (real fio 3.33 on loop devices over tmpfs files, raw, XFS and
# ext4, and the null engine), then storsim validate real: the validation
# grid in real fio and in storsim with the calibrated profiles, side by
# side, with a verdict. Root; about 15 minutes on the 2-core development
# machine; not part of make check. CHECK_REAL_DIR keeps the profiles and
# measurements; CHECK_REAL_REPEAT and CHECK_REAL_RUNTIME set the passes
# and each real run's length.
CHECK_REAL_DIR = check-real
CHECK_REAL_REPEAT = 3
CHECK_REAL_RUNTIME = 2s
check-real: storsim$(EXEEXT)
	./storsim$(EXEEXT) calibrate --output-dir=$(CHECK_REAL_DIR) \
		--repeat=$(CHECK_REAL_REPEAT) --runtime=$(CHECK_REAL_RUNTIME) --eta=always
	./storsim$(EXEEXT) validate real --profiles=$(CHECK_REAL_DIR) \
		--repeat=$(CHECK_REAL_REPEAT) --runtime=$(CHECK_REAL_RUNTIME) --eta=always
.PHONY: check-real

# host profiles that inherit another machine's costs, scaled
check_PROGRAMS += tests/unit/test-profile-inherits
tests_unit_test_profile_inherits_SOURCES = tests/unit/test-profile-inherits.c
tests_unit_test_profile_inherits_LDADD = $(STORSIM_LIBS)
TESTS += tests/unit/test-profile-inherits

# the command line as people expect it: help, usage lines, suggestions
TESTS += tests/cli-did-you-mean.sh tests/cli-help-command.sh tests/cli-usage-lines.sh \
	tests/cli-version-in-help.sh
EXTRA_DIST += tests/cli-did-you-mean.sh tests/cli-help-command.sh tests/cli-usage-lines.sh \
	tests/cli-version-in-help.sh
# the man page: made from the help, and complete
TESTS += tests/man-page-current.sh tests/man-page-lists-every-option.sh
EXTRA_DIST += tests/man-page-current.sh tests/man-page-lists-every-option.sh
# make install's tree, and the bash completion it installs
TESTS += tests/install-tree.sh tests/bash-completion.sh
EXTRA_DIST += tests/install-tree.sh tests/bash-completion.sh
