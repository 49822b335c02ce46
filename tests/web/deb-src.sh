#!/bin/sh
# apt-get source (tests/web/build-deps.sh) needs deb-src lines. Add them once,
# for the mirrors already configured, in /etc/apt/sources.list.d/attnlab-src.sources.
set -eu
grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/ && exit 0
command -v apt-get >/dev/null 2>&1 || exit 0 # not Debian: build-deps.sh says what it misses
tmp=$(mktemp)
# deb822 files: each "Types: deb" stanza again as deb-src; one-line files: "deb" → "deb-src"
for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && awk 'BEGIN { RS = ""; ORS = "\n\n" }
        /(^|\n)Types:[^\n]*deb([ \t\n]|$)/ { sub(/Types:[^\n]*/, "Types: deb-src"); print }' "$f" >>"$tmp"
done
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] && awk '$1 == "deb" && $2 !~ /^\[/ {
        printf "Types: deb-src\nURIs: %s\nSuites: %s\nComponents:", $2, $3
        for (i = 4; i <= NF; i++) printf " %s", $i
        printf "\n\n" }' "$f" >>"$tmp"
done
if [ ! -s "$tmp" ]; then
    rm -f "$tmp"
    echo "attnlab: no apt sources found to add deb-src lines for" >&2
    exit 1
fi
run() { if [ "$(id -u)" = 0 ]; then "$@"; elif sudo -n true 2>/dev/null; then sudo -n "$@"; else
    echo "attnlab: please run as root: $*" >&2; exit 1; fi; }
echo "attnlab: adding deb-src lines for apt-get source"
run cp "$tmp" /etc/apt/sources.list.d/attnlab-src.sources
run chmod 644 /etc/apt/sources.list.d/attnlab-src.sources
rm -f "$tmp"
run apt-get update -q
