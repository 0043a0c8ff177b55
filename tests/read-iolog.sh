#!/bin/sh
# Description: fio's read_iolog in storsim run: a job replays a trace's
# I/O, each record its delay after the I/O before it went (iolog.c's
# iolog_delay), the trace's files opened up front. The example iolog v3
# (traces/examples/fio-v3.iolog, 4 reads, 4 writes and a sync over 7.6 ms)
# gives the "IO depths", "issued rwts" lines and the bytes and run times
# real fio 3.33 prints for it, also with replay_no_stall, with
# replay_time_scale and with libaio, which leaves the I/O in flight when
# the log ends out of its figures (fio's td->done: nothing is reaped
# after it); they are checked against the installed fio when it is 3.33.
# Other trace formats replay too (blktrace with replay_redirect, iolog v2
# waits, replay_skip), and a job recorded with write_iolog replays as
# itself, in storsim and in fio; buffered writes of part of a block
# replay (the block is read first), and a relative name in a trace is
# taken from "/", as in filename=. A bad trace, a file the system lacks
# and I/O past a file's end are refused with the job file, line and
# option.
. "$top_srcdir/tests/tap.sh"
. "$top_srcdir/tests/issued-lines.sh"

# options | the four lines compared: IO depths, issued, READ, WRITE
cases='|1=112.5%, 2=0.0%, 4=0.0%, 8=0.0%|total=4,4,0,1 short=0,0,0,0 dropped=0,0,0,0|READ 16.0KiB 8-8msec|WRITE 16.0KiB 8-8msec
replay_no_stall=1|1=112.5%, 2=0.0%, 4=0.0%, 8=0.0%|total=4,4,0,1 short=0,0,0,0 dropped=0,0,0,0|READ 16.0KiB 1-1msec|WRITE 16.0KiB 1-1msec
replay_time_scale=50|1=112.5%, 2=0.0%, 4=0.0%, 8=0.0%|total=4,4,0,1 short=0,0,0,0 dropped=0,0,0,0|READ 16.0KiB 16-16msec|WRITE 16.0KiB 16-16msec
ioengine=libaio iodepth=4|1=12.5%, 2=25.0%, 4=75.0%, 8=0.0%|total=4,4,0,1 short=0,0,0,0 dropped=0,0,0,0|READ 8192B 8-8msec|WRITE 12.0KiB 8-8msec
ioengine=libaio iodepth=8|1=12.5%, 2=25.0%, 4=62.5%, 8=12.5%|total=4,4,0,1 short=0,0,0,0 dropped=0,0,0,0|WRITE 4096B 8-8msec'
ncases=$(printf '%s\n' "$cases" | wc -l)

fio=$(fio333)
plan $((2 * ncases + 19))
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
sed "s#example.img#$dir/example.img#" \
	"$top_srcdir/traces/examples/fio-v3.iolog" >"$dir/v3.iolog"

# issued_lines OUTPUT: the lines a case compares, normalised (this test
# compares the READ and WRITE lines too)
issued_lines() {
	printf '%s\n' "$1" | sed -n \
		-e 's/.*IO depths *: \([^,]*, [^,]*, [^,]*, [^,]*\),.*/\1/p' \
		-e 's/.*issued rwts: //p' \
		-e 's/.*\(READ\|WRITE\): .*io=\([^ ]*\) .*run=\([0-9-]*msec\)/\1 \2 \3/p'
}

while IFS='|' read -r opts depths issued l1 l2; do
	want=$(printf '%s\n%s\n%s' "$depths" "$issued" "$l1")
	[ -n "$l2" ] && want=$(printf '%s\n%s' "$want" "$l2")
	set -- --name=r --read_iolog="$dir/v3.iolog"
	for o in $opts; do set -- "$@" "--$o"; done
	issued_case "storsim, the v3 example${opts:+ with $opts}: $issued" "$want" \
		"$("$STORSIM" run --no-cpu-profile "$@")"
	if [ -z "$fio" ]; then
		ok "fio${opts:+, $opts} # SKIP fio 3.33 is not installed"
		continue
	fi
	# Real fio's times are wall-clock: its run times are left out, and a
	# busy machine gets three tries.
	want=$(printf '%s\n' "$want" | sed 's/ [0-9-]*msec$//')
	for try in 1 2 3; do
		rm -f "$dir/example.img"
		truncate -s 1m "$dir/example.img"
		got=$(cd "$dir" && "$fio" "$@" 2>&1 |
			issued_lines "$(cat)" | sed 's/ [0-9-]*msec$//')
		[ "$got" = "$want" ] && break
	done
	[ "$got" = "$want" ] || diag "got: $(printf '%s' "$got" | tr '\n' '|')"
	check "fio 3.33${opts:+, $opts}: the same lines but the run times ($try tries)" \
		test "$got" = "$want"
done <<EOF
$cases
EOF

out=$("$STORSIM" run --no-cpu-profile --name=r --read_iolog="$dir/v3.iolog")
again=$("$STORSIM" run --no-cpu-profile --name=r --read_iolog="$dir/v3.iolog")
check "the same replay twice prints the same bytes" test "$out" = "$again"

out=$("$STORSIM" run --no-cpu-profile --name=r --direct=1 --iodepth=4 \
	--ioengine=libaio --replay_redirect=/dev/nvme0n1 \
	--read_iolog="$top_srcdir/traces/examples/blktrace.bin")
check "blktrace onto /dev/nvme0n1: 2 reads, 2 writes, a trim, a flush as a sync" \
	test "$(issued_lines "$out" | sed -n 2p)" = \
	"total=2,2,1,1 short=0,0,0,0 dropped=0,0,0,0"

# The v2 example waits until 200 ms, then until 500 ms (fio's meaning).
out=$("$STORSIM" run --no-cpu-profile --name=r --direct=1 --replay_skip=trim \
	--read_iolog="$top_srcdir/traces/examples/fio-v2.iolog")
check "iolog v2 with replay_skip=trim: its waits make the run 501 ms" \
	test "$(issued_lines "$out" | sed -n 3p)" = "READ 4096B 501-501msec"


# A relative name in the trace lands where the simulated fio runs, "/",
# as one in filename= does: data/a on the file system mounted at /data.
printf 'fio version 2 iolog\ndata/a add\ndata/a open\ndata/a write 0 4096\ndata/a write 8192 4096\ndata/a close\n' \
	>"$dir/rel.iolog"
out=$("$STORSIM" run --no-cpu-profile --mount=/data=xfs:nvme0n1 --name=r \
	--read_iolog="$dir/rel.iolog" 2>&1)
check "a relative name in the trace is taken from /" \
	test "$(issued_lines "$out" | sed -n 2p)" = \
	"total=0,2,0,0 short=0,0,0,0 dropped=0,0,0,0"

printf 'fio version 3 iolog\n1 %s add\n2 %s reed 0 4096\n' \
	"$dir/a" "$dir/a" >"$dir/bad.iolog"
check "a bad line: the job's line, then the trace's file and line" \
	refused_job read_iolog "$dir/bad.iolog:3: field 'action'" \
	'[r]' "read_iolog=$dir/bad.iolog"
check "a trace that does not exist" \
	refused_job read_iolog "No such file" \
	'[r]' "read_iolog=$dir/none.iolog"
printf 'fio version 3 iolog\n1 %s add\n' "$dir/a" >"$dir/empty.iolog"
check "a trace with no I/O" \
	refused_job read_iolog "no I/O to replay" \
	'[r]' "read_iolog=$dir/empty.iolog"
# fio 3.33's read_iolog2 counts reads, writes and waits: syncs alone
# fail it ("failed initializing iolog")
printf 'fio version 2 iolog\n%s add\n%s open\n%s sync 0 0\n' \
	"$dir/a" "$dir/a" "$dir/a" >"$dir/syncs.iolog"
check "a trace of syncs alone" \
	refused_job read_iolog "no I/O to replay" \
	'[r]' "read_iolog=$dir/syncs.iolog"
printf 'fio version 3 iolog\n1 /dev/nvme0n1 add\n2 /dev/nvme0n1 read 999999999999999 4096\n' \
	>"$dir/far.iolog"
check "I/O past the end of the device" \
	refused_job read_iolog "up to byte 1000000000004095 of '/dev/nvme0n1'" \
	'[r]' "read_iolog=$dir/far.iolog"
printf 'fio version 3 iolog\n1 /dev/nvme9n1 add\n2 /dev/nvme9n1 read 0 4096\n' \
	>"$dir/nodev.iolog"
check "a device the simulated system lacks" \
	refused_job read_iolog "a file of the trace: '/dev/nvme9n1': no such device" \
	'[r]' "read_iolog=$dir/nodev.iolog"
got=$("$STORSIM" run --output-format=json --name=r --replay_skip=trim \
	--read_iolog="$top_srcdir/traces/examples/fio-v2.iolog" 2>/dev/null |
	python3 -c 'import json, sys
j = json.load(sys.stdin)["jobs"][0]
print(j["write"]["total_ios"], j["error"])')
check "buffered writes of part of a block replay (the v2 example's 512 bytes): 2 writes, no error ($got)" \
	test "$got" = "2 0"
check "a trace with syncs on an IOPOLL ring (hipri)" \
	refused_job read_iolog "an IOPOLL ring (hipri) takes reads and writes only" \
	'[r]' ioengine=io_uring hipri=1 direct=1 "read_iolog=$dir/v3.iolog"
check "replay_skip with an unknown kind" \
	refused_job replay_skip "unknown kind 'bogus'" \
	'[r]' "read_iolog=$dir/v3.iolog" "replay_skip=bogus"
check "write_iolog with numjobs=2 (one log for every clone)" \
	refused_job write_iolog "would write the same log" \
	'[r]' "write_iolog=$dir/out.iolog" numjobs=2
check "write_iolog where it cannot be written" \
	refused_job write_iolog "cannot create" '[r]' "filename=$dir/x" size=64k \
	"write_iolog=$dir/no/such/dir/out.iolog"
printf 'fio version 3 iolog\n1 %s add\n2 %s write 0 4096\n1000000 %s read 0 4096\n' \
	"$dir/b" "$dir/b" "$dir/b" >"$dir/long.iolog"
out=$("$STORSIM" run --no-cpu-profile --name=r --runtime=100ms \
	--read_iolog="$dir/long.iolog")
run=$(issued_lines "$out" | sed -n 's/^WRITE 4096B \([0-9]*\)-.*/\1/p')
check "runtime= cuts a replay's 1 s wait: 1 write, no read, run $run ms" \
	test "$(issued_lines "$out" | sed -n 2p)" = \
	"total=0,1,0,0 short=0,0,0,0 dropped=0,0,0,0" -a "${run:-0}" -ge 100 \
	-a "${run:-0}" -le 101
# write_iolog: a recorded job replays as itself, in storsim and in fio.
job="--name=w --filename=$dir/w.img --size=64k --bs=4k --rw=randwrite --fsync=4"
# shellcheck disable=SC2086
rec=$("$STORSIM" run --no-cpu-profile $job --write_iolog="$dir/rec.iolog")
check "a recorded job's iolog: header, add, open, 16 writes, 3 syncs, close" \
	test "$(head -1 "$dir/rec.iolog")" = "fio version 3 iolog" -a \
	"$(awk '{ print $3 }' "$dir/rec.iolog" | sort | uniq -c | tr -s ' ' |
	   tr '\n' '|')" = " 1 3| 1 add| 1 close| 1 open| 3 sync| 16 write|"
out=$("$STORSIM" run --no-cpu-profile --name=r --read_iolog="$dir/rec.iolog")
check "storsim replays its recording: the same issued line" \
	test "$(issued_lines "$out" | sed -n 2p)" = \
	"$(issued_lines "$rec" | sed -n 2p)"
if [ -n "$fio" ]; then
	truncate -s 64k "$dir/w.img"
	out=$("$fio" --name=r --read_iolog="$dir/rec.iolog" 2>&1)
	check "fio 3.33 replays storsim's recording: the same issued line" \
		test "$(issued_lines "$out" | sed -n 2p)" = \
		"$(issued_lines "$rec" | sed -n 2p)"
else
	ok "fio replays the recording # SKIP fio 3.33 is not installed"
fi
finish
