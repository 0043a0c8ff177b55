#!/bin/sh
# Description: a time_based job on real files issues fio's I/Os, as far as
# fio got in its runtime. fio 3.33 starts a file's pass again inside the
# pick that finds it over: a random pick whose map (or LFSR) has no block
# left resets the file and draws once more, within the same rw=...:N count
# and percentage_random draw (get_next_rand_block), and a sequential one
# goes back to the start once it has reached io_size, with one file only
# (get_next_seq_offset): io_size past get_start_offset asked anew, so to
# a strided zone's start and, under file_append, never. Any other pick
# that fails (past io_size with a blockalign above the map's block, an I/O
# that does not fit the file's end) marks the file done like any job's,
# and with every file done the round ends, with end_fsync as any round
# does, and the next starts over, the random numbers seeded again under
# randrepeat. With verify, the round of an engine that queues also ends
# once its bytes are issued, and its verify phase follows. storsim runs for
# the same simulated time, which may hold more I/Os than fio's or fewer
# (fio on a fast machine's page cache issues more than the default host
# profile does): as far as the shorter log goes they must be equal, and
# both must have issued enough to pass the first restarts.
. "$top_srcdir/tests/tap.sh"

fio=$(fio333)
[ -n "$fio" ] || skip_all "needs fio 3.33 (scripts/bootstrap.sh installs it)"

cases='rw=randread:2 size=64k
rw=randread percentage_random=50 size=64k
rw=randrw percentage_random=30 bs=4k,8k size=64k
rw=randwrite bs=4k,8k size=64k
rw=randrw percentage_random=50 nrfiles=2 filesize=64k
rw=rw filesize=101k bs=8k
rw=read offset=16k size=64k
rw=read nrfiles=3 filesize=32k
rw=randwrite random_generator=lfsr size=64k
rw=write nrfiles=3 filesize=64k end_fsync=1
rw=write zonemode=strided zonesize=128k zoneskip=64k size=1m
rw=randwrite:2 norandommap file_append=1 size=64k
ioengine=libaio iodepth=4 rw=randwrite nrfiles=2 filesize=64k verify=crc32c'
plan "$(printf '%s\n' "$cases" | wc -l)"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# jobfile LOG OPTION...: the job file of a case
jobfile() {
	log=$1
	shift
	printf '[j]\nioengine=psync\nbs=4k\ndirectory=files\ntime_based\nruntime=200ms\n'
	printf '%s\n' "$@"
	printf 'write_iolog=%s\n' "$log"
}

cd "$out" || exit 1
printf '%s\n' "$cases" | while read -r opts; do
	# shellcheck disable=SC2086
	iologs_of_both jobfile $opts
	# the syncs of end_fsync after the runtime are where fio's log ends
	iolog_ios fio.log | awk '{ l[NR] = $0; d[NR] = $2 }
		END { n = NR; while (n && d[n] ~ /sync$/) n--
		      for (i = 1; i <= n; i++) print l[i] }' >fio.ios
	iolog_ios sim.log >sim.ios
	n=$(wc -l <fio.ios)
	ns=$(wc -l <sim.ios)
	[ "$ns" -ge "$n" ] || n=$ns
	head -n "$n" fio.ios >fio.head && mv fio.head fio.ios
	head -n "$n" sim.ios >sim.head && mv sim.head sim.ios
	# 200 I/Os pass the first restarts of every case (16 blocks each)
	check "$opts: storsim's first $n I/Os are fio's" \
		sh -c "test $n -ge 200 && cmp -s fio.ios sim.ios"
done
finish
