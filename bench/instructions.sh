#!/bin/bash
# The instructions one build takes (valgrind's callgrind): a figure that does not move with the
# hour, as times on this machine do (up to 2x), for comparing two binaries' code.
#
#   bench/instructions.sh BINARY pages|kept|caption|post [SITE]
#
# pages    a build into an empty output, the image cache kept (pages only), every post read and
#          every card drawn (the binary's records are not used under valgrind: see below)
# kept     the same with the binary's records and kept cards, as the timed pages-only benchmark
#          builds (`run.sh --steps warm`: its warm-up builds leave them)
# caption  a caption edit, then a build (its records and image cache kept, the output published)
# post     a new post with a photo, then a build (as caption: every newest-first page moves)
#
# SITE (default /tmp/gramgen-bench/text1500u30/gramgen, made on first use: 1,500 posts by 30
# users, each with a tiny photo of its own, as `run.sh --text` makes its corpus) is copied, and
# the copy is the binary's own: each binary's records are its own.
#
# Two things about the method:
# - valgrind cannot read this Swift toolchain's debug information: the binary is run as a copy
#   with it stripped (`strip --strip-debug`, the symbols kept for `callgrind_annotate`).
# - A build keeps its records under the stamp of the running executable (`UpToDateCheck.
#   executableStamp`), and under valgrind that is valgrind's tool, not gramgen: records written
#   by a build run natively are not used, and every post is read again. `pages` warms up
#   natively, so its figure includes reading every post (as the figures of the thirty-fifth
#   session and before did); `caption` warms up natively (the image cache, kept by content) and
#   then under callgrind itself, so its build takes the kept posts as a one-off edit build does.
# Prints the total (`I refs`) and leaves the profile in /tmp/instructions-NAME-KIND.out
# (`callgrind_annotate --inclusive=yes FILE | swift demangle --simplified`).
set -eu
binary=$1 kind=$2 site=${3:-/tmp/gramgen-bench/text1500u30/gramgen}
here=$(cd "$(dirname "$0")" && pwd)
command -v valgrind >/dev/null || { echo "needs valgrind: apt-get install -y valgrind" >&2; exit 1; }
if [ ! -d "$site" ]; then
  corpus=$(dirname "$site")
  "$here/../../shared/bench/make-corpus.sh" --out "$corpus" --users 30 --posts 1500 --images 0 --seed 1 --emit gramgen >&2
  python3 "$here/tiny_images.py" "$corpus/gramgen" >&2
fi
name=$(basename "$binary")
work=/tmp/instructions-$name
rm -rf "$work"
mkdir -p "$work"
strip --strip-debug -o "$work/gramgen" "$binary"
cp -r "$site" "$work/site"
out=/tmp/instructions-$name-$kind.out
callgrind() { valgrind --tool=callgrind --callgrind-out-file="$out" "$work/gramgen" build --site "$work/site" --quiet 2>&1 | grep "I *refs" | sed "s/^==[0-9]*==/$name $kind/"; }
case $kind in
  pages)
    "$work/gramgen" build --site "$work/site" --quiet
    rm -rf "$work/site/public"
    callgrind ;;
  kept)
    "$work/gramgen" build --site "$work/site" --quiet  # the image cache filled
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$work/gramgen" build --site "$work/site" --quiet 2>/dev/null
    rm -rf "$work/site/public" "$work/site/.public.spare"
    callgrind ;;
  caption|post)
    "$work/gramgen" build --site "$work/site" --quiet  # the image cache filled (it is kept by content, not by executable)
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$work/gramgen" build --site "$work/site" --quiet 2>/dev/null
    "$here/edit_once.sh" "$work/gramgen" "$work/site" "$kind" --edit-only
    callgrind ;;
  *) echo "kind: pages, kept, caption or post" >&2; exit 2 ;;
esac
rm -rf "$work"
