#!/usr/bin/env bash
# A settings file the user did not touch this run keeps what it held. In a
# real X window with XDG_CONFIG_HOME=CONFIG, already holding a settings file:
# open the window, press nothing, quit with Ctrl+Q. The caller reads the file.
#   settings_kept.sh BIN CONFIG [WxH]   (the window's --size; default 1000x700)
set -euo pipefail
[ $# -ge 2 ] && [ $# -le 3 ] || { echo "usage: $0 BIN CONFIG [WxH]" >&2; exit 2; }
export E2E_BIN=$1 XDG_CONFIG_HOME=$2 E2E_SIZE=${3:-1000x700}
unset SDL_VIDEODRIVER
exec xvfb-run -a -n $((100 + ($$ + 300) % 800)) -s "-screen 0 1600x900x24" bash -euo pipefail -c '
  "$E2E_BIN" --size "$E2E_SIZE" 2>>"$XDG_CONFIG_HOME/stderr" &
  pid=$!
  trap "kill $pid 2>/dev/null || true" EXIT
  wid=$(timeout 20 xdotool search --sync --onlyvisible --name "^attnlab$" | head -1)
  sleep 1
  xdotool windowfocus --sync "$wid" || true
  xdotool key --clearmodifiers ctrl+q
  wait "$pid"
  trap - EXIT
'
