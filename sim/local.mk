# sim/: the engine and the program around it.
libstorsim_a_SOURCES += \
	sim/evq.c sim/evq.h \
	sim/sim.c sim/sim.h \
	sim/rng.c sim/rng.h \
	sim/util.c sim/util.h \
	sim/progress.c sim/progress.h \
	sim/pool.c sim/pool.h \
	sim/params.c sim/params.h \
	sim/stage.c sim/stage.h \
	sim/profile.c sim/profile.h \
	sim/system.c sim/system.h \
	sim/commands.h \
	sim/workload.c sim/workload.h \
	sim/cmd_uring_bench.c \
	sim/cmd_params.c \
	sim/experiment.c sim/experiment.h \
	sim/cmd_reproduce.c \
	sim/report.c sim/report.h \
	sim/io_trace.c sim/io_trace.h \
	sim/cmd_run.c \
	sim/cmd_sweep.c
libstorsim_a_SOURCES += \
	sim/stats.c sim/stats.h \
	sim/fio_logs.c sim/fio_logs.h \
	sim/output.c sim/output.h sim/output_int.h \
	sim/output_json.c sim/output_normal.c sim/output_terse.c
libstorsim_a_SOURCES += \
	sim/options.c sim/options.h \
	sim/jobfile.c sim/jobfile.h
libstorsim_a_SOURCES += \
	sim/qtest.c sim/qtest.h \
	sim/nvme_tester.c sim/nvme_tester.h
libstorsim_a_SOURCES += sim/validate.c sim/validate.h

# The full-system check's host side (docs/guest.md); the launcher only with
# libvirt's headers: it loads the library when it starts a guest.
libstorsim_a_SOURCES += sim/guest.c sim/guest.h
if HAVE_LIBVIRT
libstorsim_a_SOURCES += sim/guest-libvirt.c
AM_CPPFLAGS += -DSTORSIM_HAVE_LIBVIRT $(LIBVIRT_CFLAGS)
endif
libstorsim_a_SOURCES += \
	sim/trace.c sim/trace.h sim/trace_int.h \
	sim/trace_iolog.c sim/trace_blktrace.c sim/trace_csv.c \
	sim/cmd_trace.c
