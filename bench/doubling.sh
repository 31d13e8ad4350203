#!/usr/bin/env bash
# Does gramgen scale linearly? Builds the text-heavy corpus with N and 2N posts, alternating, and
# prints each median and the ratio (target: at most 2.1× for twice the posts).
#
#   bench/doubling.sh [N (default 5000)] [RUNS (default 5)] [STEP: cold|warm (default warm)]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
n=${1:-5000} runs=${2:-5} step=${3:-warm}
# Makes each corpus and fills its image cache once, leaving bench/results/ alone.
for posts in "$n" $((2 * n)); do
  [ -d "/tmp/gramgen-bench/text$posts/gramgen/.gramgen" ] && continue
  RESULTS=/dev/null "$here/run.sh" --text "$posts" --runs 1 --steps cold >/dev/null
done
gramgen="$here/../.build-release/release/gramgen"
log=$(mktemp)
for i in $(seq 1 "$runs"); do
  for posts in "$n" $((2 * n)); do
    site=/tmp/gramgen-bench/text$posts/gramgen out=/tmp/gramgen-bench/work-text$posts/public
    rm -rf "$out"
    [ "$step" = cold ] && rm -rf "$site/.gramgen"
    /usr/bin/time -f "$posts %e %M %U" -a -o "$log" "$gramgen" build --site "$site" --output "$out" --quiet
  done
done
python3 - "$log" "$n" "$step" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    posts, seconds, kib, user = line.split()
    rows.setdefault(int(posts), []).append((float(seconds), int(kib), float(user)))
n, step = int(sys.argv[2]), sys.argv[3]
med = lambda p, i: statistics.median(r[i] for r in rows[p])
print(f"| posts | {step} build median s | user CPU median s | peak RSS MiB |\n| ---: | ---: | ---: | ---: |")
for p in (n, 2 * n):
    print(f"| {p} | {med(p, 0):.2f} | {med(p, 2):.2f} | {max(r[1] for r in rows[p]) / 1024:.0f} |")
print(f"\n{2 * n} posts take {med(2 * n, 0) / med(n, 0):.2f}× the time of {n} (target ≤ 2.1×), "
      f"{med(2 * n, 2) / med(n, 2):.2f}× the user CPU.")
PY
rm -f "$log"
