# models/: one model per .c/.h pair; profiles are data installed with the program.
libstorsim_a_SOURCES +=
libstorsim_a_SOURCES += \
	models/devices/nvme.c models/devices/nvme.h models/devices/nvme_spec.h \
	models/devices/nvme_durability.c models/devices/nvme_durability.h
nobase_dist_pkgdata_DATA += \
	models/profiles/devices/qemu-nvme.json \
	models/profiles/devices/optane-p5800x.json
