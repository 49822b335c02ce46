/* The shift lab's data; see shift.h. */
#include "shift.h"
#include "../core/grow.h"

#include "settings.h"

#include "../core/matrix.h"
#include "../core/posenc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint64_t mix(uint64_t h, const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t k = 0; k < n; k++) h = (h ^ b[k]) * 0x100000001b3ull;
    return h;
}

static uint64_t shift_key(const Scene *s, int query, int key) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (int k = 0; k < SET_COUNT; k++) {
        double v = setting_get(s, (Setting_Id)k);
        h = mix(h, &v, sizeof v);
    }
    h = mix(h, &s->n, sizeof s->n);
    h = mix(h, &query, sizeof query);
    h = mix(h, &key, sizeof key);
    h = mix(h, s->origin, sizeof(int) * (size_t)s->n);
    return mix(h, s->X, sizeof(float) * (size_t)s->n * s->d);
}

/* The added term of an added scheme at positions offset … offset + n − 1. */
static void added_rows(const Scene *s, Pos_Mode mode, int offset, int n, float *P) {
    if (mode == POS_LEARNED)
        posenc_learned(s->seed, offset, n, s->d, s->pos_strength, P);
    else
        posenc_sinusoidal(offset, n, s->d, s->pos_strength, P);
}

/* Head 1 of the scene under another scheme and offset, over rows X: the
 * explorer's pass with that one head (a->head[0]). */
static bool attend(Lab_Shift *sh, Attend *a, const Scene *s, const Derived *dv, Pos_Mode mode,
                   int offset, const float *X) {
    bool added = pos_mode_added(mode);
    if (added) added_rows(s, mode, offset, s->n, sh->P);
    int H = s->heads < 1 ? 1 : s->heads;
    const float *wq = dv->W_Q, *wk = dv->W_K, *wv = dv->W_V;
    double slope = posenc_alibi_slope(1, H);
    Attend_Desc desc = {.n = s->n,
                        .d = s->d,
                        .d_k = s->d_k,
                        .d_v = s->d_v,
                        .heads = 1,
                        .scaled = s->scaled,
                        .causal = s->mask == MASK_CAUSAL,
                        .X = X,
                        .P = added ? sh->P : NULL,
                        .W_Q = &wq,
                        .W_K = &wk,
                        .W_V = &wv,
                        .rope = mode == POS_ROPE,
                        .rope_base = s->rope_base,
                        .pos_offset = offset,
                        .alibi = mode == POS_ALIBI ? &slope : NULL};
    return attend_compute(a, &desc);
}

double shift_pair_score(const Scene *s, const Derived *dv, Pos_Mode mode, const float *xq,
                        const float *xk, int pi, int pj) {
    int d = s->d, dk = s->d_k;
    float xa[ATTN_MAX_D], xb[ATTN_MAX_D], q[ATTN_MAX_DK], k[ATTN_MAX_DK];
    memcpy(xa, xq, sizeof(float) * (size_t)d);
    memcpy(xb, xk, sizeof(float) * (size_t)d);
    if (pos_mode_added(mode)) {
        float pa[ATTN_MAX_D], pb[ATTN_MAX_D];
        added_rows(s, mode, pi, 1, pa);
        added_rows(s, mode, pj, 1, pb);
        mat_add(xa, pa, (size_t)d, xa);
        mat_add(xb, pb, (size_t)d, xb);
    }
    mat_mul(xa, dv->W_Q, 1, d, dk, q);
    mat_mul(xb, dv->W_K, 1, d, dk, k);
    if (mode == POS_ROPE) {
        posenc_rope_row(q, dk, pi, s->rope_base, q);
        posenc_rope_row(k, dk, pj, s->rope_base, k);
    }
    double dot = 0;
    for (int r = 0; r < dk; r++) dot += (double)q[r] * k[r];
    if (s->scaled) dot /= sqrt((double)dk);
    if (mode == POS_ALIBI) dot -= posenc_alibi_slope(1, s->heads < 1 ? 1 : s->heads) * abs(pi - pj);
    return dot;
}

static double max_abs_finite(const float *m, long count) {
    double mx = 0;
    for (long k = 0; k < count; k++)
        if (isfinite(m[k])) mx = fmax(mx, fabs((double)m[k]));
    return mx;
}

bool shift_update(Lab_Shift *sh, const Scene *s, const Derived *dv, int query, int key) {
    int n = s->n, d = s->d;
    if (query < 0 || query >= n) query = 0;
    if (key < 0 || key >= n) key = n > 1 ? (query + 1) % n : 0;
    uint64_t hk = shift_key(s, query, key);
    if (sh->valid && sh->key == hk) return true;
    sh->valid = false;
    long nn = (long)n * n, nd = (long)n * d;
    if (!grow_floats_to(&sh->S0, &sh->cap_s0, nn) || !grow_floats_to(&sh->S1, &sh->cap_s1, nn) ||
        !grow_floats_to(&sh->x2, &sh->cap_x2, nd) || !grow_floats_to(&sh->P, &sh->cap_p, nd))
        return false;
    /* the permutation probe: base order X and p with now row i = base row p[i] */
    int p[ATTN_MAX_TOKENS];
    bool identity = true;
    for (int i = 0; i < n; i++) identity = identity && s->origin[i] == i;
    sh->rotated = identity;
    const float *base, *now;
    if (identity) { /* now: rotated by one place */
        for (int i = 0; i < n; i++) {
            p[i] = (i + 1) % n;
            memcpy(sh->x2 + (long)i * d, s->X + (long)p[i] * d, sizeof(float) * (size_t)d);
        }
        base = s->X;
        now = sh->x2;
    } else { /* base: the original order, as the permutation lab builds it */
        for (int i = 0; i < n; i++) {
            p[i] = s->origin[i];
            memcpy(sh->x2 + (long)s->origin[i] * d, s->X + (long)i * d, sizeof(float) * (size_t)d);
        }
        base = sh->x2;
        now = s->X;
    }
    for (int m = 0; m < POS_MODE_COUNT; m++) {
        Shift_Scheme *sc = &sh->scheme[m];
        /* the whole sentence at 0, then at the offset */
        if (!attend(sh, &sh->a, s, dv, (Pos_Mode)m, 0, s->X) ||
            !attend(sh, &sh->b, s, dv, (Pos_Mode)m, s->pos_offset, s->X))
            return false;
        const Attn *a = &sh->a.head[0], *b = &sh->b.head[0];
        double mx = 0;
        for (long c = 0; c < nn; c++)
            if (isfinite(a->S[c])) mx = fmax(mx, fabs((double)b->S[c] - a->S[c]));
        sc->shift_max = mx;
        double big = max_abs_finite(a->S, nn);
        sc->shift_rel = big > 0 ? mx / big : mx;
        if (m == (int)s->pos) {
            memcpy(sh->S0, a->S, sizeof(float) * (size_t)nn);
            memcpy(sh->S1, b->S, sizeof(float) * (size_t)nn);
        }
        /* reordered, at the scene's offset */
        if (!attend(sh, &sh->a, s, dv, (Pos_Mode)m, s->pos_offset, base) ||
            !attend(sh, &sh->b, s, dv, (Pos_Mode)m, s->pos_offset, now))
            return false;
        a = &sh->a.head[0];
        b = &sh->b.head[0];
        double pm = 0;
        for (int i = 0; i < n; i++)
            for (int c = 0; c < s->d_v; c++)
                pm = fmax(pm,
                          fabs((double)b->O[(long)i * s->d_v + c] - a->O[(long)p[i] * s->d_v + c]));
        sc->perm_max = pm;
        double ob = max_abs_finite(a->O, (long)n * s->d_v);
        sc->perm_rel = ob > 0 ? pm / ob : pm;
        /* one pair's content, moved: i fixed and j around it, then i − j fixed */
        const float *xq = s->X + (long)query * d, *xk = s->X + (long)key * d;
        int pi = s->pos_offset + SHIFT_REACH;
        for (int t = 0; t < SHIFT_DELTAS; t++) {
            int delta = t - SHIFT_REACH;
            sc->by_delta[t] = shift_pair_score(s, dv, (Pos_Mode)m, xq, xk, pi, pi - delta);
        }
        for (int t = 0; t < SHIFT_SPAN; t++) {
            int i = s->pos_offset + SHIFT_FIXED_DELTA + t;
            sc->by_pos[t] = shift_pair_score(s, dv, (Pos_Mode)m, xq, xk, i, i - SHIFT_FIXED_DELTA);
        }
    }
    /* RoPE's fastest and slowest pair of the query and key, turned */
    sh->rope_m[0] = 0;
    sh->rope_m[1] = s->d_k / 2 - 1;
    if (s->d_k >= 2) {
        float q[ATTN_MAX_DK], k[ATTN_MAX_DK];
        mat_mul(s->X + (long)query * d, dv->W_Q, 1, d, s->d_k, q);
        mat_mul(s->X + (long)key * d, dv->W_K, 1, d, s->d_k, k);
        posenc_rope_row(q, s->d_k, s->pos_offset + query, s->rope_base, q);
        posenc_rope_row(k, s->d_k, s->pos_offset + key, s->rope_base, k);
        for (int f = 0; f < 2; f++) {
            int m = sh->rope_m[f];
            sh->rope_pairs[f][0][0] = q[2 * m];
            sh->rope_pairs[f][0][1] = q[2 * m + 1];
            sh->rope_pairs[f][1][0] = k[2 * m];
            sh->rope_pairs[f][1][1] = k[2 * m + 1];
        }
    }
    sh->query = query;
    sh->key_token = key;
    sh->key = hk;
    sh->valid = true;
    return true;
}

void shift_free(Lab_Shift *sh) {
    free(sh->S0);
    free(sh->S1);
    free(sh->x2);
    free(sh->P);
    attend_free(&sh->a);
    attend_free(&sh->b);
    memset(sh, 0, sizeof *sh);
}
