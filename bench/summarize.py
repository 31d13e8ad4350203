#!/usr/bin/env python3
"""Medians of bench/run.sh's times.tsv as a Markdown table, with ratios to the baselines."""
import statistics
import sys

path, name, images = sys.argv[1], sys.argv[2], sys.argv[3]
rows = {}
for line in open(path):
    step, value = line.rstrip("\n").split("\t")
    seconds, kib = value.split()
    rows.setdefault(step, []).append((float(seconds), int(kib)))

labels = {
    "once": "libvips decode-once limit (vips_once.py, 2 processes)",
    "cold": "gramgen cold build (empty image cache, no output)",
    "warm": "gramgen build into an empty output, images cached",
    "noop": "gramgen no-op rebuild",
    "edit": "gramgen rebuild after one caption edit",
    "hugo": "Hugo cold build",
    "hugowarm": "Hugo no-op rebuild",
}
median = {step: statistics.median(s for s, _ in values) for step, values in rows.items()}
print(f"Corpus `{name}` ({images} photos), medians of {max(len(v) for v in rows.values())} runs, interleaved:\n")
print("| run | median s | peak RSS MiB | ratio |")
print("| --- | ---: | ---: | --- |")
for step in ["once", "cold", "warm", "noop", "edit", "hugo", "hugowarm"]:
    if step not in rows:
        continue
    rss = max(k for _, k in rows[step]) / 1024
    ratio = ""
    if step in ("cold", "warm") and "hugo" in median:
        ratio = f"{median[step] / median['hugo']:.2f}× Hugo's cold time"
    if step == "cold" and "once" in median:
        ratio = f"{median['cold'] / median['once']:.2f}× the libvips limit" + (f"; {ratio}" if ratio else "")
    if step in ("noop", "edit") and "hugowarm" in median:
        ratio = f"{median[step] / max(median['hugowarm'], 1e-9):.3f}× Hugo's no-op time"
    print(f"| {labels[step]} | {median[step]:.2f} | {rss:.0f} | {ratio} |")
