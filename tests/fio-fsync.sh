#!/bin/sh
# Description: fio's fsync=, fdatasync=, end_fsync= and fsync_on_close=
# with a synchronous engine and with libaio, as fio 3.33 prints them. 256
# random 4 KiB writes to a 1 MiB file; the expected "issued rwts" and "IO
# depths" lines are real fio 3.33's for the same job (it counts an
# fdatasync as a short read, makes no sync after the last write, and
# leaves the syncs at the end out of its counts), and are checked against
# the installed fio when it is 3.33. libaio runs each sync in the thread
# once its queued I/O is committed, and fio asks for syncs until one
# completes and then writes until a write completes: at iodepth=8,
# fdatasync=1 makes 249 syncs, not 255. The syncs at the end still write
# the data back and flush the drive's cache. An IOPOLL ring with fsync is
# refused with the file, line and option. O_SYNC and O_DSYNC buffered
# writes (sync=1, sync=dsync) count no syncs either;
# tests/buffered-osync.sh has what they do.
. "$top_srcdir/tests/tap.sh"
. "$top_srcdir/tests/issued-lines.sh"

# options | the "issued rwts" line | the "IO depths" line, up to "8="
cases='fdatasync=1|total=0,256,0,0 short=255,0,0,0 dropped=0,0,0,0|1=199.6%, 2=0.0%, 4=0.0%, 8=0.0%
fsync=1|total=0,256,0,255 short=0,0,0,0 dropped=0,0,0,0|1=199.6%, 2=0.0%, 4=0.0%, 8=0.0%
fsync=4|total=0,256,0,63 short=0,0,0,0 dropped=0,0,0,0|1=124.6%, 2=0.0%, 4=0.0%, 8=0.0%
end_fsync=1|total=0,256,0,0 short=0,0,0,0 dropped=0,0,0,0|1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%
fsync=1 end_fsync=1|total=0,256,0,255 short=0,0,0,0 dropped=0,0,0,0|1=199.6%, 2=0.0%, 4=0.0%, 8=0.0%
fsync_on_close=1|total=0,256,0,0 short=0,0,0,0 dropped=0,0,0,0|1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%
sync=1|total=0,256,0,0 short=0,0,0,0 dropped=0,0,0,0|1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%
sync=dsync|total=0,256,0,0 short=0,0,0,0 dropped=0,0,0,0|1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%
ioengine=libaio iodepth=8 direct=1 fdatasync=1|total=0,256,0,0 short=249,0,0,0 dropped=0,0,0,0|1=0.4%, 2=1.2%, 4=1.6%, 8=194.1%
ioengine=libaio iodepth=8 direct=1 fsync=4|total=0,256,0,63 short=0,0,0,0 dropped=0,0,0,0|1=0.4%, 2=0.8%, 4=2.0%, 8=121.5%
ioengine=libaio iodepth=4 fdatasync=2|total=0,256,0,0 short=127,0,0,0 dropped=0,0,0,0|1=0.4%, 2=1.2%, 4=148.0%, 8=0.0%
ioengine=libaio iodepth=16 direct=1 fsync=1 end_fsync=1|total=0,256,0,241 short=0,0,0,0 dropped=0,0,0,0|1=0.4%, 2=1.2%, 4=1.6%, 8=3.1%'
ncases=$(printf '%s\n' "$cases" | wc -l)

plan $((2 * ncases + 3))
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# job OPTIONS...: the job as fio command-line options
job() {
	echo --name=w --rw=randwrite --bs=4k --size=1m --ioengine=psync \
		--filename="$dir/f"
	for o in "$@"; do echo "--$o"; done
}

issued_cases "$cases" "$dir/f"

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


check "io_uring on an IOPOLL ring (hipri) with fsync=1 is refused at its line" \
	refused_job fsync '' '[w]' rw=randwrite bs=4k size=1m ioengine=io_uring \
	hipri=1 direct=1 fsync=1 "filename=$dir/f"
finish
