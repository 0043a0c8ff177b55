#!/bin/sh
# Description: the page cache's writeback (models/fs/writeback.c): dirty
# throttling holds a writer to the device's rate, the flusher writes in the
# background above dirty_background_ratio and writes old data after
# dirty_expire, and nothing is written early otherwise; writers that kick
# the flusher before its deferred start has run are answered by that start.
. "$top_srcdir/tests/tap.sh"
plan 6
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# field JSON PYTHON-EXPRESSION: a value from storsim's fio JSON output (d).
field() {
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}
seqwrite() {
	"$STORSIM" run --output-format=json "$@" --name=w --rw=write --bs=64k \
		--size=2g --direct=0 --ioengine=psync --end_fsync=1 2>/dev/null
}

seqwrite --device nvme0n1=nand-nvme --mount /=xfs:nvme0n1 \
	--set pagecache.cache_mb=1024 >"$out/nand"
bw=$(field "$out/nand" 'd["jobs"][0]["write"]["bw_bytes"]')
ctx=$(field "$out/nand" 'd["jobs"][0]["ctx"]')
diag "nand-nvme: $bw B/s, $ctx context switches"
check "a writer over dirty_ratio runs at nand-nvme's destage rate (450 MB/s +-10%)" \
	python3 -c "import sys; sys.exit(not (405e6 <= $bw <= 495e6 and $ctx > 100))"

seqwrite --set pagecache.cache_mb=1024 >"$out/optane"
ctx=$(field "$out/optane" 'd["jobs"][0]["ctx"]')
check "a writer the device keeps up with is never throttled ($ctx switches)" \
	test "$ctx" -lt 10

smallrun() {
	"$STORSIM" run --output-format=json --set pagecache.cache_mb=1024 "$@" \
		--name=w --rw=write --bs=64k --size=300m --direct=0 \
		--ioengine=psync 2>/dev/null >"$out/small"
	field "$out/small" 'sum(x["write_ios"] for x in d.get("disk_util", []))'
}
writes=$(smallrun)
check "300 MiB dirty in a 1 GiB cache (over 10%) starts background writeback ($writes writes)" \
	test "$writes" -gt 0
writes=$(smallrun --set pagecache.dirty_background_ratio=50 \
	--set pagecache.dirty_ratio=60)
check "under dirty_background_ratio nothing is written ($writes writes)" \
	test "$writes" -eq 0

for rt in 20 40; do
	RUNTIME=$rt "$STORSIM" run --output-format=json \
		"$top_srcdir/tests/jobs/writeback/expire.fio" 2>/dev/null >"$out/exp$rt"
done
w20=$(field "$out/exp20" 'd["disk_util"][0]["write_ios"]')
w40=$(field "$out/exp40" 'd["disk_util"][0]["write_ios"]')
check "dirty data is written once older than dirty_expire (20 s: $w20, 40 s: $w40)" \
	test "$w20" -eq 0 -a "$w40" -gt 0
# Found by scripts/fuzz-runs (seed 201): five buffered writers and readers
# of a raw device; the second kick came while the flusher was being made.
check "writers kicking the flusher before it has started: the run completes" \
	"$STORSIM" run --output="$out/kick" --device=nullb0=null_blk \
	--name=w --filename=/dev/nullb0 --rw=randwrite --size=100g \
	--runtime=1s --time_based --name=rw --filename=/dev/nullb0 --rw=rw \
	--numjobs=4 --size=100g --runtime=1s --time_based
finish
