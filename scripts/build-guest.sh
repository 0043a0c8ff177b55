#!/bin/sh
# Builds the guest of the full-system check (make check-guest): Debian 12's
# kernel and an initramfs holding busybox, fio with the shared libraries it
# links, the NVMe driver modules and the sweep's job files (tests/guest/*.fio).
# Its /init (scripts/guest/init) runs the jobs named on the kernel command
# line and prints fio's JSON between marker lines on the serial console.
#
# Usage: scripts/build-guest.sh [OUTDIR]   (default: ./guest)
# Output: OUTDIR/vmlinuz, OUTDIR/initrd.gz. Downloaded packages are kept in
# OUTDIR/debs and reused while they match apt's candidate version.
#
# Facts this relies on (reference/qemu-nvme-and-libvirt.md, 4.4): Debian
# builds the NVMe driver as modules (CONFIG_BLK_DEV_NVME=m) with uncompressed
# .ko files, the 8250 serial driver is built in, and Debian's fio links the
# ceph, gluster and rdma libraries at start-up (BIND_NOW), so all of them go
# into the initramfs.
set -eu

die() {
	echo "build-guest.sh: $*" >&2
	exit 1
}

srcdir=$(cd "$(dirname "$0")/.." && pwd)
outdir=${1:-guest}
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
debs=$outdir/debs
tree=$outdir/pkgs
root=$outdir/initramfs
mkdir -p "$debs" "$tree"

[ "$(id -u)" = 0 ] || die "must run as root (apt-get install)"

# fio is installed on the host too, so that ldd can resolve the libraries
# of the downloaded binary from the same Debian release; kmod brings depmod.
apt-get update -qq ||
	echo "build-guest.sh: apt-get update failed; using the package lists as they are" >&2
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	fio cpio gzip dpkg libc-bin kmod >/dev/null || die "apt-get install failed"

candidate() {
	apt-cache policy "$1" | awk '$1 == "Candidate:" { print $2 }'
}

# fetch PKG: OUTDIR/debs/PKG.deb at apt's candidate version, downloaded
# only when missing or outdated; then extracted into OUTDIR/pkgs/PKG.
fetch() {
	want=$(candidate "$1")
	[ -n "$want" ] && [ "$want" != "(none)" ] || die "apt knows no package $1"
	if [ ! -f "$debs/$1.deb" ] || [ "$(dpkg-deb -f "$debs/$1.deb" Version)" != "$want" ]; then
		rm -f "$debs/$1.deb" "$debs/$1"_*.deb
		(cd "$debs" && apt-get download -qq -o APT::Sandbox::User=root "$1=$want") ||
			die "apt-get download $1=$want failed"
		mv "$debs/$1"_*.deb "$debs/$1.deb"
	fi
	if [ ! -f "$tree/$1.stamp" ] || [ "$debs/$1.deb" -nt "$tree/$1.stamp" ]; then
		rm -rf "${tree:?}/$1"
		dpkg-deb -x "$debs/$1.deb" "$tree/$1" || die "dpkg-deb -x $1 failed"
		touch "$tree/$1.stamp"
	fi
}

# The kernel is whatever linux-image-amd64 depends on today.
kpkg=$(apt-cache show --no-all-versions linux-image-amd64 |
	sed -n 's/^Depends: \(linux-image-[^ ,]*\).*/\1/p')
[ -n "$kpkg" ] || die "cannot tell which kernel linux-image-amd64 depends on"
for p in "$kpkg" busybox-static fio; do
	fetch "$p"
done

kver=$(ls "$tree/$kpkg/lib/modules")
[ -n "$kver" ] && [ -d "$tree/$kpkg/lib/modules/$kver" ] || die "no modules in $kpkg"
moddir=$tree/$kpkg/lib/modules/$kver
cp "$tree/$kpkg/boot/vmlinuz-$kver" "$outdir/vmlinuz"

rm -rf "$root"
mkdir -p "$root/bin" "$root/proc" "$root/sys" "$root/dev" "$root/tmp" \
	"$root/jobs" "$root/lib/modules" "$root/etc"
cp "$tree/busybox-static/bin/busybox" "$root/bin/busybox"
cp "$tree/fio/usr/bin/fio" "$root/bin/fio"
install -m 0755 "$srcdir/scripts/guest/init" "$root/init"
cp "$srcdir"/tests/guest/*.fio "$root/jobs/"

# Shared libraries, at the paths the loader will look them up by (their
# RUNPATHs included), plus the loader itself.
ldd "$tree/fio/usr/bin/fio" >"$outdir/fio.ldd" || die "ldd fio failed"
if grep -q 'not found' "$outdir/fio.ldd"; then
	die "fio needs libraries the host lacks: $(grep 'not found' "$outdir/fio.ldd" | tr -s ' \t' ' ')"
fi
awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' "$outdir/fio.ldd" |
while read -r lib; do
	mkdir -p "$root$(dirname "$lib")"
	cp -L "$lib" "$root$lib"
done

# The NVMe driver and what it needs, in load order. The package ships no
# modules.dep (its postinst runs depmod), so depmod writes one into the
# extracted tree. Each line there lists a module's dependencies; a module is
# printed after all of its own. Soft dependencies are left out: they name
# accelerated crypto drivers the CRC libraries fall back from.
depmod -b "$tree/$kpkg" "$kver" || die "depmod $kver failed"
awk -v want=kernel/drivers/nvme/host/nvme.ko '
	{
		m = substr($1, 1, length($1) - 1)
		deps[m] = ""
		for (i = 2; i <= NF; i++)
			deps[m] = deps[m] " " $i
	}
	function visit(m,   d, i, n) {
		if (seen[m]++)
			return
		n = split(deps[m], d, " ")
		for (i = 1; i <= n; i++)
			visit(d[i])
		print m
	}
	END {
		if (!(want in deps))
			exit 1
		visit(want)
	}' "$moddir/modules.dep" >"$outdir/modules.order" ||
	die "$kver: nvme.ko is not in modules.dep"
: >"$root/etc/modules"
while read -r m; do
	case $m in
	*.ko) ;;
	*) die "$m: only uncompressed modules can be loaded by busybox insmod" ;;
	esac
	cp "$moddir/$m" "$root/lib/modules/"
	basename "$m" >>"$root/etc/modules"
done <"$outdir/modules.order"

(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) | gzip -1 >"$outdir/initrd.gz.tmp"
mv "$outdir/initrd.gz.tmp" "$outdir/initrd.gz"
echo "build-guest.sh: kernel $kver, initrd $(du -h "$outdir/initrd.gz" | cut -f1)," \
	"modules: $(tr '\n' ' ' <"$root/etc/modules")"
