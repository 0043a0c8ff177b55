#!/bin/sh
# Description: buffered I/O on a raw block device (fio's default direct=0
# on /dev/nvme0n1) goes through the device's own page cache: a second
# pass of random reads is served from the cache (invalidate=0, the device
# kept open), sequential reads are
# read ahead, buffered writes reach the device at fsync with a cache
# flush, random reads over a whole 1.9 TB device hold memory for the
# folios cached and not for the device's size, t/io_uring's -O0 runs,
# pre_read fills the cache with the job's region first, and a folio of
# more blocks than the model tells apart is refused with the option named.
. "$top_srcdir/tests/tap.sh"

plan 9
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# FIELD...: print the figures of a JSON run result, one line.
fields() {
	python3 -c '
import json, sys
j = json.load(sys.stdin)
job, disk, dev = j["jobs"][0], j.get("disk_util", [{}])[0], j["storsim"]["devices"]
print(" ".join(str(eval(e)) for e in sys.argv[1:]))' "$@"
}

# A time_based job goes over its region again without closing the device;
# with invalidate=0 it keeps what it read (fio's invalidate=1 drops it each
# time round: tests/blkdev-close.sh).
got=$("$STORSIM" run --output-format=json --name=r --filename=/dev/nvme0n1 \
	--rw=randread --size=4m --time_based --runtime=20ms --invalidate=0 |
	fields 'job["read"]["total_ios"] > 2048' 'disk["read_ios"]')
check "random reads, over and over 4 MiB: the device reads each block once (more than 2 passes, device reads: $got)" \
	test "$got" = "True 1024"

got=$("$STORSIM" run --output-format=json --name=s --filename=/dev/nvme0n1 \
	--rw=read --size=64m | fields 'job["read"]["total_ios"]' 'disk["read_ios"]')
check "sequential 4 KiB reads are read ahead: far fewer device reads (fio, device: $got)" \
	awk -v f="${got% *}" -v d="${got#* }" 'BEGIN { exit !(f == 16384 && d > 0 && d * 16 <= f) }'

got=$("$STORSIM" run --device nvme0n1=qemu-nvme --output-format=json --name=w \
	--filename=/dev/nvme0n1 --rw=randwrite --size=16m --end_fsync=1 |
	fields 'dev["nvme0n1"]["bytes_written"]' 'dev["nvme0n1"]["flushes"]' \
	'disk["write_ios"] < job["write"]["total_ios"]')
check "buffered writes reach the device at end_fsync, merged, then a flush (bytes, flushes, merged: $got)" \
	test "$got" = "16777216 1 True"

python3 - "$STORSIM" >"$tmp/rss" 2>&1 <<'EOF'
import resource, subprocess, sys
r = subprocess.run([sys.argv[1], "run", "--device", "nvme0n1=nand-nvme",
                    "--name=big", "--filename=/dev/nvme0n1", "--rw=randread",
                    "--ioengine=io_uring", "--iodepth=32", "--time_based",
                    "--runtime=1s", "--no-cpu-profile"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(r.returncode, kib)
EOF
read -r rc kib <"$tmp/rss"
check "random reads over a whole 1.9 TB device: peak memory $kib KiB (under 256 MiB)" \
	test "$rc" = 0 -a "$kib" -lt 262144

"$STORSIM" uring-bench -O0 -p0 -d 8 -s 8 -c 8 -r 2 /dev/nvme0n1 >"$tmp/ub" 2>&1
check "uring-bench -O0 (buffered) on a raw device: $(tail -1 "$tmp/ub")" \
	grep -q '^Maximum IOPS=[1-9]' "$tmp/ub"

got=$("$STORSIM" run --output-format=json --name=d --filename=/dev/nvme0n1 \
	--rw=randread --size=16m --direct=1 --name=b --filename=/dev/nvme0n1 \
	--rw=randread --size=16m --direct=0 |
	python3 -c 'import json, sys; print(" ".join(str(j["read"]["total_ios"]) for j in json.load(sys.stdin)["jobs"]))')
check "a direct and a buffered job on one device both run (reads: $got)" \
	test "$got" = "4096 4096"

got=$("$STORSIM" run --output-format=json --name=p --filename=/dev/nvme0n1 \
	--size=16m --offset=1g --rw=randread --pre_read=1 |
	fields 'job["read"]["total_ios"]' 'dev["nvme0n1"].get("reads", 0)')
check "pre_read puts the job's region of the device in its cache: no drive reads ($got)" \
	test "$got" = "4096 0"

# pre_read of a whole 1.9 TB device into a 64 MiB cache leaves its last
# 64 MiB there (and takes no longer than reading those): a job on the
# last 16 MiB finds them, one on the first 16 MiB reads from the drive.
# A direct job holds the device open meanwhile (2 reads, a second apart),
# or the pre_read job's close, the last, would empty the cache.
last=$((3750748848 * 512 - 16777216))
got=$("$STORSIM" run --output-format=json --device=nvme0n1=nand-nvme \
	--set=pagecache.cache_mb=64 \
	--name=hold --filename=/dev/nvme0n1 --direct=1 --rw=read --number_ios=2 \
	--thinktime=1s \
	--name=p --filename=/dev/nvme0n1 --rw=randread --pre_read=1 --number_ios=1 \
	--name=last --wait_for=p --filename=/dev/nvme0n1 --offset=$last --size=16m \
	--rw=randread --invalidate=0 \
	--name=first --wait_for=last --filename=/dev/nvme0n1 --size=16m --rw=randread \
	--invalidate=0 | fields 'dev["nvme0n1"]["reads"]')
check "pre_read of a whole device: its end stays cached, its start does not (drive reads: $got)" \
	test "$got" = 4099

"$STORSIM" run --set=nvme0n1.ns_blocks=1000001 --set=pagecache.folio_kb=64 \
	--set=cpu.page_size=65536 --name=x --filename=/dev/nvme0n1 \
	--rw=randread --size=1m --no-cpu-profile >/dev/null 2>"$tmp/err"
rc=$?
check "64 KiB pages on a device of an odd number of 512-byte blocks: a folio of 128 blocks is refused (exit $rc)" \
	sh -c "[ $rc -eq 1 ] && grep -q 'pagecache.folio_kb' '$tmp/err'"
finish
