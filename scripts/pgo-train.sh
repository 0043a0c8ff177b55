#!/bin/sh
# The training runs of the profile-guided build (make pgo-profile, which
# scripts/bootstrap.sh runs): an instrumented storsim counts its branches
# and calls on these workloads, and the build then compiles everything
# again with those counts (docs/benchmarks.md, "The build").
#
#   scripts/pgo-train.sh STORSIM
#
# The workloads are what users run most: every published reproduction,
# short, and fio jobs on the engines the reproductions leave out (libaio,
# psync with buffered I/O, fio's null engine). Code they do not reach is
# compiled as without profiles (-fprofile-partial-training).
set -eu

storsim=${1:?usage: scripts/pgo-train.sh STORSIM}

# reproduce exits 1 when a table misses its tolerance: that is a result,
# not a failed training run. Its notes (async-buffered-reads runs a fixed
# amount of I/O, whatever --runtime says) are shown only if it fails.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
"$storsim" reproduce all --runtime=2 --eta=never >/dev/null 2>"$log" || status=$?
if [ "$status" -gt 1 ]; then
	cat "$log" >&2
	echo "pgo-train: storsim reproduce all failed (exit $status)" >&2
	exit 1
fi

run() {
	"$storsim" run --eta=never --output-format=json --runtime=1 --time_based \
		--size=1g "$@" >/dev/null
}
run --name=libaio --ioengine=libaio --iodepth=32 --direct=1 --rw=randrw \
	--bs=4k --filename=/data/f
run --name=psync --ioengine=psync --rw=randread --bs=4k --filename=/data/f
run --name=null --ioengine=null --iodepth=16 --rw=randread --bs=4k
