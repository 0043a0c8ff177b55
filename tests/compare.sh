#!/bin/sh
# Description: storsim compare runs a job file under named completion
# strategies (traces/strategies.json) at each queue depth: --list shows
# them; the polled strategy takes no interrupts and the workqueue punt
# costs context switches; a combination storsim does not model is a row
# saying why; a user's strategies file adds to the stock ones; a job file
# that sets what compare varies, or an unknown strategy, is refused.
. "$top_srcdir/tests/tap.sh"
plan 6
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cat >"$out/w.fio" <<'JOB'
[w]
filename=/f
size=256m
rw=randwrite
bs=4k
direct=1
time_based=1
runtime=20ms
cpus_allowed=0
JOB
compare() {
	"$STORSIM" compare --host axboe-5950x-2023 --file /f=256m:written "$@"
}
compare --list >"$out/list"
check "--list names the stock strategies with what they set" \
	sh -c "for s in irq-wq irq-caller polled sqpoll sqpoll-polled; do grep -q \"^\$s \" '$out/list' || exit 1; done;
	       grep -q 'hipri=1' '$out/list' && grep -q 'dio_caller_comp=false' '$out/list'"
compare --strategies irq-wq,irq-caller,polled,sqpoll-polled --depths 1,8 \
	--output-format=json "$out/w.fio" >"$out/c.json" 2>/dev/null
check "one row per strategy and depth; the mechanisms differ as they should" \
	python3 -c '
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
got = [(r["values"]["strategy"], r["values"]["iodepth"]) for r in runs]
assert got == [(s, d) for s in ("irq-wq", "irq-caller", "polled", "sqpoll-polled")
               for d in ("1", "8")], got
wq, caller, polled = runs[0], runs[2], runs[4]
assert wq["ctx_switches_per_io"] > caller["ctx_switches_per_io"] + 0.5, (wq, caller)
assert polled["cpu_ns_per_io"]["irq"] == 0 and wq["cpu_ns_per_io"]["irq"] > 0
assert polled["ctx_switches_per_io"] == 0
' "$out/c.json"
check "SQPOLL with IOPOLL is not modelled, and says why" \
	python3 -c '
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
for r in runs[6:]:
    assert r["status"] == "refused" and "SQPOLL" in r["reason"], r
' "$out/c.json"
cat >"$out/mine.json" <<'JSON'
{"strategies": [{"name": "libaio", "describe": "Linux AIO", "fio": ["ioengine=libaio"]}]}
JSON
compare --strategy-file "$out/mine.json" --strategies libaio,irq-caller --depths 4 \
	"$out/w.fio" >"$out/mine" 2>/dev/null
check "a user's strategies file adds to the stock ones" \
	sh -c "grep -q '^ *libaio  *4 | *[0-9]' '$out/mine' && grep -q '^irq-caller  *4 | *[0-9]' '$out/mine'"
printf 'iodepth=4\n' >>"$out/w.fio"
compare --depths 1 "$out/w.fio" >/dev/null 2>"$out/err"
check "a job file that sets the depth is refused at its line" \
	grep -q "w.fio:10: option 'iodepth': compare sets it for every point" "$out/err"
compare --strategies nope "$out/w.fio" >/dev/null 2>"$out/err"
check "an unknown strategy is refused, naming the known ones" \
	grep -q "no strategy 'nope' (there are: irq-wq, irq-caller" "$out/err"
finish
