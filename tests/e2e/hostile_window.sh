#!/usr/bin/env bash
# A rough session in a real X window: shrink the window to 1x1 and back,
# hide and show it, drag a point, then delete the scene's folder before
# Ctrl+S (the save must fail and the app keep everything), recreate the
# folder and save again. The caller checks the file.
#   hostile_window.sh BIN SCENE X0 Y0 X1 Y1
set -euo pipefail
[ $# -eq 6 ] || { echo "usage: $0 BIN SCENE X0 Y0 X1 Y1" >&2; exit 2; }
export E2E_BIN=$1 E2E_SCENE=$2 X0=$3 Y0=$4 X1=$5 Y1=$6
unset SDL_VIDEODRIVER
exec xvfb-run -a -n $((100 + $$ % 800)) -s "-screen 0 1600x900x24" bash -euo pipefail -c '
  dir=$(dirname "$E2E_SCENE")
  "$E2E_BIN" --scene "$E2E_SCENE" --size 1600x900 &
  pid=$!
  trap "kill $pid 2>/dev/null || true" EXIT
  wid=$(timeout 20 xdotool search --sync --onlyvisible --name "^attnlab$" | head -1)
  sleep 1
  xdotool windowsize "$wid" 1 1; sleep 0.5
  xdotool windowsize "$wid" 1600 900; sleep 0.5
  xdotool windowunmap "$wid"; sleep 0.5
  xdotool windowmap "$wid"; sleep 0.5
  xdotool windowminimize "$wid" 2>/dev/null || true; sleep 0.3
  xdotool windowmap "$wid"; sleep 0.5
  kill -0 "$pid"   # still alive
  xdotool windowfocus --sync "$wid" || true
  xdotool mousemove --window "$wid" "$X0" "$Y0"; sleep 0.2
  xdotool mousedown 1
  for k in 1 2 3 4 5 6 7 8 9 10; do
    xdotool mousemove --window "$wid" $((X0 + (X1 - X0) * k / 10)) $((Y0 + (Y1 - Y0) * k / 10))
    sleep 0.05
  done
  xdotool mouseup 1; sleep 0.3
  mv "$dir" "$dir.away"
  xdotool key --clearmodifiers ctrl+s; sleep 1
  kill -0 "$pid"   # a failed save is not a crash
  [ ! -e "$E2E_SCENE" ]
  mv "$dir.away" "$dir"
  before=$(stat -c %Y.%s "$E2E_SCENE")
  xdotool key --clearmodifiers ctrl+s
  for k in $(seq 1 100); do
    [ "$(stat -c %Y.%s "$E2E_SCENE")" != "$before" ] && break
    sleep 0.1
  done
  sleep 0.2
  kill "$pid"
  trap - EXIT
  wait "$pid"
'
