#!/usr/bin/env bash
# Regenerates every demo image under content/ from photographs shipped in
# Debian/Ubuntu wallpaper packages (see docs/CREDITS.md for authors and
# licences):
#
#   sudo apt-get install -y plasma-workspace-wallpapers mate-backgrounds \
#                           lomiri-wallpapers-20.04 libvips-tools
#   scripts/make-demo-images.sh
#
# Every output is a plain sRGB baseline JPEG, metadata stripped, at most
# 1600 px on the long side and at most 300 KB (avatars: 400x400, < 60 KB).
# The script is deterministic: running it twice gives the same files.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
U="$ROOT/content/users"
export VIPS_WARNING=0   # silence "unknown EXIF resolution unit" from some sources

KDE=/usr/share/wallpapers
MATE=/usr/share/backgrounds/mate/nature
LOMIRI=/usr/share/backgrounds

# Sources (all photographs).
BYTHEWATER=$KDE/BytheWater/contents/images/2560x1600.jpg
COLDRIPPLE=$KDE/ColdRipple/contents/images/2560x1600.jpg
CUPS=$KDE/ColorfulCups/contents/images/2560x1600.jpg
DARKEST=$KDE/DarkestHour/contents/images/2560x1600.jpg
EVENING=$KDE/EveningGlow/contents/images/2560x1600.jpg
LEAF=$KDE/FallenLeaf/contents/images/2560x1600.jpg
GREY=$KDE/Grey/contents/images/2560x1600.jpg
KITE=$KDE/Kite/contents/images/2560x1600.jpg
MOSS=$KDE/OneStandsOut/contents/images/2560x1600.jpg
FOREST=$KDE/Path/contents/images/2560x1600.jpg
SUMMER=$KDE/summer_1am/contents/images/2560x1600.jpg
AQUA=$MATE/Aqua.jpg
BLINDS=$MATE/Blinds.jpg
DUNE=$MATE/Dune.jpg
FRESH=$MATE/FreshFlower.jpg
GARDEN=$MATE/Garden.jpg
MEADOW=$MATE/GreenMeadow.jpg
LADYBIRD=$MATE/LadyBird.jpg
RAIN=$MATE/RainDrops.jpg
STORM=$MATE/Storm.jpg
WINGS=$MATE/TwoWings.jpg
WOOD=$MATE/Wood.jpg
YELLOW=$MATE/YellowFlower.jpg
KLEIBER=$LOMIRI/Kleiber_by_Lukas_Baubkus.jpg

command -v vips >/dev/null || { echo "error: the vips CLI is missing (apt-get install libvips-tools)" >&2; exit 1; }
for f in "$BYTHEWATER" "$COLDRIPPLE" "$CUPS" "$DARKEST" "$EVENING" "$LEAF" "$GREY" \
         "$KITE" "$MOSS" "$FOREST" "$SUMMER" "$AQUA" "$BLINDS" "$DUNE" "$FRESH" \
         "$GARDEN" "$MEADOW" "$LADYBIRD" "$RAIN" "$STORM" "$WINGS" "$WOOD" \
         "$YELLOW" "$KLEIBER"; do
  [ -f "$f" ] || { echo "error: $f is missing; install plasma-workspace-wallpapers mate-backgrounds lomiri-wallpapers-20.04" >&2; exit 1; }
done

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

# save IN OUT W H MAXKB: resize/crop IN to exactly WxH (attention crop when the
# aspect ratio differs) and save as JPEG, lowering the quality until the file
# is at most MAXKB kilobytes.
save() {
  local in=$1 out=$2 w=$3 h=$4 max=$5 q
  mkdir -p "$(dirname "$out")"
  for q in 82 78 74 70 66 62 58; do
    vips thumbnail "$in" "$TMP/out.jpg[Q=$q,strip,optimize_coding]" "$w" --height "$h" --crop attention
    if [ "$(stat -c %s "$TMP/out.jpg")" -le $((max * 1024)) ]; then
      mv "$TMP/out.jpg" "$out"
      return
    fi
  done
  echo "error: $out is still larger than ${max} KB at Q=$q" >&2
  exit 1
}

# fit SRC OUT W H: the whole photo, smart-cropped to WxH.
fit() { save "$1" "$2" "$3" "$4" 300; }

# cut SRC OUT LEFT TOP CW CH W H: a CWxCH region of the photo, scaled to WxH.
cut() {
  vips extract_area "$1" "$TMP/region.v" "$3" "$4" "$5" "$6"
  save "$TMP/region.v" "$2" "$7" "$8" 300
}

# avatar SRC HANDLE LEFT TOP SIZE: a square region, 400x400, < 60 KB.
avatar() {
  vips extract_area "$1" "$TMP/region.v" "$3" "$4" "$5" "$5"
  save "$TMP/region.v" "$U/$2/avatar.jpg" 400 400 58
}

P=posts

# ---- mina.park: street and landscape photographer, Seoul ------------------
avatar "$GREY" mina.park 900 300 900
fit "$DARKEST" "$U/mina.park/$P/2024-01-20-fog-over-the-lake/1.jpg" 1600 900
cut "$SUMMER"  "$U/mina.park/$P/han-river-dusk/1.jpg" 0 528 2560 1024 1600 640     # panorama
fit "$GREY"    "$U/mina.park/$P/2024-09-02-facade/1.jpg" 1200 1600
cut "$GREY"    "$U/mina.park/$P/2024-09-02-facade/2.jpg" 1300 500 1100 1100 1100 1100
fit "$BYTHEWATER" "$U/mina.park/$P/2025-01-18-old-jetty/1.jpg" 1600 1067
cut "$SUMMER"  "$U/mina.park/$P/2025-06-01-test-roll/1.jpg" 1400 200 1080 1350 1080 1350  # draft

# ---- noor.macro: macro photographer, Amsterdam ----------------------------
avatar "$LADYBIRD" noor.macro 1492 513 600
fit "$LADYBIRD" "$U/noor.macro/$P/2024-04-20-ladybird/1.jpg" 1600 1067
cut "$LADYBIRD" "$U/noor.macro/$P/2024-04-20-ladybird/2.jpg" 1192 213 1200 1200 1200 1200
fit "$WINGS"    "$U/noor.macro/$P/2024-06-08-dandelion-wishes/1.jpg" 1080 1350
fit "$RAIN"     "$U/noor.macro/$P/2024-07-14-after-the-rain/1.jpg" 1600 1067
fit "$BLINDS"   "$U/noor.macro/$P/2024-07-14-after-the-rain/2.jpg" 1200 1200
fit "$AQUA"     "$U/noor.macro/$P/2024-10-03-single-drop/1.jpg" 1200 1200
fit "$GARDEN"   "$U/noor.macro/$P/2025-02-22-flower-market/1.jpg" 1200 1600
fit "$YELLOW"   "$U/noor.macro/$P/2025-02-22-flower-market/2.jpg" 1200 1200

# ---- leo_marchand: cook, Lyon ---------------------------------------------
avatar "$CUPS" leo_marchand 1000 500 700
fit "$CUPS"   "$U/leo_marchand/$P/2024-02-10-cup-wall/1.jpg" 1600 1067
fit "$FRESH"  "$U/leo_marchand/$P/2024-08-24-edible-flowers/1.jpg" 1200 1200
fit "$WOOD"   "$U/leo_marchand/$P/2024-11-15-creme-brulee-night/1.jpg" 1200 1600
cut "$CUPS"   "$U/leo_marchand/$P/2024-11-15-creme-brulee-night/2.jpg" 0 0 1600 1600 1200 1200
fit "$MEADOW" "$U/leo_marchand/$P/2025-04-26-wheatgrass/1.jpg" 1024 1024

# ---- ana.travels: traveller ------------------------------------------------
avatar "$KITE" ana.travels 1450 250 700
fit "$DUNE"    "$U/ana.travels/$P/2024-03-30-dune-grass/1.jpg" 1600 900
cut "$DUNE"    "$U/ana.travels/$P/2024-03-30-dune-grass/2.jpg" 420 0 840 1050 840 1050
fit "$EVENING" "$U/ana.travels/$P/2024-06-22-boats-at-dusk/1.jpg" 1600 1067
cut "$EVENING" "$U/ana.travels/$P/2024-06-22-boats-at-dusk/2.jpg" 0 0 1280 1600 1080 1350
cut "$KITE"    "$U/ana.travels/$P/2024-09-14-kite-festival/1.jpg" 1060 0 1280 1600 1080 1350
fit "$STORM"   "$U/ana.travels/$P/2025-01-04-storm-front/1.jpg" 1600 900

# ---- kai.climbs: climber, Helsinki ----------------------------------------
avatar "$FOREST" kai.climbs 300 800 800
fit "$FOREST"     "$U/kai.climbs/$P/2024-04-06-the-approach/1.jpg" 1080 1350
fit "$COLDRIPPLE" "$U/kai.climbs/$P/2024-08-03-rest-day/1.jpg" 1200 1200
fit "$MOSS"       "$U/kai.climbs/$P/2024-12-07-moss-boulders/1.jpg" 1600 1067
cut "$FOREST"     "$U/kai.climbs/$P/2025-09-06-trail-season/1.jpg" 150 500 1100 1100 1100 1100
cut "$MOSS"       "$U/kai.climbs/$P/2025-09-06-trail-season/2.jpg" 1280 0 1280 1600 1080 1350
cut "$COLDRIPPLE" "$U/kai.climbs/$P/2025-09-06-trail-season/3.jpg" 0 400 2560 1200 1600 750
cut "$DARKEST"    "$U/kai.climbs/$P/2025-09-06-trail-season/4.jpg" 800 0 1280 1600 1080 1350

# ---- sam.birds: birder, Berlin --------------------------------------------
avatar "$KLEIBER" sam.birds 2400 1400 1000
fit "$KLEIBER" "$U/sam.birds/$P/2024-05-11-kleiber/1.jpg" 1600 900
cut "$KLEIBER" "$U/sam.birds/$P/2024-05-11-kleiber/2.jpg" 1428 0 2713 3391 1080 1350
cut "$KLEIBER" "$U/sam.birds/$P/2024-05-11-kleiber/3.jpg" 1885 800 1800 1800 1200 1200
fit "$LEAF"    "$U/sam.birds/$P/2024-10-26-first-frost-leaves/1.jpg" 1600 1067
cut "$LEAF"    "$U/sam.birds/$P/2024-10-26-first-frost-leaves/2.jpg" 1198 0 1280 1600 1080 1350
cut "$MEADOW"  "$U/sam.birds/$P/2025-04-12-spring-meadow/1.jpg" 0 0 1280 853 1280 853
cut "$KLEIBER" "$U/sam.birds/$P/2025-08-16-bark/1.jpg" 700 400 1800 2400 1200 1600

# ---- hana.kim: no posts, only an avatar -----------------------------------
avatar "$YELLOW" hana.kim 1500 600 1000

echo "demo images written under $U"
