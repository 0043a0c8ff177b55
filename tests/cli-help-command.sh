#!/bin/sh
# Description: "storsim help COMMAND" prints what "storsim COMMAND --help"
# prints, with exit status 0, for every command and group of commands,
# and the top-level help lists every command.
. "$top_srcdir/tests/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cmds=$(sh "$top_srcdir/scripts/cli-docs.sh" commands "$STORSIM") ||
	bail_out "cannot list the commands"
groups="trace validate guest"
plan $(($(echo "$cmds" | wc -l) + 3 + 1))
while read -r path; do
	# shellcheck disable=SC2086
	"$STORSIM" help $path >"$tmp/help" 2>&1
	rc=$?
	# shellcheck disable=SC2086
	"$STORSIM" $path --help >"$tmp/want" 2>&1
	if [ "$rc" = 0 ] && [ -s "$tmp/want" ] && cmp -s "$tmp/help" "$tmp/want"; then
		ok "storsim help $path"
	else
		not_ok "storsim help $path"
		diag "exit $rc; $(diff "$tmp/want" "$tmp/help" | head -5)"
	fi
done <<LIST
$cmds
LIST
for g in $groups; do
	"$STORSIM" help "$g" >"$tmp/help"
	"$STORSIM" "$g" --help >"$tmp/want"
	check "storsim help $g: the group's commands" \
		sh -c "cmp -s '$tmp/help' '$tmp/want' && grep -q '^Commands:' '$tmp/help'"
done
"$STORSIM" help >"$tmp/top"
missing=
for c in $(echo "$cmds" | cut -d' ' -f1 | uniq); do
	grep -q "^  $c " "$tmp/top" || missing="$missing $c"
done
check "storsim help lists every command${missing:+ (not:$missing)}" test -z "$missing"
finish
