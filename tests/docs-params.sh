#!/bin/sh
# Description: every parameter table of the model pages (docs/models/*.md,
# between the params:begin and params:end markers, one "### MODEL" table
# per model) is what "storsim params --markdown MODEL" prints now, so a
# page cannot drift from the code's parameter rows. A table without a
# heading (nvme-device.md's) is test-nvme-params's to check.
. "$top_srcdir/tests/tap.sh"
command -v python3 >/dev/null || skip_all "python3 is not installed"

pages=$(grep -l 'params:begin' "$top_srcdir"/docs/models/*.md)
plan $(printf '%s\n' $pages | wc -l)
for page in $pages; do
	check "${page#"$top_srcdir"/} matches storsim params" python3 -c '
import re, subprocess, sys
storsim, page = sys.argv[1], sys.argv[2]
text = open(page).read()
blocks = re.findall(r"<!-- params:begin -->\n(.*?)<!-- params:end -->", text, re.S)
assert blocks, "no marked table"
for block in blocks:
    models = re.findall(r"^### (\S+)", block, re.M)
    if not models:
        continue
    want = "\n".join(subprocess.run([storsim, "params", "--markdown", m],
                                    capture_output=True, text=True, check=True)
                     .stdout.rstrip("\n") + "\n" for m in models)
    if block != want:
        sys.exit("%s: the table of %s is out of date; replace it with the "
                 "output of storsim params --markdown" % (page, " ".join(models)))
' "$STORSIM" "$page"
done
finish
