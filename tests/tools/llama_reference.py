#!/usr/bin/python3
"""Llama-family checkpoints for the tests (Llama, Qwen2, Qwen3), and a float64
reference of their forward pass written from the architecture.

    llama_reference.py make DIR [--family llama|qwen2|qwen3] [--layers L] [--heads H]
                       [--kv-heads G] [--head-dim D] [--embd W] [--inner I] [--positions P]
                       [--dtype f32|f16|bf16|mixed] [--tied] [--shards N]
                       [--rope-scaling llama3] [--rope-parameters] [--attention-bias]
                       [--theta T] [--seed S] [--tokenizer FILE] [--vocab N] [--circuit]
        a random checkpoint in DIR as transformers writes one: config.json (with
        rope_theta and rope_scaling, or with --rope-parameters transformers 5's
        rope_parameters), model.safetensors (or with --shards N, N files
        model-0000k-of-0000N.safetensors and model.safetensors.index.json), and a
        tokenizer.json: GPT-2's byte-level BPE cut to its first 512 tokens (the 256 bytes
        and the first 256 merges), which vocab_size 512 covers. --tied leaves lm_head out
        (tie_word_embeddings true). --tokenizer copies that tokenizer.json (a real
        model's) instead, and vocab_size covers its every id; --vocab N makes vocab_size N
        (at least the tokenizer's 512): a model's shapes, for the bench. --circuit: a Llama
        whose weights are set by hand for lesson 15 (see circuit()), its tokenizer with
        Llama 3's BOS <|begin_of_text|> (id 512) put first by its post-processor
    llama_reference.py check DIR EXPORT.json
        recomputes attnlab's export (its ids) in float64 from the stored weights, as the
        family's pass is defined (RMSNorm; q/k/v biases for Qwen2 and attention_bias;
        Qwen3's per-head q/k RMSNorm; RoPE rotate-half, Llama 3's scaled frequencies;
        grouped-query heads; SwiGLU; tied or separate lm_head), and compares attn, scores,
        logits and turn_moved (each head's share of weight RoPE's turn moves: half of
        Σ_j |A − A₀| a row, A₀ from the same q and k unturned, the mean over rows 1 … n − 1). Prints the largest differences; exit 1 when one is past its tolerance

Tolerances (float32 against float64): attention weights and turn_moved 1e-4 absolute; scores and logits
1e-4 relative to the largest magnitude of each.
"""
import argparse
import json
import math
import os
import shutil
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpt2_reference import encode, read_safetensors, write_safetensors, GPT2_DATA  # noqa: E402

VOCAB = 512
TEXT_VOCAB = 512  # the generated tokenizer's: GPT-2's first 512 tokens


def tokenizer(path, bos=False):
    with open(os.path.join(GPT2_DATA, "vocab.json"), encoding="utf-8") as f:
        vocab = {t: i for t, i in json.load(f).items() if i < TEXT_VOCAB}
    with open(os.path.join(GPT2_DATA, "merges.txt"), encoding="utf-8") as f:
        lines = [l for l in f.read().split("\n") if l and not l.startswith("#version")]
    merges = [l for l in lines[:TEXT_VOCAB - 256]]
    for l in merges:
        a, b = l.split(" ")
        assert a in vocab and b in vocab and a + b in vocab, l
    tok = {"version": "1.0", "added_tokens": [], "normalizer": None,
           "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True,
                             "use_regex": True},
           "model": {"type": "BPE", "dropout": None, "vocab": vocab, "merges": merges}}
    if bos:
        tok["added_tokens"] = [{"id": TEXT_VOCAB, "content": "<|begin_of_text|>", "special": True,
                                "normalized": False, "lstrip": False, "rstrip": False,
                                "single_word": False}]
        tok["post_processor"] = {
            "type": "TemplateProcessing",
            "single": [{"SpecialToken": {"id": "<|begin_of_text|>", "type_id": 0}},
                       {"Sequence": {"id": "A", "type_id": 0}}],
            "pair": [], "special_tokens": {"<|begin_of_text|>": {
                "id": "<|begin_of_text|>", "ids": [TEXT_VOCAB], "tokens": ["<|begin_of_text|>"]}}}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(tok, f, ensure_ascii=False)


def params(a):
    """name, shape, spread, offset of every tensor, in the checkpoint's order."""
    W, H, G, D, I = a.embd, a.heads, a.kv_heads, a.head_dim, a.inner
    t = [("model.embed_tokens.weight", (VOCAB, W), 0.6, 0)]
    bias = a.family == "qwen2" or a.attention_bias
    for l in range(a.layers):
        p = f"model.layers.{l}."
        t += [(p + "input_layernorm.weight", (W,), 0.2, 1),
              (p + "self_attn.q_proj.weight", (H * D, W), 0.3, 0),
              (p + "self_attn.k_proj.weight", (G * D, W), 0.3, 0),
              (p + "self_attn.v_proj.weight", (G * D, W), 0.3, 0)]
        if bias:
            t += [(p + "self_attn.q_proj.bias", (H * D,), 0.2, 0),
                  (p + "self_attn.k_proj.bias", (G * D,), 0.2, 0),
                  (p + "self_attn.v_proj.bias", (G * D,), 0.2, 0)]
        if a.family == "qwen3":
            t += [(p + "self_attn.q_norm.weight", (D,), 0.2, 1),
                  (p + "self_attn.k_norm.weight", (D,), 0.2, 1)]
        t += [(p + "self_attn.o_proj.weight", (W, H * D), 0.2, 0)]
        if a.attention_bias:
            t += [(p + "self_attn.o_proj.bias", (W,), 0.05, 0)]
        t += [(p + "post_attention_layernorm.weight", (W,), 0.2, 1),
              (p + "mlp.gate_proj.weight", (I, W), 0.3, 0),
              (p + "mlp.up_proj.weight", (I, W), 0.3, 0),
              (p + "mlp.down_proj.weight", (W, I), 0.2, 0)]
    t += [("model.norm.weight", (W,), 0.2, 1)]
    if not a.tied:
        t += [("lm_head.weight", (VOCAB, W), 0.5, 0)]
    return t


CIRCUIT = dict(family="llama", layers=2, heads=8, kv_heads=2, head_dim=32, embd=64, inner=64,
               positions=128, tied=True, theta=10000.0)


def circuit(a, rng):
    """Weights set by hand so that two heads of one key/value group show what
    lesson 15 teaches (CIRCUIT's shapes, the MLPs off, BOS id 512):
      0.0  a previous-token head made by RoPE alone: its q and k are the same
           for every token (read off a constant dim), so without the turn every
           key scores alike; turned, pair c scores a²·cos((i − j − 1)·θ_c), which
           all pairs make largest at j = i − 1;
      0.1  an attention sink: it shares 0.0's keys (grouped-query attention),
           but its query asks only for the BOS flag, on the slowest pair, whose
           turn over a text is a few thousandths of a radian: distance plays no
           part;
      the other heads read the stream at random, small.
    The stream: [0, 32) a token's code (a random unit vector), 32 a constant 1,
    33 BOS's flag (BOS has no code: every row has norm² 2, so RMSNorm scales all
    rows alike, by √(64/2))."""
    W, H, G, D = a.embd, a.heads, a.kv_heads, a.head_dim
    half, ONE, BOS = D // 2, 32, 33
    w = {}
    code = rng.normal(0, 1, (VOCAB, 32))
    code /= np.linalg.norm(code, axis=1, keepdims=True)
    emb = np.zeros((VOCAB, W))
    emb[:, :32] = code
    emb[:, ONE] = 1
    emb[TEXT_VOCAB, :32] = 0
    emb[TEXT_VOCAB, BOS] = 1
    w["model.embed_tokens.weight"] = emb
    scale = math.sqrt(W / 2)  # RMSNorm's factor on every row
    inv = 1.0 / a.theta ** (np.arange(0, D, 2, dtype=np.float64) / D)
    for l in range(a.layers):
        p = f"model.layers.{l}."
        q = rng.normal(0, 0.05, (H * D, W))
        k = rng.normal(0, 0.05, (G * D, W))
        v = rng.normal(0, 0.3, (G * D, W))
        o = rng.normal(0, 0.05, (W, H * D))
        if l == 0:
            q[:2 * D] = 0
            k[:D] = 0
            amp = math.sqrt(4.0 * math.sqrt(D)) / scale  # a² = 4 a pair, after the norm
            for c in range(8):  # the fast pairs: q = a·e^(−iθ_c), k = a
                q[c, ONE] = amp * math.cos(inv[c])
                q[c + half, ONE] = -amp * math.sin(inv[c])
                k[c, ONE] = amp
            slow = half - 1  # the slowest pair: BOS's flag against a constant query
            bos = math.sqrt(9.0 * math.sqrt(D)) / scale
            q[D + slow, ONE] = bos
            k[slow, BOS] = bos
        w[p + "input_layernorm.weight"] = np.ones(W)
        w[p + "self_attn.q_proj.weight"] = q
        w[p + "self_attn.k_proj.weight"] = k
        w[p + "self_attn.v_proj.weight"] = v
        w[p + "self_attn.o_proj.weight"] = o
        w[p + "post_attention_layernorm.weight"] = np.ones(W)
        w[p + "mlp.gate_proj.weight"] = np.zeros((a.inner, W))
        w[p + "mlp.up_proj.weight"] = np.zeros((a.inner, W))
        w[p + "mlp.down_proj.weight"] = np.zeros((W, a.inner))
    w["model.norm.weight"] = np.ones(W)
    return w


def make(a):
    global VOCAB
    rng = np.random.default_rng(a.seed)
    os.makedirs(a.dir, exist_ok=True)
    if a.circuit:
        for key, value in CIRCUIT.items():
            setattr(a, key, value)
        VOCAB = TEXT_VOCAB + 1
    if a.tokenizer:
        with open(a.tokenizer, encoding="utf-8") as f:
            tok = json.load(f)
        ids = list(tok["model"]["vocab"].values()) + [t["id"] for t in tok.get("added_tokens", [])]
        VOCAB = max(ids) + 1
    if a.vocab:
        assert a.vocab >= VOCAB, "--vocab below the tokenizer's ids"
        VOCAB = a.vocab
    arch = {"llama": "LlamaForCausalLM", "qwen2": "Qwen2ForCausalLM", "qwen3": "Qwen3ForCausalLM"}
    config = {"architectures": [arch[a.family]], "model_type": a.family,
              "hidden_size": a.embd, "intermediate_size": a.inner,
              "num_hidden_layers": a.layers, "num_attention_heads": a.heads,
              "num_key_value_heads": a.kv_heads, "head_dim": a.head_dim,
              "max_position_embeddings": a.positions, "vocab_size": VOCAB,
              "rms_norm_eps": 1e-6, "hidden_act": "silu", "tie_word_embeddings": a.tied,
              "attention_bias": a.attention_bias, "bos_token_id": 1, "eos_token_id": [2, 3],
              "torch_dtype": "float32", "transformers_version": "4.57.0"}
    if a.family != "llama":
        config["use_sliding_window"] = False
        config["sliding_window"] = None
    scaling = None
    if a.rope_scaling == "llama3":
        scaling = {"rope_type": "llama3", "factor": 32.0, "low_freq_factor": 1.0,
                   "high_freq_factor": 4.0, "original_max_position_embeddings": 16}
    if a.rope_parameters:
        rp = {"rope_type": "default", "rope_theta": a.theta}
        if scaling:
            rp.update(scaling)
        config["rope_parameters"] = rp
        config["transformers_version"] = "5.0.0"
    else:
        config["rope_theta"] = a.theta
        config["rope_scaling"] = scaling
    with open(os.path.join(a.dir, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
    if a.tokenizer:
        shutil.copy(a.tokenizer, os.path.join(a.dir, "tokenizer.json"))
    else:
        tokenizer(os.path.join(a.dir, "tokenizer.json"), bos=a.circuit)
    dtypes, k = ["F32", "F16", "BF16"], [0]

    def dtype():
        if a.dtype == "mixed":
            k[0] += 1
            return dtypes[k[0] % 3]
        return {"f32": "F32", "f16": "F16", "bf16": "BF16"}[a.dtype]

    tensors = []
    hand = circuit(a, rng) if a.circuit else None
    for name, shape, std, offset in params(a):
        arr = (hand[name] if hand else offset + rng.normal(0, std, shape)).astype(np.float32)
        dt = dtype()
        tensors.append((name, dt, shape, encode(arr, dt)))
    if a.shards <= 1:
        write_safetensors(os.path.join(a.dir, "model.safetensors"), tensors, False, rng)
        return
    n = a.shards
    per = math.ceil(len(tensors) / n)
    weight_map = {}
    for s in range(n):
        name = f"model-{s + 1:05d}-of-{n:05d}.safetensors"
        part = tensors[s * per:(s + 1) * per]
        write_safetensors(os.path.join(a.dir, name), part, False, rng)
        for t in part:
            weight_map[t[0]] = name
    total = sum(len(t[3]) for t in tensors)
    with open(os.path.join(a.dir, "model.safetensors.index.json"), "w") as f:
        json.dump({"metadata": {"total_size": total}, "weight_map": weight_map}, f, indent=2)


def weights(folder):
    index = os.path.join(folder, "model.safetensors.index.json")
    if os.path.exists(os.path.join(folder, "model.safetensors")):
        return read_safetensors(os.path.join(folder, "model.safetensors"))
    with open(index) as f:
        files = sorted(set(json.load(f)["weight_map"].values()))
    w = {}
    for name in files:
        w.update(read_safetensors(os.path.join(folder, name)))
    return w


def rms(x, g, eps):
    return x / np.sqrt((x * x).mean(axis=-1, keepdims=True) + eps) * g


def frequencies(c):
    """Each pair's turning speed, as transformers' RoPE defines it."""
    rp = c.get("rope_parameters") or {}
    theta = rp.get("rope_theta", c.get("rope_theta", 10000.0))
    scaling = rp if rp.get("rope_type", "default") != "default" else c.get("rope_scaling")
    d = c["head_dim"]
    inv = 1.0 / theta ** (np.arange(0, d, 2, dtype=np.float64) / d)
    if scaling and scaling.get("rope_type", scaling.get("type")) == "llama3":
        factor, low, high = scaling["factor"], scaling["low_freq_factor"], scaling["high_freq_factor"]
        old = scaling["original_max_position_embeddings"]
        wavelen = 2 * math.pi / inv
        out = np.where(wavelen > old / low, inv / factor, inv)
        smooth = (old / wavelen - low) / (high - low)
        smoothed = (1 - smooth) * out / factor + smooth * out
        medium = ~(wavelen < old / high) & ~(wavelen > old / low)
        inv = np.where(medium, smoothed, out)
    return inv


def rope(x, inv):
    """rotate-half: x·cos + rotate_half(x)·sin, rows are positions 0 … n − 1."""
    n, d = x.shape[-2], x.shape[-1]
    ang = np.arange(n)[:, None] * inv[None, :]
    cos, sin = np.concatenate([np.cos(ang)] * 2, -1), np.concatenate([np.sin(ang)] * 2, -1)
    half = np.concatenate([-x[..., d // 2:], x[..., :d // 2]], -1)
    return x * cos + half * sin


def forward(c, w, ids):
    L, H, G, D = c["num_hidden_layers"], c["num_attention_heads"], c["num_key_value_heads"], c["head_dim"]
    eps, fam = c["rms_norm_eps"], c["model_type"]
    inv = frequencies(c)
    x = w["model.embed_tokens.weight"][ids]
    n = len(ids)
    attn, scores, moved = [], [], []
    for l in range(L):
        p = f"model.layers.{l}."
        a = rms(x, w[p + "input_layernorm.weight"], eps)
        proj = {}
        for part, heads in (("q", H), ("k", G), ("v", G)):
            y = a @ w[p + f"self_attn.{part}_proj.weight"].T
            if p + f"self_attn.{part}_proj.bias" in w:
                y = y + w[p + f"self_attn.{part}_proj.bias"]
            y = y.reshape(n, heads, D).transpose(1, 0, 2)
            if part != "v" and fam == "qwen3":
                y = rms(y, w[p + f"self_attn.{part}_norm.weight"], eps)
            if part != "v":
                proj[part + "0"] = y
                y = rope(y, inv)
            proj[part] = y
        la, ls, out = [], [], np.zeros((n, H * D))
        for h in range(H):
            g = h // (H // G)

            def softmax(q, k):
                s = q @ k.T / math.sqrt(D)
                s = np.where(np.tril(np.ones((n, n))) > 0, s, -np.inf)
                e = np.exp(s - s.max(axis=1, keepdims=True))
                return s, e / e.sum(axis=1, keepdims=True)
            s, A = softmax(proj["q"][h], proj["k"][g])
            _, A0 = softmax(proj["q0"][h], proj["k0"][g])  # the same q and k, unturned
            moved.append(np.abs(A - A0)[1:].sum(axis=1).mean() / 2 if n > 1 else 0.0)
            out[:, h * D:(h + 1) * D] = A @ proj["v"][g]
            la.append(A)
            ls.append(s)
        attn.append(la)
        scores.append(ls)
        x = x + out @ w[p + "self_attn.o_proj.weight"].T
        if p + "self_attn.o_proj.bias" in w:
            x = x + w[p + "self_attn.o_proj.bias"]
        m = rms(x, w[p + "post_attention_layernorm.weight"], eps)
        gate = m @ w[p + "mlp.gate_proj.weight"].T
        up = m @ w[p + "mlp.up_proj.weight"].T
        x = x + (gate / (1 + np.exp(-gate)) * up) @ w[p + "mlp.down_proj.weight"].T
    last = rms(x[-1], w["model.norm.weight"], eps)
    unembed = w.get("lm_head.weight", w["model.embed_tokens.weight"])
    forward.turn_moved = np.array(moved).reshape(L, H)
    return attn, scores, last @ unembed.T


def check(a):
    with open(os.path.join(a.dir, "config.json")) as f:
        c = json.load(f)
    with open(a.export) as f:
        got = json.load(f)
    attn, scores, logits = forward(c, weights(a.dir), got["ids"])
    worst = {"attn": 0.0, "scores": 0.0, "logits": 0.0}
    if "turn_moved" in got:  # RoPE: the share of each head's weight the turn moves
        worst["turn_moved"] = float(np.abs(np.array(got["turn_moved"]) - forward.turn_moved).max())
    top_s = max(np.abs(s[np.isfinite(s)]).max() for layer in scores for s in layer)
    for l, layer in enumerate(attn):
        for h, A in enumerate(layer):
            ga = np.array(got["attn"][l][h], dtype=np.float64)
            worst["attn"] = max(worst["attn"], np.abs(ga - A).max())
            gs = np.array([[np.nan if v is None else v for v in row] for row in got["scores"][l][h]])
            keep = np.isfinite(scores[l][h])
            if np.any(np.isnan(gs[keep])) or not np.all(np.isnan(gs[~keep])):
                print(f"layer {l} head {h}: the mask is not where the pass puts it")
                return 1
            worst["scores"] = max(worst["scores"], np.abs(gs[keep] - scores[l][h][keep]).max() / top_s)
    gl = np.array(got["logits"], dtype=np.float64)
    worst["logits"] = np.abs(gl - logits).max() / np.abs(logits).max()
    print(json.dumps(worst))
    for key in ("n_layer", "n_head", "n_kv_head", "head_dim"):
        want = {"n_layer": c["num_hidden_layers"], "n_head": c["num_attention_heads"],
                "n_kv_head": c["num_key_value_heads"], "head_dim": c["head_dim"]}[key]
        if got.get(key) != want:
            print(f"{key}: {got.get(key)}, want {want}")
            return 1
    if got.get("family") != c["model_type"]:
        print(f"family: {got.get('family')}")
        return 1
    return 0 if max(worst.values()) <= 1e-4 else 1


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    mk = sub.add_parser("make")
    mk.add_argument("dir")
    mk.add_argument("--family", default="llama", choices=["llama", "qwen2", "qwen3"])
    mk.add_argument("--layers", type=int, default=2)
    mk.add_argument("--heads", type=int, default=4)
    mk.add_argument("--kv-heads", type=int, default=2)
    mk.add_argument("--head-dim", type=int, default=8)
    mk.add_argument("--embd", type=int, default=24)
    mk.add_argument("--inner", type=int, default=40)
    mk.add_argument("--positions", type=int, default=128)
    mk.add_argument("--dtype", default="f32", choices=["f32", "f16", "bf16", "mixed"])
    mk.add_argument("--tied", action="store_true")
    mk.add_argument("--shards", type=int, default=1)
    mk.add_argument("--rope-scaling", default="")
    mk.add_argument("--rope-parameters", action="store_true")
    mk.add_argument("--attention-bias", action="store_true")
    mk.add_argument("--theta", type=float, default=10000.0)
    mk.add_argument("--seed", type=int, default=1)
    mk.add_argument("--tokenizer", default="")
    mk.add_argument("--vocab", type=int, default=0)
    mk.add_argument("--circuit", action="store_true")
    ck = sub.add_parser("check")
    ck.add_argument("dir")
    ck.add_argument("export")
    a = ap.parse_args()
    if a.cmd == "make":
        make(a)
        return 0
    return check(a)


if __name__ == "__main__":
    sys.exit(main())
