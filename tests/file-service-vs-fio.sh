#!/bin/sh
# Description: fio's file_service_type over three files (io_u.c:
# __get_next_file): roundrobin:N does N I/Os to a file before the next,
# sequential finishes a file first, and a sync takes its turn like an
# I/O; random picks at random (storsim's own numbers, so only the counts
# are compared). The order is read from each tool's write_iolog: the
# file of every write ("1", "2", "3") and sync ("s" before it), and
# compared with real fio 3.33's when it is installed. Non-uniform picking
# (zipf, pareto, normal, gauss) draws a file for every I/O from fio's own
# generators, whose order must be fio's (over files of 32 KiB, so that
# the files most drawn run out and start again, as fio starts them; the
# jobs end at io_size); a bad parameter is refused at its line. A file on
# which no I/O ever fits (fio would try for ever) is done after 100000
# tries, with a warning.
. "$top_srcdir/tests/tap.sh"

# options | the order of the writes and syncs over the files
cases='file_service_type=roundrobin|123123123123123123123123
file_service_type=roundrobin:4|111122223333111122223333
file_service_type=sequential|111111112222222233333333
file_service_type=sequential fsync=3|111s1111s1112s2222s2222s2233s3333s3333
file_service_type=roundrobin:2 fsync=3|112s2331s1223s3112s2331s1223s3112s2332'
ncases=$(printf '%s\n' "$cases" | wc -l)

fio=$(fio333)
nonuniform='zipf:1.2
pareto:0.3
normal:10
gauss:5:0.8'
plan $((2 * ncases + 3 + $(printf '%s\n' "$nonuniform" | wc -l)))
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# order TOOL OPTIONS...: the files of the writes and syncs TOOL issues
order() {
	tool=$1
	shift
	rm -f "$dir"/fs.* "$dir/log"
	set -- --name=w --filename="$dir/fs.1:$dir/fs.2:$dir/fs.3" --size=96k \
		--bs=4k --rw=write --write_iolog="$dir/log" "$@"
	if [ "$tool" = fio ]; then
		"$fio" "$@" >/dev/null 2>&1
	else
		"$STORSIM" run --no-cpu-profile "$@" >/dev/null 2>&1
	fi
	awk 'NR > 1 && ($3 == "write" || $3 == "sync") {
		printf "%s%s", $3 == "sync" ? "s" : "", substr($2, length($2)) }' \
		"$dir/log" 2>/dev/null
}

while IFS='|' read -r opts want; do
	# shellcheck disable=SC2046,SC2086
	got=$(order storsim $(printf -- '--%s ' $opts))
	check "storsim, $opts: $want" test "$got" = "$want"
	[ "$got" = "$want" ] || diag "got: $got"
	if [ -z "$fio" ]; then
		ok "fio, $opts # SKIP fio 3.33 is not installed"
		continue
	fi
	# shellcheck disable=SC2046,SC2086
	got=$(order fio $(printf -- '--%s ' $opts))
	check "fio 3.33, $opts: the same order" test "$got" = "$want"
	[ "$got" = "$want" ] || diag "got: $got"
done <<EOF
$cases
EOF

got=$(order storsim --file_service_type=random)
check "random: 24 writes over all three files ($got)" \
	test "${#got}" = 24 -a -n "$(printf %s "$got" | tr -d 23)" \
	-a -n "$(printf %s "$got" | tr -d 13)" -a -n "$(printf %s "$got" | tr -d 12)"
for fst in $nonuniform; do
	set -- --file_service_type="$fst" --rw=randwrite --io_size=384k
	got=$(order storsim "$@")
	if [ -z "$fio" ]; then
		ok "fio, $fst # SKIP fio 3.33 is not installed"
		continue
	fi
	want=$(order fio "$@")
	check "$fst: fio 3.33's order of files ($want)" \
		test "${#want}" = 96 -a "$got" = "$want"
	[ "$got" = "$want" ] || diag "got: $got"
done
# a zoned_abs zone larger than the file: no pick ever fits, where fio
# prints "zoned_abs sizes exceed file size" for ever
"$STORSIM" run --no-cpu-profile --name=w --filename="$dir/z" --size=192k \
	--rw=randwrite --file_service_type=normal:20 \
	--random_distribution=zoned_abs:100/512k >/dev/null 2>"$dir/err"
check "a file no I/O ever fits ends the job, with a warning that names it" \
	grep -q "no I/O fits file $dir/z in 100000 tries" "$dir/err"
check "file_service_type=zipf:1 is refused at its line" \
	refused_job file_service_type "zipf theta must not be 1.0" '[w]' \
	"filename=$dir/a:$dir/b" size=64k file_service_type=zipf:1
finish
