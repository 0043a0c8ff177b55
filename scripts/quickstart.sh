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
./storsim reproduce --output-format=json --output reproduce-report.json "$@" || true
./storsim reproduce --output reproduce-report.txt "$@" && status=0 || status=$?
cat reproduce-report.txt
echo "quickstart: report in reproduce-report.txt and reproduce-report.json"
exit $status
