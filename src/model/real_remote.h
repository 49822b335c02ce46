/* Passes run elsewhere: in the browser, a Web Worker that holds its own copy
 * of the model (platform/web/worker.c), so the page's frames never run a
 * layer. The platform gives the Model view a Real_Remote; the view posts a job
 * through it and goes on drawing. When the worker answers, the platform lands
 * the results where the job's numbers go (real_lab_landing, real_gen_landing:
 * a destination, or NULL for an answer nobody waits for any more) and then
 * says the job is done (real_lab_landed, real_gen_landed). The worker runs the
 * same code as the desktop's threads, so the numbers are the same bit for bit
 * as a pass run in slices on the page.
 *
 * Jobs are numbered (real_remote_job); a job that a new text, order or
 * writing has overtaken is stale, and its answer lands nowhere. The worker
 * answers in the order jobs were posted.
 *
 *   post(ctx, kind, job, ids, n, arg)
 *       REMOTE_PASS: the pass over ids[0 … n) (arg 1: with every head's RoPE share, as
 *       Net_Run.want_turn). REMOTE_PREFILL: a cache of arg tokens filled by a pass over
 *       ids[0 … n). REMOTE_STEP: token ids[0] through that cache at position arg. False when
 *       the worker cannot take it (none, or it has not opened this model): the caller
 *       runs the job in slices itself
 *   int real_remote_job(void)
 *       a job number never given before (1, 2, …)
 *
 * The worker's side, the same for every platform (a test plays it on the
 * desktop): a Real_Server runs a job on its model and says what to send back.
 *   bool real_serve(Real_Server *s, Remote_Kind kind, const int32_t *ids, int n, int arg)
 *       the job, as post describes it, run whole; false when out of memory (or, for a step,
 *       a position the cache does not hold): nothing is sent but the refusal
 *   bool real_serve_begin(Real_Server *s, Remote_Kind kind, const int32_t *ids, int n,
 *                         int arg)
 *   bool real_serve_next(Real_Server *s)
 *   int real_serve_stage(const Real_Server *s)
 *       the same in steps, so the worker can say how far a pass is: begin (false as
 *       real_serve), then next until it is true; a pass runs a layer a next (stage: the layers
 *       done), a cache job runs whole in begin
 *   int real_serve_chunks(const Real_Server *s, int field)
 *       how many pieces the last job sends of a field (Remote_Run_Field after a pass,
 *       Remote_Cache_Field after a cache job): 1, or a layer's, a head's; 0 for none
 *   const float *real_serve_field(Real_Server *s, int field, int index, int64_t *floats)
 *       piece index of it and its length (NULL, 0 when out of memory). A cache job's
 *       pieces: for every layer its keys' (or values') rows r0 … r1 − 1, G·d floats each;
 *       for every layer and head its rows of A, r1 floats each (row i's i + 1 weights, then
 *       zeros); the logits
 *   Net_Fault real_serve_fault(const Real_Server *s)
 *       where the last job stopped being finite (kind NET_FAULT_NONE: it did not)
 *   int real_serve_held(const Real_Server *s)
 *       the tokens its cache holds after the last cache job
 *   void real_serve_free(Real_Server *s)
 */
#ifndef ATTN_REAL_REMOTE_H
#define ATTN_REAL_REMOTE_H

#include "../nn/net_cache.h"

#include <stdbool.h>
#include <stdint.h>

typedef enum Remote_Kind { REMOTE_PASS = 0, REMOTE_PREFILL, REMOTE_STEP } Remote_Kind;

/* What a pass lands, in Net_Run's layout (net.h), and what a cache job lands,
 * in Net_Cache's (net_cache.h): the rows it wrote. */
typedef enum Remote_Run_Field {
    REMOTE_RUN_STREAM = 0, /* (layers + 1)×n×w */
    REMOTE_RUN_MID,        /* layers×n×w */
    REMOTE_RUN_SCORES,     /* layers×heads×n×n */
    REMOTE_RUN_ATTN,       /* layers×heads×n×n */
    REMOTE_RUN_LOGITS,     /* vocab */
    REMOTE_RUN_TURN,       /* layers×heads */
    REMOTE_RUN_FIELDS
} Remote_Run_Field;
typedef enum Remote_Cache_Field {
    REMOTE_CACHE_K = 0, /* a chunk a layer: the rows written, G·d floats each */
    REMOTE_CACHE_V,
    REMOTE_CACHE_ATTN,   /* a chunk a layer and head (layer·heads + head): the rows, r1 apart */
    REMOTE_CACHE_LOGITS, /* vocab */
    REMOTE_CACHE_FIELDS
} Remote_Cache_Field;

typedef struct Real_Remote {
    bool (*post)(void *ctx, Remote_Kind kind, int job, const int32_t *ids, int n, int arg);
    void *ctx;
} Real_Remote;

/* A job posted and not yet taken over: running until its answer is in; landed once it is
 * (the results where they go); stale when overtaken (its answer lands nowhere). */
typedef struct Remote_Wait {
    bool running, landed, stale;
    int job;
    int stage; /* a pass: the layers the worker has done, as it says */
} Remote_Wait;

int real_remote_job(void);

/* G·d: a token's key (or value) row, every key/value head's side by side */
static inline int remote_kv_width(const Net_Model *m) {
    int d = m->head_dim > 0 ? m->head_dim : m->width / (m->heads > 0 ? m->heads : 1);
    return (m->kv_heads > 0 ? m->kv_heads : m->heads) * d;
}

/* whether job's results are to land: it is the one awaited, not stale, not yet landed */
static inline bool remote_awaits(const Remote_Wait *w, int job) {
    return w->running && !w->stale && !w->landed && w->job == job;
}

/* job's answer is in: true when it is to be taken over (landed), false when nobody waits
 * for it (a stale one no longer holds the next back) */
static inline bool remote_done(Remote_Wait *w, int job) {
    if (!w->running || w->landed || w->job != job) return false;
    if (w->stale) {
        w->running = false;
        return false;
    }
    w->landed = true;
    return true;
}

typedef struct Real_Server {
    const Net_Model *model;
    Net_Run run;     /* REMOTE_PASS's */
    Net_Run prefill; /* REMOTE_PREFILL's pass */
    Net_Cache cache;
    Remote_Kind kind; /* the last job's */
    int r0, r1;       /* the cache's rows it wrote */
    float *rows;      /* scratch: a head's rows of A as sent */
} Real_Server;

bool real_serve(Real_Server *s, Remote_Kind kind, const int32_t *ids, int n, int arg);
bool real_serve_begin(Real_Server *s, Remote_Kind kind, const int32_t *ids, int n, int arg);
bool real_serve_next(Real_Server *s);
int real_serve_stage(const Real_Server *s);
int real_serve_chunks(const Real_Server *s, int field);
const float *real_serve_field(Real_Server *s, int field, int index, int64_t *floats);
Net_Fault real_serve_fault(const Real_Server *s);
int real_serve_held(const Real_Server *s);
void real_serve_free(Real_Server *s);

#endif
