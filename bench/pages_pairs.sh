#!/bin/bash
# Pages only (images cached, an empty output each time), two binaries alternated in pairs, each
# on its own copy of a site, then again with the copies swapped (each binary's records are its
# own); prints one line a build: binary, wall s, user s, system s, peak KiB (GNU time).
#
#   bench/pages_pairs.sh A B ROUNDS COPY1 COPY2 [OUT]
#
# COPY1 and COPY2 are copies of the `run.sh --text 10000` corpus (on a tmpfs for steadier
# figures); OUT (default /dev/shm/pages_pairs) is where the outputs go, removed after each
# build. One warm-up build per binary and copy is not printed. Summarise with:
#   awk '{print $1, $2, $3}' LOG   (or compare pair by pair: line 2k-1 is A, line 2k is B)
set -eu
a=$1 b=$2 rounds=$3 copy1=$4 copy2=$5 out=${6:-/dev/shm/pages_pairs}
command -v /usr/bin/time >/dev/null || { echo "needs GNU time: apt-get install -y time" >&2; exit 1; }
run() { # label binary site
  rm -rf "$out"
  /usr/bin/time -f "$1 %e %U %S %M" "$2" build --site "$3" --output "$out" --quiet 2>&1 | tail -1
}
for swap in 0 1; do
  if [ $swap = 0 ]; then sa=$copy1 sb=$copy2; else sa=$copy2 sb=$copy1; fi
  run warm "$a" "$sa" >/dev/null; run warm "$b" "$sb" >/dev/null
  for _ in $(seq "$rounds"); do
    run "$(basename "$a")" "$a" "$sa"
    run "$(basename "$b")" "$b" "$sb"
  done
done
rm -rf "$out"
