#!/bin/sh
# Description: the iomap per-block dirty table reproduces within its
# tolerance, and the mechanism shows why: per-folio dirty state writes 16
# device bytes per byte written (64 KiB folios of 4 KiB blocks), per-block
# dirty state one.
. "$top_srcdir/tests/tap.sh"
plan 3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
check "storsim reproduce iomap-per-block-dirty passes" \
	"$STORSIM" reproduce --runtime 2 --output-format json \
	--output "$out/json" iomap-per-block-dirty
check "both cells are judged and within 10%" \
	python3 -c '
import json, sys
e = json.load(open(sys.argv[1]))["experiments"][0]
cells = [e["rows"][0][v] for v in ("stock", "patched")]
for c in cells:
    assert c["judged"] and c["ok"] and abs(c["error"]) <= 0.10, c
' "$out/json"
check "write amplification is 16 per folio, 1 per block" \
	python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))["experiments"][0]["mechanism"]["variants"]
assert abs(m["stock"]["device_bytes_per_app_byte"] - 16) < 0.1, m["stock"]
assert abs(m["patched"]["device_bytes_per_app_byte"] - 1) < 0.05, m["patched"]
' "$out/json"
finish
