#!/usr/bin/env bash
# Installs the Debian packages gramgen builds against (libvips, cmark-gfm, jemalloc and their headers)
# and runs (FFmpeg, for videos).
set -euo pipefail
packages=(libvips-dev libcmark-gfm-dev libcmark-gfm-extensions-dev libjemalloc-dev pkg-config ffmpeg)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update
$sudo apt-get install -y "${missing[@]}"
