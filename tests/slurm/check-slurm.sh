#!/bin/sh
# make check-slurm (docs/user-guide.md, Sweeps on a Slurm cluster): a
# one-node Slurm cluster on this machine runs a 40-point storsim sweep as a
# job array, and the result store it fills must equal the one a local
# `-j` run fills, point by point (all but the command line that made it),
# with the same table. Needs root: it installs Debian's slurm-wlm and
# munge when missing, starts its own munged, slurmctld and slurmd from a
# configuration it writes into a scratch directory (ports SLURM_PORT and
# SLURM_PORT+1, default 16817), and stops them when done; a Slurm or
# munge already running here is not touched. Takes about 2-3 minutes.
set -eu

: "${top_srcdir:?run me from make check-slurm}" "${top_builddir:?}"
STORSIM="$top_builddir/storsim"
PORT=${SLURM_PORT:-16817}
[ "$(id -u)" -eq 0 ] || { echo "check-slurm: needs root" >&2; exit 1; }

missing=""
for p in slurm-wlm munge; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "check-slurm: installing:$missing"
	apt-get update -q
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
fi

tmp=$(mktemp -d /tmp/check-slurm.XXXXXX)
chmod 0755 "$tmp"
pids=""
stop() {
	for p in $pids; do
		kill "$p" 2>/dev/null || true
	done
	for p in $pids; do
		i=0
		while kill -0 "$p" 2>/dev/null && [ $i -lt 50 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		kill -9 "$p" 2>/dev/null || true
	done
	rm -rf "$tmp"
}
trap stop EXIT
trap 'exit 1' INT TERM

# munge: a key and a socket of our own.
mkdir -p "$tmp/munge"
chmod 0700 "$tmp/munge"
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 0400 "$tmp/munge/munge.key"
sock="$tmp/munge/munge.socket"
munged --force --foreground --key-file="$tmp/munge/munge.key" --socket="$sock" \
	--pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munge/munged.log" \
	--seed-file="$tmp/munge/munged.seed" >"$tmp/munged.out" 2>&1 &
pids="$pids $!"

host=$(hostname -s)
cpus=$(nproc)
mkdir -p "$tmp/state" "$tmp/spool"
cat >"$tmp/slurm.conf" <<EOF
ClusterName=storsim-check
SlurmctldHost=$host
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
MaxArraySize=1001
SchedulerType=sched/backfill
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=check Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$tmp/slurm.conf"
# Wait for munged's socket before the daemons that need it.
i=0
while [ ! -S "$sock" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
slurmctld -D -i -f "$SLURM_CONF" >"$tmp/slurmctld.out" 2>&1 &
pids="$pids $!"
slurmd -D -f "$SLURM_CONF" >"$tmp/slurmd.out" 2>&1 &
pids="$pids $!"
i=0
until sinfo -h -o %t 2>/dev/null | grep -q idle; do
	i=$((i + 1))
	if [ $i -gt 60 ]; then
		echo "check-slurm: the node did not come up; logs:" >&2
		tail -20 "$tmp"/*.out "$tmp"/*.log >&2 || true
		exit 1
	fi
	sleep 1
done
echo "check-slurm: one-node cluster up: $(sinfo -h -o '%P %D nodes, %c CPUs, %t')"

job="$top_srcdir/tests/jobs/sweep/dio.fio"
sweep() {
	"$STORSIM" sweep --host axboe-5950x-2023 --file /f=256m:written --env RUNTIME=100ms \
		--vary kernel.dio_caller_comp=false,true --vary DEPTH=1,2,4,8,16 \
		--vary cpu.ctx_switch_ns=150,300,600,1200 --eta=never "$@" "$job"
}
start=$(date +%s.%N)
sweep --slurm --slurm-wait --results "$tmp/slurm" >"$tmp/slurm.txt" 2>"$tmp/slurm.err"
slurm_s=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
cat "$tmp/slurm.err"
start=$(date +%s.%N)
sweep -j "$cpus" --results "$tmp/local" >"$tmp/local.txt"
local_s=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')

fail=0
grep -q "the Slurm job has ended: 40 of 40 points in the store" "$tmp/slurm.err" ||
	{ echo "check-slurm: FAIL: the Slurm tasks did not run all 40 points" >&2; fail=1; }
tasks=$(ls "$tmp/slurm/slurm" | grep -c '^task-.*\.log$' || true)
[ "$tasks" -eq 40 ] ||
	{ echo "check-slurm: FAIL: $tasks task logs, not 40" >&2; fail=1; }
cmp -s "$tmp/slurm.txt" "$tmp/local.txt" ||
	{ echo "check-slurm: FAIL: the tables differ" >&2; fail=1; }
python3 - "$tmp/slurm" "$tmp/local" <<'PY' || fail=1
import json, os, sys
a, b = sys.argv[1:]
ma = json.load(open(os.path.join(a, "manifest.json")))
mb = json.load(open(os.path.join(b, "manifest.json")))
assert ma["grid"] == mb["grid"], "the manifests' grids differ"
points = ma["grid"]["points"]
assert len(points) == 40, len(points)
for p in points:
    da = json.load(open(os.path.join(a, p["file"])))
    db = json.load(open(os.path.join(b, p["file"])))
    assert da["status"] == "done", (p["file"], da["status"], da.get("reason"))
    for d in (da, db):
        del d["command"]
    if da != db:
        sys.exit("check-slurm: FAIL: %s differs" % p["file"])
print("check-slurm: the 40 documents of both stores are equal (but for their command)")
PY
echo "check-slurm: 40 points: Slurm job array (40 tasks, $cpus CPUs) ${slurm_s} s," \
	"local -j $cpus ${local_s} s"
[ $fail -eq 0 ] && echo "check-slurm: PASS"
exit $fail
