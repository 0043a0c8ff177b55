#!/bin/sh
# Description: batched NVMe completion (kernel switch nvme_complete_batch,
# Linux 5.16) makes ending requests cheaper, not dearer: each pass over a
# completion queue ends its requests with one blk_mq_end_request_batch,
# which pays nvme_drv.complete_batch_ns once where an unbatched end pays it
# per request inside blk_mq.end_request_ns. Polled io_uring reads find
# several CQEs per pass, so the batches are larger than one.
. "$top_srcdir/tests/tap.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
plan 7

# stages SWITCH: "passes batches end_calls end_ns cqes" with the switch
stages() {
	"$STORSIM" run --host=axboe-5950x-2023 --set=nvme_drv.poll_queues=1 \
		--set=blk_mq.end_request_ns=50 --set=nvme_drv.complete_batch_ns=30 \
		--kernel=nvme_complete_batch="$1" --name=x --rw=randread --bs=4k \
		--ioengine=io_uring --hipri --iodepth=32 --direct=1 --size=64m \
		--runtime=2ms --time_based --cpus_allowed=0 \
		--filename=/dev/nvme0n1 --output-format=json |
		python3 -c 'import json,sys
p = {e["stage"]: e for e in json.load(sys.stdin)["storsim"]["cpu_profile"]}
g = lambda s, k: p[s][k] if s in p else 0
print(g("nvme_cq_doorbell", "calls"), g("nvme_complete_batch", "calls"),
      g("blk_mq_end_request", "calls"), g("blk_mq_end_request", "ns"),
      g("nvme_complete_batch", "ns"), g("nvme_handle_cqe", "calls"))'
}

# shellcheck disable=SC2046
set -- $(stages true)
on_passes=$1 on_batches=$2 on_ends=$3 on_end_ns=$4 on_batch_ns=$5 on_cqes=$6
# shellcheck disable=SC2046
set -- $(stages false)
off_batches=$2 off_ends=$3 off_end_ns=$4

check "batched: one batch per pass that found CQEs ($on_batches for $on_passes)" \
	test "$on_batches" -eq "$on_passes"
check "batched: several CQEs per pass on average ($on_cqes in $on_passes)" \
	test "$on_cqes" -gt "$on_passes"
check "batched: each request ends for 50 - 30 ns ($on_end_ns ns for $on_ends)" \
	test "$on_end_ns" -eq $((on_ends * 20))
check "unbatched: no batch, 50 ns per request ($off_end_ns ns for $off_ends)" \
	sh -c "test $off_batches -eq 0 && test $off_end_ns -eq $((off_ends * 50))"
# per I/O, in hundredths of a ns
on=$(((on_end_ns + on_batch_ns) * 100 / on_ends))
off=$((off_end_ns * 100 / off_ends))
check "ending a request costs less batched ($on) than not ($off), in 1/100 ns" \
	test "$on" -lt "$off"

"$STORSIM" run --set=blk_mq.end_request_ns=50 --set=nvme_drv.complete_batch_ns=60 \
	--name=x --rw=read --direct=1 --size=1m --filename=/dev/nvme0n1 \
	>/dev/null 2>"$out/err"
check "a batch share above the whole end of a request is refused (exit $?)" test $? -eq 1
check "and the message names it" \
	grep -q "option 'nvme_drv.complete_batch_ns': nvme0n1: 60 ns is more than blk_mq.end_request_ns (50 ns)" \
	"$out/err"
finish
