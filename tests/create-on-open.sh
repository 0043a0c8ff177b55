#!/bin/sh
# Description: create_on_open=1. fio 3.33 lays out no file with it: a
# file the job would create is created empty as it is first opened, so a
# read job fails at its first read (err=5) and a write job extends the
# file as it writes; storsim refuses such a job, naming the file, the
# line and the option. A file that exists already is not touched by the
# option, and the job issues what it issues without it.
. "$top_srcdir/tests/tap.sh"

fio=$(fio333)
plan 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check "a file the job would create is refused at the option's line" \
	refused_job create_on_open "does not exist" '[j]' "filename=/new" \
	rw=read size=64k create_on_open=1

issued() {
	"$STORSIM" run --no-cpu-profile --file=/f=1m:written --name=j \
		--filename=/f --rw=randrw --size=1m "$@" | grep 'issued rwts'
}
with=$(issued --create_on_open=1)
without=$(issued)
check "a file that exists issues the same with it ($with)" \
	test -n "$with" -a "$with" = "$without"

if [ -n "$fio" ]; then
	out=$(cd "$tmp" && "$fio" --name=j --filename=new --rw=read --size=64k \
		--create_on_open=1 2>&1)
	case "$out" in
	*"err= 5"*) ok "fio 3.33 fails a read job on a file it creates empty" ;;
	*) diag "$out"; not_ok "fio 3.33 fails a read job on a file it creates empty" ;;
	esac
else
	ok "fio 3.33 # SKIP fio 3.33 is not installed"
fi
finish
