#!/bin/sh
# Description: storsim params says where each kind of model is set (a
# host, device or file-system profile, or --kernel) and refuses an unknown
# model. Its --markdown tables are checked against the model pages by
# tests/docs-params.sh.
. "$top_srcdir/tests/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plan 5

check "the heading of cpu names the host profile" \
	sh -c "'$STORSIM' params cpu | head -n 1 | grep -q '^cpu (host profile): '"
check "the heading of fs names the file-system profile" \
	sh -c "'$STORSIM' params fs | head -n 1 | grep -q '^fs (file-system profile): '"
check "the heading of kernel names --kernel" \
	sh -c "'$STORSIM' params kernel | head -n 1 | grep -q '^kernel (--kernel FEATURE=VALUE): '"
check "several models print in the order given" \
	sh -c "test \"\$('$STORSIM' params kernel io_wq | grep -o '^[a-z_]* (' | tr -d ' (' | tr '\n' ' ')\" = 'kernel io_wq '"
"$STORSIM" params no_such_model >/dev/null 2>"$tmp/err"
check "an unknown model exits 1 and is named" \
	sh -c "test $? -eq 1 && grep -q \"unknown model 'no_such_model'\" '$tmp/err'"
finish
