#!/usr/bin/env bash
# The stages of `make test`, timed, and each check run once per tree.
#
#   tests/stage.sh begin LOG          start a new table in LOG, and take the
#                                     tree's key (below)
#   tests/stage.sh run LOG NAME CMD…  run CMD as stage NAME: prints "== NAME",
#                                     adds NAME, its wall time and its result
#                                     to LOG, and exits with CMD's status
#   tests/stage.sh check LOG NAME CMD…  the same for a check: one that passed
#                                     on this very tree is not run again
#   tests/stage.sh table LOG          print the table of LOG and the total
#
# The tree's key is what a check's result depends on: every file of the work
# tree git sees (tracked, or untracked and not ignored, as they are on disk,
# edits included) and the versions of the installed Debian packages. A check
# that passed is noted under build/passed/ with that key and its command; the
# next run with the same key skips it and says so ("passed on this tree").
# Any edit, a new package version or a new command runs it again; so does
# RETEST=1 (make test RETEST=1), and a tree that is not a git checkout. A clean
# clone (CI) has no notes: everything runs. The table is what tests/README.md
# keeps for a fresh run: where the time of the gate goes, stage by stage.
set -u
what=$1 log=$2
shift 2
top=$(cd "$(dirname "$0")/.." && pwd)
notes=$top/build/passed

tree_key() {
    git -C "$top" rev-parse --git-dir >/dev/null 2>&1 || return 1
    local index
    index=$(mktemp)
    # a private index: the work tree as it is, without touching the real one
    cp "$(git -C "$top" rev-parse --git-path index)" "$index" 2>/dev/null || true
    (cd "$top" && GIT_INDEX_FILE=$index git add -A . >/dev/null 2>&1 &&
        GIT_INDEX_FILE=$index git write-tree) || { rm -f "$index"; return 1; }
    rm -f "$index"
    dpkg-query -W -f '${Package} ${Version}\n' 2>/dev/null | cksum
}

case $what in
begin)
    mkdir -p "$(dirname "$log")"
    printf 'start\t%s\n' "$(date +%s)" >"$log"
    if [ "${RETEST:-}" != 1 ] && key=$(tree_key); then
        printf 'key\t%s\n' "$(echo "$key" | cksum | cut -d' ' -f1)" >>"$log"
    fi
    ;;
run | check)
    name=$1
    shift
    key=$(awk -F'\t' '$1 == "key" { print $2 }' "$log" 2>/dev/null)
    note=$notes/$(printf '%s' "$name" | tr -c 'A-Za-z0-9' '_')
    want=$(printf '%s\n%s\n' "$key" "$*" | cksum | cut -d' ' -f1)
    if [ "$what" = check ] && [ -n "$key" ] && [ "$(cat "$note" 2>/dev/null)" = "$want" ]; then
        echo "== $name: passed on this tree before, not run again (RETEST=1 runs it)"
        printf '%s\t0\tpassed on this tree\n' "$name" >>"$log"
        exit 0
    fi
    echo "== $name"
    t0=$(date +%s.%N)
    "$@"
    rc=$?
    t1=$(date +%s.%N)
    printf '%s\t%s\t%s\n' "$name" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')" \
        "$([ $rc = 0 ] && echo ok || echo "FAILED ($rc)")" >>"$log"
    if [ "$what" = check ] && [ -n "$key" ]; then
        mkdir -p "$notes"
        if [ $rc = 0 ]; then echo "$want" >"$note"; else rm -f "$note"; fi
    fi
    exit $rc
    ;;
table)
    [ -f "$log" ] || exit 0
    start=$(awk -F'\t' '$1 == "start" { print $2 }' "$log")
    echo
    echo "Stages of this run (wall time, $(nproc) cores):"
    awk -F'\t' '$1 != "start" && $1 != "key" { printf "  %-36s %7.1f s  %s\n", $1, $2, $3 }' "$log"
    [ -n "$start" ] && awk -v t=$(($(date +%s) - start)) \
        'BEGIN { printf "  %-36s %7.1f s  (%d min %02d s)\n", "total", t, t / 60, t % 60 }'
    awk -F'\t' '$1 != "start" && $1 != "key" { if ($3 ~ /FAILED/) f++; else p++ }
        END { printf "stages: %d passed, %d failed\n", p, f }' "$log"
    ;;
*)
    echo "usage: tests/stage.sh begin|run|check|table LOG [NAME CMD…]" >&2
    exit 2
    ;;
esac
