#!/usr/bin/env python3
"""Slurm's own run-to-run spread: two runs of the fidelity workload compared job by job.

usage: fidelity_spread.py RUN1_DIR RUN2_DIR [WORKLOAD]

Each RUN_DIR is a folder written by tests/slurm/fidelity_workload.sh (its sacct.txt is read). Jobs
are matched by name; each run's times are taken from its own first submission, so the runs'
different wall clocks cancel. Prints a table (submit offset, GPUs, limit, sleep, start in each
run, waits) and the median and p90 of |start difference| and each run's mean wait: the noise a
replay of one run cannot be expected to beat.
"""
import datetime
import os
import sys


def read_run(folder):
    with open(os.path.join(folder, "sacct.txt")) as f:
        header = f.readline().rstrip("\n").split("|")
        rows = [dict(zip(header, line.rstrip("\n").split("|"))) for line in f if line.strip()]
    stamp = lambda s: datetime.datetime.fromisoformat(s).timestamp()
    t0 = min(stamp(r["Submit"]) for r in rows)
    return {r["JobName"]: (stamp(r["Submit"]) - t0, stamp(r["Start"]) - t0, stamp(r["End"]) - t0, r) for r in rows}


def percentile(values, p):
    """Nearest-rank percentile (the smallest value with at least p % of the values at or below it)."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * p // 100))
    return ordered[int(rank) - 1]


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    here = os.path.dirname(os.path.abspath(__file__))
    workload_file = sys.argv[3] if len(sys.argv) == 4 else os.path.join(here, "fidelity_workload.txt")
    workload = {}
    with open(workload_file) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                name, offset, gpus, limit, sleep = line.split()
                workload[name] = (int(offset), int(gpus), int(limit), int(sleep))
    a, b = read_run(sys.argv[1]), read_run(sys.argv[2])
    names = sorted(set(a) & set(b))
    print("job    plan  gpus limit sleep | submit1 start1 wait1 | submit2 start2 wait2 | |start diff|")
    diffs, waits_a, waits_b = [], [], []
    for name in names:
        sa, ta, _, _ = a[name]
        sb, tb, _, _ = b[name]
        offset, gpus, limit, sleep = workload.get(name, (-1, -1, -1, -1))
        diffs.append(abs(ta - tb))
        waits_a.append(ta - sa)
        waits_b.append(tb - sb)
        print(f"{name} {offset:5d} {gpus:5d} {limit:4d}m {sleep:5d} | {sa:7.0f} {ta:6.0f} {ta - sa:5.0f} | "
              f"{sb:7.0f} {tb:6.0f} {tb - sb:5.0f} | {abs(ta - tb):5.0f}")
    print(f"jobs compared: {len(names)} (run 1: {len(a)}, run 2: {len(b)})")
    print(f"|start difference| (s): median {percentile(diffs, 50):.0f}, p90 {percentile(diffs, 90):.0f}, "
          f"max {max(diffs):.0f}, mean {sum(diffs) / len(diffs):.1f}")
    print(f"mean wait (s): run 1 {sum(waits_a) / len(waits_a):.1f}, run 2 {sum(waits_b) / len(waits_b):.1f}")
    print(f"last end (s from first submit): run 1 {max(v[2] for v in a.values()):.0f}, "
          f"run 2 {max(v[2] for v in b.values()):.0f}")


if __name__ == "__main__":
    main()
