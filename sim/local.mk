# sim/: the engine and the program around it.
libstorsim_a_SOURCES += \
	sim/evq.c sim/evq.h \
	sim/sim.c sim/sim.h \
	sim/rng.c sim/rng.h \
	sim/util.c sim/util.h \
	sim/params.c sim/params.h

# The full-system check's host side (docs/guest.md); the launcher only with libvirt.
libstorsim_a_SOURCES += sim/guest.c sim/guest.h
if HAVE_LIBVIRT
libstorsim_a_SOURCES += sim/guest-libvirt.c
AM_CPPFLAGS += -DSTORSIM_HAVE_LIBVIRT $(LIBVIRT_CFLAGS)
STORSIM_LIBS += $(LIBVIRT_LIBS)
endif
noinst_PROGRAMS += storsim-guest
storsim_guest_SOURCES = sim/guest-tool.c
storsim_guest_LDADD = $(STORSIM_LIBS)
