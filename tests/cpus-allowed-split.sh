#!/bin/sh
# Description: cpus_allowed_policy=split gives each thread one CPU of
# cpus_allowed by its number in the whole run, as fio 3.33's
# fio_cpus_split(mask, thread_number - 1) does, so two jobs of one thread
# each run on CPUs 0 and 1, not both on 0; a third thread goes back to
# CPU 0. Each case runs null-engine readers on CPUs 0-1 and reads which
# CPUs were busy (user time above a quarter of the run) from the JSON
# report.
. "$top_srcdir/tests/tap.sh"

# jobs (sections), numjobs each, the CPUs expected busy
cases='2 1 0,1
1 2 0,1
3 1 0,1'
plan 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

while read -r jobs numjobs busy; do
	{
		printf '[global]\nioengine=null\nrw=read\nsize=16m\n'
		printf 'cpus_allowed=0-1\ncpus_allowed_policy=split\nnumjobs=%s\n' "$numjobs"
		for j in $(seq "$jobs"); do printf '[j%s]\n' "$j"; done
	} >"$tmp/split.fio"
	"$STORSIM" run --output-format=json "$tmp/split.fio" >"$tmp/out.json" 2>"$tmp/err" ||
		diag "storsim failed: $(cat "$tmp/err")"
	got=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(",".join(str(c["cpu"]) for c in d["storsim"]["cpus"] if c["usr"] > 0.25))' \
		"$tmp/out.json" 2>/dev/null)
	check "$jobs jobs of $numjobs threads split over CPUs 0-1 keep CPUs $busy busy (got $got)" \
		test "$got" = "$busy"
done <<EOF
$cases
EOF
finish
