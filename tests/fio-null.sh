#!/bin/sh
# Description: fio's null engine with iodepth_batch below iodepth (fio's
# default batch is 1): commit() comes again before getevents() and must
# issue only the io_us queued since the last one. Issued twice, an io_u
# was counted twice in the depth map (the IO depths added up to far more
# than 100 %) and its issue time, so its slat, moved to the last commit.
# And a short CPU-bound job's usr share is CPU time in whole ms over its
# runtime in whole ms, as fio's: with the CPU time unrounded, a 4 ms job
# showed usr=131%.
. "$top_srcdir/tests/tap.sh"

plan 2
out=$("$STORSIM" run --no-cpu-profile --name=n --ioengine=null --iodepth=16 \
	--size=1m --bs=4k --number_ios=64)
depths=$(printf '%s\n' "$out" | sed -n 's/.*IO depths *: //p')
sum=$(printf '%s\n' "$depths" | tr ',' '\n' | sed 's/.*=//; s/%//' |
	awk '{ s += $1 } END { printf "%.1f", s }')
check "the IO depths add up to 100 % (got $sum: $depths)" \
	awk -v s="$sum" 'BEGIN { exit !(s >= 99.5 && s <= 100.5) }'

usr=$("$STORSIM" run --no-cpu-profile --name=n --ioengine=null --iodepth=4 \
	--size=64m --bs=4k --rw=randrw | sed -n 's/.*cpu *: usr=\([0-9.]*\)%.*/\1/p')
check "a CPU-bound 4 ms job: usr at most 100 % (got $usr)" \
	awk -v u="$usr" 'BEGIN { exit !(u != "" && u > 50 && u <= 100) }'
finish
