#!/bin/sh
# The browser build's real-model pass (WebAssembly, -msimd128, the portable
# gemm kernel, 32-bit) on a generated checkpoint: checked against the
# float64 reference, and against the desktop's pass (OpenBLAS) on the same
# checkpoint and text: the same ids, attention within 1e-4.
#
#   tests/web/model_check.sh build/web/model_check.js ./attnlab
set -eu
js=$1
bin=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3 # Debian's, with numpy
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$py" "$top/tests/tools/gpt2_reference.py" make "$dir/ck" --seed 21 --dtype mixed --layers 2 \
    --heads 4 --embd 32 --positions 64
text="The browser's kernel gives the same numbers, twice. The browser's kernel"
node "$js" "$dir/ck" "$text" > "$dir/web.json" 2> "$dir/web.err" || { cat "$dir/web.err"; exit 1; }
"$bin" --model "$dir/ck" --text "$text" --export json > "$dir/desktop.json"
printf 'browser pass (%s) against float64: ' "$(sed 's/^model_check: //' "$dir/web.err")"
"$py" "$top/tests/tools/gpt2_reference.py" check "$dir/ck" "$dir/web.json"
"$py" - "$dir/web.json" "$dir/desktop.json" <<'PY'
import json, sys
web, desk = (json.load(open(p)) for p in sys.argv[1:3])
assert web["ids"] == desk["ids"] and web["tokens"] == desk["tokens"], "the tokenizers differ"
diff = max(abs(a - b) for lw, ld in zip(web["attn"], desk["attn"]) for hw, hd in zip(lw, ld)
           for rw, rd in zip(hw, hd) for a, b in zip(rw, rd))
print(f"browser against desktop (OpenBLAS): attention max |diff| {diff:.3g} (tolerance 1e-4)")
sys.exit(0 if diff <= 1e-4 else 1)
PY
