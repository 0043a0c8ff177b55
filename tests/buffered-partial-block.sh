#!/bin/sh
# Description: a buffered write that covers only part of a block that is
# not in the page cache reads the block first and waits for it
# (__iomap_write_begin, __block_write_begin); past the end of the file or
# over an unwritten extent the block is zeroed instead, with no read. The
# writer may wait twice in one write (its first and its last block), in a
# synchronous call (psync, libaio's io_submit) and in an io-wq worker
# (io_uring punts the write it must not block in). Each case counts the
# device's reads; each count is compared with Linux's own, from a loop
# device's /sys/block/*/stat under the installed fio 3.33, with ext4 made
# on it (4 KiB blocks), when that can be set up (root, losetup, mkfs.ext4). On Linux
# 6.18 it counted what storsim counts, case by case: 4096, 4096, 1365,
# 4096, 4096, 2049, 2049, 2049, 0, and on the raw device 4096 and 4096. Also: random offsets are multiples of
# the block size where the region is not a whole number of blocks (bs=6k
# over 16 MiB), as fio's b * blockalign.
. "$top_srcdir/tests/tap.sh"

# the file (MiB, written or unwritten) | fio options | the device's reads
# (Linux may add a read or two of metadata)
cases='16 written|rw=randwrite bs=1k ioengine=psync|4096 4098
16 written|rw=write bs=2k ioengine=psync|4096 4098
16 written|rw=randwrite bs=6k ioengine=psync|1365 1367
16 written|rw=randwrite bs=1k ioengine=io_uring iodepth=8|4096 4098
16 written|rw=randwrite bs=1k ioengine=libaio iodepth=8|4096 4098
32 written|rw=write bs=8k offset=2k ioengine=psync|2049 2051
32 written|rw=write bs=8k offset=2k ioengine=io_uring iodepth=4|2049 2051
32 written|rw=write bs=8k offset=2k ioengine=libaio iodepth=4|2049 2051
16 unwritten|rw=randwrite bs=1k ioengine=psync|0 2'
raw='512 1k'
ncases=$(printf '%s\n' "$cases" | wc -l)
plan $((2 * ncases + 4 + 1))
tmp_with_loop
mnt=
trap '[ -n "$mnt" ] && umount "$mnt"; [ -n "$loop" ] && losetup -d "$loop"; rm -rf "$tmp"' EXIT

# args OPTIONS...: fio's options, as command-line arguments
args() {
	for a in "$@"; do printf -- '--%s ' "$a"; done
}

# sim_reads FILE_MIB STATE OPTIONS...: storsim's device reads for the job
# on a file of ext4
sim_reads() {
	mib=$1 state=$2
	shift 2
	# shellcheck disable=SC2046
	"$STORSIM" run --output-format=json --device=nvme0n1=nand-nvme \
		--mount=/data=ext4:nvme0n1 --file="/data/f=${mib}m:$state" \
		--name=w --filename=/data/f --size=16m --end_fsync=1 \
		$(args "$@") 2>"$tmp/err" >"$tmp/j" || { cat "$tmp/err" >&2; return 1; }
	python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["disk_util"][0]["read_ios"])' "$tmp/j"
}

# linux_reads FILE_MIB STATE OPTIONS...: the loop device's reads for the
# same job on a file of the ext4 on it, mounted again first so that none
# of the file is cached (fio's invalidate=1 leaves pages still in a CPU's
# LRU batch; dropping every cache of the machine would disturb tests
# running beside this one)
linux_reads() {
	mib=$1 state=$2
	shift 2
	rm -f "$mnt/f"
	if [ "$state" = written ]; then
		"$fio" --name=lay --filename="$mnt/f" --size="${mib}m" --rw=write \
			--bs=1m --end_fsync=1 >/dev/null 2>&1 || return 1
	else
		fallocate -l "${mib}m" "$mnt/f" || return 1
	fi
	umount "$mnt" && mount "$loop" "$mnt" || return 1
	# shellcheck disable=SC2046
	loop_ios reads "$fio" --name=w --filename="$mnt/f" --size=16m \
		--end_fsync=1 $(args "$@")
}

fio=$(fio333)
if [ -n "$fio" ] && command -v mkfs.ext4 >/dev/null && loop_attach 128m &&
	mkfs.ext4 -q -b 4096 "$loop" && mkdir "$tmp/mnt" && mount "$loop" "$tmp/mnt"; then
	mnt=$tmp/mnt
fi
while IFS='|' read -r file opts range <&3; do
	lo=${range% *} hi=${range#* }
	# shellcheck disable=SC2086
	got=$(sim_reads $file $opts)
	check "storsim, ext4, $file MiB file, $opts: $lo-$hi device reads (${got:-none})" \
		test -n "$got" -a "${got:-0}" -ge "$lo" -a "${got:-0}" -le "$hi"
	if [ -z "$mnt" ]; then
		ok "Linux, $opts # SKIP no fio 3.33, root, loop device or mkfs.ext4"
		continue
	fi
	# shellcheck disable=SC2086
	k=$(linux_reads $file $opts)
	check "Linux under fio 3.33, ext4, $file MiB file, $opts: $lo-$hi device reads (${k:-none})" \
		test -n "$k" -a "${k:-0}" -ge "$lo" -a "${k:-0}" -le "$hi"
done 3<<EOF
$cases
EOF
if [ -n "$mnt" ]; then
	umount "$mnt" && mnt=
fi

# The raw device: its cache's blocks are 4 KiB (set_init_blocksize), its
# last close writes the 16 MiB back.
for bs in $raw; do
	"$STORSIM" run --output-format=json --device=nvme0n1=nand-nvme \
		--name=w --filename=/dev/nvme0n1 --size=16m --rw=randwrite \
		--bs="$bs" --ioengine=psync 2>/dev/null >"$tmp/j"
	got=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["disk_util"][0]["read_ios"])' "$tmp/j")
	check "storsim, raw device, random $bs writes over 16 MiB: 4096 device reads (${got:-none})" \
		test "${got:-0}" = 4096
	if [ -z "$loop" ] || [ -n "$mnt" ]; then
		ok "Linux, raw device, bs=$bs # SKIP no fio 3.33, root or loop device"
		continue
	fi
	k=$(loop_ios reads "$fio" --name=w --filename="$loop" --size=16m \
		--rw=randwrite --bs="$bs" --ioengine=psync)
	check "Linux under fio 3.33, raw device, random $bs writes over 16 MiB: 4096 device reads (${k:-none})" \
		test "${k:-0}" = 4096
done

# Offsets of random 6 KiB writes over 16 MiB, which is not a whole number
# of them: multiples of 6144, the last block at 16766976 (fio 3.33's
# write_iolog of the same job gives the same).
"$STORSIM" run --device=nvme0n1=nand-nvme --name=w --filename=/dev/nvme0n1 \
	--size=16m --rw=randwrite --bs=6k --direct=1 \
	--write_iolog="$tmp/log" >/dev/null 2>&1
got=$(awk '$3 == "write" { n++; if ($4 % 6144) bad++; if ($4 > max) max = $4 }
	END { print n, bad + 0, max }' "$tmp/log")
check "storsim, random 6 KiB writes over 16 MiB: 2730 writes, none off a 6144-byte boundary, the last at 16766976 ($got)" \
	test "$got" = "2730 0 16766976"
finish
