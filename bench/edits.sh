#!/usr/bin/env bash
# How long `gramgen build` takes after one edit of each kind the Speed issue names, on the
# 10,000-post text corpus (`run.sh --text 10000` makes it): a caption edit, a caption edit that
# adds a new hashtag, a new post, a profile edit. Each kind RUNS times, each edit different, each
# build timed as a whole process; prints the median wall seconds and peak RSS of each kind.
#
#   bench/edits.sh [BINARY (default the release build)] [RUNS (default 5)]
#
# Works on a copy of the corpus (hard links; an edited file is written anew, so the corpus stays
# as it is) in /tmp/gramgen-bench/edits/, with the corpus's image cache.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
gramgen=${1:-$here/../.build-release/release/gramgen} runs=${2:-5}
corpus=/tmp/gramgen-bench/text10000/gramgen
[ -d "$corpus/.gramgen" ] || { echo "run bench/run.sh --text 10000 --steps cold first" >&2; exit 1; }
work=/tmp/gramgen-bench/edits site=/tmp/gramgen-bench/edits/site out=/tmp/gramgen-bench/edits/public
rm -rf "$work" && mkdir -p "$work" && cp -al "$corpus" "$site"
"$gramgen" build --site "$site" --output "$out" --quiet
"$gramgen" build --site "$site" --output "$out" --quiet  # the spare is there from now on
post=$(find "$site/content/users" -name post.md | sort | sed -n 1p)
user=$(dirname "$(dirname "$(dirname "$post")")")
photo=$(find "$(dirname "$post")" -name '*.jpg' | sed -n 1p)
log=$(mktemp)
rewrite() { # file text-to-append: a new file in place of the old (never writes into a hard link)
  printf '%s\n%s\n' "$(cat "$1")" "$2" > "$1.new" && mv "$1.new" "$1"
}
for i in $(seq 1 "$runs"); do
  for kind in caption hashtag post profile; do
    case $kind in
      caption) rewrite "$post" "Edited caption $i." ;;
      hashtag) rewrite "$post" "New tag #benchtag$i$RANDOM" ;;
      post) folder="$user/posts/2030-01-0$((i % 9 + 1))-bench-$i-$RANDOM"; mkdir -p "$folder"
            cp "$photo" "$folder/1.jpg"; printf -- '---\ndate: 2030-01-01T10:00:00Z\n---\nA new post %s\n' "$i" > "$folder/post.md" ;;
      profile) rewrite "$user/profile.md" "Bio line $i." ;;
    esac
    /usr/bin/time -f "$kind %e %M" -a -o "$log" "$gramgen" build --site "$site" --output "$out" --quiet
  done
done
python3 - "$log" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    kind, seconds, kib = line.split()
    rows.setdefault(kind, []).append((float(seconds), int(kib)))
print("| edit | median s | min–max s | peak RSS MiB |")
print("| --- | ---: | ---: | ---: |")
for kind, values in rows.items():
    times = [t for t, _ in values]
    print(f"| {kind} | {statistics.median(times):.2f} | {min(times):.2f}–{max(times):.2f} | {max(k for _, k in values) / 1024:.0f} |")
PY
rm -f "$log"
