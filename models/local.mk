# models/: one model per .c/.h pair; profiles are data installed with the program.
libstorsim_a_SOURCES += \
	models/kernel.c models/kernel.h models/stack.h \
	models/host/host.c models/host/host.h models/host/host_impl.h \
	models/host/xctx.c models/host/cpu.c models/host/sched.c models/host/task.c \
	models/host/timeline.c \
	models/host/cpuidle.c models/host/cpuidle.h \
	models/host/workqueue.c models/host/workqueue.h \
	models/syscalls/io_uring.c models/syscalls/io_uring.h \
	models/syscalls/io_wq.c models/syscalls/io_wq.h \
	models/syscalls/aio.c models/syscalls/aio.h \
	models/syscalls/sync_rw.c models/syscalls/sync_rw.h \
	models/fs/vfs.h \
	models/fs/fs.c models/fs/fs.h \
	models/fs/iomap_dio.c models/fs/iomap_dio.h \
	models/fs/pagecache.c models/fs/pagecache.h \
	models/fs/buffered.c models/fs/buffered.h \
	models/fs/writeback.c models/fs/writeback.h \
	models/fs/shmem.c models/fs/shmem.h \
	models/block/blkdev.c models/block/blkdev.h \
	models/block/blk_mq.c models/block/blk_mq.h \
	models/block/mq_deadline.c models/block/mq_deadline.h \
	models/drivers/nvme.c models/drivers/nvme.h \
	models/drivers/nvme_ioctl.c models/drivers/nvme_ioctl.h \
	models/drivers/null_blk.c models/drivers/null_blk.h \
	models/drivers/loop.c models/drivers/loop.h \
	models/devices/nvme.c models/devices/nvme.h models/devices/nvme_spec.h \
	models/devices/nvme_impl.h models/devices/nvme_regs.c models/devices/nvme_queue.c \
	models/devices/nvme_dma.c models/devices/nvme_admin.c models/devices/nvme_io.c \
	models/devices/nvme_media.c \
	models/devices/nvme_durability.c models/devices/nvme_durability.h \
	models/skeleton/skeleton.c models/skeleton/skeleton.h
# Profiles: hosts/, devices/, filesystems/ (see sim/system/profile.h).
nobase_dist_pkgdata_DATA += \
	models/profiles/devices/nand-nvme.json \
	models/profiles/devices/null_blk.json \
	models/profiles/devices/loop-tmpfs.json \
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
