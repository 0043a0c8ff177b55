# models/: one model per .c/.h pair; profiles are data installed with the program.
libstorsim_a_SOURCES += \
	models/kernel.c models/kernel.h \
	models/host/host.c models/host/host.h \
	models/host/cpuidle.c models/host/cpuidle.h \
	models/block/blk_mq.c models/block/blk_mq.h \
	models/block/mq_deadline.c models/block/mq_deadline.h \
	models/drivers/null_blk.c models/drivers/null_blk.h \
	models/fs/vfs.h \
	models/fs/blkdev.c models/fs/blkdev.h \
	models/fs/fs.c models/fs/fs.h \
	models/fs/iomap_dio.c models/fs/iomap_dio.h \
	models/fs/pagecache.c models/fs/pagecache.h \
	models/fs/buffered.c models/fs/buffered.h \
	models/fs/writeback.c models/fs/writeback.h \
	models/fs/sync_rw.c models/fs/sync_rw.h \
	models/host/workqueue.c models/host/workqueue.h \
	models/engines/io_uring.c models/engines/io_uring.h \
	models/engines/io_wq.c models/engines/io_wq.h \
	models/engines/t_io_uring.c models/engines/t_io_uring.h \
	models/engines/fio.c models/engines/fio.h models/engines/fio_engine.h \
	models/engines/fio_engines.c models/engines/fio_rand.c models/engines/fio_rand.h \
	models/engines/fio_randmap.c models/engines/fio_randmap.h \
	models/engines/fio_taus.c models/engines/fio_taus.h \
	models/engines/fio_lfsr.c models/engines/fio_lfsr.h \
	models/engines/fio_replay.c models/engines/fio_replay.h \
	models/engines/aio.c models/engines/aio.h \
	models/drivers/nvme.c models/drivers/nvme.h \
	models/registry.c models/registry.h \
	models/skeleton/skeleton.c models/skeleton/skeleton.h
libstorsim_a_SOURCES += \
	models/devices/nvme.c models/devices/nvme.h models/devices/nvme_spec.h \
	models/devices/nvme_durability.c models/devices/nvme_durability.h
# Profiles: hosts/, devices/, filesystems/ (see sim/profile.h).
nobase_dist_pkgdata_DATA += \
	models/profiles/devices/nand-nvme.json \
	models/profiles/devices/null_blk.json \
	models/profiles/devices/optane-p5800x.json \
	models/profiles/devices/qemu-nvme.json \
	models/profiles/devices/qemu-nvme-tcg.json \
	models/profiles/filesystems/ext4.json \
	models/profiles/filesystems/xfs.json \
	models/profiles/hosts/axboe-2020.json \
	models/profiles/hosts/axboe-5950x-2023.json \
	models/profiles/hosts/begunkov-2021.json \
	models/profiles/hosts/default.json \
	models/profiles/hosts/power9-64k.json \
	models/profiles/hosts/qemu-tcg-2vcpu.json
