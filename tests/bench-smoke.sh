#!/bin/sh
# Description: the benchmark behind make bench builds and runs: with tiny
# durations it prints every figure and writes each to JSON as a number
# (their values are not checked: make check is no speed test), runs only
# the parts asked for, and refuses a part it does not know.
. "$top_srcdir/tests/tap.sh"
bench="$top_builddir/tests/bench/bench"
[ -x "$bench" ] || skip_all "tests/bench/bench is not built"
command -v python3 >/dev/null || skip_all "python3 is needed to read the JSON"
plan 5
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
tiny="--evq-seconds=0.01 --evq-reps=1 --evq-sizes=1000,100000 --runtime=1 \
--run-reps=1 --startup-reps=1"

# shellcheck disable=SC2086
if "$bench" $tiny --storsim="$STORSIM" --json="$out/bench.json" \
	>"$out/text" 2>"$out/err"; then
	ok "bench runs every part with tiny durations"
else
	not_ok "bench runs every part with tiny durations"
	diag "$(cat "$out/err")"
fi

missing=
for figure in 'CPUs online, [0-9]+ usable' \
	'^ +1000 +[0-9.]+ M/s +[0-9.]+ M/s +[0-9.]+x +[0-9.]+ M/s +[0-9.]+ MiB' \
	'^ +100000 +[0-9.]+ M/s +[0-9.]+ M/s +[0-9.]+x +[0-9.]+ M/s +[0-9.]+ MiB' \
	'nocopy-bvec bs=4096 new .* M/s +[0-9.]+ +[0-9.]+ MiB' \
	'dio-caller-comp iodepth=16 patched .* M/s +[0-9.]+ +[0-9.]+ MiB' \
	'^  \(the target, 3 M, is (met|not met)(; [0-9.]+ times real fio.s null engine today, where the target was set at 0\.91 times it)?\)$' \
	'fio null engine iodepth=16 .* M/s +[0-9.]+ +[0-9.]+ MiB' \
	'iolog replay, 1 M records, libaio QD32 .* M/s +[0-9.]+ +[0-9.]+ MiB' \
	'^  (fio-[0-9.]+ +[0-9.]+ M IOPS|fio is not on PATH: skipped)' \
	'first workload event +[0-9.]+ ms +peak RSS +[0-9.]+ MiB' \
	'storsim --version, to its exit +[0-9.]+ ms'; do
	grep -Eq -- "$figure" "$out/text" || missing="$missing [$figure]"
done
if [ -z "$missing" ]; then
	ok "the table has every figure"
else
	not_ok "the table has every figure"
	diag "missing:$missing"
	sed 's/^/# /' "$out/text"
fi

check "the JSON has every figure, as a number" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
num = (int, float)
for k in ("cpus_online", "cpus_usable"):
    assert isinstance(d[k], int), k
rows = d["evq"]["sizes"]
assert [r["pending"] for r in rows] == [1000, 100000], rows
for r in rows:
    for impl in ("evq", "binary_heap", "sim_run"):
        assert isinstance(r[impl + "_mevents_per_s"], num), (impl, r)
    assert isinstance(r["peak_rss_kib"], int), r
assert isinstance(d["evq"]["repetitions"], int)
for run in ("nocopy_bvec_4k_new", "dio_caller_comp_qd16_patched", "fio_null_qd16",
            "replay_1m_libaio_qd32"):
    for k in ("sim_ios_per_wall_s", "events_per_io", "wall_s", "setup_ms", "peak_rss_kib"):
        assert isinstance(d["runs"][run][k], num), (run, k)
if "null_qd16_iops" in d["fio"]:
    assert isinstance(d["fio"]["null_qd16_iops"], num)
    assert d["fio"]["fio_version"].startswith("fio-"), d["fio"]
for k in ("dio_caller_comp_first_event_ms", "storsim_version_ms",
          "dio_caller_comp_peak_rss_kib", "repetitions"):
    assert isinstance(d["startup"][k], num), k
' "$out/bench.json"

"$bench" --parts=startup --startup-reps=1 --storsim="$STORSIM" >"$out/startup"
if grep -q "storsim --version" "$out/startup" &&
   ! grep -Eq "Event queue|Simulated runs" "$out/startup"; then
	ok "--parts=startup runs the start-up part only"
else
	not_ok "--parts=startup runs the start-up part only"
fi

"$bench" --parts=evq,bogus >"$out/bad" 2>&1
status=$?
if [ $status -eq 1 ] && grep -q "'bogus' is not" "$out/bad"; then
	ok "an unknown part is refused with exit status 1"
else
	not_ok "an unknown part is refused with exit status 1 (got $status)"
fi
finish
