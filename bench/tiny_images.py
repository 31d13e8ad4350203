#!/usr/bin/env python3
"""Gives every image-less post and user of a gramgen corpus made with `--images 0` its own
tiny photo, so the text-heavy benchmark site is valid (a post needs at least one image).

    python3 bench/tiny_images.py SITE_DIR

Each image is distinct (a gradient whose colours come from the folder's name), about 80×96 px,
so gramgen processes every one of them; nothing is shared through its content-addressed cache.
Same corpus => same bytes. Needs pyvips.
"""
import hashlib
import os
import sys

import pyvips


def tiny(seed: str, width: int, height: int) -> bytes:
    h = hashlib.sha256(seed.encode()).digest()
    a, b = [h[0], h[1], h[2]], [h[3], h[4], h[5]]
    x = pyvips.Image.xyz(width, height)[0] / max(1, width - 1)
    y = pyvips.Image.xyz(width, height)[1] / max(1, height - 1)
    t = (x + y) / 2
    bands = [t * (b[i] - a[i]) + a[i] for i in range(3)]
    image = bands[0].bandjoin(bands[1:]).cast("uchar")
    return image.jpegsave_buffer(Q=85, strip=True)


def main(site: str) -> None:
    users = os.path.join(site, "content", "users")
    made = 0
    for handle in sorted(os.listdir(users)):
        user = os.path.join(users, handle)
        if not any(n.startswith("avatar.") for n in os.listdir(user)):
            with open(os.path.join(user, "avatar.jpg"), "wb") as f:
                f.write(tiny("avatar/" + handle, 96, 96))
            made += 1
        posts = os.path.join(user, "posts")
        for slug in sorted(os.listdir(posts)) if os.path.isdir(posts) else []:
            folder = os.path.join(posts, slug)
            if any(n.lower().endswith((".jpg", ".jpeg", ".png", ".webp")) for n in os.listdir(folder)):
                continue
            w, h = [(80, 96), (96, 72), (88, 88)][hashlib.sha256(slug.encode()).digest()[0] % 3]
            with open(os.path.join(folder, "1.jpg"), "wb") as f:
                f.write(tiny(handle + "/" + slug, w, h))
            made += 1
    print(f"{made} tiny images written", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
