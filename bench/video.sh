#!/usr/bin/env bash
# Video benchmark: 10 phone-like clips of 10–30 s built by gramgen (cold cache) against the
# limit, FFmpeg run by hand with the very same commands, alternating run by run.
#
#   bench/video.sh [--runs R] [--jobs J]
#
# Clips (made once into /tmp/gramgen-bench/video/, by FFmpeg from its test sources with film
# grain so they do not compress like flat graphics, at phone bit rates): 4 Android-style 1920×1080 H.264 MP4 with AAC,
# 3 iPhone-style HEVC MOV 1920×1080 with a 90° display matrix (shown 1080×1920) and AAC,
# 1 screen recording 886×1920 at a variable frame rate, 1 clip without sound, 1 720p clip.
# Steps, each timed R times (wall seconds, peak RSS of the largest process, GNU time):
#   hand    the limit: each clip's transcode command exactly as `gramgen build --verbose` printed
#           it, J at a time (xargs -P), outputs to a scratch folder; no probe, poster or photo work
#   cold    gramgen build --jobs J with an empty cache and no output
#   noop    gramgen build again (the cache and the up-to-date check)
# Results: a Markdown table on stdout and in bench/results/video.md, plus output sizes per
# minute of video. Needs GNU time, exiftool (for the rotation) and ffmpeg.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
runs=3 jobs=2
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=$2; shift 2;; --jobs) jobs=$2; shift 2;;
    *) sed -n '2,18p' "$0"; exit 2;;
  esac
done
command -v /usr/bin/time >/dev/null || { echo "needs GNU time: apt-get install -y time" >&2; exit 1; }
work=/tmp/gramgen-bench/video
site=$work/site
clips=$work/clips
mkdir -p "$clips"
gramgen=${GRAMGEN:-}
[ -n "$gramgen" ] || gramgen=$("$root/scripts/build-release.sh")

q=(-nostdin -hide_banner -loglevel error -y)
grain="noise=alls=6:allf=t"
make_clip() { # name seconds size codec audio extra...
  local name=$1 seconds=$2 size=$3 codec=$4 audio=$5; shift 5
  [ -f "$clips/$name" ] && return
  local inputs=(-f lavfi -i "testsrc2=size=$size:rate=30:duration=$seconds")
  local maps=(-map 0:v)
  if [ "$audio" = 1 ]; then inputs+=(-f lavfi -i "sine=frequency=330:duration=$seconds"); maps+=(-map 1:a -c:a aac -b:a 128k); fi
  # Bit rates as phones record 1080p30: about 16 Mbit/s H.264, 10 Mbit/s HEVC.
  local video=(-c:v libx264 -preset veryfast -b:v 16M -maxrate 16M -bufsize 32M)
  [ "$codec" = hevc ] && video=(-c:v libx265 -preset veryfast -b:v 10M -tag:v hvc1 -x265-params log-level=error)
  ffmpeg "${q[@]}" "${inputs[@]}" -vf "$grain,format=yuv420p" "${maps[@]}" "${video[@]}" "$@" "$clips/$name"
}
echo "making clips in $clips (once)"
make_clip a1.mp4 12 1920x1080 h264 1
make_clip a2.mp4 18 1920x1080 h264 1
make_clip a3.mp4 24 1920x1080 h264 1
make_clip a4.mp4 30 1920x1080 h264 1
for n in 1 2 3; do
  if [ ! -f "$clips/i$n.mov" ]; then
    make_clip "i$n.mov" $((10 + 5 * n)) 1920x1080 hevc 1
    exiftool -q -overwrite_original -Rotation=90 "$clips/i$n.mov"
  fi
done
make_clip s1.mp4 20 886x1920 h264 0 -vf "$grain,format=yuv420p,setpts='if(lt(mod(N,60),30),N/(30*TB),(N+mod(N,7))/(30*TB))'" -fps_mode vfr
make_clip q1.mp4 15 1920x1080 h264 0
make_clip m1.mp4 10 1280x720 h264 1

rm -rf "$site"
mkdir -p "$site/content/users/bench/posts"
printf -- '---\nname: Bench\n---\nClips\n' > "$site/content/users/bench/profile.md"
for clip in "$clips"/*; do
  name=$(basename "$clip"); id="2025-01-01-${name%.*}"
  mkdir -p "$site/content/users/bench/posts/$id"
  cp "$clip" "$site/content/users/bench/posts/$id/1.${name##*.}"
  printf -- '---\n---\nA clip\n' > "$site/content/users/bench/posts/$id/post.md"
done

# The commands gramgen runs, from a verbose build; the transcodes become the hand-run limit.
(cd "$site" && "$gramgen" build --jobs "$jobs" --verbose 2>"$work/verbose.log" >/dev/null)
rm -rf "$work/commands"; mkdir -p "$work/commands"
grep -E "^  /usr/bin/ffmpeg .* -filter_complex " "$work/verbose.log" | sed -E 's#^  ##' > "$work/hand.txt"
[ "$(wc -l < "$work/hand.txt")" = 10 ] || { echo "expected 10 transcode commands, got $(wc -l < "$work/hand.txt")" >&2; exit 1; }
n=0
while IFS= read -r line; do
  n=$((n + 1))
  # Each command as gramgen ran it, writing into a scratch folder of its own.
  printf '%s\n' "$line" | sed -E "s# $site/\\.gramgen/cache/work/[0-9]+-[0-9]+/# $work/hand/$n-#g" > "$work/commands/$n.sh"
done < "$work/hand.txt"
total_seconds=$(for clip in "$clips"/*; do ffprobe -v error -show_entries format=duration -of csv=p=0 "$clip"; done | paste -sd+ | bc)

timed() { # label command...
  local label=$1; shift
  /usr/bin/time -o "$work/time.out" -f "%e %M" "$@" > "$work/step.log" 2>&1 \
    || { echo "$label failed:" >&2; tail -5 "$work/step.log" >&2; exit 1; }
  echo "$label $(tail -1 "$work/time.out")" >> "$work/times.txt"
}
: > "$work/times.txt"
for run in $(seq "$runs"); do
  echo "run $run/$runs"
  rm -rf "$work/hand"; mkdir -p "$work/hand"
  timed hand sh -c "ls '$work/commands'/*.sh | xargs -P $jobs -n 1 sh"
  rm -rf "$site/.gramgen" "$site/public"
  timed cold sh -c "cd '$site' && '$gramgen' build --jobs $jobs --quiet"
  timed noop sh -c "cd '$site' && '$gramgen' build --jobs $jobs --quiet"
done

mp4_bytes=$(find "$site/public/media" -name '*.mp4' -printf '%s\n' | paste -sd+ | bc)
source_bytes=$(find "$clips" -type f -printf '%s\n' | paste -sd+ | bc)
python3 - "$work/times.txt" "$total_seconds" "$mp4_bytes" "$source_bytes" "$runs" "$jobs" <<'PY' | tee "$here/results/video.md"
import statistics, sys
times, seconds, mp4, source, runs, jobs = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6]
rows = {}
for line in open(times):
    label, wall, rss = line.split()
    rows.setdefault(label, []).append((float(wall), int(rss)))
hand = statistics.median(w for w, _ in rows["hand"])
cold_pairs = [c[0] / h[0] for c, h in zip(rows["cold"], rows["hand"])]
print(f"# Video benchmark: 10 clips, {seconds:.0f} s of video, --jobs {jobs}, {runs} runs\n")
print("| step | wall s (median) | min–max | peak RSS MiB | vs hand |")
print("| --- | --- | --- | --- | --- |")
for label in ("hand", "cold", "noop"):
    walls = [w for w, _ in rows[label]]
    rss = max(r for _, r in rows[label]) / 1024
    ratio = f"{statistics.median(cold_pairs):.2f}× (pairs {', '.join(f'{p:.2f}' for p in cold_pairs)})" if label == "cold" else ("1.00×" if label == "hand" else "")
    print(f"| {label} | {statistics.median(walls):.1f} | {min(walls):.1f}–{max(walls):.1f} | {rss:.0f} | {ratio} |")
minutes = seconds / 60
print(f"\nOutput: {mp4 / minutes / 1e6:.1f} MB of MP4 per minute of video (default settings: long side 1080, "
      f"CRF 23, preset medium, AAC 128 kbit/s); the sources: {source / minutes / 1e6:.1f} MB per minute.")
PY
