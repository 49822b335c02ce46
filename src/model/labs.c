/* Data behind the labs; see labs.h. */
#include "labs.h"
#include "../core/grow.h"

#include "../core/matrix.h"
#include "../core/perm.h"
#include "../core/posenc.h"
#include "../core/projection.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool labs_experiment(Labs *labs, uint64_t seed, int d_k, int samples) {
    /* the lab's slider keeps samples in range; anything else is a caller bug */
    Lab_Experiment *e = &labs->exp;
    if (samples < 1 || samples > LAB_MAX_SAMPLES || d_k < 1 || d_k > ATTN_MAX_DK) return false;
    if (e->valid && e->seed == seed && e->d_k == d_k && e->samples == samples) return true;
    if (!e->raw) {
        e->raw = malloc(sizeof(float) * LAB_MAX_SAMPLES);
        e->scaled = malloc(sizeof(float) * LAB_MAX_SAMPLES);
        if (!e->raw || !e->scaled) return false;
    }
    stats_dot_samples(seed, d_k, samples, e->raw);
    stats_variance_experiment(seed, d_k, samples, &e->stats);
    /* ±4 standard deviations of the theory: N(0, d_k) raw, N(0, 1) scaled */
    double sd = sqrt((double)d_k);
    e->raw_lo = -4 * sd;
    e->raw_hi = 4 * sd;
    e->scaled_lo = -4;
    e->scaled_hi = 4;
    stats_histogram(e->raw, samples, e->raw_lo, e->raw_hi, LAB_HIST_BINS, e->hist_raw);
    /* scaling every sample by 1/√d_k maps the raw bins onto the scaled ones
     * exactly, but the scaled histogram is counted on its own to show it */
    for (int k = 0; k < samples; k++) e->scaled[k] = (float)(e->raw[k] / sd);
    stats_histogram(e->scaled, samples, e->scaled_lo, e->scaled_hi, LAB_HIST_BINS, e->hist_scaled);
    e->seed = seed;
    e->d_k = d_k;
    e->samples = samples;
    e->valid = true;
    return true;
}

static uint64_t hash_bytes(uint64_t h, const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t k = 0; k < n; k++) h = (h ^ b[k]) * 0x100000001b3ull;
    return h;
}

/* What the curves depend on: tokens' embeddings, positions, the seed. Not
 * d_k (the curves span all of it), not d_v, not the scaling toggle. */
static uint64_t curves_key(const Scene *s) {
    uint64_t h = 0xcbf29ce484222325ull;
    h = hash_bytes(h, &s->n, sizeof s->n);
    h = hash_bytes(h, &s->d, sizeof s->d);
    h = hash_bytes(h, &s->seed, sizeof s->seed);
    h = hash_bytes(h, &s->pos, sizeof s->pos);
    h = hash_bytes(h, &s->pos_strength, sizeof s->pos_strength);
    h = hash_bytes(h, &s->pos_offset, sizeof s->pos_offset);
    h = hash_bytes(h, &s->rope_base, sizeof s->rope_base);
    return hash_bytes(h, s->X, sizeof(float) * (size_t)s->n * s->d);
}

static bool grow_full(Labs *labs, int n) {
    long need = (long)n * LAB_FULL_WIDTH;
    if (need <= labs->cap_full && labs->wq) return true;
    float *wq = realloc(labs->wq, sizeof(float) * ATTN_MAX_D * LAB_FULL_WIDTH);
    if (!wq) return false;
    labs->wq = wq;
    float *wk = realloc(labs->wk, sizeof(float) * ATTN_MAX_D * LAB_FULL_WIDTH);
    if (!wk) return false;
    labs->wk = wk;
    float *qf = realloc(labs->qf, sizeof(float) * (size_t)need);
    if (!qf) return false;
    labs->qf = qf;
    float *kf = realloc(labs->kf, sizeof(float) * (size_t)need);
    if (!kf) return false;
    labs->kf = kf;
    float *xp = realloc(labs->xp, sizeof(float) * (size_t)n * ATTN_MAX_D);
    if (!xp) return false;
    labs->xp = xp;
    float *pos = realloc(labs->pos, sizeof(float) * (size_t)n * ATTN_MAX_D);
    if (!pos) return false;
    labs->pos = pos;
    double *sc = realloc(labs->scratch, sizeof(double) * LAB_CURVE_POINTS * (size_t)n);
    if (!sc) return false;
    labs->scratch = sc;
    labs->cap_full = need;
    return true;
}

bool labs_curves(Labs *labs, const Scene *s) {
    Lab_Curves *c = &labs->curves;
    uint64_t key = curves_key(s);
    if (c->valid && c->key == key) return true;
    if (!grow_full(labs, s->n)) return false;
    int n = s->n, d = s->d, w = LAB_FULL_WIDTH;
    /* X + P, the same for every seed */
    memcpy(labs->xp, s->X, sizeof(float) * (size_t)n * d);
    if (pos_mode_added(s->pos)) { /* the rule's schemes are left out: see labs.h */
        scene_positions(s, labs->pos);
        mat_add(labs->xp, labs->pos, (size_t)n * d, labs->xp);
    }
    c->count = 0;
    for (int k = 0; k < LAB_CURVE_POINTS; k++) {
        int dk = (int)lround(pow(2.0, k / 2.0));
        if (c->count == 0 || dk != c->dks[c->count - 1]) c->dks[c->count++] = dk;
    }
    int rows[LAB_CURVE_ROWS], m = n < LAB_CURVE_ROWS ? n : LAB_CURVE_ROWS;
    for (int k = 0; k < m; k++) rows[k] = (int)((long)k * n / m);
    double *mean[4] = {c->ent_scaled, c->max_scaled, c->ent_raw, c->max_raw};
    for (int q = 0; q < 4; q++)
        for (int k = 0; k < c->count; k++) {
            mean[q][k] = 0;
            c->lo[q][k] = INFINITY;
            c->hi[q][k] = -INFINITY;
        }
    /* one random draw of W_Q, W_K is noisy; the proof speaks of the
     * expectation: average over several seeds and keep their spread */
    for (int seed = 0; seed < LAB_CURVE_SEEDS; seed++) {
        uint32_t sd = s->seed + (uint32_t)seed;
        proj_fill(sd, PROJ_Q, 0, d, w, labs->wq);
        proj_fill(sd, PROJ_K, 0, d, w, labs->wk);
        mat_mul(labs->xp, labs->wq, n, d, w, labs->qf);
        mat_mul(labs->xp, labs->wk, n, d, w, labs->kf);
        double one[4][LAB_CURVE_POINTS];
        stats_width_curves(&(Width_Curves_Desc){.Q = labs->qf,
                                                .K = labs->kf,
                                                .n = n,
                                                .w = w,
                                                .rows = rows,
                                                .row_count = m,
                                                .dks = c->dks,
                                                .dk_count = c->count,
                                                .scratch = labs->scratch},
                           &(Width_Curves){one[0], one[1], one[2], one[3]});
        for (int q = 0; q < 4; q++)
            for (int k = 0; k < c->count; k++) {
                mean[q][k] += one[q][k] / LAB_CURVE_SEEDS;
                c->lo[q][k] = fmin(c->lo[q][k], one[q][k]);
                c->hi[q][k] = fmax(c->hi[q][k], one[q][k]);
            }
    }
    c->key = key;
    c->valid = true;
    return true;
}

static uint64_t perm_key(const Scene *s) {
    uint64_t h = curves_key(s);
    h = hash_bytes(h, &s->d_k, sizeof s->d_k);
    h = hash_bytes(h, &s->d_v, sizeof s->d_v);
    h = hash_bytes(h, &s->scaled, sizeof s->scaled);
    h = hash_bytes(h, &s->mask, sizeof s->mask);
    h = hash_bytes(h, &s->heads, sizeof s->heads);
    return hash_bytes(h, s->origin, sizeof(int) * (size_t)s->n);
}

bool labs_permutation(Labs *labs, const Scene *s, const Derived *now) {
    Lab_Permutation *p = &labs->perm;
    uint64_t key = perm_key(s);
    if (p->valid && p->key == key) return true;
    int n = s->n, dv = s->d_v;
    long nn = (long)n * n, nv = (long)n * dv;
    if (!p->base && !(p->base = malloc(sizeof *p->base))) return false;
    if (nn > p->cap_nn) {
        if (!grow_floats(&p->pA, nn) || !grow_floats(&p->dA, nn)) return false;
        p->cap_nn = nn;
    }
    if (nv > p->cap_nv) {
        if (!grow_floats(&p->pO, nv) || !grow_floats(&p->dO, nv)) return false;
        p->cap_nv = nv;
    }
    /* X: the tokens back in their original order. origin[i] is where the
     * token now at i started, so base row origin[i] = current row i. */
    Scene *b = p->base;
    *b = *s;
    for (int i = 0; i < n; i++) {
        int o = s->origin[i];
        memcpy(b->tokens[o], s->tokens[i], ATTN_MAX_TOKEN_BYTES);
        memcpy(&b->X[o * s->d], &s->X[i * s->d], sizeof(float) * (size_t)s->d);
        b->origin[o] = o;
    }
    p->derived.learned = now->learned; /* a learned head's own weights, if the scene has one */
    if (!derived_update(&p->derived, b)) return false;
    const Attn *x = &p->derived.pass.head[0], *px = &now->pass.head[0];
    /* P·Attention(X): outputs move with their tokens; weights move in rows and columns */
    double mA = 0, mO = 0;
    for (int i = 0; i < n; i++) {
        int oi = s->origin[i];
        for (int j = 0; j < n; j++) {
            float v = x->A[(long)oi * n + s->origin[j]];
            p->pA[(long)i * n + j] = v;
            p->dA[(long)i * n + j] = px->A[(long)i * n + j] - v;
            mA = fmax(mA, fabs((double)px->A[(long)i * n + j] - v));
        }
        for (int c = 0; c < dv; c++) {
            float v = x->O[(long)oi * dv + c];
            p->pO[(long)i * dv + c] = v;
            p->dO[(long)i * dv + c] = px->O[(long)i * dv + c] - v;
            mO = fmax(mO, fabs((double)px->O[(long)i * dv + c] - v));
        }
    }
    p->max_diff_A = mA;
    p->max_diff_O = mO;
    p->key = key;
    p->valid = true;
    return true;
}

void labs_free(Labs *labs) {
    free(labs->exp.raw);
    free(labs->exp.scaled);
    free(labs->xp);
    free(labs->pos);
    free(labs->wq);
    free(labs->wk);
    free(labs->qf);
    free(labs->kf);
    free(labs->scratch);
    free(labs->perm.base);
    derived_free(&labs->perm.derived);
    free(labs->perm.pA);
    free(labs->perm.pO);
    free(labs->perm.dA);
    free(labs->perm.dO);
    shift_free(&labs->shift);
    memset(labs, 0, sizeof *labs);
}
