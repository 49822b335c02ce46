/* The permutation view: Attention(PX) beside P·Attention(X), and their
 * difference; see permutation_view.h. */
#include "permutation_view.h"
#include "../core/i18n.h"
#include "heatmap.h"
#include "positions.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A lesson step names the panel it is about: the narrow permutation lab
 * turns to the row that holds it. */
static void follow_lesson(View_State *vs) {
    const char *h = vs->session.active ? vs->session.highlight : "";
    if (!strcmp(h, vs->perm_seen_highlight)) return;
    snprintf(vs->perm_seen_highlight, sizeof vs->perm_seen_highlight, "%s", h);
    if (h[0] == 'A' && h[1] == '_') vs->perm_tab = 0;
    if ((h[0] == 'O' && h[1] == '_') || !strcmp(h, "verdict")) vs->perm_tab = 1;
    if (!strcmp(h, "P")) vs->perm_tab = 2;
}

/* ---- permutation lab ------------------------------------------------------------ */

/* The permutation matrix: row i has its 1 in column origin[i]. */
static void permutation_matrix(Ui *ui, View_State *vs, const Scene *s, Rect r,
                               const char *const *now_labels, const char *const *orig_labels) {
    int n = s->n;
    float *P = vs->perm_grid;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) P[i * n + j] = s->origin[i] == j ? 1.0f : 0.0f;
    Heatmap_Result hp;
    ui_heatmap(
        ui,
        &(Heatmap_Desc){.name = "P",
                        .r = r,
                        .title = _("Permutation P"),
                        .caption = _("row i has its 1 in column p[i]: slot i holds token p[i]"),
                        .values = P,
                        .rows = n,
                        .cols = n,
                        .vmin = 0,
                        .vmax = 1,
                        .map = COLORMAP_CIVIDIS,
                        .row_labels = now_labels,
                        .col_labels = orig_labels,
                        .row_axis = N_("now"),
                        .col_axis = N_("original"),
                        .selected_row = -1,
                        .mark_row = -1,
                        .mark_col = -1,
                        .row_offset = vs->animating ? vs->row_offset : NULL},
        &hp);
}

/* Shuffle / reverse / rotate / restore, and positions with their strength:
 * a panel of two-by-two buttons, or (strip) one row of buttons over one row
 * with the switch and the slider. */
/* strip: one band across the top, two rows; low: one row (the buttons, then
 * the positions switch and its strength) */
static void reorder_panel(Ui *ui, View_State *vs, const Model *m, Rect r, bool strip, bool low) {
    const Theme *t = ui->theme;
    const Scene *s = &m->scene;
    if (ui_hidden_if(ui, r, _("Reorder"), "reorder")) return;
    Rect body = r;
    if (!strip) {
        ui_panel(ui, r, _("Reorder"), false);
        ui_record(ui, "panel", "reorder", -1, r);
        body = rect_inset(r, t->pad);
        rect_cut_top(&body, ui_line_height(ui, FONT_BOLD, t->title_size) + 6);
    } else {
        draw_round_rect(ui->dl, r, t->radius, t->panel);
        ui_record(ui, "panel", "reorder", -1, r);
        body = rect_inset(r, 6);
    }
    float bh = low ? body.h : strip ? (body.h - 6) / 2 : fminf(38, (body.h - 3 * 6) / 4);
    Rect rest = body;
    if (low) body = rect_cut_left(&rest, rest.w * 0.5f);
    static const char *const names[4] = {N_("Shuffle (S)"), N_("Reverse (R)"), N_("Rotate (T)"),
                                         N_("Restore (I)")};
    static const char *const short_names[4] = {N_("Shuffle"), N_("Reverse"), N_("Rotate"),
                                               N_("Restore")};
    static const char *const ids[4] = {"perm_shuffle", "perm_reverse", "perm_rotate",
                                       "perm_restore"};
    Rect cells[4];
    if (strip) {
        Rect row = rect_cut_top(&body, bh);
        rect_cut_top(&body, 6);
        float w = (row.w - 3 * 6) / 4;
        for (int k = 0; k < 4; k++) {
            cells[k] = rect_cut_left(&row, w);
            rect_cut_left(&row, 6);
        }
    } else {
        Rect b1 = rect_cut_top(&body, bh);
        rect_cut_top(&body, 6);
        Rect b2 = rect_cut_top(&body, bh);
        rect_cut_top(&body, 6);
        cells[0] = rect_cut_left(&b1, (b1.w - 6) * 0.5f);
        rect_cut_left(&b1, 6);
        cells[1] = b1;
        cells[2] = rect_cut_left(&b2, (b2.w - 6) * 0.5f);
        rect_cut_left(&b2, 6);
        cells[3] = b2;
    }
    for (int k = 0; k < 4; k++) {
        /* a row too narrow for the keys' names drops them (the chips' row
         * and the help say them) */
        bool room = ui_text_width(ui, FONT_SANS, t->text_size, _(names[k])) + 10 <= cells[k].w;
        if (ui_button(ui, ids[k], -1, cells[k], room ? _(names[k]) : _(short_names[k]), false) &
            UI_CLICKED) {
            if (k == 0) view_act(vs, view_shuffle(vs, s));
            if (k == 1) view_act(vs, action_of(ACTION_REVERSE));
            if (k == 2) view_act(vs, (Action){.kind = ACTION_ROTATE, .i = 1});
            if (k == 3) view_act(vs, action_of(ACTION_RESTORE_ORDER));
        }
    }
    Rect pr, sr;
    if (low) {
        rect_cut_left(&rest, 12);
        pr = rect_cut_left(&rest, rest.w * 0.42f);
        sr = rest;
    } else if (strip) {
        Rect row = rect_cut_top(&body, bh);
        pr = rect_cut_left(&row, row.w * 0.55f);
        sr = row;
    } else {
        pr = rect_cut_top(&body, bh);
        rect_cut_top(&body, 6);
        sr = rect_cut_top(&body, fmaxf(bh, 36));
    }
    positions_controls(ui, vs, m, pr, sr);
}

void permutation_frame(Ui *ui, View_State *vs, const Model *m, Rect r) {
    const Theme *t = ui->theme;
    const Scene *s = &m->scene;
    int n = s->n, dv = s->d_v;
    if (!vs->labs_ready) {
        view_set_status(vs, true, _("Out of memory for the permutation lab"));
        return;
    }
    const Lab_Permutation *p = &m->labs.perm;
    const Attn *a = &m->derived.pass.head[0];
    const char *now_labels[ATTN_MAX_TOKENS], *orig_labels[ATTN_MAX_TOKENS];
    for (int i = 0; i < n; i++) {
        now_labels[i] = s->tokens[i];
        orig_labels[s->origin[i]] = s->tokens[i];
    }

    /* wide: P and the reorder panel on the left. Narrow (a lesson beside it, a
     * small window): P gives its room to the comparisons, and the reorder
     * controls become one strip across the top. */
    /* low too (presenting, a projector's zoom): two rows of three would
     * leave each heatmap a few pixels high */
    bool narrow = r.w < 900 || r.h < 480;
    Rect ctl;
    bool low = r.h < 480;
    if (narrow) {
        ctl = rect_cut_top(&r, low ? 50 + 2 * 6 : 2 * 38 + 3 * 6);
        rect_cut_top(&r, t->pad);
    } else {
        Rect left = rect_cut_left(&r, fminf(fmaxf(r.w * 0.26f, 260), 460));
        rect_cut_left(&r, t->pad);
        ctl = rect_cut_bottom(&left, fminf(250, left.h * 0.45f));
        rect_cut_bottom(&left, t->pad);
        permutation_matrix(ui, vs, s, left, now_labels, orig_labels);
    }
    reorder_panel(ui, vs, m, ctl, narrow, narrow && low);

    /* the verdict, large: this is the number the lab is about; it wraps
     * rather than lose its end in a narrow window */
    bool same = p->max_diff_O <= 1e-5 && p->max_diff_A <= 1e-5;
    char line[240];
    snprintf(line, sizeof line,
             /* no-break spaces keep each statement on one line */
             "max\u00a0|Attention(PX)\u00a0−\u00a0P·Attention(X)|\u00a0=\u00a0%.1e   "
             "max\u00a0|A(PX)\u00a0−\u00a0P·A(X)·Pᵀ|\u00a0=\u00a0%.1e",
             p->max_diff_O, p->max_diff_A);
    bool slots = s->pos != POS_NONE || s->mask == MASK_CAUSAL; /* what sees slots */
    const char *why =
        same ? (slots ? _("Equal up to float rounding (positions or the mask are on, but this "
                          "order matches the original).")
                      : _("Equal up to float rounding: without positions, attention cannot see "
                          "order — outputs move with their tokens."))
        : s->mask == MASK_CAUSAL
            ? _("Different: the causal mask is defined by slot, like positions — query i sees the "
                "keys in slots 1 to i, whichever words now sit there, so a new order gives new "
                "outputs.")
        : s->pos == POS_ROPE
            ? _("Different: RoPE turns each q and k by its slot, so a word's scores depend on how "
                "far apart the words now sit.")
        : s->pos == POS_ALIBI
            ? _("Different: ALiBi lowers a score by the distance |i − j| between slots, so words "
                "that move apart weigh each other less.")
            : _("Different: positions were added by slot, so the same words in a new order get "
                "new outputs.");
    Rect probe = rect_inset(r, 8);
    float h1 = ui_text_wrapped(ui, probe, FONT_BOLD, t->text_size, t->text, line, false);
    float h2 = ui_text_wrapped(ui, probe, FONT_SANS, t->small_size, t->text, why, false);
    float least = ui_line_height(ui, FONT_BOLD, t->text_size) +
                  2 * ui_line_height(ui, FONT_SANS, t->small_size) + 22;
    bool hidden = vs->session.hide_verdict || view_hides(vs, "verdict");
    float hidden_h = ui_line_height(ui, FONT_BOLD, t->title_size * 2) * 1.6f + 16;
    Rect verdict = rect_cut_top(&r, hidden ? fminf(least, hidden_h) : fmaxf(h1 + h2 + 20, least));
    rect_cut_top(&r, t->pad);
    if (hidden) {
        ui_hidden(ui, verdict, NULL, "verdict",
                  vs->session.hide_verdict ? NULL : _("a later step of the lesson asks"));
    } else {
        draw_round_rect(ui->dl, verdict, t->radius, same ? t->good_bg : t->bad_bg);
        ui_record(ui, "panel", "verdict", -1, verdict);
        Rect v1 = rect_inset(verdict, 8);
        rect_cut_top(&v1,
                     ui_text_wrapped(ui, v1, FONT_BOLD, t->text_size, t->text, line, true) + 4);
        ui_text_wrapped(ui, v1, FONT_SANS, t->small_size, t->text, why, true);
    }

    /* two rows of three: A(PX) | P·A(X)·Pᵀ | ΔA  and  O(PX) | P·O(X) | ΔO.
     * Narrow, one row at a time under two tabs, so the cells keep their
     * size; a lesson step turns to the row it names. */
    int first = 0, last = 6;
    Rect rowA;
    if (narrow) {
        follow_lesson(vs);
        static const char *const names[3] = {N_("Weights A"), N_("Outputs"), N_("Permutation P")};
        float tab_h = fminf(34, ui_line_height(ui, FONT_SANS, t->text_size) + 12);
        Rect tabs = rect_cut_top(&r, tab_h);
        rect_cut_top(&r, 6);
        float tw = (tabs.w - 8) / 3;
        for (int k = 0; k < 3; k++) {
            Rect b = rect_cut_left(&tabs, tw);
            rect_cut_left(&tabs, 4);
            if (ui_button(ui, "perm_tab", k, b, _(names[k]), vs->perm_tab == k) & UI_CLICKED)
                vs->perm_tab = k;
        }
        if (vs->perm_tab == 2) { /* P itself, with the room the heatmaps had */
            permutation_matrix(ui, vs, s, r, now_labels, orig_labels);
            return;
        }
        first = vs->perm_tab ? 3 : 0;
        last = first + 3;
        rowA = r;
    } else {
        rowA = rect_cut_top(&r, (r.h - t->pad) * 0.5f);
        rect_cut_top(&r, t->pad);
    }
    float w3 = (rowA.w - 2 * t->pad) / 3;
    float omax = 0;
    for (long k = 0; k < (long)n * dv; k++) omax = fmaxf(omax, fabsf(p->pO[k]));
    if (omax < 1e-6f) omax = 1;
    const float *offs = vs->animating ? vs->row_offset : NULL;
    struct {
        const char *name, *title, *caption;
        const float *v;
        int cols;
        float lo, hi;
        Colormap map;
        bool labels_cols;
    } cells6[6] = {
        {"A_PX", "A(PX)", _("the scene now"), a->A, n, 0, 1, vs->weight_map, true},
        {"A_P", "P·A(X)·Pᵀ", _("the original order's, moved"), p->pA, n, 0, 1, vs->weight_map,
         true},
        {"A_diff", "A(PX) − P·A(X)·Pᵀ", _("symmetric range ±1"), p->dA, n, -1, 1,
         COLORMAP_DIVERGING, true},
        {"O_PX", _("Attention(PX)"), _("outputs o_i, the scene now"), a->O, dv, -omax, omax,
         COLORMAP_DIVERGING, false},
        {"O_P", _("P·Attention(X)"), _("the original order's, moved"), p->pO, dv, -omax, omax,
         COLORMAP_DIVERGING, false},
        {"O_diff", _("Attention(PX) − P·Attention(X)"), _("the outputs' colour range"), p->dO, dv,
         -omax, omax, COLORMAP_DIVERGING, false},
    };
    for (int k = first; k < last; k++) {
        Rect *row = k < 3 || narrow ? &rowA : &r;
        Rect cell = k % 3 == 2 ? *row : rect_cut_left(row, w3);
        if (k % 3 != 2) rect_cut_left(row, t->pad);
        if (vs->session.hide_verdict && k % 3 == 2) { /* the differences give it away */
            ui_hidden(ui, cell, cells6[k].title, cells6[k].name, NULL);
            continue;
        }
        Heatmap_Result hr;
        ui_heatmap(ui,
                   &(Heatmap_Desc){.name = cells6[k].name,
                                   .r = cell,
                                   .title = cells6[k].title,
                                   .caption = cells6[k].caption,
                                   .values = cells6[k].v,
                                   .rows = n,
                                   .cols = cells6[k].cols,
                                   .vmin = cells6[k].lo,
                                   .vmax = cells6[k].hi,
                                   .map = cells6[k].map,
                                   .row_labels = now_labels,
                                   .col_labels = cells6[k].labels_cols ? now_labels : NULL,
                                   .selected_row = -1,
                                   .mark_row = -1,
                                   .mark_col = -1,
                                   .row_offset = offs,
                                   .col_offset = cells6[k].labels_cols ? offs : NULL,
                                   .stretch = !cells6[k].labels_cols},
                   &hr);
        if (hr.hover_row >= 0) {
            char sub[24];
            subscript(hr.hover_row + 1, sub, sizeof sub);
            snprintf(vs->hover_text, sizeof vs->hover_text, _("%s: row %s (%s), column %d = %.3g"),
                     cells6[k].title, sub, s->tokens[hr.hover_row], hr.hover_col + 1,
                     (double)cells6[k].v[(long)hr.hover_row * cells6[k].cols + hr.hover_col]);
        }
    }
}
