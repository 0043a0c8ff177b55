#!/bin/sh
# Description: jobs on real files get fio's files and fio's I/Os.
# filesize=, size= and loops=: fio 3.33's setup_files gives a file whose size lies outside
# filesize=LOW-HIGH (a file it creates has none) LOW or a size drawn
# between them, whether size= is given or not (the null engine's files
# have size/nrfiles, which stands when it is in the range); size= then
# caps the job's bytes at what the files hold. do_io ends a round at
# size= only for I/Os that queue() leaves queued (libaio, io_uring): a
# synchronous engine's round goes on until its files are done, and the
# last round makes up the job's size x loops. percentage_random: a
# sequential pick that runs off the end of the file takes a random block
# and leaves it free in the random map (IO_U_F_BUSY_OK), so a later
# random pick can land on it again. offset=N% is of the size a file had
# before the job laid it out, 0 for a new one, and of its size from the
# second round on (a file the job creates is laid out to size= past the
# first round's start, whatever offset= bytes came after the N%), where an
# I/O that would end past the end of the file
# ends the file's pass, checked before the random map shortens it, while
# io_u_fits measures from N% of the laid-out size in every round. A
# random file service draws each round's first file; roundrobin and
# sequential start each round on the file after the last one served,
# also when a round of queued I/Os ends inside that file's turn or pass;
# a zipf, pareto or normal one passes over a file it closed while I/Os
# on it were in flight (fio_file_closing) until they are reaped. A zipf,
# pareto or normal pick in the last range of a file whose size is not a whole
# number of ranges does not fit, and ends the file's pass; the ranges
# cover io_size from a strided zone's start, not the zone, so such a job
# ends at its first pick past the region (18 reads). rw=read:-N steps
# back, from the region's end once past its start. Without a random map
# verify reads back by offset what no later write overlapped, even in
# part (log_io_piece's tree). A zoned pick with
# random_generator=lfsr takes the register's next block of the whole file
# from the zone's start, so past the region it ends the pass (3 reads). A random job's
# sequential step into a file's partial last block does not fit and ends
# the pass (59 writes of a 341 KiB file with rw=randwrite:2), where one
# past the end of the file takes a random block. write_iolog: fio logs
# a sync with the offset its io_u held from its last I/O (__get_io_u
# clears the length, not the offset), so with a synchronous engine a sync
# line carries the offset of the write before it: "sync 53248 0", or
# of the pick of a fill that failed since (a write at 340 KiB that does
# not fit in a file of 1m/3 ends its pass and leaves "sync 348160 0").
# keep_running asks after do_verify, whose reads count as bytes done and
# whose clear_io_state leaves no file done: a verify job with io_size=3m
# stops after two rounds (1m written and 1m read back each), and a
# random one whose map ends its pass early (8 KiB writes in a map of 4 KiB
# blocks, 408 KiB) goes round again. bs_is_seq_rand: an I/O whose offset
# came in sequence takes the read sizes, one drawn at random the write
# sizes, whatever its direction, and the fit checks take that size too
# (a 4 KiB write at the last 4 KiB of the file with bs=4k,8k);
# bs_unaligned: a drawn size is not cut to a multiple of the smallest.
# Strided zones over several files: the count of bytes done in the zone
# is the job's, the zone each file's.
# openfiles=N: a done file is closed, and another may open, once its last
# io_u is reaped; a file found busy (-EBUSY) makes do_io reap first when
# I/Os are in flight.
# A non-uniform file service starts a file's pass again where a uniform
# one would have it done: a random pick whose map has run out picks again
# from the fresh map, within the rw=...:N run it belongs to, and a fill
# that fails on a fresh pass is tried again: the next draw may fit (a
# zoned_abs zone past the region, a pick past the end of the file in the
# last strided zone; 48 and 256 writes, where storsim stopped at 3 and 80).
# IO_U_F_BUSY_OK stays on an io_u until its I/O completes, through a
# fill that failed on a file that was done: the random block the next
# file gives it then stays free in the map and is picked again later.
# A sync goes to the next file that is not done. A job whose bytes (or
# number_ios, which counts all loops) are issued with loops= left runs
# one more, empty, round, with its own end_fsync; with io_size= left it
# goes on until number_ios times loops are done (600 reads). A new pass has no last I/O: rw_sequencer=identical repeats
# the region's start. With openfiles=N a file fio has not opened yet is
# busy while N are open (get_next_file: -EBUSY, do_io tries the next)
# until one is done and closed; a sync's file too, and openfiles above 1
# turns strided zones off (fixup_options asks before it cuts openfiles
# down to nrfiles). A strided zone past the end of the file goes back to
# get_start_offset asked then: N% of the laid-out file, or its end under
# file_append (96 I/Os). The random map is of blocks of the smallest size
# of any direction, the job's or not (bsrange=4k-16k,8k-8k: 8 KiB writes
# over a map of 4 KiB blocks end their pass at the first pick past its
# first half, 51 writes). A round of random writes without a map ends at
# io_size= as given, not times loops (libaio: rounds of 256). The random
# map lets an
# I/O at its last block run on
# to the end of the block's 64-bit word (a strided zone's map is the
# zone's, io_u_fits the file's: 16 KiB at 116 KiB in a 128 KiB zone).
# Nor need a random pick lie in its zone: get_next_offset and io_u_fits
# ask only that it starts inside io_size and the file and that a block
# fits, so a direction's blocks larger than the map's, which the search
# for a free one walks through, land past the zone (bs=4k,8k: 80 writes,
# 10 when a pick must be in its zone; the LFSR's too). The draw is over
# zonerange even where that is larger than the file (a pick past io_size
# ends the job at its first read), and a zone smaller than a direction's
# block leaves nothing to draw, which ends the pass (3 I/Os).
# random_generator=lfsr counts blocks of the smallest size, as the map
# does, so with a larger blockalign a block past the region ends the
# pass (fio 3.33 wrote nothing but the end_fsync here). bsrange and
# bssplit each set a direction's smallest and largest size as fio parses
# them, so the later of the two gives them, while a bssplit list still
# draws the sizes, cut down to a multiple of the smallest and to the
# largest: after bssplit=,8k/50:32k/50 a bsrange=4k-16k makes 8 and 16
# KiB writes at multiples of 4 KiB. A listed 2 KiB under bsrange=4k-16k
# comes out as 0, which ends the file's pass (20 writes over three
# files), and so does every draw of a lone size without a percentage,
# whose share fio leaves at 0, once a later bsrange widens the sizes (3
# I/Os, where the first write ends the job); a lone zone without a size
# (zoned:100) is empty in the same way, so every read is at 0. A round
# ends with io_size= less than a block of the largest size of any
# direction left (td_max_bs: bs=4k,64k stops a read job at 256 reads),
# that size from whichever of bsrange and bssplit came last.
# Each
# case runs on real files in a scratch directory, and the file,
# direction, offset and length of every I/O and sync that fio's
# write_iolog records must equal storsim's, in order; a case that asks
# for syncs must log some. Skipped without fio 3.33.
. "$top_srcdir/tests/tap.sh"

fio=$(fio333)
[ -n "$fio" ] || skip_all "fio 3.33 is not installed"

# job options of each case, separated by spaces
cases='ioengine=psync rw=randread nrfiles=3 filesize=1m-10m size=4m
ioengine=psync rw=randread nrfiles=3 filesize=1m-10m size=16m
ioengine=psync rw=randrw nrfiles=5 filesize=256k-2m size=1m
ioengine=psync rw=randread nrfiles=3 filesize=1m size=2m
ioengine=psync rw=randread nrfiles=3 filesize=1m size=2m loops=2
ioengine=psync rw=randwrite nrfiles=3 filesize=1m size=2m loops=3
ioengine=libaio rw=randread nrfiles=3 filesize=1m size=2m loops=2
ioengine=psync rw=randread percentage_random=50 filesize=512k
ioengine=psync rw=randread offset=10% size=1m
ioengine=psync rw=randread offset=10% size=1m loops=2
ioengine=sync rw=write offset=10% offset=64k size=1m loops=3
ioengine=psync rw=read offset=10% offset=64k filesize=512k
ioengine=psync rw=read:-8k size=256k
ioengine=psync rw=write:-4k bs=2k size=256k offset=128k loops=2
ioengine=libaio iodepth=4 rw=read:-12k bs=8k filesize=256k offset=64k
ioengine=psync rw=randwrite norandommap bsrange=4k-16k verify=crc32c size=256k
ioengine=psync rw=randwrite norandommap bs_unaligned bsrange=1k-9k verify=crc32c size=128k
ioengine=psync rw=write:-8k bssplit=4k/50:16k/50 verify=crc32c number_ios=50 size=1m
ioengine=psync rw=randread offset=10% bssplit=4k/50:16k/50 size=1m
ioengine=psync rw=randread nrfiles=3 file_service_type=random:3 loops=3 size=1m
ioengine=psync rw=randread nrfiles=3 random_distribution=pareto:0.5 bssplit=4k/50:16k/50 size=1m
ioengine=psync rw=randread zonemode=strided zonesize=64k zonerange=256k random_distribution=zipf:1.2 size=1m
ioengine=psync rw=randread random_distribution=zoned:50/10:30/30:20/60 random_generator=lfsr size=1m
ioengine=psync rw=randwrite random_distribution=zoned_abs:60/128k:40/512k random_generator=lfsr size=1m
ioengine=psync rw=randwrite:2 size=341k
ioengine=psync rw=randwrite fsync=3 size=64k
ioengine=psync rw=write fdatasync=2 end_fsync=1 size=64k
ioengine=sync rw=randrw fsync=2 size=64k
ioengine=pvsync2 rw=write fsync=1 bs=8k size=64k
ioengine=null rw=randrw nrfiles=5 filesize=256k-2m size=1m
ioengine=null rw=randread nrfiles=3 filesize=1m size=2m
ioengine=pvsync2 rw=randwrite:2 nrfiles=3 size=1m
ioengine=pvsync rw=randwrite:2 nrfiles=3 randseed=11 bssplit=4k/50:16k/50 size=256k
ioengine=sync rw=randwrite:2 nrfiles=3 fsync=3 bs=8k size=1m
ioengine=pvsync2 rw=randrw nrfiles=2 offset_increment=128k fsync=3 size=1m
ioengine=sync rw=randrw norandommap blockalign=8k loops=2 end_fsync=1 size=1m
ioengine=sync rw=randwrite:2 rw_sequencer=identical offset=10% io_size=3m size=1m
ioengine=psync rw=randwrite:2 rw_sequencer=identical zonemode=strided zonesize=128k zoneskip=64k bsrange=4k-16k size=1m
ioengine=pvsync rw=write nrfiles=3 verify=crc32c end_fsync=1 size=1m
ioengine=psync rw=randwrite random_generator=lfsr blockalign=8k end_fsync=1 offset=64k size=1m
ioengine=psync rw=randwrite number_ios=50 loops=2 end_fsync=1 size=1m
ioengine=psync rw=randread number_ios=300 loops=2 io_size=10m size=1m
ioengine=psync rw=randwrite file_append=1 loops=2 size=1m
ioengine=psync rw=randwrite file_append=1 offset=64k size=1m
ioengine=psync rw=randread nrfiles=3 openfiles=2 size=1m
ioengine=psync rw=randwrite nrfiles=4 openfiles=2 fsync=3 size=1m
ioengine=psync rw=randread nrfiles=3 openfiles=2 file_service_type=random loops=2 size=1m
ioengine=psync rw=randwrite zonemode=strided zonesize=128k zoneskip=64k openfiles=2 size=1m
ioengine=psync rw=read offset=10% zonemode=strided zonesize=64k zonerange=192k size=1m
ioengine=psync rw=rw randseed=11 file_append=1 zonemode=strided zonesize=64k zonerange=192k size=1m
ioengine=psync rw=randwrite bsrange=4k-16k,8k-8k size=1m
ioengine=psync rw=randwrite bssplit=,8k/50:32k/50 bsrange=4k-16k size=1m
ioengine=psync rw=randwrite bssplit=2k/10:32k/90 bsrange=4k-16k nrfiles=3 size=1m
ioengine=psync rw=randrw bssplit=4k/50:64k/50,8k bsrange=8k-8k,4k-32k size=1m
ioengine=psync rw=randread random_distribution=zoned:100 size=1m
ioengine=psync rw=randread bs=4k,64k io_size=1040k size=1m
ioengine=psync rw=randread bssplit=4k/50:32k/50 bsrange=4k-16k io_size=1040k size=1m
ioengine=libaio iodepth=4 rw=randwrite norandommap loops=2 size=1m
ioengine=libaio iodepth=4 rw=read:8k file_service_type=normal:20 offset=64k nrfiles=2 overwrite=1 size=1m
ioengine=psync rw=write bs=64k io_size=3m verify=crc32c size=1m
ioengine=sync rw=randwrite rw_sequencer=sequential verify=crc32c bssplit=4k/50:16k/50,8k/100 size=1m
ioengine=psync rw=write:8k bs=4k,8k bs_is_seq_rand=1 size=1m
ioengine=psync rw=randwrite:2 bs=4k,12k bs_is_seq_rand=1 size=1m
ioengine=psync rw=randrw bsrange=3k-10k,2k-7k bs_unaligned bs_is_seq_rand=1 percentage_random=60 size=1m
ioengine=psync rw=randwrite bssplit=3k/50:5k/50 bs_unaligned size=1m
ioengine=psync rw=randread:4 nrfiles=3 file_service_type=pareto:0.2 io_size=2m size=768k
ioengine=psync rw=rw nrfiles=3 file_service_type=zipf:1.5 fsync=5 io_size=3m size=1m
ioengine=psync rw=randwrite file_service_type=normal:20 random_distribution=zoned_abs:60/128k:40/512k size=192k
ioengine=psync rw=randwrite file_service_type=normal:20 zonemode=strided zonesize=64k zonerange=192k size=1m
ioengine=pvsync rw=randwrite zonemode=strided zonesize=128k zoneskip=64k bs=4k,8k size=1m
ioengine=psync rw=randrw zonemode=strided zonesize=128k zoneskip=64k bs=8k,4k size=1m
ioengine=psync rw=randread zonemode=strided zonesize=64k zonerange=192k bs=8k,4k size=1m
ioengine=psync rw=randrw zonemode=strided zonesize=12k bs=4k,8k size=1m
ioengine=psync rw=randwrite random_generator=lfsr zonemode=strided zonesize=100k zoneskip=28k bs=4k,12k size=1m
ioengine=psync rw=randread zonemode=strided zonesize=2m bs=8k,4k size=1m
ioengine=psync rw=randrw zonemode=strided zonesize=4k bs=4k,8k size=1m
ioengine=psync rw=randwrite nrfiles=3 zonemode=strided zonesize=64k zonerange=192k size=1m
ioengine=pvsync rw=read:8k nrfiles=2 zonemode=strided zonesize=12k zoneskip=28k file_service_type=sequential size=1m
ioengine=libaio iodepth=4 rw=randrw nrfiles=4 zonemode=strided zonesize=100k zonerange=32k file_service_type=random bs=8k,4k size=1m
ioengine=io_uring iodepth=4 rw=write nrfiles=3 zonemode=strided zonesize=128k zonerange=32k zoneskip=64k loops=2 size=1m
ioengine=libaio iodepth=4 rw=read nrfiles=4 filesize=256k-512k openfiles=2 size=1m
ioengine=libaio iodepth=8 rw=randwrite nrfiles=5 openfiles=2 file_service_type=roundrobin:2 size=1m
ioengine=libaio iodepth=8 rw=randread nrfiles=5 openfiles=3 bs=8k,4k size=1m
ioengine=io_uring iodepth=4 rw=read:8k file_service_type=sequential loops=3 filesize=512k nrfiles=3
ioengine=libaio iodepth=4 rw=read file_service_type=roundrobin:7 loops=3 filesize=64k nrfiles=3 size=100k'
ncases=$(printf '%s\n' "$cases" | wc -l)
plan "$ncases"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# jobfile LOG OPTION...: the job file of a case
jobfile() {
	log=$1
	shift
	printf '[j]\nbs=4k\ndirectory=files\n'
	printf '%s\n' "$@"
	printf 'write_iolog=%s\n' "$log"
}

# both tools run in $out and name the files files/j.0.N, the names that
# seed zipf and pareto
cd "$out" || exit 1
printf '%s\n' "$cases" | while read -r opts; do
	# shellcheck disable=SC2086
	iologs_of_both jobfile $opts
	iolog_ios "$out/fio.log" >"$out/fio.ios"
	iolog_ios "$out/sim.log" >"$out/sim.ios"
	syncs=$(grep -c sync "$out/fio.ios")
	case "$opts" in
	*sync=*) logged="grep -q sync '$out/fio.ios'" ;;
	*) logged="test -s '$out/fio.ios'" ;;
	esac
	check "$opts: storsim's I/Os are fio's ($(wc -l <"$out/fio.ios"), $syncs syncs)" \
		sh -c "$logged && cmp -s '$out/fio.ios' '$out/sim.ios'"
done
finish
