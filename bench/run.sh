#!/usr/bin/env bash
# gramgen's benchmark: the same corpus built by gramgen and by the baselines, alternating,
# in one run, so the ratios hold on a noisy machine.
#
#   bench/run.sh [--posts N] [--images K] [--users U] [--runs R] [--steps "once cold noop edit hugo"]
#                [--settings init|corpus] [--min-long PX --max-long PX]
#   bench/run.sh --text N [--runs R] [--steps "cold warm noop edit hugo hugowarm"]
#
# GRAMGEN=BINARY measures that binary instead of a release build of this checkout (made in
# .build-release, a build folder of its own).
#
# Settings (photo corpus): `init` (the default) builds with the site.yml `gramgen init` writes
# (AVIF+WebP+JPEG at 320/640/1080/1440 and a 480 square: 15 outputs per photo), and `once` makes
# the same outputs (vips_once.py --default-outputs); `corpus` keeps the corpus's own site.yml
# (WebP+JPEG at 320/640/1080 and a 320 square: 8 outputs; vips_once.py --site-outputs).
# --min-long/--max-long pass photo sizes to make-corpus.sh (an Instagram-sized archive:
# --min-long 1080 --max-long 1350).
#
# Corpus: ../shared/bench/make-corpus.sh (real photos, 3000–4032 px, a third with EXIF rotation),
# kept in /tmp/gramgen-bench/. `--text N` makes the text-heavy corpus instead: N posts by 100
# users with `--images 0`, then bench/tiny_images.py gives each post its own tiny photo (a post
# needs one); Hugo gets the same posts without photos. Steps, each timed R times (wall seconds
# and peak RSS of the largest process, GNU time), interleaved run by run:
#   once   the libvips limit: vips_once.py (one decode per source, every output of the site.yml
#          from memory), 2 processes, VIPS_CONCURRENCY=1; with the init settings also the one
#          extra width of each slide wider than its carousel (bench/slide_once.py)
#   cold   gramgen build with an empty cache and no output
#   warm   gramgen build into an empty output with the image cache kept (pages only)
#   noop   gramgen build again, nothing changed
#   edit   gramgen build after one caption changed
#   hugo   Hugo (Debian's hugo) cold: rm -rf public resources; hugo   (slow; once per run)
#   hugowarm  Hugo again with nothing changed
# Results: a Markdown table on stdout and in bench/results/<corpus>.md (medians, ratios to `once`
# for image steps and to `hugo` where it ran); RESULTS=FILE writes them elsewhere.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
shared=$(cd "$root/../shared/bench" && pwd)
posts=50 images=2 users=20 runs=5 steps="once cold noop edit" text=0 settings=init sizes=()
while [ $# -gt 0 ]; do
  case $1 in
    --posts) posts=$2; shift 2;; --images) images=$2; shift 2;; --users) users=$2; shift 2;;
    --runs) runs=$2; shift 2;; --steps) steps=$2; shift 2;;
    --settings) settings=$2; shift 2;;
    --min-long|--max-long) sizes+=("$1" "$2"); shift 2;;
    --text) text=1; posts=$2; images=0; users=100; shift 2
            [[ " $* " == *" --steps "* ]] || steps="cold warm noop edit hugo hugowarm";;
    *) sed -n '2,34p' "$0"; exit 2;;
  esac
done
command -v /usr/bin/time >/dev/null || { echo "needs GNU time: apt-get install -y time" >&2; exit 1; }
name="p${posts}x${images}"
[ ${#sizes[@]} -gt 0 ] && name="$name-long$(printf '%s' "${sizes[1]}-${sizes[3]:-}")"
[ "$text" = 1 ] && name="text${posts}"
corpus=/tmp/gramgen-bench/$name
work=/tmp/gramgen-bench/work-$name
if [ ! -f "$corpus/manifest.json" ]; then
  if [ "$text" = 1 ]; then
    "$shared/make-corpus.sh" --out "$corpus" --users "$users" --posts "$posts" --images 0 --seed 1 --emit gramgen,hugo >&2
    python3 "$here/tiny_images.py" "$corpus/gramgen" >&2
  else
    "$shared/make-corpus.sh" --out "$corpus" --users "$users" --posts "$posts" --images "$images" --seed 1 "${sizes[@]}" >&2
  fi
fi
gramgen=${GRAMGEN:-$("$root/scripts/build-release.sh" .build-release)}
site="$corpus/gramgen"
outputs=--site-outputs
if [ "$text" = 0 ] && [ "$settings" = init ]; then
  # The corpus's photos (hard links) with the site.yml a new site gets from `gramgen init`.
  name="$name-init" work="$work-init" outputs=--default-outputs site="$work/site"
  if [ ! -f "$site/content/site.yml" ]; then
    mkdir -p "$work"
    cp -al "$corpus/gramgen" "$site"
    rm "$site/content/site.yml"
    "$gramgen" init "$work/init" >/dev/null
    cp "$work/init/content/site.yml" "$site/content/site.yml"
  fi
fi
mkdir -p "$work" "$root/bench/results"
: > "$work/slides.txt"
[ "$outputs" = --default-outputs ] && python3 "$here/slide_once.py" list "$site" > "$work/slides.txt"
log="$work/times.tsv"
: > "$log"

measure() { # step command...
  local step=$1; shift
  /usr/bin/time -f '%e %M' -o "$work/last" "$@" >/dev/null 2>"$work/stderr" || { cat "$work/stderr" >&2; exit 1; }
  printf '%s\t%s\n' "$step" "$(cat "$work/last")" >> "$log"
  echo "  $step: $(cat "$work/last") (s KiB)" >&2
}

edit_post=$(find "$site/content/users" -name post.md | sort | sed -n 1p)
for i in $(seq 1 "$runs"); do
  echo "run $i/$runs" >&2
  for step in $steps; do
    case $step in
      once)
        rm -rf "$work/once"; mkdir -p "$work/once"
        # Then, with the init settings, the extra width of each slide wider than its carousel
        # (bench/slide_once.py): the same outputs as gramgen's.
        measure once env VIPS_CONCURRENCY=1 sh -c 'xargs -a "$1" -d "\n" -P 2 -n 10 python3 "$2" "$3" "$4" &&
          { [ ! -s "$5" ] || xargs -a "$5" -d "\n" -P 2 -n 2 python3 "$6" make "$4"; }' sh \
          "$corpus/images.txt" "$shared/vips_once.py" $outputs "$work/once" "$work/slides.txt" "$here/slide_once.py";;
      cold)
        rm -rf "$site/.gramgen" "$work/public"
        measure cold "$gramgen" build --site "$site" --output "$work/public" --quiet;;
      warm)
        rm -rf "$work/public"
        measure warm "$gramgen" build --site "$site" --output "$work/public" --quiet;;
      noop)
        measure noop "$gramgen" build --site "$site" --output "$work/public" --quiet;;
      edit)
        printf '%s\n' "$(cat "$edit_post")" " bench edit $i" > "$edit_post.new" && mv "$edit_post.new" "$edit_post" # a new file: the corpus's own stays as it is
        measure edit "$gramgen" build --site "$site" --output "$work/public" --quiet;;
      hugo)
        (cd "$corpus/hugo" && rm -rf public resources)
        measure hugo hugo --quiet -s "$corpus/hugo";;
      hugowarm)
        measure hugowarm hugo --quiet -s "$corpus/hugo";;
    esac
  done
done
photos=$(find "$site/content/users" -path '*/posts/*' -name '*.jpg' | wc -l)
python3 "$here/summarize.py" "$log" "$name" "$photos" | tee "${RESULTS:-$root/bench/results/$name.md}"
