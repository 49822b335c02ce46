#!/usr/bin/python3
"""GPT-2 checkpoints for the tests, and a float64 reference of the forward pass.

    gpt2_reference.py make DIR [--layers L] [--heads H] [--embd D] [--positions P]
                      [--inner N] [--eps E] [--dtype f32|f16|bf16|mixed] [--no-prefix]
                      [--lm-head] [--shuffle] [--seed S] [--vocab-from DIR] [--nan NAME]
                      [--tokenizer-json strings|pairs] [--scale NAME=F] [--vocab N] [--no-buffers]
        a random GPT-2-family checkpoint in DIR: config.json, model.safetensors (written
        here, by the format's description: an 8-byte little-endian header length, the JSON
        header, the data), and GPT-2's vocab.json and merges.txt copied from tests/data/gpt2.
        HF's buffers come too: h.N.attn.bias (the causal mask) and h.N.attn.masked_bias (a
        scalar), unless --no-buffers (at 8192 positions the masks are 268 MB a layer). --shuffle stores the data in another order than the header lists it;
        --nan makes element 3 of that tensor (named without the prefix) NaN;
        --scale multiplies that tensor by F (finite weights whose pass overflows);
        --tokenizer-json writes the tokenizer as one tokenizer.json instead
    gpt2_reference.py check DIR EXPORT.json
        recomputes attnlab's export (its ids) in float64 from the stored weights, as GPT-2's
        forward pass is defined (LayerNorm, causal attention, GELU's tanh form, tied or
        separate lm_head), and compares attn, scores, logits and next. Prints the largest
        differences; exit 1 when one is past its tolerance
    gpt2_reference.py weighted DIR LAYER HEAD ID…
        that head's value-weighted attention a_ij·‖v_j W_O^h‖ for those ids, in float64, as a
        JSON array of rows
    gpt2_reference.py weights DIR
        prints nothing; exit 0 if the file reads back (a self-check of the writer)

Tolerances (float32 against float64): attention weights 1e-4 absolute (the issue's
bound); scores and logits 1e-4 relative to the largest magnitude of each.
"""
import argparse
import json
import os
import shutil
import struct
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
GPT2_DATA = os.path.join(HERE, "..", "data", "gpt2")
VOCAB = 50257


def to_bf16_bits(a):
    """float32 → bfloat16 bits, round to nearest even."""
    bits = np.asarray(a, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return rounded.astype(np.uint16)


def encode(a, dtype):
    a = np.asarray(a, dtype=np.float32)
    if dtype == "F32":
        return a.astype("<f4").tobytes()
    if dtype == "F16":
        return a.astype("<f2").tobytes()
    return to_bf16_bits(a).astype("<u2").tobytes()


def decode(raw, dtype, shape):
    if dtype == "F32":
        v = np.frombuffer(raw, dtype="<f4").astype(np.float64)
    elif dtype == "F16":
        v = np.frombuffer(raw, dtype="<f2").astype(np.float64)
    elif dtype == "BF16":
        bits = np.frombuffer(raw, dtype="<u2").astype(np.uint32) << 16
        v = bits.view(np.float32).astype(np.float64)
    else:
        raise ValueError(dtype)
    return v.reshape(shape)


def write_safetensors(path, tensors, shuffle, rng):
    """tensors: list of (name, dtype, shape, bytes)."""
    order = list(range(len(tensors)))
    if shuffle:
        rng.shuffle(order)
    header, offset, blobs = {}, 0, []
    for k in order:
        name, dtype, shape, raw = tensors[k]
        header[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [offset, offset + len(raw)]}
        offset += len(raw)
        blobs.append(raw)
    # the header lists names in their own order, not the data's
    listed = {name: header[name] for name, _, _, _ in tensors}
    listed["__metadata__"] = {"format": "pt"}
    text = json.dumps(listed).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for b in blobs:
            f.write(b)


def read_safetensors(path):
    with open(path, "rb") as f:
        data = f.read()
    n = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + n])
    out = {}
    for name, t in header.items():
        if name == "__metadata__":
            continue
        b, e = t["data_offsets"]
        out[name] = decode(data[8 + n + b:8 + n + e], t["dtype"], t["shape"])
    return out


def make(args):
    global VOCAB
    if args.vocab:
        VOCAB = args.vocab
    rng = np.random.default_rng(args.seed)
    if args.circuit:
        args.layers, args.heads, args.embd, args.positions = (CIRCUIT[k] for k in
                                                               ("layers", "heads", "embd", "positions"))
        args.inner = 0
    L, H, D, P = args.layers, args.heads, args.embd, args.positions
    inner = args.inner or 4 * D
    os.makedirs(args.dir, exist_ok=True)
    config = {
        "architectures": ["GPT2LMHeadModel"], "model_type": "gpt2", "activation_function": "gelu_new",
        "n_layer": L, "n_head": H, "n_embd": D, "n_positions": P, "n_ctx": P,
        "vocab_size": VOCAB, "n_inner": args.inner if args.inner else None,
        "layer_norm_epsilon": args.eps,
    }
    with open(os.path.join(args.dir, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
    src = args.vocab_from or GPT2_DATA
    if args.tokenizer_json:
        # Hugging Face tokenizers' single file: merges as "A B" strings or ["A", "B"] pairs
        with open(os.path.join(src, "vocab.json"), encoding="utf-8") as f:
            vocab = json.load(f)
        with open(os.path.join(src, "merges.txt"), encoding="utf-8") as f:
            lines = [l for l in f.read().split("\n") if l and not l.startswith("#version")]
        merges = lines if args.tokenizer_json == "strings" else [l.split(" ") for l in lines]
        tok = {"version": "1.0", "added_tokens": [], "normalizer": None,
               "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False},
               "model": {"type": "BPE", "dropout": None, "vocab": vocab, "merges": merges}}
        with open(os.path.join(args.dir, "tokenizer.json"), "w", encoding="utf-8") as f:
            json.dump(tok, f, ensure_ascii=False)
    else:
        for name in ("vocab.json", "merges.txt"):
            shutil.copy(os.path.join(src, name), os.path.join(args.dir, name))

    dtypes = ["F32", "F16", "BF16"]
    k = [0]

    def dtype():
        if args.dtype == "mixed":
            k[0] += 1
            return dtypes[k[0] % 3]
        return {"f32": "F32", "f16": "F16", "bf16": "BF16"}[args.dtype]

    prefix = "" if args.no_prefix else "transformer."
    tensors = []

    def add(name, a, full=True):
        dt = dtype()
        if name == args.nan:
            a = a.copy()
            a.flat[3] = np.nan
        if args.scale and name == args.scale.split("=")[0]:
            a = (a.astype(np.float64) * float(args.scale.split("=")[1])).astype(np.float32)
        tensors.append(((prefix if full else "") + name, dt, a.shape, encode(a, dt)))

    def normal(shape, std):
        return rng.normal(0, std, shape).astype(np.float32)

    params = circuit(rng) if args.circuit else None
    for name, shape, std, offset in layout(L, D, inner, P, args.lm_head):
        a = params[name] if params else offset + normal(shape, std)
        add(name, a.astype(np.float32), full=name != "lm_head.weight")
        if name.endswith("mlp.c_proj.bias") and not args.no_buffers:
            # the buffers HF's GPT-2 stores, which the pass does not read
            l = name.split(".")[1]
            mask = np.tril(np.ones((P, P), dtype=np.float32)).reshape(1, 1, P, P)
            tensors.append((prefix + f"h.{l}.attn.bias", "F32", mask.shape, encode(mask, "F32")))
            tensors.append((prefix + f"h.{l}.attn.masked_bias", "F32", (),
                            encode(np.float32(-1e4), "F32")))
    write_safetensors(os.path.join(args.dir, "model.safetensors"), tensors, args.shuffle, rng)


def layout(L, D, inner, P, lm_head):
    """The checkpoint's tensors in order: name, shape, and for random ones the
    spread and the offset (1 for LayerNorm gains)."""
    t = [("wte.weight", (VOCAB, D), 0.5, 0), ("wpe.weight", (P, D), 0.3, 0)]
    for l in range(L):
        p = f"h.{l}."
        t += [(p + "ln_1.weight", (D,), 0.2, 1), (p + "ln_1.bias", (D,), 0.1, 0),
              (p + "attn.c_attn.weight", (D, 3 * D), 0.4, 0), (p + "attn.c_attn.bias", (3 * D,), 0.1, 0),
              (p + "attn.c_proj.weight", (D, D), 0.2, 0), (p + "attn.c_proj.bias", (D,), 0.05, 0),
              (p + "ln_2.weight", (D,), 0.2, 1), (p + "ln_2.bias", (D,), 0.1, 0),
              (p + "mlp.c_fc.weight", (D, inner), 0.3, 0), (p + "mlp.c_fc.bias", (inner,), 0.1, 0),
              (p + "mlp.c_proj.weight", (inner, D), 0.1, 0), (p + "mlp.c_proj.bias", (D,), 0.05, 0)]
    t += [("ln_f.weight", (D,), 0.2, 1), ("ln_f.bias", (D,), 0.1, 0)]
    if lm_head:
        t.append(("lm_head.weight", (VOCAB, D), 0.5, 0))
    return t


CIRCUIT = dict(layers=2, heads=4, embd=320, positions=64)


def circuit(rng):
    """Weights set by hand so that three heads do what GPT-2 small's best-known
    heads do (CIRCUIT's shapes, MLPs off):
      0.0  previous-token head: position i's query finds the key at i − 1, and
           writes that token's code into the stream's "previous" dims;
      0.1  first-token head: every query finds position 0, whose value (read off
           the position dims) is 50 times shorter than the others';
      1.0  induction head: a query reads its own token's code, a key the code of
           the token before it, so token t looks at what followed earlier copies
           of t, and writes that token's code where the logits read it.
    The stream: [0, 80) a token's code (a random unit vector with zero sum),
    [80, 144) its position one-hot, [144, 224) the previous token's code, 224 a
    constant −1 (so every row sums to 0 and LayerNorm only rescales), the rest
    for the other heads' small random outputs."""
    D, H, P = CIRCUIT["embd"], CIRCUIT["heads"], CIRCUIT["positions"]
    dh = D // H
    T, POS, PREV, NEG, REST = 0, 80, 144, 224, 225
    w = {}
    code = rng.normal(0, 1, (VOCAB, 80))
    code -= code.mean(axis=1, keepdims=True)
    code /= np.linalg.norm(code, axis=1, keepdims=True)
    wte = np.zeros((VOCAB, D))
    wte[:, T:T + 80] = code
    w["wte.weight"] = wte
    wpe = np.zeros((P, D))
    wpe[np.arange(P), POS + np.arange(P)] = 1
    wpe[:, NEG] = -1
    w["wpe.weight"] = wpe
    ln0 = np.sqrt(D / 3)  # LayerNorm's gain on layer 0's rows (norm² 3)
    ln1 = np.sqrt(D / 4)  # and on layer 1's (the previous token's code added)
    for l in range(2):
        p = f"h.{l}."
        qkv = np.zeros((D, 3 * D))
        proj = np.zeros((D, D))
        for h in range(H):  # every head: small random reads, writes into the rest
            c = slice(h * dh, (h + 1) * dh)
            for part in range(3):
                qkv[:, part * D + h * dh: part * D + (h + 1) * dh] = rng.normal(0, 0.02, (D, dh))
            proj[c, REST:] = rng.normal(0, 0.02, (dh, D - REST))
        if l == 0:
            c = slice(0, dh)  # 0.0: previous token
            qkv[:, c] = 0
            qkv[:, D:D + dh] = 0
            qkv[:, 2 * D:2 * D + dh] = 0
            a = np.sqrt(15 * np.sqrt(dh)) / ln0  # a score of 15 on the previous position
            for j in range(P):
                qkv[POS + j, j] = a                # query of position j: axis j
                if j + 1 < dh:
                    qkv[POS + j, D + j + 1] = a    # key of position j: axis j + 1
            qkv[T:T + 80, 2 * D:2 * D + 80] = np.eye(80) / ln0
            proj[c, :] = 0
            proj[0:80, PREV:PREV + 80] = np.eye(80)
            c = slice(dh, 2 * dh)  # 0.1: first token, short value there
            qkv[:, c] = 0
            qkv[:, D + dh:D + 2 * dh] = 0
            qkv[:, 2 * D + dh:2 * D + 2 * dh] = 0
            a = np.sqrt(5 * np.sqrt(dh)) / ln0  # 5 on the first
            qkv[NEG, dh] = -a
            qkv[POS, D + dh] = a
            qkv[POS:POS + P, 2 * D + dh] = 1 / ln0
            qkv[POS, 2 * D + dh] = 0.02 / ln0
            proj[dh:2 * dh, :] = 0
            proj[dh, REST] = 1
        else:
            c = slice(0, dh)  # 1.0: induction
            qkv[:, c] = 0
            qkv[:, D:D + dh] = 0
            qkv[:, 2 * D:2 * D + dh] = 0
            g = np.sqrt(20 * np.sqrt(dh)) / ln1  # 20 where the codes match
            qkv[T:T + 80, 0:80] = np.eye(80) * g
            qkv[PREV:PREV + 80, D:D + 80] = np.eye(80) * g
            qkv[T:T + 80, 2 * D:2 * D + 80] = np.eye(80) / ln1
            proj[c, :] = 0
            proj[0:80, T:T + 80] = 2 * np.eye(80)
        w[p + "ln_1.weight"] = np.ones(D)
        w[p + "ln_1.bias"] = np.zeros(D)
        w[p + "attn.c_attn.weight"] = qkv
        w[p + "attn.c_attn.bias"] = np.zeros(3 * D)
        w[p + "attn.c_proj.weight"] = proj
        w[p + "attn.c_proj.bias"] = np.zeros(D)
        w[p + "ln_2.weight"] = np.ones(D)
        w[p + "ln_2.bias"] = np.zeros(D)
        w[p + "mlp.c_fc.weight"] = np.zeros((D, 4 * D))
        w[p + "mlp.c_fc.bias"] = np.zeros(4 * D)
        w[p + "mlp.c_proj.weight"] = np.zeros((4 * D, D))
        w[p + "mlp.c_proj.bias"] = np.zeros(D)
    w["ln_f.weight"] = np.ones(D)
    w["ln_f.bias"] = np.zeros(D)
    return w


def weights(folder):
    raw = read_safetensors(os.path.join(folder, "model.safetensors"))
    w = {}
    for name, a in raw.items():
        w[name[len("transformer."):] if name.startswith("transformer.") else name] = a
    with open(os.path.join(folder, "config.json")) as f:
        config = json.load(f)
    return config, w


def layernorm(x, g, b, eps):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * g + b


def gelu(z):
    return 0.5 * z * (1 + np.tanh(np.sqrt(2 / np.pi) * (z + 0.044715 * z ** 3)))


def forward(config, w, ids, weighted=None):
    """GPT-2's forward pass in float64: every head's scores (masked −inf) and
    weights, and the last position's logits. With weighted = (layer, head),
    also that head's value-weighted attention a_ij·‖v_j W_O^h‖ (Kobayashi et
    al. 2020), W_O^h being the head's d_h rows of c_proj."""
    L, H, D = config["n_layer"], config["n_head"], config["n_embd"]
    eps = config.get("layer_norm_epsilon", 1e-5)
    n, dh = len(ids), D // H
    x = w["wte.weight"][ids] + w["wpe.weight"][:n]
    causal = np.tril(np.ones((n, n), dtype=bool))
    scores = np.zeros((L, H, n, n))
    attn = np.zeros((L, H, n, n))
    for l in range(L):
        p = f"h.{l}."
        a = layernorm(x, w[p + "ln_1.weight"], w[p + "ln_1.bias"], eps)
        qkv = a @ w[p + "attn.c_attn.weight"] + w[p + "attn.c_attn.bias"]
        q, k, v = qkv[:, :D], qkv[:, D:2 * D], qkv[:, 2 * D:]
        mixed = np.zeros((n, D))
        for h in range(H):
            cols = slice(h * dh, (h + 1) * dh)
            s = q[:, cols] @ k[:, cols].T / np.sqrt(dh)
            s = np.where(causal, s, -np.inf)
            e = np.exp(s - s.max(axis=1, keepdims=True))
            A = e / e.sum(axis=1, keepdims=True)
            scores[l, h], attn[l, h] = s, A
            mixed[:, cols] = A @ v[:, cols]
            if weighted == (l, h):
                f = v[:, cols] @ w[p + "attn.c_proj.weight"][cols, :]
                weighted_out = A * np.linalg.norm(f, axis=1)[None, :]
        x = x + mixed @ w[p + "attn.c_proj.weight"] + w[p + "attn.c_proj.bias"]
        m = layernorm(x, w[p + "ln_2.weight"], w[p + "ln_2.bias"], eps)
        x = x + gelu(m @ w[p + "mlp.c_fc.weight"] + w[p + "mlp.c_fc.bias"]) @ w[p + "mlp.c_proj.weight"] \
            + w[p + "mlp.c_proj.bias"]
    last = layernorm(x[-1], w["ln_f.weight"], w["ln_f.bias"], eps)
    unembed = w.get("lm_head.weight", w["wte.weight"])
    if weighted is not None:
        return weighted_out
    return scores, attn, unembed @ last


def check(args):
    config, w = weights(args.dir)
    with open(args.export) as f:
        got = json.load(f)
    ids = got["ids"]
    scores, attn, logits = forward(config, w, ids)
    L, H, n = config["n_layer"], config["n_head"], len(ids)
    problems = []
    if (got["n_layer"], got["n_head"], got["d_model"], got["n"]) != (L, H, config["n_embd"], n):
        problems.append("shape fields differ from the config")
    g_attn = np.array(got["attn"], dtype=np.float64)
    g_scores = np.array([[[[np.nan if v is None else v for v in row] for row in hd] for hd in ly]
                         for ly in got["scores"]], dtype=np.float64)
    g_logits = np.array(got["logits"], dtype=np.float64)
    if g_attn.shape != (L, H, n, n) or g_scores.shape != (L, H, n, n) or g_logits.shape != logits.shape:
        print("shapes: attn %s scores %s logits %s" % (g_attn.shape, g_scores.shape, g_logits.shape))
        return 1
    masked = ~np.tril(np.ones((n, n), dtype=bool))
    if not np.all(np.isnan(g_scores[:, :, masked])):
        problems.append("a masked score is not null")
    if not np.all(g_attn[:, :, masked] == 0):
        problems.append("a masked weight is not 0")
    keep = ~masked
    d_attn = np.abs(g_attn - attn)[:, :, keep].max()
    s_scale = max(1.0, np.abs(scores[:, :, keep]).max())
    d_scores = np.abs(g_scores - scores)[:, :, keep].max() / s_scale
    l_scale = max(1.0, np.abs(logits).max())
    d_logits = np.abs(g_logits - logits).max() / l_scale
    print(f"attn max |diff| {d_attn:.3g} (tolerance 1e-4); scores {d_scores:.3g} and "
          f"logits {d_logits:.3g} relative to their largest magnitude (tolerance 1e-4)")
    if d_attn > 1e-4:
        problems.append("attention weights differ")
    if d_scores > 1e-4:
        problems.append("scores differ")
    if d_logits > 1e-4:
        problems.append("logits differ")
    # next: the ten likeliest, their probabilities
    p = np.exp(logits - logits.max())
    p /= p.sum()
    top = [t["id"] for t in got["next"]]
    probs = np.array([t["p"] for t in got["next"]])
    if len(top) != 10 or np.abs(probs - p[top]).max() > 1e-5:
        problems.append("next's probabilities differ")
    # the ten listed are the ten likeliest, allowing float32 near-ties
    tenth = np.sort(p)[-10]
    if p[top].min() < tenth - 1e-5 or list(probs) != sorted(probs, reverse=True):
        problems.append("next is not the ten likeliest, most likely first")
    for problem in problems:
        print(problem)
    return 1 if problems else 0


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    mk = sub.add_parser("make")
    mk.add_argument("dir")
    mk.add_argument("--layers", type=int, default=2)
    mk.add_argument("--heads", type=int, default=2)
    mk.add_argument("--embd", type=int, default=16)
    mk.add_argument("--positions", type=int, default=32)
    mk.add_argument("--inner", type=int, default=0)
    mk.add_argument("--eps", type=float, default=1e-5)
    mk.add_argument("--dtype", default="f32", choices=["f32", "f16", "bf16", "mixed"])
    mk.add_argument("--no-prefix", action="store_true")
    mk.add_argument("--lm-head", action="store_true")
    mk.add_argument("--shuffle", action="store_true")
    mk.add_argument("--no-buffers", action="store_true")
    mk.add_argument("--seed", type=int, default=1)
    mk.add_argument("--vocab-from", default="")
    mk.add_argument("--tokenizer-json", default="", choices=["", "strings", "pairs"],
                    help="tokenizer.json (merges as strings or pairs) instead of vocab + merges")
    mk.add_argument("--nan", default="", help="a tensor whose element 3 is NaN")
    mk.add_argument("--scale", default="", help="NAME=F: that tensor times F")
    mk.add_argument("--vocab", type=int, default=0, help="vocab_size (with --vocab-from a small one)")
    mk.add_argument("--circuit", action="store_true",
                    help="weights set by hand: a previous-token, a first-token and an induction head")
    ck = sub.add_parser("check")
    ck.add_argument("dir")
    ck.add_argument("export")
    wt = sub.add_parser("weighted")
    wt.add_argument("dir")
    wt.add_argument("layer", type=int)
    wt.add_argument("head", type=int)
    wt.add_argument("ids", type=int, nargs="+")
    rd = sub.add_parser("weights")
    rd.add_argument("dir")
    args = ap.parse_args()
    if args.cmd == "make":
        make(args)
        return 0
    if args.cmd == "check":
        return check(args)
    if args.cmd == "weighted":
        config, w = weights(args.dir)
        print(json.dumps(forward(config, w, args.ids, (args.layer, args.head)).tolist()))
        return 0
    weights(args.dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
