/* Meeting a lesson's goals with a mouse and keyboard only; see lesson_input.h. */
#define _POSIX_C_SOURCE 200809L
#include "lesson_input.h"

#include "../core/clock.h"
#include "../core/text.h"
#include "../lesson/lesson_goals.h"
#include "../model/scene_file.h"
#include "../ui/plane.h"
#include "../ui/view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Player {
    Model model;
    View_State vs;
    Draw_List dl;
    Ui ui;
    Ui_Record records[UI_MAX_RECORDS];
    Ui_Input in;
    Scene start, saved;
    Math_Scratch math;
    float before[ATTN_MAX_TOKENS * ATTN_MAX_D]; /* X before a drag */
    float w, h;
    int frames;
    long train_spent; /* units of training waited for (budget at most) */
    long budget;      /* Lesson_Screen's train_budget, or LESSON_CHECK_TRAIN_BUDGET */
    int capped_line;  /* the `steps` whose training the budget cut short, or 0 */
} Player;

/* One frame, as the app runs it: the input so far, then its one-off part spent. */
static void frame(Player *p) {
    ui_begin(&p->ui, &p->in, p->w, p->h);
    view_frame(&p->ui, &p->vs, &p->model);
    ui_end(&p->ui);
    ui_input_spent(&p->in);
    p->in.time += 0.05;
    p->frames++;
}

/* A frame with input, and the calm frame the app runs at once after it. */
static void input_frame(Player *p) {
    frame(p);
    frame(p);
}

static const Ui_Record *find(Player *p, const char *kind, const char *name, int index) {
    for (int k = 0; k < p->ui.record_count; k++) {
        const Ui_Record *r = &p->records[k];
        if (!strcmp(r->kind, kind) && !strcmp(r->name, name) && r->index == index) return r;
    }
    return NULL;
}

static void click_at(Player *p, float x, float y) {
    p->in.mx = x;
    p->in.my = y;
    p->in.down = p->in.pressed = true;
    frame(p);
    p->in.down = false;
    p->in.released = true;
    input_frame(p);
}

static void click(Player *p, Rect r) {
    click_at(p, r.x + r.w * 0.5f, r.y + r.h * 0.5f);
}

/* A person looks for a control behind the tabs the layout shows. */
static const Ui_Record *reveal(Player *p, const char *kind, const char *name, int index) {
    static const char *const tabs[] = {"main_tab", "side_tab", "perm_tab", "model_tab"};
    const Ui_Record *r = find(p, kind, name, index);
    for (size_t t = 0; t < sizeof tabs / sizeof *tabs && !r; t++)
        for (int k = 0; k < 4 && !r; k++) {
            const Ui_Record *tab = find(p, "button", tabs[t], k);
            if (!tab) continue;
            click(p, tab->r);
            r = find(p, kind, name, index);
        }
    /* a chip off to the side of a long sentence: scroll the row */
    for (int k = 0; k < 40 && !r && !strcmp(kind, "chip"); k++) {
        const Ui_Record *more = find(p, "button", "chips_scroll", k < 20 ? 1 : 0);
        if (!more) break;
        click(p, more->r);
        r = find(p, kind, name, index);
    }
    return r;
}

static void key(Player *p, Ui_Key k, char c, unsigned mods) {
    p->in.keys[0] = k;
    p->in.key_chars[0] = c;
    p->in.key_mods[0] = (unsigned char)mods;
    p->in.key_count = 1;
    input_frame(p);
}

/* Typed text arrives a few characters at a time, never cut inside one. */
static void type(Player *p, const char *text) {
    size_t len = strlen(text), at = 0;
    while (at < len) {
        size_t n = len - at < 48 ? len - at : 48;
        while (n > 1 && ((unsigned char)text[at + n] & 0xC0) == 0x80) n--;
        memcpy(p->in.text, text + at, n);
        p->in.text[n] = '\0';
        input_frame(p);
        at += n;
    }
}

/* A slider to an exact value: a click to take it, then arrows (ten at a time with
 * PageUp and PageDown) until the model has the value. */
static bool slide_to(Player *p, const char *name, Setting_Id id, double want, char *why,
                     size_t whysz) {
    const Ui_Record *r = reveal(p, "slider", name, -1);
    if (!r) return text_fail(why, whysz, "no '%s' slider on screen", name);
    click_at(p, r->r.x + r->r.w * 0.5f, r->r.y + r->r.h * 0.75f);
    double step = setting(id)->type == SETTING_FLOAT ? 0.1 : 1;
    for (int k = 0; k < 4000; k++) {
        double now = setting_get(&p->model.scene, id);
        if (fabs(now - want) < step * 0.5) return true;
        bool up = now < want, far = fabs(now - want) >= 10 * step;
        key(p, far ? (up ? KEY_PAGEUP : KEY_PAGEDOWN) : (up ? KEY_RIGHT : KEY_LEFT), 0, 0);
        if (setting_get(&p->model.scene, id) == now)
            return text_fail(why, whysz, "the '%s' slider does not move with the arrow keys", name);
    }
    return text_fail(why, whysz, "the '%s' slider never reached the value", name);
}

static bool toggle_to(Player *p, const char *name, bool on, bool now, char *why, size_t whysz) {
    if (on == now) return true;
    const Ui_Record *r = reveal(p, "toggle", name, -1);
    if (!r) return text_fail(why, whysz, "no '%s' switch on screen", name);
    click(p, r->r);
    return true;
}

/* With too little room for every head, the Train view shows one: pick it. */
static void pick_head(Player *p, int id) {
    const Ui_Record *pick = reveal(p, "button", "layers_pick", id);
    if (pick) click(p, pick->r);
}

/* `train induction …` by hand: the "layers" switch, the layer and head
 * counts, the scheme (its button, or ▶ until it shows), then ⟲. */
static bool train_layers(Player *p, const Lesson_Action *a, char *why, size_t whysz) {
    const Ui_Record *sw = reveal(p, "button", "train_model", 1);
    if (!sw)
        return text_fail(why, whysz, "%s", "no layers switch on screen (is the Train view open?)");
    if (!p->model.layers) click(p, sw->r);
    const Stack_Desc *d = &p->model.stack.stack.desc;
    if (d->layers != a->n) {
        const Ui_Record *r = reveal(p, "button", "layers_count", a->n);
        if (!r) return text_fail(why, whysz, "%s", "no layer-count button on screen");
        click(p, r->r);
    }
    if (d->heads != (int)a->y) {
        const Ui_Record *r = reveal(p, "button", "layers_heads", (int)a->y);
        if (!r) return text_fail(why, whysz, "%s", "no head-count button on screen");
        click(p, r->r);
    }
    for (int k = 0; k < 4 && (int)d->pos != (int)a->x; k++) {
        const Ui_Record *b = find(p, "button", "layers_pos", (int)a->x);
        if (!b) b = reveal(p, "button", "layers_pos_next", -1);
        if (!b) return text_fail(why, whysz, "%s", "no positions control for the layers");
        click(p, b->r);
    }
    if ((int)d->pos != (int)a->x || d->layers != a->n || d->heads != (int)a->y)
        return text_fail(why, whysz, "%s", "the layers lab never reached that set-up");
    const Ui_Record *reset = reveal(p, "button", "layers_reset", -1);
    if (!reset) return text_fail(why, whysz, "%s", "no reset button on screen");
    click(p, reset->r);
    return true;
}

/* `steps N` in either training lab: its "+100" button N/100 times, then the
 * student watches the steps run, a slice a frame, and presses Esc once the
 * checker's budget is spent. queued and steps are the lab's own counters;
 * cost is one step's in the budget's units. */
static bool run_steps(Player *p, const Lesson_Action *a, const char *more, const long *queued,
                      const long *steps, long cost, char *why, size_t whysz) {
    for (int k = 0; k < a->i / 100; k++) {
        const Ui_Record *r = reveal(p, "button", more, -1);
        if (!r) return text_fail(why, whysz, "%s", "no +100 steps button on screen");
        click(p, r->r);
    }
    while (*queued > 0) {
        if (p->train_spent >= p->budget) {
            key(p, KEY_ESCAPE, 0, 0);
            if (*queued > 0) return text_fail(why, whysz, "%s", "Esc did not stop the training");
            if (!p->capped_line) p->capped_line = a->line;
            break;
        }
        long before = *steps;
        frame(p);
        p->train_spent += (*steps - before) * cost;
        if (*steps == before && *queued > 0)
            return text_fail(why, whysz, "%s", "the asked-for steps do not run");
    }
    return true;
}

/* Drag token i's point until x_i[0], x_i[1] are (x, y): straight there when
 * the target is in the plot, else to the edge, again and again while the
 * axes grow after each release. */
static bool drag_point(Player *p, int i, float x, float y, char *why, size_t whysz) {
    const Scene *s = &p->model.scene;
    int c1 = s->d > 1 ? 1 : 0;
    for (int attempt = 0; attempt < 12; attempt++) {
        if (fabsf(s->X[i * s->d] - x) < 1e-3f && fabsf(s->X[i * s->d + c1] - y) < 1e-3f)
            return true;
        const Ui_Record *r = reveal(p, "point", "token", i);
        if (!r) return text_fail(why, whysz, "the point of '%s' is not on screen", s->tokens[i]);
        const Plane_Map *pm = &p->vs.explorer.plane;
        if (pm->axis0 != 0 || pm->axis1 != c1)
            return text_fail(why, whysz, "%s", "the plane does not show x[0] and x[1]");
        float tx, ty;
        plane_to_screen(pm, x, c1 ? y : x, &tx, &ty);
        float sx = r->r.x + r->r.w * 0.5f, sy = r->r.y + r->r.h * 0.5f;
        memcpy(p->before, s->X, sizeof(float) * (size_t)s->n * (size_t)s->d);
        p->in.mx = sx;
        p->in.my = sy;
        p->in.down = p->in.pressed = true;
        frame(p);
        for (int k = 1; k <= 8; k++) {
            p->in.mx = sx + (tx - sx) * (float)k / 8;
            p->in.my = sy + (ty - sy) * (float)k / 8;
            frame(p);
        }
        p->in.down = false;
        p->in.released = true;
        input_frame(p);
        /* the drag must have taken this token's point, not one lying on it */
        for (int j = 0; j < s->n; j++)
            if (j != i &&
                memcmp(&p->before[j * s->d], &s->X[j * s->d], sizeof(float) * (size_t)s->d)) {
                snprintf(why, whysz,
                         "a drag on '%s' (token %d) moved token %d, '%s', whose point lies on "
                         "the same spot",
                         s->tokens[i], i + 1, j + 1, s->tokens[j]);
                return false;
            }
    }
    snprintf(why, whysz, "dragging '%s' did not bring it to (%g, %g)", s->tokens[i], (double)x,
             (double)y);
    return false;
}

/* Drag the chip in slot a onto slot b. */
static bool drag_chip(Player *p, int a, int b, char *why, size_t whysz) {
    const Ui_Record *to = reveal(p, "chip", "token", b);
    if (!to) return text_fail(why, whysz, "%s", "a chip cannot be reached");
    float tx = to->r.x + 2;
    const Ui_Record *from = reveal(p, "chip", "token", a);
    if (!from) return text_fail(why, whysz, "%s", "a chip cannot be reached");
    float sx = from->r.x + from->r.w * 0.5f, y = from->r.y + from->r.h * 0.5f;
    p->in.mx = sx;
    p->in.my = y;
    p->in.down = p->in.pressed = true;
    frame(p);
    for (int k = 1; k <= 8; k++) {
        p->in.mx = sx + (tx - sx) * (float)k / 8;
        frame(p);
    }
    p->in.down = false;
    p->in.released = true;
    input_frame(p);
    for (int k = 0; k < 20; k++) frame(p); /* the reorder animation */
    return true;
}

/* The Model view's pass runs a slice a frame: the student waits for it. */
static bool model_settles(Player *p, char *why, size_t whysz) {
    /* a step of the writing runs on a thread of its own, in its own time: frames until it is
     * done, up to a minute (a count of frames ran out first on a loaded machine) */
    double until = clock_ms() + 60000;
    while (p->vs.real_busy && clock_ms() < until) frame(p);
    return !p->vs.real_busy || text_fail(why, whysz, "%s", "the model's pass never finished");
}

/* The Model view's directives: its text field, its grid of heads, its reorder buttons. */
static bool play_model(Player *p, const Lesson_Action *a, char *why, size_t whysz) {
    Real_Lab *l = &p->model.real;
    if (!l->model) return true; /* its goals are not judged: lesson_by_input's note */
    if (!model_settles(p, why, whysz)) return false;
    if (a->kind == ACT_MODEL_TEXT) {
        const Ui_Record *r = reveal(p, "button", "model_edit", -1);
        if (!r) return text_fail(why, whysz, "%s", "no ✎ Edit text button on screen");
        click(p, r->r);
        key(p, KEY_CHAR, 'a', UI_MOD_CTRL);
        type(p, a->text);
        key(p, KEY_ENTER, 0, 0);
        return model_settles(p, why, whysz);
    }
    if (a->kind == ACT_MODEL_ORDER) {
        key(p, KEY_CHAR, "rsi"[a->i], 0);
        return model_settles(p, why, whysz);
    }
    if (a->kind == ACT_MODEL_WRITE) { /* the write mode, then ▸ step as many times */
        const Ui_Record *mode = reveal(p, "button", "model_next_mode", 1);
        if (!mode) return text_fail(why, whysz, "%s", "no write button on the next-token panel");
        if (p->vs.real_next_mode != 1) click(p, mode->r);
        for (int k = 0; k < a->i; k++) {
            const Ui_Record *step = reveal(p, "button", "model_write", 0);
            if (!step) return text_fail(why, whysz, "%s", "no ▸ step button on screen");
            if (!p->vs.real_greedy)
                return text_fail(why, whysz, "%s", "the panel does not write greedily");
            click(p, step->r);
            if (!model_settles(p, why, whysz)) return false;
        }
        return true;
    }
    /* a head: the student looks over the grid for it, and clicks its picture */
    int layer = a->i, head = a->n, heads = l->model->weights.model.heads;
    if (a->setting < 0) return true; /* none open: nothing a student does */
    if (a->setting > 0 && !real_lab_best_head(l, (Real_Head_Kind)(a->setting - 1), &layer, &head))
        return text_fail(why, whysz, "%s", "no head of that kind in the model's pass");
    const Ui_Record *grid = find(p, "button", "model_grid_mode", 0);
    if (grid && p->vs.real_grid_mode != 0) click(p, grid->r);
    const Ui_Record *r = reveal(p, "button", "model_head", layer * heads + head);
    if (!r) return text_fail(why, whysz, "%s", "that head's picture is not on screen");
    click(p, r->r);
    if (l->open_layer != layer || l->open_head != head)
        return text_fail(why, whysz, "%s", "clicking the head's picture did not open it");
    return model_settles(p, why, whysz);
}

/* ---- each directive, the way a person does it ---------------------------------------------- */

#define BY(name) static bool name(Player *p, const Lesson_Action *a, char *why, size_t whysz)

BY(by_select) {
    int i = lesson_find_token(&p->model.scene, a->text);
    const Ui_Record *r = i >= 0 ? reveal(p, "chip", "token", i) : NULL;
    if (!r) return text_fail(why, whysz, "no chip for '%s'", a->text);
    click(p, r->r);
    return true;
}

BY(by_move) {
    int i = lesson_find_token(&p->model.scene, a->text);
    if (i < 0) return text_fail(why, whysz, "no token '%s'", a->text);
    return drag_point(p, i, a->x, a->y, why, whysz);
}

BY(by_dk) { /* click the number, type it, Enter */
    const Ui_Record *r = reveal(p, "slider", "dk", -1);
    if (!r) return text_fail(why, whysz, "%s", "no d_k slider on screen");
    click_at(p, r->r.x + r->r.w - 20, r->r.y + r->r.h * 0.25f);
    if (!p->vs.typing_dk)
        return text_fail(why, whysz, "%s", "clicking d_k's number opens no field");
    char digits[16];
    snprintf(digits, sizeof digits, "%d", a->i);
    type(p, digits);
    key(p, KEY_ENTER, 0, 0);
    return true;
}

BY(by_dv) {
    return slide_to(p, "dv", SET_DV, a->i, why, whysz);
}

BY(by_d) {
    return slide_to(p, "d", SET_D, a->i, why, whysz);
}

BY(by_scale) {
    return toggle_to(p, "scale", a->i != 0, p->model.scene.scaled, why, whysz);
}

BY(by_pos) {
    const Scene *s = &p->model.scene;
    if ((int)s->pos != a->i) { /* its button, or ▶ until it shows; tabs only if neither */
        const Ui_Record *r = find(p, "button", "pos", a->i);
        if (!r && !find(p, "button", "pos_next", -1)) r = reveal(p, "button", "pos", a->i);
        if (r) click(p, r->r);
        for (int k = 0; !r && k < POS_MODE_COUNT && (int)s->pos != a->i; k++) {
            const Ui_Record *next = reveal(p, "button", "pos_next", -1);
            if (!next) return text_fail(why, whysz, "%s", "no positions control on screen");
            click(p, next->r);
        }
    }
    return !pos_mode_added((Pos_Mode)a->i) ||
           slide_to(p, "pos_strength", SET_POS_STRENGTH, a->x, why, whysz);
}

BY(by_view) {
    const Ui_Record *r = find(p, "button", "tab", a->i);
    if (!r) return text_fail(why, whysz, "%s", "no view tab on screen");
    click(p, r->r);
    return true;
}

/* reverse, shuffle, restore and rotate: their keys, R S I and T */
BY(by_key) {
    (void)why, (void)whysz;
    const Scene *s = &p->model.scene;
    int times = a->kind == ACT_ROTATE ? ((a->i % s->n) + s->n) % s->n : 1;
    int c = a->kind == ACT_REVERSE   ? 'r'
            : a->kind == ACT_SHUFFLE ? 's'
            : a->kind == ACT_RESTORE ? 'i'
                                     : 't';
    for (int k = 0; k < times; k++) key(p, KEY_CHAR, c, 0);
    return true;
}

BY(by_order) { /* slot by slot: find the token that belongs there and drag its chip in */
    const Scene *s = &p->model.scene;
    for (int i = 0; i < a->n && i < s->n; i++) {
        int j = i;
        while (j < s->n && s->origin[j] != a->order[i]) j++;
        if (j == s->n)
            return text_fail(why, whysz, "%s", "the order names a token that is not there");
        if (j != i && !drag_chip(p, j, i, why, whysz)) return false;
    }
    return true;
}

BY(by_tokens) {
    const Ui_Record *r = reveal(p, "button", "edit", -1);
    if (!r) return text_fail(why, whysz, "%s", "no ✎ Edit button on screen");
    click(p, r->r);
    key(p, KEY_CHAR, 'a', UI_MOD_CTRL);
    type(p, a->text);
    key(p, KEY_ENTER, 0, 0);
    return true;
}

BY(by_seed) {
    uint32_t want = a->seed;
    for (int k = 0; k < 100 && p->model.scene.seed != want; k++) {
        const Ui_Record *r = reveal(p, "button", "reroll", -1);
        if (!r) return text_fail(why, whysz, "%s", "no ⟳ seed button on screen");
        click(p, r->r);
    }
    if (p->model.scene.seed == want) return true;
    return text_fail(why, whysz, "%s", "the seed is more than 100 ⟳ clicks away");
}

BY(by_scene) {
    (void)p;
    return text_fail(why, whysz, "scene %s: a scene file cannot be opened from the window",
                     a->text);
}

BY(by_nothing) { /* hide and highlight: what the step shows, not what a student does */
    (void)p, (void)a, (void)why, (void)whysz;
    return true;
}

BY(by_train) {
    if (a->i == 2) return train_layers(p, a, why, whysz);
    const Ui_Record *sw = find(p, "button", "train_model", 0);
    if (sw && p->model.layers) click(p, sw->r); /* back to the one head */
    const Ui_Record *r = reveal(p, "button", "train_task", a->i);
    if (!r)
        return text_fail(why, whysz, "%s", "no task button on screen (is the Train view open?)");
    click(p, r->r);
    for (int k = 0; k < 5 && (int)p->model.train.trainer.pos != (int)a->x; k++) {
        /* the scheme's button, or ▶ until it shows */
        const Ui_Record *b = find(p, "button", "train_pos", (int)a->x);
        if (!b) b = reveal(p, "button", "train_pos_next", -1);
        if (!b) return text_fail(why, whysz, "%s", "no positions control in the Train view");
        click(p, b->r);
    }
    if ((int)p->model.train.trainer.pos != (int)a->x)
        return text_fail(why, whysz, "%s", "the Train view never reached that scheme");
    if (!toggle_to(p, "train_compare", a->y != 0, p->model.train.compare, why, whysz)) return false;
    if (a->n > 0) { /* d_k: the slider, by its arrow keys */
        const Ui_Record *dk = reveal(p, "slider", "train_dk", -1);
        if (!dk) return text_fail(why, whysz, "%s", "no d_k slider on screen");
        click_at(p, dk->r.x + dk->r.w * 0.5f, dk->r.y + dk->r.h * 0.75f);
        for (int k = 0; k < 600 && p->model.train.trainer.d_k != a->n; k++)
            key(p, p->model.train.trainer.d_k < a->n ? KEY_RIGHT : KEY_LEFT, 0, 0);
        if (p->model.train.trainer.d_k != a->n)
            return text_fail(why, whysz, "%s", "the d_k slider never reached the value");
    }
    const Ui_Record *reset = reveal(p, "button", "train_reset", -1);
    if (!reset) return text_fail(why, whysz, "%s", "no reset button on screen");
    click(p, reset->r);
    return true;
}

BY(by_explore) {
    pick_head(p, a->i * STACK_MAX_HEADS + a->n);
    const Ui_Record *r = reveal(p, "button", "layers_explore", a->i * STACK_MAX_HEADS + a->n);
    if (!r) return text_fail(why, whysz, "%s", "no 'explore' button for that head on screen");
    click(p, r->r);
    if (!p->model.scene.learned || p->vs.view != VIEW_EXPLORER)
        return text_fail(why, whysz, "%s", "'explore' did not open the head in the explorer");
    return true;
}

BY(by_zero) {
    pick_head(p, a->i * STACK_MAX_HEADS + a->n);
    const Ui_Record *r = reveal(p, "button", "layers_ablate", a->i * STACK_MAX_HEADS + a->n);
    if (!r) return text_fail(why, whysz, "%s", "no 'zero it' button for that head on screen");
    bool was = p->model.stack.ablated[a->i][a->n];
    click(p, r->r);
    if (p->model.stack.ablated[a->i][a->n] == was)
        return text_fail(why, whysz, "%s", "clicking 'zero it' did not zero the head");
    return true;
}

BY(by_steps) {
    if (a->i % 100) return text_fail(why, whysz, "%s", "steps come 100 at a time from the window");
    if (p->model.layers) {
        const Stack_Lab *l = &p->model.stack;
        return run_steps(p, a, "layers_more", &l->queued, &l->stack.steps, stack_lab_step_cost(l),
                         why, whysz);
    }
    const Train_Lab *l = &p->model.train;
    return run_steps(p, a, "train_more", &l->queued, &l->trainer.steps, train_lab_step_cost(l), why,
                     whysz);
}

BY(by_axis) {
    return toggle_to(p, "fixed_axis", a->i != 0, p->vs.scaling.fixed_axis, why, whysz);
}

BY(by_set) {
    if (a->setting == SET_HEADS) return slide_to(p, "heads", SET_HEADS, a->value, why, whysz);
    if (a->setting == SET_POS_OFFSET)
        return slide_to(p, "pos_offset", SET_POS_OFFSET, a->value, why, whysz);
    if (a->setting == SET_ROPE_BASE)
        return slide_to(p, "rope_base", SET_ROPE_BASE, a->value, why, whysz);
    if (a->setting == SET_MASK)
        return toggle_to(p, "mask", a->value == MASK_CAUSAL, p->model.scene.mask == MASK_CAUSAL,
                         why, whysz);
    return text_fail(why, whysz, "%s", "no control for that setting");
}

#undef BY

/* The directive table's by-input column (lesson/lesson_directive.h), by kind: the platform's,
 * for it drives the window. */
static bool (*const by_input[ACT_KIND_COUNT])(Player *, const Lesson_Action *, char *, size_t) = {
    [ACT_SCENE] = by_scene,
    [ACT_TOKENS] = by_tokens,
    [ACT_DK] = by_dk,
    [ACT_DV] = by_dv,
    [ACT_D] = by_d,
    [ACT_SEED] = by_seed,
    [ACT_SCALE] = by_scale,
    [ACT_POS] = by_pos,
    [ACT_VIEW] = by_view,
    [ACT_ORDER] = by_order,
    [ACT_SELECT] = by_select,
    [ACT_MOVE] = by_move,
    [ACT_REVERSE] = by_key,
    [ACT_SHUFFLE] = by_key,
    [ACT_ROTATE] = by_key,
    [ACT_RESTORE] = by_key,
    [ACT_HIGHLIGHT] = by_nothing,
    [ACT_HIDE] = by_nothing,
    [ACT_SET] = by_set,
    [ACT_AXIS] = by_axis,
    [ACT_TRAIN] = by_train,
    [ACT_STEPS] = by_steps,
    [ACT_ZERO] = by_zero,
    [ACT_EXPLORE] = by_explore,
    [ACT_MODEL_TEXT] = play_model,
    [ACT_MODEL_HEAD] = play_model,
    [ACT_MODEL_ORDER] = play_model,
    [ACT_MODEL_WRITE] = play_model,
};

bool lesson_input_plays(Directive_Kind kind) {
    return kind >= 0 && kind < ACT_KIND_COUNT && by_input[kind];
}

/* One solution directive, the way a person does it. */
static bool play(Player *p, const Lesson_Action *a, char *why, size_t whysz) {
    if (!lesson_input_plays(a->kind)) return text_fail(why, whysz, "%s", "unknown directive");
    return by_input[a->kind](p, a, why, whysz);
}

/* The panel a step points at must be on screen once the step has turned to it. */
static bool highlight_shown(Player *p) {
    const char *h = p->vs.session.highlight;
    if (!p->model.real.model && !strncmp(h, "model_", 6)) return true; /* its no-model page */
    if (!strcmp(h, "model_unturned") && !(p->model.real.model->weights.model.rope_theta > 0))
        return true; /* nothing is turned: the open head has no such picture (lesson 15 says so) */
    return !h[0] || find(p, "panel", h, -1) != NULL;
}

bool lesson_by_input(Lesson *l, const Vocab *vocab, const char *data_dir, Text_Metrics tm,
                     const Lesson_Screen *screen, char *err, size_t errsz) {
    float w = screen->w, h = screen->h;
    Player *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, errsz, "%s: out of memory", l->path);
        return false;
    }
    char path[1200], why[400];
    snprintf(path, sizeof path, "%s/assets/scenes/default.json", data_dir);
    bool ok = scene_load(&p->start, path, vocab, err, errsz);
    if (ok && (!draw_init(&p->dl, &(Draw_Desc){0}) || !model_init(&p->model, &p->start, vocab))) {
        snprintf(err, errsz, "%s: out of memory", l->path);
        ok = false;
    }
    if (ok && screen->real && !real_lab_attach(&p->model.real, screen->real, "model", err, errsz))
        ok = false;
    if (ok) {
        p->budget = screen->train_budget > 0 ? screen->train_budget : LESSON_CHECK_TRAIN_BUDGET;
        p->w = w;
        p->h = h;
        ui_init(&p->ui, &p->dl, tm);
        p->ui.records = p->records;
        view_init(&p->vs);
        p->vs.session.lesson = l;
        p->vs.session.saved = &p->saved;
        p->vs.session.math = &p->math;
        p->vs.session.data_dir = data_dir;
        p->vs.session.pending = true; /* as --lesson opens it */
        p->vs.presenter = screen->presenter;
        p->vs.theme = screen->theme;
        p->in.mx = p->in.my = -1000;
        input_frame(p);
    }
    int skipped = 0, no_model = 0, no_rope = 0;
    for (int s = 0; ok && s < l->step_count; s++) {
        const Lesson_Step *st = &l->steps[s];
        if (p->vs.session.step != s || !p->vs.session.active) {
            snprintf(err, errsz, "%s:%d: the → button did not reach this step", l->path, st->line);
            ok = false;
            break;
        }
        /* the panel the step points at: on screen from the start, or once the
         * student has done what the step asks (d_k = 2 brings the q–k plane) */
        bool shown = screen->layout_only || highlight_shown(p);
        for (int g = 0; ok && !screen->layout_only && g < st->goal_count; g++) {
            const Lesson_Goal *goal = &st->goals[g];
            int unjudged = lesson_goal_unjudged(goal, &p->model.real);
            if (unjudged) { /* not judged: said below */
                *(unjudged == 1 ? &no_model : &no_rope) += 1;
                continue;
            }
            for (int k = 0; ok && k < goal->sol_count; k++)
                if (!play(p, &l->actions[goal->sol_first + k], why, sizeof why)) {
                    snprintf(err, errsz, "%s:%d: goal cannot be met by input: %s", l->path,
                             goal->line, why);
                    ok = false;
                }
            if (ok && p->capped_line && lesson_goal_trains(goal)) {
                skipped++; /* its training was cut short: not judged, said below */
                continue;
            }
            if (ok && p->vs.session.goal_state[g] != 1) {
                snprintf(err, errsz,
                         "%s:%d: goal cannot be met by input: after the solution's clicks, drags "
                         "and keys it is %s",
                         l->path, goal->line,
                         p->vs.session.goal_state[g] < 0 ? p->vs.session.goal_why[g]
                                                         : "still not met");
                ok = false;
            }
        }
        if (ok && !shown && !highlight_shown(p)) {
            snprintf(err, errsz, "%s:%d: the step points at '%s', which is not on screen at %gx%g",
                     l->path, st->line, p->vs.session.highlight, (double)w, (double)h);
            ok = false;
        }
        /* what the step shows must fit, read a page at a time: its text, its
         * prediction, its goals (met, as they are now) */
        if (ok && p->vs.session.misfit[0]) {
            snprintf(err, errsz, "%s:%d: the step does not fit the lesson panel at %gx%g: %s",
                     l->path, st->line, (double)w, (double)h, p->vs.session.misfit);
            ok = false;
        }
        /* → turns the step's pages, then goes on */
        for (int k = 0; ok && s + 1 < l->step_count && p->vs.session.step == s && k <= 32; k++) {
            const Ui_Record *next = find(p, "button", "lesson_next", -1);
            if (!next) break;
            click(p, next->r);
            if (p->vs.session.misfit[0] && p->vs.session.step == s) {
                snprintf(err, errsz, "%s:%d: page %d of the step does not fit at %gx%g: %s",
                         l->path, st->line, p->vs.session.page + 1, (double)w, (double)h,
                         p->vs.session.misfit);
                ok = false;
            }
        }
    }
    if (ok && skipped)
        snprintf(err, errsz,
                 "%s:%d: note: training by input capped at %d steps of d_k = 16 (then Esc); %d "
                 "training goals not judged",
                 l->path, p->capped_line, (int)p->budget, skipped);
    else if (ok && no_model)
        snprintf(err, errsz,
                 "%s: note: %d goal%s read%s a real model, and none is open; not met "
                 "by input (give one with --model)",
                 l->path, no_model, no_model == 1 ? "" : "s", no_model == 1 ? "s" : "");
    else if (ok && no_rope)
        snprintf(err, errsz,
                 "%s: note: %d goal%s read%s RoPE's turn, and the model open has no RoPE; not "
                 "met by input (give a Llama or Qwen with --model)",
                 l->path, no_rope, no_rope == 1 ? "" : "s", no_rope == 1 ? "s" : "");
    model_free(&p->model);
    draw_free(&p->dl);
    free(p);
    return ok;
}
