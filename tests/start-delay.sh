#!/bin/sh
# Description: startdelay=LOW-HIGH delays each thread by the time fio 3.33
# draws for it: once per thread, in whole microseconds, from the thread's
# own start-delay generator (fixup_options' rand_between, seed
# FIO_RAND_START_DELAY). fio prints no drawn delay, and starts a job only
# at its next 100 ms poll after it, so the expected values were read from
# fio 3.33 built from its source with a print after that rand_between;
# storsim's threads start at the drawn delay, read here from the host
# timeline as the first slice of each thread, less the first job's.
. "$top_srcdir/tests/tap.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# starts OPTIONS...: "NAME DELAY-US" of each clone of j, from its first
# slice on the timeline, relative to job first (13391 us as fio draws it)
starts() {
	{
		printf '[global]\nioengine=null\nbs=4k\nrw=read\nsize=64k\n'
		printf '[first]\nstartdelay=0-20ms\n[j]\nstartdelay=1ms-1500ms\n'
		printf '%s\n' "$@"
	} >"$out/sd.fio"
	"$STORSIM" run --no-cpu-profile --timeline "$out/tl.json" \
		--timeline-window 0:2s "$out/sd.fio" >/dev/null 2>"$out/err" ||
		diag "storsim failed: $*: $(cat "$out/err")"
	python3 -c '
import json, sys
first = {}
for e in json.load(open(sys.argv[1]))["traceEvents"]:
    if e["ph"] == "X" and e["name"].startswith("fio/"):
        first[e["name"]] = min(first.get(e["name"], e["ts"]), e["ts"])
base = first["fio/first.0"] - 13391
print(" ".join("%s %d" % (n[4:], round(t - base))
               for n, t in sorted(first.items()) if n != "fio/first.0"))
' "$out/tl.json"
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

plan 5
case_ "j.0 132577"
case_ "j.0 132577 j.1 839690 j.2 839139" numjobs=3
case_ "j.0 1031209" randseed=7
case_ "j.0 1192925" randrepeat=0 randseed=3
case_ "j.0 303924" random_generator=tausworthe64
finish
