#!/usr/bin/env bash
# Builds the release gramgen and prints the binary's path: the one place that says how.
#
#   scripts/build-release.sh [SCRATCH_PATH]     SwiftPM's build folder, .build by default
#
# --static-swift-stdlib: the binary carries the Swift runtime and Foundation in itself. Starting
# it looks none of their symbols up (`gramgen --version` 16 ms against 26 ms), and it runs on a
# machine without the Swift toolchain; libvips, cmark-gfm and jemalloc still come from Debian.
# bench/results/edits.md (twenty-fourth session) has what it does to a one-off build.
#
# -cross-module-optimization: the modules' code may be inlined and specialised into one another
# (the renderer into the template engine's, the build into the core's tables and digests), not
# only where a declaration says so. Same site, same bytes out (61,637 files at 10,000 posts, and
# the demo), pages only at 10,000 posts 0.89x the user CPU (4 alternated pairs), 8-13 MiB more
# peak memory (bench/results/edits.md, thirty-second session).
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release --product gramgen --static-swift-stdlib --scratch-path "${1:-.build}" -Xswiftc -cross-module-optimization)
swift build "${flags[@]}" >&2
echo "$(swift build "${flags[@]}" --show-bin-path)/gramgen"
