#!/bin/sh
# Description: fio's invalidate= on a buffered file: with invalidate=1 a
# job reads from the device what an earlier job left in the page cache,
# with invalidate=0 it finds it cached.
. "$top_srcdir/tests/tap.sh"
plan 2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
reads() {
	INVALIDATE=$1 "$STORSIM" run --output-format=json \
		"$top_srcdir/tests/jobs/pagecache/reread.fio" 2>/dev/null >"$out/j$1"
	python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["disk_util"][0]["read_ios"])' "$out/j$1"
}
r1=$(reads 1)
r0=$(reads 0)
check "invalidate=1: the second job reads the device ($r1 reads)" test "$r1" -gt 0
check "invalidate=0: it finds the file cached ($r0 reads)" test "$r0" -eq 0
finish
