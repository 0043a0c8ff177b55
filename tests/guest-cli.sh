#!/bin/sh
# `storsim guest` from the command line, without a VM: extract and compare on
# documents written by the real fio (null engine, a fraction of a second) -
# the extractor hands back fio's file byte for byte from a noisy console log,
# the comparison pairs the points - and bad input to all three commands gets
# a message naming the option or file, and exit status 1.
. "$top_srcdir/tests/tap.sh"

storsim=$top_builddir/storsim
command -v fio >/dev/null 2>&1 || skip_all "fio is not installed"
[ -x "$STORSIM" ] || skip_all "$STORSIM was not built"

plan 18
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

for qd in 1 8; do
	fio --name=randread --ioengine=null --rw=randread --bs=4k --size=64m \
		--iodepth=$qd --output-format=json --output="$dir/randread-$qd.json" >/dev/null 2>&1
done
check "fio wrote two JSON documents" test -s "$dir/randread-1.json" -a -s "$dir/randread-8.json"

# The console as the guest's /init writes it, with the tty's "\r\n".
{
	echo "[    0.000000] Linux version 6.1.0"
	echo "storsim-guest: running randread at iodepth 1 for 5 s"
	echo "STORSIM-FIO-BEGIN randread 1"
	cat "$dir/randread-1.json"
	echo "STORSIM-FIO-END randread 1 0"
	echo "[    9.1] random: crng init done"
	echo "STORSIM-FIO-BEGIN randread 8"
	cat "$dir/randread-8.json"
	echo "STORSIM-FIO-END randread 8 0"
} | sed 's/$/\r/' >"$dir/serial.log"

"$storsim" guest extract --serial-log "$dir/serial.log" --expect randread:1:8 --outdir "$dir/out" 2>"$dir/err"
check "extract succeeds on a complete log" test $? -eq 0
check "extract gives back fio's documents unchanged" \
	cmp -s "$dir/out/randread-qd8.json" "$dir/randread-8.json"

"$storsim" guest extract --serial-log "$dir/serial.log" --expect randread:1:8:32 2>"$dir/err"
check "extract fails when a point of the sweep is missing" test $? -eq 1
check "the missing point is named" grep -q "serial.log: no document for randread at iodepth 32" "$dir/err"

"$storsim" guest compare --guest "$dir/out" --sim "$dir/randread-1.json" "$dir/randread-8.json" \
	--json "$dir/report.json" >"$dir/table" 2>"$dir/err"
check "compare of a set with itself succeeds" test $? -eq 0
# Two header lines, then one row per iodepth with three +0.0% differences.
check "every difference of a set with itself is +0.0%" \
	test "$(grep -c '^randread .*+0\.0%.*+0\.0%.*+0\.0%' "$dir/table")" -eq 2

"$storsim" guest compare --guest "$dir/out" --sim "$dir/randread-1.json" >"$dir/table" 2>"$dir/err"
check "compare fails when a point is on one side only" test $? -eq 1

echo "not json" >"$dir/bad.json"
"$storsim" guest compare --guest "$dir/bad.json" --sim "$dir/randread-1.json" >/dev/null 2>"$dir/err"
check "compare fails on a file that is not fio JSON" test $? -eq 1
check "the bad file is named" grep -q "$dir/bad.json: no fio JSON document found" "$dir/err"

# storsim's own results are the other side of the comparison.
"$STORSIM" run --output-format=json --output="$dir/sim.json" --name=randread --rw=randread \
	--bs=4k --ioengine=io_uring --iodepth=4 --direct=1 --filename=/dev/nvme0n1 \
	--number_ios=2000 >/dev/null 2>"$dir/err"
"$storsim" guest compare --guest "$dir/sim.json" --sim "$dir/sim.json" >"$dir/table" 2>>"$dir/err"
check "compare reads the fio JSON of storsim run" grep -q '^randread *4 read ' "$dir/table"

# Bad command lines for `run`, refused before libvirt is touched: the
# arguments, then the message expected on stderr.
touch "$dir/vmlinuz" "$dir/initrd" "$dir/disk.raw"
files="--kernel $dir/vmlinuz --initrd $dir/initrd --disk $dir/disk.raw"
long=$(printf '%0100d' 0)
while IFS='|' read -r args message; do
	# shellcheck disable=SC2086 # the arguments are split on purpose
	"$storsim" guest run $args >/dev/null 2>"$dir/err"
	rc=$?
	if [ $rc -eq 1 ] && grep -qF -- "$message" "$dir/err"; then
		ok "run: $message"
	else
		not_ok "run $args: $message (status $rc: $(cat "$dir/err"))"
	fi
done <<EOF_CASES
--initrd $dir/initrd --disk $dir/disk.raw|option '--kernel': is required
--kernel $dir/none --initrd $dir/initrd --disk $dir/disk.raw|option '--kernel': '$dir/none' is not a file
$files --cache fast|option '--cache': 'fast' is not one of none,
$files --timeout 0|option '--timeout': 0 is not from 1 to 86400 seconds
$files --vcpus 0|option '--vcpus': 0 is not from 1 to 64
$files --root /tmp/$long|option '--root':
$files extra|unexpected argument 'extra'
EOF_CASES
finish
