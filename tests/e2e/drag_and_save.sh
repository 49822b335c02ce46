#!/usr/bin/env bash
# End to end in a real X window: open attnlab on a scene under Xvfb, drag
# from (X0, Y0) to (X1, Y1) with the real mouse (XTEST), press Ctrl+S, wait
# for the save, quit. The caller checks the saved file.
#   drag_and_save.sh BIN SCENE X0 Y0 X1 Y1
set -euo pipefail
[ $# -eq 6 ] || { echo "usage: $0 BIN SCENE X0 Y0 X1 Y1" >&2; exit 2; }
export E2E_BIN=$1 E2E_SCENE=$2 X0=$3 Y0=$4 X1=$5 Y1=$6
unset SDL_VIDEODRIVER
exec xvfb-run -a -n $((100 + $$ % 800)) -s "-screen 0 1600x900x24" bash -euo pipefail -c '
  before=$(stat -c %Y.%s "$E2E_SCENE")
  cd "$(dirname "$E2E_SCENE")"   # F12 and Ctrl+E write into the working folder
  "$E2E_BIN" --scene "$E2E_SCENE" --size 1600x900 &
  pid=$!
  trap "kill $pid 2>/dev/null || true" EXIT
  wid=$(timeout 20 xdotool search --sync --onlyvisible --name "^attnlab$" | head -1)
  sleep 1
  xdotool windowfocus --sync "$wid" || true
  xdotool mousemove --window "$wid" "$X0" "$Y0"
  sleep 0.2
  xdotool mousedown 1
  for k in 1 2 3 4 5 6 7 8 9 10; do
    xdotool mousemove --window "$wid" $((X0 + (X1 - X0) * k / 10)) $((Y0 + (Y1 - Y0) * k / 10))
    sleep 0.05
  done
  xdotool mouseup 1
  sleep 0.3
  xdotool key --clearmodifiers ctrl+s
  for k in $(seq 1 100); do
    [ "$(stat -c %Y.%s "$E2E_SCENE")" != "$before" ] && break
    sleep 0.1
  done
  # twice in quick succession: the second export must not overwrite the first
  xdotool key --clearmodifiers ctrl+e; sleep 0.1
  xdotool key --clearmodifiers ctrl+e; sleep 0.5
  xdotool mousemove --window "$wid" "$X1" "$Y1"; sleep 0.2   # over the embedding plane
  xdotool key --clearmodifiers shift+F12; sleep 0.8
  sleep 0.2
  kill "$pid"
  trap - EXIT
  # SIGTERM arrives as a quit event: the app must shut down cleanly (and,
  # in the sanitizer build, without leaks)
  wait "$pid"
'
