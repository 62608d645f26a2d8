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
# A second case checks that the constraints hold against Slurm: a node with GPUs of two types
# (Gres=gpu:a100:8,gpu:v100:8) in two partitions of different PriorityTier runs the four jobs of
# tests/slurm/fidelity_typed_workload.txt (typed and untyped requests, a job in two partitions);
# the replay must start each job on GPUs of its requested type within 10 s of Slurm's start.
#
#   slurm_fidelity_test.sh CLI SHARED_DATA_DIR OUT_DIR
#
# SHARED_DATA_DIR is not used (the workload is in this folder). Fails (never skips) without
# slurm-wlm, munge or jq. About five minutes, nearly all of it the first workload's run.
#
# SLURM_FIDELITY_RECORDED=DIR skips the Slurm run and replays a recorded one instead (a folder
# written by fidelity_workload.sh: sacct.txt, nodes.txt, partitions.txt, config.txt), for working
# on the scheduler without waiting five minutes each time; SLURM_FIDELITY_RECORDED_TYPED=DIR does the
# same for the second case (without it, a recorded first case skips the second).
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
# shellcheck source=tests/slurm/private_slurm.sh
source "$HERE/private_slurm.sh"
# shellcheck source=tests/slurm/fidelity_workload.sh
source "$HERE/fidelity_workload.sh"
export PRIVATE_SLURM_KEEP_LOGS="$OUT/slurm-logs"

# record CONFIGURE DIR WHAT: runs a workload on a fresh private Slurm configured by CONFIGURE.
record() {
    step "starting a private Slurm: $3"
    "$1"
    private_slurm_start || fail "the private Slurm did not start (see the messages above)"
    step "running the workload"
    fidelity_run "$2" || fail "the workload did not run through (see the messages above)"
    # The replay gets the machine to itself.
    private_slurm_stop
}

# replay DIR OUT: imports a recorded run into OUT/import and replays it under --policy slurm into
# OUT/replay.json (and, with the jobs' GPUs, OUT/run).
replay() {
    local recorded="$1" out="$2" f
    for f in sacct.txt nodes.txt partitions.txt config.txt; do
        [[ -s "$recorded/$f" ]] || fail "the recorded run lacks $recorded/$f"
    done
    grep -E '^(SchedulerType|SchedulerParameters|SelectType|PriorityType) ' "$recorded/config.txt"
    step "importing the history, the node and the partitions"
    "$CLI" import slurm --sacct "$recorded/sacct.txt" --nodes "$recorded/nodes.txt" \
        --partitions "$recorded/partitions.txt" --out "$out/import" || fail "import slurm failed"
    [[ -s "$out/import/trace.csv" && -s "$out/import/cluster.json" ]] ||
        fail "import slurm wrote no trace.csv or cluster.json in $out/import"
    step "replaying under --policy slurm"
    "$CLI" replay-check --trace "$out/import/trace.csv" --cluster "$out/import/cluster.json" --policy slurm \
        --slurm-config "$recorded/config.txt" --json "$out/replay.json" || fail "replay-check failed"
    jq -e . "$out/replay.json" >/dev/null || fail "replay-check wrote no JSON in $out/replay.json"
    jq -r '"start difference: median \(.start_difference_s.median) s, p90 \(.start_difference_s.p90) s, max \(.start_difference_s.max) s",
           "mean wait: simulated \(.wait_simulated_s.mean) s, recorded \(.wait_recorded_s.mean) s"' \
        "$out/replay.json" || fail "replay.json lacks start_difference_s or the waits: $(head -c 2000 "$out/replay.json")"
}

failed=0
check() {
    jq -e "$3" "$1" >/dev/null || {
        echo "slurm_fidelity: not met: $2" >&2
        failed=1
    }
}

# The first case: fifty jobs on one node of 16 GPUs.
if [[ -n "${SLURM_FIDELITY_RECORDED:-}" ]]; then
    RECORDED="$SLURM_FIDELITY_RECORDED"
    step "using the recorded run in $RECORDED"
else
    RECORDED="$OUT/slurm"
    record fidelity_configure "$RECORDED" "one node with 16 GPUs (about four and a half minutes)"
fi
replay "$RECORDED" "$OUT"
step "the replay against Slurm"
check "$OUT/replay.json" "median |start difference| <= 10 s" '.start_difference_s.median <= 10'
check "$OUT/replay.json" "p90 |start difference| <= 60 s" '.start_difference_s.p90 <= 60'
check "$OUT/replay.json" "mean wait within 15 % of the recorded one" \
    '(.wait_simulated_s.mean - .wait_recorded_s.mean | if . < 0 then -. else . end) <= 0.15 * .wait_recorded_s.mean'
[[ $failed -eq 0 ]] || fail "the replay is further from Slurm than allowed (figures above; $OUT/replay.json)"

# The second case: GPU types and partitions (tests/slurm/fidelity_typed_workload.txt).
TYPED="$OUT/typed"
mkdir -p "$TYPED"
if [[ -n "${SLURM_FIDELITY_RECORDED_TYPED:-}" ]]; then
    TYPED_RECORDED="$SLURM_FIDELITY_RECORDED_TYPED"
    step "using the recorded typed-GRES run in $TYPED_RECORDED"
elif [[ -n "${SLURM_FIDELITY_RECORDED:-}" ]]; then
    step "PASS (the typed-GRES case is skipped with a recorded first case)"
    exit 0
else
    TYPED_RECORDED="$TYPED/slurm"
    record fidelity_configure_typed "$TYPED_RECORDED" "one node with 8 a100 and 8 v100 GPUs, two partitions"
fi
# Slurm ran each typed job on its type (the recording is right).
sacct_row() { awk -F'|' -v n="$1" '$2 == n' "$TYPED_RECORDED/sacct.txt"; }
[[ "$(sacct_row a100x8)" == *"gres/gpu:a100=8"*"gres/gpu:a100=8"* ]] || fail "Slurm did not run a100x8 on a100: $(sacct_row a100x8)"
[[ "$(sacct_row v100x4)" == *"gres/gpu:v100=4"*"gres/gpu:v100=4"* ]] || fail "Slurm did not run v100x4 on v100: $(sacct_row v100x4)"
replay "$TYPED_RECORDED" "$TYPED"
step "the typed-GRES replay against Slurm"
check "$TYPED/replay.json" "every job started" '.jobs == 4'
check "$TYPED/replay.json" "|start difference| <= 10 s for every job" '.start_difference_s.max <= 10'
# Where each job ran: the cluster numbers the a100 server's GPUs 0-7 and the v100 server's 8-15.
"$CLI" run --trace "$TYPED/import/trace.csv" --cluster "$TYPED/import/cluster.json" --policy slurm \
    --slurm-config "$TYPED_RECORDED/config.txt" --outputs jobs,segments --out "$TYPED/run" >/dev/null ||
    fail "run --policy slurm failed on the typed-GRES case"
on_type() {  # on_type NAME LOW HIGH: every GPU the job NAME used is in LOW..HIGH
    local id index
    id="$(sacct_row "$1" | cut -d'|' -f1)"
    index="$(awk -F, -v id="$id" 'NR > 1 && $2 == id { print $1 }' "$TYPED/run/slurm/jobs.csv")"
    [[ -n "$index" ]] && awk -F, -v j="$index" -v lo="$2" -v hi="$3" \
        'NR > 1 && $4 == j { n++; if ($1 < lo || $1 > hi) bad++ } END { exit !(n > 0 && bad == 0) }' \
        "$TYPED/run/slurm/segments.csv"
}
on_type a100x8 0 7 || { echo "slurm_fidelity: not met: a100x8 on the a100 GPUs" >&2; failed=1; }
on_type v100x4 8 15 || { echo "slurm_fidelity: not met: v100x4 on the v100 GPUs" >&2; failed=1; }
[[ $failed -eq 0 ]] || fail "the typed-GRES replay does not keep Slurm's constraints (figures above; $TYPED)"

step "PASS"
