#!/bin/sh
# Description: sequential buffered reads reach the device in readahead
# windows of read_ahead_kb (the window doubles up to it), random ones one
# page at a time.
. "$top_srcdir/tests/tap.sh"
plan 3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
reads() {
	"$STORSIM" run --output-format=json --file /s=64m:written "$@" \
		--name=r --filename=/s --bs=4k --size=64m --direct=0 \
		--ioengine=psync 2>/dev/null >"$out/j"
	python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["disk_util"][0]["read_ios"])' "$out/j"
}
r128=$(reads --rw=read)
r1m=$(reads --rw=read --set pagecache.read_ahead_kb=1024)
rnd=$(reads --rw=randread)
check "128 KiB windows: about 512 device reads for 64 MiB ($r128)" \
	test "$r128" -ge 512 -a "$r128" -le 530
check "a 1 MiB window reads in fewer, larger pieces ($r1m)" \
	test "$r1m" -lt "$r128"
check "random 4 KiB reads read one page each (16384 = $rnd)" test "$rnd" -eq 16384
finish
