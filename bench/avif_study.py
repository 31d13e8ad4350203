#!/usr/bin/env python3
"""What AVIF buys at each width, against WebP and JPEG, at gramgen's default settings.

    python3 bench/avif_study.py [--photos N] [--efforts 2,4] IMAGES_TXT > bench/results/avif.md

For the first N photos of a corpus list (../shared/bench make-corpus.sh's images.txt), each
decoded once and shrunk to every default width (320/640/1080/1440) as gramgen does, this encodes
AVIF (quality 55 = gramgen's 80 - 25, at each effort given), WebP (80, effort 4) and progressive
JPEG (80), and measures per format and width: bytes, encode time (one thread, VIPS_CONCURRENCY=1,
best of 2) and SSIM of the decoded file against the image it was made from (luma, 8×8 Gaussian
windows, numpy). The table gives medians over the photos, and for AVIF against WebP the bytes it
saves per second of extra encode time. Needs pyvips and numpy.
"""
import argparse
import os
import statistics
import sys
import time

os.environ.setdefault("VIPS_CONCURRENCY", "1")
import numpy as np  # noqa: E402
import pyvips  # noqa: E402

WIDTHS = (320, 640, 1080, 1440)
BIG = 10_000_000


def luma(image):
    image = image.colourspace("b-w") if image.bands >= 3 else image
    if image.hasalpha():
        image = image.flatten()
    return np.ndarray(buffer=image.extract_band(0).write_to_memory(), dtype=np.uint8,
                      shape=(image.height, image.width)).astype(np.float64)


def blur(a):
    # Separable Gaussian, sigma 1.5, radius 5 (the usual SSIM window).
    k = np.exp(-0.5 * (np.arange(-5, 6) / 1.5) ** 2)
    k /= k.sum()
    a = np.apply_along_axis(lambda r: np.convolve(r, k, mode="valid"), 1, a)
    return np.apply_along_axis(lambda c: np.convolve(c, k, mode="valid"), 0, a)


def ssim(x, y):
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    mx, my = blur(x), blur(y)
    sxx, syy, sxy = blur(x * x) - mx * mx, blur(y * y) - my * my, blur(x * y) - mx * my
    return float((((2 * mx * my + c1) * (2 * sxy + c2)) / ((mx * mx + my * my + c1) * (sxx + syy + c2))).mean())


def encoders(efforts):
    out = {f"avif e{e}": (lambda im, e=e: im.heifsave_buffer(Q=55, compression="av1", effort=e, strip=True)) for e in efforts}
    out["webp"] = lambda im: im.webpsave_buffer(Q=80, effort=4, strip=True)
    out["jpeg"] = lambda im: im.jpegsave_buffer(Q=80, interlace=True, strip=True)
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("images")
    parser.add_argument("--photos", type=int, default=8)
    parser.add_argument("--efforts", default="2")
    args = parser.parse_args()
    files = [line.strip() for line in open(args.images) if line.strip()][: args.photos]
    formats = encoders([int(e) for e in args.efforts.split(",")])
    rows = {}  # (format, width) -> list of (bytes, seconds, ssim)
    for path in files:
        base = pyvips.Image.thumbnail(path, max(WIDTHS), height=BIG, size="down").copy_memory()
        for width in WIDTHS:
            if width > base.width:
                continue
            image = base if width == base.width else base.thumbnail_image(width, height=BIG).copy_memory()
            reference = luma(image)
            for name, encode in formats.items():
                seconds = []
                for _ in range(2):
                    started = time.perf_counter()
                    data = encode(image)
                    seconds.append(time.perf_counter() - started)
                decoded = pyvips.Image.new_from_buffer(data, "")
                rows.setdefault((name, width), []).append((len(data), min(seconds), ssim(reference, luma(decoded))))
        print(f"  {os.path.basename(path)} done", file=sys.stderr)

    print(f"{len(files)} photos of {args.images}, one thread; medians per photo.\n")
    print("| width | format | bytes | encode ms | SSIM | AVIF vs WebP: bytes saved / extra encode s |")
    print("| ---: | --- | ---: | ---: | ---: | ---: |")
    for width in WIDTHS:
        webp = rows.get(("webp", width))
        for name in formats:
            values = rows.get((name, width))
            if not values:
                continue
            b = statistics.median(v[0] for v in values)
            s = statistics.median(v[1] for v in values)
            q = statistics.median(v[2] for v in values)
            trade = ""
            if name.startswith("avif") and webp:
                saved = statistics.median(w[0] - a[0] for w, a in zip(webp, values))
                extra = statistics.median(a[1] - w[1] for w, a in zip(webp, values))
                trade = f"{saved / 1024:.1f} KiB / {extra * 1000:.0f} ms" + (f" = {saved / 1024 / extra:.0f} KiB/s" if extra > 0 else "")
            print(f"| {width} | {name} | {b / 1024:.1f} KiB | {s * 1000:.0f} | {q:.4f} | {trade} |")


if __name__ == "__main__":
    main()
