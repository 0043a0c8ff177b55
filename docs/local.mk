# docs/: every page is installed, under $(docdir), the model pages under
# $(docdir)/models (tests/install-tree.sh checks that none is left out).
dist_doc_DATA += README.md docs/HACKING.md docs/benchmarks.md docs/calibrate.md \
	docs/design.md docs/guest.md docs/job-files.md docs/output.md \
	docs/reproductions.md docs/traces.md docs/user-guide.md docs/validation.md
docmodelsdir = $(docdir)/models
dist_docmodels_DATA = docs/models/aio.md docs/models/blk_mq.md \
	docs/models/blkdev.md docs/models/fio.md docs/models/fs.md docs/models/host.md \
	docs/models/io_uring.md docs/models/io_wq.md docs/models/kernel.md \
	docs/models/loop.md docs/models/mq-deadline.md docs/models/null_blk.md \
	docs/models/nvme-device.md docs/models/nvme-driver.md docs/models/nvme-ioctl.md \
	docs/models/pagecache.md docs/models/shmem.md docs/models/t_io_uring.md \
	docs/models/workqueue.md
dist_man_MANS += docs/storsim.1

# The bash completion, made from the help of the storsim just built
# (scripts/cli-docs.sh), installed where bash-completion looks.
bashcompletiondir = $(datadir)/bash-completion/completions
bashcompletion_DATA = completion/storsim
CLEANFILES += completion/storsim
completion/storsim: storsim$(EXEEXT) $(top_srcdir)/scripts/cli-docs.sh
	$(MKDIR_P) completion
	$(SHELL) $(top_srcdir)/scripts/cli-docs.sh bash ./storsim$(EXEEXT) >$@.tmp
	mv $@.tmp $@

# The parameter tables of the model pages, refreshed from storsim params
# (tests/params.sh fails when one is out of date).
docs-params: storsim$(EXEEXT)
	$(SHELL) $(top_srcdir)/scripts/docs-params.sh ./storsim$(EXEEXT) \
		$(top_srcdir)/docs/models/*.md
.PHONY: docs-params

# The man page's synopsis and options, made from every command's help
# (scripts/cli-docs.sh); tests/man-page-current.sh fails when they are
# out of date.
docs-man: storsim$(EXEEXT)
	$(SHELL) $(top_srcdir)/scripts/cli-docs.sh man ./storsim$(EXEEXT) \
		$(top_srcdir)/docs/storsim.1 >docs-man.tmp
	mv docs-man.tmp $(top_srcdir)/docs/storsim.1
.PHONY: docs-man
