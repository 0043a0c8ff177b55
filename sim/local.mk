# sim/: the engine and the program around it.
libstorsim_a_SOURCES += \
	sim/evq.c sim/evq.h \
	sim/sim.c sim/sim.h \
	sim/rng.c sim/rng.h \
	sim/util.c sim/util.h \
	sim/params.c sim/params.h
libstorsim_a_SOURCES += \
	sim/qtest.c sim/qtest.h \
	sim/nvme_tester.c sim/nvme_tester.h
libstorsim_a_SOURCES += sim/validate.c sim/validate.h
