# sim/: the engine and the program around it.
libstorsim_a_SOURCES += \
	sim/evq.c sim/evq.h \
	sim/sim.c sim/sim.h \
	sim/rng.c sim/rng.h \
	sim/util.c sim/util.h \
	sim/params.c sim/params.h
libstorsim_a_SOURCES += \
	sim/stats.c sim/stats.h \
	sim/output.c sim/output.h sim/output_int.h \
	sim/output_json.c sim/output_normal.c
