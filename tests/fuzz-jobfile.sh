#!/bin/sh
# Description: the job file reader survives its fuzz corpus (replayed with
# the normal build) and, where clang's libFuzzer exists, 20 seconds of
# fuzzing under ASan and UBSan.
. "$top_srcdir/tests/tap.sh"

corpus="$top_srcdir/tests/fuzz/corpus"
replay="$top_builddir/tests/fuzz/fuzz-jobfile-replay"
fuzzer="$top_builddir/tests/fuzz/fuzz-jobfile"
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT

plan 2
if "$replay" "$corpus" >"$work/replay.log" 2>&1; then
	ok "the seed corpus replays cleanly ($(tail -n 1 "$work/replay.log"))"
else
	not_ok "the seed corpus replays cleanly"
	sed 's/^/# /' "$work/replay.log"
fi
if [ -x "$fuzzer" ]; then
	mkdir "$work/corpus"
	if "$fuzzer" -max_total_time=20 -timeout=10 -rss_limit_mb=2048 \
	    -artifact_prefix="$work/" "$work/corpus" "$corpus" >"$work/fuzz.log" 2>&1; then
		ok "20 s of libFuzzer find no crash ($(grep -c . "$work/fuzz.log") log lines)"
	else
		not_ok "20 s of libFuzzer find no crash"
		tail -n 40 "$work/fuzz.log" | sed 's/^/# /'
		for f in "$work"/crash-* "$work"/leak-* "$work"/timeout-*; do
			[ -f "$f" ] && diag "input $f:" && od -c "$f" | head -20 | sed 's/^/# /'
		done
	fi
else
	ok "libFuzzer run # SKIP configure found no clang with libFuzzer"
fi
finish
