#!/bin/sh
# Description: storsim calibrate and storsim validate real, short of
# running fio (make check-real does that, as root): --dry-run lists the
# calibration suite and the validation grid, which share no run; the grid
# has at least 60 points; bad options and missing profiles are refused
# with the option named and exit status 1.
. "$top_srcdir/tests/tap.sh"

plan 7
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$STORSIM" calibrate --dry-run >"$tmp/suite" 2>&1
rc=$?
n=$(grep -c '^ *[0-9][0-9]*  ' "$tmp/suite")
check "calibrate --dry-run lists the suite ($n runs, exit $rc)" \
	test "$rc" = 0 -a "$n" -ge 20
"$STORSIM" validate real --dry-run >"$tmp/grid" 2>&1
rc=$?
n=$(grep -c '^ *[0-9][0-9]*  ' "$tmp/grid")
check "validate real --dry-run lists the grid ($n points, exit $rc)" \
	test "$rc" = 0 -a "$n" -ge 60
awk '/^ *[0-9]+  /{print $2}' "$tmp/suite" | sort >"$tmp/s"
awk '/^ *[0-9]+  /{print $2}' "$tmp/grid" | sort >"$tmp/g"
common=$(comm -12 "$tmp/s" "$tmp/g" | wc -l)
check "no run is in both ($common in common)" test "$common" = 0

# refused OPTION ARGS...: the command exits 1 naming the option
refused() {
	opt=$1
	shift
	out=$("$STORSIM" "$@" 2>&1)
	rc=$?
	case "$out" in
	*"option '$opt'"*) [ "$rc" = 1 ] ;;
	*) diag "exit $rc: $out"; false ;;
	esac
}
check "calibrate --repeat=0 is refused" refused repeat calibrate --repeat=0
check "calibrate --runtime=5ms is refused" refused runtime calibrate --runtime=5ms --dry-run
check "validate real --sim-runtime=x is refused" refused sim-runtime validate real --sim-runtime=x
check "validate real without calibrated profiles says which is missing" \
	refused profiles validate real --profiles="$tmp/none"
finish
