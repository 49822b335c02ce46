/* The real model on the command line; see model_cli.h. */
#define _POSIX_C_SOURCE 200809L
#include "model_cli.h"
#include "../core/clock.h"

#include "../core/i18n.h"

#include "../core/gemm.h"
#include "../core/text.h"
#include "../json/jsonw.h"
#include "../nn/net_cache.h"
#include "../model/export_real.h"
#include "../model/real_lab.h"
#include "../ui/view_state.h"
#include "checkpoint.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <threads.h>
#include <time.h>

int model_export(const Cli_Options *o) {
    static Checkpoint ck;
    char err[1024];
    if (!checkpoint_open(o->model, &ck, err, sizeof err)) {
        cli_report("attnlab: ", err);
        return 2;
    }
    int status = 0;
    const Net_Model *m = &ck.model.weights.model;
    int32_t *ids = malloc((size_t)m->positions * sizeof *ids);
    Net_Run run = {0};
    int n =
        ids ? real_model_tokenize(&ck.model, o->text, strlen(o->text), ids, err, sizeof err) : -1;
    if (!ids) snprintf(err, sizeof err, "out of memory");
    if (n < 0) {
        cli_report("attnlab: --text: ", err);
        status = 2;
    } else if (!net_store_fits(m, n, err, sizeof err)) {
        fprintf(stderr, "attnlab: %s: %s\n", o->model, err);
        status = 2;
    } else if (!net_reserve(&run, m, n)) {
        fprintf(stderr, _("attnlab: out of memory for %d tokens of %s\n"), n, o->model);
        status = 1;
    } else {
        run.want_turn = m->rope_theta > 0; /* exported as turn_moved */
        net_forward(m, ids, n, &run);
        if (run.fault.kind != NET_FAULT_NONE) { /* nothing printed: null means masked */
            char where[300];
            net_fault_text(&run, where, sizeof where);
            fprintf(stderr, _("attnlab: %s: the pass is not finite: %s\n"), o->model, where);
            status = 2;
        } else {
            export_real_json(&ck.model, o->model, ids, n, &run, stdout);
        }
    }
    net_free(&run);
    free(ids);
    checkpoint_close(&ck);
    return status;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The multiply-adds ×2 of a pass's products over n tokens. */
static double product_flops(const Net_Model *m, int n) {
    double w = m->width, N = n, inner = m->inner, H = m->heads;
    double G = m->kv_heads > 0 ? m->kv_heads : H, d = m->head_dim > 0 ? m->head_dim : w / H;
    double per_layer = 2 * N * w * (H + 2 * G) * d + 2 * 2 * N * N * H * d + 2 * N * H * d * w;
    if (m->mlp != NET_MLP_NONE && m->blocks[0].up_w)
        per_layer += (m->mlp == NET_MLP_SWIGLU ? 3 : 2) * 2 * N * w * inner;
    return m->layers * per_layer + 2 * w * m->vocab;
}

/* The window's sleep in its event loop, and the wake a thread gives it. */
typedef struct {
    mtx_t lock;
    cnd_t woken;
    bool pending;
} Bench_Waker;
static Bench_Waker bench_waker;

static void bench_wake(void *ctx) {
    Bench_Waker *w = ctx;
    mtx_lock(&w->lock);
    w->pending = true;
    cnd_signal(&w->woken);
    mtx_unlock(&w->lock);
}

static void bench_sleep(Bench_Waker *w, double ms) {
    struct timespec until;
    timespec_get(&until, TIME_UTC);
    long long ns = until.tv_nsec + (long long)(ms * 1e6);
    until.tv_sec += (time_t)(ns / 1000000000);
    until.tv_nsec = (long)(ns % 1000000000);
    mtx_lock(&w->lock);
    while (!w->pending)
        if (cnd_timedwait(&w->woken, &w->lock, &until) != thrd_success) break;
    w->pending = false;
    mtx_unlock(&w->lock);
}

int model_bench(const Cli_Options *o) {
    static Checkpoint ck;
    char err[1024];
    double t0 = clock_ms();
    if (!checkpoint_open(o->model, &ck, err, sizeof err)) {
        cli_report("attnlab: ", err);
        return 2;
    }
    double load_ms = clock_ms() - t0;
    const Net_Model *m = &ck.model.weights.model;
    static const int sizes[] = {16, 32, 64, 256};
    /* the norm is LayerNorm or RMSNorm, the activation GELU or SwiGLU's gate */
    static const char *const parts[NET_PARTS] = {"embed",   "norm",       "products",
                                                 "softmax", "activation", "other"};
    Net_Run run = {0};
    printf("{\n  \"model\": \"%s\",\n  \"backend\": \"%s\",\n  \"threads\": %d,\n"
           "  \"load_ms\": %.1f,\n  \"rows\": [",
           o->model, gemm_backend(), gemm_threads(), load_ms);
    int rows = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        int n = sizes[s];
        if (n > m->positions) continue;
        if (!net_reserve(&run, m, n)) {
            fprintf(stderr, "attnlab: out of memory for %d tokens\n", n);
            break;
        }
        int32_t ids[256];
        for (int i = 0; i < n; i++) ids[i] = (int32_t)((i * 7919 + 13) % m->vocab);
        int reps = n <= 32 ? 30 : n <= 64 ? 15 : 6;
        double t[30], alone[30];
        net_forward(m, ids, n, &run); /* warm: pages mapped, buffers touched */
        net_products(m, n, &run);
        for (int k = 0; k < reps; k++) {
            double a = clock_ms();
            net_forward(m, ids, n, &run);
            t[k] = clock_ms() - a;
        }
        for (int k = 0; k < reps; k++) {
            double a = clock_ms();
            net_products(m, n, &run);
            alone[k] = clock_ms() - a;
        }
        memset(run.ms, 0, sizeof run.ms);
        run.profile = true;
        for (int k = 0; k < reps; k++) net_forward(m, ids, n, &run);
        run.profile = false;
        qsort(t, (size_t)reps, sizeof *t, cmp_double);
        qsort(alone, (size_t)reps, sizeof *alone, cmp_double);
        double flops = product_flops(m, n);
        printf("%s\n    {\"n\": %d, \"forward_ms\": %.3f, \"products_alone_ms\": %.3f, "
               "\"products_gflops\": %.2f, \"parts_ms\": {",
               rows++ ? "," : "", n, t[reps / 2], alone[reps / 2],
               flops / (run.ms[NET_PART_PRODUCTS] / reps) / 1e6);
        for (int p = 0; p < NET_PARTS; p++)
            printf("%s\"%s\": %.3f", p ? ", " : "", parts[p], run.ms[p] / reps);
        printf("}}");
    }
    /* the window's cost of an edit: a 32-token text set, then the frames until the one that
     * shows its pass. On the desktop the pass runs on its thread and the window sleeps until
     * the thread wakes it (a frame every VIEW_PROGRESS_SECONDS shows progress); in the
     * browser, frames at 60 Hz each run 12 ms slices of it. Then opening another head */
    static Real_Lab lab;
    mtx_init(&bench_waker.lock, mtx_plain);
    cnd_init(&bench_waker.woken);
    printf("\n  ],\n");
    for (int threaded = 1; threaded >= 0 && m->positions >= 32; threaded--) {
        if (!real_lab_attach(&lab, &ck.model, o->model, err, sizeof err)) break;
        real_lab_threaded(&lab, threaded);
        static const char text[] = /* 32 GPT-2 tokens (31 for the odd runs, one byte shorter) */
            "The quick brown fox jumps over the lazy dog. The quick brown fox jumps over the lazy "
            "dog, and then the fox ran off into the woods to sleep.";
        /* another tokenizer cuts it into more: the longest start of it that is 32 of its
         * tokens at most, at a space */
        size_t len = strlen(text);
        int32_t probe[256];
        while (len > 1 && real_model_tokenize(&ck.model, text, len, probe, NULL, 0) > 32) {
            do len--;
            while (len > 1 && text[len] != ' ');
        }
        double times[9], opens[9];
        int frames = 0;
        real_lab_on_wake(&lab, threaded ? bench_wake : NULL, &bench_waker);
        for (int k = 0; k < 9; k++) {
            double a = clock_ms();
            real_lab_set_text(&lab, text, len - (size_t)(k % 2), err, sizeof err);
            frames = 0;
            while (!real_lab_work(&lab, REAL_LAB_BUDGET_MS)) {
                frames++;
                if (real_lab_on_threads(&lab)) { /* the window sleeps until the thread wakes it */
                    bench_sleep(&bench_waker, VIEW_PROGRESS_SECONDS * 1000);
                    continue;
                }
                /* the browser: the rest of a 16.7 ms frame */
                double next = a + frames * (1000.0 / 60), left = next - clock_ms();
                if (left > 0) thrd_sleep(&(struct timespec){.tv_nsec = (long)(left * 1e6)}, NULL);
            }
            times[k] = clock_ms() - a;
            a = clock_ms();
            real_lab_open(&lab, k % m->layers, (k * 5) % m->heads);
            real_lab_work(&lab, REAL_LAB_BUDGET_MS);
            opens[k] = clock_ms() - a;
        }
        qsort(times, 9, sizeof *times, cmp_double);
        qsort(opens, 9, sizeof *opens, cmp_double);
        printf("  \"%s\": {\"tokens\": %d, \"on_screen_ms\": %.1f, \"frames\": %d, "
               "\"open_head_ms\": %.2f},\n",
               threaded ? "edit" : "edit_sliced", lab.n, times[4], frames + 1, opens[4]);
        real_lab_free(&lab);
    }
    /* generation: one step on a KV cache holding 255 tokens (the 256th token's row), against
     * the whole pass over 256 tokens that recomputing everything costs */
    Net_Cache cache = {0};
    if (m->positions >= 256 && net_cache_reserve(&cache, m, 256) && net_reserve(&run, m, 256)) {
        int32_t ids[256];
        for (int i = 0; i < 256; i++) ids[i] = (int32_t)((i * 7919 + 13) % m->vocab);
        for (int i = 0; i < 255; i++) net_cache_step(m, &cache, ids[i]);
        double step[41], whole[7];
        for (int k = 0; k < 41; k++) {
            cache.n = 255; /* the same step again: it rewrites row 255 alone */
            double a = clock_ms();
            net_cache_step(m, &cache, ids[255]);
            step[k] = clock_ms() - a;
        }
        for (int k = 0; k < 7; k++) {
            double a = clock_ms();
            net_forward(m, ids, 256, &run);
            whole[k] = clock_ms() - a;
        }
        qsort(step, 41, sizeof *step, cmp_double);
        qsort(whole, 7, sizeof *whole, cmp_double);
        printf("  \"cached_step\": {\"context\": 256, \"step_ms\": %.3f, \"recompute_ms\": %.3f, "
               "\"step_madds\": %lld, \"recompute_madds\": %lld},\n",
               step[20], whole[3], (long long)net_cache_step_madds(m, 255),
               (long long)net_pass_madds(m, 256));
    }
    net_cache_free(&cache);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("  \"peak_rss_mb\": %.1f\n}\n", ru.ru_maxrss / 1024.0);
    net_free(&run);
    checkpoint_close(&ck);
    return 0;
}

int model_generate(const Cli_Options *o) {
    static Checkpoint ck;
    char err[1024];
    if (!checkpoint_open(o->model, &ck, err, sizeof err)) {
        cli_report("attnlab: ", err);
        return 2;
    }
    const Real_Model *rm = &ck.model;
    const Net_Model *m = &rm->weights.model;
    int context = m->positions, status = 0;
    int32_t *ids = malloc(((size_t)context + 1) * sizeof *ids); /* the text, what is written */
    Net_Cache c = {0};
    int n = ids ? real_model_tokenize(rm, o->text, strlen(o->text), ids, err, sizeof err) : -1;
    int cap = n + o->generate < context ? n + o->generate : context;
    if (!ids) snprintf(err, sizeof err, "out of memory");
    if (n < 0) {
        cli_report("attnlab: --text: ", err);
        status = 2;
    } else if (n == 0) {
        fprintf(stderr, "%s",
                _("attnlab: --text: it gives no tokens, so the model has nothing "
                  "to read\n"));
        status = 2;
    } else if (n >= context) {
        fprintf(stderr,
                _("attnlab: --text: its %d tokens fill the model's context (%d tokens): there is "
                  "no room to write\n"),
                n, context);
        status = 2;
    } else if (net_cache_bytes(m, cap) > NET_STORE_BUDGET) {
        fprintf(stderr,
                _("attnlab: %s: %d tokens of keys, values and weights would take %.1f GiB; at "
                  "most %.0f GiB are kept (ask for fewer with --generate)\n"),
                o->model, cap, (double)net_cache_bytes(m, cap) / (1 << 30),
                (double)NET_STORE_BUDGET / (1 << 30));
        status = 2;
    } else if (!net_cache_reserve(&c, m, cap)) {
        fprintf(stderr, _("attnlab: out of memory for %d tokens of %s\n"), cap, o->model);
        status = 1;
    }
    Net_Run text = {0}; /* the text in one pass, its keys and values kept: as the window does */
    if (status == 0 && !net_reserve(&text, m, n)) {
        fprintf(stderr, _("attnlab: out of memory for %d tokens of %s\n"), n, o->model);
        status = 1;
    }
    if (status == 0 && !net_cache_prefill(m, &c, &text, ids, n)) status = 3;
    net_free(&text);
    const char *stop = "steps";
    if (status == 0) {
        Net_Choice how = {o->temperature, o->top_k, o->top_p};
        uint64_t seed = o->has[SET_SEED] ? (uint64_t)o->value[SET_SEED] : 0;
        int written =
            export_real_generate(rm, o->model, ids, n, o->generate, &how, seed, &c, stdout, &stop);
        if (written < 0)
            status = !strcmp(stop, "not finite") ? 3 : 1;
        else if (!strcmp(stop, "context"))
            fprintf(stderr,
                    _("attnlab: %s: the model's context is full at %d tokens: it wrote %d "
                      "of the %d asked for\n"),
                    o->model, context, written, o->generate);
    }
    if (status == 3) { /* a number stopped being finite */
        char where[300];
        Net_Run fake = {.fault = c.fault};
        net_fault_text(&fake, where, sizeof where);
        fprintf(stderr, _("attnlab: %s: the pass is not finite: %s\n"), o->model, where);
        status = 2;
    }
    net_cache_free(&c);
    free(ids);
    checkpoint_close(&ck);
    return status;
}
