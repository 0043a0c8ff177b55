#!/bin/sh
# Description: O_SYNC and O_DSYNC writes to a buffered file (fio's sync=1
# and sync=dsync with direct=0, with any engine) write their data
# back before the call returns, as generic_write_sync does: each write
# reaches the drive and, when the drive has a volatile cache, a flush
# follows it, all inside the write's latency; reads of the same job are
# left alone, and a drive without a volatile cache gets no flush.
. "$top_srcdir/tests/tap.sh"

plan 7

# run DEVICE TARGET OPTION...: fio writes, device writes, flushes, mean
# write latency in µs, reads
run() {
	dev=$1
	target=$2
	shift 2
	mount=
	[ "$target" = /dev/nvme0n1 ] || mount=--mount=/d=xfs:nvme0n1
	"$STORSIM" run --output-format=json --device="nvme0n1=$dev" $mount \
		--name=w --filename="$target" --bs=4k --size=4m "$@" |
	python3 -c '
import json, sys
j = json.load(sys.stdin)
w, r = j["jobs"][0]["write"], j["jobs"][0]["read"]
d = j["storsim"]["devices"]["nvme0n1"]
print(w["total_ios"], d["writes"], d["flushes"], int(w["clat_ns"]["mean"] / 1000), r["total_ios"])'
}

set -- $(run nand-nvme /d/f --rw=randwrite --sync=0)
check "buffered writes without sync: nothing reaches the drive ($*)" \
	test "$1 $2 $3" = "1024 0 0"
set -- $(run nand-nvme /d/f --rw=randwrite --sync=dsync)
check "sync=dsync: each write written back and flushed in its call ($*)" \
	test "$1 $2 $3" = "1024 1024 1024" -a "$4" -ge 20
set -- $(run nand-nvme /d/f --rw=randwrite --sync=1 --ioengine=pvsync2)
check "sync=1 with pvsync2: the same ($*)" test "$1 $2 $3" = "1024 1024 1024"
set -- $(run nand-nvme /d/f --rw=randwrite --sync=dsync --ioengine=libaio --iodepth=8)
check "libaio on a buffered file: the same inside io_submit ($*)" \
	test "$1 $2 $3" = "1024 1024 1024"
set -- $(run nand-nvme /d/f --rw=randwrite --sync=dsync --ioengine=io_uring --iodepth=8)
check "io_uring: each write and its sync in an io-wq worker ($*)" \
	test "$1 $2 $3" = "1024 1024 1024"
set -- $(run optane-p5800x /d/f --rw=randwrite --sync=dsync)
check "no volatile cache: written back, no flush ($*)" \
	test "$1 $2 $3" = "1024 1024 0"
set -- $(run nand-nvme /dev/nvme0n1 --rw=randrw --sync=dsync)
check "randrw on a raw device: one write back and flush per write, none per read ($*)" \
	test "$2 $3" = "$1 $1" -a "$5" -gt 0
finish
