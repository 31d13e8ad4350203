#!/usr/bin/env bash
# Builds and runs the libFuzzer target Fuzz/CaptionFuzzer.swift: the front-matter reader and the
# caption/hashtag/mention renderer, with AddressSanitizer. See docs/fuzzing.md.
#
#   scripts/fuzz.sh build              # compile .build-fuzz/caption-fuzzer
#   scripts/fuzz.sh run [SECONDS] [libFuzzer flags...]   # build, then fuzz (default 60 s)
#
# The corpus grows in .build-fuzz/corpus (seeded from Fuzz/corpus and Fuzz/regressions); crashers
# are written to .build-fuzz/crashes/. Copy each one to Fuzz/regressions/ (FuzzRegressionTests runs
# them all) and fix it.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=$root/.build-fuzz
sanitize="-sanitize=fuzzer,address"

yams_checkout() {
  for d in .build-fuzz/checkouts/Yams .build/checkouts/Yams; do
    [ -d "$d/Sources/Yams" ] && { echo "$root/$d"; return; }
  done
  swift package --scratch-path .build-fuzz resolve >/dev/null
  echo "$root/.build-fuzz/checkouts/Yams"
}

# True when $1 is missing or older than any of the other files.
stale() {
  local target=$1; shift
  [ -e "$target" ] || return 0
  for f in "$@"; do [ "$f" -nt "$target" ] && return 0; done
  return 1
}

build() {
  local yams; yams=$(yams_checkout)
  mkdir -p "$out/obj" "$out/mod"
  local common=(-swift-version 5 -parse-as-library -O -g -wmo $sanitize -I "$out/mod")
  # libyaml (C) and Yams, instrumented like the rest.
  for f in "$yams"/Sources/CYaml/src/*.c; do
    stale "$out/obj/cyaml-$(basename "$f" .c).o" "$f" || continue
    clang -c -O1 -g -fsanitize=fuzzer-no-link,address -DYAML_DECLARE_STATIC -I "$yams/Sources/CYaml/include" \
      "$f" -o "$out/obj/cyaml-$(basename "$f" .c).o"
  done
  stale "$out/obj/Yams.o" "$yams"/Sources/Yams/*.swift &&
  swiftc "${common[@]}" -module-name Yams -D SWIFT_PACKAGE -I "$yams/Sources/CYaml/include" -Xcc -DYAML_DECLARE_STATIC \
    -emit-module-path "$out/mod/Yams.swiftmodule" -c "$yams"/Sources/Yams/*.swift -o "$out/obj/Yams.o"
  stale "$out/obj/GramgenCore.o" Sources/GramgenCore/*.swift &&
  swiftc "${common[@]}" -module-name GramgenCore -emit-module-path "$out/mod/GramgenCore.swiftmodule" \
    -c Sources/GramgenCore/*.swift -o "$out/obj/GramgenCore.o"
  stale "$out/obj/GramgenMarkdown.o" Sources/GramgenMarkdown/*.swift "$out/obj/GramgenCore.o" &&
  swiftc "${common[@]}" -module-name GramgenMarkdown -I Sources/CCmarkGFM \
    -emit-module-path "$out/mod/GramgenMarkdown.swiftmodule" -c Sources/GramgenMarkdown/*.swift -o "$out/obj/GramgenMarkdown.o"
  stale "$out/obj/GramgenContent.o" Sources/GramgenContent/*.swift "$out/obj/GramgenMarkdown.o" "$out/obj/Yams.o" &&
  swiftc "${common[@]}" -enable-testing -module-name GramgenContent -I Sources/CCmarkGFM -I "$yams/Sources/CYaml/include" \
    -emit-module-path "$out/mod/GramgenContent.swiftmodule" -c Sources/GramgenContent/*.swift -o "$out/obj/GramgenContent.o"
  stale "$out/obj/CaptionFuzzer.o" Fuzz/CaptionFuzzer.swift "$out/obj/GramgenContent.o" &&
  swiftc "${common[@]}" -module-name CaptionFuzzer -I Sources/CCmarkGFM -I "$yams/Sources/CYaml/include" \
    -c Fuzz/CaptionFuzzer.swift -o "$out/obj/CaptionFuzzer.o"
  stale "$out/caption-fuzzer" "$out"/obj/*.o &&
  swiftc $sanitize "$out"/obj/*.o -lcmark-gfm -lcmark-gfm-extensions -o "$out/caption-fuzzer"
  echo "built $out/caption-fuzzer"
}

case "${1:-run}" in
  build) build ;;
  run)
    seconds=${2:-60}; shift $(( $# >= 2 ? 2 : $# ))
    build >&2
    mkdir -p "$out/corpus" "$out/crashes"
    # -rss_limit_mb: a 1 MB caption with ASan stays far below; more means a leak or a blow-up.
    SWIFT_BACKTRACE=enable=no "$out/caption-fuzzer" "$out/corpus" Fuzz/corpus Fuzz/regressions -dict=Fuzz/caption.dict -max_len=65536 \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
      -artifact_prefix="$out/crashes/" -print_final_stats=1 "$@"
    ;;
  *) echo "usage: scripts/fuzz.sh build | run [SECONDS] [libFuzzer flags]" >&2; exit 2 ;;
esac
