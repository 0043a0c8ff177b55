#!/bin/sh
# Description: fio's max_latency (io_u.c lat_fatal): the first I/O whose
# latency exceeds the limit of its direction ends the job with ETIMEDOUT
# (err=110) as it completes; what is in flight completes. The err code and
# the IO depths and issued lines are compared with fio 3.33's on a
# temporary file, where a 1 us limit fails the first write.
. "$top_srcdir/tests/tap.sh"

# options | err | issued writes
cases='ioengine=psync max_latency=1|110|1
ioengine=libaio iodepth=8 direct=1 max_latency=1|110|8
ioengine=psync max_latency=10s,1|110|1
ioengine=psync max_latency=1,10s|0|256'
ncases=$(printf '%s\n' "$cases" | wc -l)
fio=$(fio333)
plan $((2 * ncases + 1))
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# result TOOL OPTIONS...: "ERR ISSUED-WRITES" and the IO depths line
result() {
	tool=$1
	shift
	rm -f "$dir/f"
	set -- --name=m --filename="$dir/f" --size=1m --bs=4k --rw=write "$@"
	if [ "$tool" = fio ]; then
		(cd "$dir" && "$fio" "$@" 2>/dev/null)
	else
		"$STORSIM" run --no-cpu-profile "$@" 2>/dev/null
	fi | sed -n -e 's/.*(groupid=.*err= *\([0-9]*\).*/err \1/p' \
		-e 's/.*issued rwts: total=[0-9]*,\([0-9]*\),.*/issued \1/p' \
		-e 's/^ *\(IO depths *:.*\)/\1/p' | tr '\n' ' '
}

while IFS='|' read -r opts err writes <&3; do
	# shellcheck disable=SC2046,SC2086
	sim=$(result storsim $(printf -- '--%s ' $opts))
	check "storsim, $opts: err=$err, $writes writes ($sim)" \
		test -n "$(printf '%s' "$sim" | grep "err $err .*issued $writes ")"
	if [ -z "$fio" ]; then
		ok "fio 3.33, $opts # SKIP fio 3.33 is not installed"
		continue
	fi
	# shellcheck disable=SC2046,SC2086
	got=$(result fio $(printf -- '--%s ' $opts))
	check "fio 3.33, $opts: the same err, IO depths and issued lines" \
		test "$got" = "$sim"
	[ "$got" = "$sim" ] || diag "fio: $got"
done 3<<EOF
$cases
EOF

out=$("$STORSIM" run --no-cpu-profile --name=m --filename="$dir/g" --size=64k \
	--rw=write --max_latency=1 2>&1 >/dev/null)
check "the failure names the latency, the limit and the I/O" \
	test -n "$(printf '%s' "$out" | grep 'latency of [0-9]* nsec exceeds specified max (1000 nsec): .*/g write 0 4096')"
finish
