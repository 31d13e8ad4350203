#!/usr/bin/env bash
# Peak memory of a build: one 100-megapixel photo (12000×8333) and 1,000 small posts, built with
# the release binary from an empty cache, under GNU time. The promise (docs/safety.md): under 1 GiB.
#
#   bench/memory.sh [--posts N] [--jobs J] [--scratch DIR | --binary PATH]
#
# The site is made once in /tmp/gramgen-memory/ (libvips' `vips` command line, from a demo photo).
# Prints the peak RSS of a cold build, of a build with the cache warm, and of the 100 MP photo alone.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
posts=1000 jobs=$(nproc) scratch="$root/.build" gramgen=""
while [ $# -gt 0 ]; do
  case $1 in
    --posts) posts=$2; shift 2;; --jobs) jobs=$2; shift 2;; --scratch) scratch=$2; shift 2;; --binary) gramgen=$2; shift 2;;
    *) sed -n '2,8p' "$0"; exit 2;;
  esac
done
command -v /usr/bin/time >/dev/null || { echo "needs GNU time: apt-get install time" >&2; exit 1; }
command -v vips >/dev/null || { echo "needs the vips command: apt-get install libvips-tools" >&2; exit 1; }

if [ -z "$gramgen" ]; then
  gramgen=$("$root/scripts/build-release.sh" "$scratch")
fi

work=/tmp/gramgen-memory
site=$work/site-$posts
photo=$(ls "$root"/content/users/*/posts/*/1.jpg | head -1)
if [ ! -f "$site/.complete" ]; then
  rm -rf "$site"
  big=$site/content/users/big/posts/2024-01-01-huge
  mkdir -p "$big"
  printf -- '---\nname: Big\n---\n' > "$site/content/users/big/profile.md"
  # 12000×8333 = 99.996 MP: just under the default limit of 100.
  vips thumbnail "$photo" "$big/1.jpg[Q=90]" 12000 --height 8333 --size force
  printf -- 'One hundred megapixels. #huge\n' > "$big/post.md"
  small=$work/small.v
  vips thumbnail "$photo" "$small" 400 --height 400 --crop centre
  for ((i = 0; i < posts; i++)); do
    user=user$((i % 20))
    dir=$site/content/users/$user/posts/$(printf '2023-%02d-%02d-post-%04d' $((i % 12 + 1)) $((i % 28 + 1)) "$i")
    mkdir -p "$dir"
    [ -f "$site/content/users/$user/profile.md" ] || printf -- '---\nname: User %s\n---\n' "$user" > "$site/content/users/$user/profile.md"
    # A different 200×200 window of the photo for each post, so no two sources are alike.
    vips extract_area "$small" "$dir/1.jpg[Q=85]" $((i % 200)) $(((i / 200) * 40 % 200)) 200 200
    printf -- 'Post %d of the memory benchmark. #bench #tag%d @%s\n' "$i" $((i % 50)) "user$(((i + 1) % 20))" > "$dir/post.md"
  done
  touch "$site/.complete"
fi

measure() {  # label, then the command; prints "label: peak RSS MiB, wall s"
  local label=$1; shift
  /usr/bin/time -f '%M %e' -o "$work/time" "$@" >/dev/null 2>"$work/stderr" || { cat "$work/stderr" >&2; exit 1; }
  read -r kb seconds < "$work/time"
  printf '%-28s peak RSS %5d MiB  wall %6.1f s\n' "$label:" $((kb / 1024)) "$seconds"
}

echo "gramgen $(cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo '?'), $(nproc) cores, --jobs $jobs, $posts small posts + 1 photo of 100 MP"
rm -rf "$site/.gramgen" "$work/out"
measure "cold (empty cache)" "$gramgen" build --site "$site" --output "$work/out" --jobs "$jobs"
touch "$site/content/users/big/posts/2024-01-01-huge/post.md"
measure "warm (images cached)" "$gramgen" build --site "$site" --output "$work/out" --jobs "$jobs"
one=$work/one
rm -rf "$one" && mkdir -p "$one/content/users" && cp -r "$site/content/users/big" "$one/content/users/"
measure "the 100 MP photo alone" "$gramgen" build --site "$one" --output "$work/one-out" --jobs "$jobs"
