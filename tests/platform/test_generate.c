/* Generation (`--generate`, nn/net_cache.h) on checkpoints the reference
 * tools write, of every family (GPT-2; Llama with grouped-query heads; Qwen2's
 * biases; Qwen3's q/k norms):
 *   - greedy, 32 steps: each token written is the float64 pass's argmax, each
 *     candidate's p its softmax within 1e-5, each step's row of weights the
 *     float64 row within 1e-4 (tests/tools/generation_check.py);
 *   - the cache against the whole pass recomputed at every step: the logits
 *     within 1e-5 of the largest, every head's new row within 1e-5; and rows
 *     written earlier never change (what scrubbing back shows is what was);
 *   - a seed gives the same text again; top-k and top-p keep their cut;
 *   - the context's end, the end-of-text token and misused options are one
 *     line each. */
#define _POSIX_C_SOURCE 200809L
#include "model/real_gen.h"
#include "nn/net_cache.h"
#include "platform/checkpoint.h"
#include "reference_run.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static char top[] = "/tmp/attnlab-generate-XXXXXX";

static void setup(void) {
    cr_assert(mkdtemp(top));
}

static void teardown(void) {
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(generate, .init = setup, .fini = teardown, .timeout = 240);

static const char *const families[][3] = {
    {"gpt2_reference.py", "gpt2", "--layers 2 --heads 4 --embd 32 --positions 128 --seed 3"},
    {"llama_reference.py", "llama", "--family llama --heads 4 --kv-heads 2 --seed 5"},
    {"llama_reference.py", "qwen2", "--family qwen2 --heads 4 --kv-heads 1 --seed 6"},
    {"llama_reference.py", "qwen3",
     "--family qwen3 --heads 4 --kv-heads 2 --head-dim 16 "
     "--seed 7"},
};
static const char text[] = "The cat sat on the mat";

static Run generate(const char *dir, const char *options) {
    char args[1200];
    snprintf(args, sizeof args, "--model '%s' --text '%s' %s --export json", dir, text, options);
    return run_attnlab(args);
}

Test(generate, greedy_steps_are_the_float64_pass_argmax_in_every_family) {
    if (getenv("ATTNLAB_SANITIZED")) cr_skip("the normal pass checks the numbers");
    for (size_t f = 0; f < sizeof families / sizeof *families; f++) {
        const char *dir = ref_make(families[f][0], top, families[f][1], families[f][2]);
        Run r = generate(dir, "--generate 32");
        cr_assert_eq(r.status, 0, "%s: %s", families[f][1], r.err);
        cJSON *root = cJSON_Parse(r.out);
        cr_assert(root, "%s: not JSON", families[f][1]);
        cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(root, "steps")), 32, "%s: %s",
                     families[f][1], cJSON_GetObjectItem(root, "stop")->valuestring);
        cJSON_Delete(root);
        char path[400], cmd[1200];
        snprintf(path, sizeof path, "%s/%s.json", top, families[f][1]);
        FILE *out = fopen(path, "w");
        cr_assert(out);
        fputs(r.out, out);
        fclose(out);
        snprintf(cmd, sizeof cmd, "%s '%s/../tools/generation_check.py' '%s' '%s'", python(),
                 test_env("ATTNLAB_TESTDATA"), dir, path);
        FILE *p = popen(cmd, "r");
        char *said = slurp(p);
        cr_assert_eq(pclose(p), 0, "%s: %s", families[f][1], said);
        free(said);
        run_free(&r);
    }
}

/* The greedy choice from logits. */
static int32_t argmax(const float *v, int n) {
    int32_t best = 0;
    for (int k = 1; k < n; k++)
        if (v[k] > v[best]) best = k;
    return best;
}

Test(generate, the_cache_gives_the_whole_pass_at_every_step_and_never_rewrites_a_row) {
    enum { STEPS = 24 };
    for (size_t f = 0; f < sizeof families / sizeof *families; f++) {
        static Checkpoint ck;
        char err[600];
        const char *dir = ref_make(families[f][0], top, families[f][1], families[f][2]);
        cr_assert(checkpoint_open(dir, &ck, err, sizeof err), "%s", err);
        const Net_Model *m = &ck.model.weights.model;
        int32_t ids[64];
        int n = real_model_tokenize(&ck.model, text, strlen(text), ids, err, sizeof err);
        cr_assert(n > 0 && n + STEPS <= 64, "%s", err);
        Net_Cache c = {0};
        Net_Run full = {0};
        cr_assert(net_cache_reserve(&c, m, n + STEPS));
        cr_assert(net_reserve(&full, m, n + STEPS));
        /* each step's row of layer 0, head 0, as it was written */
        static float kept[64][64];
        for (int k = 0; k < n + STEPS; k++) {
            if (k >= n) ids[k] = argmax(c.logits, m->vocab); /* greedy, from the cache */
            cr_assert(net_cache_step(m, &c, ids[k]));
            memcpy(kept[k], net_cache_attn(&c, 0, 0) + (ptrdiff_t)k * c.cap,
                   sizeof(float) * (size_t)(k + 1));
            net_forward(m, ids, k + 1, &full); /* the whole pass, recomputed */
            double top_logit = 0, worst = 0;
            for (int v = 0; v < m->vocab; v++) top_logit = fmax(top_logit, fabs(full.logits[v]));
            for (int v = 0; v < m->vocab; v++)
                worst = fmax(worst, fabs(c.logits[v] - full.logits[v]));
            cr_assert_leq(worst, 1e-5 * top_logit, "%s step %d: logits %g apart", families[f][1], k,
                          worst);
            for (int l = 0; l < m->layers; l++)
                for (int h = 0; h < m->heads; h++) {
                    const float *row = net_cache_attn(&c, l, h) + (ptrdiff_t)k * c.cap;
                    const float *want = net_attn(&full, l, h) + (ptrdiff_t)k * (k + 1);
                    for (int j = 0; j <= k; j++)
                        cr_assert_leq(fabsf(row[j] - want[j]), 1e-5f,
                                      "%s step %d layer %d head %d key %d", families[f][1], k, l, h,
                                      j);
                    for (int j = k + 1; j < c.cap; j++) cr_assert_eq(row[j], 0.0f);
                }
        }
        /* scrubbed back: every earlier row is as it was written, bit for bit */
        for (int k = 0; k < n + STEPS; k++)
            cr_assert_arr_eq(kept[k], net_cache_attn(&c, 0, 0) + (ptrdiff_t)k * c.cap,
                             sizeof(float) * (size_t)(k + 1), "%s row %d changed", families[f][1],
                             k);
        net_cache_free(&c);
        net_free(&full);
        checkpoint_close(&ck);
    }
}

/* The "ids" array of a --generate export. */
static void written(const char *json, int32_t *ids, int *count, cJSON **steps_out) {
    cJSON *root = cJSON_Parse(json);
    cr_assert(root);
    cJSON *list = cJSON_GetObjectItem(root, "ids");
    *count = 0;
    for (cJSON *e = list->child; e; e = e->next) ids[(*count)++] = e->valueint;
    *steps_out = root;
}

/* The ids --generate writes with these options (it must succeed); *root_out
 * gets the whole JSON object, for the caller to free. */
static int generated(const char *dir, const char *options, int32_t *ids, cJSON **root_out) {
    Run r = generate(dir, options);
    cr_assert_eq(r.status, 0, "%s: %s", options, r.err);
    int count;
    written(r.out, ids, &count, root_out);
    run_free(&r);
    return count;
}

Test(generate, a_seed_repeats_its_text_and_the_cuts_hold) {
    const char *dir = ref_make("llama_reference.py", top, "s", "--family llama --seed 11");
    Run a = generate(dir, "--generate 24 --temperature 1.5 --seed 42");
    Run b = generate(dir, "--generate 24 --temperature 1.5 --seed 42");
    Run c = generate(dir, "--generate 24 --temperature 1.5 --seed 43");
    cr_assert_eq(a.status, 0, "%s", a.err);
    cr_assert_str_eq(a.out, b.out, "the same seed gave another run");
    cr_assert_str_neq(a.out, c.out, "another seed gave the same run");
    /* top-k 2: every token written is one of its step's two likeliest */
    Run k2 = generate(dir, "--generate 24 --temperature 3 --top-k 2 --seed 5");
    cJSON *root;
    int32_t ids[64];
    int count;
    written(k2.out, ids, &count, &root);
    int step = 0;
    bool second = false;
    for (cJSON *s = cJSON_GetObjectItem(root, "steps")->child; s; s = s->next, step++) {
        cJSON *cand = cJSON_GetObjectItem(s, "candidates");
        int id = cJSON_GetObjectItem(s, "id")->valueint;
        int first = cJSON_GetArrayItem(cand, 0)->child->valueint;
        int other = cJSON_GetArrayItem(cand, 1)->child->valueint;
        cr_assert(id == first || id == other, "step %d wrote %d", step, id);
        second |= id == other;
    }
    cr_assert(second, "at T = 3 the second likeliest is never drawn in 24 steps");
    cJSON_Delete(root);
    /* top-p that small keeps only the likeliest: the greedy text */
    Run tiny = generate(dir, "--generate 24 --temperature 3 --top-p 0.000001 --seed 5");
    Run greedy = generate(dir, "--generate 24");
    int32_t g[64], t[64];
    int gn, tn;
    cJSON *gr, *tr;
    written(greedy.out, g, &gn, &gr);
    written(tiny.out, t, &tn, &tr);
    cr_assert(gn == tn && !memcmp(g, t, sizeof *g * (size_t)gn));
    cJSON_Delete(gr);
    cJSON_Delete(tr);
    run_free(&a);
    run_free(&b);
    run_free(&c);
    run_free(&k2);
    run_free(&tiny);
    run_free(&greedy);
}

Test(generate, the_context_end_and_misused_options_are_one_line) {
    /* 16 positions, the text 6 tokens: 10 more fill the context, and the
     * token after them is the last one written, from a full context */
    const char *dir = ref_make("gpt2_reference.py", top, "short",
                               "--layers 1 --heads 2 --embd 16 --positions 16 --seed 4");
    Run r = generate(dir, "--generate 40");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.err, "the model's context is full at 16 tokens: it wrote 11 of the 40"),
              "%s", r.err);
    cJSON *root;
    int32_t ids[64];
    int count;
    written(r.out, ids, &count, &root);
    cr_assert_eq(count, 11);
    cr_assert_str_eq(cJSON_GetObjectItem(root, "stop")->valuestring, "context");
    cJSON_Delete(root);
    run_free(&r);
    static const struct {
        const char *options, *says;
    } bad[] = {
        {"--generate 0", "--generate"},
        {"--generate 5 --top-k 3", "--top-k: needs --temperature above 0"},
        {"--generate 5 --seed 3", "--seed: needs --temperature above 0"},
        {"--temperature 1", "--temperature: needs --generate N"},
        {"--generate 5 --temperature -1", "--temperature"},
        {"--generate 5 --temperature 1 --top-p 0", "--top-p"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        Run e = generate(dir, bad[k].options);
        cr_assert_eq(e.status, 2, "%s: status %d", bad[k].options, e.status);
        cr_assert_str_empty(e.out);
        cr_assert(strstr(e.err, bad[k].says) && strchr(e.err, '\n') == e.err + strlen(e.err) - 1,
                  "%s: %s", bad[k].options, e.err);
        run_free(&e);
    }
}

/* eos_token_id as a list (Llama 3's instruct models list three): any of
 * them ends the writing, not only the first, on the command line and in the
 * window; a list longer than attnlab takes is one line. The list is made to
 * name the token the greedy run writes fourth. */
static void set_eos(const char *dir, const char *list) {
    char cmd[1200];
    snprintf(cmd, sizeof cmd,
             "python3 -c 'import json, sys; p = sys.argv[1]; c = json.load(open(p)); "
             "c[\"eos_token_id\"] = json.loads(sys.argv[2]); json.dump(c, open(p, \"w\"))' "
             "'%s/config.json' '%s'",
             dir, list);
    sh(cmd);
}

Test(generate, every_end_of_text_token_of_the_config_stops_the_writing) {
    const char *dir = ref_make("llama_reference.py", top, "eos", "--family llama --seed 13");
    cJSON *root;
    int32_t ids[64];
    int count = generated(dir, "--generate 8", ids, &root);
    cJSON_Delete(root);
    cr_assert_eq(count, 8, "the reference's own ends came first");
    int fourth = ids[3];
    for (int k = 0; k < 3; k++) cr_assert_neq(ids[k], fourth, "the fourth token came earlier");
    char list[64];
    snprintf(list, sizeof list, "[2, 3, %d]", fourth);
    set_eos(dir, list);
    count = generated(dir, "--generate 8", ids, &root);
    cr_assert_eq(count, 4);
    cr_assert_str_eq(cJSON_GetObjectItem(root, "stop")->valuestring, "eos");
    cJSON *eos = cJSON_GetObjectItem(root, "eos");
    cr_assert(cJSON_GetArraySize(eos) == 3 && cJSON_GetArrayItem(eos, 2)->valueint == fourth);
    cJSON_Delete(root);
    /* the window: ▸ step eight times, four written, stopped at the end-of-text token */
    static Checkpoint ck;
    static Real_Gen g;
    char err[600];
    cr_assert(checkpoint_open(dir, &ck, err, sizeof err), "%s", err);
    int32_t in[64];
    int n = real_model_tokenize(&ck.model, text, strlen(text), in, err, sizeof err);
    cr_assert(real_gen_start(&g, &ck.model, in, n, &(Net_Choice){0, 0, 1}, 0, err, sizeof err));
    for (int k = 0; k < 8; k++) real_gen_step(&g);
    real_gen_settle(&g);
    cr_assert(g.written == 4 && g.stop == GEN_EOS && g.chosen[3] == fourth, "%d written",
              g.written);
    real_gen_free(&g);
    checkpoint_close(&ck);
    /* seventeen is one more than attnlab takes */
    set_eos(dir, "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17]");
    Run r = generate(dir, "--generate 8");
    cr_assert_eq(r.status, 2, "%s", r.err);
    cr_assert(strstr(r.err, "eos_token_id lists 17 tokens: attnlab takes 16 at most") &&
                  strchr(r.err, '\n') == r.err + strlen(r.err) - 1,
              "%s", r.err);
    run_free(&r);
}

/* A prefill (the text's tokens in one pass, keys and values kept by the
 * pass's hook) fills the cache as that many steps do: the same keys, values,
 * rows of weights and logits, within float32's rounding of the two orders of
 * products; and a step after it goes on as after the steps. */
Test(generate, a_prefill_in_one_pass_fills_the_cache_as_the_steps_do) {
    for (size_t f = 0; f < sizeof families / sizeof *families; f++) {
        static Checkpoint ck;
        char err[600];
        const char *dir = ref_make(families[f][0], top, families[f][1], families[f][2]);
        cr_assert(checkpoint_open(dir, &ck, err, sizeof err), "%s", err);
        const Net_Model *m = &ck.model.weights.model;
        int32_t ids[64];
        int n = real_model_tokenize(&ck.model, text, strlen(text), ids, err, sizeof err);
        Net_Cache a = {0}, b = {0};
        Net_Run r = {0};
        cr_assert(net_cache_reserve(&a, m, n + 1) && net_cache_reserve(&b, m, n + 1));
        cr_assert(net_reserve(&r, m, n));
        for (int k = 0; k < n; k++) cr_assert(net_cache_step(m, &a, ids[k]));
        cr_assert(net_cache_prefill(m, &b, &r, ids, n));
        cr_assert_eq(b.n, n);
        int G = m->kv_heads > 0 ? m->kv_heads : m->heads;
        int d = m->head_dim > 0 ? m->head_dim : m->width / m->heads;
        for (int64_t k = 0; k < (int64_t)m->layers * a.cap * G * d; k++) {
            if ((k / (G * d)) % a.cap >= n) continue; /* rows past the text: not written */
            cr_assert_leq(fabsf(a.k[k] - b.k[k]), 1e-5f * (1 + fabsf(a.k[k])), "%s k",
                          families[f][1]);
            cr_assert_leq(fabsf(a.v[k] - b.v[k]), 1e-5f * (1 + fabsf(a.v[k])), "%s v",
                          families[f][1]);
        }
        for (int l = 0; l < m->layers; l++)
            for (int h = 0; h < m->heads; h++)
                for (int i = 0; i < n; i++)
                    for (int j = 0; j < a.cap; j++)
                        cr_assert_leq(fabsf(net_cache_attn(&a, l, h)[i * a.cap + j] -
                                            net_cache_attn(&b, l, h)[i * b.cap + j]),
                                      1e-5f);
        double big = 0, worst = 0;
        for (int v = 0; v < m->vocab; v++) {
            big = fmax(big, fabs(a.logits[v]));
            worst = fmax(worst, fabs(a.logits[v] - b.logits[v]));
        }
        cr_assert_leq(worst, 1e-5 * big);
        int32_t next = argmax(a.logits, m->vocab);
        cr_assert(net_cache_step(m, &a, next) && net_cache_step(m, &b, next));
        for (int v = 0; v < m->vocab; v++)
            cr_assert_leq(fabs(a.logits[v] - b.logits[v]), 1e-5 * (big + 1));
        net_cache_free(&a);
        net_cache_free(&b);
        net_free(&r);
        checkpoint_close(&ck);
    }
}

/* The Model view's writing (model/real_gen.h): on its thread and in slices
 * (the browser's way) it writes what --generate writes, step by step the same
 * tokens and candidates; the text's pass goes in by a prefill. */
Test(generate, the_window_writes_what_the_command_line_writes_on_a_thread_and_in_slices) {
    for (size_t f = 0; f < 2; f++) {
        static Checkpoint ck;
        char err[600];
        const char *dir = ref_make(families[f][0], top, families[f][1], families[f][2]);
        cJSON *root;
        int32_t want[64];
        int count = generated(dir, "--generate 16", want, &root);
        cr_assert(checkpoint_open(dir, &ck, err, sizeof err), "%s", err);
        int32_t ids[64];
        int n = real_model_tokenize(&ck.model, text, strlen(text), ids, err, sizeof err);
        /* on a thread, in slices, and recomputing the whole pass each step */
        for (int way = 0; way < 3; way++) {
            static Real_Gen g;
            int threaded = way != 1;
            cr_assert(real_gen_threaded(&g, threaded) || !threaded);
            cr_assert(
                real_gen_start(&g, &ck.model, ids, n, &(Net_Choice){0, 0, 1}, 0, err, sizeof err),
                "%s", err);
            if (way == 2) cr_assert(real_gen_recompute(&g, true, err, sizeof err), "%s", err);
            for (int k = 0; k < count; k++) real_gen_step(&g);
            int frames = 0;
            while (!real_gen_work(&g, 2)) frames++; /* a frame's slices, or the thread's turns */
            cr_assert_eq(g.written, count, "%s, way %d: %d written", families[f][1], way,
                         g.written);
            cJSON *s = cJSON_GetObjectItem(root, "steps")->child;
            for (int k = 0; k < count; k++, s = s->next) {
                cr_assert_eq(g.chosen[k], want[k], "%s step %d", families[f][1], k);
                cJSON *c0 = cJSON_GetArrayItem(cJSON_GetObjectItem(s, "candidates"), 0);
                cr_assert_eq(g.top[k][0].id, cJSON_GetObjectItem(c0, "id")->valueint);
                cr_assert_float_eq(g.top[k][0].p, cJSON_GetObjectItem(c0, "p")->valuedouble,
                                   way == 2 ? 1e-6 : 1e-7);
            }
            if (way == 1) cr_assert_geq(frames, count - 1, "slices: one step a frame at most");
            real_gen_free(&g);
        }
        cJSON_Delete(root);
        checkpoint_close(&ck);
    }
}

/* --generate in the window writes before the first picture: the write panel
 * shows every token written as a chip, the candidates and the cache beside
 * them at 1920×1080 ×2 presenting, 1600×900 and 1024×768; drawn, the panel's
 * sliders and seed take the command line's settings; more than the window
 * writes is one line. */
Test(generate, the_window_opens_writing_with_generate) {
    const char *dir = ref_make("llama_reference.py", top, "w", "--family llama --seed 12");
    static const char *const sizes[] = {
        "--size 1600x900", "--size 1920x1080 --ui-scale 2 --presenter",
        "--size 1024x768 --temperature 1.5 --top-k 5 --top-p 0.9 --seed 3"};
    for (int k = 0; k < 3; k++) {
        char args[800];
        snprintf(args, sizeof args,
                 "--view model --model '%s' --text '%s' --generate 6 %s --dump-ui", dir, text,
                 sizes[k]);
        Run r = run_attnlab(args);
        cr_assert_eq(r.status, 0, "%s", r.err);
        cr_assert(strstr(r.out, "\"id\": \"model_written\", \"index\": 5"), "%s", sizes[k]);
        cr_assert_null(strstr(r.out, "\"id\": \"model_written\", \"index\": 6"));
        cr_assert(strstr(r.out, "\"id\": \"model_cache\""), "%s: no cache picture", sizes[k]);
        cr_assert(strstr(r.out, "\"id\": \"model_candidates\""), "%s: no candidates", sizes[k]);
        /* drawn: the sliders and the seed, at the command line's settings */
        cr_assert(!strstr(r.out, "\"id\": \"model_top_k\"") == (k < 2), "%s", sizes[k]);
        if (k == 2) cr_assert(strstr(r.out, "seed 3 ⟳"), "%s", r.out);
        run_free(&r);
    }
    char args[800];
    snprintf(args, sizeof args, "--view model --model '%s' --text '%s' --generate 200 --dump-ui",
             dir, text);
    Run r = run_attnlab(args);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "the window writes at most 128 tokens"), "%s", r.err);
    run_free(&r);
}

/* Lesson 16 on lesson 15's hand-set Llama: --check-lessons plays it in English
 * and its three translations, and --by-input meets its goals (the write mode,
 * ▸ step clicked, the cache on screen) at projector sizes, presenter mode too.
 * Without a model it passes with a note. */
Test(generate, lesson_16_is_met_by_input_and_skipped_without_a_model) {
    const char *dir = ref_make("llama_reference.py", top, "circuit", "--circuit");
    /* (its link to lesson 9 is dropped from the copy, which holds no lesson 9) */
    char cmd[1400], args[1600];
    snprintf(cmd, sizeof cmd,
             "mkdir '%s/l16' && cd '%s/lessons' && cp 16-writing-one-token-at-a-time.md '%s/l16/' "
             "&& for l in es de zh_CN; do mkdir '%s/l16/'$l && cp "
             "$l/16-writing-one-token-at-a-time.md '%s/l16/'$l/; done && sed -i '/^see /d' "
             "$(find '%s/l16' -name '*.md')",
             top, test_env("ATTNLAB_DATA"), top, top, top, top);
    sh(cmd);
    static const char *const sizes[] = {"--size 1920x1080 --ui-scale 2 --presenter",
                                        "--size 1024x768", "--size 1920x1080 --ui-scale 2",
                                        "--size 1600x900",
                                        "--size 1024x768 --presenter --theme light"};
    size_t count = getenv("ATTNLAB_SANITIZED") ? 1 : sizeof sizes / sizeof *sizes;
    for (size_t k = 0; k <= count; k++) {
        snprintf(args, sizeof args, "--check-lessons '%s/l16' --model '%s' %s%s", top, dir,
                 k ? "--by-input " : "", k ? sizes[k - 1] : "");
        Run r = run_attnlab(args);
        cr_assert_eq(r.status, 0, "%s: %s", args, r.err);
        cr_assert(strstr(r.out, "(3 steps, 2 goals") && strstr(r.out, "4 passed, 0 failed"), "%s",
                  r.out);
        cr_assert_null(strstr(r.err, "not judged"), "%s", r.err);
        cr_assert_null(strstr(r.err, "not met by input"), "%s", r.err);
        run_free(&r);
    }
    snprintf(args, sizeof args, "--check-lessons '%s/l16' --by-input --size 1024x768", top);
    Run r = run_attnlab_env("HF_HUB_CACHE=/nonexistent", args);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.err, "note: 2 goals read a real model, and none is open"), "%s", r.err);
    run_free(&r);
}
