#!/bin/sh
# Description: null_blk's submit_queues as the kernel module reads it
# (null_init): 0 means one queue, and more queues than CPUs means one per
# CPU. With irqmode=softirq a request completes inline when the submitting
# CPU has a queue of its own, and through BLOCK_SOFTIRQ when all share one,
# so the soft IRQ count tells which the model built.
. "$top_srcdir/tests/tap.sh"
plan 4

# softirqs N: "softirq passes, I/Os" of a run with submit_queues=N on the
# default host (8 CPUs)
softirqs() {
	"$STORSIM" run --device=nullb0=null_blk --set=nullb0.completion_nsec=0 \
		--set=nullb0.submit_queues="$1" --name=x --rw=randread --bs=4k \
		--ioengine=io_uring --iodepth=8 --direct=1 --runtime=1ms \
		--time_based --filename=/dev/nullb0 --output-format=json |
		python3 -c 'import json,sys
d = json.load(sys.stdin)
p = {e["stage"]: e["calls"] for e in d["storsim"]["cpu_profile"]}
print(p.get("softirq_entry", 0), d["jobs"][0]["read"]["total_ios"])'
}

# shellcheck disable=SC2046
set -- $(softirqs 0)
check "submit_queues=0 is one shared queue: a soft IRQ per I/O ($1 for $2)" \
	test "$1" -eq "$2"
# shellcheck disable=SC2046
set -- $(softirqs 1)
check "submit_queues=1: the same ($1 for $2)" test "$1" -eq "$2"
# shellcheck disable=SC2046
set -- $(softirqs 8)
check "submit_queues=8, one per CPU: completions inline ($1 soft IRQs)" test "$1" -eq 0
# shellcheck disable=SC2046
set -- $(softirqs 999)
check "submit_queues=999 is capped at one per CPU ($1 soft IRQs)" test "$1" -eq 0
finish
