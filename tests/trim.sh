#!/bin/sh
# Description: fio's trims (rw=trim, rw=randtrim) discard with
# ioctl(BLKDISCARD) in the job's thread, whatever the engine, as fio's
# do_io_u_trim does: each trim is one NVMe Dataset Management (deallocate)
# command with the trim's range, not split at the queue's max_sectors;
# cached folios of the range are dropped; a regular file fails with
# ENOTTY (25), a device without discard (null_blk) with EOPNOTSUPP (95), a
# range not in whole logical blocks with EINVAL (22); a trim rate limit
# holds (rate_iops=,,N); trimwrite trims each block, then writes it. The lines fio prints about the trims' submission are compared
# with the installed fio 3.33 trimming a loop device, when that can be set
# up (root, losetup).
. "$top_srcdir/tests/tap.sh"

plan 16
tmp_with_loop

# json ARGS...: print the figures of a run (storsim JSON) named by the
# python expressions that follow "--"
json() {
	exprs=
	while [ "$1" != -- ]; do exprs="$exprs $1"; shift; done
	shift
	"$STORSIM" run --output-format=json "$@" | python3 -c '
import json, sys
j = json.load(sys.stdin)
jobs, dev = j["jobs"], j["storsim"]["devices"]["nvme0n1"]
reads = [job["read"]["total_ios"] for job in jobs]
print(" ".join(str(eval(e)) for e in sys.argv[1:]))' $exprs
}

got=$(json 'jobs[0]["trim"]["total_ios"]' 'dev["dsm"]' 'dev["writes"]' \
	'jobs[0]["trim"]["io_kbytes"]' -- --name=t --filename=/dev/nvme0n1 \
	--size=16m --rw=randtrim --bs=4k)
check "randtrim: one deallocate per trim, no writes (trims, DSM, writes, KiB: $got)" \
	test "$got" = "4096 4096 0 16384"

got=$(json 'jobs[0]["trim"]["total_ios"]' 'dev["dsm"]' -- --name=t \
	--filename=/dev/nvme0n1 --size=64m --rw=trim --bs=4m)
check "4 MiB trims are not split at max_sectors (trims, DSM: $got)" \
	test "$got" = "16 16"

# A direct job holds the device open throughout (2 reads, a second
# apart): the last close would empty the cache.
got=$(json 'reads' 'dev["reads"]' -- \
	--name=hold --filename=/dev/nvme0n1 --direct=1 --number_ios=2 \
	--thinktime=1s \
	--name=r1 --filename=/dev/nvme0n1 --size=4m --rw=randread --direct=0 \
	--name=t --wait_for=r1 --filename=/dev/nvme0n1 --size=4m --rw=trim --bs=1m \
	--name=r2 --wait_for=t --filename=/dev/nvme0n1 --size=4m --rw=randread \
	--direct=0 --invalidate=0 \
	--name=r3 --wait_for=r2 --filename=/dev/nvme0n1 --size=4m --rw=randread \
	--direct=0 --invalidate=0 | tr -d ' ')
check "a trim drops the cached folios of its range: read again from the drive, then cached ($got)" \
	test "$got" = "[2,1024,0,1024,1024]2050"

got=$(json 'jobs[0]["trim"]["total_ios"]' 'jobs[0]["trim"]["slat_ns"]["N"]' \
	'jobs[0]["trim"]["clat_ns"]["N"]' -- --name=t --filename=/dev/nvme0n1 \
	--size=4m --rw=randtrim --ioengine=io_uring --iodepth=8)
check "io_uring: trims complete in queue(), with no slat (trims, slat, clat samples: $got)" \
	test "$got" = "1024 0 1024"

got=$(json 'round(jobs[0]["trim"]["iops"])' -- --name=t --filename=/dev/nvme0n1 \
	--rw=randtrim --time_based --runtime=1s --rate_iops=,,1000)
check "rate_iops=,,1000 holds trims at 1000 per second ($got)" \
	test "$got" -ge 980 -a "$got" -le 1000

# error RW OPTIONS...: the job's error number
error() {
	"$STORSIM" run --output-format=json "$@" 2>/dev/null | python3 -c '
import json, sys
print(json.load(sys.stdin)["jobs"][0]["error"])'
}
got=$(error --name=t --filename=/d/f --mount=/d=xfs:nvme0n1 --size=4m --rw=trim)
check "a trim of a regular file fails with ENOTTY, as in fio 3.33 ($got)" test "$got" = 25
got=$(error --device=nullb0=null_blk --name=t --filename=/dev/nullb0 --size=4m \
	--rw=trim)
check "null_blk takes no discards: EOPNOTSUPP ($got)" test "$got" = 95
got=$(error --name=t --filename=/dev/nvme0n1 --size=4m --rw=trim --offset=100)
check "a trim not in whole blocks: EINVAL ($got)" test "$got" = 22

# trimwrite: each block trimmed, then written, in that order; the
# (direction, size, offset) columns of the clat log show it.
logcols() { cut -d, -f3-5 "$1" | tr -d ' ' | tr '\n' ' '; }
"$STORSIM" run --name=tw --filename=/dev/nvme0n1 --size=16k --rw=trimwrite \
	--bs=4k --write_lat_log="$tmp/tw" --log_offset=1 >/dev/null
got=$(logcols "$tmp/tw_clat.1.log")
check "trimwrite: trim, then write, of each block in turn ($got)" \
	test "$got" = "2,4096,0 1,4096,0 2,4096,4096 1,4096,4096 2,4096,8192 1,4096,8192 2,4096,12288 1,4096,12288 "
"$STORSIM" run --name=rtw --filename=/dev/nvme0n1 --size=64k \
	--rw=randtrimwrite --bs=4k --write_lat_log="$tmp/rtw" --log_offset=1 >/dev/null
check "randtrimwrite: each write is of the blocks just trimmed, 16 of each" \
	python3 -c '
import sys
rows = [l.split(",") for l in open(sys.argv[1])]
pairs = [(rows[i], rows[i + 1]) for i in range(0, len(rows), 2)]
ok = len(rows) == 32 and len({int(t[4]) for t, w in pairs}) == 16 and all(
    t[2].strip() == "2" and w[2].strip() == "1" and t[4] == w[4] for t, w in pairs)
sys.exit(not ok)' "$tmp/rtw_clat.1.log"

# The lines of fio's normal output about submission, and whether a slat
# line is printed, for trims with three engines.
lines() {
	sed -n -e 's/^ *\(IO depths\|submit\|complete\|issued rwts\) *: /\1: /p' \
		-e 's/^ *\(slat\) (.*/\1/p'
}
fio=$(fio333)
if [ -n "$fio" ] && loop_attach 64m; then
	live=yes
else
	live=no
fi
while read -r eng rw <&3; do
	set -- --name=t --size=4m --bs=4k --rw="$rw" --ioengine="$eng" --iodepth=8 \
		--direct=1
	"$STORSIM" run --no-cpu-profile --filename=/dev/nvme0n1 "$@" | lines >"$tmp/sim"
	if [ "$live" = no ]; then
		ok "$eng $rw: fio 3.33's submission lines # SKIP no fio 3.33 or no loop device"
		continue
	fi
	"$fio" --filename="$loop" "$@" | lines >"$tmp/fio"
	if cmp -s "$tmp/sim" "$tmp/fio"; then
		ok "$eng $rw: fio 3.33's submission lines, on a loop device"
	else
		not_ok "$eng $rw: fio 3.33's submission lines, on a loop device"
		diag "storsim: $(tr '\n' '|' <"$tmp/sim")"
		diag "fio:     $(tr '\n' '|' <"$tmp/fio")"
	fi
done 3<<EOF
psync randtrim
io_uring trim
libaio randtrim
io_uring randtrim
io_uring trimwrite
EOF

# A trim that fails is counted as issued, as fio counts what it queued, so
# the job's block is printed with its error.
set -- --name=t --size=4m --bs=4k --rw=trim --offset=100
issued() { sed -n 's/^ *issued rwts: //p'; }
got=$("$STORSIM" run --no-cpu-profile --filename=/dev/nvme0n1 "$@" 2>/dev/null | issued)
if [ "$live" = yes ]; then
	want=$("$fio" --filename="$loop" "$@" 2>/dev/null | issued)
else
	want="total=0,0,1,0 short=0,0,0,0 dropped=0,0,0,0"
fi
check "a failed trim is issued, as fio ${live:+($live) }counts it: $got" \
	test -n "$got" -a "$got" = "$want"
finish
