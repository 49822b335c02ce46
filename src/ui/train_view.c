/* The Train view; see train_view.h. */
#include "../core/i18n.h"
#include "train_view.h"

#include "heatmap.h"
#include "layers_view.h"
#include "positions.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- before the layout ------------------------------------------------------ */

void train_update(const Ui *ui, View_State *vs, Model *m) {
    if (layers_update(ui, vs, m)) return; /* the layers model is on screen */
    Train_Lab *l = &m->train;
    if (!l->ready && !train_lab_reset(l, &(Train_Desc){.seed = 1}, false)) {
        view_set_status(vs, true, _("Out of memory for the training lab"));
        return;
    }
    /* the controls' asks came as actions (model_apply), before this update */
    /* a slice costs about the same whatever the width: fewer steps for a
     * wide head (and for two), so frames stay quick; the steps themselves
     * are the same steps, so the result never depends on the slicing */
    if (l->running) {
        long slice = TRAIN_SLICE * 16 / (l->trainer.d_k * (l->compare ? 2 : 1));
        train_lab_run(l, slice < 1 ? 1 : slice > TRAIN_SLICE ? TRAIN_SLICE : slice);
    }
    vs->train_running = l->running;
    /* steps per second of view time, measured over about a second */
    double now = ui->in.time;
    if (now - vs->train_rate_t0 >= 1.0 || now < vs->train_rate_t0) {
        long done = l->trainer.steps - vs->train_rate_steps0;
        vs->train_rate = now > vs->train_rate_t0 && done > 0 ? done / (now - vs->train_rate_t0) : 0;
        vs->train_rate_t0 = now;
        vs->train_rate_steps0 = l->trainer.steps;
    }
    train_lab_derive(l);
}

/* The layers lab's asked-for steps, like the one head's below. */
static void drain_layers(const Ui *ui, View_State *vs, Stack_Lab *l) {
    if (ui_key(ui, KEY_ESCAPE)) {
        view_set_status(vs, false, _("Training stopped at step %ld (%ld asked-for steps not run)"),
                        l->stack.steps, l->queued);
        l->queued = 0;
        vs->train_queued = false;
        return;
    }
    long steps = TRAIN_DRAIN_UNITS / stack_lab_step_cost(l);
    if (steps < 1) steps = 1;
    if (steps > l->queued) steps = l->queued;
    l->queued -= steps;
    stack_lab_run(l, steps);
    vs->train_queued = l->queued > 0;
    if (vs->train_queued)
        view_set_status(vs, false, _("Training: step %ld, %ld to go · Esc stops"), l->stack.steps,
                        l->queued);
    else
        view_set_status(vs, false, _("Trained to step %ld"), l->stack.steps);
    stack_lab_derive(l); /* this frame's pictures show where the slice ended */
}

void train_drain(const Ui *ui, View_State *vs, Model *m) {
    if (m->stack.queued > 0) {
        drain_layers(ui, vs, &m->stack);
        return;
    }
    Train_Lab *l = &m->train;
    vs->train_queued = l->queued > 0;
    if (l->queued <= 0) return;
    if (ui_key(ui, KEY_ESCAPE)) {
        view_set_status(vs, false, _("Training stopped at step %ld (%ld asked-for steps not run)"),
                        l->trainer.steps, l->queued);
        l->queued = 0;
        vs->train_queued = false;
        return;
    }
    if (!train_lab_drain(l, TRAIN_DRAIN_UNITS)) {
        view_set_status(vs, true, _("Out of memory for training"));
        l->queued = 0;
    }
    vs->train_queued = l->queued > 0;
    if (vs->train_queued)
        view_set_status(vs, false, _("Training: step %ld, %ld to go · Esc stops"), l->trainer.steps,
                        l->queued);
    else
        view_set_status(vs, false, _("Trained to step %ld"), l->trainer.steps);
    train_lab_derive(l); /* when due: this frame's numbers show where the slice ended */
}

/* ---- the panels ---------------------------------------------------------------- */

/* The positional scheme, as the explorer picks it. */
static void scheme_choice(Ui *ui, View_State *vs, const Train_Lab *l, Rect row) {
    static const char *const ids[3] = {"train_pos", "train_pos_prev", "train_pos_next"};
    int picked = positions_pick(ui, ids, row, (int)l->trainer.pos);
    if (picked >= 0) view_act(vs, action_lab_set(LAB_ONE_HEAD, LAB_KNOB_POS, picked));
}

/* Train short, test long: each scheme's last accuracy at the training
 * length and at twice it, for the task on screen. */
static void lengths_table(Ui *ui, const Train_Lab *l, Rect r) {
    const Theme *t = ui->theme;
    if (ui_hidden_if(ui, r, _("Train short, test long"), "train_lengths")) return;
    float title_h = ui_panel_wrapped(ui, r, _("Train short, test long"), false);
    ui_record(ui, "panel", "train_lengths", -1, r);
    Rect body = rect_inset(r, t->pad);
    rect_cut_top(&body, title_h + 4);
    float lh = ui_line_height(ui, FONT_SANS, t->small_size);
    float row_h = fminf(lh + 6, body.h / 6);
    if (row_h < lh) return;
    int task = l->desc.task == TRAIN_PREVIOUS;
    char head[3][32];
    snprintf(head[0], sizeof head[0], "steps");
    snprintf(head[1], sizeof head[1], "n = %d", TRAIN_N);
    snprintf(head[2], sizeof head[2], "n = %d", TRAIN_LAB_LONG_N);
    float c0 = body.w * 0.34f, cw = (body.w - c0) / 3;
    Rect hr = rect_cut_top(&body, row_h);
    ui_label_fit(ui, (Rect){hr.x, hr.y, c0, hr.h}, FONT_SANS, t->small_size, ALIGN_LEFT,
                 t->text_dim, "accuracy");
    for (int c = 0; c < 3; c++)
        ui_label_fit(ui, (Rect){hr.x + c0 + c * cw, hr.y, cw - 4, hr.h}, FONT_SANS, t->small_size,
                     ALIGN_RIGHT, t->text_dim, head[c]);
    for (int k = 0; k < 5; k++) {
        const Train_Length_Row *row = &l->lengths[task][k];
        Rect rr = rect_cut_top(&body, row_h);
        if ((int)l->trainer.pos == k) draw_round_rect(ui->dl, rr, 3, t->goal_bg);
        ui_label_fit(ui, (Rect){rr.x + 4, rr.y, c0 - 4, rr.h}, FONT_BOLD, t->small_size, ALIGN_LEFT,
                     t->text, positions_name(k));
        char cell[3][32];
        if (row->filled) {
            snprintf(cell[0], sizeof cell[0], "%ld", row->steps);
            snprintf(cell[1], sizeof cell[1], "%.0f %%", 100 * row->accuracy);
            snprintf(cell[2], sizeof cell[2], "%.0f %%", 100 * row->accuracy_long);
        } else {
            for (int c = 0; c < 3; c++) snprintf(cell[c], sizeof cell[c], "—");
        }
        for (int c = 0; c < 3; c++)
            ui_label_fit(ui, (Rect){rr.x + c0 + c * cw, rr.y, cw - 4, rr.h}, FONT_MONO,
                         t->small_size, ALIGN_RIGHT, t->text, cell[c]);
    }
}

/* The training loss on a log axis, with chance as a line. */
static void loss_plot(Ui *ui, const Train_Lab *l, Rect r) {
    const Theme *t = ui->theme;
    if (ui_hidden_if(ui, r, _("Training loss"), "train_loss")) return;
    float title_h = ui_panel_wrapped(ui, r, _("Training loss (log scale) and chance"), false);
    ui_record(ui, "panel", "train_loss", -1, r);
    Rect body = rect_inset(r, t->pad);
    rect_cut_top(&body, title_h + 4);
    float lh = ui_line_height(ui, FONT_SANS, t->small_size);
    Rect ticks = rect_cut_bottom(&body, lh + 2);
    Rect yax = rect_cut_left(&body, 48);
    Rect plot = body;
    ui_plot_area(ui, plot);
    const double lo = log(1e-3), hi = log(8.0);
    /* a decade lower than a label: every other decade says its value */
    float decade = plot.h * (float)(log(10.0) / (hi - lo));
    for (int e = -3; e <= 0; e++) {
        double v = pow(10, e);
        float sy = plot.y + plot.h * (float)(1 - (log(v) - lo) / (hi - lo));
        char buf[16];
        snprintf(buf, sizeof buf, "%g", v);
        draw_line(ui->dl, plot.x, sy, plot.x + plot.w, sy, 1, t->grid);
        if (decade < lh && e % 2) continue;
        draw_text(ui->dl, FONT_MONO, t->small_size, yax.x + yax.w - 4, sy - lh * 0.5f, ALIGN_RIGHT,
                  t->text_dim, buf);
    }
    double chance = train_chance(TRAIN_N);
    float cy = plot.y + plot.h * (float)(1 - (log(chance) - lo) / (hi - lo));
    draw_line(ui->dl, plot.x, cy, plot.x + plot.w, cy, 2, t->highlight);
    draw_text(ui->dl, FONT_SANS, t->small_size, plot.x + plot.w - 4, cy - lh - 2, ALIGN_RIGHT,
              t->highlight, _("chance ln 7"));
    long steps = l->trainer.steps;
    char buf[48];
    snprintf(buf, sizeof buf, _("%ld steps"), steps);
    draw_text(ui->dl, FONT_MONO, t->small_size, plot.x + plot.w, ticks.y + 2, ALIGN_RIGHT,
              t->text_dim, buf);
    draw_text(ui->dl, FONT_MONO, t->small_size, plot.x, ticks.y + 2, ALIGN_LEFT, t->text_dim, "0");
    /* with compare, the same head with the other scaling beside it */
    Color colours[2] = {l->desc.unscaled ? t->query : t->accent,
                        l->desc.unscaled ? t->accent : t->query};
    if (l->compare) {
        const char *names[2] = {l->desc.unscaled ? _("unscaled") : "÷ √d_k",
                                l->desc.unscaled ? "÷ √d_k" : "unscaled"};
        float lx = plot.x + 8;
        for (int c = 0; c < 2; c++) {
            draw_line(ui->dl, lx, plot.y + 10, lx + 22, plot.y + 10, 3, colours[c]);
            draw_text(ui->dl, FONT_SANS, t->small_size, lx + 28, plot.y + 10 - lh * 0.5f,
                      ALIGN_LEFT, t->text, names[c]);
            lx += 40 + ui_text_width(ui, FONT_SANS, t->small_size, names[c]);
        }
    }
    if (l->points < 2) return;
    for (int c = 0; c < (l->compare ? 2 : 1); c++) {
        const double *loss = c ? l->loss_other : l->loss;
        float px = 0, py = 0;
        for (int k = 0; k < l->points; k++) {
            double v = fmin(fmax(loss[k], 1e-3), 8.0);
            float sx = plot.x + plot.w * (float)k / (float)(l->points - 1);
            float sy = plot.y + plot.h * (float)(1 - (log(v) - lo) / (hi - lo));
            if (k) draw_line(ui->dl, px, py, sx, sy, 2.5f, colours[c]);
            px = sx;
            py = sy;
        }
    }
}

static void controls(Ui *ui, View_State *vs, const Train_Lab *l, Rect r) {
    const Theme *t = ui->theme;
    if (ui_hidden_if(ui, r, _("Train one head"), "train_controls")) return;
    ui_panel(ui, r, _("Train one head"), false);
    ui_record(ui, "panel", "train_controls", -1, r);
    Rect body = rect_inset(r, t->pad);
    rect_cut_top(&body, ui_line_height(ui, FONT_BOLD, t->title_size) + 6);
    float row_h = fminf(44, body.h / 10.0f);
    Rect row = rect_cut_top(&body, row_h);
    const Ui_Strip_Button run[4] = {{"train_play", l->running ? "❚❚" : "▶", l->running},
                                    {"train_one", "+1", false},
                                    {"train_more", "+100", false},
                                    {"train_reset", "⟲", false}};
    int clicked = ui_button_strip(ui, row, run, 4);
    if (clicked == 0) view_act(vs, action_lab(ACTION_LAB_PLAY, LAB_ONE_HEAD));
    if (clicked == 1 || clicked == 2)
        view_act(
            vs, (Action){.kind = ACTION_LAB_STEPS, .i = LAB_ONE_HEAD, .n = clicked == 1 ? 1 : 100});
    if (clicked == 3) view_act(vs, action_lab(ACTION_LAB_RESET, LAB_ONE_HEAD));
    row = rect_cut_top(&body, row_h);
    static const char *const tasks[2] = {"match", "previous"};
    for (int k = 0; k < 2; k++) {
        Rect tb = k ? row : rect_cut_left(&row, (row.w - 6) * 0.5f);
        if (!k) rect_cut_left(&row, 6);
        if (ui_button(ui, "train_task", k, rect_inset(tb, 2), tasks[k], (int)l->desc.task == k) &
            UI_CLICKED)
            view_act(vs, action_lab_set(LAB_ONE_HEAD, LAB_KNOB_TASK, k));
    }
    scheme_choice(ui, vs, l, rect_cut_top(&body, row_h));
    row = rect_cut_top(&body, row_h);
    bool scaled = !l->desc.unscaled;
    if (ui_toggle(ui, "train_scale", -1, row, "÷ √d_k", &scaled) & UI_CHANGED)
        view_act(vs, action_lab_set(LAB_ONE_HEAD, LAB_KNOB_SCALED, scaled));
    bool compare = l->compare;
    if (ui_toggle(ui, "train_compare", -1, rect_cut_top(&body, row_h), _("compare ÷√d_k on/off"),
                  &compare) &
        UI_CHANGED)
        view_act(vs, action_lab_set(LAB_ONE_HEAD, LAB_KNOB_COMPARE, compare));
    float lr = (float)l->trainer.desc.lr;
    if (ui_slider(ui, "train_lr", -1, rect_cut_top(&body, row_h), &lr,
                  &(Slider_Desc){.min = 1e-4f,
                                 .max = 1,
                                 .log = true,
                                 .label = _("learning rate"),
                                 .short_label = "lr",
                                 .format = "%.4f"}) &
        UI_CHANGED)
        view_act(vs, action_lab_set(LAB_ONE_HEAD, LAB_KNOB_LR, lr));
    float dk = (float)l->trainer.d_k;
    if (ui_slider(ui, "train_dk", -1, rect_cut_top(&body, row_h), &dk,
                  &(Slider_Desc){.min = 1,
                                 .max = 256,
                                 .log = true,
                                 .integer = true,
                                 .label = "d_k",
                                 .short_label = "d_k",
                                 .format = "%.0f"}) &
        UI_CHANGED)
        view_act(vs, action_lab_set(LAB_ONE_HEAD, LAB_KNOB_DK, (int)dk));
    /* where training stands */
    char text[400];
    double chance = train_chance(TRAIN_N);
    snprintf(text, sizeof text,
             _("step %ld · held-out loss %.3f (chance %.3f, %.0f %% of it) · accuracy %.1f %% · "
               "%.0f steps/s"),
             l->trainer.steps, l->held_loss, chance, 100 * l->held_loss / chance,
             100 * l->held_accuracy, vs->train_rate);
    if (l->compare) {
        size_t used = strlen(text);
        snprintf(text + used, sizeof text - used, _(" · the other scaling: held-out loss %.3f"),
                 l->held_loss_other);
    }
    rect_cut_top(&body, 6);
    ui_text_wrapped(ui, body, FONT_SANS, t->text_size, t->text, text, true);
}

/* "one head" | "layers": which lab the view shows. */
static void model_switch(Ui *ui, View_State *vs, const Model *m, Rect row) {
    static const char *const names[2] = {N_("one head"), N_("layers")};
    for (int k = 0; k < 2; k++) {
        Rect b = k ? row : rect_cut_left(&row, (row.w - 6) * 0.5f);
        if (!k) rect_cut_left(&row, 6);
        if (ui_button(ui, "train_model", k, rect_inset(b, 2), _(names[k]), m->layers == (k == 1)) &
            UI_CLICKED)
            view_act(vs, action_lab(ACTION_LAB_SHOW, k ? LAB_LAYERS : LAB_ONE_HEAD));
    }
}

void train_frame(Ui *ui, View_State *vs, const Model *m, Rect r) {
    const Theme *t = ui->theme;
    const Train_Lab *l = &m->train;
    Rect left = rect_cut_left(&r, fminf(fmaxf(r.w * 0.3f, 260), 420));
    rect_cut_left(&r, t->pad);
    model_switch(ui, vs, m, rect_cut_top(&left, fminf(44, fmaxf(left.h / 14, 30))));
    rect_cut_top(&left, t->pad * 0.5f);
    if (m->layers) {
        layers_frame(ui, vs, m, left, r);
        return;
    }
    if (!l->ready) return; /* out of memory: the status line says so */
    /* the table under the controls, when the column has room for both */
    float lh = ui_line_height(ui, FONT_SANS, t->small_size);
    float table_h = 6 * (lh + 6) + ui_line_height(ui, FONT_BOLD, t->title_size) + 2 * t->pad + 8;
    bool table_left = left.h - table_h >= 360;
    if (table_left) {
        Rect table = rect_cut_bottom(&left, table_h);
        rect_cut_bottom(&left, t->pad);
        lengths_table(ui, l, table);
    }
    controls(ui, vs, l, left);
    /* low (presenting, a projector's zoom): the heatmaps' rows need the room */
    Rect top = rect_cut_top(&r, (r.h - t->pad) * (r.h < 480 ? 0.3f : 0.45f));
    rect_cut_top(&r, t->pad);
    /* else beside the heatmaps where three columns fit; else, when a lesson
     * step points at it, in the learned form's place */
    bool asked = vs->session.active && !strcmp(vs->session.highlight, "train_lengths");
    bool third = !table_left && r.w >= 3 * 250;
    if (third) {
        Rect table = rect_cut_right(&r, fminf(r.w * 0.3f, 320));
        rect_cut_right(&r, t->pad);
        lengths_table(ui, l, table);
    }
    bool instead = !table_left && !third && asked;
    loss_plot(ui, l, top);
    /* the example sentence's A, and what W_Q and W_K have learned */
    const Trainer *tr = &l->trainer;
    int n = tr->n;
    char names[TRAIN_N][8];
    const char *labels[TRAIN_N];
    for (int i = 0; i < n; i++) {
        train_token_name(l->desc.task, l->example[i], names[i], sizeof names[i]);
        labels[i] = names[i];
    }
    float A[TRAIN_N * TRAIN_N], B[TRAIN_N * TRAIN_N];
    for (int k = 0; k < n * n; k++) A[k] = (float)l->example_A[k];
    float bmax = 1e-6f;
    for (int k = 0; k < n * n; k++) {
        B[k] = (float)l->example_scores[k];
        bmax = fmaxf(bmax, fabsf(B[k]));
    }
    Rect ar = rect_cut_left(&r, (r.w - t->pad) * 0.5f);
    rect_cut_left(&r, t->pad);
    Heatmap_Result res;
    ui_heatmap(
        ui,
        &(Heatmap_Desc){.name = "train_A",
                        .r = ar,
                        .title = _("A of one held-out sentence"),
                        .caption = l->desc.task == TRAIN_MATCH
                                       ? _("each token should look at its colour's other kind")
                                       : _("each token should look one place to the left"),
                        .values = A,
                        .rows = n,
                        .cols = n,
                        .vmin = 0,
                        .vmax = 1,
                        .map = vs->weight_map,
                        .row_labels = labels,
                        .col_labels = labels,
                        .row_axis = N_("query"),
                        .col_axis = N_("key"),
                        .numbers = true,
                        .decimals = 2,
                        .selected_row = -1,
                        .mark_row = -1,
                        .mark_col = -1},
        &res);
    if (instead) {
        lengths_table(ui, l, r);
        return;
    }
    ui_heatmap(
        ui,
        &(Heatmap_Desc){.name = "train_bilinear",
                        .r = r,
                        .title = _("W_Q·W_Kᵀ over this sentence's tokens"),
                        .caption = _("x_i · (W_Q W_Kᵀ) · x_j: the learned form's scores, before "
                                     "scaling"),
                        .values = B,
                        .rows = n,
                        .cols = n,
                        .vmin = -bmax,
                        .vmax = bmax,
                        .map = COLORMAP_DIVERGING,
                        .row_labels = labels,
                        .col_labels = labels,
                        .row_axis = N_("query"),
                        .col_axis = N_("key"),
                        .selected_row = -1,
                        .mark_row = -1,
                        .mark_col = -1},
        &res);
}
