# docs/
dist_doc_DATA += docs/output.md
EXTRA_DIST += docs/job-files.md
EXTRA_DIST += docs/models/nvme-device.md docs/validation.md
EXTRA_DIST += docs/HACKING.md
dist_doc_DATA += docs/guest.md
dist_doc_DATA += docs/traces.md
EXTRA_DIST += docs/models/host.md docs/models/workqueue.md \
	docs/models/blk_mq.md docs/models/nvme-driver.md docs/models/nvme-ioctl.md \
	docs/models/null_blk.md \
	docs/models/blkdev.md docs/models/fs.md docs/models/io_uring.md \
	docs/models/t_io_uring.md docs/models/fio.md docs/models/kernel.md \
	docs/models/aio.md docs/models/pagecache.md docs/models/io_wq.md \
	docs/models/mq-deadline.md docs/models/loop.md docs/models/shmem.md
dist_doc_DATA += docs/design.md
dist_doc_DATA += docs/reproductions.md
dist_doc_DATA += docs/user-guide.md
dist_doc_DATA += docs/calibrate.md
dist_man_MANS += docs/storsim.1

# The parameter tables of the model pages, refreshed from storsim params
# (tests/params.sh fails when one is out of date).
docs-params: storsim$(EXEEXT)
	$(SHELL) $(top_srcdir)/scripts/docs-params.sh ./storsim$(EXEEXT) \
		$(top_srcdir)/docs/models/*.md
.PHONY: docs-params
