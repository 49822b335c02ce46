#!/usr/bin/env bash
# Render every golden state of states.tsv into OUTDIR as NAME.png and
# NAME.json (the --dump-ui layout).   render.sh BIN OUTDIR
# `make golden` runs it with OUTDIR = tests/golden; the test renders into a
# temporary folder and compares.
set -euo pipefail
bin=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
export SDL_VIDEODRIVER=${SDL_VIDEODRIVER:-offscreen}
cd "$here/../.."   # lesson paths in states.tsv are relative to the top
grep -v '^#' "$here/states.tsv" | while IFS=$'\t' read -r name args; do
  [ -n "$name" ] || continue
  eval "set -- $args"
  "$bin" "$@" --screenshot "$out/$name.png"
  "$bin" "$@" --dump-ui > "$out/$name.json"
done
