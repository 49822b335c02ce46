#!/bin/sh
# The web libraries' cache, as build-deps.sh keeps it: an intact folder is
# used as it is; one with a changed file or no manifest (a build cut short)
# is never used, but built again. Works on copies of this machine's cache
# under a scratch XDG_CACHE_HOME; the rebuild is stopped at its first step (an
# apt-get that downloads nothing, a cmake that fails), so nothing is built. Prints "web cache: N passed, N failed".
#
#   tests/web/cache_check.sh LINK      LINK: build/web-deps, after build-deps.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
cache=$(readlink -f "$1")
[ -f "$cache/.manifest" ] || { echo "web cache: $1 is not a built cache"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin"
# apt-get answers what the key asks (--print-uris) and downloads nothing; each
# question is asked of the real one once, the four tries reading its answer
real_apt=$(command -v apt-get)
cat >"$tmp/bin/apt-get" <<EOF
#!/bin/sh
case " \$* " in *" --print-uris "*)
    f=$tmp/answer-\$(echo "\$*" | cksum | cut -d' ' -f1)
    [ -f "\$f" ] || { $real_apt "\$@" >"\$f.new" && mv "\$f.new" "\$f"; } || exit 1
    exec cat "\$f";;
esac
exit 1
EOF
printf '#!/bin/sh\necho "cmake: stopped by the test" >&2\nexit 1\n' >"$tmp/bin/cmake"
cp "$tmp/bin/cmake" "$tmp/bin/emcmake"
chmod +x "$tmp/bin/apt-get" "$tmp/bin/cmake" "$tmp/bin/emcmake"
passed=0 failed=0
try() { # name, how to spoil the copy (or nothing), "used" or "rebuilt"
    rm -rf "$tmp/xdg" "$tmp/link"
    mkdir -p "$tmp/xdg/attnlab"
    cp -r "$cache" "$tmp/xdg/attnlab/"
    copy=$tmp/xdg/attnlab/$(basename "$cache")
    [ -n "$2" ] && (cd "$copy" && sh -c "$2")
    out=$(XDG_CACHE_HOME=$tmp/xdg PATH=$tmp/bin:$PATH "$here/build-deps.sh" "$tmp/link" 2>&1)
    rc=$?
    if [ "$3" = used ]; then
        ok=$([ $rc = 0 ] && [ "$(readlink -f "$tmp/link")" = "$copy" ] &&
            ! printf '%s' "$out" | grep -q building && echo 1)
    else
        ok=$([ $rc != 0 ] && printf '%s' "$out" | grep -q "is incomplete or changed; building it again" &&
            [ ! -e "$tmp/link" ] && echo 1)
    fi
    if [ -n "$ok" ]; then passed=$((passed + 1)); else
        failed=$((failed + 1))
        echo "web cache: $1: expected it $3 (exit $rc): $out"
    fi
}
try "an intact cache" "" used
try "a changed library" "echo x >> lib/libcjson.a" rebuilt
try "no manifest (a build cut short)" "rm .manifest" rebuilt
try "a file gone" "rm lib/libmd4c.a" rebuilt
echo "web cache: $passed passed, $failed failed"
[ $failed = 0 ]
