/* The Model view; see model_view.h. */
#include "../core/i18n.h"
#include "model_view.h"

#include "heatmap.h"
#include "labs.h"
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
    Real_Request *q = &vs->real_req;
    char err[600];
    if (l->model) {
        /* live while typing: every text that reads is run; one that does not
         * (empty, too long) waits, and Enter says why */
        bool live = vs->editing && !vs->real_typing_path && strcmp(vs->edit, l->text) != 0;
        if (q->text || live) {
            bool ok = real_lab_set_text(l, vs->edit, strlen(vs->edit), err, sizeof err);
            if (q->text && !ok) view_set_status(vs, true, _("Text not read: %s"), err);
        }
        int heads = l->model->weights.model.heads;
        if (q->open >= 0) real_lab_open(l, q->open / heads, q->open % heads);
        if (q->reorder)
            real_lab_rearrange(l, q->reorder - 1,
                               q->reorder == 2 ? (unsigned)++vs->shuffle_count : 0);
        if (q->move_from >= 0) real_lab_move(l, q->move_from, q->move_to);
        if (q->explore) {
            if (model_explore_real(m, err, sizeof err)) {
                vs->view = VIEW_EXPLORER;
                view_set_status(vs, false,
                                _("The explorer shows %s on this text: its own q, k and v (biases "
                                  "in) · Ctrl+Z goes back"),
                                m->learned.what);
            } else {
                view_set_status(vs, true, _("Cannot open that head in the explorer: %.400s"), err);
            }
        }
    }
    *q = (Real_Request){.open = -1, .move_from = -1};
    vs->real_busy = !real_lab_work(l, REAL_LAB_BUDGET_MS);
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
        N_("This view runs a real, trained GPT-2 on any text you type and shows every head. "
           "attnlab never downloads anything: it reads a checkpoint you have."),
        N_("GPT-2 small is at https://huggingface.co/openai-community/gpt2. Get its config.json, "
           "model.safetensors, vocab.json and merges.txt (or tokenizer.json), then:"),
        N_("drop the four files on this page, or pick them with Open model…"),
        N_("The page reads them where they are: nothing is sent anywhere.")};
    const char *paragraphs[5] = {
        m->real.note[0] ? m->real.note : _("No --model was given."),
        _("This view runs a real, trained GPT-2 on any text you type and shows every head. "
          "attnlab never downloads anything: it reads a checkpoint you have."),
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
    const Tf_Model *tm = &l->model->weights.model;
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
    flow.below = width - buttons < width * 0.5f;
    float w = flow.below ? width : width - buttons;
    if (!chip_flow(ui, t->text_size, w, 3) && !chip_flow(ui, t->small_size, w, CHIP_LINES))
        chip_flow(ui, t->small_size, w, CHIP_LINES);
    float chips = flow.lines * flow.line_h;
    return flow.below ? row + chips : fmaxf(chips, row);
}

/* The shown text's tokens as chips (laid out by chips_height), and the reorder buttons. */
static void chips(Ui *ui, View_State *vs, const Model *m, Rect r) {
    const Theme *t = ui->theme;
    if (vs->editing) { /* the text, or a model's folder or name to open */
        view_edit_field(ui, vs, rect_cut_top(&r, ui_line_height(ui, FONT_SANS, t->text_size) + 22));
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
            vs->real_req.reorder = k + 1;
    }
    if (!flow.below) r.w -= chip_buttons_width(ui);
    ui_record(ui, "panel", "model_tokens", -1, r);
    float h = flow.line_h - 8;
    int fit = flow.fit;
    if (fit < labels.n) {
        char more[48];
        snprintf(more, sizeof more, _("+%d more"), labels.n - fit);
        ui_label(ui, (Rect){r.x + flow.x[fit], r.y + flow.line[fit] * flow.line_h, 200, flow.line_h},
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
                vs->real_req.move_from = vs->drag_chip;
                vs->real_req.move_to = b;
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
        ui_label_abbrev(ui, c, FONT_SANS, flow.fs, ALIGN_CENTER,
                        dragging ? t->on_bright : t->text, labels.ptr[i]);
        if (dragging) draw_layer(ui->dl);
    }
}

/* A row of count buttons sharing r, one of them picked (*now): a click picks another. */
static void button_row(Ui *ui, const char *name, const char *const *names, int count, Rect r,
                       int *now) {
    float w = r.w / count;
    for (int k = 0; k < count; k++)
        if (ui_button(ui, name, k, (Rect){r.x + k * w + 2, r.y, w - 4, r.h}, _(names[k]),
                      *now == k) &
            UI_CLICKED)
            *now = k;
}

/* A box of the block diagram: its label, and its numbers when hovered. */
static bool block_box(Ui *ui, Rect b, const char *label, Color fill, bool open, const char *numbers,
                      View_State *vs) {
    const Theme *t = ui->theme;
    draw_round_rect(ui->dl, b, 4, fill);
    if (open) draw_rect_outline(ui->dl, b, 4, 2, t->accent);
    ui_label_abbrev(ui, b, FONT_SANS, t->small_size, ALIGN_CENTER, t->on_bright, label);
    bool over = ui_hit(ui, b);
    if (over) snprintf(vs->hover_text, sizeof vs->hover_text, "%s", numbers);
    return over && ui->in.released;
}

/* GPT-2 as boxes: embeddings and positions, then per layer LN → attention →
 * + → LN → MLP → +, then LN and the logits. Beside each layer, what its
 * attention and its MLP add to the residual stream (mean ‖Δx‖ over the
 * tokens) as bars; the open head's layer is marked, and a click on a
 * layer's attention opens that layer. Hovering a box gives its numbers. */
static void block_diagram(Ui *ui, View_State *vs, const Real_Lab *l, Rect body) {
    const Theme *t = ui->theme;
    const Tf_Model *tm = &l->model->weights.model;
    ui_record(ui, "panel", "model_blocks", -1, body);
    int rows = tm->layers + 3;
    float row = fminf(body.h / rows, 44), gap = row >= 20 ? 3 : 1;
    float lh = ui_line_height(ui, FONT_SANS, t->small_size);
    float label_w = ui_text_width(ui, FONT_MONO, t->small_size, "00") + 8;
    float bar_w = body.w * 0.28f;
    float box_w = (body.w - label_w - bar_w - 8) / 4;
    float big = 0;
    for (int a = 0; a < tm->layers; a++) big = fmaxf(big, fmaxf(l->attn_adds[a], l->mlp_adds[a]));
    char numbers[300], name[16];
    const char *adds = _("adds: attention, MLP");
    if (ui_text_width(ui, FONT_SANS, t->small_size, adds) > bar_w) adds = "adds";
    draw_text(ui->dl, FONT_SANS, t->small_size, body.x + body.w - bar_w, body.y, ALIGN_LEFT,
              t->text_dim, adds);
    body.y += row;
    Rect first = {body.x + label_w, body.y, 4 * box_w, row - gap};
    snprintf(numbers, sizeof numbers,
             _("token embeddings + learned positions: the residual stream x₀, ‖x₀‖ = %.2f on "
               "average over the tokens"),
             (double)l->stream_norm[0]);
    block_box(ui, first, _("embeddings + positions"), t->faint, false, numbers, vs);
    bool small = row < lh + 2;
    for (int a = 0; a < tm->layers; a++) {
        float y = body.y + (a + 1) * row;
        snprintf(name, sizeof name, "%d", a);
        if (!small || a % 4 == 0)
            draw_text(ui->dl, FONT_MONO, t->small_size, body.x + label_w - 6,
                      y + (row - gap - lh) * 0.5f, ALIGN_RIGHT, t->text_dim, name);
        float x = body.x + label_w;
        snprintf(numbers, sizeof numbers,
                 _("layer %d: LayerNorm, then %d heads read x_%d (‖x‖ = %.2f) and add %.2f to it; "
                   "click to open this layer's heads"),
                 a, tm->heads, a, (double)l->stream_norm[a], (double)l->attn_adds[a]);
        if (block_box(ui, (Rect){x, y, 2 * box_w - gap, row - gap},
                      small ? "" : _("LN → attention"), t->query, a == l->open_layer, numbers, vs))
            vs->real_req.open = a * tm->heads + (l->open_head >= 0 ? l->open_head : 0);
        snprintf(numbers, sizeof numbers,
                 _("layer %d: LayerNorm, then the MLP (%d wide, GELU) adds %.2f, which leaves the "
                   "stream at ‖x_%d‖ = %.2f"),
                 a, tm->inner, (double)l->mlp_adds[a], a + 1, (double)l->stream_norm[a + 1]);
        block_box(ui, (Rect){x + 2 * box_w, y, 2 * box_w - gap, row - gap},
                  small ? "" : _("LN → MLP"), t->value, false, numbers, vs);
        Rect bars = {body.x + body.w - bar_w, y + 1, bar_w, row - gap - 2};
        if (big > 0) {
            draw_rect(ui->dl,
                      (Rect){bars.x, bars.y, bars.w * l->attn_adds[a] / big, bars.h * 0.45f},
                      t->query);
            draw_rect(ui->dl,
                      (Rect){bars.x, bars.y + bars.h * 0.55f, bars.w * l->mlp_adds[a] / big,
                             bars.h * 0.45f},
                      t->value);
        }
    }
    Rect last = {body.x + label_w, body.y + (tm->layers + 1) * row, 4 * box_w, row - gap};
    snprintf(
        numbers, sizeof numbers,
        _("the last LayerNorm and the unembedding: the next token's logits, from ‖x_%d‖ = %.2f"),
        tm->layers, (double)l->stream_norm[tm->layers]);
    block_box(ui, last, _("LN → logits"), t->faint, false, numbers, vs);
}

/* Every head's A, small, a row a layer; a click opens one. */
static void head_grid(Ui *ui, View_State *vs, const Real_Lab *l, Rect r) {
    const Theme *t = ui->theme;
    const Tf_Model *tm = &l->model->weights.model;
    float title_h =
        ui_panel_wrapped(ui, r,
                         vs->real_grid_mode ? _("The model, block by block")
                                            : _("Every head: layers down, heads across"),
                         lit(vs, "model_grid"));
    ui_record(ui, "panel", "model_grid", -1, r);
    Rect body = rect_inset(r, t->pad);
    rect_cut_top(&body, title_h + 4);
    Rect modes = rect_cut_top(&body, ui_line_height(ui, FONT_SANS, t->text_size) + 10);
    rect_cut_top(&body, 6);
    static const char *const mode_names[2] = {N_("heads"), N_("blocks")};
    button_row(ui, "model_grid_mode", mode_names, 2, modes, &vs->real_grid_mode);
    if (vs->real_grid_mode == 1) {
        block_diagram(ui, vs, l, body);
        return;
    }
    float lh = ui_line_height(ui, FONT_MONO, t->small_size);
    Rect cols = rect_cut_top(&body, lh + 2);
    Rect rows = rect_cut_left(&body, ui_text_width(ui, FONT_MONO, t->small_size, "00") + 6);
    rect_cut_left(&cols, rows.w);
    float cell = fminf(body.w / tm->heads, body.h / tm->layers);
    if (cell < 4) return;
    float spare = body.w - cell * tm->heads; /* the grid centred in what is left */
    body.x += spare * 0.5f;
    cols.x += spare * 0.5f;
    rows.x += spare * 0.5f;
    float gap = cell >= 24 ? 2 : cell >= 10 ? 1 : 0;
    int T = l->thumb;
    char num[16];
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
                vs->real_req.open = a * tm->heads + h;
                if (vs->real_tab == 0 && ui->w < 1000) vs->real_tab = 1;
            }
            if (T > 0)
                draw_heatmap(ui->dl, rect_inset(c, open ? 3 : 1),
                             l->thumbs + (ptrdiff_t)(a * tm->heads + h) * T * T, T, T, 0, 1,
                             vs->weight_map);
            if (open) draw_rect_outline(ui->dl, c, 2, 2, t->accent);
        }
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
    plot_frame(ui, plot);
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
            bool first = i == last || i == hover || (key && A[(ptrdiff_t)last * n + (i - n)] >= 0.2f);
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

static void open_head(Ui *ui, View_State *vs, const Model *m, Rect r) {
    const Real_Lab *l = &m->real;
    const Theme *t = ui->theme;
    const Tf_Run *run = real_lab_shown(l);
    char title[96];
    snprintf(title, sizeof title, _("Layer %d, head %d"), l->open_layer, l->open_head);
    if (l->open_layer < 0 || !run) snprintf(title, sizeof title, "%s", _("No head open"));
    float title_h = ui_panel_wrapped(ui, r, title, lit(vs, "model_head"));
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
    static const char *const mode_names[3] = {N_("weights"), N_("lines"), N_("q · k plane")};
    const char *explore = _("explore ↗");
    Rect ex = rect_cut_right(&modes, ui_text_width(ui, FONT_SANS, t->text_size, explore) +
                                         t->text_size * 1.2f);
    rect_cut_right(&modes, 6);
    char why[200];
    if (model_explore_check(m, why, sizeof why)) {
        if (ui_button(ui, "model_explore", -1, ex, explore, false) & UI_CLICKED)
            vs->real_req.explore = true;
    } else if (!ui_hides(ui, "model_explore")) { /* off, and the pointer on it says why */
        ui_record(ui, "disabled", "model_explore", -1, ex);
        draw_round_rect(ui->dl, ex, t->radius, t->panel);
        draw_rect_outline(ui->dl, ex, t->radius, 1, t->panel_border);
        ui_label_fit(ui, rect_inset(ex, 4), FONT_SANS, t->text_size, ALIGN_CENTER, t->text_dim,
                     explore);
        if (ui_hit(ui, ex))
            snprintf(vs->hover_text, sizeof vs->hover_text, _("Not in the explorer: %s"), why);
    }
    button_row(ui, "model_head_mode", mode_names, 3, modes, &vs->real_head_mode);
    if (vs->real_head_mode == 1) {
        line_view(ui, vs, l, tf_attn(run, l->open_layer, l->open_head), body);
        return;
    }
    if (vs->real_head_mode == 2) {
        if (l->head_done) qk_plane(ui, vs, l, tf_attn(run, l->open_layer, l->open_head), body);
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
    Heatmap_Result res;
    ui_heatmap(ui,
               &(Heatmap_Desc){.name = "model_A",
                               .r = a,
                               .title = _("A: the weights"),
                               .caption = _("softmax(q·k/√d_h), masked; 0 to 1, each row sums to 1"),
                               .values = tf_attn(run, l->open_layer, l->open_head),
                               .rows = n,
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
                               .causal = true},
               &res);
    const float *A = tf_attn(run, l->open_layer, l->open_head);
    int hover_i = res.hover_row, hover_j = res.hover_col;
    if (!l->head_done) {
        model_head_hover(vs, l, A, hover_i, hover_j);
        return;
    }
    Heatmap_Result wres;
    ui_heatmap(ui,
               &(Heatmap_Desc){.name = "model_weighted",
                               .r = body,
                               .title = _("Weighted by what each value adds"),
                               .caption = _("a_ij·‖v_j W_O‖ as a share of its row; 0 to 1, "
                                            "each row sums to 1"),
                               .values = l->weighted_share,
                               .rows = n,
                               .cols = n,
                               .vmin = 0,
                               .vmax = 1,
                               .map = vs->weight_map,
                               .row_labels = named ? labels.ptr : NULL,
                               .col_labels = named ? labels.ptr : NULL,
                               .row_axis = N_("query"),
                               .col_axis = N_("key"),
                               .selected_row = -1,
                               .mark_row = res.hover_row,
                               .mark_col = res.hover_col,
                               .causal = true},
               &wres);
    if (hover_i < 0) hover_i = wres.hover_row, hover_j = wres.hover_col;
    model_head_hover(vs, l, A, hover_i, hover_j);
}

/* The ten likeliest next tokens, under a temperature. */
static void next_tokens(Ui *ui, View_State *vs, const Real_Lab *l, Rect r) {
    const Theme *t = ui->theme;
    float title_h = ui_panel_wrapped(ui, r, _("Next token"), lit(vs, "model_next"));
    ui_record(ui, "panel", "model_next", -1, r);
    Rect body = rect_inset(r, t->pad);
    rect_cut_top(&body, title_h + 4);
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
    if (k == 0) return;
    float row = fminf(body.h / k, ui_line_height(ui, FONT_SANS, t->text_size) + 10);
    float label_w = body.w * 0.45f;
    char label[10][REAL_LABEL];
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
    } follow[] = {{"model_grid", 0, 0, -1},  {"model_blocks", 0, 1, -1}, {"model_open", 1, -1, -1},
                  {"model_lines", 1, -1, 1}, {"model_plane", 1, -1, 2},  {"model_next", 2, -1, -1}};
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
            view_edit_field(ui, vs, row);
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
    if (r.w >= 1000 && r.h >= 420) {
        Rect grid = rect_cut_left(&r, r.w * 0.34f);
        rect_cut_left(&r, t->pad);
        Rect next = rect_cut_right(&r, r.w * 0.3f);
        rect_cut_right(&r, t->pad);
        head_grid(ui, vs, l, grid);
        open_head(ui, vs, m, r);
        next_tokens(ui, vs, l, next);
        return;
    }
    /* low or narrow: one panel at a time */
    Rect tabs = rect_cut_top(&r, lh + 14);
    rect_cut_top(&r, 6);
    static const char *const names[3] = {N_("Every head"), N_("The open head"), N_("Next token")};
    button_row(ui, "model_tab", names, 3, tabs, &vs->real_tab);
    if (vs->real_tab == 0)
        head_grid(ui, vs, l, r);
    else if (vs->real_tab == 1)
        open_head(ui, vs, m, r);
    else
        next_tokens(ui, vs, l, r);
}
