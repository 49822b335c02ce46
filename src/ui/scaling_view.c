/* The scaling view: the reference's variance experiment run live, and how
 * softmax sharpens with d_k with and without ÷√d_k; see scaling_view.h. */
#include "scaling_view.h"
#include "../core/i18n.h"
#include "explorer.h"
#include "heatmap.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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
    ui_plot_area(ui, plot);
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
    ui_plot_area(ui, plot);
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
    const Attn *a = &m->derived.pass.head[0];
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
