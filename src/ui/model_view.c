/* The Model view; see model_view.h. */
#include "../core/i18n.h"
#include "model_view.h"

#include "heatmap.h"
#include "edit_field.h"
#include "model_blocks.h"
#include "model_write.h"
#include "model_head.h"
#include "view.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define REAL_LABELS 1024 /* chip labels kept (GPT-2 reads 1024 tokens) */
#define REAL_LABEL  48   /* bytes of one */

/* The shown pass's chip labels, made again when the pass changes. */
static struct {
    long generation;
    const Real_Model *model;
    int n;
    char text[REAL_LABELS][REAL_LABEL];
    const char *ptr[REAL_LABELS];
} labels = {.generation = -1};

static void update_labels(const Real_Lab *l) {
    if (labels.generation == l->generation && labels.model == l->model) return;
    labels.generation = l->generation;
    labels.model = l->model;
    labels.n = l->shown_n < REAL_LABELS ? l->shown_n : REAL_LABELS;
    for (int i = 0; i < labels.n; i++) {
        real_model_token_label(l->model, l->shown_ids[i], labels.text[i], REAL_LABEL);
        labels.ptr[i] = labels.text[i];
    }
}

/* ---- before the layout ------------------------------------------------------ */

/* "Open model…": the field takes a folder or a name from the cache. */
static void start_typing_path(View_State *vs, const Model *m) {
    if (vs->in_browser) { /* no folders there: the page picks the files */
        vs->real_pick = true;
        return;
    }
    snprintf(vs->edit, sizeof vs->edit, "%s", m->real.model ? m->real.name : "gpt2");
    vs->edit_len = (int)strlen(vs->edit);
    vs->edit_anchor = 0; /* all of it selected: typing replaces it */
    vs->edit_cursor = vs->edit_len;
    vs->editing = true;
    vs->real_typing_path = true;
}

void real_start_editing(View_State *vs, const Model *m) {
    const char *text = m->real.text;
    size_t len = strlen(text);
    if (len >= sizeof vs->edit) len = sizeof vs->edit - 1; /* the field holds 2 KB of it */
    while (len > 0 && ((unsigned char)text[len] & 0xC0) == 0x80) len--;
    memcpy(vs->edit, text, len);
    vs->edit[len] = '\0';
    memcpy(vs->real_before, vs->edit, len + 1);
    vs->edit_len = (int)len;
    vs->edit_cursor = vs->edit_anchor = vs->edit_len;
    vs->editing = true;
}

void real_update(const Ui *ui, View_State *vs, Model *m) {
    (void)ui;
    Real_Lab *l = &m->real;
    /* the view's asks came as actions (model_apply), before this update; live while
     * typing, every text that reads is run, and one that does not (empty, too long) waits:
     * Enter says why */
    if (l->model && vs->editing && !vs->real_typing_path && strcmp(vs->edit, l->text) != 0) {
        char err[600];
        model_apply(m, &(Action){.kind = ACTION_REAL_TEXT, .text = vs->edit}, err, sizeof err);
    }
    l->gen.play_ms = 1000.0 / (vs->gen_speed > 0 ? vs->gen_speed : 3);
    bool writing = !real_gen_work(&l->gen, REAL_LAB_BUDGET_MS);
    vs->real_busy = !real_lab_work(l, REAL_LAB_BUDGET_MS) || writing;
    vs->real_on_threads = vs->real_busy && real_lab_on_threads(l);
}

/* ---- the panels ---------------------------------------------------------------- */

static bool lit(const View_State *vs, const char *name) {
    return vs->session.active && !strcmp(vs->session.highlight, name);
}

static void no_model(Ui *ui, const View_State *vs, const Model *m, Rect r) {
    const Theme *t = ui->theme;
    float title_h = ui_panel_wrapped(ui, r, _("No model is open"), lit(vs, "model_none"));
    ui_record(ui, "panel", "model_none", -1, r);
    Rect body = rect_inset(r, t->pad);
    rect_cut_top(&body, title_h + 8);
    static const char *const browser[5] = {
        N_("No model is open in this page."),
        N_("This view runs a real, trained model (GPT-2, SmolLM2, Qwen or Llama) on any text you "
           "type and shows every head. attnlab never downloads anything: it reads a checkpoint "
           "you have."),
        N_("GPT-2 small is at https://huggingface.co/openai-community/gpt2. Get its config.json, "
           "model.safetensors, vocab.json and merges.txt (or tokenizer.json), then:"),
        N_("drop the four files on this page, or pick them with Open model…"),
        N_("The page reads them where they are: nothing is sent anywhere.")};
    const char *paragraphs[5] = {
        m->real.note[0] ? m->real.note : _("No --model was given."),
        _("This view runs a real, trained model (GPT-2, SmolLM2, Qwen or Llama) on any text you "
          "type and shows every head. attnlab never downloads anything: it reads a checkpoint "
          "you have."),
        _("GPT-2 small is at https://huggingface.co/openai-community/gpt2. With the hub's client "
          "(pip install huggingface_hub), one line gets the four files attnlab reads:"),
        ("huggingface-cli download openai-community/gpt2 config.json model.safetensors vocab.json "
         "merges.txt --local-dir gpt2"),
        _("Then start attnlab with --model gpt2 (that folder). A model another tool put in the "
          "Hugging Face cache is found by its name, as --model gpt2.")};
    if (vs->in_browser)
        for (int k = 0; k < 5; k++) paragraphs[k] = _(browser[k]);
    /* the largest type that fits whole */
    float fs = t->text_size, gap = 0;
    for (;; fs -= 1) {
        gap = ui_line_height(ui, FONT_SANS, fs) * 0.6f;
        float need = 4 * gap;
        for (int k = 0; k < 5; k++)
            need += ui_text_wrapped(ui, body, FONT_SANS, fs, t->text, paragraphs[k], false);
        if (need <= body.h || fs <= t->small_size) break;
    }
    for (int k = 0; k < 5; k++) {
        Color c = k == 3 ? t->accent : t->text; /* the command stands out */
        float used =
            ui_text_wrapped(ui, body, k == 3 ? FONT_MONO : FONT_SANS, fs, c, paragraphs[k], true);
        rect_cut_top(&body, fminf(used + gap, body.h));
    }
}

/* In place of the heads: the text's pass overflowed, and where. A value
 * past float32's range would be drawn as a masked cell or "nan %". */
static void not_finite(Ui *ui, const Real_Lab *l, Rect r) {
    const Theme *t = ui->theme;
    float title_h = ui_panel_wrapped(ui, r, _("This text's pass is not finite"), false);
    ui_record(ui, "panel", "model_not_finite", -1, r);
    Rect body = rect_inset(r, t->pad);
    rect_cut_top(&body, title_h + 8);
    char text[600];
    snprintf(
        text, sizeof text,
        _("At %s. The weights are finite, but their products pass float32's range, so no head, "
          "weight or probability of this text is shown. Try another text, or another "
          "checkpoint."),
        l->fault);
    ui_text_wrapped(ui, body, FONT_SANS, t->text_size, t->text, text, true);
}

/* The model's name and shape, and how far the pass is. */
static void info_line(Ui *ui, const Real_Lab *l, Rect r) {
    const Theme *t = ui->theme;
    const Net_Model *tm = &l->model->weights.model;
    char text[800];
    int done = real_lab_stage(l);
    bool computing = !l->pass_done && l->n > 0;
    if (computing)
        snprintf(text, sizeof text,
                 _("%s · %d layers × %d heads · d_model %d · computing layer %d of %d"), l->name,
                 tm->layers, tm->heads, tm->width, done < tm->layers ? done + 1 : tm->layers,
                 tm->layers);
    else if (l->has_change)
        snprintf(text, sizeof text,
                 _("%s · reordered: every A is %.3f from what a permutation-equivariant layer "
                   "would give, on average (up to %.2f): positions and the mask"),
                 l->name, l->change_mean, l->change_max);
    else if (tm->kv_heads > 0 && tm->kv_heads < tm->heads)
        snprintf(text, sizeof text,
                 _("%s · %d layers × %d heads on %d key/value heads · d_model %d · %d tokens in "
                   "its vocabulary"),
                 l->name, tm->layers, tm->heads, tm->kv_heads, tm->width, tm->vocab);
    else
        snprintf(text, sizeof text,
                 _("%s · %d layers × %d heads · d_model %d · %d tokens in its vocabulary"), l->name,
                 tm->layers, tm->heads, tm->width, tm->vocab);
    if (ui_text_width(ui, FONT_SANS, t->text_size, text) > r.w) { /* the short form */
        if (l->has_change && !computing)
            snprintf(text, sizeof text,
                     _("reordered: A moved %.3f on average, up to %.2f (0 if equivariant)"),
                     l->change_mean, l->change_max);
        else
            snprintf(text, sizeof text, _("%s · %d×%d heads%s"), l->name, tm->layers, tm->heads,
                     computing ? _(" · computing") : "");
    }
    ui_label_abbrev(ui, r, FONT_SANS, t->text_size, ALIGN_LEFT, t->text_dim, text);
}

/* The chips' flow: every token of the text on as many lines as it takes, at the text size on up
 * to three lines, else smaller on up to CHIP_LINES; only a text longer than that ends in
 * "+N more". A class must see the phrase it typed twice, and its reversal. */
#define CHIP_LINES 6
static struct {
    float fs, line_h, x[REAL_LABELS + 1], w[REAL_LABELS];
    int line[REAL_LABELS + 1], fit, lines;
    bool below; /* the chips under the buttons rather than beside them */
} flow;

static const char *const reorder_names[3] = {N_("Reverse (R)"), N_("Shuffle (S)"),
                                             N_("Restore (I)")};

static float chip_button_width(Ui *ui, const char *label) {
    const Theme *t = ui->theme;
    return ui_text_width(ui, FONT_SANS, t->text_size, label) + t->text_size * 1.2f;
}

static float chip_buttons_width(Ui *ui) {
    float w = chip_button_width(ui, _("✎ Edit text")) + 8;
    for (int k = 0; k < 3; k++) w += chip_button_width(ui, _(reorder_names[k]));
    return w;
}

/* Lays the chips out in a width; false if they need more than max_lines at size fs. */
static bool chip_flow(Ui *ui, float fs, float width, int max_lines) {
    const Theme *t = ui->theme;
    float gap = 6, x = 0;
    int line = 0;
    flow.fs = fs;
    flow.line_h = ui_line_height(ui, FONT_SANS, fs) + 14;
    for (flow.fit = 0; flow.fit < labels.n; flow.fit++) {
        float w = fminf(ui_text_width(ui, FONT_SANS, fs, labels.ptr[flow.fit]) + 18, width);
        if (x > 0 && x + w > width) { /* the next line */
            if (line + 1 == max_lines) break;
            line++;
            x = 0;
        }
        /* on the last line, room for "+N more" after it unless it is the last chip */
        if (line + 1 == max_lines && flow.fit + 1 < labels.n) {
            char more[48];
            snprintf(more, sizeof more, _("+%d more"), labels.n - flow.fit - 1);
            if (x + w + gap + ui_text_width(ui, FONT_SANS, t->small_size, more) > width) break;
        }
        flow.x[flow.fit] = x;
        flow.w[flow.fit] = w;
        flow.line[flow.fit] = line;
        x += w + gap;
    }
    flow.x[flow.fit] = x;
    flow.line[flow.fit] = line;
    flow.lines = line + 1;
    return flow.fit == labels.n;
}

/* The height the chips and their buttons take in a row `width` wide. The chips go beside the
 * buttons, or, where that leaves them less than half the row (a narrow window, a long
 * translation), under them across the whole row. */
static float chips_height(Ui *ui, float width) {
    const Theme *t = ui->theme;
    float buttons = chip_buttons_width(ui), row = ui_line_height(ui, FONT_SANS, t->text_size) + 22;
    /* laid out again only when the tokens, the room or the type change, not every frame */
    static struct {
        long generation;
        const Real_Model *model;
        float width, buttons, text_size, small_size, height;
    } laid = {.generation = -1};
    if (laid.generation == labels.generation && laid.model == labels.model && laid.width == width &&
        laid.buttons == buttons && laid.text_size == t->text_size &&
        laid.small_size == t->small_size)
        return laid.height;
    flow.below = width - buttons < width * 0.5f;
    float w = flow.below ? width : width - buttons;
    if (!chip_flow(ui, t->text_size, w, 3) && !chip_flow(ui, t->small_size, w, CHIP_LINES))
        chip_flow(ui, t->small_size, w, CHIP_LINES);
    float chips = flow.lines * flow.line_h;
    laid.generation = labels.generation;
    laid.model = labels.model;
    laid.width = width;
    laid.buttons = buttons;
    laid.text_size = t->text_size;
    laid.small_size = t->small_size;
    laid.height = flow.below ? row + chips : fmaxf(chips, row);
    return laid.height;
}

/* The shown text's tokens as chips (laid out by chips_height), and the reorder buttons. */
static void chips(Ui *ui, View_State *vs, const Model *m, Rect r) {
    const Theme *t = ui->theme;
    if (vs->editing) { /* the text, or a model's folder or name to open */
        edit_field(ui, vs, rect_cut_top(&r, ui_line_height(ui, FONT_SANS, t->text_size) + 22));
        return;
    }
    Rect top = {r.x, r.y, r.w, ui_line_height(ui, FONT_SANS, t->text_size) + 22};
    if (flow.below) rect_cut_top(&r, top.h);
    Rect edit = rect_cut_right(&top, chip_button_width(ui, _("✎ Edit text")));
    if (ui_button(ui, "model_edit", -1, rect_inset(edit, 2), _("✎ Edit text"), false) & UI_CLICKED)
        real_start_editing(vs, m);
    for (int k = 2; k >= 0; k--) {
        Rect b = rect_cut_right(&top, chip_button_width(ui, _(reorder_names[k])));
        if (ui_button(ui, "model_reorder", k, rect_inset(b, 2), _(reorder_names[k]), false) &
            UI_CLICKED)
            view_act(vs, (Action){.kind = ACTION_REAL_ORDER,
                                  .i = k,
                                  .seed = k == 1 ? (unsigned)++vs->shuffle_count : 0});
    }
    if (!flow.below) r.w -= chip_buttons_width(ui);
    ui_record(ui, "panel", "model_tokens", -1, r);
    float h = flow.line_h - 8;
    int fit = flow.fit;
    if (fit < labels.n) {
        char more[48];
        snprintf(more, sizeof more, _("+%d more"), labels.n - fit);
        ui_label(ui,
                 (Rect){r.x + flow.x[fit], r.y + flow.line[fit] * flow.line_h, 200, flow.line_h},
                 FONT_SANS, t->small_size, ALIGN_LEFT, t->text_dim, more);
    }
    /* a chip dragged to another slot: the model reads the tokens in that order */
    const Real_Lab *l = &m->real;
    if (vs->drag_chip >= 0) {
        float dx = ui->in.mx - vs->drag_chip_x0, dy = ui->in.my - vs->drag_chip_y0;
        if (fabsf(dx) > 4 || fabsf(dy) > 4) vs->drag_chip_moved = true;
        if (ui->in.released) {
            /* the slot under the pointer: the last chip that starts before it in reading order */
            int at_line = (int)floorf((ui->in.my - r.y) / flow.line_h), b = 0;
            for (int i = 0; i < fit; i++)
                if (flow.line[i] < at_line ||
                    (flow.line[i] == at_line && ui->in.mx >= r.x + flow.x[i]))
                    b = i;
            if (vs->drag_chip_moved && b != vs->drag_chip) {
                view_act(vs, (Action){.kind = ACTION_REAL_MOVE, .c0 = vs->drag_chip, .c1 = b});
            }
            vs->drag_chip = -1;
        }
    }
    for (int i = 0; i < fit; i++) {
        Rect c = {r.x + flow.x[i], r.y + flow.line[i] * flow.line_h + 4, flow.w[i], h};
        bool dragging = vs->drag_chip == i && vs->drag_chip_moved;
        ui_record(ui, "chip", "model_token", i, c);
        if (ui->in.pressed && ui_hit(ui, c) && ui->active == 0 && vs->drag_chip < 0 &&
            l->pass_done && l->shown_n == l->n) { /* the chips are the order the model reads */
            vs->drag_chip = i;
            vs->drag_chip_x0 = ui->in.mx;
            vs->drag_chip_y0 = ui->in.my;
            vs->drag_chip_grab = ui->in.mx - c.x;
            vs->drag_chip_grab_y = ui->in.my - c.y;
            vs->drag_chip_moved = false;
            ui->active = ui_id("model_token", i);
        }
        if (dragging) {
            c.x = ui->in.mx - vs->drag_chip_grab; /* held where it was taken */
            c.y = ui->in.my - vs->drag_chip_grab_y;
            draw_layer(ui->dl);
        }
        draw_round_rect(ui->dl, c, t->radius, dragging ? t->accent : t->field);
        ui_label_abbrev(ui, c, FONT_SANS, flow.fs, ALIGN_CENTER, dragging ? t->on_bright : t->text,
                        labels.ptr[i]);
        if (dragging) draw_layer(ui->dl);
    }
}

/* A horizontal colour bar from 0 to 1 with its meaning: the grid's thumbnails have no room for
 * a legend of their own. */
static void weight_legend(Ui *ui, const View_State *vs, Rect r) {
    const Theme *t = ui->theme;
    static float ramp[64];
    if (ramp[63] == 0) /* once */
        for (int k = 0; k < 64; k++) ramp[k] = ((float)k + 0.5f) / 64;
    float lh = ui_line_height(ui, FONT_MONO, t->small_size);
    const char *what = _("weight");
    float what_w = ui_text_width(ui, FONT_SANS, t->small_size, what) + 8;
    float zero_w = ui_text_width(ui, FONT_MONO, t->small_size, "0") + 6;
    Rect bar = {r.x + what_w + zero_w, r.y + (r.h - lh * 0.7f) * 0.5f, r.w - what_w - 2 * zero_w,
                lh * 0.7f};
    if (bar.w < 30) return;
    ui_record(ui, "legend", "model_grid_legend", -1, r);
    draw_text(ui->dl, FONT_SANS, t->small_size, r.x, r.y + (r.h - lh) * 0.5f, ALIGN_LEFT,
              t->text_dim, what);
    draw_text(ui->dl, FONT_MONO, t->small_size, bar.x - 4, r.y + (r.h - lh) * 0.5f, ALIGN_RIGHT,
              t->text_dim, "0");
    draw_heatmap(ui->dl, bar, ramp, 1, 64, 0, 1, vs->weight_map);
    draw_rect_outline(ui->dl, bar, 0, t->line, t->panel_border);
    draw_text(ui->dl, FONT_MONO, t->small_size, bar.x + bar.w + 4, r.y + (r.h - lh) * 0.5f,
              ALIGN_LEFT, t->text_dim, "1");
}

/* A grid thumbnail under the pointer: its head, and what it does most, by the view's scores. */
static void thumb_hover(View_State *vs, const Real_Lab *l, int layer, int head) {
    static const struct {
        Real_Head_Kind kind;
        const char *name;
    } kinds[3] = {{REAL_HEAD_PREV, N_("the token before")},
                  {REAL_HEAD_FIRST, N_("the first token")},
                  {REAL_HEAD_PREFIX, N_("what followed an earlier copy")}};
    double score[3];
    int order[3] = {0, 1, 2};
    for (int k = 0; k < 3; k++) {
        score[k] = real_lab_head_score(l, kinds[k].kind, layer, head);
        if (isnan(score[k])) score[k] = -1;
    }
    for (int a = 0; a < 3; a++) /* highest first */
        for (int b = a + 1; b < 3; b++)
            if (score[order[b]] > score[order[a]]) {
                int x = order[a];
                order[a] = order[b];
                order[b] = x;
            }
    int at = snprintf(vs->hover_text, sizeof vs->hover_text, _("Layer %d, head %d: mean weight on"),
                      layer, head);
    for (int k = 0; k < 3 && at > 0 && (size_t)at < sizeof vs->hover_text; k++) {
        if (score[order[k]] < 0) continue; /* nothing to tell (no token repeats) */
        at += snprintf(vs->hover_text + at, sizeof vs->hover_text - (size_t)at, "%s %s %.2f",
                       k ? " ·" : "", _(kinds[order[k]].name), score[order[k]]);
    }
    double turn = real_lab_head_score(l, REAL_HEAD_TURN, layer, head);
    if (!isnan(turn) && at > 0 && (size_t)at < sizeof vs->hover_text)
        snprintf(vs->hover_text + at, sizeof vs->hover_text - (size_t)at, " · %s %.2f",
                 _("RoPE's turn moves"), turn);
}

/* A head into the compared set, or out of it if it is there; the oldest leaves a full set. */
static void compare_toggle(View_State *vs, int head) {
    for (int k = 0; k < vs->real_compare_n; k++)
        if (vs->real_compare[k] == head) {
            memmove(vs->real_compare + k, vs->real_compare + k + 1,
                    sizeof *vs->real_compare * (size_t)(vs->real_compare_n - k - 1));
            vs->real_compare_n--;
            return;
        }
    if (vs->real_compare_n == 4) {
        memmove(vs->real_compare, vs->real_compare + 1, sizeof *vs->real_compare * 3);
        vs->real_compare_n--;
    }
    vs->real_compare[vs->real_compare_n++] = head;
}

/* A head's score of that kind (its mean weight on the first token, or the
 * share of its weight RoPE's turn moves) as one cell of the weights'
 * colours, with its value written in when it fits. */
static void score_cell(Ui *ui, const View_State *vs, const Real_Lab *l, Real_Head_Kind kind,
                       int layer, int head, Rect c) {
    const Theme *t = ui->theme;
    double v = real_lab_head_score(l, kind, layer, head);
    float value = isnan(v) ? 0 : (float)v;
    draw_heatmap(ui->dl, c, &value, 1, 1, 0, 1, vs->weight_map);
    char num[16];
    snprintf(num, sizeof num, "%.2f", (double)value);
    float lh = ui_line_height(ui, FONT_MONO, t->small_size);
    if (!isnan(v) && ui_text_width(ui, FONT_MONO, t->small_size, num) + 4 <= c.w && lh <= c.h)
        draw_text(ui->dl, FONT_MONO, t->small_size, c.x + c.w * 0.5f, c.y + (c.h - lh) * 0.5f,
                  ALIGN_CENTER, value > 0.55f ? t->on_bright : t->text, num);
}

/* Every head's A, small, a row a layer; a click opens one. In the first-token
 * mode each cell is that head's mean weight on the first token instead; in
 * the RoPE mode (a model with RoPE), the share of its weight the turn moves. */
static void head_grid(Ui *ui, View_State *vs, const Real_Lab *l, Rect r) {
    const Theme *t = ui->theme;
    const Net_Model *tm = &l->model->weights.model;
    const char *titles[4] = {
        _("Every head: layers down, heads across"), _("The model, block by block"),
        _("Each head's weight on the first token"), _("How much RoPE moves each head's weight")};
    if (vs->real_grid_mode < 0 || vs->real_grid_mode >= 4) vs->real_grid_mode = 0;
    int mode = vs->real_grid_mode;
    float title_h = ui_panel_wrapped(ui, r, titles[mode], lit(vs, "model_grid"));
    ui_record(ui, "panel", "model_grid", -1, r);
    Rect body = rect_inset(r, t->pad);
    rect_cut_top(&body, title_h + 4);
    static const char *const mode_names[4] = {N_("heads"), N_("blocks"), N_("first token"),
                                              N_("RoPE")};
    Rect modes = rect_cut_top(&body, model_button_row_height(ui, mode_names, 4, body.w));
    rect_cut_top(&body, 6);
    model_button_row(ui, "model_grid_mode", mode_names, 4, modes, &vs->real_grid_mode);
    if (vs->real_grid_mode == 1) {
        model_block_diagram(ui, vs, l, body);
        return;
    }
    bool turns = vs->real_grid_mode == 3, rope = tm->rope_theta > 0;
    if (turns && rope && !l->want_turn) /* the next pass has it */
        view_act(vs, action_of(ACTION_REAL_TURN));
    bool scores = vs->real_grid_mode == 2 || (turns && rope); /* else its pictures */
    Real_Head_Kind kind = turns ? REAL_HEAD_TURN : REAL_HEAD_FIRST;
    float lh = ui_line_height(ui, FONT_MONO, t->small_size);
    if (vs->real_grid_mode >= 2) { /* what the cells are, in a line or two of their own */
        const char *what =
            !turns ? _("Mean weight of each query (but the first) on the first token: an "
                       "attention sink where it is near 1")
            : rope ? _("Share of each row's weight that RoPE's turn moves: near 0, distance "
                       "plays no part; near 1, it decides")
                   : _("This model has no RoPE: it adds a position vector to each token before "
                       "the first layer, and turns nothing");
        float need = ui_text_wrapped(ui, body, FONT_SANS, t->small_size, t->text_dim, what, false);
        ui_text_wrapped(ui, rect_cut_top(&body, need + 4), FONT_SANS, t->small_size, t->text_dim,
                        what, true);
        ui_record(ui, "panel", kind == REAL_HEAD_FIRST ? "model_sinks" : "model_turns", -1, body);
    }
    int groups = tm->kv_heads > 0 && tm->kv_heads < tm->heads ? tm->kv_heads : 0;
    Rect kv_row = groups ? rect_cut_top(&body, lh + 4) : (Rect){0};
    Rect cols = rect_cut_top(&body, lh + 2);
    Rect rows = rect_cut_left(&body, ui_text_width(ui, FONT_MONO, t->small_size, "00") + 6);
    rect_cut_left(&cols, rows.w);
    /* a row under the grid for its colour bar */
    Rect legend_row = body.h > 6 * (lh + 10) ? rect_cut_bottom(&body, lh + 10) : (Rect){0};
    float cell = fminf(body.w / tm->heads, body.h / tm->layers);
    if (cell < 4) return;
    float spare = body.w - cell * tm->heads; /* the grid centred in what is left */
    body.x += spare * 0.5f;
    cols.x += spare * 0.5f;
    rows.x += spare * 0.5f;
    float gap = cell >= 24 ? 2 : cell >= 10 ? 1 : 0;
    int T = l->thumb;
    char num[16];
    if (groups) { /* grouped-query attention: which query heads share a key/value head */
        int per = tm->heads / groups;
        ui_record(ui, "legend", "model_kv_groups", -1, kv_row);
        for (int g = 0; g < groups; g++) {
            float x0 = body.x + g * per * cell, x1 = x0 + per * cell - gap;
            draw_rect(ui->dl, (Rect){x0 + 1, kv_row.y + kv_row.h - 3, x1 - x0 - 2, 2}, t->value);
            snprintf(num, sizeof num, "kv %d", g);
            if (ui_text_width(ui, FONT_MONO, t->small_size, num) <= x1 - x0)
                draw_text(ui->dl, FONT_MONO, t->small_size, (x0 + x1) * 0.5f, kv_row.y,
                          ALIGN_CENTER, t->value, num);
        }
    }
    for (int h = 0; h < tm->heads; h++)
        if (cell >= ui_text_width(ui, FONT_MONO, t->small_size, "00") || h % 4 == 0) {
            snprintf(num, sizeof num, "%d", h);
            draw_text(ui->dl, FONT_MONO, t->small_size, cols.x + (h + 0.5f) * cell, cols.y,
                      ALIGN_CENTER, t->text_dim, num);
        }
    for (int a = 0; a < tm->layers; a++) {
        if (cell >= lh || a % 4 == 0) {
            snprintf(num, sizeof num, "%d", a);
            draw_text(ui->dl, FONT_MONO, t->small_size, rows.x + rows.w - 4,
                      body.y + (a + 0.5f) * cell - lh * 0.5f, ALIGN_RIGHT, t->text_dim, num);
        }
        for (int h = 0; h < tm->heads; h++) {
            Rect c = {body.x + h * cell, body.y + a * cell, cell - gap, cell - gap};
            bool open = a == l->open_layer && h == l->open_head;
            if (ui_button(ui, "model_head", a * tm->heads + h, c, "", open) & UI_CLICKED) {
                view_act(vs, (Action){.kind = ACTION_REAL_OPEN, .c0 = a, .c1 = h});
                if (vs->real_head_mode == 3) compare_toggle(vs, a * tm->heads + h);
                if (vs->real_tab == 0 && ui->w < 1000) vs->real_tab = 1;
            }
            if (ui_hit(ui, c)) thumb_hover(vs, l, a, h);
            if (scores) {
                score_cell(ui, vs, l, kind, a, h, rect_inset(c, open ? 3 : 1));
            } else if (T > 0) {
                draw_heatmap(ui->dl, rect_inset(c, open ? 3 : 1),
                             l->thumbs + (ptrdiff_t)(a * tm->heads + h) * T * T, T, T, 0, 1,
                             vs->weight_map);
            }
            if (open) draw_rect_outline(ui->dl, c, 2, 2, t->accent);
            for (int k = 0; k < vs->real_compare_n && vs->real_head_mode == 3; k++)
                if (vs->real_compare[k] == a * tm->heads + h && !open)
                    draw_rect_outline(ui->dl, c, 2, 2, t->highlight);
        }
    }
    /* the pictures' colours: A's weights, from 0 to 1 */
    if (legend_row.h > 0)
        weight_legend(ui, vs,
                      (Rect){body.x, body.y + tm->layers * cell + 4,
                             fmaxf(fminf(cell * tm->heads, 360), 160), lh + 6});
}

/* A lesson step names the panel it is about: the Model view turns to it (its
 * tab, its mode) when the step opens and when the highlight changes. */
static void follow_lesson(View_State *vs) {
    char seen[sizeof vs->real_seen_highlight];
    const char *h = vs->session.active ? vs->session.highlight : "";
    snprintf(seen, sizeof seen, "%d %.30s", vs->session.active ? vs->session.step : -1, h);
    if (!strcmp(seen, vs->real_seen_highlight)) return;
    memcpy(vs->real_seen_highlight, seen, sizeof seen);
    static const struct {
        const char *panel;
        int tab, grid_mode, head_mode; /* −1: as it is */
    } follow[] = {
        {"model_grid", 0, 0, -1},  {"model_blocks", 0, 1, -1},  {"model_sinks", 0, 2, -1},
        {"model_turns", 0, 3, -1}, {"model_open", 1, -1, -1},   {"model_lines", 1, -1, 1},
        {"model_plane", 1, -1, 2}, {"model_compare", 1, -1, 3}, {"model_unturned", 1, -1, 4},
        {"model_next", 2, -1, -1}, {"model_write", 2, -1, -1},  {"model_cache", 2, -1, -1}};
    if (!strcmp(h, "model_next")) vs->real_next_mode = 0;
    if (!strcmp(h, "model_write") || !strcmp(h, "model_cache")) vs->real_next_mode = 1;
    for (size_t k = 0; k < sizeof follow / sizeof *follow; k++)
        if (!strcmp(h, follow[k].panel)) {
            vs->real_tab = follow[k].tab;
            if (follow[k].grid_mode >= 0) vs->real_grid_mode = follow[k].grid_mode;
            if (follow[k].head_mode >= 0) vs->real_head_mode = follow[k].head_mode;
        }
}

void real_frame(Ui *ui, View_State *vs, const Model *m, Rect r) {
    const Theme *t = ui->theme;
    const Real_Lab *l = &m->real;
    if (!l->model) {
        float lh = ui_line_height(ui, FONT_SANS, t->text_size);
        Rect row = rect_cut_top(&r, lh + 22);
        rect_cut_top(&r, t->pad);
        if (vs->editing && vs->real_typing_path) {
            edit_field(ui, vs, row);
        } else {
            Rect open =
                rect_cut_left(&row, ui_text_width(ui, FONT_SANS, t->text_size, _("Open model…")) +
                                        t->text_size * 1.2f);
            if (ui_button(ui, "model_open", -1, rect_inset(open, 2), _("Open model…"), false) &
                UI_CLICKED)
                start_typing_path(vs, m);
        }
        no_model(ui, vs, m, r);
        return;
    }
    update_labels(l);
    follow_lesson(vs);
    float lh = ui_line_height(ui, FONT_SANS, t->text_size);
    Rect info = rect_cut_top(&r, lh + 10);
    Rect open = rect_cut_right(&info, ui_text_width(ui, FONT_SANS, t->text_size, _("Open model…")) +
                                          t->text_size * 1.2f);
    if (ui_button(ui, "model_open", -1, open, _("Open model…"), vs->real_typing_path) & UI_CLICKED)
        start_typing_path(vs, m);
    rect_cut_right(&info, 8);
    info_line(ui, l, info);
    rect_cut_top(&r, 4);
    chips(ui, vs, m, rect_cut_top(&r, chips_height(ui, r.w)));
    rect_cut_top(&r, t->pad);
    if (l->fault[0]) {
        not_finite(ui, l, r);
        return;
    }
    bool mid = r.w < 1400; /* not wide enough for three readable columns */
    if (r.w >= 1000 && r.h >= 420 && (!mid || vs->real_next_mode == 1)) {
        /* three columns: the grid, the open head, the next tokens; or, writing at a middle
         * width, the writing along the bottom, wide enough for its candidates and cache
         * beside the tokens, under the grid and the open head */
        Rect next = {0};
        if (mid) {
            next = rect_cut_bottom(&r, r.h * 0.43f);
            rect_cut_bottom(&r, t->pad);
        }
        Rect grid = rect_cut_left(&r, r.w * 0.34f);
        rect_cut_left(&r, t->pad);
        if (!mid) {
            next = rect_cut_right(&r, r.w * 0.3f);
            rect_cut_right(&r, t->pad);
        }
        head_grid(ui, vs, l, grid);
        model_open_head(ui, vs, m, labels.ptr, labels.n, lit(vs, "model_head"), r);
        model_next_panel(ui, vs, l, next);
        return;
    }
    if (r.w >= 1000 && r.h >= 420) {
        /* the grid over the next tokens on the left, so the open head has two thirds of the
         * width for its pictures */
        const Net_Model *tm = &l->model->weights.model;
        Rect left = rect_cut_left(&r, r.w * 0.34f);
        rect_cut_left(&r, t->pad);
        /* the cells as wide as the column allows, and room for a mode's caption (up to four
         * small lines) and the key/value groups' marks */
        float small = ui_line_height(ui, FONT_SANS, t->small_size);
        float grid_h = fminf(left.h * 0.6f,
                             (left.w - 40) * (float)tm->layers / (float)tm->heads + 3 * lh + 60 +
                                 (vs->real_grid_mode >= 2 ? 4 * small + 4 : 0) +
                                 (tm->kv_heads > 0 && tm->kv_heads < tm->heads ? small + 4 : 0));
        Rect grid = rect_cut_top(&left, grid_h);
        rect_cut_top(&left, t->pad);
        head_grid(ui, vs, l, grid);
        model_next_panel(ui, vs, l, left);
        model_open_head(ui, vs, m, labels.ptr, labels.n, lit(vs, "model_head"), r);
        return;
    }
    /* low or narrow: one panel at a time */
    Rect tabs = rect_cut_top(&r, lh + 14);
    rect_cut_top(&r, 6);
    static const char *const names[3] = {N_("Every head"), N_("The open head"), N_("Next token")};
    model_button_row(ui, "model_tab", names, 3, tabs, &vs->real_tab);
    if (vs->real_tab == 0 && r.w >= 2 * r.h && l->open_layer >= 0) {
        /* wide and low (presenting at 2×): the grid's spare width goes to the open head */
        const Net_Model *tm = &l->model->weights.model;
        float grid_w = fminf(r.w * 0.45f, r.h * (float)tm->heads / (float)tm->layers + 60);
        head_grid(ui, vs, l, rect_cut_left(&r, grid_w));
        rect_cut_left(&r, t->pad);
        model_open_head(ui, vs, m, labels.ptr, labels.n, lit(vs, "model_head"), r);
    } else if (vs->real_tab == 0) {
        head_grid(ui, vs, l, r);
    } else if (vs->real_tab == 1)
        model_open_head(ui, vs, m, labels.ptr, labels.n, lit(vs, "model_head"), r);
    else
        model_next_panel(ui, vs, l, r);
}
