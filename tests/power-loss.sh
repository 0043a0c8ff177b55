#!/bin/sh
# Description: storsim run --power-loss reports which acknowledged writes
# survived. With the volatile cache on and no flush, writes must be lost;
# with FUA (O_DSYNC) or the cache off, none may be; never a violation. In
# fio's text output, every line storsim adds says it is storsim's.
. "$top_srcdir/tests/tap.sh"
plan 9
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

job="--name=w --rw=randwrite --bs=4k --ioengine=io_uring --iodepth=8
--direct=1 --size=32m --runtime=5ms --time_based --filename=/dev/nvme0n1"

# field NAME FILE: a number from the durability report's JSON
field() {
	python3 -c 'import json,sys
d=json.load(open(sys.argv[2]))["storsim"]["power_loss"]
print(d["summary"][sys.argv[1]] if "summary" in d else d[sys.argv[1]])' "$1" "$2"
}

# shellcheck disable=SC2086
"$STORSIM" run --device nvme0n1=qemu-nvme --power-loss=at:2ms \
	--output-format=json $job >"$out/cache-on.json" 2>/dev/null
check "cache on, no flush: the run succeeds" test $? -eq 0
lost=$(field lost_writes "$out/cache-on.json")
check "cache on, no flush: acknowledged writes are lost ($lost)" test "$lost" -gt 0
check "cache on, no flush: no write promised durable is lost" \
	test "$(field violations "$out/cache-on.json")" -eq 0

# shellcheck disable=SC2086
"$STORSIM" run --device nvme0n1=qemu-nvme --power-loss=at:2ms --sync=dsync \
	--output-format=json $job >"$out/fua.json" 2>/dev/null
check "FUA writes (O_DSYNC): none lost" test "$(field lost_writes "$out/fua.json")" -eq 0

# shellcheck disable=SC2086
"$STORSIM" run --device nvme0n1=qemu-nvme --set nvme0n1.write_cache_enabled=false \
	--power-loss=after:200 --output-format=json $job >"$out/off.json" 2>/dev/null
check "cache off, after 200 commands: none lost" \
	test "$(field lost_writes "$out/off.json")" -eq 0

# shellcheck disable=SC2086
"$STORSIM" run --device nvme0n1=qemu-nvme --power-loss=at:2ms $job >"$out/normal.txt" 2>/dev/null
check "normal output: the durability report is there" \
	grep -q '^storsim: durability at power loss' "$out/normal.txt"
# Without its "storsim: " lines and blank lines, the output is fio's
# alone: the same run's without the profile and each job's latency by
# layer (the durability report stays, prefixed too).
# shellcheck disable=SC2086
"$STORSIM" run --no-cpu-profile --device nvme0n1=qemu-nvme --power-loss=at:2ms \
	$job >"$out/plain.txt" 2>/dev/null
for f in normal plain; do
	grep -v -e '^storsim: ' -e '^$' "$out/$f.txt" >"$out/$f.fio"
done
unprefixed=$(diff "$out/normal.fio" "$out/plain.fio" | grep -c '^[<>]')
check "normal output: every line storsim adds starts with 'storsim: ' ($unprefixed do not)" \
	test "$unprefixed" -eq 0

"$STORSIM" run --power-loss=sometime $job >/dev/null 2>"$out/err"
check "a bad --power-loss exits 1" test $? -eq 1
check "and names the option" grep -q "option 'power-loss'" "$out/err"
finish
