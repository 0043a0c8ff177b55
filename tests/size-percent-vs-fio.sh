#!/bin/sh
# Description: size=, offset= and io_size= in percent, as fio 3.33 takes
# them (filesetup.c: setup_files, get_start_offset): size=N% is N% of the
# file, up to its end, in whole smallest blocks; offset=N% is rounded up
# to the smallest block, offset_increment added per clone; io_size=N% is
# N% of the files' sizes. Sequential 4 KiB reads of an existing 1 MiB
# file; the expected "issued rwts" and "IO depths" lines are real fio
# 3.33's, checked against the installed fio when it is 3.33. The null
# engine, whose files have no size, refuses a percentage.
. "$top_srcdir/tests/tap.sh"
. "$top_srcdir/tests/issued-lines.sh"

# options | the "issued rwts" line | the "IO depths" line, up to "8="
cases='size=50%|total=128,0,0,0 short=0,0,0,0 dropped=0,0,0,0|1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%
size=30%|total=76,0,0,0 short=0,0,0,0 dropped=0,0,0,0|1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%
size=100%|total=256,0,0,0 short=0,0,0,0 dropped=0,0,0,0|1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%
offset=25%|total=192,0,0,0 short=0,0,0,0 dropped=0,0,0,0|1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%
offset=33%|total=171,0,0,0 short=0,0,0,0 dropped=0,0,0,0|1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%
offset=50% size=10%|total=25,0,0,0 short=0,0,0,0 dropped=0,0,0,0|1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%
size=50% numjobs=2 offset_increment=100k group_reporting|total=256,0,0,0 short=0,0,0,0 dropped=0,0,0,0|1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%
io_size=50%|total=128,0,0,0 short=0,0,0,0 dropped=0,0,0,0|1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%
io_size=25% size=50%|total=32,0,0,0 short=0,0,0,0 dropped=0,0,0,0|1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%'
ncases=$(printf '%s\n' "$cases" | wc -l)

plan $((2 * ncases + 1))
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
truncate -s 1m "$dir/f"
SYSTEM_ARGS="--file=$dir/f=1m:written"

# job OPTIONS...: the job as fio command-line options
job() {
	echo --name=w --rw=read --bs=4k --filename="$dir/f"
	for o in "$@"; do echo "--$o"; done
}

issued_cases "$cases" "$dir/none"
check "the null engine refuses size=50%" \
	refused_job size "no size to take a percentage of" '[w]' ioengine=null \
	size=50%
finish
