#!/bin/sh
# The C libraries of the browser build, from Debian's source packages, built
# with Debian's emscripten into build/web-deps/ (static, cached: a second run
# does nothing). emscripten's own ports would download from the internet.
#
#   tests/web/build-deps.sh [PREFIX]     default: build/web-deps
#
# Only the upstream tarballs (*.orig.tar.*) are built; Debian's packaging is
# not needed. harfbuzz is not used (SDL2_ttf's shaping stays off), cglm is
# headers only and is taken from the system.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
prefix=${1:-$top/build/web-deps}
src=$prefix/src
stamp=$prefix/.built-$(cksum < "$0" | cut -d' ' -f1)
[ -f "$stamp" ] && exit 0

export NODE_PATH=/usr/share/nodejs # emcc needs acorn from Debian's node modules
jobs=$(nproc 2>/dev/null || echo 2)
mkdir -p "$src"

# ---- sources: apt-get source needs deb-src lines for the configured mirror
packages="libsdl2 freetype libsdl2-ttf libsdl2-image cjson md4c"
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

# cglm is headers only: the system's (libcglm-dev), beside the others
mkdir -p "$prefix/include"
cp -r /usr/include/cglm "$prefix/include/"

rm -f "$prefix"/.built-*
touch "$stamp"
echo "web-deps: done, in $prefix"
