#!/usr/bin/env bash
# slurm_fidelity: the `slurm` scheduler replays what a real Slurm did (docs/architecture.md section
# 11, "slurm"). A private Slurm 22.05 of one node with 16 GPUs runs the fixed workload of
# tests/slurm/fidelity_workload.txt (50 jobs submitted over 96 s, backfill, priority/basic; every
# setting in fidelity_workload.sh); its history, written as sacct --parsable2, and its node,
# partition and configuration listings are imported, and the replay under --policy slurm with
# that configuration must start the jobs when Slurm started them:
#   median |simulated start - recorded start| <= 10 s, p90 <= 60 s, and the mean wait within 15 %
#   of the recorded mean wait.
# Slurm itself is not exact: in four runs of the workload, pairs of runs differed by a median of
# 0 to 3 s per job's start, 5 to 13 s at the 90th percentile (at most 62 s), and their mean waits
# by up to 5 % (its once-a-second backfill cycles, the second-granular clock); the bounds leave
# room for that.
#
#   slurm_fidelity_test.sh CLI SHARED_DATA_DIR OUT_DIR
#
# SHARED_DATA_DIR is not used (the workload is in this folder). Fails (never skips) without
# slurm-wlm, munge or jq. About five minutes, nearly all of it the workload's run.
#
# SLURM_FIDELITY_RECORDED=DIR skips the Slurm run and replays a recorded one instead (a folder
# written by fidelity_workload.sh: sacct.txt, nodes.txt, partitions.txt, config.txt), for working
# on the scheduler without waiting five minutes each time.
set -uo pipefail

CLI="$1"
OUT="$3"
HERE="$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")"
test_started_at="$EPOCHREALTIME"

fail() {
    echo "slurm_fidelity: FAIL: $*" >&2
    exit 1
}
step() { printf '\n== %s (%.1f s)\n' "$*" "$(awk -v a="$test_started_at" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')"; }

[[ -x "$CLI" ]] || fail "clusterloom-cli not found at $CLI"
command -v jq >/dev/null || fail "jq is missing (Debian package jq)"

rm -rf "$OUT"
mkdir -p "$OUT"
if [[ -n "${SLURM_FIDELITY_RECORDED:-}" ]]; then
    RECORDED="$SLURM_FIDELITY_RECORDED"
    step "using the recorded run in $RECORDED"
else
    RECORDED="$OUT/slurm"
    export PRIVATE_SLURM_KEEP_LOGS="$OUT/slurm-logs"
    # shellcheck source=tests/slurm/private_slurm.sh
    source "$HERE/private_slurm.sh"
    # shellcheck source=tests/slurm/fidelity_workload.sh
    source "$HERE/fidelity_workload.sh"
    step "starting a private Slurm with one node of 16 GPUs"
    fidelity_configure
    private_slurm_start || fail "the private Slurm did not start (see the messages above)"
    step "running the workload (about four and a half minutes)"
    fidelity_run "$RECORDED" || fail "the workload did not run through (see the messages above)"
    # The replay gets the machine to itself.
    private_slurm_stop
fi
for f in sacct.txt nodes.txt partitions.txt config.txt; do
    [[ -s "$RECORDED/$f" ]] || fail "the recorded run lacks $RECORDED/$f"
done
grep -E '^(SchedulerType|SchedulerParameters|SelectType|PriorityType) ' "$RECORDED/config.txt"

step "importing the history, the node and the partitions"
"$CLI" import slurm --sacct "$RECORDED/sacct.txt" --nodes "$RECORDED/nodes.txt" \
    --partitions "$RECORDED/partitions.txt" --out "$OUT/import" || fail "import slurm failed"
[[ -s "$OUT/import/trace.csv" && -s "$OUT/import/cluster.json" ]] ||
    fail "import slurm wrote no trace.csv or cluster.json in $OUT/import"

step "replaying under --policy slurm"
"$CLI" replay-check --trace "$OUT/import/trace.csv" --cluster "$OUT/import/cluster.json" --policy slurm \
    --slurm-config "$RECORDED/config.txt" --json "$OUT/replay.json" || fail "replay-check failed"
jq -e . "$OUT/replay.json" >/dev/null || fail "replay-check wrote no JSON in $OUT/replay.json"

step "the replay against Slurm"
jq -r '"start difference: median \(.start_difference_s.median) s, p90 \(.start_difference_s.p90) s",
       "mean wait: simulated \(.wait_simulated_s.mean) s, recorded \(.wait_recorded_s.mean) s"' \
    "$OUT/replay.json" || fail "replay.json lacks start_difference_s or the waits: $(head -c 2000 "$OUT/replay.json")"
failed=0
check() {
    jq -e "$2" "$OUT/replay.json" >/dev/null || {
        echo "slurm_fidelity: not met: $1" >&2
        failed=1
    }
}
check "median |start difference| <= 10 s" '.start_difference_s.median <= 10'
check "p90 |start difference| <= 60 s" '.start_difference_s.p90 <= 60'
check "mean wait within 15 % of the recorded one" \
    '(.wait_simulated_s.mean - .wait_recorded_s.mean | if . < 0 then -. else . end) <= 0.15 * .wait_recorded_s.mean'
[[ $failed -eq 0 ]] || fail "the replay is further from Slurm than allowed (figures above; $OUT/replay.json)"

step "PASS"
