#!/bin/sh
# Description: --timeline writes what each CPU ran as Trace Event JSON:
# valid JSON, slices inside the window that never overlap on one CPU, the
# kworker of a workqueue-completed write beside fio and the interrupts,
# and a bad window refused with the option named.
. "$top_srcdir/tests/tap.sh"
plan 4
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$STORSIM" run --host axboe-5950x-2023 --file /f=256m:written \
	--kernel dio_caller_comp=false --timeline "$out/tl.json" \
	--timeline-window 100ms:100.2ms --name=w --filename=/f --rw=randwrite \
	--bs=4k --direct=1 --ioengine=io_uring --iodepth=8 --time_based \
	--runtime=200ms --cpus_allowed=0 >/dev/null 2>&1
check "the run writes the timeline" test -s "$out/tl.json"
check "slices lie in the window and never overlap on a CPU" python3 -c '
import json, sys
ev = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e["ph"] == "X"]
assert ev
last = {}
for e in sorted(ev, key=lambda e: (e["tid"], e["ts"])):
    assert 100000 <= e["ts"] and e["ts"] + e["dur"] <= 100200.001, e
    assert e["ts"] >= last.get(e["tid"], 0) - 1e-6, e
    last[e["tid"]] = e["ts"] + e["dur"]
' "$out/tl.json"
check "fio, the dio kworker and the interrupt share CPU 0" python3 -c '
import json, sys
names = {e["name"] for e in json.load(open(sys.argv[1]))["traceEvents"]
         if e["ph"] == "X" and e["tid"] == 0}
assert "w.0" in " ".join(names) and any(n.startswith("kworker/0") for n in names), names
assert "hardirq" in names, names
' "$out/tl.json"
"$STORSIM" run --timeline "$out/x.json" --timeline-window 2ms:1ms --name=w \
	--rw=read --size=1m --filename=/g >/dev/null 2>"$out/err"
rc=$?
grep -q "option '--timeline-window'" "$out/err"
check "a window that ends before it starts is refused" test $rc -ne 0 -a $? -eq 0
finish
