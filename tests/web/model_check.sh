#!/bin/sh
# The browser build's real-model pass (WebAssembly, -msimd128, the portable
# gemm kernel, 32-bit, PCRE2 and utf8proc built for wasm) on generated
# checkpoints, opened by the same checkpoint_open as the page: a GPT-2 one and
# a Qwen3 one in BF16 shards with a tokenizer.json. Each is checked against
# its float64 reference, and against the desktop's pass (OpenBLAS) on the
# same checkpoint and text: the same ids, attention within 1e-4. Then each
# writes 12 tokens on its KV cache, greedily and drawn at T = 0.9 with a seed:
# the browser's greedy run against the float64 reference
# (generation_check.py), and both runs against the desktop's --generate: the
# same tokens, for the same seed gives the same text on both.
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
text="The browser's kernel gives the same numbers, twice. The browser's kernel"

# check TOOL NAME: the browser's and the desktop's export of $dir/NAME
check() {
    node "$js" "$dir/$2" "$text" > "$dir/web.json" 2> "$dir/web.err" || { cat "$dir/web.err"; exit 1; }
    "$bin" --model "$dir/$2" --text "$text" --export json > "$dir/desktop.json"
    printf '%s: browser pass (%s) against float64: ' "$2" "$(sed 's/^model_check: //' "$dir/web.err")"
    "$py" "$top/tests/tools/$1" check "$dir/$2" "$dir/web.json"
    "$py" - "$dir/web.json" "$dir/desktop.json" "$2" <<'PY'
import json, sys
web, desk = (json.load(open(p)) for p in sys.argv[1:3])
assert web["ids"] == desk["ids"] and web["tokens"] == desk["tokens"], "the tokenizers differ"
diff = max(abs(a - b) for lw, ld in zip(web["attn"], desk["attn"]) for hw, hd in zip(lw, ld)
           for rw, rd in zip(hw, hd) for a, b in zip(rw, rd))
print(f"{sys.argv[3]}: browser against desktop (OpenBLAS): attention max |diff| {diff:.3g} "
      "(tolerance 1e-4)")
sys.exit(0 if diff <= 1e-4 else 1)
PY
}

# generation NAME: the browser's and the desktop's --generate on $dir/NAME
generation() {
    node "$js" "$dir/$1" "$text" 12 0 0 > "$dir/web-greedy.json" 2> "$dir/web.err" || { cat "$dir/web.err"; exit 1; }
    printf '%s: the browser writing greedily, against float64: ' "$1"
    "$py" "$top/tests/tools/generation_check.py" "$dir/$1" "$dir/web-greedy.json"
    node "$js" "$dir/$1" "$text" 12 0.9 7 > "$dir/web-drawn.json" 2> "$dir/web.err" || { cat "$dir/web.err"; exit 1; }
    "$bin" --model "$dir/$1" --text "$text" --generate 12 --export json > "$dir/desk-greedy.json"
    "$bin" --model "$dir/$1" --text "$text" --generate 12 --temperature 0.9 --seed 7 \
        --export json > "$dir/desk-drawn.json"
    "$py" - "$dir" "$1" <<'PY'
import json, sys
d, name = sys.argv[1:3]
for run in ("greedy", "drawn"):
    web, desk = (json.load(open(f"{d}/{w}-{run}.json")) for w in ("web", "desk"))
    assert web["ids"] == desk["ids"], f"{name} {run}: the browser wrote {web['ids']}, the desktop {desk['ids']}"
    print(f"{name}: {run}, {len(web['ids'])} tokens: the browser writes what the desktop writes")
PY
}

"$py" "$top/tests/tools/gpt2_reference.py" make "$dir/gpt2" --seed 21 --dtype mixed --layers 2 \
    --heads 4 --embd 32 --positions 64
check gpt2_reference.py gpt2
generation gpt2
"$py" "$top/tests/tools/llama_reference.py" make "$dir/qwen3" --family qwen3 --seed 22 \
    --dtype bf16 --shards 2 --tied --heads 4 --kv-heads 2 --head-dim 16
check llama_reference.py qwen3
generation qwen3
