#!/usr/bin/env python3
"""Writes the Slurm fidelity workload (tests/slurm/fidelity_workload.txt was made with seed 32).

usage: make_fidelity_workload.py [SEED] > fidelity_workload.txt

50 jobs for one node of 16 GPUs: mostly 1 to 4 GPUs, with 8-, 12- and 16-GPU ones; time limits
of whole minutes (Slurm keeps limits in minutes), mostly one; sleeps of 1/3 to 1/2 of the limit;
one to three seconds between submissions. On stderr: the run's length and mean wait under a plain EASY
backfill with the limits as estimates, to keep the whole run near five minutes.
"""
import random
import sys


def make(seed):
    r = random.Random(seed)
    gpus = [1] * 26 + [2] * 10 + [3] * 3 + [4] * 3 + [6] * 1 + [8] * 4 + [12] * 1 + [16] * 2
    r.shuffle(gpus)
    jobs, t = [], 0
    for k in gpus:
        if k >= 8:
            limit = 1
            sleep = r.randint(20, 23)
        else:
            limit = r.choice([1, 1, 1, 1, 1, 1, 2, 3])
            sleep = r.randint(20, 30) if limit == 1 else r.randint(20 * limit, 21 * limit)
        jobs.append((t, k, limit, sleep))
        t += r.choice([1, 1, 2, 2, 3, 3])
    return jobs


def easy_backfill(jobs, total=16):
    """Start times under EASY backfill (FIFO; later jobs may start if they do not delay the first)."""
    queue, running, starts, i = [], [], {}, 0
    while len(starts) < len(jobs):
        times = [jobs[i][0]] if i < len(jobs) else []
        now = min(times + [r[0] for r in running])
        running = [r for r in running if r[0] > now]
        while i < len(jobs) and jobs[i][0] <= now:
            queue.append(i)
            i += 1
        free = total - sum(r[1] for r in running)

        def start(q):
            starts[q] = now
            running.append((now + jobs[q][3], jobs[q][1], now + 60 * jobs[q][2]))
            queue.remove(q)
            return jobs[q][1]

        while queue and jobs[queue[0]][1] <= free:
            free -= start(queue[0])
        if not queue:
            continue
        need, avail, shadow, extra = jobs[queue[0]][1], free, None, 0
        for limit_end, k in sorted((r[2], r[1]) for r in running):
            avail += k
            if avail >= need:
                shadow, extra = limit_end, avail - need
                break
        for q in list(queue[1:]):
            k, ends_in_time = jobs[q][1], now + 60 * jobs[q][2] <= shadow
            if k <= free and (ends_in_time or k <= extra):
                if not ends_in_time:
                    extra -= k
                free -= start(q)
    waits = [starts[q] - jobs[q][0] for q in starts]
    return max(starts[q] + jobs[q][3] for q in starts), sum(waits) / len(waits)


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 32
    jobs = make(seed)
    end, mean_wait = easy_backfill(jobs)
    print(f"seed {seed}: last job ends at {end} s, mean wait {mean_wait:.1f} s", file=sys.stderr)
    for n, (t, k, limit, sleep) in enumerate(jobs, 1):
        print(f"fid{n:02d} {t} {k} {limit} {sleep}")


if __name__ == "__main__":
    main()
