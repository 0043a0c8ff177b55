#!/bin/sh
# Debian's real fio and blkparse judge storsim's trace code:
# - fio replays the example traces it reads itself (the hand-made iolog v2,
#   fio's own v3, the blktrace binary in both byte orders) with the counts
#   worked by hand from the files;
# - fio replays the iolog v3 that 'storsim trace convert' writes from every
#   example format with the same counts;
# - blkparse, a parser that is not storsim's, reads the blktrace binary to
#   the same I/Os storsim reads, and prints exactly traces/examples/
#   blkparse.txt.
. "$top_srcdir/tests/tap.sh"

command -v fio >/dev/null 2>&1 || skip_all "fio not installed (Debian package fio)"
ex="$top_srcdir/traces/examples"

plan 18
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
trace="$dir/trace"
printf '#!/bin/sh\nexec "%s" trace "$@"\n' "$STORSIM" >"$trace"
chmod +x "$trace"
target="$dir/target"
truncate -s 1G "$target"

# "READS WRITES TRIMS SYNCS" fio reports replaying $1 (more options after).
fio_counts() {
	log=$1
	shift
	fio --name=r --ioengine=null --read_iolog="$log" --replay_no_stall=1 \
		--output-format=json "$@" 2>>"$dir/fio.err" |
		awk -F: '/"total_ios"/ { gsub(/[ ,]/, "", $2); n[++i] = $2 }
			END { print n[1], n[2], n[3], n[4] }'
}

# fio 3.33 drops iolog trim lines ("bad ddir: 2"; fixed in 3.34), so an
# iolog's trims are not compared; a blktrace's discards are replayed.
got=$(fio_counts "$ex/fio-v2.iolog" --replay_redirect="$target" | cut -d' ' -f1,2,4)
check "fio replays fio-v2.iolog: 1 read, 2 writes, 1 sync (got $got)" \
	test "$got" = "1 2 1"
got=$(fio_counts "$ex/fio-v3.iolog" --replay_redirect="$target" | cut -d' ' -f1,2,4)
check "fio replays fio-v3.iolog: 4 reads, 4 writes, 1 sync (got $got)" \
	test "$got" = "4 4 1"
for bin in blktrace.bin blktrace-be.bin; do
	got=$(fio_counts "$ex/$bin" --replay_redirect="$target")
	check "fio replays $bin: 2 reads, 2 writes, 1 trim, 1 sync (got $got)" \
		test "$got" = "2 2 1 1"
done

# Each format converted and replayed: reads, writes and syncs by hand.
: >"$dir/fio.err"
while read -r name want; do
	out="$dir/$name.iolog"
	if ! "$trace" convert --replay_redirect="$target" "$ex/$name" "$out" \
		2>"$dir/err"; then
		not_ok "convert $name: $(cat "$dir/err")"
		continue
	fi
	got=$(fio_counts "$out" | cut -d' ' -f1,2,4)
	check "fio replays $name converted: $want (got $got)" test "$got" = "$want"
done <<EOF
fio-v2.iolog 1 2 1
fio-v3.iolog 4 4 1
blktrace.bin 2 2 1
blktrace-be.bin 2 2 1
blkparse.txt 2 2 1
msr.csv 3 3 0
spc.csv 2 3 0
disksim.trace 3 2 0
EOF

# Without a redirect, a converted iolog names the files of the trace:
# fio replays the v3 example's conversion from the file names it holds.
(cd "$dir" && truncate -s 1M example.img &&
	"$trace" convert "$ex/fio-v3.iolog" own.iolog)
got=$(cd "$dir" && fio_counts own.iolog | cut -d' ' -f1,2,4)
check "fio replays a converted iolog on its own files (got $got)" \
	test "$got" = "4 4 1"

# fio said nothing about the converted logs but for fio 3.33's trim bug
grep -v '^bad ddir: 2$' "$dir/fio.err" >"$dir/complaints"
check "fio printed no complaint about the converted logs" \
	test ! -s "$dir/complaints"

if ! command -v blkparse >/dev/null 2>&1; then
	for i in 1 2 3 4; do
		ok "# SKIP blkparse not installed (Debian package blktrace)"
	done
	finish
fi
blkparse -i - <"$ex/blktrace.bin" >"$dir/le.txt"
blkparse -i - <"$ex/blktrace-be.bin" >"$dir/be.txt"
check "blkparse prints traces/examples/blkparse.txt for blktrace.bin" \
	cmp -s "$dir/le.txt" "$ex/blkparse.txt"
check "blkparse reads the big-endian file as the little-endian one" \
	cmp -s "$dir/le.txt" "$dir/be.txt"

# blkparse's Q events as "op offset length" lines, by fio's rules: F is a
# flush with no data, D a trim, W a write, R a read; N (no data) dropped.
awk '$6 == "Q" {
	rwbs = $7
	if (rwbs ~ /^F/) { print "sync 0 0"; next }
	if ($9 != "+") next
	op = rwbs ~ /^D/ ? "trim" : rwbs ~ /^W/ ? "write" : "read"
	print op, $8 * 512, $10 * 512
}' "$dir/le.txt" >"$dir/blkparse-ios"
awk 'NR > 1 && NF == 5 { print $3, $4, $5 }' \
	"$dir/blktrace.bin.iolog" >"$dir/storsim-ios"
check "storsim reads the I/Os blkparse shows, in order" \
	cmp -s "$dir/blkparse-ios" "$dir/storsim-ios"
check "the binary and its blkparse text convert to the same iolog" \
	cmp -s "$dir/blktrace.bin.iolog" "$dir/blkparse.txt.iolog"
finish
