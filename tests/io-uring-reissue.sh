#!/bin/sh
# Description: io_uring issues a read again from io-wq when the block
# layer cannot take its NOWAIT bio at once (io_rw_should_reissue): with
# 1024 reads of 64 KiB in flight the drive's tags run out, and fio must
# see every read succeed, on an IRQ ring and on an IOPOLL (hipri) ring,
# where the worker only issues and the owner's polling completes it.
# The same for a file on XFS whose 1 MiB reads are split: a split child
# refused after others went out ends the read later, through task_work;
# a caller-completed write (dio_caller_comp) learns of it only there.
# On an IOPOLL ring the poller finds such a late refusal when it reaps the
# request, and sends it to io-wq, as 5.x's io_iopoll_complete did (found
# by make fuzz-runs, seed 72: 1 MiB reads of 64 KiB pages, hipri).
# Before, the -EAGAIN reached fio as the job's error 11.
. "$top_srcdir/tests/tap.sh"
plan 7

for hipri in 0 1; do
	out=$("$STORSIM" run --host=axboe-5950x-2023 \
		--device=nvme0n1=optane-p5800x --name=j --filename=/dev/nvme0n1 \
		--ioengine=io_uring --rw=read --direct=1 --bs=64k --iodepth=1024 \
		--time_based=1 --runtime=2ms --hipri=$hipri 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -q "err= 0"
	check "hipri=$hipri: the job ends without an error" test $rc -eq 0 -a $? -eq 0
	punts=$(printf '%s\n' "$out" |
		sed -n 's/.* \([0-9][0-9]*\)  io_req_prep_async .*/\1/p')
	check "hipri=$hipri: reads the drive could not take went to io-wq ($punts)" \
		test "${punts:-0}" -ge 1
done
out=$("$STORSIM" run --host=axboe-5950x-2023 --device=nvme0n1=qemu-nvme \
	--mount=/d=xfs:nvme0n1 --file=/d/f=16m:written --name=j --filename=/d/f \
	--ioengine=io_uring --rw=read --direct=1 --bs=1m --iodepth=1024 \
	--time_based=1 --runtime=50ms 2>&1)
rc=$?
printf '%s\n' "$out" | grep -q "err= 0"
check "split 1 MiB reads at QD1024 on XFS: the job ends without an error" \
	test $rc -eq 0 -a $? -eq 0
out=$("$STORSIM" run --host=power9-64k --device=nvme0n1=qemu-nvme \
	--kernel=dio_caller_comp=true --mount=/d=ext4:nvme0n1 \
	--file=/d/f=4m:written --name=j --filename=/d/f --ioengine=io_uring \
	--rw=write --direct=1 --bs=1m --iodepth=1024 --size=4m --time_based=1 \
	--runtime=100ms 2>&1)
rc=$?
printf '%s\n' "$out" | grep -q "err= 0"
check "split 1 MiB caller-completed writes at QD1024 on ext4: no error" \
	test $rc -eq 0 -a $? -eq 0
out=$("$STORSIM" run --host=power9-64k --device=nvme0n1=optane-p5800x \
	--name=j --filename=/dev/nvme0n1 --ioengine=io_uring --rw=read \
	--direct=1 --bs=1m --iodepth=1024 --size=4m --time_based=1 \
	--runtime=10ms --hipri=1 2>&1)
rc=$?
printf '%s\n' "$out" | grep -q "err= 0"
check "split 1 MiB polled reads at QD1024, refused after issue: no error" \
	test $rc -eq 0 -a $? -eq 0
finish
