#!/bin/sh
# Description: storsim reads option values as the installed fio does. Each
# case goes to "fio --debug=parse --parse-only", whose "out=" is the value
# fio parsed (bytes, counts, microseconds), and to storsim's parser; the
# two must agree, or both must reject the value. Cases where fio silently
# misreads a value (fractions, unknown units, negative sizes), and storsim
# stops instead, are in the unit tests, not here; so is "(expr)"
# arithmetic, which Debian's fio package is built without
# (CONFIG_ARITHMETIC needs bison and flex). --parse-only skips fio's
# fix-ups, so no case depends on them.
. "$top_srcdir/tests/tap.sh"

fio=$(fio333)
[ -n "$fio" ] || skip_all "fio 3.33 is not installed"
drv="$top_builddir/tests/jobs/jobparse"
need_program "$drv"

# option value [extra fio option placed before it]
cases='bs 4k
bs 4K
bs 4kb
bs 4KiB
bs 1m
bs 1MiB
bs 0x1000
bs 512b
bs 4k --kb_base=1000
bs 4KiB --kb_base=1000
bs 1m --kb_base=1000
bs 1MiB --kb_base=1000
size 1g
size 10m
size 1tib
size 1p
size 123k
number_ios 1000
number_ios 1k
iodepth 16
iodepth 0x10
iodepth 1k
rate 1m
rate 500k
rate 1000000
runtime 10
runtime 10s
runtime 100ms
runtime 1m
runtime 1h
runtime 1d
runtime 500us
runtime 3msec
ramp_time 5
ramp_time 2s
thinktime 10
thinktime 1ms
thinktime 2s
startdelay 3
log_avg_msec 500
bs abc
iodepth 0
rwmixread 101
runtime abc'

n=$(printf '%s\n' "$cases" | wc -l)
plan "$n"
printf '%s\n' "$cases" | while read -r opt val extra; do
	want=$("$fio" --debug=parse --parse-only --name=x $extra "--$opt=$val" 2>&1)
	fio_rc=$?
	want=$(printf '%s\n' "$want" | sed -n "/handle_option=$opt,/,\$p" |
		sed -n 's/.*ret=0, out=\([0-9]*\).*/\1/p' | head -n 1)
	got=$("$drv" "--print=$opt" -- --name=x $extra "--$opt=$val" 2>/dev/null)
	my_rc=$?
	desc="$extra --$opt=$val"
	if [ $fio_rc -ne 0 ]; then
		if [ $my_rc -ne 0 ]; then ok "$desc: both reject"
		else not_ok "$desc: fio rejects, storsim reads $got"; fi
	elif [ $my_rc -ne 0 ]; then
		not_ok "$desc: fio reads $want, storsim rejects"
	elif [ "$got" = "$want" ]; then
		ok "$desc = $got"
	else
		not_ok "$desc: fio reads $want, storsim $got"
	fi
done
