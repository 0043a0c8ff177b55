#!/bin/sh
# Description: startdelay=LOW-HIGH delays each thread by the time fio 3.33
# draws for it: once per thread, in whole microseconds, from the thread's
# own start-delay generator (fixup_options' rand_between, seed
# FIO_RAND_START_DELAY). fio prints no drawn delay, and starts a job only
# at its next 100 ms poll after it, so the expected values were read from
# fio 3.33 built from its source with a print after that rand_between;
# storsim's threads start at the drawn delay, read here from the host
# timeline as the first slice of each thread, less the first job's. A
# thread of a later stonewall phase counts its delay from the run's start.
. "$top_srcdir/tests/tap.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# first_slices JOBFILE WINDOW: "NAME US" of each thread's first slice on
# the host timeline of a storsim run of JOBFILE
first_slices() {
	"$STORSIM" run --no-cpu-profile --timeline "$out/tl.json" \
		--timeline-window "$2" "$1" >/dev/null 2>"$out/err" ||
		diag "storsim failed: $1: $(cat "$out/err")"
	python3 -c '
import json, sys
first = {}
for e in json.load(open(sys.argv[1]))["traceEvents"]:
    if e["ph"] == "X" and e["name"].startswith("fio/"):
        first[e["name"]] = min(first.get(e["name"], e["ts"]), e["ts"])
for n, t in sorted(first.items()):
    print(n[4:], t)
' "$out/tl.json"
}

# starts OPTIONS...: "NAME DELAY-US" of each clone of j, relative to job
# first (13391 us as fio draws it)
starts() {
	{
		printf '[global]\nioengine=null\nbs=4k\nrw=read\nsize=64k\n'
		printf '[first]\nstartdelay=0-20ms\n[j]\nstartdelay=1ms-1500ms\n'
		printf '%s\n' "$@"
	} >"$out/sd.fio"
	first_slices "$out/sd.fio" 0:2s | python3 -c '
import sys
first = dict((n, float(t)) for n, t in (l.split() for l in sys.stdin))
base = first.pop("first.0") - 13391
print(" ".join("%s %d" % (n, round(t - base)) for n, t in sorted(first.items())))
'
}

# case EXPECTED OPTIONS...
case_() {
	want=$1
	shift
	got=$(starts "$@")
	check "${*:-defaults}: threads start at fio's delays ($want)" \
		test "$got" = "$want"
	[ "$got" = "$want" ] || diag "got: $got"
}

# phase_start DELAY: when (ms after the first job) the second job, in a
# stonewall phase of its own after a 1 s job, starts with startdelay=DELAY
phase_start() {
	printf '[global]\nioengine=null\nsize=1g\ntime_based=1\nruntime=1\n[a]\nrw=read\n[b]\nstonewall\nstartdelay=%s\nrw=read\n' "$1" >"$out/ph.fio"
	first_slices "$out/ph.fio" 0:5s | awk '
		$1 == "a.0" { a = $2 } $1 == "b.0" { b = $2 }
		END { printf "%d\n", (b - a) / 1000 + 0.5 }'
}

plan 7
case_ "j.0 132577"
case_ "j.0 132577 j.1 839690 j.2 839139" numjobs=3
case_ "j.0 1031209" randseed=7
case_ "j.0 1192925" randrepeat=0 randseed=3
case_ "j.0 303924" random_generator=tausworthe64
# fio's run_threads holds a delayed thread back while its startdelay is
# more than the time since genesis, the run's start, in every stonewall
# phase: fio 3.33 took 3.32 s (wall) for these two 1 s jobs with
# startdelay=2 (b at about 2.2 s, after its 100 ms polls) and 2.48 s with
# 500ms (b right after a); counted from a's end it would be 4.2 s or more.
check "startdelay=2 in a later phase: from the run's start (2000 ms)" \
	test "$(phase_start 2)" = 2000
check "startdelay=500ms in a phase starting at 1 s: no further wait (1000 ms)" \
	test "$(phase_start 500ms)" = 1000
finish
