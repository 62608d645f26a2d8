#!/usr/bin/env bash
# Engine targets on the whole Philly trace (82,247 jobs; docs/architecture.md section 11), timed
# as a user runs them: the wall time of the whole `clusterloom-cli run` command, reading the
# trace and writing jobs, series, segments and metrics included; best of three, with the peak
# memory (max RSS) of that run.
#
#   large-2048  srtf    nothing queues          target < 1.5 s
#   synergy-512 srtf    jobs queue              target < 3 s
#   synergy-512 muri-s  jobs queue, grouping    target < 30 s and < 1 GB
#
# Usage: bench/philly_engine.sh [CLI [SHARED_DATA_DIR]]
#   CLI defaults to build/release/app/clusterloom-cli, SHARED_DATA_DIR to ../shared/data beside
#   the checkout (the CMake default of CLUSTERLOOM_SHARED_DATA_DIR). Also the CMake target
#   `bench_philly_engine`. Set RUNS (default 3) or CASES (e.g. "synergy-512:srtf") to run fewer.
# Without the trace it says so and exits 0 (nothing to measure). Needs GNU time (/usr/bin/time).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cli="${1:-$here/build/release/app/clusterloom-cli}"
shared="${2:-$here/../shared/data}"
trace="$shared/philly/philly_jobs.csv"
runs="${RUNS:-3}"
cases="${CASES:-large-2048:srtf synergy-512:srtf synergy-512:muri-s}"

if [[ ! -f "$trace" ]]; then
    echo "philly_engine: skipped, no Philly trace at $trace"
    exit 0
fi
if [[ ! -x "$cli" ]]; then
    echo "philly_engine: no clusterloom-cli at $cli (build it first)" >&2
    exit 1
fi
if [[ ! -x /usr/bin/time ]]; then
    echo "philly_engine: needs GNU time at /usr/bin/time" >&2
    exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "philly_engine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), best of $runs"
printf '%-12s %-7s %10s %12s   %s\n' cluster policy wall_s peak_rss_mb "all runs (s)"
for c in $cases; do
    cluster="${c%%:*}"
    policy="${c#*:}"
    best=""
    best_rss=""
    all=""
    for ((i = 0; i < runs; ++i)); do
        rm -rf "$work/out"
        /usr/bin/time -f '%e %M' -o "$work/time" "$cli" run --trace "$trace" --cluster "$cluster" \
            --policy "$policy" --out "$work/out" > /dev/null 2>&1
        read -r wall rss_kb < "$work/time"
        all="$all $wall"
        if [[ -z "$best" ]] || awk -v a="$wall" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            best="$wall"
            best_rss="$rss_kb"
        fi
    done
    printf '%-12s %-7s %10s %12d  %s\n' "$cluster" "$policy" "$best" "$((best_rss / 1024))" "$all"
done
