#!/bin/sh
# Description: the syncs around fio's rounds (loops=), as fio 3.33 issues
# them: a periodic fsync or fdatasync due when a round's writes end is
# issued, and due again as the next round starts (clear_io_state forgets
# the last sync); end_fsync syncs at the end of every round, before its
# verify phase; the last round ends on its bytes, before any periodic
# sync. The order of writes (w), syncs (s) and reads (r) is read from
# each tool's write_iolog and compared with fio's.
. "$top_srcdir/tests/tap.sh"

# options | the job's writes, syncs and reads, in order
cases='rw=write loops=2 fsync=4|wwwwswwwwsswwwwswwww
rw=randwrite loops=2 fsync=4|wwwwswwwwsswwwwswwww
rw=write loops=2 fsync=3|wwwswwwswwwswwwswwwsw
rw=write loops=3 fdatasync=8|wwwwwwwwsswwwwwwwwsswwwwwwww
rw=write loops=3 end_fsync=1|wwwwwwwwswwwwwwwwswwwwwwwws
rw=randwrite loops=2 fsync=4 end_fsync=1|wwwwswwwwsswwwwswwwws
rw=write loops=2 end_fsync=1 verify=crc32c|wwwwwwwwsrrrrrrrrwwwwwwwwsrrrrrrrr'
ncases=$(printf '%s\n' "$cases" | wc -l)
fio=$(fio333)
plan $((2 * ncases))
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

ops() {
	tool=$1
	shift
	rm -f "$dir/f" "$dir/log"
	set -- --name=e --filename="$dir/f" --size=32k --bs=4k \
		--write_iolog="$dir/log" "$@"
	if [ "$tool" = fio ]; then
		(cd "$dir" && "$fio" "$@" >/dev/null 2>&1)
	else
		"$STORSIM" run --no-cpu-profile "$@" >/dev/null 2>&1
	fi
	iolog_ops "$dir/log"
}

while IFS='|' read -r opts want <&3; do
	for tool in storsim fio; do
		if [ $tool = fio ] && [ -z "$fio" ]; then
			ok "fio 3.33, $opts # SKIP fio 3.33 is not installed"
			continue
		fi
		# shellcheck disable=SC2046,SC2086
		got=$(ops $tool $(printf -- '--%s ' $opts))
		check "$tool, $opts: $want" test "$got" = "$want"
		[ "$got" = "$want" ] || diag "got: $got"
	done
done 3<<EOF
$cases
EOF
finish
