#!/bin/sh
# Description: with 64 KiB folios and 4 KiB blocks a buffered write of one
# block creates a folio whose other blocks are not uptodate; a read of
# one of those must read them (filemap_read_folio) instead of waiting for
# a read nobody started, which stalled the run until its 30 s limit. An
# io_uring read gives up with -EAGAIN on such a folio and io-wq reads it.
. "$top_srcdir/tests/tap.sh"

cases='sync rw 1
psync randrw 1
io_uring randrw 8'
plan "$(printf '%s\n' "$cases" | wc -l)"

printf '%s\n' "$cases" | while read -r engine rw depth; do
	out=$("$STORSIM" run --host=power9-64k --device=nvme0n1=nand-nvme \
		--mount=/d=ext4:nvme0n1 --file=/d/f=64m:written --name=j \
		--filename=/d/f --ioengine="$engine" --iodepth="$depth" --rw="$rw" \
		--bs=4k --direct=0 --time_based=1 --runtime=10ms 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -q "err= 0"
	check "$engine $rw: reads of written-to folios finish (exit $rc)" \
		test $rc -eq 0 -a $? -eq 0
done
finish
