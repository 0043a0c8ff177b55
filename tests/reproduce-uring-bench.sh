#!/bin/sh
# Description: an experiment whose workload is t/io_uring (kind
# uring-bench) gets the whole system it describes, mounts and files
# included, and storsim reproduce refuses a runtime too short for
# t/io_uring to report anything (it prints IOPS once a second, not for the
# first second) instead of reporting 0 IOPS.
. "$top_srcdir/tests/tap.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
plan 5

cat >"$dir/experiment.json" <<'JSON'
{
  "id": "uring-file",
  "title": "t/io_uring on a file of a mounted file system",
  "source": "tests/reproduce-uring-bench.sh",
  "system": {
    "host": "default",
    "devices": ["nvme0n1=optane-p5800x"],
    "mounts": ["/data=xfs:nvme0n1"],
    "files": ["/data/f=64m:written"]
  },
  "workload": {
    "kind": "uring-bench",
    "args": ["-d", "8", "-s", "8", "-c", "8", "-p", "0", "-r", "${runtime}", "/data/f"],
    "runtime": 2
  },
  "variable": "row",
  "variants": {"only": {"describe": "as is"}},
  "metric": {"name": "IOPS", "result": "iops", "scale": 1},
  "tolerance": 1e12,
  "rows": [{"row": 1, "only": 1}]
}
JSON

"$STORSIM" reproduce "$dir/experiment.json" >"$dir/out" 2>"$dir/err"
rc=$?
check "t/io_uring reads a file of the experiment's mount (exit $rc)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || diag "$(cat "$dir/err")"
check "through the file system (iomap_begin in the mechanism)" \
	grep -q "^  iomap_begin " "$dir/out"

"$STORSIM" reproduce --runtime=1 "$dir/experiment.json" >"$dir/out" 2>"$dir/err"
check "--runtime=1 is refused (exit 1)" test $? -eq 1
check "the message says why, naming the runtime" \
	grep -q "option 'runtime': 1 s is too short for t/io_uring" "$dir/err"
check "no table is printed for it" test ! -s "$dir/out"
finish
