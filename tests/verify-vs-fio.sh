#!/bin/sh
# Description: fio's verify (backend.c do_verify, verify.c): after each
# round of writes fio closes the files (clear_io_state) and reads back
# what it wrote, in the order written with a random map and sorted by
# offset (each block once) without one, opening them again; every write
# costs its buffer's fill and checksum, every verify read the checksum.
# Nothing syncs a regular file first (do_verify syncs the files still
# open, and none is: no fsync under strace), so its verify reads find
# the pages still dirty in the cache, and IO depths count writes and
# reads only; a block device's last close writes back and empties its
# cache, so its verify reads reach the device. The sequence of
# writes (w), syncs (s) and reads (r) is read from each tool's
# write_iolog and compared with fio 3.33's; the verify reads reach the
# device as on Linux 6.18 (a loop device, when root can set one up); the
# write phase's CPU cost matches fio's null engine on this machine.
. "$top_srcdir/tests/tap.sh"

# options | the run-length signature of the log
cases='rw=randwrite|w16 r16
rw=write loops=2|w16 r16 w16 r16
rw=randwrite number_ios=10|w10 r10
rw=randwrite do_verify=0|w16
rw=randwrite fsync=8|w8 s1 w8 r16
rw=randwrite time_based runtime=20ms|-'
ncases=$(printf '%s\n' "$cases" | wc -l)
fio=$(fio333)
plan $((2 * ncases + 18))
tmp_with_loop
# fio leaves a verify state file (NAME-N-verify.state) where it runs when
# a job ends before its verify is done: run it in the temporary directory.
fio_tmp() {
	(cd "$tmp" && "$fio" "$@")
}

# ops TOOL OPTIONS...: each write, sync and read of the job's write_iolog
# as "w BLOCK"; signature: those as runs, "w16 r16" ("-" in the table:
# writes only, however many)
ops() {
	tool=$1
	shift
	rm -f "$tmp/f" "$tmp/log"
	set -- --name=v --filename="$tmp/f" --size=64k --bs=4k --verify=crc32c \
		--ioengine=psync --write_iolog="$tmp/log" "$@"
	if [ "$tool" = fio ]; then
		fio_tmp "$@" >/dev/null 2>&1
	else
		"$STORSIM" run --no-cpu-profile "$@" >/dev/null 2>&1
	fi
	awk '$3 == "write" || $3 == "read" || $3 == "sync" {
		print substr($3, 1, 1), $4 / 4096 }' "$tmp/log"
}
signature() {
	ops "$@" | awk '{ if ($1 != last && n) { printf "%s%s%d", sep, last, n; sep = " "; n = 0 }
		last = $1; n++ }
		END { if (n) printf "%s%s%d", sep, last, n; print "" }'
}

while IFS='|' read -r opts want <&3; do
	for tool in storsim fio; do
		if [ $tool = fio ] && [ -z "$fio" ]; then
			ok "fio 3.33, $opts # SKIP fio 3.33 is not installed"
			continue
		fi
		# shellcheck disable=SC2046,SC2086
		got=$(signature $tool $(printf -- '--%s ' $opts))
		if [ "$want" = - ]; then
			# the run's length decides how many writes: only that
			# none is read back
			check "$tool, $opts: writes only ($got)" \
				test -n "$got" -a "${got#w}" != "$got" -a "${got% r*}" = "$got"
		else
			check "$tool, $opts: $want ($got)" test "$got" = "$want"
		fi
	done
done 3<<EOF
$cases
EOF

# The order of the reads: the writes' with a random map; sorted, each
# block once, without (norandommap), for both tools.
for tool in storsim fio; do
	if [ $tool = fio ] && [ -z "$fio" ]; then
		ok "fio 3.33: reads in write order # SKIP fio 3.33 is not installed"
		ok "fio 3.33: norandommap reads sorted # SKIP fio 3.33 is not installed"
		continue
	fi
	ops $tool --rw=randwrite >"$tmp/o"
	check "$tool: with a random map the reads follow the writes' order" \
		test "$(awk '$1 == "w" { print $2 }' "$tmp/o")" = \
		"$(awk '$1 == "r" { print $2 }' "$tmp/o")"
	ops $tool --rw=randwrite --norandommap >"$tmp/o"
	check "$tool: norandommap reads each block written once, sorted" \
		test "$(awk '$1 == "w" { print $2 }' "$tmp/o" | sort -n | uniq)" = \
		"$(awk '$1 == "r" { print $2 }' "$tmp/o")"
done

# Issued and IO depths lines: storsim's, checked for WANT, and fio's the
# same. same_lines WHAT SIM_FILENAME WANT OPTION...
lines() {
	sed -n 's/^ *\(IO depths\|issued rwts\) *: /\1: /p'
}
same_lines() {
	what=$1 simfile=$2 want=$3
	shift 3
	rm -f "$tmp/f"
	"$STORSIM" run --no-cpu-profile --filename="$simfile" "$@" | lines >"$tmp/sim"
	check "storsim, $what: $want" grep -q "$want" "$tmp/sim"
	if [ -n "$fio" ]; then
		rm -f "$tmp/f"
		fio_tmp --filename="$tmp/f" "$@" | lines >"$tmp/fio"
		check "fio 3.33, $what: the same IO depths and issued lines" \
			cmp -s "$tmp/sim" "$tmp/fio"
	else
		ok "fio 3.33, $what # SKIP fio 3.33 is not installed"
	fi
}
# libaio at depth 8: 4096 writes and 4096 verify reads
same_lines "libaio QD8" /dev/nvme0n1 'issued rwts: total=4096,4096,0,0' \
	--name=v --size=16m --bs=4k --rw=randwrite --verify=crc32c --direct=1 \
	--ioengine=libaio --iodepth=8
# psync on a regular file: writes and verify reads at depth 1, no sync
same_lines "psync on a file" "$tmp/f" 'IO depths: 1=100.0%' \
	--name=v --size=1m --bsrange=4k-16k --rw=write --number_ios=50 \
	--verify=crc32c --ioengine=psync
# the verify reads after an end_fsync count in the depths (TD_VERIFYING)
same_lines "psync with end_fsync on a file" "$tmp/f" 'IO depths: 1=100.0%' \
	--name=v --size=64k --bs=4k --rw=randwrite --end_fsync=1 \
	--verify=crc32c --ioengine=psync

# dreads: the device reads of a JSON report (a disk without I/O is not
# listed)
dreads() {
	python3 -c 'import json, sys
print((json.load(sys.stdin).get("disk_util") or [{"read_ios": 0}])[0]["read_ios"])'
}

# The verify reads of a regular file find its dirty pages in the cache;
# those of a block device come from the device, with invalidate=0 too.
got=$("$STORSIM" run --output-format=json --filename=/f --size=1m --bs=4k \
	--rw=randwrite --verify=crc32c --ioengine=psync --name=v 2>/dev/null | dreads)
check "storsim, a file: no device reads, its pages still dirty ($got)" test "$got" = 0
set -- --name=v --size=16m --bs=4k --rw=randwrite --verify=crc32c --ioengine=psync
got=$("$STORSIM" run --output-format=json --filename=/dev/nvme0n1 "$@" \
	--invalidate=0 2>/dev/null | dreads)
check "storsim: 4096 device reads, invalidate=0 ($got)" test "$got" = 4096
if [ -n "$fio" ] && loop_attach 64m; then
	k=$(loop_ios reads fio_tmp --filename="$loop" "$@" --invalidate=0)
	check "Linux under fio 3.33: 4096 device reads, invalidate=0 ($k)" test "$k" = 4096
else
	ok "Linux under fio 3.33 # SKIP no fio 3.33, root or loop device"
fi

# The write phase's cost: fio 3.33's null engine filled and summed 4 GiB
# of 1 MiB writes at 3134 MiB/s with crc32c and 581 MiB/s with md5 on the
# development machine (docs/models/fio.md).
wbw() {
	"$STORSIM" run --output-format=json --name=x --ioengine=null --rw=write \
		--bs=1m --size=1g --do_verify=0 --verify="$1" 2>/dev/null |
		python3 -c 'import json, sys
print(round(json.load(sys.stdin)["jobs"][0]["write"]["bw"] / 1024))'
}
got=$(wbw crc32c)
check "null engine, verify=crc32c: 2980-3290 MiB/s ($got)" test "$got" -ge 2980 -a "$got" -le 3290
got=$(wbw md5)
check "null engine, verify=md5: 552-610 MiB/s ($got)" test "$got" -ge 552 -a "$got" -le 610

check "verify=meta is refused at its line" \
	refused_job verify "meta and pattern" '[v]' "filename=$tmp/a" size=64k \
	rw=write verify=meta
check "verify with reads in the job is refused at its line" \
	refused_job verify "reads or trims" '[v]' "filename=$tmp/a" size=64k \
	rw=randrw verify=md5
check "verify_backlog is refused at its line" \
	refused_job verify_backlog "" '[v]' "filename=$tmp/a" size=64k \
	rw=write verify=md5 verify_backlog=4
finish
