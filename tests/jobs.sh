#!/bin/sh
# Description: every job file of tests/jobs/valid parses, and every one of
# tests/jobs/invalid fails with the message its first line names
# ("# error: TEXT"), at the line marked "<-- error" (or, for an error in
# another file or with no line, at the place a "# where: TEXT" line gives).
. "$top_srcdir/tests/tap.sh"

drv="$top_builddir/tests/jobs/jobparse"
need_program "$drv"
dir="$top_srcdir/tests/jobs"
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT

n=0
for f in "$dir"/valid/*.fio "$dir"/invalid/*.fio; do n=$((n + 1)); done
plan $n

for f in "$dir"/valid/*.fio; do
	if "$drv" "$f" >/dev/null 2>"$out"; then
		ok "valid/${f##*/} parses"
	else
		not_ok "valid/${f##*/} parses"
		sed 's/^/# /' "$out"
	fi
done

for f in "$dir"/invalid/*.fio; do
	name="invalid/${f##*/}"
	want=$(sed -n '1s/^# error: //p' "$f")
	where=$(sed -n 's/^# where: //p' "$f")
	if [ -z "$where" ]; then
		line=$(grep -n -- '<-- error' "$f" | head -n 1 | cut -d: -f1)
		where="$f:$line: "
	fi
	"$drv" "$f" >/dev/null 2>"$out"
	rc=$?
	msg=$(cat "$out")
	if [ -z "$want" ]; then
		not_ok "$name names its error on line 1"
	elif [ $rc -eq 0 ]; then
		not_ok "$name is rejected"
	elif [ "$where" = "none" ]; then
		case "$msg" in
		*"$want"*) ok "$name: $want" ;;
		*) not_ok "$name: '$msg' lacks '$want'" ;;
		esac
	else
		case "$msg" in
		*"$where"*"$want"*) ok "$name: $want" ;;
		*) not_ok "$name: '$msg' lacks '$where...$want'" ;;
		esac
	fi
done
finish
