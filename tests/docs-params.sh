#!/bin/sh
# Description: every parameter table of the model pages (docs/models/*.md,
# between <!-- params:begin MODEL --> and <!-- params:end -->) is what
# "storsim params --markdown MODEL" prints now (scripts/docs-params.sh
# --check, which make docs-params runs without --check to rewrite them), so
# a page cannot drift from the code's parameter rows; every model has such
# a table; and the check does catch a stale table and a marker naming no
# model.
. "$top_srcdir/tests/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
script="$top_srcdir/scripts/docs-params.sh"
pages=$(ls "$top_srcdir"/docs/models/*.md)
models=$("$STORSIM" params --markdown | sed -n 's/^### //p')

# shellcheck disable=SC2086
set -- $pages
npages=$#
# shellcheck disable=SC2086
set -- $models
plan $((npages + $# + 2))

for page in $pages; do
	if sh "$script" --check "$STORSIM" "$page" >"$tmp/diff" 2>&1; then
		ok "${page#"$top_srcdir"/} matches storsim params"
	else
		not_ok "${page#"$top_srcdir"/} differs from storsim params (make docs-params)"
		while read -r l; do diag "$l"; done <"$tmp/diff"
	fi
done
for m in $models; do
	# shellcheck disable=SC2086
	check "model $m has a table in docs/models" \
		grep -q "^<!-- params:begin $m -->\$" $pages
done

# A table one value off must be caught, and a marker naming no model too.
page="$top_srcdir/docs/models/kernel.md"
sed 's/^| `dio_caller_comp` |  | true |/| `dio_caller_comp` |  | false |/' "$page" >"$tmp/stale.md"
sh "$script" --check "$STORSIM" "$tmp/stale.md" >/dev/null 2>&1
check "a stale table is caught (exit 1)" test $? -eq 1
printf '<!-- params:begin no_such_model -->\n<!-- params:end -->\n' >"$tmp/bad.md"
sh "$script" --check "$STORSIM" "$tmp/bad.md" >/dev/null 2>"$tmp/err"
check "a marker naming no model is an error (exit 2)" \
	sh -c "test $? -eq 2 && grep -q 'no model \"no_such_model\"' '$tmp/err'"
finish
