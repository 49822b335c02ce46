/* The interface, frame by frame; see view.h. */
#include "view.h"

#include "heatmap.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void view_init(View_State *vs) {
    memset(vs, 0, sizeof *vs);
    vs->weight_map = COLORMAP_VIRIDIS;
    vs->hover_row = vs->hover_col = -1;
}

const char *view_name(View v) {
    static const char *const names[VIEW_COUNT] = {"explorer", "scaling", "permutation"};
    return names[v];
}

static void top_bar(Ui *ui, View_State *vs, Rect r) {
    const Theme *t = ui->theme;
    draw_rect(ui->dl, r, t->panel);
    Rect row = rect_inset(r, 8);
    Rect title = rect_cut_left(&row, 160);
    ui_label(ui, title, FONT_BOLD, t->title_size + 3, ALIGN_LEFT, t->text, "attnlab");
    static const char *const tabs[VIEW_COUNT] = {"1 Explorer", "2 Scaling", "3 Permutation"};
    for (int v = 0; v < VIEW_COUNT; v++) {
        Rect b = rect_cut_left(&row, 150);
        rect_cut_left(&row, 6);
        if (ui_button(ui, ui_id("tab", v), b, tabs[v], vs->view == (View)v) & UI_CLICKED)
            vs->view = (View)v;
    }
}

static void token_chips(Ui *ui, View_State *vs, const Model *m, Rect r) {
    const Theme *t = ui->theme;
    const Scene *s = &m->scene;
    float x = r.x, fs = t->text_size;
    float h = r.h - 8;
    float more_w = ui_text_width(ui, FONT_SANS, fs, "+512 more") + 8;
    for (int i = 0; i < s->n; i++) {
        float w = ui_text_width(ui, FONT_SANS, fs, s->tokens[i]) + 22;
        float room = r.x + r.w - (i + 1 < s->n ? more_w : 0);
        if (x + w > room) {
            char more[32];
            snprintf(more, sizeof more, "+%d more", s->n - i);
            ui_label(ui, (Rect){x, r.y, 120, r.h}, FONT_SANS, fs, ALIGN_LEFT, t->text_dim, more);
            break;
        }
        Rect chip = {x, r.y + 4, w, h};
        bool sel = i == vs->selected;
        draw_round_rect(ui->dl, chip, h * 0.5f, sel ? t->query : t->panel_border);
        ui_label(ui, chip, FONT_SANS, fs, ALIGN_CENTER, sel ? rgba(0, 0, 0, 255) : t->text,
                 s->tokens[i]);
        x += w + 6;
    }
}

static void explorer(Ui *ui, View_State *vs, Model *m, Rect r) {
    const Theme *t = ui->theme;
    const Scene *s = &m->scene;
    const Attn *a = &m->derived.attn;
    const char *labels[ATTN_MAX_TOKENS];
    for (int i = 0; i < s->n; i++) labels[i] = s->tokens[i];

    float smax = 0;
    for (int k = 0; k < s->n * s->n; k++) smax = fmaxf(smax, fabsf(a->S[k]));
    if (smax < 1e-6f) smax = 1;

    Rect left = rect_cut_left(&r, (r.w - t->pad) * 0.5f);
    rect_cut_left(&r, t->pad);
    char caption[96];
    snprintf(caption, sizeof caption, s->scaled ? "S = QKᵀ/√d_k   (d_k = %d)" : "S = QKᵀ, unscaled   (d_k = %d)",
             s->d_k);
    Heatmap_Result hs, ha;
    ui_heatmap(ui,
               &(Heatmap_Desc){.id = ui_id("S", 0), .r = left, .title = "Scores S",
                               .caption = caption, .values = a->S, .rows = s->n, .cols = s->n,
                               .vmin = -smax, .vmax = smax, .map = COLORMAP_DIVERGING,
                               .row_labels = labels, .col_labels = labels, .row_axis = "query",
                               .col_axis = "key", .format = "%.2f", .selected_row = vs->selected,
                               .mark_row = vs->hover_row, .mark_col = vs->hover_col},
               &hs);
    ui_heatmap(ui,
               &(Heatmap_Desc){.id = ui_id("A", 0), .r = r, .title = "Weights A",
                               .caption = "A = softmax of each row of S (rows sum to 1)",
                               .values = a->A, .rows = s->n, .cols = s->n, .vmin = 0, .vmax = 1,
                               .map = vs->weight_map, .row_labels = labels, .col_labels = labels,
                               .row_axis = "query", .col_axis = "key", .format = "%.2f",
                               .selected_row = vs->selected, .mark_row = vs->hover_row,
                               .mark_col = vs->hover_col},
               &ha);
    vs->hover_row = hs.hover_row >= 0 ? hs.hover_row : ha.hover_row;
    vs->hover_col = hs.hover_row >= 0 ? hs.hover_col : ha.hover_col;
    int clicked = hs.clicked_row >= 0 ? hs.clicked_row : ha.clicked_row;
    if (clicked >= 0) vs->selected = clicked;
}

static void status_line(Ui *ui, View_State *vs, const Model *m, Rect r) {
    const Theme *t = ui->theme;
    draw_rect(ui->dl, r, vs->status_error ? t->error_bg : t->panel);
    char buf[512];
    const Scene *s = &m->scene;
    if (vs->status[0]) {
        snprintf(buf, sizeof buf, "%s", vs->status);
    } else if (vs->hover_row >= 0) {
        int i = vs->hover_row, j = vs->hover_col, n = s->n;
        snprintf(buf, sizeof buf, "query %s → key %s:  s = %.3f   a = %.3f", s->tokens[i],
                 s->tokens[j], (double)m->derived.attn.S[i * n + j],
                 (double)m->derived.attn.A[i * n + j]);
    } else {
        snprintf(buf, sizeof buf, "n = %d   d = %d   d_k = %d   d_v = %d   %s   positions: %s", s->n,
                 s->d, s->d_k, s->d_v, s->scaled ? "scaled by 1/√d_k" : "unscaled",
                 pos_mode_name(s->pos));
    }
    ui_label_fit(ui, rect_inset(r, 6), FONT_SANS, t->text_size, ALIGN_LEFT,
                 vs->status_error ? t->error_text : t->text, buf);
}

void view_frame(Ui *ui, View_State *vs, Model *m) {
    const Theme *t = ui->theme;
    Rect r = {0, 0, ui->w, ui->h};
    draw_rect(ui->dl, r, t->bg);
    if (vs->selected >= m->scene.n) vs->selected = m->scene.n - 1;
    top_bar(ui, vs, rect_cut_top(&r, 52));
    Rect status = rect_cut_bottom(&r, 34);
    r = rect_inset(r, t->pad);
    token_chips(ui, vs, m, rect_cut_top(&r, 44));
    rect_cut_top(&r, t->pad);
    explorer(ui, vs, m, r);
    status_line(ui, vs, m, status);
}
