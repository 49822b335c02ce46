#!/usr/bin/env bash
# make bench: frame times (attnlab --bench), idle CPU and memory of the open
# window under Xvfb, and the numpy + matplotlib peer. Figures go to stdout and
# build/bench/*.json; nothing here asserts, tests stay in `make test`.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p build/bench
echo "== attnlab --bench (headless, Mesa llvmpipe)"
./attnlab --bench > build/bench/frames.json 2> build/bench/frames.txt
cat build/bench/frames.txt

echo
echo "== idle window: CPU over 10 s with no input, peak memory"
xvfb-run -a -s "-screen 0 1920x1080x24" bash -c '
  ./attnlab --size 1600x900 & pid=$!
  sleep 3
  t0=$(awk "{print \$14 + \$15}" /proc/$pid/stat)
  sleep 10
  t1=$(awk "{print \$14 + \$15}" /proc/$pid/stat)
  hz=$(getconf CLK_TCK)
  rss=$(awk "/VmHWM/ {print \$2}" /proc/$pid/status)
  kill $pid; wait $pid || true
  awk -v a=$t0 -v b=$t1 -v hz=$hz -v rss=$rss "BEGIN {
    printf \"idle CPU: %.2f %% of one core over 10 s\\npeak RSS of the window: %.1f MB\\n\", (b - a) / hz / 10 * 100, rss / 1024 }"
' | tee build/bench/idle.txt

echo
echo "== peer: numpy + matplotlib (Agg) doing the same updates at 1920x1080"
python3 tests/bench/peer.py > build/bench/peer.json
python3 - <<'PY'
import json
frames = json.load(open("build/bench/frames.json"))
peer = json.load(open("build/bench/peer.json"))
ours = {(r["kind"], r["n"]): r for r in frames["results"]
        if r["width"] == 1920 and r["heads"] == 1}
# the targets of issue 17: how many times faster than the peer, per row
targets = {("hover", 6): 20, ("drag", 6): 8, ("drag", 512): 8}
print("  kind      n   attnlab (ms)   peer (ms)   peer / attnlab   target")
for r in peer["results"]:
    key = (r["kind"], r["n"])
    if key not in ours:
        continue
    a, p = ours[key]["frame_median_ms"], r["frame_median_ms"]
    t = targets.get(key)
    verdict = "" if t is None else f">= {t}x  {'met' if p / a >= t else 'MISSED'}"
    print(f"  {key[0]:6s} {key[1]:4d}   {a:10.2f}   {p:9.2f}   {p / a:12.1f}x   {verdict}")
for r in frames["results"]:
    if r["width"] != 1920:
        continue
    if r["kind"] == "slider":
        print(f"  slider {r['n']:4d}   {r['frame_median_ms']:10.2f}   (d_k dragged: every score "
              f"changes; no peer row)")
    if r["kind"] == "drag" and r["heads"] > 1:
        print(f"  drag   {r['n']:4d}   {r['frame_median_ms']:10.2f}   ({r['heads']} heads, "
              f"recompute {r['recompute_median_ms']:.2f} ms; matplotlib has no such view)")
    if r["kind"] == "train":
        # the slice of training runs inside the layout; the rest is Mesa's software raster
        print(f"  train  {r['n']:4d}   {r['frame_median_ms']:10.2f}   (the layers model training "
              f"fast, a slice a frame: layout with training {r['layout_median_ms']:.2f} ms, "
              f"target <= 12 ms {'met' if r['layout_median_ms'] <= 12 else 'MISSED'})")
rss = frames.get("peak_rss_mb", 0)
print(f"time to first frame: {frames['first_frame_ms']:.1f} ms; peak RSS of --bench: {rss:.1f} MB "
      f"(target 100 MB: {'met' if rss <= 100 else 'MISSED'})")
PY

echo
echo "== training: n = 8, d = d_k = d_v = 16, batch 32, Adam, one core (target 2000 steps/s)"
./attnlab --train match --steps 3000 > build/bench/train.json
python3 - <<'PY'
import json
d = json.load(open("build/bench/train.json"))
print(f"{d['steps_per_s']:.0f} steps/s; final/chance {d['final_loss'] / d['chance_loss']:.3f}")
PY

echo
echo "== induction: 2 layers x 1 head, width 16, vocabulary 16, context 24, batch 16, Adam, one core"
echo "   peer: the same model and batch in PyTorch float64, 1 thread (target: 2x the peer's steps/s)"
./attnlab --train induction --steps 1000 > build/bench/induction.json
python3 tests/bench/induction_peer.py --steps 400 > build/bench/induction-peer.json
python3 - <<'PY'
import json
ours = json.load(open("build/bench/induction.json"))
peer = json.load(open("build/bench/induction-peer.json"))
r = ours["steps_per_s"] / peer["steps_per_s"]
print(f"attnlab: {ours['steps_per_s']:.0f} steps/s   {peer['peer']}: {peer['steps_per_s']:.0f} steps/s"
      f"   ratio {r:.1f}x   target >= 2x  {'met' if r >= 2 else 'MISSED'}")
PY

echo
echo "== variance experiment: d_k = 1024, 10^6 samples (2·10^9 normal draws)"
# best of three, since this machine's timings swing by a quarter run to run
best=$(for k in 1 2 3; do
  /usr/bin/time -f "%e" ./attnlab --experiment variance --dk 1024 --samples 1000000 2>&1 >/dev/null
done | sort -n | head -1)
peer=$(python3 - <<'PY'
import time, numpy as np
rng = np.random.default_rng(1)
best = 1e9
for _ in range(2):
    t = time.perf_counter(); s1 = s2 = 0.0
    for _ in range(100):  # 100 chunks of 10,000 samples
        q = rng.standard_normal((10000, 1024), dtype=np.float32)
        k = rng.standard_normal((10000, 1024), dtype=np.float32)
        d = np.einsum("ij,ij->i", q, k, dtype=np.float64)
        s1 += d.sum(); s2 += (d * d).sum()
    best = min(best, time.perf_counter() - t)
print(f"{best:.2f}")
PY
)
echo "attnlab: ${best} s   numpy peer: ${peer} s   peer / attnlab: $(python3 -c "print(f'{$peer / $best:.1f}x')")" \
  | tee build/bench/experiment.txt

echo
echo "== the real model: GPT-2 small's shapes (12 layers, 12 heads, 768 wide, 50257 tokens),"
echo "   random weights written by tests/tools/gpt2_reference.py; peer: PyTorch float32, same threads"
if [ ! -f build/bench/gpt2-random/model.safetensors ]; then
    python3 tests/tools/gpt2_reference.py make build/bench/gpt2-random --layers 12 --heads 12 \
        --embd 768 --positions 1024 --seed 1
fi
./attnlab --model build/bench/gpt2-random --bench > build/bench/gpt2.json
# the Model view's frames: every head's picture (144), the pointer over them, then a new pass
ATTNLAB_BENCH_MODEL=build/bench/gpt2-random ./attnlab --bench > build/bench/frames-model.json \
    2> /dev/null
threads=$(python3 -c 'import json; print(json.load(open("build/bench/gpt2.json"))["threads"])')
python3 tests/bench/gpt2_peer.py build/bench/gpt2-random --threads "$threads" > build/bench/gpt2-peer.json
python3 - <<'PY'
import json, os, resource, subprocess
ours = json.load(open("build/bench/gpt2.json"))
peer = json.load(open("build/bench/gpt2-peer.json"))
for r in json.load(open("build/bench/frames-model.json"))["results"]:
    if r["kind"].startswith("model") and r["width"] == 1920:
        what = ("the pointer over the grid: one picture's frame changes" if r["kind"] == "model_hover"
                else "a new pass shown: every picture changes")
        print(f"  Model view, {r['heads']} heads at 1920x1080, {what}: frame {r['frame_median_ms']:.2f} ms, "
              f"{100 * r['painted_median']:.1f} % of the window painted (the retained renderer "
              f"paints only what changed)")
pt = {r["n"]: r["forward_ms"] for r in peer["rows"]}
print(f"  attnlab: {ours['backend']}, {ours['threads']} threads; loading {ours['load_ms']:.0f} ms")
print(f"  PyTorch {peer['torch']}: {peer['threads']} threads, libblas.so.3 = {peer['libblas.so.3']}")
print("     n   attnlab (ms)   PyTorch (ms)   PyTorch / attnlab   products in the pass / alone   where the rest goes")
for r in ours["rows"]:
    p = r["parts_ms"]
    share = r["products_alone_ms"] / p["products"]
    rest = ", ".join(f"{k} {v:.1f}" for k, v in p.items() if k != "products")
    print(f"  {r['n']:4d}   {r['forward_ms']:10.1f}   {pt[r['n']]:10.1f}   {pt[r['n']] / r['forward_ms']:14.2f}x"
          f"   {share * 100:5.0f} % of sgemm alone (target >= 70 %)   {rest}")
edit = ours.get("edit")
if edit:
    sliced = ours["edit_sliced"]
    print(f"  the window: an edit of a {edit['tokens']}-token text is shown {edit['on_screen_ms']:.1f} ms later, "
          f"the pass on its own thread ({edit['frames']} frames at 60 Hz; in 12 ms slices, as in the "
          f"browser: {sliced['on_screen_ms']:.1f} ms, {sliced['frames']} frames; target: 100 ms, "
          f"{'met' if edit['on_screen_ms'] <= 100 else 'MISSED'}); "
          f"opening another head: {edit['open_head_ms']:.2f} ms (target: one frame)")
cs, pcs = ours.get("cached_step"), peer.get("cached_step")
if cs and pcs:
    print(f"  generation, one step at {cs['context']} tokens of context on the KV cache: "
          f"{cs['step_ms']:.1f} ms, the whole pass recomputed {cs['recompute_ms']:.0f} ms "
          f"({cs['recompute_ms'] / cs['step_ms']:.0f}x faster, target >= 10x: "
          f"{'met' if cs['recompute_ms'] >= 10 * cs['step_ms'] else 'MISSED'}; multiply-adds "
          f"{cs['step_madds'] / 1e6:.0f} M against {cs['recompute_madds'] / 1e6:.0f} M); PyTorch's "
          f"cached step {pcs['step_ms']:.1f} ms (PyTorch / attnlab {pcs['step_ms'] / cs['step_ms']:.2f}x, "
          f"target >= 1: {'met' if pcs['step_ms'] >= cs['step_ms'] else 'MISSED'})")
row32 = next(r for r in ours["rows"] if r["n"] == 32)
print(f"  a 32-token pass: {row32['forward_ms']:.1f} ms (target <= 80 ms: "
      f"{'met' if row32['forward_ms'] <= 80 else 'MISSED'})")
# peak RSS of --export json on a 64-token text, against the file's size + 200 MB
size = os.path.getsize("build/bench/gpt2-random/model.safetensors") / 2**20
subprocess.run(["./attnlab", "--model", "build/bench/gpt2-random", "--text", "The quick brown fox " * 16,
                "--export", "json"], stdout=subprocess.DEVNULL, check=True)
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(f"  peak RSS of --export json, 64 tokens: {rss:.0f} MB for a {size:.0f} MB float32 file "
      f"(target <= file + 200 MB: {'met' if rss <= size + 200 else 'MISSED'})")
PY

echo
echo "== a modern model: SmolLM2-135M's shapes (30 layers, 9 query heads on 3 key/value heads of"
echo "   64, 576 wide, SwiGLU 1536, 49152 tokens, tied), random weights written by"
echo "   tests/tools/llama_reference.py; peer: PyTorch float32, same threads"
if [ ! -f build/bench/smollm2-random/model.safetensors ]; then
    python3 tests/tools/llama_reference.py make build/bench/smollm2-random --family llama \
        --layers 30 --heads 9 --kv-heads 3 --head-dim 64 --embd 576 --inner 1536 \
        --positions 8192 --vocab 49152 --tied --theta 100000 --seed 1
fi
./attnlab --model build/bench/smollm2-random --bench > build/bench/smollm2.json
threads=$(python3 -c 'import json; print(json.load(open("build/bench/smollm2.json"))["threads"])')
python3 tests/bench/llama_peer.py build/bench/smollm2-random --threads "$threads" \
    > build/bench/smollm2-peer.json
python3 - <<'PY'
import json, os, resource, subprocess
ours = json.load(open("build/bench/smollm2.json"))
peer = json.load(open("build/bench/smollm2-peer.json"))
pt = {r["n"]: r["forward_ms"] for r in peer["rows"]}
print("     n   attnlab (ms)   PyTorch (ms)   PyTorch / attnlab   products in the pass / alone")
for r in ours["rows"]:
    share = r["products_alone_ms"] / r["parts_ms"]["products"]
    print(f"  {r['n']:4d}   {r['forward_ms']:10.1f}   {pt[r['n']]:10.1f}   {pt[r['n']] / r['forward_ms']:14.2f}x"
          f"   {share * 100:5.0f} % of sgemm alone (target >= 70 %)")
edit = ours["edit"]
print(f"  an edit of a {edit['tokens']}-token text is shown {edit['on_screen_ms']:.1f} ms later "
      f"(target 100 ms: {'met' if edit['on_screen_ms'] <= 100 else 'MISSED'})")
size = os.path.getsize("build/bench/smollm2-random/model.safetensors") / 2**20
subprocess.run(["./attnlab", "--model", "build/bench/smollm2-random", "--text", "The quick brown fox " * 16,
                "--export", "json"], stdout=subprocess.DEVNULL, check=True)
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(f"  peak RSS of --export json, 64 tokens: {rss:.0f} MB for a {size:.0f} MB float32 file "
      f"(target <= file + 250 MB: {'met' if rss <= size + 250 else 'MISSED'})")
PY

echo
echo "== browser: the web build's first frame, and what its frames cost (make web)"
if make --no-print-directory web >/dev/null 2>&1 && (cd tests/web && { [ -d node_modules/puppeteer-core ] || npm ci --no-audit --no-fund --silent; }); then
    node tests/web/test.mjs build/web --first-frame 5
    node tests/web/test.mjs build/web --frames > build/bench/web-frames.json
    python3 - <<'PY'
import json
web = json.load(open("build/bench/web-frames.json"))
desk = {(r["kind"], r["n"]): r["frame_median_ms"] for r in json.load(open("build/bench/frames.json"))["results"]
        if r["width"] == 1920 and r["heads"] == 1}
print(f"  {web['browser']}, 1920x1080: all the frames one input causes, each waiting for its pixels:")
print("  kind      n   browser (ms)   desktop (ms)")
for r in web["results"]:
    d = desk.get((r["kind"], r["n"]))
    print(f"  {r['kind']:6s} {r['n']:4d}   {r['frame_median_ms']:10.1f}   {d:10.2f}" if d else "")
PY
    # the Model view writing on GPT-2 small's shapes: the page's frames while it writes
    node tests/web/test.mjs build/web --writing build/bench/gpt2-random > build/bench/web-writing.json
    python3 - <<'PY'
import json
w = json.load(open("build/bench/web-writing.json"))
print(f"  writing on GPT-2 small's shapes, 8 s of play at 1920x1080: frames median "
      f"{w['frame_median_ms']:.1f} ms, 95th percentile {w['frame_p95_ms']:.1f} ms, longest "
      f"{w['frame_max_ms']:.0f} ms; {w['over_20_ms']} of {w['frames']} over 20 ms (target: none; "
      f"they ended at {w['over_20_at_ms']} ms after play), {w['written']} tokens written, "
      f"{w['from_worker']} answers from the page's Web Worker (ready "
      f"{w['worker_ready_after_ms'] / 1000:.1f} s after the first pass)")
PY
else
    echo "browser build unavailable (make web failed); skipped"
fi
