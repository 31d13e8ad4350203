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
#
# --experimental-lto-mode=full: the whole program optimised once more as one when it is linked
# (LLVM's link-time optimisation: calls between modules inlined, unused code dropped), and
# --omit-frame-pointers: one more register for every function. Same output (byte for byte: the
# demo, 1,500 and 10,000 posts); a pages-only build of 1,500 posts 0.945x the instructions, LTO
# 0.964x of it; the binary 137 MB instead of 148. It costs time here: 10-11 minutes from nothing
# instead of 7, and 6 minutes after any change instead of 1-2 (bench/results/edits.md,
# thirty-fifth session); GRAMGEN_LTO=0 leaves both out, for a quicker build while working on
# the code. Profiles need DWARF call graphs (`perf record --call-graph dwarf`).
# Profile-guided optimisation was tried and is not used: Swift 6.3's compiler fails on it.
#
# -enforce-exclusivity=unchecked: the compiler's static checks that no two accesses to one
# variable overlap stay; the run-time check of each access to a class's stored property
# (`swift_beginAccess`, 60-odd instructions each: a kept post's fields are read 100 times a
# caption edit) is left out of the release binary. Debug builds, which the tests run, keep it, so
# an overlap in tested code still stops them. A caption edit at 10,000 posts ran 809,000 of them,
# 3% of its instructions (bench/results/edits.md, fortieth session).
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release --product gramgen --static-swift-stdlib --scratch-path "${1:-.build}" -Xswiftc -cross-module-optimization
       -Xswiftc -enforce-exclusivity=unchecked)
[ "${GRAMGEN_LTO:-1}" = 0 ] || flags+=(--experimental-lto-mode=full --omit-frame-pointers)
swift build "${flags[@]}" >&2
echo "$(swift build "${flags[@]}" --show-bin-path)/gramgen"
