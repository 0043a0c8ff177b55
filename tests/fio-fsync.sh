#!/bin/sh
# Description: fio's fsync=, fdatasync=, end_fsync= and fsync_on_close=
# with a synchronous engine, as fio 3.33 prints them. 256 random 4 KiB
# writes to a 1 MiB file; the expected "issued rwts" and "IO depths"
# lines are real fio 3.33's for the same job (it counts an fdatasync as a
# short read, makes no sync after the last write, and leaves the syncs at
# the end out of its counts), and are checked against the installed fio
# when it is 3.33. The syncs at the end still write the data back and
# flush the drive's cache. fsync with an asynchronous engine (also
# libaio on a buffered file) is refused with the file, line and option.
# O_SYNC and O_DSYNC buffered writes (sync=1, sync=dsync) count no syncs
# either;
# tests/buffered-osync.sh has what they do.
. "$top_srcdir/tests/tap.sh"

# options | the "issued rwts" line | the "IO depths" line, up to "2="
cases='fdatasync=1|total=0,256,0,0 short=255,0,0,0 dropped=0,0,0,0|1=199.6%
fsync=1|total=0,256,0,255 short=0,0,0,0 dropped=0,0,0,0|1=199.6%
fsync=4|total=0,256,0,63 short=0,0,0,0 dropped=0,0,0,0|1=124.6%
end_fsync=1|total=0,256,0,0 short=0,0,0,0 dropped=0,0,0,0|1=100.0%
fsync=1 end_fsync=1|total=0,256,0,255 short=0,0,0,0 dropped=0,0,0,0|1=199.6%
fsync_on_close=1|total=0,256,0,0 short=0,0,0,0 dropped=0,0,0,0|1=100.0%
sync=1|total=0,256,0,0 short=0,0,0,0 dropped=0,0,0,0|1=100.0%
sync=dsync|total=0,256,0,0 short=0,0,0,0 dropped=0,0,0,0|1=100.0%'
ncases=$(printf '%s\n' "$cases" | wc -l)

fio=$(fio333)

plan $((2 * ncases + 8))
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# job OPTIONS...: the job as fio command-line options
job() {
	echo --name=w --rw=randwrite --bs=4k --size=1m --ioengine=psync \
		--filename="$dir/f"
	for o in "$@"; do echo "--$o"; done
}

# lines OUTPUT: the two lines the cases compare, normalised
lines() {
	printf '%s\n' "$1" | sed -n 's/.*issued rwts: //p'
	printf '%s\n' "$1" | sed -n 's/.*IO depths *: \([^,]*\),.*/\1/p'
}

while IFS='|' read -r opts issued depths; do
	want=$(printf '%s\n%s' "$issued" "$depths")
	# shellcheck disable=SC2046,SC2086
	got=$("$STORSIM" run --no-cpu-profile $(job $opts))
	if [ "$(lines "$got")" = "$want" ]; then
		ok "storsim, $opts: $issued, depths $depths"
	else
		not_ok "storsim, $opts: $issued, depths $depths"
		diag "got: $(lines "$got")"
	fi
	if [ -z "$fio" ]; then
		ok "fio, $opts # SKIP fio 3.33 is not installed"
		continue
	fi
	rm -f "$dir/f"
	# shellcheck disable=SC2046,SC2086
	got=$("$fio" $(job $opts) 2>&1)
	if [ "$(lines "$got")" = "$want" ]; then
		ok "fio 3.33, $opts: the same lines"
	else
		not_ok "fio 3.33, $opts: the same lines"
		diag "got: $(lines "$got")"
	fi
done <<EOF
$cases
EOF

# end_fsync and fsync_on_close are left out of the sync statistics but not
# out of the run: on a drive with a volatile cache the sync writes back
# the 1 MiB the job dirtied and flushes the cache once.
for o in end_fsync=1 fsync_on_close=1; do
	# shellcheck disable=SC2046
	"$STORSIM" run --output-format=json --output="$dir/end.json" \
		--device=nvme0n1=nand-nvme --mount=/=xfs:nvme0n1 $(job "$o")
	check "$o: no sync counted or timed, 1 MiB written, one flush" \
		python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = d["jobs"][0]["sync"]
assert s["total_ios"] == 0 and s["lat_ns"]["N"] == 0, s
dev = d["storsim"]["devices"]["nvme0n1"]
assert dev["bytes_written"] == 1 << 20, dev
assert dev["flushes"] == 1 and dev["flushes_completed"] == 1, dev
' "$dir/end.json"
done

# refused OPTION JOBFILE-LINES...: the run fails naming the file, the line
# of OPTION and OPTION.
refused() {
	opt=$1
	shift
	printf '%s\n' "$@" > "$dir/r.fio"
	line=$(grep -n "^$opt=" "$dir/r.fio" | cut -d: -f1)
	out=$("$STORSIM" run "$dir/r.fio" 2>&1)
	rc=$?
	case "$out" in
	*"$dir/r.fio:$line: option '$opt': "*) [ "$rc" = 1 ] ;;
	*) diag "exit $rc: $out"; false ;;
	esac
}

for o in fsync=1 fdatasync=1 end_fsync=1 fsync_on_close=1; do
	check "libaio with $o is refused at its line" \
		refused "${o%%=*}" '[w]' rw=randwrite bs=4k size=1m ioengine=libaio \
		direct=1 "$o" "filename=$dir/f"
done
check "io_uring on an IOPOLL ring (hipri) with fsync=1 is refused at its line" \
	refused fsync '[w]' rw=randwrite bs=4k size=1m ioengine=io_uring \
	hipri=1 direct=1 fsync=1 "filename=$dir/f"
check "fsync with libaio on a buffered file is refused at its line" \
	refused fsync '[w]' rw=randwrite bs=4k size=1m ioengine=libaio \
	iodepth=8 fsync=4 "filename=$dir/f"
finish
