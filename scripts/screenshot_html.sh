#!/usr/bin/env bash
# Headless-Chromium check of the html/ export: screenshots of the index page and of one juan
# page opened at ?gloss=<its first gloss> (shows the same lemma tooltip as hovering), and a
# DOM dump that must contain the rendered glosses. Not part of the test suite: needs Debian's
# `chromium` (apt-get install -y chromium fonts-noto-cjk).
#
#   scripts/screenshot_html.sh [OUT_DIR] [DOC_ID] [SHOT_DIR]
#   default: out KR1d0030_010 out/screenshots
set -euo pipefail
OUT=${1:-out}
DOC=${2:-KR1d0030_010}
SHOTS=${3:-$OUT/screenshots}
CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$CHROMIUM" ]; then echo "screenshot_html: chromium not found (apt-get install -y chromium)" >&2; exit 3; fi
[ -f "$OUT/html/index.html" ] || { echo "screenshot_html: no $OUT/html/index.html (run zhushu run --out $OUT)" >&2; exit 2; }
mkdir -p "$SHOTS"
PROFILE=$(mktemp -d)
trap 'rm -rf "$PROFILE"' EXIT
shoot() {  # url, png, width, height
  "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --user-data-dir="$PROFILE" \
    --hide-scrollbars --window-size="$3,$4" --screenshot="$2" "$1" >/dev/null 2>&1
  [ -s "$2" ] || { echo "screenshot_html: no screenshot $2" >&2; exit 1; }
  echo "$2"
}
ABS=$(cd "$OUT/html" && pwd)
# the first anchored gloss of the page, if any
GLOSS=$(grep -o 'class="gloss" id="[^"]*"' "$ABS/$DOC.html" | head -1 | sed 's/.*id="\([^"]*\)"/\1/' || true)
shoot "file://$ABS/index.html" "$SHOTS/index.png" 1100 1800
shoot "file://$ABS/$DOC.html${GLOSS:+?gloss=$GLOSS}" "$SHOTS/$DOC.png" 1100 1400
# the DOM as Chromium built it: glosses and entities must be there
"$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-background-networking \
  --disable-component-update --disable-sync --no-first-run --user-data-dir="$PROFILE" \
  --dump-dom "file://$ABS/$DOC.html" 2>/dev/null > "$SHOTS/$DOC.dom.html"
grep -q 'class="e ' "$SHOTS/$DOC.dom.html" || { echo "screenshot_html: no entity spans in the DOM" >&2; exit 1; }
if [ -n "$GLOSS" ]; then grep -q 'data-lemma=' "$SHOTS/$DOC.dom.html" || { echo "screenshot_html: no gloss in the DOM" >&2; exit 1; }; fi
echo "screenshot_html: ok ($SHOTS)"
