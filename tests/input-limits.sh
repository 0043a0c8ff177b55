#!/bin/sh
# Description: the limits of a run's input, each refused with exit status
# 1, the file, line and option, and the limit named, before anything runs
# and without a runaway: jobs in all (fio's FIO_MAX_JOBS, 4096, numjobs
# clones counted), files in all (storsim's 1000000), a job-file line (fio's
# 8192-byte line buffer) and its ${VAR} expansion (OPT_LEN_MAX), the
# nesting of a size expression (100), the engines' queue depths (io_uring's
# IORING_MAX_ENTRIES, libaio's fs.aio-max-nr), the random maps of a run
# (1 GiB; the hint it gives works). Each is accepted at the limit.
. "$top_srcdir/tests/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# refused TEXT ARGS...: storsim run ARGS exits 1 within 10 s, saying TEXT.
refused() {
	text=$1
	shift
	timeout 10 "$STORSIM" run --parse-only "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" = 1 ] && grep -qF -- "$text" "$tmp/err" || {
		diag "exit $rc: $(head -c 300 "$tmp/err")"
		false
	}
}
accepted() {
	timeout 30 "$STORSIM" run --parse-only "$@" >"$tmp/out" 2>"$tmp/err" || {
		diag "$(head -c 300 "$tmp/err")"
		false
	}
}
# repeat N TEXT: TEXT N times
repeat() {
	awk -v n="$1" -v t="$2" 'BEGIN { s = ""; for (i = 0; i < n; i++) s = s t; printf "%s", s }'
}
job="--name=j --size=1m --ioengine=null"

plan 27
check "numjobs=100000000: refused, naming fio's maximum of 4096 jobs" \
	refused "option 'numjobs': 100000000 jobs in all, numjobs clones counted: more than fio's maximum of 4096 (FIO_MAX_JOBS)" \
	$job --numjobs=100000000
check "numjobs=4096 is accepted" accepted $job --numjobs=4096
check "jobs are counted over every section: 2048 + 2049 is refused" \
	refused "4097 jobs in all" $job --numjobs=2048 --name=k --numjobs=2049
check "nrfiles=4000000000: refused at once, naming the limit" \
	refused "option 'nrfiles': 4000000000 files in all, over every job and clone: more than storsim's limit of 1000000" \
	$job --nrfiles=4000000000
check "files are counted over clones: numjobs=2 nrfiles=600000 is refused" \
	refused "1200000 files in all" $job --numjobs=2 --nrfiles=600000
check "a filename= list counts its entries: 3 names x 4096 clones is accepted" \
	accepted $job --numjobs=4096 '--filename=a:b:c\:d'

printf '[j]\nsize=1m\nioengine=null\ndescription=%s\n' "$(repeat 8179 x)" >"$tmp/long.fio"
check "a job-file line of 8191 bytes is read whole" accepted "$tmp/long.fio"
printf '[j]\nsize=1m\nioengine=null\ndescription=%s\n' "$(repeat 8180 x)" >"$tmp/long.fio"
check "a line of 8192 bytes is refused, naming fio's line buffer" \
	refused "long.fio:4: line of 8192 bytes: longer than fio's line buffer takes (8191 bytes" \
	"$tmp/long.fio"
printf '[j]\nsize=1m\nioengine=null\n# %s\n' "$(repeat 9000 x)" >"$tmp/long.fio"
check "a comment line counts too (fio's fgets reads it first)" \
	refused "long.fio:4: line of 9002 bytes" "$tmp/long.fio"
printf '[j]\nsize=1m\nioengine=null\ndescription=${BIG}\n' >"$tmp/var.fio"
BIG=$(repeat 8180 x) check "\${VAR} expanding the line to 8192 bytes is accepted" \
	accepted "$tmp/var.fio"
BIG=$(repeat 8181 x) check "\${VAR} expanding it past 8192 bytes is refused, naming OPT_LEN_MAX" \
	refused "var.fio:4: option 'description': its \${VAR}s expand to more than 8192 bytes (fio's OPT_LEN_MAX)" \
	"$tmp/var.fio"
printf '[j]\nsize=1m\nioengine=null\ndescription=%s\n' "$(repeat 1000 '${BIG}')" >"$tmp/var.fio"
BIG=$(repeat 100000 x) check "1000 \${BIG} of 100 kB each: refused without building 100 MB" \
	refused "expand to more than 8192 bytes" "$tmp/var.fio"
check "size=( x 100 )1m( x 100 ): accepted at the nesting limit" \
	accepted --name=j --ioengine=null "--size=$(repeat 100 '(')1048576$(repeat 100 ')')"
check "--size nested 50000 deep is refused naming the limit, not a stack overflow" \
	refused "nested more than 100 deep" --name=j \
	"--size=$(repeat 50000 '(')1$(repeat 50000 ')')"
printf '[j]\nioengine=null\nsize=%s1m%s\n' "$(repeat 4000 '(')" "$(repeat 4000 ')')" >"$tmp/deep.fio"
check "a job-file size nested 4000 deep names its line and the limit" \
	refused "deep.fio:3: option 'size': bad expression" "$tmp/deep.fio"
check "... and the message is short (its middle left out)" \
	test "$(wc -c <"$tmp/err")" -lt 600
for e in "io_uring 32768 IORING_MAX_ENTRIES" "libaio 65536 fs.aio-max-nr" \
	"psync 65536 storsim's limit" "null 65536 storsim's limit"; do
	set -- $e
	check "$1 takes iodepth=$2" accepted --name=j --size=1m --ioengine=$1 --iodepth=$2
	check "$1 refuses iodepth=$(($2 + 1)), naming $3" \
		refused "option 'iodepth': $(($2 + 1)) is more than $1 takes ($2, $3" \
		--name=j --size=1m --ioengine=$1 --iodepth=$(($2 + 1))
done
rand="--name=j --ioengine=null --rw=randwrite --size=64t"
timeout 20 "$STORSIM" run $rand >"$tmp/out" 2>"$tmp/err"
check "a 2 GiB random map (64 TiB in 4 KiB blocks) is refused, naming the limit and the way out" \
	grep -q "need a random map of 2080 MiB.*held to 1024 MiB; norandommap=1 or random_generator=lfsr needs none" "$tmp/err"
check "... and the hinted norandommap=1 runs" \
	timeout 20 "$STORSIM" run $rand --norandommap=1 --runtime=1ms --time_based --output-format=terse
check "... and so does random_generator=lfsr" \
	timeout 20 "$STORSIM" run $rand --random_generator=lfsr --runtime=1ms --time_based --output-format=terse
finish
