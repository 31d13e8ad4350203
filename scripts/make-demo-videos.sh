#!/usr/bin/env bash
# Makes the demo site's two videos from two of its own photos (see docs/CREDITS.md), so they
# carry the photos' licences and nothing else: a slow portrait pan across the fog photo with
# generated wind-like noise, and a slow zoom into the meadow photo without sound.
#   scripts/make-demo-videos.sh
set -euo pipefail
cd "$(dirname "$0")/.."
users=content/users
fog=$users/mina.park/posts/2024-01-20-fog-over-the-lake/1.jpg
meadow=$users/sam.birds/posts/2025-04-12-spring-meadow/1.jpg
quiet=(-nostdin -hide_banner -loglevel error -y)
clean=(-map_metadata -1 -fflags +bitexact -flags:v +bitexact -flags:a +bitexact -movflags +faststart)

pan=$users/mina.park/posts/2025-07-12-fog-lifting
mkdir -p "$pan"
ffmpeg "${quiet[@]}" -loop 1 -framerate 30 -t 8 -i "$fog" \
  -f lavfi -t 8 -i "anoisesrc=color=brown:amplitude=0.05:seed=7,lowpass=f=400,afade=t=in:d=1,afade=t=out:st=7:d=1" \
  -vf "scale=3200:1800,crop=w=1012:h=1800:x='(iw-1012)*t/8':y=0,scale=720:1280,format=yuv420p" \
  -c:v libx264 -preset slow -crf 30 -c:a aac -b:a 64k "${clean[@]}" "$pan/1.mp4"

zoom=$users/sam.birds/posts/2025-10-04-meadow-breeze
mkdir -p "$zoom"
ffmpeg "${quiet[@]}" -i "$meadow" \
  -vf "scale=2560:-2,zoompan=z='1+0.0012*on':d=180:x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':s=1280x720:fps=30,format=yuv420p" \
  -c:v libx264 -preset slow -crf 30 "${clean[@]}" "$zoom/1.mp4"
ls -l "$pan/1.mp4" "$zoom/1.mp4"
