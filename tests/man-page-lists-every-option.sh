#!/bin/sh
# Description: docs/storsim.1 has a section for every command, and every
# option of a command's help is in that section, or in the one it refers
# to for a group of options ("Simulated system: as for storsim run").
. "$top_srcdir/tests/tap.sh"
page="$top_srcdir/docs/storsim.1"

cmds=$(sh "$top_srcdir/scripts/cli-docs.sh" commands "$STORSIM") ||
	bail_out "cannot list the commands"
plan $(($(echo "$cmds" | wc -l) * 2))
# section PATH: the page's lines from ".SS storsim PATH" to the next
# heading, with the sections it refers to
section() {
	local esc refs r
	esc=$(echo "storsim $1" | sed 's/-/\\\\-/g')
	awk -v h=".SS $esc" '$0 == h { on = 1; next } on && /^\.S[SH] / { exit } on' "$page" \
		>"$tmp_s"
	cat "$tmp_s"
	refs=$(grep -A1 ': as for$' "$tmp_s" | sed -n 's/^\.BR "storsim \(.*\)" \.$/\1/p' |
		sed 's/\\-/-/g')
	for r in $refs; do
		awk -v h=".SS storsim $(echo "$r" | sed 's/-/\\\\-/g')" \
			'$0 == h { on = 1; next } on && /^\.S[SH] / { exit } on' "$page"
	done
}
tmp_s=$(mktemp)
trap 'rm -f "$tmp_s"' EXIT
while read -r path; do
	# shellcheck disable=SC2086
	text=$(section "$path")
	check "storsim $path has a section" test -n "$text"
	missing=
	# shellcheck disable=SC2086
	for o in $("$STORSIM" $path --help-all | awk '/^  -/ {
		for (i = 1; i <= NF; i++) if ($i ~ /^--/) { sub(/=.*/, "", $i); print $i; break } }' |
		grep -v '^--help'); do
		e=$(echo "$o" | sed 's/-/\\-/g')
		printf '%s\n' "$text" | grep -qF ".BR \"$e\"" ||
			printf '%s\n' "$text" | grep -qF "\" \"$e\"" || missing="$missing $o"
	done
	check "storsim $path: every option is in it${missing:+ (not:$missing)}" test -z "$missing"
done <<LIST
$cmds
LIST
finish
