#!/bin/sh
# Description: write_lat_log, write_bw_log and write_iops_log, with
# log_avg_msec, log_max_value, log_offset and per_job_logs, as storsim
# writes them in its current directory. Checked against storsim's own
# JSON by another route: the per-I/O latency logs hold exactly the samples
# behind clat_ns, slat_ns and lat_ns (count, min, max, mean); each bw line
# is bytes * 10^6 / the I/O's clat; with log_avg_msec the logs have one
# line per window and direction and the bw and iops logs hold the samples
# behind bw_mean and iops_mean; times count from the end of ramp_time. The
# file names for several jobs and clones are the ones fio 3.33 made for
# the same job file (tests/fio-logs-vs-fio.sh compares live). A directory
# that is not there stops the run with the option's name.
. "$top_srcdir/tests/tap.sh"

command -v python3 >/dev/null || skip_all "python3 is needed to read the JSON"

plan 22
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# run NAME JOBFILE-TEXT: run it in $dir/NAME, JSON in $dir/NAME/out.json
run() {
	mkdir -p "$dir/$1"
	printf '%s\n' "$2" > "$dir/$1/job.fio"
	(cd "$dir/$1" && "$STORSIM" run --no-cpu-profile --output-format=json \
		--output=out.json job.fio) 2> "$dir/$1/stderr"
}

# logs NAME: the log files storsim left in $dir/NAME, one per line
logs() {
	(cd "$dir/$1" && ls -- *.log 2>/dev/null) | tr '\n' ' '
}

# check_py DESCRIPTION NAME SCRIPT: run the python SCRIPT in $dir/NAME with
# the job's JSON as `job`, `lines(file)` the parsed log lines.
check_py() {
	if (cd "$dir/$2" && python3 - "$3" <<'PY'
import json, sys
job = json.load(open("out.json"))["jobs"][0]
def lines(name):
    out = []
    for text in open(name):
        f = text.rstrip("\n").split(", ")
        out.append([int(x, 0) for x in f])
    return out
def mean(v):
    return sum(v) / len(v)
def near(a, b):
    return abs(a - b) <= 1e-6 * max(1.0, abs(b))
env = dict(job=job, lines=lines, mean=mean, near=near)
exec(sys.argv[1], env)
sys.exit(0 if env["ok"] else 1)
PY
	); then ok "$1"; else not_ok "$1"; fi
}

common='ioengine=libaio
direct=1
filename=/data/f
size=4m
bs=4k
rw=randrw'

# -- per I/O (log_avg_msec=0) --------------------------------------------
run perio "[global]
$common
iodepth=4
number_ios=300
write_lat_log=lat
write_bw_log=bw
write_iops_log=iops
[j]"
check "per I/O: the run succeeds" test ! -s "$dir/perio/stderr"
check "per I/O: PREFIX_{slat,clat,lat,bw,iops}.1.log, nothing else" \
	test "$(logs perio)" = "bw_bw.1.log iops_iops.1.log lat_clat.1.log lat_lat.1.log lat_slat.1.log "
check_py "per I/O: every line is time, value, ddir, bs, prio with bs 4096, prio 0" perio '
ok = all(len(l) == 5 and l[2] in (0, 1) and l[3] == 4096 and l[4] == 0
         for n in ("lat_slat", "lat_clat", "lat_lat", "bw_bw", "iops_iops")
         for l in lines(n + ".1.log"))'
check_py "per I/O: slat, clat and lat logs hold the JSON samples (N, min, max, mean)" perio '
ok = True
for lat in ("slat", "clat", "lat"):
    for d, name in ((0, "read"), (1, "write")):
        v = [l[1] for l in lines("lat_%s.1.log" % lat) if l[2] == d]
        s = job[name][lat + "_ns"]
        ok &= len(v) == s["N"] == job[name]["total_ios"] and min(v) == s["min"] \
              and max(v) == s["max"] and near(mean(v), s["mean"])'
check_py "per I/O: bw = 4096 * 10^6 / clat of the same I/O; iops lines are 1" perio '
clat, bw, iops = lines("lat_clat.1.log"), lines("bw_bw.1.log"), lines("iops_iops.1.log")
ok = len(clat) == len(bw) == len(iops) == 300 and \
     all(b[1] == 4096 * 10**6 // c[1] and b[0] == c[0] and b[2] == c[2]
         for c, b in zip(clat, bw)) and all(i[1] == 1 for i in iops)'
check_py "per I/O: the JSON bw and iops figures come from the same per-I/O samples" perio '
ok = True
for d, name in ((0, "read"), (1, "write")):
    v = [l[1] for l in lines("bw_bw.1.log") if l[2] == d]
    ok &= job[name]["bw_samples"] == len(v) and near(job[name]["bw_mean"], mean(v)) \
          and job[name]["iops_samples"] == len(v)'
check_py "per I/O: times in ms, never decreasing, within the job's run" perio '
t = [l[0] for l in lines("lat_clat.1.log")]
ok = t == sorted(t) and t[-1] <= job["job_runtime"]'

# log_offset=1 and a synchronous engine (no slat)
run offset "[global]
$common
ioengine=psync
number_ios=64
write_lat_log=o
log_offset=1
[j]"
check "psync: the slat log exists and is empty, as fio's" \
	test -f "$dir/offset/o_slat.1.log" -a ! -s "$dir/offset/o_slat.1.log"
check_py "log_offset=1: six fields, offsets on 4 KiB inside the 4 MiB file" offset '
v = lines("o_clat.1.log") + lines("o_lat.1.log")
ok = len(v) == 128 and all(len(l) == 6 and l[4] % 4096 == 0 and l[4] < 4 << 20
                           and l[5] == 0 for l in v)'

# -- averaged (log_avg_msec) -------------------------------------------------
avg="[global]
$common
iodepth=1
size=64m
time_based
ramp_time=200ms
runtime=1s
write_lat_log=lat
write_bw_log=bw
write_iops_log=iops
log_avg_msec=100"
run avg "$avg
[j]"
check_py "log_avg_msec=100: 1 s after ramp_time, 10 lines per direction at 100 ms steps, bs 0" avg '
ok = True
for n in ("lat_slat", "lat_clat", "lat_lat", "bw_bw", "iops_iops"):
    for d in (0, 1):
        v = [l for l in lines(n + ".1.log") if l[2] == d]
        ok &= [l[0] for l in v] == list(range(100, 1001, 100)) and \
              all(l[3] == 0 and l[4] == 0 for l in v)'
check_py "log_avg_msec=100: the JSON bw and iops samples are the logged windows" avg '
ok = True
for d, name in ((0, "read"), (1, "write")):
    bw = [l[1] for l in lines("bw_bw.1.log") if l[2] == d]
    io = [l[1] for l in lines("iops_iops.1.log") if l[2] == d]
    r = job[name]
    ok &= r["bw_samples"] == len(bw) == 10 and near(r["bw_mean"], mean(bw)) and \
          r["bw_min"] == min(bw) and r["iops_samples"] == len(io) and \
          near(r["iops_mean"], mean(io))'
check_py "log_avg_msec=100: window means lie within the JSON clat min..max, near its mean" avg '
ok = True
for d, name in ((0, "read"), (1, "write")):
    v = [l[1] for l in lines("lat_clat.1.log") if l[2] == d]
    s = job[name]["clat_ns"]
    ok &= all(s["min"] <= x <= s["max"] for x in v) and abs(mean(v) - s["mean"]) < 0.01 * s["mean"]'
run max "$avg
log_max_value=1
[j]"
check_py "log_max_value=1: the largest window line is the JSON clat max" max '
ok = all(max(l[1] for l in lines("lat_clat.1.log") if l[2] == d) == job[n]["clat_ns"]["max"]
         for d, n in ((0, "read"), (1, "write")))'

# -- names: thread numbers, name=, per_job_logs=0 ----------------------------
names="[global]
ioengine=null
size=1m
bs=4k
rw=randrw
number_ios=3
write_lat_log=L
write_bw_log
write_iops_log=I
[ja]
numjobs=2
[jb]
name=other
[jc]
per_job_logs=0
numjobs=2"
run names "$names"
# the file set of fio 3.33 for this job file (run on Debian's fio-3.33)
check "several jobs: fio's file names (clones numbered, name=, per_job_logs=0)" \
	test "$(logs names)" = "I_iops.1.log I_iops.2.log I_iops.3.log I_iops.log L_clat.1.log L_clat.2.log L_clat.3.log L_clat.log L_lat.1.log L_lat.2.log L_lat.3.log L_lat.log L_slat.1.log L_slat.2.log L_slat.3.log L_slat.log ja_bw.1.log ja_bw.2.log jc_bw.log other_bw.3.log "
check "per_job_logs=0: both clones' lines in one file" \
	test "$(wc -l < "$dir/names/jc_bw.log")" -eq 6
run names "$names"
check "per_job_logs=0: a second run appends, as fio; numbered files are rewritten" \
	test "$(wc -l < "$dir/names/jc_bw.log")" -eq 12 -a "$(wc -l < "$dir/names/ja_bw.1.log")" -eq 3

# a relative prefix is taken from storsim's current directory
mkdir "$dir/names/sub"
run rel "[j]
ioengine=null
size=1m
number_ios=2
write_iops_log=../names/sub/r"
check "a relative prefix is relative to the current directory" \
	test "$(wc -l < "$dir/names/sub/r_iops.1.log")" -eq 2

run none "[j]
ioengine=null
size=1m
number_ios=2"
check "a job without log options writes no log file" test -z "$(logs none)"

# -- errors ------------------------------------------------------------------
if run missing "[j]
ioengine=null
size=1m
write_lat_log=$dir/not-there/x"; then
	not_ok "a prefix in a missing directory fails the run"
else
	ok "a prefix in a missing directory fails the run"
fi
check "... with the file, line and option" \
	grep -q "^storsim run: job.fio:4: option 'write_lat_log': cannot create '$dir/not-there/x_slat.1.log': No such file or directory" "$dir/missing/stderr"
: > "$dir/plain"
rc=0
run notdir "[j]
ioengine=null
size=1m
write_bw_log=$dir/plain/x" || rc=$?
check "a prefix under a plain file: exit 1, the option named" \
	test "$rc" -eq 1 -a -n "$(grep "option 'write_bw_log': cannot create .*Not a directory" "$dir/notdir/stderr")"
check "... and no results" test ! -s "$dir/notdir/out.json"

finish
