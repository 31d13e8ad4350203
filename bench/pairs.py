#!/usr/bin/env python3
"""Summarizes a log of bench/edit_pairs.sh: each side's medians, and the median of the pair
ratios (B over A, wall and CPU) with their range, over all rounds and round by round.

    bench/pairs.py LOG
"""
import statistics
import sys


def summary(rows, label):
    a = [r for r in rows if r[1] == "A"]
    b = [r for r in rows if r[1] == "B"]
    if not a or not b:
        return
    for side, runs in (("A", a), ("B", b)):
        wall = statistics.median(float(r[2]) for r in runs)
        cpu = statistics.median(float(r[3]) + float(r[4]) for r in runs)
        rss = int(statistics.median(int(r[5]) for r in runs)) // 1024
        print(f"{label} {side}: wall {wall:.3f} s, CPU {cpu:.3f} s, peak {rss} MiB ({len(runs)} builds)")
    walls = [float(y[2]) / float(x[2]) for x, y in zip(a, b)]
    cpus = [(float(y[3]) + float(y[4])) / (float(x[3]) + float(x[4])) for x, y in zip(a, b)]
    print(f"{label} B/A: wall {statistics.median(walls):.3f}x ({min(walls):.2f}-{max(walls):.2f}), "
          f"CPU {statistics.median(cpus):.3f}x ({min(cpus):.2f}-{max(cpus):.2f}), {len(walls)} pairs")


lines = [line for line in open(sys.argv[1]) if line.strip()]
for line in lines:
    if line.startswith("#"):
        print(line.strip())
rows = [line.split() for line in lines if not line.startswith("#")]
summary(rows, "all")
for round in sorted({r[6] for r in rows if len(r) > 6}):
    summary([r for r in rows if len(r) > 6 and r[6] == round], f"round {round}")
