#!/bin/sh
# Description: directory= places a job's files as fio's add_file does.
# A ':'-separated list gives clone N of a job (numjobs) entry N modulo
# the list's length (set_name_idx), and filename= goes into the first
# entry; with two file systems on two drives, the drives' I/O counts show
# where each clone's file was. (tests/offsets-vs-fio.sh compares the
# names themselves with fio 3.33's.)
. "$top_srcdir/tests/tap.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

system="--no-cpu-profile --device=nvme0n1=optane-p5800x
 --device=nvme1n1=optane-p5800x --mount=/data1=xfs:nvme0n1
 --mount=/data2=xfs:nvme1n1"

# run JOB-OPTIONS: 16 direct 4 KiB reads a clone; prints the disk stats
run() {
	# shellcheck disable=SC2086
	"$STORSIM" run $system --name=k --ioengine=psync --direct=1 --rw=read \
		--bs=4k --size=64k $1 >"$out/out" 2>"$out/err" ||
		diag "storsim failed: $1: $(cat "$out/err")"
}

# ios DEVICE: the reads counted on DEVICE's disk stats line
ios() {
	sed -n "s|^ *$1: ios=\([0-9]*\)/.*|\1|p" "$out/out"
}

plan 4
run "--directory=/data1:/data2 --numjobs=3"
check "clones 0 and 2 in /data1: 32 reads on nvme0n1 ($(ios nvme0n1))" \
	test "$(ios nvme0n1)" = 32
check "clone 1 in /data2: 16 reads on nvme1n1 ($(ios nvme1n1))" \
	test "$(ios nvme1n1)" = 16
run "--directory=/data2:/data1 --filename=f"
check "filename= in the first directory: 16 reads on nvme1n1 ($(ios nvme1n1))" \
	test "$(ios nvme1n1)" = 16
check "and none on nvme0n1 (no disk stats line)" test -z "$(ios nvme0n1)"
finish
