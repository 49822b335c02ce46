/* The explorer view: embedding plane, controls, S and A, the Q/K/V strips,
 * the query–key plane (d_k = 2) and the selected query's row and output.
 * Every panel is recomputed from the model each frame; edits go through
 * model actions. */
#include "heatmap.h"
#include "explorer.h"

#include "../core/stats.h"

#include <cglm/cglm.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- embedding plane ------------------------------------------------------ */

/* Half the plot's side in pixels; never zero, so a 1-pixel window still maps. */
static float plane_half(const Plane_Map *p) {
    return fmaxf(fminf(p->r.w, p->r.h) * 0.5f, 1e-3f);
}

/* Data → screen as one 2D affine matrix: move the data centre to the
 * origin, scale (flipping y, which grows downward on screen), move to the
 * plot's centre. The inverse maps a drag back to data. */
static void plane_matrix(const Plane_Map *p, mat3 dest) {
    float k = plane_half(p) / p->span;
    glm_translate2d_make(dest, (vec2){p->r.x + p->r.w * 0.5f, p->r.y + p->r.h * 0.5f});
    glm_scale2d(dest, (vec2){k, -k});
    glm_translate2d(dest, (vec2){-p->cx, -p->cy});
}

void plane_to_screen(const Plane_Map *p, float x, float y, float *sx, float *sy) {
    mat3 m;
    plane_matrix(p, m);
    vec3 v;
    glm_mat3_mulv(m, (vec3){x, y, 1.0f}, v);
    *sx = v[0];
    *sy = v[1];
}

void plane_from_screen(const Plane_Map *p, float sx, float sy, float *x, float *y) {
    mat3 m, inv;
    plane_matrix(p, m);
    glm_mat3_inv(m, inv);
    vec3 v;
    glm_mat3_mulv(inv, (vec3){sx, sy, 1.0f}, v);
    *x = v[0];
    *y = v[1];
}

/* The smallest "nice" span (1, 1.5, 2, 3, 5 × 10^k) covering v. */
float nice_span(float v) {
    static const float steps[] = {1, 1.5f, 2, 3, 5};
    float base = powf(10, floorf(log10f(fmaxf(v, 1e-3f))));
    for (int k = 0; k < 5; k++)
        if (steps[k] * base >= v) return steps[k] * base;
    return 10 * base;
}

static void axis_picker(Ui *ui, View_State *vs, const Scene *s, Rect r, int which) {
    int *axis = which == 0 ? &vs->explorer.axis0 : &vs->explorer.axis1;
    char label[32];
    snprintf(label, sizeof label, "%s: x[%d] ▸", which == 0 ? "→" : "↑", *axis);
    if (ui_button(ui, which == 0 ? "axis_x" : "axis_y", -1, r, label, false) & UI_CLICKED) {
        /* cycle to the next coordinate not shown on the other axis */
        int other = which == 0 ? vs->explorer.axis1 : vs->explorer.axis0;
        do *axis = (*axis + 1) % s->d;
        while (*axis == other && s->d > 1);
    }
}

static void embedding_plane(Ui *ui, View_State *vs, const Model *m, Rect r) {
    const Theme *t = ui->theme;
    const Scene *s = &m->scene;
    ui_panel(ui, r, "Embeddings x_i", false);
    ui_record(ui, "panel", "plane", -1, r);
    Rect body = rect_inset(r, t->pad);
    Rect head = rect_cut_top(&body, ui_line_height(ui, FONT_BOLD, t->title_size) + 4);
    if (vs->explorer.axis0 >= s->d) vs->explorer.axis0 = 0;
    if (vs->explorer.axis1 >= s->d) vs->explorer.axis1 = s->d > 1 ? 1 : 0;
    if (s->d > 2) {
        /* beside the title when it fits, else on a row of their own */
        float title_w = ui_text_width(ui, FONT_BOLD, t->title_size, "Embeddings x_i") + 8;
        float pw = t->text_size * 5.6f;
        if (head.w - title_w < 2 * pw + 4) {
            head = rect_cut_top(&body, ui_line_height(ui, FONT_SANS, t->text_size) + 8);
            rect_cut_top(&body, 4);
        }
        Rect ay = rect_cut_right(&head, pw);
        rect_cut_right(&head, 4);
        axis_picker(ui, vs, s, ay, 1);
        axis_picker(ui, vs, s, rect_cut_right(&head, pw), 0);
    }
    int a0 = vs->explorer.axis0, a1 = s->d > 1 ? vs->explorer.axis1 : vs->explorer.axis0;
    float lh = ui_line_height(ui, FONT_MONO, t->small_size);
    Rect plot = body;
    rect_cut_left(&plot, 34);
    rect_cut_bottom(&plot, lh + 4);
    float side = fminf(plot.w, plot.h);
    plot = (Rect){plot.x + (plot.w - side) * 0.5f, plot.y, side, side};

    /* the range only changes while nothing is being dragged, so a point
     * never slides away from the cursor */
    if (vs->explorer.drag_point < 0) {
        float mx = 0;
        for (int i = 0; i < s->n; i++) {
            mx = fmaxf(mx, fabsf(s->X[i * s->d + a0]));
            mx = fmaxf(mx, fabsf(s->X[i * s->d + a1]));
        }
        vs->explorer.plane_span = nice_span(fmaxf(mx * 1.15f, 1.0f));
    }
    Plane_Map pm = {
        .r = plot, .cx = 0, .cy = 0, .span = vs->explorer.plane_span, .axis0 = a0, .axis1 = a1};
    vs->explorer.plane = pm;

    /* grid, axes and ticks in data units */
    draw_rect(ui->dl, plot, rgba(20, 22, 27, 255));
    float step = pm.span / 2;
    for (int k = -2; k <= 2; k++) {
        float sx, sy;
        plane_to_screen(&pm, k * step, k * step, &sx, &sy);
        Color c = k == 0 ? t->text_dim : t->grid;
        draw_line(ui->dl, sx, plot.y, sx, plot.y + plot.h, k == 0 ? 1.5f : 1, c);
        draw_line(ui->dl, plot.x, sy, plot.x + plot.w, sy, k == 0 ? 1.5f : 1, c);
        char tick[16];
        snprintf(tick, sizeof tick, "%g", (double)(k * step));
        draw_text(ui->dl, FONT_MONO, t->small_size, sx, plot.y + plot.h + 2, ALIGN_CENTER,
                  t->text_dim, tick);
        draw_text(ui->dl, FONT_MONO, t->small_size, plot.x - 4, sy - lh * 0.5f, ALIGN_RIGHT,
                  t->text_dim, tick);
    }
    char axes[48];
    snprintf(axes, sizeof axes, "x[%d] →   x[%d] ↑", a0, a1);
    draw_text(ui->dl, FONT_SANS, t->small_size, plot.x + 4, plot.y + 2, ALIGN_LEFT, t->text_dim,
              axes);

    /* positions, when on: a faint arrow from x_i to x_i + p_i */
    const Derived *dv = &m->derived;
    draw_clip(ui->dl, plot);
    if (dv->has_p) {
        for (int i = 0; i < s->n; i++) {
            float x0, y0, x1, y1;
            plane_to_screen(&pm, s->X[i * s->d + a0], s->X[i * s->d + a1], &x0, &y0);
            plane_to_screen(&pm, dv->attn.Xp[i * s->d + a0], dv->attn.Xp[i * s->d + a1], &x1, &y1);
            draw_arrow(ui->dl, x0, y0, x1, y1, 1.5f, 8, rgba(200, 200, 200, 110));
            draw_circle_outline(ui->dl, x1, y1, 4, 1.5f, rgba(200, 200, 200, 140));
        }
    }

    /* drag: press on a point, move, release = one undo step */
    const float hit_r = 14;
    if (vs->explorer.drag_point < 0 && ui->in.pressed && ui->active == 0 && ui_hit(ui, plot)) {
        float best = hit_r * hit_r;
        for (int i = 0; i < s->n; i++) {
            float sx, sy;
            plane_to_screen(&pm, s->X[i * s->d + a0], s->X[i * s->d + a1], &sx, &sy);
            float d2 = (sx - ui->in.mx) * (sx - ui->in.mx) + (sy - ui->in.my) * (sy - ui->in.my);
            if (d2 <= best) {
                best = d2;
                vs->explorer.drag_point = i;
                vs->explorer.drag_off_x = ui->in.mx - sx;
                vs->explorer.drag_off_y = ui->in.my - sy;
            }
        }
        if (vs->explorer.drag_point >= 0) {
            ui->active = ui_id("point", vs->explorer.drag_point);
            view_act(vs, action_of(ACTION_GESTURE_BEGIN));
        }
    }
    if (vs->explorer.drag_point >= 0) {
        int i = vs->explorer.drag_point;
        /* past the plot's edge the point stops at the edge, where it stays
         * in sight, rather than leaving the plot until the release */
        float x, y;
        float sx = fminf(fmaxf(ui->in.mx - vs->explorer.drag_off_x, plot.x), plot.x + plot.w);
        float sy = fminf(fmaxf(ui->in.my - vs->explorer.drag_off_y, plot.y), plot.y + plot.h);
        plane_from_screen(&pm, sx, sy, &x, &y);
        if (a0 == a1) y = x;
        if (s->X[i * s->d + a0] != x || s->X[i * s->d + a1] != y)
            view_act(vs, action_move(i, a0, x, a1, y));
        snprintf(vs->hover_text, sizeof vs->hover_text, "dragging %s: x[%d] = %.2f, x[%d] = %.2f",
                 s->tokens[i], a0, (double)x, a1, (double)y);
        if (ui->in.released || !ui->in.down) {
            vs->explorer.drag_point = -1;
            view_act(vs, action_of(ACTION_GESTURE_END));
        }
    }

    /* points; labels carry the position when a word appears twice */
    for (int i = 0; i < s->n; i++) {
        float sx, sy;
        plane_to_screen(&pm, s->X[i * s->d + a0], s->X[i * s->d + a1], &sx, &sy);
        ui_record(ui, "point", "token", i, (Rect){sx - hit_r, sy - hit_r, 2 * hit_r, 2 * hit_r});
        bool hov = (sx - ui->in.mx) * (sx - ui->in.mx) + (sy - ui->in.my) * (sy - ui->in.my) <=
                   hit_r * hit_r;
        if (hov && vs->explorer.drag_point < 0) {
            vs->hover_token = i;
            snprintf(vs->hover_text, sizeof vs->hover_text,
                     "%s: x[%d] = %.2f, x[%d] = %.2f — drag to move this embedding", s->tokens[i],
                     a0, (double)s->X[i * s->d + a0], a1, (double)s->X[i * s->d + a1]);
        }
        bool sel = i == vs->selected;
        Color c = sel ? t->query : t->text;
        if (i == vs->mark_key) c = t->key;
        /* many tokens: small dots, and labels only where the eye is */
        bool crowd = s->n > 40;
        float rad = (vs->explorer.drag_point == i || hov) ? 10 : crowd ? 4 : 8;
        draw_circle(ui->dl, sx, sy, rad + 2, rgba(0, 0, 0, 200));
        draw_circle(ui->dl, sx, sy, rad, c);
        if (crowd && !sel && !hov && i != vs->mark_key && vs->explorer.drag_point != i) continue;
        char label[64];
        bool dup = false;
        for (int k = 0; k < s->n; k++)
            if (k != i && strcmp(s->tokens[k], s->tokens[i]) == 0) dup = true;
        if (dup) {
            char sub[24];
            subscript(i + 1, sub, sizeof sub);
            snprintf(label, sizeof label, "%s%s", s->tokens[i], sub);
        } else {
            snprintf(label, sizeof label, "%s", s->tokens[i]);
        }
        /* a second identical point gets its label below instead of above */
        float ly = sy - rad - lh - 2;
        for (int k = 0; k < i; k++)
            if (s->X[k * s->d + a0] == s->X[i * s->d + a0] &&
                s->X[k * s->d + a1] == s->X[i * s->d + a1])
                ly = sy + rad + 2;
        draw_text(ui->dl, sel ? FONT_BOLD : FONT_SANS, t->small_size + 1, sx, ly, ALIGN_CENTER, c,
                  label);
    }
    draw_noclip(ui->dl);
}

/* ---- controls --------------------------------------------------------------- */

/* Positions on/off and their strength: in the explorer's controls and in the
 * permutation lab, the same switch and slider under the same ids. */
void positions_controls(Ui *ui, View_State *vs, const Model *m, Rect toggle, Rect slider,
                        const char *label) {
    const Scene *s = &m->scene;
    bool pos_on = s->pos == POS_SIN;
    if (ui_toggle(ui, "pos", -1, toggle, label, &pos_on) & UI_CHANGED)
        view_act(vs, action_set(SET_POS, pos_on ? POS_SIN : POS_NONE));
    float strength = s->pos_strength;
    if (ui_slider(
            ui, "pos_strength", -1, slider, &strength,
            &(Slider_Desc){
                .min = 0, .max = ATTN_MAX_POS_STRENGTH, .label = "strength", .format = "%.2f"}) &
        UI_CHANGED) {
        view_slider_gesture(vs);
        view_act(vs, action_set(SET_POS_STRENGTH, roundf(strength * 100) / 100));
    }
}

/* d_k: log-spaced slider; click the number to type one. Shared by the
 * explorer and the scaling lab. */
int dk_slider(Ui *ui, View_State *vs, const Model *m, Rect rk) {
    const Theme *t = ui->theme;
    const Scene *s = &m->scene;
    float dk = (float)s->d_k;
    int res = ui_slider(ui, "dk", -1, rk, &dk,
                        &(Slider_Desc){.min = 1,
                                       .max = ATTN_MAX_DK,
                                       .log = true,
                                       .integer = true,
                                       .label = "d_k — query/key width",
                                       .format = "%.0f"});
    Rect num = {rk.x + rk.w - 70, rk.y, 70, rk.h * 0.5f};
    if (vs->typing_dk) {
        draw_round_rect(ui->dl, num, 4, rgba(16, 18, 22, 255));
        draw_rect_outline(ui->dl, num, 4, 2, t->accent);
        char shown[16];
        snprintf(shown, sizeof shown, "%s|", vs->dk_text);
        ui_label(ui, rect_inset(num, 4), FONT_MONO, t->text_size, ALIGN_RIGHT, t->text, shown);
        for (const char *c = ui->in.text; *c; c++) {
            size_t len = strlen(vs->dk_text);
            if (*c >= '0' && *c <= '9' && len < 5) {
                vs->dk_text[len] = *c;
                vs->dk_text[len + 1] = '\0';
            }
        }
        if (ui_key(ui, KEY_BACKSPACE) && vs->dk_text[0])
            vs->dk_text[strlen(vs->dk_text) - 1] = '\0';
        if (ui_key(ui, KEY_ESCAPE)) vs->typing_dk = false;
        if (ui_key(ui, KEY_ENTER)) {
            /* the settings table says what d_k may be, and how to say it is not */
            double v;
            char why[200];
            if (setting_parse(setting(SET_DK), vs->dk_text, &v, why, sizeof why)) {
                view_act(vs, action_set(SET_DK, v));
                vs->typing_dk = false;
            } else {
                view_set_status(vs, true, "d_k not changed: %s", why);
            }
        }
    } else if (ui->in.pressed && ui_hit(ui, num)) {
        vs->typing_dk = true;
        vs->dk_text[0] = '\0';
        ui->active = ui_id("dk-type", 0);
    } else {
        if (res & UI_CHANGED) {
            view_slider_gesture(vs);
            view_act(vs, action_set(SET_DK, (int)dk));
        }
    }

    return res;
}

static void controls(Ui *ui, View_State *vs, const Model *m, Rect r) {
    const Theme *t = ui->theme;
    const Scene *s = &m->scene;
    ui_panel(ui, r, "Controls", false);
    ui_record(ui, "panel", "controls", -1, r);
    Rect body = rect_inset(r, t->pad);
    rect_cut_top(&body, ui_line_height(ui, FONT_BOLD, t->title_size) + 6);
    float row_h = fminf(48, body.h / 5.0f);

    dk_slider(ui, vs, m, rect_cut_top(&body, row_h));

    Rect rv = rect_cut_top(&body, row_h);
    float dvv = (float)s->d_v;
    int res = ui_slider(ui, "dv", -1, rv, &dvv,
                        &(Slider_Desc){.min = 1,
                                       .max = ATTN_MAX_DV,
                                       .log = true,
                                       .integer = true,
                                       .label = "d_v — value width",
                                       .format = "%.0f"});
    if (res & UI_CHANGED) {
        view_slider_gesture(vs);
        view_act(vs, action_set(SET_DV, (int)dvv));
    }

    Rect row = rect_cut_top(&body, row_h);
    Rect half = rect_cut_left(&row, row.w * 0.5f);
    bool scaled = s->scaled;
    if (ui_toggle(ui, "scale", -1, half, "÷ √d_k", &scaled) & UI_CHANGED)
        view_act(vs, action_set(SET_SCALED, scaled));
    bool lock = vs->explorer.lock_range;
    if (ui_toggle(ui, "lock", -1, row, "lock S", &lock) & UI_CHANGED) {
        vs->explorer.lock_range = lock;
        vs->explorer.locked_smax = 0; /* taken from the current scores below */
    }

    row = rect_cut_top(&body, row_h);
    Rect pos_l = rect_cut_left(&row, row.w * 0.5f);
    positions_controls(ui, vs, m, pos_l, row, "positions");

    row = rect_cut_top(&body, row_h);
    Rect seed_r = rect_cut_left(&row, row.w * 0.5f);
    char seed_label[48];
    snprintf(seed_label, sizeof seed_label, "⟳ seed %u", (unsigned)s->seed);
    if (ui_button(ui, "reroll", -1, rect_inset(seed_r, 4), seed_label, false) & UI_CLICKED)
        view_act(vs, action_set(SET_SEED, s->seed == 0xFFFFFFFFu ? 0 : s->seed + 1.0));
    Rect cm = rect_inset(row, 4);
    char cm_label[48];
    snprintf(cm_label, sizeof cm_label, "A: %s", colormap_name(vs->weight_map));
    if (ui_button(ui, "colormap", -1, cm, cm_label, false) & UI_CLICKED)
        vs->weight_map = vs->weight_map == COLORMAP_VIRIDIS ? COLORMAP_CIVIDIS : COLORMAP_VIRIDIS;
}

/* ---- selected query ---------------------------------------------------------- */

static void selected_query(Ui *ui, View_State *vs, const Model *m, Rect r) {
    const Theme *t = ui->theme;
    const Scene *s = &m->scene;
    const Attn *a = &m->derived.attn;
    int n = s->n, i = vs->selected;
    char title[96];
    snprintf(title, sizeof title, "Query %d: %s", i + 1, s->tokens[i]);
    ui_panel(ui, r, title, false);
    ui_record(ui, "panel", "query", -1, r);
    Rect body = rect_inset(r, t->pad);
    rect_cut_top(&body, ui_line_height(ui, FONT_BOLD, t->title_size) + 4);
    float fs = t->small_size, lh = ui_line_height(ui, FONT_SANS, fs);

    /* columns: key token | score s_ij (number, bar) | weight a_ij (bar with number) */
    /* the number column is never narrower than its widest number */
    float num_need = r.w > 1 ? (ui_text_width(ui, FONT_MONO, fs, "-00.00") + 8) / r.w : 0;
    const float col_num = fminf(fmaxf(0.17f, num_need), 0.4f), col_tok = 0.24f;
    /* too narrow for a useful bar: the score is the number alone */
    const float col_bar = r.w < 260 ? 0 : 0.41f - col_num;
    Rect hdr = rect_cut_top(&body, lh + 2);
    rect_cut_left(&hdr, hdr.w * col_tok);
    Rect hs = rect_cut_left(&hdr, r.w * (col_num + col_bar) - t->pad);
    bool short_hdr = r.w < 300;
    ui_label(ui, hs, FONT_SANS, fs, ALIGN_CENTER, t->text_dim, short_hdr ? "s_ij" : "score s_ij");
    ui_label(ui, hdr, FONT_SANS, fs, ALIGN_CENTER, t->text_dim, short_hdr ? "a_ij" : "weight a_ij");

    /* the o_i picture only when there is room for it */
    float out_h = body.h >= 330 ? fminf(body.h * 0.45f, 300) : 0;
    Rect out = rect_cut_bottom(&body, out_h);
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
    for (int j = 0; j < n; j++) smax = fmaxf(smax, fabsf(a->S[i * n + j]));
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
        snprintf(num, sizeof num, "%.2f", (double)sv);
        ui_label(ui, rect_inset(numr, 2), FONT_MONO, fs, ALIGN_RIGHT, t->text, num);
        if (col_bar > 0) {
            Rect bar = rect_inset(sc, 3);
            float mid = bar.x + bar.w * 0.5f, len = sv / smax * bar.w * 0.5f;
            Color sc_col = colormap_sample(COLORMAP_DIVERGING, 0.5f + 0.5f * sv / smax);
            draw_rect(ui->dl, (Rect){len < 0 ? mid + len : mid, bar.y + 2, fabsf(len), bar.h - 4},
                      sc_col);
            draw_line(ui->dl, mid, bar.y, mid, bar.y + bar.h, 1, t->text_dim);
        }
        Rect wb = rect_inset(row, 3);
        draw_rect(ui->dl, wb, rgba(20, 22, 27, 255));
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
    snprintf(line, sizeof line, "Σ_j a_ij = %.4f   max = %.3f", sum, mx);
    ui_label_fit(ui, (Rect){foot.x, foot.y + 4, foot.w, lh}, FONT_SANS, fs, ALIGN_LEFT, t->text,
                 line);
    snprintf(line, sizeof line, "entropy H = %.3f  (uniform ln %d = %.3f)", h, n, log((double)n));
    ui_label_fit(ui, (Rect){foot.x, foot.y + 4 + lh, foot.w, lh}, FONT_SANS, fs, ALIGN_LEFT,
                 t->text, line);

    /* o_i = Σ_j a_ij v_j, tip to tail in the plane of v[0], v[1] */
    if (out_h <= 0) return;
    draw_line(ui->dl, out.x, out.y, out.x + out.w, out.y, 1, t->panel_border);
    Rect oh = rect_cut_top(&out, lh + 6);
    ui_label(ui, oh, FONT_SANS, fs, ALIGN_LEFT, t->text,
             s->d_v >= 2 ? "o_i = Σ_j a_ij v_j   (v[0], v[1] plane)"
                         : "o_i = Σ_j a_ij v_j   (v[0])");
    int dv = s->d_v;
    float vmax = 0;
    for (int j = 0; j < n; j++)
        for (int c = 0; c < (dv >= 2 ? 2 : 1); c++) vmax = fmaxf(vmax, fabsf(a->V[j * dv + c]));
    vmax = nice_span(fmaxf(vmax * 1.1f, 0.5f));
    float side = fminf(out.w, out.h);
    Plane_Map pm = {.r = {out.x + (out.w - side) * 0.5f, out.y, side, side}, .span = vmax};
    draw_rect(ui->dl, pm.r, rgba(20, 22, 27, 255));
    float ox, oy;
    plane_to_screen(&pm, 0, 0, &ox, &oy);
    draw_line(ui->dl, pm.r.x, oy, pm.r.x + pm.r.w, oy, 1, t->grid);
    draw_line(ui->dl, ox, pm.r.y, ox, pm.r.y + pm.r.h, 1, t->grid);
    draw_clip(ui->dl, pm.r);
    for (int j = 0; j < n && n <= 64; j++) {
        float vx, vy;
        plane_to_screen(&pm, a->V[j * dv], dv >= 2 ? a->V[j * dv + 1] : 0, &vx, &vy);
        draw_circle(ui->dl, vx, vy, 3, j == vs->mark_key ? t->key : rgba(140, 146, 158, 255));
    }
    float px = 0, py = 0;
    for (int k = 0; k < n; k++) {
        int j = order[k];
        float w = a->A[i * n + j];
        float nx = px + w * a->V[j * dv], ny = py + (dv >= 2 ? w * a->V[j * dv + 1] : 0);
        float x0, y0, x1, y1;
        plane_to_screen(&pm, px, py, &x0, &y0);
        plane_to_screen(&pm, nx, ny, &x1, &y1);
        Color c = t->value;
        c.a = (unsigned char)(90 + 165 * w);
        if (j == vs->mark_key) c = t->key;
        draw_arrow(ui->dl, x0, y0, x1, y1, 2, 8, c);
        px = nx;
        py = ny;
    }
    float tx, ty;
    plane_to_screen(&pm, a->O[i * dv], dv >= 2 ? a->O[i * dv + 1] : 0, &tx, &ty);
    draw_arrow(ui->dl, ox, oy, tx, ty, 3, 12, t->query);
    draw_noclip(ui->dl);
    draw_text(ui->dl, FONT_BOLD, fs, tx + 6, ty - lh, ALIGN_LEFT, t->query, "o_i");
}

/* ---- Q, K, V strips and the query–key plane ---------------------------------- */

static float max_abs(const float *x, long count) {
    float m = 0;
    for (long k = 0; k < count; k++) m = fmaxf(m, fabsf(x[k]));
    return m > 1e-6f ? m : 1;
}

static void strips(Ui *ui, View_State *vs, const Model *m, Rect r, const char *const *labels) {
    const Theme *t = ui->theme;
    const Scene *s = &m->scene;
    const Attn *a = &m->derived.attn;
    int n = s->n;
    bool qk_plane = s->d_k == 2;
    /* with d_k = 2 the plane shows q and k as arrows; in a narrow window it
     * takes the place of their strips */
    bool show_qk_strips = !qk_plane || r.w >= 700;
    int panels = (show_qk_strips ? 3 : 1) + (qk_plane ? 1 : 0);
    float w = (r.w - t->pad * (panels - 1)) / panels;
    struct {
        const char *name, *title, *vec;
        const float *data;
        int cols;
        int mark;
    } kinds[3] = {
        {"Q", "Queries q_i", "q", a->Q, s->d_k, vs->hover_row >= 0 ? vs->hover_row : vs->selected},
        {"K", "Keys k_j", "k", a->K, s->d_k, vs->hover_col},
        {"V", "Values v_j", "v", a->V, s->d_v, vs->hover_col},
    };
    for (int k = show_qk_strips ? 0 : 2; k < 3; k++) {
        Rect pr = rect_cut_left(&r, w);
        rect_cut_left(&r, t->pad);
        float mx = max_abs(kinds[k].data, (long)n * kinds[k].cols);
        char caption[64];
        snprintf(caption, sizeof caption, "%d × %d, scale ±%.2f", n, kinds[k].cols, (double)mx);
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
                                   .row_labels = labels,
                                   .selected_row = k == 0 ? vs->selected : -1,
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
        if (k == 0 && hr.clicked_row >= 0) vs->selected = hr.clicked_row;
    }
    if (!qk_plane) return;
    /* d_k = 2: every q_i and k_j as arrows; ⟨q, k⟩ is length × length × cos(angle) */
    ui_panel(ui, r, "q and k  (d_k = 2)", false);
    ui_record(ui, "panel", "qk_plane", -1, r);
    Rect body = rect_inset(r, t->pad);
    rect_cut_top(&body, ui_line_height(ui, FONT_BOLD, t->title_size) + 4);
    float span = nice_span(fmaxf(max_abs(a->Q, (long)n * 2), max_abs(a->K, (long)n * 2)) * 1.1f);
    float side = fminf(body.w, body.h);
    Plane_Map pm = {.r = {body.x + (body.w - side) * 0.5f, body.y, side, side}, .span = span};
    draw_rect(ui->dl, pm.r, rgba(20, 22, 27, 255));
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

/* ---- layout -------------------------------------------------------------------- */

void explorer_frame(Ui *ui, View_State *vs, const Model *m, Rect r) {
    const Theme *t = ui->theme;
    const Scene *s = &m->scene;
    const Attn *a = &m->derived.attn;
    const char *labels[ATTN_MAX_TOKENS];
    for (int i = 0; i < s->n; i++) labels[i] = s->tokens[i];

    /* wide: plane+controls | S A over strips | query;  narrow: the query
     * panel joins the strips in the bottom row */
    bool wide = r.w >= 1350;
    float lw = wide ? fminf(fmaxf(r.w * 0.24f, 240), 430) : fminf(fmaxf(r.w * 0.27f, 250), 340);
    Rect left = rect_cut_left(&r, lw);
    rect_cut_left(&r, t->pad);
    Rect right;
    if (wide) {
        right = rect_cut_right(&r, fminf(fmaxf(r.w * 0.3f, 230), 420));
        rect_cut_right(&r, t->pad);
    }
    Rect plane = rect_cut_top(&left, left.h * 0.54f);
    rect_cut_top(&left, t->pad);

    Rect heat = rect_cut_top(&r, r.h * (wide ? 0.62f : 0.58f));
    rect_cut_top(&r, t->pad);
    if (!wide) {
        right = rect_cut_right(&r, r.w * 0.36f);
        rect_cut_right(&r, t->pad);
    }
    Rect sr = rect_cut_left(&heat, (heat.w - t->pad) * 0.5f);
    rect_cut_left(&heat, t->pad);

    /* draw the heatmaps first so their hover can highlight the other panels */
    float smax = max_abs(a->S, (long)s->n * s->n);
    if (vs->explorer.lock_range) {
        if (vs->explorer.locked_smax <= 0) vs->explorer.locked_smax = smax;
        smax = vs->explorer.locked_smax;
    }
    char caption[96];
    snprintf(caption, sizeof caption,
             s->scaled ? "S = QKᵀ/√d_k,  d_k = %d%s" : "S = QKᵀ (unscaled),  d_k = %d%s", s->d_k,
             vs->explorer.lock_range ? ",  colours locked" : "");
    const float *offs = vs->animating ? vs->row_offset : NULL;
    Heatmap_Result hs, ha;
    ui_heatmap(ui,
               &(Heatmap_Desc){.name = "S",
                               .r = sr,
                               .title = "Scores S",
                               .caption = caption,
                               .values = a->S,
                               .rows = s->n,
                               .cols = s->n,
                               .vmin = -smax,
                               .vmax = smax,
                               .map = COLORMAP_DIVERGING,
                               .row_labels = labels,
                               .col_labels = labels,
                               .row_axis = "query",
                               .col_axis = "key",
                               .numbers = true,
                               .decimals = 2,
                               .selected_row = vs->selected,
                               .mark_row = -1,
                               .mark_col = -1,
                               .row_offset = offs,
                               .col_offset = offs},
               &hs);
    ui_heatmap(ui,
               &(Heatmap_Desc){.name = "A",
                               .r = heat,
                               .title = "Weights A",
                               .caption = "A = softmax of each row of S; each row sums to 1",
                               .values = a->A,
                               .rows = s->n,
                               .cols = s->n,
                               .vmin = 0,
                               .vmax = 1,
                               .map = vs->weight_map,
                               .row_labels = labels,
                               .col_labels = labels,
                               .row_axis = "query",
                               .col_axis = "key",
                               .numbers = true,
                               .decimals = 2,
                               .selected_row = vs->selected,
                               .mark_row = -1,
                               .mark_col = -1,
                               .row_offset = offs,
                               .col_offset = offs},
               &ha);
    if (hs.hover_row >= 0) {
        vs->hover_row = hs.hover_row;
        vs->hover_col = hs.hover_col;
    } else if (ha.hover_row >= 0) {
        vs->hover_row = ha.hover_row;
        vs->hover_col = ha.hover_col;
    }
    int clicked = hs.clicked_row >= 0 ? hs.clicked_row : ha.clicked_row;
    if (clicked >= 0) vs->selected = clicked;
    /* the hovered cell, outlined in both heatmaps */
    if (vs->hover_row >= 0) {
        const Heatmap_Result *hm[2] = {&hs, &ha};
        for (int k = 0; k < 2; k++)
            draw_rect_outline(ui->dl,
                              (Rect){hm[k]->grid.x + vs->hover_col * hm[k]->cell_w,
                                     hm[k]->grid.y + vs->hover_row * hm[k]->cell_h, hm[k]->cell_w,
                                     hm[k]->cell_h},
                              0, 3, t->highlight);
    }
    vs->mark_key = vs->hover_row >= 0 ? vs->hover_col : -1;

    /* a panel's drag or slider asks for an action; the model stays as it
     * is until the next frame, so every panel here shows the same scene */
    strips(ui, vs, m, r, labels);
    embedding_plane(ui, vs, m, plane);
    controls(ui, vs, m, left);
    selected_query(ui, vs, m, right);
}
