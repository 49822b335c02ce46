#!/usr/bin/env bash
# Render every golden state of states.tsv into OUTDIR as NAME.png and
# NAME.json (the --dump-ui layout).   render.sh BIN OUTDIR
# With GOLDEN_ONLY set (names, space-separated), only those states.
# `make golden` runs it with OUTDIR = tests/golden; the test renders into a
# temporary folder and compares.
set -euo pipefail
bin=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
export SDL_VIDEODRIVER=${SDL_VIDEODRIVER:-offscreen}
cd "$here/../.."   # lesson paths in states.tsv are relative to the top
# The Model view's states read a small GPT-2 with random weights, generated
# here from a fixed seed (never a downloaded model): build/generated-gpt2.
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3 # Debian's, with numpy
"$py" tests/tools/gpt2_reference.py make build/generated-gpt2 --layers 4 --heads 4 --embd 32 \
    --positions 128 --seed 5
grep -v '^#' "$here/states.tsv" | while IFS=$'\t' read -r name args; do
  [ -n "$name" ] || continue
  [ -z "${GOLDEN_ONLY:-}" ] || [[ " $GOLDEN_ONLY " == *" $name "* ]] || continue
  eval "set -- $args"
  "$bin" "$@" --screenshot "$out/$name.png"
  "$bin" "$@" --dump-ui > "$out/$name.json"
done
