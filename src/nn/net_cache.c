/* Generation on a KV cache, and the next token's choice; see net_cache.h. */
#include "net_cache.h"
#include "net_kernels.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

int64_t net_cache_bytes(const Net_Model *m, int cap) {
    int64_t kv = (int64_t)2 * m->layers * cap * kv_heads(m) * head_dim(m);
    return (int64_t)sizeof(float) * (kv + (int64_t)m->layers * m->heads * cap * cap);
}

bool net_cache_reserve(Net_Cache *c, const Net_Model *m, int cap) {
    int G = kv_heads(m), d = head_dim(m), inner = m->inner > 0 ? m->inner : 1;
    bool fits = cap <= c->cap && m->layers <= c->cap_layers && m->heads <= c->cap_heads &&
                G <= c->cap_kv && d <= c->cap_dim && m->width <= c->cap_width &&
                inner <= c->cap_inner && m->vocab <= c->cap_vocab;
    if (!fits) {
        int64_t L = m->layers, C = cap, H = m->heads;
        if (!grow_floats(&c->k, L * C * G * d) || !grow_floats(&c->v, L * C * G * d) ||
            !grow_floats(&c->attn, L * H * C * C) || !grow_floats(&c->x, m->width) ||
            !grow_floats(&c->normed, m->width) || !grow_floats(&c->qkv, qkv_width(m)) ||
            !grow_floats(&c->mixed, mixed_width(m)) || !grow_floats(&c->hidden, inner) ||
            !grow_floats(&c->gate, inner) || !grow_floats(&c->scores, C) ||
            !grow_floats(&c->logits, m->vocab) || !grow_floats(&c->rope, C * d))
            return false;
        c->cap = cap;
        c->cap_layers = m->layers;
        c->cap_heads = m->heads;
        c->cap_kv = G;
        c->cap_dim = d;
        c->cap_width = m->width;
        c->cap_inner = inner;
        c->cap_vocab = m->vocab;
    }
    if (m->rope_theta > 0) rope_angles(m, 0, c->cap, c->rope);
    net_cache_clear(c);
    return true;
}

void net_cache_clear(Net_Cache *c) {
    c->n = 0;
    c->stage = -1;
    c->fault = (Net_Fault){0};
}

float *net_cache_attn(const Net_Cache *c, int layer, int head) {
    return c->attn + ((ptrdiff_t)layer * c->cap_heads + head) * c->cap * c->cap;
}

/* The new token's q (every head) and k (every key/value head) at position t:
 * each head's RMSNorm (Qwen3), then RoPE's turn by t, as the pass does it. */
static void turn_row(const Net_Model *m, const Net_Cache *c, const Net_Block *b, int t) {
    int d = head_dim(m), H = m->heads, G = kv_heads(m);
    for (int h = 0; h < H + G; h++) {
        float *v = c->qkv + (ptrdiff_t)h * d;
        const float *g = h < H ? b->q_norm : b->k_norm;
        if (g) norm_rows(NET_NORM_RMS, v, 1, d, d, g, NULL, m->eps, v);
        if (m->rope_theta > 0) turn_halves(v, c->rope + (ptrdiff_t)t * d, d, 1.0f, v);
    }
}

/* Layer l for the new token at t: its k and v kept, its rows of A, and x_{l+1}. */
static void cached_layer(const Net_Model *m, Net_Cache *c, int l, int t) {
    int w = m->width, H = m->heads, G = kv_heads(m), d = head_dim(m), ld = qkv_width(m);
    int inner = m->inner, C = c->cap;
    const Net_Block *b = &m->blocks[l];
    float *x = c->x, *q = c->qkv, *k = q + (ptrdiff_t)H * d, *v = k + (ptrdiff_t)G * d;
    norm_rows(m->norm, x, 1, w, w, b->norm1_w, b->norm1_b, m->eps, c->normed);
    fill_rows(q, 1, H * d, ld, b->q_b);
    fill_rows(k, 1, G * d, ld, b->k_b);
    fill_rows(v, 1, G * d, ld, b->v_b);
    if (b->qkv_w) {
        gemm_f32(false, false, 1, ld, w, 1, c->normed, w, b->qkv_w, ld, 1, c->qkv, ld);
    } else {
        linear(m, c->normed, 1, w, H * d, b->q_w, q, ld);
        linear(m, c->normed, 1, w, G * d, b->k_w, k, ld);
        linear(m, c->normed, 1, w, G * d, b->v_w, v, ld);
    }
    if (b->q_norm || b->k_norm || m->rope_theta > 0) turn_row(m, c, b, t);
    /* kept: this token's key and value, for every later token to read */
    float *K = c->k + (ptrdiff_t)l * C * G * d, *V = c->v + (ptrdiff_t)l * C * G * d;
    memcpy(K + (ptrdiff_t)t * G * d, k, (size_t)G * d * sizeof *k);
    memcpy(V + (ptrdiff_t)t * G * d, v, (size_t)G * d * sizeof *v);
    for (int h = 0; h < H; h++) {
        int g = net_kv_head(m, h);
        float *a = net_cache_attn(c, l, h) + (ptrdiff_t)t * C, *s = c->scores;
        gemm_f32(false, true, 1, t + 1, d, 1 / sqrtf((float)d), q + (ptrdiff_t)h * d, d,
                 K + (ptrdiff_t)g * d, G * d, 0, s, t + 1);
        float slope = m->alibi ? m->alibi[h] : 0;
        if (slope != 0)
            for (int j = 0; j <= t; j++) s[j] -= slope * (float)(t - j);
        softmax_row(s, t + 1, a);
        memset(a + t + 1, 0, (size_t)(C - t - 1) * sizeof *a);
        gemm_f32(false, false, 1, d, t + 1, 1, a, t + 1, V + (ptrdiff_t)g * d, G * d, 0,
                 c->mixed + (ptrdiff_t)h * d, H * d);
    }
    add_rows(x, 1, w, b->o_b);
    linear(m, c->mixed, 1, H * d, w, b->o_w, x, w);
    if (m->mlp == NET_MLP_NONE || !b->up_w) return;
    norm_rows(m->norm, x, 1, w, w, b->norm2_w, b->norm2_b, m->eps, c->normed);
    fill_rows(c->hidden, 1, inner, inner, b->up_b);
    if (m->mlp == NET_MLP_SWIGLU) fill_rows(c->gate, 1, inner, inner, NULL);
    add_rows(x, 1, w, b->down_b);
    linear(m, c->normed, 1, w, inner, b->up_w, c->hidden, inner);
    if (m->mlp == NET_MLP_SWIGLU) {
        linear(m, c->normed, 1, w, inner, b->gate_w, c->gate, inner);
        swiglu(c->hidden, c->gate, inner);
    } else {
        gelu(c->hidden, inner);
    }
    linear(m, c->hidden, 1, inner, w, b->down_w, x, w);
}

static bool finite(const float *v, int64_t count, int64_t *at) {
    for (int64_t i = 0; i < count; i++)
        if (!isfinite(v[i])) {
            *at = i;
            return false;
        }
    return true;
}

bool net_cache_begin(const Net_Model *m, Net_Cache *c, int32_t id) {
    int t = c->n, w = m->width;
    if (t >= c->cap || id < 0 || id >= m->vocab) return false;
    for (int j = 0; j < w; j++)
        c->x[j] = m->wte[(ptrdiff_t)id * w + j] + (m->wpe ? m->wpe[(ptrdiff_t)t * w + j] : 0);
    c->stage = 0;
    c->fault = (Net_Fault){0};
    return true;
}

bool net_cache_next(const Net_Model *m, Net_Cache *c) {
    int t = c->n, w = m->width;
    int64_t at;
    if (c->stage < 0) return true;
    if (c->stage < m->layers) {
        cached_layer(m, c, c->stage, t);
        if (!finite(c->x, w, &at)) {
            c->fault = (Net_Fault){.kind = NET_FAULT_STREAM,
                                   .layer = c->stage,
                                   .head = -1,
                                   .row = t,
                                   .col = (int)at,
                                   .value = c->x[at]};
            c->stage = -1;
            return true;
        }
        c->stage++;
        return false;
    }
    /* the logits, a slice of the vocabulary's rows at a time: each row's dot product is
     * the same whichever slice holds it */
    int rows = c->logit_rows > 0 ? c->logit_rows : m->vocab;
    int64_t first = (int64_t)(c->stage - m->layers) * rows;
    if (first == 0) norm_rows(m->norm, c->x, 1, w, w, m->normf_w, m->normf_b, m->eps, c->normed);
    if (first + rows > m->vocab) rows = (int)(m->vocab - first);
    gemm_f32(false, true, 1, rows, w, 1, c->normed, w, m->unembed + first * w, w, 0,
             c->logits + first, rows);
    if (first + rows < m->vocab) {
        c->stage++;
        return false;
    }
    c->stage = -1;
    if (!finite(c->logits, m->vocab, &at)) {
        c->fault = (Net_Fault){.kind = NET_FAULT_LOGIT,
                               .layer = m->layers,
                               .head = -1,
                               .row = t,
                               .col = (int)at,
                               .value = c->logits[at]};
        return true;
    }
    c->n = t + 1;
    return true;
}

bool net_cache_step(const Net_Model *m, Net_Cache *c, int32_t id) {
    int t = c->n;
    if (!net_cache_begin(m, c, id)) return false;
    while (!net_cache_next(m, c)) {
    }
    return c->n == t + 1;
}

void net_cache_keep(const Net_Model *m, Net_Cache *c, int layer, const float *qkv, int ld, int n) {
    int H = m->heads, G = kv_heads(m), d = head_dim(m), C = c->cap;
    float *K = c->k + (ptrdiff_t)layer * C * G * d, *V = c->v + (ptrdiff_t)layer * C * G * d;
    for (int i = 0; i < n && i < C; i++) {
        memcpy(K + (ptrdiff_t)i * G * d, qkv + (ptrdiff_t)i * ld + H * d,
               (size_t)G * d * sizeof *K);
        memcpy(V + (ptrdiff_t)i * G * d, qkv + (ptrdiff_t)i * ld + (H + G) * d,
               (size_t)G * d * sizeof *V);
    }
}

bool net_cache_prefill_finish(const Net_Model *m, Net_Cache *c, Net_Run *r) {
    int n = r->n, C = c->cap;
    r->keep = NULL;
    if (r->fault.kind != NET_FAULT_NONE) {
        c->fault = r->fault;
        return false;
    }
    for (int l = 0; l < m->layers; l++)
        for (int h = 0; h < m->heads; h++)
            for (int i = 0; i < n; i++) {
                float *row = net_cache_attn(c, l, h) + (ptrdiff_t)i * C;
                memcpy(row, net_attn(r, l, h) + (ptrdiff_t)i * n, (size_t)(i + 1) * sizeof *row);
                memset(row + i + 1, 0, (size_t)(C - i - 1) * sizeof *row);
            }
    memcpy(c->logits, r->logits, (size_t)m->vocab * sizeof *c->logits);
    c->n = n;
    c->stage = -1;
    return true;
}

bool net_cache_prefill(const Net_Model *m, Net_Cache *c, Net_Run *r, const int32_t *ids, int n) {
    if (n > c->cap || n < 1) return false;
    r->keep = c;
    net_forward(m, ids, n, r);
    return net_cache_prefill_finish(m, c, r);
}

/* The products of one layer's rows for `rows` tokens: q, k, v, W_O and the MLP. */
static int64_t row_madds(const Net_Model *m, int64_t rows) {
    int64_t w = m->width, d = head_dim(m), H = m->heads, G = kv_heads(m);
    int64_t mlp = m->mlp == NET_MLP_NONE ? 0 : (m->mlp == NET_MLP_SWIGLU ? 3 : 2) * w * m->inner;
    return rows * (w * (H + 2 * G) * d + H * d * w + mlp);
}

int64_t net_cache_step_madds(const Net_Model *m, int t) {
    int64_t keys = (int64_t)t + 1, d = head_dim(m);
    return m->layers * (row_madds(m, 1) + 2 * m->heads * keys * d) + (int64_t)m->width * m->vocab;
}

int64_t net_pass_madds(const Net_Model *m, int n) {
    int64_t N = n, d = head_dim(m);
    return m->layers * (row_madds(m, N) + 2 * m->heads * N * N * d) + (int64_t)m->width * m->vocab;
}

void net_cache_free(Net_Cache *c) {
    free(c->k);
    free(c->v);
    free(c->attn);
    free(c->x);
    free(c->normed);
    free(c->qkv);
    free(c->mixed);
    free(c->hidden);
    free(c->gate);
    free(c->scores);
    free(c->logits);
    free(c->rope);
    memset(c, 0, sizeof *c);
}

/* ---- the next token -------------------------------------------------------------- */

typedef struct Ranked {
    double p;
    int32_t id;
} Ranked;

/* The key that orders r likeliest first: p ≥ 0, so its IEEE bits order as p
 * does, and their complement the other way. */
static uint64_t likelier_key(const Ranked *r) {
    uint64_t bits;
    memcpy(&bits, &r->p, sizeof bits);
    return ~bits;
}

/* r sorted likeliest first, ties to the lower id (r comes in id order): a
 * stable radix sort on the key, a byte a pass, passing over a byte every key
 * shares. O(n), where qsort took 17 ms of a browser frame on GPT-2's 50,257
 * tokens. tmp has room for n. */
static void rank(Ranked *r, Ranked *tmp, int n) {
    Ranked *from = r, *to = tmp;
    for (int shift = 0; shift < 64; shift += 8) {
        size_t at[257] = {0};
        for (int i = 0; i < n; i++) at[((likelier_key(&from[i]) >> shift) & 0xFF) + 1]++;
        if (at[((likelier_key(&from[0]) >> shift) & 0xFF) + 1] == (size_t)n) continue;
        for (int b = 0; b < 256; b++) at[b + 1] += at[b];
        for (int i = 0; i < n; i++) to[at[(likelier_key(&from[i]) >> shift) & 0xFF]++] = from[i];
        Ranked *swap = from;
        from = to;
        to = swap;
    }
    if (from != r) memcpy(r, from, sizeof *r * (size_t)n);
}

double net_softmax_sum(const float *logits, int vocab, double T, double *max) {
    double mx = -INFINITY, sum = 0;
    for (int i = 0; i < vocab; i++)
        if (logits[i] > mx) mx = logits[i];
    for (int i = 0; i < vocab; i++) sum += exp((logits[i] - mx) / T);
    *max = mx;
    return sum;
}

double net_softmax_p(float logit, double max, double T, double sum) {
    return exp((logit - max) / T) / sum;
}

int net_choose(const float *logits, int vocab, const Net_Choice *how, Rng *rng, Net_Candidate *top,
               int top_max, int *top_count) {
    bool greedy = !(how->temperature > 0);
    double T = greedy ? 1 : how->temperature, max;
    Ranked *r = vocab > 0 ? malloc(sizeof *r * 2 * (size_t)vocab) : NULL;
    if (!r) return -1;
    double sum = net_softmax_sum(logits, vocab, T, &max);
    for (int i = 0; i < vocab; i++)
        r[i] = (Ranked){.p = net_softmax_p(logits[i], max, T, sum), .id = i};
    rank(r, r + vocab, vocab);
    int shown = top_max < vocab ? top_max : vocab;
    for (int k = 0; k < shown; k++) top[k] = (Net_Candidate){r[k].id, r[k].p};
    if (top_count) *top_count = shown;
    int32_t chosen = r[0].id; /* greedy: the likeliest, ties to the lower id */
    if (!greedy) {
        int keep = how->top_k > 0 && how->top_k < vocab ? how->top_k : vocab;
        double p = how->top_p > 0 && how->top_p < 1 ? how->top_p : 1, cum = 0;
        int cut = 0;
        while (cut < keep && (cut == 0 || cum < p)) cum += r[cut++].p;
        double u = rng_uniform(rng) * cum, walk = 0;
        chosen = r[cut - 1].id;
        for (int k = 0; k < cut; k++)
            if ((walk += r[k].p) > u) {
                chosen = r[k].id;
                break;
            }
    }
    free(r);
    return chosen;
}
