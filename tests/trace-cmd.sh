#!/bin/sh
# 'storsim trace info' and 'storsim trace convert': figures worked by hand
# from the example traces, the replay options in the written iolog, gzip
# on standard input, repeatable output, and clear refusals that leave the
# output file as it was.
. "$top_srcdir/tests/tap.sh"

plan 28
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
ex="$top_srcdir/traces/examples"

trace="$dir/trace"
printf '#!/bin/sh\nexec "%s" trace "$@"\n' "$STORSIM" >"$trace"
chmod +x "$trace"

# fails ERRFILE COMMAND...: the command exits non-zero, stderr in ERRFILE.
fails() {
	err=$1
	shift
	! "$@" 2>"$err"
}

# --- info ---
"$trace" info "$ex/msr.csv" >"$dir/msr.info"
check "info names the format" grep -q '^format:   msr$' "$dir/msr.info"
check "info counts 6 records from 6 lines" \
	grep -q '^records:  6 (from 6 lines; 0 events not replayed)$' "$dir/msr.info"
files=$(awk '/^files:/ { n = $2; next } n-- > 0 { printf "%s ", $2 }' "$dir/msr.info")
check "info lists the 3 volumes in order of appearance (got $files)" \
	test "$files" = "hm_0 prxy_0 hm_1 "
# 4096 + 1024 + 4096 written, 8192 + 65536 + 512 read
check "info sums reads (3, 74240 bytes)" \
	grep -Eq '^ +read +3 +74240$' "$dir/msr.info"
check "info sums writes (3, 9216 bytes)" \
	grep -Eq '^ +write +3 +9216$' "$dir/msr.info"
# 30000 ticks of 100 ns from the first record to the last
check "info gives the time span (3 ms)" \
	grep -q '^time:     0.003000000 s' "$dir/msr.info"
# sizes 512, 1024, 4096 x2, 8192, 65536
check "info puts 2 writes in [4 KiB, 8 KiB)" \
	grep -Eq '^ +\[4 KiB, 8 KiB\) +0 +2 +0$' "$dir/msr.info"
check "info puts the 64 KiB read in [64 KiB, 128 KiB)" \
	grep -Eq '^ +\[64 KiB, 128 KiB\) +1 +0 +0$' "$dir/msr.info"

"$trace" info "$ex/blktrace.bin" >"$dir/bin.info"
check "info on blktrace counts 6 of 12 records replayed" \
	grep -q '^records:  6 (from 12 records; 6 events not replayed)$' "$dir/bin.info"
check "info on blktrace shows the flush" grep -Eq '^ +flush +1 +0$' "$dir/bin.info"

gzip -c "$ex/spc.csv" >"$dir/spc.csv.gz"
"$trace" info - <"$dir/spc.csv.gz" >"$dir/gz.info"
check "info reads gzip from standard input" \
	grep -q '^records:  5 (from 5 lines' "$dir/gz.info"

check "--format forces a reader: disksim read as spc is refused" \
	fails "$dir/forced.err" "$trace" info --format spc "$ex/disksim.trace"
check "... naming file, line 1 and the field count" \
	grep -q "disksim.trace:1: 1 fields; expected 5 (ASU,LBA,Size,Opcode,Timestamp)" \
	"$dir/forced.err"

# --- convert ---
"$trace" convert "$ex/disksim.trace" "$dir/a.iolog"
"$trace" convert "$ex/disksim.trace" "$dir/b.iolog"
check "convert is repeatable to the byte" cmp -s "$dir/a.iolog" "$dir/b.iolog"
check "convert writes a v3 header and adds each device" \
	sh -c 'head -5 "$1" | tr "\n" "|" | grep -qx "fio version 3 iolog|0 dev0 add|0 dev0 open|0 dev0 read 1048576 4096|1 dev0 write 2097152 8192|"' - "$dir/a.iolog"
check "convert closes every file at the end" \
	sh -c 'tail -2 "$1" | tr "\n" "|" | grep -qx "249 dev0 close|249 dev1 close|"' - "$dir/a.iolog"

"$trace" convert --replay_no_stall "$ex/msr.csv" "$dir/nostall.iolog"
"$trace" convert --replay_no_stall=1 "$ex/msr.csv" "$dir/nostall1.iolog"
# 1 header, 3 x (add, open), 6 I/Os, 3 closes: 16 lines, 15 at time 0
check "--replay_no_stall writes every time as 0" \
	test "$(grep -c '^0 ' "$dir/nostall.iolog")" = 15
check "--replay_no_stall=1 is the same as the bare flag" \
	cmp -s "$dir/nostall.iolog" "$dir/nostall1.iolog"
"$trace" convert --replay_time_scale=200 "$ex/msr.csv" "$dir/fast.iolog"
check "--replay_time_scale=200 halves the times (last at 1500 us)" \
	grep -q '^1500 prxy_0 read 512 512$' "$dir/fast.iolog"
"$trace" convert --replay_skip=write --replay_redirect=/dev/nvme0n1 \
	"$ex/msr.csv" "$dir/reads.iolog"
check "--replay_skip=write keeps the 3 reads only" \
	test "$(grep -c ' read ' "$dir/reads.iolog"),$(grep -c ' write ' "$dir/reads.iolog")" = "3,0"
# header, add, open, 3 reads, close: 6 lines name the device, 7 in all
check "--replay_redirect sends everything to one file" \
	test "$(grep -c ' /dev/nvme0n1 ' "$dir/reads.iolog"),$(wc -l <"$dir/reads.iolog")" = "6,7"
"$trace" convert --replay_scale=2 --replay_align=4096 "$ex/spc.csv" "$dir/scaled.iolog"
# LBA 303567 x 512 / 2 = 77713152 = 18972.94 x 4096, aligned down to
# 77709312; 55590 x 512 / 2 = 14231040 = 3474.38 x 4096, down to 14229504
check "--replay_scale then --replay_align move the offsets" \
	sh -c 'grep -q " asu0 write 77709312 3584$" "$1" &&
		grep -q " asu1 write 14229504 3072$" "$1"' - "$dir/scaled.iolog"

# --- refusals ---
printf 'fio version 2 iolog\nf add\nf read 0 4096\nf read zz 4096\n' >"$dir/bad.iolog"
echo keep >"$dir/out.iolog"
check "a bad trace fails the conversion" \
	fails "$dir/bad.err" "$trace" convert "$dir/bad.iolog" "$dir/out.iolog"
check "... with file, line and field" \
	grep -q "bad.iolog:4: field 'offset': 'zz' is not a number" "$dir/bad.err"
check "... and leaves the output as it was" \
	test "$(cat "$dir/out.iolog")" = keep
check "a missing trace is refused" \
	fails /dev/null "$trace" info "$dir/absent"
check "an unknown subcommand is refused" \
	fails /dev/null "$trace" frob
check "an unknown output format is refused" \
	fails /dev/null "$trace" convert --to csv "$ex/msr.csv" "$dir/x"
finish
