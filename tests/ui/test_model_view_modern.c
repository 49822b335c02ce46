/* The Model view on a model of the Llama family (tests/tools/llama_reference.py
 * writes a Qwen3-like one: 8 query heads on 2 key/value heads, RoPE, RMSNorm,
 * SwiGLU): the grid marks which heads share a key/value head, the open head
 * names the one it reads, the block diagram names RMSNorm, SwiGLU and RoPE
 * (never LayerNorm or GELU), and the first-token mode gives each head's mean
 * weight on the first token, as the pass's own A has it. */
#define _POSIX_C_SOURCE 200809L
#include "core/clock.h"
#include "core/fileio.h"
#include "harness.h"
#include "model/export_real.h"
#include "model/real_lab.h"
#include "ui/lesson_panel.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static Harness h;
static char dir[] = "/tmp/attnlab-model-modern-XXXXXX";
static char *bytes[3];
static size_t lens[3];
static Real_Model rm;

static void setup(void) {
    harness_open(&h, "default.json", 1600, 900, (Text_Metrics){0});
    cr_assert(mkdtemp(dir));
    char cmd[1200];
    snprintf(cmd, sizeof cmd,
             "%s '%s/../tools/llama_reference.py' make '%s' --family qwen3 --layers 3 --heads 8 "
             "--kv-heads 2 --head-dim 16 --embd 64 --inner 96 --seed 3",
             access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3",
             test_env("ATTNLAB_TESTDATA"), dir);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    const char *names[3] = {"config.json", "model.safetensors", "tokenizer.json"};
    char path[400], err[600];
    for (int k = 0; k < 3; k++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        cr_assert(file_read_all(path, 64u << 20, &bytes[k], &lens[k], err, sizeof err), "%s", err);
    }
    Real_Model_Files f = {.config = bytes[0],
                          .config_name = names[0],
                          .config_len = lens[0],
                          .weights = (const uint8_t *)bytes[1],
                          .weights_name = names[1],
                          .weights_size = lens[1],
                          .tokenizer = bytes[2],
                          .tokenizer_name = names[2],
                          .tokenizer_len = lens[2]};
    cr_assert(real_model_load(&rm, &f, err, sizeof err), "%s", err);
    cr_assert_str_eq(model_family_name(&rm.config), "Qwen3");
}

static void teardown(void) {
    real_lab_free(&h.m.real);
    real_model_free(&rm);
    for (int k = 0; k < 3; k++) free(bytes[k]);
    harness_close(&h);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(model_view_modern, .init = setup, .fini = teardown, .timeout = 60);

static void attach(const char *text) {
    char err[600];
    cr_assert(real_lab_attach(&h.m.real, &rm, "test-qwen3", err, sizeof err), "%s", err);
    cr_assert(real_lab_set_text(&h.m.real, text, strlen(text), err, sizeof err), "%s", err);
    h.vs.view = VIEW_MODEL;
    for (int k = 0; k < 200 && (h.vs.real_busy || !real_lab_shown(&h.m.real)); k++)
        harness_frame(&h);
    cr_assert(real_lab_shown(&h.m.real) && !h.vs.real_busy);
}

/* Whether the frame drew these words in order, one text run after another
 * (a wrapped title is one run per line). */
static bool drew_words(const char *words) {
    char all[4096] = "";
    size_t used = 0;
    for (int k = 0; k < h.dl.count && used + 2 < sizeof all; k++)
        if (h.dl.cmds[k].kind == DRAW_TEXT)
            used += (size_t)snprintf(all + used, sizeof all - used, "%.*s ", h.dl.cmds[k].text.len,
                                     h.dl.text + h.dl.cmds[k].text.offset);
    return strstr(all, words) != NULL;
}

static void grid_mode(int mode) {
    const Ui_Record *b = harness_find(&h, "button", "model_grid_mode", mode);
    harness_click(&h, rect_cx(b), rect_cy(b));
    harness_frame(&h);
}

Test(model_view_modern, the_grid_marks_the_heads_that_share_a_key_value_head) {
    attach("The cat sat on the mat. The cat sat on the");
    const Ui_Record *groups = harness_find(&h, "legend", "model_kv_groups", -1);
    cr_assert(harness_drew_text(&h, "kv 0") && harness_drew_text(&h, "kv 1"));
    /* the marks span the heads they name: kv 1 over heads 4 to 7 */
    const Ui_Record *h4 = harness_find(&h, "button", "model_head", 4);
    cr_assert(groups->r.y < h4->r.y);
    cr_assert(harness_drew_text(&h, "8 heads on 2 key/value heads"));
    /* opening head 5 names the key/value head it reads and the heads it shares it with */
    harness_click(&h, rect_cx(harness_find(&h, "button", "model_head", 1 * 8 + 5)),
                  rect_cy(harness_find(&h, "button", "model_head", 1 * 8 + 5)));
    for (int k = 0; k < 100 && h.vs.real_busy; k++) harness_frame(&h);
    harness_frame(&h);
    /* the title and the caption wrap: their words, line by line */
    cr_assert(drew_words("Layer 1, head 5 · keys and values of key/value head 1, shared by heads 4 "
                         "to 7"));
    cr_assert(drew_words("softmax(q·k/√d_h), q and k turned by their positions (RoPE), masked"));
}

Test(model_view_modern, the_block_diagram_names_this_models_parts) {
    attach("Blocks of a modern model");
    grid_mode(1);
    cr_assert(harness_drew_text(&h, "RMSNorm → attention") &&
              harness_drew_text(&h, "RMSNorm → SwiGLU") &&
              harness_drew_text(&h, "RMSNorm → logits"));
    cr_assert(!harness_drew_text(&h, "LN → attention") && !harness_drew_text(&h, "LN → MLP") &&
                  !harness_drew_text(&h, "embeddings + positions"),
              "GPT-2's parts are not this model's");
    /* the pointer on layer 0's attention: its heads, their sharing, RoPE */
    const Ui_Record *panel = harness_find(&h, "panel", "model_blocks", -1);
    float row = fminf(panel->r.h / 6, 44);
    harness_move(&h, panel->r.x + panel->r.w * 0.25f, panel->r.y + 2 * row + row * 0.5f);
    harness_frame(&h);
    cr_assert(strstr(h.vs.hover_text, "layer 0: RMSNorm, then 8 query heads sharing 2 key/value "
                                      "heads") &&
                  strstr(h.vs.hover_text, "turned by RoPE"),
              "%s", h.vs.hover_text);
    harness_move(&h, panel->r.x + panel->r.w * 0.55f, panel->r.y + 2 * row + row * 0.5f);
    harness_frame(&h);
    cr_assert(strstr(h.vs.hover_text, "SwiGLU: silu(x·W_gate) times x·W_up"), "%s",
              h.vs.hover_text);
}

/* Each cell is the mean of A[i][0] over the queries i ≥ 1, from the pass's own
 * A in float64 (1e-6: float32 weights summed in float64 both ways); a click on
 * a cell opens that head. */
Test(model_view_modern, the_first_token_mode_shows_each_heads_weight_on_it) {
    attach("The cat sat on the mat. The cat sat on the");
    grid_mode(2);
    harness_find(&h, "panel", "model_sinks", -1);
    const Real_Lab *l = &h.m.real;
    const Net_Run *run = real_lab_shown(l);
    int n = run->n;
    for (int a = 0; a < 3; a++)
        for (int hd = 0; hd < 8; hd++) {
            const float *A = net_attn(run, a, hd);
            double sum = 0;
            for (int i = 1; i < n; i++) sum += A[(ptrdiff_t)i * n];
            double got = real_lab_head_score(l, REAL_HEAD_FIRST, a, hd);
            cr_assert(fabs(got - sum / (n - 1)) <= 1e-6, "layer %d head %d: %g, want %g", a, hd,
                      got, sum / (n - 1));
        }
    char shown[16];
    snprintf(shown, sizeof shown, "%.2f", real_lab_head_score(l, REAL_HEAD_FIRST, 2, 6));
    cr_assert(harness_drew_text(&h, shown), "%s written in its cell", shown);
    const Ui_Record *c = harness_find(&h, "button", "model_head", 2 * 8 + 6);
    harness_click(&h, rect_cx(c), rect_cy(c));
    for (int k = 0; k < 100 && h.vs.real_busy; k++) harness_frame(&h);
    cr_assert(l->open_layer == 2 && l->open_head == 6);
}

/* With RoPE the open head has a fifth mode: its A beside the same head's A
 * from the same q and k, not turned. That picture is the masked softmax of
 * the unturned q·k/√d_h recomputed here in float64 (1e-6), rows sum to 1,
 * and the caption's share is half the summed |A − A₀| of a row, averaged
 * over the rows after the first. GPT-2's head has no such mode. */
Test(model_view_modern, without_rope_shows_the_same_head_unturned) {
    attach("The cat sat on the mat. The cat sat on the");
    const Real_Lab *l = &h.m.real;
    const Ui_Record *b = harness_find(&h, "button", "model_head_mode", 4);
    harness_click(&h, rect_cx(b), rect_cy(b));
    for (int k = 0; k < 100 && (h.vs.real_busy || !l->head_done); k++) harness_frame(&h);
    harness_frame(&h);
    cr_assert_eq(h.vs.real_head_mode, 4);
    harness_find(&h, "panel", "model_unturned", -1);
    const Net_Run *run = real_lab_shown(l);
    const Net_Model *tm = &rm.weights.model;
    int n = run->n, d = tm->head_dim;
    static float Q0[64 * 16], K0[64 * 16];
    net_head_unturned(tm, (Net_Run *)run, l->open_layer, l->open_head, Q0, K0);
    const float *A = net_attn(run, l->open_layer, l->open_head);
    double moved = 0;
    for (int i = 0; i < n; i++) {
        double s[64], max = -INFINITY, sum = 0, row = 0, tv = 0;
        for (int j = 0; j <= i; j++) {
            double dot = 0;
            for (int c = 0; c < d; c++) dot += (double)Q0[i * d + c] * K0[j * d + c];
            s[j] = dot / sqrt(d);
            max = fmax(max, s[j]);
        }
        for (int j = 0; j <= i; j++) sum += exp(s[j] - max);
        for (int j = 0; j < n; j++) {
            double want = j <= i ? exp(s[j] - max) / sum : 0, got = l->unturned[i * n + j];
            cr_assert(fabs(got - want) <= 1e-6, "A₀[%d][%d] %g, want %g", i, j, got, want);
            row += got;
            tv += fabs(A[i * n + j] - got);
        }
        cr_assert(fabs(row - 1) <= 1e-5);
        if (i > 0) moved += tv / 2;
    }
    cr_assert(fabs(l->turn_moves - moved / (n - 1)) <= 1e-6);
    cr_assert_gt(l->turn_moves, 0, "the turn moves some weight");
    char share[16];
    snprintf(share, sizeof share, "%.0f %%", 100 * l->turn_moves);
    cr_assert(drew_words(share), "the caption gives %s", share);
}

/* Frames until the writing has nothing under way or asked for. */
static void settle(void) {
    /* a step runs on a thread, in its own time: frames for up to 20 s */
    double until = clock_ms() + 20000;
    while ((h.vs.real_busy || h.m.real.gen.running || h.m.real.gen.asked) && clock_ms() < until) {
        harness_frame(&h);
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    cr_assert(!h.m.real.gen.running && h.m.real.gen.asked == 0, "the writing never settled");
}

static void press(const char *kind, const char *name, int index) {
    const Ui_Record *b = harness_find(&h, kind, name, index);
    harness_click(&h, rect_cx(b), rect_cy(b));
    harness_frame(&h);
    settle();
}

static void key(Ui_Key k) {
    harness_key(&h, k, 0, false, false);
    harness_frame(&h);
    settle();
}

/* The ids the command line writes with these settings: its own path
 * (export_real_generate after one pass over the text), into memory. */
static int command_line_ids(const Net_Choice *how, uint64_t seed, int steps, int32_t *out) {
    const Real_Lab *l = &h.m.real;
    const Net_Model *tm = &rm.weights.model;
    static Net_Cache c;
    static Net_Run text;
    int32_t ids[128];
    memcpy(ids, l->input, sizeof *ids * (size_t)l->n);
    cr_assert(net_cache_reserve(&c, tm, l->n + steps) && net_reserve(&text, tm, l->n));
    cr_assert(net_cache_prefill(tm, &c, &text, ids, l->n));
    char *json = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&json, &len);
    const char *stop;
    int written = export_real_generate(&rm, "test", ids, l->n, steps, how, seed, &c, f, &stop);
    fclose(f);
    free(json);
    memcpy(out, ids + l->n, sizeof *out * (size_t)(written > 0 ? written : 0));
    net_free(&text);
    net_cache_free(&c);
    return written;
}

/* The writing panel's controls: drawn, the temperature, top-k and top-p
 * sliders and the seed run the window's writing as the command line runs it
 * with the same settings; a change writes as many tokens again from the text;
 * top-k at 1 keeps only the likeliest, so whatever the temperature it writes
 * the greedy text; the speed slider sets the time between two played steps;
 * scrubbed back, the cache's caption points to lesson 9's mask. */
Test(model_view_modern, the_sampling_controls_write_what_the_command_line_writes) {
    attach("The cat sat on the mat. The cat sat on the");
    const Real_Gen *g = &h.m.real.gen;
    press("button", "model_next_mode", 1);
    cr_assert_null(harness_find_maybe(&h, "slider", "model_top_k", -1), "greedy: nothing drawn");
    for (int k = 0; k < 6; k++) press("button", "model_write", 0); /* ▸ step */
    cr_assert_eq(g->written, 6);
    int32_t greedy[6];
    memcpy(greedy, g->chosen, sizeof greedy);

    press("button", "model_write", 3); /* greedy → drawn: six again, drawn */
    cr_assert(!h.vs.real_greedy && g->written == 6 && g->how.temperature == 1 &&
              g->how.top_k == 0 && g->how.top_p == 1 && g->seed == 0);
    cr_assert(harness_drew_text(&h, "off"), "top-k 0 reads as off");
    /* top-k: Home is every token, then one step right keeps one */
    press("slider", "model_top_k", -1);
    key(KEY_HOME);
    cr_assert_eq(g->how.top_k, 0);
    key(KEY_RIGHT);
    cr_assert_eq(g->how.top_k, 1);
    press("slider", "model_write_t", -1); /* a temperature; End: the highest, 4 */
    key(KEY_END);
    cr_assert(g->how.temperature == 4 && g->how.top_k == 1 && g->written == 6);
    for (int k = 0; k < 6; k++) cr_assert_eq(g->chosen[k], greedy[k], "top-k 1, step %d", k);

    /* every token, top-p 0.905 (End, then ten steps of 0.0095 left), seed 0 then 1; each
     * run as long as the command line's with the same settings (an end-of-text token may
     * stop both before the sixth) */
    press("slider", "model_top_k", -1);
    key(KEY_HOME);
    press("slider", "model_top_p", -1);
    key(KEY_END);
    for (int k = 0; k < 10; k++) key(KEY_LEFT);
    cr_assert(fabs(g->how.top_p - 0.905) < 1e-5 && g->how.top_k == 0, "top-p %g", g->how.top_p);
    int32_t want[6], seed0[6];
    int seed0_n = g->written;
    memcpy(seed0, g->chosen, sizeof seed0);
    cr_assert_eq(command_line_ids(&g->how, 0, 6, want), seed0_n);
    for (int k = 0; k < seed0_n; k++) cr_assert_eq(g->chosen[k], want[k], "seed 0, step %d", k);
    press("button", "model_seed", -1);
    cr_assert(h.vs.gen_seed == 1 && g->seed == 1 && g->wanted == 6);
    cr_assert_eq(command_line_ids(&g->how, 1, 6, want), g->written);
    for (int k = 0; k < g->written; k++) cr_assert_eq(g->chosen[k], want[k], "seed 1, step %d", k);
    cr_assert(seed0_n != g->written || memcmp(seed0, g->chosen, sizeof *seed0 * (size_t)seed0_n),
              "at T = 4 two seeds wrote the same");
    char said[64];
    snprintf(said, sizeof said, "%d written (drawn, seed 1)", g->written);
    cr_assert(drew_words(said), "no \"%s\"", said);

    /* the speed: End is 10 steps a second */
    double times[REAL_GEN_MAX];
    memcpy(times, g->step_ms, sizeof times);
    press("slider", "model_speed", -1);
    key(KEY_END);
    cr_assert(h.vs.gen_speed == 10 && fabs(g->play_ms - 100) < 1e-9, "%g ms", g->play_ms);
    cr_assert(!memcmp(times, g->step_ms, sizeof times), "the speed wrote the tokens again");
    /* scrubbed back to step 2, the cache's caption says why it is as it was: lesson 9's mask */
    cr_assert_gt(g->written, 2);
    press("button", "model_written", 1);
    cr_assert_eq(h.vs.real_gen_shown, 1);
    cr_assert(drew_words("at step 2") && drew_words("causal mask (lesson 9)"));
    /* … and, where the lessons are at hand, a link opens lesson 9 */
    static Lesson_Index index;
    static Lesson lesson;
    static Scene kept;
    static Math_Scratch math;
    index.count = 1;
    snprintf(index.path[0], sizeof index.path[0], "%s/lessons/09-causal-mask.md",
             test_env("ATTNLAB_DATA"));
    snprintf(index.title[0], sizeof index.title[0], "9 · the causal mask");
    h.vs.session = (Lesson_Session){.index = &index,
                                    .lesson = &lesson,
                                    .saved = &kept,
                                    .math = &math,
                                    .data_dir = test_env("ATTNLAB_DATA")};
    harness_frame(&h);
    press("button", "model_lesson_mask", -1);
    cr_assert(h.vs.session.active && strstr(lesson.path, "09-causal-mask.md"), "%s", lesson.path);
    lesson_leave(&h.vs, &h.m);
}
