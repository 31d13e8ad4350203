#!/bin/bash
# Which objects both threads of a build count (retain and release), by type: a count of an
# object the other core counted last moves its cache line between the cores. Every retain and
# release of one build is traced (uprobes: slow, a minute or two, and gigabytes in /tmp), then
# summed by object and thread.
#
#   bench/shared_counts.sh BINARY SITE [OUT]     e.g. bench/shared_counts.sh gramgen /dev/shm/g
#
# Needs perf (apt-get install -y linux-perf), root, and a binary with its symbols (the release
# build). Prints the types whose objects both busiest threads counted (each at least 5% of the
# object's counts), most counted first; tagged and empty values (no count taken) are left out.
set -eu
bin=$(readlink -f "$1") site=$2 out=${3:-/tmp/shared_counts_out}
data=$(mktemp /tmp/shared_counts.XXXXXX)
perf probe -q -d 'shared_counts:*' 2>/dev/null || true
perf probe -q -x "$bin" -a 'shared_counts:retain=swift_retain obj=%di:x64 isa=+0(%di):x64' 2>/dev/null
perf probe -q -x "$bin" -a 'shared_counts:release=swift_release obj=%di:x64 isa=+0(%di):x64' 2>/dev/null
rm -rf "$out"
# Without address randomisation, so the type of each object can be named from the binary's symbols.
setarch -R perf record -q -e shared_counts:retain -e shared_counts:release -o "$data" "$bin" build --site "$site" --output "$out" --quiet --jobs 2
rm -rf "$out"
# An address with its top bit set is a tagged value (a short string in place), not an object.
perf script -i "$data" -F tid,trace 2>/dev/null | mawk '{ o = substr($3, 7) }
  o != "0" && !(length(o) == 16 && substr(o, 1, 1) ~ /[89a-f]/) { n[$3 " " $4 " " $1]++ }
  END { for (k in n) print k, n[k] }' > "$data.objects"
rm -f "$data"
perf probe -q -d 'shared_counts:*'
nm "$bin" | sort > "$data.symbols"
python3 - "$data.objects" "$data.symbols" <<'PY'
import bisect, collections, sys
base = 0x555555554000  # where setarch -R loads a position-independent binary
symbols = sorted((int(a, 16), n) for a, _, n in (l.split() for l in open(sys.argv[2]) if len(l.split()) == 3))
starts = [a for a, _ in symbols]
def name(isa):
    offset = int(isa[4:], 16) - base
    if not 0 <= offset < 1 << 28: return isa
    return symbols[bisect.bisect_right(starts, offset) - 1][1][:80]
objects, threads = collections.defaultdict(dict), collections.Counter()
for line in open(sys.argv[1]):
    obj, isa, tid, count = line.split()
    objects[(obj, isa)][tid] = int(count)
    threads[tid] += int(count)
a, b = [t for t, _ in threads.most_common(2)]
total = sum(threads.values()); shared = collections.Counter()
for (obj, isa), by in objects.items():
    n = sum(by.values())
    if min(by.get(a, 0), by.get(b, 0)) >= 0.05 * n: shared[name(isa)] += n
print(f"counts {total}, on objects both threads count {sum(shared.values())}")
for kind, n in shared.most_common(20): print(f"{n:>11}  {kind}")
PY
rm -f "$data.objects" "$data.symbols"
