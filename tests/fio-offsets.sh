#!/bin/sh
# Description: the fio options that choose offsets, and those that pace a
# job, do what fio does with them. The offsets are read back from the
# durability report of a power loss after 64 writes to a drive without a
# write cache: every acknowledged write is there, as LBA ranges (512-byte
# LBAs, 8 per 4 KiB write, 256 blocks in the 1 MiB region).
#   percentage_random   0: one sequential run from LBA 0; 50: some runs
#   rw=randwrite:4      a new offset every 4th write, sequential between,
#                       or the same offset again (rw_sequencer=identical)
#   ba                  random offsets are multiples of blockalign
#   random_generator    lfsr writes no block twice, even with norandommap;
#                       a seed that is its register's dead state (the
#                       third job's for a 2-block file) is refused, where
#                       fio 3.33 fails the job ("failed initializing LFSR")
#   randseed            moves the offsets only with randrepeat=0, as in
#                       fio 3.33, which seeds them by the job's number;
#                       --seed moves them only where fio would pick a
#                       seed at random (randrepeat=0 without randseed)
#   iodepth_low         a full queue drains to it before refilling
#   wait_for            a job starts when the one it names has ended
# and a backward job (rw=write:-N) steps back from the region's end.
# tests/offsets-vs-fio.sh compares the offsets with fio's own.
. "$top_srcdir/tests/tap.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

dev="--device nvme0n1=qemu-nvme --set nvme0n1.write_cache_enabled=false
--power-loss=after:64 --output-format=json"
job="--name=w --rw=randwrite --bs=4k --ioengine=psync --direct=1 --size=1m
--filename=/dev/nvme0n1"

# written NAME OPTION...: run the writer with extra options into NAME.json
written() {
	name=$1
	shift
	# shellcheck disable=SC2086
	"$STORSIM" run $dev $job "$@" >"$out/$name.json" 2>"$out/$name.err" ||
		diag "$name: $(cat "$out/$name.err")"
}

# ranges NAME WHAT: a figure of NAME's durable ranges
ranges() {
	python3 - "$out/$1.json" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["storsim"]["power_loss"]
r = [x for x in d["ranges"] if x["state"] == "durable"]
what = sys.argv[2]
if what == "count":
    print(len(r))
elif what == "blocks":
    print(d["durable_blocks"])
elif what == "first":
    print(r[0]["slba"] if r else -1)
elif what == "longest":
    print(max(x["nlb"] for x in r))
elif what == "unaligned16k":
    print(sum(1 for x in r if x["slba"] % 32))
elif what == "list":
    print(" ".join("%d+%d" % (x["slba"], x["nlb"]) for x in r))
PY
}

plan 22

written random
written seq --percentage_random=0
written half --percentage_random=50
check "percentage_random=0: one run ($(ranges seq count) range)" \
	test "$(ranges seq count)" -eq 1
check "percentage_random=0: the run starts at LBA 0" test "$(ranges seq first)" -eq 0
check "percentage_random=100: scattered ($(ranges random count) ranges)" \
	test "$(ranges random count)" -gt 32
check "percentage_random=50: fewer ranges than 100 ($(ranges half count))" \
	test "$(ranges half count)" -lt "$(ranges random count)"
check "percentage_random=50: some sequential runs (longest $(ranges half longest) LBAs)" \
	test "$(ranges half longest)" -gt 8

written every4 --rw=randwrite:4
written same4 --rw=randwrite:4 --rw_sequencer=identical
check "rw=randwrite:4: at most 64/4+1 runs ($(ranges every4 count))" \
	test "$(ranges every4 count)" -le 17
check "rw=randwrite:4: the first write takes a random offset, not LBA 0, as in fio" \
	test "$(ranges every4 first)" -gt 0
check "rw_sequencer=identical: each offset 4 times, 17 distinct at most ($(ranges same4 blocks) LBAs)" \
	test "$(ranges same4 blocks)" -le $((17 * 8))

written nomap --norandommap
written nomap16k --norandommap --ba=16k
check "norandommap: some offsets off a 16 KiB boundary" \
	test "$(ranges nomap unaligned16k)" -gt 0
check "ba=16k: every offset on a 16 KiB boundary" \
	test "$(ranges nomap16k unaligned16k)" -eq 0

written lfsr --norandommap --random_generator=lfsr
check "norandommap: some blocks written twice ($(ranges nomap blocks) of 512 LBAs)" \
	test "$(ranges nomap blocks)" -lt 512
check "random_generator=lfsr: no block written twice" \
	test "$(ranges lfsr blocks)" -eq 512

written seed7 --randseed=7 --randrepeat=0
written seed7b --randseed=7 --randrepeat=0 --seed=2
written seed8 --randseed=8 --randrepeat=0
written repeat8 --randseed=8
written seed2 --seed=2
written unseeded --randrepeat=0
written unseeded2 --randrepeat=0 --seed=2
check "randrepeat=0, randseed: the same offsets with another --seed" \
	test "$(ranges seed7 list)" = "$(ranges seed7b list)"
check "randrepeat=0: other offsets with another randseed" \
	test "$(ranges seed7 list)" != "$(ranges seed8 list)"
check "randrepeat=1 (default): randseed does not move the offsets" \
	test "$(ranges random list)" = "$(ranges repeat8 list)"
check "randrepeat=1 (default): --seed does not move the offsets" \
	test "$(ranges random list)" = "$(ranges seed2 list)"
check "randrepeat=0 without randseed: --seed picks the offsets" \
	test "$(ranges unseeded list)" != "$(ranges unseeded2 list)"

# level8 OPTION...: share of submissions with 8 or more I/Os in flight
level8() {
	"$STORSIM" run --output-format=json --name=r --rw=randread --bs=4k \
		--ioengine=io_uring --iodepth=8 --direct=1 --size=64m --runtime=20ms \
		--time_based --filename=/dev/nvme0n1 "$@" |
		python3 -c 'import json,sys; print(int(json.load(sys.stdin)["jobs"][0]["iodepth_level"]["8"]))'
}
full=$(level8)
low=$(level8 --iodepth_low=1)
check "iodepth_low=1: the queue is seldom full ($low% of submissions at 8, $full% without)" \
	sh -c "test $full -gt 90 && test $low -lt 50"

# span WAIT: simulated length of two 10 ms jobs, b waiting for a or not
span() {
	cat >"$out/two.fio" <<JOB
[global]
rw=randread
bs=4k
ioengine=psync
direct=1
size=64m
runtime=10ms
time_based
filename=/dev/nvme0n1
[a]
[b]
$1
JOB
	"$STORSIM" run --output-format=json "$out/two.fio" |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["storsim"]["simulated_ns"] // 1000000)'
}
check "wait_for=a: b runs after a (run of $(span wait_for=a) ms)" test "$(span wait_for=a)" -ge 20
check "without wait_for they run together ($(span '') ms)" test "$(span '')" -lt 15

# fio 3.33's offsets in KiB, from its write_iolog of the same job on a
# 1 MiB file: after each 4k write the offset moves 8k back, which from 0
# runs past the region's start and goes on 8k before its end
"$STORSIM" run --name=w --ioengine=psync --direct=1 --filename=/dev/nvme0n1 \
	--rw=write:-8k --bs=4k --size=64k --write_iolog="$out/back.log" \
	>/dev/null 2>&1
back=$(awk '$3 == "write" { printf "%d ", $4 / 1024 }' "$out/back.log")
check "rw=write:-8k over 64k writes 0, then back from 56k: $back" \
	test "$back" = "0 56 52 48 44 40 36 32 28 24 20 16 12 8 4 0 "

check "lfsr in its dead state: the job is refused, naming random_generator" \
	refused_job random_generator "failed initializing LFSR" '[global]' \
	ioengine=null bs=4k size=8k rw=randread random_generator=lfsr \
	'[a]' '[b]' '[c]'
finish
