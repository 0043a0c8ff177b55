#!/bin/sh
# Description: a bad system option (--set, --kernel) stops the run with
# exit status 1 and a message that names the option and quotes the
# argument as it was given; storsim uring-bench, which only reads, refuses
# --power-loss rather than ignore it.
. "$top_srcdir/tests/tap.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

job="--name=w --rw=read --size=1m --filename=/dev/nvme0n1"

# refused ARGUMENT EXPECTED-MESSAGE
refused() {
	# shellcheck disable=SC2086
	"$STORSIM" run $1 $job >/dev/null 2>"$out/err"
	rc=$?
	check "$1: exits 1" test "$rc" -eq 1
	check "$1: says '$2'" grep -qF "storsim run: command line: $2" "$out/err"
	[ "$rc" -eq 1 ] || diag "$(cat "$out/err")"
}

plan 14
refused "--set=cpu.ncpus=abc" "option 'set': 'cpu.ncpus=abc': 'abc' is not a number"
refused "--set=cpu.ncpus=0" "option 'set': 'cpu.ncpus=0': 0 is outside [1, 256]"
refused "--set=nvme0n1.warp=1" "option 'set': 'nvme0n1.warp=1': no parameter 'warp'"
refused "--set=cpu.ncpus" "option 'set': 'cpu.ncpus': no '=VALUE'"
refused "--kernel=dio_caller_comp=maybe" \
	"option 'kernel': 'dio_caller_comp=maybe': 'maybe' is not true or false"
refused "--kernel=no_such_switch=1" \
	"option 'kernel': 'no_such_switch=1': no parameter 'no_such_switch'"

"$STORSIM" uring-bench --power-loss=at:1ms -r 2 /dev/nvme0n1 \
	>"$out/out" 2>"$out/err"
check "uring-bench --power-loss: exits 1, running nothing" \
	sh -c "test $? -eq 1 && ! test -s '$out/out'"
check "uring-bench --power-loss: says why, naming the option" \
	grep -q "storsim uring-bench: command line: option 'power-loss': t/io_uring only reads" \
	"$out/err"
finish
