#!/bin/sh
# Description: write_iolog records a job's fsyncs and fdatasyncs as fio
# 3.33 does, offsets included. fio logs a sync with the offset its io_u
# held from its last I/O (__get_io_u clears the length, not the offset),
# so with one io_u in use at a time a sync line carries the offset of the
# write before it: "sync 53248 0". Each case runs a synchronous engine on
# a 64 KiB file, where fio's order does not depend on timing, and every
# line's direction, offset and length must equal storsim's. Skipped
# without fio 3.33.
. "$top_srcdir/tests/tap.sh"

fio=$(fio333)
[ -n "$fio" ] || skip_all "fio 3.33 is not installed"

# job options of each case, separated by spaces
cases='ioengine=psync rw=randwrite fsync=3
ioengine=psync rw=write fdatasync=2 end_fsync=1
ioengine=sync rw=randrw fsync=2
ioengine=pvsync2 rw=write fsync=1 bs=8k'
ncases=$(printf '%s\n' "$cases" | wc -l)
plan "$ncases"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# jobfile FILE LOG OPTION...: the job file of a case
jobfile() {
	file=$1 log=$2
	shift 2
	printf '[j]\nfilename=%s\nsize=64k\nbs=4k\n' "$file"
	printf '%s\n' "$@"
	printf 'write_iolog=%s\n' "$log"
}

# ops LOG: direction, offset and length of every I/O and sync
ops() {
	awk 'NR > 1 && $3 != "add" && $3 != "open" && $3 != "close" { print $3, $4, $5 }' "$1"
}

printf '%s\n' "$cases" | while read -r opts; do
	# shellcheck disable=SC2086
	jobfile "$out/f" "$out/fio.log" $opts >"$out/fio.fio"
	# shellcheck disable=SC2086
	jobfile /data/f "$out/sim.log" $opts >"$out/sim.fio"
	rm -f "$out/f" "$out/fio.log" "$out/sim.log"
	"$fio" "$out/fio.fio" >/dev/null 2>&1 || diag "fio failed: $opts"
	"$STORSIM" run --no-cpu-profile "$out/sim.fio" >/dev/null 2>"$out/err" ||
		diag "storsim failed: $opts: $(cat "$out/err")"
	ops "$out/fio.log" >"$out/fio.ops"
	ops "$out/sim.log" >"$out/sim.ops"
	check "$opts: storsim logs fio's I/Os and syncs ($(grep -c sync "$out/fio.ops") syncs)" \
		sh -c "grep -q sync '$out/fio.ops' && cmp -s '$out/fio.ops' '$out/sim.ops'"
done
finish
