#!/bin/sh
# Debian's fio_jsonplus_clat2csv reads storsim's json+ output: the CSV it
# writes has the buckets and counts of the synthetic run in
# tests/unit/test-output-sample.c (1000 reads, clat 1000..1999 ns; 10
# writes, clat 3 ms), and its own --validate accepts it.
. "$top_srcdir/tests/tap.sh"

sample="$top_builddir/tests/unit/test-output-sample"
command -v fio_jsonplus_clat2csv >/dev/null 2>&1 ||
	skip_all "fio_jsonplus_clat2csv not installed (Debian package fio)"
python3 -c 'import six' 2>/dev/null || skip_all "python3-six not installed"
[ -x "$sample" ] || skip_all "$sample not built"

plan 9
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

check "json+ written" "$sample" json+ "$dir/run.json"
"$sample" json+ "$dir/again.json"
check "same run, same bytes" cmp -s "$dir/run.json" "$dir/again.json"
check "fio_jsonplus_clat2csv accepts it" sh -c \
	'fio_jsonplus_clat2csv "$1" "$2" >/dev/null' - "$dir/run.json" "$dir/lat.csv"
csv="$dir/lat_job0.csv"
check "CSV has read clat columns" \
	grep -q '^nsec, read_slat_ns_count, read_slat_ns_cumulative, read_slat_ns_percentile, read_clat_ns_count' "$csv"

# 1000..1007 ns share one 8 ns bucket, reported at its midpoint 1004.
first=$(sed -n 2p "$csv" | cut -d, -f1,5 | tr -d ' ')
check "first bucket is 1004 ns with 8 reads (got $first)" test "$first" = "1004,8"

# All 1000 reads are counted, and the last read bucket is the 100th
# percentile: 1999 ns is in the 16 ns bucket 1984..1999, midpoint 1992.
last=$(awk -F', ' 'NR > 1 && $5 != "" { row = $1 "," $6 "," $7 } END { print row }' "$csv")
check "last read bucket 1992 ns, cumulative 1000 (got $last)" \
	test "$last" = "1992,1000,1.0"

# 3 ms lands in the 32 us bucket 2981888..3014655, midpoint 2998272.
writes=$(awk -F', ' 'NR > 1 && $14 != "" { print $1 "," $14 }' "$csv")
check "writes in one bucket at 2998272 ns (got $writes)" \
	test "$writes" = "2998272,10"

check "clat2csv --validate agrees" sh -c \
	"fio_jsonplus_clat2csv '$dir/run.json' '$dir/lat.csv' --validate | grep -q 'lat_job0.csv validated'"

if "$sample" jsonplus "$dir/bad.json" 2>"$dir/err"; then
	not_ok "a bad --output-format is refused"
else
	check "a bad --output-format is refused with the option named" \
		grep -q "option 'output-format': unknown format 'jsonplus'" "$dir/err"
fi
finish
