#!/bin/sh
# Description: when a job stops issuing, as fio 3.33 decides it.
# number_ios (exceeds_number_ios) counts reads, writes and trims done plus
# every I/O in flight, syncs included, against number_ios times loops; a
# time_based job ignores it. A job issues while its bytes are short of
# io_size, so its last block may go past it. A round ends when the job's
# size is issued (do_io's total_bytes; io_size for random writes without
# a random map) or when every file's pass is over (set_io_u_file):
# rw=read:8k runs off the end of the file, while rw=read:4k, whose hole
# crosses the end, starts the file over. Another round starts only for
# loops= left or io_size= still to issue (keep_running), after what is in
# flight is reaped. Random 4 KiB writes to a 1 MiB file unless a case
# says otherwise; the expected "issued rwts" and "IO depths" lines are
# real fio 3.33's, and are checked against the installed fio when it is
# 3.33.
. "$top_srcdir/tests/tap.sh"
. "$top_srcdir/tests/issued-lines.sh"

# options | the "issued rwts" line | the "IO depths" line, up to "8="
cases='number_ios=10|total=0,10,0,0 short=0,0,0,0 dropped=0,0,0,0|1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%
number_ios=10 loops=3|total=0,30,0,0 short=0,0,0,0 dropped=0,0,0,0|1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%
number_ios=100 loops=3|total=0,300,0,0 short=0,0,0,0 dropped=0,0,0,0|1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%
number_ios=100 fsync=4|total=0,100,0,24 short=0,0,0,0 dropped=0,0,0,0|1=124.0%, 2=0.0%, 4=0.0%, 8=0.0%
number_ios=100 ioengine=libaio iodepth=8 direct=1|total=0,100,0,0 short=0,0,0,0 dropped=0,0,0,0|1=1.0%, 2=2.0%, 4=4.0%, 8=93.0%
number_ios=100 ioengine=libaio iodepth=8 direct=1 fsync=4|total=0,100,0,24 short=0,0,0,0 dropped=0,0,0,0|1=1.0%, 2=2.0%, 4=5.0%, 8=116.0%
rw=read:8k|total=86,0,0,0 short=0,0,0,0 dropped=0,0,0,0|1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%
rw=read:8k loops=2|total=172,0,0,0 short=0,0,0,0 dropped=0,0,0,0|1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%
rw=read:8k io_size=2m|total=512,0,0,0 short=0,0,0,0 dropped=0,0,0,0|1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%
rw=read:4k|total=256,0,0,0 short=0,0,0,0 dropped=0,0,0,0|1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%
rw=read:4k loops=3 ioengine=libaio iodepth=4|total=768,0,0,0 short=0,0,0,0 dropped=0,0,0,0|1=0.4%, 2=0.8%, 4=98.8%, 8=0.0%
rw=randread norandommap=1 ioengine=libaio iodepth=4 io_size=3m|total=768,0,0,0 short=0,0,0,0 dropped=0,0,0,0|1=0.4%, 2=0.8%, 4=98.8%, 8=0.0%
rw=randwrite norandommap=1 ioengine=libaio iodepth=4 io_size=3m|total=0,768,0,0 short=0,0,0,0 dropped=0,0,0,0|1=0.1%, 2=0.3%, 4=99.6%, 8=0.0%
rw=read:16k offset=256k|total=52,0,0,0 short=0,0,0,0 dropped=0,0,0,0|1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%
rw=read:8k nrfiles=2|total=86,0,0,0 short=0,0,0,0 dropped=0,0,0,0|1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%
io_size=10k|total=0,3,0,0 short=0,0,0,0 dropped=0,0,0,0|1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%
io_size=2k|total=0,1,0,0 short=0,0,0,0 dropped=0,0,0,0|1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%
size=10k|total=0,2,0,0 short=0,0,0,0 dropped=0,0,0,0|1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%
rw=write ioengine=libaio iodepth=4 direct=1 io_size=3m|total=0,768,0,0 short=0,0,0,0 dropped=0,0,0,0|1=0.4%, 2=0.8%, 4=98.8%, 8=0.0%'
ncases=$(printf '%s\n' "$cases" | wc -l)

plan $((2 * ncases))
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# job OPTIONS...: the job as fio command-line options
job() {
	echo --name=w --rw=randwrite --bs=4k --size=1m --filename="$dir/f"
	for o in "$@"; do echo "--$o"; done
}

issued_cases "$cases" "$dir/f"
finish
