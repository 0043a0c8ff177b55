#!/bin/sh
# Description: unified_rw_reporting=mixed, as fio 3.33 prints it: reads
# and writes counted as one direction, "mixed" in the job's block and the
# JSON (and no "sync" there), "MIXED" in the group's line, the issued
# line's first slot, one block of terse fields; compared with real fio
# 3.33 on the same job when it is installed. "both" is refused with the
# file, line and option.
. "$top_srcdir/tests/tap.sh"

fio=$(fio333)
plan 10
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
set -- --name=w --filename="$dir/f" --size=1m --bs=4k --rw=randrw \
	--unified_rw_reporting=mixed --ioengine=libaio --iodepth=4 --direct=1

# shape OUTPUT: the lines that name a direction, numbers left out
shape() {
	printf '%s\n' "$1" | grep -E '^ *(read|write|trim|mixed|READ|WRITE|TRIM|MIXED): |issued rwts' |
		sed 's/: .*issued/: issued/; s/\(issued rwts: total=[0-9,]*\).*/\1/; s/^\( *[A-Za-z]*\): .*/\1:/'
}

out=$("$STORSIM" run --no-cpu-profile "$@")
want=$(printf '  mixed:\n     issued rwts: total=256,0,0,0\n  MIXED:')
check "normal output: a mixed block, the issued line's first slot, MIXED" \
	test "$(shape "$out")" = "$want"
[ "$(shape "$out")" = "$want" ] || diag "got: $(shape "$out" | tr '\n' '|')"

"$STORSIM" run --no-cpu-profile --output-format=json "$@" >"$dir/s.json"
check "JSON: a \"mixed\" object with 256 I/Os and 1 MiB, no read, write or sync" \
	python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
assert "mixed" in j and not {"read", "write", "trim", "sync"} & set(j), list(j)
assert j["mixed"]["total_ios"] == 256 and j["mixed"]["io_bytes"] == 1 << 20
' "$dir/s.json"

fields=$("$STORSIM" run --no-cpu-profile --minimal "$@" | tr ';' '\n' | wc -l)
check "terse v3: one block of direction fields, 89 fields in all" \
	test "$fields" = 89

check "unified_rw_reporting=both is refused at its line" \
	refused_job unified_rw_reporting "both: each direction" '[w]' "filename=$dir/f" \
	size=64k unified_rw_reporting=both

out=$("$STORSIM" run --no-cpu-profile --name=w --filename="$dir/g" --size=64k \
	--rw=randrw --unified_rw_reporting=none)
check "none prints read and write apart" \
	test "$(shape "$out" | grep -c '^ *\(read\|write\|READ\|WRITE\):')" = 4

if [ -z "$fio" ]; then
	for c in "normal output" "JSON" "terse" "none" "both"; do
		ok "fio, $c # SKIP fio 3.33 is not installed"
	done
	finish
fi
rm -f "$dir/f"
out=$("$fio" "$@" 2>&1)
check "fio 3.33: the same normal lines" test "$(shape "$out")" = "$want"
rm -f "$dir/f"
"$fio" --output-format=json "$@" >"$dir/f.json" 2>/dev/null
check "fio 3.33: the same JSON keys and counts" python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
assert "mixed" in j and not {"read", "write", "trim"} & set(j), list(j)
assert j["mixed"]["total_ios"] == 256 and j["mixed"]["io_bytes"] == 1 << 20
' "$dir/f.json"
rm -f "$dir/f"
check "fio 3.33: 89 terse fields" \
	test "$("$fio" --minimal "$@" 2>/dev/null | tr ';' '\n' | wc -l)" = 89
rm -f "$dir/g"
out=$("$fio" --name=w --filename="$dir/g" --size=64k --rw=randrw \
	--unified_rw_reporting=none 2>&1)
check "fio 3.33: none prints read and write apart" \
	test "$(shape "$out" | grep -c '^ *\(read\|write\|READ\|WRITE\):')" = 4
rm -f "$dir/f"
out=$("$fio" "$@" --unified_rw_reporting=both 2>&1)
check "fio 3.33 has both: read, write and mixed blocks (storsim refuses it)" \
	test "$(shape "$out" | grep -c '^ *\(read\|write\|mixed\):')" = 3
finish
