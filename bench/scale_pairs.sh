#!/bin/bash
# Linearity of pages-only builds, alternated: for each binary, a build of a small site and one of
# a large site (images cached, empty output, every card drawn: the kept cards deleted first, as
# `NO_KEPT_CARDS=1 bench/scale.sh` does), the binaries and the sizes taking turns, so that the
# machine's drift (the same build's user time moves by a quarter within minutes here) falls on
# both alike. Prints each pair's user CPU of the large build against the small one's scaled by
# the posts (1.00 = exactly linear), and the median per binary.
#
#   bench/scale_pairs.sh PAIRS SMALL_SITE SMALL_POSTS LARGE_SITE LARGE_POSTS OUTPUT BINARY...
#
# The sites: `bench/scale.sh`'s corpora (`/tmp/gramgen-bench/text<N>u<N/100>/gramgen`), built once
# cold so their images are cached; copies on a tmpfs keep the disk out of the figures. OUTPUT: a
# scratch folder, emptied before each build.
set -eu
pairs=$1 small=$2 small_posts=$3 large=$4 large_posts=$5 out=$6
shift 6
command -v /usr/bin/time >/dev/null || { echo "needs GNU time: apt-get install -y time" >&2; exit 1; }
log=$(mktemp)
run() { # binary label site posts
  rm -rf "$out"
  rm -f "$3/.gramgen/cache/fragments"
  sync
  /usr/bin/time -f "$2 $4 %e %U %S %M" -a -o "$log" "$1" build --site "$3" --output "$out" --quiet
  tail -1 "$log" >&2
}
for i in $(seq 1 "$pairs"); do
  n=0
  for binary in "$@"; do
    n=$((n + 1))
    if [ $((i % 2)) = 1 ]; then
      run "$binary" "$n" "$small" "$small_posts"; run "$binary" "$n" "$large" "$large_posts"
    else
      run "$binary" "$n" "$large" "$large_posts"; run "$binary" "$n" "$small" "$small_posts"
    fi
  done
done
python3 - "$log" "$@" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
binaries = sys.argv[2:]
for index, binary in enumerate(binaries, 1):
    mine = [r for r in rows if r[0] == str(index)]
    small_posts = min(int(r[1]) for r in mine)
    small = [float(r[3]) for r in mine if int(r[1]) == small_posts]
    large = [(int(r[1]), float(r[3])) for r in mine if int(r[1]) != small_posts]
    ratios = [u / (s * n / small_posts) for s, (n, u) in zip(small, large)]
    peak = max(int(r[5]) for r in mine) / 1024
    print(f"{binary}: small user s {', '.join(f'{s:.2f}' for s in small)}; large user s "
          f"{', '.join(f'{u:.2f}' for _, u in large)}; against linear {', '.join(f'{r:.2f}' for r in ratios)}; "
          f"median {statistics.median(ratios):.2f}; peak {peak:.0f} MiB")
PY
rm -f "$log"
