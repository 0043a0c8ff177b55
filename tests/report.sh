#!/bin/sh
# Description: storsim report and --report: from a result store, Markdown,
# a self-contained HTML page, CSV tables and SVG and PNG plots of the
# right size; the CSV's figures are those of each point's fio JSON; the
# same store gives the same bytes; a refused point is listed with its
# reason; reproduce --report draws the published values beside the
# simulated ones; a directory that is no store is refused.
. "$top_srcdir/tests/tap.sh"
command -v "${STORSIM_GNUPLOT:-gnuplot}" >/dev/null 2>&1 ||
	skip_all "gnuplot is not installed (Debian's gnuplot-nox)"
plan 10
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cat >"$out/w.fio" <<'JOB'
[w]
filename=/f
size=256m
rw=randwrite
bs=4k
direct=1
time_based=1
runtime=100ms
cpus_allowed=0
JOB
"$STORSIM" compare --host axboe-5950x-2023 --file /f=256m:written \
	--strategies irq-wq,polled,sqpoll-polled --depths 1,8 --results "$out/st" \
	--report "$out/rep" "$out/w.fio" >/dev/null 2>"$out/err"
check "compare --report writes the report" test -s "$out/rep/report.html"
plots="iops bandwidth latency cpu-stages layers ctx"
check "every plot as SVG and PNG, of the size the page gives it" \
	python3 -c '
import re, struct, sys
d, plots = sys.argv[1], sys.argv[2].split()
html = open(d + "/report.html").read()
imgs = re.findall(r"<img class=\"plot\" src=\"data:image/svg\+xml;base64,[A-Za-z0-9+/=]+\" width=\"(\d+)\" height=\"(\d+)\"", html)
assert len(imgs) == len(plots), (len(imgs), plots)
for (w, h), p in zip(imgs, plots):
    svg = open(d + "/" + p + ".svg").read()
    m = re.search(r"<svg[^>]*width=\"(\d+)\" height=\"(\d+)\"", svg, re.S)
    assert m and m.groups() == (w, h), (p, m and m.groups(), w, h)
    assert svg.count("<path") > 10, p
    png = open(d + "/" + p + ".png", "rb").read()
    assert png[:8] == b"\x89PNG\r\n\x1a\n", p
    assert struct.unpack(">II", png[16:24]) == (int(w), int(h)), p
' "$out/rep" "$plots"
check "the page fetches nothing: no script, no external address" \
	sh -c "! grep -Eq '<script|src=\"https?:|<link' '$out/rep/report.html'"
check "points.csv: a row per point, IOPS and p99 as in the point's fio JSON" \
	python3 -c '
import csv, glob, json, sys
d = sys.argv[1]
rows = list(csv.DictReader(open(d + "/rep/points.csv")))
assert len(rows) == 6, len(rows)
for r, f in zip(rows, sorted(glob.glob(d + "/st/0*.json"))):
    doc = json.load(open(f))
    assert doc["point"]["variables"] == {"strategy": r["strategy"], "iodepth": r["iodepth"]}
    assert r["status"] == doc["status"], (r, doc["status"])
    if doc["status"] != "done":
        continue
    fio = sum(j["write"]["iops"] for j in doc["report"]["jobs"])
    # fio divides by its runtime in whole ms
    assert abs(float(r["iops"]) / fio - 1) < 0.02, (r["iops"], fio)
    p99 = doc["report"]["jobs"][0]["write"]["clat_ns"]["percentile"]["99.000000"]
    assert abs(float(r["clat_p99_us"]) * 1000 - p99) <= 5, (r["clat_p99_us"], p99)
' "$out"
check "the refused strategy is listed as not modelled, with why" \
	sh -c "grep -q 'sqpoll-polled iodepth=1: not modelled: .*SQPOLL' '$out/rep/report.md' &&
	       test \$(grep -c ',refused,' '$out/rep/points.csv') -eq 2"
check "cpu-by-stage.csv: a row per point that ran, polling shows up" \
	python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 4, len(rows)
polled = [r for r in rows if r["strategy"] == "polled"][0]
wq = [r for r in rows if r["strategy"] == "irq-wq"][0]
assert float(polled["iopoll_spin"]) > 0 and float(wq["iopoll_spin"]) == 0
assert float(wq["ctx_switch"]) > 0
' "$out/rep/cpu-by-stage.csv"
"$STORSIM" report -o "$out/rep2" "$out/st" >/dev/null
check "the same store, reported again, gives the same bytes" \
	diff -r "$out/rep" "$out/rep2"
"$STORSIM" report "$out/rep" >/dev/null 2>"$out/err"
rc=$?
check "a directory that holds no store is refused" \
	sh -c "test $rc -eq 1 && grep -q 'not a result store' '$out/err'"

# A reproduction of two rows of the no-copy bvec table.
mkdir -p "$out/traces/small"
python3 -c '
import json, sys
e = json.load(open(sys.argv[1]))
e["id"] = "small"
e["rows"] = [r for r in e["rows"] if r["bs"] in (4096, 65536)]
e["workload"]["runtime"] = 2
json.dump(e, open(sys.argv[2], "w"))
' "$top_srcdir/traces/nocopy-bvec/experiment.json" "$out/traces/small/experiment.json"
STORSIM_TRACES_PATH="$out/traces" "$STORSIM" reproduce --report "$out/rr" small \
	>/dev/null 2>"$out/rr.err" || cat "$out/rr.err" >&2
check "reproduce --report: the published values beside the simulated ones" \
	python3 -c '
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1] + "/small-published-vs-simulated.csv")))
e = json.load(open(sys.argv[2]))
assert [r["bs"] for r in rows] == ["4096", "65536"], rows
for r, pub in zip(rows, e["rows"]):
    for v in ("old", "new"):
        assert float(r[v + "_published"]) == pub[v], (r, pub)
        assert abs(float(r[v + "_simulated"]) / pub[v] - 1) < 0.1, r
' "$out/rr" "$out/traces/small/experiment.json"
check "and its plots: published against simulated, the mechanism" \
	sh -c "test -s '$out/rr/small-published-vs-simulated.png' &&
	       test -s '$out/rr/small-mechanism.svg' &&
	       grep -q 'small-published-vs-simulated.svg' '$out/rr/report.md'"
finish
