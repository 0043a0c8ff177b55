#!/bin/sh
# Description: size=, offset= and io_size= in percent, as fio 3.33 takes
# them (filesetup.c: setup_files, get_start_offset): size=N% is N% of the
# file, up to its end, in whole smallest blocks; offset=N% is rounded up
# to the smallest block, offset_increment added per clone; io_size=N% is
# N% of the files' sizes. A percentage stays when bytes are given after
# it (str_size_cb and its kind), and wins for size= and offset=, not for
# io_size=. filesize= smaller than the file ends the region there, and
# an offset at or past it stops fio, as a filesize= past the file's end
# lays the file out again (not modelled): storsim refuses both. Sequential 4 KiB reads of an existing 1 MiB
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
io_size=25% size=50%|total=32,0,0,0 short=0,0,0,0 dropped=0,0,0,0|1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%
size=50% size=256k|total=32,0,0,0 short=0,0,0,0 dropped=0,0,0,0|1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%
offset=25% offset=64k|total=192,0,0,0 short=0,0,0,0 dropped=0,0,0,0|1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%
io_size=50% io_size=64k|total=16,0,0,0 short=0,0,0,0 dropped=0,0,0,0|1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%
filesize=64k|total=16,0,0,0 short=0,0,0,0 dropped=0,0,0,0|1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%
filesize=64k offset=16k|total=12,0,0,0 short=0,0,0,0 dropped=0,0,0,0|1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%'
ncases=$(printf '%s\n' "$cases" | wc -l)

plan $((2 * ncases + 3))
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
# refused OPTION TEXT OPTIONS...: storsim stops the job, naming OPTION
refused() {
	local opt=$1 text=$2 out
	shift 2
	# shellcheck disable=SC2086
	out=$("$STORSIM" run --no-cpu-profile $SYSTEM_ARGS $(job "$@") 2>&1) &&
		return 1
	case "$out" in
	*"option '$opt': "*"$text"*) ;;
	*) diag "$out"; return 1 ;;
	esac
}
check "offset=10% past filesize=64k of a 1 MiB file is refused" \
	refused offset "leaves nothing of filesize=65536" filesize=64k offset=10%
check "filesize=2m of a 1 MiB file, which fio lays out again, is refused" \
	refused filename "lay it out again" filesize=2m
check "the null engine refuses size=50%" \
	refused_job size "no size to take a percentage of" '[w]' ioengine=null \
	size=50%
finish
