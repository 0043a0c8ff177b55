#!/bin/sh
# Description: the usage line of every command's help starts with the
# command in full ("storsim trace info", not "info"), as do the groups'.
. "$top_srcdir/tests/tap.sh"

cmds=$(sh "$top_srcdir/scripts/cli-docs.sh" commands "$STORSIM") ||
	bail_out "cannot list the commands"
plan $(($(echo "$cmds" | wc -l) + 4))
# usage PATH...: the line after "Usage:", or the rest of "Usage: ..."
usage() {
	"$STORSIM" "$@" --help | awk '/^Usage:$/ { getline; sub(/^ +/, ""); print; exit }
		/^Usage: / { sub(/^Usage: /, ""); print; exit }'
}
while read -r path; do
	# shellcheck disable=SC2086
	line=$(usage $path)
	case "$line" in
	"storsim $path "* | "storsim $path") ok "storsim $path: $line" ;;
	*) not_ok "storsim $path: '$line' does not start with 'storsim $path'" ;;
	esac
done <<LIST
$cmds
LIST
for g in "" trace validate guest; do
	# shellcheck disable=SC2086
	line=$(usage $g)
	case "$line" in
	"storsim ${g:+$g }COMMAND "*) ok "storsim $g: $line" ;;
	*) not_ok "storsim $g: '$line'" ;;
	esac
done
finish
