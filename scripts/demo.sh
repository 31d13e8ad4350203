#!/usr/bin/env bash
# Sets up a fresh Debian machine and builds the demo site in content/ into public/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
gramgen=$(scripts/build-release.sh)
"$gramgen" build "$@"
echo "Open public/index.html in a browser, or serve public/ with any web server."
