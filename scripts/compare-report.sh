#!/bin/sh
# From a job file to a report comparing completion strategies across
# queue depths: set storsim up (scripts/bootstrap.sh: packages, build),
# then run storsim compare with the stock strategies irq-wq, irq-caller,
# polled and sqpoll at depths 1, 2, 4, 8, 16 and 32, keeping each point in
# a result store beside the report, and write the report (Markdown, HTML,
# CSV, SVG and PNG plots).
#
#   scripts/compare-report.sh JOBFILE OUTDIR [COMPARE-OPTIONS...]
#
# OUTDIR/report.html is the page to open; OUTDIR/results the store, so
# that the same command run again resumes what an interruption left.
set -eu

if [ $# -lt 2 ]; then
	echo "usage: scripts/compare-report.sh JOBFILE OUTDIR [COMPARE-OPTIONS...]" >&2
	exit 1
fi
job=$(realpath "$1")
out=$(realpath -m "$2")
shift 2
cd "$(dirname "$0")/.."
scripts/bootstrap.sh >&2
./storsim compare --strategies irq-wq,irq-caller,polled,sqpoll \
	--depths 1,2,4,8,16,32 --results "$out/results" --report "$out" "$@" "$job"
echo "compare-report: $out/report.html"
