/* src/ui/explorer.c and src/ui/view.c driven like a user would, with no GL:
 * synthetic presses, moves and releases, and assertions on the scene. */
#include "harness.h"
#include "ui/explain.h"
#include "ui/plane.h"

#include <math.h>

static Harness h;

static void open_default(void) {
    harness_open(&h, "default.json", 1600, 900, (Text_Metrics){0});
}

static void close_default(void) {
    harness_close(&h);
}

TestSuite(explorer, .init = open_default, .fini = close_default);

Test(explorer, dragging_a_point_moves_exactly_that_embedding) {
    static Scene before;
    before = h.m.scene;
    const Ui_Record *p = harness_find(&h, "point", "token", 2);
    float x0 = rect_cx(p), y0 = rect_cy(p);
    int undo0 = h.m.undo_count;
    Plane_Map pm = h.vs.explorer.plane;
    float per_px = pm.span / (fminf(pm.r.w, pm.r.h) * 0.5f); /* data units per pixel */
    harness_press(&h, x0, y0);
    for (int k = 1; k <= 10; k++) harness_move(&h, x0 + 3.0f * k, y0 - 2.0f * k);
    harness_release(&h);
    const Scene *s = &h.m.scene;
    /* 30 px right and 20 px up, in data units; float rounding of screen ↔ data: 1e-4 */
    cr_assert_float_eq(s->X[2 * s->d + 0], before.X[2 * s->d + 0] + 30 * per_px, 1e-4);
    cr_assert_float_eq(s->X[2 * s->d + 1], before.X[2 * s->d + 1] + 20 * per_px, 1e-4);
    for (int i = 0; i < s->n; i++)
        if (i != 2)
            for (int c = 0; c < s->d; c++) cr_assert_eq(s->X[i * s->d + c], before.X[i * s->d + c]);
    cr_assert_eq(h.m.undo_count, undo0 + 1, "a whole drag is one undo step");
    /* and the derived attention followed */
    cr_assert_neq(h.m.derived.pass.head[0].S[2 * s->n + 2], 0);
    harness_act(&h, action_of(ACTION_UNDO));
    cr_assert(scene_equal(&h.m.scene, &before), "undo restores the exact previous scene");
}

/* Every frame lays out once, from a model that does not change while it
 * does: a drag, a slider and a button only ask, and the next frame applies. */
static void one_frame_checked(void) {
    unsigned long layouts = h.vs.layouts;
    harness_one_frame(&h);
    cr_assert_eq(h.vs.layouts, layouts + 1, "one layout per frame");
    cr_assert_eq(h.m.version, h.vs.laid_out_version, "the scene changed after it was laid out");
}

Test(explorer, a_frame_lays_out_once_from_one_scene) {
    const Ui_Record *p = harness_find(&h, "point", "token", 1);
    float x0 = rect_cx(p), y0 = rect_cy(p);
    unsigned long v0 = h.m.version;
    h.in.mx = x0;
    h.in.my = y0;
    h.in.down = h.in.pressed = true;
    one_frame_checked();
    for (int k = 1; k <= 6; k++) {
        h.in.mx = x0 + 4.0f * k;
        one_frame_checked();
        cr_assert_gt(h.vs.actions.count, 0, "the drag asks for a move");
        one_frame_checked(); /* applies it */
        cr_assert_eq(h.vs.actions.count, 0);
    }
    h.in.down = false;
    h.in.released = true;
    one_frame_checked();
    one_frame_checked();
    cr_assert_gt(h.m.version, v0, "the drag moved the point");
    const Ui_Record *b = harness_find(&h, "button", "reverse", -1);
    h.in.mx = rect_cx(b);
    h.in.my = rect_cy(b);
    h.in.down = h.in.pressed = true;
    one_frame_checked();
    h.in.down = false;
    h.in.released = true;
    unsigned long v1 = h.m.version;
    one_frame_checked();
    cr_assert_eq(h.m.version, v1, "the click is applied by the frame after it");
    one_frame_checked();
    cr_assert_gt(h.m.version, v1);
    cr_assert_eq(h.m.scene.origin[0], h.m.scene.n - 1, "reversed");
}

Test(explorer, dragging_chip_0_to_slot_3_reorders) {
    const Ui_Record *c0 = harness_find(&h, "chip", "token", 0);
    const Ui_Record *c3 = harness_find(&h, "chip", "token", 3);
    float x = rect_cx(c0), y = rect_cy(c0), tx = rect_cx(c3);
    harness_press(&h, x, y);
    for (int k = 1; k <= 8; k++) harness_move(&h, x + (tx - x) * k / 8.0f, y);
    harness_release(&h);
    /* new position i holds old token p[i]: chip 0 lands in slot 3, the others shift left */
    const int want[6] = {1, 2, 3, 0, 4, 5};
    const char *words[6] = {"cat", "sat", "on", "the", "the", "mat"};
    for (int i = 0; i < 6; i++) {
        cr_assert_eq(h.m.scene.origin[i], want[i], "slot %d", i);
        cr_assert_str_eq(h.m.scene.tokens[i], words[i]);
    }
    cr_assert(h.vs.animating, "rows slide to their new places");
    for (int k = 0; k < 20; k++) harness_frame(&h);
    cr_assert_not(h.vs.animating, "the animation ends (~250 ms)");
}

Test(explorer, clicking_a_chip_selects_the_query) {
    const Ui_Record *c4 = harness_find(&h, "chip", "token", 4);
    harness_click(&h, rect_cx(c4), rect_cy(c4));
    cr_assert_eq(h.vs.selected, 4);
    cr_assert_eq(h.m.scene.origin[0], 0, "a click does not reorder");
}

Test(explorer, slider_sets_dk_on_a_log_scale) {
    h.h = 1200; /* rows tall enough for the label over the track */
    harness_frame(&h);
    const Ui_Record *sl = harness_find(&h, "slider", "dk", -1);
    /* the track spans the lower half of the widget, inset by 8 on each side */
    float y = sl->r.y + sl->r.h * 0.75f, x0 = sl->r.x + 8, x1 = sl->r.x + sl->r.w - 8;
    int undo0 = h.m.undo_count;
    harness_press(&h, x1 + 6, y); /* past the end of the track: the maximum */
    cr_assert_eq(h.m.scene.d_k, 1024);
    harness_move(&h, x0 + (x1 - x0) * 0.5f, y); /* halfway on a log scale: √1024 */
    cr_assert_eq(h.m.scene.d_k, 32);
    harness_move(&h, x0 - 30, y);
    cr_assert_eq(h.m.scene.d_k, 1);
    harness_release(&h);
    cr_assert_eq(h.m.undo_count, undo0 + 1, "one slider gesture, one undo step");
    cr_assert_eq(h.m.derived.pass.head[0].d_k, 1, "attention recomputed at the new width");
    /* near a power of two a drag lands on it: a pixel high on the track is
     * several widths wide (16 once jumped to 901 within 250 px) */
    for (int e = 1; e <= 10; e++) {
        float t = (float)e / 10 + 0.01f; /* a hair past 2^e on the log track */
        harness_press(&h, x0 + (x1 - x0) * t, y);
        cr_assert_eq(h.m.scene.d_k, 1 << e, "near 2^%d the slider gives %d", e, h.m.scene.d_k);
        harness_release(&h);
    }
    harness_press(&h, x0 + (x1 - x0) * 0.55f, y); /* halfway between 32 and 64: no snap */
    cr_assert(h.m.scene.d_k > 32 && h.m.scene.d_k < 64, "d_k %d", h.m.scene.d_k);
    harness_release(&h);
}

/* The editor's keys are said inside its field, never over the panel below. */
Test(explorer, the_editors_hint_stays_inside_its_field) {
    const Ui_Record *e = harness_find(&h, "button", "edit", -1);
    harness_click(&h, rect_cx(e), rect_cy(e));
    cr_assert(h.vs.editing);
    const Ui_Record *f = harness_find(&h, "field", "sentence", -1);
    int found = 0;
    for (int k = 0; k < h.dl.count; k++) {
        const Draw_Cmd *c = &h.dl.cmds[k];
        if (c->kind != DRAW_TEXT || c->text.len < 13 ||
            strncmp(h.dl.text + c->text.offset, "Enter applies", 13))
            continue;
        found++;
        float lh = stub_line_height(NULL, c->text.font, c->text.size);
        cr_assert(c->text.y >= f->r.y - 0.5f && c->text.y + lh <= f->r.y + f->r.h + 0.5f,
                  "the hint at y %g is outside the field (%g to %g)", (double)c->text.y,
                  (double)f->r.y, (double)(f->r.y + f->r.h));
    }
    cr_assert_eq(found, 1, "the hint is shown while the sentence leaves room");
}

Test(explorer, typing_a_sentence_replaces_the_tokens) {
    const Ui_Record *e = harness_find(&h, "button", "edit", -1);
    harness_click(&h, rect_cx(e), rect_cy(e));
    cr_assert(h.vs.editing);
    for (int k = 0; k < 40; k++) harness_key(&h, KEY_BACKSPACE, 0, false, false);
    harness_type(&h, "a dog ");
    harness_type(&h, "ran home");
    harness_key(&h, KEY_ENTER, 0, false, false);
    cr_assert_not(h.vs.editing);
    cr_assert_eq(h.m.scene.n, 4);
    cr_assert_str_eq(h.m.scene.tokens[1], "dog");
    cr_assert_str_eq(h.m.scene.tokens[3], "home");
    float want[2];
    vocab_embed(&h.vocab, "dog", 2, want);
    cr_assert_eq(h.m.scene.X[1 * 2 + 0], want[0]);
    cr_assert_eq(h.m.derived.pass.head[0].n, 4);
}

/* Text that a scene file would refuse never gets into the scene, so Ctrl+S
 * cannot save a file that --scene will not reopen. */
Test(explorer, the_editor_refuses_text_a_scene_file_could_not_hold) {
    /* bytes that are not UTF-8 are refused as they come in; a control
     * character is refused when the sentence is applied */
    static const char *const bad[] = {"a caf\xc0\xa9 b", "a b\x1b[31m c", "x \xed\xa0\x80"};
    static const char *const why[] = {"Not added: the text is not UTF-8 (byte 6)",
                                      "Sentence not applied: word 2 ",
                                      "Not added: the text is not UTF-8 (byte 3)"};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        const Ui_Record *e = harness_find(&h, "button", "edit", -1);
        harness_click(&h, rect_cx(e), rect_cy(e));
        cr_assert(h.vs.editing);
        for (int j = 0; j < 40; j++) harness_key(&h, KEY_BACKSPACE, 0, false, false);
        harness_type(&h, bad[k]);
        if (k != 1) cr_assert_str_eq(h.vs.edit, "", "case %zu: bad bytes went in", k);
        if (k == 1) harness_key(&h, KEY_ENTER, 0, false, false);
        cr_assert(h.vs.editing, "case %zu was applied", k);
        cr_assert(h.vs.status_error, "case %zu: no error shown", k);
        cr_assert(strstr(h.vs.status, why[k]), "case %zu: %s", k, h.vs.status);
        /* the status line is one safe line */
        for (const char *c = h.vs.status; *c; c++)
            cr_assert((unsigned char)*c >= 0x20 && *c != 0x7f, "case %zu: raw control", k);
        cr_assert_eq(h.m.scene.n, 6);
        cr_assert_str_eq(h.m.scene.tokens[1], "cat");
        harness_key(&h, KEY_ESCAPE, 0, false, false);
        harness_frame(&h);
    }
}

Test(explorer, the_text_cursor_moves_and_edits_in_place) {
    const Ui_Record *e = harness_find(&h, "button", "edit", -1);
    harness_click(&h, rect_cx(e), rect_cy(e));
    cr_assert_str_eq(h.vs.edit, "the cat sat on the mat");
    harness_key(&h, KEY_HOME, 0, false, false);
    for (int k = 0; k < 4; k++) harness_key(&h, KEY_RIGHT, 0, false, false); /* after "the " */
    harness_type(&h, "big ");
    cr_assert_str_eq(h.vs.edit, "the big cat sat on the mat");
    harness_key(&h, KEY_END, 0, false, false);
    harness_key(&h, KEY_LEFT, 0, false, false);
    harness_key(&h, KEY_BACKSPACE, 0, false, false); /* removes the 'a' of "mat" */
    harness_key(&h, KEY_DELETE, 0, false, false);    /* and the 't' after the cursor */
    cr_assert_str_eq(h.vs.edit, "the big cat sat on the m");
    harness_type(&h, "é");
    harness_key(&h, KEY_LEFT, 0, false, false);
    harness_key(&h, KEY_DELETE, 0, false, false); /* a two-byte character goes whole */
    cr_assert_str_eq(h.vs.edit, "the big cat sat on the m");
    harness_key(&h, KEY_ENTER, 0, false, false);
    cr_assert_eq(h.m.scene.n, 7);
    cr_assert_str_eq(h.m.scene.tokens[1], "big");
}

Test(explorer, escape_cancels_and_an_empty_sentence_is_refused) {
    const Ui_Record *e = harness_find(&h, "button", "edit", -1);
    harness_click(&h, rect_cx(e), rect_cy(e));
    for (int k = 0; k < 40; k++) harness_key(&h, KEY_BACKSPACE, 0, false, false);
    harness_key(&h, KEY_ENTER, 0, false, false);
    cr_assert(h.vs.editing, "still editing after a refused sentence");
    cr_assert(h.vs.status_error);
    cr_assert(strstr(h.vs.status, "empty"), "%s", h.vs.status);
    cr_assert_eq(h.m.scene.n, 6, "the previous good scene is kept");
    harness_key(&h, KEY_ESCAPE, 0, false, false);
    cr_assert_not(h.vs.editing);
    cr_assert_eq(h.m.scene.n, 6);
}

Test(explorer, undo_and_redo_by_keyboard) {
    static Scene s0, s1;
    s0 = h.m.scene;
    harness_key(&h, KEY_CHAR, 'r', false, false); /* reverse */
    s1 = h.m.scene;
    cr_assert_str_eq(s1.tokens[0], "mat");
    harness_key(&h, KEY_CHAR, 'z', true, false);
    cr_assert(scene_equal(&h.m.scene, &s0), "Ctrl+Z restores the exact previous scene");
    harness_key(&h, KEY_CHAR, 'z', true, true);
    cr_assert(scene_equal(&h.m.scene, &s1), "Ctrl+Shift+Z re-applies it");
    harness_key(&h, KEY_CHAR, 'z', true, false);
    harness_key(&h, KEY_CHAR, 'y', true, false);
    cr_assert(scene_equal(&h.m.scene, &s1), "Ctrl+Y re-applies it too");
}

Test(explorer, shuffle_and_restore) {
    harness_key(&h, KEY_CHAR, 's', false, false);
    bool moved = false;
    for (int i = 0; i < 6; i++) moved |= h.m.scene.origin[i] != i;
    cr_assert(moved, "S shuffles");
    harness_key(&h, KEY_CHAR, 'i', false, false);
    for (int i = 0; i < 6; i++) cr_assert_eq(h.m.scene.origin[i], i, "I restores the order");
}

Test(explorer, selected_query_follows_its_token_when_reordered) {
    const Ui_Record *c1 = harness_find(&h, "chip", "token", 1);
    harness_click(&h, rect_cx(c1), rect_cy(c1)); /* select "cat" */
    harness_key(&h, KEY_CHAR, 'r', false, false);
    cr_assert_str_eq(h.m.scene.tokens[h.vs.selected], "cat");
}

Test(explorer, hovering_a_score_cell_explains_it_with_the_current_numbers) {
    const Ui_Record *S = harness_find(&h, "panel", "S", -1);
    (void)S;
    char buf[600];
    explain_cell(&h.m, &h.m.derived.pass.head[0], 1, 2, buf, sizeof buf);
    const Attn *a = &h.m.derived.pass.head[0];
    double dot = 0;
    for (int r = 0; r < 16; r++) dot += (double)a->Q[1 * 16 + r] * a->K[2 * 16 + r];
    char want[160];
    snprintf(want, sizeof want, "s₂₃ = ⟨q₂,k₃⟩/√d_k = %.2f/√16 = %.2f", dot, dot / 4);
    cr_assert(strstr(buf, want), "'%s' lacks '%s'", buf, want);
    /* the denominator is given with its value, so a student can redo the
     * weight by hand: e^s / Σ = a */
    double z = 0;
    for (int l = 0; l < 6; l++) z += exp((double)a->S[1 * 6 + l]);
    snprintf(want, sizeof want, "a₂₃ = e^%.2f / Σ_ℓ e^s₂ℓ = %.4g / %.4g = %.3f",
             (double)a->S[1 * 6 + 2], exp((double)a->S[1 * 6 + 2]), z, (double)a->A[1 * 6 + 2]);
    cr_assert(strstr(buf, want), "'%s' lacks '%s'", buf, want);
    cr_assert_float_eq(exp((double)a->S[1 * 6 + 2]) / z, a->A[1 * 6 + 2], 1e-6,
                       "the printed parts give the weight (float32 softmax)");
    cr_assert_null(strstr(buf, "head "), "one head is not named: %s", buf);
    /* with several heads, the callout says which one it explains */
    harness_act(&h, action_set(SET_HEADS, 3));
    harness_frame(&h);
    explain_cell(&h.m, derived_head(&h.m.derived, 1), 1, 2, buf, sizeof buf);
    cr_assert(strstr(buf, "head 2 of 3: s₂₃ = "), "%s", buf);
}

Test(explorer, the_hover_arithmetic_names_the_position_term_in_the_rule) {
    char buf[800], want[200];
    /* RoPE: the turned q and k, and where they sit */
    harness_act(&h, action_set(SET_POS, POS_ROPE));
    harness_act(&h, action_set(SET_POS_OFFSET, 100));
    harness_frame(&h);
    const Attn *a = &h.m.derived.pass.head[0];
    explain_cell(&h.m, a, 1, 2, buf, sizeof buf);
    double dot = 0, plain = 0;
    for (int r = 0; r < 16; r++) {
        dot += (double)a->Qr[1 * 16 + r] * a->Kr[2 * 16 + r];
        plain += (double)a->Q[1 * 16 + r] * a->K[2 * 16 + r];
    }
    cr_assert(fabs(dot - plain) > 1e-3, "the turn changed the dot product");
    snprintf(want, sizeof want, "s₂₃ = ⟨R_p q₂, R_p′ k₃⟩/√d_k = %.2f/√16 = %.2f", dot,
             (double)a->S[1 * 6 + 2]);
    cr_assert(strstr(buf, want), "'%s' lacks '%s'", buf, want);
    cr_assert(strstr(buf, "(p = 101, p′ = 102)"), "%s", buf);
    cr_assert(fabs(dot / 4 - a->S[1 * 6 + 2]) < 1e-5, "the printed parts give the score");
    /* an odd d_k: the screen says one coordinate is not turned */
    cr_assert_not(harness_drew_text(&h, "RoPE leaves its last coordinate unturned"));
    harness_act(&h, action_set(SET_DK, 5));
    harness_frame(&h);
    cr_assert(harness_drew_text(&h, "RoPE leaves its last coordinate unturned"));
    harness_act(&h, action_set(SET_DK, 16));
    /* ALiBi: the bias with head 2's slope of 3, 2^(−16/3) */
    harness_act(&h, action_set(SET_POS, POS_ALIBI));
    harness_act(&h, action_set(SET_HEADS, 3));
    harness_frame(&h);
    a = derived_head(&h.m.derived, 1);
    explain_cell(&h.m, a, 3, 1, buf, sizeof buf);
    dot = 0;
    for (int r = 0; r < 16; r++) dot += (double)a->Q[3 * 16 + r] * a->K[1 * 16 + r];
    double m2 = pow(2.0, -16.0 / 3);
    snprintf(want, sizeof want, "s₄₂ = ⟨q₄,k₂⟩/√d_k − m·|4−2| = %.2f/√16 − %.3g·2 = %.2f", dot, m2,
             (double)a->S[3 * 6 + 1]);
    cr_assert(strstr(buf, want), "'%s' lacks '%s'", buf, want);
    cr_assert(fabs(dot / 4 - 2 * m2 - a->S[3 * 6 + 1]) < 1e-5, "the printed parts give the score");
}

Test(explorer, hovering_moves_the_status_line_and_highlights) {
    /* find the S grid from the panel: move over its middle and check a cell is hovered */
    const Ui_Record *S = harness_find(&h, "panel", "S", -1);
    harness_move(&h, S->r.x + S->r.w * 0.5f, S->r.y + S->r.h * 0.6f);
    cr_assert_geq(h.vs.hover_row, 0);
    cr_assert_geq(h.vs.hover_col, 0);
    cr_assert_eq(h.vs.mark_key, h.vs.hover_col, "the key is highlighted everywhere");
}

Test(explorer, help_overlay_opens_and_closes) {
    harness_key(&h, KEY_F1, 0, false, false);
    cr_assert(h.vs.help);
    harness_find(&h, "panel", "help", -1);
    harness_key(&h, KEY_ESCAPE, 0, false, false);
    cr_assert_not(h.vs.help);
}

/* A browser keeps F5, F11 and Ctrl+Q: the page's help lists what it offers instead. */
Test(explorer, the_help_lists_the_keys_of_where_it_runs) {
    harness_key(&h, KEY_F1, 0, false, false);
    cr_assert(harness_drew_text(&h, "reload shaders"));
    cr_assert_not(harness_drew_text(&h, "download the scene"));
    h.vs.in_browser = true;
    harness_frame(&h);
    cr_assert(harness_drew_text(&h, "download the scene"));
    cr_assert(harness_drew_text(&h, "Ctrl+P"));
    cr_assert(harness_drew_text(&h, "open a scene (.json) or a lesson (.md)"));
    cr_assert_not(harness_drew_text(&h, "reload shaders"));
    cr_assert_not(harness_drew_text(&h, "fullscreen"));
}

Test(explorer, ctrl_s_asks_the_platform_to_save) {
    harness_key(&h, KEY_CHAR, 's', true, false);
    cr_assert(h.vs.want_save);
    for (int i = 0; i < 6; i++) cr_assert_eq(h.m.scene.origin[i], i, "Ctrl+S does not shuffle");
}

/* Panels never overlap and stay inside the window. */
static void check_panels(int min_panels) {
    int panels = 0;
    for (int a = 0; a < h.ui.record_count; a++) {
        const Ui_Record *ra = &h.records[a];
        if (strcmp(ra->kind, "panel")) continue;
        panels++;
        cr_assert(ra->r.x >= 0 && ra->r.y >= 0 && ra->r.x + ra->r.w <= h.w + 0.5f &&
                      ra->r.y + ra->r.h <= h.h + 0.5f,
                  "%s outside the %gx%g window", ra->name, h.w, h.h);
        cr_assert(ra->r.w > 60 && ra->r.h > 60, "%s too small at %gx%g (view %d)", ra->name, h.w,
                  h.h, h.vs.view);
        for (int b = a + 1; b < h.ui.record_count; b++) {
            const Ui_Record *rb = &h.records[b];
            if (strcmp(rb->kind, "panel")) continue;
            bool apart = ra->r.x + ra->r.w <= rb->r.x + 0.5f ||
                         rb->r.x + rb->r.w <= ra->r.x + 0.5f ||
                         ra->r.y + ra->r.h <= rb->r.y + 0.5f || rb->r.y + rb->r.h <= ra->r.y + 0.5f;
            cr_assert(apart, "%s overlaps %s at %gx%g (view %d)", ra->name, rb->name, h.w, h.h,
                      h.vs.view);
        }
    }
    cr_assert_geq(panels, min_panels, "%d panels at %gx%g (view %d)", panels, h.w, h.h, h.vs.view);
    cr_assert_eq(h.dl.dropped, 0);
}

Test(explorer, layout_fits_from_small_to_large_without_overlap) {
    /* every view, at every logical size the app lays out: windows from
     * 1024x640 to 4K, and zooms down to the 960x560 where the zoom is held
     * (1600x900 at 1.5x is 1067x600; 3840x2160 at 3x is 1280x720) */
    const float sizes[][2] = {{960, 560},
                              {1024, 640},
                              {1280, 720},
                              {1600, 900},
                              {1920, 1080},
                              {3840, 2160},
                              {1600 / 1.5f, 900 / 1.5f}};
    /* narrow, the scaling lab folds "Try it" in and the permutation lab drops P;
     * the explorer shows every panel (plane, controls, S, A, X, Q, K, V, O,
     * the query) until the room is small, then the plane, its controls, S
     * and A, with the rest a tab away; so does the permutation lab, one row
     * of three comparisons at a time (with the verdict and the reorder row) */
    const int min_panels[VIEW_COUNT] = {10, 6, 8, 4};
    for (int v = 0; v < VIEW_COUNT; v++) {
        h.vs.view = (View)v;
        for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
            h.w = sizes[k][0];
            h.h = sizes[k][1];
            harness_frame(&h);
            bool small = h.w < 1120 || h.h < 620;
            check_panels(v == VIEW_EXPLORER && small      ? 4
                         : v == VIEW_PERMUTATION && small ? 5
                                                          : min_panels[v]);
        }
    }
}

Test(explorer, largest_n_lays_out_and_stays_finite) {
    static char text[ATTN_MAX_TOKENS * 6];
    size_t used = 0;
    for (int i = 0; i < ATTN_MAX_TOKENS; i++)
        used += (size_t)snprintf(text + used, sizeof text - used, "w%d ", i);
    harness_act(&h, (Action){.kind = ACTION_SENTENCE, .text = text});
    harness_act(&h, action_set(SET_DK, 64));
    harness_frame(&h);
    harness_frame(&h);
    cr_assert_eq(h.m.scene.n, ATTN_MAX_TOKENS);
    cr_assert_eq(h.dl.dropped, 0, "the draw list holds a 512-token frame");
}

/* At n = 512 every heatmap of the frame is in the draw list with all of its
 * cells, at every head count: S, A, each head's thumbnail and the X, Q, K, V
 * and O strips. (A fixed grid space of 6 × 512² floats left A blank at H = 4
 * and lost S, A and half the thumbnails at H = 16.) */
Test(explorer, every_heatmap_is_drawn_whole_at_n_512_and_16_heads) {
    static char text[ATTN_MAX_TOKENS * 6];
    size_t used = 0;
    for (int i = 0; i < ATTN_MAX_TOKENS; i++)
        used += (size_t)snprintf(text + used, sizeof text - used, "w%d ", i);
    harness_act(&h, (Action){.kind = ACTION_SENTENCE, .text = text});
    const int heads[] = {4, 8, 16};
    for (int k = 0; k < 3; k++) {
        harness_act(&h, action_set(SET_HEADS, heads[k]));
        harness_frame(&h);
        harness_frame(&h);
        cr_assert_eq(h.m.scene.heads, heads[k]);
        cr_assert_eq(h.dl.dropped, 0, "H = %d: nothing left out", heads[k]);
        int full = 0, square = 0, strips = 0;
        int32_t cells = 0;
        for (int c = 0; c < h.dl.count; c++) {
            const Draw_Cmd *cmd = &h.dl.cmds[c];
            if (cmd->kind != DRAW_HEATMAP) continue;
            cr_assert_leq(cmd->heat.offset + cmd->heat.rows * cmd->heat.cols, h.dl.grid_len);
            cells += cmd->heat.rows * cmd->heat.cols;
            if (cmd->heat.rows == 512 && cmd->heat.cols == 512) full++;
            if (cmd->heat.rows == cmd->heat.cols)
                square++;
            else if (cmd->heat.rows == 512)
                strips++;
        }
        cr_assert_geq(full, 2, "H = %d: S and A are drawn at 512 × 512 (%d)", heads[k], full);
        cr_assert_geq(square, 2 + heads[k], "H = %d: S, A and a thumbnail for every head (%d)",
                      heads[k], square);
        cr_assert_geq(strips, 5, "H = %d: X, Q, K, V and O (%d)", heads[k], strips);
        cr_assert_eq(cells, h.dl.grid_len, "every cell of every heatmap is in the list");
    }
}

/* A chip being dragged is drawn under the pointer, held where it was taken
 * (it was drawn at the drag's displacement from the row's start instead). */
Test(explorer, a_dragged_chip_stays_under_the_pointer) {
    harness_frame(&h);
    const Ui_Record *c = harness_find(&h, "chip", "token", 2);
    float gx = c->r.x + c->r.w * 0.3f, gy = c->r.y + c->r.h * 0.5f, grab = gx - c->r.x;
    harness_press(&h, gx, gy);
    for (int step = 1; step <= 6; step++) {
        float x = gx + 25 * (float)step;
        harness_move(&h, x, gy);
        const Ui_Record *now = harness_find(&h, "chip", "token", 2);
        cr_assert_float_eq(now->r.x, x - grab, 0.5f,
                           "step %d: the chip is at %g, the pointer at %g", step, (double)now->r.x,
                           (double)x);
    }
    harness_release(&h);
}

/* Reversing animates rows and chips to their new places without piling them
 * up: at no moment do more than the two rows of a swapping pair share a
 * place (linear paths once met all at the midpoint). */
Test(explorer, a_reversal_never_piles_rows_into_one_place) {
    harness_frame(&h);
    int n = h.m.scene.n;
    harness_key(&h, KEY_CHAR, 'r', false, false);
    int frames = 0, worst = 0;
    for (; h.vs.animating && frames < 500; frames++) {
        harness_one_frame(&h);
        for (int i = 0; i < n; i++) {
            int near = 0;
            for (int j = 0; j < n; j++)
                near += fabsf((i + h.vs.row_offset[i]) - (j + h.vs.row_offset[j])) < 0.3f;
            if (near > worst) worst = near;
        }
    }
    cr_assert_gt(frames, 5, "the reversal animated");
    cr_assert_leq(worst, 2, "%d rows shared one place during the reversal", worst);
}

/* The view sees a reorder itself (same tokens, origins moved); the model
 * keeps no animation data. */
Test(explorer, a_reorder_animates_and_the_selection_follows_its_token) {
    harness_frame(&h);
    h.vs.selected = 1; /* "cat" */
    harness_frame(&h);
    harness_key(&h, KEY_CHAR, 'r', false, false); /* reverse */
    harness_frame(&h);
    cr_assert(h.vs.animating, "a reverse glides");
    cr_assert_str_eq(h.m.scene.tokens[h.vs.selected], "cat", "the selection follows its token");
    cr_assert_eq(h.vs.anim_from[0], 5, "new slot 0 came from slot 5");
    for (int k = 0; k < 20; k++) harness_frame(&h);
    /* undo is a reorder too, and now glides back instead of jumping */
    harness_key(&h, KEY_CHAR, 'z', true, false);
    harness_frame(&h);
    cr_assert(h.vs.animating, "undoing a reorder glides back");
    cr_assert_str_eq(h.m.scene.tokens[0], "the");
}

Test(explorer, a_new_sentence_is_no_reorder) {
    harness_frame(&h);
    harness_key(&h, KEY_CHAR, 'r', false, false);
    for (int k = 0; k < 20; k++) harness_frame(&h);
    cr_assert_not(h.vs.animating);
    harness_act(&h, (Action){.kind = ACTION_SENTENCE, .text = "a dog ran far off home"});
    harness_frame(&h);
    cr_assert_not(h.vs.animating, "six new words are not the old six moved");
}

Test(explorer, a_selection_made_with_the_reorder_is_kept) {
    harness_frame(&h);
    h.vs.selected = 1;
    harness_frame(&h);
    /* what a lesson step does: reorder, then select position 2 */
    harness_act(&h, action_of(ACTION_REVERSE));
    h.vs.selected = 2;
    harness_frame(&h);
    cr_assert(h.vs.animating);
    cr_assert_eq(h.vs.selected, 2, "the lesson's selection was overridden");
}

Test(explorer, typing_d_k_takes_its_range_from_the_settings_table) {
    const Ui_Record *r = harness_find(&h, "slider", "dk", -1);
    float nx = r->r.x + r->r.w - 35, ny = r->r.y + r->r.h * 0.25f; /* the number, top right */
    harness_click(&h, nx, ny);
    cr_assert(h.vs.typing_dk, "clicking the number opens the field");
    harness_type(&h, "64");
    harness_key(&h, KEY_ENTER, 0, false, false);
    cr_assert_eq(h.m.scene.d_k, 64);
    cr_assert_not(h.vs.typing_dk);
    harness_click(&h, nx, ny);
    harness_type(&h, "2000");
    harness_key(&h, KEY_ENTER, 0, false, false);
    cr_assert_eq(h.m.scene.d_k, 64, "out of range: not applied, never clamped");
    cr_assert(h.vs.typing_dk, "the field stays open to be corrected");
    cr_assert(h.vs.status_error);
    cr_assert(strstr(h.vs.status, "2000") && strstr(h.vs.status, "1024"), "%s", h.vs.status);
    harness_key(&h, KEY_ESCAPE, 0, false, false);
    cr_assert_not(h.vs.typing_dk);
}

Test(explorer, a_point_dragged_past_the_edge_stays_at_the_edge) {
    const Ui_Record *p = harness_find(&h, "point", "token", 1);
    Rect plot = h.vs.explorer.plane.r;
    float span = h.vs.explorer.plane.span;
    harness_press(&h, rect_cx(p), rect_cy(p));
    harness_move(&h, plot.x + plot.w + 400, plot.y - 300); /* far up and right, off the panel */
    /* still held: the point is drawn at the plot's top-right corner */
    p = harness_find(&h, "point", "token", 1);
    cr_assert_float_eq(rect_cx(p), plot.x + plot.w, 0.5, "x %g", (double)rect_cx(p));
    cr_assert_float_eq(rect_cy(p), plot.y, 0.5, "y %g", (double)rect_cy(p));
    harness_release(&h);
    const Scene *s = &h.m.scene;
    /* the edge is ±span in data units; float rounding of screen → data: 1e-4 relative */
    cr_assert_float_eq(s->X[1 * s->d + 0], span, 1e-4 * span);
    cr_assert_float_eq(s->X[1 * s->d + 1], span, 1e-4 * span);
}

Test(explorer, a_message_goes_with_the_next_edit_or_in_time) {
    harness_key(&h, KEY_CHAR, 'z', true, false); /* Ctrl+Z with nothing to undo */
    cr_assert_str_eq(h.vs.status, "Nothing to undo");
    harness_key(&h, KEY_CHAR, 'r', false, false); /* an edit */
    cr_assert_str_eq(h.vs.status, "", "an old message stays up after a new edit");
    harness_key(&h, KEY_CHAR, 'y', true, false); /* Ctrl+Y with nothing to redo */
    cr_assert_str_eq(h.vs.status, "Nothing to redo");
    double wake = view_wake_in(&h.vs);
    cr_assert_float_eq(wake, VIEW_STATUS_SECONDS, 0.1, "the app is told when to wake: %g", wake);
    h.in.time += VIEW_STATUS_SECONDS;
    harness_frame(&h);
    cr_assert_str_eq(h.vs.status, "", "a message outlives its time");
    cr_assert_eq(view_wake_in(&h.vs), -1);
    /* an error stays until the next edit */
    harness_act(&h, action_set(SET_DK, 8));
    view_set_status(&h.vs, true, "something went wrong");
    h.in.time += 3 * VIEW_STATUS_SECONDS;
    harness_frame(&h);
    cr_assert_str_eq(h.vs.status, "something went wrong");
}

static bool has_panel(const char *name) {
    for (int k = 0; k < h.ui.record_count; k++)
        if (!strcmp(h.records[k].kind, "panel") && !strcmp(h.records[k].name, name)) return true;
    return false;
}

Test(explorer, small_room_keeps_the_plane_and_puts_the_rest_a_tab_away) {
    h.w = 960;
    h.h = 560;
    harness_frame(&h);
    cr_assert(has_panel("plane") && has_panel("S") && has_panel("A") && has_panel("controls"));
    cr_assert_not(has_panel("Q"), "the strips wait behind their tab");
    const Ui_Record *tab = harness_find(&h, "button", "main_tab", 1);
    harness_click(&h, rect_cx(tab), rect_cy(tab));
    cr_assert(has_panel("Q") && has_panel("K") && has_panel("V") && has_panel("O"));
    cr_assert(has_panel("plane"), "the plane stays in sight");
    tab = harness_find(&h, "button", "main_tab", 2);
    harness_click(&h, rect_cx(tab), rect_cy(tab));
    cr_assert(has_panel("query"));
    tab = harness_find(&h, "button", "side_tab", 1);
    harness_click(&h, rect_cx(tab), rect_cy(tab));
    cr_assert(has_panel("X") && !has_panel("controls"));
}

Test(explorer, the_d_slider_widens_the_embeddings) {
    const Ui_Record *sl = harness_find(&h, "slider", "d", -1);
    cr_assert_eq(h.m.scene.d, 2);
    /* the track is log-spaced over 1…64: a little past two thirds is d = 16 or so */
    harness_click(&h, sl->r.x + 8 + (sl->r.w - 16) * 0.72f, sl->r.y + sl->r.h * 0.75f);
    cr_assert_gt(h.m.scene.d, 8, "d = %d", h.m.scene.d);
    cr_assert_eq(h.m.undo_count, 1, "one step to undo");
    const Ui_Record *x = harness_find(&h, "grid", "X", -1);
    cr_assert(x->r.w > 0);
    harness_act(&h, action_of(ACTION_UNDO));
    cr_assert_eq(h.m.scene.d, 2);
}

static const char long_text[] = "the quick brown fox jumps over the lazy dog while the cat sat on "
                                "the mat and the bird sang a song of the morning light across "
                                "the quiet green hills by the river and the end";

static const Ui_Record *chip_or_null(int i) {
    for (int k = 0; k < h.ui.record_count; k++)
        if (!strcmp(h.records[k].kind, "chip") && h.records[k].index == i) return &h.records[k];
    return NULL;
}

Test(explorer, every_chip_of_a_long_sentence_can_be_reached_and_dragged) {
    harness_act(&h, (Action){.kind = ACTION_SENTENCE, .text = long_text});
    h.w = 1280;
    h.h = 720;
    harness_frame(&h);
    int n = h.m.scene.n;
    cr_assert_gt(n, 30);
    cr_assert_null(chip_or_null(n - 1), "the last chip is off to the right");
    const Ui_Record *more = harness_find(&h, "button", "chips_scroll", 1);
    Rect next = more->r;
    for (int k = 0; k < 20 && !chip_or_null(n - 1); k++)
        harness_click(&h, next.x + next.w * 0.5f, next.y + next.h * 0.5f);
    const Ui_Record *last = chip_or_null(n - 1);
    cr_assert(last, "› brings the last chip into view");
    /* drag the last word onto the slot of the chip shown fifth from the end */
    const Ui_Record *target = chip_or_null(n - 5);
    cr_assert(target);
    char word[ATTN_MAX_TOKEN_BYTES];
    snprintf(word, sizeof word, "%s", h.m.scene.tokens[n - 1]);
    float x = rect_cx(last), y = rect_cy(last), tx = target->r.x + 2;
    harness_press(&h, x, y);
    for (int k = 1; k <= 6; k++) harness_move(&h, x + (tx - x) * k / 6.0f, y);
    harness_release(&h);
    cr_assert_str_eq(h.m.scene.tokens[n - 5], word, "the dragged word landed in slot %d", n - 5);
    cr_assert_eq(h.m.scene.origin[n - 5], n - 1);
    /* the wheel scrolls back to the start */
    h.in.wheel = 50;
    harness_move(&h, x, y);
    cr_assert(chip_or_null(0), "the wheel brings the first chip back");
}

/* A run of text drawn this frame, as the stub metrics measure it. */
typedef struct Text_Box {
    float x, y, w, hgt;
    char s[32];
} Text_Box;

static Text_Box text_box(const Draw_Cmd *c) {
    Text_Box b = {
        c->text.x, c->text.y,
        stub_width(NULL, c->text.font, c->text.size, h.dl.text + c->text.offset, c->text.len),
        stub_line_height(NULL, c->text.font, c->text.size), ""};
    snprintf(b.s, sizeof b.s, "%.*s", c->text.len, h.dl.text + c->text.offset);
    return b;
}

/* No two of the boxes share a pixel. */
static void assert_apart(const Text_Box *box, int count) {
    for (int a = 0; a < count; a++)
        for (int b = a + 1; b < count; b++) {
            bool apart = box[a].x + box[a].w <= box[b].x + 0.01f ||
                         box[b].x + box[b].w <= box[a].x + 0.01f ||
                         box[a].y + box[a].hgt <= box[b].y + 0.01f ||
                         box[b].y + box[b].hgt <= box[a].y + 0.01f;
            cr_assert(apart, "'%s' and '%s' overprint", box[a].s, box[b].s);
        }
}

Test(explorer, labels_in_the_plane_never_pile_up) {
    harness_act(&h, (Action){.kind = ACTION_SENTENCE, .text = long_text});
    harness_frame(&h);
    Rect plot = h.vs.explorer.plane.r;
    static Text_Box box[ATTN_MAX_TOKENS];
    int count = 0;
    for (int k = 0; k < h.dl.count; k++) {
        const Draw_Cmd *c = &h.dl.cmds[k];
        if (c->kind != DRAW_TEXT || c->text.align != ALIGN_LEFT) continue;
        if (c->text.x < plot.x || c->text.x > plot.x + plot.w || c->text.y < plot.y ||
            c->text.y > plot.y + plot.h)
            continue;
        box[count++] = text_box(c);
    }
    cr_assert_gt(count, 10, "most words keep a label (%d)", count);
    assert_apart(box, count);
}

/* The output plane of the Query tab: every value's dot has its word where
 * there is room, and no label (o_i, a piece a_ij·v_j, a word) overprints
 * another. */
Test(explorer, the_output_plane_labels_its_values_and_nothing_overprints) {
    h.w = 1600;
    h.h = 900;
    harness_frame(&h);
    const Ui_Record *tab = harness_find_any(&h, "button", "main_tab");
    if (tab) { /* the query panel is a tab away */
        tab = harness_find(&h, "button", "main_tab", 2);
        harness_click(&h, rect_cx(tab), rect_cy(tab));
    }
    const Ui_Record *panel = harness_find(&h, "panel", "query", -1);
    /* the plane is the part of the panel under o_i's heading */
    float top = 0;
    for (int k = 0; k < h.dl.count; k++) {
        const Draw_Cmd *c = &h.dl.cmds[k];
        if (c->kind == DRAW_TEXT && c->text.len > 8 &&
            !strncmp(h.dl.text + c->text.offset, "o_i = Σ_j", strlen("o_i = Σ_j")))
            top = c->text.y + 1;
    }
    cr_assert_gt(top, 0, "the output plane is shown");
    static Text_Box box[64];
    int count = 0, words = 0, oi = 0;
    for (int k = 0; k < h.dl.count && count < 64; k++) {
        const Draw_Cmd *c = &h.dl.cmds[k];
        if (c->kind != DRAW_TEXT || c->text.y <= top || c->text.x < panel->r.x ||
            c->text.x > panel->r.x + panel->r.w || c->text.y > panel->r.y + panel->r.h)
            continue;
        Text_Box b = text_box(c);
        for (int i = 0; i < h.m.scene.n; i++) words += !strcmp(b.s, h.m.scene.tokens[i]);
        oi += !strcmp(b.s, "o_i");
        box[count++] = b;
    }
    cr_assert_eq(oi, 1, "o_i is labelled once");
    cr_assert_geq(words, 3, "the values' dots carry their words (%d of %d)", words, h.m.scene.n);
    assert_apart(box, count);
}

/* With several heads, the strips show how they join: Concat(O¹…Oᴴ), W_O and
 * Y, as wide as the numbers they hold; one head has nothing to join. */
Test(explorer, several_heads_show_concat_w_o_and_y) {
    h.w = 1600;
    h.h = 900;
    harness_frame(&h);
    cr_assert_null(harness_find_any(&h, "grid", "concat"), "one head joins nothing");
    harness_act(&h, action_set(SET_HEADS, 4));
    harness_frame(&h);
    const Ui_Record *tab = harness_find_any(&h, "button", "main_tab");
    if (tab) {
        tab = harness_find(&h, "button", "main_tab", 1);
        harness_click(&h, rect_cx(tab), rect_cy(tab));
    }
    const Ui_Record *c = harness_find(&h, "grid", "concat", -1);
    const Ui_Record *w = harness_find(&h, "grid", "W_O", -1);
    const Ui_Record *y = harness_find(&h, "grid", "Y", -1);
    cr_assert_gt(c->r.w, y->r.w, "Concat (%d wide) is wider than Y (%d)", 4 * h.m.scene.d_v,
                 h.m.scene.d);
    cr_assert_gt(w->r.h, 0);
    cr_assert(harness_drew_text(&h, "6 × 64"), "Concat's size is n × H·d_v");
    cr_assert(harness_drew_text(&h, "64 × 2"), "W_O's is H·d_v × d");
    cr_assert(harness_drew_text(&h, "6 × 2"), "Y's is n × d");
}

/* A message said between frames (the page opened a file after a long idle)
 * lasts its time from the frame that shows it, not from the last frame
 * before the idle: it was cleared before anyone saw it. */
Test(explorer, a_message_said_between_frames_is_shown_its_full_time) {
    harness_frame(&h);
    h.in.time += 600; /* ten minutes with nothing to draw */
    view_set_status(&h.vs, false, "Opened two.json");
    harness_frame(&h);
    cr_assert_str_eq(h.vs.status, "Opened two.json");
    cr_assert(harness_drew_text(&h, "Opened two.json"));
    h.in.time += VIEW_STATUS_SECONDS + 1;
    harness_frame(&h);
    cr_assert_str_empty(h.vs.status, "and it goes once its time is up");
}

/* What the teacher hides is neither drawn nor there for input: the d_k
 * slider and S go, a "?" stands where S was, and its keys still work. */
Test(explorer, hidden_panels_and_controls_are_not_drawn_and_take_no_input) {
    h.w = 1600;
    h.h = 900;
    snprintf(h.vs.teacher_hidden, sizeof h.vs.teacher_hidden, " S dk");
    harness_frame(&h);
    cr_assert_null(harness_find_any(&h, "slider", "dk"), "the d_k slider is hidden");
    cr_assert_null(harness_find_any(&h, "grid", "S"), "S's cells are hidden");
    harness_find(&h, "panel", "S", -1); /* its place says so */
    cr_assert(harness_drew_text(&h, "hidden for now"));
    harness_find(&h, "slider", "dv", -1); /* the rest stays */
    harness_find(&h, "grid", "A", -1);
    int dk = h.m.scene.d_k;
    const Ui_Record *dv = harness_find(&h, "slider", "dv", -1);
    /* where the d_k slider would be, a click changes nothing */
    harness_click(&h, dv->r.x + dv->r.w * 0.9f, dv->r.y - dv->r.h * 0.5f);
    cr_assert_eq(h.m.scene.d_k, dk);
    h.vs.teacher_hidden[0] = '\0';
    harness_frame(&h);
    harness_find(&h, "slider", "dk", -1);
}

/* The record of the widget that has the focus, if any. */
static const Ui_Record *focused(void) {
    for (int k = 0; k < h.ui.record_count; k++) {
        const Ui_Record *r = &h.records[k];
        if (strcmp(r->kind, "panel") && ui_id(r->name, r->index) == h.ui.focus) return r;
    }
    return NULL;
}

Test(explorer, tab_walks_every_control_and_the_keys_work_them) {
    /* Tab reaches every button, switch and slider, in order, and comes round */
    int widgets = 0;
    for (int k = 0; k < h.ui.record_count; k++)
        widgets += !strcmp(h.records[k].kind, "button") || !strcmp(h.records[k].kind, "toggle") ||
                   !strcmp(h.records[k].kind, "slider");
    cr_assert_gt(widgets, 15);
    harness_key(&h, KEY_TAB, 0, false, false);
    uint32_t first = h.ui.focus;
    cr_assert_neq(first, 0);
    cr_assert(h.ui.focus_visible, "a ring shows where the focus is");
    static uint32_t seen[UI_MAX_FOCUS];
    int count = 0;
    do {
        for (int k = 0; k < count; k++) cr_assert_neq(seen[k], h.ui.focus, "visited twice");
        seen[count++] = h.ui.focus;
        harness_key(&h, KEY_TAB, 0, false, false);
    } while (h.ui.focus != first && count < UI_MAX_FOCUS);
    cr_assert_eq(count, widgets, "Tab visits %d of %d controls", count, widgets);
    harness_key(&h, KEY_TAB, 0, false, true);
    cr_assert_eq(h.ui.focus, seen[count - 1], "Shift+Tab goes back");

    /* Space on a switch, Enter on a button, arrows on a slider */
    while (!focused() || strcmp(focused()->name, "scale")) harness_key(&h, KEY_TAB, 0, 0, 0);
    bool scaled = h.m.scene.scaled;
    harness_key(&h, KEY_CHAR, ' ', false, false);
    cr_assert_neq(h.m.scene.scaled, scaled, "Space flips the focused switch");
    while (strcmp(focused()->name, "reverse")) harness_key(&h, KEY_TAB, 0, 0, 0);
    harness_key(&h, KEY_ENTER, 0, false, false);
    cr_assert_eq(h.m.scene.origin[0], 5, "Enter presses the focused button");
    while (strcmp(focused()->name, "dk")) harness_key(&h, KEY_TAB, 0, 0, 0);
    int dk = h.m.scene.d_k, sel = h.vs.selected;
    harness_key(&h, KEY_RIGHT, 0, false, false);
    cr_assert_eq(h.m.scene.d_k, dk + 1, "→ moves the focused slider one step");
    harness_key(&h, KEY_DOWN, 0, false, false);
    cr_assert_eq(h.m.scene.d_k, dk);
    cr_assert_eq(h.vs.selected, sel, "the slider had the arrow, not the query selection");
    harness_key(&h, KEY_PAGEUP, 0, false, false);
    cr_assert_eq(h.m.scene.d_k, 32, "PageUp: the next power of two above %d", dk);
    harness_key(&h, KEY_PAGEUP, 0, false, false);
    cr_assert_eq(h.m.scene.d_k, 64);
    harness_key(&h, KEY_PAGEDOWN, 0, false, false);
    cr_assert_eq(h.m.scene.d_k, 32, "PageDown: the one below");
    harness_key(&h, KEY_END, 0, false, false);
    cr_assert_eq(h.m.scene.d_k, ATTN_MAX_DK);
    /* the mouse hides the ring */
    harness_click(&h, 5, h.h - 5);
    cr_assert_not(h.ui.focus_visible);
}

static void open_editor(void) {
    const Ui_Record *b = harness_find(&h, "button", "edit", -1);
    harness_click(&h, rect_cx(b), rect_cy(b));
    cr_assert(h.vs.editing);
}

static void paste(const char *text, size_t len) {
    h.in.paste = text;
    h.in.paste_len = len;
    harness_frame(&h);
}

Test(explorer, the_sentence_editor_selects_copies_cuts_and_pastes) {
    open_editor();
    cr_assert_str_eq(h.vs.edit, "the cat sat on the mat");
    /* Ctrl+A, then typing replaces everything */
    harness_key(&h, KEY_CHAR, 'a', true, false);
    harness_type(&h, "a dog");
    cr_assert_str_eq(h.vs.edit, "a dog");
    /* Shift+← selects "dog"; Ctrl+C copies it for the clipboard; Ctrl+X cuts */
    for (int k = 0; k < 3; k++) harness_key(&h, KEY_LEFT, 0, false, true);
    harness_key(&h, KEY_CHAR, 'c', true, false);
    cr_assert(h.vs.want_clipboard);
    cr_assert_str_eq(h.vs.clipboard, "dog");
    h.vs.want_clipboard = false;
    harness_key(&h, KEY_CHAR, 'x', true, false);
    cr_assert_str_eq(h.vs.edit, "a ");
    cr_assert_str_eq(h.vs.clipboard, "dog");
    /* a paste goes in at the cursor; line breaks become spaces */
    paste("big\ncat", 7);
    cr_assert_str_eq(h.vs.edit, "a big cat");
    /* Shift+Home then Backspace removes the selection */
    harness_key(&h, KEY_HOME, 0, false, true);
    harness_key(&h, KEY_BACKSPACE, 0, false, false);
    cr_assert_str_eq(h.vs.edit, "");
    paste("one two three", 13);
    /* too long or not UTF-8: refused whole, with a message, nothing lost */
    paste("x", VIEW_EDIT_BYTES * 3);
    cr_assert_str_eq(h.vs.edit, "one two three");
    cr_assert(h.vs.status_error && strstr(h.vs.status, "room for"), "%s", h.vs.status);
    paste("ok\xff", 3);
    cr_assert_str_eq(h.vs.edit, "one two three");
    cr_assert(strstr(h.vs.status, "not UTF-8"), "%s", h.vs.status);
    /* the mouse: a press puts the cursor by the character under it, a drag selects */
    const Ui_Record *f = harness_find(&h, "field", "sentence", -1);
    float x0 = h.vs.edit_origin;
    float w_one = stub_width(NULL, FONT_SANS, h.ui.theme->text_size, "one", 3);
    float w_two = stub_width(NULL, FONT_SANS, h.ui.theme->text_size, "one two", 7);
    harness_press(&h, x0 + w_one + 0.5f, rect_cy(f));
    cr_assert_eq(h.vs.edit_cursor, 3);
    harness_move(&h, x0 + w_two + 0.5f, rect_cy(f));
    harness_release(&h);
    cr_assert_eq(h.vs.edit_anchor, 3);
    cr_assert_eq(h.vs.edit_cursor, 7, "the drag selected \" two\"");
    harness_key(&h, KEY_DELETE, 0, false, false);
    cr_assert_str_eq(h.vs.edit, "one three");
    harness_key(&h, KEY_ENTER, 0, false, false);
    cr_assert_not(h.vs.editing);
    cr_assert_eq(h.m.scene.n, 2);
}

Test(explorer, heads_and_the_mask_are_set_and_shown_from_the_controls) {
    /* the mask: a switch; a masked cell explains itself on hover */
    const Ui_Record *mk = harness_find(&h, "toggle", "mask", -1);
    harness_click(&h, rect_cx(mk), rect_cy(mk));
    cr_assert_eq(h.m.scene.mask, MASK_CAUSAL);
    const Ui_Record *g = harness_find(&h, "grid", "S", -1);
    float cw = g->r.w / 6, ch = g->r.h / 6;
    harness_move(&h, g->r.x + 4.5f * cw, g->r.y + 1.5f * ch); /* query 2, key 5 */
    cr_assert(harness_drew_text(&h, "= −∞: masked — key 5 (the) comes after query 2 (cat)"),
              "the hover says why the cell is empty");
    /* heads: the slider by keyboard, then a head picked from the small multiples */
    const Ui_Record *hs = harness_find(&h, "slider", "heads", -1);
    harness_click(&h, hs->r.x + 2, hs->r.y + hs->r.h * 0.6f); /* the far left: H = 1 */
    harness_key(&h, KEY_RIGHT, 0, false, false);
    harness_key(&h, KEY_RIGHT, 0, false, false);
    cr_assert_eq(h.m.scene.heads, 3);
    harness_find(&h, "panel", "heads", -1);
    const Ui_Record *third = harness_find(&h, "button", "head", 2);
    harness_click(&h, rect_cx(third), rect_cy(third));
    cr_assert_eq(h.vs.head, 2);
    cr_assert_eq(view_attn(&h.vs, &h.m), derived_head(&h.m.derived, 2), "S and A show head 3");
    cr_assert(harness_drew_text(&h, "Scores S, head 3 of 3"));
    /* fewer heads again: the view falls back to head 1 */
    harness_act(&h, action_set(SET_HEADS, 1));
    harness_frame(&h);
    cr_assert_eq(h.vs.head, 0);
    /* Y as arrows in the plane, every arrow's head inside the plot: the
     * plane's range takes x_i + y_i in as it takes x_i */
    const Ui_Record *y = harness_find(&h, "toggle", "y_arrows", -1);
    harness_click(&h, rect_cx(y), rect_cy(y));
    cr_assert(h.vs.y_arrows);
    harness_act(&h, action_move(1, 0, -1.4f, 1, 1.4f)); /* near the corner: y_i points out */
    harness_frame(&h);
    const Plane_Map *pm = &h.vs.explorer.plane;
    const Scene *s = &h.m.scene;
    for (int i = 0; i < s->n; i++) {
        float sx, sy;
        plane_to_screen(pm, s->X[i * 2] + h.m.derived.Y[i * 2],
                        s->X[i * 2 + 1] + h.m.derived.Y[i * 2 + 1], &sx, &sy);
        cr_assert(sx >= pm->r.x - 0.5f && sx <= pm->r.x + pm->r.w + 0.5f && sy >= pm->r.y - 0.5f &&
                      sy <= pm->r.y + pm->r.h + 0.5f,
                  "the arrow x_%d + y_%d leaves the plot", i + 1, i + 1);
    }
}
