#!/usr/bin/env bash
# Does gramgen scale linearly? Builds the text-heavy corpus with N and 2N posts, alternating, and
# prints each median and the ratio (target: at most 2.05× for twice the posts).
#
#   bench/doubling.sh [N (default 5000)] [RUNS (default 5)] [STEP: cold|warm (default warm)]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
n=${1:-5000} runs=${2:-5} step=${3:-warm}
for posts in "$n" $((2 * n)); do "$here/run.sh" --text "$posts" --runs 1 --steps cold >/dev/null; done
gramgen="$here/../.build-release/release/gramgen"
log=$(mktemp)
for i in $(seq 1 "$runs"); do
  for posts in "$n" $((2 * n)); do
    site=/tmp/gramgen-bench/text$posts/gramgen out=/tmp/gramgen-bench/work-text$posts/public
    rm -rf "$out"
    [ "$step" = cold ] && rm -rf "$site/.gramgen"
    /usr/bin/time -f "$posts %e %M" -a -o "$log" "$gramgen" build --site "$site" --output "$out" --quiet
  done
done
python3 - "$log" "$n" "$step" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    posts, seconds, kib = line.split()
    rows.setdefault(int(posts), []).append((float(seconds), int(kib)))
n, step = int(sys.argv[2]), sys.argv[3]
a, b = (statistics.median(s for s, _ in rows[p]) for p in (n, 2 * n))
print(f"| posts | {step} build median s | peak RSS MiB |\n| ---: | ---: | ---: |")
for p in (n, 2 * n):
    print(f"| {p} | {statistics.median(s for s, _ in rows[p]):.2f} | {max(k for _, k in rows[p]) / 1024:.0f} |")
print(f"\n{2 * n} posts take {b / a:.2f}× the time of {n} (target ≤ 2.05×).")
PY
rm -f "$log"
