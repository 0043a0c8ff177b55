#!/bin/sh
# Description: an output file that is not a plain file is written in
# place. storsim writes results whole or not at all through a temporary
# file renamed over the target; renamed over /dev/null (as root, as CI
# runs) that replaced the device with a plain file, which broke every
# later "> /dev/null" on the machine. A FIFO must stay a FIFO and get the
# results, a symbolic link must stay a link to the file that gets them,
# and a plain file is still replaced whole.
. "$top_srcdir/tests/tap.sh"
plan 5
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

job() {
	"$STORSIM" run --name=x --ioengine=null --size=1m --bs=4k "$@"
}

# Put /dev/null back if a regression replaced it (only root can).
restore_dev_null() {
	if [ ! -c /dev/null ] && [ "$(id -u)" = 0 ]; then
		rm -f /dev/null && mknod -m 666 /dev/null c 1 3
	fi
}

job --output=/dev/null
check "--output=/dev/null leaves /dev/null a character device" test -c /dev/null
restore_dev_null

mkfifo "$dir/fifo"
timeout 60 cat "$dir/fifo" >"$dir/from-fifo" &
reader=$!
job --output="$dir/fifo"
wait $reader
test -p "$dir/fifo" && grep -q "issued rwts" "$dir/from-fifo"
check "a FIFO stays a FIFO and its reader gets the results" test $? -eq 0

: >"$dir/target"
ln -s target "$dir/link"
job --output="$dir/link" --output-format=json
test -L "$dir/link" && grep -q '"jobs"' "$dir/target"
check "a symbolic link stays a link and its target gets the results" test $? -eq 0

printf 'old\n' >"$dir/plain"
job --output="$dir/plain"
grep -q "issued rwts" "$dir/plain" && ! grep -q '^old$' "$dir/plain"
check "a plain file is replaced by the results" test $? -eq 0

"$STORSIM" reproduce nocopy-bvec --runtime 2 --output=/dev/null >/dev/null 2>&1
check "storsim reproduce --output=/dev/null leaves it a character device" \
	test -c /dev/null
restore_dev_null
finish
