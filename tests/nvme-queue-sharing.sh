#!/bin/sh
# Description: an NVMe drive that grants fewer I/O queues than the driver
# asks for (one per CPU plus the poll queues) is shared as Linux shares
# it: nvme_setup_io_queues takes what the device grants, poll queues are
# cut first to leave one queue with an interrupt, and blk-mq spreads the
# CPUs evenly over the queues, each queue's interrupt affine to its CPUs
# and firing on the first of them. Eight single-thread readers pinned to
# CPUs 0-7 of an 8-CPU host on a drive of 2 queues: every job does I/O
# and the interrupts land on CPUs 0 and 4 only. Then polled readers on
# one shared poll queue (poll_queues=4 cut to 1): all eight finish, and
# no CPU takes an interrupt.
. "$top_srcdir/tests/tap.sh"

plan 4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/shared.fio" <<JOB
[global]
filename=/dev/nvme0n1
ioengine=io_uring
direct=1
rw=randread
bs=4k
iodepth=4
time_based=1
runtime=20ms
cpus_allowed=0-7
cpus_allowed_policy=split
numjobs=8
hipri=\${HIPRI}
[r]
JOB

summary() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
jobs = sum(1 for j in d["jobs"] if j["read"]["total_ios"] > 0)
irq = ",".join(str(c["cpu"]) for c in d["storsim"]["cpus"] if c["irq"] > 0)
print("%d %s" % (jobs, irq or "none"))' "$1"
}

for hipri in 0 1; do
	# with poll queues asked for, the device's two are one of each
	pq=$((hipri * 4))
	if HIPRI=$hipri "$STORSIM" run --output-format=json --set=cpu.ncpus=8 \
		--device=nvme0n1=optane-p5800x --set=nvme0n1.max_io_queues=2 \
		--set=nvme0n1.msix_vectors=3 --set=nvme_drv.poll_queues=$pq \
		"$tmp/shared.fio" >"$tmp/out.json" 2>"$tmp/err"; then
		got=$(summary "$tmp/out.json")
	else
		diag "storsim failed: $(cat "$tmp/err")"
		got="failed"
	fi
	if [ "$hipri" = 0 ]; then
		check "interrupts, 2 queues for 8 CPUs: 8 jobs did I/O (got ${got% *})" \
			test "${got% *}" = 8
		check "interrupts on the first CPU of each queue's group, 0 and 4 (got ${got#* })" \
			test "${got#* }" = "0,4"
	else
		check "polled, one poll queue for 8 CPUs: 8 jobs did I/O (got ${got% *})" \
			test "${got% *}" = 8
		check "polled: no interrupts (got ${got#* })" test "${got#* }" = none
	fi
done
finish
