/* The explorer's heads on the layer stack; see attend.h. */
#include "attend.h"
#include "net_kernels.h"

#include <stdlib.h>
#include <string.h>

bool attn_reserve(Attn *attn, int n, int d, int d_k, int d_v) {
    long nd = (long)n * d, nk = (long)n * d_k, nv = (long)n * d_v, nn = (long)n * n;
    /* A capacity is raised only after every buffer of that shape has grown;
     * a failed realloc leaves the old buffers valid and the old capacity. */
    if (nd > attn->cap_nd) {
        if (!grow_floats(&attn->Xp, nd)) return false;
        attn->cap_nd = nd;
    }
    if (nk > attn->cap_nk) {
        if (!grow_floats(&attn->Q, nk) || !grow_floats(&attn->K, nk) ||
            !grow_floats(&attn->Qr, nk) || !grow_floats(&attn->Kr, nk))
            return false;
        attn->cap_nk = nk;
    }
    if (nv > attn->cap_nv) {
        if (!grow_floats(&attn->V, nv) || !grow_floats(&attn->O, nv)) return false;
        attn->cap_nv = nv;
    }
    if (nn > attn->cap_nn) {
        if (!grow_floats(&attn->S, nn) || !grow_floats(&attn->A, nn)) return false;
        attn->cap_nn = nn;
    }
    return true;
}

void attn_free(Attn *attn) {
    free(attn->Xp);
    free(attn->Q);
    free(attn->K);
    free(attn->V);
    free(attn->S);
    free(attn->A);
    free(attn->O);
    free(attn->Qr);
    free(attn->Kr);
    memset(attn, 0, sizeof *attn);
}

/* dest's columns col … col + w − 1 (ld apart) as rows of w, n of them, from src (lds apart). */
static void columns(const float *src, int lds, int n, int w, float *dest) {
    for (int i = 0; i < n; i++)
        memcpy(dest + (long)i * w, src + (long)i * lds, sizeof(float) * (size_t)w);
}

/* Room for the heads' weights and views, and the model the pass reads:
 * one layer of desc->heads heads over X as wte (ids 0 … n − 1) and P as wpe. */
static bool prepare(Attend *p, const Attend_Desc *desc) {
    int n = desc->n, d = desc->d, H = desc->heads, dk = desc->d_k, dv = desc->d_v;
    if (H > p->cap_heads) {
        Attn *more = realloc(p->head, sizeof *more * (size_t)H);
        float *slopes = realloc(p->alibi, sizeof *slopes * (size_t)H);
        if (more) p->head = more;
        if (slopes) p->alibi = slopes;
        if (!more || !slopes) return false;
        memset(p->head + p->cap_heads, 0, sizeof *more * (size_t)(H - p->cap_heads));
        p->cap_heads = H;
    }
    if (n > p->cap_ids) {
        int32_t *ids = realloc(p->ids, sizeof *ids * (size_t)n);
        if (!ids) return false;
        p->ids = ids;
        for (int i = 0; i < n; i++) p->ids[i] = i;
        p->cap_ids = n;
    }
    long qk = (long)d * H * dk, v = (long)d * H * dv;
    if (!grow_floats_to(&p->q_w, &p->cap_q, qk) || !grow_floats_to(&p->k_w, &p->cap_k, qk) ||
        !grow_floats_to(&p->v_w, &p->cap_v, v) ||
        !grow_floats_to(&p->concat, &p->cap_concat, (long)n * H * dv) ||
        !grow_floats_to(&p->Y, &p->cap_y, (long)n * d))
        return false;
    for (int h = 0; h < H; h++) {
        if (!attn_reserve(&p->head[h], n, d, dk, dv)) return false;
        for (int r = 0; r < d; r++) {
            memcpy(p->q_w + ((long)r * H + h) * dk, desc->W_Q[h] + (long)r * dk,
                   sizeof(float) * (size_t)dk);
            memcpy(p->k_w + ((long)r * H + h) * dk, desc->W_K[h] + (long)r * dk,
                   sizeof(float) * (size_t)dk);
            memcpy(p->v_w + ((long)r * H + h) * dv, desc->W_V[h] + (long)r * dv,
                   sizeof(float) * (size_t)dv);
        }
        if (desc->alibi) p->alibi[h] = (float)desc->alibi[h];
    }
    p->block = (Net_Block){.q_w = p->q_w, .k_w = p->k_w, .v_w = p->v_w};
    p->model = (Net_Model){.layers = 1,
                           .heads = H,
                           .kv_heads = H,
                           .head_dim = dk,
                           .value_dim = dv,
                           .width = d,
                           .positions = n,
                           .vocab = n,
                           .norm = NET_NORM_NONE,
                           .mlp = NET_MLP_NONE,
                           .layout = NET_LAYOUT_IN_OUT,
                           .unscaled = !desc->scaled,
                           .unmasked = !desc->causal,
                           .exact = true,
                           .rope_theta = desc->rope ? desc->rope_base : 0,
                           .rope_pairs = NET_ROPE_ADJACENT,
                           .rope_offset = desc->pos_offset,
                           .alibi = desc->alibi ? p->alibi : NULL,
                           .wte = desc->X,
                           .wpe = desc->P,
                           .blocks = &p->block};
    return net_reserve(&p->run, &p->model, n);
}

/* Each head's matrices from the pass, and Y. */
static void lay_out(Attend *p, const Attend_Desc *desc) {
    const Net_Model *m = &p->model;
    Net_Run *r = &p->run;
    int n = desc->n, d = desc->d, H = desc->heads, dk = desc->d_k, dv = desc->d_v;
    int ld = qkv_width(m);
    long nn = (long)n * n;
    for (int h = 0; h < H; h++) {
        Attn *a = &p->head[h];
        *a = (Attn){.n = n,
                    .d = d,
                    .d_k = dk,
                    .d_v = dv,
                    .scaled = desc->scaled,
                    .causal = desc->causal,
                    .Xp = a->Xp,
                    .Q = a->Q,
                    .K = a->K,
                    .V = a->V,
                    .S = a->S,
                    .A = a->A,
                    .O = a->O,
                    .Qr = a->Qr,
                    .Kr = a->Kr,
                    .cap_nd = a->cap_nd,
                    .cap_nk = a->cap_nk,
                    .cap_nv = a->cap_nv,
                    .cap_nn = a->cap_nn};
        memcpy(a->Xp, r->stream, sizeof(float) * (size_t)n * d);
        columns(r->qkv + (long)h * dk, ld, n, dk, a->Qr);
        columns(r->qkv + (long)(H + h) * dk, ld, n, dk, a->Kr);
        columns(r->qkv + (long)2 * H * dk + (long)h * dv, ld, n, dv, a->V);
        if (desc->rope) {
            net_head_unturned(m, r, 0, h, a->Q, a->K);
        } else {
            memcpy(a->Q, a->Qr, sizeof(float) * (size_t)n * dk);
            memcpy(a->K, a->Kr, sizeof(float) * (size_t)n * dk);
        }
        memcpy(a->S, net_scores(r, 0, h), sizeof(float) * (size_t)nn);
        memcpy(a->A, net_attn(r, 0, h), sizeof(float) * (size_t)nn);
        columns(r->mixed + (long)h * dv, H * dv, n, dv, a->O);
    }
    memcpy(p->concat, r->mixed, sizeof(float) * (size_t)n * H * dv);
    /* Y = concat·W_O, the product a block's W_O makes, kept apart from the stream */
    if (desc->W_O)
        product(m, false, false, n, d, H * dv, 1, p->concat, H * dv, desc->W_O, d, 0, p->Y, d);
}

bool attend_compute(Attend *p, const Attend_Desc *desc) {
    if (!prepare(p, desc)) return false;
    net_forward(&p->model, p->ids, desc->n, &p->run);
    lay_out(p, desc);
    return true;
}

bool attend_update_row(Attend *p, const Attend_Desc *desc, int i) {
    if (!prepare(p, desc)) return false;
    net_update_row(&p->model, p->ids, &p->run, i);
    lay_out(p, desc);
    return true;
}

void attend_free(Attend *p) {
    for (int h = 0; h < p->cap_heads; h++) attn_free(&p->head[h]);
    free(p->head);
    free(p->alibi);
    free(p->ids);
    free(p->q_w);
    free(p->k_w);
    free(p->v_w);
    free(p->concat);
    free(p->Y);
    net_free(&p->run);
    memset(p, 0, sizeof *p);
}
