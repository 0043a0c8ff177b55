#!/bin/sh
# Description: an experiment whose "sets" or "kernel" names something that
# does not exist is refused when it is loaded, at its file and line, not
# reported later as a command-line error of one of its runs.
. "$top_srcdir/tests/tap.sh"
plan 3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
src="$top_srcdir/traces/dio-caller-comp"

# broken NAME SED-EXPRESSION: a copy of dio-caller-comp with one change
broken() {
	mkdir -p "$out/$1"
	cp "$src/dio-write.fio" "$out/$1/"
	sed "$2" "$src/experiment.json" >"$out/$1/experiment.json"
	"$STORSIM" reproduce "$out/$1/experiment.json" >/dev/null 2>"$out/$1/err"
	echo $?
}
rc=$(broken kernel 's/"dio_caller_comp=false"/"dio_caller_compX=false"/')
grep -q "experiment.json:[0-9]*: option 'kernel': .*no kernel feature 'dio_caller_compX'" \
	"$out/kernel/err"
check "an unknown kernel feature, at its line" test "$rc" -eq 1 -a $? -eq 0
rc=$(broken param 's/"host": "axboe-5950x-2023",/"host": "axboe-5950x-2023", "sets": ["cpu.nonsuch_ns=1"],/')
grep -q "option 'sets': .*model cpu has no parameter 'nonsuch_ns'" "$out/param/err"
check "an unknown parameter of a model" test "$rc" -eq 1 -a $? -eq 0
rc=$(broken model 's/"host": "axboe-5950x-2023",/"host": "axboe-5950x-2023", "sets": ["nvme9.read_latency=1"],/')
grep -q "'nvme9' is neither a model nor a device" "$out/model/err"
check "neither a model nor a device of the system" test "$rc" -eq 1 -a $? -eq 0
finish
