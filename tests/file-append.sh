#!/bin/sh
# Description: file_append=1. fio 3.33's get_start_offset is the size a
# file has before the job lays it out: a file the job creates starts at
# 0, as without the option (tests/real-files-vs-fio.sh compares such a
# job's I/Os with fio's, over two rounds, the second of which starts at
# the laid-out end and issues nothing), and a file that exists would be
# extended past its end (extend_file), which storsim refuses, naming the
# file, the line and the option; so does it with the null engine, whose
# files have no end.
. "$top_srcdir/tests/tap.sh"

plan 2

out=$(printf '[j]\nfilename=/f\nrw=write\nsize=64k\nfile_append=1\n' |
	"$STORSIM" run --file=/f=1m - 2>&1)
rc=$?
case "$out" in
*"standard input:5: option 'file_append': '/f' exists (1048576 bytes)"*)
	check "a file that exists is refused at the option's line" test "$rc" = 1 ;;
*) diag "exit $rc: $out"; not_ok "a file that exists is refused at the option's line" ;;
esac

check "the null engine is refused at the option's line" \
	refused_job file_append "no end to append at" '[j]' ioengine=null \
	rw=write size=64k file_append=1
finish
