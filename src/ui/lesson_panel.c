/* The lesson panel: the step's text rendered from Markdown, its goals with
 * live check marks, "show me", and stepping through the lesson. Entering a
 * lesson keeps the student's scene; leaving gives it back. */
#include "lesson_panel.h"

#include "../model/lesson_goals.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- entering, stepping, leaving ------------------------------------------- */
/* These run before the frame lays out (lesson_update): a lesson's set-up and
 * its "show me" act on the model there, through model_apply, so the panels
 * that follow all show the scene the step asks for. */

static Lesson_Env env_of(View_State *vs, Model *m) {
    Lesson_Env env = {.m = m,
                      .data_dir = vs->session.data_dir,
                      .view = (int)vs->view,
                      .selected = vs->selected,
                      .fixed_axis = vs->scaling.fixed_axis};
    snprintf(env.highlight, sizeof env.highlight, "%s", vs->session.highlight);
    return env;
}

static void env_back(View_State *vs, const Lesson_Env *env) {
    vs->view = (View)env->view;
    vs->selected = env->selected;
    vs->scaling.fixed_axis = env->fixed_axis;
    snprintf(vs->session.highlight, sizeof vs->session.highlight, "%s", env->highlight);
}

static void go_to_step(View_State *vs, Model *m, int step, bool from_start) {
    Lesson *l = vs->session.lesson;
    if (step < 0 || step >= l->step_count) return;
    Lesson_Env env = env_of(vs, m);
    env.highlight[0] = '\0';
    char err[600];
    bool ok = true;
    if (from_start) ok = lesson_apply(l, l->setup_first, l->setup_count, &env, err, sizeof err);
    const Lesson_Step *st = &l->steps[step];
    if (ok) ok = lesson_apply(l, st->act_first, st->act_count, &env, err, sizeof err);
    env_back(vs, &env);
    vs->session.step = step;
    vs->session.scroll = 0;
    vs->session.showing = false;
    if (!ok)
        view_set_status(vs, true, "%s", err);
    else
        vs->status[0] = '\0';
}

bool lesson_enter(View_State *vs, Model *m, char *err, size_t errsz) {
    if (!vs->session.lesson || !vs->session.saved) {
        snprintf(err, errsz, "no lesson loaded");
        return false;
    }
    if (!vs->session.active) {
        *vs->session.saved = m->scene; /* the student's own work, for later */
        vs->session.saved_view = vs->view;
    }
    vs->session.active = true;
    go_to_step(vs, m, 0, true);
    return true;
}

void lesson_leave(View_State *vs, Model *m) {
    if (!vs->session.active) return;
    vs->session.active = false;
    vs->session.showing = false;
    vs->session.highlight[0] = '\0';
    char err[400];
    if (!model_apply(m, &(Action){.kind = ACTION_LOAD_SCENE, .scene = vs->session.saved}, err,
                     sizeof err)) {
        view_set_status(vs, true, "Left the lesson, but your scene could not come back: %s", err);
        return;
    }
    vs->view = vs->session.saved_view;
    vs->selected = 0;
    view_set_status(vs, false, "Left the lesson; your own scene is back");
}

/* ---- "show me": play a goal's solution, one action at a time --------------- */

static void show_me(const Ui *ui, View_State *vs, Model *m) {
    if (!vs->session.showing) return;
    const Lesson *l = vs->session.lesson;
    const Lesson_Goal *g = &l->steps[vs->session.step].goals[vs->session.show_goal];
    if (vs->session.show_action >= g->sol_count) {
        vs->session.showing = false;
        return;
    }
    const Lesson_Action *a = &l->actions[g->sol_first + vs->session.show_action];
    double t = ui->in.time - vs->session.show_t0;
    char err[400];
    if (a->kind == ACT_MOVE) {
        /* glide the point there so the eye can follow, as one undo step */
        Lesson_Env env = env_of(vs, m);
        int i = lesson_find_token(&m->scene, a->text);
        if (i < 0) {
            lesson_apply(l, g->sol_first + vs->session.show_action, 1, &env, err, sizeof err);
            view_set_status(vs, true, "%s", err);
            vs->session.showing = false;
            return;
        }
        const Scene *s = &m->scene;
        int c1 = s->d > 1 ? 1 : 0;
        bool first = t == 0 || vs->session.show_from_x != vs->session.show_from_x;
        if (first) {
            vs->session.show_from_x = s->X[i * s->d];
            vs->session.show_from_y = s->X[i * s->d + c1];
        }
        float k = (float)fmin(t / 0.6, 1.0);
        k = k * k * (3 - 2 * k);
        float x = vs->session.show_from_x + (a->x - vs->session.show_from_x) * k;
        float y = vs->session.show_from_y + (a->y - vs->session.show_from_y) * k;
        Action steps[3] = {action_of(ACTION_GESTURE_BEGIN), action_move(i, 0, x, c1, c1 ? y : x),
                           action_of(ACTION_GESTURE_END)};
        for (int q = first ? 0 : 1; q < (t >= 0.6 ? 3 : 2); q++)
            if (!model_apply(m, &steps[q], err, sizeof err)) {
                view_set_status(vs, true, "%s", err);
                vs->session.showing = false;
                return;
            }
        if (t >= 0.6) {
            vs->session.show_action++;
            vs->session.show_t0 = ui->in.time;
            vs->session.show_from_x = NAN;
        }
        return;
    }
    if (t < 0.45 && vs->session.show_action > 0) return; /* a beat between steps */
    Lesson_Env env = env_of(vs, m);
    if (!lesson_apply(l, g->sol_first + vs->session.show_action, 1, &env, err, sizeof err)) {
        view_set_status(vs, true, "%s", err);
        vs->session.showing = false;
        return;
    }
    env_back(vs, &env);
    vs->session.show_action++;
    vs->session.show_t0 = ui->in.time;
    vs->session.show_from_x = NAN;
}

void lesson_update(const Ui *ui, View_State *vs, Model *m) {
    Lesson_Session *ls = &vs->session;
    if (ls->pending) { /* --lesson, or a pick from the menu */
        ls->pending = false;
        char err[600];
        if (!lesson_enter(vs, m, err, sizeof err)) view_set_status(vs, true, "%s", err);
    }
    if (ls->leave) {
        ls->leave = false;
        lesson_leave(vs, m);
    }
    if (!ls->active) return;
    int go = ls->go, last = ls->lesson->step_count - 1;
    ls->go = LESSON_GO_NONE;
    /* keys: ← → PageUp PageDown Home End */
    if (!vs->editing && !vs->typing_dk && !vs->help && !ls->menu && !ui_focus_takes_arrows(ui)) {
        if (ui_key(ui, KEY_RIGHT) || ui_key(ui, KEY_PAGEDOWN)) go = LESSON_GO_NEXT;
        if (ui_key(ui, KEY_LEFT) || ui_key(ui, KEY_PAGEUP)) go = LESSON_GO_PREV;
        if (ui_key(ui, KEY_HOME)) go = LESSON_GO_FIRST;
        if (ui_key(ui, KEY_END)) go = LESSON_GO_LAST;
    }
    switch (go) {
    case LESSON_GO_NEXT:
        go_to_step(vs, m, ls->step + 1, false);
        break;
    case LESSON_GO_PREV:
        go_to_step(vs, m, ls->step - 1, false);
        break;
    case LESSON_GO_FIRST:
        go_to_step(vs, m, 0, true);
        break;
    case LESSON_GO_LAST:
        go_to_step(vs, m, last, false);
        break;
    default:
        break;
    }
    show_me(ui, vs, m);
    /* the goals, against the scene this frame will show */
    if (!model_update(m)) return;
    const Lesson_Step *st = &ls->lesson->steps[ls->step];
    for (int k = 0; k < st->goal_count; k++)
        ls->goal_state[k] = lesson_goal_met(&st->goals[k], m, (int)vs->view, vs->selected,
                                            ls->goal_why[k], sizeof ls->goal_why[k]);
}

/* ---- text: spans with word wrap ------------------------------------------------ */

typedef struct Piece {
    const char *s;
    int len, style;
} Piece;

static Font_Id piece_font(int style) {
    return (style & STYLE_CODE) ? FONT_MONO : (style & STYLE_BOLD) ? FONT_BOLD : FONT_SANS;
}

static float piece_size(const Theme *t, int style) {
    float base = t->text_size;
    return (style & (STYLE_SUB | STYLE_SUP)) ? base * 0.72f : base;
}

static Color piece_color(const Theme *t, int style) {
    if (style & STYLE_MATH) return rgba(255, 214, 140, 255);
    if (style & STYLE_CODE) return rgba(170, 220, 255, 255);
    if (style & STYLE_EMPH) return t->highlight;
    return t->text;
}

/* Lay out one step's spans in r; returns the height used. Draws only when draw. */
static float layout_text(Ui *ui, const Lesson *l, const Lesson_Step *st, Rect r, bool draw) {
    const Theme *t = ui->theme;
    float lh = ui_line_height(ui, FONT_SANS, t->text_size) * 1.12f;
    float x = r.x, y = r.y, indent = 0;
    bool first = true;
    Piece word[24];
    int parts = 0;
    float word_w = 0;
#define FLUSH_WORD()                                                                               \
    do {                                                                                           \
        if (parts) {                                                                               \
            if (x + word_w > r.x + r.w && x > r.x + indent) {                                      \
                x = r.x + indent;                                                                  \
                y += lh;                                                                           \
            }                                                                                      \
            for (int q = 0; q < parts; q++) {                                                      \
                float sz = piece_size(t, word[q].style);                                           \
                float dy = (word[q].style & STYLE_SUB)   ? t->text_size * 0.42f                    \
                           : (word[q].style & STYLE_SUP) ? -t->text_size * 0.08f                   \
                                                         : 0;                                      \
                float w =                                                                          \
                    ui_text_widthn(ui, piece_font(word[q].style), sz, word[q].s, word[q].len);     \
                if (draw && y + lh <= r.y + r.h + 1)                                               \
                    draw_textn(ui->dl, piece_font(word[q].style), sz, x, y + dy, ALIGN_LEFT,       \
                               piece_color(t, word[q].style), word[q].s, word[q].len);             \
                x += w;                                                                            \
            }                                                                                      \
            parts = 0;                                                                             \
            word_w = 0;                                                                            \
        }                                                                                          \
    } while (0)
    for (int k = st->span_first; k < st->span_first + st->span_count; k++) {
        const Lesson_Span *sp = &l->spans[k];
        if (sp->kind != SPAN_TEXT) {
            FLUSH_WORD();
            if (sp->kind == SPAN_BREAK) {
                x = r.x + indent;
                y += lh;
                continue;
            }
            if (!first) y += lh * (sp->kind == SPAN_ITEM ? 1.0f : 1.45f);
            first = false;
            indent = sp->kind == SPAN_ITEM ? 22 : 0;
            x = r.x + indent;
            if (sp->kind == SPAN_ITEM && draw)
                draw_text(ui->dl, FONT_BOLD, t->text_size, r.x + 6, y, ALIGN_LEFT, t->text_dim,
                          "•");
            continue;
        }
        const char *s = l->text + sp->off, *end = s + sp->len;
        while (s < end) {
            if (*s == ' ' || *s == '\n') {
                FLUSH_WORD();
                if (x > r.x + indent) x += ui_text_width(ui, FONT_SANS, t->text_size, " ");
                s++;
                continue;
            }
            const char *e = s;
            while (e < end && *e != ' ' && *e != '\n') e++;
            if (parts < 24) {
                word[parts] = (Piece){s, (int)(e - s), sp->style};
                word_w += ui_text_widthn(ui, piece_font(sp->style), piece_size(t, sp->style), s,
                                         (int)(e - s));
                parts++;
            }
            s = e;
        }
    }
    FLUSH_WORD();
#undef FLUSH_WORD
    return first && x == r.x ? 0 : y - r.y + lh;
}

/* ---- the panel ---------------------------------------------------------------------- */

void lesson_frame(Ui *ui, View_State *vs, Rect r) {
    const Theme *t = ui->theme;
    const Lesson *l = vs->session.lesson;
    const Lesson_Step *st = &l->steps[vs->session.step];
    float title_h = ui_panel_wrapped(ui, r, l->title, false);
    ui_record(ui, "panel", "lesson", -1, r);
    Rect body = rect_inset(r, t->pad);
    rect_cut_top(&body, title_h + 6);

    /* navigation at the bottom: ← step n of m → , leave */
    Rect nav = rect_cut_bottom(&body, 40);
    rect_cut_bottom(&body, t->pad);
    Rect prev = rect_cut_left(&nav, 54), next = rect_cut_right(&nav, 54);
    Rect leave = rect_cut_right(&nav, 84);
    rect_cut_right(&nav, 6);
    /* the next frame carries these out, before it lays out */
    if (ui_button(ui, "lesson_prev", -1, prev, "←", false) & UI_CLICKED)
        vs->session.go = LESSON_GO_PREV;
    if (ui_button(ui, "lesson_next", -1, next, "→", false) & UI_CLICKED)
        vs->session.go = LESSON_GO_NEXT;
    if (ui_button(ui, "lesson_leave", -1, leave, "✕ Leave", false) & UI_CLICKED)
        vs->session.leave = true;
    char pos[64];
    snprintf(pos, sizeof pos, "step %d of %d", vs->session.step + 1, l->step_count);
    ui_label(ui, nav, FONT_SANS, t->text_size, ALIGN_CENTER, t->text_dim, pos);

    /* step title and text */
    float step_h =
        ui_text_wrapped(ui, body, FONT_BOLD, t->title_size, t->highlight, st->title, true);
    rect_cut_top(&body, step_h + 6);

    /* goals at the bottom of the text, each with a live mark and "show me" */
    float glh = ui_line_height(ui, FONT_SANS, t->text_size);
    /* goals first, so each box is as tall as its wrapped text plus "show me" */
    char goal_text[LESSON_MAX_GOALS][340]; /* the draw list copies what it draws */
    float goal_h[LESSON_MAX_GOALS], goals_total = 0;
    float text_w = body.w - 4 - 16 - 30;
    for (int k = 0; k < st->goal_count; k++) {
        char desc[300];
        int met = vs->session.goal_state[k];
        lesson_goal_describe(&st->goals[k], desc, sizeof desc);
        snprintf(goal_text[k], sizeof goal_text[k], "Goal: %s",
                 met < 0 ? vs->session.goal_why[k] : desc);
        goal_h[k] = ui_text_wrapped(ui, (Rect){0, 0, text_w, 1e6f}, FONT_SANS, t->text_size,
                                    t->text, goal_text[k], false) +
                    30 + 32; /* the "show me" row and the box padding */
        goals_total += goal_h[k];
    }
    Rect goals = rect_cut_bottom(&body, fminf(goals_total, body.h * 0.6f));
    /* a step longer than the panel scrolls with the mouse wheel; the last
     * line of the area then says so instead of showing text */
    float full = layout_text(ui, l, st, (Rect){body.x, body.y, body.w, 1e6f}, false);
    Rect text = body;
    Rect hint = {0};
    if (full > body.h) hint = rect_cut_bottom(&text, glh);
    float room = fmaxf(full - text.h, 0);
    if (ui_hit(ui, body) && ui->in.wheel != 0) vs->session.scroll -= ui->in.wheel * 40;
    if (vs->session.scroll > room) vs->session.scroll = room;
    if (vs->session.scroll < 0) vs->session.scroll = 0;
    draw_clip(ui->dl, text);
    layout_text(ui, l, st,
                (Rect){text.x, text.y - vs->session.scroll, text.w, text.h + vs->session.scroll},
                true);
    draw_noclip(ui->dl);
    if (hint.h > 0)
        ui_label(ui, hint, FONT_SANS, t->small_size, ALIGN_RIGHT, t->text_dim,
                 vs->session.scroll < room ? "more ↓ (scroll)" : "↑ (scroll back)");

    for (int k = 0; k < st->goal_count; k++) {
        int met = vs->session.goal_state[k];
        Rect row = rect_cut_top(&goals, goal_h[k]);
        Rect box = rect_inset(row, 2);
        draw_round_rect(ui->dl, box, t->radius,
                        met == 1 ? rgba(20, 70, 55, 255) : rgba(44, 48, 58, 255));
        Rect inner = rect_inset(box, 8);
        Rect mark = rect_cut_left(&inner, 30);
        ui_label(ui, (Rect){mark.x, mark.y, mark.w, glh}, FONT_BOLD, t->title_size, ALIGN_LEFT,
                 met == 1 ? t->good : t->text_dim, met == 1 ? "✓" : "○");
        Rect show = rect_cut_bottom(&inner, 30);
        ui_text_wrapped(ui, (Rect){inner.x, inner.y, inner.w, inner.h}, FONT_SANS, t->text_size,
                        t->text, goal_text[k], true);
        if (met != 1) {
            Rect b = {show.x, show.y, 130, show.h};
            if (ui_button(ui, "show_me", k, b, "▸ Show me",
                          vs->session.showing && vs->session.show_goal == k) &
                    UI_CLICKED &&
                !vs->session.showing) {
                vs->session.showing = true;
                vs->session.show_goal = k;
                vs->session.show_action = 0;
                vs->session.show_t0 = ui->in.time;
                vs->session.show_from_x = NAN;
            }
        } else {
            ui_label(ui, show, FONT_SANS, t->small_size, ALIGN_LEFT, t->good,
                     vs->session.step + 1 < l->step_count ? "Done — → for the next step"
                                                          : "Done — that was the last step");
        }
    }
}

/* ---- the lesson menu ---------------------------------------------------------------- */

void lesson_menu(Ui *ui, View_State *vs) {
    const Theme *t = ui->theme;
    const Lesson_Index *ix = vs->session.index;
    int count = ix ? ix->count : 0;
    float row = 42;
    bool closed;
    Rect body =
        ui_modal(ui, 720, row * (float)(count ? count : 1) + 90, "Lessons", "lesson_menu", &closed);
    /* a lesson that did not load is listed greyed out with its error, so its
     * author sees why; it cannot be opened */
    if (count == 0)
        ui_label(ui, rect_cut_top(&body, row), FONT_SANS, t->text_size, ALIGN_LEFT, t->text_dim,
                 "No lessons found in lessons/");
    for (int k = 0; k < count; k++) {
        Rect b = rect_cut_top(&body, row - 6);
        rect_cut_top(&body, 6);
        if (ix->error[k][0]) {
            ui_record(ui, "label", "lesson_broken", k, b);
            draw_round_rect(ui->dl, b, t->radius, t->panel);
            Rect top = b, bottom = rect_cut_bottom(&top, b.h * 0.45f);
            char head[200];
            snprintf(head, sizeof head, "%s — cannot be opened", ix->title[k]);
            ui_label_fit(ui, rect_inset(top, 4), FONT_SANS, t->small_size, ALIGN_LEFT, t->text_dim,
                         head);
            ui_label_fit(ui, rect_inset(bottom, 4), FONT_SANS, t->small_size * 0.85f, ALIGN_LEFT,
                         t->error_text, ix->error[k]);
            continue;
        }
        if (ui_button(ui, "lesson_item", k, b, ix->title[k], false) & UI_CLICKED) {
            char err[700];
            if (!lesson_load(vs->session.lesson, ix->path[k], err, sizeof err)) {
                view_set_status(vs, true, "%s", err);
            } else {
                vs->session.pending = true; /* entered before the next frame lays out */
                vs->session.menu = false;
            }
        }
    }
    if (closed) vs->session.menu = false;
}
