/* src/nn/net.c, the one forward pass. First the case with no LayerNorm and
 * no MLP: it is the induction lab's attention-only
 * stack (nn/train_stack.c, float64), so one pass serves both. A stack trained a
 * little is copied into the pass's layout (Q, K, V side by side per layer, heads
 * in column blocks; W_O's rows stacked; U transposed), and every head's A
 * and every layer's residual stream must match the stack's within float32
 * rounding (1e-5). GPT-2's full pass (LayerNorm, MLP, logits) is checked
 * against a float64 reference in tests/platform/test_real_model.c. Then the
 * Llama family's parts (RMSNorm, torch's (out, in) layout, grouped-query
 * attention, RoPE turned as Hugging Face turns it, Qwen2's q/k/v biases,
 * Qwen3's per-head norms and head_dim ≠ width/heads, SwiGLU, an untied
 * unembedding), and ALiBi, against a float64 reference written here from
 * the architecture, and against identities that pin what a shared reading
 * could get wrong twice: the pairs RoPE turns, and GQA as MHA with copied
 * key/value heads. */
#include "nn/train_stack.h"
#include "nn/net.h"
#include "nn/net_cache.h"
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
    /* the stack's parameters in the pass's layout, as float */
    static float wte[64 * 64], wpe[64 * 64], unembed[64 * 64];
    static float qkv[STACK_MAX_LAYERS][64 * 192], proj[STACK_MAX_LAYERS][64 * 64];
    static Net_Block blocks[STACK_MAX_LAYERS];
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
        blocks[l] = (Net_Block){.qkv_w = qkv[l], .o_w = proj[l]};
    }
    Net_Model m = {.layers = layers,
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
    Net_Run r = {0};
    cr_assert(net_reserve(&r, &m, n));
    int32_t ids[STACK_MAX_CONTEXT];
    for (int i = 0; i < n; i++) ids[i] = tokens[i];
    net_forward(&m, ids, n, &r);
    double worst = 0;
    for (int l = 0; l < layers; l++)
        for (int h = 0; h < heads; h++) {
            const double *want = stack_attention(&s, l, h);
            const float *got = net_attn(&r, l, h);
            for (int q = 0; q < n * n; q++) {
                cr_assert(fabs(got[q] - want[q]) < 1e-5, "layer %d head %d A[%d][%d]: %.9g, %.9g",
                          l, h, q / n, q % n, (double)got[q], want[q]);
                worst = fmax(worst, fabs(got[q] - want[q]));
            }
            /* masked: weight 0, score −∞ */
            cr_assert(got[1] == 0 && isinf(net_scores(&r, l, h)[1]));
        }
    for (int l = 0; l <= layers; l++) {
        const double *want = stack_stream(&s, l);
        const float *got = r.stream + (ptrdiff_t)l * n * w;
        for (int q = 0; q < n * w; q++)
            cr_assert(fabs(got[q] - want[q]) <= 1e-5 * (1 + fabs(want[q])),
                      "layer %d stream[%d]: %.9g, %.9g", l, q, (double)got[q], want[q]);
    }
    cr_assert(worst > 0 || layers == 0, "float32 against float64 differs somewhere");
    net_free(&r);
    stack_free(&s);
}

Test(net, without_layernorm_and_mlp_it_is_the_induction_stack) {
    if (getenv("ATTNLAB_SANITIZED")) cr_skip("numbers: judged in the normal pass");
    same_as_the_stack(TRAIN_POS_NONE, 2, 1);
    same_as_the_stack(TRAIN_POS_SIN, 2, 2);
    same_as_the_stack(TRAIN_POS_LEARNED, 3, 4);
}

/* Buffers grow with n and are kept when it shrinks; a shorter pass after a
 * longer one gives the same numbers as a fresh run. */
Test(net, a_run_reused_for_a_shorter_text_is_the_same) {
    static float wte[8 * 8], qkv[8 * 24], proj[8 * 8];
    Rng g;
    rng_seed_stream(&g, 3, 0x7F01ull, 0);
    rand_fill(&g, wte, 64, 1);
    rand_fill(&g, qkv, 8 * 24, 1);
    rand_fill(&g, proj, 64, 0.5);
    Net_Block b = {.qkv_w = qkv, .o_w = proj};
    Net_Model m = {.layers = 1,
                   .heads = 2,
                   .width = 8,
                   .positions = 8,
                   .vocab = 8,
                   .wte = wte,
                   .unembed = wte,
                   .blocks = &b};
    int32_t ids[8] = {1, 5, 2, 7, 0, 3, 3, 6};
    Net_Run big = {0}, fresh = {0};
    cr_assert(net_reserve(&big, &m, 8) && net_reserve(&fresh, &m, 5));
    net_forward(&m, ids, 8, &big);
    net_forward(&m, ids, 5, &big);
    net_forward(&m, ids, 5, &fresh);
    for (int q = 0; q < 25; q++) cr_assert_eq(net_attn(&big, 0, 1)[q], net_attn(&fresh, 0, 1)[q]);
    for (int v = 0; v < 8; v++) cr_assert_eq(big.logits[v], fresh.logits[v]);
    net_free(&big);
    net_free(&fresh);
}

/* A small model with every part (LayerNorm, biases, MLP), weights drawn
 * from a seed. */
typedef struct Small {
    float wte[10 * 8], wpe[12 * 8], lnf[2][8];
    float ln[2][4][8], qkv[2][8 * 24], qkv_b[2][24], proj[2][8 * 8], proj_b[2][8];
    float fc[2][8 * 12], fc_b[2][12], fc_proj[2][12 * 8], fc_proj_b[2][8];
    Net_Block blocks[2];
    Net_Model m;
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
        s->blocks[l] = (Net_Block){.norm1_w = s->ln[l][0],
                                   .norm1_b = s->ln[l][1],
                                   .qkv_w = s->qkv[l],
                                   .q_b = s->qkv_b[l],
                                   .k_b = s->qkv_b[l] + 8,
                                   .v_b = s->qkv_b[l] + 16,
                                   .o_w = s->proj[l],
                                   .o_b = s->proj_b[l],
                                   .norm2_w = s->ln[l][2],
                                   .norm2_b = s->ln[l][3],
                                   .up_w = s->fc[l],
                                   .up_b = s->fc_b[l],
                                   .down_w = s->fc_proj[l],
                                   .down_b = s->fc_proj_b[l]};
    }
    for (int j = 0; j < 8; j++) s->lnf[0][j] += 1;
    s->m = (Net_Model){.layers = 2,
                       .heads = 2,
                       .width = 8,
                       .inner = 12,
                       .positions = 12,
                       .vocab = 10,
                       .norm = NET_NORM_LAYER,
                       .mlp = NET_MLP_GELU,
                       .eps = 1e-5f,
                       .wte = s->wte,
                       .wpe = s->wpe,
                       .normf_w = s->lnf[0],
                       .normf_b = s->lnf[1],
                       .unembed = s->wte,
                       .blocks = s->blocks};
}

/* The pass in slices, one layer a step, is the pass at once, bit for bit. */
Test(net, the_pass_in_slices_is_the_pass_at_once) {
    static Small s;
    small_model(&s);
    int32_t ids[9] = {3, 1, 4, 1, 5, 9, 2, 6, 5};
    Net_Run a = {0}, b = {0};
    cr_assert(net_reserve(&a, &s.m, 9) && net_reserve(&b, &s.m, 9));
    net_forward(&s.m, ids, 9, &a);
    net_begin(&s.m, ids, 9, &b);
    int steps = 0;
    while (!net_step(&s.m, &b)) steps++;
    cr_assert_eq(steps, 2, "a step per layer, then the logits");
    cr_assert(net_step(&s.m, &b), "done stays done");
    cr_assert(!memcmp(a.attn, b.attn, sizeof(float) * 2 * 2 * 81));
    cr_assert(!memcmp(a.logits, b.logits, sizeof(float) * 10));
    /* as a browser's frames take it: half a layer a step (the attention, then the MLP),
     * the same numbers bit for bit; the logits 3 rows a step, within float32 rounding */
    net_begin(&s.m, ids, 9, &b);
    b.logit_rows = 3;
    b.halves = true;
    steps = 0;
    while (!net_step(&s.m, &b)) steps++;
    cr_assert_eq(steps, 2 * 2 + 3, "two steps a layer, then 4 of the logits");
    cr_assert(!memcmp(a.attn, b.attn, sizeof(float) * 2 * 2 * 81));
    cr_assert(!memcmp(a.stream, b.stream, sizeof(float) * 3 * 9 * s.m.width));
    cr_assert(!memcmp(a.mid, b.mid, sizeof(float) * 2 * 9 * s.m.width));
    float big = 0;
    for (int v = 0; v < 10; v++) big = fmaxf(big, fabsf(a.logits[v]));
    for (int v = 0; v < 10; v++)
        cr_assert(fabsf(a.logits[v] - b.logits[v]) <= 1e-6f * big, "logit %d", v);
    net_free(&a);
    net_free(&b);
}

/* A cached step's logits come a slice of the vocabulary at a time (so a
 * browser frame never computes 39 M multiply-adds at once): with 3 rows a
 * slice, a step is 2 layers and then 4 slices (10 rows), and its logits are
 * the whole pass's over the same tokens within float32 rounding. */
Test(net, a_cached_step_computes_its_logits_in_slices) {
    static Small s;
    small_model(&s);
    int32_t ids[5] = {3, 1, 4, 1, 5};
    Net_Run whole = {0};
    cr_assert(net_reserve(&whole, &s.m, 5));
    net_forward(&s.m, ids, 5, &whole);
    for (int rows = 0; rows <= 3; rows += 3) {
        static Net_Cache c;
        cr_assert(net_cache_reserve(&c, &s.m, 8));
        c.logit_rows = rows;
        for (int t = 0; t < 4; t++) cr_assert(net_cache_step(&s.m, &c, ids[t]));
        cr_assert(net_cache_begin(&s.m, &c, ids[4]));
        int calls = 1;
        while (!net_cache_next(&s.m, &c)) calls++;
        cr_assert_eq(calls, rows ? 2 + 4 : 2 + 1, "rows %d: %d slices", rows, calls);
        cr_assert_eq(c.n, 5);
        float big = 0;
        for (int v = 0; v < 10; v++) big = fmaxf(big, fabsf(whole.logits[v]));
        for (int v = 0; v < 10; v++)
            cr_assert(fabsf(c.logits[v] - whole.logits[v]) <= 1e-6f * big, "rows %d, logit %d",
                      rows, v);
        net_cache_free(&c);
    }
    net_free(&whole);
}

/* A head's q, k and v, recomputed from the stream its layer read, give the
 * scores the pass computed (q·k/√d_h, within float32 rounding), and the
 * lengths ‖v_j W_O^h‖ are those of the same product in float64. */
Test(net, a_heads_vectors_give_its_scores_and_value_lengths) {
    static Small s;
    small_model(&s);
    int32_t ids[7] = {0, 7, 7, 2, 9, 3, 8};
    int n = 7, w = 8, d_h = 4;
    Net_Run r = {0};
    cr_assert(net_reserve(&r, &s.m, n));
    net_forward(&s.m, ids, n, &r);
    float Q[7 * 4], K[7 * 4], V[7 * 4], norm[7];
    for (int l = 0; l < 2; l++)
        for (int h = 0; h < 2; h++) {
            net_head_vectors(&s.m, &r, l, h, Q, K, V, norm);
            const float *S = net_scores(&r, l, h);
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
    net_free(&r);
}

/* ---- the Llama family, against a float64 reference ---- */

/* A model of the Llama family's kinds, weights drawn from a seed. The
 * arrays are as large as the largest shape the tests ask for. */
typedef struct Modern {
    float wte[16 * 12], unembed[16 * 12], normf[12];
    float norm[2][2][12], q[2][12 * 32], k[2][12 * 32], v[2][12 * 32], o[2][32 * 12];
    float qb[2][32], kb[2][32], vb[2][32], qn[2][8], kn[2][8];
    float up[2][12 * 20], gate[2][12 * 20], down[2][20 * 12];
    float freq[4];
    Net_Block blocks[2];
    Net_Model m;
} Modern;

typedef struct Modern_Shape {
    int heads, kv_heads, head_dim;
    bool biases, head_norms, alibi, own_freq;
    Net_Mlp mlp;
} Modern_Shape;

static void modern_model(Modern *s, Modern_Shape sh, uint64_t seed) {
    static float slopes[4] = {0.5f, 0.25f, 0.125f, 0.0625f};
    int w = 12, V = 16, inner = 20, H = sh.heads, G = sh.kv_heads, d = sh.head_dim;
    Rng g;
    rng_seed_stream(&g, seed, 0x7F03ull, 0);
    rand_fill(&g, s->wte, V * w, 1);
    rand_fill(&g, s->unembed, V * w, 0.5);
    rand_fill(&g, s->normf, w, 0.2);
    for (int j = 0; j < w; j++) s->normf[j] += 1;
    for (int l = 0; l < 2; l++) {
        rand_fill(&g, &s->norm[l][0][0], 2 * w, 0.2);
        for (int j = 0; j < w; j++) s->norm[l][0][j] += 1, s->norm[l][1][j] += 1;
        rand_fill(&g, s->q[l], w * H * d, 0.6);
        rand_fill(&g, s->k[l], w * G * d, 0.6);
        rand_fill(&g, s->v[l], w * G * d, 0.6);
        rand_fill(&g, s->o[l], H * d * w, 0.3);
        rand_fill(&g, s->qb[l], H * d, 0.3);
        rand_fill(&g, s->kb[l], G * d, 0.3);
        rand_fill(&g, s->vb[l], G * d, 0.3);
        rand_fill(&g, s->qn[l], d, 0.2);
        rand_fill(&g, s->kn[l], d, 0.2);
        for (int c = 0; c < d; c++) s->qn[l][c] += 1, s->kn[l][c] += 1;
        rand_fill(&g, s->up[l], w * inner, 0.4);
        rand_fill(&g, s->gate[l], w * inner, 0.4);
        rand_fill(&g, s->down[l], inner * w, 0.3);
        s->blocks[l] = (Net_Block){.norm1_w = s->norm[l][0],
                                   .q_w = s->q[l],
                                   .k_w = s->k[l],
                                   .v_w = s->v[l],
                                   .q_b = sh.biases ? s->qb[l] : NULL,
                                   .k_b = sh.biases ? s->kb[l] : NULL,
                                   .v_b = sh.biases ? s->vb[l] : NULL,
                                   .q_norm = sh.head_norms ? s->qn[l] : NULL,
                                   .k_norm = sh.head_norms ? s->kn[l] : NULL,
                                   .o_w = s->o[l],
                                   .norm2_w = s->norm[l][1],
                                   .up_w = s->up[l],
                                   .gate_w = s->gate[l],
                                   .down_w = s->down[l]};
    }
    /* scaled frequencies, as Llama 3's rope_scaling gives them */
    for (int c = 0; c < d / 2; c++) s->freq[c] = 0.7f / (float)(c + 1);
    s->m = (Net_Model){.layers = 2,
                       .heads = H,
                       .kv_heads = G,
                       .head_dim = d,
                       .width = w,
                       .inner = inner,
                       .positions = 64,
                       .vocab = V,
                       .norm = NET_NORM_RMS,
                       .eps = 1e-6f,
                       .mlp = sh.mlp,
                       .layout = NET_LAYOUT_OUT_IN,
                       .rope_theta = sh.alibi ? 0 : 10000,
                       .rope_freq = sh.own_freq ? s->freq : NULL,
                       .alibi = sh.alibi ? slopes : NULL,
                       .wte = s->wte,
                       .unembed = s->unembed,
                       .normf_w = s->normf,
                       .blocks = s->blocks};
}

/* x·W for one row, W of the model's (out, in) layout, in float64. */
static void ref_linear(const float *W, const float *b, const double *x, int in, int out,
                       double *dest) {
    for (int o = 0; o < out; o++) {
        double sum = b ? b[o] : 0;
        for (int i = 0; i < in; i++) sum += x[i] * W[(ptrdiff_t)o * in + i];
        dest[o] = sum;
    }
}

static void ref_rmsnorm(const double *x, int w, const float *g, double eps, double *dest) {
    double sq = 0;
    for (int j = 0; j < w; j++) sq += x[j] * x[j];
    double inv = 1 / sqrt(sq / w + eps);
    for (int j = 0; j < w; j++) dest[j] = x[j] * inv * g[j];
}

/* Hugging Face's rotate_half: x·cos + rotate_half(x)·sin, where
 * rotate_half(x) = (−x[d/2:], x[:d/2]) and cos, sin repeat the d/2 angles. */
static void ref_rope(double *x, int d, int p, const Net_Model *m) {
    double turned[8];
    for (int c = 0; c < d; c++) {
        int pair = c % (d / 2);
        double f = m->rope_freq ? m->rope_freq[pair] : pow(m->rope_theta, -2.0 * pair / d);
        double rot = c < d / 2 ? -x[c + d / 2] : x[c - d / 2];
        turned[c] = x[c] * cos(p * f) + rot * sin(p * f);
    }
    memcpy(x, turned, (size_t)d * sizeof *x);
}

/* The whole pass in float64, loops as the architecture reads: every head's
 * A (layers×H×n×n) and the last position's logits. */
static void ref_modern(const Net_Model *m, const int32_t *ids, int n, double *A, double *logits) {
    enum { N = 24, W = 12, QW = 32, I = 20 };
    int w = m->width, H = m->heads, G = m->kv_heads, d = m->head_dim, inner = m->inner;
    static double x[N][W], a[N][W], q[N][QW], k[N][QW], v[N][QW], mixed[N][QW];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < w; j++) x[i][j] = m->wte[ids[i] * w + j];
    for (int l = 0; l < m->layers; l++) {
        const Net_Block *b = &m->blocks[l];
        for (int i = 0; i < n; i++) {
            ref_rmsnorm(x[i], w, b->norm1_w, m->eps, a[i]);
            ref_linear(b->q_w, b->q_b, a[i], w, H * d, q[i]);
            ref_linear(b->k_w, b->k_b, a[i], w, G * d, k[i]);
            ref_linear(b->v_w, b->v_b, a[i], w, G * d, v[i]);
            for (int h = 0; h < H; h++) {
                if (b->q_norm) ref_rmsnorm(q[i] + h * d, d, b->q_norm, m->eps, q[i] + h * d);
                if (m->rope_theta > 0) ref_rope(q[i] + h * d, d, i, m);
            }
            for (int h = 0; h < G; h++) {
                if (b->k_norm) ref_rmsnorm(k[i] + h * d, d, b->k_norm, m->eps, k[i] + h * d);
                if (m->rope_theta > 0) ref_rope(k[i] + h * d, d, i, m);
            }
        }
        for (int h = 0; h < H; h++) {
            int g = h / (H / G);
            double *Ah = A + ((ptrdiff_t)l * H + h) * n * n;
            for (int i = 0; i < n; i++) {
                double s[N], max = -INFINITY, sum = 0;
                for (int j = 0; j <= i; j++) {
                    double dot = 0;
                    for (int c = 0; c < d; c++) dot += q[i][h * d + c] * k[j][g * d + c];
                    s[j] = dot / sqrt(d) - (m->alibi ? m->alibi[h] * (i - j) : 0);
                    if (s[j] > max) max = s[j];
                }
                for (int j = 0; j < n; j++) Ah[i * n + j] = j <= i ? exp(s[j] - max) : 0;
                for (int j = 0; j <= i; j++) sum += Ah[i * n + j];
                for (int j = 0; j <= i; j++) Ah[i * n + j] /= sum;
                for (int c = 0; c < d; c++) {
                    double o = 0;
                    for (int j = 0; j <= i; j++) o += Ah[i * n + j] * v[j][g * d + c];
                    mixed[i][h * d + c] = o;
                }
            }
        }
        for (int i = 0; i < n; i++) {
            double out[W], up[I], gate[I], down[W];
            ref_linear(b->o_w, b->o_b, mixed[i], H * d, w, out);
            for (int j = 0; j < w; j++) x[i][j] += out[j];
            if (m->mlp == NET_MLP_NONE) continue;
            ref_rmsnorm(x[i], w, b->norm2_w, m->eps, a[i]);
            ref_linear(b->up_w, b->up_b, a[i], w, inner, up);
            ref_linear(b->gate_w, NULL, a[i], w, inner, gate);
            for (int c = 0; c < inner; c++) up[c] *= gate[c] / (1 + exp(-gate[c]));
            ref_linear(b->down_w, b->down_b, up, inner, w, down);
            for (int j = 0; j < w; j++) x[i][j] += down[j];
        }
    }
    double last[W];
    ref_rmsnorm(x[n - 1], w, m->normf_w, m->eps, last);
    for (int t = 0; t < m->vocab; t++) {
        double sum = 0;
        for (int j = 0; j < w; j++) sum += last[j] * m->unembed[t * w + j];
        logits[t] = sum;
    }
}

/* Every head's A within 1e-5 (float32 rounding through two layers of
 * products of length ≤ 32), the logits within 1e-4 of the largest. */
static void matches_the_reference(Modern_Shape sh) {
    static Modern s;
    modern_model(&s, sh, 21 + (uint64_t)sh.heads * 7 + (uint64_t)sh.kv_heads);
    int32_t ids[24];
    int n = 24;
    Rng g;
    rng_seed_stream(&g, 4, 0x7F04ull, 0);
    for (int i = 0; i < n; i++) ids[i] = (int32_t)(rng_next_u64(&g) % 16);
    static double A[2 * 4 * 24 * 24], logits[16];
    ref_modern(&s.m, ids, n, A, logits);
    Net_Run r = {0};
    cr_assert(net_reserve(&r, &s.m, n));
    net_forward(&s.m, ids, n, &r);
    cr_assert_eq(r.fault.kind, NET_FAULT_NONE);
    for (int l = 0; l < 2; l++)
        for (int h = 0; h < sh.heads; h++) {
            const float *got = net_attn(&r, l, h);
            const double *want = A + ((ptrdiff_t)l * sh.heads + h) * n * n;
            for (int q = 0; q < n * n; q++)
                cr_assert(fabs(got[q] - want[q]) <= 1e-5,
                          "H %d G %d d %d: layer %d head %d A[%d][%d] %.9g, want %.9g", sh.heads,
                          sh.kv_heads, sh.head_dim, l, h, q / n, q % n, (double)got[q], want[q]);
        }
    double top = 0;
    for (int t = 0; t < 16; t++) top = fmax(top, fabs(logits[t]));
    for (int t = 0; t < 16; t++)
        cr_assert(fabs(r.logits[t] - logits[t]) <= 1e-4 * top, "logit %d: %.9g, want %.9g", t,
                  (double)r.logits[t], logits[t]);
    net_free(&r);
}

Test(net, the_llama_familys_pass_matches_float64) {
    /* Llama / SmolLM2: RMSNorm, RoPE, SwiGLU, grouped query heads (4 on 2) */
    matches_the_reference((Modern_Shape){4, 2, 6, .mlp = NET_MLP_SWIGLU});
    /* multi-head (TinyLlama's layers are GQA too; here G = H) and Llama 3's own frequencies */
    matches_the_reference((Modern_Shape){2, 2, 6, .mlp = NET_MLP_SWIGLU, .own_freq = true});
    /* Qwen2: q/k/v biases; one key/value head for all */
    matches_the_reference((Modern_Shape){4, 1, 4, .biases = true, .mlp = NET_MLP_SWIGLU});
    /* Qwen3: per-head q/k norms, head_dim·heads (32) wider than the stream (12) */
    matches_the_reference((Modern_Shape){4, 2, 8, .head_norms = true, .mlp = NET_MLP_SWIGLU});
    /* attention only, ALiBi instead of RoPE */
    matches_the_reference((Modern_Shape){4, 4, 4, .alibi = true, .mlp = NET_MLP_NONE});
}

/* RoPE pairs coordinate c with c + d/2 (Hugging Face's rotate-half), not
 * 2c with 2c + 1: q = e₀ of a head of d = 4 at position p turns into
 * (cos p, 0, sin p, 0) (pair 0 turns at θ⁰ = 1 per position), and e₁ into
 * (0, cos p/100, 0, sin p/100) (pair 1 at 10000^(−2/4)). */
Test(net, rope_turns_c_with_c_plus_half_as_hugging_face_does) {
    static float wte[2 * 4] = {1, 0, 0, 0, 0, 1, 0, 0}, eye[4 * 4], o[4 * 4];
    for (int c = 0; c < 4; c++) eye[c * 4 + c] = 1;
    Net_Block b = {.q_w = eye, .k_w = eye, .v_w = eye, .o_w = o};
    Net_Model m = {.layers = 1,
                   .heads = 1,
                   .width = 4,
                   .positions = 8,
                   .vocab = 2,
                   .layout = NET_LAYOUT_OUT_IN,
                   .rope_theta = 10000,
                   .wte = wte,
                   .unembed = wte,
                   .blocks = &b};
    int32_t ids[6] = {0, 1, 0, 1, 0, 1};
    Net_Run r = {0};
    cr_assert(net_reserve(&r, &m, 6));
    net_forward(&m, ids, 6, &r);
    float Q[6 * 4], K[6 * 4], V[6 * 4], norm[6];
    net_head_vectors(&m, &r, 0, 0, Q, K, V, norm);
    for (int p = 0; p < 6; p++) {
        double f = p % 2 ? 0.01 : 1, want[4] = {0};
        want[p % 2] = cos(p * f);
        want[p % 2 + 2] = sin(p * f);
        for (int c = 0; c < 4; c++) {
            cr_assert(fabs(Q[p * 4 + c] - want[c]) <= 1e-6, "p %d c %d: %g, want %g", p, c,
                      (double)Q[p * 4 + c], want[c]);
            cr_assert_eq(Q[p * 4 + c], K[p * 4 + c]);
            cr_assert_eq(V[p * 4 + c], wte[(p % 2) * 4 + c], "V is not turned");
        }
    }
    net_free(&r);
}

/* Grouped-query attention is multi-head attention whose key/value heads
 * are copies: 4 query heads on 2 key/value heads give the same A and logits
 * as 4 on 4 with K and V of head h copied from group h/2 (to float32
 * rounding: the products differ only in their shapes). */
Test(net, grouped_query_heads_are_heads_with_shared_keys_and_values) {
    static Modern gqa, mha;
    Modern_Shape sh = {4, 2, 6, .mlp = NET_MLP_SWIGLU};
    modern_model(&gqa, sh, 77);
    mha = gqa;
    int w = 12, d = 6;
    for (int l = 0; l < 2; l++) {
        for (int h = 0; h < 4; h++)
            for (int r = 0; r < d; r++)
                for (int i = 0; i < w; i++) {
                    mha.k[l][(h * d + r) * w + i] = gqa.k[l][((h / 2) * d + r) * w + i];
                    mha.v[l][(h * d + r) * w + i] = gqa.v[l][((h / 2) * d + r) * w + i];
                }
        mha.blocks[l].norm1_w = mha.norm[l][0];
        mha.blocks[l].norm2_w = mha.norm[l][1];
        mha.blocks[l].q_w = mha.q[l];
        mha.blocks[l].k_w = mha.k[l];
        mha.blocks[l].v_w = mha.v[l];
        mha.blocks[l].o_w = mha.o[l];
        mha.blocks[l].up_w = mha.up[l];
        mha.blocks[l].gate_w = mha.gate[l];
        mha.blocks[l].down_w = mha.down[l];
    }
    mha.m.kv_heads = 4;
    mha.m.wte = mha.wte;
    mha.m.unembed = mha.unembed;
    mha.m.normf_w = mha.normf;
    mha.m.blocks = mha.blocks;
    int32_t ids[10] = {1, 4, 1, 5, 9, 2, 6, 5, 3, 5};
    Net_Run a = {0}, b = {0};
    cr_assert(net_reserve(&a, &gqa.m, 10) && net_reserve(&b, &mha.m, 10));
    net_forward(&gqa.m, ids, 10, &a);
    net_forward(&mha.m, ids, 10, &b);
    for (int l = 0; l < 2; l++)
        for (int h = 0; h < 4; h++) {
            cr_assert_eq(net_kv_head(&gqa.m, h), h / 2);
            for (int q = 0; q < 100; q++)
                cr_assert(fabs(net_attn(&a, l, h)[q] - net_attn(&b, l, h)[q]) <= 1e-6);
        }
    for (int t = 0; t < 16; t++) cr_assert(fabs(a.logits[t] - b.logits[t]) <= 1e-5);
    net_free(&a);
    net_free(&b);
}

/* A head's q and k before the turn, turned in float64 by Hugging Face's
 * rotate-half (ref_rope, position i for row i), are the q and k the pass's
 * scores read (within float32 rounding, 1e-5 relative): the unturned rows are
 * the same vectors with the position taken out, Qwen3's q/k norms kept. */
Test(net, a_heads_unturned_q_and_k_turned_are_its_q_and_k) {
    static Modern s;
    Modern_Shape sh = {4, 2, 8, .head_norms = true, .mlp = NET_MLP_SWIGLU, .own_freq = true};
    modern_model(&s, sh, 31);
    int32_t ids[12] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8};
    int n = 12, d = 8;
    Net_Run r = {0};
    cr_assert(net_reserve(&r, &s.m, n));
    net_forward(&s.m, ids, n, &r);
    float Q[12 * 8], K[12 * 8], V[12 * 8], norm[12], Q0[12 * 8], K0[12 * 8];
    for (int l = 0; l < 2; l++)
        for (int h = 0; h < 4; h++) {
            net_head_vectors(&s.m, &r, l, h, Q, K, V, norm);
            net_head_unturned(&s.m, &r, l, h, Q0, K0);
            double differ = 0;
            for (int i = 0; i < n; i++) {
                double q[8], k[8];
                for (int c = 0; c < d; c++) q[c] = Q0[i * d + c], k[c] = K0[i * d + c];
                ref_rope(q, d, i, &s.m);
                ref_rope(k, d, i, &s.m);
                for (int c = 0; c < d; c++) {
                    cr_assert(fabs(q[c] - Q[i * d + c]) <= 1e-5 * (1 + fabs(q[c])),
                              "layer %d head %d q[%d][%d]", l, h, i, c);
                    cr_assert(fabs(k[c] - K[i * d + c]) <= 1e-5 * (1 + fabs(k[c])));
                    differ = fmax(differ, fabs(Q0[i * d + c] - Q[i * d + c]));
                }
            }
            cr_assert_gt(differ, 1e-3, "the turn is not nothing");
        }
    net_free(&r);
}

/* One head's share of weight RoPE's turn moves, asked for after the pass
 * (net_head_turn_share: q and k projected again, unturned), is the share the
 * pass measured for every head (want_turn: q and k turned back), within
 * float32 rounding (1e-5: the two routes round q and k differently); A0 is
 * a row distribution with zeros above the diagonal, and the turn moves some
 * weight. */
Test(net, a_heads_turn_share_is_the_passs) {
    static Modern s;
    Modern_Shape sh = {4, 2, 8, .head_norms = true, .mlp = NET_MLP_SWIGLU, .own_freq = true};
    modern_model(&s, sh, 37);
    int32_t ids[12] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8};
    int n = 12;
    Net_Run r = {0};
    cr_assert(net_reserve(&r, &s.m, n));
    r.want_turn = true;
    net_forward(&s.m, ids, n, &r);
    float A0[12 * 12];
    for (int l = 0; l < 2; l++)
        for (int h = 0; h < 4; h++) {
            float measured = r.turn_moved[l * 4 + h];
            float share = net_head_turn_share(&s.m, &r, l, h, A0);
            cr_assert(fabs(share - measured) <= 1e-5, "layer %d head %d: %g, the pass %g", l, h,
                      share, measured);
            cr_assert(share > 1e-4, "the turn moves some weight");
            for (int i = 0; i < n; i++) {
                double sum = 0;
                for (int j = 0; j < n; j++) {
                    if (j > i) cr_assert_eq(A0[i * n + j], 0.0f, "masked: an exact 0");
                    sum += A0[i * n + j];
                }
                cr_assert(fabs(sum - 1) <= 1e-6, "row %d sums to %.9g", i, sum);
            }
        }
    net_free(&r);
}
