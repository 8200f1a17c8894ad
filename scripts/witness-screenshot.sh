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
"$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$(mktemp -d)" --window-size=1400,1100 \
  --screenshot="$out/witness.png" "file://$out/witness.html" 2>/dev/null
test -s "$out/witness.png"
echo "screenshot: $out/witness.png"
