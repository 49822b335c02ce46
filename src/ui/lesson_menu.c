/* The ☰ Lessons menu and the progress it shows: which steps of which
 * lessons the student has done; see lesson_menu.h. */
#include "../core/i18n.h"
#include "lesson_menu.h"

#include <stdio.h>
#include <string.h>

/* ---- progress ------------------------------------------------------------------ */

static const char *file_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static int progress_entry(const Lesson_Progress *p, const char *path) {
    const char *name = file_name(path);
    for (int k = 0; k < p->count; k++)
        if (!strcmp(p->file[k], name)) return k;
    return -1;
}

bool lesson_progress_mark(Lesson_Progress *p, const Lesson *l, int step) {
    int k = progress_entry(p, l->path);
    if (k < 0) {
        size_t n = strlen(file_name(l->path));
        if (p->count == PROGRESS_MAX_LESSONS || n >= sizeof p->file[0]) return false;
        k = p->count++;
        memcpy(p->file[k], file_name(l->path), n + 1);
        p->done[k] = 0;
        p->changed = true;
    }
    if (p->steps[k] != l->step_count) {
        p->steps[k] = l->step_count;
        p->changed = true;
    }
    uint32_t bit = (uint32_t)1 << step;
    if (!(p->done[k] & bit)) {
        p->done[k] |= bit;
        p->changed = true;
    }
    return true;
}

/* Steps done of the lesson at path, counted against the `steps` it has now:
 * a done step it no longer has does not count. */
static int progress_of(const Lesson_Progress *p, const char *path, int steps) {
    int k = progress_entry(p, path), n = 0;
    for (int s = 0; k >= 0 && s < steps && s < 32; s++) n += (p->done[k] >> s) & 1;
    return n;
}

/* ---- the lesson menu ---------------------------------------------------------------- */

void lesson_menu(Ui *ui, View_State *vs) {
    const Theme *t = ui->theme;
    const Lesson_Index *ix = vs->session.index;
    int count = ix ? ix->count : 0;
    float row = 42;
    bool closed;
    Rect body = ui_modal(ui, 720, row * (float)(count ? count : 1) + 90, _("Lessons"),
                         "lesson_menu", &closed);
    /* a lesson that did not load is listed greyed out with its error, so its
     * author sees why; it cannot be opened */
    if (count == 0)
        ui_label(ui, rect_cut_top(&body, row), FONT_SANS, t->text_size, ALIGN_LEFT, t->text_dim,
                 _("No lessons found in lessons/"));
    for (int k = 0; k < count; k++) {
        Rect b = rect_cut_top(&body, row - 6);
        rect_cut_top(&body, 6);
        if (ix->error[k][0]) {
            ui_record(ui, "label", "lesson_broken", k, b);
            draw_round_rect(ui->dl, b, t->radius, t->panel);
            Rect top = b, bottom = rect_cut_bottom(&top, b.h * 0.45f);
            char head[200];
            snprintf(head, sizeof head, _("%s — cannot be opened"), ix->title[k]);
            ui_label_fit(ui, rect_inset(top, 4), FONT_SANS, t->small_size, ALIGN_LEFT, t->text_dim,
                         head);
            ui_label_fit(ui, rect_inset(bottom, 4), FONT_SANS, t->small_size * 0.85f, ALIGN_LEFT,
                         t->error_text, ix->error[k]);
            continue;
        }
        /* finished lessons are marked, begun ones say how far */
        int steps = ix->steps[k], done = progress_of(&vs->session.progress, ix->path[k], steps);
        char label[200];
        if (steps > 0 && done == steps)
            snprintf(label, sizeof label, "✓ %s", ix->title[k]);
        else if (done > 0)
            snprintf(label, sizeof label, _("%s  · %d of %d steps"), ix->title[k], done, steps);
        else
            snprintf(label, sizeof label, "%s", ix->title[k]);
        if (ui_button(ui, "lesson_item", k, b, label, false) & UI_CLICKED) {
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
