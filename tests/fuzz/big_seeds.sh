#!/usr/bin/env bash
# Seeds at the real input-size limits for `make fuzz`, written to
# OUT/seeds_<target>/ (generated, never committed: some are megabytes).
# libFuzzer mutates from these, so it starts where hostile files live:
# deep nesting, huge lines, many lines, long runs of one byte.
set -euo pipefail
out=${1:?usage: big_seeds.sh OUTDIR}
mkdir -p "$out"/seeds_scene "$out"/seeds_lesson "$out"/seeds_math "$out"/seeds_cli "$out"/seeds_safetensors "$out"/seeds_bpe
rep() { # rep STRING COUNT: STRING repeated COUNT times
  awk -v s="$1" -v n="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s", s }'
}
# lessons (limit 512 KB)
{ printf '# T\n\n## S\n\n$'; rep 'x^{' 60000; rep '}' 60000; printf '$\n'; } > "$out"/seeds_lesson/deep-superscripts.md
{ printf '# T\n\n## S\n\n$'; rep '\\frac{' 20000; printf '1'; rep '}{2}' 20000; printf '$\n'; } > "$out"/seeds_lesson/deep-fractions.md
{ printf '# T\n\n## S\n\n```attnlab\n'; rep '# c\n' 100000; printf '```\n'; } > "$out"/seeds_lesson/many-lines.md
{ printf '# T\n\n## S\n\n```attnlab\ndk'; rep ' ' 400000; printf '5000\n```\n'; } > "$out"/seeds_lesson/long-directive.md
{ printf '# T\n\n## S\n\n'; rep 'word ' 100000; printf '\n'; } > "$out"/seeds_lesson/long-paragraph.md
{ printf '# T\n\n'; rep '## S\n\nx\n\n' 30000; } > "$out"/seeds_lesson/many-steps.md
# formulas: the body of $…$
rep 'x^{' 60000 > "$out"/seeds_math/deep-superscripts
rep '\\frac{a}{' 30000 > "$out"/seeds_math/deep-fractions
rep '\\sum_{i=1}^{n} ' 20000 > "$out"/seeds_math/long-sum
rep '{' 200000 > "$out"/seeds_math/braces
# scenes (limit 8 MB)
{ printf '{"tokens": '; rep '[' 100000; rep ']' 100000; printf '}\n'; } > "$out"/seeds_scene/deep-arrays.json
{ printf '{"tokens": ["'; rep 'a' 7000000; printf '"], "d": 2, "d_k": 2, "d_v": 2, "seed": 1, "scaled": true}\n'; } > "$out"/seeds_scene/huge-string.json
{ printf '{\n'; rep '\n' 1000000; printf '"tokens": ["a"], "d": 2, "d_k": 2, "d_v": 2, "seed": 1, "scaled": true}\n'; } > "$out"/seeds_scene/many-lines.json
{ printf '{"tokens": ["a"], "d": 2, "d_k": 2, "d_v": 2, "seed": 1, "scaled": true, "X": [[0.'; rep '1' 1000000; printf ', 0]]}\n'; } > "$out"/seeds_scene/long-number.json
# command lines (arguments split at newlines)
{ printf -- '--tokens\n'; rep 'word ' 20000; } > "$out"/seeds_cli/long-tokens
{ printf -- '--perm\n'; rep '0 ' 60000; } > "$out"/seeds_cli/long-perm
# safetensors headers (fuzzed up to 1 MB; the format allows 100 MB of header)
st() { # st NAME < HEADER: an 8-byte little-endian length, then the header
  python3 -c 'import struct,sys; h=sys.stdin.buffer.read(); open(sys.argv[1],"wb").write(struct.pack("<Q",len(h))+h)' "$1"
}
{ printf '{"__metadata__":'; rep '[' 100000; rep ']' 100000; printf '}'; } | st "$out"/seeds_safetensors/deep-metadata
{ printf '{'; for i in $(seq 0 4200); do printf '"t%d":{"dtype":"F32","shape":[0],"data_offsets":[0,0]},' "$i"; done
  printf '"z":{"dtype":"F32","shape":[0],"data_offsets":[0,0]}}'; } | st "$out"/seeds_safetensors/many-tensors
{ printf '{"'; rep 'a' 900000; printf '":{"dtype":"F32","shape":[0],"data_offsets":[0,0]}}'; } | st "$out"/seeds_safetensors/long-name
# GPT-2's tokenizer (fuzzed up to 2 MB: its real vocabulary and merges, then a text)
gpt2() { cat tests/data/gpt2/vocab.json; printf '\0'; cat tests/data/gpt2/merges.txt; printf '\0'; }
{ gpt2; rep ' ' 16000; } > "$out"/seeds_bpe/gpt2-spaces
{ gpt2; rep 'ab' 8000; } > "$out"/seeds_bpe/gpt2-long-word
{ gpt2; rep "it's 12 日本 👍 " 800; } > "$out"/seeds_bpe/gpt2-mixed
# translation catalogs (fuzzed up to 256 KB): the real ones, and one of the most entries that fit
mkdir -p "$out"/seeds_mo "$out"/seeds_checkpoint
for l in de es zh_CN; do
  if [ -f build/locale/$l/LC_MESSAGES/attnlab.mo ]; then cp build/locale/$l/LC_MESSAGES/attnlab.mo "$out"/seeds_mo/$l.mo; fi
done
python3 - "$out"/seeds_mo/many.mo <<'PY'
import struct, sys
# a valid .mo (no hash table) of as many "%s"-bearing entries as fit in 256 KB
pairs = sorted((b"id %05d %%s" % k, b"tr %05d %%s" % k) for k in range(6500))
n = len(pairs)
ids_at, strs_at, data_at = 28, 28 + 8 * n, 28 + 16 * n
table_o, table_t, blob = [], [], b""
for key, _ in pairs:
    table_o.append((len(key), data_at + len(blob))); blob += key + b"\0"
for _, val in pairs:
    table_t.append((len(val), data_at + len(blob))); blob += val + b"\0"
out = struct.pack("<7I", 0x950412de, 0, n, ids_at, strs_at, 0, data_at)
out += b"".join(struct.pack("<2I", *e) for e in table_o + table_t) + blob
open(sys.argv[1], "wb").write(out)
PY
# checkpoint folders (fuzzed up to 4 MB): GPT-2's real vocabulary and merges with a one-layer
# model of its vocabulary's size (the small ones are in the corpus); CONFIG \0 WEIGHTS \0 VOCAB \0 MERGES
python3 - "$out"/seeds_checkpoint tests/data/gpt2 <<'PY'
import json, struct, sys
out, data = sys.argv[1], sys.argv[2]
def checkpoint(vocab_size, embd, positions):
    config = {"model_type": "gpt2", "n_layer": 1, "n_head": 1, "n_embd": embd,
              "n_positions": positions, "vocab_size": vocab_size}
    shapes = {"wte.weight": [vocab_size, embd], "wpe.weight": [positions, embd],
              "h.0.ln_1.weight": [embd], "h.0.ln_1.bias": [embd],
              "h.0.attn.c_attn.weight": [embd, 3 * embd], "h.0.attn.c_attn.bias": [3 * embd],
              "h.0.attn.c_proj.weight": [embd, embd], "h.0.attn.c_proj.bias": [embd],
              "h.0.ln_2.weight": [embd], "h.0.ln_2.bias": [embd],
              "h.0.mlp.c_fc.weight": [embd, 4 * embd], "h.0.mlp.c_fc.bias": [4 * embd],
              "h.0.mlp.c_proj.weight": [4 * embd, embd], "h.0.mlp.c_proj.bias": [embd],
              "ln_f.weight": [embd], "ln_f.bias": [embd]}
    header, blob = {}, b""
    for name, shape in shapes.items():
        count = 1
        for s in shape: count *= s
        values = struct.pack("<%df" % count, *[((i * 7919) % 200 - 100) / 400.0 for i in range(count)])
        header[name] = {"dtype": "F32", "shape": shape,
                        "data_offsets": [len(blob), len(blob) + len(values)]}
        blob += values
    h = json.dumps(header).encode()
    return json.dumps(config).encode(), struct.pack("<Q", len(h)) + h + blob
vocab = open(data + "/vocab.json", "rb").read()
merges = open(data + "/merges.txt", "rb").read()
config, weights = checkpoint(len(json.loads(vocab)), 4, 8)
open(out + "/gpt2-vocab", "wb").write(config + b"\0" + weights + b"\0" + vocab + b"\0" + merges)
PY
