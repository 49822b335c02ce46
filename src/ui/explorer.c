/* The explorer view: embedding plane, controls, S and A, the Q/K/V strips,
 * the query–key plane (d_k = 2) and the selected query's row and output.
 * Every panel is recomputed from the model each frame; edits go through
 * model actions. */
#include "../core/i18n.h"
#include "explorer.h"
#include "positions.h"

#include "heatmap.h"
#include "matrices.h"
#include "plane.h"

#define EXPLORER_COMPACT_W 1100.0f
#define EXPLORER_COMPACT_H 430.0f

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- embedding plane ------------------------------------------------------ */

/* A set of 64-bit keys with counts, for at most ATTN_MAX_TOKENS of them:
 * finding repeated words and points in O(n), since n reaches 512. */
typedef struct Key_Set {
    uint64_t key[2 * ATTN_MAX_TOKENS];
    int count[2 * ATTN_MAX_TOKENS];
} Key_Set;

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t k = 0; k < n; k++) h = (h ^ b[k]) * 0x100000001b3u;
    return h | 1; /* 0 marks a free slot */
}

/* The slot of key: where it is, or the free one where it goes. */
static int key_slot(const Key_Set *set, uint64_t key) {
    int k = (int)(key % (2 * ATTN_MAX_TOKENS));
    while (set->key[k] && set->key[k] != key) k = (k + 1) % (2 * ATTN_MAX_TOKENS);
    return k;
}

/* Count key once more; how many times it was there before. */
static int key_add(Key_Set *set, uint64_t key) {
    int k = key_slot(set, key);
    set->key[k] = key;
    return set->count[k]++;
}

static int key_count(const Key_Set *set, uint64_t key) {
    return set->count[key_slot(set, key)];
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
    if (ui_hidden_if(ui, r, _("Embeddings x_i"), "plane")) return;
    ui_panel(ui, r, _("Embeddings x_i"), false);
    ui_record(ui, "panel", "plane", -1, r);
    Rect body = rect_inset(r, t->pad);
    Rect head = rect_cut_top(&body, ui_line_height(ui, FONT_BOLD, t->title_size) + 4);
    if (vs->explorer.axis0 >= s->d) vs->explorer.axis0 = 0;
    if (vs->explorer.axis1 >= s->d) vs->explorer.axis1 = s->d > 1 ? 1 : 0;
    /* the layer's outputs y_i, back in embedding space, as arrows from x_i */
    float title_w0 = ui_text_width(ui, FONT_BOLD, t->title_size, _("Embeddings x_i")) + 8;
    if (head.w - title_w0 >= 120) {
        bool on = vs->y_arrows;
        if (ui_toggle(ui, "y_arrows", -1, rect_cut_right(&head, 110), "→ y_i", &on) & UI_CHANGED)
            vs->y_arrows = on;
        rect_cut_right(&head, 6);
    }
    if (s->d > 2) {
        /* beside the title when it fits, else on a row of their own */
        float title_w = ui_text_width(ui, FONT_BOLD, t->title_size, _("Embeddings x_i")) + 8;
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
        const float *Y = m->derived.Y;
        for (int i = 0; i < s->n; i++) {
            mx = fmaxf(mx, fabsf(s->X[i * s->d + a0]));
            mx = fmaxf(mx, fabsf(s->X[i * s->d + a1]));
            if (vs->y_arrows && Y) { /* the arrows' heads stay in the plot too */
                mx = fmaxf(mx, fabsf(s->X[i * s->d + a0] + Y[i * s->d + a0]));
                mx = fmaxf(mx, fabsf(s->X[i * s->d + a1] + Y[i * s->d + a1]));
            }
        }
        vs->explorer.plane_span = nice_span(fmaxf(mx * 1.15f, 1.0f));
    }
    Plane_Map pm = {
        .r = plot, .cx = 0, .cy = 0, .span = vs->explorer.plane_span, .axis0 = a0, .axis1 = a1};
    vs->explorer.plane = pm;

    /* grid, axes and ticks in data units */
    draw_rect(ui->dl, plot, t->plot);
    float step = pm.span / 2;
    /* tick labels never overprint: the outer ones sit inside the plot's
     * span (the x axis's ends aligned to its edges, the y axis's ends above
     * and below its corners), and when five do not fit across, three do */
    char widest[16];
    snprintf(widest, sizeof widest, "%g", (double)(-step));
    float tick_w = ui_text_width(ui, FONT_MONO, t->small_size, widest);
    bool every = tick_w + 6 <= plot.w / 4;
    for (int k = -2; k <= 2; k++) {
        float sx, sy;
        plane_to_screen(&pm, k * step, k * step, &sx, &sy);
        Color c = k == 0 ? t->text_dim : t->grid;
        draw_line(ui->dl, sx, plot.y, sx, plot.y + plot.h, k == 0 ? 1.5f : 1, c);
        draw_line(ui->dl, plot.x, sy, plot.x + plot.w, sy, k == 0 ? 1.5f : 1, c);
        if (!every && (k == -1 || k == 1)) continue;
        char tick[16];
        snprintf(tick, sizeof tick, "%g", (double)(k * step));
        draw_text(ui->dl, FONT_MONO, t->small_size, sx, plot.y + plot.h + 2,
                  k == -2  ? ALIGN_LEFT
                  : k == 2 ? ALIGN_RIGHT
                           : ALIGN_CENTER,
                  t->text_dim, tick);
        draw_text(ui->dl, FONT_MONO, t->small_size, plot.x - 4,
                  k == -2  ? sy - lh
                  : k == 2 ? sy
                           : sy - lh * 0.5f,
                  ALIGN_RIGHT, t->text_dim, tick);
    }
    char axes[48];
    snprintf(axes, sizeof axes, "x[%d] →   x[%d] ↑", a0, a1);
    draw_text(ui->dl, FONT_SANS, t->small_size, plot.x + 4, plot.y + 2, ALIGN_LEFT, t->text_dim,
              axes);
    Rect axes_box = {plot.x + 4, plot.y + 2, ui_text_width(ui, FONT_SANS, t->small_size, axes), lh};

    /* positions, when on: a faint arrow from x_i to x_i + p_i */
    const Derived *dv = &m->derived;
    draw_clip(ui->dl, plot);
    if (dv->has_p) {
        for (int i = 0; i < s->n; i++) {
            float x0, y0, x1, y1;
            plane_to_screen(&pm, s->X[i * s->d + a0], s->X[i * s->d + a1], &x0, &y0);
            plane_to_screen(&pm, dv->pass.head[0].Xp[i * s->d + a0],
                            dv->pass.head[0].Xp[i * s->d + a1], &x1, &y1);
            draw_arrow(ui->dl, x0, y0, x1, y1, 1.5f, 8, t->faint);
            draw_circle_outline(ui->dl, x1, y1, 4, 1.5f, t->faint);
        }
    }

    if (vs->y_arrows)
        for (int i = 0; i < s->n; i++) {
            float x0, y0, x1, y1;
            const float *x = &s->X[i * s->d], *y = &dv->Y[i * s->d];
            plane_to_screen(&pm, x[a0], x[a1], &x0, &y0);
            plane_to_screen(&pm, x[a0] + y[a0], x[a1] + y[a1], &x1, &y1);
            draw_arrow(ui->dl, x0, y0, x1, y1, 2, 9, t->value);
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
        snprintf(vs->hover_text, sizeof vs->hover_text,
                 _("dragging %s: x[%d] = %.2f, x[%d] = %.2f"), s->tokens[i], a0, (double)x, a1,
                 (double)y);
        if (ui->in.released || !ui->in.down) {
            vs->explorer.drag_point = -1;
            view_act(vs, action_of(ACTION_GESTURE_END));
        }
    }

    /* points first, then their labels; a label carries the position when
     * a word appears twice */
    float px[ATTN_MAX_TOKENS], py[ATTN_MAX_TOKENS], prad[ATTN_MAX_TOKENS];
    Color pc[ATTN_MAX_TOKENS];
    bool crowd = s->n > 40; /* many tokens: small dots */
    for (int i = 0; i < s->n; i++) {
        float sx, sy;
        plane_to_screen(&pm, s->X[i * s->d + a0], s->X[i * s->d + a1], &sx, &sy);
        px[i] = sx;
        py[i] = sy;
        ui_record(ui, "point", "token", i, (Rect){sx - hit_r, sy - hit_r, 2 * hit_r, 2 * hit_r});
        bool hov = (sx - ui->in.mx) * (sx - ui->in.mx) + (sy - ui->in.my) * (sy - ui->in.my) <=
                   hit_r * hit_r;
        if (hov && vs->explorer.drag_point < 0) {
            vs->hover_token = i;
            snprintf(vs->hover_text, sizeof vs->hover_text,
                     _("%s: x[%d] = %.2f, x[%d] = %.2f — drag to move this embedding"),
                     s->tokens[i], a0, (double)s->X[i * s->d + a0], a1,
                     (double)s->X[i * s->d + a1]);
        }
        pc[i] = i == vs->mark_key ? t->key : i == vs->selected ? t->query : t->text;
        prad[i] = (vs->explorer.drag_point == i || hov) ? 10 : crowd ? 4 : 8;
    }
    /* A word said twice has one embedding: its points coincide. Only the
     * last of identical points is drawn, the one on top (a pile of them
     * costs every pixel again on a software rasterizer and shows nothing
     * more). */
    static Key_Set seen;
    memset(&seen, 0, sizeof seen);
    bool hidden[ATTN_MAX_TOKENS];
    for (int i = s->n - 1; i >= 0; i--) {
        float key[3] = {px[i], py[i], prad[i]};
        hidden[i] = key_add(&seen, fnv(fnv(14695981039346656037u, key, sizeof key), &pc[i],
                                       sizeof pc[i])) > 0;
    }
    for (int i = 0; i < s->n; i++) {
        if (hidden[i]) continue;
        draw_circle(ui->dl, px[i], py[i], prad[i] + 2 * t->line, t->point_ring);
        draw_circle(ui->dl, px[i], py[i], prad[i], pc[i]);
    }
    /* words said more than once carry their position in their labels */
    memset(&seen, 0, sizeof seen);
    for (int i = 0; i < s->n; i++)
        key_add(&seen, fnv(14695981039346656037u, s->tokens[i], strlen(s->tokens[i])));
    /* Labels never pile up: the ones the eye is on first (dragged, hovered,
     * selected, the key in focus), then the rest in order, each above,
     * below, right or left of its point where it overlaps no label placed
     * before it; a label with no free place is left out (hover shows it). */
    Rect placed[ATTN_MAX_TOKENS + 1];
    int count = 0;
    float fsz = t->small_size + 1;
    placed[count++] = axes_box; /* the axes' caption in the corner */
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < s->n; i++) {
            bool focus = i == vs->explorer.drag_point || i == vs->hover_token ||
                         i == vs->selected || i == vs->mark_key;
            if (focus != (pass == 0)) continue;
            char label[64];
            bool dup = key_count(&seen, fnv(14695981039346656037u, s->tokens[i],
                                            strlen(s->tokens[i]))) > 1;
            char sub[24] = "";
            if (dup) subscript(i + 1, sub, sizeof sub);
            snprintf(label, sizeof label, "%s%s", s->tokens[i], sub);
            bool sel = i == vs->selected;
            Font_Id font = sel ? FONT_BOLD : FONT_SANS;
            float w = ui_text_width(ui, font, fsz, label);
            Rect spot;
            /* the one being looked at always says its name */
            if (!plane_label_spot(placed, count, px[i], py[i], prad[i] + 2, w, lh, false, &spot) &&
                !focus)
                continue;
            placed[count++] = spot;
            Color c = i == vs->mark_key ? t->key : sel ? t->query : t->text;
            draw_text(ui->dl, font, fsz, spot.x, spot.y, ALIGN_LEFT, c, label);
        }
    }
    draw_noclip(ui->dl);
}

/* ---- controls --------------------------------------------------------------- */

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
                                       .pow2 = true,
                                       .label = _("d_k — query/key width"),
                                       .short_label = "d_k",
                                       .format = "%.0f"});
    Rect num = {rk.x + rk.w - 70, rk.y, 70, rk.h * 0.5f};
    if (vs->typing_dk) {
        draw_round_rect(ui->dl, num, 4, t->field);
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
                view_set_status(vs, true, _("d_k not changed: %s"), why);
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

/* titled: with its own title (not under a tab that already names it) */
static void controls(Ui *ui, View_State *vs, const Model *m, Rect r, bool titled) {
    const Theme *t = ui->theme;
    const Scene *s = &m->scene;
    if (ui_hidden_if(ui, r, _("Controls"), "controls")) return;
    ui_panel(ui, r, titled ? _("Controls") : NULL, false);
    ui_record(ui, "panel", "controls", -1, r);
    Rect body = rect_inset(r, titled ? t->pad : 6);
    if (titled) rect_cut_top(&body, ui_line_height(ui, FONT_BOLD, t->title_size) + 6);
    /* narrow: the mask and H on rows of their own */
    bool narrow = body.w < 300;
    /* the five scheme buttons get a row of their own when there is room for
     * it; else a stepper shares the row with the scheme's number */
    bool pos_rows = !narrow && body.w >= positions_buttons_width(ui) && body.h / 8 >= 40;
    float row_h = fminf(48, body.h / (narrow ? 9.0f : pos_rows ? 8.0f : 7.0f));

    dk_slider(ui, vs, m, rect_cut_top(&body, row_h));

    Rect rv = rect_cut_top(&body, row_h);
    float dvv = (float)s->d_v;
    int res = ui_slider(ui, "dv", -1, rv, &dvv,
                        &(Slider_Desc){.min = 1,
                                       .max = ATTN_MAX_DV,
                                       .log = true,
                                       .integer = true,
                                       .label = _("d_v — value width"),
                                       .short_label = "d_v",
                                       .format = "%.0f"});
    if (res & UI_CHANGED) {
        view_slider_gesture(vs);
        view_act(vs, action_set(SET_DV, (int)dvv));
    }

    Rect rd = rect_cut_top(&body, row_h);
    float dd = (float)s->d;
    if (ui_slider(ui, "d", -1, rd, &dd,
                  &(Slider_Desc){.min = 1,
                                 .max = ATTN_MAX_D,
                                 .log = true,
                                 .integer = true,
                                 .label = _("d — embedding width"),
                                 .short_label = "d",
                                 .format = "%.0f"}) &
        UI_CHANGED) {
        view_slider_gesture(vs);
        view_act(vs, action_set(SET_D, (int)dd));
    }

    Rect row = rect_cut_top(&body, row_h);
    Rect half = rect_cut_left(&row, row.w * 0.5f);
    bool scaled = s->scaled;
    if (ui_toggle(ui, "scale", -1, half, "÷ √d_k", &scaled) & UI_CHANGED)
        view_act(vs, action_set(SET_SCALED, scaled));
    bool lock = vs->explorer.lock_range;
    if (ui_toggle(ui, "lock", -1, row, _("lock S"), &lock) & UI_CHANGED) {
        vs->explorer.lock_range = lock;
        vs->explorer.locked_smax = 0; /* taken from the current scores below */
    }

    Rect pos_row = rect_cut_top(&body, row_h);
    if (pos_rows || narrow)
        positions_controls(ui, vs, m, pos_row, rect_cut_top(&body, row_h));
    else
        positions_controls(ui, vs, m, rect_cut_left(&pos_row, pos_row.w * 0.5f), pos_row);

    /* the causal mask, and how many heads */
    row = rect_cut_top(&body, row_h);
    /* the switch's words need more room than H's slider, which narrows first */
    Rect mk = narrow ? row : rect_cut_left(&row, row.w * 0.58f);
    if (narrow) row = rect_cut_top(&body, row_h);
    bool causal = s->mask == MASK_CAUSAL;
    if (ui_toggle(ui, "mask", -1, mk, _("causal mask"), &causal) & UI_CHANGED)
        view_act(vs, action_set(SET_MASK, causal ? MASK_CAUSAL : MASK_NONE));
    float heads = (float)s->heads;
    if (ui_slider(ui, "heads", -1, row, &heads,
                  &(Slider_Desc){.min = 1,
                                 .max = ATTN_MAX_HEADS,
                                 .integer = true,
                                 .label = _("heads H"),
                                 .short_label = "H",
                                 .format = "%.0f"}) &
        UI_CHANGED) {
        view_slider_gesture(vs);
        view_act(vs, action_set(SET_HEADS, (int)heads));
    }

    row = rect_cut_top(&body, row_h);
    Rect seed_r = rect_cut_left(&row, row.w * 0.5f);
    char seed_label[48];
    snprintf(seed_label, sizeof seed_label, _("⟳ seed %u"), (unsigned)s->seed);
    if (ui_button(ui, "reroll", -1, rect_inset(seed_r, 4), seed_label, false) & UI_CLICKED)
        view_act(vs, action_set(SET_SEED, s->seed == 0xFFFFFFFFu ? 0 : s->seed + 1.0));
    Rect cm = rect_inset(row, 4);
    char cm_label[48];
    snprintf(cm_label, sizeof cm_label, "A: %s", colormap_name(vs->weight_map));
    if (ui_button(ui, "colormap", -1, cm, cm_label, false) & UI_CLICKED)
        vs->weight_map = vs->weight_map == COLORMAP_VIRIDIS ? COLORMAP_CIVIDIS : COLORMAP_VIRIDIS;
}

/* ---- layout -------------------------------------------------------------------- */

/* S and A side by side (or one over the other), with their hover and click. */
static void scores_and_weights(Ui *ui, View_State *vs, const Model *m, Rect sr, Rect ar,
                               const char *const *labels, bool compact) {
    const Theme *t = ui->theme;
    const Scene *s = &m->scene;
    const Attn *a = view_attn(vs, m);
    float smax = matrix_max_abs(a->S, (long)s->n * s->n);
    if (vs->explorer.lock_range) {
        if (vs->explorer.locked_smax <= 0) vs->explorer.locked_smax = smax;
        smax = vs->explorer.locked_smax;
    }
    char caption[160];
    bool causal = s->mask == MASK_CAUSAL;
    const char *masked = causal ? _(" · grey: masked, −∞ (a key after its query)") : "";
    if (compact) /* no legend: the caption gives the colour range */
        snprintf(caption, sizeof caption, _("%s, d_k = %d · colours ±%.2f%s%s"),
                 s->scaled ? "QKᵀ/√d_k" : _("QKᵀ (unscaled)"), s->d_k, (double)smax,
                 vs->explorer.lock_range ? _(" (locked)") : "", masked);
    else
        snprintf(caption, sizeof caption,
                 s->scaled ? "S = QKᵀ/√d_k,  d_k = %d%s%s" : _("S = QKᵀ (unscaled),  d_k = %d%s%s"),
                 s->d_k, vs->explorer.lock_range ? _(",  colours locked") : "", masked);
    char s_title[48], a_title[48];
    snprintf(s_title, sizeof s_title, "%s", _("Scores S"));
    snprintf(a_title, sizeof a_title, "%s", _("Weights A"));
    if (s->heads > 1) {
        snprintf(s_title, sizeof s_title, _("Scores S, head %d of %d"), vs->head + 1, s->heads);
        snprintf(a_title, sizeof a_title, _("Weights A, head %d of %d"), vs->head + 1, s->heads);
    }
    const float *offs = vs->animating ? vs->row_offset : NULL;
    Heatmap_Result hs, ha;
    ui_heatmap(ui,
               &(Heatmap_Desc){.name = "S",
                               .r = sr,
                               .title = s_title,
                               .caption = caption,
                               .values = a->S,
                               .rows = s->n,
                               .cols = s->n,
                               .vmin = -smax,
                               .vmax = smax,
                               .map = COLORMAP_DIVERGING,
                               .row_labels = labels,
                               .col_labels = labels,
                               .row_axis = N_("query"),
                               .col_axis = N_("key"),
                               .numbers = true,
                               .decimals = 2,
                               .selected_row = vs->selected,
                               .mark_row = -1,
                               .mark_col = -1,
                               .row_offset = offs,
                               .col_offset = offs,
                               .no_legend = compact,
                               .hide_row_on = vs->session.hide_row >= 0,
                               .hide_row = vs->session.hide_row},
               &hs);
    ui_heatmap(ui,
               &(Heatmap_Desc){.name = "A",
                               .r = ar,
                               .title = a_title,
                               .caption = causal    ? _("softmax of each row of S; masked weights "
                                                           "are exactly 0")
                                          : compact ? _("softmax of each row of S · colours 0 to 1")
                                                    : _("A = softmax of each row of S; each row "
                                                        "sums to 1"),
                               .causal = causal,
                               .values = a->A,
                               .rows = s->n,
                               .cols = s->n,
                               .vmin = 0,
                               .vmax = 1,
                               .map = vs->weight_map,
                               .row_labels = labels,
                               .col_labels = labels,
                               .row_axis = N_("query"),
                               .col_axis = N_("key"),
                               .numbers = true,
                               .decimals = 2,
                               .selected_row = vs->selected,
                               .mark_row = -1,
                               .mark_col = -1,
                               .row_offset = offs,
                               .col_offset = offs,
                               .no_legend = compact,
                               .hide_row_on = vs->session.hide_row >= 0,
                               .hide_row = vs->session.hide_row},
               &ha);
    const Heatmap_Result *hr = hs.hover_row >= 0 ? &hs : ha.hover_row >= 0 ? &ha : NULL;
    if (hr) {
        vs->hover_row = hr->hover_row;
        vs->hover_col = hr->hover_col;
        vs->hover_cell = (Rect){hr->grid.x + hr->hover_col * hr->cell_w,
                                hr->grid.y + hr->hover_row * hr->cell_h, hr->cell_w, hr->cell_h};
        vs->hover_grid[0] = hs.grid;
        vs->hover_grid[1] = ha.grid;
        vs->hover_panel[0] = sr;
        vs->hover_panel[1] = ar;
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
}

/* Room around the cells of a heatmap (title, captions, labels, padding),
 * for choosing how to arrange two of them. */
#define HEAT_EDGE_W 70.0f
#define HEAT_EDGE_H 120.0f

/* A row of tabs; returns the one chosen (clicked now, or as it was). */
static int tab_row(Ui *ui, const char *name, Rect r, const char *const *labels, int count,
                   int current) {
    float w = (r.w - 4.0f * (float)(count - 1)) / (float)count;
    for (int k = 0; k < count; k++) {
        Rect b = rect_cut_left(&r, w);
        rect_cut_left(&r, 4);
        if (ui_button(ui, name, k, b, _(labels[k]), k == current) & UI_CLICKED) current = k;
    }
    return current;
}

/* A lesson step names the panel it is about: show it. */
static void follow_lesson(View_State *vs) {
    const char *h = vs->session.active ? vs->session.highlight : "";
    Explorer_State *e = &vs->explorer;
    if (!strcmp(h, e->seen_highlight)) return;
    snprintf(e->seen_highlight, sizeof e->seen_highlight, "%s", h);
    static const struct {
        const char *panel;
        int main, side;
    } map[] = {{"S", 0, -1},     {"A", 0, -1},        {"heads", 0, -1}, {"Q", 1, -1},
               {"K", 1, -1},     {"V", 1, -1},        {"O", 1, -1},     {"qk_plane", 1, -1},
               {"query", 2, -1}, {"controls", -1, 0}, {"X", -1, 1}};
    for (size_t k = 0; k < sizeof map / sizeof *map; k++)
        if (!strcmp(h, map[k].panel)) {
            if (map[k].main >= 0) e->main_tab = map[k].main;
            if (map[k].side >= 0) e->side_tab = map[k].side;
        }
}

/* Small room (a lesson beside it, a projector's zoom): the plane stays in
 * sight on the left; the rest take turns in two tabbed areas, and a lesson
 * step turns to the panel it names. Cells get the room instead of shrinking
 * with every panel at once. */
static void layout_compact(Ui *ui, View_State *vs, const Model *m, Rect r,
                           const char *const *labels) {
    const Theme *t = ui->theme;
    Explorer_State *e = &vs->explorer;
    follow_lesson(vs);
    Rect left = rect_cut_left(&r, fminf(fmaxf(r.w * 0.33f, 200), 360));
    rect_cut_left(&r, t->pad);
    float tab_h = fminf(34, ui_line_height(ui, FONT_SANS, t->text_size) + 12);

    static const char *const mains[3] = {"S · A", "Q K V O", N_("Query")};
    e->main_tab = tab_row(ui, "main_tab", rect_cut_top(&r, tab_h), mains, 3, e->main_tab);
    rect_cut_top(&r, 6);
    if (e->main_tab == 0) {
        int n = m->scene.n;
        if (m->scene.heads > 1) {
            heads_strip(ui, vs, m, rect_cut_top(&r, fminf(80, r.h * 0.2f)));
            rect_cut_top(&r, 6);
        }
        /* side by side or stacked: whichever gives the bigger cells */
        float beside = fminf(((r.w - t->pad) * 0.5f - HEAT_EDGE_W) / n, (r.h - HEAT_EDGE_H) / n);
        float stacked = fminf((r.w - HEAT_EDGE_W) / n, ((r.h - t->pad) * 0.5f - HEAT_EDGE_H) / n);
        Rect sr = stacked > beside ? rect_cut_top(&r, (r.h - t->pad) * 0.5f)
                                   : rect_cut_left(&r, (r.w - t->pad) * 0.5f);
        if (stacked > beside)
            rect_cut_top(&r, t->pad);
        else
            rect_cut_left(&r, t->pad);
        scores_and_weights(ui, vs, m, sr, r, labels, true);
    } else if (e->main_tab == 1) {
        strips_panel(ui, vs, m, r, labels);
    } else {
        query_panel(ui, vs, m, r);
    }
    vs->mark_key = vs->hover_row >= 0 ? vs->hover_col : -1;

    Rect plane = rect_cut_top(&left, fminf(left.w, left.h * 0.5f));
    rect_cut_top(&left, t->pad);
    embedding_plane(ui, vs, m, plane);
    static const char *const sides[2] = {N_("Controls"), "X"};
    e->side_tab = tab_row(ui, "side_tab", rect_cut_top(&left, tab_h), sides, 2, e->side_tab);
    rect_cut_top(&left, 6);
    if (e->side_tab == 0)
        controls(ui, vs, m, left, false);
    else
        x_panel(ui, vs, m, left);
}

/* Presenting: S and A as big as the room allows, beside the panel the lesson
 * step names (the embedding plane when it names S, A or nothing). What the
 * step's goals need the student to touch stays on screen below it: the
 * controls, or the plane for a drag, so every goal can be met by hand. */
static void layout_presenter(Ui *ui, View_State *vs, const Model *m, Rect r, const char **labels) {
    const Theme *t = ui->theme;
    const char *h = vs->session.active ? vs->session.highlight : "";
    Lesson_Needs need = vs->session.active ? lesson_step_needs(vs->session.lesson, vs->session.step)
                                           : (Lesson_Needs){0};
    /* the panel the step names; the plane when it names S, A or nothing */
    enum {
        SIDE_PLANE,
        SIDE_CONTROLS,
        SIDE_X,
        SIDE_STRIPS,
        SIDE_QUERY
    } named = !strcmp(h, "controls")                                              ? SIDE_CONTROLS
              : !strcmp(h, "X")                                                   ? SIDE_X
              : (h[0] && strchr("QKVO", h[0]) && !h[1]) || !strcmp(h, "qk_plane") ? SIDE_STRIPS
              : !strcmp(h, "query")                                               ? SIDE_QUERY
                                                                                  : SIDE_PLANE;
    /* four strips side by side need half the width to keep their words */
    Rect side =
        rect_cut_left(&r, named == SIDE_STRIPS ? r.w * 0.5f : fminf(fmaxf(r.w * 0.28f, 220), 520));
    rect_cut_left(&r, t->pad);
    if (m->scene.heads > 1) {
        heads_strip(ui, vs, m, rect_cut_top(&r, fminf(96, r.h * 0.2f)));
        rect_cut_top(&r, t->pad);
    }
    Rect sr = rect_cut_left(&r, (r.w - t->pad) * 0.5f);
    rect_cut_left(&r, t->pad);
    scores_and_weights(ui, vs, m, sr, r, labels, false);
    vs->mark_key = vs->hover_row >= 0 ? vs->hover_col : -1;
    bool more_plane = need.plane && named != SIDE_PLANE;
    bool more_controls = need.controls && named != SIDE_CONTROLS;
    int extra = more_plane + more_controls;
    if (extra) { /* the named panel on top, what the goals need under it */
        Rect top = rect_cut_top(&side, (side.h - extra * t->pad) / (float)(extra + 1));
        if (more_plane) {
            rect_cut_top(&side, t->pad);
            Rect pr = more_controls ? rect_cut_top(&side, (side.h - t->pad) * 0.5f) : side;
            embedding_plane(ui, vs, m, pr);
        }
        if (more_controls) {
            rect_cut_top(&side, t->pad);
            controls(ui, vs, m, side, false);
        }
        side = top;
    }
    switch (named) {
    case SIDE_CONTROLS:
        controls(ui, vs, m, side, true);
        break;
    case SIDE_X:
        x_panel(ui, vs, m, side);
        break;
    case SIDE_STRIPS: /* the q–k plane sits beside the strips */
        strips_panel(ui, vs, m, side, labels);
        break;
    case SIDE_QUERY:
        query_panel(ui, vs, m, side);
        break;
    case SIDE_PLANE:
        embedding_plane(ui, vs, m, side);
        break;
    }
}

void explorer_frame(Ui *ui, View_State *vs, const Model *m, Rect r) {
    const Theme *t = ui->theme;
    const Scene *s = &m->scene;
    const char *labels[ATTN_MAX_TOKENS];
    for (int i = 0; i < s->n; i++) labels[i] = s->tokens[i];
    if (vs->presenter) {
        layout_presenter(ui, vs, m, r, labels);
        return;
    }
    if (r.w < EXPLORER_COMPACT_W || r.h < EXPLORER_COMPACT_H) {
        layout_compact(ui, vs, m, r, labels);
        return;
    }

    /* wide: plane+controls | S A over X and strips | query;  narrow: the
     * query panel joins the strips in the bottom row */
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
        right = rect_cut_right(&r, r.w * 0.42f);
        rect_cut_right(&r, t->pad);
    }
    if (s->heads > 1) {
        heads_strip(ui, vs, m, rect_cut_top(&heat, fminf(96, heat.h * 0.24f)));
        rect_cut_top(&heat, t->pad);
    }
    Rect sr = rect_cut_left(&heat, (heat.w - t->pad) * 0.5f);
    rect_cut_left(&heat, t->pad);
    /* the heatmaps first, so their hover can highlight the other panels */
    scores_and_weights(ui, vs, m, sr, heat, labels, false);
    vs->mark_key = vs->hover_row >= 0 ? vs->hover_col : -1;

    /* a panel's drag or slider asks for an action; the model stays as it
     * is until the next frame, so every panel here shows the same scene */
    Rect xr = rect_cut_left(&r, fminf(fmaxf(r.w * 0.16f, 140), 80.0f + 45.0f * (float)s->d));
    rect_cut_left(&r, t->pad);
    x_panel(ui, vs, m, xr);
    strips_panel(ui, vs, m, r, labels);
    embedding_plane(ui, vs, m, plane);
    controls(ui, vs, m, left, true);
    query_panel(ui, vs, m, right);
}
