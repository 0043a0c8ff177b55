#!/bin/sh
# Description: the NVMe driver never moves a doorbell backwards. A
# doorbell is written at the end of the work that queued its entries; an
# interrupt that preempts that work and queues entries of its own (a bio
# that waited for a tag) rings first, and the preempted context's older
# value used to reach the device after it. The device then took its SQ
# tail to have gone round the ring, ran stale entries again and posted a
# second completion for a request already ended: the run crashed. Here
# end_fsync writes back a long buffered read/write run on a sparse file
# with the queue full of waiting bios.
. "$top_srcdir/tests/tap.sh"
plan 1
out=$("$STORSIM" run --device=nvme0n1=optane-p5800x --mount=/d=xfs:nvme0n1 \
	--file=/d/f=1g:sparse --name=j --filename=/d/f --ioengine=pvsync2 \
	--bs=4k --direct=0 --time_based=1 --runtime=1s --end_fsync=1 \
	--rw=readwrite 2>&1)
rc=$?
printf '%s\n' "$out" | grep -q "err= 0"
check "buffered read/write with end_fsync ends cleanly (exit $rc)" \
	test $rc -eq 0 -a $? -eq 0
finish
