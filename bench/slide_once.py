#!/usr/bin/env python3
"""The part of the libvips limit that vips_once.py --default-outputs leaves out: the one extra
width gramgen makes of a carousel slide wider than its carousel (ImageSettings.forSlide), in
the same three formats and settings, from a second decode (as gramgen's second pass does).

    python3 bench/slide_once.py list SITE_DIR > slides.txt     # "path<TAB>width" per such slide
    python3 bench/slide_once.py make OUTDIR LINE...            # makes them (run with xargs -P 2)

The rule is gramgen's: a post's carousel takes its first photo's shape; a later photo whose
aspect ratio is `scale` (> 1.01, at most 3, rounded up to hundredths) times the first's gets one
more width, min(widest, 600 × 2) × scale rounded up, when that passes the widest configured
width (1440), never wider than the photo. Sizes are read upright (EXIF orientation applied).
"""
import math
import os
import re
import sys

import pyvips

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "bench"))
from vips_once import BIG, save3  # noqa: E402

WIDEST, BOX, MAX_SCALE = 1440, 600 * 2, 3.0
IMAGE = re.compile(r"\.(jpe?g|png|webp|heic|avif|tiff?)$", re.I)


def upright(path):
    image = pyvips.Image.new_from_file(path)
    orientation = image.get("orientation") if image.get_typeof("orientation") else 1
    return (image.height, image.width) if orientation in (5, 6, 7, 8) else (image.width, image.height)


def natural(name):
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", name)]


def slides(site):
    users = os.path.join(site, "content", "users")
    for handle in sorted(os.listdir(users)):
        posts = os.path.join(users, handle, "posts")
        for post in sorted(os.listdir(posts)) if os.path.isdir(posts) else []:
            folder = os.path.join(posts, post)
            names = sorted((n for n in os.listdir(folder) if IMAGE.search(n)), key=natural)
            if len(names) < 2:
                continue
            fw, fh = upright(os.path.join(folder, names[0]))
            for name in names[1:]:
                w, h = upright(os.path.join(folder, name))
                scale = (w / h) / (fw / fh)
                if scale <= 1.01:
                    continue
                scale = min(MAX_SCALE, math.ceil(scale * 100) / 100)
                width = min(w, max(WIDEST, math.ceil(min(WIDEST, BOX) * scale)))
                if width > WIDEST:
                    yield os.path.join(folder, name), width


def main():
    if sys.argv[1:2] == ["list"]:
        for path, width in slides(sys.argv[2]):
            print(f"{path}\t{width}")
    elif sys.argv[1:2] == ["make"]:
        out = sys.argv[2]
        for line in sys.argv[3:]:
            path, width = line.split("\t")
            stem = os.path.join(out, os.path.basename(os.path.dirname(path)) + "_" + os.path.splitext(os.path.basename(path))[0])
            save3(pyvips.Image.thumbnail(path, int(width), height=BIG, size="down").copy_memory(), f"{stem}_{width}")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
