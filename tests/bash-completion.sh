#!/bin/sh
# Description: the bash completion that make builds (and make install
# installs) completes commands of every group, "help COMMAND", and for
# every command each option its help lists, fio's options for run, and
# file names after an option's "=".
. "$top_srcdir/tests/tap.sh"
comp="$top_builddir/completion/storsim"
command -v bash >/dev/null || skip_all "no bash"
[ -f "$comp" ] || bail_out "$comp is not built; make builds it"

# completes LINE: what the completion offers for LINE, the cursor at its end
completes() {
	bash -c '. "$1"; COMP_LINE=$2; COMP_POINT=${#COMP_LINE}
		read -ra COMP_WORDS <<<"$COMP_LINE"
		[[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _storsim; echo "${COMPREPLY[*]}"' \
		sh "$comp" "$1"
}
# offers LINE WORD: the completion of LINE offers WORD
offers() {
	case " $(completes "$1") " in
	*" $2 "*) ok "'$1' offers '$2'" ;;
	*) not_ok "'$1' offers '$2'"; diag "offered: $(completes "$1")" ;;
	esac
}

cmds=$(sh "$top_srcdir/scripts/cli-docs.sh" commands "$STORSIM") ||
	bail_out "cannot list the commands"
plan $(($(echo "$cmds" | wc -l) + 7))
offers "storsim sw" sweep
offers "storsim trace c" convert
offers "storsim help tr" trace
offers "storsim help trace i" info
offers "storsim run --iodep" --iodepth=
touch "$PWD/cli-completion-probe.tmp"
offers "storsim run --output=cli-completion-pr" cli-completion-probe.tmp
rm -f "$PWD/cli-completion-probe.tmp"
case "$(completes "storsim sweep --slurm-w")" in
--slurm-wait) ok "a flag is offered without '='" ;;
*) not_ok "a flag is offered without '=': $(completes "storsim sweep --slurm-w")" ;;
esac
while read -r path; do
	# shellcheck disable=SC2086
	offered=" $(completes "storsim $path --") "
	missing=
	# shellcheck disable=SC2086
	for o in $("$STORSIM" $path --help-all | awk '/^  -/ {
		for (i = 1; i <= NF; i++) if ($i ~ /^--/) { sub(/=.*/, "=", $i); print $i; break } }'); do
		case "$offered" in *" $o "*) ;; *) missing="$missing $o" ;; esac
	done
	check "storsim $path --: every option${missing:+ (not:$missing)}" test -z "$missing"
done <<LIST
$cmds
LIST
finish
