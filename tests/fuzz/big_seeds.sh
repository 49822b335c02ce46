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
