# models/: one model per .c/.h pair; profiles are data installed with the program.
libstorsim_a_SOURCES += \
	models/host/host.c models/host/host.h
