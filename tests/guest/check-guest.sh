#!/bin/sh
# make check-guest (docs/guest.md): boots the Debian guest under TCG through
# libvirt's embedded QEMU driver, runs the fio sweep on QEMU's emulated NVMe,
# takes fio's JSON out of the console log and prints the comparison table.
# Fails when a step fails or when the guest did not produce every point's
# JSON. Needs root (apt-get, the privileged embedded driver) and, for the
# first build, the network.
#
# Environment: top_srcdir, top_builddir (set by make); GUEST_SWEEP,
# GUEST_RUNTIME (seconds per point), GUEST_VCPUS, GUEST_DIR (build and
# results, default $top_builddir/guest).
set -u

: "${top_srcdir:?}" "${top_builddir:?}"
storsim=$top_builddir/storsim
out=${GUEST_DIR:-$top_builddir/guest}
sweep=${GUEST_SWEEP:-randread:1:2:4:8:16:32,randwrite:1:8:32}
runtime=${GUEST_RUNTIME:-5}
vcpus=${GUEST_VCPUS:-2}

die() {
	echo "check-guest: $*" >&2
	exit 1
}
now() {
	date +%s.%N
}
since() {
	awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'
}

start=$(now)
sh "$top_srcdir/scripts/setup-libvirt-embed.sh" || die "libvirt set-up failed"

t=$(now)
sh "$top_srcdir/scripts/build-guest.sh" "$out" || die "building the guest failed"
build_s=$(since "$t")

# A fresh sparse image each time, so every run reads and writes the same
# state: the reads come first, on blocks never written.
rm -f "$out/nvme.raw"
truncate -s 1G "$out/nvme.raw" || die "cannot create $out/nvme.raw"

# The boot costs about 13 s and each point its runtime plus about a second
# under TCG; the limit leaves room for a slow host.
points=$(echo "$sweep" | tr ',' '\n' | awk -F: '{ n += NF - 1 } END { print n }')
limit=$((120 + points * (runtime + 15)))
t=$(now)
"$storsim" guest run --kernel "$out/vmlinuz" --initrd "$out/initrd.gz" --disk "$out/nvme.raw" \
	--cache none --vcpus "$vcpus" --append "storsim.sweep=$sweep storsim.runtime=$runtime" \
	--timeout "$limit" --serial-log "$out/serial.log" ||
	die "the guest run failed (console: $out/serial.log)"
run_s=$(since "$t")

rm -rf "$out/results"
"$storsim" guest extract --serial-log "$out/serial.log" --expect "$sweep" \
	--outdir "$out/results/guest" ||
	die "the guest did not produce every point's fio JSON (console: $out/serial.log)"

# The same jobs in storsim: a host profile for the TCG guest and a device
# profile for QEMU's NVMe as this machine runs it (both fitted to
# check-guest, docs/guest.md).
sim_results=$out/results/sim
mkdir -p "$sim_results"
t=$(now)
for spec in $(echo "$sweep" | tr ',' ' '); do
	job=${spec%%:*}
	for qd in $(echo "${spec#*:}" | tr ':' ' '); do
		IODEPTH=$qd RUNTIME=$runtime "$storsim" run --host qemu-tcg-2vcpu \
			--device nvme0n1=qemu-nvme-tcg --output-format=json \
			--output "$sim_results/$job-qd$qd.json" \
			"$top_srcdir/tests/guest/$job.fio" ||
			die "storsim could not run $job at iodepth $qd"
	done
done
sim_s=$(since "$t")

"$storsim" guest compare --guest "$out/results/guest" --sim "$sim_results" \
	--json "$out/results/compare.json" || die "the comparison failed"

echo "check-guest: $points points of ${runtime} s on $vcpus vCPUs; guest build ${build_s} s," \
	"boot + sweep + power-off ${run_s} s, storsim ${sim_s} s, total $(since "$start") s"
echo "check-guest: console $out/serial.log, results $out/results"
