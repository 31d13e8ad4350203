#!/usr/bin/env bash
# Builds the release gramgen and prints the binary's path: the one place that says how.
#
#   scripts/build-release.sh [SCRATCH_PATH]     SwiftPM's build folder, .build by default
#
# --static-swift-stdlib: the binary carries the Swift runtime and Foundation in itself. Starting
# it looks none of their symbols up (`gramgen --version` 16 ms against 26 ms), and it runs on a
# machine without the Swift toolchain; libvips, cmark-gfm and jemalloc still come from Debian.
# bench/results/edits.md (twenty-fourth session) has what it does to a one-off build.
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release --product gramgen --static-swift-stdlib --scratch-path "${1:-.build}")
swift build "${flags[@]}" >&2
echo "$(swift build "${flags[@]}" --show-bin-path)/gramgen"
