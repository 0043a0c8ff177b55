#!/bin/sh
# Description: exitall: when a job with exitall ends, the other running
# jobs of its group (exit_what=group, fio's default) or of every group
# (stonewall) stop issuing, reap and end, and a later group runs in full;
# with exit_what=all the later group does not run (fio lists it with no
# I/O). Job a runs 200 ms with exitall, b 1 s beside it, c 300 ms after
# them (stonewall). Checked on job_runtime in the JSON, against the
# installed fio when it is 3.33. exitall_on_error ends the others when a
# job fails.
. "$top_srcdir/tests/tap.sh"

fio=$(fio333)
# Real fio's jobs notice exitall at their next loop, later on a loaded
# machine (8 ms under make -j2 distcheck): a slack of 50 ms still tells
# "b ends with a" (200) from "b runs its second" (1000).
slack=50
plan 8
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# runtimes TOOL [OPTIONS]: job_runtime of a, b and c, in ms; OPTIONS
# (split at blanks) go to a
runtimes() {
	tool=$1
	# shellcheck disable=SC2086
	set -- --output-format=json \
		--name=a --filename="$dir/fa" --size=1m --rw=read --time_based \
		--runtime=200ms $2 \
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
	check "fio 3.33, a with exitall: b within $slack ms of a, c 300-$((300 + slack)) ms ($*)" \
		test "$#" = 3 -a "$(( $2 - $1 ))" -le $slack -a "$(( $1 - $2 ))" -le $slack \
		-a "$3" -ge 300 -a "$3" -le $((300 + slack))
else
	ok "fio # SKIP fio 3.33 is not installed"
fi
for what in stonewall all; do
	want="200 200 300"
	[ "$what" = all ] && want="200 200 0"
	got=$(runtimes storsim "--exitall --exit_what=$what")
	check "storsim, exit_what=$what: $want ($got)" test "$got" = "$want"
	if [ -n "$fio" ]; then
		# shellcheck disable=SC2046
		set -- $(runtimes fio "--exitall --exit_what=$what")
		check "fio 3.33, exit_what=$what: b within $slack ms of a, c as storsim's ($*)" \
			test "$#" = 3 -a "$(( $2 - $1 ))" -le $slack -a "$(( $1 - $2 ))" -le $slack \
			-a "$3" -ge "${want##* }" -a "$3" -le "$(( ${want##* } + slack ))"
	else
		ok "fio # SKIP fio 3.33 is not installed"
	fi
done
got=$("$STORSIM" run --no-cpu-profile --output-format=json \
	--name=a --filename="$dir/ta" --size=1m --rw=trim --exitall_on_error \
	--name=b --filename="$dir/tb" --size=1m --rw=read --time_based \
	--runtime=1s 2>/dev/null | python3 -c '
import json, sys
print(" ".join(str(j["job_runtime"]) for j in json.load(sys.stdin)["jobs"]))')
check "exitall_on_error: a's trim of a file fails, b ends at once ($got ms)" \
	test "${got#* }" -lt 10
finish
