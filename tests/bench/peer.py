#!/usr/bin/env python3
"""The peer for `make bench`: the same updates attnlab makes, with numpy and
matplotlib's Agg backend at 1920x1080, the way a matplotlib app does them
(change the artists, then fig.canvas.draw()):
- drag: a token moves -- recompute attention, redraw the S and A heatmaps;
- hover: the pointer moves to another cell of S -- move a highlight box and
  set the status text.
Prints JSON: median ms per kind and n."""
import json
import sys
import time

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def frame(fig, axes, X, WQ, WK, WV, dk, images):
    Q, K, V = X @ WQ, X @ WK, X @ WV
    S = Q @ K.T / np.sqrt(dk)
    A = np.exp(S - S.max(axis=1, keepdims=True))
    A /= A.sum(axis=1, keepdims=True)
    _ = A @ V
    m = np.abs(S).max()
    images[0].set_data(S)
    images[0].set_clim(-m, m)
    images[1].set_data(A)
    fig.canvas.draw()


def hover(fig, box, status, S, n, f):
    i, j = f // n % n, f % n
    box.set_xy((j - 0.5, i - 0.5))
    status.set_text(f"s[{i},{j}] = {S[i, j]:.2f}")
    fig.canvas.draw()


def main():
    rng = np.random.default_rng(1)
    results = []
    for n in (6, 32, 128, 512):
        d, dk, dv = 2, 64, 16
        X = rng.standard_normal((n, d)).astype(np.float32)
        WQ, WK, WV = (rng.standard_normal((d, w)).astype(np.float32) for w in (dk, dk, dv))
        fig, axes = plt.subplots(1, 2, figsize=(19.2, 10.8), dpi=100)
        images = [axes[0].imshow(np.zeros((n, n)), cmap="RdBu_r"),
                  axes[1].imshow(np.zeros((n, n)), cmap="viridis", vmin=0, vmax=1)]
        for ax, im in zip(axes, images):
            fig.colorbar(im, ax=ax)
        times = []
        for f in range(23):
            X[f % n] += 0.01
            t0 = time.perf_counter()
            frame(fig, axes, X, WQ, WK, WV, dk, images)
            if f >= 3:
                times.append((time.perf_counter() - t0) * 1e3)
        results.append({"kind": "drag", "n": n, "frame_median_ms": float(np.median(times))})
        if n in (6, 512):
            S = images[0].get_array()
            box = plt.Rectangle((-0.5, -0.5), 1, 1, fill=False, edgecolor="white", linewidth=2)
            axes[0].add_patch(box)
            status = fig.text(0.01, 0.01, "")
            times = []
            for f in range(23):
                t0 = time.perf_counter()
                hover(fig, box, status, S, n, f)
                if f >= 3:
                    times.append((time.perf_counter() - t0) * 1e3)
            results.append({"kind": "hover", "n": n, "frame_median_ms": float(np.median(times))})
        plt.close(fig)
    json.dump({"peer": "numpy + matplotlib Agg, 1920x1080", "results": results}, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main()
