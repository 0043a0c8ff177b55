#!/bin/sh
# Description: --timeline writes what each CPU ran as Trace Event JSON:
# valid JSON, slices inside the window that never overlap on one CPU, the
# kworker of a workqueue-completed write beside fio and the interrupts,
# and a bad window refused with the option named; and each I/O: a span
# from its submission to its completion with its layers nested, its
# offset, size, direction and job, on lanes that never overlap, a flow
# from the submitting CPU through the device queue and the completing CPU
# to its end, the device queue's commands and depth, the I/Os in flight;
# a job name with a tab and a quote stays valid JSON; t/io_uring too; and
# the results are the same with a timeline as without.
. "$top_srcdir/tests/tap.sh"
plan 9
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
tab=$(printf '\t')
"$STORSIM" run --host axboe-5950x-2023 --file /f=256m:written \
	--kernel dio_caller_comp=false --timeline "$out/tl.json" \
	--timeline-window 100ms:100.2ms --name="w$tab\"q" --filename=/f --rw=randwrite \
	--bs=4k --direct=1 --ioengine=io_uring --iodepth=8 --time_based \
	--runtime=200ms --cpus_allowed=0 >/dev/null 2>&1
check "the run writes the timeline" test -s "$out/tl.json"

# judge NAME: run the Python check NAME (below) on the timeline
judge() {
	python3 - "$1" "$2" <<'PY'
import collections, json, sys
what, path = sys.argv[1], sys.argv[2]
ev = json.load(open(path))["traceEvents"]
cpu = [e for e in ev if e["ph"] == "X" and e["pid"] == 1]
ios = [e for e in ev if e["ph"] == "X" and e["pid"] == 2 and "args" in e]
job = 'fio/w\t"q.0'
if what == "cpus":
    assert cpu
    last = {}
    for e in sorted(cpu, key=lambda e: (e["tid"], e["ts"])):
        assert 100000 <= e["ts"] and e["ts"] + e["dur"] <= 100200.001, e
        assert e["ts"] >= last.get(e["tid"], 0) - 1e-6, e
        last[e["tid"]] = e["ts"] + e["dur"]
elif what == "cpu0":
    names = {e["name"] for e in cpu if e["tid"] == 0}
    assert any(n.startswith(job) for n in names), names
    assert any(n.startswith("kworker/0") for n in names), names
    assert "hardirq" in names, names
elif what == "spans":
    assert len(ios) > 50, len(ios)
    inner = collections.defaultdict(list)
    for x in ev:
        if x["ph"] == "X" and x["pid"] == 2 and "args" not in x:
            inner[x["tid"]].append(x)
    for e in ios:
        a = e["args"]
        assert a["job"] == job and a["direction"] == "write", a
        assert a["size"] == 4096 and a["offset"] % 4096 == 0, a
        assert a["offset"] < 256 << 20 and a["device"] == "nvme0n1", a
        layers = [x for x in inner[e["tid"]]
                  if e["ts"] <= x["ts"] < e["ts"] + e["dur"]]
        assert {x["name"] for x in layers} >= {"device", "kernel_complete"}, layers
        assert abs(sum(x["dur"] for x in layers) - e["dur"]) < 0.002, (e, layers)
    last = {}
    for e in sorted(ios, key=lambda e: (e["tid"], e["ts"])):
        assert e["ts"] >= last.get(e["tid"], 0) - 1e-6, e
        last[e["tid"]] = e["ts"] + e["dur"]
elif what == "flows":
    flows = collections.defaultdict(list)
    for e in ev:
        if e["ph"] in "stf":
            flows[e["id"]].append(e)
    assert len(flows) > 50
    dev = {e["pid"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"
           and e["args"]["name"] == "nvme0n1"}
    def on(e):
        return [s["name"] for s in cpu if s["tid"] == e["tid"]
                and s["ts"] <= e["ts"] <= s["ts"] + s["dur"]]
    fio = 0
    for f in flows.values():
        assert [e["ph"] for e in f] == ["s", "t", "t", "t", "f"], f
        assert [e["pid"] for e in f] == [2, 1, f[2]["pid"], 1, 2], f
        assert f[2]["pid"] in dev, f
        assert all(a["ts"] <= b["ts"] for a, b in zip(f, f[1:])), f
        # submitted on fio's CPU (by fio, or where an interrupt cut in),
        # completed in the interrupt
        assert on(f[1]), f[1]
        fio += any(n.startswith(job) for n in on(f[1]))
        assert "hardirq" in on(f[3]), on(f[3])
    assert fio > 0.7 * len(flows), (fio, len(flows))
elif what == "queues":
    names = [e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"]
    assert any(n.startswith("queue ") for n in names), names
    assert len([e for e in ev if e["ph"] == "X" and e["pid"] >= 3]) > 50
    depth = [e["args"][e["name"]] for e in ev if e["ph"] == "C" and e["name"].endswith("depth")]
    inflight = [e["args"]["I/Os in flight"] for e in ev
                if e["ph"] == "C" and e["name"] == "I/Os in flight"]
    assert depth and 0 <= min(depth) and max(depth) <= 8, depth
    assert max(inflight) == 8 and min(inflight) >= 0, inflight
elif what == "uring":
    assert len(ios) > 50, len(ios)
    assert all(e["args"]["device"] == "nullb0" for e in ios), ios[0]
PY
}
check "slices lie in the window and never overlap on a CPU" judge cpus "$out/tl.json"
check "fio, the dio kworker and the interrupt share CPU 0" judge cpu0 "$out/tl.json"
check "each I/O: a span with its args and its layers nested, lanes apart" \
	judge spans "$out/tl.json"
check "a flow per I/O: submitting CPU, device queue, completing CPU, its end" \
	judge flows "$out/tl.json"
check "the device queue: its commands and depth; the I/Os in flight" \
	judge queues "$out/tl.json"
"$STORSIM" uring-bench --host begunkov-2021 --device nullb0=null_blk \
	--timeline "$out/tu.json" --timeline-window 1s:1.0001s -d 32 -p 0 -r 2 \
	/dev/nullb0 >/dev/null 2>&1
check "t/io_uring's I/Os have their spans too" judge uring "$out/tu.json"

"$STORSIM" run --timeline "$out/x.json" --timeline-window 2ms:1ms --name=w \
	--rw=read --size=1m --filename=/g >/dev/null 2>"$out/err"
rc=$?
grep -q "option '--timeline-window'" "$out/err"
check "a window that ends before it starts is refused" test $rc -ne 0 -a $? -eq 0
run() {
	"$STORSIM" run --no-cpu-profile --name=w --ioengine=io_uring --rw=randread \
		--direct=1 --size=64m --runtime=20ms --time_based --filename=/f \
		--iodepth=4 "$@" 2>&1
}
run >"$out/a"
run --timeline "$out/y.json" >"$out/b"
check "--timeline changes nothing in the results" cmp -s "$out/a" "$out/b"
finish
