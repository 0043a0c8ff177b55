#!/bin/sh
# Description: direct I/O to a raw block device pins user memory page by
# page (pin_user_pages_fast, blk_mq.pin_page_ns) as direct I/O to a file
# does, and registered buffers, already pinned, are not pinned again.
. "$top_srcdir/tests/tap.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
plan 4

# pinned FILE ENGINE-OPTIONS...: "calls ns ios" of stage pin_user_pages
pinned() {
	file=$1
	shift
	"$STORSIM" run --set=blk_mq.pin_page_ns=25 --name=x --rw=randread --bs=8k \
		--direct=1 --size=16m --runtime=2ms --time_based --filename="$file" \
		--output-format=json "$@" >"$out/run.json" || return
	python3 - "$out/run.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
p = {e["stage"]: e for e in d["storsim"]["cpu_profile"]}
pin = p.get("pin_user_pages", {"calls": 0, "ns": 0})
print(pin["calls"], pin["ns"], d["jobs"][0]["read"]["total_ios"])
PY
}

# shellcheck disable=SC2046
set -- $(pinned /dev/nvme0n1 --ioengine=psync)
check "raw device, user memory: pinned once per I/O ($1 for $3)" test "$1" -eq "$3"
check "raw device: 2 pages of 25 ns per 8 KiB I/O ($2 ns for $1)" test "$2" -eq $(($1 * 50))
# shellcheck disable=SC2046
set -- $(pinned /dev/nvme0n1 --ioengine=io_uring --fixedbufs)
check "raw device, registered buffers: nothing pinned ($1)" test "$1" -eq 0
# shellcheck disable=SC2046
set -- $(pinned /f --ioengine=psync)
check "a file's direct I/O pins the same ($2 ns for $1)" test "$2" -eq $(($1 * 50))
finish
