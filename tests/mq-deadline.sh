#!/bin/sh
# Description: with queue/scheduler mq-deadline, requests wait in the
# scheduler while the driver's tags are all taken, and bios merge into
# them there (blk_mq_sched_bio_merge, dd_bio_merge, with the
# request-to-request merges that follow); with none, or when the queue
# keeps up, only the plug merges and mq-deadline changes no count.
# 16 MiB of 4 KiB direct I/O to the raw device: libaio at iodepth 32
# submitted one at a time and in batches of 8 and 32, psync, random;
# then iodepth 256 against a queue of 128 tags, where mq-deadline holds
# up to 128 more (nr_requests 256). The device's requests and merges in
# the I/O's direction must fall in the case's ranges, for storsim and
# for Linux under the installed fio 3.33 on a loop device (128 tags, one
# hardware queue) when that can be set up (root, losetup, mq-deadline
# offered). storsim's device stands in for the loop device: 128 tags,
# one request served at a time in about 2 us, no write cache. Where
# requests wait (iodepth 256 with mq-deadline), Linux's counts vary from
# run to run with the speed of the loop device's worker and the
# machine's load (reads merged 630 to 1692 bios in four quiet runs, 356
# while make distcheck's sanitizer build ran beside it): there storsim's
# figures must fall in the spread Linux showed, and Linux must only merge
# some bios, each merge a request less. Random writes merge more often in
# storsim (499) than on Linux (22 to 224, fewer under load), so their
# range asks storsim only for some merges, and Linux for no more than
# storsim's range allows. The offsets are not the cause (storsim merges
# 480 to 501 replaying Linux's, Linux 51 and 124 replaying storsim's),
# nor the merging (0.0009 to 0.0020 merges per bio and waiting request
# on Linux, 0.0015 in storsim): storsim's device (2.4 us a request) is
# slower than its fio (1.9 us an I/O), so about 80 requests wait when a
# bio comes, where on Linux the loop worker keeps about level with fio
# (10 to 13 us each) and 6 to 22 wait, none for 63 to 85% of the bios
# (docs/models/mq-deadline.md).
. "$top_srcdir/tests/tap.sh"

# fio options | scheduler | requests | merges
cases='rw=read ioengine=libaio iodepth=32 iodepth_batch_submit=1|none|4096-4096|0-0
rw=read ioengine=libaio iodepth=32 iodepth_batch_submit=1|mq-deadline|4096-4096|0-0
rw=write ioengine=libaio iodepth=32 iodepth_batch_submit=1|none|4096-4096|0-0
rw=write ioengine=libaio iodepth=32 iodepth_batch_submit=1|mq-deadline|4096-4096|0-0
rw=write ioengine=libaio iodepth=32 iodepth_batch_submit=8|none|4068-4068|28-28
rw=write ioengine=libaio iodepth=32 iodepth_batch_submit=8|mq-deadline|4068-4068|28-28
rw=read ioengine=libaio iodepth=32 iodepth_batch_submit=32|none|4065-4065|31-31
rw=read ioengine=libaio iodepth=32 iodepth_batch_submit=32|mq-deadline|4065-4065|31-31
rw=write ioengine=libaio iodepth=32 iodepth_batch_submit=32|none|4065-4065|31-31
rw=write ioengine=libaio iodepth=32 iodepth_batch_submit=32|mq-deadline|4065-4065|31-31
rw=read ioengine=psync|none|4096-4096|0-0
rw=read ioengine=psync|mq-deadline|4096-4096|0-0
rw=write ioengine=psync|mq-deadline|4096-4096|0-0
rw=randread ioengine=psync|mq-deadline|4096-4096|0-0
rw=randwrite ioengine=libaio iodepth=32 iodepth_batch_submit=1|mq-deadline|4096-4096|0-0
rw=write ioengine=libaio iodepth=256 iodepth_batch_submit=1|none|4096-4096|0-0
rw=read ioengine=libaio iodepth=256 iodepth_batch_submit=1|mq-deadline|2100-3700|396-1996
rw=write ioengine=libaio iodepth=256 iodepth_batch_submit=1|mq-deadline|2100-3300|796-1996
rw=write ioengine=libaio iodepth=256 iodepth_batch_submit=32|none|3848-3848|248-248
rw=write ioengine=libaio iodepth=256 iodepth_batch_submit=32|mq-deadline|2100-3300|796-1996
rw=randwrite ioengine=libaio iodepth=256 iodepth_batch_submit=1|mq-deadline|3500-4095|1-596'
ncases=$(printf '%s\n' "$cases" | wc -l)
plan $((4 * ncases + 1))
tmp_with_loop

sim() {
	sched=$1
	shift
	"$STORSIM" run --output-format=json --device=nvme0n1=nand-nvme \
		--set nvme_drv.io_queue_depth=129 --set nvme0n1.media_units=1 \
		--set nvme0n1.read_latency=2000 --set nvme0n1.write_latency=2000 \
		--set nvme0n1.read_ns_per_kib=100 --set nvme0n1.write_ns_per_kib=100 \
		--set nvme0n1.write_cache_enabled=false \
		--set blk_mq.scheduler="$sched" \
		--name=m --filename=/dev/nvme0n1 --bs=4k --size=16m --direct=1 \
		"$@" 2>/dev/null >"$tmp/j" && disk_counts "$tmp/j"
}

kernel() {
	sched=$1
	shift
	loop_set scheduler "$sched" &&
		loop_stat "$fio" --name=m --filename="$loop" --bs=4k --size=16m \
			--direct=1 "$@"
}

fio=$(fio333)
[ -n "$fio" ] && loop_attach 64m &&
	! grep -qw mq-deadline "/sys/block/${loop#/dev/}/queue/scheduler" && {
	losetup -d "$loop"
	loop=
}
while IFS='|' read -r opts sched reqs merges <&3; do
	what="$opts, scheduler=$sched"
	# shellcheck disable=SC2046,SC2086
	got=$(sim "$sched" $(printf -- '--%s ' $opts) | direction "$opts")
	check "storsim, $what: $reqs requests (${got% *})" in_range "${got% *}" "$reqs"
	check "storsim, $what: $merges merges (${got#* })" in_range "${got#* }" "$merges"
	if [ -z "$loop" ]; then
		ok "Linux, $what # SKIP no fio 3.33, root, loop device or mq-deadline"
		ok "Linux, $what # SKIP no fio 3.33, root, loop device or mq-deadline"
		continue
	fi
	# shellcheck disable=SC2046,SC2086
	k=$(kernel "$sched" $(printf -- '--%s ' $opts) | direction "$opts")
	if [ "${reqs%-*}" = "${reqs#*-}" ]; then
		check "Linux under fio 3.33, $what: $reqs requests (${k% *})" in_range "${k% *}" "$reqs"
		check "Linux under fio 3.33, $what: $merges merges (${k#* })" in_range "${k#* }" "$merges"
		continue
	fi
	# Requests wait: how many bios merge follows the loop worker's speed
	# and the machine's load, so only that some do (random writes: no
	# more than storsim's range), each one request less.
	case "$opts" in
	rw=rand*) least=0 most=${merges#*-} ;;
	*) least=1 most=4096 ;;
	esac
	check "Linux under fio 3.33, $what: requests wait, $least-$most bios merge (${k#* })" \
		test -n "$k" -a "${k#* }" -ge "$least" -a "${k#* }" -le "$most"
	check "Linux under fio 3.33, $what: requests + merges = 4096 bios ($k)" \
		test -n "$k" -a "$(( ${k% *} + ${k#* } ))" -eq 4096
done 3<<EOF
$cases
EOF
[ -n "$loop" ] && loop_set scheduler none

# A scheduler storsim does not have is refused, naming the option and
# the ones it has.
unknown() {
	out=$("$STORSIM" run --set blk_mq.scheduler=bfq --name=m \
		--filename=/dev/nvme0n1 --device=nvme0n1=nand-nvme --size=1m 2>&1)
	rc=$?
	case "$out" in
	*"option 'set': 'blk_mq.scheduler=bfq': 'bfq' is not one of: none, mq-deadline"*)
		[ "$rc" = 1 ] ;;
	*) diag "exit $rc: $out"; false ;;
	esac
}
check "an unknown scheduler exits 1, naming the option and the choices" unknown
finish
