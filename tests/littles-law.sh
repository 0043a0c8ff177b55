#!/bin/sh
# Description: closed-loop runs obey Little's law: IOPS times the mean
# latency (fio's lat, from queueing to completion) equals the I/O depth,
# for the synchronous and queued engines, on a device with a service-time
# distribution and limited parallelism.
. "$top_srcdir/tests/tap.sh"
plan 6
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# A slow, jittery device with four media units: the queue builds inside it.
dev="--device nvme0n1=qemu-nvme --set nvme0n1.read_latency=100000
--set nvme0n1.media_jitter=0.5 --set nvme0n1.media_units=4"

for case in psync:1 libaio:4 io_uring:1 io_uring:8 io_uring:32 libaio:16; do
	engine=${case%:*}
	qd=${case#*:}
	# shellcheck disable=SC2086
	"$STORSIM" run $dev --output-format=json --name=l --rw=randread --bs=4k \
		--direct=1 --size=32m --runtime=200ms --time_based \
		--filename=/dev/nvme0n1 --ioengine="$engine" --iodepth="$qd" \
		>"$out/$case.json" 2>/dev/null
	check "$engine at iodepth $qd: IOPS x mean latency = $qd (within 2%)" \
		python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]["read"]
qd = int(sys.argv[2])
n = j["iops"] * j["lat_ns"]["mean"] / 1e9
print("# IOPS %.0f x lat %.0f ns = %.3f" % (j["iops"], j["lat_ns"]["mean"], n))
sys.exit(0 if abs(n / qd - 1) < 0.02 else 1)' "$out/$case.json" "$qd"
done
finish
