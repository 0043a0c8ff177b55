#!/bin/sh
# Description: the no-copy bvec table reproduces within its tolerance,
# with the right shape, from the CLI, and its JSON has every published
# cell; the copy of the bvec array the patch removes shows in the kernel's
# submission layer of the latency, and nowhere below the block layer.
. "$top_srcdir/tests/tap.sh"
plan 4
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
check "storsim reproduce nocopy-bvec passes" \
	"$STORSIM" reproduce --runtime 2 nocopy-bvec --output "$out/text"
grep -q "^result: PASS" "$out/text" || not_ok "report says PASS"
[ $_tap_n -eq 1 ] && ok "report says PASS"
"$STORSIM" reproduce --runtime 2 --output-format json nocopy-bvec >"$out/json"
check "JSON has published/simulated/error for all 12 cells" \
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
e = d["experiments"][0]
cells = [r[v] for r in e["rows"] for v in ("old", "new")]
assert len(cells) == 12
for c in cells:
    assert {"published", "simulated", "error", "judged", "ok"} <= set(c), c
    assert c["judged"] and c["ok"], c
    assert abs(c["error"]) <= 0.10
' "$out/json"
check "the bvec copy lengthens only the kernel's submission, per I/O" \
	python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))["experiments"][0]["mechanism"]["variants"]
old = m["old"]["latency_ns_per_io_by_layer"]
new = m["new"]["latency_ns_per_io_by_layer"]
assert old["kernel_submit"] > new["kernel_submit"] + 100, (old, new)
for layer in ("driver_submit", "block_complete", "kernel_complete"):
    assert abs(old[layer] - new[layer]) < 1, (layer, old, new)
' "$out/json"
finish
