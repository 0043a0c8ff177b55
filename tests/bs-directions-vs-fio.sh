#!/bin/sh
# Description: per-direction block sizes are split as the installed fio
# splits them: a ',' ends a field, and where no ',' is left a ':' or a '-'
# does, so bs=4k-64k is 4 KiB reads and 64 KiB writes and trims, not a
# range (that is bsrange). The job line's "bs=(R) ..., (W) ..., (T) ..."
# must be the same in both, and with bs_is_seq_rand, which takes the
# read and write sizes for sequential and random I/Os, "(T) ..." gives
# way to "bs_is_seq_rand". Skipped without fio 3.33.
. "$top_srcdir/tests/tap.sh"

fio=$(fio333)
[ -n "$fio" ] || skip_all "fio 3.33 is not installed"

cases='4k
4k,8k
4k,8k,16k
4k-64k
4k:8k
4k,8k-16k
1k-2k-4k
8k:
,8k'
plan $(($(printf '%s\n' "$cases" | wc -l) + 1))

bs_field() {
	sed -n '1s/.*\(bs=(R)[^,]*, (W)[^,]*, (T)[^,]*\),.*/\1/p'
}

# first: the loop below runs in a subshell, which keeps its count
set -- --name=x --ioengine=null --size=1m --rw=randrw --number_ios=1 \
	--bs=4k,16k --bs_is_seq_rand=1
want=$("$fio" "$@" 2>&1 | sed -n 1p)
got=$("$STORSIM" run --no-cpu-profile "$@" 2>&1 | sed -n 1p)
check "bs_is_seq_rand: fio's job line (fio: $want; storsim: $got)" \
	test -n "$want" -a "$want" = "$got"

printf '%s\n' "$cases" | while read -r bs; do
	set -- --name=x --ioengine=null --size=1m --rw=randrw --number_ios=1 "--bs=$bs"
	want=$("$fio" "$@" 2>&1 | bs_field)
	got=$("$STORSIM" run --no-cpu-profile "$@" 2>&1 | bs_field)
	check "bs=$bs: fio's split (fio: $want; storsim: $got)" \
		test -n "$want" -a "$want" = "$got"
done
finish
