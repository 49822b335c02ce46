"""The peer of `attnlab --train induction`: the same attention-only model
(token embeddings, a learned position table, causal heads over a residual
stream, an unembedding; no MLP, no LayerNorm), the same batch of 16
sequences of 24 tokens, cross-entropy on every position but the last, Adam
at lr 0.01, in PyTorch float64 on one CPU thread. Prints JSON with its steps
per second, and the loss it ends at so a broken peer shows.

    python3 induction_peer.py [--layers 2] [--heads 1] [--steps 400]
"""
import argparse
import json
import math
import time

import torch

torch.set_num_threads(1)
torch.set_default_dtype(torch.float64)


def batch(gen, size, context, vocab, lo, hi):
    tokens = torch.empty((size, context), dtype=torch.int64)
    for b in range(size):
        block = int(torch.randint(lo, hi + 1, (1,), generator=gen))
        first = torch.randint(0, vocab, (block,), generator=gen)
        tokens[b] = first.repeat(context // block + 1)[:context]  # repeated to fill the context
    return tokens


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--heads", type=int, default=1)
    ap.add_argument("--steps", type=int, default=400)
    a = ap.parse_args()
    width, vocab, context, bsz = 16, 16, 24, 16
    dh = width // a.heads
    g = torch.Generator().manual_seed(1)
    E = torch.randn(vocab, width, generator=g).requires_grad_()
    P = (torch.randn(context, width, generator=g) * math.sqrt(0.5)).requires_grad_()
    U = (torch.randn(width, vocab, generator=g) / math.sqrt(width)).requires_grad_()
    W = []
    for _ in range(a.layers):
        for _ in range(a.heads):
            for m in range(4):
                shape = (dh, width) if m == 3 else (width, dh)
                fan = dh if m == 3 else width
                W.append((torch.randn(*shape, generator=g) / math.sqrt(fan)).requires_grad_())
    params = [E, P, U] + W
    opt = torch.optim.Adam(params, lr=0.01, betas=(0.9, 0.999), eps=1e-8)
    mask = torch.triu(torch.ones(context, context, dtype=torch.bool), 1)
    data = torch.Generator().manual_seed(2)

    def step():
        tok = batch(data, bsz, context, vocab, 3, 12)
        x = E[tok] + P
        for l in range(a.layers):
            out = x
            for h in range(a.heads):
                wq, wk, wv, wo = W[(l * a.heads + h) * 4:(l * a.heads + h) * 4 + 4]
                q, k, v = x @ wq, x @ wk, x @ wv
                s = (q @ k.transpose(1, 2)) / math.sqrt(dh)
                s = s.masked_fill(mask, float("-inf"))
                out = out + torch.softmax(s, -1) @ v @ wo
            x = out
        logits = (x @ U)[:, :-1]
        loss = torch.nn.functional.cross_entropy(logits.reshape(-1, vocab), tok[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.item()

    for _ in range(20):  # warm-up: allocator, first-call costs
        step()
    t = time.perf_counter()
    for _ in range(a.steps):
        loss = step()
    secs = time.perf_counter() - t
    print(json.dumps({"peer": f"PyTorch {torch.__version__} float64, 1 thread",
                      "layers": a.layers, "heads": a.heads, "steps": a.steps,
                      "steps_per_s": a.steps / secs, "last_loss": loss}))


if __name__ == "__main__":
    main()
