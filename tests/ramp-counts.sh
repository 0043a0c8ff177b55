#!/bin/sh
# Description: at the end of ramp_time fio's reset_all_stats zeroes the
# counts its cycles run on (ramp_time_over, at the first I/O queued or
# completed after the ramp), and storsim does the same, so that the
# I/Os after the ramp are fio's: thinktime stops until the reset counts
# pass the mark of the last think again (a burst as long as the ramp's
# I/Os), the rate schedule starts again from the reset, and number_ios
# counts from the reset. Null engine, 1 ms of think per I/O or 1000
# IOPS, a 50.5 ms ramp; fio 3.33 on this machine, six runs: a burst of
# 38-52 I/Os after the ramp (its sleeps run late some of the time; 52
# in a run without), the next I/O right after the reset, and 71-72 I/Os
# for number_ios=50 with a 20.5 ms ramp.
. "$top_srcdir/tests/tap.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# times OPTIONS...: the issue time (us) of each read or write, one a line
times() {
	rm -f "$out/io.log"
	# shellcheck disable=SC2068
	"$STORSIM" run --no-cpu-profile --name=j --ioengine=null --bs=4k \
		--size=1m --write_iolog="$out/io.log" $@ >/dev/null 2>"$out/err" ||
		diag "storsim failed: $*: $(cat "$out/err")"
	awk '$3 == "read" || $3 == "write" { print $1 }' "$out/io.log"
}

plan 5
times --rw=randrw --thinktime=1000 --ramp_time=50500us >"$out/t"
# the I/Os that follow within 0.5 ms, from the first after the ramp
burst=$(awk 'p >= 50500 && !start { start = NR } start && !end && $1 - p >= 500 { end = NR }
	{ p = $1 } END { print end - start }' "$out/t")
check "thinktime: a burst of the ramp's I/Os after it ($burst)" \
	test "$burst" -ge 50 -a "$burst" -le 53
gaps=$(awk 'NR > 1 && $1 - p >= 900 { n++ } { p = $1 } END { print n }' "$out/t")
check "thinktime: then a think after each I/O again ($gaps 1 ms gaps of 255)" \
	test "$gaps" -ge 200

times --rw=randread --rate_iops=1000 --ramp_time=50500us >"$out/t"
gap=$(awk 'p >= 50500 && !done { print $1 - p; done = 1 } { p = $1 }' "$out/t")
check "rate: the I/O after the reset goes at once (${gap} us after)" \
	test "$gap" -lt 100
late=$(awk 'NR > 1 && $1 - p > 1100 { n++ } { p = $1 } END { print n + 0 }' "$out/t")
check "rate: 1 ms apart otherwise ($late gaps over 1.1 ms)" test "$late" -eq 0

n=$(times --rw=randread --thinktime=1000 --ramp_time=20500us --number_ios=50 |
	wc -l)
check "number_ios counts from the ramp's end: 71-72 I/Os as fio's ($n)" \
	test "$n" -ge 71 -a "$n" -le 72
finish
