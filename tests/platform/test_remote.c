/* Passes posted to a worker (model/real_remote.h): the browser's Web Worker
 * runs Real_Server on its own copy of the model and the page lands what it
 * sends. Here the test plays the worker and the page on the desktop, with a
 * Real_Server of its own, answering each job a few frames after it was
 * posted, piece by piece, as the page does:
 *   - the Model view's pass from the worker is the pass in slices, bit for
 *     bit (stream, scores, A, logits, every head's RoPE share);
 *   - a new text while a pass is out: the stale answer lands nowhere, the
 *     next pass is posted only once it is in, and what is shown is the new
 *     text's;
 *   - the writing from the worker writes what the writing in slices writes
 *     (which test_generate holds to the command line): greedy, drawn with a
 *     seed, recomputing each step; and its cache holds the same keys, values
 *     and rows of A, bit for bit;
 *   - a worker that cannot take a job (none yet, out of its memory): the
 *     page runs it in slices and writes the same. */
#define _POSIX_C_SOURCE 200809L
#include "model/real_lab.h"
#include "model/real_remote.h"
#include "platform/checkpoint.h"
#include "reference_run.h"

#include <stdlib.h>
#include <string.h>

static char top[] = "/tmp/attnlab-remote-XXXXXX";

static void setup(void) {
    cr_assert(mkdtemp(top));
}

static void teardown(void) {
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(remote, .init = setup, .fini = teardown, .timeout = 240);

/* The worker: jobs as posted, answered in order. */
typedef struct Job {
    Remote_Kind kind;
    int job, n, arg;
    int32_t ids[256];
} Job;
typedef struct Worker {
    Real_Server server;
    Job jobs[16];
    int count;
    bool refuse_post; /* post says no: no worker, or not this model yet */
    bool refuse_run;  /* it runs out of memory */
    int posted;
} Worker;

static bool post(void *ctx, Remote_Kind kind, int job, const int32_t *ids, int n, int arg) {
    Worker *w = ctx;
    if (w->refuse_post) return false;
    cr_assert_lt(w->count, 16);
    cr_assert_leq(n, 256);
    Job *j = &w->jobs[w->count++];
    *j = (Job){.kind = kind, .job = job, .n = n, .arg = arg};
    memcpy(j->ids, ids, (size_t)n * sizeof *ids);
    w->posted++;
    return true;
}

/* The oldest job answered, each piece landed as the page lands it. */
static void answer(Worker *w, Real_Lab *l) {
    if (!w->count) return;
    Job j = w->jobs[0];
    memmove(w->jobs, w->jobs + 1, (size_t)--w->count * sizeof *w->jobs);
    bool ok = !w->refuse_run && real_serve_begin(&w->server, j.kind, j.ids, j.n, j.arg);
    while (ok && !real_serve_next(&w->server)) { /* a pass says how far it is */
        real_lab_remote_stage(l, j.job, real_serve_stage(&w->server));
        if (j.job == l->wait.job && !l->wait.stale)
            cr_assert_eq(real_lab_stage(l), real_serve_stage(&w->server));
    }
    Net_Fault fault = ok ? real_serve_fault(&w->server) : (Net_Fault){0};
    int fields = j.kind == REMOTE_PASS ? REMOTE_RUN_FIELDS : REMOTE_CACHE_FIELDS;
    for (int f = 0; ok && f < fields; f++)
        for (int i = 0; i < real_serve_chunks(&w->server, f); i++) {
            int64_t floats;
            const float *src = real_serve_field(&w->server, f, i, &floats);
            cr_assert(src && floats > 0);
            if (j.kind == REMOTE_PASS) {
                float *dest = real_lab_landing(l, j.job, f, floats);
                if (dest) memcpy(dest, src, (size_t)floats * sizeof *src);
            } else {
                real_gen_land(&l->gen, j.job, f, i, src, floats);
            }
        }
    if (j.kind == REMOTE_PASS)
        real_lab_landed(l, j.job, ok ? &fault : NULL);
    else
        real_gen_landed(&l->gen, j.job, real_serve_held(&w->server), ok ? &fault : NULL);
}

/* Frames until everything is shown and written, the worker answering every third. */
static int frames(Worker *w, Real_Lab *l) {
    int k = 0;
    while (!(real_lab_work(l, 2) & real_gen_work(&l->gen, 2)) || w->count) {
        if (++k % 3 == 0) answer(w, l);
        cr_assert_lt(k, 100000);
    }
    return k;
}

static void same_floats(const float *a, const float *b, int64_t n, const char *what) {
    cr_assert(memcmp(a, b, (size_t)n * sizeof *a) == 0, "%s differs", what);
}

static const char text[] = "The cat sat on the mat, and the cat sat again";

/* Two labs on one model, reading the text: one in slices, one with w as its worker (steps
 * in slices, not on threads, in both); turn: with every head's RoPE share. Returns how many
 * passes the remote one had shown before. */
static long pair(Real_Lab *sliced, Real_Lab *remote, Worker *w, const Real_Model *model,
                 bool turn) {
    static Real_Remote hooks;
    char err[600];
    long before = 0;
    *w = (Worker){.server.model = &model->weights.model};
    hooks = (Real_Remote){post, w};
    real_lab_remote(remote, &hooks);
    for (int k = 0; k < 2; k++) {
        Real_Lab *l = k ? remote : sliced;
        cr_assert(real_lab_attach(l, model, "m", err, sizeof err), "%s", err);
        before = l->generation;
        if (turn) real_lab_want_turn(l);
        real_gen_threaded(&l->gen, false);
        cr_assert(real_lab_set_text(l, text, strlen(text), err, sizeof err), "%s", err);
    }
    return before;
}

Test(remote, the_workers_pass_is_the_pass_in_slices_and_a_stale_answer_lands_nowhere) {
    char err[600];
    const char *families[][2] = {{"gpt2_reference.py", "--layers 2 --heads 4 --embd 32 --seed 3"},
                                 {"llama_reference.py", "--family qwen3 --heads 4 --kv-heads 2 "
                                                        "--head-dim 16 --seed 7"}};
    for (int f = 0; f < 2; f++) {
        static Checkpoint ck;
        const char *dir = ref_make(families[f][0], top, f ? "qwen3" : "gpt2", families[f][1]);
        cr_assert(checkpoint_open(dir, &ck, err, sizeof err), "%s", err);
        const Net_Model *m = &ck.model.weights.model;
        static Real_Lab sliced, remote;
        static Worker w;
        long shown_before = pair(&sliced, &remote, &w, &ck.model, f == 1);
        real_lab_settle(&sliced);
        frames(&w, &remote);
        cr_assert_eq(w.posted, 1, "one pass posted, not %d", w.posted);
        const Net_Run *a = real_lab_shown(&sliced), *b = real_lab_shown(&remote);
        cr_assert(a && b && a->n == b->n);
        int64_t n = a->n, L = m->layers, lh = L * m->heads;
        same_floats(a->stream, b->stream, (L + 1) * n * m->width, "the stream");
        same_floats(a->mid, b->mid, L * n * m->width, "the stream after attention");
        same_floats(a->scores, b->scores, lh * n * n, "the scores");
        same_floats(a->attn, b->attn, lh * n * n, "A");
        same_floats(a->logits, b->logits, m->vocab, "the logits");
        if (f) same_floats(a->turn_moved, b->turn_moved, lh, "every head's RoPE share");
        cr_assert_eq(remote.generation, shown_before + 1, "family %d: one pass shown", f);

        /* a new text while the pass is out: its answer is stale, the next waits for it */
        long shown = remote.generation;
        cr_assert(real_lab_set_text(&remote, "a dog", 5, err, sizeof err), "%s", err);
        real_lab_work(&remote, 2);
        cr_assert_eq(w.count, 1);
        cr_assert(real_lab_set_text(&remote, text + 4, strlen(text) - 4, err, sizeof err));
        real_lab_work(&remote, 2);
        cr_assert_eq(w.count, 1, "a second pass queued behind a stale one");
        answer(&w, &remote); /* the stale one */
        cr_assert_eq(remote.generation, shown, "a stale pass was shown");
        frames(&w, &remote);
        cr_assert_eq(remote.generation, shown + 1);
        cr_assert(real_lab_set_text(&sliced, text + 4, strlen(text) - 4, err, sizeof err));
        real_lab_settle(&sliced);
        a = real_lab_shown(&sliced), b = real_lab_shown(&remote);
        cr_assert_eq(a->n, b->n);
        same_floats(a->attn, b->attn, lh * a->n * a->n, "A of the new text");

        /* no worker for this model yet, or one out of memory: in slices, the same */
        cr_assert(real_lab_set_text(&sliced, "a dog", 5, err, sizeof err));
        real_lab_settle(&sliced);
        for (int refusal = 0; refusal < 2; refusal++) {
            w.refuse_post = refusal == 0;
            w.refuse_run = refusal == 1;
            int posted = w.posted;
            cr_assert(real_lab_set_text(&remote, refusal ? "a dog" : "a cat", 5, err, sizeof err));
            frames(&w, &remote);
            cr_assert_eq(w.posted, posted + refusal, "refusal %d", refusal);
            cr_assert_eq(real_lab_shown(&remote)->n, real_lab_shown(&sliced)->n);
            if (refusal)
                same_floats(real_lab_shown(&sliced)->attn, real_lab_shown(&remote)->attn,
                            lh * real_lab_shown(&sliced)->n * real_lab_shown(&sliced)->n,
                            "A in slices");
        }
        w.refuse_post = w.refuse_run = false;
        real_lab_free(&sliced);
        real_lab_free(&remote);
        real_serve_free(&w.server);
        checkpoint_close(&ck);
    }
}

/* A writing of count steps after the text. */
static void write_after(Real_Lab *l, Worker *w, const Net_Choice *how, bool recompute, int count) {
    char err[300];
    frames(w, l);
    cr_assert(real_gen_start(&l->gen, l->model, l->input, l->n, how, 11, err, sizeof err), "%s",
              err);
    if (recompute) cr_assert(real_gen_recompute(&l->gen, true, err, sizeof err), "%s", err);
    for (int k = 0; k < count; k++) real_gen_step(&l->gen);
    frames(w, l);
}

Test(remote, the_workers_writing_is_the_writing_in_slices_and_its_cache_too) {
    char err[600];
    static Checkpoint ck;
    const char *dir = ref_make("llama_reference.py", top, "llama",
                               "--family llama --heads 4 --kv-heads 2 --seed 5");
    cr_assert(checkpoint_open(dir, &ck, err, sizeof err), "%s", err);
    const Net_Model *m = &ck.model.weights.model;
    static Real_Lab sliced, remote;
    static Worker w;
    pair(&sliced, &remote, &w, &ck.model, false);
    const Net_Choice ways[3] = {{0, 0, 1}, {1.5, 20, 0.9}, {0, 0, 1}};
    for (int way = 0; way < 4; way++) {
        /* greedy, drawn, recomputing, and a worker out of memory for the text's pass */
        w.refuse_run = way == 3;
        const Net_Choice *how = &ways[way == 3 ? 1 : way];
        write_after(&sliced, &w, how, way == 2, 20);
        write_after(&remote, &w, how, way == 2, 20);
        w.refuse_run = false;
        const Real_Gen *a = &sliced.gen, *b = &remote.gen;
        cr_assert_eq(a->written, 20, "way %d: %d written", way, a->written);
        cr_assert_eq(b->written, a->written, "way %d", way);
        for (int k = 0; k < 20; k++)
            cr_assert_eq(a->chosen[k], b->chosen[k], "way %d, step %d: %d, %d", way, k,
                         a->chosen[k], b->chosen[k]);
        cr_assert(b->remote_on == (way != 3), "way %d: on the worker: %d", way, b->remote_on);
        const Net_Cache *x = &a->cache, *y = &b->cache;
        cr_assert_eq(x->n, y->n);
        int64_t gd = remote_kv_width(m);
        for (int l = 0; l < m->layers; l++) {
            same_floats(x->k + (int64_t)l * x->cap * gd, y->k + (int64_t)l * y->cap * gd, x->n * gd,
                        "the keys");
            same_floats(x->v + (int64_t)l * x->cap * gd, y->v + (int64_t)l * y->cap * gd, x->n * gd,
                        "the values");
            for (int h = 0; h < m->heads; h++)
                for (int i = 0; i < x->n; i++)
                    same_floats(net_cache_attn(x, l, h) + (int64_t)i * x->cap,
                                net_cache_attn(y, l, h) + (int64_t)i * y->cap, i + 1, "a row of A");
        }
        same_floats(x->logits, y->logits, m->vocab, "the logits");
        for (int k = 0; k < 20; k++)
            cr_assert_eq(a->top[k][0].p, b->top[k][0].p, "way %d, step %d", way, k);
    }
    /* a new writing while a step is out: its answer lands nowhere */
    real_gen_start(&remote.gen, &ck.model, remote.input, remote.n, &ways[0], 1, err, sizeof err);
    real_gen_step(&remote.gen);
    real_gen_work(&remote.gen, 2); /* the text's pass posted */
    answer(&w, &remote);
    real_gen_work(&remote.gen, 2); /* shown; the step posted */
    cr_assert_eq(w.count, 1);
    real_gen_reset(&remote.gen);
    answer(&w, &remote);
    cr_assert_eq(remote.gen.written, 0, "a reset writing took a stale step");
    real_lab_free(&sliced);
    real_lab_free(&remote);
    real_serve_free(&w.server);
    checkpoint_close(&ck);
}
