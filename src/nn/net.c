/* The forward pass of an attention stack in float32; see net.h. */
#include "net.h"
#include "net_cache.h"
#include "net_kernels.h"
#include "../core/clock.h"
#include "../core/gemm.h"
#include "../core/i18n.h"
#include "../core/posenc.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Timing of the parts when profiling: mark() closes the part running since
 * the last mark. */
static void mark(Net_Run *r, Net_Part part, double *since) {
    if (!r->profile) return;
    double t = clock_ms();
    r->ms[part] += t - *since;
    *since = t;
}

int net_kv_head(const Net_Model *m, int head) {
    return head / (m->heads / kv_heads(m));
}

int64_t net_store_bytes(const Net_Model *m, int n) {
    return (int64_t)2 * (int64_t)sizeof(float) * m->layers * m->heads * (int64_t)n * n;
}

bool net_store_fits(const Net_Model *m, int n, char *err, size_t errsz) {
    int64_t need = net_store_bytes(m, n);
    if (need <= NET_STORE_BUDGET) return true;
    snprintf(err, errsz,
             _("%d tokens are too many for this model: every head's scores and weights (%d layers "
               "× %d heads × %d² cells, twice) would take %lld MB, more than the %lld MB kept; "
               "give a shorter text"),
             n, m->layers, m->heads, n, (long long)(need >> 20),
             (long long)(NET_STORE_BUDGET >> 20));
    return false;
}

bool net_reserve(Net_Run *r, const Net_Model *m, int n) {
    if (net_store_bytes(m, n) > NET_STORE_BUDGET) return false;
    int qkv = qkv_width(m), mixed = mixed_width(m), dim = head_dim(m);
    if (n <= r->cap_n && m->layers <= r->cap_layers && m->heads <= r->cap_heads &&
        m->width <= r->cap_width && m->inner <= r->cap_inner && m->vocab <= r->cap_vocab &&
        qkv <= r->cap_qkv && mixed <= r->cap_mixed && dim <= r->cap_dim)
        return true;
    int64_t N = n, L = m->layers, H = m->heads, W = m->width;
    int64_t I = m->inner > 0 ? m->inner : 1;
    if (!grow_floats(&r->stream, (L + 1) * N * W) || !grow_floats(&r->mid, L * N * W) ||
        !grow_floats(&r->scores, L * H * N * N) || !grow_floats(&r->attn, L * H * N * N) ||
        !grow_floats(&r->logits, m->vocab) || !grow_floats(&r->normed, N * W) ||
        !grow_floats(&r->qkv, N * qkv) || !grow_floats(&r->mixed, N * mixed) ||
        !grow_floats(&r->hidden, N * I) ||
        !grow_floats(&r->gate, m->mlp == NET_MLP_SWIGLU ? N * I : 1) ||
        !grow_floats(&r->rope, N * dim) || !grow_floats(&r->turn_moved, L * H) ||
        !grow_floats(&r->unturned, 2 * N * dim + N * N))
        return false;
    r->cap_n = n;
    r->cap_layers = m->layers;
    r->cap_heads = m->heads;
    r->cap_width = m->width;
    r->cap_inner = m->inner;
    r->cap_vocab = m->vocab;
    r->cap_qkv = qkv;
    r->cap_mixed = mixed;
    r->cap_dim = dim;
    r->rope_rows = 0; /* a new table: filled again when a pass needs it */
    return true;
}

void net_free(Net_Run *r) {
    free(r->stream);
    free(r->mid);
    free(r->scores);
    free(r->attn);
    free(r->logits);
    free(r->normed);
    free(r->qkv);
    free(r->mixed);
    free(r->hidden);
    free(r->gate);
    free(r->rope);
    free(r->turn_moved);
    free(r->unturned);
    memset(r, 0, sizeof *r);
}

float *net_scores(const Net_Run *r, int layer, int head) {
    return r->scores + ((ptrdiff_t)layer * r->heads + head) * r->n * r->n;
}

float *net_attn(const Net_Run *r, int layer, int head) {
    return r->attn + ((ptrdiff_t)layer * r->heads + head) * r->n * r->n;
}

static void norm(const Net_Model *m, const float *x, int count, const float *g, const float *b,
                 float *dest) {
    norm_rows(m->norm, x, count, m->width, m->width, g, b, m->eps, dest);
}

/* The scale of the scores: 1/√d, or 1 unscaled. */
static float score_scale(const Net_Model *m) {
    return m->unscaled ? 1.0f : 1 / sqrtf((float)head_dim(m));
}

/* Head h's q, k and v columns in r->qkv (rows qkv_width apart). */
static const float *head_q(const Net_Model *m, const Net_Run *r, int h) {
    return r->qkv + (ptrdiff_t)h * head_dim(m);
}
static const float *head_k(const Net_Model *m, const Net_Run *r, int h) {
    return r->qkv + (ptrdiff_t)(m->heads + net_kv_head(m, h)) * head_dim(m);
}
static const float *head_v(const Net_Model *m, const Net_Run *r, int h) {
    int d = head_dim(m), G = kv_heads(m);
    return r->qkv + (ptrdiff_t)(m->heads + G) * d + (ptrdiff_t)net_kv_head(m, h) * value_dim(m);
}

/* Head h's ALiBi slope, or 0. */
static float alibi_slope(const Net_Model *m, int h) {
    return m->alibi ? m->alibi[h] : 0;
}

/* A·V of head h into its d_v columns of mixed. */
static void head_mix(const Net_Model *m, Net_Run *r, int h, const float *A) {
    int n = r->n, dv = value_dim(m);
    product(m, false, false, n, dv, n, 1, A, n, head_v(m, r, h), qkv_width(m), 0,
            r->mixed + (ptrdiff_t)h * dv, m->heads * dv);
}

/* One head: S = Q Kᵀ/√d (with ALiBi and the mask: score_rule), A its
 * row softmax, and A V into its d_v columns of mixed. */
static void head(const Net_Model *m, Net_Run *r, int h, float *S, float *A, double *since) {
    int n = r->n, d = head_dim(m), ld = qkv_width(m);
    product(m, false, true, n, n, d, score_scale(m), head_q(m, r, h), ld, head_k(m, r, h), ld, 0, S,
            n);
    mark(r, NET_PART_PRODUCTS, since);
    score_rule(S, n, n, m->unmasked, alibi_slope(m, h)); /* a row at a time: it vectorises */
    weights_rows(S, n, m->unmasked, A);
    mark(r, NET_PART_SOFTMAX, since);
    head_mix(m, r, h, A);
    mark(r, NET_PART_PRODUCTS, since);
}

/* The cos and sin of every pair's angle at rows rope_offset … + rows − 1,
 * as Hugging Face computes them: the frequency and the angle in float32, then
 * their cos and sin. Kept while the model's RoPE and the rows are the same.
 * Adjacent pairs need no table: posenc.c turns them. */
static void rope_table(const Net_Model *m, Net_Run *r, int rows) {
    if (m->rope_pairs == NET_ROPE_ADJACENT) return;
    if (r->rope_rows >= rows && r->rope_for == m->rope_theta && r->rope_freq_for == m->rope_freq &&
        r->rope_offset_for == m->rope_offset)
        return;
    rows = r->cap_n;
    rope_angles(m, m->rope_offset, rows, r->rope);
    r->rope_rows = rows;
    r->rope_for = m->rope_theta;
    r->rope_freq_for = m->rope_freq;
    r->rope_offset_for = m->rope_offset;
}

/* v (d wide) turned by RoPE as token i, into out (which may be v); back:
 * turned by minus the angle, RoPE's inverse. */
static void turn(const Net_Model *m, const Net_Run *r, const float *v, int i, bool back,
                 float *out) {
    int d = head_dim(m);
    if (m->rope_pairs == NET_ROPE_ADJACENT) {
        int p = m->rope_offset + i;
        posenc_rope_row(v, d, back ? -p : p, m->rope_theta, out);
        return;
    }
    turn_halves(v, r->rope + (ptrdiff_t)i * d, d, back ? -1.0f : 1.0f, out);
}

/* count heads of d columns each, of n rows ld apart (tokens first … first + n − 1): each
 * head's RMSNorm (when g is given), then RoPE's turn by the row's position. */
static void norm_and_turn(const Net_Model *m, Net_Run *r, float *x, int first, int n, int ld,
                          int count, const float *g, bool turned) {
    int d = head_dim(m);
    for (int i = 0; i < n; i++)
        for (int h = 0; h < count; h++) {
            float *v = x + (ptrdiff_t)i * ld + (ptrdiff_t)h * d;
            if (g) norm_rows(NET_NORM_RMS, v, 1, d, d, g, NULL, m->eps, v);
            if (m->rope_theta > 0 && turned) turn(m, r, v, first + i, false, v);
        }
}

/* Rows first … first + n − 1 of r->qkv from the same rows of r->normed: the
 * projections, biases, each head's norm and RoPE's turn. */
static void project_rows(const Net_Model *m, const Net_Block *b, Net_Run *r, int first, int n,
                         double *since) {
    int w = m->width, d = head_dim(m), dv = value_dim(m), H = m->heads, G = kv_heads(m);
    int ld = qkv_width(m);
    float *q = r->qkv + (ptrdiff_t)first * ld, *k = q + (ptrdiff_t)H * d, *v = k + (ptrdiff_t)G * d;
    const float *x = r->normed + (ptrdiff_t)first * w;
    fill_rows(q, n, H * d, ld, b->q_b);
    fill_rows(k, n, G * d, ld, b->k_b);
    fill_rows(v, n, G * dv, ld, b->v_b);
    mark(r, NET_PART_OTHER, since);
    if (b->qkv_w) { /* one product for all three (GPT-2's Conv1D) */
        product(m, false, false, n, ld, w, 1, x, w, b->qkv_w, ld, 1, q, ld);
    } else {
        linear(m, x, n, w, H * d, b->q_w, q, ld);
        linear(m, x, n, w, G * d, b->k_w, k, ld);
        linear(m, x, n, w, G * dv, b->v_w, v, ld);
    }
    mark(r, NET_PART_PRODUCTS, since);
    if (b->q_norm || b->k_norm || m->rope_theta > 0) {
        norm_and_turn(m, r, q, first, n, ld, H, b->q_norm, true);
        norm_and_turn(m, r, k, first, n, ld, G, b->k_norm, true);
        mark(r, NET_PART_OTHER, since);
    }
}

/* r->qkv for the n rows of r->normed. */
static void project_qkv(const Net_Model *m, const Net_Block *b, Net_Run *r, double *since) {
    project_rows(m, b, r, 0, r->n, since);
}

/* The first value of count that is not finite, or -1. */
static int64_t first_nonfinite(const float *v, int64_t count) {
    for (int64_t i = 0; i < count; i++)
        if (!isfinite(v[i])) return i;
    return -1;
}

static bool fault_at(Net_Run *r, Net_Fault_Kind kind, int layer, int head, const float *v,
                     int64_t count, int cols) {
    int64_t at = first_nonfinite(v, count);
    if (at < 0) return false;
    r->fault = (Net_Fault){kind, layer, head, (int)(at / cols), (int)(at % cols), v[at]};
    return true;
}

/* After layer l: its scores where the mask keeps them, then its output. */
static bool layer_faulted(const Net_Model *m, int l, Net_Run *r) {
    int n = r->n, w = m->width;
    for (int h = 0; h < m->heads; h++) {
        const float *S = net_scores(r, l, h);
        for (int i = 0; i < n; i++)
            if (fault_at(r, NET_FAULT_SCORE, l, h, S + (ptrdiff_t)i * n, m->unmasked ? n : i + 1,
                         n)) {
                r->fault.row = i;
                return true;
            }
    }
    return fault_at(r, NET_FAULT_STREAM, l, -1, r->stream + (ptrdiff_t)(l + 1) * n * w,
                    (int64_t)n * w, w);
}

void net_fault_text(const Net_Run *r, char *buf, size_t size) {
    const Net_Fault *f = &r->fault;
    double v = f->value;
    switch (f->kind) {
    case NET_FAULT_NONE:
        snprintf(buf, size, "%s", "");
        return;
    case NET_FAULT_EMBED:
        snprintf(buf, size, _("the embedding of token %d, channel %d, is %g"), f->row, f->col, v);
        return;
    case NET_FAULT_SCORE:
        snprintf(buf, size, _("layer %d, head %d: the score of row %d, column %d is %g"), f->layer,
                 f->head, f->row, f->col, v);
        return;
    case NET_FAULT_STREAM:
        snprintf(buf, size, _("layer %d: its output for token %d, channel %d, is %g"), f->layer,
                 f->row, f->col, v);
        return;
    case NET_FAULT_LOGIT:
        snprintf(buf, size, _("the logit of token id %d is %g"), f->col, v);
        return;
    }
}

void net_begin(const Net_Model *m, const int32_t *ids, int n, Net_Run *r) {
    int w = m->width;
    double since = r->profile ? clock_ms() : 0;
    r->n = n;
    r->heads = m->heads;
    r->stage = 0;
    r->logit_at = 0;
    r->in_mlp = false;
    float *x = r->stream;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < w; j++)
            x[(ptrdiff_t)i * w + j] =
                m->wte[(ptrdiff_t)ids[i] * w + j] + (m->wpe ? m->wpe[(ptrdiff_t)i * w + j] : 0);
    r->fault = (Net_Fault){0};
    if (fault_at(r, NET_FAULT_EMBED, 0, -1, x, (int64_t)n * w, w)) r->stage = m->layers + 1;
    if (m->rope_theta > 0) rope_table(m, r, n);
    mark(r, NET_PART_EMBED, &since);
}

/* Rows of a head's q or k (ld apart), turned back by each row's angle into
 * out (d apart): RoPE's turn is a rotation, so its inverse is the turn by
 * minus the angle. */
static void turn_back(const Net_Model *m, const Net_Run *r, const float *x, int ld, float *out) {
    int d = head_dim(m);
    for (int i = 0; i < r->n; i++)
        turn(m, r, x + (ptrdiff_t)i * ld, i, true, out + (ptrdiff_t)i * d);
}

/* Head h's weights A0 (n×n, which may be S) from q0 and k0 (n×d each, not
 * turned), by the pass's own scale, mask and softmax, S their scores; and
 * the share of weight the turn moves: half of Σ_j |a_ij − a0_ij| a row
 * against the head's A, the mean over rows 1 … n − 1. */
static float unturned_share(const Net_Model *m, int n, int h, const float *q0, const float *k0,
                            const float *A, float *S, float *A0) {
    int d = head_dim(m);
    product(m, false, true, n, n, d, score_scale(m), q0, d, k0, d, 0, S, n);
    score_rule(S, n, n, m->unmasked, alibi_slope(m, h));
    weights_rows(S, n, m->unmasked, A0);
    if (n < 2) return 0;
    double moved = 0;
    for (int i = 1; i < n; i++) {
        double apart = 0;
        for (int j = 0; j < n; j++)
            apart += fabs((double)A[(ptrdiff_t)i * n + j] - A0[(ptrdiff_t)i * n + j]);
        moved += apart / 2;
    }
    return (float)(moved / (n - 1));
}

/* The share of head h's weight (layer l, its A just made) that RoPE's turn
 * moves, from the same q and k turned back. */
static float turn_moved(const Net_Model *m, Net_Run *r, int l, int h) {
    int n = r->n, d = head_dim(m), ld = qkv_width(m), g = net_kv_head(m, h);
    float *q0 = r->unturned, *k0 = q0 + (ptrdiff_t)n * d, *S = k0 + (ptrdiff_t)n * d;
    turn_back(m, r, r->qkv + (ptrdiff_t)h * d, ld, q0);
    turn_back(m, r, r->qkv + (ptrdiff_t)(m->heads + g) * d, ld, k0);
    return unturned_share(m, n, h, q0, k0, net_attn(r, l, h), S, S);
}

/* Layer l's attention (part 0) or its MLP (part 1): stream l into stream
 * l + 1 and mid. */
/* x' of layer l from x_l and the heads' outputs in r->mixed: x_l + b_O +
 * mixed·W_O into stream l + 1, and a copy in mid. */
static void add_heads(const Net_Model *m, int l, Net_Run *r, double *since) {
    int n = r->n, w = m->width;
    const Net_Block *b = &m->blocks[l];
    float *x = r->stream + (ptrdiff_t)l * n * w, *next = x + (ptrdiff_t)n * w;
    memcpy(next, x, (size_t)n * w * sizeof *x);
    add_rows(next, n, w, b->o_b);
    mark(r, NET_PART_OTHER, since);
    if (b->o_w) linear(m, r->mixed, n, m->heads * value_dim(m), w, b->o_w, next, w);
    mark(r, NET_PART_PRODUCTS, since);
    memcpy(r->mid + (ptrdiff_t)l * n * w, next, (size_t)n * w * sizeof *next);
    mark(r, NET_PART_OTHER, since);
}

static void layer(const Net_Model *m, int l, int part, Net_Run *r, double *since) {
    int n = r->n, w = m->width, H = m->heads, inner = m->inner;
    const Net_Block *b = &m->blocks[l];
    float *x = r->stream + (ptrdiff_t)l * n * w, *next = x + (ptrdiff_t)n * w;
    if (part == 1) goto mlp;
    /* attention */
    norm(m, x, n, b->norm1_w, b->norm1_b, r->normed);
    mark(r, NET_PART_NORM, since);
    project_qkv(m, b, r, since);
    if (r->keep) net_cache_keep(m, r->keep, l, r->qkv, qkv_width(m), n);
    for (int h = 0; h < H; h++) head(m, r, h, net_scores(r, l, h), net_attn(r, l, h), since);
    for (int h = 0; h < H; h++)
        r->turn_moved[l * H + h] = r->want_turn && m->rope_theta > 0 ? turn_moved(m, r, l, h) : NAN;
    if (r->want_turn) mark(r, NET_PART_OTHER, since);
    add_heads(m, l, r, since);
    if (part == 0) return;
mlp:
    if (m->mlp == NET_MLP_NONE || !b->up_w) return;
    /* MLP */
    norm(m, next, n, b->norm2_w, b->norm2_b, r->normed);
    mark(r, NET_PART_NORM, since);
    fill_rows(r->hidden, n, inner, inner, b->up_b);
    if (m->mlp == NET_MLP_SWIGLU) fill_rows(r->gate, n, inner, inner, NULL);
    add_rows(next, n, w, b->down_b);
    mark(r, NET_PART_OTHER, since);
    linear(m, r->normed, n, w, inner, b->up_w, r->hidden, inner);
    if (m->mlp == NET_MLP_SWIGLU) linear(m, r->normed, n, w, inner, b->gate_w, r->gate, inner);
    mark(r, NET_PART_PRODUCTS, since);
    if (m->mlp == NET_MLP_SWIGLU)
        swiglu(r->hidden, r->gate, (int64_t)n * inner);
    else
        gelu(r->hidden, (int64_t)n * inner);
    mark(r, NET_PART_GELU, since);
    linear(m, r->hidden, n, inner, w, b->down_w, next, w);
    mark(r, NET_PART_PRODUCTS, since);
}

bool net_step(const Net_Model *m, Net_Run *r) {
    if (r->stage > m->layers) return true;
    double since = r->profile ? clock_ms() : 0;
    if (r->stage < m->layers) {
        const Net_Block *b = &m->blocks[r->stage];
        bool mlp = m->mlp != NET_MLP_NONE && b->up_w;
        if (r->halves && mlp && !r->in_mlp) { /* a sliced pass: the attention now, the MLP next */
            layer(m, r->stage, 0, r, &since);
            r->in_mlp = true;
            return false;
        }
        if (!r->in_mlp) layer(m, r->stage, 0, r, &since);
        layer(m, r->stage, 1, r, &since);
        r->in_mlp = false;
        if (layer_faulted(m, r->stage, r)) {
            r->stage = m->layers + 1; /* the pass ends here: r->fault says why */
            return true;
        }
    } else if (m->unembed) {
        /* the last position's logits, a slice of the vocabulary's rows a step: each row's
         * dot product is the same whichever slice holds it */
        int n = r->n, w = m->width, rows = r->logit_rows > 0 ? r->logit_rows : m->vocab;
        int64_t first = r->logit_at;
        if (first == 0) {
            const float *x = r->stream + ((ptrdiff_t)m->layers * n + n - 1) * w;
            norm(m, x, 1, m->normf_w, m->normf_b, r->normed);
            mark(r, NET_PART_NORM, &since);
        }
        if (first + rows > m->vocab) rows = (int)(m->vocab - first);
        product(m, false, true, 1, rows, w, 1, r->normed, w, m->unembed + first * w, w, 0,
                r->logits + first, rows);
        mark(r, NET_PART_PRODUCTS, &since);
        r->logit_at = (int)(first + rows);
        if (r->logit_at < m->vocab) return false;
        r->logit_at = 0;
        fault_at(r, NET_FAULT_LOGIT, m->layers, -1, r->logits, m->vocab, m->vocab);
    }
    r->stage++;
    return r->stage > m->layers;
}

void net_update_row(const Net_Model *m, const int32_t *ids, Net_Run *r, int i) {
    int n = r->n, w = m->width, d = head_dim(m), ld = qkv_width(m);
    const Net_Block *b = &m->blocks[0];
    double since = r->profile ? clock_ms() : 0;
    float *x = r->stream + (ptrdiff_t)i * w;
    for (int j = 0; j < w; j++)
        x[j] = m->wte[(ptrdiff_t)ids[i] * w + j] + (m->wpe ? m->wpe[(ptrdiff_t)i * w + j] : 0);
    r->fault = (Net_Fault){0};
    r->stage = 0;
    r->logit_at = 0;
    r->in_mlp = false;
    if (fault_at(r, NET_FAULT_EMBED, 0, -1, r->stream, (int64_t)n * w, w)) {
        r->stage = m->layers + 1;
        return;
    }
    mark(r, NET_PART_EMBED, &since);
    norm(m, x, 1, b->norm1_w, b->norm1_b, r->normed + (ptrdiff_t)i * w);
    mark(r, NET_PART_NORM, &since);
    project_rows(m, b, r, i, 1, &since);
    for (int h = 0; h < m->heads; h++) {
        float *S = net_scores(r, 0, h), *A = net_attn(r, 0, h);
        const float *q = head_q(m, r, h), *k = head_k(m, r, h);
        /* column i (every query against key i), then row i: each cell the dot product the
         * whole pass's product makes */
        product(m, false, true, n, 1, d, score_scale(m), q, ld, k + (ptrdiff_t)i * ld, ld, 0, S + i,
                n);
        product(m, false, true, 1, n, d, score_scale(m), q + (ptrdiff_t)i * ld, ld, k, ld, 0,
                S + (ptrdiff_t)i * n, n);
        mark(r, NET_PART_PRODUCTS, &since);
        for (int j = 0; j < n; j++) {
            float *row = &S[(ptrdiff_t)i * n + j], *col = &S[(ptrdiff_t)j * n + i];
            *row = score_at(*row, i, j, m->unmasked, alibi_slope(m, h));
            if (j != i) *col = score_at(*col, j, i, m->unmasked, alibi_slope(m, h));
        }
        weights_rows(S, n, m->unmasked, A);
        mark(r, NET_PART_SOFTMAX, &since);
        head_mix(m, r, h, A);
        mark(r, NET_PART_PRODUCTS, &since);
        r->turn_moved[h] = r->want_turn && m->rope_theta > 0 ? turn_moved(m, r, 0, h) : NAN;
    }
    add_heads(m, 0, r, &since);
    layer(m, 0, 1, r, &since);
    if (layer_faulted(m, 0, r)) {
        r->stage = m->layers + 1;
        return;
    }
    r->stage = 1;
    while (!net_step(m, r)) {
    }
}

int net_slice_rows(const Net_Model *m) {
    return NET_SLICE_MADDS / m->width > 0 ? NET_SLICE_MADDS / m->width : 1;
}

void net_forward(const Net_Model *m, const int32_t *ids, int n, Net_Run *r) {
    net_begin(m, ids, n, r);
    while (!net_step(m, r)) {
    }
}

/* A head's q, k (normed, and turned when `turn`) and v (when V is given) rows,
 * n×d each, from the stream its layer read: only this head's columns. */
static void head_rows(const Net_Model *m, Net_Run *r, int layer, int head, float *Q, float *K,
                      float *V, bool turn) {
    int n = r->n, w = m->width, d = head_dim(m), dv = value_dim(m), H = m->heads, G = kv_heads(m);
    int ld = qkv_width(m), g = net_kv_head(m, head);
    const Net_Block *b = &m->blocks[layer];
    const float *x = r->stream + (ptrdiff_t)layer * n * w;
    norm(m, x, n, b->norm1_w, b->norm1_b, r->normed);
    const float *bias[3] = {b->q_b, b->k_b, b->v_b}, *W[3] = {b->q_w, b->k_w, b->v_w};
    const float *head_norm[3] = {b->q_norm, b->k_norm, NULL};
    int own[3] = {head, g, g}, count[3] = {H, G, G}, start[3] = {0, H * d, (H + G) * d};
    int wide[3] = {d, d, dv};
    float *dest[3] = {Q, K, V};
    for (int part = 0; part < 3 && dest[part]; part++) {
        int e = wide[part], col = own[part] * e;
        fill_rows(dest[part], n, e, e, bias[part] ? bias[part] + col : NULL);
        if (b->qkv_w)
            product(m, false, false, n, e, w, 1, r->normed, w, b->qkv_w + start[part] + col, ld, 1,
                    dest[part], e);
        else if (m->layout == NET_LAYOUT_OUT_IN)
            product(m, false, true, n, e, w, 1, r->normed, w, W[part] + (ptrdiff_t)col * w, w, 1,
                    dest[part], e);
        else
            product(m, false, false, n, e, w, 1, r->normed, w, W[part] + col, count[part] * e, 1,
                    dest[part], e);
        if (part < 2 && (head_norm[part] || (turn && m->rope_theta > 0)))
            norm_and_turn(m, r, dest[part], 0, n, d, 1, head_norm[part], turn);
    }
}

void net_head_unturned(const Net_Model *m, Net_Run *r, int layer, int head, float *Q, float *K) {
    head_rows(m, r, layer, head, Q, K, NULL, false);
}

float net_head_turn_share(const Net_Model *m, Net_Run *r, int layer, int head, float *A0) {
    int n = r->n, d = head_dim(m);
    float *q0 = r->unturned, *k0 = q0 + (ptrdiff_t)n * d, *S = k0 + (ptrdiff_t)n * d;
    head_rows(m, r, layer, head, q0, k0, NULL, false);
    return unturned_share(m, n, head, q0, k0, net_attn(r, layer, head), S, A0);
}

void net_head_vectors(const Net_Model *m, Net_Run *r, int layer, int head, float *Q, float *K,
                      float *V, float *out_norm) {
    int n = r->n, w = m->width, d = value_dim(m), H = m->heads;
    const Net_Block *b = &m->blocks[layer];
    head_rows(m, r, layer, head, Q, K, V, true);
    if (!b->o_w) { /* the head's output is not added to the stream */
        memset(out_norm, 0, (size_t)n * sizeof *out_norm);
        return;
    }
    /* v_j W_O^h, row by row, then each row's length */
    if (m->layout == NET_LAYOUT_OUT_IN)
        product(m, false, true, n, w, d, 1, V, d, b->o_w + (ptrdiff_t)head * d, H * d, 0, r->mixed,
                w);
    else
        product(m, false, false, n, w, d, 1, V, d, b->o_w + (ptrdiff_t)head * d * w, w, 0, r->mixed,
                w);
    for (int j = 0; j < n; j++) {
        double sum = 0;
        for (int c = 0; c < w; c++) {
            double v = r->mixed[(ptrdiff_t)j * w + c];
            sum += v * v;
        }
        out_norm[j] = (float)sqrt(sum);
    }
}

void net_products(const Net_Model *m, int n, Net_Run *r) {
    int w = m->width, H = m->heads, G = kv_heads(m), d = head_dim(m), dv = value_dim(m);
    int inner = m->inner, ld = qkv_width(m);
    r->n = n;
    r->heads = H;
    for (int l = 0; l < m->layers; l++) {
        const Net_Block *b = &m->blocks[l];
        float *next = r->stream + (ptrdiff_t)(l + 1) * n * w;
        if (b->qkv_w) {
            product(m, false, false, n, ld, w, 1, r->normed, w, b->qkv_w, ld, 1, r->qkv, ld);
        } else {
            linear(m, r->normed, n, w, H * d, b->q_w, r->qkv, ld);
            linear(m, r->normed, n, w, G * d, b->k_w, r->qkv + (ptrdiff_t)H * d, ld);
            linear(m, r->normed, n, w, G * dv, b->v_w, r->qkv + (ptrdiff_t)(H + G) * d, ld);
        }
        for (int h = 0; h < H; h++) {
            product(m, false, true, n, n, d, score_scale(m), head_q(m, r, h), ld, head_k(m, r, h),
                    ld, 0, net_scores(r, l, h), n);
            head_mix(m, r, h, net_attn(r, l, h));
        }
        if (b->o_w) linear(m, r->mixed, n, H * dv, w, b->o_w, next, w);
        if (m->mlp != NET_MLP_NONE && b->up_w) {
            linear(m, r->normed, n, w, inner, b->up_w, r->hidden, inner);
            if (m->mlp == NET_MLP_SWIGLU)
                linear(m, r->normed, n, w, inner, b->gate_w, r->gate, inner);
            linear(m, r->hidden, n, inner, w, b->down_w, next, w);
        }
    }
    if (m->unembed)
        product(m, false, true, 1, m->vocab, w, 1, r->normed, w, m->unembed, w, 0, r->logits,
                m->vocab);
}
