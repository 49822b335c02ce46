/* The two labs. Scaling: the reference's variance experiment run live, and
 * how softmax sharpens with d_k with and without ÷√d_k. Permutation:
 * Attention(PX) beside P·Attention(X), and their difference. */
#include "../core/i18n.h"
#include "heatmap.h"
#include "labs.h"
#include "explorer.h"
#include "positions.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- derived data ------------------------------------------------------------ */

bool labs_derive(const View_State *vs, Model *m) {
    const Scene *s = &m->scene;
    switch (vs->view) {
    case VIEW_SCALING: {
        uint64_t seed = (uint64_t)s->seed * 1000003u + vs->scaling.resample;
        return labs_experiment(&m->labs, seed, s->d_k, vs->scaling.samples) &&
               labs_curves(&m->labs, s);
    }
    case VIEW_PERMUTATION:
        return labs_permutation(&m->labs, s, &m->derived);
    case VIEW_SHIFT:
        return shift_update(&m->labs.shift, s, &m->derived, vs->selected, vs->shift_key);
    default:
        return true;
    }
}

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

/* ---- small plotting helpers ----------------------------------------------- */

void plot_frame(Ui *ui, Rect r) {
    draw_rect(ui->dl, r, ui->theme->plot);
    draw_rect_outline(ui->dl, r, 0, ui->theme->line, ui->theme->panel_border);
}

static float lerp(float a, float b, float t) {
    return a + (b - a) * t;
}

/* A histogram of counts over [lo, hi] with a density curve over it (scaled
 * to counts: density × samples × bin width). */
/* axis: the range drawn; the bins' own [lo, hi] when 0, else ±axis, so a
 * distribution that widens with d_k is seen to widen */
static void histogram(Ui *ui, Rect r, const char *id, const char *title, const int *counts,
                      int bins, double lo, double hi, double axis, int samples, double theory_var,
                      Color bar, const char *curve_label, const char *stats_line) {
    const Theme *t = ui->theme;
    if (ui_hidden_if(ui, r, title, id)) return;
    float title_h = ui_panel_wrapped(ui, r, title, false);
    ui_record(ui, "panel", id, -1, r);
    Rect body = rect_inset(r, t->pad);
    rect_cut_top(&body, title_h + 4);
    float lh = ui_line_height(ui, FONT_SANS, t->small_size);
    float info_h = ui_text_wrapped(ui, body, FONT_SANS, t->small_size, t->text, stats_line, true);
    rect_cut_top(&body, info_h + 4);
    Rect ticks = rect_cut_bottom(&body, lh + 2);
    Rect plot = body;
    plot_frame(ui, plot);
    double width = (hi - lo) / bins;
    double peak = samples * width * stats_normal_pdf(0, theory_var);
    int maxc = 1;
    for (int b = 0; b < bins; b++) maxc = counts[b] > maxc ? counts[b] : maxc;
    double ymax = fmax(peak, (double)maxc) * 1.1;
    /* the drawn range: the bins' own, or a fixed one around them */
    double alo = axis > 0 ? -axis : lo, ahi = axis > 0 ? axis : hi;
    float bw = plot.w * (float)(width / (ahi - alo));
    float x0 = plot.x + plot.w * (float)((lo - alo) / (ahi - alo));
    for (int b = 0; b < bins; b++) {
        float h = (float)(counts[b] / ymax) * plot.h;
        draw_rect(ui->dl,
                  (Rect){x0 + b * bw + 0.5f * fminf(bw, 1), plot.y + plot.h - h,
                         fmaxf(bw - fminf(bw, 1), 0.5f), h},
                  bar);
    }
    /* the theory's density, as a polyline */
    float px = 0, py = 0;
    const int steps = 360; /* fine enough for a narrow peak on a fixed axis */
    for (int k = 0; k <= steps; k++) {
        double x = alo + (ahi - alo) * k / (double)steps;
        double y = samples * width * stats_normal_pdf(x, theory_var);
        float sx = plot.x + plot.w * (float)k / (float)steps,
              sy = plot.y + plot.h - (float)(y / ymax) * plot.h;
        if (k) draw_line(ui->dl, px, py, sx, sy, 2.5f, t->highlight);
        px = sx;
        py = sy;
    }
    draw_text(ui->dl, FONT_SANS, t->small_size, plot.x + plot.w - 6, plot.y + 4, ALIGN_RIGHT,
              t->highlight, curve_label);
    const double marks[5] = {alo, alo / 2, 0, ahi / 2, ahi};
    for (int k = 0; k < 5; k++) {
        float sx = lerp(plot.x, plot.x + plot.w, (float)((marks[k] - alo) / (ahi - alo)));
        char buf[24];
        snprintf(buf, sizeof buf, "%.3g", marks[k]);
        draw_line(ui->dl, sx, plot.y + plot.h, sx, plot.y + plot.h + 4, 1.5f, t->text_dim);
        draw_text(ui->dl, FONT_MONO, t->small_size, sx, ticks.y + 2,
                  k == 0   ? ALIGN_LEFT
                  : k == 4 ? ALIGN_RIGHT
                           : ALIGN_CENTER,
                  t->text_dim, buf);
    }
}

/* A curve against d_k on a log axis 1…1024, two series, a marker at d_k. */
static void width_plot(Ui *ui, Rect r, const char *title, const char *name, const int *dks,
                       int count, const double *scaled, const double *raw,
                       const double *const band[4], double ymax, int dk_now, bool scaled_now,
                       const char *y_label) {
    const Theme *t = ui->theme;
    float title_h = ui_panel_wrapped(ui, r, title, false);
    ui_record(ui, "panel", name, -1, r);
    Rect body = rect_inset(r, t->pad);
    rect_cut_top(&body, title_h + 4);
    float lh = ui_line_height(ui, FONT_SANS, t->small_size);
    Rect legend = rect_cut_top(&body, lh + 4);
    Rect ticks = rect_cut_bottom(&body, lh + 2);
    Rect yax = rect_cut_left(&body, 44);
    Rect plot = body;
    plot_frame(ui, plot);
    /* legend: which line is which */
    float lx = legend.x;
    const char *raw_label = legend.w >= 230 ? _("unscaled") : _("raw");
    draw_line(ui->dl, lx, legend.y + lh * 0.5f, lx + 24, legend.y + lh * 0.5f, 3, t->accent);
    draw_text(ui->dl, FONT_SANS, t->small_size, lx + 30, legend.y, ALIGN_LEFT, t->text, "÷ √d_k");
    lx += 30 + ui_text_width(ui, FONT_SANS, t->small_size, "÷ √d_k") + 18;
    draw_line(ui->dl, lx, legend.y + lh * 0.5f, lx + 24, legend.y + lh * 0.5f, 3, t->query);
    draw_text(ui->dl, FONT_SANS, t->small_size, lx + 30, legend.y, ALIGN_LEFT, t->text, raw_label);
    float lmax = logf(1024.0f);
    /* ticks at powers of 4, or of 32 when the plot is too narrow for six labels */
    bool narrow = plot.w < 6 * ui_text_width(ui, FONT_MONO, t->small_size, "10240");
    int last = narrow ? 2 : 5, shift = narrow ? 5 : 2;
    for (int k = 0; k <= last; k++) {
        int v = 1 << (shift * k);
        float sx = plot.x + plot.w * logf((float)v) / lmax;
        draw_line(ui->dl, sx, plot.y, sx, plot.y + plot.h, 1, t->grid);
        char buf[16];
        snprintf(buf, sizeof buf, "%d", v);
        Align al = k == 0 ? ALIGN_LEFT : k == last ? ALIGN_RIGHT : ALIGN_CENTER;
        draw_text(ui->dl, FONT_MONO, t->small_size, sx, ticks.y + 2, al, t->text_dim, buf);
    }
    for (int k = 0; k <= 2; k++) {
        float sy = plot.y + plot.h * (1 - k / 2.0f);
        char buf[16];
        snprintf(buf, sizeof buf, "%.2g", ymax * k / 2.0);
        draw_line(ui->dl, plot.x, sy, plot.x + plot.w, sy, 1, t->grid);
        draw_text(ui->dl, FONT_MONO, t->small_size, yax.x + yax.w - 4, sy - lh * 0.5f, ALIGN_RIGHT,
                  t->text_dim, buf);
    }
    /* the y label goes after the legend, only where it fits */
    float used = lx + 30 + ui_text_width(ui, FONT_SANS, t->small_size, raw_label) + 12;
    if (used + ui_text_width(ui, FONT_SANS, t->small_size, y_label) <= legend.x + legend.w)
        draw_text(ui->dl, FONT_SANS, t->small_size, legend.x + legend.w, legend.y, ALIGN_RIGHT,
                  t->text_dim, y_label);
    const double *series[2] = {scaled, raw};
    const Color colours[2] = {t->accent, t->query};
    /* the spread over the seeds: a faint band behind each mean */
    for (int s = 0; s < 2 && band; s++) {
        Color c = colours[s];
        c.a = 60;
        const double *lo = band[2 * s], *hi = band[2 * s + 1];
        for (int k = 1; k < count; k++) {
            float x0 = plot.x + plot.w * logf((float)dks[k - 1]) / lmax;
            float x1 = plot.x + plot.w * logf((float)dks[k]) / lmax;
            float a0 = plot.y + plot.h * (1 - (float)(hi[k - 1] / ymax));
            float b0 = plot.y + plot.h * (1 - (float)(lo[k - 1] / ymax));
            float a1 = plot.y + plot.h * (1 - (float)(hi[k] / ymax));
            float b1 = plot.y + plot.h * (1 - (float)(lo[k] / ymax));
            draw_triangle(ui->dl, (float[3]){x0, x1, x1}, (float[3]){a0, a1, b1}, c);
            draw_triangle(ui->dl, (float[3]){x0, x1, x0}, (float[3]){a0, b1, b0}, c);
        }
    }
    for (int s = 0; s < 2; s++) {
        float px = 0, py = 0;
        for (int c = 0; c < count; c++) {
            float sx = plot.x + plot.w * logf((float)dks[c]) / lmax;
            float sy = plot.y + plot.h * (1 - (float)(series[s][c] / ymax));
            if (c) draw_line(ui->dl, px, py, sx, sy, 3, colours[s]);
            draw_circle(ui->dl, sx, sy, 3.5f, colours[s]);
            px = sx;
            py = sy;
        }
    }
    /* where the scene is now */
    float mx = plot.x + plot.w * logf((float)dk_now) / lmax;
    draw_line(ui->dl, mx, plot.y, mx, plot.y + plot.h, 2, t->highlight);
    char now[48];
    snprintf(now, sizeof now, "d_k = %d%s", dk_now, scaled_now ? "" : _(" (unscaled)"));
    draw_text(ui->dl, FONT_SANS, t->small_size, mx + (mx > plot.x + plot.w * 0.7f ? -6 : 6),
              plot.y + plot.h - lh - 4, mx > plot.x + plot.w * 0.7f ? ALIGN_RIGHT : ALIGN_LEFT,
              t->highlight, now);
}

/* ---- scaling lab ------------------------------------------------------------ */

/* ÷√d_k on/off and "hold colours at now", stacked when the area is tall,
 * side by side when it is wide and low. */
static void scaling_switches(Ui *ui, View_State *vs, const Model *m, Rect r, float smax) {
    bool scaled = m->scene.scaled;
    Rect tg, lb;
    if (r.h >= 72) {
        tg = rect_cut_top(&r, 36);
        lb = rect_cut_top(&r, 36);
    } else {
        tg = rect_cut_left(&r, r.w * 0.42f);
        lb = rect_inset(r, 4);
    }
    if (ui_toggle(ui, "scale", -1, tg, "÷ √d_k", &scaled) & UI_CHANGED)
        view_act(vs, action_set(SET_SCALED, scaled));
    if (ui_button(ui, "relock", -1, lb, _("hold colours"), false) & UI_CLICKED)
        vs->scaling.lock = fmaxf(smax, 1e-3f);
}

void scaling_frame(Ui *ui, View_State *vs, const Model *m, Rect r) {
    const Theme *t = ui->theme;
    const Scene *s = &m->scene;
    /* narrow (a lesson beside it, or a small window): two equal columns, the
     * plots stacked over S, and the two switches join the experiment's panel */
    bool narrow = r.w < 900;
    Rect left =
        rect_cut_left(&r, narrow ? (r.w - t->pad) * 0.5f : fminf(fmaxf(r.w * 0.42f, 380), 760));
    rect_cut_left(&r, t->pad);

    /* the experiment: controls, then the raw and scaled histograms */
    Rect ctl =
        rect_cut_top(&left, narrow ? fminf(200, left.h * 0.36f) : fminf(150, left.h * 0.28f));
    rect_cut_top(&left, t->pad);
    float title_h = ui_panel_wrapped(
        ui, ctl, _("The experiment: q, k with independent N(0, 1) coordinates"), false);
    ui_record(ui, "panel", "experiment", -1, ctl);
    Rect body = rect_inset(ctl, t->pad);
    rect_cut_top(&body, title_h + 4);
    float row_h = body.h / (narrow ? 3.0f : 2.0f);
    dk_slider(ui, vs, m, rect_cut_top(&body, row_h));
    Rect row = rect_cut_top(&body, row_h);
    Rect smp = rect_cut_left(&row, row.w * 0.62f);
    rect_cut_left(&row, t->pad);
    float samples = (float)vs->scaling.samples;
    if (ui_slider(ui, "samples", -1, smp, &samples,
                  &(Slider_Desc){.min = 100,
                                 .max = LAB_MAX_SAMPLES,
                                 .log = true,
                                 .integer = true,
                                 .label = _("samples"),
                                 .format = "%.0f"}) &
        UI_CHANGED)
        vs->scaling.samples = (int)samples;
    Rect rs = rect_inset(row, 4);
    if (ui_button(ui, "resample", -1, rs, _("⟳ re-sample"), false) & UI_CLICKED)
        vs->scaling.resample++;
    const Attn *a = &m->derived.attn;
    float smax = 0;
    for (long k = 0; k < (long)s->n * s->n; k++)
        if (isfinite(a->S[k])) smax = fmaxf(smax, fabsf(a->S[k])); /* masked: −∞ */
    if (vs->scaling.lock <= 0) vs->scaling.lock = fmaxf(smax, 1e-3f);
    if (narrow) scaling_switches(ui, vs, m, body, smax);

    if (!vs->labs_ready) {
        view_set_status(vs, true, _("Out of memory for the scaling lab"));
        return;
    }
    const Lab_Experiment *e = &m->labs.exp;
    Rect hr = rect_cut_top(&left, (left.h - t->pad) * 0.5f);
    rect_cut_top(&left, t->pad);
    char line[200], curve[64];
    snprintf(line, sizeof line, _("mean %.3f (theory 0)   variance %.2f (theory d_k = %d)"),
             e->stats.raw_mean, e->stats.raw_var, e->d_k);
    snprintf(curve, sizeof curve, "N(0, %d)", e->d_k);
    /* fixed axis: ±4 SD at the widest head, so the raw spread is seen to grow */
    double raw_axis = vs->scaling.fixed_axis ? 4 * sqrt((double)ATTN_MAX_DK) : 0;

    histogram(ui, hr, "hist_raw", _("Raw ⟨q, k⟩"), e->hist_raw, LAB_HIST_BINS, e->raw_lo, e->raw_hi,
              raw_axis, e->samples, (double)e->d_k, t->query, curve, line);
    {
        Rect hb = rect_inset(hr, t->pad);
        float tw = fminf(hb.w * 0.5f, 150);
        bool fixed = vs->scaling.fixed_axis;
        if (ui_toggle(ui, "fixed_axis", -1,
                      (Rect){hb.x + hb.w - tw, hb.y - 4, tw,
                             ui_line_height(ui, FONT_BOLD, t->title_size) + 6},
                      _("fixed axis"), &fixed) &
            UI_CHANGED)
            vs->scaling.fixed_axis = fixed;
    }
    snprintf(line, sizeof line, _("mean %.3f (theory 0)   variance %.3f (theory 1)"),
             e->stats.scaled_mean, e->stats.scaled_var);
    histogram(ui, left, "hist_scaled", _("Scaled ⟨q, k⟩/√d_k"), e->hist_scaled, LAB_HIST_BINS,
              e->scaled_lo, e->scaled_hi, 0, e->samples, 1.0, t->accent, "N(0, 1)", line);

    /* the scene: entropy and max weight against d_k, then S with a held colour range */
    const Lab_Curves *c = &m->labs.curves;
    Rect top, ent;
    if (narrow) {
        ent = rect_cut_top(&r, (r.h - 2 * t->pad) * 0.31f);
        rect_cut_top(&r, t->pad);
        top = rect_cut_top(&r, ent.h);
        rect_cut_top(&r, t->pad);
    } else {
        top = rect_cut_top(&r, (r.h - t->pad) * 0.5f);
        rect_cut_top(&r, t->pad);
        ent = rect_cut_left(&top, (top.w - t->pad) * 0.5f);
        rect_cut_left(&top, t->pad);
    }
    char ylab[48];
    snprintf(ylab, sizeof ylab, _("uniform = ln %d = %.2f"), s->n, log((double)s->n));
    const double *const ent_band[4] = {c->lo[0], c->hi[0], c->lo[2], c->hi[2]};
    const double *const max_band[4] = {c->lo[1], c->hi[1], c->lo[3], c->hi[3]};
    /* a prediction's curves wait for its answer, and a step may hide one
     * that a later step asks about */
    const char *later = vs->session.hide_verdict ? NULL : _("a later step of the lesson asks");
    if (vs->session.hide_verdict || view_hides(vs, "entropy_plot"))
        ui_hidden(ui, ent, _("Mean entropy of A's rows"), "entropy_plot", later);
    else
        width_plot(ui, ent, _("Mean entropy of A's rows"), "entropy_plot", c->dks, c->count,
                   c->ent_scaled, c->ent_raw, ent_band, fmax(log((double)s->n), 1e-3), s->d_k,
                   s->scaled, ylab);
    if (vs->session.hide_verdict || view_hides(vs, "max_plot"))
        ui_hidden(ui, top, _("Mean max weight of A's rows"), "max_plot", later);
    else
        width_plot(ui, top, _("Mean max weight of A's rows"), "max_plot", c->dks, c->count,
                   c->max_scaled, c->max_raw, max_band, 1.0, s->d_k, s->scaled, _("one-hot = 1"));

    Rect sr = narrow ? r : rect_cut_left(&r, fminf(r.w * 0.62f, r.w - 220));
    if (!narrow) rect_cut_left(&r, t->pad);
    const char *labels[ATTN_MAX_TOKENS];
    for (int i = 0; i < s->n; i++) labels[i] = s->tokens[i];
    char caption[120];
    snprintf(caption, sizeof caption, _("colours held at ±%.2f; now max |s| = %.2f"),
             (double)vs->scaling.lock, (double)smax);
    Heatmap_Result hs;
    ui_heatmap(ui,
               &(Heatmap_Desc){.name = "S",
                               .r = sr,
                               .title = s->scaled ? "S = QKᵀ/√d_k" : _("S = QKᵀ (unscaled)"),
                               .caption = caption,
                               .values = a->S,
                               .rows = s->n,
                               .cols = s->n,
                               .vmin = -vs->scaling.lock,
                               .vmax = vs->scaling.lock,
                               .map = COLORMAP_DIVERGING,
                               .row_labels = labels,
                               .col_labels = labels,
                               .numbers = true,
                               .decimals = 1,
                               .selected_row = -1,
                               .mark_row = -1,
                               .mark_col = -1},
               &hs);
    if (hs.hover_row >= 0) {
        vs->hover_row = hs.hover_row;
        vs->hover_col = hs.hover_col;
    }
    if (narrow || ui_hidden_if(ui, r, _("Try it"), "scaling_controls")) return;
    /* the switches that matter here, and what the numbers say */
    ui_panel(ui, r, _("Try it"), false);
    ui_record(ui, "panel", "scaling_controls", -1, r);
    Rect tb = rect_inset(r, t->pad);
    rect_cut_top(&tb, ui_line_height(ui, FONT_BOLD, t->title_size) + 6);
    scaling_switches(ui, vs, m, rect_cut_top(&tb, 80), smax);
    rect_cut_top(&tb, 8);
    /* mean max weight at the current width, from the rows of A */
    double mean_max = 0, mean_h = 0;
    for (int i = 0; i < s->n; i++) {
        mean_max += stats_row_max(&a->A[(long)i * s->n], s->n);
        mean_h += stats_row_entropy(&a->A[(long)i * s->n], s->n);
    }
    mean_max /= s->n;
    mean_h /= s->n;
    float lh = ui_line_height(ui, FONT_SANS, t->text_size) + 4;
    char buf[96];
    if (vs->session.hide_verdict || view_hides(vs, "max_plot")) {
        ui_label_fit(ui, rect_cut_top(&tb, lh), FONT_SANS, t->text_size, ALIGN_LEFT, t->highlight,
                     _("mean max a = ?"));
        return;
    }
    snprintf(buf, sizeof buf, _("mean max a = %.3f"), mean_max);
    ui_label_fit(ui, rect_cut_top(&tb, lh), FONT_SANS, t->text_size, ALIGN_LEFT, t->text, buf);
    snprintf(buf, sizeof buf, _("mean entropy = %.3f"), mean_h);
    ui_label_fit(ui, rect_cut_top(&tb, lh), FONT_SANS, t->text_size, ALIGN_LEFT, t->text, buf);
    ui_label_fit(ui, rect_cut_top(&tb, lh), FONT_SANS, t->small_size, ALIGN_LEFT, t->text_dim,
                 mean_max > 0.9 ? _("nearly one-hot: softmax has collapsed")
                                : _("weights still spread"));
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
    const Attn *a = &m->derived.attn;
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
