#!/bin/sh
# Description: none of the 86 job files of Debian's fio-examples is
# rejected as bad input (an option or engine storsim refuses is fine), and
# where fio itself is installed, none that fio 3.33 rejects is accepted.
. "$top_srcdir/tests/tap.sh"

dir=/usr/share/doc/fio/examples
[ -d "$dir" ] || skip_all "$dir is missing (Debian package fio-examples)"
drv="$top_builddir/tests/jobs/jobparse"
need_program "$drv"
fio=$(command -v fio)
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT

# What the examples expect from their environment.
export FIO_DIR=/tmp FIO_BS=4k FIO_RW=randread FIO_IODEPTH=8 S3_KEY=key S3_ID=id \
	POOL=pool CONT=cont GPU_DEV_IDS=0 SWIFT_id=token SSE_KEY=key \
	STORAGE_CLASS=STANDARD

n=0
for f in "$dir"/*.fio; do n=$((n + 1)); done
plan $n
for f in "$dir"/*.fio; do
	name=${f##*/}
	"$drv" "$f" >/dev/null 2>"$out"
	rc=$?
	if [ $rc -eq 1 ]; then
		not_ok "$name: $(head -n 1 "$out")"
	elif [ $rc -eq 0 ] && [ -n "$fio" ] && ! "$fio" --parse-only "$f" >/dev/null 2>&1; then
		not_ok "$name: accepted, but fio --parse-only rejects it"
	elif [ $rc -eq 0 ]; then
		ok "$name parses"
	else
		ok "$name: refused: $(head -n 1 "$out" | cut -c1-120)"
	fi
done
finish
