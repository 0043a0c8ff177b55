#!/bin/sh
# Set up storsim on a Debian 12 machine: install the packages it needs
# (apt-get, when missing), then generate, configure and build.
#
#   scripts/bootstrap.sh [CONFIGURE-OPTIONS...]
#
# Safe to run again: packages already installed are skipped, and a build
# that is already configured is only brought up to date.
set -eu

cd "$(dirname "$0")/.."

# Everything the build, the tests and the validation need, from Debian.
PACKAGES="build-essential pkg-config autoconf automake libtool autoconf-archive
libglib2.0-dev libjson-c-dev clang
fio fio-examples python3 python3-six gnuplot-nox
qemu-system-x86 qemu-utils
libvirt-dev libvirt-clients libvirt-daemon libvirt-daemon-driver-qemu
busybox-static cpio blktrace
e2fsprogs xfsprogs util-linux mount"

missing=""
for p in $PACKAGES; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO="sudo"
	echo "bootstrap: installing:$missing"
	$SUDO apt-get update -q
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends $missing
fi

if [ ! -x configure ] || [ configure.ac -nt configure ]; then
	echo "bootstrap: autoreconf"
	autoreconf -fi
fi
# The profile-guided build is the default (--disable-pgo turns it off):
# storsim runs about 18% faster, for about a minute more of building.
if [ ! -f Makefile ] || [ "$#" -gt 0 ]; then
	echo "bootstrap: configure --enable-pgo $*"
	./configure --enable-pgo "$@"
fi
if grep -q '^PGO_USE_CFLAGS = .' Makefile && [ ! -f pgo-data/trained ]; then
	echo "bootstrap: make pgo-profile (an instrumented build and its training runs)"
	make -j"$(nproc)" pgo-profile
fi
echo "bootstrap: make"
make -j"$(nproc)"
