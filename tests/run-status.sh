#!/bin/sh
# Description: storsim run exits non-zero when a job ends with an error of
# its own, as fio does, and says which job and which error on stderr; the
# results are still written. A job cut short by --power-loss is not a
# failure (tests/power-loss.sh).
. "$top_srcdir/tests/tap.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
plan 6

common="--rw=randread --bs=4k --ioengine=psync --direct=1 --size=1m
--filename=/dev/nvme0n1 --output-format=json"

# shellcheck disable=SC2086
"$STORSIM" run --name=good $common >"$out/good.json" 2>"$out/good.err"
check "a job without errors exits 0" test $? -eq 0

# A direct read at offset 100 is not aligned to the 512-byte blocks: EINVAL.
# shellcheck disable=SC2086
"$STORSIM" run --name=bad --offset=100 $common >"$out/bad.json" 2>"$out/bad.err"
check "a job whose I/O fails exits 1" test $? -eq 1
check "stderr names the job and the error" \
	grep -q "^storsim run: job fio/bad.0 failed: error 22 (Invalid argument)" "$out/bad.err"
check "the results are written, with the job's error" \
	python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["jobs"][0]["error"] != 22)' \
	"$out/bad.json"

# Options before the first --name are global, as in fio.
# shellcheck disable=SC2086
"$STORSIM" run $common --name=fine --name=broken --offset=100 >/dev/null \
	2>"$out/two.err"
check "one failed job of two is enough to exit 1" test $? -eq 1
check "only the failed job is named" \
	sh -c "grep -q 'job fio/broken.0 failed' '$out/two.err' && ! grep -q 'fio/fine' '$out/two.err'"
finish
