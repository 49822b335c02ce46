/* The matrices of one attention layer as panels; see matrices.h. */
#include "../core/i18n.h"
#include "matrices.h"

#include "heatmap.h"
#include "plane.h"

#include "../core/stats.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- selected query ---------------------------------------------------------- */

void query_panel(Ui *ui, View_State *vs, const Model *m, Rect r) {
    if (ui_hidden_if(ui, r, _("Query"), "query")) return;
    const Theme *t = ui->theme;
    const Scene *s = &m->scene;
    const Attn *a = view_attn(vs, m);
    int n = s->n, i = vs->selected;
    char title[96];
    snprintf(title, sizeof title, _("Query %d: %s"), i + 1, s->tokens[i]);
    if (i == vs->session.hide_row) { /* its weights wait for the lesson's prediction */
        ui_hidden(ui, r, title, "query", NULL);
        return;
    }
    float title_h = ui_panel_wrapped(ui, r, title, false);
    ui_record(ui, "panel", "query", -1, r);
    Rect body = rect_inset(r, t->pad);
    rect_cut_top(&body, title_h + 4);
    float fs = t->small_size, lh = ui_line_height(ui, FONT_SANS, fs);

    /* the o_i picture: under the rows when the panel is tall, beside them
     * when it is wide and low */
    Rect out = {0};
    if (body.h >= 330) {
        out = rect_cut_bottom(&body, fminf(body.h * 0.45f, 300));
    } else if (body.w >= 300) {
        out = rect_cut_right(&body, fminf(body.h, body.w * 0.42f));
        rect_cut_right(&body, 8);
    }
    float out_h = out.h;

    /* columns: key token | score s_ij (number, bar) | weight a_ij (bar with number);
     * the number column is never narrower than its widest number */
    float bw = body.w + 2 * t->pad; /* the width the fractions below were made for */
    float num_need = bw > 1 ? (ui_text_width(ui, FONT_MONO, fs, "-00.00") + 8) / bw : 0;
    const float col_num = fminf(fmaxf(0.17f, num_need), 0.4f), col_tok = 0.24f;
    /* too narrow for a useful bar: the score is the number alone */
    const float col_bar = bw < 260 ? 0 : 0.41f - col_num;
    Rect hdr = rect_cut_top(&body, lh + 2);
    rect_cut_left(&hdr, hdr.w * col_tok);
    Rect hs = rect_cut_left(&hdr, bw * (col_num + col_bar) - t->pad);
    bool short_hdr = bw < 300;
    ui_label(ui, hs, FONT_SANS, fs, ALIGN_CENTER, t->text_dim,
             short_hdr ? "s_ij" : _("score s_ij"));
    ui_label(ui, hdr, FONT_SANS, fs, ALIGN_CENTER, t->text_dim,
             short_hdr ? "a_ij" : _("weight a_ij"));
    Rect foot = rect_cut_bottom(&body, lh * 2 + 8);

    /* one row per key; with many tokens, the heaviest keys */
    int order[ATTN_MAX_TOKENS], rows = n;
    for (int j = 0; j < n; j++) order[j] = j;
    float row_h = fminf(34, body.h / (float)n);
    if (row_h < lh) {
        rows = (int)(body.h / lh);
        if (rows < 1) rows = 1;
        row_h = body.h / (float)rows;
        for (int x = 0; x < rows; x++) /* partial selection sort by weight */
            for (int y = x + 1; y < n; y++)
                if (a->A[i * n + order[y]] > a->A[i * n + order[x]]) {
                    int tmp = order[x];
                    order[x] = order[y];
                    order[y] = tmp;
                }
    }
    float smax = 0;
    for (int j = 0; j < n; j++)
        if (isfinite(a->S[i * n + j])) smax = fmaxf(smax, fabsf(a->S[i * n + j]));
    if (smax < 1e-6f) smax = 1;
    for (int k = 0; k < rows; k++) {
        int j = order[k];
        Rect row = rect_cut_top(&body, row_h);
        float rw = row.w;
        Rect lab = rect_cut_left(&row, rw * col_tok);
        Rect numr = rect_cut_left(&row, rw * col_num);
        Rect sc = rect_cut_left(&row, rw * col_bar);
        Color lc = j == vs->mark_key ? t->key : j == i ? t->query : t->text;
        ui_label_fit(ui, rect_inset(lab, 2), FONT_SANS, fs, ALIGN_RIGHT, lc, s->tokens[j]);
        float sv = a->S[i * n + j], av = a->A[i * n + j];
        char num[24];
        bool masked = !isfinite(sv); /* the causal mask: a key after the query */
        snprintf(num, sizeof num, masked ? "−∞" : "%.2f", (double)sv);
        ui_label(ui, rect_inset(numr, 2), FONT_MONO, fs, ALIGN_RIGHT,
                 masked ? t->text_dim : t->text, num);
        if (col_bar > 0 && !masked) {
            Rect bar = rect_inset(sc, 3);
            float mid = bar.x + bar.w * 0.5f, len = sv / smax * bar.w * 0.5f;
            Color sc_col = colormap_sample(COLORMAP_DIVERGING, 0.5f + 0.5f * sv / smax);
            draw_rect(ui->dl, (Rect){len < 0 ? mid + len : mid, bar.y + 2, fabsf(len), bar.h - 4},
                      sc_col);
            draw_line(ui->dl, mid, bar.y, mid, bar.y + bar.h, 1, t->text_dim);
        }
        rect_cut_left(&row, 6); /* the score's digits never touch the weight's */
        Rect wb = rect_inset(row, 3);
        draw_rect(ui->dl, wb, t->plot);
        draw_rect(ui->dl, (Rect){wb.x, wb.y + 2, wb.w * av, wb.h - 4},
                  colormap_sample(vs->weight_map, av));
        snprintf(num, sizeof num, "%.3f", (double)av);
        ui_label(ui, (Rect){wb.x + 4, wb.y, wb.w - 8, wb.h}, FONT_MONO, fs, ALIGN_RIGHT, t->text,
                 num);
        if (ui_hit(ui, (Rect){lab.x, row.y, r.w, row_h})) {
            vs->hover_row = i;
            vs->hover_col = j;
        }
    }

    /* Σ a_ij = 1, entropy, max weight */
    double sum = 0;
    for (int j = 0; j < n; j++) sum += a->A[i * n + j];
    double h = stats_row_entropy(&a->A[i * n], n), mx = stats_row_max(&a->A[i * n], n);
    char line[160];
    snprintf(line, sizeof line, _("Σ_j a_ij = %.4f   max = %.3f"), sum, mx);
    ui_label_fit(ui, (Rect){foot.x, foot.y + 4, foot.w, lh}, FONT_SANS, fs, ALIGN_LEFT, t->text,
                 line);
    snprintf(line, sizeof line, _("entropy H = %.3f  (uniform ln %d = %.3f)"), h, n,
             log((double)n));
    ui_label_fit(ui, (Rect){foot.x, foot.y + 4 + lh, foot.w, lh}, FONT_SANS, fs, ALIGN_LEFT,
                 t->text, line);

    /* o_i = Σ_j a_ij v_j, tip to tail in the plane of v[0], v[1] */
    if (out_h <= 0) return;
    draw_line(ui->dl, out.x, out.y, out.x + out.w, out.y, t->line, t->panel_border);
    Rect oh = rect_cut_top(&out, lh + 6);
    ui_label_fit(ui, oh, FONT_SANS, fs, ALIGN_LEFT, t->text,
                 s->d_v >= 2 ? _("o_i = Σ_j a_ij v_j   (v[0], v[1] plane)")
                             : "o_i = Σ_j a_ij v_j   (v[0])");
    int dv = s->d_v;
    float vmax = 0;
    for (int j = 0; j < n; j++)
        for (int c = 0; c < (dv >= 2 ? 2 : 1); c++) vmax = fmaxf(vmax, fabsf(a->V[j * dv + c]));
    vmax = nice_span(fmaxf(vmax * 1.1f, 0.5f));
    float side = fminf(out.w, out.h);
    Plane_Map pm = {.r = {out.x + (out.w - side) * 0.5f, out.y, side, side}, .span = vmax};
    draw_rect(ui->dl, pm.r, t->plot);
    float ox, oy;
    plane_to_screen(&pm, 0, 0, &ox, &oy);
    draw_line(ui->dl, pm.r.x, oy, pm.r.x + pm.r.w, oy, 1, t->grid);
    draw_line(ui->dl, ox, pm.r.y, ox, pm.r.y + pm.r.h, 1, t->grid);
    draw_clip(ui->dl, pm.r);
    /* labels never overprint: o_i's first, then the pieces', then each
     * value's word; hovering a key marks its dot */
    Rect placed[32]; /* o_i, at most 11 pieces and 16 words */
    int count = 0;
    float tx, ty, fl = fs * 0.85f, llh = ui_line_height(ui, FONT_SANS, fl);
    plane_to_screen(&pm, a->O[i * dv], dv >= 2 ? a->O[i * dv + 1] : 0, &tx, &ty);
    /* o_i's label sits past its arrow's tip, on the far side from the
     * origin, so neither the arrowhead nor the shaft runs through it */
    float ow = ui_text_width(ui, FONT_BOLD, fs, "o_i"), dx = tx - ox, dy = ty - oy;
    float dl = hypotf(dx, dy);
    dx = dl > 1 ? dx / dl : 1;
    dy = dl > 1 ? dy / dl : 0;
    Rect olabel = {tx + dx * 10 + (dx < 0 ? -ow : 0) - (fabsf(dx) < 0.3f ? ow * 0.5f : 0),
                   ty + dy * 10 + (dy < 0 ? -lh : 0) - (fabsf(dy) < 0.3f ? lh * 0.5f : 0), ow, lh};
    olabel.x = fminf(fmaxf(olabel.x, pm.r.x + 2), pm.r.x + pm.r.w - ow - 2);
    olabel.y = fminf(fmaxf(olabel.y, pm.r.y + 2), pm.r.y + pm.r.h - lh - 2);
    placed[count++] = olabel;
    float px = 0, py = 0; /* the running sum */
    float ax = 0, ay = 0; /* where the next arrow starts: the last drawn one's tip */
    for (int k = 0; k < n; k++) {
        int j = order[k];
        float w = a->A[i * n + j];
        float nx = px + w * a->V[j * dv], ny = py + (dv >= 2 ? w * a->V[j * dv + 1] : 0);
        px = nx;
        py = ny;
        float x0, y0, x1, y1;
        plane_to_screen(&pm, ax, ay, &x0, &y0);
        plane_to_screen(&pm, nx, ny, &x1, &y1);
        /* a step shorter than half a unit would be a dot: it joins the next
         * arrow instead, so the path stays whole (with many keys, hundreds
         * of such dots piled on one spot) */
        if (hypotf(x1 - x0, y1 - y0) < 0.5f && j != vs->mark_key && k < n - 1) continue;
        ax = nx;
        ay = ny;
        Color c = t->value;
        c.a = (unsigned char)(90 + 165 * w);
        if (j == vs->mark_key) c = t->key;
        draw_arrow(ui->dl, x0, y0, x1, y1, 2, 8, c);
        /* the pieces that matter say whose value they carry, a_ij·v_j, beside
         * their arrow where no other label is (weights ≥ 0.1: ten at most) */
        if (w >= 0.1f && hypotf(x1 - x0, y1 - y0) > 18 && count < 12) {
            char piece[64];
            snprintf(piece, sizeof piece, "%.2f·v(%s)", (double)w, s->tokens[j]);
            Rect spot;
            float pw = ui_text_width(ui, FONT_SANS, fl, piece);
            /* beside a steep arrow, above or below a flat one: off its line */
            bool steep = fabsf(y1 - y0) > fabsf(x1 - x0);
            if (!plane_label_spot(placed, count, (x0 + x1) * 0.5f, (y0 + y1) * 0.5f, 4, pw, llh,
                                  steep, &spot))
                continue;
            placed[count++] = spot;
            /* the arrow fades with its weight; its words stay readable */
            draw_text(ui->dl, FONT_SANS, fl, spot.x, spot.y, ALIGN_LEFT,
                      j == vs->mark_key ? t->key : t->value, piece);
        }
    }
    /* each value v_j a dot with its word, where a label finds room */
    for (int j = 0; j < n && n <= 64; j++) {
        float vx, vy;
        plane_to_screen(&pm, a->V[j * dv], dv >= 2 ? a->V[j * dv + 1] : 0, &vx, &vy);
        Color c = j == vs->mark_key ? t->key : t->text_dim;
        draw_circle(ui->dl, vx, vy, 3, c);
        Rect spot;
        if (n > 16 ||
            !plane_label_spot(placed, count, vx, vy, 4,
                              ui_text_width(ui, FONT_SANS, fl, s->tokens[j]), llh, false, &spot))
            continue;
        placed[count++] = spot;
        draw_text(ui->dl, FONT_SANS, fl, spot.x, spot.y, ALIGN_LEFT, c, s->tokens[j]);
    }
    draw_arrow(ui->dl, ox, oy, tx, ty, 3, 12, t->query);
    draw_noclip(ui->dl);
    draw_text(ui->dl, FONT_BOLD, fs, olabel.x, olabel.y, ALIGN_LEFT, t->query, "o_i");
}

/* ---- Q, K, V strips and the query–key plane ---------------------------------- */

float matrix_max_abs(const float *x, long count) {
    float m = 0;
    for (long k = 0; k < count; k++)
        if (isfinite(x[k])) m = fmaxf(m, fabsf(x[k])); /* a masked score is no size */
    return m > 1e-6f ? m : 1;
}

/* How H heads become one output: their O^h side by side, Concat (n × H·d_v,
 * a line between heads), times W_O ((H·d_v) × d) gives Y (n × d), back in
 * embedding space. Past a size the draw list should not carry, a note says
 * where the numbers are instead. */
static void heads_joined(Ui *ui, View_State *vs, const Model *m, Rect r,
                         const char *const *labels) {
    const Theme *t = ui->theme;
    const Scene *s = &m->scene;
    const Derived *dv = &m->derived;
    int n = s->n, hd = s->heads * s->d_v, d = s->d;
    if (!dv->concat || !dv->W_O || !dv->Y) return;
    ui_record(ui, "panel", "heads_joined", -1, r);
    if ((long)n * hd > 512L * 512 || (long)hd * d > 512L * 512) {
        ui_panel(ui, r, _("Concat(O¹…Oᴴ) · W_O = Y"), false);
        char note[160];
        snprintf(note, sizeof note,
                 _("Concat is %d × %d and W_O %d × %d: too many cells to draw here; Ctrl+E "
                   "exports them"),
                 n, hd, hd, d);
        ui_text_wrapped(ui, rect_inset(rect_inset(r, t->pad), 0), FONT_SANS, t->small_size,
                        t->text_dim, note, true);
        return;
    }
    /* widths in proportion to the columns each shows, Y at least a strip */
    float gap = t->pad, room = r.w - 2 * gap;
    float wc = room * 0.5f, ww = room * 0.2f, wy = room - wc - ww;
    struct {
        const char *name, *title;
        const float *data;
        int rows, cols;
        const char *const *labels;
    } parts[3] = {{"concat", _("Concat(O¹…Oᴴ)"), dv->concat, n, hd, labels},
                  {"W_O", "· W_O", dv->W_O, hd, d, NULL},
                  {"Y", "= Y", dv->Y, n, d, labels}};
    float widths[3] = {wc, ww, wy};
    for (int k = 0; k < 3; k++) {
        Rect pr = rect_cut_left(&r, widths[k]);
        rect_cut_left(&r, gap);
        float mx = matrix_max_abs(parts[k].data, (long)parts[k].rows * parts[k].cols);
        char caption[64];
        snprintf(caption, sizeof caption, "%d × %d, ±%.2f", parts[k].rows, parts[k].cols,
                 (double)mx);
        Heatmap_Result hr;
        ui_heatmap(ui,
                   &(Heatmap_Desc){.name = parts[k].name,
                                   .r = pr,
                                   .title = parts[k].title,
                                   .caption = caption,
                                   .values = parts[k].data,
                                   .rows = parts[k].rows,
                                   .cols = parts[k].cols,
                                   .vmin = -mx,
                                   .vmax = mx,
                                   .map = COLORMAP_DIVERGING,
                                   .row_labels = parts[k].labels,
                                   .selected_row = parts[k].labels ? vs->selected : -1,
                                   .mark_row = -1,
                                   .mark_col = -1,
                                   .no_legend = true,
                                   .stretch = true},
                   &hr);
        if (k == 0) /* where one head's outputs end and the next one's begin */
            for (int h = 1; h < s->heads; h++) {
                float x = hr.grid.x + hr.cell_w * (float)(h * s->d_v);
                draw_line(ui->dl, x, hr.grid.y, x, hr.grid.y + hr.grid.h, 2, t->text);
            }
        if (hr.hover_row >= 0)
            snprintf(vs->hover_text, sizeof vs->hover_text, "%s[%d][%d] = %.4f%s%s", parts[k].name,
                     hr.hover_row, hr.hover_col,
                     (double)parts[k].data[hr.hover_row * parts[k].cols + hr.hover_col],
                     k == 0 ? _("   head ") : "", "");
        if (k == 0 && hr.hover_row >= 0) {
            size_t len = strlen(vs->hover_text);
            snprintf(vs->hover_text + len, sizeof vs->hover_text - len, "%d",
                     hr.hover_col / s->d_v + 1);
        }
    }
}

void strips_panel(Ui *ui, View_State *vs, const Model *m, Rect r, const char *const *labels) {
    const Theme *t = ui->theme;
    const Scene *s = &m->scene;
    const Attn *a = view_attn(vs, m);
    int n = s->n;
    bool qk_plane = s->d_k == 2;
    /* with d_k = 2 the plane shows q and k as arrows, beside their strips:
     * a lesson that sets d_k = 2 still has the strips it talks about */
    bool show_qk_strips = true;
    int strips = show_qk_strips ? 4 : 2;
    /* several heads: under the strips, how they join: Concat(O¹…Oᴴ)·W_O = Y */
    if (s->heads > 1 && r.h > 160) {
        Rect joined = rect_cut_bottom(&r, (r.h - t->pad) * 0.5f);
        rect_cut_bottom(&r, t->pad);
        heads_joined(ui, vs, m, joined, labels);
    }
    /* the q–k plane wants to be square: as tall as the row, up to a third */
    float plane_w = qk_plane ? fminf(fmaxf(r.h * 0.8f, r.w / (strips + 1)), r.w * 0.34f) : 0;
    float w = (r.w - plane_w - t->pad * (qk_plane ? strips : strips - 1)) / strips;
    struct {
        const char *name, *title, *vec;
        const float *data;
        int cols;
        int mark;
    } kinds[4] = {
        {"Q", _("Queries q_i"), "q", a->Q, s->d_k,
         vs->hover_row >= 0 ? vs->hover_row : vs->selected},
        {"K", _("Keys k_j"), "k", a->K, s->d_k, vs->hover_col},
        {"V", _("Values v_j"), "v", a->V, s->d_v, vs->hover_col},
        {"O", _("Outputs o_i"), "o", a->O, s->d_v,
         vs->hover_row >= 0 ? vs->hover_row : vs->selected},
    };
    for (int k = show_qk_strips ? 0 : 2; k < 4; k++) {
        Rect pr = rect_cut_left(&r, w);
        rect_cut_left(&r, t->pad);
        float mx = matrix_max_abs(kinds[k].data, (long)n * kinds[k].cols);
        char caption[64];
        snprintf(caption, sizeof caption, _("%d × %d, scale ±%.2f"), n, kinds[k].cols, (double)mx);
        Heatmap_Result hr;
        ui_heatmap(ui,
                   &(Heatmap_Desc){.name = kinds[k].name,
                                   .r = pr,
                                   .title = kinds[k].title,
                                   .caption = caption,
                                   .values = kinds[k].data,
                                   .rows = n,
                                   .cols = kinds[k].cols,
                                   .vmin = -mx,
                                   .vmax = mx,
                                   .map = COLORMAP_DIVERGING,
                                   /* narrow strips share one column of words: the
                                    * first strip's, since their rows line up */
                                   .row_labels = k == 0 || w >= 170 ? labels : NULL,
                                   .selected_row = k == 0 || k == 3 ? vs->selected : -1,
                                   .mark_row = kinds[k].mark,
                                   .mark_col = -1,
                                   .row_offset = vs->animating ? vs->row_offset : NULL,
                                   .stretch = true},
                   &hr);
        if (hr.hover_row >= 0) {
            char sub[24];
            subscript(hr.hover_row + 1, sub, sizeof sub);
            snprintf(vs->hover_text, sizeof vs->hover_text, "%s%s[%d] = %.4f   (%s)", kinds[k].vec,
                     sub, hr.hover_col,
                     (double)kinds[k].data[hr.hover_row * kinds[k].cols + hr.hover_col],
                     s->tokens[hr.hover_row]);
        }
        if ((k == 0 || k == 3) && hr.clicked_row >= 0) vs->selected = hr.clicked_row;
    }
    if (!qk_plane || ui_hidden_if(ui, r, _("q and k  (d_k = 2)"), "qk_plane")) return;
    /* d_k = 2: every q_i and k_j as arrows; ⟨q, k⟩ is length × length × cos(angle) */
    float title_h = ui_panel_wrapped(ui, r, _("q and k  (d_k = 2)"), false);
    ui_record(ui, "panel", "qk_plane", -1, r);
    Rect body = rect_inset(r, t->pad);
    rect_cut_top(&body, title_h + 4);
    float span = nice_span(
        fmaxf(matrix_max_abs(a->Q, (long)n * 2), matrix_max_abs(a->K, (long)n * 2)) * 1.1f);
    float side = fminf(body.w, body.h);
    Plane_Map pm = {.r = {body.x + (body.w - side) * 0.5f, body.y, side, side}, .span = span};
    draw_rect(ui->dl, pm.r, t->plot);
    float ox, oy;
    plane_to_screen(&pm, 0, 0, &ox, &oy);
    draw_line(ui->dl, pm.r.x, oy, pm.r.x + pm.r.w, oy, 1, t->grid);
    draw_line(ui->dl, ox, pm.r.y, ox, pm.r.y + pm.r.h, 1, t->grid);
    int qi = vs->hover_row >= 0 ? vs->hover_row : vs->selected;
    draw_clip(ui->dl, pm.r);
    float lh = ui_line_height(ui, FONT_SANS, t->small_size);
    for (int j = 0; j < n && n <= 64; j++) {
        float x, y;
        plane_to_screen(&pm, a->K[j * 2], a->K[j * 2 + 1], &x, &y);
        Color c = t->key;
        if (vs->hover_col >= 0 && j != vs->hover_col) c.a = 90;
        draw_arrow(ui->dl, ox, oy, x, y, j == vs->hover_col ? 3 : 1.5f, 9, c);
        draw_text(ui->dl, FONT_SANS, t->small_size, x, y - lh, ALIGN_CENTER, c, s->tokens[j]);
    }
    float x, y;
    plane_to_screen(&pm, a->Q[qi * 2], a->Q[qi * 2 + 1], &x, &y);
    draw_arrow(ui->dl, ox, oy, x, y, 3, 12, t->query);
    char ql[48];
    snprintf(ql, sizeof ql, "q: %s", s->tokens[qi]);
    draw_text(ui->dl, FONT_BOLD, t->small_size, x, y + 4, ALIGN_CENTER, t->query, ql);
    draw_noclip(ui->dl);
}

/* Column names for X: its coordinates, counted from 0 as x[c] is written. */
static const char *const coords[ATTN_MAX_D] = {
    "0",  "1",  "2",  "3",  "4",  "5",  "6",  "7",  "8",  "9",  "10", "11", "12", "13", "14", "15",
    "16", "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28", "29", "30", "31",
    "32", "33", "34", "35", "36", "37", "38", "39", "40", "41", "42", "43", "44", "45", "46", "47",
    "48", "49", "50", "51", "52", "53", "54", "55", "56", "57", "58", "59", "60", "61", "62", "63"};
_Static_assert(sizeof coords / sizeof *coords == ATTN_MAX_D, "a name for every coordinate");

void x_panel(Ui *ui, View_State *vs, const Model *m, Rect r) {
    const Scene *s = &m->scene;
    const char *labels[ATTN_MAX_TOKENS];
    for (int i = 0; i < s->n; i++) labels[i] = s->tokens[i];
    float mx = matrix_max_abs(s->X, (long)s->n * s->d);
    char caption[200];
    /* what X is: a head from the layers lab or a real model reads the residual stream */
    const Learned_Head *lh = &m->learned;
    bool from_stack = s->learned && lh->ready && lh->x_kind != LEARNED_X_EMBEDDINGS;
    if (from_stack && lh->x_kind == LEARNED_X_STREAM)
        snprintf(caption, sizeof caption,
                 _("the residual stream as layer %d reads it, %d × %d: row i is x_i"), lh->layer,
                 s->n, s->d);
    else if (from_stack)
        snprintf(caption, sizeof caption,
                 _("the residual stream as this head sees it, %d × %d: row i times W is token i's "
                   "q, k and v"),
                 s->n, s->d);
    else
        snprintf(caption, sizeof caption, _("embeddings, %d × %d: row i is x_i"), s->n, s->d);
    /* the row being dragged (or pointed at) stands out: only it changes */
    int row = vs->explorer.drag_point >= 0 ? vs->explorer.drag_point : vs->hover_token;
    Heatmap_Result hr;
    ui_heatmap(ui,
               &(Heatmap_Desc){.name = "X",
                               .r = r,
                               .title = "X",
                               .caption = caption,
                               .values = s->X,
                               .rows = s->n,
                               .cols = s->d,
                               .vmin = -mx,
                               .vmax = mx,
                               .map = COLORMAP_DIVERGING,
                               .row_labels = labels,
                               /* past 16 coordinates, their numbers would stack in many
                                  rows: the pointer names the column instead */
                               .col_labels = s->d <= 16 ? coords : NULL,
                               .numbers = true,
                               .decimals = 2,
                               .selected_row = row,
                               .mark_row = -1,
                               .mark_col = -1,
                               .row_offset = vs->animating ? vs->row_offset : NULL,
                               .stretch = true},
               &hr);
    if (hr.hover_row >= 0) {
        char sub[24];
        subscript(hr.hover_row + 1, sub, sizeof sub);
        snprintf(vs->hover_text, sizeof vs->hover_text, "x%s[%d] = %.4f   (%s)", sub, hr.hover_col,
                 (double)s->X[hr.hover_row * s->d + hr.hover_col], s->tokens[hr.hover_row]);
    }
}

/* ---- heads ----------------------------------------------------------------------- */

/* H > 1: every head's A as a small heatmap, side by side; a click shows that
 * head in S, A, the strips and the query. */
void heads_strip(Ui *ui, View_State *vs, const Model *m, Rect r) {
    if (ui_hidden_if(ui, r, _("Heads"), "heads")) return;
    const Theme *t = ui->theme;
    const Scene *s = &m->scene;
    int H = s->heads, n = s->n;
    ui_panel(ui, r, NULL, false);
    ui_record(ui, "panel", "heads", -1, r);
    Rect body = rect_inset(r, 6);
    float lh = ui_line_height(ui, FONT_SANS, t->small_size);
    Rect label = rect_cut_left(&body, fminf(body.w * 0.22f, 120));
    ui_text_wrapped(ui, label, FONT_SANS, t->small_size, t->text_dim,
                    _("each head's A; click one to show it"), true);
    float w = fminf((body.w - 4.0f * (float)(H - 1)) / (float)H, body.h + lh);
    for (int h = 0; h < H; h++) {
        Rect c = rect_cut_left(&body, w);
        rect_cut_left(&body, 4);
        if (ui_button(ui, "head", h, c, "", h == vs->head) & UI_CLICKED) vs->head = h;
        Rect in = rect_inset(c, 3);
        Rect cap = rect_cut_bottom(&in, lh);
        float side = fminf(in.w, in.h);
        draw_heatmap(ui->dl, (Rect){in.x + (in.w - side) * 0.5f, in.y, side, side},
                     derived_head(&m->derived, h)->A, n, n, 0, 1, vs->weight_map);
        char name[16];
        snprintf(name, sizeof name, "%d", h + 1);
        ui_label(ui, cap, FONT_SANS, t->small_size, ALIGN_CENTER,
                 h == vs->head ? t->on_bright : t->text, name);
    }
}
