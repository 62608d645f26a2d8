#!/usr/bin/env bash
# slurm_array: an emitted sweep run as a Slurm job array on a real (private, single-node) Slurm,
# merged back, equals the same sweep run locally (docs/architecture.md sections 9.7 and
# 11). One array task is killed on purpose while it runs: the merge must report it, and
# resubmitting the failed tasks must complete the workspace.
#
#   slurm_array_test.sh CLI SHARED_DATA_DIR OUT_DIR
#
# Fails (never skips) without slurm-wlm or munge, or without the shared Muri traces.
set -uo pipefail

CLI="$1"
SHARED="$2"
OUT="$3"
HERE="$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")"
TRACE="$SHARED/muri-traces/trace1.csv"
JOB_WAIT_SECONDS=150
test_started_at="$EPOCHREALTIME"

fail() {
    echo "slurm_array: FAIL: $*" >&2
    exit 1
}
step() { printf '\n== %s (%.1f s)\n' "$*" "$(awk -v a="$test_started_at" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')"; }

# expect_match WHAT TEXT REGEX
expect_match() {
    [[ "$2" =~ $3 ]] || fail "$1: expected to match '$3', got:"$'\n'"$2"
}

# job_field JOBID FIELD: one field of scontrol's record of a job (an array task too: 12_5).
job_field() {
    scontrol show job --oneliner "$1" 2>/dev/null | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1
}

# submit SCRIPT: runs the emitted folder's submit.sh or resubmit-failed.sh and sets
# submitted_array and submitted_merge from the "array JOBID" / "merge JOBID" lines it prints.
submit() {
    local printed
    printed="$(cd "$EMIT" && "./$1" 2>&1)" || fail "$1 failed: $printed"
    echo "$printed"
    submitted_array="$(sed -n 's/^array //p' <<<"$printed")"
    submitted_merge="$(sed -n 's/^merge //p' <<<"$printed")"
    [[ "$submitted_array" =~ ^[0-9]+$ && "$submitted_merge" =~ ^[0-9]+$ ]] ||
        fail "$1 should print 'array JOBID' and 'merge JOBID' lines, printed: $printed"
}

[[ -x "$CLI" ]] || fail "clusterloom-cli not found at $CLI"
[[ -f "$TRACE" ]] || fail "the shared Muri traces are missing: $TRACE (see ../shared/data/README.md)"

rm -rf "$OUT"
mkdir -p "$OUT"
export PRIVATE_SLURM_KEEP_LOGS="$OUT/slurm-logs"
# shellcheck source=tests/slurm/private_slurm.sh
source "$HERE/private_slurm.sh"
step "starting a private Slurm"
private_slurm_start || fail "the private Slurm did not start (see the messages above)"
echo "started in $PRIVATE_SLURM_STARTUP_SECONDS s"

# 2 policies x 2 server counts x 3 seeds; each seed draws the jobs' models again, so no two runs
# have the same figures and a shard merged under the wrong name would show.
SWEEP=(sweep --trace "$TRACE" --prefix s --policies "srtf,tiresias" --server-counts "4,8" --seeds "1,2,3"
    --reassign-models --quiet)
NAMES=()
for n in 4 8; do
    for p in srtf tiresias; do
        for s in 1 2 3; do NAMES+=("s/n$n/$p/s$s"); done
    done
done

step "emitting the sweep for Slurm"
EMIT="$OUT/emit"
WS="$OUT/slurm.sqlite"
KILLED_TASK=5
HOLD="$OUT/hold-spec-$KILLED_TASK"
STARTED="$OUT/spec-$KILLED_TASK-started"
# The command lines call a stand-in for a cluster's own clusterloom-cli (--cli) that holds spec 5
# while the hold file exists, so that its array task is surely running when the test kills it.
WRAPPER="$OUT/clusterloom-cli-holding-spec-$KILLED_TASK"
cat >"$WRAPPER" <<EOF
#!/bin/sh
case " \$* " in
*" specs/0000$KILLED_TASK.json "*)
    touch '$STARTED'
    while [ -e '$HOLD' ]; do sleep 0.2; done ;;
esac
exec '$CLI' "\$@"
EOF
chmod +x "$WRAPPER"
# At most two tasks at once (%2), so that the array outlasts the held task.
emitted="$("$CLI" "${SWEEP[@]}" --db "$WS" --emit "$EMIT" --slurm --array-limit 2 --cli "$WRAPPER" 2>&1)" ||
    fail "sweep --emit failed: $emitted"
echo "$emitted"
expect_match "sweep --emit" "$emitted" "^12 run specs "
expect_match "array.sbatch" "$(cat "$EMIT/array.sbatch")" $'\n#SBATCH --array=0-11%2\n'
expect_match "commands.txt" "$(sed -n 6p "$EMIT/commands.txt")" \
    "^$WRAPPER run-spec specs/0000$KILLED_TASK.json --shard shards/0000$KILLED_TASK.sqlite$"

step "submitting"
touch "$HOLD"
submit submit.sh
array_job="$submitted_array"
merge_job="$submitted_merge"

task_running() {
    [[ -e "$STARTED" && "$(job_field "${array_job}_$KILLED_TASK" JobState)" == RUNNING ]]
}
private_slurm_wait_for "array task $KILLED_TASK to run" 60 task_running || fail "task $KILLED_TASK never ran"
scancel "${array_job}_$KILLED_TASK" || fail "scancel ${array_job}_$KILLED_TASK failed"
echo "killed array task ${array_job}_$KILLED_TASK while it ran"

step "waiting for the array and the merge"
private_slurm_wait_jobs "$JOB_WAIT_SECONDS" "$array_job" "$merge_job" || fail "the jobs did not finish"
[[ "$(job_field "${array_job}_$KILLED_TASK" JobState)" == CANCELLED ]] ||
    fail "the killed task should be CANCELLED: $(scontrol show job --oneliner "${array_job}_$KILLED_TASK")"
[[ ! -e "$EMIT/shards/0000$KILLED_TASK.sqlite" ]] || fail "the killed task $KILLED_TASK left a shard"
for task in $(seq 0 11); do
    [[ $task -eq $KILLED_TASK ]] && continue
    state="$(job_field "${array_job}_$task" JobState)"
    [[ "$state" == COMPLETED ]] || fail "array task $task ended $state (log: $(cat "$EMIT/logs/${array_job}_$task.out" 2>&1))"
done
merge_log="$(cat "$EMIT/logs/merge_$merge_job.out" 2>&1)"
echo "$merge_log"
[[ "$(job_field "$merge_job" JobState)" == FAILED && "$(job_field "$merge_job" ExitCode)" == 1:0 ]] ||
    fail "the merge with a task missing should fail with exit code 1: $(scontrol show job --oneliner "$merge_job")"
expect_match "the first merge's log" "$merge_log" "missing: 1 specs \\(tasks $KILLED_TASK\\)"
expect_match "the first merge's log" "$merge_log" "11 shards merged into $WS: 11 runs added, 0 already stored"
[[ "$(cat "$EMIT/failed-tasks.txt")" == "$KILLED_TASK" ]] ||
    fail "failed-tasks.txt should list task $KILLED_TASK, holds '$(cat "$EMIT/failed-tasks.txt")'"

step "resubmitting the failed task"
rm -f "$HOLD"
submit resubmit-failed.sh
array_job2="$submitted_array"
merge_job2="$submitted_merge"
expect_match "the resubmitted array" "$(job_field "$array_job2" ArrayTaskId)" "^$KILLED_TASK(%2)?$"
private_slurm_wait_jobs "$JOB_WAIT_SECONDS" "$array_job2" "$merge_job2" || fail "the resubmitted jobs did not finish"
merge_log2="$(cat "$EMIT/logs/merge_$merge_job2.out" 2>&1)"
echo "$merge_log2"
[[ "$(job_field "$merge_job2" JobState)" == COMPLETED ]] ||
    fail "the second merge should succeed: $(scontrol show job --oneliner "$merge_job2")"
expect_match "the second merge's log" "$merge_log2" "missing: 0 specs"
expect_match "the second merge's log" "$merge_log2" "12 shards merged into $WS: 1 runs added, 11 already stored"
[[ ! -s "$EMIT/failed-tasks.txt" ]] || fail "failed-tasks.txt should be empty: $(cat "$EMIT/failed-tasks.txt")"

step "the same sweep locally, and every figure compared"
"$CLI" "${SWEEP[@]}" --db "$OUT/local.sqlite" --threads 2 || fail "the local sweep failed"
mkdir -p "$OUT/compare/local" "$OUT/compare/slurm"
for name in "${NAMES[@]}"; do
    file="${name//\//_}.json"
    "$CLI" compare --db "$OUT/local.sqlite" "$name" --json "$OUT/compare/local/$file" >/dev/null ||
        fail "compare $name in the local workspace failed"
    "$CLI" compare --db "$WS" "$name" --json "$OUT/compare/slurm/$file" >/dev/null ||
        fail "compare $name in the merged workspace failed"
    cmp -s "$OUT/compare/local/$file" "$OUT/compare/slurm/$file" ||
        fail "$name differs between the local sweep and the Slurm one: $(diff "$OUT/compare/local/$file" "$OUT/compare/slurm/$file" | head -n 20)"
done
grep -q '"avg_jct"' "$OUT/compare/slurm/s_n8_tiresias_s3.json" || fail "compare --json holds no avg_jct"
echo "all ${#NAMES[@]} runs: every figure of compare --json identical"

step "this cluster's nodes through the Slurm node import"
scontrol show node --oneliner >"$OUT/nodes.txt" || fail "scontrol show node failed"
cat "$OUT/nodes.txt"
imported="$("$CLI" import slurm --nodes "$OUT/nodes.txt" --out "$OUT/import" 2>&1)" ||
    fail "import slurm --nodes failed: $imported"
echo "$imported"
# Slurm's gpu:a100 is the A100 of the GPU type table; the partition is the server's group and
# the partition it is in.
expect_match "import slurm" "$imported" "1 nodes, 1 servers with 4 GPUs \\(4 A100\\) in 1 groups"
expect_match "the imported layout" "$(cat "$OUT/import/cluster.json")" \
    '"servers": \[
    \{"name":"clnode1","rack":"debug","gpu_type":"A100","gpus":4,"cpu_cores":2,[^
]*"state":"IDLE","partitions":\["debug"\]\}
  \]'

step "PASS"
