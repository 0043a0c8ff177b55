#!/bin/sh
# Description: an fsync's cache flush counts as a write of no sectors in
# the disk statistics, as Linux counts blkdev_issue_flush's empty
# REQ_OP_WRITE | REQ_PREFLUSH; a drive without a volatile write cache gets
# no flush, so nothing is counted. Buffered writes with fsyncs or O_SYNC,
# and direct writes with fsyncs, to the raw device (4 KiB sequential
# unless the case says otherwise): the device's write count is compared
# with Linux's own, read
# from a loop device's /sys/block/*/stat under the installed fio 3.33 when
# that can be set up (root, losetup), its write_cache set to match.
. "$top_srcdir/tests/tap.sh"

# fio options | storsim device | loop write_cache | device writes
cases='size=64m end_fsync=1|nand-nvme|write back|129
size=64m fsync=256 end_fsync=1|nand-nvme|write back|192
size=64m fsync=256 end_fsync=1|optane-p5800x|write through|128
size=4m sync=1|nand-nvme|write back|2048
size=4m sync=dsync bs=16k rw=randwrite|nand-nvme|write back|512
size=4m direct=1 fsync=8|nand-nvme|write back|1151'
ncases=$(printf '%s\n' "$cases" | wc -l)
plan $((2 * ncases))
tmp_with_loop

sim() {
	dev=$1
	shift
	"$STORSIM" run --output-format=json --device=nvme0n1="$dev" \
		--name=w --filename=/dev/nvme0n1 --rw=write --bs=4k \
		--ioengine=psync "$@" 2>/dev/null >"$tmp/j"
	python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["disk_util"][0]["write_ios"])' "$tmp/j"
}

kernel() {
	cache=$1
	shift
	loop_set write_cache "$cache" || return 1
	loop_ios writes "$fio" --name=w --filename="$loop" --rw=write --bs=4k \
		--ioengine=psync "$@"
}

fio=$(fio333)
[ -n "$fio" ] && loop_attach 64m
while IFS='|' read -r opts dev cache want <&3; do
	# shellcheck disable=SC2046,SC2086
	got=$(sim "$dev" $(printf -- '--%s ' $opts))
	check "storsim on $dev, $opts: $want device writes ($got)" \
		test "$got" = "$want"
	if [ -z "$loop" ]; then
		ok "Linux, $opts # SKIP no fio 3.33, root or loop device"
		continue
	fi
	# shellcheck disable=SC2046,SC2086
	k=$(kernel "$cache" $(printf -- '--%s ' $opts))
	check "Linux under fio 3.33, $cache, $opts: $want device writes ($k)" \
		test "$k" = "$want"
done 3<<EOF
$cases
EOF
finish
