#!/bin/sh
# Description: the top-level help lists --version, and storsim --version
# prints the name and version configure.ac gives the package.
. "$top_srcdir/tests/tap.sh"

plan 2
want=$(sed -n 's/^AC_INIT(\[\([^]]*\)\], *\[\([^]]*\)\].*/\1 \2/p' "$top_srcdir/configure.ac")
check "storsim --help lists --version" \
	sh -c "'$STORSIM' --help | grep -q '^  --version  *[a-z]'"
got=$("$STORSIM" --version)
check "storsim --version prints '$want' ($got)" test -n "$want" -a "$got" = "$want"
finish
