#!/bin/sh
# Description: io_uring SQPOLL (fio's sqthread_poll): the SQ thread submits
# and completes, fio polls the CQ ring in user space without a context
# switch, the thread goes where sqthread_poll_cpu puts it, a ring whose
# thread still runs can be torn down, and what is not modelled is refused.
# Requests the thread completes within their submission (buffered writes
# and cache reads) end fio's CQ polling too, at any depth.
. "$top_srcdir/tests/tap.sh"
plan 9
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

job() {
	"$STORSIM" run --host axboe-5950x-2023 --output-format=json --name=j \
		--ioengine=io_uring --direct=1 --rw=randread --bs=4k --size=1g \
		--time_based=1 --runtime=1 --iodepth=16 --filename=/dev/nvme0n1 "$@"
}
field() {
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

job --sqthread_poll=0 >"$out/irq" 2>/dev/null
job --sqthread_poll=1 >"$out/sqp" 2>/dev/null
ctx=$(field "$out/sqp" 'd["jobs"][0]["ctx"]')
usr=$(field "$out/sqp" 'd["jobs"][0]["usr_cpu"]')
check "fio polls the CQ ring: no context switch, all user time ($ctx, $usr%)" \
	python3 -c "import sys; sys.exit(not ($ctx == 0 and $usr > 99))"
a=$(field "$out/irq" 'd["jobs"][0]["read"]["iops"]')
b=$(field "$out/sqp" 'd["jobs"][0]["read"]["iops"]')
check "with the kernel's share of the work on the SQ thread, QD16 goes faster ($a -> $b IOPS)" \
	python3 -c "import sys; sys.exit(not $b > 1.1 * $a)"

"$STORSIM" run --host axboe-5950x-2023 "$top_srcdir/tests/jobs/sqpoll/two-rings.fio" \
	>"$out/two" 2>&1
check "two SQPOLL jobs in a row run to the end" test $? -eq 0
grep -q "^storsim: cpu3: .*sys=[1-9]" "$out/two"
check "sqthread_poll_cpu=3 puts the SQ thread on CPU 3" test $? -eq 0

job --sqthread_poll=1 --hipri=1 >"$out/hipri" 2>"$out/hipri.err"
rc=$?
grep -q "option 'sqthread_poll'" "$out/hipri.err"
check "SQPOLL with hipri is refused with a message naming the option" \
	test $rc -ne 0 -a $? -eq 0
for extra in "--rw=randwrite" "--rw=randwrite --end_fsync=1" \
	"--rw=randwrite --fsync=4" "--rw=randread --pre_read=1"; do
	"$STORSIM" run --mount=/d=xfs:nvme0n1 --file=/d/f=64m:written --name=j \
		--filename=/d/f --ioengine=io_uring --direct=0 --size=4m --bs=4k \
		--iodepth=1 --number_ios=10 --sqthread_poll=1 $extra >"$out/buf" 2>&1
	rc=$?
	grep -q "err= 0" "$out/buf"
	check "buffered, QD1, SQPOLL, $extra: the job ends (exit $rc)" \
		test $rc -eq 0 -a $? -eq 0
done
finish
