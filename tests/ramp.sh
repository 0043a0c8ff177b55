#!/bin/sh
# Description: with ramp_time, a job's own CPU figures (usr, sys, ctx)
# start at the end of the ramp, as fio resets them there (time.c,
# ramp_time_over -> reset_all_stats -> clear_rusage_stat), while the
# simulated system's CPU profile covers the whole run, ramp included, like
# fio's disk statistics. A psync reader sleeps once per I/O, so its
# context switches count its I/Os.
. "$top_srcdir/tests/tap.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
plan 2

"$STORSIM" run --name=x --rw=randread --bs=4k --ioengine=psync --direct=1 \
	--size=64m --ramp_time=5ms --runtime=5ms --time_based \
	--filename=/dev/nvme0n1 --output-format=json |
	python3 -c 'import json,sys
d = json.load(sys.stdin)
j = d["jobs"][0]
p = {e["stage"]: e["calls"] for e in d["storsim"]["cpu_profile"]}
print(j["ctx"], j["read"]["total_ios"], p["ctx_switch"])' >"$out/figures"
read -r ctx ios host <"$out/figures"
check "the job's ctx counts the measured I/Os only ($ctx for $ios)" \
	sh -c "test $((ctx - ios)) -le 1 && test $((ios - ctx)) -le 1"
check "the system's profile covers the ramp too ($host switches)" \
	test "$host" -gt $((ctx * 3 / 2))
finish
