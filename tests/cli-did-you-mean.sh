#!/bin/sh
# Description: a misspelt command or option is refused (exit 1) with the
# nearest name: every command of every group, and the first option of
# every command, one letter short, each through its own parser; a name
# near nothing is refused without a suggestion.
. "$top_srcdir/tests/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
docs="$top_srcdir/scripts/cli-docs.sh"

# refused EXPECTED ARG...: storsim ARG... exits 1, and its stderr holds
# EXPECTED
refused() {
	local want=$1 rc
	shift
	"$STORSIM" "$@" >/dev/null 2>"$tmp/err"
	rc=$?
	if [ "$rc" = 1 ] && grep -qF -- "$want" "$tmp/err"; then
		ok "storsim $*: $want"
	else
		not_ok "storsim $*: $want"
		diag "exit $rc: $(cat "$tmp/err")"
	fi
}

cmds=$(sh "$docs" commands "$STORSIM") || bail_out "cannot list the commands"
plan $(($(echo "$cmds" | wc -l) * 2 + 4))
refused "unknown command 'rn'; did you mean 'run'?" rn
refused "unknown command 'swep'; did you mean 'sweep'?" help swep
refused "unknown command 'xyzzy'" xyzzy
while read -r path; do
	# shellcheck disable=SC2086
	set -- $path
	word=$(eval echo "\${$#}")
	short=$(echo "$word" | sed 's/.$//')
	# the command one letter short, in its group
	if [ $# = 1 ]; then
		refused "unknown command '$short'; did you mean '$word'?" "$short"
	else
		refused "unknown command '$short'; did you mean '$word'?" "$1" "$short"
	fi
	# its first option of its own, one letter short
	opt=$("$STORSIM" $path --help-all | awk '/^Application Options:/ { on = 1; next }
		on && /^  -/ { for (i = 1; i <= NF; i++) if ($i ~ /^--/) {
			sub(/=.*/, "", $i); print $i; exit } }')
	refused "option '$(echo "$opt" | sed 's/.$//')': unknown option; did you mean '$opt'?" \
		$path "$(echo "$opt" | sed 's/.$//')"
done <<LIST
$cmds
LIST
refused "option '--qqqqqqqqqq': unknown option (see 'storsim sweep --help')" \
	sweep --qqqqqqqqqq
finish
