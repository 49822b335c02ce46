#!/usr/bin/env bash
# The layers of DESIGN.md as a test: each folder under src/ may include only
# the folders (and system headers) listed for it. A quoted include names its
# folder by path ("../model/scene.h"), or is in the same folder ("draw.h").
# Prints one line per violation and "layers: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
declare -A allowed=(
  [core]="core"
  [nn]="nn core"
  [checkpoint]="checkpoint nn json core"
  [gfx]="gfx"
  [json]="json core"
  [model]="model checkpoint nn json core"
  [lesson]="lesson model checkpoint nn json core"
  [ui]="ui lesson model checkpoint nn json gfx core"
  [render]="render gfx core"
  [platform]="platform ui render lesson model checkpoint nn json gfx core"
)
# system headers beyond the C library, per layer
declare -A system=(
  [core]="cblas"
  [nn]=""
  [checkpoint]="cjson pcre2 utf8proc"
  [gfx]=""
  [json]="cjson"
  [model]="cjson"
  [lesson]="cjson md4c"
  [ui]="cglm"
  [render]="SDL epoxy GLES3 cairo cairo-ft cairo-pdf cairo-svg ft2build cglm"
  [platform]="*"   # the platform layer may use anything
)
libc='assert|ctype|dirent|errno|fcntl|float|inttypes|limits|locale|math|signal|stdalign|stdarg|stdatomic|stdbool|stddef|stdint|stdio|stdlib|string|strings|threads|time|unistd|sys/[a-z]+'
passed=0 failed=0
for layer in "${!allowed[@]}"; do
  for f in $(find "src/$layer" -name '*.[ch]' | sort); do
    ok=1
    while IFS= read -r inc; do
      if [[ $inc =~ ^\"\.\./([a-z]+)/ ]]; then
        dep=${BASH_REMATCH[1]}
        [[ " ${allowed[$layer]} " == *" $dep "* ]] || { echo "$f: includes $inc (${layer} may use: ${allowed[$layer]})"; ok=0; }
      elif [[ $inc =~ ^\" ]]; then
        [[ -f "$(dirname "$f")/${inc//\"/}" ]] || { echo "$f: includes $inc, not in its folder"; ok=0; }
      elif [[ $inc =~ ^\<(epoxy|GL|GLES) && $layer != render ]]; then
        echo "$f: includes $inc (only src/render calls GL)"; ok=0
      elif [[ $inc =~ ^\<($libc)\.h\> ]]; then
        :
      else
        name=${inc#<}; name=${name%%[/.>]*}; name=${name%%_*}
        [[ ${system[$layer]} == "*" || " ${system[$layer]} " == *" $name "* ]] || { echo "$f: includes $inc (${layer} may use only the C library${system[$layer]:+ and ${system[$layer]}})"; ok=0; }
      fi
    done < <(sed -n 's/^#include *\([<"][^>"]*[>"]\).*/\1/p' "$f")
    if [ $ok = 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
  done
done
echo "layers: $passed passed, $failed failed"
[ $failed = 0 ]
