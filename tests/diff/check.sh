#!/usr/bin/env bash
# Regenerate every expected output into a temporary directory with the real erl
# and fail, listing the files, if anything differs from the committed files.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

rc=0
"$here/regen.sh" "$tmp" || rc=1

for sub in expected bench/expected; do
    if ! diff -r "$here/$sub" "$tmp/$sub" >"$tmp/diff.txt"; then
        echo "check: $sub differs from the real erl:" >&2
        cat "$tmp/diff.txt" >&2
        rc=1
    fi
done

if [ "$rc" -eq 0 ]; then
    n=$(ls "$here/programs"/*.erl | wc -l)
    echo "check: all $n programs (and the benches) match the real erl"
fi
exit "$rc"
