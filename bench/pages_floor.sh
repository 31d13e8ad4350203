#!/usr/bin/env bash
# Pages only against Hugo, with the floor of each output's shape: in one run, interleaved,
#   warm        gramgen build into an empty output, images cached (as run.sh --text's `warm`)
#   hugo        Hugo cold (rm -rf public resources; hugo)
#   floor       bench/tree_floor.py: gramgen's output made again from memory (folders, files,
#               media links), nothing drawn: what the file system charges for its shape alone
#   hugofloor   the same for Hugo's output
# each with wall, user and system seconds (GNU time), medians of R runs.
#
#   bench/pages_floor.sh [POSTS (default 10000)] [RUNS (default 3)] [BINARY]
#
# The corpus is run.sh --text's (/tmp/gramgen-bench/text<POSTS>, made and its image cache filled
# when missing). Set WORK=/dev/shm to run on a tmpfs copy (the corpus is copied to WORK/floor-text<POSTS>).
# Results: a Markdown table on stdout and in bench/results/pages-floor-<POSTS>.md (RESULTS=FILE).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
posts=${1:-10000} runs=${2:-3} gramgen=${3:-}
command -v /usr/bin/time >/dev/null || { echo "needs GNU time: apt-get install -y time" >&2; exit 1; }
command -v hugo >/dev/null || { echo "needs Hugo: apt-get install -y hugo" >&2; exit 1; }
corpus=/tmp/gramgen-bench/text$posts
if [ ! -f "$corpus/manifest.json" ]; then
  "$here/run.sh" --text "$posts" --runs 1 --steps cold >&2
fi
if [ -z "$gramgen" ]; then
  gramgen=$("$root/scripts/build-release.sh" .build-release)
fi
# Everything it makes and deletes is inside a folder of its own under WORK.
work=${WORK:-/tmp/gramgen-bench}/floor-text$posts
mkdir -p "$work"
site=$corpus/gramgen hugo=$corpus/hugo
if [ -n "${WORK:-}" ]; then
  [ -d "$work/gramgen" ] || cp -a "$corpus/gramgen" "$work/gramgen"
  [ -d "$work/hugo" ] || cp -a "$corpus/hugo" "$work/hugo"
  site=$work/gramgen hugo=$work/hugo
fi
# The reference outputs the floors copy (the image cache is filled by the first build).
"$gramgen" build --site "$site" --output "$work/ref-gramgen" --quiet
rm -rf "$work/ref-hugo"; hugo --quiet -s "$hugo" -d "$work/ref-hugo"
log="$work/times.tsv"
: > "$log"
measure() { # step command...
  local step=$1; shift
  /usr/bin/time -f '%e %U %S %M' -o "$work/last" "$@" >"$work/stdout" 2>"$work/stderr" || { cat "$work/stderr" >&2; exit 1; }
  local floor=""
  [[ $step == *floor ]] && floor=" $(cut -d' ' -f1 "$work/stdout")"
  printf '%s\t%s%s\n' "$step" "$(cat "$work/last")" "$floor" >> "$log"
  echo "  $step: $(cat "$work/last")$floor (wall user sys KiB [timed part])" >&2
}
for i in $(seq 1 "$runs"); do
  echo "run $i/$runs" >&2
  rm -rf "$work/public"
  measure warm "$gramgen" build --site "$site" --output "$work/public" --quiet
  (cd "$hugo" && rm -rf public resources)
  measure hugo hugo --quiet -s "$hugo"
  measure floor python3 "$here/tree_floor.py" "$work/ref-gramgen" "$work/copy"
  measure hugofloor python3 "$here/tree_floor.py" "$work/ref-hugo" "$work/copy"
done
rm -rf "$work/copy"
count() { find "$1" -mindepth 1 -type d | wc -l; find "$1" -type f -links 1 | wc -l; find "$1" -type f -links +1 | wc -l; du -s --apparent-size -m "$1" | cut -f1; }
python3 - "$log" "$posts" "$(count "$work/ref-gramgen" | xargs)" "$(count "$work/ref-hugo" | xargs)" "${WORK:-disk}" <<'EOF' | tee "${RESULTS:-$root/bench/results/pages-floor-$posts.md}"
import statistics, sys
log, posts, gshape, hshape, where = sys.argv[1:]
rows = {}
for line in open(log):
    step, value = line.rstrip("\n").split("\t")
    rows.setdefault(step, []).append([float(x) for x in value.split()])
med = lambda step, i: statistics.median(r[i] for r in rows[step])
g, h = gshape.split(), hshape.split()
print(f"Text corpus of {posts} posts, images cached, output on {where}; medians of {len(rows['warm'])} runs, interleaved.\n")
print(f"gramgen's output: {g[0]} folders, {g[1]} files, {g[2]} media links, {g[3]} MB; "
      f"Hugo's: {h[0]} folders, {h[1]} files, {h[2]} links, {h[3]} MB.\n")
print("| run | wall s | user s | system s | peak RSS MiB | against Hugo's wall |")
print("| --- | ---: | ---: | ---: | ---: | ---: |")
labels = {"warm": "gramgen, pages only", "hugo": "Hugo cold",
          "floor": "floor: gramgen's output made again from memory", "hugofloor": "floor: Hugo's output made again"}
for step in ["warm", "hugo", "floor", "hugofloor"]:
    wall = med(step, 4) if step.endswith("floor") else med(step, 0)
    print(f"| {labels[step]} | {wall:.2f} | {med(step, 1):.2f} | {med(step, 2):.2f} | {max(r[3] for r in rows[step]) / 1024:.0f} "
          f"| {wall / med('hugo', 0):.2f}× |")
print(f"\nThe floors' wall is their timed part (folders and files made, no reading or start-up).")
EOF
