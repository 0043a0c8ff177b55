#!/bin/sh
# Description: fio's fsync family on io_uring (IORING_OP_FSYNC): every
# sync goes to an io-wq worker, as the kernel's io_fsync cannot run without
# blocking, fio counts them as it does for psync, and an IOPOLL ring
# refuses them. A worker blocked in an fsync hands the queue on, also when
# an SQPOLL thread submits (a worker once did it after its step had ended,
# and the run aborted).
. "$top_srcdir/tests/tap.sh"
plan 5
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

"$STORSIM" run --device nvme0n1=nand-nvme --mount /=xfs:nvme0n1 --name=x \
	--rw=randwrite --bs=4k --size=1m --direct=0 --ioengine=io_uring \
	--iodepth=4 --fdatasync=1 >"$out/text" 2>&1
check "the job runs" test $? -eq 0
# 256 writes, an fdatasync after each but the last, and more: fio asks
# for a sync until one completes (real fio 3.33 printed 256 and 258 for
# this job). fio counts fdatasyncs as short reads in this line.
syncs=$(sed -n 's/.*issued rwts: total=0,256,0,0 short=\([0-9]*\),0,0,0.*/\1/p' \
	"$out/text")
punts=$(sed -n 's/.* \([0-9][0-9]*\)  io_req_prep_async .*/\1/p' "$out/text")
check "at least 255 fdatasyncs ($syncs), each punted to io-wq ($punts punts)" \
	test "${syncs:-0}" -ge 255 -a "$punts" = "$syncs"
"$STORSIM" run --name=x --rw=randwrite --bs=4k --size=1m --direct=1 \
	--ioengine=io_uring --hipri=1 --fsync=1 --filename=/f >/dev/null 2>"$out/err"
rc=$?
grep -q "option 'fsync'" "$out/err"
check "fsync on an IOPOLL ring is refused, naming the option" \
	test $rc -ne 0 -a $? -eq 0
for wake in true false; do
	"$STORSIM" run --kernel=io_wq_wake_free_worker=$wake --name=x \
		--filename=/f --size=16m --ioengine=io_uring --rw=randwrite \
		--bs=4k --iodepth=8 --direct=0 --number_ios=100 --fsync=4 \
		--sqthread_poll=1 >"$out/text" 2>&1
	rc=$?
	# number_ios counts the fsyncs in flight, so do_io can end at 96
	# writes, with fsyncs out: fio 3.33 issued 96 or 100 in five runs
	set -- $(sed -n 's/.*issued rwts: total=0,\([0-9]*\),0,\([0-9]*\) .*/\1 \2/p' \
		"$out/text")
	check "SQPOLL with fsync=4 through io-wq runs to its end, 96-100 writes ($1) and at least 24 fsyncs ($2, io_wq_wake_free_worker=$wake)" \
		test $rc -eq 0 -a "${1:-0}" -ge 96 -a "${1:-0}" -le 100 -a "${2:-0}" -ge 24
done
finish
