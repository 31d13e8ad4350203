#!/usr/bin/env python3
"""Where one build's CPU goes, by part of the build: each sample of a `perf` profile with call
stacks is given to the innermost frame that names a known part (the walk of the inputs, the look
at the kept output files, the post records, the output's manifests, ...), and the parts are
listed by their share of all samples.

    perf record -F 2000 --call-graph dwarf,32768 -o /tmp/build.data gramgen build --site SITE --quiet
    perf script -i /tmp/build.data | python3 bench/phases.py

Swift's mangled names hold the module and type names (`12GramgenBuild10FolderWalk`), so a part is
a piece of the mangled name; the first part in PARTS that the innermost frame naming any of them
holds wins. A sample no frame of which names a part is counted as `other: <outermost frame>` (the
process starting, a pool thread freeing tables). Frame pointers are not enough here: Swift's
release builds leave them out, so the stacks must come from DWARF (`--call-graph dwarf`).
"""
import collections
import re
import sys

# (piece of a mangled name, the part it belongs to); the first that matches a frame is its part.
PARTS = [
    ("10FolderWalk", "check: the walk of the inputs"),
    ("13UpToDateCheck", "check: the up-to-date record"),
    ("9SpareLook", "trust: the look at each kept output file"),
    ("18readManifestsAhead", "records: the output's manifests read"),
    ("14OutputManifest", "records: the output's manifests (tables, saved)"),
    ("8PostMemo", "records: the kept posts"),
    ("9ImageMemo", "records: the kept images"),
    ("13SourceDigests", "records: the source digests"),
    ("12FragmentMemo", "records: the kept cards"),
    ("10SearchMemo", "search: the kept words"),
    ("11SearchIndex", "search: the index"),
    ("12SiteResolver", "load: the site resolved"),
    ("GramgenContent0B6Loader", "load: the content loader"),
    ("13ContentLoader", "load: the content loader"),
    ("GramgenContent", "load: the rest of the content module"),
    ("10ImageStage", "images: the image stage"),
    ("10MediaFiles", "images: the media files' set"),
    ("9IconStage", "images: the icons"),
    ("12InputDigests", "render: the pages' input digests"),
    ("11PageDigests", "render: the pages' input digests"),
    ("13takeOverGroup", "publish: kept pages taken over"),
    ("10FileWriter", "publish: files written"),
    ("9Publisher", "publish: the publisher"),
    ("5ThemeV6render", "render: pages drawn"),
    ("16TemplateRenderer", "render: pages drawn"),
    ("8Activity", "render: the activity tabs"),
    ("7FeedSet", "render: the feeds"),
    ("7PageSet", "render: the page jobs"),
    ("11ViewFactory", "render: the views"),
    ("12SiteRenderer", "render: the rest of the renderer"),
    ("13GramgenRender9HTMLBytes", "render: bytes escaped and appended"),
    ("13GramgenRender9KeptItems", "records: the kept cards"),
    ("13GramgenRender8Messages", "render: the interface texts filled in"),
    ("13GramgenRender9ImageView", "render: the views"),
    ("13GramgenRender8PostView", "render: the views"),
    ("13GramgenRender8PageView", "render: the views"),
    ("13GramgenRender13TemplateValue", "render: pages drawn"),
    ("13GramgenRender8PostList", "render: pages drawn"),
    ("GramgenRender", "render: the rest of the render module"),
    ("GramgenCore4Site", "load: the site's tables"),
    ("GramgenBuild", "build: the rest of the build module"),
    ("_dl_", "the program loaded (ld.so)"),
    ("dl_main", "the program loaded (ld.so)"),
]


def part_of(frames):
    for frame in frames:  # innermost first
        for piece, part in PARTS:
            if piece in frame:
                return part
    return "other: " + (frames[-1] if frames else "?")


def samples(lines):
    """Each sample's frames (symbol names, innermost first) from `perf script` output: a line
    that does not start with blank space opens a sample, each indented one below is a frame."""
    frames = None
    for line in lines:
        fields = line.split()
        if fields and not line[0].isspace():
            if frames is not None:
                yield frames
            frames = []
        elif frames is not None and len(fields) > 1:
            frames.append(re.sub(r"\+0x[0-9a-f]+$", "", fields[1]))
    if frames is not None:
        yield frames


def main():
    if sys.stdin.isatty():
        sys.exit(__doc__)
    counts = collections.Counter(part_of(frames) for frames in samples(sys.stdin))
    total = sum(counts.values())
    if total == 0:
        sys.exit("no samples on stdin (perf script of a profile recorded with --call-graph dwarf)")
    print("| part | share | samples |\n| --- | ---: | ---: |")
    for part, count in counts.most_common(30):
        print(f"| {part[:90]} | {100 * count / total:.1f}% | {count} |")
    print(f"| all | 100% | {total} |")


if __name__ == "__main__":
    main()
