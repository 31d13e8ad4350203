#!/usr/bin/env bash
# Regenerates the image fixtures of Tests/GramgenImagingTests/Fixtures with the vips CLI
# (Debian: libvips-tools). Each colour fixture is one flat colour, sRGB (200, 30, 60), stored in
# another colour space, so a test can check that gramgen brings it back to the same sRGB colour.
set -euo pipefail
out="$(cd "$(dirname "$0")/.." && pwd)/Tests/GramgenImagingTests/Fixtures"
photo="$(cd "$(dirname "$0")/.." && pwd)/Tests/GramgenBuildTests/Fixtures/sites/basic/content/users/alice/posts/2024-05-25-river/1.jpg"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

vips black "$tmp/black.v" 96 64 --bands 3
vips linear "$tmp/black.v" "$tmp/lin.v" "1 1 1" "200 30 60"
vips cast "$tmp/lin.v" "$tmp/flat.v" uchar
vips copy "$tmp/flat.v" "$tmp/flat-srgb.v" --interpretation srgb

vips icc_transform "$tmp/flat-srgb.v" "$out/p3.jpg[Q=95]" p3 --input-profile srgb
vips icc_transform "$tmp/flat-srgb.v" "$out/cmyk.jpg[Q=95]" /usr/share/color/icc/ghostscript/default_cmyk.icc --input-profile srgb
vips jpegsave "$out/cmyk.jpg" "$out/cmyk-no-profile.jpg" --Q 95 --strip
# ghostscript ships small CMYK and Adobe RGB (1998) profiles: apt-get install ghostscript
if [ -f /usr/share/color/icc/ghostscript/a98.icc ]; then
  vips icc_transform "$tmp/flat-srgb.v" "$out/adobe-rgb.jpg[Q=95]" /usr/share/color/icc/ghostscript/a98.icc --input-profile srgb
fi

# Half-transparent PNG, and a 16-bit PNG of the same colour.
vips bandjoin_const "$tmp/flat-srgb.v" "$tmp/alpha.v" 128
vips copy "$tmp/alpha.v" "$out/alpha.png"
vips linear "$tmp/flat-srgb.v" "$tmp/lin16.v" 257 0
vips cast "$tmp/lin16.v" "$tmp/c16.v" ushort
vips copy "$tmp/c16.v" "$out/rgb16.png" --interpretation rgb16

# Other input formats, from a real photo (480×320).
vips thumbnail "$photo" "$out/photo.heic[Q=60]" 240
vips thumbnail "$photo" "$out/photo.avif[Q=50]" 240
vips thumbnail "$photo" "$out/photo.webp[Q=60]" 240
vips thumbnail "$photo" "$out/photo.tif[compression=jpeg]" 240
vips thumbnail "$photo" "$out/photo.gif" 240
vips thumbnail "$photo" "$out/tiny.png" 1 --height 1 --size force
vips thumbnail "$photo" "$out/panorama.jpg[Q=70]" 1200 --height 100 --crop centre --size force
ls -la "$out"
