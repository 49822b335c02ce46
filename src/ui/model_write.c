/* The Model view's next-token panel and its writing mode; see model_write.h. */
#include "model_write.h"
#include "../core/i18n.h"
#include "heatmap.h"
#include "model_head.h"
#include "theme.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define WRITE_ROWS 1280 /* rows of the cache drawn at most: the text and what is written */
#define WRITE_DIM  512  /* a head's width drawn at most */

/* A count of multiply-adds in a few characters: 950 k, 128 M, 2.9 G. */
static void madds_text(char *buf, size_t size, int64_t n) {
    double v = (double)n;
    if (v >= 1e9)
        snprintf(buf, size, "%.1f G", v / 1e9);
    else if (v >= 1e6)
        snprintf(buf, size, "%.0f M", v / 1e6);
    else
        snprintf(buf, size, "%.0f k", v / 1e3);
}

/* An ask of the writing, with the panel's sampling for a writing it starts. */
static Action write_ask(const View_State *vs, Real_Write ask) {
    bool greedy = vs->real_greedy;
    return (Action){.kind = ACTION_REAL_WRITE,
                    .i = ask,
                    .value = greedy ? 0 : vs->temperature,
                    .n = greedy ? 0 : (int)vs->gen_top_k,
                    .x0 = greedy ? 1 : vs->gen_top_p,
                    .seed = vs->gen_seed};
}

/* The buttons: step, play or stop, start again, greedy or drawn, and the
 * whole pass recomputed each step (to compare) or the cache's one row; in as
 * many rows as their labels need. */
static void controls(Ui *ui, View_State *vs, const Real_Gen *g, Rect *r) {
    const char *labels[5] = {_("▸ step"), g->playing ? _("■ stop") : _("▶ play"), _("↺ again"),
                             vs->real_greedy ? _("greedy") : _("drawn"),
                             g->recompute ? _("⟳ recomputing") : _("⟳ recompute")};
    Rect row = rect_cut_top(r, model_button_row_height(ui, labels, 5, r->w));
    int clicked = -1;
    model_button_row(ui, "model_write", labels, 5, row, &clicked);
    if (clicked < 0) return;
    if (clicked == 3) vs->real_greedy = !vs->real_greedy;
    /* 1 a step, 2 play or stop, 3 again from the text, 4 the recompute toggle, 5 greedy ↔
     * drawn: as many tokens again from the text */
    static const Real_Write asks[5] = {REAL_WRITE_STEP, REAL_WRITE_PLAY, REAL_WRITE_START,
                                       REAL_WRITE_AGAIN, REAL_WRITE_RECOMPUTE};
    view_act(vs, write_ask(vs, asks[clicked]));
    vs->real_gen_shown = -1;
}

/* Whether a slider's change is done: let go, or a key (not every step of a drag). */
static bool settled(const Ui *ui, int res) {
    return (res & UI_RELEASED) || ((res & UI_CHANGED) && !ui->in.down);
}

/* How fast ▶ play writes and, when drawn, how the next token is drawn: the
 * temperature, top-k, top-p and the seed (⟳ the next one), in as many rows as
 * the width needs. A change of how it is drawn writes again from the text, as
 * many tokens as there were: the run on screen is always the one its settings
 * give, so a class can repeat it, and two seeds can be compared at once. */
static void sampling(Ui *ui, View_State *vs, Rect *r) {
    const Theme *t = ui->theme;
    int count = vs->real_greedy ? 1 : 5;
    float least = ui_text_width(ui, FONT_SANS, t->text_size, "top-k 100") + 70;
    int across = (int)(r->w / least) < 1 ? 1 : (int)(r->w / least);
    if (across > count) across = count;
    float h = ui_line_height(ui, FONT_SANS, t->text_size) + 12, w = r->w / (float)across;
    int rows = (count + across - 1) / across;
    Rect area = rect_cut_top(r, rows * h);
    ui_record(ui, "panel", "model_sampling", -1, area);
    bool again = false;
    for (int k = 0; k < count; k++) {
        Rect cell = {area.x + (float)(k % across) * w, area.y + (float)(k / across) * h, w, h};
        cell = rect_inset(cell, 3);
        if (k % across != across - 1 && k != count - 1)
            cell.w -= 12; /* a value apart from the
                              next label */
        if (k == 0)
            ui_slider(ui, "model_speed", -1, cell, &vs->gen_speed,
                      &(Slider_Desc){.min = 0.5f,
                                     .max = 10,
                                     .log = true,
                                     .label = _("steps a second"),
                                     .short_label = _("steps/s"),
                                     .format = "%.1f"});
        else if (k == 1)
            again |= settled(ui, ui_slider(ui, "model_write_t", -1, cell, &vs->temperature,
                                           &(Slider_Desc){.min = 0.1f,
                                                          .max = 4,
                                                          .log = true,
                                                          .label = _("temperature"),
                                                          .short_label = "T",
                                                          .format = "%.2f"}));
        else if (k == 2)
            again |= settled(ui, ui_slider(ui, "model_top_k", -1, cell, &vs->gen_top_k,
                                           &(Slider_Desc){.min = 0,
                                                          .max = 100,
                                                          .integer = true,
                                                          .label = "top-k",
                                                          .short_label = "top-k",
                                                          .format = "%.0f",
                                                          .at_min = _("off")}));
        else if (k == 3)
            again |= settled(ui, ui_slider(ui, "model_top_p", -1, cell, &vs->gen_top_p,
                                           &(Slider_Desc){.min = 0.05f,
                                                          .max = 1,
                                                          .label = "top-p",
                                                          .short_label = "top-p",
                                                          .format = "%.2f"}));
        else {
            char label[48];
            snprintf(label, sizeof label, _("seed %u ⟳"), vs->gen_seed);
            if (ui_button(ui, "model_seed", -1, cell, label, false) & UI_CLICKED) {
                vs->gen_seed = vs->gen_seed == 0xFFFFFFFFu ? 0 : vs->gen_seed + 1;
                again = true;
            }
        }
    }
    if (again) {
        view_act(vs, write_ask(vs, REAL_WRITE_AGAIN));
        vs->real_gen_shown = -1;
    }
}

/* The tokens written as chips, a click showing that step; the height they
 * take (drawn only when draw). */
static float written_chips(Ui *ui, View_State *vs, const Real_Lab *l, Rect r, int shown,
                           bool draw) {
    const Theme *t = ui->theme;
    const Real_Gen *g = &l->gen;
    float lh = ui_line_height(ui, FONT_SANS, t->small_size) + 6, x = r.x, y = r.y;
    for (int k = 0; k < g->written; k++) {
        char label[48];
        real_model_token_label(l->model, g->chosen[k], label, sizeof label);
        float w = fminf(ui_text_width(ui, FONT_SANS, t->small_size, label) + 10, r.w);
        if (x + w > r.x + r.w && x > r.x) {
            x = r.x;
            y += lh + 3;
        }
        if (y + lh > r.y + r.h) break; /* the rest stay reachable by the latest step */
        Rect chip = {x, y, w, lh};
        if (!draw) {
            x += w + 3;
            continue;
        }
        if (ui_button(ui, "model_written", k, chip, "", k == shown) & UI_CLICKED)
            vs->real_gen_shown = k;
        ui_label_abbrev(ui, rect_inset(chip, 3), FONT_SANS, t->small_size, ALIGN_CENTER,
                        k == shown ? t->on_bright : t->text, label);
        x += w + 3;
    }
    return y + lh - r.y;
}

/* The candidates of step k, the chosen one marked. */
static float candidates(Ui *ui, const Real_Lab *l, int k, Rect r) {
    const Theme *t = ui->theme;
    const Real_Gen *g = &l->gen;
    float row = ui_line_height(ui, FONT_SANS, t->small_size) + 6;
    int count = g->top_n[k] < (int)(r.h / row) ? g->top_n[k] : (int)(r.h / row);
    for (int j = 0; j < count; j++) {
        const Net_Candidate *c = &g->top[k][j];
        bool chosen = c->id == g->chosen[k];
        Rect line = {r.x, r.y + j * row, r.w, row - 2};
        char label[48], pct[24];
        real_model_token_label(l->model, c->id, label, sizeof label);
        double q = 100 * c->p;
        snprintf(pct, sizeof pct, q >= 9.95 ? "%.1f %%" : "%#.2g %%", q);
        Rect name = rect_cut_left(&line, line.w * 0.4f);
        ui_label_abbrev(ui, name, FONT_SANS, t->small_size, ALIGN_LEFT,
                        chosen ? t->highlight : t->text, label);
        Rect num = rect_cut_right(&line, ui_text_width(ui, FONT_MONO, t->small_size, "10.0 %") + 6);
        ui_label(ui, num, FONT_MONO, t->small_size, ALIGN_RIGHT, t->text_dim, pct);
        Rect bar = rect_inset(line, 2);
        bar.w *= (float)c->p;
        draw_rect(ui->dl, bar, chosen ? t->highlight : t->accent);
        if (chosen) draw_rect_outline(ui->dl, (Rect){r.x, line.y, r.w, line.h}, 3, 1, t->highlight);
    }
    return count * row;
}

/* The open head's layer's cache: keys and values kept, a row a token up to
 * the query that chose step k, beside that query's weights over them. */
static void cache_picture(Ui *ui, View_State *vs, const Real_Lab *l, int k, Rect r) {
    const Theme *t = ui->theme;
    const Real_Gen *g = &l->gen;
    const Net_Model *m = &l->model->weights.model;
    static float keys[WRITE_ROWS * 64], values[WRITE_ROWS * 64], weights[WRITE_ROWS];
    int layer = l->open_layer >= 0 ? l->open_layer : 0, head = l->open_head >= 0 ? l->open_head : 0;
    int G = m->kv_heads > 0 ? m->kv_heads : m->heads, d = m->head_dim;
    int kv = net_kv_head(m, head), rows = g->prompt_n + k; /* keys 0 … the query */
    int cols = d < 64 ? d : 64;                            /* the first 64 of a wider head */
    if (rows > WRITE_ROWS || d > WRITE_DIM) return;
    const Net_Cache *c = &g->cache;
    const float *K = c->k + (ptrdiff_t)layer * c->cap * G * d + (ptrdiff_t)kv * d;
    const float *V = c->v + (ptrdiff_t)layer * c->cap * G * d + (ptrdiff_t)kv * d;
    float big_k = 1e-12f, big_v = 1e-12f;
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            keys[i * cols + j] = K[(ptrdiff_t)i * G * d + j];
            values[i * cols + j] = V[(ptrdiff_t)i * G * d + j];
            big_k = fmaxf(big_k, fabsf(keys[i * cols + j]));
            big_v = fmaxf(big_v, fabsf(values[i * cols + j]));
        }
    const float *a = net_cache_attn(c, layer, head) + (ptrdiff_t)(rows - 1) * c->cap;
    memcpy(weights, a, (size_t)rows * sizeof *weights);
    char title[400];
    if (k < g->written - 1) /* scrubbed back: why what shows is what was */
        snprintf(title, sizeof title,
                 _("Layer %d's cache at step %d, key/value head %d: as it was written. Under "
                   "the causal mask (lesson 9) no later token changes an earlier row"),
                 layer, k + 1, kv);
    else
        snprintf(title, sizeof title,
                 _("Layer %d's cache, key/value head %d: %d keys and values kept; head %d's new "
                   "query weighs them"),
                 layer, kv, rows, head);
    float need = ui_text_wrapped(ui, r, FONT_SANS, t->small_size, t->text_dim, title, false);
    ui_text_wrapped(ui, rect_cut_top(&r, need + 4), FONT_SANS, t->small_size, t->text_dim, title,
                    true);
    int mask_lesson =
        k < g->written - 1 ? lesson_index_find(vs->session.index, "09-causal-mask.md") : -1;
    if (mask_lesson >= 0 && vs->session.lesson && vs->session.saved) {
        /* scrubbed back: lesson 9, a click away */
        char label[200];
        snprintf(label, sizeof label, "→ %s", vs->session.index->title[mask_lesson]);
        Rect link = rect_cut_top(&r, ui_line_height(ui, FONT_SANS, t->small_size) + 10);
        rect_cut_top(&r, 4);
        link.w = fminf(link.w, ui_text_width(ui, FONT_SANS, t->text_size, label) + 24);
        if (ui_button(ui, "model_lesson_mask", -1, link, label, false) & UI_CLICKED)
            snprintf(vs->session.open_path, sizeof vs->session.open_path, "%s",
                     vs->session.index->path[mask_lesson]);
    }
    ui_record(ui, "panel", "model_cache", -1, r);
    float lh = ui_line_height(ui, FONT_SANS, t->small_size);
    Rect heads = rect_cut_top(&r, lh + 2);
    if (r.h < 20) return;
    Rect wcol = rect_cut_left(&r, fminf(24, r.w * 0.1f));
    rect_cut_left(&r, 6);
    Rect kr = rect_cut_left(&r, (r.w - 6) / 2);
    rect_cut_left(&r, 6);
    Rect vr = r;
    ui_label(ui, (Rect){wcol.x - 4, heads.y, wcol.w + 8, lh}, FONT_SANS, t->small_size,
             ALIGN_CENTER, t->text_dim, "a");
    ui_label(ui, (Rect){kr.x, heads.y, kr.w, lh}, FONT_SANS, t->small_size, ALIGN_CENTER,
             t->text_dim, "K");
    ui_label(ui, (Rect){vr.x, heads.y, vr.w, lh}, FONT_SANS, t->small_size, ALIGN_CENTER,
             t->text_dim, "V");
    draw_heatmap(ui->dl, wcol, weights, rows, 1, 0, 1, vs->weight_map);
    draw_heatmap(ui->dl, kr, keys, rows, cols, -big_k, big_k, COLORMAP_DIVERGING);
    draw_heatmap(ui->dl, vr, values, rows, cols, -big_v, big_v, COLORMAP_DIVERGING);
    /* the newest row: the token whose query chose this step */
    float row_h = r.h / (float)rows;
    Rect last = {wcol.x - 1, r.y + (rows - 1) * row_h - 1, vr.x + vr.w - wcol.x + 2, row_h + 2};
    draw_rect_outline(ui->dl, last, 0, 1.5f, t->highlight);
}

/* Whether a body this shape puts the candidates and the cache beside the rest. */
static bool model_write_wide(const Theme *t, Rect r) {
    (void)t;
    return r.w >= 2.2f * r.h && r.w >= 480;
}

/* The writing mode's body in r, and where side has a width (a wide, low
 * panel) the candidates and the cache there, beside the rest; clicks are
 * ACTION_REAL_WRITE actions, and set vs->real_gen_shown. */
static void model_write_panel(Ui *ui, View_State *vs, const Real_Lab *l, Rect r, Rect side) {
    const Theme *t = ui->theme;
    const Real_Gen *g = &l->gen;
    ui_record(ui, "panel", "model_write", -1, r);
    bool wide = side.w > 0;
    controls(ui, vs, g, &r);
    sampling(ui, vs, &r);
    rect_cut_top(&r, 4);
    char state[400];
    int shown = vs->real_gen_shown >= 0 && vs->real_gen_shown < g->written ? vs->real_gen_shown
                                                                           : g->written - 1;
    if (!g->model) {
        snprintf(state, sizeof state, "%s",
                 _("Press ▸ step or ▶ play: the model writes after your text, a token a step, "
                   "reading its cache of keys and values instead of the whole text again"));
    } else if (!g->ready) {
        snprintf(state, sizeof state, _("Reading the text: %d tokens into the cache…"),
                 g->prompt_n);
    } else {
        /* drawn: the sliders above say how; the seed is what a class repeats a run by */
        char choice[160];
        if (g->how.temperature > 0)
            snprintf(choice, sizeof choice, _("drawn, seed %llu"), (unsigned long long)g->seed);
        else
            snprintf(choice, sizeof choice, "%s", _("greedy"));
        const char *why = g->stop == GEN_EOS       ? _(" · stopped: the end-of-text token")
                          : g->stop == GEN_CONTEXT ? _(" · stopped: the model's context is full")
                          : g->stop == GEN_LIMIT   ? _(" · stopped: the window writes 128 at most")
                          : g->stop == GEN_FAULT   ? _(" · stopped: a number is not finite")
                                                   : "";
        snprintf(state, sizeof state, _("%d written (%s)%s"), g->written, choice, why);
    }
    float need = ui_text_wrapped(ui, r, FONT_SANS, t->small_size, t->text_dim, state, false);
    ui_text_wrapped(ui, rect_cut_top(&r, need + 4), FONT_SANS, t->small_size, t->text_dim, state,
                    true);
    if (!g->model || g->written == 0) return;
    float chip_row = ui_line_height(ui, FONT_SANS, t->small_size) + 9;
    Rect room = {r.x, r.y, r.w, fminf(r.h * 0.3f, 3 * chip_row)};
    Rect chips = rect_cut_top(&r, written_chips(ui, vs, l, room, shown, false));
    written_chips(ui, vs, l, chips, shown, true);
    rect_cut_top(&r, 6);
    /* what the shown step cost: the cache's one row against the whole pass again */
    const Net_Model *m = &l->model->weights.model;
    int position = g->prompt_n + shown;
    char cost[300], cached[32], whole[32];
    madds_text(cached, sizeof cached, net_cache_step_madds(m, position));
    madds_text(whole, sizeof whole, net_pass_madds(m, position + 1));
    snprintf(cost, sizeof cost,
             _("Step %d, %.0f ms: %s multiply-adds with the cache; the whole pass over %d "
               "tokens again: %s"),
             shown + 1, g->step_ms[shown], cached, position + 1, whole);
    need = ui_text_wrapped(ui, r, FONT_SANS, t->small_size, t->text_dim, cost, false);
    ui_text_wrapped(ui, rect_cut_top(&r, need + 4), FONT_SANS, t->small_size, t->text_dim, cost,
                    true);
    /* the candidates, and below them the cache where there is room for both: with little
     * room, fewer candidates, so the cache still shows */
    if (wide) r = side;
    float row = ui_line_height(ui, FONT_SANS, t->small_size) + 6;
    int rows = (int)(r.h / row), listed = g->top_n[shown];
    /* a lesson step about the cache: the cache first, two candidates above it */
    bool cache_first = vs->session.active && !strcmp(vs->session.highlight, "model_cache");
    if (cache_first) {
        listed = rows >= 10 ? (listed < 2 ? listed : 2) : 0;
    } else if (rows >= 8) {
        int most = (int)(rows * 0.45f) > 3 ? (int)(rows * 0.45f) : 3;
        listed = listed < most ? listed : most;
    }
    Rect list = rect_cut_top(&r, fminf(r.h, listed * row));
    ui_record(ui, "panel", "model_candidates", -1, list);
    candidates(ui, l, shown, list);
    rect_cut_top(&r, 8);
    if (r.h >= (cache_first ? 3 : 4) * row) cache_picture(ui, vs, l, shown, r);
}

static bool lit(const View_State *vs, const char *name) {
    return vs->session.active && !strcmp(vs->session.highlight, name);
}

/* The ten likeliest next tokens, under a temperature. */
void model_next_panel(Ui *ui, View_State *vs, const Real_Lab *l, Rect r) {
    const Theme *t = ui->theme;
    bool writing = vs->real_next_mode == 1;
    float title_h = ui_panel_wrapped(ui, r, writing ? _("The model writes") : _("Next token"),
                                     lit(vs, writing ? "model_write" : "model_next"));
    ui_record(ui, "panel", "model_next", -1, r);
    Rect body = rect_inset(r, t->pad);
    rect_cut_top(&body, title_h + 4);
    static const char *const modes[2] = {N_("next token"), N_("write")};
    /* writing in a wide, low panel (presenting, a lesson below, the bottom at 1024 wide): the
     * candidates and the cache beside the rest rather than under it */
    Rect side = {0};
    if (writing && model_write_wide(t, body)) {
        side = rect_cut_right(&body, body.w * 0.5f);
        rect_cut_right(&body, t->pad);
    }
    Rect mode_row;
    if (side.w > 0) { /* the modes in the title's band, over the candidates: a line saved */
        mode_row = (Rect){side.x, r.y + 4, side.w, title_h};
    } else {
        mode_row = rect_cut_top(&body, model_button_row_height(ui, modes, 2, body.w));
        rect_cut_top(&body, 6);
    }
    model_button_row(ui, "model_next_mode", modes, 2, mode_row, &vs->real_next_mode);
    if (vs->real_next_mode == 1) {
        model_write_panel(ui, vs, l, body, side);
        return;
    }
    Rect slider = rect_cut_top(&body, fminf(56, body.h * 0.25f));
    ui_slider(ui, "model_temperature", -1, slider, &vs->temperature,
              &(Slider_Desc){.min = 0.1f,
                             .max = 4,
                             .log = true,
                             .label = _("temperature"),
                             .short_label = "T",
                             .format = "%.2f"});
    rect_cut_top(&body, 6);
    /* softmax over the whole vocabulary: again only when the pass or T changes */
    static struct {
        long generation;
        const Real_Model *model;
        float temperature;
        int k;
        int32_t ids[10];
        double p[10];
    } next = {.generation = -1};
    if (next.generation != l->generation || next.model != l->model ||
        next.temperature != vs->temperature) {
        next.k = real_lab_next(l, vs->temperature, 10, next.ids, next.p);
        next.generation = l->generation;
        next.model = l->model;
        next.temperature = vs->temperature;
    }
    int k = next.k;
    const int32_t *ids = next.ids;
    const double *p = next.p;
    /* as many of the ten as have a line of their own: a low panel shows fewer, never ten
     * printed over each other */
    float least = ui_line_height(ui, FONT_SANS, t->text_size) + 2;
    if (k > (int)(body.h / least)) k = (int)(body.h / least);
    if (k <= 0) return;
    float row = fminf(body.h / k, ui_line_height(ui, FONT_SANS, t->text_size) + 10);
    float label_w = body.w * 0.45f;
    char label[10][48];
    float fs = t->text_size; /* smaller type before any label is shortened */
    for (int j = 0; j < k; j++) {
        if (ids[j] < l->model->bpe.count)
            real_model_token_label(l->model, ids[j], label[j], sizeof label[j]);
        else
            snprintf(label[j], sizeof label[j], "#%d", (int)ids[j]);
        if (ui_text_width(ui, FONT_SANS, fs, label[j]) > label_w - 4) fs = t->small_size;
    }
    for (int j = 0; j < k; j++) {
        Rect line = rect_cut_top(&body, row);
        char pct[24]; /* two significant digits below 10 %: ten rows of "0.0 %" say nothing */
        double q = 100 * p[j];
        if (q >= 9.95)
            snprintf(pct, sizeof pct, "%.1f %%", q);
        else if (q >= 0.001)
            snprintf(pct, sizeof pct, "%#.2g %%", q);
        else
            snprintf(pct, sizeof pct, "%.1e %%", q);
        Rect name = rect_cut_left(&line, label_w);
        ui_label_abbrev(ui, name, FONT_SANS, fs, ALIGN_LEFT, t->text, label[j]);
        Rect num =
            rect_cut_right(&line, ui_text_width(ui, FONT_MONO, t->small_size, "1.0e-05 %") + 6);
        ui_label(ui, num, FONT_MONO, t->small_size, ALIGN_RIGHT, t->text_dim, pct);
        Rect bar = rect_inset(line, 3);
        bar.w *= (float)p[j];
        draw_rect(ui->dl, bar, t->accent);
    }
}
