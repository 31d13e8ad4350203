#!/usr/bin/env bash
# Does gramgen grow linearly with the site? Builds text-heavy corpora of several sizes (100 posts
# per user, one tiny photo per post, as `run.sh --text`) and times, for each: a cold build (which
# fills the image cache), a build into an empty output with the cache kept (pages only) and a
# no-op. Prints wall, user CPU, system CPU and peak RSS, and the user CPU of each size against the
# first size's, scaled by the posts (1.00 = exactly linear).
#
#   bench/scale.sh [SIZES (default "10000 50000 100000")]
#
# GRAMGEN=BINARY measures that binary instead of building this checkout's. NO_KEPT_CARDS=1
# deletes the kept cards and tiles (`.gramgen/cache/fragments`) before each pages-only build, so
# every card is drawn: the work itself, without the memo, which is bounded (96 MB) and so holds
# nearly every card of a 10,000-post site but a fraction of a 100,000-post one's.
#
# Corpora go to /tmp/gramgen-bench/text<N>u<N/100>/ (about 2 GB at 100,000 posts); the cold
# build of 100,000 tiny photos takes some 15 minutes on 2 cores, later runs reuse the cache.
# Results: a Markdown table on stdout and in bench/results/scale.md (RESULTS=FILE elsewhere).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
shared=$(cd "$root/../shared/bench" && pwd)
sizes=${1:-10000 50000 100000}
command -v /usr/bin/time >/dev/null || { echo "needs GNU time: apt-get install -y time" >&2; exit 1; }
if [ -n "${GRAMGEN:-}" ]; then
  gramgen=$GRAMGEN
else
  gramgen=$("$root/scripts/build-release.sh" .build-release)
fi
log=$(mktemp)
for n in $sizes; do
  users=$((n / 100))
  corpus=/tmp/gramgen-bench/text${n}u$users
  if [ ! -f "$corpus/manifest.json" ]; then
    "$shared/make-corpus.sh" --out "$corpus" --users "$users" --posts "$n" --images 0 --seed 1 --emit gramgen >&2
    python3 "$here/tiny_images.py" "$corpus/gramgen" >&2
  fi
  site=$corpus/gramgen out=$corpus/public
  steps="warm noop"
  [ -d "$site/.gramgen" ] || steps="cold warm noop"
  for step in $steps; do
    [ "$step" = noop ] || rm -rf "$out" "$corpus/.public.spare"
    [ "$step" = cold ] && rm -rf "$site/.gramgen"
    [ "$step" = warm ] && [ "${NO_KEPT_CARDS:-0}" = 1 ] && rm -f "$site/.gramgen/cache/fragments"
    sync
    /usr/bin/time -f "$n $step %e %U %S %M" -a -o "$log" "$gramgen" build --site "$site" --output "$out" --quiet
    tail -1 "$log" >&2
  done
done
python3 - "$log" <<'PY' | tee "${RESULTS:-$here/results/scale.md}"
import sys
rows = [line.split() for line in open(sys.argv[1])]
first = {}
print("| posts | step | wall s | user s | system s | peak RSS MiB | user CPU vs linear |")
print("| ---: | --- | ---: | ---: | ---: | ---: | ---: |")
for n, step, wall, user, system, kib in rows:
    n, user = int(n), float(user)
    base = first.setdefault(step, (n, user))
    ratio = user / (base[1] * n / base[0]) if base[1] > 0 else 0
    print(f"| {n:,} | {step} | {float(wall):.2f} | {user:.2f} | {float(system):.2f} | {int(kib) / 1024:.0f} | {ratio:.2f} |")
PY
rm -f "$log"
