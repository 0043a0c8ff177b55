#!/bin/sh
# Description: exitall (exit_what=group, fio's default): when a job with
# exitall ends, the other running jobs of its group stop issuing, reap and
# end; a later group (stonewall) runs in full. Job a runs 200 ms with
# exitall, b 1 s beside it, c 300 ms after them; fio 3.33 ends b with a
# (both 201 ms on this machine) and runs c 301 ms. Checked on job_runtime
# in the JSON, against the installed fio when it is 3.33.
. "$top_srcdir/tests/tap.sh"

fio=$(fio333)
plan 4
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# runtimes TOOL [EXITALL]: job_runtime of a, b and c, in ms
runtimes() {
	tool=$1
	set -- --output-format=json \
		--name=a --filename="$dir/fa" --size=1m --rw=read --time_based \
		--runtime=200ms ${2:+"$2"} \
		--name=b --filename="$dir/fb" --size=1m --rw=read --time_based \
		--runtime=1s \
		--name=c --stonewall --filename="$dir/fc" --size=1m --rw=read \
		--time_based --runtime=300ms
	if [ "$tool" = fio ]; then
		"$fio" "$@" 2>/dev/null
	else
		"$STORSIM" run --no-cpu-profile "$@"
	fi | python3 -c '
import json, sys
print(" ".join(str(j["job_runtime"]) for j in json.load(sys.stdin)["jobs"]))'
}

got=$(runtimes storsim --exitall)
check "storsim, a with exitall: b ends with a, c runs in full (200 200 300: $got)" \
	test "$got" = "200 200 300"
got=$(runtimes storsim)
check "storsim, without exitall: b runs its second (200 1000 300: $got)" \
	test "$got" = "200 1000 300"
if [ -n "$fio" ]; then
	# shellcheck disable=SC2046
	set -- $(runtimes fio --exitall)
	check "fio 3.33, a with exitall: b within 5 ms of a, c 300-305 ms ($*)" \
		test "$#" = 3 -a "$(( $2 - $1 ))" -le 5 -a "$(( $1 - $2 ))" -le 5 \
		-a "$3" -ge 300 -a "$3" -le 305
else
	ok "fio # SKIP fio 3.33 is not installed"
fi
check "exitall_on_error is still refused at its line" \
	refused_job exitall_on_error "" '[a]' "filename=$dir/x" size=64k \
	exitall_on_error=1
finish
