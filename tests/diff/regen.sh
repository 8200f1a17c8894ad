#!/usr/bin/env bash
# Regenerate the expected output of every differential program with the real erl.
#
# usage: tests/diff/regen.sh [OUTROOT]
#   Without OUTROOT the committed files are rewritten in place:
#     tests/diff/expected/<name>.out and tests/diff/bench/expected/<name>.out
#   With OUTROOT they are written to OUTROOT/expected and OUTROOT/bench/expected
#   instead (check.sh uses this).
# Fails (non-zero) on a compile error, or when a program runs longer than
# RACEWIT_DIFF_TIMEOUT seconds (default 10).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
outroot="${1:-$here}"
limit="${RACEWIT_DIFF_TIMEOUT:-10}"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The exact evaluation used for every program (documented in README.md).
eval_expr='M = list_to_atom(os:getenv("RACEWIT_DIFF_MODULE")), try io:format("~p~n", [M:main()]) catch C:R -> io:format("CRASH ~p:~p~n", [C, R]) end'

status=0

run_set() {
    local srcdir="$1" dstdir="$2" beams="$work/beams-$3" rundir="$work/run-$3"
    mkdir -p "$beams" "$dstdir"
    shopt -s nullglob
    local srcs=("$srcdir"/*.erl)
    shopt -u nullglob
    [ "${#srcs[@]}" -eq 0 ] && return 0
    if ! erlc -W0 -o "$beams" "${srcs[@]}"; then
        echo "regen: compile error in $srcdir" >&2
        exit 1
    fi
    local src name rc
    for src in "${srcs[@]}"; do
        name="$(basename "$src" .erl)"
        # A fresh empty working directory per program (mnesia writes nothing to
        # disc with its default ram schema, but keep the tree clean anyway).
        rm -rf "$rundir"; mkdir -p "$rundir"
        set +e
        (cd "$rundir" && LC_ALL=C RACEWIT_DIFF_MODULE="$name" timeout "$limit" \
            erl -noshell -kernel logger_level none -pa "$beams" \
                -eval "$eval_expr" -s init stop) >"$dstdir/$name.out" 2>"$work/stderr"
        rc=$?
        set -e
        if [ "$rc" -eq 124 ]; then
            echo "regen: $name took longer than ${limit}s" >&2
            status=1
        elif [ "$rc" -ne 0 ]; then
            echo "regen: $name: erl exited with status $rc" >&2
            cat "$work/stderr" >&2
            status=1
        fi
    done
}

run_set "$here/programs" "$outroot/expected" programs
run_set "$here/bench" "$outroot/bench/expected" bench
exit "$status"
