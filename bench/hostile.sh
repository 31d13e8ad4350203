#!/usr/bin/env bash
# Hostile inputs, as a user could make them by accident or on purpose: each case builds a small
# site in a temporary folder and reports what gramgen did with it: exit code, wall time, peak
# memory, output size, and whether anything outside the site was read, published or deleted.
#
#   bench/hostile.sh [path/to/gramgen]        (default: the debug build in .build/)
#
# Every case runs under `timeout 120`; a hang shows as exit 124. Nothing outside the temporary
# folder is touched: the "outside" folders are made inside it.
set -uo pipefail
cd "$(dirname "$0")/.."
bin="${1:-.build/debug/gramgen}"
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
photo="$(pwd)/content/users/ana.travels/avatar.jpg"
work=$(mktemp -d "${TMPDIR:-/tmp}/gramgen-hostile.XXXXXX")
trap 'chmod -R u+rwx "$work" 2>/dev/null; rm -rf "$work"' EXIT

printf '%-34s %5s %8s %9s %10s  %s\n' case exit "wall s" "peak MiB" "out KiB" notes

# A fresh site with one user and one post: site/content/users/ann/posts/2024-01-01-a/1.jpg,
# and beside it (outside the site) a folder holding a secret, linked to as "$site/outside".
new_site() {
  local site="$work/$1/site"
  mkdir -p "$site/content/users/ann/posts/2024-01-01-a" "$work/$1/outside"
  ln -s "$work/$1/outside" "$site/outside"
  printf -- '---\nname: Ann\n---\nHi\n' > "$site/content/users/ann/profile.md"
  printf -- '---\n---\nA caption\n' > "$site/content/users/ann/posts/2024-01-01-a/post.md"
  cp "$photo" "$site/content/users/ann/posts/2024-01-01-a/1.jpg"
  echo "secret" > "$site/outside/id_rsa"
  echo "$site"
}

# run NAME SITE NOTES -- gramgen arguments…
run() {
  local name=$1 site=$2 notes=$3; shift 4
  local t="$work/$name.time"
  ( cd "$site" && timeout 120 /usr/bin/time -f '%e %M' -o "$t" "$bin" "$@" >"$work/$name.log" 2>&1 )
  local rc=$?
  local wall rss
  read -r wall rss < <(tail -1 "$t" 2>/dev/null || echo "- 0")
  local out=0
  [ -d "$site/public" ] && out=$(du -sk "$site/public" 2>/dev/null | cut -f1)
  printf '%-34s %5s %8s %9s %10s  %s\n' "$name" "$rc" "$wall" "$((rss / 1024))" "$out" "$notes"
  grep -m1 -E 'error|warning' "$work/$name.log" | cut -c1-160 | sed 's/^/    /'
}

# 1. Folders that are links out of the site.
s=$(new_site templates-link); ln -s "$s/outside" "$s/templates"
run templates-link "$s" "$(echo) leaked if id_rsa is published" -- build --quiet
[ -n "$(find "$s/public" -name 'id_rsa*' 2>/dev/null)" ] && echo "    LEAKED: outside/id_rsa published"

s=$(new_site static-link); ln -s "$s/outside" "$s/static"
run static-link "$s" "" -- build --quiet
[ -e "$s/public/id_rsa" ] && echo "    LEAKED: outside/id_rsa published"

s=$(new_site content-users-link); mkdir -p "$s/outside/eve/posts"; ln -s "$s/outside/eve" "$s/content/users/eve"
printf -- '---\n---\n' > "$s/outside/eve/profile.md"
run content-users-link "$s" "" -- build --quiet

s=$(new_site cache-link); mkdir -p "$s/.gramgen" "$s/outside/keep"; echo keep > "$s/outside/keep/file"
ln -s "$s/outside/keep" "$s/.gramgen/cache"
run cache-link "$s" "" -- build --quiet
[ -e "$s/outside/keep/file" ] || echo "    DELETED: a file outside the site"

s=$(new_site output-not-ours); mkdir -p "$s/outside/Documents"; echo mine > "$s/outside/Documents/letter.txt"
run output-not-ours "$s" "" -- build --quiet --output "$s/outside/Documents"
[ -e "$s/outside/Documents/letter.txt" ] || echo "    DELETED: outside/Documents/letter.txt"

# 2. Special files.
s=$(new_site fifo-image); mkfifo "$s/content/users/ann/posts/2024-01-01-a/2.jpg"
run fifo-image "$s" "" -- build --quiet
s=$(new_site fifo-avatar); mkfifo "$s/content/users/ann/avatar.jpg"
run fifo-avatar "$s" "" -- build --quiet
s=$(new_site fifo-static); mkdir -p "$s/static"; mkfifo "$s/static/robots.txt"
run fifo-static "$s" "" -- build --quiet
s=$(new_site fifo-new-post); mkfifo "$s/pipe.jpg"
run fifo-new-post "$s" "" -- new post ann fifo "$s/pipe.jpg"
[ -d "$s/content/users/ann/posts" ] && ls "$s/content/users/ann/posts" | grep -q fifo && echo "    LEFT BEHIND: a post folder"

# 3. Work that grows faster than the input.
table_caption() { # columns rows
  python3 - "$1" "$2" <<'EOF'
import sys
cols, rows = int(sys.argv[1]), int(sys.argv[2])
print("---\n---")
print("|" + "|".join("h" for _ in range(cols)) + "|")
print("|" + "|".join("-" for _ in range(cols)) + "|")
for _ in range(rows):
    print("|x|")
EOF
}
s=$(new_site table-17k); table_caption 1500 2500 > "$s/content/users/ann/posts/2024-01-01-a/post.md"
run table-17k "$s" "$(wc -c < "$s/content/users/ann/posts/2024-01-01-a/post.md") B caption" -- build --quiet
s=$(new_site brackets-64k); { printf -- '---\n---\n'; python3 -c "print('![[]()' * 10900)"; } \
  > "$s/content/users/ann/posts/2024-01-01-a/post.md"
run brackets-64k "$s" "$(wc -c < "$s/content/users/ann/posts/2024-01-01-a/post.md") B caption" -- build --quiet
s=$(new_site partial-loop); mkdir -p "$s/templates"; printf '{{> tile}}{{> tile}}' > "$s/templates/tile.mustache"
run partial-loop "$s" "" -- build --quiet

# 4. Names.
s=$(new_site long-tag); tag=$(python3 -c "print('가' * 90)")
printf -- '---\n---\n#%s\n' "$tag" > "$s/content/users/ann/posts/2024-01-01-a/post.md"
run long-tag "$s" "" -- build --quiet

# 5. Sensitive posts.
s=$(new_site sensitive); printf -- '---\nsensitive: true\n---\n#tag\n' > "$s/content/users/ann/posts/2024-01-01-a/post.md"
run sensitive "$s" "" -- build --quiet
if [ -d "$s/public" ]; then
  # Every page that shows a media file of the post outside a <details class="sensitive"> cover.
  python3 - "$s/public" <<'EOF'
import pathlib, re, sys
root = pathlib.Path(sys.argv[1])
bad = []
for page in root.rglob("*.html"):
    html = page.read_text()
    html = re.sub(r'<details class="sensitive[^"]*".*?</details>', "", html, flags=re.S)
    if re.search(r'media/[^"\s]+\.(jpe?g|webp|avif)', html):
        bad.append(str(page.relative_to(root)))
print("    uncovered on %d pages: %s" % (len(bad), ", ".join(sorted(bad)[:8])))
EOF
fi
