#!/bin/sh
# Description: the IOCB_DIO_CALLER_COMP table reproduces within its
# tolerance with its shapes (stock flat from QD8, patched rising), and the
# mechanism shows: the stock path switches to the kworker, the patched
# path does not.
. "$top_srcdir/tests/tap.sh"
plan 3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
check "storsim reproduce dio-caller-comp passes" \
	"$STORSIM" reproduce --runtime 1 --output-format json \
	--output "$out/json" dio-caller-comp
check "every published cell has published/simulated/error within 10%" \
	python3 -c '
import json, sys
e = json.load(open(sys.argv[1]))["experiments"][0]
cells = [r[v] for r in e["rows"] for v in ("stock", "patched")]
assert len(cells) == 10
for c in cells:
    assert {"published", "simulated", "error", "judged", "ok"} <= set(c), c
    assert c["judged"] and c["ok"], c
    assert abs(c["error"]) <= 0.10, c
assert all(s["holds"] for s in e["shapes"])
' "$out/json"
check "stock switches to the kworker (>1 switch per I/O), patched not" \
	python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))["experiments"][0]["mechanism"]["variants"]
assert m["stock"]["ctx_switches_per_io"] > 1.0, m["stock"]
assert m["patched"]["ctx_switches_per_io"] < 0.1, m["patched"]
assert "queue_work" in m["stock"]["cpu_ns_per_io_by_stage"]
' "$out/json"
finish
