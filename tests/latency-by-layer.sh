#!/bin/sh
# Description: each job's latency by layer (the "latency_by_layer" object
# under the job's "storsim" key, and its text block): the layers' means
# add up to fio's mean latency for every engine and path; null_blk's
# completion_nsec is the device layer, to the nanosecond; a page-cache
# hit has no device time; each layer's p50, p99 and p99.9 are numbers in
# ascending order, and null_blk's completion_nsec is the device's at each
# of them, within a histogram bucket; the workqueue punt of stock direct
# writes shows in the kernel's completion layer and nowhere below the
# block layer; a synchronous read's ends after its copy to user space; a
# large plugged request goes to the driver as the next joins the plug; a
# reporting group sums its jobs, histograms too; the text block names its
# percentile columns; --no-cpu-profile leaves it out.
. "$top_srcdir/tests/tap.sh"

plan 29
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run ARGS...: storsim's JSON in $tmp/j
run() {
	"$STORSIM" run --output-format=json "$@" >"$tmp/j" 2>"$tmp/err" || {
		diag "$(cat "$tmp/err")"
		return 1
	}
}

# layer DIR NAME: the mean of a layer in ns (NAME "ios", "sum" or a layer)
layer() {
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
l = j["storsim"]["latency_by_layer"][sys.argv[2]]
if sys.argv[3] == "ios":
    print(l["ios"])
elif sys.argv[3] == "sum":
    print(sum(x["mean_ns"] for x in l["layers"]))
else:
    print([x["mean_ns"] for x in l["layers"] if x["layer"] == sys.argv[3]][0])' \
		"$tmp/j" "$1" "$2"
}

# adds_up DIR: the layers' means add up to fio's lat mean (within the
# rounding of the printed means)
adds_up() {
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
l = j["storsim"]["latency_by_layer"][sys.argv[2]]
fio = j[sys.argv[2]]["lat_ns"]["mean"]
s = sum(x["mean_ns"] for x in l["layers"])
sys.exit(0 if l["ios"] == j[sys.argv[2]]["total_ios"] and abs(s - fio) < 0.01
         else 1)' "$tmp/j" "$1"
}

# pct DIR NAME P: percentile P ("50.000000"...) of a layer in ns
pct() {
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
l = j["storsim"]["latency_by_layer"][sys.argv[2]]
print([x["percentile_ns"][sys.argv[4]] for x in l["layers"]
       if x["layer"] == sys.argv[3]][0])' "$tmp/j" "$1" "$2" "$3"
}

# ascending DIR: every layer has its p50, p99 and p99.9 as integers, in
# that order
ascending() {
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
ok = True
for x in j["storsim"]["latency_by_layer"][sys.argv[2]]["layers"]:
    p = x["percentile_ns"]
    v = [p.get(k) for k in ("50.000000", "99.000000", "99.900000")]
    ok &= len(p) == 3 and all(type(n) is int for n in v) and v == sorted(v)
sys.exit(0 if ok else 1)' "$tmp/j" "$1"
}

# flat DIR NAME NS: the layer's p50, p99 and p99.9 are all NS within the
# resolution of fio's latency histogram (64 buckets per power of two)
flat() {
	for p in 50.000000 99.000000 99.900000; do
		python3 -c 'import sys; a, b = map(float, sys.argv[1:]); sys.exit(abs(a - b) > b / 64)' \
			"$(pct "$1" "$2" $p)" "$3" || return 1
	done
}

# equal A B: two numbers equal within 0.001
equal() {
	python3 -c 'import sys; sys.exit(abs(float(sys.argv[1]) - float(sys.argv[2])) > 1e-3)' "$1" "$2"
}
# greater A B
greater() {
	python3 -c 'import sys; sys.exit(float(sys.argv[1]) <= float(sys.argv[2]))' "$1" "$2"
}

common='--size=64m --runtime=20ms --time_based'
# engine and path | direction
cases='--ioengine=io_uring --iodepth=4 --direct=1 --rw=randwrite --filename=/dev/nvme0n1|write
--ioengine=libaio --iodepth=8 --direct=1 --rw=randread --filename=/dev/nvme0n1|read
--ioengine=psync --direct=1 --rw=randread --filename=/f|read
--ioengine=io_uring --iodepth=8 --direct=0 --rw=randread --filename=/f|read
--ioengine=pvsync2 --hipri=1 --direct=1 --rw=randread --filename=/f --set=nvme_drv.poll_queues=1|read
--ioengine=psync --direct=0 --rw=write --filename=/f --fdatasync=8|write'
while IFS='|' read -r opts dir <&3; do
	# shellcheck disable=SC2086
	run --file=/f=64m:written --name=j $opts $common
	check "layers add up to fio's mean latency: $opts" adds_up "$dir"
	check "each layer's percentiles are numbers, ascending: $opts" ascending "$dir"
done 3<<EOF
$cases
EOF

nullb='--device=nullb0=null_blk --name=j --filename=/dev/nullb0 --rw=randread
--bs=4k --ioengine=libaio --iodepth=8 --direct=1'
# shellcheck disable=SC2086
run $nullb $common --set=nullb0.irqmode=timer --set=nullb0.completion_nsec=20000
check "null_blk, irqmode=timer: the layers add up" adds_up read
check "null_blk, irqmode=timer: the device layer is completion_nsec" \
	equal "$(layer read device)" 20000
check "null_blk, irqmode=timer: the device's p50, p99 and p99.9 are completion_nsec" \
	flat read device 20000
# shellcheck disable=SC2086
run $nullb $common --set=nullb0.irqmode=none
check "null_blk, irqmode=none: no device time" equal "$(layer read device)" 0
check "null_blk, irqmode=none: no interrupt time" equal "$(layer read interrupt)" 0

run --file=/f=16m:written --name=j --filename=/f --rw=randread --bs=4k \
	--ioengine=psync --size=16m --pre_read=1 --invalidate=0 --loops=2
check "page-cache hits: the layers add up" adds_up read
check "page-cache hits: no device time" equal "$(layer read device)" 0
check "page-cache hits: the read is the kernel's submission" \
	greater "$(layer read kernel_submit)" 0

# A synchronous read's latency ends when the syscall returns (fio's
# td_io_queue): after the woken reader's copy to user space, which the
# completion layer then holds.
run --file=/f=64m:written --name=j --filename=/f --rw=randread --bs=4k \
	--ioengine=psync --direct=0 $common
# the copy and the switch back to the reader, per read, from the profile
copy=$(python3 -c 'import json, sys
p = {s["stage"]: s for s in json.load(open(sys.argv[1]))["storsim"]["cpu_profile"]}
print(sum(p[k]["ns"] / p[k]["calls"] for k in ("copy_to_user", "ctx_switch")))' "$tmp/j")
check "psync buffered misses: the completion layer holds the switch back and the copy ($copy ns)" \
	greater "$(layer read kernel_complete)" "$copy"

# A plugged request of 128 KiB or more goes to the driver as the next
# one joins the plug (BLK_PLUG_FLUSH_SIZE), unless the queue has nomerges:
# 256 KiB reads submitted 8 at a time wait less in the plug with it.
big() {
	run --set=blk_mq.nomerges="$1" --name=j --filename=/dev/nvme0n1 \
		--rw=randread --bs=256k --ioengine=io_uring --iodepth=8 \
		--iodepth_batch_submit=8 --iodepth_batch_complete_min=8 \
		--direct=1 $common
	layer read block_queue
}
flushed=$(big 0) held=$(big 2)
check "256 KiB reads in a batch of 8 wait less in the plug ($flushed against $held ns)" \
	greater "$held" "$(python3 -c 'import sys; print(2 * float(sys.argv[1]))' "$flushed")"

# dio-caller-comp's system at QD16: stock punts each write's completion
# to a workqueue, the patch completes it in the issuer.
dio() {
	(cd "$top_srcdir/traces/dio-caller-comp" && DEPTH=16 RUNTIME=100ms \
		"$STORSIM" run --output-format=json --host=axboe-5950x-2023 \
		--device=nvme0n1=optane-p5800x --mount=/data1=xfs:nvme0n1 \
		--file=/data1/file=8g:written --kernel=dio_caller_comp="$1" \
		dio-write.fio) >"$tmp/j"
}
dio false
stock_kc=$(layer write kernel_complete) stock_dev=$(layer write device)
dio true
check "dio-caller-comp: stock's completion above the block layer is longer" \
	greater "$stock_kc" "$(layer write kernel_complete)"
check "dio-caller-comp: the device layer does not change" \
	python3 -c 'import sys; a, b = map(float, sys.argv[1:]); sys.exit(abs(a - b) > 0.01 * b)' \
	"$stock_dev" "$(layer write device)"

run --file=/f=64m:written --name=j --filename=/f --rw=randread --direct=1 \
	--ioengine=libaio --iodepth=4 --numjobs=2 --group_reporting $common
check "group_reporting: the group's I/Os are both jobs'" adds_up read
check "group_reporting: the group's sum has each layer's percentiles" \
	python3 -c 'import json, sys
l = json.load(open(sys.argv[1]))["jobs"][0]["storsim"]["latency_by_layer"]["read"]
d = [x for x in l["layers"] if x["layer"] == "device"][0]["percentile_ns"]
sys.exit(not 0 < d["50.000000"] <= d["99.900000"])' "$tmp/j"
"$STORSIM" run --name=j --filename=/dev/nvme0n1 --rw=randread --direct=1 \
	$common >"$tmp/t"
check "the text block names the percentile columns" \
	grep -q "mean *share *p50 *p99 *p99.9" "$tmp/t"

run --no-cpu-profile --name=j --filename=/dev/nvme0n1 --rw=randread \
	--direct=1 $common
check "--no-cpu-profile: no storsim key in the job" \
	python3 -c 'import json, sys; sys.exit("storsim" in json.load(open(sys.argv[1]))["jobs"][0])' "$tmp/j"
"$STORSIM" run --no-cpu-profile --name=j --filename=/dev/nvme0n1 \
	--rw=randread --direct=1 $common >"$tmp/t"
check "--no-cpu-profile: no text block" sh -c '! grep -q "latency by layer" "$1"' sh "$tmp/t"
finish
