#!/usr/bin/env bash
# Draws a witness of the bundled corpus as HTML and SVG, then renders the HTML
# in headless Chromium and saves a screenshot, so the picture is checked in a
# real browser. Usage: scripts/witness-screenshot.sh [OUT_DIR]
# Needs Debian's chromium (apt-get install -y chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/witness-picture}
mkdir -p "$out"
out=$(cd "$out" && pwd)
racewit=${RACEWIT:-target/release/racewit}
[ -x "$racewit" ] || cargo build --release -q -p racewit
set +e
"$racewit" check corpus/gen_server/kv_split_client.erl --out "$out/witnesses" > "$out/check.txt"
rc=$?
set -e
[ "$rc" -eq 2 ] || { echo "expected a confirmed race (exit 2), got $rc" >&2; exit 1; }
witness=$(ls "$out"/witnesses/R*.json | head -n 1)
"$racewit" replay "$witness" --html "$out/witness.html" --svg "$out/witness.svg" > "$out/replay.txt"
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "chromium is not installed: wrote $out/witness.html and $out/witness.svg, no screenshot" >&2
  exit 1
fi
# The window holds the whole diagram (its SVG size plus the legend), so the
# screenshot shows every step down to the consequence.
size() { grep -o "<svg [^>]*" "$out/witness.svg" | grep -o " $1=\"[0-9]*\"" | head -n 1 | tr -dc 0-9; }
svg_w=$(size width)
svg_h=$(size height)
win_w=$(( ${svg_w:-1320} + 80 ))
win_h=$(( ${svg_h:-1000} + 120 ))
profile=$(mktemp -d)
"$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --hide-scrollbars --user-data-dir="$profile" --window-size="$win_w,$win_h" \
  --screenshot="$out/witness.png" "file://$out/witness.html" 2>/dev/null
rm -rf "$profile"
test -s "$out/witness.png"
echo "screenshot: $out/witness.png (${win_w}x${win_h})"
# Not blank, and the race is drawn in red.
python3 scripts/png-has-content.py "$out/witness.png"
