#!/bin/sh
# The parameter tables of the model pages are generated: each sits between
#
#   <!-- params:begin MODEL -->
#   <!-- params:end -->
#
# and is what `storsim params --markdown MODEL` prints.
#
#   scripts/docs-params.sh STORSIM PAGE...          rewrite the tables
#   scripts/docs-params.sh --check STORSIM PAGE...  compare them
#
# --check rewrites nothing: it shows how each out-of-date page differs
# (diff -u) and exits 1 if any does. Either way a marker that names no
# model, or a table with no end marker, is an error (exit 2).
set -u

check=no
if [ "${1:-}" = "--check" ]; then
	check=yes
	shift
fi
if [ "$#" -lt 2 ]; then
	echo "usage: $0 [--check] STORSIM PAGE..." >&2
	exit 2
fi
storsim=$1
shift
tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp"' EXIT

# regenerate PAGE: the page with each table replaced, on stdout
regenerate() {
	awk -v storsim="$storsim" -v page="$1" '
	function fail(msg) { print page ":" NR ": " msg > "/dev/stderr"; bad = 1; exit 2 }
	/^<!-- params:begin / {
		if (inside) fail("params:begin inside a table")
		model = $3
		if (NF != 4 || $4 != "-->") fail("expected <!-- params:begin MODEL -->")
		print
		# the table without the blank lines storsim params ends with
		n = 0; blanks = 0
		cmd = storsim " params --markdown " model
		while ((cmd | getline line) > 0) {
			if (line == "") { blanks++; continue }
			for (; blanks > 0; blanks--) out[++n] = ""
			out[++n] = line
		}
		if (close(cmd) != 0) fail("no model \"" model "\" (see storsim params)")
		for (i = 1; i <= n; i++) print out[i]
		inside = 1
		next
	}
	/^<!-- params:end -->$/ {
		if (!inside) fail("params:end without params:begin")
		inside = 0
		print
		next
	}
	!inside { print }
	END {
		if (bad) exit 2
		if (inside) { print page ": params:begin " model " has no params:end" > "/dev/stderr"; exit 2 }
	}' "$1"
}

status=0
for page in "$@"; do
	regenerate "$page" >"$tmp" || exit 2
	if [ "$check" = yes ]; then
		diff -u "$page" "$tmp" || status=1
	elif ! cmp -s "$page" "$tmp"; then
		cat "$tmp" >"$page"
		echo "docs-params: refreshed $page"
	fi
done
exit "$status"
