/* The lesson panel: the step's text rendered from Markdown, its goals with
 * live check marks, "show me", and stepping through the lesson. Entering a
 * lesson keeps the student's scene; leaving gives it back. */
#include "../core/i18n.h"
#include "lesson_panel.h"

#include "../gfx/utf8.h"
#include "lesson_menu.h"
#include "lesson_predict.h"

#include "../lesson/lesson_goals.h"
#include "math_layout.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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
    snprintf(env.hidden, sizeof env.hidden, "%s", vs->session.hidden);
    return env;
}

static void env_back(View_State *vs, const Lesson_Env *env) {
    vs->view = (View)env->view;
    vs->selected = env->selected;
    vs->scaling.fixed_axis = env->fixed_axis;
    snprintf(vs->session.highlight, sizeof vs->session.highlight, "%s", env->highlight);
    snprintf(vs->session.hidden, sizeof vs->session.hidden, "%s", env->hidden);
}

static void go_to_step(View_State *vs, Model *m, int step, bool from_start) {
    Lesson *l = vs->session.lesson;
    if (step < 0 || step >= l->step_count) return;
    Lesson_Env env = env_of(vs, m);
    env.highlight[0] = env.hidden[0] = '\0'; /* a step's highlight and hide are its own */
    char err[600];
    bool ok = true;
    if (from_start) ok = lesson_apply(l, l->setup_first, l->setup_count, &env, err, sizeof err);
    const Lesson_Step *st = &l->steps[step];
    if (ok) ok = lesson_apply(l, st->act_first, st->act_count, &env, err, sizeof err);
    env_back(vs, &env);
    vs->session.step = step;
    vs->session.page = 0;
    vs->session.showing = false;
    vs->session.predict_given = -1; /* a new step asks afresh */
    vs->session.predict_waiting = false;
    if (!ok)
        view_set_status(vs, true, "%s", err);
    else
        vs->status[0] = '\0';
}

bool lesson_enter(View_State *vs, Model *m, char *err, size_t errsz) {
    if (!vs->session.lesson || !vs->session.saved) {
        snprintf(err, errsz, "%s", _("no lesson loaded"));
        return false;
    }
    if (!vs->session.active) {
        *vs->session.saved = m->scene; /* the student's own work, for later */
        vs->session.saved_view = vs->view;
    }
    vs->session.active = true;
    vs->session.predict_asked = vs->session.predict_hits = 0;
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
        view_set_status(vs, true, _("Left the lesson, but your scene could not come back: %s"),
                        err);
        return;
    }
    vs->view = vs->session.saved_view;
    vs->selected = 0;
    view_set_status(vs, false, _("Left the lesson; your own scene is back"));
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
    if (ls->open_path[0] && ls->lesson) { /* a link: the lesson it names */
        char path[sizeof ls->open_path], err[700];
        snprintf(path, sizeof path, "%s", ls->open_path);
        ls->open_path[0] = '\0';
        Lesson *next = malloc(sizeof *next);
        if (!next) {
            view_set_status(vs, true, "%s", _("Not opened — out of memory"));
        } else if (!lesson_load(next, path, err, sizeof err)) {
            view_set_status(vs, true, _("Not opened — %.400s"), err);
        } else {
            *ls->lesson = *next;
            if (!lesson_enter(vs, m, err, sizeof err)) view_set_status(vs, true, "%s", err);
        }
        free(next);
    }
    ls->hide_row = -1;
    ls->hide_verdict = false;
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
    switch (go) { /* → and ← turn a long step's pages first */
    case LESSON_GO_NEXT:
        if (ls->page + 1 < ls->pages)
            ls->page++;
        else
            go_to_step(vs, m, ls->step + 1, false);
        break;
    case LESSON_GO_PREV:
        if (ls->page > 0)
            ls->page--;
        else
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
    bool all = true;
    for (int k = 0; k < st->goal_count; k++) {
        ls->goal_state[k] = lesson_goal_met(&st->goals[k], m, (int)vs->view, vs->selected,
                                            ls->goal_why[k], sizeof ls->goal_why[k]);
        all &= ls->goal_state[k] == 1;
    }
    if (all && !lesson_progress_mark(&ls->progress, ls->lesson, ls->step) && !ls->progress_full) {
        ls->progress_full = true;
        view_set_status(vs, true,
                        _("Progress is kept for %d lessons at most: this lesson's is not recorded"),
                        PROGRESS_MAX_LESSONS);
    }
    /* a later prediction: its verdict once the step's training has met its goals */
    const Lesson_Predict *pr = &st->predict;
    if (pr->later && ls->predict_waiting && all) lesson_predict_judge_later(vs, m, pr);
    /* until the student commits, what would give the answer away stays hidden */
    if (pr->kind != PREDICT_NONE && ls->predict_given < 0) {
        if (pr->kind == PREDICT_KEY)
            ls->hide_row = lesson_find_token(&m->scene, pr->token);
        else
            ls->hide_verdict = true;
    }
}

/* the last code point of s[0..e) */
static uint32_t last_cp(const char *s, const char *e) {
    uint32_t cp = 0;
    for (const char *p = s; p < e;) p = utf8_next(p, &cp);
    return cp;
}

/* ---- text: spans with word wrap, and formulas set as boxes -------------------- */

typedef struct Piece {
    const char *s;
    int len, style;
    bool math;  /* s[len] is a formula's TeX */
    float x, w; /* on the line */
    float h, d; /* above and below the baseline */
} Piece;

#define LINE_PIECES 96

typedef struct Text_Layout {
    Ui *ui;
    const Model *m;
    View_State *vs;
    Rect r;
    bool draw;
    float y, x, indent, lh, asc, desc; /* top of the line being built, the pen */
    Piece line[LINE_PIECES];
    int count;
    Piece word[24];
    int parts;
    float word_w;
    bool bullet; /* the line being built starts a list item */
    /* pages: measuring, lines are dealt onto pages page_h high and the
     * bounds of page `want` are kept; drawing, only lines wholly inside
     * [show_top, show_bot] are drawn, so none is ever cut in half */
    float page_h;
    int pages, want;
    float page_top, want_top, want_bot; /* relative to r.y */
    float show_top, show_bot;           /* absolute */
} Text_Layout;

/* A line (or display formula) from top to bot: counts it onto the pages, and
 * says whether to draw it. */
static bool line_at(Text_Layout *tl, float top, float bot) {
    float t0 = top - tl->r.y, b0 = bot - tl->r.y;
    if (tl->page_h > 0) {
        if (tl->pages == 0 || (b0 - tl->page_top > tl->page_h && t0 > tl->page_top)) {
            tl->pages++;
            tl->page_top = t0;
        }
        if (tl->pages - 1 == tl->want) {
            if (tl->want_bot <= tl->want_top) tl->want_top = tl->page_top;
            tl->want_bot = b0;
        }
    }
    return tl->draw && top >= tl->show_top - 1 && bot <= tl->show_bot + 1;
}

static Font_Id piece_font(int style) {
    return (style & STYLE_CODE) ? FONT_MONO : (style & STYLE_BOLD) ? FONT_BOLD : FONT_SANS;
}

static Color piece_color(const Theme *t, int style) {
    if (style & STYLE_CODE) return t->code;
    if (style & STYLE_EMPH) return t->highlight;
    return t->text;
}

static bool lesson_value(void *ctx, const Tex_Value *v, char *out, size_t outsz) {
    const Text_Layout *tl = ctx;
    const Scene *s = &tl->m->scene;
    const Attn *a = view_attn(tl->vs, tl->m);
    switch (v->kind) {
    case TEX_VALUE_DK:
        snprintf(out, outsz, "%d", s->d_k);
        return true;
    case TEX_VALUE_N:
        snprintf(out, outsz, "%d", s->n);
        return true;
    case TEX_VALUE_D:
        snprintf(out, outsz, "%d", s->d);
        return true;
    case TEX_VALUE_LAYERS:
    case TEX_VALUE_HEADS:
    case TEX_VALUE_KV_HEADS:
    case TEX_VALUE_DH:
    case TEX_VALUE_DMODEL: {
        if (!tl->m->real.model) return false; /* no model open: "?" */
        const Net_Model *tm = &tl->m->real.model->weights.model;
        int x = v->kind == TEX_VALUE_LAYERS     ? tm->layers
                : v->kind == TEX_VALUE_HEADS    ? tm->heads
                : v->kind == TEX_VALUE_KV_HEADS ? (tm->kv_heads > 0 ? tm->kv_heads : tm->heads)
                : v->kind == TEX_VALUE_DH       ? tm->head_dim
                                                : tm->width;
        snprintf(out, outsz, "%d", x);
        return true;
    }
    case TEX_VALUE_WEIGHT:
    case TEX_VALUE_SCORE:
        break;
    }
    if (!a || v->i > a->n || v->j > a->n) return false;
    float x = (v->kind == TEX_VALUE_WEIGHT ? a->A : a->S)[(v->i - 1) * a->n + (v->j - 1)];
    if (isinf(x))
        snprintf(out, outsz, "%s∞", x < 0 ? "−" : "");
    else
        snprintf(out, outsz, v->kind == TEX_VALUE_WEIGHT ? "%.3f" : "%.2f", (double)x);
    if (out[0] == '-') { /* a real minus sign, as in the rest of the formula */
        char tmp[64];
        snprintf(tmp, sizeof tmp, "−%s", out + 1);
        snprintf(out, outsz, "%s", tmp);
    }
    return true;
}

/* Parse and set one formula into the session's scratch; false if it cannot
 * be set (the parser refused it at load, so only a bug gets here). */
static bool set_formula(Text_Layout *tl, const char *s, int len, float size, bool display) {
    Math_Scratch *ms = tl->vs->session.math;
    char err[200];
    if (!ms || !tex_parse(&ms->tex, s, (size_t)len, err, sizeof err)) return false;
    Math_Desc md = {.tm = &tl->ui->tm,
                    .size = size,
                    .display = display,
                    .value = lesson_value,
                    .value_ctx = tl};
    math_layout(&ms->layout, &ms->tex, &md);
    return true;
}

/* formulas in warm white, live values in the highlight colour, unknown commands in red */
static Math_Colors formula_colors(const Theme *t) {
    return (Math_Colors){.text = t->math, .value = t->highlight, .error = t->math_error};
}

/* Draw the line built so far, on one baseline, and start the next. */
static void end_line(Text_Layout *tl) {
    Ui *ui = tl->ui;
    const Theme *t = ui->theme;
    if (tl->count == 0 && !tl->bullet) return;
    float asc = tl->asc, desc = tl->desc;
    for (int k = 0; k < tl->count; k++) {
        asc = fmaxf(asc, tl->line[k].h + 2);
        desc = fmaxf(desc, tl->line[k].d + 2);
    }
    float base = tl->y + asc;
    if (line_at(tl, tl->y, tl->y + asc + desc)) {
        if (tl->bullet)
            draw_text(ui->dl, FONT_BOLD, t->text_size, tl->r.x + 6, base - tl->asc, ALIGN_LEFT,
                      t->text_dim, "•");
        for (int k = 0; k < tl->count; k++) {
            const Piece *pc = &tl->line[k];
            if (pc->math) {
                Math_Colors mc = formula_colors(t);
                if (set_formula(tl, pc->s, pc->len, t->text_size, false))
                    math_draw(ui->dl, &tl->vs->session.math->layout, pc->x, base, &mc);
                continue;
            }
            Font_Id f = piece_font(pc->style);
            float a = ui->tm.ascent ? ui->tm.ascent(ui->tm.ctx, f, t->text_size) : tl->asc;
            draw_textn(ui->dl, f, t->text_size, pc->x, base - a, ALIGN_LEFT,
                       piece_color(t, pc->style), pc->s, pc->len);
        }
    }
    tl->y += asc + desc + tl->lh * 0.12f;
    tl->x = tl->r.x + tl->indent;
    tl->count = 0;
    tl->bullet = false;
}

/* Put the word collected so far on the line, or on a new line if it does not fit. */
static void end_word(Text_Layout *tl) {
    if (!tl->parts) return;
    if (tl->x + tl->word_w > tl->r.x + tl->r.w && tl->x > tl->r.x + tl->indent) end_line(tl);
    for (int q = 0; q < tl->parts; q++) {
        if (tl->count == LINE_PIECES) end_line(tl);
        Piece pc = tl->word[q];
        pc.x = tl->x;
        tl->line[tl->count++] = pc;
        tl->x += pc.w;
    }
    tl->parts = 0;
    tl->word_w = 0;
}

static void add_piece(Text_Layout *tl, Piece pc) {
    if (tl->parts == (int)(sizeof tl->word / sizeof *tl->word)) end_word(tl);
    tl->word[tl->parts++] = pc;
    tl->word_w += pc.w;
}

/* Lay out one step's spans from r's top: measuring (draw false) it deals the
 * lines onto pages as tl->page_h says; drawing it draws the lines inside
 * tl's show window. Returns the height used. */
static float layout_text(Text_Layout *io, const Lesson *l, const Lesson_Step *st, Rect r,
                         bool draw) {
    Ui *ui = io->ui;
    View_State *vs = io->vs;
    const Theme *t = ui->theme;
    Text_Layout tl = *io;
    tl.r = r;
    tl.draw = draw;
    tl.y = r.y;
    tl.x = r.x;
    tl.pages = 0;
    tl.page_top = tl.want_top = tl.want_bot = 0;
    tl.lh = ui_line_height(ui, FONT_SANS, t->text_size);
    tl.asc = ui->tm.ascent ? ui->tm.ascent(ui->tm.ctx, FONT_SANS, t->text_size) : tl.lh * 0.8f;
    tl.desc = tl.lh - tl.asc;
    bool first = true;
    for (int k = st->span_first; k < st->span_first + st->span_count; k++) {
        const Lesson_Span *sp = &l->spans[k];
        const char *s = l->text + sp->off, *end = s + sp->len;
        if (sp->kind == SPAN_MATH && (sp->style & STYLE_DISPLAY)) {
            end_word(&tl);
            end_line(&tl);
            float size = t->text_size * 1.08f;
            if (!set_formula(&tl, s, sp->len, size, true)) continue;
            const Math_Layout *L = &vs->session.math->layout;
            if (L->w > r.w - tl.indent && L->w > 0) { /* too wide: smaller, down to 60 % */
                size *= fmaxf((r.w - tl.indent) / L->w, 0.6f);
                set_formula(&tl, s, sp->len, size, true);
            }
            float top = tl.y + tl.lh * 0.3f, base = top + fmaxf(L->h, tl.asc);
            float x = r.x + tl.indent + fmaxf((r.w - tl.indent - L->w) / 2, 0);
            Math_Colors mc = formula_colors(t);
            if (line_at(&tl, base - fmaxf(L->h, tl.asc), base + L->d))
                math_draw(ui->dl, L, x, base, &mc);
            tl.y = base + fmaxf(L->d, tl.desc) + tl.lh * 0.3f;
            first = false;
            continue;
        }
        if (sp->kind == SPAN_MATH) {
            if (!set_formula(&tl, s, sp->len, t->text_size, false)) continue;
            const Math_Layout *L = &vs->session.math->layout;
            add_piece(
                &tl,
                (Piece){.s = s, .len = sp->len, .math = true, .w = L->w, .h = L->h, .d = L->d});
            continue;
        }
        if (sp->kind != SPAN_TEXT) {
            end_word(&tl);
            if (sp->kind == SPAN_BREAK) {
                if (tl.count == 0) tl.y += tl.lh;
                end_line(&tl);
                continue;
            }
            end_line(&tl);
            if (!first) tl.y += tl.lh * (sp->kind == SPAN_ITEM ? 0.0f : 0.45f);
            first = false;
            tl.indent = sp->kind == SPAN_ITEM ? 22 : 0;
            tl.x = r.x + tl.indent;
            tl.bullet = sp->kind == SPAN_ITEM;
            continue;
        }
        while (s < end) {
            if (*s == ' ' || *s == '\n') {
                end_word(&tl);
                if (tl.x > r.x + tl.indent) tl.x += ui_text_width(ui, FONT_SANS, t->text_size, " ");
                s++;
                continue;
            }
            const char *e = utf8_word_end(s, end);
            float w = ui_text_widthn(ui, piece_font(sp->style), t->text_size, s, (int)(e - s));
            add_piece(&tl, (Piece){.s = s, .len = (int)(e - s), .style = sp->style, .w = w});
            /* Chinese: a line may break here, with no space */
            uint32_t cp;
            if (e < end && *e != ' ' && *e != '\n' &&
                (utf8_cjk((utf8_next(e, &cp), cp)) || utf8_cjk(last_cp(s, e))))
                end_word(&tl);
            s = e;
        }
    }
    end_word(&tl);
    end_line(&tl);
    io->pages = tl.pages;
    io->want_top = tl.want_top;
    io->want_bot = tl.want_bot;
    return tl.y - r.y;
}

/* ---- one formula alone, for --render-math ------------------------------------ */

Rect lesson_formula_figure(Ui *ui, View_State *vs, const Model *m, const char *tex, bool draw) {
    const Theme *t = ui->theme;
    Text_Layout tl = {.ui = ui, .m = m, .vs = vs};
    float pad = t->pad;
    if (!set_formula(&tl, tex, (int)strlen(tex), t->text_size * 1.08f, true)) return (Rect){0};
    const Math_Layout *L = &vs->session.math->layout;
    Rect r = {0, 0, ceilf(L->w + 2 * pad), ceilf(L->h + L->d + 2 * pad)};
    if (draw) {
        Math_Colors mc = formula_colors(t);
        draw_rect(ui->dl, r, t->panel);
        math_draw(ui->dl, L, pad, pad + L->h, &mc);
    }
    return r;
}

/* ---- the panel ---------------------------------------------------------------------- */

/* The step's text, a page at a time: pages as high as text is, the page
 * asked for clamped to those there are. */
static void step_text(Ui *ui, View_State *vs, const Model *m, const Lesson_Step *st, Rect text) {
    const Theme *t = ui->theme;
    Lesson_Session *ls = &vs->session;
    const Lesson *l = ls->lesson;
    Text_Layout tl = {.ui = ui, .m = m, .vs = vs, .want = -1};
    Rect all = {text.x, text.y, text.w, 1e6f};
    float full = layout_text(&tl, l, st, all, false);
    ls->pages = 1;
    if (full > 0 && text.h < ui_line_height(ui, FONT_SANS, t->text_size) * 2.5f) {
        snprintf(ls->misfit, sizeof ls->misfit, "%s", _("no room for its text"));
        return;
    }
    if (full > text.h + 0.5f) { /* pages, and a line under them that says so */
        Rect hint = rect_cut_bottom(&text, ui_line_height(ui, FONT_SANS, t->small_size) + 2);
        if (ui_hit(ui, text) && ui->in.wheel != 0) /* the wheel turns pages too */
            ls->page += ui->in.wheel < 0 ? 1 : -1;
        /* one pass deals the pages and keeps the bounds of the one shown; a
         * page past the last (the panel grew) takes a second */
        tl.page_h = text.h;
        tl.want = ls->page < 0 ? 0 : ls->page;
        layout_text(&tl, l, st, all, false);
        ls->pages = tl.pages > 0 ? tl.pages : 1;
        if (tl.want >= ls->pages) {
            tl.want = ls->pages - 1;
            layout_text(&tl, l, st, all, false);
        }
        ls->page = tl.want;
        char label[96];
        snprintf(label, sizeof label,
                 ls->page + 1 < ls->pages ? _("page %d of %d · → reads on") : _("page %d of %d"),
                 ls->page + 1, ls->pages);
        ui_label(ui, hint, FONT_SANS, t->small_size, ALIGN_RIGHT, t->text_dim, label);
        if (tl.want_bot - tl.want_top > text.h + 0.5f)
            snprintf(ls->misfit, sizeof ls->misfit, "%s",
                     _("its text area is lower than one of its lines"));
    } else {
        ls->page = 0;
        tl.want_top = 0;
        tl.want_bot = full;
    }
    tl.show_top = text.y;
    tl.show_bot = text.y + (tl.want_bot - tl.want_top);
    draw_clip(ui->dl, text);
    layout_text(&tl, l, st, (Rect){text.x, text.y - tl.want_top, text.w, 1e6f}, true);
    draw_noclip(ui->dl);
}

/* One goal's box: its live mark, its text, and "show me" (or "done") under it. */
static void goal_box(Ui *ui, View_State *vs, int k, Rect row, const char *text) {
    const Theme *t = ui->theme;
    const Lesson *l = vs->session.lesson;
    int met = vs->session.goal_state[k];
    float glh = ui_line_height(ui, FONT_SANS, t->text_size);
    Rect box = rect_inset(row, 2);
    draw_round_rect(ui->dl, box, t->radius, met == 1 ? t->good_bg : t->goal_bg);
    Rect inner = rect_inset(box, 8);
    Rect mark = rect_cut_left(&inner, 30);
    ui_label(ui, (Rect){mark.x, mark.y, mark.w, glh}, FONT_BOLD, t->title_size, ALIGN_LEFT,
             met == 1 ? t->good : t->text_dim, met == 1 ? "✓" : "○");
    Rect show = rect_cut_bottom(&inner, 30);
    ui_text_wrapped(ui, inner, FONT_SANS, t->text_size, t->text, text, true);
    if (met != 1) {
        Rect b = {show.x, show.y, fminf(130, show.w), show.h};
        if (ui_button(ui, "show_me", k, b, _("▸ Show me"),
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
        const char *done = vs->session.step + 1 < l->step_count
                               ? _("Done — → for the next step")
                               : _("Done — that was the last step");
        ui_text_wrapped(ui, show, FONT_SANS, t->small_size, t->good, done, true);
    }
}

void lesson_frame(Ui *ui, View_State *vs, const Model *m, Rect r) {
    const Theme *t = ui->theme;
    Lesson_Session *ls = &vs->session;
    const Lesson *l = ls->lesson;
    const Lesson_Step *st = &l->steps[ls->step];
    ls->misfit[0] = '\0';
    /* presenting, the lesson is a caption strip under the panels: the step's
     * text on the left, its prediction, goals and navigation on the right;
     * the lesson's title gives its row to the text */
    bool strip = vs->presenter;
    float title_h = strip ? 0 : ui_panel_wrapped(ui, r, l->title, false);
    if (strip) ui_panel(ui, r, NULL, false);
    ui_record(ui, "panel", "lesson", -1, r);
    Rect body = rect_inset(r, t->pad);
    rect_cut_top(&body, title_h + (strip ? 0 : 6));
    Rect side = body;
    if (strip) {
        side = rect_cut_right(&body, fminf(body.w * 0.4f, 640));
        rect_cut_right(&body, t->pad);
    }

    /* navigation at the bottom: ← step n of m → , leave */
    Rect nav = rect_cut_bottom(&side, 40);
    rect_cut_bottom(&side, t->pad * 0.5f);
    if (!strip) body = side;
    Rect prev = rect_cut_left(&nav, 54), next = rect_cut_right(&nav, 54);
    /* as wide as its label at the text size ("✕ Verlassen" was set small), within reason */
    float leave_w = ui_text_width(ui, FONT_SANS, t->text_size, _("✕ Leave")) + 14;
    Rect leave = rect_cut_right(&nav, fminf(fmaxf(84, leave_w), nav.w * 0.45f));
    rect_cut_right(&nav, 6);
    /* the next frame carries these out, before it lays out */
    if (ui_button(ui, "lesson_prev", -1, prev, "←", false) & UI_CLICKED) ls->go = LESSON_GO_PREV;
    if (ui_button(ui, "lesson_next", -1, next, "→", false) & UI_CLICKED) ls->go = LESSON_GO_NEXT;
    if (ui_button(ui, "lesson_leave", -1, leave, _("✕ Leave"), false) & UI_CLICKED)
        ls->leave = true;
    char pos[64];
    snprintf(pos, sizeof pos, _("step %d of %d"), ls->step + 1, l->step_count);
    ui_label_fit(ui, nav, FONT_SANS, t->text_size, ALIGN_CENTER, t->text_dim, pos);

    /* step title */
    float step_h =
        ui_text_wrapped(ui, body, FONT_BOLD, t->title_size, t->highlight, st->title, true);
    rect_cut_top(&body, step_h + 6);

    /* presenting, a prediction goes beside the text, over the goals; when
     * both do not fit there, the goals go under the text instead, so the
     * text keeps room for more than a line */
    float predict_side = 0;
    if (strip && st->predict.kind != PREDICT_NONE)
        predict_side =
            lesson_predict_box(ui, vs, m, &st->predict, (Rect){side.x, 0, side.w, 0}, false);
    /* goals at the bottom, each box as tall as its wrapped text plus "show me" */
    Rect *column = strip ? &side : &body;
    char goal_text[LESSON_MAX_GOALS][340]; /* the draw list copies what it draws */
    float goal_h[LESSON_MAX_GOALS], goals_total = 0;
    for (int pass = 0; pass < 2; pass++) {
        float text_w = column->w - 4 - 16 - 30;
        goals_total = 0;
        for (int k = 0; k < st->goal_count; k++) {
            char desc[300];
            int met = ls->goal_state[k];
            lesson_goal_describe(&st->goals[k], desc, sizeof desc);
            snprintf(goal_text[k], sizeof goal_text[k], _("Goal: %s"),
                     met < 0 ? ls->goal_why[k] : desc);
            goal_h[k] = ui_text_wrapped(ui, (Rect){0, 0, text_w, 1e6f}, FONT_SANS, t->text_size,
                                        t->text, goal_text[k], false) +
                        30 + 20; /* the _("show me") row and the box padding */
            goals_total += goal_h[k];
        }
        if (pass || !strip || predict_side <= 0 || predict_side + goals_total <= side.h + 0.5f)
            break;
        column = &body; /* and measured again at its width */
    }
    float goals_room = column == &side ? column->h : column->h * 0.6f;
    if (goals_total > goals_room + 0.5f)
        snprintf(ls->misfit, sizeof ls->misfit, _("its goals need %.0f of %.0f units"), goals_total,
                 goals_room);
    Rect goals = rect_cut_bottom(column, fminf(goals_total, goals_room));
    if (st->goal_count) rect_cut_bottom(column, t->pad * 0.5f);
    /* a prediction sits above the goals: beside the text when presenting, if
     * it fits there, else under the text */
    if (st->predict.kind != PREDICT_NONE) {
        Rect *holder = &body;
        float need = 0;
        if (strip) {
            need = lesson_predict_box(ui, vs, m, &st->predict, (Rect){side.x, 0, side.w, 0}, false);
            if (need <= side.h + 0.5f) holder = &side;
        }
        if (holder == &body)
            need = lesson_predict_box(ui, vs, m, &st->predict, (Rect){body.x, 0, body.w, 0}, false);
        float room = holder == &side ? side.h : body.h * 0.75f; /* the text has pages */
        if (need > room + 0.5f)
            snprintf(ls->misfit, sizeof ls->misfit, _("its prediction needs %.0f of %.0f units"),
                     need, room);
        Rect box = holder == &side ? rect_cut_top(&side, fminf(need, room))
                                   : rect_cut_bottom(&body, fminf(need, room));
        if (holder == &body) rect_cut_bottom(&body, t->pad);
        lesson_predict_box(ui, vs, m, &st->predict, box, true);
    }
    if (st->see[0]) { /* a link to another lesson, under the text */
        char label[200];
        int k = lesson_index_find(ls->index, st->see);
        snprintf(label, sizeof label, "→ %s", k >= 0 ? ls->index->title[k] : st->see);
        float lh = ui_line_height(ui, FONT_SANS, t->text_size);
        Rect link = rect_cut_bottom(&body, lh + 12);
        rect_cut_bottom(&body, t->pad * 0.5f);
        link.w = fminf(link.w, ui_text_width(ui, FONT_SANS, t->text_size, label) + 24);
        /* the same folder as this lesson: a translation links the translation */
        if (ui_button(ui, "lesson_see", -1, link, label, false) & UI_CLICKED)
            lesson_sibling(l, st->see, ls->open_path, sizeof ls->open_path);
    }
    step_text(ui, vs, m, st, body);
    for (int k = 0; k < st->goal_count; k++)
        goal_box(ui, vs, k, rect_cut_top(&goals, goal_h[k]), goal_text[k]);
}
