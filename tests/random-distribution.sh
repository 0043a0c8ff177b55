#!/bin/sh
# Description: fio's random_distribution picks blocks by the same law in
# storsim as in fio 3.33: 16384 random 4 KiB reads of a 64 MiB region,
# logged with their offsets (log_offset=1), touch about as many distinct
# blocks, and the hottest 1% and 10% of blocks take about the same share
# of the reads (zipf, pareto, normal:0, zoned, zoned_abs, a zipf center,
# uniform, normal with a deviation). The figures are compared with the
# installed fio's when it is 3.33, else with what it printed when this
# test was written. (zipf, pareto and normal draw fio's own numbers, so
# for them the figures are equal; tests/offsets-vs-fio.sh compares the
# offsets themselves.)
. "$top_srcdir/tests/tap.sh"

# distribution | fio 3.33's distinct blocks | top 1% share | top 10% share
cases='zipf:1.2|2419|0.788|0.952
pareto:0.2|5142|0.527|0.783
normal:0|5387|0.088|0.554
zoned:60/10:30/20:10/70|5702|0.106|0.625
zoned_abs:60/4m:30/8m:10/52m|4436|0.144|0.758
zipf:1.2:0.5|2419|0.788|0.952
random|16384|0.010|0.100
normal:10|5640|0.084|0.536'
plan "$(printf '%s\n' "$cases" | wc -l)"
fio=$(fio333)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# law LOG: distinct blocks, top 1% share, top 10% share of the reads
law() {
	python3 -c '
import collections, sys
c = collections.Counter(int(l.split(",")[4]) for l in open(sys.argv[1]))
tot, top = sum(c.values()), sorted(c.values(), reverse=True)
print(len(c), "%.3f" % (sum(top[:163]) / tot), "%.3f" % (sum(top[:1638]) / tot))' "$1"
}

while IFS='|' read -r dist distinct top1 top10 <&3; do
	set -- --name=z --ioengine=null --size=64m --bs=4k --rw=randread \
		--random_distribution="$dist" --log_offset=1
	"$STORSIM" run "$@" --write_lat_log="$tmp/sim" >/dev/null
	got=$(law "$tmp/sim_clat.1.log")
	want="$distinct $top1 $top10"
	if [ -n "$fio" ]; then
		(cd "$tmp" && "$fio" "$@" --write_lat_log=fio >/dev/null 2>&1)
		want=$(law "$tmp/fio_clat.1.log")
	fi
	check "$dist: distinct, top 1%, top 10%: $got (fio${fio:+ now}: $want)" \
		python3 -c '
import sys
g, w = [[float(v) for v in a.split()] for a in sys.argv[1:3]]
sys.exit(not (abs(g[0] - w[0]) <= 0.05 * w[0] and
              abs(g[1] - w[1]) <= 0.02 and abs(g[2] - w[2]) <= 0.02))' "$got" "$want"
done 3<<EOF
$cases
EOF

finish
