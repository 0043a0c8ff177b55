#!/bin/sh
# Description: pre_read=1 of a file that a job which only writes creates.
# fio 3.33's extend_file lays no data out for such a job (no reads, no
# overwrite=1): it fallocates the file, so fallocate=none or keep leaves
# it empty and pre_read's first read() comes back short, failing the job
# (err=5, func=pre_read). storsim refuses those jobs, naming the file, the
# line and the option, and runs the others; where fio 3.33 is installed,
# it must fail exactly the refused ones.
. "$top_srcdir/tests/tap.sh"

# job options | refused (1) or run (0)
cases='fallocate=none|1
fallocate=keep|1
fallocate=posix|0
fallocate=native|0
fallocate=truncate|0
fallocate=none overwrite=1|0
fallocate=keep rw=randrw|0'
ncases=$(printf '%s\n' "$cases" | wc -l)
fio=$(fio333)
plan $((2 * ncases))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# job OPTIONS...: the job file in $tmp/j.fio, its files in $tmp/files
job() {
	rm -rf "$tmp/files" && mkdir "$tmp/files"
	{
		printf '[j]\ndirectory=%s/files\nioengine=psync\nrw=write\n' "$tmp"
		printf 'pre_read=1\nsize=256k\n'
		printf '%s\n' "$@"
	} >"$tmp/j.fio"
}

while IFS='|' read -r opts refused; do
	# shellcheck disable=SC2086
	job $opts
	line=$(grep -n '^pre_read=' "$tmp/j.fio" | cut -d: -f1)
	"$STORSIM" run --no-cpu-profile --mount="$tmp/files=xfs:nvme0n1" \
		"$tmp/j.fio" >/dev/null 2>"$tmp/err"
	rc=$?
	if [ "$refused" = 1 ]; then
		check "$opts: refused at pre_read's line" sh -c \
			"[ $rc = 1 ] && grep -q \"j.fio:$line: option 'pre_read': .*fails (EIO)\" '$tmp/err'"
	else
		check "$opts: runs" test "$rc" = 0
	fi
	[ "$rc" = "$refused" ] || diag "exit $rc: $(cat "$tmp/err")"
	if [ -z "$fio" ]; then
		ok "fio, $opts # SKIP fio 3.33 is not installed"
		continue
	fi
	# shellcheck disable=SC2086
	job $opts
	"$fio" "$tmp/j.fio" >/dev/null 2>&1
	frc=$?
	check "fio 3.33, $opts: fails only where storsim refuses (exit $frc)" \
		test "$((frc != 0))" = "$refused"
done <<EOF2
$cases
EOF2
finish
