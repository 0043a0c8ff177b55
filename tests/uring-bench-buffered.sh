#!/bin/sh
# Description: t/io_uring with -O0 reads through the page cache: with -p0
# it runs and says buffered=1; with -p1 (an IOPOLL ring, which takes no
# buffered I/O, so every read would fail) it is refused naming -p.
. "$top_srcdir/tests/tap.sh"
plan 2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

"$STORSIM" uring-bench --file=/f=16m:written -O0 -p0 -d32 -r2 /f \
	>"$out/run" 2>&1
check "-O0 -p0 runs buffered" grep -q '^polled=0, .*buffered=1, QD=32$' "$out/run"

"$STORSIM" uring-bench --file=/f=16m:written -O0 -p1 -r2 /f >"$out/p1" 2>&1
rc=$?
check "-O0 -p1 is refused naming -p" sh -c \
	'[ "$1" = 1 ] && grep -q "option '"'"'-p'"'"': polled I/O needs O_DIRECT" "$2"' \
	sh "$rc" "$out/p1"
finish
