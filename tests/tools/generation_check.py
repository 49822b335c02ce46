#!/usr/bin/python3
"""attnlab's --generate against a float64 reference of the model's pass.

    generation_check.py DIR EXPORT.json
        DIR is a checkpoint one of the reference tools wrote (gpt2_reference.py for
        GPT-2, llama_reference.py for Llama, Qwen2 and Qwen3); EXPORT.json is
        `attnlab --model DIR --text … --generate N --export json`. For every step, the
        whole pass is recomputed in float64 over the text and the tokens written before
        it (no cache: the definition), and
          - greedy (temperature 0): the token written is the argmax of the float64
            logits, unless the two best are within 1e-5 of the largest logit's size, a
            tie float32 may break either way (reported, not a failure);
          - every candidate's p is softmax(logits / T) (T = 1 when greedy) within 1e-5;
          - the step's row of every head's weights (its query over the cached keys) is
            the float64 row within 1e-4.
        The run stops where the reference would: at the end-of-text id when written.
        Prints the largest differences; exit 1 when one is past its tolerance.
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpt2_reference  # noqa: E402
import llama_reference  # noqa: E402


def model(folder):
    """A function ids → (attn[layer][head] n×n, last logits), in float64."""
    with open(os.path.join(folder, "config.json")) as f:
        c = json.load(f)
    if c.get("model_type") == "gpt2":
        config, w = gpt2_reference.weights(folder)

        def run(ids):
            _, attn, logits = gpt2_reference.forward(config, w, ids)
            return attn, logits
        return run
    w = llama_reference.weights(folder)

    def run(ids):
        attn, _, logits = llama_reference.forward(c, w, ids)
        return attn, logits
    return run


def main():
    folder, export = sys.argv[1], sys.argv[2]
    with open(export) as f:
        got = json.load(f)
    run = model(folder)
    T = got["temperature"] if got["temperature"] > 0 else 1.0
    ids = list(got["prompt"])
    worst = {"p": 0.0, "attn": 0.0}
    ties = 0
    for step in got["steps"]:
        attn, logits = run(ids)
        t = len(ids) - 1
        if step["position"] != t:
            print(f"step {step['step']}: position {step['position']}, want {t}")
            return 1
        z = (logits - logits.max()) / T
        p = np.exp(z) / np.exp(z).sum()
        for cand in step["candidates"]:
            worst["p"] = max(worst["p"], abs(cand["p"] - p[cand["id"]]))
        for l, layer in enumerate(step["attn"]):
            for h, row in enumerate(layer):
                ref = np.asarray(attn[l][h])[t, :t + 1]
                worst["attn"] = max(worst["attn"], float(np.abs(np.array(row) - ref).max()))
        if got["temperature"] == 0:
            order = np.argsort(-logits, kind="stable")
            best, second = logits[order[0]], logits[order[1]]
            if step["id"] != order[0]:
                if best - second <= 1e-5 * np.abs(logits).max() and step["id"] == order[1]:
                    ties += 1
                else:
                    print(f"step {step['step']}: wrote {step['id']}, the float64 argmax is "
                          f"{order[0]} (logits {best:.9g} and {logits[step['id']]:.9g})")
                    return 1
        ids.append(step["id"])
    stop = got["stop"]
    if got["steps"] and got["steps"][-1]["id"] in got["eos"] and stop != "eos":
        print(f"the end-of-text token was written but the run stopped for {stop}")
        return 1
    print(json.dumps({"steps": len(got["steps"]), "ties": ties, **worst}))
    return 0 if worst["p"] <= 1e-5 and worst["attn"] <= 1e-4 else 1


if __name__ == "__main__":
    sys.exit(main())
