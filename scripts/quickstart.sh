#!/bin/sh
# The main job: set storsim up, then reproduce every published table it
# knows, printing published and simulated values side by side with the
# error, the shape checks and the mechanism behind each table.
#
#   scripts/quickstart.sh [EXPERIMENT...]
#
# The report is also written to reproduce-report.txt and, as JSON, to
# reproduce-report.json.
set -eu

cd "$(dirname "$0")/.."
scripts/bootstrap.sh
./storsim reproduce --list
# reproduce exits 1 when a table is not reproduced within its tolerance;
# that is a result, reported below, not a failure of the quick start. Only
# a run that writes no report fails it.
rm -f reproduce-report.txt reproduce-report.json
./storsim reproduce --output-format=json --output reproduce-report.json "$@" || true
./storsim reproduce --output reproduce-report.txt "$@" || true
test -s reproduce-report.txt && test -s reproduce-report.json || {
	echo "quickstart: storsim reproduce wrote no report" >&2
	exit 1
}
cat reproduce-report.txt
echo "quickstart: per experiment:"
grep -E '^(== |result: )' reproduce-report.txt | paste - - |
	sed -e 's/^== \([^:]*\):.*\tresult: /  \1: /'
echo "quickstart: report in reproduce-report.txt and reproduce-report.json;"
echo "quickstart: docs/reproductions.md explains each table and what it misses"
