#!/bin/sh
# Description: sweep --slurm without a cluster: a stand-in sbatch
# ($STORSIM_SBATCH) runs the job array's tasks one after the other, as
# Slurm would on its nodes; the store they fill prints the table a local
# run prints, with every point run by the tasks, --slurm needs a store, and
# the Slurm options are refused without --slurm. make check-slurm does
# the same through a real one-node Slurm.
. "$top_srcdir/tests/tap.sh"
plan 5
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
job="$top_srcdir/tests/jobs/sweep/dio.fio"
cat >"$out/sbatch" <<'SH'
#!/bin/sh
# sbatch --parsable --array=0-N --chdir=DIR [--wait] [ARGS] SCRIPT
for a; do
	case $a in
	--array=0-*) last=${a#--array=0-} ;;
	--chdir=*) dir=${a#--chdir=} ;;
	esac
	script=$a
done
echo "$@" >"$SBATCH_LOG"
cd "$dir" || exit 1
k=0
while [ $k -le "$last" ]; do
	SLURM_ARRAY_TASK_ID=$k sh "$script" >"$SBATCH_LOG.$k" 2>&1 || exit 1
	k=$((k + 1))
done
echo 4242
SH
chmod +x "$out/sbatch"
sweep() {
	"$STORSIM" sweep --file /f=256m:written --env RUNTIME=20ms \
		--vary kernel.dio_caller_comp=false,true --vary DEPTH=1,4,16 "$@" "$job"
}
sweep -j 1 >"$out/local" 2>/dev/null
STORSIM_SBATCH="$out/sbatch" SBATCH_LOG="$out/log" \
	sweep --slurm --slurm-wait --slurm-tasks=4 --sbatch-arg=--partition=p \
	--results "$out/st" >"$out/slurm" 2>"$out/err"
check "the job array's store prints the local run's table" cmp -s "$out/local" "$out/slurm"
check "sbatch got the array, the directory, --wait and the extra option" \
	grep -q -- "--parsable --array=0-3 --chdir=$PWD --wait --partition=p $out/st/slurm/job.sh" "$out/log"
check "its tasks ran every point, and none here" \
	sh -c "grep -q 'Slurm job 4242, 4 tasks for 6 points' '$out/err' &&
	       grep -q 'the Slurm job has ended: 6 of 6 points in the store\$' '$out/err'"
sweep --slurm >/dev/null 2>"$out/err"
check "--slurm needs a store" grep -q "option '--slurm': needs --results" "$out/err"
sweep --slurm-wait --results "$out/x" >/dev/null 2>"$out/err"
check "--slurm-wait without --slurm is refused" grep -q "option '--slurm-wait': is for --slurm" "$out/err"
finish
