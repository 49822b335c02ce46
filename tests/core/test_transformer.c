/* src/core/transformer.c, the forward pass the real model runs, in the case
 * with no LayerNorm and no MLP: it is the induction lab's attention-only
 * stack (core/stack.c, float64), so one pass serves both. A stack trained a
 * little is copied into tf's layout (Q, K, V side by side per layer, heads
 * in column blocks; W_O's rows stacked; U transposed), and every head's A
 * and every layer's residual stream must match the stack's within float32
 * rounding (1e-5). GPT-2's full pass (LayerNorm, MLP, logits) is checked
 * against a float64 reference in tests/platform/test_real_model.c. */
#include "core/stack.h"
#include "core/transformer.h"
#include "test_util.h"

#include <math.h>

static void same_as_the_stack(Train_Pos pos, int layers, int heads) {
    Stack_Desc desc = {.layers = layers,
                       .heads = heads,
                       .width = 16,
                       .vocab = 16,
                       .context = 24,
                       .repeat_min = 3,
                       .repeat_max = 12,
                       .pos = pos,
                       .seed = 5,
                       .lr = 0.01,
                       .batch = 16};
    static Stack s;
    cr_assert(stack_init(&s, &desc));
    for (int k = 0; k < 120; k++) stack_step(&s);
    const int *tokens = stack_example(&s);
    int w = desc.width, n = desc.context, V = desc.vocab, d_h = w / heads;
    /* the stack's parameters in tf's layout, as float */
    static float wte[64 * 64], wpe[64 * 64], unembed[64 * 64];
    static float qkv[STACK_MAX_LAYERS][64 * 192], proj[STACK_MAX_LAYERS][64 * 64];
    static Tf_Block blocks[STACK_MAX_LAYERS];
    for (int q = 0; q < V * w; q++) wte[q] = (float)s.E[q];
    const double *P = s.L ? s.L : s.P;
    for (int q = 0; q < n * w; q++) wpe[q] = (float)P[q];
    for (int v = 0; v < V; v++)
        for (int j = 0; j < w; j++) unembed[v * w + j] = (float)s.U[j * V + v];
    for (int l = 0; l < layers; l++) {
        for (int h = 0; h < heads; h++)
            for (int i = 0; i < w; i++)
                for (int c = 0; c < d_h; c++) {
                    for (int part = 0; part < 3; part++)
                        qkv[l][i * 3 * w + part * w + h * d_h + c] =
                            (float)s.W[l][h][part][i * d_h + c];
                    /* W_O is d_h×w: its row c is proj's row h·d_h + c */
                    proj[l][(h * d_h + c) * w + i] = (float)s.W[l][h][3][c * w + i];
                }
        blocks[l] = (Tf_Block){.qkv_w = qkv[l], .proj_w = proj[l]};
    }
    Tf_Model m = {.layers = layers,
                  .heads = heads,
                  .width = w,
                  .inner = 0,
                  .positions = n,
                  .vocab = V,
                  .eps = 1e-5f,
                  .wte = wte,
                  .wpe = wpe,
                  .unembed = unembed,
                  .blocks = blocks};
    Tf_Run r = {0};
    cr_assert(tf_reserve(&r, &m, n));
    int32_t ids[STACK_MAX_CONTEXT];
    for (int i = 0; i < n; i++) ids[i] = tokens[i];
    tf_forward(&m, ids, n, &r);
    double worst = 0;
    for (int l = 0; l < layers; l++)
        for (int h = 0; h < heads; h++) {
            const double *want = stack_attention(&s, l, h);
            const float *got = tf_attn(&r, l, h);
            for (int q = 0; q < n * n; q++) {
                cr_assert(fabs(got[q] - want[q]) < 1e-5, "layer %d head %d A[%d][%d]: %.9g, %.9g",
                          l, h, q / n, q % n, (double)got[q], want[q]);
                worst = fmax(worst, fabs(got[q] - want[q]));
            }
            /* masked: weight 0, score −∞ */
            cr_assert(got[1] == 0 && isinf(tf_scores(&r, l, h)[1]));
        }
    for (int l = 0; l <= layers; l++) {
        const double *want = stack_stream(&s, l);
        const float *got = r.stream + (ptrdiff_t)l * n * w;
        for (int q = 0; q < n * w; q++)
            cr_assert(fabs(got[q] - want[q]) <= 1e-5 * (1 + fabs(want[q])),
                      "layer %d stream[%d]: %.9g, %.9g", l, q, (double)got[q], want[q]);
    }
    cr_assert(worst > 0 || layers == 0, "float32 against float64 differs somewhere");
    tf_free(&r);
    stack_free(&s);
}

Test(transformer, without_layernorm_and_mlp_it_is_the_induction_stack) {
    same_as_the_stack(TRAIN_POS_NONE, 2, 1);
    same_as_the_stack(TRAIN_POS_SIN, 2, 2);
    same_as_the_stack(TRAIN_POS_LEARNED, 3, 4);
}

/* Buffers grow with n and are kept when it shrinks; a shorter pass after a
 * longer one gives the same numbers as a fresh run. */
Test(transformer, a_run_reused_for_a_shorter_text_is_the_same) {
    static float wte[8 * 8], qkv[8 * 24], proj[8 * 8];
    Rng g;
    rng_seed_stream(&g, 3, 0x7F01ull, 0);
    rand_fill(&g, wte, 64, 1);
    rand_fill(&g, qkv, 8 * 24, 1);
    rand_fill(&g, proj, 64, 0.5);
    Tf_Block b = {.qkv_w = qkv, .proj_w = proj};
    Tf_Model m = {.layers = 1,
                  .heads = 2,
                  .width = 8,
                  .positions = 8,
                  .vocab = 8,
                  .wte = wte,
                  .unembed = wte,
                  .blocks = &b};
    int32_t ids[8] = {1, 5, 2, 7, 0, 3, 3, 6};
    Tf_Run big = {0}, fresh = {0};
    cr_assert(tf_reserve(&big, &m, 8) && tf_reserve(&fresh, &m, 5));
    tf_forward(&m, ids, 8, &big);
    tf_forward(&m, ids, 5, &big);
    tf_forward(&m, ids, 5, &fresh);
    for (int q = 0; q < 25; q++) cr_assert_eq(tf_attn(&big, 0, 1)[q], tf_attn(&fresh, 0, 1)[q]);
    for (int v = 0; v < 8; v++) cr_assert_eq(big.logits[v], fresh.logits[v]);
    tf_free(&big);
    tf_free(&fresh);
}
