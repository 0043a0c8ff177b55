#!/bin/sh
# Description: the async buffered read table, run whole (1 Mi reads per
# variant). What the model reproduces is held to the tolerance: the
# elapsed times of all three, the user times of preadv and the patchset, the
# patchset's system time and CPU share, io-wq's CPU share; mainline is
# slower than the patchset; and the mechanism shows: mainline runs io-wq
# workers and switches context several times per read, the patchset has
# no workers; mainline's reads wait for a worker, the patchset's in the
# plug, preadv's for the idle CPU's wake-up. The cells the model misses (docs/reproductions.md) are
# reported, not asserted.
. "$top_srcdir/tests/tap.sh"
plan 6
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$STORSIM" reproduce --output-format json --output "$out/json" \
	async-buffered-reads
check "the report was written" test -s "$out/json"
check "the reproduced cells are within tolerance" \
	python3 -c '
import json, sys
e = json.load(open(sys.argv[1]))["experiments"][0]
rows = {r["metric"]: r for r in e["rows"]}
for metric, variant in [("real (s)", "preadv"), ("real (s)", "patchset"),
                        ("real (s)", "mainline"),
                        ("user (s)", "preadv"), ("user (s)", "patchset"),
                        ("sys (s)", "patchset"), ("app CPU", "patchset"),
                        ("io-wq CPU", "mainline")]:
    c = rows[metric][variant]
    assert c["ok"], (metric, variant, c)
' "$out/json"
check "mainline is more than 10% slower than the patchset" \
	python3 -c '
import json, sys
e = json.load(open(sys.argv[1]))["experiments"][0]
r = {r["metric"]: r for r in e["rows"]}["real (s)"]
assert r["mainline"]["simulated"] > 1.1 * r["patchset"]["simulated"], r
' "$out/json"
check "mainline reads through io-wq workers, the patchset in the task" \
	python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))["experiments"][0]["mechanism"]["variants"]
assert m["mainline"]["io_wq_workers"] >= 8, m["mainline"]
assert m["patchset"]["io_wq_workers"] == 0, m["patchset"]
assert m["mainline"]["ctx_switches_per_io"] > 4 * m["patchset"]["ctx_switches_per_io"]
assert "io_wq_enqueue" in m["mainline"]["cpu_ns_per_io_by_stage"]
assert "io_req_task_work_add" in m["patchset"]["cpu_ns_per_io_by_stage"]
' "$out/json"
check "the reads wait for io-wq in mainline, in the plug in the patchset" \
	python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))["experiments"][0]["mechanism"]["variants"]
lay = {v: m[v]["latency_ns_per_io_by_layer"] for v in m}
assert lay["mainline"]["kernel_submit"] > 10 * lay["patchset"]["kernel_submit"], lay
assert lay["patchset"]["block_queue"] > 10 * lay["preadv"]["block_queue"], lay
assert lay["preadv"]["interrupt"] > 5000, lay["preadv"]
' "$out/json"
# The report names the whole machine, the 5.7 kernel's switches included.
"$STORSIM" reproduce async-buffered-reads >"$out/text"
check "the report's system line names the kernel switches" \
	grep -q '^system: .*, --kernel io_wq_wake_free_worker=false' "$out/text"
finish
