# TAP helpers for shell tests: source this file, call plan N, then ok/not_ok.
_tap_n=0
_tap_fail=0
plan() { echo "1..$1"; }
ok() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $*"; }
not_ok() { _tap_n=$((_tap_n + 1)); _tap_fail=1; echo "not ok $_tap_n - $*"; }
# check DESCRIPTION COMMAND...: ok when the command succeeds.
check() { local d="$1"; shift; if "$@"; then ok "$d"; else not_ok "$d"; fi; }
diag() { echo "# $*"; }
skip_all() { echo "1..0 # SKIP $*"; exit 0; }
finish() { exit $_tap_fail; }
# bail_out TEXT: stop with a hard error (automake's TAP driver counts it).
bail_out() { echo "Bail out! $*"; exit 99; }
# A test run by hand lacks the environment make check gives it.
[ -n "$STORSIM" ] && [ -n "$top_builddir" ] ||
	bail_out "STORSIM and top_builddir are unset; run it with" \
		"'make check TESTS=tests/NAME.sh', which sets them"
# need_program PATH: the check program PATH, which make check builds.
need_program() {
	[ -x "$1" ] || bail_out "$1 is not built; 'make check TESTS=...' builds it"
}
# fio333: the path of the installed fio if it is fio 3.33, the version the
# expected outputs of the tests were taken from; else nothing.
fio333() {
	local f
	f=$(command -v fio) && "$f" --version 2>/dev/null | grep -q '^fio-3\.33' &&
		echo "$f"
}

# refused_job OPTION TEXT LINE...: storsim run of the job file made of the
# LINEs exits 1, naming the file, the line of OPTION= and OPTION, with
# TEXT (may be empty) in the message.
refused_job() {
	local opt=$1 text=$2 f line out rc
	shift 2
	f=$(mktemp --suffix=.fio)
	printf '%s\n' "$@" >"$f"
	line=$(grep -n "^$opt=" "$f" | cut -d: -f1)
	out=$("$STORSIM" run "$f" 2>&1)
	rc=$?
	rm -f "$f"
	case "$out" in
	*"$f:$line: option '$opt': "*"$text"*) [ "$rc" = 1 ] ;;
	*) diag "exit $rc: $out"; false ;;
	esac
}

# tmp_with_loop: a temporary directory in $tmp, removed at exit, with the
# loop device loop_attach may put in $loop (tests that compare with Linux
# itself).
tmp_with_loop() {
	tmp=$(mktemp -d)
	loop=
	trap '[ -n "$loop" ] && losetup -d "$loop"; rm -rf "$tmp"' EXIT
}
# loop_attach SIZE: a loop device over a new SIZE file in $tmp, in $loop;
# fails, with $loop empty, unless root can set one up.
loop_attach() {
	[ "$(id -u)" = 0 ] && truncate -s "$1" "$tmp/loop.img" &&
		loop=$(losetup -f --show "$tmp/loop.img" 2>/dev/null) || {
		loop=
		return 1
	}
	loop_defaults
}
# loop_defaults: the queue settings a new loop device has, whatever an
# earlier user of the same loopN left (they outlive losetup -d): no I/O
# scheduler, merges on, the largest requests the device takes, a 128 KiB
# readahead window (last: setting max_sectors_kb resets it).
loop_defaults() {
	local q=/sys/block/${loop#/dev/}/queue
	echo none >"$q/scheduler" &&
		echo 0 >"$q/nomerges" &&
		cat "$q/max_hw_sectors_kb" >"$q/max_sectors_kb" &&
		echo 128 >"$q/read_ahead_kb"
}

# iolog_ops LOG: the writes, syncs, reads and trims of a write_iolog, one
# letter each (w, s, r, t), on one line.
iolog_ops() {
	awk '$3 == "write" || $3 == "read" || $3 == "trim" ||
	     $3 == "sync" || $3 == "datasync" {
		printf "%s", $3 == "datasync" ? "s" : substr($3, 1, 1) }
	     END { print "" }' "$1"
}
# iolog_ios LOG: each read, write and sync of a write_iolog as "FILE
# DIRECTION OFFSET LENGTH", FILE without its directory, so that logs of
# runs in different places compare.
iolog_ios() {
	awk '$3 ~ /^(read|write|sync|datasync)$/ {
		sub(".*/", "", $2); print $2, $3, $4, $5 }' "$1"
}
# iologs_of_both JOBFN OPTION...: run one job in fio ($fio) and in
# storsim, from the current directory, where both name its files
# files/j.0.N (storsim mounts its file system at /files): empty files/,
# write each tool's job file with "JOBFN LOG OPTION..." and run it, so
# that their write_iologs are fio.log and sim.log. A tool that fails is
# reported as a diag line.
iologs_of_both() {
	local jobfn=$1 t
	shift
	rm -rf files fio.log sim.log
	mkdir files
	for t in fio sim; do
		"$jobfn" "$PWD/$t.log" "$@" >"$t.fio"
	done
	"$fio" fio.fio >/dev/null 2>&1 || diag "fio failed: $*"
	"$STORSIM" run --no-cpu-profile --mount=/files=xfs:nvme0n1 sim.fio \
		>/dev/null 2>sim.err || diag "storsim failed: $*: $(cat sim.err)"
}
# loop_set KEY VALUE: the loop device's queue/KEY (read_ahead_kb,
# write_cache, ...).
loop_set() {
	echo "$2" >"/sys/block/${loop#/dev/}/queue/$1"
}
# loop_ios reads|writes COMMAND...: the reads or writes the loop device
# completed while COMMAND ran, from /sys/block/loopN/stat; fails, printing
# nothing, when COMMAND does.
loop_ios() {
	local f stat before
	case "$1" in reads) f=1 ;; *) f=5 ;; esac
	shift
	stat=/sys/block/${loop#/dev/}/stat
	before=$(awk -v f="$f" '{print $f}' "$stat")
	"$@" >/dev/null 2>&1 || return 1
	echo $(($(awk -v f="$f" '{print $f}' "$stat") - before))
}
# loop_stat COMMAND...: what the loop device did while COMMAND ran, from
# /sys/block/loopN/stat: "READS READ_MERGES WRITES WRITE_MERGES" (fields
# 1, 2, 5, 6); fails, printing nothing, when COMMAND does.
loop_stat() {
	local stat before after
	stat=/sys/block/${loop#/dev/}/stat
	before=$(awk '{print $1, $2, $5, $6}' "$stat")
	"$@" >/dev/null 2>&1 || return 1
	after=$(awk '{print $1, $2, $5, $6}' "$stat")
	echo "$before $after" | awk '{print $5 - $1, $6 - $2, $7 - $3, $8 - $4}'
}
# in_range VALUE LO-HI: VALUE is a number from LO to HI.
in_range() {
	[ -n "$1" ] && [ "$1" -ge "${2%-*}" ] && [ "$1" -le "${2#*-}" ]
}
# disk_counts JSON: "READS READ_MERGES WRITES WRITE_MERGES" of the first
# disk in a storsim or fio JSON report's disk_util.
disk_counts() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))["disk_util"][0]
print(d["read_ios"], d["read_merges"], d["write_ios"], d["write_merges"])' "$1"
}
# direction FIO_OPTIONS: of "READS READ_MERGES WRITES WRITE_MERGES" on
# stdin, "REQUESTS MERGES" in the direction of the fio options.
direction() {
	case "$1" in
	*rw=read* | *rw=randread*) awk '{print $1, $2}' ;;
	*) awk '{print $3, $4}' ;;
	esac
}
