#!/usr/bin/perl
# Write the example blktrace binary: struct blk_io_trace records (48 bytes,
# fields as in fio's blktrace_api.h) in little-endian order, or big-endian
# with -b (a trace taken on a big-endian machine). Usage:
#   perl make-blktrace.pl [-b] > blktrace.bin
use strict;
use warnings;

my $big = @ARGV && $ARGV[0] eq '-b';
my $e = $big ? '>' : '<';

# __BLK_TA_* actions and BLK_TC_* categories (shifted left by 16)
my ($QUEUE, $GETRQ, $ISSUE, $COMPLETE) = (1, 4, 7, 8);
my %TC = (R => 1, W => 2, F => 4, S => 8, QUEUE => 16, ISSUE => 64,
	  COMPLETE => 128, FS => 256, NOTIFY => 1024, DISCARD => 8192);
sub act { my ($a, @c) = @_; my $m = 0; $m |= $TC{$_} for @c; $a | ($m << 16) }

my $sda = (8 << 20) | 0;	# dev_t as the kernel packs it: major << 20 | minor
my $nvme = (259 << 20) | 1;
my $t0 = 5_000_000_000;		# ns since boot; blkparse prints times from here
my $pid = 4242;

# [sequence, time offset ns, sector, bytes, action, device, pdu]
my @records = (
	# the process-name notify blktrace writes first ("process" notify)
	[0, 0, 0, 0, act(0, 'NOTIFY'), $sda, "fio\0"],
	[1, 0, 2048, 4096, act($QUEUE, 'R', 'QUEUE', 'FS'), $sda],
	[2, 1_000, 2048, 4096, act($GETRQ, 'R', 'QUEUE', 'FS'), $sda],
	[3, 2_000, 2048, 4096, act($ISSUE, 'R', 'ISSUE', 'FS'), $sda],
	[4, 49_000, 4096, 8192, act($QUEUE, 'W', 'S', 'QUEUE', 'FS'), $sda],
	[5, 90_000, 2048, 4096, act($COMPLETE, 'R', 'COMPLETE', 'FS'), $sda],
	# a preflush: fio replays it as a sync with no data
	[6, 120_000, 0, 0, act($QUEUE, 'F', 'W', 'S', 'QUEUE', 'FS'), $sda],
	[7, 150_000, 100, 65536, act($QUEUE, 'DISCARD', 'W', 'QUEUE', 'FS'), $sda],
	# a zero-byte read: fio passes it over
	[8, 170_000, 0, 0, act($QUEUE, 'QUEUE', 'FS'), $sda],
	# a timestamp notify has action 1, as QUEUE does: not an I/O
	[0, 180_000, 0, 0, act(1, 'NOTIFY'), $sda, "\0" x 16],
	[1, 200_000, 1_000_000, 131072, act($QUEUE, 'R', 'QUEUE', 'FS'), $nvme],
	[9, 260_000, 8, 512, act($QUEUE, 'W', 'QUEUE', 'FS'), $sda],
);

binmode STDOUT;
for my $r (@records) {
	my ($seq, $dt, $sector, $bytes, $action, $dev, $pdu) = @$r;
	$pdu //= '';
	print pack("L${e}L${e}Q${e}Q${e}L${e}L${e}L${e}L${e}L${e}S${e}S${e}",
		   0x65617407, $seq, $t0 + $dt, $sector, $bytes, $action, $pid,
		   $dev, 0, 0, length $pdu), $pdu;
}
