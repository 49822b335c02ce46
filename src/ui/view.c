/* The interface, frame by frame: top bar, token chips, status line,
 * overlays and shortcuts; the panels of each view live in their own files.
 * See view.h. */
#include "../core/i18n.h"
#include "view.h"

#include "explain.h"
#include "explorer.h"
#include "permutation_view.h"
#include "scaling_view.h"
#include "shift_view.h"
#include "callout.h"
#include "edit_field.h"
#include "lesson_menu.h"
#include "lesson_panel.h"
#include "train_view.h"

#include "../core/text.h"
#include "model_view.h"
#include "../gfx/utf8.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- top bar ------------------------------------------------------------ */

/* The views, a row each (in View's order): the tab's label, whose first
 * character is its key; the frame that lays it out; the work it runs before
 * the layout, if any (a slice of training, of the real model's pass); and
 * whether it shows the scene's sentence (its chips on top, R, S and I reorder
 * it), where the Train and Model views read texts of their own. */
typedef struct View_Row {
    const char *tab;
    void (*frame)(Ui *ui, View_State *vs, const Model *m, Rect r);
    void (*update)(const Ui *ui, View_State *vs, Model *m);
    bool sentence;
} View_Row;

static const View_Row views[VIEW_COUNT] = {
    [VIEW_EXPLORER] = {N_("1 Explorer"), explorer_frame, NULL, true},
    [VIEW_SCALING] = {N_("2 Scaling"), scaling_frame, NULL, true},
    [VIEW_PERMUTATION] = {N_("3 Permutation"), permutation_frame, NULL, true},
    [VIEW_TRAIN] = {N_("4 Train"), train_frame, train_update, false},
    [VIEW_SHIFT] = {N_("5 Shift"), shift_frame, NULL, true},
    [VIEW_MODEL] = {N_("6 Model"), real_frame, real_update, false},
};

static void top_bar(Ui *ui, View_State *vs, Rect r) {
    const Theme *t = ui->theme;
    draw_rect(ui->dl, r, t->panel);
    Rect row = rect_inset(r, 8);
    /* Every language must fit at 1024 wide: the buttons on the right give up
     * their words for their icons first, then the title goes. */
    float pad = t->text_size * 1.2f, tabs_w = 0;
    for (int v = 0; v < VIEW_COUNT; v++)
        tabs_w += ui_text_width(ui, FONT_SANS, t->text_size, _(views[v].tab)) + pad + 6;
    const char *undo_l = _("↶ Undo"), *redo_l = _("↷ Redo"), *lessons_l = _("☰ Lessons");
    float words_w = ui_text_width(ui, FONT_SANS, t->text_size, undo_l) +
                    ui_text_width(ui, FONT_SANS, t->text_size, redo_l) +
                    ui_text_width(ui, FONT_SANS, t->text_size, lessons_l) + 3 * pad;
    float fixed_w = 44 + 56 + 4 * 6; /* help, language, the gaps */
    bool words = 110 + tabs_w + fixed_w + words_w <= row.w;
    if (!words) undo_l = "↶", redo_l = "↷", lessons_l = "☰";
    float icons_w = 3 * 44;
    if (words || 110 + tabs_w + fixed_w + icons_w <= row.w) {
        Rect title = rect_cut_left(&row, 110);
        ui_label(ui, title, FONT_BOLD, t->title_size + 3, ALIGN_LEFT, t->text, "attnlab");
    }
    for (int v = 0; v < VIEW_COUNT; v++) {
        Rect b =
            rect_cut_left(&row, ui_text_width(ui, FONT_SANS, t->text_size, _(views[v].tab)) + pad);
        rect_cut_left(&row, 6);
        /* the next frame switches, after deriving the new view's data: this
         * frame's panels were derived for the view it shows */
        if (ui_button(ui, "tab", v, b, _(views[v].tab), vs->view == (View)v) & UI_CLICKED)
            vs->view_asked = 1 + v;
    }
    float wl = words ? ui_text_width(ui, FONT_SANS, t->text_size, lessons_l) + pad : 44;
    float wr = words ? ui_text_width(ui, FONT_SANS, t->text_size, redo_l) + pad : 44;
    float wu = words ? ui_text_width(ui, FONT_SANS, t->text_size, undo_l) + pad : 44;
    Rect help = rect_cut_right(&row, 44);
    rect_cut_right(&row, 6);
    Rect lang = rect_cut_right(&row, 56);
    rect_cut_right(&row, 6);
    Rect lessons = rect_cut_right(&row, wl);
    rect_cut_right(&row, 6);
    if (ui_button(ui, "lessons", -1, lessons, lessons_l, vs->session.active) & UI_CLICKED)
        vs->session.menu = !vs->session.menu;
    if (vs->lang_count > 1 &&
        ui_button(ui, "lang", -1, lang, vs->lang_short[vs->lang], vs->lang_menu) & UI_CLICKED)
        vs->lang_menu = !vs->lang_menu;
    if (ui_button(ui, "help", -1, help, "?", vs->help) & UI_CLICKED) vs->help = !vs->help;
    Rect redo = rect_cut_right(&row, wr);
    rect_cut_right(&row, 6);
    Rect undo = rect_cut_right(&row, wu);
    if (ui_button(ui, "undo", -1, undo, undo_l, false) & UI_CLICKED)
        view_act(vs, action_of(ACTION_UNDO));
    if (ui_button(ui, "redo", -1, redo, redo_l, false) & UI_CLICKED)
        view_act(vs, action_of(ACTION_REDO));
}

/* The language picker: each language by its own name; a pick is applied by
 * the platform between frames (vs->lang_want) and kept in the settings. */
static void lang_menu(Ui *ui, View_State *vs) {
    const Theme *t = ui->theme;
    float row = ui_line_height(ui, FONT_SANS, t->text_size) + 16;
    bool closed = false;
    Rect body =
        ui_modal(ui, 420, row * (float)vs->lang_count + 90, _("Language"), "lang_menu", &closed);
    for (int k = 0; k < vs->lang_count; k++) {
        Rect b = rect_cut_top(&body, row - 6);
        rect_cut_top(&body, 6);
        if (ui_button(ui, "lang_item", k, b, vs->lang_names[k], k == vs->lang) & UI_CLICKED) {
            vs->lang_want = k;
            closed = true;
        }
    }
    if (closed) vs->lang_menu = false;
}

/* ---- token chips ---------------------------------------------------------- */

static float chip_width(Ui *ui, const char *token) {
    return ui_text_width(ui, FONT_SANS, ui->theme->text_size, token) + 24;
}

static void start_editing(View_State *vs, const Model *m) {
    vs->editing = true;
    size_t used = 0;
    for (int i = 0; i < m->scene.n && used + ATTN_MAX_TOKEN_BYTES + 1 < sizeof vs->edit; i++)
        used += (size_t)snprintf(vs->edit + used, sizeof vs->edit - used, i ? " %s" : "%s",
                                 m->scene.tokens[i]);
    vs->edit_len = (int)used;
    vs->edit_cursor = vs->edit_anchor = vs->edit_len;
}

/* Move the token at slot a to slot b, shifting the others: the permutation. */
static void move_slot(int n, int a, int b, int *p) {
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (i == b)
            p[i] = a;
        else {
            if (k == a) k++;
            p[i] = k++;
        }
    }
}

static void token_chips(Ui *ui, View_State *vs, const Model *m, Rect r) {
    const Theme *t = ui->theme;
    const Scene *s = &m->scene;
    float bw = t->text_size * 6.6f;
    Rect buttons = rect_cut_right(&r, 3 * bw + 2 * 6);
    rect_cut_right(&r, 8);
    static const char *const names[3] = {N_("Reverse (R)"), N_("Shuffle (S)"), N_("Restore (I)")};
    for (int k = 0; k < 3; k++) {
        Rect b = rect_cut_left(&buttons, bw);
        rect_cut_left(&buttons, 6);
        if (ui_button(ui,
                      k == 0   ? "reverse"
                      : k == 1 ? "shuffle"
                               : "restore",
                      -1, b, _(names[k]), false) &
            UI_CLICKED) {
            if (k == 0) view_act(vs, action_of(ACTION_REVERSE));
            if (k == 1) view_act(vs, view_shuffle(vs, s));
            if (k == 2) view_act(vs, action_of(ACTION_RESTORE_ORDER));
        }
    }
    if (vs->editing) {
        edit_field(ui, vs, r);
        return;
    }
    Rect edit = rect_cut_right(&r, t->text_size * 4.2f);
    if (ui_button(ui, "edit", -1, edit, _("✎ Edit"), false) & UI_CLICKED) start_editing(vs, m);
    rect_cut_right(&r, 8);

    /* Every chip can be reached: a row longer than the room scrolls with
     * the wheel, the ‹ › buttons and a chip dragged to either end, and the
     * selected chip is kept in view. */
    float fs = t->text_size, h = r.h - 8, gap = 6;
    float *xs = vs->chip_x;
    float total = 0;
    for (int i = 0; i < s->n; i++) total += chip_width(ui, s->tokens[i]) + (i ? gap : 0);
    bool overflow = total > r.w;
    Rect row = r;
    if (overflow) {
        Rect lb = rect_cut_left(&row, 30), rb = rect_cut_right(&row, 30);
        rect_cut_left(&row, 4);
        rect_cut_right(&row, 4);
        if (ui_button(ui, "chips_scroll", 0, rect_inset(lb, 2), "‹", false) & UI_CLICKED)
            vs->chip_scroll -= row.w * 0.8f;
        if (ui_button(ui, "chips_scroll", 1, rect_inset(rb, 2), "›", false) & UI_CLICKED)
            vs->chip_scroll += row.w * 0.8f;
        if (ui_hit(ui, r) && ui->in.wheel != 0) vs->chip_scroll -= ui->in.wheel * 60;
    }
    /* a dragged chip held near either end moves the row under it */
    vs->chip_autoscroll = false;
    if (overflow && vs->drag_chip >= 0 && vs->drag_chip_moved) {
        float edge = 36;
        if (ui->in.mx < row.x + edge) vs->chip_scroll -= 10, vs->chip_autoscroll = true;
        if (ui->in.mx > row.x + row.w - edge) vs->chip_scroll += 10, vs->chip_autoscroll = true;
    }
    float offset = 0;
    for (int i = 0; i < s->n; i++) {
        xs[i] = offset; /* from the start of the row, scrolled below */
        offset += chip_width(ui, s->tokens[i]) + gap;
    }
    if (vs->selected != vs->chip_seen_selected && vs->selected >= 0 && vs->selected < s->n) {
        float w = chip_width(ui, s->tokens[vs->selected]);
        if (xs[vs->selected] < vs->chip_scroll) vs->chip_scroll = xs[vs->selected];
        if (xs[vs->selected] + w > vs->chip_scroll + row.w)
            vs->chip_scroll = xs[vs->selected] + w - row.w;
        vs->chip_seen_selected = vs->selected;
    }
    float most = overflow ? total - row.w : 0;
    vs->chip_scroll = fminf(fmaxf(vs->chip_scroll, 0), most);
    for (int i = 0; i < s->n; i++) xs[i] += row.x - vs->chip_scroll;
    float x = row.x + total + gap - vs->chip_scroll; /* just past the last chip */
    /* dragging a chip: it follows the mouse; on release it lands in the slot
     * under the mouse and the tokens after it shift */
    if (vs->drag_chip >= 0) {
        if (fabsf(ui->in.mx - vs->drag_chip_x0) > 4) vs->drag_chip_moved = true;
        if (ui->in.released) {
            int a = vs->drag_chip, b = a;
            if (vs->drag_chip_moved) {
                for (int i = 0; i < s->n; i++)
                    if (ui->in.mx >= xs[i]) b = i;
                if (b != a) {
                    int p[ATTN_MAX_TOKENS];
                    move_slot(s->n, a, b, p);
                    view_act(vs, (Action){.kind = ACTION_PERMUTE, .n = s->n, .perm = p});
                }
            } else {
                vs->selected = a;
            }
            vs->drag_chip = -1;
        }
    }
    draw_clip(ui->dl, row);
    for (int i = 0; i < s->n; i++) {
        float w = chip_width(ui, s->tokens[i]);
        float cx = xs[i];
        if (vs->animating && vs->anim_from[i] != i)
            cx +=
                (xs[vs->anim_from[i]] - xs[i]) * vs->row_offset[i] / (float)(vs->anim_from[i] - i);
        Rect chip = {cx, r.y + 4, w, h};
        bool dragging = vs->drag_chip == i && vs->drag_chip_moved;
        if (dragging) {
            chip.x = ui->in.mx - vs->drag_chip_grab; /* held where it was taken */
            draw_layer(ui->dl); /* the chip in hand floats over its neighbours' labels */
        }
        /* only what is in sight is drawn, recorded and can be grabbed */
        bool seen = chip.x + chip.w > row.x && chip.x < row.x + row.w;
        if (!seen && !dragging) continue;
        ui_record(ui, "chip", "token", i, chip);
        if (ui_hit(ui, chip) && ui_hit(ui, row)) vs->hover_token = i;
        if (ui->in.pressed && ui_hit(ui, chip) && ui_hit(ui, row) && ui->active == 0 &&
            vs->drag_chip < 0) {
            vs->drag_chip = i;
            vs->drag_chip_x0 = ui->in.mx;
            vs->drag_chip_grab = ui->in.mx - chip.x;
            vs->drag_chip_moved = false;
            ui->active = ui_id("chip", i);
        }
        bool sel = i == vs->selected, key = i == vs->hover_col && vs->hover_row >= 0;
        Color bg = sel ? t->query : key ? t->key : t->button;
        if (dragging) bg = t->accent;
        draw_round_rect(ui->dl, chip, h * 0.5f, bg);
        if (t->line > 1) draw_rect_outline(ui->dl, chip, h * 0.5f, t->line, t->panel_border);
        if (i == vs->hover_token && !sel) draw_rect_outline(ui->dl, chip, h * 0.5f, 2, t->text_dim);
        ui_label(ui, chip, FONT_SANS, fs, ALIGN_CENTER, sel || key ? t->on_bright : t->text,
                 s->tokens[i]);
        if (dragging) draw_layer(ui->dl);
    }
    draw_noclip(ui->dl);
    /* clicking the empty part of the row edits the sentence */
    Rect rest = {x, r.y, r.x + r.w - x, r.h};
    if (!overflow && ui->in.pressed && ui_hit(ui, rest) && ui->active == 0) start_editing(vs, m);
}

/* ---- status line, tooltip, help ------------------------------------------ */

static void status_line(Ui *ui, View_State *vs, const Model *m, Rect r) {
    const Theme *t = ui->theme;
    bool err = vs->status_error && vs->status[0];
    draw_rect(ui->dl, r, err ? t->error_bg : t->panel);
    char buf[600];
    const Scene *s = &m->scene;
    if (vs->hover_row >= 0 && vs->hover_col >= 0 && !err) {
        explain_cell(m, view_attn(vs, m), vs->hover_row, vs->hover_col, buf, sizeof buf);
    } else if (vs->hover_text[0] && !err) {
        snprintf(buf, sizeof buf, "%s", vs->hover_text);
    } else if (vs->status[0]) {
        snprintf(buf, sizeof buf, "%s", vs->status);
    } else if (vs->view == VIEW_TRAIN && m->layers) {
        const Stack_Desc *d = &m->stack.stack.desc;
        snprintf(buf, sizeof buf,
                 _("Train view: %d × %d heads (layers × heads) learn the induction task on "
                   "sequences of %d tokens   ·   F1 for help"),
                 d->layers, d->heads, d->context);
    } else if (vs->view == VIEW_MODEL) {
        snprintf(buf, sizeof buf, "%s",
                 _("Model view: a real model's every head on your text   ·   click a head to open "
                   "it   ·   F1 for help"));
    } else if (vs->view == VIEW_TRAIN) { /* its sentences are its own, not the scene's */
        snprintf(buf, sizeof buf,
                 _("Train view: one head learns on toy sentences of %d tokens   ·   F1 for help"),
                 TRAIN_N);
    } else {
        char more[160] = "";
        if (s->heads > 1) snprintf(more, sizeof more, _("   H = %d heads"), s->heads);
        if (s->mask == MASK_CAUSAL)
            snprintf(more + strlen(more), sizeof more - strlen(more), "%s", _("   causal mask"));
        if (s->pos == POS_ROPE && s->d_k % 2) /* RoPE turns pairs: one coordinate is left */
            snprintf(more + strlen(more), sizeof more - strlen(more), "%s",
                     _("   (d_k odd: RoPE leaves its last coordinate unturned)"));
        if (s->pos_offset)
            snprintf(more + strlen(more), sizeof more - strlen(more), _("   from position %d"),
                     s->pos_offset);
        char learned[160] = "";
        if (scene_uses_learned(s, m->derived.learned)) /* not the seed's weights: say whose */
            snprintf(learned, sizeof learned, _("trained weights: %s   "), m->learned.what);
        snprintf(
            buf, sizeof buf,
            _("%sn = %d   d = %d   d_k = %d   d_v = %d   %s   positions: %s%s   ·   F1 for help"),
            learned, s->n, s->d, s->d_k, s->d_v, s->scaled ? _("scores ÷ √d_k") : "unscaled",
            _(pos_mode_name(s->pos)), more);
    }
    ui_label_fit(ui, rect_inset(r, 8), FONT_SANS, t->text_size, ALIGN_LEFT,
                 err ? t->error_text : t->text, buf);
}

/* Presenting has no status line: what it would say of a save, an export, an
 * error or training's progress shows as a note at the top, over the chip row,
 * wrapped rather than cut, for as long as the status line would show it (an
 * error until Esc). */
static void status_note(Ui *ui, const View_State *vs) {
    if (!vs->status[0]) return;
    const Theme *t = ui->theme;
    bool err = vs->status_error;
    float fs = t->text_size * 1.1f, maxw = ui->w * 0.8f;
    float w = fminf(ui_text_width(ui, FONT_SANS, fs, vs->status) + 2 * t->pad, maxw);
    float th = ui_text_wrapped(ui, (Rect){0, 0, w - 2 * t->pad, 1e6f}, FONT_SANS, fs, t->text,
                               vs->status, false);
    Rect box = {(ui->w - w) * 0.5f, 6, w, th + 2 * t->pad};
    draw_layer(ui->dl);
    draw_round_rect(ui->dl, box, t->radius, err ? t->error_bg : t->panel);
    draw_rect_outline(ui->dl, box, t->radius, 2 * t->line, err ? t->error_text : t->highlight);
    ui_record(ui, "label", "status", -1, box);
    ui_block(ui, box);
    ui_text_wrapped(ui, rect_inset(box, t->pad), FONT_SANS, fs, err ? t->error_text : t->text,
                    vs->status, true);
    draw_layer(ui->dl);
}

/* Presenting: what the status line would say of the hovered cell, large,
 * beside the mouse, so the room can read the arithmetic. */

static void help_overlay(Ui *ui, View_State *vs) {
    const Theme *t = ui->theme;
    /* where: 0 everywhere, 1 the desktop only, 2 the browser only (it keeps
     * F5, F11 and Ctrl+Q, and F12 may open its tools) */
    static const struct {
        const char *keys, *does;
        int where;
    } lines[] = {
        {"1  2  3  4  5  6", N_("Explorer · Scaling · Permutation · Train · Shift · Model"), 0},
        {N_("drag a point"), N_("move that token's embedding x_i"), 0},
        {N_("drag a chip"), N_("reorder the sentence (rows and columns follow)"), 0},
        {N_("click a row / chip"), N_("select the query shown on the right"), 0},
        {"↑  ↓", N_("select the query above · below"), 0},
        {N_("hover a cell"), N_("see the arithmetic behind s_ij and a_ij"), 0},
        {N_("Train: one head · layers"),
         N_("layers: an induction head forms · zero it · explore ↗"), 0},
        {N_("6  Model"), N_("a real model's every head · click one · ✎ Edit text"), 0},
        {N_("✎ Edit, or click the chip row"), N_("type a new sentence (Enter / Esc)"), 0},
        {"R  S  T  I", N_("reverse · shuffle · rotate by one · restore the order"), 0},
        {"Ctrl+Z   Ctrl+Shift+Z / Ctrl+Y", N_("undo · redo"), 0},
        {"Ctrl+S", N_("save the scene"), 1},
        {"Ctrl+S", N_("download the scene"), 2},
        {"Ctrl+=  Ctrl+-  Ctrl+0", N_("zoom in · out · reset"), 0},
        {"F11", "fullscreen", 1},
        {"F12   Shift+F12", N_("PNG of the window · of the panel under the mouse"), 1},
        {N_("Ctrl+P  (or F12)   +Shift"),
         N_("download a PNG of the window · of the panel under the mouse"), 2},
        {"Ctrl+E", N_("export every matrix as JSON"), 1},
        {"Ctrl+Shift+E  Ctrl+Shift+F",
         N_("vector PDF of the window · of the panel under the mouse"), 1},
        {"Ctrl+E", N_("download every matrix as JSON"), 2},
        {N_("drop a file, or Open…"), N_("open a scene (.json) or a lesson (.md)"), 2},
        {"F5", N_("reload shaders"), 1},
        {N_("← →  PgUp PgDn"), N_("previous · next lesson step"), 0},
        {N_("Home  End"), N_("first · last lesson step"), 0},
        {N_("Tab  Shift+Tab"), N_("move the focus from control to control"), 0},
        {N_("Space  Enter"), N_("press the focused button or switch"), 0},
        {N_("← → ↑ ↓  Home  End"), N_("move the focused slider"), 0},
        {"F2", N_("theme: dark · light (for pale projectors) · high contrast"), 0},
        {"P", N_("presenter layout: big panels, the lesson as a caption strip"), 0},
        {"F1  or  ?", N_("this help · Esc closes it"), 0},
    };
    int skip = vs->in_browser ? 1 : 2, count = 0;
    for (size_t k = 0; k < sizeof lines / sizeof *lines; k++) count += lines[k].where != skip;
    float lh = ui_line_height(ui, FONT_SANS, t->text_size) + 6;
    bool closed;
    Rect body = ui_modal(ui, 820, lh * (float)count + 90, _("Keys and gestures"), "help", &closed);
    /* a low window: rows close up, and the type gets smaller if it must */
    lh = fminf(lh, body.h / (float)count);
    float fs = ui_line_height(ui, FONT_SANS, t->text_size) <= lh ? t->text_size : t->small_size;
    for (size_t k = 0; k < sizeof lines / sizeof *lines; k++) {
        if (lines[k].where == skip) continue;
        Rect row = rect_cut_top(&body, lh);
        Rect key = rect_cut_left(&row, body.w * 0.42f);
        ui_label_fit(ui, key, FONT_BOLD, fs, ALIGN_LEFT, t->highlight, _(lines[k].keys));
        ui_label_fit(ui, row, FONT_SANS, fs, ALIGN_LEFT, t->text, _(lines[k].does));
    }
    if (closed) vs->help = false;
}

/* ---- shortcuts and animation --------------------------------------------- */

static void shortcuts(Ui *ui, View_State *vs, const Model *m) {
    if (vs->editing || vs->typing_dk) return;
    if (ui_key(ui, KEY_F1) || ui_key_char(ui, '?')) vs->help = !vs->help;
    if (ui_key(ui, KEY_F2)) vs->theme = (Theme_Id)((vs->theme + 1) % THEME_COUNT);
    if (ui_key_char(ui, 'p') || ui_key_char(ui, 'P')) vs->presenter = !vs->presenter;
    if (vs->help || vs->session.menu) return;
    if (ui_shortcut(ui, 'z', UI_MOD_CTRL)) view_act(vs, action_of(ACTION_UNDO));
    if (ui_shortcut(ui, 'z', UI_MOD_CTRL | UI_MOD_SHIFT) || ui_shortcut(ui, 'y', UI_MOD_CTRL))
        view_act(vs, action_of(ACTION_REDO));
    if (ui_shortcut(ui, 's', UI_MOD_CTRL)) vs->want_save = true;
    for (int v = 0; v < VIEW_COUNT; v++)
        if (ui_key_char(ui, views[v].tab[0])) vs->view = (View)v;
    /* the Train view trains its own toy sentences: the scene's order is not
     * on screen there, so its keys would change what nobody sees */
    bool sentence = views[vs->view].sentence;
    if (vs->view == VIEW_MODEL && m->real.model) /* the real model's tokens: reorder them */
        for (int k = 0; k < 3; k++)
            if (ui_key_char(ui, "rsi"[k]))
                view_act(vs, (Action){.kind = ACTION_REAL_ORDER,
                                      .i = k,
                                      .seed = k == 1 ? (unsigned)++vs->shuffle_count : 0});
    if (sentence && ui_key_char(ui, 'r')) view_act(vs, action_of(ACTION_REVERSE));
    if (sentence && ui_key_char(ui, 's')) view_act(vs, view_shuffle(vs, &m->scene));
    if (sentence && ui_key_char(ui, 'i')) view_act(vs, action_of(ACTION_RESTORE_ORDER));
    if (sentence && ui_key_char(ui, 't')) view_act(vs, (Action){.kind = ACTION_ROTATE, .i = 1});
    if (!ui_focus_takes_arrows(ui)) { /* a focused slider has the arrows */
        if (ui_key(ui, KEY_UP) && vs->selected > 0) vs->selected--;
        if (ui_key(ui, KEY_DOWN) && vs->selected + 1 < m->scene.n) vs->selected++;
    }
    if (ui_key(ui, KEY_ESCAPE)) vs->status[0] = '\0';
}

static float ease(float t) {
    return t < 0 ? 0 : t > 1 ? 1 : t * t * (3 - 2 * t);
}

/* Did the scene change by a reorder since the last frame? Then new position
 * i held the token at anim_from[i]: the same tokens, with their origins
 * moved. A new sentence or a scene of another size is no reorder. */
static bool seen_reorder(View_State *vs, const Scene *s) {
    int n = s->n;
    if (n != vs->seen_n || !memcmp(vs->seen_origin, s->origin, sizeof(int) * (size_t)n))
        return false;
    int where[ATTN_MAX_TOKENS]; /* last frame's position of each origin */
    for (int i = 0; i < n; i++) where[i] = -1;
    for (int i = 0; i < n; i++) {
        int o = vs->seen_origin[i];
        if (o < 0 || o >= n || where[o] >= 0) return false;
        where[o] = i;
    }
    for (int i = 0; i < n; i++) {
        int o = s->origin[i];
        if (o < 0 || o >= n || where[o] < 0 || strcmp(vs->seen_tokens[where[o]], s->tokens[i]))
            return false;
        vs->anim_from[i] = where[o];
    }
    return true;
}

static void animate(Ui *ui, View_State *vs, const Model *m) {
    const Scene *s = &m->scene;
    int n = s->n;
    if (m->version != vs->seen_version || vs->seen_n == 0) { /* seen_n 0: nothing seen yet */
        vs->seen_version = m->version;
        if (seen_reorder(vs, s)) {
            vs->anim_start = ui->in.time;
            vs->animating = true;
            /* the selected query follows its token, unless something chose
             * a new one along with the reorder (a lesson's "select") */
            for (int i = 0; i < n && vs->selected == vs->seen_selected; i++)
                if (vs->anim_from[i] == vs->selected) {
                    vs->selected = i;
                    break;
                }
        }
        vs->seen_n = n;
        memcpy(vs->seen_origin, s->origin, sizeof(int) * (size_t)n);
        memcpy(vs->seen_tokens, s->tokens, sizeof s->tokens[0] * (size_t)n);
    }
    /* rows start one after another (by where they go), each moving over 40 %
     * of the time: a reversal no longer squeezes every row into one pile at
     * its midpoint, only the two of a swapping pair meet, each pair at its
     * own moment */
    float t = vs->animating ? (float)((ui->in.time - vs->anim_start) / VIEW_ANIM_SECONDS) : 1;
    if (vs->animating && t >= 1) vs->animating = false;
    for (int i = 0; i < n; i++) {
        float delay = n > 1 ? 0.6f * (float)i / (float)(n - 1) : 0;
        float k = 1 - ease(fminf(fmaxf((t - delay) / 0.4f, 0), 1));
        vs->row_offset[i] = vs->animating ? (float)(vs->anim_from[i] - i) * k : 0;
    }
}

/* The one place the scene changes: every action asked for since the last
 * frame, in order, through model_apply. What the view does with the outcome
 * (a status line, the sentence editor closing) is decided here too. */
static void view_apply(View_State *vs, Model *m) {
    unsigned long version = m->version, said = vs->status_n;
    for (int k = 0; k < vs->actions.count; k++) {
        Action a = action_list_get(&vs->actions, k);
        char err[400];
        bool ok = model_apply(m, &a, err, sizeof err);
        switch (a.kind) {
        case ACTION_UNDO:
        case ACTION_REDO:
            if (!ok) view_set_status(vs, false, "%s", err);
            break;
        case ACTION_SENTENCE:
            if (ok) {
                vs->editing = false;
                vs->selected = 0;
                view_set_status(vs, false, _("New sentence: %d tokens"), m->scene.n);
            } else {
                view_set_status(vs, true, _("Sentence not applied: %s"), err);
            }
            break;
        case ACTION_REAL_TEXT:
            if (!ok) view_set_status(vs, true, _("Text not read: %s"), err);
            break;
        case ACTION_REAL_WRITE:
            if (!ok && a.i == REAL_WRITE_RECOMPUTE)
                view_set_status(vs, true, _("The model cannot recompute every step: %s"), err);
            else if (!ok)
                view_set_status(vs, true, _("The model cannot write: %s"), err);
            break;
        case ACTION_REAL_EXPLORE: /* the Model view's open head, exactly, as the scene */
            if (!ok) {
                view_set_status(vs, true, _("Cannot open that head in the explorer: %.400s"), err);
                break;
            }
            vs->view = VIEW_EXPLORER;
            view_set_status(vs, false,
                            _("The explorer shows %s on this text: its own q, k and v (biases "
                              "in) · Ctrl+Z goes back"),
                            m->learned.what);
            break;
        case ACTION_LAB_EXPLORE: /* the layers lab's head, with its weights, as the scene */
            if (!ok) {
                view_set_status(vs, true, _("Cannot open that head: %s"), err);
                break;
            }
            vs->view = VIEW_EXPLORER;
            view_set_status(vs, false,
                            _("The explorer shows %s: its trained W_Q, W_K, W_V on what it reads, "
                              "x of layer %d · Ctrl+Z goes back · a new seed, d or d_k returns to "
                              "random weights"),
                            m->learned.what, a.c0);
            break;
        default:
            if (!ok) view_set_status(vs, true, _("Not changed — %s"), err);
            break;
        }
    }
    action_list_clear(&vs->actions);
    /* a change the user made says more than an old message about another */
    if (m->version != version && vs->status_n == said) vs->status[0] = '\0';
}

/* Lay the frame out and draw it, once, from a model that does not change
 * while it happens: widgets ask for changes with view_act. */
static void layout(Ui *ui, View_State *vs, const Model *m) {
    const Theme *t = ui->theme;
    vs->layouts++;
    vs->laid_out_version = m->version;
    ui->highlight = vs->session.active ? vs->session.highlight : NULL;
    /* the teacher's hidden names and the lesson step's, for the widgets */
    snprintf(vs->hidden_now, sizeof vs->hidden_now, "%s%s", vs->teacher_hidden,
             vs->session.active ? vs->session.hidden : "");
    ui->hidden = vs->hidden_now;
    vs->hover_token = -1;
    vs->hover_text[0] = '\0';
    int prev_row = vs->hover_row, prev_col = vs->hover_col;
    vs->hover_row = vs->hover_col = -1;

    Rect r = {0, 0, ui->w, ui->h}; /* the renderer clears to t->bg */
    /* presenting: no tabs and no status line (the keys 1–4 and P still
     * work, and hovering a cell shows its arithmetic beside it) */
    Rect status = {0};
    if (!vs->presenter) {
        top_bar(ui, vs, rect_cut_top(&r, 52));
        status = rect_cut_bottom(&r, 36);
    }
    r = rect_inset(r, t->pad);
    /* chips first, but hover highlights from the panels below apply to them
     * next frame; keep last frame's hover for their colours */
    vs->hover_row = prev_row;
    vs->hover_col = prev_col;
    if (views[vs->view].sentence) { /* the others read their own text */
        token_chips(ui, vs, m, rect_cut_top(&r, 48));
        rect_cut_top(&r, t->pad);
    }
    vs->hover_row = vs->hover_col = -1;
    if (vs->session.active && vs->presenter) {
        /* a caption strip, 38 % of what is under the chips: room for a
         * step's prediction, goals and a page of its text, while S and A keep
         * cells over 64 px at 1920×1080 ×2 */
        Rect lr = rect_cut_bottom(&r, fmaxf(r.h * 0.38f, fminf(r.h, 120)));
        rect_cut_bottom(&r, t->pad);
        lesson_frame(ui, vs, m, lr);
    } else if (vs->session.active) {
        Rect lr = rect_cut_right(&r, fminf(fmaxf(r.w * 0.3f, fminf(r.w * 0.37f, 420)), 560));
        rect_cut_right(&r, t->pad);
        lesson_frame(ui, vs, m, lr);
    }
    if (vs->view >= 0 && vs->view < VIEW_COUNT) views[vs->view].frame(ui, vs, m, r);
    if (vs->presenter) {
        callout_hover(ui, vs, m);
        status_note(ui, vs);
    } else {
        status_line(ui, vs, m, status);
    }
    if (vs->help) help_overlay(ui, vs);
    if (vs->session.menu) lesson_menu(ui, vs);
    if (vs->lang_menu) lang_menu(ui, vs);
    if (vs->slider_gesture && (ui->in.released || !ui->in.down)) {
        view_act(vs, action_of(ACTION_GESTURE_END));
        vs->slider_gesture = false;
    }
}

/* The data a lab view shows (model/labs.h), computed only when what it
 * depends on changed; false when out of memory. */
static bool derive_labs(const View_State *vs, Model *m) {
    const Scene *s = &m->scene;
    switch (vs->view) {
    case VIEW_SCALING: {
        uint64_t seed = (uint64_t)s->seed * 1000003u + vs->scaling.resample;
        return labs_experiment(&m->labs, seed, s->d_k, vs->scaling.samples) &&
               labs_curves(&m->labs, s);
    }
    case VIEW_PERMUTATION:
        return labs_permutation(&m->labs, s, &m->derived);
    case VIEW_SHIFT:
        return shift_update(&m->labs.shift, s, &m->derived, vs->selected, vs->shift_key);
    default:
        return true;
    }
}

void view_frame(Ui *ui, View_State *vs, Model *m) {
    /* small windows (or big zoom) get the compact type sizes */
    ui->theme = theme_get(vs->theme, ui->w < 1300 || ui->h < 760);
    vs->now = ui->in.time;
    vs->framing = true;
    if (isnan(vs->status_time)) vs->status_time = vs->now; /* said since the last frame */
    if (view_wake_in(vs) == 0) vs->status[0] = '\0';       /* a message had its time */
    /* input → actions → model → derived data, then one layout */
    ui->keyboard_busy = vs->editing || vs->typing_dk; /* typing: keys are text */
    shortcuts(ui, vs, m);
    if (vs->view_asked) {
        vs->view = (View)(vs->view_asked - 1);
        vs->view_asked = 0;
    }
    view_apply(vs, m); /* what last frame's widgets and this frame's keys asked for */
    if (views[vs->view].update) views[vs->view].update(ui, vs, m); /* a slice of its work */
    train_drain(ui, vs, m);   /* steps a lesson or "+100" asked for: a slice a frame */
    lesson_update(ui, vs, m); /* a lesson step or _("show me") acts on the model */
    if (!model_update(m)) view_set_status(vs, true, _("Out of memory computing attention"));
    vs->labs_ready = derive_labs(vs, m);
    if (vs->head >= m->scene.heads) vs->head = 0; /* fewer heads now */
    if (vs->selected >= m->scene.n) vs->selected = m->scene.n - 1;
    if (vs->selected < 0) vs->selected = 0;
    animate(ui, vs, m);
    layout(ui, vs, m);
    vs->seen_selected = vs->selected; /* what the next frame compares with */
    vs->framing = false;
}
