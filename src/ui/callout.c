/* The presenter's hover callout: a hovered cell's arithmetic, large, placed
 * where it covers least; see callout.h. */
#include "callout.h"

#include "explain.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static float overlap(Rect a, Rect b) {
    float w = fminf(a.x + a.w, b.x + b.w) - fmaxf(a.x, b.x);
    float h = fminf(a.y + a.h, b.y + b.h) - fmaxf(a.y, b.y);
    return w > 0 && h > 0 ? w * h : 0;
}

/* Where a w × h callout for cell c goes: of the places beside, above and
 * below the cell, its grid and its panels, the one that covers least. It
 * must not cover the cell, its row or its column (in S and in A both), or
 * the headers above the cells; then as few other cells as may be. */
static Rect callout_place(const Ui *ui, const View_State *vs, int n, Rect c, float w, float h) {
    Rect keep[7] = {c};
    int kept = 1;
    float grid_right = c.x + c.w, grid_bottom = c.y + c.h, panels_left = c.x;
    if (vs->hover_row >= 0 && n > 0)
        for (int k = 0; k < 2; k++) {
            Rect g = vs->hover_grid[k], p = vs->hover_panel[k];
            float cw = g.w / (float)n, ch = g.h / (float)n;
            keep[kept++] = (Rect){g.x, g.y + ch * (float)vs->hover_row, g.w, ch}; /* its row */
            keep[kept++] = (Rect){g.x + cw * (float)vs->hover_col, g.y, cw, g.h}; /* column */
            keep[kept++] = (Rect){p.x, p.y, p.w, fmaxf(g.y - p.y, 0)};            /* headers */
            grid_right = fmaxf(grid_right, g.x + g.w);
            grid_bottom = fmaxf(grid_bottom, g.y + g.h);
            panels_left = fminf(panels_left, p.x);
        }
    float xs[] = {c.x + c.w + 12, c.x - 12 - w, grid_right + 12, panels_left - 12 - w, 4,
                  ui->w - 4 - w};
    float ys[] = {c.y + c.h + 12, c.y - 12 - h, grid_bottom + 12, ui->h - 4 - h, 4};
    Rect best = {0};
    float best_cost = INFINITY;
    for (size_t i = 0; i < sizeof xs / sizeof *xs; i++)
        for (size_t j = 0; j < sizeof ys / sizeof *ys; j++) {
            Rect b = {fminf(fmaxf(4, xs[i]), ui->w - 4 - w), fminf(fmaxf(4, ys[j]), ui->h - 4 - h),
                      w, h};
            float cost = hypotf(b.x - c.x, b.y - c.y) * 0.01f;
            for (int k = 0; k < kept; k++) cost += overlap(b, keep[k]) * 1000;
            if (vs->hover_row >= 0)
                for (int k = 0; k < 2; k++) cost += overlap(b, vs->hover_grid[k]);
            if (cost < best_cost) {
                best_cost = cost;
                best = b;
            }
        }
    return best;
}

void callout_hover(Ui *ui, const View_State *vs, const Model *m) {
    const Theme *t = ui->theme;
    char text[600];
    if (vs->hover_row >= 0 && vs->hover_col >= 0)
        explain_cell(m, view_attn(vs, m), vs->hover_row, vs->hover_col, text, sizeof text);
    else
        snprintf(text, sizeof text, "%s", vs->hover_text);
    if (!text[0] || ui->in.mx < 0 || ui->in.my < 0) return;
    /* the score's line and the weight's line (view_explain_cell parts them
     * with wide space), one under the other, so neither is cut */
    const char *lines[2] = {text, NULL};
    int len[2] = {(int)strlen(text), 0}, count = 1;
    char *gap = strstr(text, "     ");
    if (gap) {
        len[0] = (int)(gap - text);
        lines[1] = gap + strspn(gap, " ");
        len[1] = (int)strlen(lines[1]);
        count = 2;
    }
    float fs = t->title_size * 1.25f, lh = ui_line_height(ui, FONT_SANS, fs), tw = 0;
    for (int k = 0; k < count; k++)
        tw = fmaxf(tw, ui->tm.width(ui->tm.ctx, FONT_SANS, fs, lines[k], len[k]));
    float w = fminf(tw + 2 * t->pad, ui->w - 8), bh = count * lh + 2 * t->pad;
    Rect c = vs->hover_row >= 0 ? vs->hover_cell : (Rect){ui->in.mx, ui->in.my, 0, 0};
    Rect box = callout_place(ui, vs, m->scene.n, c, w, bh);
    draw_layer(ui->dl); /* over the panels and their text */
    draw_round_rect(ui->dl, box, t->radius, t->panel);
    draw_rect_outline(ui->dl, box, t->radius, 2 * t->line, t->highlight);
    ui_record(ui, "callout", "hover", -1, box);
    ui_block(ui, box);
    Rect in = rect_inset(box, t->pad);
    for (int k = 0; k < count; k++) {
        char one[400];
        snprintf(one, sizeof one, "%.*s", len[k], lines[k]);
        ui_label_fit(ui, (Rect){in.x, in.y + k * lh, in.w, lh}, FONT_SANS, fs, ALIGN_LEFT, t->text,
                     one);
    }
    draw_layer(ui->dl);
}
