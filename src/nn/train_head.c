/* Training one attention head; see train_head.h. */
#include "train_head.h"

#include "dhead.h"
#include "dmat.h"
#include "../core/posenc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double train_chance(int n) {
    return log((double)(n - 1));
}

static int pick(Rng *r, int below) {
    return (int)(rng_next_u64(r) % (uint64_t)below);
}

void train_sentence(Train_Task task, int n, int vocab, Rng *r, int *tokens, int *targets) {
    if (task == TRAIN_MATCH) {
        /* id = colour·4 + kind·2 + number; n/2 colours, each on both kinds */
        int colours = vocab / 4, chosen[TRAIN_MAX_N], order[TRAIN_MAX_N];
        for (int c = 0; c < colours && c < TRAIN_MAX_N; c++) chosen[c] = c;
        for (int c = 0; c < n / 2; c++) { /* n/2 distinct colours */
            int j = c + pick(r, colours - c), tmp = chosen[c];
            chosen[c] = chosen[j];
            chosen[j] = tmp;
        }
        int ids[TRAIN_MAX_N];
        for (int c = 0; c < n / 2; c++)
            for (int kind = 0; kind < 2; kind++)
                ids[2 * c + kind] = chosen[c] * 4 + kind * 2 + pick(r, 2);
        for (int i = 0; i < n; i++) order[i] = i;
        for (int i = n - 1; i > 0; i--) {
            int j = pick(r, i + 1), tmp = order[i];
            order[i] = order[j];
            order[j] = tmp;
        }
        for (int i = 0; i < n; i++) tokens[i] = ids[order[i]];
        /* each names its partner: the same colour, the other kind */
        for (int i = 0; i < n; i++) {
            int partner = order[i] ^ 1;
            targets[i] = ids[partner];
        }
        return;
    }
    /* previous: n distinct words */
    int pool[TRAIN_VOCAB];
    for (int k = 0; k < vocab; k++) pool[k] = k;
    for (int i = 0; i < n; i++) {
        int j = i + pick(r, vocab - i), tmp = pool[i];
        pool[i] = pool[j];
        pool[j] = tmp;
        tokens[i] = pool[i];
    }
    targets[0] = -1; /* nothing to its left */
    for (int i = 1; i < n; i++) targets[i] = tokens[i - 1];
}

static double gauss(Rng *r, double sd) {
    return rng_gaussian(r) * sd;
}

bool train_init(Trainer *t, const Train_Desc *desc) {
    memset(t, 0, sizeof *t);
    t->desc = *desc;
    t->d = desc->d ? desc->d : 16;
    t->d_k = desc->d_k ? desc->d_k : 16;
    t->d_v = desc->d_v ? desc->d_v : 16;
    t->vocab = TRAIN_VOCAB;
    t->n = TRAIN_N;
    t->pos = desc->positions ? TRAIN_POS_SIN : desc->pos;
    if (desc->test_n < 0 || desc->test_n > TRAIN_MAX_N) return false;
    if (t->desc.lr <= 0) t->desc.lr = desc->optimizer == TRAIN_SGD ? 0.5 : 0.01;
    int d = t->d, dk = t->d_k, dv = t->d_v, V = t->vocab, n = TRAIN_MAX_N;
    t->count = (long)V * d + 2L * d * dk + (long)d * dv + (long)dv * V;
    if (t->pos == TRAIN_POS_LEARNED) t->count += (long)TRAIN_MAX_N * d;
    t->param = calloc((size_t)t->count, sizeof(double));
    t->grad = calloc((size_t)t->count, sizeof(double));
    t->m1 = calloc((size_t)t->count, sizeof(double));
    t->m2 = calloc((size_t)t->count, sizeof(double));
    t->P = calloc((size_t)n * d, sizeof(double));
    /* one sentence's buffers: bufs() below */
    long per = 2L * (n * d + 2L * n * dk + n * dv + n * dv + (long)n * V) + 3L * n * n;
    t->scratch = calloc((size_t)per, sizeof(double));
    t->held_tokens = malloc(sizeof(int) * TRAIN_HELDOUT * TRAIN_N);
    t->held_targets = malloc(sizeof(int) * TRAIN_HELDOUT * TRAIN_N);
    t->long_tokens = malloc(sizeof(int) * TRAIN_HELDOUT * TRAIN_MAX_N);
    t->long_targets = malloc(sizeof(int) * TRAIN_HELDOUT * TRAIN_MAX_N);
    if (!t->param || !t->grad || !t->m1 || !t->m2 || !t->P || !t->scratch || !t->held_tokens ||
        !t->held_targets || !t->long_tokens || !t->long_targets) {
        train_free(t);
        return false;
    }
    t->E = t->param;
    t->W_Q = t->E + (long)V * d;
    t->W_K = t->W_Q + (long)d * dk;
    t->W_V = t->W_K + (long)d * dk;
    t->W_U = t->W_V + (long)d * dv;
    t->L = t->pos == TRAIN_POS_LEARNED ? t->W_U + (long)dv * V : NULL;
    Rng r;
    rng_seed_stream(&r, desc->seed, 0x7A1Bull, 1);
    double wsd = desc->init > 0 ? desc->init : 1 / sqrt((double)d);
    for (long k = 0; k < (long)V * d; k++) t->E[k] = gauss(&r, 1);
    for (long k = 0; k < (long)d * dk; k++) t->W_Q[k] = gauss(&r, wsd);
    for (long k = 0; k < (long)d * dk; k++) t->W_K[k] = gauss(&r, wsd);
    for (long k = 0; k < (long)d * dv; k++) t->W_V[k] = gauss(&r, 1 / sqrt((double)d));
    for (long k = 0; k < (long)dv * V; k++) t->W_U[k] = gauss(&r, 1 / sqrt((double)dv));
    if (t->pos == TRAIN_POS_SIN || t->pos == TRAIN_POS_LEARNED) {
        /* the sinusoid, or the learned table's starting draw (posenc.h) */
        float pf[TRAIN_MAX_N * 64];
        if (d <= 64) {
            if (t->pos == TRAIN_POS_SIN)
                posenc_sinusoidal(0, n, d, 1.0f, pf);
            else
                posenc_learned(desc->seed, 0, n, d, 1.0f, pf);
            double *to = t->pos == TRAIN_POS_SIN ? t->P : t->L;
            for (long k = 0; k < (long)n * d; k++) to[k] = pf[k];
        }
    }
    rng_seed_stream(&t->data, desc->seed, 0x7A1Bull, 2);
    Rng held;
    rng_seed_stream(&held, desc->seed, 0x7A1Bull, 3);
    for (int s = 0; s < TRAIN_HELDOUT; s++)
        train_sentence(desc->task, TRAIN_N, V, &held, t->held_tokens + s * TRAIN_N,
                       t->held_targets + s * TRAIN_N);
    if (desc->test_n > 0) {
        Rng longer;
        rng_seed_stream(&longer, desc->seed, 0x7A1Bull, 4);
        for (int s = 0; s < TRAIN_HELDOUT; s++)
            train_sentence(desc->task, desc->test_n, V, &longer, t->long_tokens + s * desc->test_n,
                           t->long_targets + s * desc->test_n);
    }
    return true;
}

void train_free(Trainer *t) {
    free(t->param);
    free(t->grad);
    free(t->m1);
    free(t->m2);
    free(t->P);
    free(t->scratch);
    free(t->held_tokens);
    free(t->held_targets);
    free(t->long_tokens);
    free(t->long_targets);
    memset(t, 0, sizeof *t);
}

/* One sentence's buffers in t->scratch: its X and head (dhead.h), logits Z,
 * and the backward pass's dX, dO and dZ. */
static DHead_Bufs bufs(Trainer *t, int n, double **X, double **Z, double **dX, double **dO,
                       double **dZ) {
    long nd = (long)n * t->d, nk = (long)n * t->d_k, nv = (long)n * t->d_v, nn = (long)n * n;
    DHead_Bufs b;
    double *p = t->scratch;
    *X = p, p += nd;
    b.q = p, p += nk;
    b.k = p, p += nk;
    b.v = p, p += nv;
    b.A = p, p += nn;
    b.o = p, p += nv;
    *Z = p, p += (long)n * t->vocab;
    *dX = p, p += nd;
    b.dq = p, p += nk;
    b.dk = p, p += nk;
    b.dv = p, p += nv;
    b.dA = p, p += nn;
    b.dS = p, p += nn;
    *dO = p, p += nv;
    *dZ = p;
    return b;
}

/* Forward (and, if wanted, backward) for one sentence; returns its summed
 * loss, adds its gradient (scaled by weight) into t->grad, counts the right
 * guesses in *right. */
static double sentence(Trainer *t, const int *tok, const int *tgt, int n, double weight,
                       bool want_grad, int *right) {
    int d = t->d, dk = t->d_k, dv = t->d_v, V = t->vocab;
    const double *add = t->pos == TRAIN_POS_LEARNED ? t->L : t->P;
    double *X, *Z, *dX, *dO, *dZ;
    DHead_Bufs b = bufs(t, n, &X, &Z, &dX, &dO, &dZ);
    const DHead head = {.n = n,
                        .d = d,
                        .d_k = dk,
                        .d_v = dv,
                        .W_Q = t->W_Q,
                        .W_K = t->W_K,
                        .W_V = t->W_V,
                        .scale = t->desc.unscaled ? 1 : 1 / sqrt((double)dk),
                        .rope = t->pos == TRAIN_POS_ROPE,
                        .alibi = t->pos == TRAIN_POS_ALIBI ? posenc_alibi_slope(1, 1) : 0};
    for (int i = 0; i < n; i++)
        for (int p = 0; p < d; p++) X[i * d + p] = t->E[(long)tok[i] * d + p] + add[i * d + p];
    dhead_forward(&head, X, &b);
    dmat_mul(b.o, t->W_U, n, dv, V, Z);
    /* cross-entropy on the scored rows; dZ = softmax − one-hot */
    double loss = dmat_cross_entropy(Z, n, V, tgt, weight, dZ, NULL);
    for (int i = 0; i < n; i++) {
        if (tgt[i] < 0) continue;
        int best = 0;
        for (int v = 1; v < V; v++)
            if (Z[(long)i * V + v] > Z[(long)i * V + best]) best = v;
        *right += best == tgt[i];
    }
    if (!want_grad) return loss;
    double *gE = t->grad, *gQ = gE + (long)V * d, *gK = gQ + (long)d * dk, *gV = gK + (long)d * dk;
    double *gU = gV + (long)d * dv, *gL = gU + (long)dv * V;
    dmat_mul_ta(b.o, dZ, n, dv, V, gU);    /* dW_U = Oᵀ dZ */
    dmat_mul_tb(dZ, t->W_U, n, V, dv, dO); /* dO = dZ W_Uᵀ */
    dhead_backward(&head, X, &b, dO, gQ, gK, gV);
    /* dX = dQ W_Qᵀ + dK W_Kᵀ + dV W_Vᵀ, into the embeddings of the tokens */
    dmat_mul_tb(b.dq, t->W_Q, n, dk, d, dX);
    for (int i = 0; i < n; i++)
        for (int p = 0; p < d; p++) {
            double s = dX[i * d + p];
            for (int k = 0; k < dk; k++) s += b.dk[i * dk + k] * t->W_K[(long)p * dk + k];
            for (int k = 0; k < dv; k++) s += b.dv[i * dv + k] * t->W_V[(long)p * dv + k];
            gE[(long)tok[i] * d + p] += s;
            if (t->L) gL[i * d + p] += s; /* row i of the table was added to x_i */
        }
    return loss;
}

double train_loss_grad(Trainer *t, const int *tokens, const int *targets, int count,
                       bool want_grad) {
    int scored = 0, right = 0;
    for (int s = 0; s < count; s++)
        for (int i = 0; i < t->n; i++) scored += targets[s * t->n + i] >= 0;
    if (want_grad) memset(t->grad, 0, sizeof(double) * (size_t)t->count);
    double total = 0, w = scored ? 1.0 / scored : 0;
    for (int s = 0; s < count; s++)
        total += sentence(t, tokens + s * t->n, targets + s * t->n, t->n, w, want_grad, &right);
    return scored ? total / scored : 0;
}

double train_eval(Trainer *t, double *accuracy) {
    int scored = 0, right = 0, n = t->n;
    double total = 0;
    for (int s = 0; s < TRAIN_HELDOUT; s++) {
        for (int i = 0; i < n; i++) scored += t->held_targets[s * n + i] >= 0;
        total += sentence(t, t->held_tokens + s * n, t->held_targets + s * n, n, 0, false, &right);
    }
    if (accuracy) *accuracy = scored ? (double)right / scored : 0;
    return scored ? total / scored : 0;
}

double train_eval_long(Trainer *t, double *accuracy) {
    int scored = 0, right = 0, n = t->desc.test_n;
    double total = 0;
    for (int s = 0; s < TRAIN_HELDOUT && n > 0; s++) {
        for (int i = 0; i < n; i++) scored += t->long_targets[s * n + i] >= 0;
        total += sentence(t, t->long_tokens + s * n, t->long_targets + s * n, n, 0, false, &right);
    }
    if (accuracy) *accuracy = scored ? (double)right / scored : 0;
    return scored ? total / scored : 0;
}

double train_step(Trainer *t) {
    int tokens[TRAIN_BATCH * TRAIN_N], targets[TRAIN_BATCH * TRAIN_N];
    for (int s = 0; s < TRAIN_BATCH; s++)
        train_sentence(t->desc.task, t->n, t->vocab, &t->data, tokens + s * t->n,
                       targets + s * t->n);
    double loss = train_loss_grad(t, tokens, targets, TRAIN_BATCH, true);
    t->steps++;
    double lr = t->desc.lr;
    if (t->desc.optimizer == TRAIN_SGD) {
        for (long k = 0; k < t->count; k++) t->param[k] -= lr * t->grad[k];
        return loss;
    }
    dmat_adam(t->param, t->grad, t->m1, t->m2, t->count, lr, t->steps);
    return loss;
}

void train_attention(Trainer *t, const int *tokens, double *A) {
    int targets[TRAIN_N], right = 0;
    for (int i = 0; i < t->n; i++) targets[i] = -1; /* nothing scored: only the forward pass */
    sentence(t, tokens, targets, t->n, 0, false, &right);
    double *X, *Z, *dX, *dO, *dZ;
    DHead_Bufs b = bufs(t, t->n, &X, &Z, &dX, &dO, &dZ);
    memcpy(A, b.A, sizeof(double) * (size_t)t->n * t->n);
}
