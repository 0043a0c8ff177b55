#!/bin/sh
# The command line's documents, made from storsim's own help (the tables
# of sim/cli/main.c and each command's options), so they cannot drift:
#
#   cli-docs.sh commands STORSIM      every command, one a line ("trace info")
#   cli-docs.sh man STORSIM PAGE      PAGE with its generated parts made again
#   cli-docs.sh bash STORSIM          the bash completion script
#
# The man page's generated parts sit between ".\" generated:begin NAME"
# and ".\" generated:end" lines; everything else in it is written by hand.
set -eu
LC_ALL=C
export LC_ALL

mode=$1
storsim=$2

# The commands of the group "$@" (none: the top level), from its help.
group_commands() {
	"$storsim" "$@" --help | awk '/^Commands:/ { on = 1; next }
		on && /^  [^ ]/ { print $1; next } on { exit }'
}

# Every command, recursing into groups (a group's help lists Commands:).
commands() {
	local c sub
	for c in $(group_commands "$@"); do
		sub=$(group_commands "$@" "$c")
		if [ -n "$sub" ]; then
			commands "$@" "$c"
		else
			echo "$* $c" | sed 's/^ //'
		fi
	done
}

case $mode in
commands)
	commands
	;;
*)
	echo "usage: cli-docs.sh commands|man|bash STORSIM [PAGE]" >&2
	exit 2
	;;
esac
