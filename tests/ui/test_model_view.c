/* src/ui/model_view.c with the real view and a real (generated) checkpoint:
 * tests/tools/gpt2_reference.py writes a small GPT-2, read here from its
 * files' bytes. The grid holds a button per head; a click opens that head;
 * typing edits the text live and Enter keeps it, Esc puts the old one back;
 * the next-token list is the lab's at the slider's temperature; with no
 * model the view says how to get one. */
#define _POSIX_C_SOURCE 200809L
#include "core/fileio.h"
#include "harness.h"
#include "model/real_lab.h"
#include "ui/lesson_panel.h"

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

static Harness h;
static char dir[] = "/tmp/attnlab-model-view-XXXXXX";
static char *bytes[4];
static size_t lens[4];
static Real_Model rm;

static void setup(void) {
    harness_open(&h, "default.json", 1600, 900, (Text_Metrics){0});
    cr_assert(mkdtemp(dir));
    char cmd[1200];
    snprintf(cmd, sizeof cmd,
             "%s '%s/../tools/gpt2_reference.py' make '%s' --layers 3 --heads 4 --embd 16 "
             "--positions 64 --seed 9",
             access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3",
             test_env("ATTNLAB_TESTDATA"), dir);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    const char *names[4] = {"config.json", "model.safetensors", "vocab.json", "merges.txt"};
    char path[400], err[600];
    for (int k = 0; k < 4; k++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        cr_assert(file_read_all(path, 64u << 20, &bytes[k], &lens[k], err, sizeof err), "%s", err);
    }
    Real_Model_Files f = {.config = bytes[0],
                          .config_name = names[0],
                          .config_len = lens[0],
                          .weights = (const uint8_t *)bytes[1],
                          .weights_name = names[1],
                          .weights_size = lens[1],
                          .vocab = bytes[2],
                          .vocab_name = names[2],
                          .vocab_len = lens[2],
                          .merges = bytes[3],
                          .merges_name = names[3],
                          .merges_len = lens[3]};
    cr_assert(real_model_load(&rm, &f, err, sizeof err), "%s", err);
}

static void teardown(void) {
    real_lab_free(&h.m.real);
    real_model_free(&rm);
    for (int k = 0; k < 4; k++) free(bytes[k]);
    harness_close(&h);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(model_view, .init = setup, .fini = teardown, .timeout = 60);

/* Frames until the pass is done and shown (each runs 12 ms of it). */
static void settle(void) {
    for (int k = 0; k < 200 && (h.vs.real_busy || !real_lab_shown(&h.m.real)); k++)
        harness_frame(&h);
    cr_assert(real_lab_shown(&h.m.real) && !h.vs.real_busy);
}

static void attach(const char *text) {
    char err[600];
    cr_assert(real_lab_attach(&h.m.real, &rm, "test-gpt2", err, sizeof err), "%s", err);
    cr_assert(real_lab_set_text(&h.m.real, text, strlen(text), err, sizeof err), "%s", err);
    h.vs.view = VIEW_MODEL;
    settle();
}

Test(model_view, the_grid_has_a_button_per_head_and_a_click_opens_one) {
    attach("The cat sat on the mat. The cat sat on the");
    for (int a = 0; a < 3; a++)
        for (int k = 0; k < 4; k++) harness_find(&h, "button", "model_head", a * 4 + k);
    cr_assert_null(harness_find_maybe(&h, "button", "model_head", 12), "3 × 4 heads, no more");
    cr_assert(harness_drew_text(&h, "Layer 0, head 0"));
    const Ui_Record *b = harness_find(&h, "button", "model_head", 2 * 4 + 1);
    harness_click(&h, rect_cx(b), rect_cy(b));
    settle();
    cr_assert_eq(h.m.real.open_layer, 2);
    cr_assert_eq(h.m.real.open_head, 1);
    cr_assert(h.m.real.head_done);
    cr_assert(harness_drew_text(&h, "Layer 2, head 1"));
    harness_find(&h, "grid", "model_A", -1);
    harness_find(&h, "grid", "model_weighted", -1);
}

Test(model_view, the_open_head_shows_as_weights_lines_or_a_plane_of_queries_and_keys) {
    attach("The cat sat on the mat. The cat sat on the");
    harness_find(&h, "grid", "model_A", -1);
    const Ui_Record *b = harness_find(&h, "button", "model_head_mode", 1);
    harness_click(&h, rect_cx(b), rect_cy(b));
    harness_frame(&h);
    harness_find(&h, "panel", "model_lines", -1);
    cr_assert_null(harness_find_maybe(&h, "grid", "model_A", -1));
    b = harness_find(&h, "button", "model_head_mode", 2);
    harness_click(&h, rect_cx(b), rect_cy(b));
    harness_frame(&h);
    harness_find(&h, "panel", "model_plane", -1);
    cr_assert(h.m.real.plane_share > 0 && h.m.real.plane_share <= 1);
    cr_assert(harness_drew_text(&h, "of their spread"));
    cr_assert_null(harness_find_maybe(&h, "button", "model_head_mode", 4),
                   "GPT-2 has no RoPE to take away: no fifth mode");
}

/* R reverses the tokens the model reads (not the text), I restores them; the
 * change from what an equivariant layer would give is the same measured
 * either way (the same cells, compared the other way round), and not 0:
 * positions and the mask. */
Test(model_view, reordering_the_tokens_shows_how_far_from_equivariant_the_model_is) {
    attach("one two three four five six");
    const Real_Lab *l = &h.m.real;
    int n = l->shown_n;
    int32_t before[16];
    memcpy(before, l->shown_ids, sizeof(int32_t) * (size_t)n);
    cr_assert_not(l->has_change);
    harness_key(&h, KEY_CHAR, 'r', false, false);
    settle();
    for (int i = 0; i < n; i++) cr_assert_eq(l->shown_ids[i], before[n - 1 - i]);
    cr_assert(l->has_change && l->change_mean > 0 && l->change_max <= 1);
    cr_assert_str_eq(l->text, "one two three four five six", "the text is not changed");
    cr_assert(harness_drew_text(&h, "reordered"));
    double there = l->change_mean;
    const Ui_Record *b = harness_find(&h, "button", "model_reorder", 2); /* Restore */
    harness_click(&h, rect_cx(b), rect_cy(b));
    settle();
    cr_assert(!memcmp(l->shown_ids, before, sizeof(int32_t) * (size_t)n));
    cr_assert(l->has_change && fabs(l->change_mean - there) < 1e-12 * (1 + there));
    /* the same order again is no change */
    harness_key(&h, KEY_CHAR, 'i', false, false);
    settle();
    cr_assert_not(l->has_change);
    /* a shuffle is a permutation of the same tokens */
    harness_key(&h, KEY_CHAR, 's', false, false);
    settle();
    int64_t sum = 0, want = 0;
    for (int i = 0; i < n; i++) sum += l->shown_ids[i], want += before[i];
    cr_assert_eq(sum, want);
}

/* A chip dragged along the row moves its token there, the ones between
 * shifting over, as in the explorer; a click that does not move is no
 * reorder. */
Test(model_view, dragging_a_chip_moves_its_token_and_the_model_reads_them_so) {
    attach("one two three four five six");
    const Real_Lab *l = &h.m.real;
    int32_t before[16];
    int n = l->shown_n;
    memcpy(before, l->shown_ids, sizeof(int32_t) * (size_t)n);
    const Ui_Record *c = harness_find(&h, "chip", "model_token", 0);
    harness_click(&h, rect_cx(c), rect_cy(c));
    settle();
    cr_assert(!memcmp(l->shown_ids, before, sizeof(int32_t) * (size_t)n), "a click moves nothing");
    c = harness_find(&h, "chip", "model_token", 0);
    Rect to = harness_find(&h, "chip", "model_token", 3)->r;
    harness_press(&h, rect_cx(c), rect_cy(c));
    for (int k = 1; k <= 6; k++)
        harness_move(&h, rect_cx(c) + (to.x + 4 - rect_cx(c)) * (float)k / 6, rect_cy(c));
    harness_release(&h);
    settle();
    static const int want[6] = {1, 2, 3, 0, 4, 5}; /* "one" now in slot 3 */
    for (int i = 0; i < n; i++) cr_assert_eq(l->shown_ids[i], before[want[i]], "slot %d", i);
    cr_assert(l->has_change && l->change_mean > 0, "how far from equivariant is measured");
}

/* "explore ↗" puts the open head in the explorer's own panels: its q, k, v
 * rows are the explorer's Q, K, V (X·W factored exactly), so S and A are the
 * model's for that head (float32 against the pass, 1e-4); Ctrl+Z goes back.
 * A text of one token, or longer than the explorer's 64, is one line, nothing changed. */
Test(model_view, explore_opens_the_head_in_the_explorers_panels_with_its_own_numbers) {
    attach("The cat sat on the mat. The cat sat on the");
    const Real_Lab *l = &h.m.real;
    const Ui_Record *b = harness_find(&h, "button", "model_head", 2 * 4 + 3);
    harness_click(&h, rect_cx(b), rect_cy(b));
    settle();
    b = harness_find(&h, "button", "model_explore", -1);
    harness_click(&h, rect_cx(b), rect_cy(b));
    cr_assert_eq(h.vs.view, VIEW_EXPLORER, "%s", h.vs.status);
    const Scene *s = &h.m.scene;
    int n = l->shown_n, dh = 4;
    cr_assert(s->learned && s->n == n && s->d == n && s->d_k == dh && s->mask == MASK_CAUSAL);
    cr_assert(model_update(&h.m));
    const Attn *a = &h.m.derived.pass.head[0];
    const float *A = net_attn(real_lab_shown(l), 2, 3);
    double worst = 0, qk = 0;
    for (int i = 0; i < n * n; i++) worst = fmax(worst, fabs(a->A[i] - A[i]));
    cr_assert_lt(worst, 1e-4, "A differs by %g", worst);
    for (int i = 0; i < n * dh; i++) {
        qk = fmax(qk, fabs(a->Q[i] - l->Q[i]) / (1 + fabs(l->Q[i])));
        qk = fmax(qk, fabs(a->K[i] - l->K[i]) / (1 + fabs(l->K[i])));
    }
    cr_assert_lt(qk, 1e-4, "q and k differ by %g", qk);
    cr_assert(harness_drew_text(&h, "␣cat"), "the chips are the model's tokens");
    /* X is not the model's embeddings: it says what it is */
    const Ui_Record *x_tab = harness_find_maybe(&h, "button", "side_tab", 1);
    if (x_tab) harness_click(&h, rect_cx(x_tab), rect_cy(x_tab));
    harness_frame(&h);
    /* (the caption wraps in the harness's narrow panel) */
    cr_assert(harness_drew_text(&h, "residual") && harness_drew_text(&h, "stream as this"));
    cr_assert_not(harness_drew_text(&h, "embeddings, "));
    harness_key(&h, KEY_CHAR, 'z', true, false);
    cr_assert_not(h.m.scene.learned, "Ctrl+Z: the scene before");
    /* one token: nothing for the explorer to mix (past 64 tokens is refused the same way) */
    h.vs.view = VIEW_MODEL;
    char err[600];
    cr_assert(real_lab_set_text(&h.m.real, "Hello", 5, err, sizeof err), "%s", err);
    real_lab_settle(&h.m.real);
    cr_assert_eq(l->shown_n, 1);
    Scene before = h.m.scene;
    cr_assert_not(model_explore_real(&h.m, err, sizeof err));
    cr_assert(strstr(err, "2 to 64 tokens") && !strchr(err, '\n'), "%s", err);
    cr_assert(scene_equal(&h.m.scene, &before));
}

/* The block diagram: a row a layer, its norms from the pass, and a click on
 * a layer's attention opening that layer. */
Test(model_view, the_block_diagram_gives_each_layers_numbers_and_opens_its_heads) {
    attach("Blocks: embeddings, then layers, then logits");
    const Real_Lab *l = &h.m.real;
    const Ui_Record *b = harness_find(&h, "button", "model_grid_mode", 1);
    harness_click(&h, rect_cx(b), rect_cy(b));
    harness_frame(&h);
    const Ui_Record *panel = harness_find(&h, "panel", "model_blocks", -1);
    for (int a = 0; a < 3; a++) cr_assert(l->attn_adds[a] > 0 && l->mlp_adds[a] > 0);
    cr_assert(l->stream_norm[0] > 0 && l->stream_norm[3] > 0);
    cr_assert(harness_drew_text(&h, "LN → attention") && harness_drew_text(&h, "LN → logits"));
    /* rows: the header, the embeddings, then layer 0, 1, 2: click layer 2's attention */
    float row = fminf(panel->r.h / 6, 44);
    float y = panel->r.y + row + 3 * row + row * 0.5f;
    harness_click(&h, panel->r.x + panel->r.w * 0.25f, y);
    settle();
    cr_assert_eq(l->open_layer, 2, "layer %d opened", l->open_layer);
}

Test(model_view, typing_reads_the_text_live_and_esc_puts_it_back) {
    attach("Hello world");
    const Ui_Record *edit = harness_find(&h, "button", "model_edit", -1);
    harness_click(&h, rect_cx(edit), rect_cy(edit));
    cr_assert(h.vs.editing);
    harness_type(&h, ", again");
    settle();
    cr_assert_str_eq(h.m.real.text, "Hello world, again", "read as it is typed");
    cr_assert_eq(h.m.real.shown_n, 4);
    harness_key(&h, KEY_ESCAPE, 0, false, false);
    settle();
    cr_assert_not(h.vs.editing);
    cr_assert_str_eq(h.m.real.text, "Hello world");
    cr_assert_eq(h.m.real.shown_n, 2);
    /* Enter keeps what was typed */
    harness_click(&h, rect_cx(edit), rect_cy(edit));
    harness_type(&h, "!");
    harness_key(&h, KEY_ENTER, 0, false, false);
    settle();
    cr_assert_not(h.vs.editing);
    cr_assert_str_eq(h.m.real.text, "Hello world!");
}

Test(model_view, the_next_tokens_are_the_labs_at_the_sliders_temperature) {
    attach("One, two, three, four,");
    int32_t ids[10];
    double p[10];
    h.vs.temperature = 0.5f;
    harness_frame(&h);
    int k = real_lab_next(&h.m.real, 0.5, 10, ids, p);
    cr_assert_eq(k, 10);
    char pct[32];
    snprintf(pct, sizeof pct, "%.1f %%", 100 * p[0]);
    cr_assert(harness_drew_text(&h, pct), "the likeliest at T = 0.5 is shown as %s", pct);
    harness_find(&h, "slider", "model_temperature", -1);
}

Test(model_view, low_windows_show_one_panel_under_tabs) {
    attach("A short text");
    h.w = 960;
    h.h = 540;
    harness_frame(&h);
    const Ui_Record *tab = harness_find(&h, "button", "model_tab", 2);
    harness_click(&h, rect_cx(tab), rect_cy(tab));
    cr_assert_eq(h.vs.real_tab, 2);
    harness_find(&h, "panel", "model_next", -1);
    cr_assert_null(harness_find_maybe(&h, "panel", "model_grid", -1));
}

/* "Open model…" takes a folder or a name and hands it to the platform on
 * Enter; Esc asks for nothing. */
Test(model_view, open_model_asks_the_platform_for_what_is_typed) {
    attach("Open another");
    const Ui_Record *b = harness_find(&h, "button", "model_open", -1);
    harness_click(&h, rect_cx(b), rect_cy(b));
    cr_assert(h.vs.editing && h.vs.real_typing_path);
    harness_type(&h, "/models/gpt2-medium");
    harness_frame(&h);
    cr_assert_str_eq(h.m.real.text, "Open another", "a path is not the text");
    harness_key(&h, KEY_ENTER, 0, false, false);
    cr_assert_str_eq(h.vs.real_open_path, "/models/gpt2-medium");
    cr_assert_not(h.vs.editing);
    h.vs.real_open_path[0] = '\0';
    harness_click(&h, rect_cx(b), rect_cy(b));
    harness_type(&h, "x");
    harness_key(&h, KEY_ESCAPE, 0, false, false);
    cr_assert_str_eq(h.vs.real_open_path, "");
    cr_assert_str_eq(h.m.real.text, "Open another");
}

Test(model_view, with_no_model_it_says_how_to_get_gpt2) {
    h.vs.view = VIEW_MODEL;
    snprintf(h.m.real.note, sizeof h.m.real.note, "none in /somewhere");
    harness_frame(&h);
    cr_assert(harness_drew_text(&h, "none in /somewhere"));
    cr_assert(harness_drew_text(&h, "huggingface-cli download openai-community/gpt2"));
    harness_find(&h, "panel", "model_none", -1);
    harness_find(&h, "button", "model_open", -1); /* a model can be opened from here too */
}

/* How many records of that kind and name the last frame made. */
static int count_records(const char *kind, const char *name) {
    int n = 0;
    for (int k = 0; k < h.ui.record_count; k++)
        n += !strcmp(h.records[k].kind, kind) && !strcmp(h.records[k].name, name);
    return n;
}

/* "compare" puts two to four heads side by side, each A on the same 0-1 scale: the open head
 * starts the set, a click in the grid adds a head or takes it away, a fifth pushes out the
 * oldest; the heads' numbers are the pass's. */
Test(model_view, compare_puts_up_to_four_heads_side_by_side) {
    attach("The cat sat on the mat. The cat sat on the");
    const Ui_Record *b = harness_find(&h, "button", "model_head", 0);
    harness_click(&h, rect_cx(b), rect_cy(b));
    settle();
    b = harness_find(&h, "button", "model_head_mode", 3);
    harness_click(&h, rect_cx(b), rect_cy(b));
    harness_frame(&h);
    harness_find(&h, "panel", "model_compare", -1);
    cr_assert_eq(count_records("grid", "model_compared"), 1, "the open head starts the set");
    static const int add[4] = {5, 9, 2, 11}; /* the fourth pushes out head 0 */
    for (int k = 0; k < 4; k++) {
        b = harness_find(&h, "button", "model_head", add[k]);
        harness_click(&h, rect_cx(b), rect_cy(b));
        settle();
        harness_frame(&h);
        cr_assert_eq(count_records("grid", "model_compared"), k < 3 ? k + 2 : 4);
    }
    static const int want[4] = {5, 9, 2, 11};
    cr_assert_eq(h.vs.real_compare_n, 4);
    for (int k = 0; k < 4; k++) cr_assert_eq(h.vs.real_compare[k], want[k]);
    cr_assert(harness_drew_text(&h, "Layer 2, head 3") && harness_drew_text(&h, "Layer 1, head 1"));
    /* at a readable size: each square at least a quarter of the panel's width, halved */
    const Ui_Record *panel = harness_find(&h, "panel", "model_compare", -1);
    const Ui_Record *g = harness_find_any(&h, "grid", "model_compared");
    cr_assert_geq(g->r.w, panel->r.w * 0.2f, "a compared head is %.0f px of %.0f", g->r.w,
                  panel->r.w);
    /* a click on a head in the set takes it away */
    b = harness_find(&h, "button", "model_head", 9);
    harness_click(&h, rect_cx(b), rect_cy(b));
    settle();
    harness_frame(&h);
    cr_assert_eq(count_records("grid", "model_compared"), 3);
    cr_assert_eq(h.vs.real_compare[1], 2);
    /* hovering a cell names the head and its weight, the pass's */
    g = harness_find_any(&h, "grid", "model_compared");
    int n = h.m.real.shown_n;
    harness_move(&h, g->r.x + g->r.w / n * 0.5f, g->r.y + g->r.h / n * 1.5f); /* row 1, column 0 */
    harness_frame(&h);
    char want_text[160];
    snprintf(want_text, sizeof want_text, "Layer 1, head 1: “%s” (query 1) puts %.1f %%", "␣cat",
             100.0 * net_attn(real_lab_shown(&h.m.real), 1, 1)[1 * n + 0]);
    cr_assert(strstr(h.vs.hover_text, want_text), "%s", h.vs.hover_text);
}

/* A thumbnail under the pointer names its head and what it does most: the lab's scores. */
Test(model_view, hovering_a_thumbnail_names_its_head_and_its_top_scores) {
    attach("The cat sat on the mat. The cat sat on the");
    const Ui_Record *b = harness_find(&h, "button", "model_head", 1 * 4 + 2);
    harness_move(&h, rect_cx(b), rect_cy(b));
    harness_frame(&h);
    const Real_Lab *l = &h.m.real;
    char prev[64];
    snprintf(prev, sizeof prev, "the token before %.2f",
             real_lab_head_score(l, REAL_HEAD_PREV, 1, 2));
    cr_assert(strstr(h.vs.hover_text, "Layer 1, head 2: mean weight on") &&
                  strstr(h.vs.hover_text, prev),
              "%s", h.vs.hover_text);
    harness_find(&h, "legend", "model_grid_legend", -1);
}

/* Shares under 10 % keep two significant digits: a random model's ten "0.0 %" said nothing. */
Test(model_view, small_next_token_shares_keep_two_digits) {
    attach("One, two, three, four,");
    h.vs.temperature = 4;
    harness_frame(&h);
    harness_frame(&h);
    int32_t ids[10];
    double p[10];
    int k = real_lab_next(&h.m.real, 4, 10, ids, p);
    cr_assert_eq(k, 10);
    cr_assert_lt(p[9], 0.0995, "the tenth is under 10 %%");
    char pct[32];
    snprintf(pct, sizeof pct, "%#.2g %%", 100 * p[9]);
    cr_assert(harness_drew_text(&h, pct), "the tenth is shown as %s", pct);
    cr_assert_not(harness_drew_text(&h, "0.0 %"));
}

/* How many text runs of the last frame are exactly this. */
static int runs_of(const char *text) {
    int count = 0;
    for (int k = 0; k < h.dl.count; k++)
        if (h.dl.cmds[k].kind == DRAW_TEXT) {
            char buf[64];
            snprintf(buf, sizeof buf, "%.*s", h.dl.cmds[k].text.len,
                     h.dl.text + h.dl.cmds[k].text.offset);
            count += !strcmp(buf, text);
        }
    return count;
}

/* Lesson 14 names the open model's sizes, not GPT-2 small's only: \val{layers}, \val{heads}
 * and \val{d_h} are this model's 3, 4 and 4, set as runs of their own in the lesson's text
 * (GPT-2 small's 12 stays, named as its own). */
Test(model_view, lesson_14_names_the_open_models_sizes) {
    static Lesson lesson;
    static Scene saved;
    static Math_Scratch math;
    char path[1024], err[1024];
    snprintf(path, sizeof path, "%s/lessons/14-a-real-models-heads.md", test_env("ATTNLAB_DATA"));
    cr_assert(lesson_load(&lesson, path, err, sizeof err), "%s", err);
    attach("When Mary and John went to the store, John gave a drink to");
    harness_frame(&h);
    int threes = runs_of("3"), fours = runs_of("4"); /* the grid's own numbers */
    h.vs.session.lesson = &lesson;
    h.vs.session.saved = &saved;
    h.vs.session.math = &math;
    h.vs.session.data_dir = test_env("ATTNLAB_DATA");
    cr_assert(lesson_enter(&h.vs, &h.m, err, sizeof err), "%s", err);
    settle();
    harness_frame(&h);
    cr_assert_eq(runs_of("3"), threes + 1, "3 layers");
    cr_assert_eq(runs_of("4"), fours + 2, "of 4 heads, d_k = 4");
    lesson_leave(&h.vs, &h.m);
}

/* The view's asks are actions (model_apply): each refuses what it cannot do
 * with a line and leaves the lab as it was; none is undone. */
Test(model_view, its_actions_refuse_what_they_cannot_do) {
    char err[400];
    const char *sampling =
        "sampling: temperature 0 to 100, top-k 0 to 1000000, top-p above 0 and at most 1";
    Action open = {.kind = ACTION_REAL_OPEN, .c0 = 0, .c1 = 0};
    cr_assert_not(model_apply(&h.m, &open, err, sizeof err));
    cr_assert_str_eq(err, "no model is open");
    attach("Hello world");
    int layers = rm.weights.model.layers, heads = rm.weights.model.heads;
    harness_act(&h, (Action){.kind = ACTION_REAL_OPEN, .c0 = layers - 1, .c1 = heads - 1});
    cr_assert(h.m.real.open_layer == layers - 1 && h.m.real.open_head == heads - 1);
    const struct {
        Action a;
        const char *why;
    } refused[] = {
        {{.kind = ACTION_REAL_OPEN, .c0 = layers, .c1 = 0}, NULL}, /* past the last layer */
        {{.kind = ACTION_REAL_OPEN, .c0 = 0, .c1 = -2}, "the model has no head -2 of layer 0"},
        {{.kind = ACTION_REAL_MOVE, .c0 = 0, .c1 = 2}, "the text has 2 tokens: no slot 0 or 2"},
        {{.kind = ACTION_REAL_ORDER, .i = 3}, "no such order"},
        {{.kind = ACTION_REAL_WRITE, .i = 9}, "no such way to write"},
        {{.kind = ACTION_REAL_WRITE, .i = REAL_WRITE_START, .value = NAN, .x0 = 1}, sampling},
        {{.kind = ACTION_REAL_WRITE, .i = REAL_WRITE_STEP, .value = 1, .n = -1, .x0 = 1}, sampling},
        {{.kind = ACTION_REAL_WRITE, .i = REAL_WRITE_STEP, .value = 1, .x0 = 0}, sampling},
        {{.kind = ACTION_REAL_TEXT}, "no text"},
    };
    char past[80];
    snprintf(past, sizeof past, "the model has no head 0 of layer %d", layers);
    for (size_t k = 0; k < sizeof refused / sizeof *refused; k++) {
        cr_assert_not(model_apply(&h.m, &refused[k].a, err, sizeof err), "case %zu", k);
        cr_assert_str_eq(err, refused[k].why ? refused[k].why : past, "case %zu", k);
        cr_assert(h.m.real.open_layer == layers - 1 && h.m.real.open_head == heads - 1 &&
                      !strcmp(h.m.real.text, "Hello world") && h.m.real.order[0] == 0 &&
                      !h.m.real.gen.model,
                  "case %zu: a refused action changed the view", k);
    }
    harness_act(&h, (Action){.kind = ACTION_REAL_MOVE, .c0 = 0, .c1 = 1});
    settle();
    cr_assert_eq(h.m.real.order[0], 1, "a move reads the tokens in the new order");
    harness_act(&h, (Action){.kind = ACTION_REAL_ORDER, .i = 2});
    settle();
    cr_assert_eq(h.m.real.order[0], 0, "and the text's own order comes back");
    cr_assert_eq(h.m.undo_count, 0, "no action of the Model view is undone");
}
