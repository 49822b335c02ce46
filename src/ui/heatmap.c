/* The heatmap widget; see heatmap.h. */
#include "../core/i18n.h"
#include "heatmap.h"

#define HEATMAP_ALL_LABELS 16

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LEGEND_STEPS 256

static void legend(Ui *ui, Rect r, float vmin, float vmax, Colormap map, const char *format) {
    const Theme *t = ui->theme;
    float bar_w = 16;
    Rect bar = {r.x, r.y, bar_w, r.h};
    float grid[LEGEND_STEPS];
    for (int k = 0; k < LEGEND_STEPS; k++)
        grid[k] = vmax - (vmax - vmin) * ((float)k + 0.5f) / LEGEND_STEPS;
    draw_heatmap(ui->dl, bar, grid, LEGEND_STEPS, 1, vmin, vmax, map);
    draw_rect_outline(ui->dl, bar, 0, t->line, t->panel_border);
    float lh = ui_line_height(ui, FONT_MONO, t->small_size);
    const float ticks[3] = {vmax, (vmin + vmax) * 0.5f, vmin};
    for (int k = 0; k < 3; k++) {
        float y = bar.y + bar.h * (float)k / 2.0f;
        char buf[32];
        snprintf(buf, sizeof buf, format, (double)ticks[k]);
        draw_line(ui->dl, bar.x + bar_w, y, bar.x + bar_w + 5, y, 1.5f, t->text_dim);
        float ty = y - lh * 0.5f;
        if (ty < r.y - lh * 0.5f) ty = r.y - lh * 0.5f;
        draw_text(ui->dl, FONT_MONO, t->small_size, bar.x + bar_w + 8, ty, ALIGN_LEFT, t->text_dim,
                  buf);
    }
}

void heatmap_number(double v, int decimals, bool sci, char *buf, size_t size) {
    if (!sci) {
        snprintf(buf, size, "%.*f", decimals, v);
    } else {
        /* 1.2e+03 → 1.2e3, -4.5e-02 → -4.5e-2 */
        char raw[40];
        snprintf(raw, sizeof raw, "%.*e", decimals, v);
        char *e = strchr(raw, 'e');
        if (e) {
            int ex = atoi(e + 1);
            *e = '\0';
            snprintf(buf, size, ex ? "%se%d" : "%s", raw, ex);
        } else {
            snprintf(buf, size, "%s", raw); /* inf or nan */
        }
    }
    /* a value that rounds to zero shows as zero, without a sign */
    bool zero = buf[0] == '-';
    for (const char *p = buf + 1; zero && *p && *p != 'e'; p++) zero = *p == '0' || *p == '.';
    if (zero) memmove(buf, buf + 1, strlen(buf));
}

void ui_heatmap(Ui *ui, const Heatmap_Desc *d, Heatmap_Result *res) {
    const Theme *t = ui->theme;
    res->hover_row = res->hover_col = res->clicked_row = -1;
    if (d->name && ui_hides(ui, d->name)) { /* hidden for the class: a "?" in its place */
        *res = (Heatmap_Result){.hover_row = -1,
                                .hover_col = -1,
                                .clicked_row = -1,
                                .grid = {d->r.x, d->r.y, 0, 0},
                                .cell_w = 1,
                                .cell_h = 1};
        ui_hidden(ui, d->r, d->title, d->name, _("hidden for now"));
        return;
    }
    /* a title or caption too long for a narrow panel wraps: never "…" */
    float title_h = ui_panel_wrapped(ui, d->r, d->title, d->highlighted);
    ui_record(ui, "panel", d->name ? d->name : "heatmap", -1, d->r);
    Rect body = rect_inset(d->r, t->pad);
    rect_cut_top(&body, title_h + 2);
    if (d->caption) {
        float ch =
            ui_text_wrapped(ui, body, FONT_SANS, t->small_size, t->text_dim, d->caption, true);
        rect_cut_top(&body, ch + 4);
    }
    float fs = t->small_size, lh = ui_line_height(ui, FONT_SANS, fs);

    /* legend on the right: bar, ticks */
    const char *legend_fmt = !d->numbers ? "%.2g" : d->decimals >= 2 ? "%.2f" : "%.1f";
    char probe[32];
    snprintf(probe, sizeof probe, legend_fmt,
             (double)-fabsf(d->vmax > -d->vmin ? d->vmax : d->vmin));
    float legend_w = 16 + 10 + ui_text_width(ui, FONT_MONO, fs, probe) + 4;
    /* a stretched strip too narrow to share its width with a legend keeps
     * the cells; its caption states the colour range instead */
    bool show_legend = !d->no_legend && !(d->stretch && body.w < 3 * legend_w);
    Rect legend_r = show_legend ? rect_cut_right(&body, legend_w) : (Rect){0};
    if (show_legend) rect_cut_right(&body, t->pad);

    /* row labels on the left (width of the longest, at most a third), column labels on top */
    float label_w = 0;
    int rows = d->rows, cols = d->cols;
    for (int i = 0; i < rows && d->row_labels; i++) {
        float w = ui_text_width(ui, FONT_SANS, fs, d->row_labels[i]);
        if (w > label_w) label_w = w;
    }
    label_w += 8;
    /* at most a third of the width; stretched cells can give up more */
    float label_cap = body.w * (d->stretch ? 0.45f : 0.3f);
    if (label_w > label_cap) label_w = label_cap;
    /* above the cells: the axis names, then the column labels (each only if given) */
    char rows_txt[64] = "", cols_txt[64] = "";
    bool axis_names = d->row_axis && d->col_axis, axis_two_lines = false;
    if (axis_names) {
        snprintf(rows_txt, sizeof rows_txt, _("rows: %s ↓"), _(d->row_axis));
        snprintf(cols_txt, sizeof cols_txt, _("columns: %s →"), _(d->col_axis));
        axis_two_lines = ui_text_width(ui, FONT_SANS, fs, rows_txt) + 16 +
                             ui_text_width(ui, FONT_SANS, fs, cols_txt) >
                         body.w;
    }
    /* column labels: one line, or (when the longest is wider than a cell)
     * two staggered lines, odd columns under even ones */
    float max_col_w = 0;
    for (int j = 0; j < d->cols && d->col_labels; j++)
        max_col_w = fmaxf(max_col_w, ui_text_width(ui, FONT_SANS, fs, d->col_labels[j]));
    /* staggered labels take a line of their own, so decide on the cells'
     * width before they are laid out: a label never runs into the axis names */
    bool all = rows <= HEATMAP_ALL_LABELS && cols <= HEATMAP_ALL_LABELS;
    float top_h = (axis_names ? lh * (axis_two_lines ? 2 : 1) : 0) + (d->col_labels ? lh + 2 : 0);
    /* lines of staggered labels: each label has `lines` cells of room; a
     * line more makes square cells lower, so settle on a count that fits */
    int lines = 1;
    for (int pass = 0; pass < 6 && d->col_labels && all; pass++) {
        float pre_cw = (body.w - label_w) / (float)cols;
        if (!d->stretch)
            pre_cw = fminf(pre_cw, (body.h - top_h - lh * (float)(lines - 1) - 4) / (float)rows);
        int need = max_col_w * 0.85f + 6 > pre_cw
                       ? (int)fminf(ceilf((max_col_w * 0.9f + 6) / fmaxf(pre_cw, 1)), 6)
                       : 1;
        if (need <= lines) break;
        /* past two lines, not if the cells would get lower than a label:
         * then the labels are shortened on the lines they have */
        if (need > 2 && !d->stretch &&
            (body.h - top_h - lh * (float)(need - 1) - 4) / (float)rows < lh * 0.9f) {
            lines = lines < 2 ? 2 : lines;
            break;
        }
        lines = need;
    }
    bool stagger = lines > 1;
    top_h += lh * (float)(lines - 1);
    Rect axis_top = rect_cut_top(&body, top_h > 0 ? top_h + 4 : 0);
    Rect row_lab = rect_cut_left(&body, label_w);
    (void)row_lab;

    /* square cells as large as fit, or stretched to fill */
    float cw = body.w / cols, ch = body.h / rows;
    if (!d->stretch) cw = ch = fminf(cw, ch);
    if (cw < 0.05f) cw = 0.05f;
    if (ch < 0.05f) ch = 0.05f;
    Rect grid = {body.x, body.y, cw * cols, ch * rows};
    res->grid = grid;
    ui_record(ui, "grid", d->name ? d->name : "heatmap", -1, grid);
    res->cell_w = cw;
    res->cell_h = ch;
    /* the legend sits right beside the cells, not at the far edge */
    legend_r.x = grid.x + grid.w + t->pad;
    legend_r.h = grid.h;
    legend_r.y = grid.y;

    /* axis names: rows in the query colour, columns in the key colour */
    if (axis_names) {
        float x = grid.x - label_w;
        draw_text(ui->dl, FONT_SANS, fs, x, axis_top.y, ALIGN_LEFT, t->query, rows_txt);
        if (axis_two_lines)
            draw_text(ui->dl, FONT_SANS, fs, x, axis_top.y + lh, ALIGN_LEFT, t->key, cols_txt);
        else
            draw_text(ui->dl, FONT_SANS, fs, x + ui_text_width(ui, FONT_SANS, fs, rows_txt) + 16,
                      axis_top.y, ALIGN_LEFT, t->key, cols_txt);
    }

    /* While rows and columns slide to new places, cells are drawn one by one
     * at their animated positions (small n only; large n just jumps). */
    bool moving = false;
    for (int i = 0; i < rows && d->row_offset; i++) moving |= d->row_offset[i] != 0;
    for (int j = 0; j < cols && d->col_offset; j++) moving |= d->col_offset[j] != 0;
    if (moving && rows * cols <= 64 * 64) {
        draw_rect(ui->dl, grid, t->plot);
        draw_clip(ui->dl, grid);
        for (int i = 0; i < rows; i++) {
            float oy = d->row_offset ? d->row_offset[i] * ch : 0;
            for (int j = 0; j < cols; j++) {
                float ox = d->col_offset ? d->col_offset[j] * cw : 0;
                float v = d->values[i * cols + j];
                Color c = colormap_sample(d->map, (v - d->vmin) / (d->vmax - d->vmin));
                draw_rect(ui->dl, (Rect){grid.x + j * cw + ox, grid.y + i * ch + oy, cw, ch}, c);
            }
        }
        draw_noclip(ui->dl);
    } else {
        draw_heatmap(ui->dl, grid, d->values, rows, cols, d->vmin, d->vmax, d->map);
    }

    /* masked cells (−∞ before the softmax, as the causal mask makes them):
     * grey, struck through where the cells are big enough, never a colour
     * of the scale */
    bool any_masked = false;
    for (int i = 0; i < rows && !moving; i++) {
        int j = 0;
        while (j < cols) {
            while (j < cols && isfinite(d->values[(long)i * cols + j]) && !(d->causal && j > i))
                j++;
            int from = j;
            while (j < cols && (!isfinite(d->values[(long)i * cols + j]) || (d->causal && j > i)))
                j++;
            if (j == from) continue;
            any_masked = true;
            Rect run = {grid.x + from * cw, grid.y + i * ch, (j - from) * cw, ch};
            draw_rect(ui->dl, run, t->masked);
            for (int k = from; k < j && cw >= 12 && ch >= 12; k++)
                draw_line(ui->dl, grid.x + k * cw + 3, grid.y + (i + 1) * ch - 3,
                          grid.x + (k + 1) * cw - 3, grid.y + i * ch + 3, 1, t->masked_mark);
        }
    }
    res->masked = any_masked;

    /* labels. Up to HEATMAP_ALL_LABELS rows and columns every one keeps its
     * label: row labels shrink to the cell height, column labels go on two
     * staggered lines when a cell is narrower than the longest. Beyond that,
     * they thin out so none overlap: every k-th one is kept. */
    /* a little smaller first; two staggered lines only if that is not enough */
    bool shrink = !stagger && d->col_labels && max_col_w + 6 > cw;
    /* up to HEATMAP_ALL_LABELS columns every one keeps its label, shortened
     * with "…" only when even its lines leave no room (an abbreviation, not
     * a cut: nothing wider would fit); past that, every k-th one */
    int col_step = all ? 1 : (int)ceilf((max_col_w + 6) / cw);
    if (col_step < 1) col_step = 1;
    float row_fs = all ? fminf(fs, fmaxf(ch / 1.25f, 7)) : fs;
    float row_lh = ui_line_height(ui, FONT_SANS, row_fs);
    int row_step = all ? 1 : (int)ceilf(lh / ch);
    /* cells lower than the smallest label's line: every k-th row keeps its label, so none is
     * printed over its neighbour */
    if (all && row_lh * 0.8f > ch) row_step = (int)ceilf(row_lh * 0.8f / ch);
    if (row_step < 1) row_step = 1;
    float label_y = axis_top.y + (axis_names ? lh * (axis_two_lines ? 2 : 1) + 2 : 0);
    float col_fs = stagger ? fs * 0.9f : shrink ? fs * 0.85f : fs;
    for (int j = 0; j < cols && d->col_labels; j += col_step) {
        float off = d->col_offset ? d->col_offset[j] * cw : 0;
        float cx = grid.x + (j + 0.5f) * cw + off;
        Color c = j == d->mark_col ? t->highlight : t->text;
        /* labels wider than their room (every one kept, few cells): shortened */
        if (stagger || (all && max_col_w * (shrink ? 0.85f : 1.0f) + 6 > cw)) {
            /* `lines` cells of room on its own line: never touches a neighbour */
            float y = label_y + lh * (float)(j % lines) + 1, room = cw * (float)lines;
            ui_label_abbrev(ui, (Rect){cx - room * 0.5f, y, room - 2, lh}, FONT_SANS, col_fs,
                            ALIGN_CENTER, c, d->col_labels[j]);
        } else {
            draw_text(ui->dl, FONT_SANS, col_fs, cx, label_y, ALIGN_CENTER, c, d->col_labels[j]);
        }
    }
    for (int i = 0; i < rows && d->row_labels; i += row_step) {
        float off = d->row_offset ? d->row_offset[i] * ch : 0;
        float cy = grid.y + (i + 0.5f) * ch + off;
        Color c = i == d->selected_row ? t->query : i == d->mark_row ? t->highlight : t->text;
        Rect lr = {grid.x - label_w, cy - row_lh * 0.5f, label_w - 6, row_lh};
        ui_label_fit(ui, lr, i == d->selected_row ? FONT_BOLD : FONT_SANS, row_fs, ALIGN_RIGHT, c,
                     d->row_labels[i]);
    }

    /* numbers inside cells, black or white for contrast with the cell colour,
     * growing with the cells up to the body text size for the back row. All
     * cells share one form: the most decimals that fit every cell with room
     * to spare, else 1.2e3, else none. */
    float ns = fminf(fminf(cw * 0.3f, ch * 0.62f), t->text_size + 2);
    float nlh = ui_line_height(ui, FONT_MONO, ns);
    int decimals = -1; /* -1: none fit */
    bool sci = false;
    /* readable means about 10 pixels on screen, whatever the zoom */
    float px = ui->px_scale > 0 ? ui->px_scale : 1;
    if (d->numbers && ns * px >= 10 && nlh <= ch && !moving) {
        for (int form = 0; form <= d->decimals + 1 && decimals < 0; form++) {
            bool try_sci = form == d->decimals + 1;
            int dec = try_sci ? 1 : d->decimals - form;
            float widest = 0;
            for (long k = 0; k < (long)rows * cols && widest + 4 <= cw; k++) {
                if (!isfinite(d->values[k])) continue;
                char buf[32];
                heatmap_number(d->values[k], dec, try_sci, buf, sizeof buf);
                widest = fmaxf(widest, ui_text_width(ui, FONT_MONO, ns, buf));
            }
            if (widest + 4 <= cw) {
                decimals = dec;
                sci = try_sci;
            }
        }
    }
    if (decimals >= 0) {
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                float v = d->values[i * cols + j];
                if (!isfinite(v) || (d->causal && j > i)) continue; /* masked: see the hover */
                if (d->hide_row_on && i == d->hide_row) continue;
                Color bg = colormap_sample(d->map, (v - d->vmin) / (d->vmax - d->vmin));
                Color fg = color_text_on(bg);
                char buf[32];
                heatmap_number(v, decimals, sci, buf, sizeof buf);
                if (t->plates) { /* high contrast: each number on a plate of its own */
                    float w = ui_text_width(ui, FONT_MONO, ns, buf) + 4;
                    draw_rect(ui->dl,
                              (Rect){grid.x + (j + 0.5f) * cw - w * 0.5f,
                                     grid.y + (i + 0.5f) * ch - nlh * 0.5f, w, nlh},
                              rgba(0, 0, 0, 255));
                    fg = rgba(255, 255, 255, 255);
                }
                draw_text(ui->dl, FONT_MONO, ns, grid.x + (j + 0.5f) * cw,
                          grid.y + (i + 0.5f) * ch - nlh * 0.5f, ALIGN_CENTER, fg, buf);
            }
        }
    }
    /* cell separators when cells are large enough to need them */
    if (cw >= 12 && ch >= 12) {
        for (int k = 1; k < rows; k++)
            draw_line(ui->dl, grid.x, grid.y + k * ch, grid.x + grid.w, grid.y + k * ch, 1,
                      t->cell_line);
        for (int k = 1; k < cols; k++)
            draw_line(ui->dl, grid.x + k * cw, grid.y, grid.x + k * cw, grid.y + grid.h, 1,
                      t->cell_line);
    }
    if (d->selected_row >= 0 && d->selected_row < rows)
        draw_rect_outline(ui->dl,
                          (Rect){grid.x - 1, grid.y + d->selected_row * ch - 1, grid.w + 2, ch + 2},
                          0, 2.5f, t->query);
    if (d->mark_row >= 0 && d->mark_col >= 0 && d->mark_row < rows && d->mark_col < cols)
        draw_rect_outline(ui->dl,
                          (Rect){grid.x + d->mark_col * cw, grid.y + d->mark_row * ch, cw, ch}, 0,
                          2.5f, t->highlight);

    if (show_legend) legend(ui, legend_r, d->vmin, d->vmax, d->map, legend_fmt);

    /* a row that waits for the lesson's prediction: blank, with a question mark */
    if (d->hide_row_on && d->hide_row >= 0 && d->hide_row < rows) {
        Rect row = {grid.x, grid.y + d->hide_row * ch, grid.w, ch};
        draw_rect(ui->dl, row, t->panel);
        draw_rect_outline(ui->dl, row, 0, t->line, t->highlight);
        float qs = fminf(ch * 0.7f, t->title_size);
        ui_label(ui, row, FONT_BOLD, qs, ALIGN_CENTER, t->highlight, _("? predict first"));
    }
    /* hover and click: cells and row labels */
    if (ui_hit(ui, grid)) {
        res->hover_col = (int)((ui->in.mx - grid.x) / cw);
        res->hover_row = (int)((ui->in.my - grid.y) / ch);
        if (res->hover_col >= cols) res->hover_col = cols - 1;
        if (res->hover_row >= rows) res->hover_row = rows - 1;
        if (d->hide_row_on && res->hover_row == d->hide_row) /* its numbers stay hidden */
            res->hover_row = res->hover_col = -1;
        if (ui->in.pressed) res->clicked_row = res->hover_row;
    }
    Rect labels = {grid.x - label_w, grid.y, label_w, grid.h};
    if (ui_hit(ui, labels) && ui->in.pressed) {
        int i = (int)((ui->in.my - grid.y) / ch);
        if (i >= 0 && i < rows) res->clicked_row = i;
    }
}
