#!/bin/sh
# Description: fio's terse output (--output-format=terse, --minimal).
# Every field of storsim's terse line is the figure its own JSON document
# gives for the same run (both printed by one run with terse,json), each
# terse version has fio's fields in fio's number formats (the shape of
# every field, compared with the installed fio 3.33 on the same null-engine
# jobs), the formats come out in fio's order, and bad options are refused.
. "$top_srcdir/tests/tap.sh"

fio=$(fio333)
have_fio=no
[ -n "$fio" ] && have_fio=yes

plan 12
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One run on the simulated NVMe (a disk in the line), mixed directions.
"$STORSIM" run --no-cpu-profile --output-format=terse,json --name=d \
	--filename=/f --size=8m --rw=randrw --bs=4k --ioengine=libaio \
	--direct=1 --iodepth=8 --description='mixed run' >"$tmp/both" 2>&1
check "terse,json: one terse line, then the JSON document" \
	sh -c "sed -n 1p '$tmp/both' | grep -q '^3;' && sed -n 2p '$tmp/both' | grep -qx '{'"

cat >"$tmp/consistent.py" <<'PYEOF'
import json, sys
text = open(sys.argv[1]).read()
line, doc = text.split("\n", 1)
f = line.split(";")
j = json.loads(doc)
job = j["jobs"][0]
bad = []

def want(i, expect, what):
    if f[i] != expect:
        bad.append("%s: field %d is %r, JSON says %r" % (what, i + 1, f[i], expect))

def lat(i, o, what):
    want(i, "%d" % (o["min"] // 1000), what + " min")
    want(i + 1, "%d" % (o["max"] // 1000), what + " max")
    want(i + 2, "%.6f" % (o["mean"] / 1000), what + " mean")
    want(i + 3, "%.6f" % (o["stddev"] / 1000), what + " stddev")

want(0, "3", "version"); want(1, j["fio version"], "fio version")
want(2, job["jobname"], "jobname"); want(3, str(job["groupid"]), "groupid")
want(4, str(job["error"]), "error")
i = 5
for d in ("read", "write"):
    o = job[d]
    want(i, str(o["io_kbytes"]), d + " KiB")
    want(i + 1, str(o["bw"]), d + " bw")
    want(i + 2, str(int(o["iops"])), d + " iops")
    want(i + 3, str(o["runtime"]), d + " runtime")
    lat(i + 4, o["slat_ns"], d + " slat")
    lat(i + 8, o["clat_ns"], d + " clat")
    pct = sorted(o["clat_ns"].get("percentile", {}).items(), key=lambda kv: float(kv[0]))
    for k in range(20):
        exp = "%s%%=%d" % (pct[k][0], pct[k][1] // 1000) if k < len(pct) else "0%=0"
        want(i + 12 + k, exp, "%s percentile %d" % (d, k + 1))
    lat(i + 32, o["lat_ns"], d + " lat")
    want(i + 36, str(o["bw_min"]), d + " bw min")
    want(i + 37, str(o["bw_max"]), d + " bw max")
    want(i + 38, "%.6f%%" % o["bw_agg"], d + " bw agg")
    want(i + 39, "%.6f" % o["bw_mean"], d + " bw mean")
    want(i + 40, "%.6f" % o["bw_dev"], d + " bw dev")
    i += 41
want(i, "%.6f%%" % job["usr_cpu"], "usr"); want(i + 1, "%.6f%%" % job["sys_cpu"], "sys")
want(i + 2, str(job["ctx"]), "ctx"); want(i + 3, str(job["majf"]), "majf")
want(i + 4, str(job["minf"]), "minf")
i += 5
for k in ("1", "2", "4", "8", "16", "32", ">=64"):
    want(i, "%3.1f%%" % job["iodepth_level"][k], "depth " + k); i += 1
ns = sum(job["latency_ns"].values())
for n, k in enumerate(("2", "4", "10", "20", "50", "100", "250", "500", "750", "1000")):
    want(i, "%3.2f%%" % (job["latency_us"][k] + (ns if n == 0 else 0)), "lat us " + k); i += 1
for k in ("2", "4", "10", "20", "50", "100", "250", "500", "750", "1000", "2000", ">=2000"):
    want(i, "%3.2f%%" % job["latency_ms"][k], "lat ms " + k); i += 1
for disk in j["disk_util"]:
    for key in ("name", "read_ios", "write_ios", "read_merges", "write_merges",
                "read_ticks", "write_ticks", "in_queue"):
        want(i, str(disk[key]), "disk " + key); i += 1
    want(i, "%3.2f%%" % disk["util"], "disk util"); i += 1
want(i, job.get("desc", ""), "description")
if len(f) != i + 1:
    bad.append("%d fields, expected %d" % (len(f), i + 1))
if not j["disk_util"] or not job["read"]["total_ios"] or not job["write"]["total_ios"]:
    bad.append("the run should have a disk and both directions")
print("\n".join(bad))
sys.exit(1 if bad else 0)
PYEOF
if python3 "$tmp/consistent.py" "$tmp/both" >"$tmp/why" 2>&1; then
	ok "every terse field is the JSON document's figure"
else
	not_ok "every terse field is the JSON document's figure"
	sed 's/^/# /' "$tmp/why" | head -20
fi

"$STORSIM" run --no-cpu-profile --minimal --name=m --ioengine=null --size=1m \
	>"$tmp/minimal" 2>&1
check "--minimal is terse" grep -q '^3;storsim-[^;]*;m;0;0;1024;' "$tmp/minimal"

"$STORSIM" run --no-cpu-profile --output-format=normal,terse --name=n \
	--ioengine=null --size=1m >"$tmp/nt" 2>&1
order=$(awk '/^Starting /{s=NR} /^3;/{t=NR} /^  read:/{r=NR}
	END{print (s && s < t && t < r) ? "ok" : s " " t " " r}' "$tmp/nt")
check "normal,terse: preamble, terse line, then the results ($order)" \
	test "$order" = ok

# The shape of each field: which kind of number it is, in which format.
cat >"$tmp/shape.py" <<'PYEOF'
import re, sys
kinds = [("zero-percentile", r"0%=0"), ("percentile", r"\d+\.\d{6}%=\d+"),
         ("int", r"\d+"), ("float", r"\d+\.\d{6}"), ("pct6", r"\d+\.\d{6}%"),
         ("pct1", r"\d+\.\d%"), ("pct2", r"\d+\.\d\d%")]
out = []
for line in open(sys.argv[1]).read().rstrip("\n").split("\n"):
    for field in line.split(";"):
        for name, rx in kinds:
            if re.fullmatch(rx, field):
                out.append(name)
                break
        else:
            out.append("text")
    out.append("newline")
print(" ".join(out))
PYEOF

while read -r v <&3; do
	set -- --name=s --ioengine=null --size=256k --rw=randrw --bs=4k \
		--description='a b' --output-format=terse "--terse-version=$v"
	if [ "$have_fio" = yes ]; then
		"$fio" "$@" >"$tmp/fio.$v" 2>&1
		"$STORSIM" run --no-cpu-profile "$@" >"$tmp/sim.$v" 2>&1
		python3 "$tmp/shape.py" "$tmp/fio.$v" >"$tmp/fio.$v.shape"
		python3 "$tmp/shape.py" "$tmp/sim.$v" >"$tmp/sim.$v.shape"
		if cmp -s "$tmp/fio.$v.shape" "$tmp/sim.$v.shape"; then
			ok "terse version $v: fio 3.33's fields and formats ($(wc -w <"$tmp/sim.$v.shape") fields)"
		else
			not_ok "terse version $v: fio 3.33's fields and formats"
			diag "fio:     $(cat "$tmp/fio.$v.shape")"
			diag "storsim: $(cat "$tmp/sim.$v.shape")"
		fi
	else
		ok "terse version $v: fio 3.33's fields and formats # SKIP fio 3.33 is not installed"
	fi
done 3<<EOF
2
3
4
5
EOF

refused() {
	desc=$1
	want=$2
	shift 2
	"$STORSIM" run "$@" --name=x --ioengine=null --size=1m >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 1 ] && grep -q -- "$want" "$tmp/err" && [ ! -s "$tmp/out" ]; then
		ok "$desc (exit 1, names the option)"
	else
		not_ok "$desc (exit 1, names the option)"
		diag "exit $rc: $(cat "$tmp/err")"
	fi
}
refused "--terse-version=6 is refused" "option 'terse-version'" \
	--output-format=terse --terse-version=6
refused "--terse-version=1 is refused" "option 'terse-version'" \
	--output-format=terse --terse-version=1
refused "--minimal with --output-format is refused" "option 'minimal'" \
	--minimal --output-format=json
refused "an unknown format is refused" "option 'output-format'" \
	--output-format=terse,csv
finish
