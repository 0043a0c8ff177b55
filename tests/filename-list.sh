#!/bin/sh
# Description: filename= is a ':'-separated list whose empty entries are
# skipped (as fio's get_next_str); a list with no entry at all names no
# file and is refused with the option named, in a job file, on the command
# line and by --parse-only, where it once divided by zero in setup_files.
. "$top_srcdir/tests/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# refused_cmdline VALUE: run --filename=VALUE exits 1 naming the option.
refused_cmdline() {
	"$STORSIM" run $2 --name=j --size=1m --filename="$1" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" = 1 ] && grep -q "option 'filename': '$1' names no file" "$tmp/err" || {
		diag "exit $rc: $(cat "$tmp/err")"
		false
	}
}

plan 6
check "--filename=: is refused, exit 1" refused_cmdline ":"
check "--filename=:: is refused, exit 1" refused_cmdline "::"
check "--parse-only refuses --filename=: too" refused_cmdline ":" --parse-only
check "filename=::: in a job file names its line" \
	refused_job filename "':::' names no file" '[j]' 'size=1m' 'filename=:::'
"$STORSIM" run --output-format=terse --name=j --size=64k --ioengine=null \
	--filename=a::b >"$tmp/out" 2>"$tmp/err"
check "a::b is two files (empty entry skipped), not refused" \
	sh -c "test $? = 0 && test \"\$(cut -d';' -f6 '$tmp/out')\" = 64"
"$STORSIM" run --output-format=terse --name=j --size=64k --ioengine=null \
	'--filename=\:' >"$tmp/out" 2>"$tmp/err"
check "'\\:' is a file named ':', not an empty list" test $? = 0
finish
