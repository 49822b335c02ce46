/* The Model view's writing; see real_gen.h. */
#include "real_gen.h"
#include "../checkpoint/bpe.h"
#include "../core/clock.h"
#include "../core/i18n.h"
#include "../core/text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef __EMSCRIPTEN__ /* the browser build has no threads: a step runs in slices there */
#include <stdatomic.h>
#include <threads.h>
#define REAL_GEN_THREADS 1

/* A job on a thread of its own: the cache and the step's slots are the
 * thread's until `done` is set; the frame reads only what earlier steps
 * wrote. */
struct Gen_Worker {
    thrd_t thread;
    bool running;
    atomic_bool done;
};
#else
struct Gen_Worker {
    bool running;
};
#endif

/* One slice of the job's pass: a layer of the text's pass (or of a recompute),
 * or of the cached step. g->slice_ms is how long it took: the guess of the
 * next one's time. True when that pass is done. */
static bool slice(Real_Gen *g, bool whole) {
    const Net_Model *m = &g->model->weights.model;
    double t = clock_ms();
    bool done = whole ? net_step(m, &g->prefill) : net_cache_next(m, &g->cache);
    g->slice_ms = clock_ms() - t;
    return done;
}

/* Whether the frame has room for another slice: the last one's time is the
 * guess, so a frame ends before its budget rather than a slice past it (in the
 * browser a layer of GPT-2 small is several ms; 12 ms and then one more made
 * frames of 20 to 25 ms). */
static bool room(const Real_Gen *g, double start, double budget_ms) {
    return clock_ms() - start + g->slice_ms < budget_ms;
}

/* Step job_step's choice from the last logits; false when the writing stops there (the job
 * is then done: nothing to run). */
static bool choose(Real_Gen *g) {
    const Net_Model *m = &g->model->weights.model;
    Net_Cache *c = &g->cache;
    int k = g->job_step;
    g->chosen[k] =
        net_choose(c->logits, m->vocab, &g->how, &g->rng, g->top[k], REAL_GEN_TOP, &g->top_n[k]);
    int32_t id = g->chosen[k];
    if (id < 0 || real_model_is_eos(g->model, id) || c->n == c->cap || k + 1 == REAL_GEN_MAX)
        return false;
    g->tokens[c->n] = id;
    return true;
}

/* The job under way, run until done or out of the frame's budget_ms (a slice
 * at least); true when done. The text's pass (job_step −1), or step job_step:
 * the choice from the last logits, then, unless it stops there, the token
 * through the cache. */
static bool job_run(Real_Gen *g, double budget_ms) {
    const Net_Model *m = &g->model->weights.model;
    double start = clock_ms();
    Net_Cache *c = &g->cache;
    if (g->job_step < 0) {
        while (!slice(g, true))
            if (!room(g, start, budget_ms)) return false;
        return true;
    }
    int k = g->job_step;
    if (c->stage < 0 && !g->prefill.keep) { /* not begun: the choice */
        if (!choose(g)) return true;
        int32_t id = g->chosen[k];
        if (g->recompute) { /* the whole pass over every token again, refilling the cache */
            if (!net_reserve(&g->prefill, m, c->n + 1)) {
                g->chosen[k] = -1;
                return true;
            }
            g->prefill.keep = c;
            net_begin(m, g->tokens, c->n + 1, &g->prefill);
            g->prefill.logit_rows = c->logit_rows;
            g->prefill.halves = !g->threaded;
        } else if (!net_cache_begin(m, c, id)) {
            return true;
        }
        if (!room(g, start, budget_ms)) return false;
    }
    if (g->prefill.keep) {
        while (!slice(g, true))
            if (!room(g, start, budget_ms)) return false;
        net_cache_prefill_finish(m, c, &g->prefill); /* a fault: c->fault, c->n unchanged */
        return true;
    }
    while (!slice(g, false))
        if (!room(g, start, budget_ms)) return false;
    return true;
}

#ifdef REAL_GEN_THREADS
static int worker_main(void *arg) {
    Real_Gen *g = arg;
    job_run(g, INFINITY);
    atomic_store(&g->worker->done, true);
    if (g->wake) g->wake(g->wake_ctx);
    return 0;
}
#endif

/* The frame's side of a finished job. */
static void job_done(Real_Gen *g) {
    g->running = false;
    if (g->job_step < 0) {
        bool ok = g->remote_on
                      ? g->cache.fault.kind == NET_FAULT_NONE /* landed whole */
                      : net_cache_prefill_finish(&g->model->weights.model, &g->cache, &g->prefill);
        if (!ok) {
            Net_Run fake = {.fault = g->cache.fault};
            net_fault_text(&fake, g->fault, sizeof g->fault);
            g->stop = GEN_FAULT;
        }
        g->prefill_ms = clock_ms() - g->job_start;
        g->ready = true;
        net_free(&g->prefill); /* its scores and weights are the cache's now */
        return;
    }
    int k = g->job_step;
    const Net_Cache *c = &g->cache;
    g->step_ms[k] = clock_ms() - g->job_start;
    if (g->chosen[k] < 0) {
        snprintf(g->fault, sizeof g->fault, "%s", _("out of memory"));
        g->stop = GEN_FAULT;
        return;
    }
    g->written = k + 1;
    if (real_model_is_eos(g->model, g->chosen[k]))
        g->stop = GEN_EOS;
    else if (k + 1 == REAL_GEN_MAX)
        g->stop = GEN_LIMIT;
    else if (c->fault.kind != NET_FAULT_NONE) {
        Net_Run fake = {.fault = c->fault};
        net_fault_text(&fake, g->fault, sizeof g->fault);
        g->stop = GEN_FAULT;
    } else if (c->n < g->prompt_n + g->written)
        g->stop = GEN_CONTEXT; /* written from a full context: no room for it */
}

/* The job posted to the platform's worker (real_remote.h): the choice is made here, as the
 * thread would make it, and the worker runs the token through its copy of the cache (or the
 * whole pass again). False when the worker cannot take it. */
static bool post_job(Real_Gen *g) {
    Net_Cache *c = &g->cache;
    int job = real_remote_job(), step = g->job_step;
    if (step >= 0 && !choose(g)) { /* it stops here: done, nothing posted */
        g->wait = (Remote_Wait){.running = true, .landed = true, .job = job};
        return true;
    }
    bool whole = step < 0 || g->recompute;
    int n = step < 0 ? g->prompt_n : c->n + 1;
    g->land_r0 = whole ? 0 : c->n;
    g->land_r1 = n;
    bool posted =
        whole ? g->remote->post(g->remote->ctx, REMOTE_PREFILL, job, g->tokens, n, c->cap)
              : g->remote->post(g->remote->ctx, REMOTE_STEP, job, g->tokens + c->n, 1, c->n);
    if (posted) g->wait = (Remote_Wait){.running = true, .job = job};
    return posted;
}

static void start_job(Real_Gen *g, int step) {
    g->job_step = step;
    /* in slices (the browser): the logits too, so no frame computes them all */
    int rows = g->threaded ? 0 : net_slice_rows(&g->model->weights.model);
    g->cache.logit_rows = g->prefill.logit_rows = rows;
    g->prefill.halves = !g->threaded;
    g->job_start = clock_ms();
    g->running = true;
    if (g->remote_on && !post_job(g)) {
        if (step >= 0) { /* the worker holds the cache, and it is gone */
            g->chosen[step] = -1;
            g->wait = (Remote_Wait){.running = true, .landed = true, .job = 0};
            return;
        }
        g->remote_on = false; /* the text's pass in slices, and every step after it */
    }
    if (g->remote_on) return;
#ifdef REAL_GEN_THREADS
    if (g->threaded) {
        if (!g->worker && !(g->worker = calloc(1, sizeof *g->worker))) {
            g->threaded = false;
        } else {
            atomic_store(&g->worker->done, false);
            if (thrd_create(&g->worker->thread, worker_main, g) == thrd_success) {
                g->worker->running = true;
                return;
            }
            g->threaded = false; /* no thread to be had: slices, as in the browser */
        }
    }
#endif
}

/* Where the worker's answer to job lands, in this cache's layout: the rows the job wrote. */
bool real_gen_land(Real_Gen *g, int job, int field, int index, const float *src, int64_t floats) {
    if (!g->model || !remote_awaits(&g->wait, job)) return false;
    const Net_Model *m = &g->model->weights.model;
    Net_Cache *c = &g->cache;
    int64_t r0 = g->land_r0, r1 = g->land_r1, rows = r1 - r0, gd = remote_kv_width(m);
    switch (field) {
    case REMOTE_CACHE_K:
    case REMOTE_CACHE_V:
        if (index < 0 || index >= m->layers || floats != rows * gd) return false;
        memcpy((field == REMOTE_CACHE_K ? c->k : c->v) + ((int64_t)index * c->cap + r0) * gd, src,
               (size_t)floats * sizeof *src);
        return true;
    case REMOTE_CACHE_ATTN:
        if (index < 0 || index >= m->layers * m->heads || floats != rows * r1) return false;
        for (int64_t i = 0; i < rows; i++) {
            float *row = net_cache_attn(c, index / m->heads, index % m->heads) + (r0 + i) * c->cap;
            memcpy(row, src + i * r1, (size_t)r1 * sizeof *row);
            memset(row + r1, 0, (size_t)(c->cap - r1) * sizeof *row);
        }
        return true;
    case REMOTE_CACHE_LOGITS:
        if (floats != m->vocab) return false;
        memcpy(c->logits, src, (size_t)floats * sizeof *src);
        return true;
    default:
        return false;
    }
}

void real_gen_landed(Real_Gen *g, int job, int held, const Net_Fault *fault) {
    if (!remote_done(&g->wait, job)) return;
    Net_Cache *c = &g->cache;
    if (!fault) { /* the worker could not run it */
        if (g->job_step >= 0) g->chosen[g->job_step] = -1;
        c->fault = (Net_Fault){0};
        if (g->job_step < 0) g->remote_on = false;
        return;
    }
    c->fault = *fault;
    if (fault->kind == NET_FAULT_NONE) c->n = held;
    c->stage = -1;
}

void real_gen_stop(Real_Gen *g) {
#ifdef REAL_GEN_THREADS
    if (g->worker && g->worker->running) {
        thrd_join(g->worker->thread, NULL);
        g->worker->running = false;
        job_done(g);
    }
#endif
    g->asked = 0;
    g->playing = false;
}

bool real_gen_start(Real_Gen *g, const Real_Model *m, const int32_t *ids, int n,
                    const Net_Choice *how, uint64_t seed, char *err, size_t errsz) {
    real_gen_stop(g);
    g->running = false;
    const Net_Model *tm = &m->weights.model;
    int cap = n + REAL_GEN_MAX < tm->positions ? n + REAL_GEN_MAX : tm->positions;
    if (n < 1 || n >= tm->positions)
        return text_fail(err, errsz,
                         _("the text fills the model's context: there is no room "
                           "to write"));
    if (net_cache_bytes(tm, cap) > NET_STORE_BUDGET || !net_cache_reserve(&g->cache, tm, cap) ||
        !net_reserve(&g->prefill, tm, n))
        return text_fail(err, errsz, _("out of memory for a pass over %d tokens"), cap);
    if (!g->worker) g->threaded = true;
#ifndef REAL_GEN_THREADS
    g->threaded = false;
#endif
    g->wait.stale = true; /* an answer to the writing before lands nowhere */
    g->remote_on = g->remote && !g->threaded;
    int32_t *tokens = realloc(g->tokens, sizeof *tokens * (size_t)cap);
    if (!tokens) return text_fail(err, errsz, _("out of memory for a pass over %d tokens"), cap);
    g->tokens = tokens;
    memcpy(tokens, ids, sizeof *ids * (size_t)n);
    g->model = m;
    g->prompt_n = n;
    g->written = g->wanted = 0;
    g->how = *how;
    g->seed = seed;
    rng_seed(&g->rng, seed);
    g->ready = false;
    g->stop = GEN_GOING;
    g->fault[0] = '\0';
    g->prefill.keep = &g->cache;
    net_begin(tm, ids, n, &g->prefill);
    start_job(g, -1);
    return true;
}

void real_gen_step(Real_Gen *g) {
    if (g->model && g->stop == GEN_GOING) {
        g->asked++;
        g->wanted++;
    }
}

void real_gen_play(Real_Gen *g, bool on) {
    g->playing = on && g->model && g->stop == GEN_GOING;
    g->next_play = clock_ms();
}

bool real_gen_work(Real_Gen *g, double budget_ms) {
    if (!g->model) return true;
    if (g->running) {
        bool on_thread = false;
#ifdef REAL_GEN_THREADS
        if (g->worker && g->worker->running) {
            if (!atomic_load(&g->worker->done)) return false;
            thrd_join(g->worker->thread, NULL);
            g->worker->running = false;
            on_thread = true;
        }
#endif
        if (g->remote_on) { /* the worker's answer */
            if (!g->wait.landed) return false;
            g->wait.running = false;
        } else if (!on_thread && !job_run(g, budget_ms)) {
            return false;
        }
        job_done(g);
    }
    if (g->stop != GEN_GOING) {
        g->asked = 0;
        g->playing = false;
        return true;
    }
    double now = clock_ms();
    bool play = g->playing && now >= g->next_play;
    if (g->ready && (g->asked > 0 || play)) {
        if (g->asked > 0)
            g->asked--;
        else
            g->wanted++; /* played */
        if (play) g->next_play = now + (g->play_ms > 0 ? g->play_ms : REAL_GEN_PLAY_MS);
        start_job(g, g->written);
        if (!g->threaded && !g->remote_on && job_run(g, budget_ms - (clock_ms() - now)))
            job_done(g);
    }
    return !g->running && g->asked == 0 && !g->playing;
}

void real_gen_settle(Real_Gen *g) {
    while (!real_gen_work(g, 1e9)) {
#ifdef REAL_GEN_THREADS
        if (g->worker && g->worker->running) { /* waits for it, rather than asking in a loop */
            thrd_join(g->worker->thread, NULL);
            g->worker->running = false;
            job_done(g);
        }
#endif
        g->next_play = 0; /* playing: to its end, the steps at once */
    }
}

bool real_gen_recompute(Real_Gen *g, bool on, char *err, size_t errsz) {
    if (on && g->model) {
        const Net_Model *m = &g->model->weights.model;
        if (!net_store_fits(m, g->cache.cap, err, errsz)) return false;
    }
    real_gen_stop(g); /* the step under way finishes as it began */
    g->recompute = on;
    return true;
}

void real_gen_reset(Real_Gen *g) {
    real_gen_stop(g);
    g->wait.stale = true;
    g->running = false;
    g->model = NULL;
    g->written = 0;
    g->ready = false;
}

bool real_gen_on_thread(const Real_Gen *g) {
    if (!g->running || g->playing || g->asked > 0) return false;
    if (g->remote_on) return g->wait.running && !g->wait.landed; /* on the platform's worker */
#ifdef REAL_GEN_THREADS
    return g->worker && g->worker->running && !atomic_load(&g->worker->done);
#else
    return false;
#endif
}

bool real_gen_threaded(Real_Gen *g, bool on) {
#ifdef REAL_GEN_THREADS
    real_gen_stop(g);
    g->threaded = on;
    if (!g->worker) g->worker = calloc(1, sizeof *g->worker);
    return true;
#else
    g->threaded = false;
    return !on;
#endif
}

void real_gen_free(Real_Gen *g) {
    real_gen_stop(g);
    net_cache_free(&g->cache);
    net_free(&g->prefill);
    free(g->tokens);
    free(g->worker);
    void (*wake)(void *) = g->wake; /* the window's, not the run's */
    void *wake_ctx = g->wake_ctx;
    const Real_Remote *remote = g->remote;
    memset(g, 0, sizeof *g);
    g->wake = wake;
    g->wake_ctx = wake_ctx;
    g->remote = remote;
}
