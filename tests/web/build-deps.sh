#!/bin/sh
# The C libraries of the browser build, from Debian's source packages, built
# with Debian's emscripten. emscripten's own ports would download from the
# internet.
#
#   tests/web/build-deps.sh LINK     LINK (build/web-deps) points at the build
#
# The build is kept once per machine, not once per clone, in
# $XDG_CACHE_HOME/attnlab/web-deps-KEY (~/.cache/attnlab/… by default). KEY
# is a checksum of this script, emcc's version and the Debian source versions
# it builds, so a new source package or a changed recipe builds anew. A
# build's last act is its .manifest (a checksum of every file); a folder whose
# manifest is missing or does not match (a build cut short, a file changed) is
# removed and built again, never used. `make distclean` removes the cache.
#
# Only the upstream tarballs (*.orig.tar.*) are built; Debian's packaging is
# not needed. harfbuzz is not used (SDL2_ttf's shaping stays off), cglm is
# headers only and is taken from the system.
set -eu
link=$1
packages="libsdl2 freetype libsdl2-ttf libsdl2-image cjson md4c pcre2 utf8proc"
cache_root=${XDG_CACHE_HOME:-${HOME:?}/.cache}/attnlab
mkdir -p "$cache_root" "$(dirname "$link")"

# ---- the key: the sources apt-get source would fetch (their .dsc names carry
# the versions; apt-get source needs deb-src lines, which make deps-web adds)
versions=""
for p in $packages; do
    dsc=$(apt-get source --print-uris -qq "$p" 2>/dev/null | awk '$2 ~ /\.dsc$/ { print $2; exit }')
    if [ -z "$dsc" ]; then
        echo "web-deps: cannot find the source of $p; run 'make deps-web' (as root) to add" >&2
        echo "web-deps: deb-src lines for the configured mirror, then try again" >&2
        exit 1
    fi
    versions="$versions $dsc"
done
export NODE_PATH=/usr/share/nodejs # emcc needs acorn from Debian's node modules
key=$({ cksum <"$0"; emcc --version 2>/dev/null | head -1; echo "$versions"; } | cksum | cut -d' ' -f1)
prefix=$cache_root/web-deps-$key

intact() { # the folder holds exactly what its manifest says
    [ -f "$1/.manifest" ] && (cd "$1" && sha256sum --quiet --strict -c .manifest >/dev/null 2>&1)
}

# one build at a time on this machine: two clones wait for each other
exec 9>"$cache_root/.lock"
flock 9
if intact "$prefix"; then
    ln -sfn "$prefix" "$link"
    exit 0
fi
if [ -d "$prefix" ]; then
    echo "web-deps: $prefix is incomplete or changed; building it again"
    rm -rf "$prefix"
fi
echo "web-deps: building the browser's libraries into $prefix (once per machine)"
src=$prefix/src
jobs=$(nproc 2>/dev/null || echo 2)
mkdir -p "$src"

# ---- sources
fetch() { # a package's upstream tarball, or nothing
    (cd "$src" && apt-get source --download-only -qq "$1" >/dev/null 2>&1) || true
    ls "$src"/"$1"_*.orig.tar.* 2>/dev/null | grep -v '\.asc$' | grep -v -- '-ft2' | head -1
}
for p in $packages; do
    if [ -z "$(fetch "$p")" ]; then
        echo "web-deps: cannot download the source of $p; run 'make deps-web' (as root) to add" >&2
        echo "web-deps: deb-src lines for the configured mirror, then try again" >&2
        exit 1
    fi
done

unpack() { # package → its unpacked upstream folder
    tarball=$(fetch "$1")
    dir=$src/$1
    if [ ! -d "$dir" ]; then
        mkdir -p "$dir.tmp"
        tar -xf "$tarball" -C "$dir.tmp" --strip-components=1
        mv "$dir.tmp" "$dir"
    fi
    echo "$dir"
}

build() { # package, then cmake options
    p=$1
    shift
    dir=$(unpack "$p")
    echo "web-deps: building $p"
    emcmake cmake -S "$dir" -B "$src/build-$p" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_PREFIX_PATH="$prefix" \
        -DCMAKE_FIND_ROOT_PATH="$prefix" -DBUILD_SHARED_LIBS=OFF "$@" >"$src/build-$p.log" 2>&1 ||
        { tail -20 "$src/build-$p.log"; exit 1; }
    cmake --build "$src/build-$p" -j "$jobs" >>"$src/build-$p.log" 2>&1 ||
        { tail -20 "$src/build-$p.log"; exit 1; }
    cmake --install "$src/build-$p" >>"$src/build-$p.log" 2>&1 ||
        { tail -20 "$src/build-$p.log"; exit 1; }
}

# SDL: only what a page uses (video, events, timers); no audio, joysticks, haptics
build libsdl2 -DSDL_SHARED=OFF -DSDL_STATIC=ON -DSDL_TEST=OFF -DSDL_AUDIO=OFF -DSDL_JOYSTICK=OFF \
    -DSDL_HAPTIC=OFF -DSDL_SENSOR=OFF -DSDL_POWER=OFF -DSDL_HIDAPI=OFF -DSDL_LOCALE=OFF
build freetype -DFT_DISABLE_ZLIB=ON -DFT_DISABLE_BZIP2=ON -DFT_DISABLE_PNG=ON \
    -DFT_DISABLE_HARFBUZZ=ON -DFT_DISABLE_BROTLI=ON
build libsdl2-ttf -DSDL2TTF_SAMPLES=OFF -DSDL2TTF_HARFBUZZ=OFF -DSDL2TTF_VENDORED=OFF \
    -DSDL2TTF_INSTALL=ON
build libsdl2-image -DSDL2IMAGE_SAMPLES=OFF -DSDL2IMAGE_VENDORED=OFF -DSDL2IMAGE_DEPS_SHARED=OFF \
    -DSDL2IMAGE_BACKEND_STB=ON -DSDL2IMAGE_PNG=ON -DSDL2IMAGE_JPG=OFF -DSDL2IMAGE_AVIF=OFF \
    -DSDL2IMAGE_JXL=OFF -DSDL2IMAGE_TIF=OFF -DSDL2IMAGE_WEBP=OFF -DSDL2IMAGE_INSTALL=ON
build cjson -DENABLE_CJSON_TEST=OFF -DENABLE_CJSON_UTILS=OFF -DENABLE_CUSTOM_COMPILER_FLAGS=OFF
build md4c -DBUILD_MD2HTML_EXECUTABLE=OFF
# the tokenizers' patterns (8-bit code units, Unicode properties; no JIT in wasm) and NFC
build pcre2 -DPCRE2_BUILD_PCRE2_8=ON -DPCRE2_BUILD_PCRE2_16=OFF -DPCRE2_BUILD_PCRE2_32=OFF \
    -DPCRE2_SUPPORT_UNICODE=ON -DPCRE2_SUPPORT_JIT=OFF -DPCRE2_BUILD_PCRE2GREP=OFF \
    -DPCRE2_BUILD_TESTS=OFF
build utf8proc -DUTF8PROC_ENABLE_TESTING=OFF

# cglm is headers only: the system's (libcglm-dev), beside the others
mkdir -p "$prefix/include"
cp -r /usr/include/cglm "$prefix/include/"

# the sources and build trees are not kept; the manifest comes last
rm -rf "$src"
(cd "$prefix" && find . -type f ! -name '.manifest*' -print0 | sort -z | xargs -0 sha256sum >.manifest.tmp &&
    mv .manifest.tmp .manifest)
ln -sfn "$prefix" "$link"
echo "web-deps: done, in $prefix"
