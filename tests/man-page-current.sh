#!/bin/sh
# Description: the synopsis and the options of docs/storsim.1 are what
# scripts/cli-docs.sh makes from the commands' help now: a new command or
# option, or a changed help line, fails this until 'make docs-man'.
. "$top_srcdir/tests/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
page="$top_srcdir/docs/storsim.1"

plan 3
check "docs/storsim.1 has the generated synopsis and options" \
	test "$(grep -c '^\.\\" generated:begin \(synopsis\|options\)$' "$page")" = 2
sh "$top_srcdir/scripts/cli-docs.sh" man "$STORSIM" "$page" >"$tmp/page.1" ||
	bail_out "scripts/cli-docs.sh failed"
if cmp -s "$page" "$tmp/page.1"; then
	ok "docs/storsim.1 is up to date"
else
	not_ok "docs/storsim.1 is up to date (run 'make docs-man')"
	diff "$page" "$tmp/page.1" | head -20 | sed 's/^/# /'
fi
check "groff reads it without a warning" \
	sh -c "! command -v groff >/dev/null ||
	       test -z \"\$(groff -man -z -ww '$page' 2>&1)\""
finish
