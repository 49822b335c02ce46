/* The Model view's state; see real_lab.h. */
#include "real_lab.h"
#include "../core/clock.h"

#include "../core/i18n.h"
#include "../core/text.h"

#include "../core/rng.h"
#include "../core/stats.h"
#include "export_real.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef __EMSCRIPTEN__ /* the browser build has no threads: the pass runs in slices there */
#include <stdatomic.h>
#include <threads.h>
#define REAL_LAB_THREADS 1

/* The pass on a thread of its own, in the run being computed (runs[work]),
 * which nothing else touches while it runs; the frame checks `done` and
 * takes the pass over once it is set. */
struct Real_Worker {
    thrd_t thread;
    bool running;
    atomic_bool cancel, done;
    atomic_int stage;
    const Net_Model *model;
    Net_Run *run;
    void (*wake)(void *ctx);
    void *wake_ctx;
};

static int worker_main(void *arg) {
    struct Real_Worker *w = arg;
    while (!atomic_load(&w->cancel)) {
        bool finished = net_step(w->model, w->run);
        atomic_store(&w->stage, w->run->stage);
        if (finished) {
            atomic_store(&w->done, true);
            if (w->wake) w->wake(w->wake_ctx);
            break;
        }
    }
    return 0;
}

/* The thread stopped (between two layers) and joined: runs[work] is the
 * caller's again, as far as it got. */
static void stop_worker(Real_Lab *l) {
    if (!l->worker || !l->worker->running) return;
    atomic_store(&l->worker->cancel, true);
    thrd_join(l->worker->thread, NULL);
    l->worker->running = false;
}
#else
struct Real_Worker {
    bool running;
};
static void stop_worker(Real_Lab *l) {
    (void)l;
}
#endif

void real_lab_remote(Real_Lab *l, const Real_Remote *remote) {
    l->remote = l->gen.remote = remote;
}

static void pass_complete(Real_Lab *l);

/* A pass posted to the platform's worker (real_remote.h) is not stopped by a
 * new text or order, for a worker cannot be interrupted: it goes stale, and
 * the next pass is posted once its answer is in, so passes never queue up
 * behind each other. */
static void stale_remote(Real_Lab *l) {
    if (l->wait.running) l->wait.stale = true;
}

/* Where a pass's field lands: runs[work]'s, when the job is the one awaited and the size is
 * what its shapes hold. */
float *real_lab_landing(Real_Lab *l, int job, int field, int64_t floats) {
    if (!l->model || !remote_awaits(&l->wait, job)) return NULL;
    const Net_Model *m = &l->model->weights.model;
    Net_Run *r = &l->runs[l->work];
    int64_t n = r->n, lh = (int64_t)m->layers * m->heads, want = -1;
    float *dest = NULL;
    switch (field) {
    case REMOTE_RUN_STREAM:
        want = (m->layers + 1) * n * m->width, dest = r->stream;
        break;
    case REMOTE_RUN_MID:
        want = m->layers * n * m->width, dest = r->mid;
        break;
    case REMOTE_RUN_SCORES:
        want = lh * n * n, dest = r->scores;
        break;
    case REMOTE_RUN_ATTN:
        want = lh * n * n, dest = r->attn;
        break;
    case REMOTE_RUN_LOGITS:
        want = m->vocab, dest = r->logits;
        break;
    case REMOTE_RUN_TURN:
        want = r->want_turn ? lh : -1, dest = r->turn_moved;
        break;
    default:
        break;
    }
    return floats == want ? dest : NULL;
}

void real_lab_landed(Real_Lab *l, int job, const Net_Fault *fault) {
    if (!remote_done(&l->wait, job)) return;
    if (!fault) { /* the worker could not: this pass runs here, in slices */
        l->wait = (Remote_Wait){0};
        l->refused = true;
        return;
    }
    Net_Run *r = &l->runs[l->work];
    r->fault = *fault;
    r->stage = l->model->weights.model.layers + 1;
}

/* The pass on the platform's worker: posted if nothing is awaited, taken over once it has
 * landed. False when it cannot be posted (the caller slices). */
static bool work_remote(Real_Lab *l) {
    Remote_Wait *w = &l->wait;
    if (!w->running) {
        if (l->refused) return false;
        Net_Run *r = &l->runs[l->work];
        if (r->stage > 0 || r->in_mlp) return false; /* begun in slices: it ends there */
        int job = real_remote_job();
        if (!l->remote->post(l->remote->ctx, REMOTE_PASS, job, l->input, l->n, r->want_turn))
            return false;
        *w = (Remote_Wait){.running = true, .job = job};
    } else if (w->landed) {
        w->running = false;
        pass_complete(l);
    }
    return true;
}

bool real_lab_attach(Real_Lab *l, const Real_Model *m, const char *name, char *err, size_t errsz) {
    if (!m) {
        real_lab_free(l);
        return true;
    }
    const Net_Model *tm = &m->weights.model;
    int positions = tm->positions, d_h = tm->head_dim;
    Real_Lab fresh = {0};
    fresh.model = m;
    snprintf(fresh.name, sizeof fresh.name, "%s", name);
    fresh.ids = malloc((size_t)positions * sizeof *fresh.ids);
    fresh.shown_ids = malloc((size_t)positions * sizeof *fresh.shown_ids);
    size_t head = (size_t)positions * (size_t)d_h * sizeof(float);
    fresh.Q = malloc(head);
    fresh.K = malloc(head);
    fresh.V = malloc(head);
    fresh.norm = malloc((size_t)positions * sizeof(float));
    int thumbs = tm->layers * tm->heads * REAL_LAB_THUMB * REAL_LAB_THUMB;
    fresh.thumbs = malloc((size_t)thumbs * sizeof(float));
    fresh.plane = malloc((size_t)positions * 4 * sizeof(float));
    fresh.order = malloc((size_t)positions * sizeof(int));
    fresh.qk_order = malloc((size_t)positions * sizeof(int));
    fresh.input = malloc((size_t)positions * sizeof(int32_t));
    fresh.run_order[0] = malloc((size_t)positions * sizeof(int));
    fresh.run_order[1] = malloc((size_t)positions * sizeof(int));
    fresh.qk = malloc(2 * head);
    fresh.pca = malloc(((size_t)d_h * (size_t)d_h + 3 * (size_t)d_h) * sizeof(double));
    if (!fresh.ids || !fresh.shown_ids || !fresh.Q || !fresh.K || !fresh.V || !fresh.norm ||
        !fresh.thumbs || !fresh.plane || !fresh.qk || !fresh.pca || !fresh.order || !fresh.input ||
        !fresh.run_order[0] || !fresh.run_order[1] || !fresh.qk_order) {
        real_lab_free(&fresh);
        return text_fail(err, errsz, _("%s: out of memory"), name);
    }
    fresh.open_layer = l->model ? l->open_layer : 0;
    fresh.open_head = l->model ? l->open_head : 0;
    memcpy(fresh.text, l->text, sizeof fresh.text);
    long generation = l->generation;
    bool threaded = l->threaded;
    void (*wake)(void *) = l->wake;
    void *wake_ctx = l->wake_ctx;
    real_lab_free(l);
    const Real_Remote *remote = l->remote;
    *l = fresh;
    real_lab_remote(l, remote);
    l->generation = generation;
    l->threaded = threaded;
    real_lab_on_wake(l, wake, wake_ctx);
    real_lab_open(l, l->open_layer, l->open_head);
    /* the text read again by this model's tokenizer; one it cannot read leaves none */
    char why[600];
    if (l->text[0] && !real_lab_set_text(l, l->text, strlen(l->text), why, sizeof why)) {
        l->text[0] = '\0';
        l->n = 0;
    }
    return true;
}

bool real_lab_set_text(Real_Lab *l, const char *text, size_t len, char *err, size_t errsz) {
    if (!l->model) return text_fail(err, errsz, _("no model is open"));
    stop_worker(l);
    stale_remote(l);
    if (len > BPE_MAX_TEXT)
        return text_fail(err, errsz, _("the text is %zu bytes; at most %d are read"), len,
                         BPE_MAX_TEXT);
    int n = real_model_tokenize(l->model, text, len, l->ids, err, errsz);
    const Net_Model *tm = &l->model->weights.model;
    if (n >= 0 && !net_store_fits(tm, n, err, errsz)) {
        n = -1;
    } else if (n >= 0 && !net_reserve(&l->runs[l->work], tm, n)) {
        text_fail(err, errsz, _("out of memory for a pass over %d tokens"), n);
        n = -1;
    }
    if (n < 0) {
        /* the previous text's ids back */
        if (l->text[0]) real_model_tokenize(l->model, l->text, strlen(l->text), l->ids, NULL, 0);
        return false;
    }
    memmove(l->text, text, len);
    l->text[len] = '\0';
    l->n = n;
    l->texts++;
    if (!real_lab_reorder(l, NULL)) {
        l->n = 0; /* no pass can run: nothing is shown as if it were this text's */
        return text_fail(err, errsz, _("out of memory for a pass over %d tokens"), n);
    }
    return true;
}

bool real_lab_reorder(Real_Lab *l, const int *order) {
    if (!l->model || l->n == 0) return false;
    stop_worker(l);
    stale_remote(l);
    real_gen_reset(&l->gen); /* what it wrote followed the tokens in their old order */
    int n = l->n;
    if (order) { /* a permutation: each index once */
        for (int i = 0; i < n; i++) l->input[i] = 0;
        for (int i = 0; i < n; i++) {
            if (order[i] < 0 || order[i] >= n || l->input[order[i]]) return false;
            l->input[order[i]] = 1;
        }
    }
    for (int i = 0; i < n; i++) {
        l->order[i] = order ? order[i] : i;
        l->input[i] = l->ids[l->order[i]];
    }
    int w = l->work;
    if (!net_reserve(&l->runs[w], &l->model->weights.model, n)) return false;
    memcpy(l->run_order[w], l->order, (size_t)n * sizeof *l->order);
    l->run_text[w] = l->texts;
    l->pass_done = false;
    l->refused = false;
    l->fault[0] = '\0';
    /* with RoPE, every head's share of weight the turn moves, when something shows it: a
     * second QKᵀ and softmax a head, a fifth of a short pass */
    l->runs[w].want_turn = l->want_turn && l->model->weights.model.rope_theta > 0;
    net_begin(&l->model->weights.model, l->input, n, &l->runs[w]);
    /* in slices (the browser): the logits too, so no frame computes them all */
    l->runs[w].logit_rows = l->threaded ? 0 : net_slice_rows(&l->model->weights.model);
    l->runs[w].halves = !l->threaded;
    return true;
}

bool real_lab_rearrange(Real_Lab *l, int how, unsigned shuffle) {
    if (!l->model || l->n < 2) return false;
    int n = l->n, *order = l->qk_order; /* scratch until the pass ends */
    for (int i = 0; i < n; i++)
        order[i] = how == 0 ? l->order[n - 1 - i] : how == 1 ? l->order[i] : i;
    if (how == 1) { /* Fisher–Yates from a seed a shuffle count apart */
        Rng r;
        rng_seed_stream(&r, 7919u * (uint64_t)shuffle, 0x5EEDull, 0);
        for (int i = n - 1; i > 0; i--) {
            int j = (int)(rng_uniform(&r) * (i + 1));
            if (j > i) j = i;
            int tmp = order[i];
            order[i] = order[j];
            order[j] = tmp;
        }
    }
    return real_lab_reorder(l, how == 2 ? NULL : order);
}

bool real_lab_move(Real_Lab *l, int from, int to) {
    int n = l->n, *order = l->qk_order; /* scratch until the pass ends */
    if (!l->model || from < 0 || to < 0 || from >= n || to >= n) return false;
    int moved = l->order[from];
    for (int i = 0, k = 0; i < n; i++) {
        if (k == from) k++;
        order[i] = i == to ? moved : l->order[k++];
    }
    return real_lab_reorder(l, order);
}

/* The shown pass (run s) against the one before (run 1 − s) when both read
 * one text: each A next to the earlier one with its rows and columns moved
 * with their tokens. */
static void measure_change(Real_Lab *l, int s) {
    int o = 1 - s, n = l->shown_n;
    if (l->keep_change) { /* the same order again (real_lab_want_turn): what was measured stays */
        l->keep_change = false;
        l->has_change = true;
        return;
    }
    l->has_change = false;
    if (l->run_text[o] != l->run_text[s] || l->runs[o].n != n) return;
    int *where = l->qk_order; /* where each token stood in the earlier order */
    bool same = true;
    for (int i = 0; i < n; i++) {
        where[l->run_order[o][i]] = i;
        same &= l->run_order[o][i] == l->run_order[s][i];
    }
    if (same) return;
    const Net_Model *tm = &l->model->weights.model;
    double sum = 0, max = 0;
    for (int a = 0; a < tm->layers; a++)
        for (int h = 0; h < tm->heads; h++) {
            const float *now = net_attn(&l->runs[s], a, h), *before = net_attn(&l->runs[o], a, h);
            for (int i = 0; i < n; i++) {
                int bi = where[l->run_order[s][i]];
                for (int j = 0; j < n; j++) {
                    int bj = where[l->run_order[s][j]];
                    double d =
                        fabs((double)now[(ptrdiff_t)i * n + j] - before[(ptrdiff_t)bi * n + bj]);
                    sum += d;
                    if (d > max) max = d;
                }
            }
        }
    l->change_mean = sum / ((double)tm->layers * tm->heads * n * n);
    l->change_max = max;
    l->has_change = true;
}

/* Every head's A of the shown pass, averaged over blocks of cells: thumb a
 * side, block k covering rows (and columns) [k·n/thumb, (k+1)·n/thumb). */
static void make_thumbs(Real_Lab *l) {
    const Net_Run *r = &l->runs[1 - l->work];
    const Net_Model *tm = &l->model->weights.model;
    int n = l->shown_n, T = n < REAL_LAB_THUMB ? n : REAL_LAB_THUMB;
    l->thumb = T;
    for (int a = 0; a < tm->layers; a++)
        for (int h = 0; h < tm->heads; h++) {
            const float *A = net_attn(r, a, h);
            float *dest = l->thumbs + (ptrdiff_t)(a * tm->heads + h) * T * T;
            for (int bi = 0; bi < T; bi++) {
                int i0 = bi * n / T, i1 = (bi + 1) * n / T;
                for (int bj = 0; bj < T; bj++) {
                    int j0 = bj * n / T, j1 = (bj + 1) * n / T;
                    double sum = 0;
                    for (int i = i0; i < i1; i++)
                        for (int j = j0; j < j1; j++) sum += A[(ptrdiff_t)i * n + j];
                    dest[bi * T + bj] = (float)(sum / ((i1 - i0) * (j1 - j0)));
                }
            }
        }
}

/* Means over the tokens of ‖a − b‖ for two n×w matrices (b NULL: ‖a‖). */
static float mean_norm(const float *a, const float *b, int n, int w) {
    double sum = 0;
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j < w; j++) {
            double d = a[(ptrdiff_t)i * w + j] - (b ? b[(ptrdiff_t)i * w + j] : 0);
            s += d * d;
        }
        sum += sqrt(s);
    }
    return (float)(sum / n);
}

/* The block diagram's numbers for the shown pass (run s). */
static void block_norms(Real_Lab *l, int s) {
    const Net_Run *r = &l->runs[s];
    const Net_Model *tm = &l->model->weights.model;
    int n = r->n, w = tm->width;
    ptrdiff_t size = (ptrdiff_t)n * w;
    for (int a = 0; a <= tm->layers; a++)
        l->stream_norm[a] = mean_norm(r->stream + a * size, NULL, n, w);
    for (int a = 0; a < tm->layers; a++) {
        l->attn_adds[a] = mean_norm(r->mid + a * size, r->stream + a * size, n, w);
        l->mlp_adds[a] = mean_norm(r->stream + (a + 1) * size, r->mid + a * size, n, w);
    }
}

/* The open head's vectors, and a_ij·‖v_j W_O^h‖. */
static bool open_head(Real_Lab *l) {
    const Net_Model *tm = &l->model->weights.model;
    Net_Run *r = &l->runs[1 - l->work];
    int n = l->shown_n;
    float *w = realloc(l->weighted, (size_t)n * (size_t)n * sizeof *w);
    if (!w) return false;
    l->weighted = w;
    float *share = realloc(l->weighted_share, (size_t)n * (size_t)n * sizeof *share);
    if (!share) return false;
    l->weighted_share = share;
    net_head_vectors(tm, r, l->open_layer, l->open_head, l->Q, l->K, l->V, l->norm);
    const float *A = net_attn(r, l->open_layer, l->open_head);
    float max = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float v = A[(ptrdiff_t)i * n + j] * l->norm[j];
            w[(ptrdiff_t)i * n + j] = v;
            if (v > max) max = v;
        }
    l->weighted_max = max;
    /* each row as shares of its total: on A's scale, 0 to 1, each row summing to 1 */
    for (int i = 0; i < n; i++) {
        double all = 0;
        for (int j = 0; j < n; j++) all += w[(ptrdiff_t)i * n + j];
        for (int j = 0; j < n; j++)
            share[(ptrdiff_t)i * n + j] = all > 0 ? (float)(w[(ptrdiff_t)i * n + j] / all) : 0;
    }
    /* with RoPE: the same head without the turn, from the same q and k */
    int d_h = tm->head_dim;
    if (tm->rope_theta > 0) {
        float *u = realloc(l->unturned, (size_t)n * (size_t)n * sizeof *u);
        if (!u) return false;
        l->unturned = u;
        l->turn_moves = net_head_turn_share(tm, r, l->open_layer, l->open_head, u);
    }
    /* queries and keys in one plane */
    memcpy(l->qk, l->Q, (size_t)n * (size_t)d_h * sizeof(float));
    memcpy(l->qk + (ptrdiff_t)n * d_h, l->K, (size_t)n * (size_t)d_h * sizeof(float));
    double *mean = l->pca, *axes = mean + d_h, *cov = axes + 2 * d_h;
    l->plane_share = d_h <= 512 ? stats_pca2(l->qk, 2 * n, d_h, mean, axes, cov) : 0;
    if (d_h > 512) memset(axes, 0, 2 * (size_t)d_h * sizeof *axes);
    for (int i = 0; i < 2 * n; i++)
        for (int c = 0; c < 2; c++) {
            double s = 0;
            for (int k = 0; k < d_h; k++)
                s += (l->qk[(ptrdiff_t)i * d_h + k] - mean[k]) * axes[c * d_h + k];
            l->plane[i * 2 + c] = (float)s;
        }
    return true;
}

/* The pass in runs[work] is complete: it is shown, and the next pass goes in the other run. */
static void pass_complete(Real_Lab *l) {
    l->pass_done = true;
    net_fault_text(&l->runs[l->work], l->fault, sizeof l->fault);
    if (l->fault[0]) return; /* nothing of it is shown; the view says where it broke */
    l->has_shown = true;
    memcpy(l->shown_ids, l->input, (size_t)l->n * sizeof *l->input);
    l->shown_n = l->n;
    measure_change(l, l->work);
    block_norms(l, l->work);
    l->work = 1 - l->work;
    l->head_done = false;
    l->generation++;
    make_thumbs(l);
    if (l->find) real_lab_find(l, (Real_Head_Kind)(l->find - 1));
}

/* On a thread (real_lab_threaded): started if it is not running, taken over
 * once it is done. False when the thread cannot start (the caller slices). */
static bool work_on_thread(Real_Lab *l) {
#ifdef REAL_LAB_THREADS
    if (!l->worker && !(l->worker = calloc(1, sizeof *l->worker))) return false;
    struct Real_Worker *w = l->worker;
    if (!w->running) {
        w->model = &l->model->weights.model;
        w->run = &l->runs[l->work];
        w->wake = l->wake;
        w->wake_ctx = l->wake_ctx;
        atomic_store(&w->cancel, false);
        atomic_store(&w->done, false);
        atomic_store(&w->stage, w->run->stage);
        if (thrd_create(&w->thread, worker_main, w) != thrd_success) return false;
        w->running = true;
    } else if (atomic_load(&w->done)) {
        thrd_join(w->thread, NULL);
        w->running = false;
        pass_complete(l);
    }
    return true;
#else
    (void)l;
    return false;
#endif
}

void real_lab_on_wake(Real_Lab *l, void (*wake)(void *ctx), void *ctx) {
    l->wake = l->gen.wake = wake;
    l->wake_ctx = l->gen.wake_ctx = ctx;
}

bool real_lab_on_threads(const Real_Lab *l) {
    if (!l->model) return false;
    bool pass_running = l->wait.running && !l->wait.landed; /* on the platform's worker */
#ifdef REAL_LAB_THREADS
    pass_running |= l->worker && l->worker->running && !atomic_load(&l->worker->done);
#endif
    bool pass_ok = l->n == 0 || l->pass_done || pass_running;
    bool head_ok = !l->has_shown || l->head_done || l->open_layer < 0;
    const Real_Gen *g = &l->gen;
    bool gen_running = real_gen_on_thread(g);
    bool gen_ok = !g->model || gen_running || (!g->running && !g->playing && g->asked == 0);
    return (pass_running || gen_running) && pass_ok && head_ok && gen_ok;
}

void real_lab_remote_stage(Real_Lab *l, int job, int stage) {
    if (remote_awaits(&l->wait, job)) l->wait.stage = stage;
}

int real_lab_stage(const Real_Lab *l) {
    if (l->wait.running && !l->wait.landed) return l->wait.stage;
#ifdef REAL_LAB_THREADS
    if (l->worker && l->worker->running) return atomic_load(&l->worker->stage);
#endif
    return l->runs[l->work].stage;
}

bool real_lab_threaded(Real_Lab *l, bool on) {
#ifdef REAL_LAB_THREADS
    if (!on) stop_worker(l);
    l->threaded = on;
    return true;
#else
    (void)l;
    return !on;
#endif
}

bool real_lab_work(Real_Lab *l, double budget_ms) {
    if (!l->model) return true;
    const Net_Model *tm = &l->model->weights.model;
    double start = clock_ms();
    if (l->n > 0 && !l->pass_done && !(l->threaded && work_on_thread(l)) &&
        !(!l->threaded && l->remote && work_remote(l)))
        while (l->n > 0 && !l->pass_done) {
            if (net_step(tm, &l->runs[l->work])) pass_complete(l);
            if (clock_ms() - start >= budget_ms) break;
        }
    if (l->has_shown && !l->head_done && l->open_layer >= 0 && !(l->head_done = open_head(l)))
        l->open_layer = l->open_head = -1; /* out of memory: no head open, nothing left owed */
    return (l->n == 0 || l->pass_done) && (l->head_done || l->open_layer < 0 || !l->has_shown);
}

double real_lab_head_score(const Real_Lab *l, Real_Head_Kind kind, int layer, int head) {
    const Net_Run *r = real_lab_shown(l);
    int n = l->shown_n;
    if (!r || n < 2 || layer < 0 || head < 0 || layer >= l->model->weights.model.layers ||
        head >= l->model->weights.model.heads)
        return NAN;
    if (kind == REAL_HEAD_TURN)
        return r->want_turn ? r->turn_moved[layer * l->model->weights.model.heads + head] : NAN;
    const float *A = net_attn(r, layer, head);
    const int32_t *ids = l->shown_ids;
    double sum = 0;
    int count = 0;
    for (int i = 1; i < n; i++) {
        const float *row = A + (ptrdiff_t)i * n;
        if (kind == REAL_HEAD_PREV || kind == REAL_HEAD_FIRST) {
            sum += row[kind == REAL_HEAD_PREV ? i - 1 : 0];
            count++;
            continue;
        }
        double on = 0; /* the weight on what followed each earlier copy of token i */
        bool repeated = false;
        for (int j = 0; j < i; j++)
            if (ids[j] == ids[i]) {
                on += row[j + 1];
                repeated = true;
            }
        if (repeated) {
            sum += on;
            count++;
        }
    }
    return count ? sum / count : NAN;
}

bool real_lab_best_head(const Real_Lab *l, Real_Head_Kind kind, int *layer, int *head) {
    if (!real_lab_shown(l)) return false;
    const Net_Model *tm = &l->model->weights.model;
    double best = -1;
    for (int a = 0; a < tm->layers; a++)
        for (int h = 0; h < tm->heads; h++) {
            double v = real_lab_head_score(l, kind, a, h);
            if (!isnan(v) && v > best) {
                best = v;
                *layer = a;
                *head = h;
            }
        }
    return best >= 0;
}

void real_lab_want_turn(Real_Lab *l) {
    if (l->want_turn || !l->model || !(l->model->weights.model.rope_theta > 0)) return;
    l->want_turn = true;
    /* the shown pass has none: the same tokens in the same order again, with it; what the
     * last reorder changed stays as it was measured */
    if (l->n > 0) {
        bool had = l->has_change;
        double mean = l->change_mean, max = l->change_max;
        int *order = l->qk_order;
        memcpy(order, l->order, (size_t)l->n * sizeof *order);
        real_lab_reorder(l, order);
        l->keep_change = had;
        l->change_mean = mean;
        l->change_max = max;
    }
}

void real_lab_find(Real_Lab *l, Real_Head_Kind kind) {
    if (kind == REAL_HEAD_TURN && !l->want_turn) {
        real_lab_want_turn(l); /* the best head once that pass is shown */
        l->find = 1 + (int)kind;
        return;
    }
    l->find = 1 + (int)kind;
    if (l->pass_done) {
        int a, h;
        if (real_lab_best_head(l, kind, &a, &h)) real_lab_open(l, a, h);
        l->find = 0;
    }
}

double real_lab_weighted_first(const Real_Lab *l) {
    int n = l->shown_n;
    if (!l->head_done || l->open_layer < 0 || n < 2) return NAN;
    double sum = 0;
    for (int i = 1; i < n; i++) {
        const float *row = l->weighted + (ptrdiff_t)i * n;
        double all = 0;
        for (int j = 0; j <= i; j++) all += row[j];
        sum += all > 0 ? row[0] / all : 0;
    }
    return sum / (n - 1);
}

void real_lab_settle(Real_Lab *l) {
    while (!real_lab_work(l, 1e9)) {
#ifdef REAL_LAB_THREADS
        if (l->worker && l->worker->running) { /* waits for it, rather than asking in a loop */
            thrd_join(l->worker->thread, NULL);
            l->worker->running = false;
            if (atomic_load(&l->worker->done)) pass_complete(l);
        }
#endif
    }
    real_gen_settle(&l->gen); /* the model writing, too */
}

void real_lab_open(Real_Lab *l, int layer, int head) {
    bool inside = l->model && layer >= 0 && head >= 0 && layer < l->model->weights.model.layers &&
                  head < l->model->weights.model.heads;
    l->open_layer = inside ? layer : -1;
    l->open_head = inside ? head : -1;
    l->head_done = false;
}

const Net_Run *real_lab_shown(const Real_Lab *l) {
    return l->model && l->has_shown ? &l->runs[1 - l->work] : NULL;
}

int real_lab_next(const Real_Lab *l, double temperature, int k, int32_t *ids, double *p) {
    const Net_Run *r = real_lab_shown(l);
    if (!r) return 0;
    int vocab = l->model->weights.model.vocab;
    if (k > vocab) k = vocab;
    export_real_top(r->logits, vocab, k, temperature, ids, p);
    return k;
}

void real_lab_free(Real_Lab *l) {
    stop_worker(l);
    free(l->worker);
    real_gen_free(&l->gen);
    bool threaded = l->threaded;
    net_free(&l->runs[0]);
    net_free(&l->runs[1]);
    free(l->ids);
    free(l->shown_ids);
    free(l->Q);
    free(l->K);
    free(l->V);
    free(l->norm);
    free(l->weighted);
    free(l->weighted_share);
    free(l->unturned);
    free(l->thumbs);
    free(l->plane);
    free(l->qk);
    free(l->pca);
    free(l->order);
    free(l->input);
    free(l->run_order[0]);
    free(l->run_order[1]);
    free(l->qk_order);
    char text[sizeof l->text];
    memcpy(text, l->text, sizeof text);
    long generation = l->generation;
    void (*wake)(void *) = l->wake;
    void *wake_ctx = l->wake_ctx;
    const Real_Remote *remote = l->remote;
    memset(l, 0, sizeof *l);
    real_lab_remote(l, remote);
    memcpy(l->text, text, sizeof text); /* the text outlives the model: the next one reads it */
    l->generation = generation;
    l->threaded = threaded;
    real_lab_on_wake(l, wake, wake_ctx); /* the window's, as threaded is */
}
