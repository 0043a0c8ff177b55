#!/bin/sh
# Description: the no-copy bvec table reproduces within its tolerance,
# with the right shape, from the CLI, and its JSON has every published cell.
. "$top_srcdir/tests/tap.sh"
plan 3
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
finish
