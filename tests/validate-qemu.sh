#!/bin/sh
# storsim validate qemu: the NVMe command suite against QEMU's emulated
# NVMe and the device model, compared check by check. Skips when
# qemu-system-x86_64 is absent.
. "$top_srcdir/tests/tap.sh"

QEMU="${QEMU_SYSTEM:-$(command -v qemu-system-x86_64)}"
[ -n "$QEMU" ] && [ -x "$QEMU" ] || skip_all "qemu-system-x86_64 not found"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

plan 10

"$STORSIM" validate qemu --qemu="$QEMU" --timeout=20 >"$tmp/normal" 2>"$tmp/err"
rc=$?
check "the run exits 0 (no DIFFERENT check)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || { diag "$(cat "$tmp/err")"; grep DIFFERENT "$tmp/normal" | while read -r l; do diag "$l"; done; }
check "the table has its header" grep -q '^check *| QEMU *| storsim *| verdict$' "$tmp/normal"
check "no check is DIFFERENT" sh -c "! grep -q '| DIFFERENT' '$tmp/normal'"
check "the cache-off run agrees on FUA" \
	grep -q '^\[cache=writeback,write-cache=off\] FUA write on media at completion *| yes *| yes *| agree' "$tmp/normal"
check "QEMU ignoring FUA is a known difference" \
	grep -q '^\[cache=none\] FUA write on media at completion *| no *| yes *| known difference: QEMU ignores FUA' "$tmp/normal"

"$STORSIM" validate qemu --qemu="$QEMU" --timeout=20 --output-format=json >"$tmp/json" 2>>"$tmp/err"
n=$(grep -c '"check":' "$tmp/json")
keys_ok=yes
for k in qemu storsim verdict reason; do
	[ "$(grep -c "\"$k\":" "$tmp/json")" -eq "$n" ] || keys_ok=no
done
check "JSON output is an array of objects with the table's keys" \
	sh -c "head -c1 '$tmp/json' | grep -q '\[' && [ $n -gt 0 ] && [ $keys_ok = yes ]"
check "JSON and text list the same number of checks" \
	test "$(grep -c '"check"' "$tmp/json")" -eq "$(grep -c ' | ' "$tmp/normal" | awk '{print $1 - 1}')"

"$STORSIM" validate qemu --output-format=xml >/dev/null 2>"$tmp/bad"
rc=$?
check "a bad option exits 1" test "$rc" -eq 1
check "a bad option names the option" grep -q "option 'output-format'" "$tmp/bad"
check "--help prints the options" sh -c "'$STORSIM' validate qemu --help | grep -q -- '--keep-temp'"
finish
