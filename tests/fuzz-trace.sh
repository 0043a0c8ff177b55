#!/bin/sh
# Description: the trace readers survive their fuzz corpus (the example
# traces and tests/fuzz/corpus-trace, replayed with the normal build) and,
# where clang's libFuzzer exists, 5 seconds of fuzzing under ASan and UBSan
# ('make fuzz-trace-long' runs 10 minutes).
. "$top_srcdir/tests/tap.sh"

replay="$top_builddir/tests/fuzz/fuzz-trace-replay"
fuzzer="$top_builddir/tests/fuzz/fuzz-trace"
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT

plan 2
if "$replay" "$top_srcdir/traces/examples" "$top_srcdir/tests/fuzz/corpus-trace" \
    >"$work/replay.log" 2>&1; then
	ok "the seed corpus replays cleanly ($(tail -n 1 "$work/replay.log"))"
else
	not_ok "the seed corpus replays cleanly"
	sed 's/^/# /' "$work/replay.log"
fi
if [ -x "$fuzzer" ]; then
	mkdir "$work/corpus"
	if "$fuzzer" -max_total_time=5 -timeout=10 -rss_limit_mb=2048 \
	    -artifact_prefix="$work/" "$work/corpus" "$top_srcdir/traces/examples" \
	    "$top_srcdir/tests/fuzz/corpus-trace" >"$work/fuzz.log" 2>&1; then
		ok "5 s of libFuzzer find no crash ($(grep -c . "$work/fuzz.log") log lines)"
	else
		not_ok "5 s of libFuzzer find no crash"
		tail -n 40 "$work/fuzz.log" | sed 's/^/# /'
		for f in "$work"/crash-* "$work"/leak-* "$work"/timeout-*; do
			[ -f "$f" ] && diag "input $f:" && od -c "$f" | head -20 | sed 's/^/# /'
		done
	fi
else
	ok "libFuzzer run # SKIP configure found no clang with libFuzzer"
fi
finish
