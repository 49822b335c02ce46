#!/usr/bin/env bash
# Taps in a real X window: `xdotool click` sends the press and the release
# back to back, so they reach attnlab in one frame (a touchpad tap, a
# presenter remote). Tap chip (CX, CY), tap the empty status line, tap the
# Reverse button (RX, RY), then Ctrl+S. The caller checks that the saved
# sentence is exactly the reversed one: a chip left stuck to the cursor
# would have been dropped by the second tap and reordered the sentence.
#   quick_click.sh BIN SCENE CX CY RX RY
set -euo pipefail
[ $# -eq 6 ] || { echo "usage: $0 BIN SCENE CX CY RX RY" >&2; exit 2; }
export E2E_BIN=$1 E2E_SCENE=$2 CX=$3 CY=$4 RX=$5 RY=$6
unset SDL_VIDEODRIVER
exec xvfb-run -a -n $((100 + ($$ + 400) % 800)) -s "-screen 0 1600x900x24" bash -euo pipefail -c '
  before=$(stat -c %Y.%s "$E2E_SCENE")
  "$E2E_BIN" --scene "$E2E_SCENE" --size 1600x900 &
  pid=$!
  trap "kill $pid 2>/dev/null || true" EXIT
  wid=$(timeout 20 xdotool search --sync --onlyvisible --name "^attnlab$" | head -1)
  sleep 1
  xdotool windowfocus --sync "$wid" || true
  xdotool mousemove --window "$wid" "$CX" "$CY"; sleep 0.3
  xdotool click 1; sleep 0.4
  xdotool mousemove --window "$wid" 800 885; sleep 0.3
  xdotool click 1; sleep 0.4
  xdotool mousemove --window "$wid" "$RX" "$RY"; sleep 0.3
  xdotool click 1; sleep 0.4
  xdotool key --clearmodifiers ctrl+s
  for k in $(seq 1 100); do
    [ "$(stat -c %Y.%s "$E2E_SCENE")" != "$before" ] && break
    sleep 0.1
  done
  kill "$pid"
  trap - EXIT
  wait "$pid"
'
