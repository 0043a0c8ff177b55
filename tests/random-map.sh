#!/bin/sh
# Description: fio's random map (io_u.c get_next_rand_offset with
# lib/axmap.c): a uniform random job draws a block and, when the map says
# it is used this pass, takes the next free one after it. Every block is
# then used once a pass, as with fio 3.33 (read from both tools'
# write_iolog), and late in a pass the I/Os land next to earlier ones, so
# the blocks a buffered job dirties between two syncs form runs that
# writeback merges: 64 MiB of random 4 KiB writes, fdatasync every 1024,
# make about 14000 device writes, as Linux 6.18 makes on a loop device
# under fio 3.33 (13980, compared live when root can set one up), not the
# 16400 of a scrambled order whose neighbours never meet.
. "$top_srcdir/tests/tap.sh"

plan 4
tmp_with_loop
fio=$(fio333)

# distinct TOOL: the writes and distinct offsets of a 1 MiB randwrite job
distinct() {
	tool=$1
	rm -f "$tmp/f" "$tmp/log"
	set -- --name=m --filename="$tmp/f" --rw=randwrite --bs=4k --size=1m \
		--write_iolog="$tmp/log"
	if [ "$tool" = fio ]; then
		"$fio" "$@" >/dev/null 2>&1
	else
		"$STORSIM" run --no-cpu-profile "$@" >/dev/null 2>&1
	fi
	awk '$3 == "write" { n++; seen[$4] = 1 } END {
		d = 0; for (o in seen) d++; print n + 0, d }' "$tmp/log"
}

got=$(distinct storsim)
check "storsim: 256 writes to 256 distinct blocks ($got)" test "$got" = "256 256"
if [ -n "$fio" ]; then
	got=$(distinct fio)
	check "fio 3.33: the same ($got)" test "$got" = "256 256"
else
	ok "fio 3.33: the same # SKIP fio 3.33 is not installed"
fi

lo=13500 hi=14500
set -- --name=w --rw=randwrite --bs=4k --size=64m --ioengine=psync \
	--fdatasync=1024 --end_fsync=1
"$STORSIM" run --output-format=json --device=nvme0n1=nand-nvme \
	--filename=/dev/nvme0n1 "$@" 2>/dev/null >"$tmp/j"
got=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["disk_util"][0]["write_ios"])' "$tmp/j")
check "storsim: $lo-$hi device writes ($got)" test "$got" -ge $lo -a "$got" -le $hi
if [ -n "$fio" ] && loop_attach 64m; then
	loop_set write_cache "write back"
	k=$(loop_ios writes "$fio" --filename="$loop" "$@")
	check "Linux under fio 3.33: $lo-$hi device writes ($k)" \
		test "${k:-0}" -ge $lo -a "${k:-0}" -le $hi
else
	ok "Linux under fio 3.33 # SKIP no fio 3.33, root or loop device"
fi
finish
