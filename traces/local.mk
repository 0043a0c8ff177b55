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
