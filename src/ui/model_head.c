/* The Model view's open head; see model_head.h. */
#include "model_head.h"

#include "../core/i18n.h"
#include "heatmap.h"
#include "view.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The shown tokens' labels, as model_open_head was given them. */
static struct {
    const char *const *ptr;
    int n;
} labels;

/* A row of count buttons sharing r, one of them picked (*now): a click picks another. Each is
 * as wide as its label plus an equal share of what is left, so no label is set smaller while
 * the row has room for all of them. */
/* How many rows the buttons take at this width: as many as it takes for
 * every label to show whole (a narrow panel, a longer language). */
static int button_rows(Ui *ui, const char *const *names, int count, float width, float *want) {
    const Theme *t = ui->theme;
    int rows = 1;
    float used = 0;
    for (int k = 0; k < count && k < 8; k++) {
        want[k] = ui_text_width(ui, FONT_SANS, t->text_size, _(names[k])) + t->text_size;
        if (used > 0 && used + want[k] > width) {
            rows++;
            used = 0;
        }
        used += want[k];
    }
    return rows;
}

float model_button_row_height(Ui *ui, const char *const *names, int count, float width) {
    float want[8], line = ui_line_height(ui, FONT_SANS, ui->theme->text_size) + 10;
    return (float)button_rows(ui, names, count, width, want) * (line + 4) - 4;
}

void model_button_row(Ui *ui, const char *name, const char *const *names, int count, Rect r,
                      int *now) {
    float want[8];
    int rows = button_rows(ui, names, count, r.w, want), first = 0;
    float row_h = rows > 1 ? (r.h + 4) / (float)rows - 4 : r.h;
    if (rows > 1 && row_h < ui_line_height(ui, FONT_SANS, ui->theme->text_size))
        rows = 1, row_h = r.h; /* no room for more rows: squeezed into one, as before */
    for (int row = 0; row < rows; row++) {
        /* the buttons of this row: as many as fit, the last row the rest */
        int last = first;
        float total = want[first];
        while (last + 1 < count && last + 1 < 8 &&
               (rows == 1 || row == rows - 1 || total + want[last + 1] <= r.w))
            total += want[++last];
        int n = last - first + 1;
        float extra = (r.w - total) / (float)n, x = r.x, y = r.y + row * (row_h + 4);
        for (int k = first; k <= last; k++) {
            float w = extra >= 0 ? want[k] + extra : r.w / (float)n;
            if (ui_button(ui, name, k, (Rect){x + 2, y, w - 4, row_h}, _(names[k]), *now == k) &
                UI_CLICKED)
                *now = k;
            x += w;
        }
        first = last + 1;
    }
}

/* BertViz's head view: each token on the left (a query) joined to the
 * tokens on the right (keys) by lines as thick as the weight; hovering a
 * token on the left shows only its lines. */
static void line_view(Ui *ui, View_State *vs, const Real_Lab *l, const float *A, Rect r) {
    const Theme *t = ui->theme;
    int n = l->shown_n;
    ui_record(ui, "panel", "model_lines", -1, r);
    float lh = ui_line_height(ui, FONT_SANS, t->small_size);
    float step = r.h / n;
    int every = step >= lh ? 1 : (int)ceilf(lh / step); /* labels that do not touch */
    float label_w = fminf(r.w * 0.3f, 140);
    float x0 = r.x + label_w + 6, x1 = r.x + r.w - label_w - 6;
    int focus = -1;
    if (ui->in.mx >= r.x && ui->in.mx < x0 && ui->in.my >= r.y && ui->in.my < r.y + r.h)
        focus = (int)((ui->in.my - r.y) / step);
    if (focus >= n) focus = -1;
    for (int i = 0; i < n; i++) {
        if (focus >= 0 && i != focus) continue;
        for (int j = 0; j <= i; j++) {
            float a = A[(ptrdiff_t)i * n + j];
            if (a < 0.02f) continue;
            Color c = t->accent;
            c.a = (unsigned char)(focus >= 0 ? 255 : 40 + 200 * a);
            draw_line(ui->dl, x0, r.y + (i + 0.5f) * step, x1, r.y + (j + 0.5f) * step,
                      fmaxf(1, a * fminf(step, 10)), c);
        }
    }
    for (int i = 0; i < n && i < labels.n; i++) {
        if (i % every && i != focus) continue;
        Color c = i == focus ? t->query : t->text;
        float y = r.y + (i + 0.5f) * step - lh * 0.5f;
        ui_label_abbrev(ui, (Rect){r.x, y, label_w, lh}, FONT_SANS, t->small_size, ALIGN_RIGHT, c,
                        labels.ptr[i]);
        ui_label_abbrev(ui, (Rect){x1 + 6, y, label_w, lh}, FONT_SANS, t->small_size, ALIGN_LEFT,
                        t->text, labels.ptr[i]);
    }
    if (focus >= 0)
        snprintf(vs->hover_text, sizeof vs->hover_text,
                 _("“%s” (query %d): its lines go to the keys it weighs, as thick as the weight"),
                 labels.ptr[focus], focus);
}

/* The open head's queries and keys on the two axes along which they spread
 * most together: a query near a key, in the direction that counts, is a
 * large q·k. The last token's strongest keys are joined to it. */
static void qk_plane(Ui *ui, View_State *vs, const Real_Lab *l, const float *A, Rect r) {
    const Theme *t = ui->theme;
    int n = l->shown_n;
    ui_record(ui, "panel", "model_plane", -1, r);
    float lh = ui_line_height(ui, FONT_SANS, t->small_size);
    char caption[160];
    snprintf(
        caption, sizeof caption,
        _("q (queries) and k (keys) of this head on their 2 main axes: %.0f %% of their spread"),
        100 * l->plane_share);
    float used = ui_text_wrapped(ui, r, FONT_SANS, t->small_size, t->text_dim, caption, true);
    rect_cut_top(&r, used + 4);
    /* which colour is which */
    Rect legend = rect_cut_top(&r, lh + 4);
    float x = legend.x + lh;
    const char *which[2] = {_("query"), _("key")};
    for (int k = 0; k < 2; k++) {
        Color c = k ? t->key : t->query;
        draw_circle(ui->dl, x, legend.y + lh * 0.5f, 5, c);
        draw_text(ui->dl, FONT_SANS, t->small_size, x + 9, legend.y, ALIGN_LEFT, c, which[k]);
        x += 9 + ui_text_width(ui, FONT_SANS, t->small_size, which[k]) + 2 * lh;
    }
    Rect note = {x, legend.y, legend.x + legend.w - x, 1e6f};
    float note_h = ui_text_wrapped(
        ui, note, FONT_SANS, t->small_size, t->text_dim,
        _("lines: the weights of the query under the pointer (else the last)"), true);
    rect_cut_top(&r, fmaxf(0, note_h - lh));
    Rect plot = rect_inset(r, lh);
    if (plot.w < 20 || plot.h < 20) return;
    ui_plot_area(ui, plot);
    float lo[2] = {0, 0}, hi[2] = {0, 0};
    for (int i = 0; i < 2 * n; i++)
        for (int c = 0; c < 2; c++) {
            lo[c] = fminf(lo[c], l->plane[i * 2 + c]);
            hi[c] = fmaxf(hi[c], l->plane[i * 2 + c]);
        }
    float span = fmaxf(fmaxf(hi[0] - lo[0], hi[1] - lo[1]), 1e-6f);
    float scale = fminf(plot.w, plot.h) / span * 0.9f;
    float cx = plot.x + plot.w * 0.5f - (lo[0] + hi[0]) * 0.5f * scale;
    float cy = plot.y + plot.h * 0.5f + (lo[1] + hi[1]) * 0.5f * scale;
#define PX(i) (cx + l->plane[(i)*2] * scale)
#define PY(i) (cy - l->plane[(i)*2 + 1] * scale)
    /* the point under the pointer: a query shows its own lines, a key names its weight */
    int hover = -1;
    float best = 12 * 12;
    for (int i = 0; i < 2 * n && ui_hit(ui, plot); i++) {
        float dx = PX(i) - ui->in.mx, dy = PY(i) - ui->in.my;
        if (dx * dx + dy * dy < best) best = dx * dx + dy * dy, hover = i;
    }
    int last = hover >= 0 && hover < n ? hover : n - 1; /* the query whose lines are drawn */
    for (int j = 0; j <= last; j++) {
        float a = A[(ptrdiff_t)last * n + j];
        if (a >= 0.05f)
            draw_line(ui->dl, PX(last), PY(last), PX(n + j), PY(n + j), fmaxf(1, 6 * a),
                      t->highlight);
    }
    if (hover >= n)
        snprintf(vs->hover_text, sizeof vs->hover_text,
                 _("key %d “%s”: query %d “%s” gives it %.3f of its weight"), hover - n,
                 labels.ptr[hover - n], last, labels.ptr[last],
                 hover - n <= last ? (double)A[(ptrdiff_t)last * n + hover - n] : 0.0);
    else if (hover >= 0)
        snprintf(vs->hover_text, sizeof vs->hover_text,
                 _("query %d “%s”: its lines go to the keys it weighs (0.05 or more)"), hover,
                 labels.ptr[hover]);
    /* names where they can be read: the query shown and the keys it weighs most first, then
     * the others while they do not land on a name already there */
    Rect placed[64];
    int count = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < 2 * n; i++) {
            bool key = i >= n;
            bool first =
                i == last || i == hover || (key && A[(ptrdiff_t)last * n + (i - n)] >= 0.2f);
            if (pass == 0) {
                draw_circle(ui->dl, PX(i), PY(i), i == last || i == hover ? 6 : 4,
                            key ? t->key : t->query);
                if (!first) continue;
            } else if (first) {
                continue;
            }
            const char *name = labels.ptr[key ? i - n : i];
            /* beside the point, else just under or over it, where no name is yet */
            static const float shift[4] = {0, 1, -1, 2};
            Rect box = {0};
            bool clear = false;
            for (int k = 0; k < 4 && !clear; k++) {
                box = (Rect){PX(i) + 6, PY(i) - lh * 0.5f + shift[k] * lh,
                             ui_text_width(ui, FONT_SANS, t->small_size, name), lh};
                clear = box.x + box.w <= plot.x + plot.w + lh;
                for (int q = 0; q < count && clear; q++)
                    clear = box.x >= placed[q].x + placed[q].w || placed[q].x >= box.x + box.w ||
                            box.y >= placed[q].y + placed[q].h || placed[q].y >= box.y + box.h;
            }
            if (!clear && pass == 1) continue;
            if (count < 64) placed[count++] = box;
            draw_text(ui->dl, FONT_SANS, t->small_size, box.x, box.y, ALIGN_LEFT,
                      key ? t->key : t->query, name);
        }
#undef PX
#undef PY
}

/* What every picture of a head's weights shares: one scale, 0 to 1, the tokens on both axes
 * (when named), the causal mask. */
static Heatmap_Desc weights_desc(const View_State *vs, int n, bool named) {
    return (Heatmap_Desc){.rows = n,
                          .cols = n,
                          .vmin = 0,
                          .vmax = 1,
                          .map = vs->weight_map,
                          .row_labels = named ? labels.ptr : NULL,
                          .col_labels = named ? labels.ptr : NULL,
                          .row_axis = N_("query"),
                          .col_axis = N_("key"),
                          .selected_row = -1,
                          .mark_row = -1,
                          .mark_col = -1,
                          .causal = true};
}

/* Two to four heads side by side, each as large as the panel allows, on one scale: a class
 * compares the previous-token head with the induction head, or a whole layer. */
static void compare_heads(Ui *ui, View_State *vs, const Real_Lab *l, const Net_Run *run, Rect r) {
    const Theme *t = ui->theme;
    const Net_Model *tm = &l->model->weights.model;
    int heads = tm->layers * tm->heads;
    if (vs->real_compare_n == 0 && l->open_layer >= 0) /* the open head starts the set */
        vs->real_compare[vs->real_compare_n++] = l->open_layer * tm->heads + l->open_head;
    int shown[4], count = 0;
    for (int k = 0; k < vs->real_compare_n; k++)
        if (vs->real_compare[k] >= 0 && vs->real_compare[k] < heads)
            shown[count++] = vs->real_compare[k];
    ui_record(ui, "panel", "model_compare", -1, r);
    float used =
        ui_text_wrapped(ui, r, FONT_SANS, t->small_size, t->text_dim,
                        _("Click heads in the grid to put them side by side or take them away "
                          "(up to 4). Each picture is A on the same scale, 0 to 1."),
                        true);
    rect_cut_top(&r, used + 6);
    if (count == 0) return;
    /* one row, or two rows of two: whichever gives the larger squares */
    int cols_one = count, cols_two = (count + 1) / 2;
    float one = fminf(r.w / (float)cols_one, r.h);
    float two = count > 2 ? fminf(r.w / (float)cols_two, r.h / 2) : 0;
    int cols = two > one ? cols_two : cols_one, rows = (count + cols - 1) / cols;
    float w = r.w / (float)cols, h = r.h / (float)rows;
    int n = l->shown_n;
    bool named = n <= 24;
    for (int k = 0; k < count; k++) {
        int layer = shown[k] / tm->heads, head = shown[k] % tm->heads;
        Rect cell = {r.x + (float)(k % cols) * w, r.y + (float)(k / cols) * h, w - 6, h - 6};
        char title[64];
        snprintf(title, sizeof title, _("Layer %d, head %d"), layer, head);
        Heatmap_Desc d = weights_desc(vs, n, named);
        d.name = "model_compared";
        d.r = cell;
        d.title = title;
        d.values = net_attn(run, layer, head);
        d.row_axis = d.col_axis = NULL; /* the titles say it; the cells get the room */
        Heatmap_Result res;
        ui_heatmap(ui, &d, &res);
        int i = res.hover_row, j = res.hover_col;
        if (i >= 0 && j >= 0 && i < labels.n && j < labels.n && j <= i)
            snprintf(vs->hover_text, sizeof vs->hover_text,
                     _("Layer %d, head %d: “%s” (query %d) puts %.1f %% of its weight on “%s” (key "
                       "%d)"),
                     layer, head, labels.ptr[i], i,
                     100.0 * net_attn(run, layer, head)[(ptrdiff_t)i * n + j], labels.ptr[j], j);
    }
}

/* What the pointer is on in either picture of the open head: the weight, the share of the row's
 * value-weighted total, and why a masked cell is empty. */
static void model_head_hover(View_State *vs, const Real_Lab *l, const float *A, int i, int j) {
    int n = l->shown_n;
    if (i < 0 || j < 0 || i >= labels.n || j >= labels.n) return;
    if (j > i) {
        snprintf(vs->hover_text, sizeof vs->hover_text,
                 _("A[%d][%d] is masked: “%s” (query %d) cannot see a later token"), i, j,
                 labels.ptr[i], i);
    } else if (!l->head_done) {
        snprintf(vs->hover_text, sizeof vs->hover_text,
                 _("A[%d][%d] = %.3f: “%s” (query %d) puts %.1f %% of its weight on “%s” (key %d)"),
                 i, j, (double)A[(ptrdiff_t)i * n + j], labels.ptr[i], i,
                 100.0 * A[(ptrdiff_t)i * n + j], labels.ptr[j], j);
    } else {
        snprintf(vs->hover_text, sizeof vs->hover_text,
                 _("A[%d][%d] = %.3f: “%s” (query %d) puts %.1f %% of its weight on “%s” (key %d), "
                   "whose value adds ‖v W_O‖ = %.3g: %.1f %% of what the row adds"),
                 i, j, (double)A[(ptrdiff_t)i * n + j], labels.ptr[i], i,
                 100.0 * A[(ptrdiff_t)i * n + j], labels.ptr[j], j, (double)l->norm[j],
                 100.0 * l->weighted_share[(ptrdiff_t)i * n + j]);
    }
}

void model_open_head(Ui *ui, View_State *vs, const Model *m, const char *const *names, int count,
                     bool lit, Rect r) {
    const Real_Lab *l = &m->real;
    labels.ptr = names;
    labels.n = count;
    const Theme *t = ui->theme;
    const Net_Run *run = real_lab_shown(l);
    char title[200];
    const Net_Model *tm = l->model ? &l->model->weights.model : NULL;
    if (tm && tm->kv_heads > 0 && tm->kv_heads < tm->heads && l->open_head >= 0) {
        /* grouped-query attention: the keys and values this head reads are shared */
        int per = tm->heads / tm->kv_heads, g = l->open_head / per;
        snprintf(title, sizeof title,
                 _("Layer %d, head %d · keys and values of key/value head %d, shared by heads %d "
                   "to %d"),
                 l->open_layer, l->open_head, g, g * per, g * per + per - 1);
    } else {
        snprintf(title, sizeof title, _("Layer %d, head %d"), l->open_layer, l->open_head);
    }
    if (l->open_layer < 0 || !run) snprintf(title, sizeof title, "%s", _("No head open"));
    float title_h = ui_panel_wrapped(ui, r, title, lit);
    ui_record(ui, "panel", "model_open", -1, r);
    Rect body = rect_inset(r, t->pad);
    rect_cut_top(&body, title_h + 4);
    if (l->open_layer < 0 || !run) {
        ui_text_wrapped(ui, body, FONT_SANS, t->text_size, t->text_dim,
                        _("Click a head in the grid to open it."), true);
        return;
    }
    int n = l->shown_n;
    /* how to show it: heatmaps, lines, or queries and keys in a plane */
    Rect modes = rect_cut_top(&body, ui_line_height(ui, FONT_SANS, t->text_size) + 10);
    rect_cut_top(&body, 6);
    static const char *const mode_names[5] = {N_("weights"), N_("lines"), N_("q · k plane"),
                                              N_("compare"), N_("without RoPE")};
    bool rope = tm && tm->rope_theta > 0; /* the fifth mode: only where there is a turn */
    if (!rope && vs->real_head_mode == 4) vs->real_head_mode = 0;
    const char *explore = _("explore ↗");
    Rect ex = rect_cut_right(&modes, ui_text_width(ui, FONT_SANS, t->text_size, explore) +
                                         t->text_size * 1.2f);
    rect_cut_right(&modes, 6);
    char why[200];
    if (model_explore_check(m, why, sizeof why)) {
        if (ui_button(ui, "model_explore", -1, ex, explore, false) & UI_CLICKED)
            view_act(vs, action_of(ACTION_REAL_EXPLORE));
    } else if (!ui_hides(ui, "model_explore")) { /* off, and the pointer on it says why */
        ui_record(ui, "disabled", "model_explore", -1, ex);
        draw_round_rect(ui->dl, ex, t->radius, t->panel);
        draw_rect_outline(ui->dl, ex, t->radius, 1, t->panel_border);
        ui_label_fit(ui, rect_inset(ex, 4), FONT_SANS, t->text_size, ALIGN_CENTER, t->text_dim,
                     explore);
        if (ui_hit(ui, ex))
            snprintf(vs->hover_text, sizeof vs->hover_text, _("Not in the explorer: %s"), why);
    }
    model_button_row(ui, "model_head_mode", mode_names, rope ? 5 : 4, modes, &vs->real_head_mode);
    if (vs->real_head_mode == 3) {
        compare_heads(ui, vs, l, run, body);
        return;
    }
    if (vs->real_head_mode == 1) {
        line_view(ui, vs, l, net_attn(run, l->open_layer, l->open_head), body);
        return;
    }
    if (vs->real_head_mode == 2) {
        if (l->head_done) qk_plane(ui, vs, l, net_attn(run, l->open_layer, l->open_head), body);
        return;
    }
    bool named = n <= 40;
    /* side by side or one above the other: whichever gives the larger cells */
    bool side = fminf(body.w * 0.5f, body.h) >= fminf(body.w, body.h * 0.5f);
    Rect a =
        side ? rect_cut_left(&body, body.w * 0.5f - 4) : rect_cut_top(&body, body.h * 0.5f - 4);
    if (side)
        rect_cut_left(&body, 8);
    else
        rect_cut_top(&body, 8);
    /* both pictures on one scale, 0 to 1, with a legend each: every row of A sums to 1, and
     * the value-weighted picture shows each row as shares of its own total, so a column that
     * fades from the first to the second is weight that adds little */
    const float *A = net_attn(run, l->open_layer, l->open_head);
    Heatmap_Desc d = weights_desc(vs, n, named);
    d.name = "model_A";
    d.r = a;
    d.title = _("A: the weights");
    d.caption = tm && tm->rope_theta > 0
                    ? _("softmax(q·k/√d_h), q and k turned by their positions (RoPE), masked; 0 "
                        "to 1, each row sums to 1")
                    : _("softmax(q·k/√d_h), masked; 0 to 1, each row sums to 1");
    d.values = A;
    Heatmap_Result res;
    ui_heatmap(ui, &d, &res);
    int hover_i = res.hover_row, hover_j = res.hover_col;
    if (!l->head_done) {
        model_head_hover(vs, l, A, hover_i, hover_j);
        return;
    }
    char caption[300];
    if (vs->real_head_mode == 4 && l->unturned) { /* the same q and k, not turned */
        snprintf(caption, sizeof caption,
                 _("the same q and k without RoPE's turn; 0 to 1, each row sums to 1. The turn "
                   "moves %.0f %% of a row's weight, on average"),
                 100 * l->turn_moves);
        d.name = "model_unturned";
        d.r = body;
        d.title = _("Without the turn");
        d.caption = caption;
        d.values = l->unturned;
        d.mark_row = res.hover_row;
        d.mark_col = res.hover_col;
        Heatmap_Result ures;
        ui_heatmap(ui, &d, &ures);
        if (hover_i < 0) hover_i = ures.hover_row, hover_j = ures.hover_col;
        model_head_hover(vs, l, A, hover_i, hover_j);
        return;
    }
    d.name = "model_weighted";
    d.r = body;
    d.title = _("Weighted by what each value adds");
    d.caption = _("a_ij·‖v_j W_O‖ as a share of its row; 0 to 1, each row sums to 1");
    d.values = l->weighted_share;
    d.mark_row = res.hover_row; /* the cell the pointer is on in A, marked here too */
    d.mark_col = res.hover_col;
    Heatmap_Result wres;
    ui_heatmap(ui, &d, &wres);
    if (hover_i < 0) hover_i = wres.hover_row, hover_j = wres.hover_col;
    model_head_hover(vs, l, A, hover_i, hover_j);
}
