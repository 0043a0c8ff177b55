#!/bin/sh
# Description: fio's rate limits and think times pause its loop as fio
# does: rate and rate_iops (linear, per direction, Poisson) hold the job
# at its rate, and a think time sleeps (nanosleep, then a spin for the
# rest, as fio's usec_sleep does, so that the timer slack does not make
# it late) or spins when shorter than a nanosleep can be. Where fio 3.33
# is installed, the same null-engine jobs run in both, and the IOPS must
# agree within 2% for the rates (fio's own clock makes them exact; a ramp
# does not restart the rate, in fio 3.33 or here) and
# 10% for think times (fio's loop costs more on a loaded machine, so fio
# gets three tries, and the figure it gave on a quiet machine also
# stands). A case
# marked "own" is not run in fio: fio 3.33 can sleep for ever with
# thinktime_spin when the machine is busy (the spin outlasts the think
# time and the rest, negative, becomes a huge unsigned sleep).
. "$top_srcdir/tests/tap.sh"

# fio options|tolerance (fraction)|expected read IOPS without fio|write|fio or own
# (expected: the rate itself, or for the think times what fio 3.33 gave on
# this project's 2-core machine when it was quiet; for "own", storsim's)
cases='--rate_iops=1000|0.02|1000|0|fio
--rate_iops=1000 --iodepth=8|0.02|1000|0|fio
--rate=4m|0.02|1024|0|fio
--rate_iops=500,200 --rw=randrw|0.02|500|200|fio
--rate_iops=1000 --ramp_time=500ms|0.02|1000|0|fio
--rate_iops=500,200 --rw=randrw --ramp_time=500ms|0.02|500|200|fio
--rate_iops=1000 --rate_process=poisson --runtime=3|0.05|1000|0|fio
--thinktime=20|0.10|48800|0|fio
--thinktime=1ms --thinktime_blocks=4 --iodepth=4|0.10|3950|0|fio
--thinktime=200 --thinktime_spin=100|0.05|4970|0|own'
plan $(( $(printf '%s\n' "$cases" | wc -l) + 5 ))

fio=$(fio333)

# within GOT WANT TOL: each figure of GOT within TOL (a fraction) of WANT's
within() {
	python3 -c '
import sys
got, want = [[float(v) for v in a.split()] for a in sys.argv[1:3]]
tol = float(sys.argv[3])
sys.exit(not all(abs(g - w) <= tol * max(w, 1) for g, w in zip(got, want)))' "$@"
}

iops() {
	python3 -c 'import json, sys
j = json.load(sys.stdin)["jobs"][0]
print(round(j["read"]["iops"]), round(j["write"]["iops"]))'
}

while IFS='|' read -r opts tol want_r want_w with <&3; do
	set -- --name=n --ioengine=null --size=1g --bs=4k --rw=randread \
		--time_based --runtime=1 $opts --output-format=json
	got=$("$STORSIM" run "$@" 2>/dev/null | iops)
	# fio runs in real time: other work on the machine only slows it,
	# so it gets up to three tries to show its unloaded rate.
	tries=3
	while :; do
		if [ -n "$fio" ] && [ "$with" = fio ]; then
			want=$("$fio" "$@" 2>/dev/null | iops)
			what="fio"
		else
			want="$want_r $want_w"
			what="expected"
			tries=1
		fi
		tries=$((tries - 1))
		within "$got" "$want" "$tol" || [ $tries -eq 0 ] || continue
		break
	done
	# Against fio, what fio gave on a quiet machine (the expected column)
	# also stands, for fio may have had no quiet moment in its three tries.
	if [ "$what" = fio ] && ! within "$got" "$want" "$tol"; then
		what="fio (loaded), expected $want_r $want_w; fio"
		check "$opts: IOPS (read write) $got, $what $want" \
			within "$got" "$want_r $want_w" "$tol"
		continue
	fi
	check "$opts: IOPS (read write) $got, $what $want" within "$got" "$want" "$tol"
done 3<<EOF
$cases
EOF

out=$("$STORSIM" run --name=n --ioengine=null --size=1g --bs=4k --time_based \
	--runtime=100ms --thinktime=20 --output-format=json 2>/dev/null)
check "a think time shorter than a nanosleep is spun: no context switch" \
	python3 -c "import json, sys; j = json.loads(sys.argv[1])['jobs'][0]; sys.exit(not (j['ctx'] == 0 and j['usr_cpu'] >= 99))" "$out"

# thinktime_blocks_type=issue counts I/Os as they are issued: with four
# per think, libaio at QD8 never has more than four in flight (the live
# fio's run may end inside a group: half a point of slack per bucket).
depths() { sed -n 's/^ *IO depths *: \(.*\), 8=.*/\1/p'; }
set -- --name=n --bs=4k --rw=randread --ioengine=libaio --direct=1 \
	--time_based --runtime=200ms --thinktime=1ms --thinktime_blocks=4 \
	--iodepth=8 --thinktime_blocks_type=issue
got=$("$STORSIM" run --filename=/dev/nvme0n1 --size=16m "$@" | depths)
want="1=25.0%, 2=50.0%, 4=25.0%"
if [ -n "$fio" ]; then
	tmpf=$(mktemp)
	want=$("$fio" --filename="$tmpf" --size=16m "$@" 2>/dev/null | depths)
	rm -f "$tmpf"
fi
check "thinktime_blocks_type=issue: at most 4 in flight (IO depths $got, ${fio:+fio }$want)" \
	python3 -c '
import sys
g, w = [[float(f.split("=")[1].rstrip("%")) for f in a.split(", ")] for a in sys.argv[1:3]]
sys.exit(not (len(g) == len(w) > 0 and all(abs(a - b) <= 0.5 for a, b in zip(g, w))))' "$got" "$want"

# rate_min: a job below it ends with EIO 2 s + ratecycle in, as fio 3.33's
# (2501 ms at ratecycle=500, 3001 ms at the default); one that keeps it
# runs on; a minimum above the rate is refused, as fio refuses it.
end() {
	python3 -c 'import json, sys
j = json.load(sys.stdin)["jobs"][0]
print(j["error"], j["read"]["runtime"])'
}
set -- --name=n --ioengine=null --size=1g --bs=4k --rw=randread --time_based \
	--runtime=5 --output-format=json
got=$("$STORSIM" run "$@" --rate_min=100g --ratecycle=500 2>/dev/null | end)
check "rate_min=100g, ratecycle=500: EIO at 2.5 s (error, runtime ms: $got; fio 3.33: 5 2501)" \
	sh -c "[ \"\${1% *}\" = 5 ] && [ \${1#* } -ge 2499 ] && [ \${1#* } -le 2502 ]" - "$got"
got=$("$STORSIM" run "$@" --rate=1m --rate_min=512k 2>/dev/null | end)
check "rate=1m, rate_min=512k: runs to the end (error, runtime ms: $got; fio 3.33: 0 5001)" \
	test "$got" = "0 5001"
"$STORSIM" run "$@" --rate_iops=1000 --rate_iops_min=1100 >/dev/null 2>"$top_builddir/rate-min.err"
rc=$?
grep -q "option 'rate_iops_min'" "$top_builddir/rate-min.err"
check "rate_iops_min above rate_iops is refused, naming the option" test $rc -eq 1 -a $? -eq 0
rm -f "$top_builddir/rate-min.err"
finish
