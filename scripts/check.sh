#!/bin/sh
# Set storsim up and run its tests: the test suite with warnings as
# errors, then make distcheck, whose build from the release tarball runs
# the whole suite again under AddressSanitizer and
# UndefinedBehaviorSanitizer.
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

echo "check: all passed"
