#!/bin/sh
# Description: storsim run shows a progress line on a terminal during a
# long run (simulated time, of how much for a time_based job, I/Os, wall
# time), erases it at the end, prints nothing of it when stderr is not a
# terminal, and its results are the same either way. fio's --eta=WHEN
# turns it on off a terminal (a line per update, every --eta-interval)
# or off on one; a bad WHEN or interval is refused, naming the option.
. "$top_srcdir/tests/tap.sh"

command -v script >/dev/null || skip_all "no script(1) to give storsim a terminal"
plan 9
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

script -qc "'$STORSIM' $* --eta=never >/dev/null" /dev/null >"$tmp/never" 2>&1
check "--eta=never: no progress line on a terminal" \
	test -z "$(tr -d ' \r\n' <"$tmp/never")"

# Long enough in simulated time to take a few 250 ms updates of wall time
# on a fast machine too (about 2 s here).
set -- run --no-cpu-profile --name=x --filename=/dev/nvme0n1 --rw=randread \
	--ioengine=io_uring --iodepth=16 --direct=1 --time_based --runtime=10s
"$STORSIM" "$@" --eta=always --eta-interval=250ms >"$tmp/always" 2>"$tmp/always.err"
check "--eta=always off a terminal: a progress line per update, each ended" \
	test "$(grep -c '^storsim run: [0-9.]* s simulated of 10.000 s ([0-9]*%), [0-9]* I/Os, [0-9.]* s wall$' "$tmp/always.err")" -ge 2
check "--eta=always: nothing but whole lines (no carriage return)" \
	test "$(tr -dc '\r' <"$tmp/always.err" | wc -c)" -eq 0
"$STORSIM" "$@" --eta=sometimes >/dev/null 2>"$tmp/bad"
check "--eta=sometimes is refused at its option" \
	grep -q "option 'eta': 'sometimes' is not auto, always or never" "$tmp/bad"
"$STORSIM" "$@" --eta-interval=100ms >/dev/null 2>"$tmp/bad"
check "--eta-interval below fio's 250 ms is refused" \
	grep -q "option 'eta-interval': '100ms' is shorter than 250ms" "$tmp/bad"
finish
