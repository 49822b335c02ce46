#!/usr/bin/env bash
# The window remembers its theme, zoom and size. In a real X window with
# XDG_CONFIG_HOME=CONFIG: press F2 (theme: light) and Ctrl+= (zoom in), quit
# with Ctrl+Q, then start again and write the new window's settings out by
# quitting once more. The caller reads CONFIG/attnlab/settings.json.
#   theme_persists.sh BIN CONFIG
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 BIN CONFIG" >&2; exit 2; }
export E2E_BIN=$1 XDG_CONFIG_HOME=$2
unset SDL_VIDEODRIVER
exec xvfb-run -a -n $((100 + ($$ + 200) % 800)) -s "-screen 0 1600x900x24" bash -euo pipefail -c '
  run_once() { # then keys to press
    "$E2E_BIN" --size 1200x800 2>>"$XDG_CONFIG_HOME/stderr" &
    pid=$!
    trap "kill $pid 2>/dev/null || true" EXIT
    wid=$(timeout 20 xdotool search --sync --onlyvisible --name "^attnlab$" | head -1)
    sleep 1
    xdotool windowfocus --sync "$wid" || true
    for key in "$@"; do xdotool key --clearmodifiers "$key"; sleep 0.4; done
    xdotool key --clearmodifiers ctrl+q
    wait "$pid"
    trap - EXIT
  }
  run_once F2 ctrl+equal
  cp "$XDG_CONFIG_HOME/attnlab/settings.json" "$XDG_CONFIG_HOME/first.json"
  run_once
'
