#!/bin/sh
# Prepares this host for libvirt's embedded QEMU driver (qemu:///embed), which
# the full-system check (make check-guest) uses to boot its guest.
#
# The privileged embedded driver looks up its compiled-in default user and
# group (libvirt-qemu, and kvm for /dev/kvm) before it reads any qemu.conf.
# Debian creates them in libvirt-daemon-system, which this project does not
# need, so without them virConnectOpen fails with "Failed to parse user
# 'libvirt-qemu'". This script installs the libvirt packages the launcher
# uses and creates the users; running it again changes nothing.
#
# The per-root qemu.conf (stdio_handler, user, group) is written by the
# launcher itself (sim/validate/guest-libvirt.c), since it belongs to the root
# directory it is given.
set -eu

die() {
	echo "setup-libvirt-embed.sh: $*" >&2
	exit 1
}

[ "$(id -u)" = 0 ] || die "must run as root (apt-get, useradd)"

# qemu-system-x86 is the emulator; libvirt-daemon-driver-qemu is the driver
# module the embed URI loads into the launcher's process.
packages="qemu-system-x86 libvirt-daemon-driver-qemu libvirt-clients libvirt-dev"
missing=
for p in $packages; do
	dpkg-query -W -f '${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	apt-get update -qq || echo "setup-libvirt-embed.sh: apt-get update failed; using the package lists as they are" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing ||
		die "could not install:$missing"
fi

getent group kvm >/dev/null || groupadd --system kvm ||
	die "could not create group kvm"
if ! getent passwd libvirt-qemu >/dev/null; then
	getent group libvirt-qemu >/dev/null || groupadd --system libvirt-qemu ||
		die "could not create group libvirt-qemu"
	useradd --system --gid libvirt-qemu --groups kvm --no-create-home \
		--home-dir /var/lib/libvirt --shell /usr/sbin/nologin libvirt-qemu ||
		die "could not create user libvirt-qemu"
fi
echo "setup-libvirt-embed.sh: libvirt-qemu user, kvm group and packages present"
