#!/bin/sh
# Description: name= inside a section names the job, as in fio 3.33: the
# reports print that name (normal, terse, JSON), wait_for finds the job by
# it, while --section still selects by the section's own name and files
# keep it in $jobname.
. "$top_srcdir/tests/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || bail_out "no temporary directory"
printf '%s\n' '[foo]' 'name=bar' 'size=64k' 'ioengine=null' \
	'[baz]' 'wait_for=bar' 'size=64k' 'ioengine=null' >job.fio

plan 5
"$STORSIM" run --output-format=terse job.fio >terse 2>err
check "terse: the job of section [foo] is reported as bar" \
	test "$(cut -d';' -f3 terse | tr '\n' ' ')" = "bar baz "
"$STORSIM" run job.fio >normal 2>err
check "normal: the job's first line starts with bar:" grep -q '^bar: (g=0)' normal
"$STORSIM" run --output-format=json job.fio >json 2>err
check "json: jobname is bar" python3 -c 'import json, sys
j = json.load(open("json"))["jobs"]
sys.exit(0 if [x["jobname"] for x in j] == ["bar", "baz"] else 1)'
check "--section selects by the section's name, not by name=" \
	sh -c "'$STORSIM' run --output-format=terse --section=foo job.fio | cut -d';' -f3 | grep -qx bar"
check "a global name= does not rename the jobs" \
	sh -c "printf '[global]\nname=g\nsize=64k\nioengine=null\n[a]\n[b]\n' >g.fio &&
		test \"\$('$STORSIM' run --output-format=terse g.fio | cut -d';' -f3 | tr '\n' ' ')\" = 'a b '"
finish
