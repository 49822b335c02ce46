"""The peer of `attnlab --model DIR --bench`: GPT-2's forward pass in PyTorch
float32 on the CPU, written out (embeddings and positions; per block
LayerNorm, causal attention, LayerNorm, MLP with GELU's tanh form; the final
LayerNorm and the last position's logits) over the same checkpoint's
weights, with the thread count attnlab's OpenBLAS uses. Debian's
python3-torch does its matrix products through the system's libblas.so.3,
which is OpenBLAS when it is installed: the JSON says which library that is.
It also times one generation step at 256 tokens of context on its own KV
cache (each layer's keys and values kept in place), the peer of attnlab's
cached step.

    python3 gpt2_peer.py DIR --threads N
"""
import argparse
import json
import os
import statistics
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import gpt2_reference  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    config, w64 = gpt2_reference.weights(a.dir)
    w = {k: torch.tensor(v, dtype=torch.float32) for k, v in w64.items()}
    L, H, D = config["n_layer"], config["n_head"], config["n_embd"]
    eps = config.get("layer_norm_epsilon", 1e-5)
    dh = D // H
    unembed = w.get("lm_head.weight", w["wte.weight"])

    def forward(ids):
        n = len(ids)
        x = w["wte.weight"][ids] + w["wpe.weight"][:n]
        mask = torch.ones(n, n, dtype=torch.bool).tril()
        for l in range(L):
            p = f"h.{l}."
            a_ = F.layer_norm(x, (D,), w[p + "ln_1.weight"], w[p + "ln_1.bias"], eps)
            qkv = torch.addmm(w[p + "attn.c_attn.bias"], a_, w[p + "attn.c_attn.weight"])
            q, k, v = (t.view(n, H, dh).transpose(0, 1) for t in qkv.split(D, dim=1))
            s = (q @ k.transpose(1, 2)) / dh ** 0.5
            s = s.masked_fill(~mask, float("-inf"))
            att = torch.softmax(s, dim=-1)
            y = (att @ v).transpose(0, 1).reshape(n, D)
            x = x + torch.addmm(w[p + "attn.c_proj.bias"], y, w[p + "attn.c_proj.weight"])
            m = F.layer_norm(x, (D,), w[p + "ln_2.weight"], w[p + "ln_2.bias"], eps)
            h = F.gelu(torch.addmm(w[p + "mlp.c_fc.bias"], m, w[p + "mlp.c_fc.weight"]),
                       approximate="tanh")
            x = x + torch.addmm(w[p + "mlp.c_proj.bias"], h, w[p + "mlp.c_proj.weight"])
        last = F.layer_norm(x[-1], (D,), w["ln_f.weight"], w["ln_f.bias"], eps)
        return unembed @ last

    vocab = config["vocab_size"]
    rows = []
    with torch.inference_mode():
        for n in (16, 32, 64, 256):
            if n > config["n_positions"]:
                continue
            ids = torch.tensor([(i * 7919 + 13) % vocab for i in range(n)])
            reps = 30 if n <= 32 else 15 if n <= 64 else 6
            forward(ids)
            times = []
            for _ in range(reps):
                t0 = time.perf_counter()
                forward(ids)
                times.append((time.perf_counter() - t0) * 1e3)
            rows.append({"n": n, "forward_ms": statistics.median(times)})
    # generation: the 256th token's step on a KV cache of 255 (keys and values kept per
    # layer, written in place), as attnlab's cached step does it
    cached = None
    if config["n_positions"] >= 256:
        C = 256
        K = torch.zeros(L, H, C, dh)
        V = torch.zeros(L, H, C, dh)

        def step(token, t):
            x = w["wte.weight"][token] + w["wpe.weight"][t]
            for l in range(L):
                p = f"h.{l}."
                a_ = F.layer_norm(x, (D,), w[p + "ln_1.weight"], w[p + "ln_1.bias"], eps)
                qkv = torch.addmv(w[p + "attn.c_attn.bias"], w[p + "attn.c_attn.weight"].t(), a_)
                q, k, v = (u.view(H, dh) for u in qkv.split(D))
                K[l, :, t] = k
                V[l, :, t] = v
                s = (K[l, :, :t + 1] @ q.unsqueeze(-1)).squeeze(-1) / dh ** 0.5
                att = torch.softmax(s, dim=-1)
                y = (att.unsqueeze(1) @ V[l, :, :t + 1]).reshape(D)
                x = x + torch.addmv(w[p + "attn.c_proj.bias"], w[p + "attn.c_proj.weight"].t(), y)
                m = F.layer_norm(x, (D,), w[p + "ln_2.weight"], w[p + "ln_2.bias"], eps)
                h = F.gelu(torch.addmv(w[p + "mlp.c_fc.bias"], w[p + "mlp.c_fc.weight"].t(), m),
                           approximate="tanh")
                x = x + torch.addmv(w[p + "mlp.c_proj.bias"], w[p + "mlp.c_proj.weight"].t(), h)
            return unembed @ F.layer_norm(x, (D,), w["ln_f.weight"], w["ln_f.bias"], eps)

        with torch.inference_mode():
            ids = [(i * 7919 + 13) % vocab for i in range(C)]
            for t in range(C - 1):
                step(ids[t], t)
            times = []
            for _ in range(41):
                t0 = time.perf_counter()
                step(ids[C - 1], C - 1)
                times.append((time.perf_counter() - t0) * 1e3)
        cached = {"context": C, "step_ms": statistics.median(times)}
    blas = os.path.realpath("/etc/alternatives/libblas.so.3-x86_64-linux-gnu")
    print(json.dumps({"torch": torch.__version__, "threads": torch.get_num_threads(),
                      "libblas.so.3": blas, "rows": rows, "cached_step": cached}, indent=1))


if __name__ == "__main__":
    main()
