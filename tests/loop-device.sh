#!/bin/sh
# Description: a loop device on a tmpfs file (--device=loop0=loop-tmpfs)
# is /dev/loop0 for a job: each read is served by the device's kworker
# (one loop_handle_cmd per read, the copy from the file, two context
# switches and two wake-ups per synchronous read); it carries an XFS
# (--mount=/mnt=xfs:loop0); --direct-io=on takes the same path on tmpfs;
# a device name no model takes is refused, naming loop among the models.
. "$top_srcdir/tests/tap.sh"

plan 5

# fields FIELD...: figures of a JSON run result, one line.
fields() {
	python3 -c '
import json, sys
j = json.load(sys.stdin)
job = j["jobs"][0]
st = {s["stage"]: s for s in j["storsim"]["cpu_profile"]}
ctx = sum(c["ctx_switches"] for c in j["storsim"]["cpus"])
print(" ".join(str(eval(e)) for e in sys.argv[1:]))' "$@"
}

job="--name=r --filename=/dev/loop0 --rw=randread --bs=4k --direct=1 --size=64m --runtime=20ms --time_based --ioengine=psync"
# shellcheck disable=SC2086
got=$("$STORSIM" run --host=qemu-tcg-2vcpu --device=loop0=loop-tmpfs \
	--output-format=json $job |
	fields 'job["read"]["total_ios"]' 'st["loop_handle_cmd"]["calls"]' \
		'st["copy_to_iter"]["calls"]' 'round(ctx / job["read"]["total_ios"], 2)' \
		'round(st["wakeup"]["calls"] / job["read"]["total_ios"], 2)')
set -- $got
check "psync reads of /dev/loop0: one command and one copy per read, 2 switches and 2 wake-ups each (ios, commands, copies, switches and wake-ups per read: $got)" \
	test "$1" -gt 100 -a "$2" = "$1" -a "$3" = "$1" -a "$4" = 2.0 -a "$5" = 2.0

# shellcheck disable=SC2086
dio=$("$STORSIM" run --host=qemu-tcg-2vcpu --device=loop0=loop-tmpfs \
	--set=loop0.direct_io=true --output-format=json $job |
	fields 'job["read"]["total_ios"]')
check "--direct-io=on serves tmpfs reads as buffered ones: the same count ($1, $dio)" \
	test "$dio" = "$1"

got=$("$STORSIM" run --host=qemu-tcg-2vcpu --device=loop0=loop-tmpfs \
	--mount=/mnt=xfs:loop0 --output-format=json --name=w \
	--filename=/mnt/f --rw=randwrite --bs=4k --direct=1 --size=16m \
	--ioengine=libaio --iodepth=4 |
	fields 'job["write"]["total_ios"]' 'st["loop_handle_cmd"]["calls"] >= 4096' \
		'st["copy_from_iter"]["calls"] >= 4096')
check "XFS on loop0: 16 MiB of direct 4 KiB writes reach the file through the loop worker ($got)" \
	test "$got" = "4096 True True"

out=$("$STORSIM" run --device=sda=loop-tmpfs --name=x --filename=/dev/sda \
	--size=1m 2>&1)
rc=$?
case "$out" in
*"option 'device': 'sda': device names start with nvme (NVMe), nullb (null_blk) or loop (loop)"*)
	check "a device name no model takes is refused (exit $rc)" test "$rc" = 1 ;;
*) diag "$out"; not_ok "a device name no model takes is refused" ;;
esac

out=$("$STORSIM" run --device=loop0=null_blk --name=x --filename=/dev/loop0 \
	--size=1m 2>&1)
rc=$?
case "$out" in
*"device loop0 needs a loop profile"*)
	check "a loop device with another model's profile is refused (exit $rc)" test "$rc" = 1 ;;
*) diag "$out"; not_ok "a loop device with another model's profile is refused" ;;
esac
finish
