#!/bin/sh
# Description: fio's zonemode=strided (setup_strided_zone_mode and
# zbd-less zone_update in io_u.c): zonesize bytes are done in a zone of
# zonerange bytes, then the job moves zonerange + zoneskip on, back to the
# start past the end of the file. The offsets of every I/O (in 4 KiB
# blocks) are read from each tool's write_iolog and compared with real fio
# 3.33's when it is installed; for random reads, the zone of each I/O.
# zonemode=strided without zonesize, zonesize without it, zonemode=zbd and
# and a zoneskip in percent are refused with the file, line and option.
# Zones over several files (one zone count per job, one zone per file)
# are cases of tests/real-files-vs-fio.sh.
. "$top_srcdir/tests/tap.sh"

# options | the 4 KiB block of every I/O (random: its 64 KiB zone)
s16='0 1 2 3 12 13 14 15 24 25 26 27 36 37 38 39 48 49 50 51 60 61 62 63'
r8='0 1 8 9 16 17 24 25 32 33 40 41 48 49 56 57'
w16='16 17 18 19 24 25 26 27 32 33 34 35 40 41 42 43'
l16='0 1 2 3 8 9 10 11'
cases="size=256k rw=read zonesize=16k zoneskip=32k|$s16 $s16 ${s16% 48*}
size=256k rw=read zonesize=8k zonerange=32k|$r8 $r8 $r8 $r8
size=256k rw=read zonesize=32k zonerange=16k zoneskip=16k|0 1 2 3 0 1 2 3 8 9 10 11 8 9 10 11 16 17 18 19 16 17 18 19 24 25 26 27 24 25 26 27 32 33 34 35 32 33 34 35 40 41 42 43 40 41 42 43 48 49 50 51 48 49 50 51 56 57 58 59 56 57 58 59
size=128k offset=64k rw=write zonesize=16k zoneskip=16k|$w16 $w16
size=64k rw=read zonesize=16k zoneskip=16k loops=2|$l16 $l16 $l16 $l16
size=256k io_size=64k rw=read zonesize=16k zoneskip=48k|0 1 2 3 16 17 18 19 32 33 34 35 48 49 50 51
size=256k rw=randread zonesize=16k zone|0 0 0 0 1 1 1 1 2 2 2 2 3 3 3 3 0 0 0 0 1 1 1 1 2 2 2 2 3 3 3 3 0 0 0 0 1 1 1 1 2 2 2 2 3 3 3 3 0 0 0 0 1 1 1 1 2 2 2 2 3 3 3 3"
ncases=$(printf '%s\n' "$cases" | wc -l)

fio=$(fio333)
plan $((2 * ncases + 4))
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# blocks TOOL OPTIONS...: the block of each I/O TOOL issues; with "zone"
# last, the 64 KiB zone of each instead
blocks() {
	tool=$1 unit=4096
	shift
	rm -f "$dir/f" "$dir/log"
	for a in "$@"; do
		[ "$a" = --zone ] && unit=65536
	done
	set -- --name=z --filename="$dir/f" --bs=4k --zonemode=strided \
		--write_iolog="$dir/log" "$@"
	[ "$unit" = 65536 ] && set -- "$@" --zonerange=64k
	if [ "$tool" = fio ]; then
		"$fio" $(printf '%s\n' "$@" | grep -vx -- --zone) >/dev/null 2>&1
	else
		"$STORSIM" run --no-cpu-profile \
			$(printf '%s\n' "$@" | grep -vx -- --zone) >/dev/null 2>&1
	fi
	awk -v u="$unit" '$3 == "read" || $3 == "write" {
		printf "%s%d", n++ ? " " : "", int($4 / u) }' "$dir/log" 2>/dev/null
}

while IFS='|' read -r opts want; do
	# shellcheck disable=SC2046,SC2086
	got=$(blocks storsim $(printf -- '--%s ' $opts))
	check "storsim, $opts" test "$got" = "$want"
	[ "$got" = "$want" ] || diag "got: $got"
	if [ -z "$fio" ]; then
		ok "fio, $opts # SKIP fio 3.33 is not installed"
		continue
	fi
	# shellcheck disable=SC2046,SC2086
	got=$(blocks fio $(printf -- '--%s ' $opts))
	check "fio 3.33, $opts: the same" test "$got" = "$want"
	[ "$got" = "$want" ] || diag "got: $got"
done <<EOF
$cases
EOF

check "zonemode=strided without zonesize is refused at its line" \
	refused_job zonemode "needs zonesize" '[z]' "filename=$dir/a" size=64k \
	zonemode=strided
check "zonesize without zonemode=strided is refused at its line" \
	refused_job zonesize "zonemode=none" '[z]' "filename=$dir/a" size=64k \
	zonesize=16k
check "zonemode=zbd is refused at its line" \
	refused_job zonemode "" '[z]' "filename=$dir/a" size=64k zonemode=zbd
check "zoneskip in percent is refused at its line" \
	refused_job zoneskip "" '[z]' "filename=$dir/a" size=64k \
	zonemode=strided zonesize=16k zoneskip=10%
finish
