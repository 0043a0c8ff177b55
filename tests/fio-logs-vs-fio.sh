#!/bin/sh
# Description: storsim's log files have the layout of the installed fio
# 3.33's for the same job files: the same file names, the same files
# empty, and in each file the same kinds of line (number of fields, data
# direction, bs, the prio column's form, offsets on the block size) and,
# where the job fixes its number of I/Os, the same number of lines. The
# values themselves are the simulated system's, so they are not compared.
# The jobs use the null engine or a file in the test's directory. Skipped
# without fio 3.33 or python3.
. "$top_srcdir/tests/tap.sh"

fio=$(fio333)
[ -n "$fio" ] || skip_all "fio 3.33 is not installed"
command -v python3 >/dev/null || skip_all "python3 is needed"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# NAME|compare line counts (1) or not (0)|job file, ';' for new lines
cases="names|1|[global];ioengine=null;size=1m;bs=4k;rw=read;number_ios=3;write_lat_log=L;write_bw_log;write_iops_log=I;[ja];numjobs=2;[jb];name=other;[jc];per_job_logs=0;numjobs=2
async-offset-prio|1|[j];ioengine=null;iodepth=4;size=1m;bs=4k;rw=randrw;number_ios=32;write_lat_log=L;write_bw_log=B;write_iops_log=I;log_offset=1;log_prio=1
psync-file|1|[j];ioengine=psync;filename=$dir/file;size=1m;bs=4k;rw=randrw;number_ios=32;write_lat_log=L;write_bw_log=B;write_iops_log=I;log_offset=1
disabled|1|[global];ioengine=null;size=1m;bs=4k;rw=read;number_ios=3;write_lat_log;write_bw_log;write_iops_log;[g];gtod_reduce=1;[ds];disable_slat=1;disable_clat=1;iodepth=2
averaged|0|[j];ioengine=null;iodepth=4;size=1m;bs=4k;rw=randrw;time_based;runtime=600ms;write_lat_log=L;write_bw_log=B;write_iops_log=I;log_avg_msec=200;log_offset=1
averaged-max|0|[j];ioengine=null;size=1m;bs=4k;rw=randread;time_based;runtime=600ms;write_lat_log=L;write_bw_log=B;log_avg_msec=200;log_max_value=1"
ncases=$(printf '%s\n' "$cases" | wc -l)
plan $((2 * ncases))

# shape DIR COUNTS: per log file, whether it is empty and the kinds of line
shape() {
	(cd "$1" && python3 - "$2" <<'PY'
import glob, sys
counts = sys.argv[1] == "1"
for name in sorted(glob.glob("*.log")):
    kinds, n = set(), 0
    for text in open(name):
        f = text.rstrip("\n").split(", ")
        bs = int(f[3])
        aligned = len(f) == 6 and bs > 0 and int(f[4]) % bs == 0
        prio = "hex" if f[-1].startswith("0x") else "dec"
        kinds.add((len(f), int(f[2]), bs, prio, aligned, f[0].isdigit()))
        n += 1
    print(name, "empty" if not n else sorted(kinds), n if counts else "")
PY
	)
}

while IFS='|' read -r name counts text; do
	mkdir -p "$dir/fio/$name" "$dir/sim/$name"
	printf '%s\n' "$text" | tr ';' '\n' > "$dir/$name.fio"
	(cd "$dir/fio/$name" && "$fio" --output=/dev/null "$dir/$name.fio")
	rm -f "$dir/file"
	if ! (cd "$dir/sim/$name" && "$STORSIM" run --no-cpu-profile \
		--output=/dev/null "$dir/$name.fio"); then
		not_ok "$name: storsim runs the job"
		continue
	fi
	ok "$name: storsim runs the job"
	want=$(shape "$dir/fio/$name" "$counts")
	got=$(shape "$dir/sim/$name" "$counts")
	if [ -n "$want" ] && [ "$got" = "$want" ]; then
		ok "$name: the files and their kinds of line are fio's"
	else
		not_ok "$name: the files and their kinds of line are fio's"
		diag "fio 3.33:"
		printf '%s\n' "$want" | sed 's/^/#   /'
		diag "storsim:"
		printf '%s\n' "$got" | sed 's/^/#   /'
	fi
done <<EOF
$cases
EOF

finish
