/* View state and its helpers; see view_state.h. */
#include "../core/i18n.h"
#include "view_state.h"

#include "../model/hide.h"

#include "../core/text.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void view_init(View_State *vs) {
    memset(vs, 0, sizeof *vs);
    vs->weight_map = COLORMAP_VIRIDIS;
    vs->hover_row = vs->hover_col = vs->hover_token = -1;
    vs->shift_key = -1;
    vs->session.hide_row = vs->session.predict_given = -1;
    vs->explorer.drag_point = vs->drag_chip = -1;
    vs->explorer.axis0 = 0;
    vs->explorer.axis1 = 1;
    vs->scaling.samples = 2000;
    vs->temperature = 1;
    vs->real_greedy = true;
    vs->gen_top_p = 1;
    vs->gen_speed = 3;
    vs->real_gen_shown = -1;
}

void view_set_status(View_State *vs, bool error, const char *fmt, ...) {
    /* Messages quote file names, keys and tokens as the user wrote them:
     * escape control characters and bad bytes so the line stays one line. */
    char raw[sizeof vs->status];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    text_escape(raw, strlen(raw), vs->status, sizeof vs->status);
    vs->status_error = error;
    /* said between frames (a file the page opened, a notice): its time
     * starts with the next frame, not the last one, however long ago */
    vs->status_time = vs->framing ? vs->now : NAN;
    vs->status_n++;
}

double view_wake_in(const View_State *vs) {
    /* a pass on a thread: its progress now and then (the thread wakes the window when done) */
    double progress =
        vs->view == VIEW_MODEL && vs->real_busy && vs->real_on_threads ? VIEW_PROGRESS_SECONDS : -1;
    double status = -1;
    if (vs->status[0] && !vs->status_error)
        status = isnan(vs->status_time) ? VIEW_STATUS_SECONDS
                                        : fmax(vs->status_time + VIEW_STATUS_SECONDS - vs->now, 0);
    return progress < 0 ? status : status < 0 ? progress : fmin(progress, status);
}

bool view_hides(const View_State *vs, const char *panel) {
    if (hide_list_has(vs->teacher_hidden, panel)) return true;
    return vs->session.active && hide_list_has(vs->session.hidden, panel);
}

bool view_wants_frames(const View_State *vs) {
    /* actions waiting: the next frame applies them and shows the result */
    return vs->animating || vs->session.showing || vs->actions.count > 0 || vs->view_asked ||
           vs->chip_autoscroll || (vs->view == VIEW_TRAIN && vs->train_running) ||
           vs->train_queued || (vs->view == VIEW_MODEL && vs->real_busy && !vs->real_on_threads);
}

void view_act(View_State *vs, Action a) {
    if (!action_list_push(&vs->actions, &a))
        view_set_status(vs, true, _("Too many changes at once: '%s' was dropped"),
                        action_name(a.kind));
}

void subscript(int i, char *buf, size_t size) {
    /* Unicode subscript digits: ₀ is U+2080, three bytes E2 82 80+d */
    char digits[16];
    snprintf(digits, sizeof digits, "%d", i);
    size_t k = 0;
    for (const char *p = digits; *p && k + 4 < size; p++) {
        buf[k++] = (char)0xE2;
        buf[k++] = (char)0x82;
        buf[k++] = (char)(0x80 + (*p - '0'));
    }
    buf[k] = '\0';
}

const Attn *view_attn(const View_State *vs, const Model *m) {
    int h = vs->head >= 0 && vs->head < m->scene.heads ? vs->head : 0;
    return derived_head(&m->derived, h);
}

Action view_shuffle(View_State *vs, const Scene *s) {
    return (Action){.kind = ACTION_SHUFFLE,
                    .seed = s->seed + UINT64_C(7919) * (uint64_t)(++vs->shuffle_count)};
}

void view_slider_gesture(View_State *vs) {
    if (vs->slider_gesture) return;
    view_act(vs, action_of(ACTION_GESTURE_BEGIN));
    vs->slider_gesture = true;
}
