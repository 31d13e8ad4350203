#!/bin/bash
# Alternated pairs of one-off edit builds for two binaries, each on its own copy of the site,
# then as many again with the copies swapped, so neither copy's own speed (where its files sit,
# how its folders grew) favours one binary. Each binary's records are its own: each round starts
# with a build and one edit of each binary on its copy, not timed.
#
#   bench/edit_pairs.sh KIND PAIRS BINARY_A BINARY_B COPY_1 COPY_2 LOG
#
# KIND: caption, hashtag, profile or post (bench/edit_once.sh). COPY_1 and COPY_2: two copies of
# the `run.sh --text 10000` corpus's site (on a tmpfs, say). Appends to LOG one line per build:
# kind, A or B, wall, user and system seconds, peak KiB, round (of the build alone, as run.sh
# times an edit; until 2026-11-28 the edit's own 11 ms were counted too), and before each round a line
# `# round R: N names cached` (the kernel's cache of file names, whose size sets the cost of every
# look-up on this machine: bench/name_cache.c); summarize with bench/pairs.py LOG.
# QUIET=SECONDS waits that long between the edit and its build, as a person saving a file and then
# building does: on this machine a process's fresh memory costs more after a few seconds of quiet
# (bench/results/allocator.md, forty-second session), which builds run back to back never see.
set -eu
kind=$1 pairs=$2 a=$3 b=$4 one=$5 two=$6 log=$7
here=$(dirname "$0")
for round in 1 2; do
  if [ "$round" = 1 ]; then site_a=$one site_b=$two; else site_a=$two site_b=$one; fi
  "$a" build --site "$site_a" --quiet >/dev/null 2>&1 || true
  "$b" build --site "$site_b" --quiet >/dev/null 2>&1 || true
  "$here/edit_once.sh" "$a" "$site_a" "$kind" >/dev/null 2>&1
  "$here/edit_once.sh" "$b" "$site_b" "$kind" >/dev/null 2>&1
  read -r names _ < /proc/sys/fs/dentry-state
  echo "# round $round: $names names cached" >> "$log"
  for i in $(seq 1 "$pairs"); do
    if [ $((i % 2)) = 1 ]; then order="A B"; else order="B A"; fi
    for side in $order; do
      if [ "$side" = A ]; then bin=$a site=$site_a; else bin=$b site=$site_b; fi
      "$here/edit_once.sh" "$bin" "$site" "$kind" --edit-only
      [ -z "${QUIET:-}" ] || sleep "$QUIET"
      /usr/bin/time -f "$kind $side %e %U %S %M $round" -a -o "$log" "$bin" build --site "$site" --quiet
    done
  done
done
