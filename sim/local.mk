# sim/: everything that is not a model of the kernel or the device.

# engine/: clock and event queue, components, random streams, pools,
# parameter tables, stages, latency stamps and statistics.
libstorsim_a_SOURCES += \
	sim/engine/evq.c sim/engine/evq.h \
	sim/engine/sim.c sim/engine/sim.h \
	sim/engine/rng.c sim/engine/rng.h \
	sim/engine/util.c sim/engine/util.h \
	sim/engine/progress.c sim/engine/progress.h \
	sim/engine/pool.c sim/engine/pool.h \
	sim/engine/params.c sim/engine/params.h \
	sim/engine/stage.c sim/engine/stage.h \
	sim/engine/io_trace.c sim/engine/io_trace.h \
	sim/engine/io_timeline.c sim/engine/io_timeline.h \
	sim/engine/stats.c sim/engine/stats.h

# system/: the registry of models, profiles, the system builder, and the
# experiments and reports built on it.
libstorsim_a_SOURCES += \
	sim/system/registry.c sim/system/registry.h \
	sim/system/costs.c sim/system/costs.h \
	sim/system/profile.c sim/system/profile.h \
	sim/system/system.c sim/system/system.h \
	sim/system/workload.c sim/system/workload.h \
	sim/system/experiment.c sim/system/experiment.h \
	sim/system/point.c sim/system/point.h \
	sim/system/store.c sim/system/store.h \
	sim/system/runner.c sim/system/runner.h \
	sim/system/strategy.c sim/system/strategy.h \
	sim/system/slurm.c sim/system/slurm.h \
	sim/system/report.c sim/system/report.h \
	sim/system/timeline.c

# report/: reports of result stores, and gnuplot's plots for them.
libstorsim_a_SOURCES += \
	sim/report/plot.c sim/report/plot.h \
	sim/report/results_report.c sim/report/results_report.h

# workloads/: the front-ends that drive the stack, through the environment
# a system gives them (env.h).
libstorsim_a_SOURCES += \
	sim/workloads/env.h sim/workloads/workloads.h \
	sim/workloads/fio/fio.c sim/workloads/fio/fio.h sim/workloads/fio/fio_engine.h \
	sim/workloads/fio/fio_core.h sim/workloads/fio/fio_io_u.c sim/workloads/fio/fio_file.c \
	sim/workloads/fio/fio_verify.c sim/workloads/fio/fio_lat_target.c \
	sim/workloads/fio/fio_rate.c sim/workloads/fio/fio_loop.c sim/workloads/fio/fio_setup.c \
	sim/workloads/fio/fio_results.c \
	sim/workloads/fio/fio_engines.c \
	sim/workloads/fio/fio_rand.c sim/workloads/fio/fio_rand.h \
	sim/workloads/fio/fio_randmap.c sim/workloads/fio/fio_randmap.h \
	sim/workloads/fio/fio_taus.c sim/workloads/fio/fio_taus.h \
	sim/workloads/fio/fio_lfsr.c sim/workloads/fio/fio_lfsr.h \
	sim/workloads/fio/fio_replay.c sim/workloads/fio/fio_replay.h \
	sim/workloads/fio/options.c sim/workloads/fio/options.h sim/workloads/fio/options_impl.h \
	sim/workloads/fio/options_parse.c sim/workloads/fio/options_table.c \
	sim/workloads/fio/options_finish.c \
	sim/workloads/fio/jobfile.c sim/workloads/fio/jobfile.h \
	sim/workloads/fio/fio_logs.c sim/workloads/fio/fio_logs.h \
	sim/workloads/fio/output.c sim/workloads/fio/output.h \
	sim/workloads/fio/output_int.h sim/workloads/fio/output_json.c \
	sim/workloads/fio/output_normal.c sim/workloads/fio/output_terse.c \
	sim/workloads/t_io_uring/t_io_uring.c sim/workloads/t_io_uring/t_io_uring.h

# trace/: block-trace readers (fio iolog, blktrace, MSR/SPC CSV, DiskSim).
libstorsim_a_SOURCES += \
	sim/trace/trace.c sim/trace/trace.h sim/trace/trace_int.h \
	sim/trace/trace_iolog.c sim/trace/trace_blktrace.c sim/trace/trace_csv.c

# validate/: the NVMe model against QEMU's (qtest), and the full-system
# check's host side (docs/guest.md); the launcher only with libvirt's
# headers: it loads the library when it starts a guest.
libstorsim_a_SOURCES += \
	sim/validate/qtest.c sim/validate/qtest.h \
	sim/validate/nvme_tester.c sim/validate/nvme_tester.h \
	sim/validate/validate.c sim/validate/validate.h \
	sim/validate/guest.c sim/validate/guest.h
if HAVE_LIBVIRT
libstorsim_a_SOURCES += sim/validate/guest-libvirt.c
AM_CPPFLAGS += -DSTORSIM_HAVE_LIBVIRT $(LIBVIRT_CFLAGS)
endif

# cli/: the commands; main() alone is outside the library.
libstorsim_a_SOURCES += \
	sim/cli/commands.h sim/cli/cli.c sim/cli/cli.h \
	sim/cli/cmd_run.c sim/cli/cmd_uring_bench.c sim/cli/cmd_params.c \
	sim/cli/cmd_reproduce.c sim/cli/cmd_report.c sim/cli/cmd_sweep.c sim/cli/cmd_trace.c \
	sim/cli/cmd_calibrate.c

# calibrate/: storsim calibrate and validate real: real fio runs on this
# machine, the fit of a host profile to them, and the comparison.
libstorsim_a_SOURCES += \
	sim/calibrate/lsq.c sim/calibrate/lsq.h \
	sim/calibrate/points.c sim/calibrate/points.h \
	sim/calibrate/measure.c sim/calibrate/measure.h \
	sim/calibrate/real.c sim/calibrate/real.h \
	sim/calibrate/simulate.c sim/calibrate/simulate.h \
	sim/calibrate/profiles.c sim/calibrate/profiles.h \
	sim/calibrate/fit.c sim/calibrate/fit.h \
	sim/calibrate/session.c sim/calibrate/session.h \
	sim/calibrate/validate_real.c sim/calibrate/validate_real.h
