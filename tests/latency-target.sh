#!/bin/sh
# Description: fio's latency_target (io_u.c lat_target_*): the job starts
# at depth 1 and every latency_window doubles it while its I/Os meet the
# target, bisects back when one misses, then runs one more window at the
# depth found and reports only that run, with the "latency : ... depth="
# line. With fio 3.33's null engine (never near a 100 ms target, even on
# a loaded machine) the depth reaches
# iodepth and the reported run is one window; with latency_run=1 the
# search goes on for the whole runtime. On the Optane model a 15 us
# target settles between 1 and iodepth; a 2 us one fails at depth 1 with
# ETIMEDOUT, as fio does.
. "$top_srcdir/tests/tap.sh"

plan 10
fio=$(fio333)

# lat TOOL OPTIONS...: "depth=N run=MS" of a null-engine run
lat() {
	tool=$1
	shift
	set -- --name=l --ioengine=null --rw=randread --bs=4k --size=100g \
		--latency_target=100ms --time_based --runtime=2 "$@"
	if [ "$tool" = fio ]; then
		"$fio" "$@" 2>/dev/null
	else
		"$STORSIM" run --no-cpu-profile "$@" 2>/dev/null
	fi | sed -n -e 's/.*latency *: target=100000000, .*depth=\([0-9]*\)$/depth=\1/p' \
		-e 's/.*READ: .*run=\([0-9]*\)-.*/run=\1/p' | tr '\n' ' '
}

# shows OUT TEXT: OUT has TEXT
shows() {
	case "$1" in *"$2"*) ;; *) false ;; esac
}

# within OUT LO HI: the run's milliseconds in OUT are within [LO, HI]
within() {
	run=$(printf '%s' "$1" | sed -n 's/.*run=\([0-9]*\).*/\1/p')
	test -n "$run" && test "$run" -ge "$2" -a "$run" -le "$3"
}

got=$(lat storsim --iodepth=16 --latency_window=100ms)
check "storsim, null engine QD16: depth=16, one 100 ms window reported ($got)" \
	shows "$got" 'depth=16 '
check "storsim: the reported run is one window" within "$got" 99 102
got=$(lat storsim --iodepth=8 --latency_window=50ms --latency_run=1)
check "storsim, latency_run=1: depth=8 ($got)" \
	shows "$got" 'depth=8 '
check "storsim, latency_run=1: over the whole 2 s" within "$got" 1999 2010
if [ -n "$fio" ]; then
	got=$(lat fio --iodepth=16 --latency_window=100ms)
	check "fio 3.33: the same depth and window ($got)" \
		shows "$got" 'depth=16 '
	check "fio 3.33: its reported run is one window" within "$got" 99 150
	got=$(lat fio --iodepth=8 --latency_window=50ms --latency_run=1)
	check "fio 3.33, latency_run=1: depth=8 over the whole 2 s ($got)" \
		shows "$got" 'depth=8 run=20'
else
	for i in 1 2 3; do ok "fio 3.33 # SKIP fio 3.33 is not installed"; done
fi

set -- --device=nvme0n1=optane-p5800x --name=l --filename=/dev/nvme0n1 \
	--ioengine=io_uring --direct=1 --rw=randread --bs=4k --iodepth=64 \
	--latency_window=50ms --time_based --runtime=1
d=$("$STORSIM" run --no-cpu-profile "$@" --latency_target=15us 2>/dev/null |
	sed -n 's/.*latency *: target=15000, .*depth=\([0-9]*\)$/\1/p')
check "Optane, 15 us target: a depth between 1 and 64 ($d)" \
	test "${d:-0}" -gt 1 -a "${d:-0}" -lt 64
out=$("$STORSIM" run --no-cpu-profile "$@" --latency_target=2us 2>&1)
check "Optane, 2 us target: ETIMEDOUT at depth 1, naming the I/O" \
	test -n "$(printf '%s' "$out" | grep 'err=110')" -a \
	-n "$(printf '%s' "$out" | grep 'exceeds specified max (2000 nsec): /dev/nvme0n1 read')"
check "latency_target with rate_iops is refused at its line" \
	refused_job latency_target "rate_iops" '[l]' ioengine=null size=1m \
	latency_target=1ms rate_iops=100
finish
