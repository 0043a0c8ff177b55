#!/bin/sh
# Description: each clone of a job (numjobs) starts where fio 3.33's
# get_start_offset puts it. offset_increment moves clone N on by N
# increments, in bytes or N% of the file; a percentage in offset= or in
# offset_increment= rounds the sum up to offset_align, else to the
# smallest block (offset=1000 with offset_increment=50% starts clone 0 at
# 4096, not 1000). fio's add_job numbers the clones from the last: with
# numjobs=3 the second thread is subjob 2, whose files are j.2.N (their
# names seed zipf) and whose region is two increments on. Each case runs
# on a 1 MiB file that both tools are given whole, or on the files the
# job creates in directory=, which fio lays out to the clone's region's
# end (clone 1 of size=128k with offset_increment=64k: 192 KiB), and the
# direction, length and offset of
# every I/O in each thread's latency log (write_lat_log with
# log_offset=1) must be fio's.
# A file that ends before a clone's region does is one fio deletes and
# lays out again (extend_file), which storsim refuses, naming the file,
# the line and the option. Skipped without fio 3.33.
. "$top_srcdir/tests/tap.sh"

fio=$(fio333)
[ -n "$fio" ] || skip_all "fio 3.33 is not installed"

# job options of each case, separated by spaces
cases='rw=randread numjobs=2 offset=1000 offset_increment=50% size=256k
rw=read numjobs=3 offset_increment=25% size=128k
rw=randread numjobs=2 offset=10% offset_align=16k offset_increment=128k size=256k
rw=read numjobs=2 offset=10% offset_increment=40% offset_align=64k size=64k
rw=randread numjobs=3 directory=files random_distribution=zipf:1.2 size=128k
rw=write numjobs=2 directory=files offset_increment=64k size=128k'
ncases=$(printf '%s\n' "$cases" | wc -l)
plan $((ncases + 1))
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# jobfile OPTION...: the job file of a case, on files/f unless it names
# a directory=
jobfile() {
	printf '[j]\nioengine=psync\nbs=4k\n'
	case "$*" in *directory=*) ;; *) printf 'filename=files/f\n' ;; esac
	printf '%s\n' "$@"
	printf 'write_lat_log=lat\nlog_offset=1\n'
}

# ios LOG: direction, length and offset of each I/O of a latency log
ios() {
	awk -F', ' '{ print $3, $4, $5 }' "$1"
}

cd "$out" || exit 1
mkdir fio sim
while read -r opts; do
	rm -f fio/* sim/*
	# shellcheck disable=SC2086
	jobfile $opts >job.fio
	given=--file=/files/f=1m:written
	mkdir fio/files
	case "$opts" in
	*directory=*) given= ;;
	*) dd if=/dev/zero of=fio/files/f bs=1M count=1 status=none ;;
	esac
	(cd fio && "$fio" ../job.fio >/dev/null 2>&1) || diag "fio failed: $opts"
	# shellcheck disable=SC2086
	(cd sim && "$STORSIM" run --no-cpu-profile --mount=/files=xfs:nvme0n1 \
		$given ../job.fio >/dev/null 2>../err) ||
		diag "storsim failed: $opts: $(cat err)"
	same=true
	clones=0
	for log in fio/lat_lat.*.log; do
		clones=$((clones + 1))
		ios "$log" >fio.ios
		ios "sim/${log#fio/}" >sim.ios 2>/dev/null
		[ -s fio.ios ] && cmp -s fio.ios sim.ios || same=false
	done
	check "$opts: each of $clones clones issues fio's I/Os" $same
	rm -rf fio/files
done <<EOF
$cases
EOF

# refused: clone 1's region, 512k-1536k, ends past the 1 MiB file
printf '[j]\nioengine=psync\nfilename=files/f\nrw=read\nnumjobs=2\noffset_increment=50%%\nsize=1m\n' >grow.fio
msg=$("$STORSIM" run --no-cpu-profile --mount=/files=xfs:nvme0n1 \
	--file=/files/f=1m:written grow.fio 2>&1)
rc=$?
case "$msg" in
*"grow.fio:3: option 'filename': "*"extend_file"*"--file=/files/f=1572864"*)
	check "a clone's region past the file's end is refused (exit $rc)" \
		test "$rc" = 1 ;;
*) diag "exit $rc: $msg"; not_ok "a clone's region past the file's end is refused" ;;
esac
finish
