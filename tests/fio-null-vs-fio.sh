#!/bin/sh
# Description: fio's null engine runs at the depth fio runs it: its queue()
# answers FIO_Q_BUSY while completed I/Os wait to be reaped, so fio reaps
# before it queues again, whatever iodepth says. storsim's IO depths,
# submit and complete distributions must equal the installed fio 3.33's
# for the same jobs. Skipped without fio 3.33.
. "$top_srcdir/tests/tap.sh"

fio=$(fio333)
[ -n "$fio" ] || skip_all "fio 3.33 is not installed"

# fio options of each case, separated by spaces
cases="--iodepth=1
--iodepth=16
--iodepth=16 --iodepth_batch=4
--iodepth=32 --iodepth_batch=8 --iodepth_batch_complete_min=2
--iodepth=8 --rw=randwrite"
ncases=$(printf '%s\n' "$cases" | wc -l)
plan "$ncases"

# The three distribution lines of fio's normal output.
dists() {
	sed -n 's/^ *\(IO depths\|submit\|complete\) *: /\1: /p'
}

printf '%s\n' "$cases" | while read -r opts; do
	set -- --name=n --ioengine=null --size=8m --bs=4k --rw=randread $opts
	want=$("$fio" "$@" | dists)
	got=$("$STORSIM" run --no-cpu-profile "$@" | dists)
	check "null engine, $opts: fio's distributions (fio: $(echo $want); storsim: $(echo $got))" \
		test "$want" = "$got"
done
finish
