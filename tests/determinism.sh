#!/bin/sh
# Description: the same inputs and seed give byte-identical output; another
# seed gives other draws.
. "$top_srcdir/tests/tap.sh"
plan 3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
job="--name=d --rw=randrw --bs=4k --ioengine=io_uring --iodepth=8 --direct=1
--size=64m --runtime=20ms --time_based --filename=/data/f
--set nvme0n1.media_jitter=0.3"
for seed in 1 1 2; do
	n=$((${n:-0} + 1))
	# shellcheck disable=SC2086
	"$STORSIM" run --seed "$seed" --output-format=json+,normal $job >"$out/$n" 2>&1
done
check "two runs with seed 1 are byte-identical" cmp -s "$out/1" "$out/2"
check "seed 2 differs" sh -c "! cmp -s '$out/1' '$out/3'"
"$STORSIM" reproduce --runtime 1 nocopy-bvec >"$out/r1"
"$STORSIM" reproduce --runtime 1 nocopy-bvec >"$out/r2"
check "a reproduction report is byte-identical twice" cmp -s "$out/r1" "$out/r2"
finish
