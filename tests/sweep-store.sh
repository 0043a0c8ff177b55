#!/bin/sh
# Description: storsim sweep's result store and workers: the same table
# whatever -j is; one document per point (variables, fio's JSON with
# storsim's figures, command, version); a sweep interrupted or missing
# points resumes, running only those, to the same bytes; --force runs all
# again; a refused point is recorded with its reason and the others go
# on; a failed one makes the exit status 1 and runs again next time;
# variables given twice, unused by the job file or set by it are refused;
# --power-loss and --timeline apply to every point.
. "$top_srcdir/tests/tap.sh"
plan 17
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
job="$top_srcdir/tests/jobs/sweep/dio.fio"

sweep() {
	"$STORSIM" sweep --host axboe-5950x-2023 --file /f=256m:written --env RUNTIME=20ms \
		--vary kernel.dio_caller_comp=false,true --vary DEPTH=1,4,16 "$@" "$job"
}
sweep -j 1 >"$out/j1" 2>/dev/null
sweep -j 2 >"$out/j2" 2>/dev/null
sweep -j3 --output-format=json >"$out/j3.json" 2>/dev/null
sweep -j 1 --output-format=json >"$out/j1.json" 2>/dev/null
check "-j 1 and -j 2 print the same bytes" cmp -s "$out/j1" "$out/j2"
check "-j 3 and -j 1 write the same JSON" cmp -s "$out/j1.json" "$out/j3.json"

sweep -j 2 --results "$out/st" >"$out/st.txt" 2>/dev/null
check "a sweep with a store prints what one without prints" cmp -s "$out/j1" "$out/st.txt"
check "one document per point, with what it ran and fio's JSON" \
	python3 -c '
import json, os, sys
d = sys.argv[1]
m = json.load(open(os.path.join(d, "manifest.json")))
pts = m["grid"]["points"]
assert len(pts) == 6, pts
for i, p in enumerate(pts):
    doc = json.load(open(os.path.join(d, p["file"])))
    assert doc["status"] == "done", doc["status"]
    assert doc["point"]["variables"] == p["variables"], (doc["point"], p)
    assert doc["command"][:2] == ["storsim", "sweep"], doc["command"]
    assert doc["version"].startswith("storsim"), doc["version"]
    assert doc["report"]["jobs"][0]["write"]["iops"] > 0
    assert doc["report"]["storsim"]["cpu_profile"], "no cpu profile"
    assert doc["metrics"]["ios"] > 0
assert pts[4]["variables"] == {"kernel.dio_caller_comp": "true", "DEPTH": "4"}
' "$out/st"

# Resume: two documents gone, one cut short; the other three stay as they are.
ls -i "$out/st" | sort -k2 >"$out/inodes.before"
rm "$out/st/0002-"*.json "$out/st/0005-"*.json
f=$(ls "$out"/st/0006-*.json)
head -c 100 "$f" >"$out/cut" && mv "$out/cut" "$f"
sweep -j 2 --results "$out/st" --eta=always >"$out/resumed" 2>"$out/eta"
check "the resumed sweep prints the same bytes" cmp -s "$out/j1" "$out/resumed"
check "it starts from the three points the store holds" \
	grep -q "^storsim sweep: 3 of 6 points done, 0 failed" "$out/eta"
ls -i "$out/st" | sort -k2 >"$out/inodes.after"
check "the finished points' documents are not written again" \
	test "$(join -j 2 "$out/inodes.before" "$out/inodes.after" |
		awk '$2 == $3' | grep -c '000[134]-')" -eq 3

# Interrupted for real: stop the sweep once a point has finished.
sweep -j 2 --results "$out/int" --env RUNTIME=50ms >/dev/null 2>&1 &
pid=$!
i=0
while [ "$(ls "$out/int" 2>/dev/null | grep -c '^0')" -lt 1 ] && [ $i -lt 600 ]; do
	sleep 0.05
	i=$((i + 1))
done
kill -INT $pid 2>/dev/null
wait $pid
sweep -j 2 --results "$out/int" --env RUNTIME=50ms >"$out/int.txt" 2>/dev/null
sweep -j 1 --env RUNTIME=50ms >"$out/int-ref.txt" 2>/dev/null
check "a sweep stopped by SIGINT resumes to the bytes of one never stopped" \
	cmp -s "$out/int.txt" "$out/int-ref.txt"

sweep -j 2 --results "$out/st" --force >"$out/forced" 2>/dev/null
ls -i "$out/st" | sort -k2 >"$out/inodes.forced"
check "--force runs every point again, to the same table" \
	sh -c "cmp -s '$out/j1' '$out/forced' &&
	       test \"\$(join -j 2 '$out/inodes.after' '$out/inodes.forced' |
			awk '\$2 == \$3' | grep -c '^0')\" -eq 0"
"$STORSIM" sweep --file /f=256m:written --env RUNTIME=20ms --vary DEPTH=1,2 \
	--results "$out/st" "$job" >/dev/null 2>"$out/other"
rc=$?
check "another sweep's store is refused, pointing at --force" \
	sh -c "test $rc -eq 1 && grep -q 'another sweep' '$out/other' && grep -q -- --force '$out/other'"

# SQPOLL with IOPOLL is not modelled: that point says so, the others run.
grep -v ioengine "$job" >"$out/u.fio"
"$STORSIM" sweep --file /f=256m:written --env RUNTIME=20ms --env DEPTH=4 \
	--vary fio.ioengine=io_uring --vary fio.hipri=0,1 --vary fio.sqthread_poll=0,1 \
	--results "$out/ref" "$out/u.fio" >"$out/refused" 2>/dev/null
rc=$?
check "a refused point is a row saying why; the others run; exit 0" \
	sh -c "test $rc -eq 0 &&
	       grep -q '^ *io_uring  *1  *1 | not modelled: .*SQPOLL with polled completions' '$out/refused' &&
	       test \$(grep -c '^ *io_uring  *[01]  *[01] | *[0-9]' '$out/refused') -eq 6"
check "and its document is refused, with the reason" \
	python3 -c '
import json, glob, sys
doc = json.load(open(glob.glob(sys.argv[1] + "/0004-*.json")[0]))
assert doc["status"] == "refused" and "SQPOLL" in doc["reason"], doc
' "$out/ref"

"$STORSIM" sweep --file /f=256m:written --env RUNTIME=20ms --env DEPTH=1 \
	--vary cpu.ctx_switch_ns=100,bogus --results "$out/fail" "$job" \
	>"$out/failed" 2>"$out/failed.err"
rc=$?
check "a failed point: exit 1, the row says why, the other point ran" \
	sh -c "test $rc -eq 1 && grep -q '^ *bogus | failed: ' '$out/failed' &&
	       grep -q '^ *100 | *[0-9]' '$out/failed' && grep -q '1 of 2 points failed' '$out/failed.err'"

bad() {
	"$STORSIM" sweep --file /f=256m:written --env RUNTIME=20ms "$@" "$job" 2>"$out/bad" >/dev/null
	test $? -eq 1 && grep -q "$want" "$out/bad"
}
want="'DEPTH' is varied twice"
check "a variable varied twice is refused" bad --vary DEPTH=1,2 --vary DEPTH=3
want='never uses \${NOPE}'
check "a variable the job file never uses is refused" bad --env DEPTH=1 --vary NOPE=1,2
want="dio.fio:11: option 'iodepth': sweep sets it for every point"
check "a fio option the job file sets is refused at its line" \
	bad --env DEPTH=1 --vary fio.iodepth=1,2

"$STORSIM" sweep --file /f=256m:written --env RUNTIME=20ms --env DEPTH=4 \
	--vary kernel.dio_caller_comp=false,true --power-loss after:500 \
	--timeline "$out/tl" "$job" >"$out/pl" 2>/dev/null
check "--power-loss and --timeline apply to every point" \
	sh -c "test \$(grep -c '^ *\(false\|true\) |        yes           0' '$out/pl') -eq 2 &&
	       test \$(ls '$out/tl' | grep -c '\.json$') -eq 2 &&
	       python3 -c 'import json,glob,sys; [json.load(open(f)) for f in glob.glob(sys.argv[1] + \"/*.json\")]' '$out/tl'"
finish
