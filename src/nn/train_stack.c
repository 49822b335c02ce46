/* The attention-only transformer and its training; see train_stack.h. */
#include "train_stack.h"

#include "dhead.h"
#include "dmat.h"
#include "../core/posenc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int pick(Rng *r, int below) {
    return (int)(rng_next_u64(r) % (uint64_t)below);
}

void stack_sequence(const Stack_Desc *desc, Rng *r, int *tokens, int *block) {
    int len = desc->repeat_min + pick(r, desc->repeat_max - desc->repeat_min + 1);
    for (int i = 0; i < len && i < desc->context; i++) tokens[i] = pick(r, desc->vocab);
    for (int i = len; i < desc->context; i++) tokens[i] = tokens[i - len];
    *block = len;
}

static bool desc_ok(const Stack_Desc *d) {
    return d->layers >= 1 && d->layers <= STACK_MAX_LAYERS && d->heads >= 1 &&
           d->heads <= STACK_MAX_HEADS && d->width >= d->heads && d->width <= STACK_MAX_WIDTH &&
           d->width % d->heads == 0 && d->vocab >= 2 && d->vocab <= STACK_MAX_VOCAB &&
           d->context >= 4 && d->context <= STACK_MAX_CONTEXT && d->repeat_min >= 1 &&
           d->repeat_max >= d->repeat_min && d->repeat_max < d->context && d->batch >= 1 &&
           (d->pos == TRAIN_POS_NONE || d->pos == TRAIN_POS_SIN || d->pos == TRAIN_POS_LEARNED ||
            d->pos == TRAIN_POS_ROPE);
}

/* Per sequence: x_0 … x_L, every head's q k v A o, the logits, and the
 * backward pass's buffers. */
static long scratch_size(const Stack_Desc *d, int dh) {
    long n = d->context, w = d->width, heads = (long)d->layers * d->heads;
    return (d->layers + 1) * n * w + heads * (4 * n * dh + n * n) + n * d->vocab * 2 + 3 * n * w +
           4 * n * dh + 2 * n * n;
}

bool stack_init(Stack *s, const Stack_Desc *desc) {
    memset(s, 0, sizeof *s);
    if (!desc_ok(desc)) return false;
    s->desc = *desc;
    int w = desc->width, V = desc->vocab, n = desc->context, dh = w / desc->heads;
    s->d_h = dh;
    s->count = (long)V * w + (long)w * V + (long)desc->layers * desc->heads * 4 * w * dh;
    if (desc->pos == TRAIN_POS_LEARNED) s->count += (long)n * w;
    s->param = calloc((size_t)s->count, sizeof(double));
    s->grad = calloc((size_t)s->count, sizeof(double));
    s->m1 = calloc((size_t)s->count, sizeof(double));
    s->m2 = calloc((size_t)s->count, sizeof(double));
    s->P = calloc((size_t)n * w, sizeof(double));
    s->scratch = calloc((size_t)scratch_size(desc, dh), sizeof(double));
    s->first_A = calloc((size_t)desc->layers * desc->heads * n * n, sizeof(double));
    s->held_tokens = malloc(sizeof(int) * STACK_HELDOUT * n);
    s->square = malloc(sizeof(double) * 3 * (size_t)w * w);
    if (!s->square || !s->param || !s->grad || !s->m1 || !s->m2 || !s->P || !s->scratch ||
        !s->first_A || !s->held_tokens) {
        stack_free(s);
        return false;
    }
    double *p = s->param;
    s->E = p, p += (long)V * w;
    s->U = p, p += (long)w * V;
    for (int l = 0; l < desc->layers; l++)
        for (int h = 0; h < desc->heads; h++)
            for (int m = 0; m < 4; m++) s->W[l][h][m] = p, p += (long)w * dh;
    s->L = desc->pos == TRAIN_POS_LEARNED ? p : NULL;
    Rng r;
    rng_seed_stream(&r, desc->seed, 0x5AC4ull, 1);
    for (long k = 0; k < (long)V * w; k++) s->E[k] = rng_gaussian(&r);
    for (long k = 0; k < (long)w * V; k++) s->U[k] = rng_gaussian(&r) / sqrt((double)w);
    for (int l = 0; l < desc->layers; l++)
        for (int h = 0; h < desc->heads; h++)
            for (int m = 0; m < 4; m++) /* Q K V read w coordinates, O reads d_h */
                for (long k = 0; k < (long)w * dh; k++)
                    s->W[l][h][m][k] = rng_gaussian(&r) / sqrt((double)(m == 3 ? dh : w));
    if (desc->pos == TRAIN_POS_SIN || desc->pos == TRAIN_POS_LEARNED) {
        float pf[STACK_MAX_CONTEXT * STACK_MAX_WIDTH];
        if (desc->pos == TRAIN_POS_SIN)
            posenc_sinusoidal(0, n, w, 1.0f, pf);
        else
            posenc_learned(desc->seed, 0, n, w, 1.0f, pf);
        double *to = desc->pos == TRAIN_POS_SIN ? s->P : s->L;
        for (long k = 0; k < (long)n * w; k++) to[k] = pf[k];
    }
    rng_seed_stream(&s->data, desc->seed, 0x5AC4ull, 2);
    Rng held;
    rng_seed_stream(&held, desc->seed, 0x5AC4ull, 3);
    for (int q = 0; q < STACK_HELDOUT; q++)
        stack_sequence(desc, &held, s->held_tokens + q * n, &s->held_blocks[q]);
    return true;
}

void stack_free(Stack *s) {
    free(s->param);
    free(s->grad);
    free(s->m1);
    free(s->m2);
    free(s->P);
    free(s->scratch);
    free(s->first_A);
    free(s->held_tokens);
    free(s->square);
    memset(s, 0, sizeof *s);
}

/* The buffers of one sequence, laid out in s->scratch: the streams, every
 * head's (dhead.h; their backward buffers shared, one head at a time), and
 * the logits. */
typedef struct Bufs {
    double *x[STACK_MAX_LAYERS + 1];
    DHead_Bufs h[STACK_MAX_LAYERS][STACK_MAX_HEADS];
    double *z, *dz, *dx, *dxin, *tmp, *dout;
} Bufs;

static Bufs bufs(Stack *s) {
    const Stack_Desc *d = &s->desc;
    long n = d->context, w = d->width, dh = s->d_h;
    Bufs b;
    double *p = s->scratch;
    for (int l = 0; l <= d->layers; l++) b.x[l] = p, p += n * w;
    for (int l = 0; l < d->layers; l++)
        for (int h = 0; h < d->heads; h++) {
            DHead_Bufs *hb = &b.h[l][h];
            hb->q = p, p += n * dh;
            hb->k = p, p += n * dh;
            hb->v = p, p += n * dh;
            hb->o = p, p += n * dh;
            hb->A = p, p += n * n;
        }
    b.z = p, p += n * d->vocab;
    b.dz = p, p += n * d->vocab;
    b.dx = p, p += n * w;
    b.dxin = p, p += n * w;
    b.tmp = p, p += n * w;
    b.dout = p, p += n * dh;
    DHead_Bufs back;
    back.dq = p, p += n * dh;
    back.dk = p, p += n * dh;
    back.dv = p, p += n * dh;
    back.dA = p, p += n * n;
    back.dS = p;
    for (int l = 0; l < d->layers; l++)
        for (int h = 0; h < d->heads; h++) {
            DHead_Bufs *hb = &b.h[l][h];
            hb->dq = back.dq, hb->dk = back.dk, hb->dv = back.dv;
            hb->dA = back.dA, hb->dS = back.dS;
        }
    return b;
}

/* Head h of layer l as dhead.h runs it. */
static DHead head(const Stack *s, int l, int h) {
    const Stack_Desc *d = &s->desc;
    return (DHead){.n = d->context,
                   .d = d->width,
                   .d_k = s->d_h,
                   .d_v = s->d_h,
                   .W_Q = s->W[l][h][0],
                   .W_K = s->W[l][h][1],
                   .W_V = s->W[l][h][2],
                   .scale = 1 / sqrt((double)s->d_h),
                   .causal = true,
                   .rope = d->pos == TRAIN_POS_ROPE};
}

/* Forward through every layer; the buffers keep what the backward pass needs. */
static void forward(Stack *s, Bufs *b, const int *tok) {
    const Stack_Desc *d = &s->desc;
    int n = d->context, w = d->width, dh = s->d_h;
    const double *add = s->L ? s->L : s->P;
    for (int i = 0; i < n; i++)
        for (int p = 0; p < w; p++)
            b->x[0][i * w + p] = s->E[(long)tok[i] * w + p] + add[i * w + p];
    for (int l = 0; l < d->layers; l++) {
        memcpy(b->x[l + 1], b->x[l], sizeof(double) * (size_t)n * w);
        for (int h = 0; h < d->heads; h++) {
            const DHead hd = head(s, l, h);
            dhead_forward(&hd, b->x[l], &b->h[l][h]);
            if (s->ablated[l][h]) continue; /* a zeroed head adds nothing to the stream */
            dmat_mul(b->h[l][h].o, s->W[l][h][3], n, dh, w, b->tmp);
            for (long e = 0; e < (long)n * w; e++) b->x[l + 1][e] += b->tmp[e];
        }
    }
    dmat_mul(b->x[d->layers], s->U, n, w, d->vocab, b->z);
}

/* One sequence: its summed loss (and in-context part), the gradient scaled
 * by weight added to s->grad. */
static double sequence(Stack *s, const int *tok, int block, double weight, bool want_grad,
                       double *ic_loss, int *ic_count) {
    const Stack_Desc *d = &s->desc;
    int n = d->context, w = d->width, dh = s->d_h, V = d->vocab;
    Bufs b = bufs(s);
    forward(s, &b, tok);
    int next[STACK_MAX_CONTEXT]; /* each position predicts the token after it */
    double each[STACK_MAX_CONTEXT];
    for (int i = 0; i < n; i++) next[i] = i + 1 < n ? tok[i + 1] : -1; /* none after the last */
    double loss = dmat_cross_entropy(b.z, n, V, next, weight, b.dz, each);
    for (int i = block - 1; i < n - 1; i++) { /* the next token repeats one seen before */
        *ic_loss += each[i];
        (*ic_count)++;
    }
    if (!want_grad) return loss;
    double *gE = s->grad, *gU = gE + (long)V * w;
    dmat_mul_ta(b.x[d->layers], b.dz, n, w, V, gU); /* dU = x_Lᵀ dz */
    dmat_mul_tb(b.dz, s->U, n, V, w, b.dx);         /* dx_L = dz Uᵀ */
    for (int l = d->layers - 1; l >= 0; l--) {
        memcpy(b.dxin, b.dx, sizeof(double) * (size_t)n * w); /* the residual path */
        for (int h = 0; h < d->heads; h++) {
            if (s->ablated[l][h]) continue;
            double *gW[4];
            for (int m = 0; m < 4; m++) gW[m] = s->grad + (s->W[l][h][m] - s->param);
            DHead_Bufs *hb = &b.h[l][h];
            const DHead hd = head(s, l, h);
            dmat_mul_ta(hb->o, b.dx, n, dh, w, gW[3]);          /* dW_O = oᵀ dx */
            dmat_mul_tb(b.dx, s->W[l][h][3], n, w, dh, b.dout); /* do = dx W_Oᵀ */
            dhead_backward(&hd, b.x[l], hb, b.dout, gW[0], gW[1], gW[2]);
            const double *grads[3] = {hb->dq, hb->dk, hb->dv};
            for (int m = 0; m < 3; m++) { /* the head's input: into the residual's gradient */
                dmat_mul_tb(grads[m], s->W[l][h][m], n, dh, w, b.tmp);
                for (long e = 0; e < (long)n * w; e++) b.dxin[e] += b.tmp[e];
            }
        }
        memcpy(b.dx, b.dxin, sizeof(double) * (size_t)n * w);
    }
    double *gL = s->L ? s->grad + (s->L - s->param) : NULL;
    for (int i = 0; i < n; i++)
        for (int p = 0; p < w; p++) {
            gE[(long)tok[i] * w + p] += b.dx[i * w + p];
            if (gL) gL[i * w + p] += b.dx[i * w + p];
        }
    return loss;
}

double stack_loss_grad(Stack *s, const int *tokens, const int *blocks, int count, bool want_grad) {
    int n = s->desc.context, scored = count * (n - 1), ic = 0;
    if (want_grad) memset(s->grad, 0, sizeof(double) * (size_t)s->count);
    double total = 0, ic_loss = 0;
    for (int q = 0; q < count; q++)
        total += sequence(s, tokens + q * n, blocks[q], 1.0 / scored, want_grad, &ic_loss, &ic);
    return total / scored;
}

double stack_step(Stack *s) {
    int n = s->desc.context, B = s->desc.batch;
    int tokens[64 * STACK_MAX_CONTEXT], blocks[64];
    if (B > 64) B = 64;
    for (int q = 0; q < B; q++) stack_sequence(&s->desc, &s->data, tokens + q * n, &blocks[q]);
    double loss = stack_loss_grad(s, tokens, blocks, B, true);
    s->steps++;
    dmat_adam(s->param, s->grad, s->m1, s->m2, s->count, s->desc.lr, s->steps);
    return loss;
}

void stack_eval(Stack *s, Stack_Metrics *m) {
    const Stack_Desc *d = &s->desc;
    int n = d->context, ic = 0, rows_prev = 0;
    memset(m, 0, sizeof *m);
    double total = 0, ic_loss = 0;
    int rows_prefix[STACK_MAX_LAYERS][STACK_MAX_HEADS] = {{0}};
    for (int q = 0; q < STACK_HELDOUT; q++) {
        const int *tok = s->held_tokens + q * n;
        int block = s->held_blocks[q];
        total += sequence(s, tok, block, 0, false, &ic_loss, &ic);
        Bufs b = bufs(s);
        rows_prev += n - 1;
        for (int l = 0; l < d->layers; l++)
            for (int h = 0; h < d->heads; h++) {
                const double *A = b.h[l][h].A;
                if (q == 0)
                    memcpy(s->first_A + ((long)l * d->heads + h) * n * n, A,
                           sizeof(double) * (size_t)n * n);
                for (int i = 1; i < n; i++) m->prev_token[l][h] += A[i * n + i - 1];
                /* the positions just after earlier copies of token i */
                for (int i = block; i < n; i++) {
                    double sum = 0;
                    for (int j = i - block + 1; j >= 1; j -= block) sum += A[i * n + j];
                    m->prefix_match[l][h] += sum;
                    rows_prefix[l][h]++;
                }
            }
    }
    for (int l = 0; l < d->layers; l++)
        for (int h = 0; h < d->heads; h++) {
            m->prev_token[l][h] /= rows_prev;
            if (rows_prefix[l][h]) m->prefix_match[l][h] /= rows_prefix[l][h];
        }
    m->loss = total / (STACK_HELDOUT * (n - 1));
    m->in_context_loss = ic ? ic_loss / ic : 0;
}

const double *stack_attention(Stack *s, int layer, int head) {
    long n = s->desc.context;
    return s->first_A + ((long)layer * s->desc.heads + head) * n * n;
}

const int *stack_example(Stack *s) {
    Bufs b = bufs(s);
    forward(s, &b, s->held_tokens);
    long n = s->desc.context;
    for (int l = 0; l < s->desc.layers; l++)
        for (int h = 0; h < s->desc.heads; h++)
            memcpy(s->first_A + ((long)l * s->desc.heads + h) * n * n, b.h[l][h].A,
                   sizeof(double) * (size_t)(n * n));
    return s->held_tokens;
}

const double *stack_stream(Stack *s, int layer) {
    return bufs(s).x[layer];
}

/* ‖M‖_F */
static double frobenius(const double *m, long count) {
    double sum = 0;
    for (long k = 0; k < count; k++) sum += m[k] * m[k];
    return sqrt(sum);
}

double stack_k_composition(Stack *s, int from_layer, int from_head, int to_layer, int to_head) {
    int w = s->desc.width, dh = s->d_h;
    double *qk = s->square, *ov = qk + (long)w * w, *both = ov + (long)w * w;
    double *const *to = s->W[to_layer][to_head], *const *from = s->W[from_layer][from_head];
    dmat_mul_tb(to[0], to[1], w, dh, w, qk);  /* W_Q W_Kᵀ */
    dmat_mul(from[2], from[3], w, dh, w, ov); /* W_V W_O */
    dmat_mul_tb(qk, ov, w, w, w, both);       /* W_QK W_OVᵀ: keys that read what `from` wrote */
    double norm = frobenius(qk, (long)w * w) * frobenius(ov, (long)w * w);
    return norm > 0 ? frobenius(both, (long)w * w) / norm : 0;
}
