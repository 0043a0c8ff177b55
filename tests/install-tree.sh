#!/bin/sh
# Description: make install DESTDIR=... installs the program, every page
# of docs/ and README.md, the man page, the bash completion, every
# profile, experiment and example trace; and the installed storsim runs.
. "$top_srcdir/tests/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# a make of its own, not a part of the make check that runs this
unset MAKEFLAGS MFLAGS MAKELEVEL
${MAKE:-make} -s -C "$top_builddir" install DESTDIR="$tmp/root" >"$tmp/log" 2>&1 ||
	bail_out "make install failed: $(tail -5 "$tmp/log")"

# installed PATTERN: one file in the installed tree matches */PATTERN
installed() {
	test -n "$(find "$tmp/root" -path "*/$1" -type f | head -1)"
}
# all_installed WHERE FILE...: each FILE (a source path) is WHERE/its name
all_installed() {
	local where=$1 f missing=
	shift
	for f in "$@"; do
		installed "$where/${f##*/}" || missing="$missing ${f##*/}"
	done
	[ -z "$missing" ] || diag "not installed in */$where:$missing"
	[ -z "$missing" ]
}

s=$top_srcdir
plan 8
bin=$(find "$tmp/root" -path '*/bin/storsim' -type f | head -1)
check "bin/storsim, and it runs" sh -c "test -n '$bin' && '$bin' --version | grep -q '^storsim '"
check "every page of docs/ and README.md" \
	all_installed doc/storsim "$s"/docs/*.md "$s/README.md"
check "every model page" all_installed doc/storsim/models "$s"/docs/models/*.md
check "the man page" installed man/man1/storsim.1
check "the bash completion, as bash-completion finds it" \
	installed bash-completion/completions/storsim
check "every example trace" all_installed storsim/traces/examples "$s"/traces/examples/*
# every_installed FILE...: each FILE, a path under the source tree, is
# the same path under the installed storsim/
every_installed() {
	local f missing=
	for f in "$@"; do
		installed "storsim/${f#"$s"/}" || missing="$missing ${f#"$s"/}"
	done
	[ -z "$missing" ] || diag "not installed:$missing"
	[ -z "$missing" ]
}
check "every profile" every_installed "$s"/models/profiles/*/*.json
check "every experiment, job file and strategy file of traces/" \
	every_installed "$s"/traces/*/*.json "$s"/traces/*/*.fio "$s"/traces/*.json
finish
