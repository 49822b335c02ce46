/* The Train view's layers model; see layers_view.h. */
#include "../core/i18n.h"
#include "layers_view.h"

#include "heatmap.h"
#include "positions.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- before the layout ------------------------------------------------------ */

bool layers_update(const Ui *ui, View_State *vs, Model *m) {
    /* the controls' asks came as actions (model_apply), before this update */
    Stack_Lab *l = &m->stack;
    if (m->layers && !l->ready && !stack_lab_run(l, 0)) {
        view_set_status(vs, true, _("Out of memory for the layers lab"));
        m->layers = false;
    }
    if (!m->layers) return false;
    /* playing: a watchable pace by default, so the phase change takes a few
     * seconds; fast runs what a frame affords. The steps are the same steps
     * either way: the result depends on the seed and the step count only */
    double t = ui->in.time;
    if (l->running) {
        long slice;
        if (l->fast) {
            slice = LAYERS_FAST_UNITS / stack_lab_step_cost(l);
        } else {
            double dt = vs->layers_t0 > 0 && t > vs->layers_t0 ? t - vs->layers_t0 : 0;
            l->owed = fmin(l->owed + dt * LAYERS_PACE, 4);
            slice = (long)l->owed;
            l->owed -= (double)slice;
        }
        if (slice > 0) stack_lab_run(l, slice);
    }
    vs->layers_t0 = t;
    vs->train_running = l->running;
    if (t - vs->train_rate_t0 >= 1.0 || t < vs->train_rate_t0) {
        long done = l->stack.steps - vs->train_rate_steps0;
        vs->train_rate = t > vs->train_rate_t0 && done > 0 ? done / (t - vs->train_rate_t0) : 0;
        vs->train_rate_t0 = t;
        vs->train_rate_steps0 = l->stack.steps;
    }
    stack_lab_derive(l);
    return true;
}

/* ---- the panels ---------------------------------------------------------------- */

static bool lit(const View_State *vs, const char *name) {
    return vs->session.active && !strcmp(vs->session.highlight, name);
}

/* A row of buttons 1 … 4 under one name, with a label before them. */
static int count_row(Ui *ui, const char *name, const char *label, Rect row, int now) {
    const Theme *t = ui->theme;
    Rect lab = rect_cut_left(&row, fminf(row.w * 0.3f, 90));
    ui_label_fit(ui, lab, FONT_SANS, t->text_size, ALIGN_LEFT, t->text, label);
    int picked = 0;
    float w = row.w / 4;
    static const char *const digits[4] = {"1", "2", "3", "4"};
    for (int k = 0; k < 4; k++) {
        Rect b = {row.x + k * w + 2, row.y + 3, w - 4, row.h - 6};
        if (ui_button(ui, name, k + 1, b, digits[k], now == k + 1) & UI_CLICKED && now != k + 1)
            picked = k + 1;
    }
    return picked;
}

static void controls(Ui *ui, View_State *vs, const Stack_Lab *l, Rect r) {
    const Theme *t = ui->theme;
    const Stack *s = &l->stack;
    ui_panel(ui, r, _("Train layers"), lit(vs, "layers_controls"));
    ui_record(ui, "panel", "layers_controls", -1, r);
    Rect body = rect_inset(r, t->pad);
    rect_cut_top(&body, ui_line_height(ui, FONT_BOLD, t->title_size) + 6);
    float row_h = fminf(44, body.h / 9.0f);
    Rect row = rect_cut_top(&body, row_h);
    const Ui_Strip_Button run[4] = {{"layers_play", l->running ? "❚❚" : "▶", l->running},
                                    {"layers_more", "+100", false},
                                    {"layers_fast", _("fast"), l->fast},
                                    {"layers_reset", "⟲", false}};
    static const Action_Kind asks[4] = {ACTION_LAB_PLAY, ACTION_LAB_STEPS, ACTION_LAB_FAST,
                                        ACTION_LAB_RESET};
    int clicked = ui_button_strip(ui, row, run, 4);
    if (clicked >= 0)
        view_act(vs, (Action){.kind = asks[clicked], .i = LAB_LAYERS, .n = 100}); /* +100 */
    int picked =
        count_row(ui, "layers_count", _("layers"), rect_cut_top(&body, row_h), s->desc.layers);
    if (picked) view_act(vs, action_lab_set(LAB_LAYERS, LAB_KNOB_LAYERS, picked));
    picked = count_row(ui, "layers_heads", _("heads"), rect_cut_top(&body, row_h), s->desc.heads);
    if (picked) view_act(vs, action_lab_set(LAB_LAYERS, LAB_KNOB_HEADS, picked));
    static const char *const ids[3] = {"layers_pos", "layers_pos_prev", "layers_pos_next"};
    picked = positions_pick_first(ui, ids, rect_cut_top(&body, row_h), (int)s->desc.pos, 4);
    if (picked >= 0) view_act(vs, action_lab_set(LAB_LAYERS, LAB_KNOB_POS, picked));
    /* where training stands */
    char text[600], phase[80], zeroed[160] = "";
    double chance = log((double)s->desc.vocab);
    if (l->phase_step >= 0)
        snprintf(phase, sizeof phase, _("phase change at step %ld"), l->phase_step);
    else
        snprintf(phase, sizeof phase, "%s", _("no phase change yet"));
    int count = stack_lab_ablated(l);
    if (count)
        snprintf(zeroed, sizeof zeroed,
                 i18n_plural(" · %d head zeroed: in-context loss %.2f with it, %.2f without",
                             " · %d heads zeroed: in-context loss %.2f with them, %.2f without",
                             (unsigned long)count),
                 count, l->last.in_context_loss, l->shown.in_context_loss);
    rect_cut_top(&body, 6);
    /* the long form where it fits, else the numbers alone; the note under it
     * only where it fits whole */
    snprintf(text, sizeof text,
             _("step %ld · held-out loss %.2f · in-context loss %.2f (chance ln %d = %.2f) · %s · "
               "%.0f steps/s%s%s"),
             s->steps, l->shown.loss, l->shown.in_context_loss, s->desc.vocab, chance, phase,
             vs->train_rate, l->fast ? "" : _(" (a watchable pace; “fast” for more)"), zeroed);
    if (ui_text_wrapped(ui, body, FONT_SANS, t->text_size, t->text, text, false) > body.h)
        snprintf(text, sizeof text,
                 _("step %ld · loss %.2f · in-context %.2f (chance %.2f) · %s%s"), s->steps,
                 l->shown.loss, l->shown.in_context_loss, chance, phase, zeroed);
    float used = ui_text_wrapped(ui, body, FONT_SANS, t->text_size, t->text, text, true);
    rect_cut_top(&body, used + 8);
    const char *note =
        _("Attention only, as in the papers' toy models: no MLP, no LayerNorm. Blocks "
          "of 3 to 12 random tokens repeat to fill 24 places.");
    if (ui_text_wrapped(ui, body, FONT_SANS, t->small_size, t->text_dim, note, false) <= body.h)
        ui_text_wrapped(ui, body, FONT_SANS, t->small_size, t->text_dim, note, true);
}

/* A step axis from 0 to the last step measured. */
static float step_x(Rect plot, long step, long last) {
    return plot.x + plot.w * (last > 0 ? (float)step / (float)last : 0);
}

static Color layer_colour(const Theme *t, int layer) {
    const Color c[4] = {t->key, t->query, t->value, t->highlight};
    return c[layer % 4];
}

/* A legend row: a short line of each colour and its name; short names
 * when the long ones do not fit. */
static void legend(Ui *ui, Rect row, int count, const Color *colours, const float *widths,
                   const char *const *names, const char *const *short_names) {
    const Theme *t = ui->theme;
    float need = 0;
    for (int k = 0; k < count; k++)
        need += 36 + ui_text_width(ui, FONT_SANS, t->small_size, names[k]);
    const char *const *use = need <= row.w ? names : short_names;
    float x = row.x, lh = ui_line_height(ui, FONT_SANS, t->small_size);
    for (int k = 0; k < count; k++) {
        float w = ui_text_width(ui, FONT_SANS, t->small_size, use[k]);
        if (x + 22 + w > row.x + row.w) break;
        draw_line(ui->dl, x, row.y + lh * 0.5f + 2, x + 18, row.y + lh * 0.5f + 2, widths[k],
                  colours[k]);
        draw_text(ui->dl, FONT_SANS, t->small_size, x + 22, row.y + 2, ALIGN_LEFT, t->text, use[k]);
        x += 36 + w;
    }
}

/* The loss and the in-context loss, with chance and the phase change. */
static void loss_plot(Ui *ui, const View_State *vs, const Stack_Lab *l, Rect r) {
    const Theme *t = ui->theme;
    if (ui_hidden_if(ui, r, _("Loss"), "layers_loss")) return;
    float title_h = ui_panel_wrapped(ui, r, _("Held-out loss"), lit(vs, "layers_loss"));
    ui_record(ui, "panel", "layers_loss", -1, r);
    Rect body = rect_inset(r, t->pad);
    rect_cut_top(&body, title_h + 4);
    float lh = ui_line_height(ui, FONT_SANS, t->small_size);
    Rect key = rect_cut_bottom(&body, lh + 4);
    Rect ticks = rect_cut_bottom(&body, lh + 2);
    Rect yax = rect_cut_left(&body, 30);
    Rect plot = body;
    if (plot.h < 2 * lh) return;
    ui_plot_area(ui, plot);
    const float top = 4.5f;
    float unit = plot.h / top;
    for (int v = 0; v <= 4; v++) {
        float sy = plot.y + plot.h * (1 - v / top);
        char buf[24];
        snprintf(buf, sizeof buf, "%d", v);
        draw_line(ui->dl, plot.x, sy, plot.x + plot.w, sy, 1, t->grid);
        if (unit >= lh || v % 2 == 0)
            draw_text(ui->dl, FONT_MONO, t->small_size, yax.x + yax.w - 4, sy - lh * 0.5f,
                      ALIGN_RIGHT, t->text_dim, buf);
    }
    double chance = log((double)l->stack.desc.vocab);
    float cy = plot.y + plot.h * (1 - (float)chance / top);
    draw_line(ui->dl, plot.x, cy, plot.x + plot.w, cy, 2, t->faint);
    long last = l->points ? l->at[l->points - 1] : 0;
    char buf[64];
    snprintf(buf, sizeof buf, _("%ld steps"), last);
    draw_text(ui->dl, FONT_MONO, t->small_size, plot.x + plot.w, ticks.y + 2, ALIGN_RIGHT,
              t->text_dim, buf);
    draw_text(ui->dl, FONT_MONO, t->small_size, plot.x, ticks.y + 2, ALIGN_LEFT, t->text_dim, "0");
    Color colours[3] = {t->accent, t->query, t->faint};
    const float widths[3] = {3, 3, 2};
    char chance_name[32];
    snprintf(chance_name, sizeof chance_name, _("chance ln %d"), l->stack.desc.vocab);
    const char *const names[3] = {_("all positions"), _("repeated tokens"), chance_name};
    const char *const short_names[3] = {_("all"), _("repeated"), _("chance")};
    legend(ui, key, 3, colours, widths, names, short_names);
    if (l->points >= 2)
        for (int c = 0; c < 2; c++) {
            const float *v = c ? l->in_context : l->loss;
            float px = 0, py = 0;
            for (int k = 0; k < l->points; k++) {
                float sx = step_x(plot, l->at[k], last);
                float sy = plot.y + plot.h * (1 - fminf(fmaxf(v[k], 0), top) / top);
                if (k) draw_line(ui->dl, px, py, sx, sy, 2.5f, colours[c]);
                px = sx;
                py = sy;
            }
        }
    if (l->phase_step >= 0 && last > 0) { /* over the curves, so it stays readable */
        float px = step_x(plot, l->phase_step, last);
        draw_line(ui->dl, px, plot.y, px, plot.y + plot.h, 2, t->good);
        snprintf(buf, sizeof buf, _("phase change, step %ld"), l->phase_step);
        float w = ui_text_width(ui, FONT_SANS, t->small_size, buf);
        bool left = px + 6 + w > plot.x + plot.w;
        draw_text(ui->dl, FONT_SANS, t->small_size, left ? px - 6 : px + 6, plot.y + 2,
                  left ? ALIGN_RIGHT : ALIGN_LEFT, t->good, buf);
    }
}

/* Per head, the prefix-matching (thick) and previous-token (thin) scores. */
static void score_plot(Ui *ui, const View_State *vs, const Stack_Lab *l, Rect r) {
    const Theme *t = ui->theme;
    if (ui_hidden_if(ui, r, _("Head scores"), "layers_scores")) return;
    float title_h = ui_panel_wrapped(ui, r, _("Head scores"), lit(vs, "layers_scores"));
    ui_record(ui, "panel", "layers_scores", -1, r);
    Rect body = rect_inset(r, t->pad);
    rect_cut_top(&body, title_h + 4);
    float lh = ui_line_height(ui, FONT_SANS, t->small_size);
    Rect key = rect_cut_bottom(&body, lh + 4);
    Rect kinds = rect_cut_bottom(&body, lh + 4);
    rect_cut_bottom(&body, lh * 0.5f + 2); /* the 0 of the axis is half below the plot */
    Rect yax = rect_cut_left(&body, 30);
    Rect plot = body;
    if (plot.h < 2 * lh) return;
    ui_plot_area(ui, plot);
    for (int v = 0; v <= 4; v++) {
        float sy = plot.y + plot.h * (1 - v / 4.0f);
        char buf[24];
        snprintf(buf, sizeof buf, "%.2g", v / 4.0);
        draw_line(ui->dl, plot.x, sy, plot.x + plot.w, sy, v == 2 ? 1.5f : 1,
                  v == 2 ? t->faint : t->grid);
        if (v % 2 == 0)
            draw_text(ui->dl, FONT_MONO, t->small_size, yax.x + yax.w - 4, sy - lh * 0.5f,
                      ALIGN_RIGHT, t->text_dim, buf);
    }
    const Stack_Desc *d = &l->stack.desc;
    Color colours[STACK_MAX_LAYERS];
    float widths[STACK_MAX_LAYERS];
    const char *const names[STACK_MAX_LAYERS] = {_("layer 0"), _("layer 1"), _("layer 2"),
                                                 _("layer 3")};
    const char *const short_names[STACK_MAX_LAYERS] = {"0", "1", "2", "3"};
    for (int a = 0; a < d->layers; a++) colours[a] = layer_colour(t, a), widths[a] = 3;
    legend(ui, key, d->layers, colours, widths, names, short_names);
    const Color dim[2] = {t->text_dim, t->text_dim};
    const float kind_w[2] = {3.5f, 1.5f};
    const char *const kind[2] = {_("prefix match"), _("previous token")};
    const char *const kind_short[2] = {"prefix", "previous"};
    legend(ui, kinds, 2, dim, kind_w, kind, kind_short);
    if (l->points < 2) return;
    long last = l->at[l->points - 1];
    for (int a = 0; a < d->layers; a++)
        for (int h = 0; h < d->heads; h++)
            for (int c = 0; c < 2; c++) {
                const float *v =
                    c ? l->prefix_match[a * d->heads + h] : l->prev_token[a * d->heads + h];
                float px = 0, py = 0;
                for (int k = 0; k < l->points; k++) {
                    float sx = step_x(plot, l->at[k], last);
                    float sy = plot.y + plot.h * (1 - fminf(fmaxf(v[k], 0), 1));
                    if (k) draw_line(ui->dl, px, py, sx, sy, c ? 3.5f : 1.5f, layer_colour(t, a));
                    px = sx;
                    py = sy;
                }
            }
}

static const char *const token_labels[STACK_MAX_VOCAB] = {
    "0",  "1",  "2",  "3",  "4",  "5",  "6",  "7",  "8",  "9",  "10", "11", "12", "13", "14", "15",
    "16", "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28", "29", "30", "31",
    "32", "33", "34", "35", "36", "37", "38", "39", "40", "41", "42", "43", "44", "45", "46", "47",
    "48", "49", "50", "51", "52", "53", "54", "55", "56", "57", "58", "59", "60", "61", "62", "63"};

/* One head: its A on the example over its "zero it" and "explore ↗". */
static void head_card(Ui *ui, View_State *vs, const Stack_Lab *l, int a, int h, Rect c) {
    const Theme *t = ui->theme;
    const Stack *s = &l->stack;
    int n = s->desc.context;
    float lh = ui_line_height(ui, FONT_SANS, t->small_size);
    const char *tokens[STACK_MAX_CONTEXT];
    for (int i = 0; i < n; i++) tokens[i] = token_labels[s->held_tokens[i]];
    bool zeroed = l->ablated[a][h];
    Rect foot = rect_cut_bottom(&c, fminf(36, lh + 14));
    float bwid = fminf((foot.w - 4) * 0.5f, 130);
    int id = a * STACK_MAX_HEADS + h;
    if (ui_button(ui, "layers_ablate", id, rect_inset(rect_cut_left(&foot, bwid), 2),
                  zeroed ? "zeroed" : _("zero it"), zeroed) &
        UI_CLICKED)
        view_act(vs, (Action){.kind = ACTION_LAB_ZERO, .i = LAB_LAYERS, .c0 = a, .c1 = h});
    if (ui_button(ui, "layers_explore", id, rect_inset(rect_cut_right(&foot, bwid), 2),
                  _("explore ↗"), false) &
        UI_CLICKED)
        view_act(vs, (Action){.kind = ACTION_LAB_EXPLORE, .i = LAB_LAYERS, .c0 = a, .c1 = h});
    static float A[STACK_MAX_CONTEXT * STACK_MAX_CONTEXT];
    const double *src = stack_attention((Stack *)s, a, h);
    for (int k = 0; k < n * n; k++) A[k] = zeroed ? 0 : (float)src[k];
    char title[64], caption[64];
    snprintf(title, sizeof title, c.w >= 200 ? _("layer %d · head %d%s") : "L%d · H%d%s", a, h,
             zeroed ? _(" · zeroed") : "");
    snprintf(caption, sizeof caption, _("prefix %.2f · prev %.2f"), l->last.prefix_match[a][h],
             l->last.prev_token[a][h]);
    /* the tokens label the rows and columns when a cell can hold one */
    bool named = fminf(c.w, c.h - 3 * lh) / (n + 2) >= lh * 0.9f;
    static const char *const names[STACK_LAB_HEADS] = {
        "layers_A_0_0", "layers_A_0_1", "layers_A_0_2", "layers_A_0_3",
        "layers_A_1_0", "layers_A_1_1", "layers_A_1_2", "layers_A_1_3",
        "layers_A_2_0", "layers_A_2_1", "layers_A_2_2", "layers_A_2_3",
        "layers_A_3_0", "layers_A_3_1", "layers_A_3_2", "layers_A_3_3"};
    Heatmap_Result res;
    ui_heatmap(ui,
               &(Heatmap_Desc){.name = names[id],
                               .r = c,
                               .title = title,
                               .caption = caption,
                               .values = A,
                               .rows = n,
                               .cols = n,
                               .vmin = 0,
                               .vmax = 1,
                               .map = vs->weight_map,
                               .row_labels = named ? tokens : NULL,
                               .col_labels = named ? tokens : NULL,
                               .selected_row = -1,
                               .mark_row = -1,
                               .mark_col = -1,
                               .no_legend = true,
                               .causal = true},
               &res);
}

/* Too many heads for the room: a button a head (its prefix match on it), a
 * row a layer, and the picked head's card beside them, with the
 * K-composition into it from the layer before as text. */
static void heads_compact(Ui *ui, View_State *vs, const Stack_Lab *l, Rect body) {
    const Theme *t = ui->theme;
    const Stack_Desc *d = &l->stack.desc;
    int L = d->layers, H = d->heads;
    int pick = vs->layers_pick;
    int pa = pick / STACK_MAX_HEADS, ph = pick % STACK_MAX_HEADS;
    if (pa >= L || ph >= H) pa = ph = 0;
    float lh = ui_line_height(ui, FONT_SANS, t->small_size);
    float bh = fminf(34, fmaxf(lh + 10, body.h / (2.0f * L + 2)));
    bool beside = body.w >= 2 * body.h * 0.8f;
    Rect table = beside ? rect_cut_left(&body, fminf(body.w * 0.4f, H * 96.0f))
                        : rect_cut_top(&body, L * (bh + 3));
    if (beside)
        rect_cut_left(&body, t->pad);
    else
        rect_cut_top(&body, t->pad);
    float bw = table.w / H;
    for (int a = 0; a < L; a++)
        for (int h = 0; h < H; h++) {
            /* its prefix match too where the button has room */
            char label[400]; /* room for any double: the compiler cannot see the score is in [0, 1]
                              */
            const char *zero = l->ablated[a][h] ? " ×" : "";
            snprintf(label, sizeof label, "L%d H%d %.2f%s", a, h, l->last.prefix_match[a][h], zero);
            if (ui_text_width(ui, FONT_SANS, t->text_size, label) + 14 > bw - 2)
                snprintf(label, sizeof label, "L%d H%d%s", a, h, zero);
            if (ui_text_width(ui, FONT_SANS, t->text_size, label) + 14 > bw - 2)
                snprintf(label, sizeof label, "%d·%d%s", a, h, zero);
            Rect b = {table.x + h * bw + 1, table.y + a * (bh + 3), bw - 2, bh};
            if (ui_button(ui, "layers_pick", a * STACK_MAX_HEADS + h, b, label,
                          a == pa && h == ph) &
                UI_CLICKED)
                vs->layers_pick = a * STACK_MAX_HEADS + h;
        }
    if (pa > 0 && (beside ? table.h - L * (bh + 3) : body.h) > 3 * lh) {
        /* what its keys read from the layer before */
        char text[200];
        snprintf(text, sizeof text, _("K-composition from layer %d:"), pa - 1);
        size_t used;
        for (int g = 0; g < H; g++) {
            used = strlen(text);
            snprintf(text + used, sizeof text - used, " H%d %.2f", g, l->k_comp[pa - 1][g][pa][ph]);
        }
        if (beside) {
            Rect note = {table.x, table.y + L * (bh + 3) + 6, table.w, 4 * lh};
            ui_text_wrapped(ui, note, FONT_SANS, t->small_size, t->text_dim, text, true);
        } else {
            ui_label_fit(ui, rect_cut_top(&body, lh + 4), FONT_SANS, t->small_size, ALIGN_LEFT,
                         t->text_dim, text);
        }
    }
    head_card(ui, vs, l, pa, ph, body);
}

/* Every head's A on the example: a column a layer, left to right, a row a
 * head; the K-composition arrows from each column to the next. */
static void heads_grid(Ui *ui, View_State *vs, const Stack_Lab *l, Rect r) {
    const Theme *t = ui->theme;
    if (ui_hidden_if(ui, r, _("Every head"), "layers_heads")) return;
    const Stack_Desc *d = &l->stack.desc;
    int L = d->layers, H = d->heads;
    Rect body = rect_inset(r, t->pad);
    float lh = ui_line_height(ui, FONT_SANS, t->small_size);
    float gap = fmaxf(ui_text_width(ui, FONT_MONO, t->small_size, "0.00") + 24, 56);
    float foot_h = fminf(36, lh + 14);
    /* each picture at least 72 units (3 a position), else one at a time */
    float title_full = 3 * ui_line_height(ui, FONT_BOLD, t->title_size);
    float col_w = (body.w - gap * (L - 1)) / L;
    float card_h = (body.h - title_full - t->pad * (H - 1)) / H;
    bool all = col_w >= 96 && card_h - foot_h - 3 * lh >= 72;
    float title_h = ui_panel_wrapped(ui, r,
                                     all ? _("Every head's A on one held-out sequence · arrows: "
                                             "how much a head's keys read what "
                                             "a head of the layer before writes (K-composition)")
                                         : _("Each head's A on one held-out sequence: pick a head"),
                                     lit(vs, "layers_heads"));
    ui_record(ui, "panel", "layers_heads", -1, r);
    rect_cut_top(&body, title_h + 4);
    if (!all) {
        heads_compact(ui, vs, l, body);
        return;
    }
    card_h = (body.h - t->pad * (H - 1)) / H;
    Rect cards[STACK_MAX_LAYERS][STACK_MAX_HEADS];
    for (int a = 0; a < L; a++)
        for (int h = 0; h < H; h++) {
            cards[a][h] =
                (Rect){body.x + a * (col_w + gap), body.y + h * (card_h + t->pad), col_w, card_h};
            head_card(ui, vs, l, a, h, cards[a][h]);
        }
    /* K-composition from each layer to the next: random weights score about
     * 1/√w; the arrow thickens from there to full at 0.5 */
    double base = 1 / sqrt((double)d->width);
    for (int a = 0; a + 1 < L; a++)
        for (int h = 0; h < H; h++)
            for (int g = 0; g < H; g++) {
                double k = l->k_comp[a][h][a + 1][g];
                Rect from = cards[a][h], to = cards[a + 1][g];
                float x0 = from.x + from.w + 3,
                      y0 = from.y + from.h * (0.3f + 0.4f * (g + 0.5f) / H);
                float x1 = to.x - 3, y1 = to.y + to.h * (0.3f + 0.4f * (h + 0.5f) / H);
                float strength = (float)fmax(0, fmin(1, (k - base) / (0.5 - base)));
                Color c = t->accent;
                c.a = (unsigned char)(100 + 155 * strength);
                draw_arrow(ui->dl, x0, y0, x1, y1, 1.5f + 6 * strength, 8 + 5 * strength, c);
                char buf[16];
                snprintf(buf, sizeof buf, "%.2f", k);
                float f = H > 1 ? 0.25f + 0.5f * (g + 0.5f) / H : 0.5f;
                draw_text(ui->dl, FONT_MONO, t->small_size, x0 + (x1 - x0) * f,
                          y0 + (y1 - y0) * f - lh - 4, ALIGN_CENTER, t->text, buf);
            }
}

/* A lesson step names the panel it is about: the tabbed layout turns to it. */
static void follow_lesson(View_State *vs) {
    const char *h = vs->session.active ? vs->session.highlight : "";
    if (!strcmp(h, vs->layers_seen_highlight)) return;
    snprintf(vs->layers_seen_highlight, sizeof vs->layers_seen_highlight, "%s", h);
    if (!strcmp(h, "layers_loss")) vs->layers_tab = 0;
    if (!strcmp(h, "layers_scores")) vs->layers_tab = 1;
    if (!strcmp(h, "layers_heads")) vs->layers_tab = 2;
}

void layers_frame(Ui *ui, View_State *vs, const Model *m, Rect left, Rect r) {
    const Theme *t = ui->theme;
    const Stack_Lab *l = &m->stack;
    if (!l->ready) return;
    controls(ui, vs, l, left);
    follow_lesson(vs);
    if (r.w >= 640 && r.h >= 480) { /* the two plots side by side over the heads */
        Rect top = rect_cut_top(&r, (r.h - t->pad) * 0.36f);
        rect_cut_top(&r, t->pad);
        Rect lp = rect_cut_left(&top, (top.w - t->pad) * 0.5f);
        rect_cut_left(&top, t->pad);
        loss_plot(ui, vs, l, lp);
        score_plot(ui, vs, l, top);
        heads_grid(ui, vs, l, r);
        return;
    }
    if (r.h >= 600) { /* narrow and tall (a lesson beside it): one over the other */
        Rect lp = rect_cut_top(&r, (r.h - 2 * t->pad) * 0.24f);
        rect_cut_top(&r, t->pad);
        Rect sp = rect_cut_top(&r, (r.h - t->pad) * 0.3f);
        rect_cut_top(&r, t->pad);
        loss_plot(ui, vs, l, lp);
        score_plot(ui, vs, l, sp);
        heads_grid(ui, vs, l, r);
        return;
    }
    /* low (presenting, a projector's zoom): one panel at a time */
    static const char *const tabs[3] = {N_("loss"), N_("head scores"), N_("every head")};
    float row = fminf(40, fmaxf(30, r.h * 0.1f));
    Rect bar = rect_cut_top(&r, row);
    rect_cut_top(&r, t->pad * 0.5f);
    float bw = (bar.w - 8) / 3;
    for (int k = 0; k < 3; k++) {
        Rect b = {bar.x + k * (bw + 4), bar.y, bw, bar.h};
        if (ui_button(ui, "layers_tab", k, b, _(tabs[k]), vs->layers_tab == k) & UI_CLICKED)
            vs->layers_tab = k;
    }
    if (vs->layers_tab == 0) loss_plot(ui, vs, l, r);
    if (vs->layers_tab == 1) score_plot(ui, vs, l, r);
    if (vs->layers_tab == 2) heads_grid(ui, vs, l, r);
}
