#!/bin/sh
# Description: a bio submitted under a plug joins the plugged request it
# continues (blk_attempt_plug_merge), so the device sees fewer requests
# and the disk statistics count the merges. Sequential 4 KiB I/O to the
# raw device: libaio and io_uring batches (io_submit and io_uring_enter
# plug only above two I/Os), psync (no plug across syscalls), buffered
# writeback (a bio per buffer head, merged up to max_sectors), with
# merging turned off (nomerges=2; 1 keeps the plug's merging) and with a
# smaller max_sectors. The device's requests and merges in the I/O's
# direction must fall in the case's ranges, for storsim and for Linux
# under the installed fio 3.33 on a loop device when that can be set up
# (root, losetup).
. "$top_srcdir/tests/tap.sh"

# fio options | nomerges | max_sectors_kb | requests | merges
cases='rw=write ioengine=libaio iodepth=32 iodepth_batch_submit=8|0|512|4066-4068|28-30
rw=write ioengine=libaio iodepth=32 iodepth_batch_submit=32|0|512|4063-4065|31-33
rw=read ioengine=libaio iodepth=32 iodepth_batch_submit=32|0|512|4063-4065|31-33
rw=write ioengine=libaio iodepth=32 iodepth_batch_submit=32|2|512|4096-4096|0-0
rw=write ioengine=libaio iodepth=32 iodepth_batch_submit=32|1|512|4063-4065|31-33
rw=write ioengine=libaio iodepth=32 iodepth_batch_submit=32|0|16|4070-4072|24-26
rw=write ioengine=libaio iodepth=2 iodepth_batch_submit=2|0|512|4096-4096|0-0
rw=write ioengine=io_uring iodepth=32 iodepth_batch_submit=32|0|512|4063-4065|31-33
rw=write ioengine=io_uring iodepth=2 iodepth_batch_submit=2|0|512|4096-4096|0-0
rw=read ioengine=psync|0|512|4096-4096|0-0
rw=write ioengine=psync|0|512|4096-4096|0-0
rw=write ioengine=psync direct=0 size=64m end_fsync=1|0|512|129-129|16256-16256
rw=write ioengine=psync direct=0 size=64m end_fsync=1|2|512|16385-16385|0-0'
ncases=$(printf '%s\n' "$cases" | wc -l)
plan $((4 * ncases))
tmp_with_loop

sim() {
	nomerges=$1 kb=$2
	shift 2
	# mdts: the largest request is 4 KiB << mdts.
	mdts=$(awk -v kb="$kb" 'BEGIN { m = 0; while (4 * 2 ^ m < kb) m++; print m }')
	"$STORSIM" run --output-format=json --device=nvme0n1=nand-nvme \
		--set nvme0n1.mdts="$mdts" --set blk_mq.nomerges="$nomerges" \
		--name=m --filename=/dev/nvme0n1 --bs=4k --size=16m --direct=1 \
		"$@" 2>/dev/null >"$tmp/j" && disk_counts "$tmp/j"
}

kernel() {
	nomerges=$1 kb=$2
	shift 2
	loop_set nomerges "$nomerges" && loop_set max_sectors_kb "$kb" &&
		loop_stat "$fio" --name=m --filename="$loop" --bs=4k --size=16m \
			--direct=1 "$@"
}

fio=$(fio333)
[ -n "$fio" ] && loop_attach 64m
while IFS='|' read -r opts nomerges kb reqs merges <&3; do
	what="$opts, nomerges=$nomerges, max_sectors_kb=$kb"
	# shellcheck disable=SC2046,SC2086
	got=$(sim "$nomerges" "$kb" $(printf -- '--%s ' $opts) | direction "$opts")
	check "storsim, $what: $reqs requests (${got% *})" in_range "${got% *}" "$reqs"
	check "storsim, $what: $merges merges (${got#* })" in_range "${got#* }" "$merges"
	if [ -z "$loop" ]; then
		ok "Linux, $what # SKIP no fio 3.33, root or loop device"
		ok "Linux, $what # SKIP no fio 3.33, root or loop device"
		continue
	fi
	# shellcheck disable=SC2046,SC2086
	k=$(kernel "$nomerges" "$kb" $(printf -- '--%s ' $opts) | direction "$opts")
	check "Linux under fio 3.33, $what: $reqs requests (${k% *})" in_range "${k% *}" "$reqs"
	check "Linux under fio 3.33, $what: $merges merges (${k#* })" in_range "${k#* }" "$merges"
done 3<<EOF
$cases
EOF
finish
