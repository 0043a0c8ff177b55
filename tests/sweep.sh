#!/bin/sh
# Description: storsim sweep runs a job file over every combination of its
# variables, the last one changing fastest, shows the mechanism a kernel
# switch changes (the kworker's switches; where the latency goes, by
# layer), prints the same bytes twice, refuses bad variables, and with
# --eta=always writes a progress line per finished point even off a
# terminal.
. "$top_srcdir/tests/tap.sh"
plan 7
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
job="$top_srcdir/tests/jobs/sweep/dio.fio"

sweep() {
	"$STORSIM" sweep --host axboe-5950x-2023 --file /f=256m:written --env RUNTIME=200ms \
		--vary kernel.dio_caller_comp=false,true --vary DEPTH=1,16 "$@" "$job"
}
sweep --output-format=json --output "$out/a.json" 2>/dev/null
check "four runs, in the order of the variables, the last fastest" \
	python3 -c '
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
got = [(r["values"]["kernel.dio_caller_comp"], r["values"]["DEPTH"]) for r in runs]
assert got == [("false", "1"), ("false", "16"), ("true", "1"), ("true", "16")], got
assert all(r["iops"] > 0 for r in runs)
' "$out/a.json"
check "caller completion takes the kworker switches out at QD16" \
	python3 -c '
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
stock, patched = runs[1], runs[3]
assert stock["ctx_switches_per_io"] > 1, stock
assert patched["ctx_switches_per_io"] < 0.1, patched
assert patched["iops"] > stock["iops"]
' "$out/a.json"
check "the workqueue punt lengthens only the completion above the block layer" \
	python3 -c '
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
s = runs[0]["latency_ns_per_io_by_layer"]
p = runs[2]["latency_ns_per_io_by_layer"]
assert s["kernel_complete"] > p["kernel_complete"] + 200, (s, p)
assert abs(s["device"] - p["device"]) < 0.01 * p["device"], (s, p)
' "$out/a.json"
sweep >"$out/t1" 2>/dev/null
check "the text has the table of layers" grep -q "^Latency per I/O (us) by layer" "$out/t1"
sweep --eta=always >"$out/t2" 2>"$out/eta"
check "the same sweep prints the same bytes" cmp -s "$out/t1" "$out/t2"
check "--eta=always: a progress line per point, off a terminal too" \
	test "$(grep -c '^storsim sweep: [1-4] of 4 points done, 0 failed, [0-9]*:[0-9][0-9] elapsed' "$out/eta")" -eq 4
"$STORSIM" sweep --vary 'not a key=1' "$job" 2>"$out/err"
rc=$?
grep -q "option '--vary'" "$out/err"
check "a bad --vary is refused, naming the option" test $rc -ne 0 -a $? -eq 0
finish
