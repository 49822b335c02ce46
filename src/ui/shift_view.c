/* The shift lab; see shift_view.h. */
#include "../core/i18n.h"
#include "shift_view.h"

#include "explorer.h"
#include "positions.h"
#include "heatmap.h"

#include "../core/posenc.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static Color scheme_colour(const Theme *t, int m) {
    const Color c[POS_MODE_COUNT] = {t->text_dim, t->key, t->value, t->query, t->math_error};
    return c[m];
}

/* The panel of controls: the scheme, its number, the offset. */
/* strip: across the top of a narrow lab, untitled, the scheme and its
 * number on one row and the offset under them */
static void shift_controls(Ui *ui, View_State *vs, const Model *m, Rect r, bool strip) {
    const Theme *t = ui->theme;
    const Scene *s = &m->scene;
    if (ui_hidden_if(ui, r, strip ? NULL : _("Positions"), "shift_controls")) return;
    Rect body;
    float row_h;
    if (strip) {
        draw_round_rect(ui->dl, r, t->radius, t->panel);
        ui_record(ui, "panel", "shift_controls", -1, r);
        body = rect_inset(r, 6);
        row_h = body.h / 2;
        Rect row = rect_cut_top(&body, row_h);
        Rect choice = rect_cut_left(&row, row.w * 0.55f);
        positions_controls(ui, vs, m, choice, row);
    } else {
        ui_panel(ui, r, _("Positions"), false);
        ui_record(ui, "panel", "shift_controls", -1, r);
        body = rect_inset(r, t->pad);
        rect_cut_top(&body, ui_line_height(ui, FONT_BOLD, t->title_size) + 6);
        row_h = fminf(44, body.h / 3);
        Rect choice = rect_cut_top(&body, row_h);
        positions_controls(ui, vs, m, choice, rect_cut_top(&body, row_h));
    }
    float offset = (float)s->pos_offset;
    if (ui_slider(ui, "pos_offset", -1, rect_cut_top(&body, row_h), &offset,
                  &(Slider_Desc){.min = 0,
                                 .max = ATTN_MAX_POS_OFFSET,
                                 .integer = true,
                                 .label = _("offset: the first word's position"),
                                 .short_label = _("offset"),
                                 .format = "%.0f"}) &
        UI_CHANGED) {
        view_slider_gesture(vs);
        view_act(vs, action_set(SET_POS_OFFSET, (int)offset));
    }
}

/* Five small verdicts: each scheme, shifted and reordered. */
static void verdicts(Ui *ui, View_State *vs, const Model *m, Rect r) {
    const Theme *t = ui->theme;
    const Scene *s = &m->scene;
    const Lab_Shift *sh = &m->labs.shift;
    if (ui_hidden_if(ui, r, NULL, "shift_verdicts")) return;
    ui_record(ui, "panel", "shift_verdicts", -1, r);
    float lh = ui_line_height(ui, FONT_SANS, t->small_size);
    float w = (r.w - 4 * 6) / POS_MODE_COUNT;
    for (int k = 0; k < POS_MODE_COUNT; k++) {
        const Shift_Scheme *sc = &sh->scheme[k];
        Rect cell = {r.x + k * (w + 6), r.y, w, r.h};
        /* a shift changes nothing beyond float rounding: 1e-6 of the scores' size */
        bool same = sc->shift_rel <= 1e-6;
        bool equi = sc->perm_rel <= 1e-6;
        bool moved = s->pos_offset > 0; /* at offset 0 there is no shift to judge */
        draw_round_rect(ui->dl, cell, t->radius,
                        !moved ? t->goal_bg
                        : same ? t->good_bg
                               : t->bad_bg);
        if ((int)s->pos == k) draw_rect_outline(ui->dl, cell, t->radius, 3, t->highlight);
        Rect in = rect_inset(cell, 6);
        char line[96];
        Rect name = rect_cut_top(&in, lh + 4);
        draw_rect(ui->dl, (Rect){name.x, name.y + lh * 0.5f, 14, 4}, scheme_colour(t, k));
        rect_cut_left(&name, 20);
        ui_label_fit(ui, name, FONT_BOLD, t->text_size, ALIGN_LEFT, t->text, positions_name(k));
        const char *shifted = !moved ? _("offset is 0") : same ? _("same S") : _("new S");
        snprintf(line, sizeof line, _("shift: %s"), shifted);
        /* a narrow box (a lesson open, a longer language) keeps the verdict alone */
        if (ui_text_width(ui, FONT_SANS, t->small_size, line) > in.w)
            snprintf(line, sizeof line, "%s", shifted);
        ui_label_fit(ui, rect_cut_top(&in, lh), FONT_SANS, t->small_size, ALIGN_LEFT, t->text,
                     line);
        snprintf(line, sizeof line, "max |ΔS| %.1e", sc->shift_max);
        if (ui_text_width(ui, FONT_MONO, t->small_size, line) > in.w)
            snprintf(line, sizeof line, "ΔS %.0e", sc->shift_max);
        if (!moved) snprintf(line, sizeof line, "ΔS —");
        ui_label_fit(ui, rect_cut_top(&in, lh), FONT_MONO, t->small_size, ALIGN_LEFT, t->text,
                     line);
        const char *reordered = equi ? _("follows") : _("breaks");
        snprintf(line, sizeof line, _("reorder: %s"), reordered);
        if (ui_text_width(ui, FONT_SANS, t->small_size, line) > in.w)
            snprintf(line, sizeof line, "%s", reordered);
        ui_label_fit(ui, rect_cut_top(&in, lh), FONT_SANS, t->small_size, ALIGN_LEFT, t->text,
                     line);
    }
    (void)vs;
}

/* A few lines of score against a position variable, one per scheme. */
/* The title names the x axis: a label under the plot would meet its ticks. */
static void score_plot(Ui *ui, Rect r, const char *name, const char *title, const Lab_Shift *sh,
                       bool by_delta, int x0, int now, int from) {
    const Theme *t = ui->theme;
    if (ui_hidden_if(ui, r, title, name)) return;
    float title_h = ui_panel_wrapped(ui, r, title, false);
    ui_record(ui, "panel", name, -1, r);
    Rect body = rect_inset(r, t->pad);
    rect_cut_top(&body, title_h + 4);
    float lh = ui_line_height(ui, FONT_SANS, t->small_size);
    Rect ticks = rect_cut_bottom(&body, lh + 2);
    Rect yax = rect_cut_left(&body, 48);
    Rect plot = body;
    if (plot.w < 20 || plot.h < 20) return;
    ui_plot_area(ui, plot);
    int count = by_delta ? SHIFT_DELTAS : SHIFT_SPAN;
    double lo = INFINITY, hi = -INFINITY;
    for (int k = 0; k < POS_MODE_COUNT; k++)
        for (int c = 0; c < count; c++) {
            double v = by_delta ? sh->scheme[k].by_delta[c] : sh->scheme[k].by_pos[c];
            lo = fmin(lo, v);
            hi = fmax(hi, v);
        }
    if (!(hi - lo > 1e-9)) {
        lo -= 1;
        hi += 1;
    }
    double pad = (hi - lo) * 0.08;
    lo -= pad;
    hi += pad;
    for (int k = 0; k <= 2; k++) {
        double v = lo + (hi - lo) * k / 2.0;
        float sy = plot.y + plot.h * (1 - (float)((v - lo) / (hi - lo)));
        char buf[16];
        snprintf(buf, sizeof buf, "%.3g", v);
        draw_line(ui->dl, plot.x, sy, plot.x + plot.w, sy, 1, t->grid);
        draw_text(ui->dl, FONT_MONO, t->small_size, yax.x + yax.w - 4, sy - lh * 0.5f, ALIGN_RIGHT,
                  t->text_dim, buf);
    }
    for (int k = 0; k <= 4; k++) {
        int c = (count - 1) * k / 4;
        float sx = plot.x + plot.w * c / (float)(count - 1);
        char buf[16];
        snprintf(buf, sizeof buf, "%d", x0 + c);
        Align al = k == 0 ? ALIGN_LEFT : k == 4 ? ALIGN_RIGHT : ALIGN_CENTER;
        draw_text(ui->dl, FONT_MONO, t->small_size, sx, ticks.y + 2, al, t->text_dim, buf);
    }
    if (now >= 0 && now < count) {
        float mx = plot.x + plot.w * now / (float)(count - 1);
        draw_line(ui->dl, mx, plot.y, mx, plot.y + plot.h, 1.5f, t->faint);
    }
    for (int k = 0; k < POS_MODE_COUNT; k++) {
        float px = 0, py = 0;
        Color c = scheme_colour(t, k);
        for (int i = from; i < count; i++) {
            double v = by_delta ? sh->scheme[k].by_delta[i] : sh->scheme[k].by_pos[i];
            float sx = plot.x + plot.w * i / (float)(count - 1);
            float sy = plot.y + plot.h * (1 - (float)((v - lo) / (hi - lo)));
            if (i > from) draw_line(ui->dl, px, py, sx, sy, k == 0 ? 2 : 3, c);
            px = sx;
            py = sy;
        }
    }
}

/* The legend of the plots' colours, on one row. */
static void legend(Ui *ui, Rect r) {
    const Theme *t = ui->theme;
    float lh = ui_line_height(ui, FONT_SANS, t->small_size);
    float x = r.x;
    for (int k = 0; k < POS_MODE_COUNT; k++) {
        draw_line(ui->dl, x, r.y + lh * 0.5f, x + 22, r.y + lh * 0.5f, 3, scheme_colour(t, k));
        x += 28;
        draw_text(ui->dl, FONT_SANS, t->small_size, x, r.y, ALIGN_LEFT, t->text, positions_name(k));
        x += ui_text_width(ui, FONT_SANS, t->small_size, positions_name(k)) + 16;
    }
}

/* RoPE's picture: the query's and key's fastest and slowest 2-D pair, turned
 * by their positions. Only the angle between them reaches the score. */
static void rope_dials(Ui *ui, const Model *m, Rect r) {
    const Theme *t = ui->theme;
    const Scene *s = &m->scene;
    const Lab_Shift *sh = &m->labs.shift;
    if (ui_hidden_if(ui, r, _("RoPE's turning pairs"), "rope_pairs")) return;
    float title_h = ui_panel_wrapped(ui, r, _("RoPE's turning pairs"), false);
    ui_record(ui, "panel", "rope_pairs", -1, r);
    Rect body = rect_inset(r, t->pad);
    rect_cut_top(&body, title_h + 4);
    float lh = ui_line_height(ui, FONT_SANS, t->small_size);
    if (s->d_k < 2) {
        ui_text_wrapped(ui, body, FONT_SANS, t->small_size, t->text,
                        _("d_k = 1: no pair to turn; RoPE leaves the one coordinate as it is."),
                        true);
        return;
    }
    char line[160];
    int pq = s->pos_offset + sh->query, pk = s->pos_offset + sh->key_token;
    snprintf(line, sizeof line, _("q at position %d, k at %d%s"), pq, pk,
             s->d_k % 2 ? _("; d_k is odd: its last coordinate is not turned") : "");
    if (body.h > 8 * lh) /* where they sit, when there is room for it and the dials */
        rect_cut_top(&body,
                     ui_text_wrapped(ui, body, FONT_SANS, t->small_size, t->text, line, true) + 4);
    float w = body.w / 2;
    for (int f = 0; f < 2; f++) {
        Rect cell = {body.x + f * w, body.y, w - 6, body.h};
        int mm = sh->rope_m[f];
        double theta = posenc_rope_theta(mm, s->d_k, s->rope_base);
        snprintf(line, sizeof line, f ? _("slow pair m = %d") : _("fast pair m = %d"), mm);
        ui_label_fit(ui, rect_cut_top(&cell, lh + 2), FONT_SANS, t->small_size, ALIGN_CENTER,
                     t->text, line);
        snprintf(line, sizeof line, "θ = %.2g", theta);
        ui_label_fit(ui, rect_cut_top(&cell, lh + 2), FONT_MONO, t->small_size, ALIGN_CENTER,
                     t->text_dim, line);
        const float *q = sh->rope_pairs[f][0], *k = sh->rope_pairs[f][1];
        double aq = atan2(q[1], q[0]), ak = atan2(k[1], k[0]);
        const double pi = 3.14159265358979323846;
        double diff = remainder(aq - ak, 2 * pi) * 180 / pi;
        snprintf(line, sizeof line, _("angle q − k: %.1f°"), diff);
        ui_label_fit(ui, rect_cut_bottom(&cell, lh + 2), FONT_MONO, t->small_size, ALIGN_CENTER,
                     t->text, line);
        float rad = fminf(cell.w, cell.h) * 0.5f - 12;
        if (rad < 8) continue;
        float cx = cell.x + cell.w * 0.5f, cy = cell.y + cell.h * 0.5f;
        draw_circle_outline(ui->dl, cx, cy, rad, 1, t->grid);
        float big = fmaxf(hypotf(q[0], q[1]), hypotf(k[0], k[1]));
        if (big <= 0) continue;
        float sc = rad / big;
        float qx = cx + q[0] * sc, qy = cy - q[1] * sc, kx = cx + k[0] * sc, ky = cy - k[1] * sc;
        draw_arrow(ui->dl, cx, cy, qx, qy, 3, 10, t->query);
        draw_arrow(ui->dl, cx, cy, kx, ky, 3, 10, t->key);
        /* the names just past the tips */
        float lq = hypotf(qx - cx, qy - cy), lk = hypotf(kx - cx, ky - cy);
        if (lq > 1)
            draw_text(ui->dl, FONT_BOLD, t->small_size, qx + (qx - cx) / lq * 10,
                      qy + (qy - cy) / lq * 10 - lh * 0.5f, ALIGN_CENTER, t->query, "q");
        if (lk > 1)
            draw_text(ui->dl, FONT_BOLD, t->small_size, kx + (kx - cx) / lk * 10,
                      ky + (ky - cy) / lk * 10 - lh * 0.5f, ALIGN_CENTER, t->key, "k");
    }
}

/* S with the sentence at 0 beside S at the offset; a click on a cell picks
 * the pair the curves follow. */
static void two_scores(Ui *ui, View_State *vs, const Model *m, Rect heat) {
    const Theme *t = ui->theme;
    const Scene *s = &m->scene;
    const Lab_Shift *sh = &m->labs.shift;
    int n = s->n;
    const char *labels[ATTN_MAX_TOKENS];
    for (int i = 0; i < n; i++) labels[i] = s->tokens[i];
    float smax = 0;
    for (long k = 0; k < (long)n * n; k++) {
        if (isfinite(sh->S0[k])) smax = fmaxf(smax, fabsf(sh->S0[k]));
        if (isfinite(sh->S1[k])) smax = fmaxf(smax, fabsf(sh->S1[k]));
    }
    if (smax < 1e-6f) smax = 1;
    char t0[64], t1[64];
    snprintf(t0, sizeof t0, _("S, sentence at 0 (%s)"), positions_name(s->pos));
    snprintf(t1, sizeof t1, _("S, sentence at %d"), s->pos_offset);
    Rect h0 = rect_cut_left(&heat, (heat.w - t->pad) * 0.5f);
    rect_cut_left(&heat, t->pad);
    const struct {
        const char *name, *title;
        const float *v;
        Rect r;
    } maps[2] = {{"S_at_0", t0, sh->S0, h0}, {"S_at_offset", t1, sh->S1, heat}};
    for (int k = 0; k < 2; k++) {
        Heatmap_Result hr;
        ui_heatmap(ui,
                   &(Heatmap_Desc){.name = maps[k].name,
                                   .r = maps[k].r,
                                   .title = maps[k].title,
                                   .caption = _("rows: query i, columns: key j"),
                                   .values = maps[k].v,
                                   .rows = n,
                                   .cols = n,
                                   .vmin = -smax,
                                   .vmax = smax,
                                   .map = COLORMAP_DIVERGING,
                                   .row_labels = labels,
                                   .col_labels = labels,
                                   .numbers = true,
                                   .decimals = 2,
                                   .selected_row = sh->query,
                                   .mark_row = -1,
                                   .mark_col = sh->key_token,
                                   .causal = s->mask == MASK_CAUSAL},
                   &hr);
        if (hr.clicked_row >= 0 && hr.hover_col >= 0) {
            vs->selected = hr.clicked_row;
            vs->shift_key = hr.hover_col;
        }
    }
}

/* The pair's score against i − j; under the causal mask only j ≤ i. */
static void delta_plot(Ui *ui, const Model *m, Rect r) {
    const Scene *s = &m->scene;
    const Lab_Shift *sh = &m->labs.shift;
    char title[120];
    snprintf(title, sizeof title, _("score of %s → %s against i − j"), s->tokens[sh->query],
             s->tokens[sh->key_token]);
    bool causal = s->mask == MASK_CAUSAL;
    if (causal)
        snprintf(title + strlen(title), sizeof title - strlen(title), "%s", _(" ≥ 0 (mask)"));
    score_plot(ui, r, "score_by_delta", title, sh, true, -SHIFT_REACH, SHIFT_REACH,
               causal ? SHIFT_REACH : 0);
}

/* The same pair against i, with i − j held. */
static void position_plot(Ui *ui, const Model *m, Rect r) {
    char title[120];
    snprintf(title, sizeof title, _("the same pair against i, with i − j = %d"), SHIFT_FIXED_DELTA);
    score_plot(ui, r, "score_by_position", title, &m->labs.shift, false,
               m->scene.pos_offset + SHIFT_FIXED_DELTA, -1, 0);
}

/* A lesson step names the panel it is about: the narrow lab turns to its tab. */
static void follow_lesson(View_State *vs) {
    const char *h = vs->session.active ? vs->session.highlight : "";
    if (!strcmp(h, vs->shift_seen_highlight)) return;
    snprintf(vs->shift_seen_highlight, sizeof vs->shift_seen_highlight, "%s", h);
    if (!strncmp(h, "S_at_", 5)) vs->shift_tab = 0;
    if (!strcmp(h, "score_by_delta")) vs->shift_tab = 1;
    if (!strcmp(h, "score_by_position")) vs->shift_tab = 2;
    if (!strcmp(h, "rope_pairs")) vs->shift_tab = 3;
}

void shift_frame(Ui *ui, View_State *vs, const Model *m, Rect r) {
    const Theme *t = ui->theme;
    const Scene *s = &m->scene;
    const Lab_Shift *sh = &m->labs.shift;
    if (!vs->labs_ready || !sh->valid) {
        view_set_status(vs, true, _("Out of memory for the shift lab"));
        return;
    }
    /* wide: the controls and RoPE's pairs on the left; narrow (a lesson
     * beside it, a small window): the controls across the top and one panel
     * at a time under tabs */
    bool narrow = r.w < 900;
    if (narrow) {
        float row = fminf(44, fmaxf(34, r.h * 0.07f));
        shift_controls(ui, vs, m, rect_cut_top(&r, 2 * row + 12), true);
        rect_cut_top(&r, t->pad);
    } else {
        Rect left = rect_cut_left(&r, fminf(fmaxf(r.w * 0.27f, 300), 460));
        rect_cut_left(&r, t->pad);
        float ctl_h =
            fminf(left.h * 0.45f, 3 * 44 + ui_line_height(ui, FONT_BOLD, t->title_size) + 30);
        shift_controls(ui, vs, m, rect_cut_top(&left, ctl_h), false);
        rect_cut_top(&left, t->pad);
        rope_dials(ui, m, left);
    }

    float lh = ui_line_height(ui, FONT_SANS, t->small_size);
    Rect vr = rect_cut_top(&r, ui_line_height(ui, FONT_BOLD, t->text_size) + 3 * lh + 18);
    verdicts(ui, vs, m, vr);
    rect_cut_top(&r, t->pad);
    char cap[120];
    snprintf(cap, sizeof cap, _("each box: S with the sentence at %d against at 0; and %s"),
             s->pos_offset,
             sh->rotated ? _("the sentence rotated by one (T)") : _("the order now"));
    if (ui_text_width(ui, FONT_SANS, t->small_size, cap) > r.w)
        snprintf(cap, sizeof cap, _("shift: at %d against at 0; reorder: %s"), s->pos_offset,
                 sh->rotated ? _("rotated by one") : _("the order now"));
    ui_label_fit(ui, rect_cut_top(&r, lh + 2), FONT_SANS, t->small_size, ALIGN_LEFT, t->text_dim,
                 cap);
    rect_cut_top(&r, t->pad * 0.5f);

    if (narrow) {
        follow_lesson(vs);
        static const char *const tabs[4] = {N_("S twice"), "i − j", N_("along i"), "RoPE"};
        float tab_h = fminf(34, ui_line_height(ui, FONT_SANS, t->text_size) + 12);
        Rect row = rect_cut_top(&r, tab_h);
        rect_cut_top(&r, 6);
        float tw = (row.w - 3 * 4) / 4;
        for (int k = 0; k < 4; k++) {
            Rect b = rect_cut_left(&row, tw);
            rect_cut_left(&row, 4);
            if (ui_button(ui, "shift_tab", k, b, _(tabs[k]), vs->shift_tab == k) & UI_CLICKED)
                vs->shift_tab = k;
        }
        if (vs->shift_tab == 0) two_scores(ui, vs, m, r);
        if (vs->shift_tab == 1) delta_plot(ui, m, r);
        if (vs->shift_tab == 2) position_plot(ui, m, r);
        if (vs->shift_tab == 3) rope_dials(ui, m, r);
        return;
    }

    /* low (presenting, a projector's zoom): S twice and the Δ curve on one
     * row; the curve along i needs a taller window */
    if (r.h < 520) {
        Rect p_delta = rect_cut_right(&r, (r.w - 2 * t->pad) / 3);
        rect_cut_right(&r, t->pad);
        two_scores(ui, vs, m, r);
        delta_plot(ui, m, p_delta); /* the verdict boxes' swatches name the colours */
        return;
    }
    two_scores(ui, vs, m, rect_cut_top(&r, (r.h - t->pad) * 0.55f));
    rect_cut_top(&r, t->pad);
    legend(ui, rect_cut_top(&r, lh + 4));
    Rect p_delta = rect_cut_left(&r, (r.w - t->pad) * 0.5f);
    rect_cut_left(&r, t->pad);
    delta_plot(ui, m, p_delta);
    position_plot(ui, m, r);
}
