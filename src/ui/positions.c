/* The positional schemes' controls; see positions.h. */
#include "../core/i18n.h"
#include "positions.h"

#include <math.h>
#include <stdio.h>

/* How position enters, and that scheme's one number: in the explorer's
 * controls and in the permutation and shift labs, the same buttons and
 * slider under the same ids. choice: five buttons named "pos", indexed by
 * mode; param: the strength of an added term, rope's base, or what ALiBi's
 * slopes are. */
static const char *const pos_names[POS_MODE_COUNT] = {N_("none"), "sin", N_("learned"), "RoPE",
                                                      "ALiBi"};

const char *positions_name(int mode) {
    return mode >= 0 && mode < POS_MODE_COUNT ? _(pos_names[mode]) : "?";
}

float positions_buttons_width(Ui *ui) {
    float need = 0;
    for (int k = 0; k < POS_MODE_COUNT; k++)
        need = fmaxf(
            need, ui_text_width(ui, FONT_SANS, ui->theme->text_size * 0.85f, _(pos_names[k])) + 14);
    return need * POS_MODE_COUNT;
}

int positions_pick(Ui *ui, const char *const ids[3], Rect r, int now) {
    return positions_pick_first(ui, ids, r, now, POS_MODE_COUNT);
}

int positions_pick_first(Ui *ui, const char *const ids[3], Rect r, int now, int n) {
    const Theme *t = ui->theme;
    int picked = -1;
    if (positions_buttons_width(ui) * n / POS_MODE_COUNT <= r.w) {
        float w = r.w / n;
        for (int k = 0; k < n; k++) {
            Rect b = {r.x + k * w + 2, r.y + 3, w - 4, r.h - 6};
            if (ui_button(ui, ids[0], k, b, _(pos_names[k]), now == k) & UI_CLICKED && now != k)
                picked = k;
        }
        return picked;
    }
    Rect row = rect_inset(r, 2);
    float bw = fminf(fmaxf(row.h * 1.6f, 40), row.w * 0.3f);
    Rect prev = rect_cut_left(&row, bw), next = rect_cut_right(&row, bw);
    if (ui_button(ui, ids[1], -1, prev, "◀", false) & UI_CLICKED) picked = (now + n - 1) % n;
    if (ui_button(ui, ids[2], -1, next, "▶", false) & UI_CLICKED) picked = (now + 1) % n;
    ui_label_fit(ui, row, FONT_BOLD, t->text_size, ALIGN_CENTER, t->text, positions_name(now));
    return picked;
}

void positions_controls(Ui *ui, View_State *vs, const Model *m, Rect choice, Rect param) {
    const Theme *t = ui->theme;
    const Scene *s = &m->scene;
    if (!ui_hides(ui, "pos")) {
        static const char *const ids[3] = {"pos", "pos_prev", "pos_next"};
        int picked = positions_pick(ui, ids, choice, (int)s->pos);
        if (picked >= 0) view_act(vs, action_set(SET_POS, picked));
    }
    if (pos_mode_added(s->pos)) {
        float strength = s->pos_strength;
        if (ui_slider(ui, "pos_strength", -1, param, &strength,
                      &(Slider_Desc){.min = 0,
                                     .max = ATTN_MAX_POS_STRENGTH,
                                     .label = _("strength"),
                                     .format = "%.2f"}) &
            UI_CHANGED) {
            view_slider_gesture(vs);
            view_act(vs, action_set(SET_POS_STRENGTH, roundf(strength * 100) / 100));
        }
    } else if (s->pos == POS_ROPE) {
        float base = s->rope_base;
        if (ui_slider(ui, "rope_base", -1, param, &base,
                      &(Slider_Desc){.min = (float)ATTN_MIN_ROPE_BASE,
                                     .max = (float)ATTN_MAX_ROPE_BASE,
                                     .log = true,
                                     .integer = true,
                                     .label = _("base"),
                                     .format = "%.0f"}) &
            UI_CHANGED) {
            view_slider_gesture(vs);
            view_act(vs, action_set(SET_ROPE_BASE, roundf(base)));
        }
    } else {
        /* what the scheme has instead of a number, shorter where room is short */
        char line[96], brief[48];
        if (s->pos == POS_ALIBI) {
            snprintf(line, sizeof line, "s_ij − m·|i−j|,  m = %.3g%s", scene_alibi_slope(s, 0),
                     s->heads > 1 ? _(" (head 1)") : "");
            snprintf(brief, sizeof brief, "m = %.3g", scene_alibi_slope(s, 0));
        } else {
            snprintf(line, sizeof line, "%s", _("content only: order is unseen"));
            snprintf(brief, sizeof brief, "%s", _("order unseen"));
        }
        Rect in = rect_inset(param, 4);
        bool fits = ui_text_width(ui, FONT_SANS, t->small_size, line) <= in.w;
        ui_label_fit(ui, in, FONT_SANS, t->small_size, ALIGN_LEFT, t->text_dim,
                     fits ? line : brief);
    }
}
