"""The peer of `attnlab --model DIR --bench` for the Llama family: the forward
pass in PyTorch float32 on the CPU, written out (embeddings; per block RMSNorm,
q/k/v projections with Qwen2's biases and Qwen3's q/k norms, RoPE
rotate-half, grouped-query causal attention, RMSNorm, SwiGLU; the final
RMSNorm and the last position's logits) over the same checkpoint's weights,
with the thread count attnlab's OpenBLAS uses. Debian's python3-torch does its
matrix products through the system's libblas.so.3 (OpenBLAS when installed).

    python3 llama_peer.py DIR --threads N
"""
import argparse
import json
import os
import statistics
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import llama_reference  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    with open(os.path.join(a.dir, "config.json")) as f:
        c = json.load(f)
    w = {k: torch.tensor(v, dtype=torch.float32) for k, v in llama_reference.weights(a.dir).items()}
    # the projections as (in, out), contiguous, once: x @ W as attnlab's products read them
    t = {k: v.T.contiguous() for k, v in w.items() if k.endswith("_proj.weight")}
    L, H, G, D = (c["num_hidden_layers"], c["num_attention_heads"], c["num_key_value_heads"],
                  c["head_dim"])
    eps, qwen3 = c["rms_norm_eps"], c["model_type"] == "qwen3"
    inv = torch.tensor(llama_reference.frequencies(c), dtype=torch.float32)
    unembed = w.get("lm_head.weight", w["model.embed_tokens.weight"])

    def rms(x, g):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * g

    def forward(ids):
        n = len(ids)
        ang = torch.arange(n, dtype=torch.float32)[:, None] * inv[None, :]
        cos, sin = torch.cat([ang.cos()] * 2, -1), torch.cat([ang.sin()] * 2, -1)

        def rope(x):
            half = torch.cat([-x[..., D // 2:], x[..., :D // 2]], -1)
            return x * cos + half * sin

        x = w["model.embed_tokens.weight"][ids]
        mask = torch.ones(n, n, dtype=torch.bool).tril()
        for l in range(L):
            p = f"model.layers.{l}."
            a_ = rms(x, w[p + "input_layernorm.weight"])
            proj = {}
            for part, heads in (("q", H), ("k", G), ("v", G)):
                y = a_ @ t[p + f"self_attn.{part}_proj.weight"]
                if p + f"self_attn.{part}_proj.bias" in w:
                    y = y + w[p + f"self_attn.{part}_proj.bias"]
                y = y.view(n, heads, D).transpose(0, 1)
                if part != "v" and qwen3:
                    y = rms(y, w[p + f"self_attn.{part}_norm.weight"])
                proj[part] = rope(y) if part != "v" else y
            k = proj["k"].repeat_interleave(H // G, 0)
            v = proj["v"].repeat_interleave(H // G, 0)
            s = (proj["q"] @ k.transpose(1, 2)) / D ** 0.5
            att = torch.softmax(s.masked_fill(~mask, float("-inf")), dim=-1)
            y = (att @ v).transpose(0, 1).reshape(n, H * D)
            x = x + y @ t[p + "self_attn.o_proj.weight"]
            m = rms(x, w[p + "post_attention_layernorm.weight"])
            gate = m @ t[p + "mlp.gate_proj.weight"]
            x = x + (torch.nn.functional.silu(gate) * (m @ t[p + "mlp.up_proj.weight"])) \
                @ t[p + "mlp.down_proj.weight"]
        return unembed @ rms(x[-1], w["model.norm.weight"])

    vocab = c["vocab_size"]
    rows = []
    with torch.inference_mode():
        for n in (16, 32, 64, 256):
            ids = torch.tensor([(i * 7919 + 13) % vocab for i in range(n)])
            reps = 30 if n <= 32 else 15 if n <= 64 else 6
            forward(ids)
            times = []
            for _ in range(reps):
                t0 = time.perf_counter()
                forward(ids)
                times.append((time.perf_counter() - t0) * 1e3)
            rows.append({"n": n, "forward_ms": statistics.median(times)})
    blas = os.path.realpath("/etc/alternatives/libblas.so.3-x86_64-linux-gnu")
    print(json.dumps({"torch": torch.__version__, "threads": torch.get_num_threads(),
                      "libblas.so.3": blas, "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
