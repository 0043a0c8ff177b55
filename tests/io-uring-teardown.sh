#!/bin/sh
# Description: a job whose io_uring ring has io-wq workers can finish
# while a worker is still in a step after posting its last completion
# (here: direct writes into a sparse ext4 file go to io-wq, and a second
# job keeps the simulation running). The ring used to be freed with the
# job, and the worker's next step read freed memory: a segfault, or an
# AddressSanitizer report in a --enable-sanitizers build (found by
# make fuzz-runs, seed 73). The ring now stays until the host goes.
. "$top_srcdir/tests/tap.sh"
plan 1

out=$("$STORSIM" run --no-cpu-profile --host=axboe-2020 \
	--device=nvme0n1=nand-nvme --mount=/d=ext4:nvme0n1 --file=/d/f=1g:sparse \
	--kernel=io_uring_lazy_wake=false \
	--name=j0 --filename=/d/f --ioengine=io_uring --rw=rw --bs=4k \
	--iodepth=4 --direct=1 --time_based=1 --runtime=10ms --offset=64k \
	--group_reporting --io_size=2m \
	--name=j1 --filename=/d/f --ioengine=io_uring --rw=rw --bs=4k \
	--iodepth=32 --direct=1 --size=2m --time_based=1 --runtime=2ms \
	--iodepth_batch_complete_min=1 --iodepth_batch_complete_max=8 \
	--ramp_time=1ms --group_reporting --thinktime_blocks=4 2>&1)
rc=$?
printf '%s\n' "$out" | grep -q "jobs=2): err= 0"
found=$?
check "two io_uring jobs with io-wq punts, one ending first: exit $rc, reported" \
	test $rc -eq 0 -a $found -eq 0
finish
