#!/bin/sh
# Description: storsim run shows a progress line on a terminal during a
# long run (simulated time, of how much for a time_based job, I/Os, wall
# time), erases it at the end, prints nothing of it when stderr is not a
# terminal, and its results are the same either way.
. "$top_srcdir/tests/tap.sh"

command -v script >/dev/null || skip_all "no script(1) to give storsim a terminal"
plan 4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

set -- run --no-cpu-profile --name=x --filename=/dev/nvme0n1 --rw=randread \
	--ioengine=io_uring --iodepth=16 --direct=1 --time_based --runtime=8s
"$STORSIM" "$@" >"$tmp/plain" 2>"$tmp/plain.err"
script -qc "'$STORSIM' $* >'$tmp/tty.out'" /dev/null >"$tmp/tty" 2>&1

check "on a terminal: a progress line of the 8 s run" \
	grep -q 'storsim run: [0-9.]* s simulated of 8.000 s ([0-9]*%), [0-9]* I/Os, [0-9.]* s wall' "$tmp/tty"
last=$(tr '\r' '\n' <"$tmp/tty" | tail -1)
check "the line is erased at the end (last: '$(printf '%s' "$last" | tr -d ' ')')" \
	test -z "$(printf '%s' "$last" | tr -d ' \n')"
check "not on a terminal: no progress line" test ! -s "$tmp/plain.err"
check "the results are the same with the progress line" cmp -s "$tmp/plain" "$tmp/tty.out"
finish
