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
#include <string.h>

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

/* A small model with every part (LayerNorm, biases, MLP), weights drawn
 * from a seed. */
typedef struct Small {
    float wte[10 * 8], wpe[12 * 8], lnf[2][8];
    float ln[2][4][8], qkv[2][8 * 24], qkv_b[2][24], proj[2][8 * 8], proj_b[2][8];
    float fc[2][8 * 12], fc_b[2][12], fc_proj[2][12 * 8], fc_proj_b[2][8];
    Tf_Block blocks[2];
    Tf_Model m;
} Small;

static void small_model(Small *s) {
    Rng g;
    rng_seed_stream(&g, 11, 0x7F02ull, 0);
    rand_fill(&g, s->wte, 80, 1);
    rand_fill(&g, s->wpe, 96, 0.5);
    rand_fill(&g, &s->lnf[0][0], 16, 0.3);
    for (int l = 0; l < 2; l++) {
        rand_fill(&g, &s->ln[l][0][0], 32, 0.3);
        for (int j = 0; j < 8; j++) s->ln[l][0][j] += 1, s->ln[l][2][j] += 1;
        rand_fill(&g, s->qkv[l], 8 * 24, 0.8);
        rand_fill(&g, s->qkv_b[l], 24, 0.2);
        rand_fill(&g, s->proj[l], 64, 0.4);
        rand_fill(&g, s->proj_b[l], 8, 0.1);
        rand_fill(&g, s->fc[l], 96, 0.4);
        rand_fill(&g, s->fc_b[l], 12, 0.1);
        rand_fill(&g, s->fc_proj[l], 96, 0.3);
        rand_fill(&g, s->fc_proj_b[l], 8, 0.1);
        s->blocks[l] = (Tf_Block){.ln1_w = s->ln[l][0],
                                  .ln1_b = s->ln[l][1],
                                  .qkv_w = s->qkv[l],
                                  .qkv_b = s->qkv_b[l],
                                  .proj_w = s->proj[l],
                                  .proj_b = s->proj_b[l],
                                  .ln2_w = s->ln[l][2],
                                  .ln2_b = s->ln[l][3],
                                  .fc_w = s->fc[l],
                                  .fc_b = s->fc_b[l],
                                  .fc_proj_w = s->fc_proj[l],
                                  .fc_proj_b = s->fc_proj_b[l]};
    }
    for (int j = 0; j < 8; j++) s->lnf[0][j] += 1;
    s->m = (Tf_Model){.layers = 2,
                      .heads = 2,
                      .width = 8,
                      .inner = 12,
                      .positions = 12,
                      .vocab = 10,
                      .eps = 1e-5f,
                      .wte = s->wte,
                      .wpe = s->wpe,
                      .lnf_w = s->lnf[0],
                      .lnf_b = s->lnf[1],
                      .unembed = s->wte,
                      .blocks = s->blocks};
}

/* The pass in slices, one layer a step, is the pass at once, bit for bit. */
Test(transformer, the_pass_in_slices_is_the_pass_at_once) {
    static Small s;
    small_model(&s);
    int32_t ids[9] = {3, 1, 4, 1, 5, 9, 2, 6, 5};
    Tf_Run a = {0}, b = {0};
    cr_assert(tf_reserve(&a, &s.m, 9) && tf_reserve(&b, &s.m, 9));
    tf_forward(&s.m, ids, 9, &a);
    tf_begin(&s.m, ids, 9, &b);
    int steps = 0;
    while (!tf_step(&s.m, &b)) steps++;
    cr_assert_eq(steps, 2, "a step per layer, then the logits");
    cr_assert(tf_step(&s.m, &b), "done stays done");
    cr_assert(!memcmp(a.attn, b.attn, sizeof(float) * 2 * 2 * 81));
    cr_assert(!memcmp(a.logits, b.logits, sizeof(float) * 10));
    tf_free(&a);
    tf_free(&b);
}

/* A head's q, k and v, recomputed from the stream its layer read, give the
 * scores the pass computed (q·k/√d_h, within float32 rounding), and the
 * lengths ‖v_j W_O^h‖ are those of the same product in float64. */
Test(transformer, a_heads_vectors_give_its_scores_and_value_lengths) {
    static Small s;
    small_model(&s);
    int32_t ids[7] = {0, 7, 7, 2, 9, 3, 8};
    int n = 7, w = 8, d_h = 4;
    Tf_Run r = {0};
    cr_assert(tf_reserve(&r, &s.m, n));
    tf_forward(&s.m, ids, n, &r);
    float Q[7 * 4], K[7 * 4], V[7 * 4], norm[7];
    for (int l = 0; l < 2; l++)
        for (int h = 0; h < 2; h++) {
            tf_head_vectors(&s.m, &r, l, h, Q, K, V, norm);
            const float *S = tf_scores(&r, l, h);
            for (int i = 0; i < n; i++)
                for (int j = 0; j <= i; j++) {
                    double dot = 0;
                    for (int c = 0; c < d_h; c++) dot += (double)Q[i * d_h + c] * K[j * d_h + c];
                    cr_assert(fabs(dot / 2 - S[i * n + j]) <= 1e-5 * (1 + fabs(dot)),
                              "layer %d head %d S[%d][%d]", l, h, i, j);
                }
            for (int j = 0; j < n; j++) {
                double sum = 0;
                for (int c = 0; c < w; c++) {
                    double f = 0;
                    for (int p = 0; p < d_h; p++)
                        f += (double)V[j * d_h + p] * s.proj[l][(h * d_h + p) * w + c];
                    sum += f * f;
                }
                cr_assert(fabs(sqrt(sum) - norm[j]) <= 1e-5 * (1 + sqrt(sum)));
                cr_assert(norm[j] > 0);
            }
        }
    tf_free(&r);
}
