#!/bin/sh
# Set storsim up and run its tests: the test suite with warnings as
# errors, then make distcheck, whose build from the release tarball runs
# the whole suite again under AddressSanitizer and
# UndefinedBehaviorSanitizer, then the suites of their own that fit CI's
# time and need root: the HTML report in headless Chromium (make
# check-browser, a minute or two with Chromium's installation) and a
# sweep through a one-node Slurm cluster (make check-slurm, 2-3 minutes).
#
#   scripts/check.sh
set -eu

cd "$(dirname "$0")/.."
scripts/bootstrap.sh --enable-werror

echo "check: make check"
make -j"$(nproc)" check

echo "check: make distcheck, with the suite under ASan + UBSan"
make -j"$(nproc)" distcheck \
	DISTCHECK_CONFIGURE_FLAGS="--enable-werror --enable-sanitizers"

if [ "$(id -u)" -eq 0 ]; then
	echo "check: make check-browser"
	make check-browser
	echo "check: make check-slurm"
	make check-slurm
else
	echo "check: make check-browser and make check-slurm need root: skipped"
fi

echo "check: all passed"
