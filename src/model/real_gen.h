/* The Model view's writing: the model writes after the text, a token a step,
 * on its KV cache (nn/net_cache.h), off the frame: each step on a thread of
 * its own on the desktop, in the page's Web Worker in the browser (no threads
 * there; real_gen_land), or, without either, a layer a slice, so a frame never
 * waits for a step.
 *
 * The text goes into the cache by one pass (net_cache_prefill); then each
 * step chooses the next token from the last logits (greedy, or drawn under a
 * temperature, cut to top-k and top-p, from the seeded generator) and runs it
 * through the cache.
 * Every step keeps its candidates and its choice, and the cache keeps every
 * row of weights as it was written: scrubbing back shows them unchanged.
 *
 *   bool real_gen_start(Real_Gen *g, const Real_Model *m, const int32_t *ids, int n,
 *                       const Net_Choice *how, uint64_t seed, char *err, size_t errsz)
 *       a new writing after these n ids (stops what ran); the text's pass is queued.
 *       how->temperature 0 is greedy; the draws start from seed. It stops at any of the
 *       model's end-of-text tokens (real_model_eos). False with a line when the cache cannot
 *       be had
 *   void real_gen_step(Real_Gen *g)
 *       one more token asked for (none once stopped)
 *   void real_gen_play(Real_Gen *g, bool on)
 *       a step every g->play_ms (REAL_GEN_PLAY_MS unless set) while on, until it stops
 *   bool real_gen_work(Real_Gen *g, double budget_ms)
 *       the frame's turn: takes over a finished step, starts the next asked for; without
 *       threads runs up to budget_ms of it. True when nothing runs or waits
 *   void real_gen_settle(Real_Gen *g)
 *       every step asked for done (a screenshot, a test)
 *   void real_gen_stop(Real_Gen *g)
 *       nothing running (a thread is joined), nothing asked for, playing off
 *   bool real_gen_recompute(Real_Gen *g, bool on, char *err, size_t errsz)
 *       each step from now on recomputes the whole pass over the text and what is written
 *       (refilling the cache from it) instead of running one row through the cache: the
 *       same tokens, at the cost the cache saves. False with a line when that pass's
 *       weights would not fit (net_store_fits)
 *   void real_gen_reset(Real_Gen *g)
 *       stopped and emptied: nothing written (the text changed)
 *   void real_gen_free(Real_Gen *g)
 *   bool real_gen_threaded(Real_Gen *g, bool on)
 *       steps on a thread (the default on the desktop) or in slices; false where threads
 *       are not to be had
 *   bool real_gen_land(Real_Gen *g, int job, int field, int index, const float *src,
 *                      int64_t floats)
 *   void real_gen_landed(Real_Gen *g, int job, int held, const Net_Fault *fault)
 *       where threads are not to be had but a worker is (real_lab_remote: the browser's), a
 *       writing's jobs go to it: its text's pass, and each step (the choice made here, as a
 *       thread would). Its answer to job lands piece by piece (real_serve_field's pieces;
 *       false for a stale job or a piece that does not fit), then the job is done: the cache
 *       holds `held` tokens, or fault says where a number stopped being finite; fault NULL
 *       when the worker could not run it (out of its memory): the text's pass then runs here
 *       in slices, a step stops the writing
 *   bool real_gen_on_thread(const Real_Gen *g)
 *       a step runs on the thread (or the platform's worker) and nothing else is owed (not
 *       playing, no step asked for): the frame can wait for it. g->wake(g->wake_ctx), if set, is
 * called on the thread as the step finishes
 */
#ifndef ATTN_REAL_GEN_H
#define ATTN_REAL_GEN_H

#include "../checkpoint/real_model.h"
#include "../core/rng.h"
#include "../nn/net_cache.h"
#include "real_remote.h"

#include <stdbool.h>
#include <stdint.h>

#define REAL_GEN_MAX     128 /* tokens the window writes after a text */
#define REAL_GEN_TOP     10  /* candidates kept a step */
#define REAL_GEN_PLAY_MS 350 /* between two steps while playing */

typedef enum Real_Gen_Stop {
    GEN_GOING = 0,
    GEN_EOS,     /* the end-of-text token was written */
    GEN_CONTEXT, /* the model's context is full */
    GEN_LIMIT,   /* REAL_GEN_MAX written */
    GEN_FAULT    /* a number stopped being finite: fault says where */
} Real_Gen_Stop;

typedef struct Real_Gen {
    const Real_Model *model;
    Net_Cache cache;
    Net_Run prefill; /* the text's pass, its keys and values kept in the cache */
    int prompt_n;    /* the text's tokens */
    int written;     /* tokens written, shown */
    int32_t chosen[REAL_GEN_MAX];
    Net_Candidate top[REAL_GEN_MAX][REAL_GEN_TOP];
    int top_n[REAL_GEN_MAX];
    double step_ms[REAL_GEN_MAX]; /* each step's time */
    double prefill_ms;
    Net_Choice how; /* greedy (temperature 0) or drawn, cut to top-k and top-p */
    uint64_t seed;
    Rng rng;
    double play_ms; /* between two steps while playing (0: REAL_GEN_PLAY_MS) */
    bool ready;     /* the text's pass is done */
    int asked;      /* steps asked for and not yet begun */
    int wanted;     /* steps asked for, or begun while playing, since the start */
    bool running;   /* a job (the text's pass or a step) is under way */
    bool playing;
    bool recompute;   /* each step runs the whole pass again (to compare), not the cache's row */
    int32_t *tokens;  /* the text, then what is written: what a recompute reads */
    double next_play; /* when playing: clock_ms of the next step */
    Real_Gen_Stop stop;
    char fault[300];
    /* the job under way */
    int job_step; /* the step it writes, or −1: the text's pass */
    double job_start;
    double slice_ms; /* the last slice's time: the guess of the next one's (sliced steps) */
    bool threaded;
    struct Gen_Worker *worker;
    void (*wake)(void *ctx); /* called on the thread as a step finishes (real_lab_on_wake) */
    void *wake_ctx;
    const Real_Remote *remote; /* the platform's worker (real_lab_remote), or NULL */
    bool remote_on;            /* this writing's jobs go to it: it holds the cache's twin */
    Remote_Wait wait;          /* the job posted to it */
    int land_r0, land_r1;      /* the cache's rows that job writes */
} Real_Gen;

bool real_gen_start(Real_Gen *g, const Real_Model *m, const int32_t *ids, int n,
                    const Net_Choice *how, uint64_t seed, char *err, size_t errsz);
void real_gen_step(Real_Gen *g);
void real_gen_play(Real_Gen *g, bool on);
bool real_gen_work(Real_Gen *g, double budget_ms);
void real_gen_settle(Real_Gen *g);
void real_gen_stop(Real_Gen *g);
bool real_gen_recompute(Real_Gen *g, bool on, char *err, size_t errsz);
void real_gen_reset(Real_Gen *g);
void real_gen_free(Real_Gen *g);
bool real_gen_threaded(Real_Gen *g, bool on);
bool real_gen_on_thread(const Real_Gen *g);
bool real_gen_land(Real_Gen *g, int job, int field, int index, const float *src, int64_t floats);
void real_gen_landed(Real_Gen *g, int job, int held, const Net_Fault *fault);

#endif
