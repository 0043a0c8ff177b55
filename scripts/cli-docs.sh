#!/bin/sh
# The command line's documents, made from storsim's own help (the table
# of commands in sim/cli/main.c and each command's GOption entries), so
# that they cannot drift from it:
#
#   cli-docs.sh commands STORSIM      every command, one a line ("trace info")
#   cli-docs.sh man STORSIM PAGE      PAGE with its generated parts made again
#   cli-docs.sh bash STORSIM          the bash completion script
#
# The man page's generated parts sit between '.\" generated:begin NAME'
# and '.\" generated:end' lines (NAME synopsis or options); the rest of
# it is written by hand. make docs-man rewrites docs/storsim.1, and
# tests/man-page-current.sh fails when it is out of date.
set -eu
LC_ALL=C
export LC_ALL

mode=${1-}
storsim=${2-}

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

# The help of command "$@", every group of options, with GLib's ellipsis
# in ASCII.
help_all() {
	"$storsim" "$@" --help-all | sed 's/\xe2\x80\xa6/.../g; s/\[OPTION?\]/[OPTION...]/'
}

# Parse a GLib help text on stdin into records for the awk programs
# below, one a line, fields separated by tabs:
#   usage TEXT         the usage line, "storsim sweep [OPTION...] JOBFILE"
#   text LINE          a line of the summary or the description
#   group TITLE        an option group ("Application Options", "Simulated system")
#   option OPT ARG HELP  e.g. "-j, --jobs" "N" "Run N points..."
# The help options (--help, --help-all, --help-GROUP) are left out: the
# page describes them once.
records() {
	awk 'BEGIN { OFS = "\t" }
	/^Usage:$/ { getline; sub(/^ +/, ""); print "usage", $0; next }
	/^[A-Z][^:]*:$/ { sub(/:$/, ""); group = $0
		if (group != "Help Options") print "group", group; next }
	group != "" && group != "Help Options" && /^  -/ {
		line = substr($0, 3)
		n = index(line, "  ")
		opt = substr(line, 1, n - 1); rest = substr(line, n)
		sub(/^ +/, "", rest)
		arg = ""
		if ((e = index(opt, "=")) > 0) { arg = substr(opt, e + 1); opt = substr(opt, 1, e - 1) }
		print "option", opt, arg, rest; next }
	group == "Help Options" && /^  / { next }
	/^$/ { if (group != "") group = "-"; print "text", ""; next }
	{ print "text", $0 }'
}

# The man page's part $1 (synopsis or options) from the records of every
# command on stdin, each command's records after a line "command PATH".
# A command's own options come first, then its other groups; a group
# the same as one given before (the system options) refers to it.
man_parts() {
	awk -F '\t' -v part="$1" '
	function esc(s) {
		gsub(/\\/, "\\e", s); gsub(/-/, "\\-", s)
		if (s ~ /^[.'"'"']/) s = "\\&" s
		return s
	}
	# the text lines so far: paragraphs, indented lines as examples
	function text_out(   i, ex, out) {
		while (nt > 0 && tx[nt] == "") nt--
		for (i = 1; i <= nt && tx[i] == ""; i++);
		ex = 0; out = ""
		for (; i <= nt; i++) {
			if (tx[i] == "") { if (ex) { out = out ".EE\n"; ex = 0 } out = out ".PP\n"; continue }
			if (tx[i] ~ /^  / && !ex) { out = out ".EX\n"; ex = 1 }
			if (tx[i] !~ /^  / && ex) { out = out ".EE\n"; ex = 0 }
			out = out esc(ex ? substr(tx[i], 3) : tx[i]) "\n"
		}
		if (ex) out = out ".EE\n"
		nt = 0
		return out
	}
	function group_out(g,   title, key) {
		title = gname[g] == "Application Options" ? "Options" : gname[g]
		key = gname[g] SUBSEP gbody[g]
		if (key in seen)
			return ".PP\n" esc(title) ": as for\n.BR \"" esc(seen[key]) "\" .\n"
		seen[key] = cmd
		return ".PP\n" esc(title) ":\n" gtext[g]
	}
	function finish_command(   g) {
		if (cmd == "") return
		printf "%s", summary
		for (g = 1; g <= ng; g++)
			if (gname[g] == "Application Options") printf "%s", group_out(g)
		for (g = 1; g <= ng; g++)
			if (gname[g] != "Application Options") printf "%s", group_out(g)
		t = text_out()
		if (t != "") printf ".PP\n%s", t
		ng = 0; summary = ""
	}
	$1 == "command" {
		finish_command(); cmd = "storsim " $2; nt = 0; ng = 0; ingroup = 0
		if (part == "options") print ".SS " esc(cmd)
		next
	}
	$1 == "usage" && part == "synopsis" {
		rest = substr($2, length(cmd) + 2)
		print ".SY storsim"
		print ".B " esc(substr(cmd, 9))
		if (rest != "") print esc(rest)
		print ".YS"
		next
	}
	part != "options" { next }
	$1 == "text" && ingroup && $2 == "" { ingroup = 0; next }
	$1 == "text" { tx[++nt] = $2; next }
	$1 == "group" {
		if (!ng) summary = text_out()
		else nt = 0
		ng++; gname[ng] = $2; gtext[ng] = ""; gbody[ng] = ""; ingroup = 1
		next
	}
	$1 == "option" {
		opt = esc($2)
		gsub(/, /, "\" \", \" \"", opt)
		line = ".TP\n.BR \"" opt "\""
		if ($3 != "") line = line " =\\fI" esc($3) "\\fP"
		gtext[ng] = gtext[ng] line "\n" esc($4) "\n"
		gbody[ng] = gbody[ng] $2 "=" $3 " " $4 "\n"
		next
	}
	END { finish_command() }'
}

# Records of every command, each after "command PATH".
all_records() {
	commands | while read -r path; do
		printf 'command\t%s\n' "$path"
		# shellcheck disable=SC2086
		help_all $path | records
	done
}

# The words a command's help offers: its options, "--NAME=" for one
# that takes a value.
option_words() {
	help_all "$@" | awk '/^  -/ {
		opt = substr($0, 3); sub(/  .*/, "", opt)
		arg = index(opt, "=") > 0
		sub(/=.*/, "", opt)
		n = split(opt, w, ", ")
		for (i = 1; i <= n; i++) printf "%s%s ", w[i], arg && w[i] ~ /^--/ ? "=" : ""
	}' | sed 's/ $//'
}

# The completion: for each group, its commands; for each command, its
# options; after "--NAME=" or a command's own arguments, file names.
bash_completion() {
	local c g w
	cat <<'HEAD'
# bash completion for storsim. Made by scripts/cli-docs.sh from storsim's
# own help (make builds it, make install installs it); do not edit.

# _storsim_commands GROUP: the commands of GROUP ("" the top level)
_storsim_commands() {
	case $1 in
HEAD
	printf '\t"") echo "%s help --help --version" ;;\n' "$(group_commands | tr '\n' ' ' | sed 's/ $//')"
	for g in $(group_commands); do
		c=$(group_commands "$g" | tr '\n' ' ' | sed 's/ $//')
		[ -z "$c" ] || printf '\t"%s") echo "%s help --help" ;;\n' "$g" "$c"
	done
	cat <<'MID'
	esac
}

# _storsim_options COMMAND: the options of COMMAND ("trace info")
_storsim_options() {
	case $1 in
MID
	commands | while read -r c; do
		# shellcheck disable=SC2086
		w=$(option_words $c)
		# run takes fio's options too, as --NAME=VALUE
		[ "$c" != run ] ||
			w="$w $("$storsim" run --cmdhelp | awk -F ' *: ' '{ printf " --%s=", $1 }')"
		printf '\t"%s") echo "%s" ;;\n' "$c" "$w"
	done
	cat <<'TAIL'
	esac
}

_storsim() {
	local line=${COMP_LINE:0:COMP_POINT} cur path= w i words
	# the word being completed, whole: bash splits "--NAME=VALUE" at "="
	cur=${line##*[[:space:]]}
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		[[ $w == help && -z $path ]] && continue
		words=$(_storsim_commands "$path")
		[[ -n $words && $w != -* && " $words " == *" $w "* ]] || break
		path=${path:+$path }$w
	done
	words=$(_storsim_commands "$path")
	if [[ $cur == -*=* ]]; then
		COMPREPLY=($(compgen -f -- "${cur#*=}"))
	elif [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_storsim_options "$path") ${words:+--help}" -- "$cur"))
		[[ ${#COMPREPLY[@]} == 1 && ${COMPREPLY[0]} == *= ]] &&
			compopt -o nospace 2>/dev/null
	elif [[ -n $words ]]; then
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
	else
		COMPREPLY=($(compgen -f -- "$cur"))
	fi
	return 0
}
complete -o filenames -F _storsim storsim
TAIL
}

case $mode in
commands)
	commands
	;;
part)
	# (for man, below) the part $2 from the records on stdin
	man_parts "$2"
	;;
man)
	[ $# = 3 ] || { echo "usage: cli-docs.sh man STORSIM PAGE" >&2; exit 2; }
	CLI_DOCS_RECS=$(all_records)
	export CLI_DOCS_RECS
	awk -v script="$0" '
	/^\.\\" generated:begin / {
		print; name = $3
		cmd = "printf \"%s\\n\" \"$CLI_DOCS_RECS\" | sh \"" script "\" part " name
		while ((cmd | getline l) > 0) print l
		close(cmd); skip = 1; next
	}
	/^\.\\" generated:end/ { skip = 0 }
	!skip { print }' "$3"
	;;
bash)
	bash_completion
	;;
*)
	echo "usage: cli-docs.sh commands|man|bash STORSIM [PAGE]" >&2
	exit 2
	;;
esac
