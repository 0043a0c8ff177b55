# traces/: experiments (published tables and how to reproduce them) and
# example traces, installed with the program.
nobase_dist_pkgdata_DATA += \
	traces/strategies.json traces/compare/dio-randwrite.fio \
	traces/nocopy-bvec/experiment.json \
	traces/dio-caller-comp/experiment.json \
	traces/dio-caller-comp/dio-write.fio \
	traces/iomap-per-block-dirty/experiment.json \
	traces/iomap-per-block-dirty/fio-run.fio \
	traces/async-buffered-reads/experiment.json \
	traces/async-buffered-reads/randread.fio
# The example traces of docs/traces.md, each format, and how the
# blktrace binaries were made.
nobase_dist_pkgdata_DATA += \
	traces/examples/README.md traces/examples/blkparse.txt \
	traces/examples/blktrace-be.bin traces/examples/blktrace.bin \
	traces/examples/disksim.trace traces/examples/fio-v2.iolog \
	traces/examples/fio-v3.iolog traces/examples/make-blktrace.pl \
	traces/examples/msr.csv traces/examples/spc.csv
