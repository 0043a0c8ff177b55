# traces/: experiments (published tables and how to reproduce them) and
# example traces, installed with the program.
nobase_dist_pkgdata_DATA += \
	traces/nocopy-bvec/experiment.json \
	traces/dio-caller-comp/experiment.json \
	traces/dio-caller-comp/dio-write.fio
