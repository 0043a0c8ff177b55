#!/bin/sh
# Description: a job's files, offsets, directions and sizes are fio's own,
# one for one. fio 3.33 draws a random offset, a mixed job's direction
# (its rwmix cycle), percentage_random's choice, a bsrange or bssplit size,
# a random next file, a file's size (filesize=LOW-HIGH), a zipf, pareto or
# normal rank and a zone each from a
# Tausworthe generator of its own (random_generator=lfsr's blocks from
# its shift register), seeded by the job's thread
# number and randseed, takes the next free block of its random map when
# the one drawn is used, draws the size after the offset and cuts it
# short at a block already done, and keeps a sequential position per
# direction; storsim does the same
# (sim/workloads/fio/fio_taus.c, fio_lfsr.c, fio.c), and names its files as fio does
# (directory=, a list of them, with filename=). Each case runs with the null engine
# after a short sequential job, so that the job compared is fio's thread
# 2, and the file, direction, offset and length of each I/O that fio
# 3.33's write_iolog records must equal storsim's, in order (storsim
# names a file from the root, /j.0.0 for fio's j.0.0). Skipped without
# fio 3.33.
. "$top_srcdir/tests/tap.sh"

fio=$(fio333)
[ -n "$fio" ] || skip_all "fio 3.33 is not installed"

# job options of each case, separated by spaces
cases='rw=randread
rw=randread loops=2
rw=randread randrepeat=0 randseed=1234
rw=randread randseed=1234
rw=randrw loops=2 randseed=1234
rw=randread allrandrepeat=1 randrepeat=0
rw=randread random_generator=tausworthe64
rw=randread bs=6k
rw=randread size=1000k
rw=randwrite norandommap io_size=48m
rw=randread zonemode=strided zonesize=1m zonerange=4m
rw=randread offset=1m size=8m
rw=randrw
rw=randrw rwmixread=70 loops=2
rw=randrw randrepeat=0 randseed=99
rw=rw rwmixread=30
rw=randrw rwmixread=70 norandommap
rw=randread percentage_random=50
rw=randrw percentage_random=30,80
rw=randwrite:4
rw=randrw:4 rw_sequencer=identical
rw=rw zonemode=strided zonesize=1m zonerange=4m
rw=randread bsrange=4k-16k
rw=randrw bsrange=4k-16k
rw=read bsrange=4k-12k
rw=randread bssplit=4k/50:64k/30:16k/20
rw=randwrite bssplit=4k/10:8k/60:128k/30 norandommap
rw=randrw bssplit=4k/50:16k/50,8k/70:32k/30
rw=randread bsrange=4k-16k percentage_random=50
rw=randread nrfiles=4 file_service_type=random
rw=randread nrfiles=3 file_service_type=random:4
rw=randrw nrfiles=2 file_service_type=roundrobin
rw=randread random_distribution=zipf:1.2
rw=randread random_distribution=pareto:0.3:0.7
rw=randread random_distribution=normal:10
rw=randrw random_distribution=zipf:1.1 nrfiles=2
rw=randread random_distribution=zipf:1.2 randrepeat=0 randseed=5
rw=randread random_distribution=pareto:0.5 randseed=11
rw=randread random_distribution=zoned:60/10:30/20:10/70
rw=randrw random_distribution=zoned_abs:60/4m:30/8m:10/4m
rw=randread random_distribution=zoned:60/10:30/20:10/70 randrepeat=0 randseed=3
rw=randread nrfiles=3 filesize=1m-10m
rw=read nrfiles=3 filesize=1m-10m file_service_type=random
rw=randread nrfiles=3 filesize=1m-10m size=16m
rw=read filesize=1m offset=256k
rw=randread nrfiles=2 filesize=1m-4m offset=64k
rw=randread random_generator=lfsr
rw=randrw random_generator=lfsr loops=2
rw=randread random_generator=lfsr bs=6k nrfiles=2
rw=randwrite random_generator=lfsr randrepeat=0 randseed=77
rw=randread directory=d1
rw=randread filename=f directory=d1 random_distribution=zipf:1.2
rw=randread directory=d2:d1 random_distribution=zipf:1.2
rw=randread filename=f:/abs/g directory=d1 random_distribution=zipf:1.2'
ncases=$(printf '%s\n' "$cases" | wc -l)
plan "$ncases"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# relative directory= entries are looked up from here by fio
cd "$out" && mkdir d1 d2 || exit 1

# jobfile LOG OPTION...: the job file of a case, logging to LOG
jobfile() {
	log=$1
	shift
	printf '[global]\nioengine=null\nbs=4k\n[first]\nrw=read\nsize=64k\n[j]\n'
	# 16 MiB unless the case sizes its files itself
	case "$*" in *filesize=*) ;; *) printf 'size=16m\n' ;; esac
	printf '%s\n' "$@"
	printf 'write_iolog=%s\n' "$log"
}

# offsets LOG: file, direction, offset and length of each read or write
# in an iolog v3 (fio spells directory=d1 filename=/x as d1//x)
offsets() {
	awk '$3 == "read" || $3 == "write" { sub("^/", "", $2); gsub("//", "/", $2); print $2, $3, $4, $5 }' "$1"
}

printf '%s\n' "$cases" | while read -r opts; do
	# shellcheck disable=SC2086
	jobfile "$out/fio.log" $opts >"$out/fio.fio"
	# shellcheck disable=SC2086
	jobfile "$out/sim.log" $opts >"$out/sim.fio"
	rm -f "$out/fio.log" "$out/sim.log"
	"$fio" "$out/fio.fio" >/dev/null 2>&1 || diag "fio failed: $opts"
	"$STORSIM" run --no-cpu-profile "$out/sim.fio" >/dev/null 2>"$out/err" ||
		diag "storsim failed: $opts: $(cat "$out/err")"
	offsets "$out/fio.log" >"$out/fio.off"
	offsets "$out/sim.log" >"$out/sim.off"
	check "$opts: storsim's I/Os are fio's ($(wc -l <"$out/fio.off"))" \
		sh -c "test -s '$out/fio.off' && cmp -s '$out/fio.off' '$out/sim.off'"
done
finish
