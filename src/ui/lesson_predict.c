/* A lesson step's prediction; see lesson_predict.h. */
#include "lesson_predict.h"

#include "../core/i18n.h"
#include "../lesson/lesson_goals.h"

#include <stdio.h>
#include <string.h>

/* The verdict of a later prediction, on the model as it stands. */
void lesson_predict_judge_later(View_State *vs, Model *m, const Lesson_Predict *pr) {
    Lesson_Session *ls = &vs->session;
    char truth[96] = "", why[300] = "";
    int t = lesson_predict_later(pr, m, (int)vs->view, vs->selected, truth, sizeof truth, why,
                                 sizeof why);
    ls->predict_waiting = false;
    if (t < 0) {
        snprintf(ls->predict_error, sizeof ls->predict_error, "%s", why);
        ls->predict_right = false;
        return;
    }
    ls->predict_error[0] = '\0';
    snprintf(ls->predict_truth, sizeof ls->predict_truth, "%s", truth);
    ls->predict_right = (ls->predict_given == 1) == (t == 1);
    ls->predict_asked++;
    ls->predict_hits += ls->predict_right;
}

static void judge(View_State *vs, const Model *m, int given) {
    Lesson_Session *ls = &vs->session;
    const Lesson_Predict *pr = &ls->lesson->steps[ls->step].predict;
    char truth[96] = "", why[300] = "";
    int t = lesson_predict_truth(ls->lesson, pr, m, (int)vs->view, vs->selected, ls->data_dir,
                                 truth, sizeof truth, why, sizeof why);
    ls->predict_given = given;
    if (t < 0) { /* the lesson checker refuses such a step; say so rather than guess */
        snprintf(ls->predict_error, sizeof ls->predict_error, "%s", why);
        ls->predict_right = false;
        return;
    }
    ls->predict_error[0] = '\0';
    snprintf(ls->predict_truth, sizeof ls->predict_truth, "%s", truth);
    /* a key is judged by its position: a copy of the right word the query
     * does not weigh most (or cannot see) is not the answer */
    ls->predict_right = pr->kind == PREDICT_KEY ? given == t : (given == 1) == (t == 1);
    if (pr->kind == PREDICT_KEY)
        lesson_key_name(&m->scene, given, ls->predict_picked, sizeof ls->predict_picked);
    ls->predict_asked++;
    ls->predict_hits += ls->predict_right;
}

/* The step's question, its answer buttons, then the verdict and why; the
 * height it needs. Draws only when draw. */
float lesson_predict_box(Ui *ui, View_State *vs, const Model *m, const Lesson_Predict *pr, Rect r,
                         bool draw) {
    const Theme *t = ui->theme;
    Lesson_Session *ls = &vs->session;
    Rect in = rect_inset(r, 8);
    float y = in.y;
    if (draw) {
        draw_round_rect(ui->dl, rect_inset(r, 2), t->radius, t->goal_bg);
        draw_rect_outline(ui->dl, rect_inset(r, 2), t->radius, t->line, t->highlight);
        ui_record(ui, "panel", "predict", -1, r);
    }
    char q[260];
    snprintf(q, sizeof q, _("Predict: %s"), pr->question);
    y += ui_text_wrapped(ui, (Rect){in.x, y, in.w, 1e6f}, FONT_BOLD, t->text_size, t->highlight, q,
                         draw) +
         6;
    if (ls->predict_given < 0) {
        /* the answers: every token (a key), or yes and no */
        float x = in.x, bh = 30;
        int count = pr->kind == PREDICT_KEY ? m->scene.n : 2;
        for (int k = 0; k < count; k++) {
            const char *label = pr->kind == PREDICT_KEY ? m->scene.tokens[k]
                                : k                     ? _("No")
                                                        : _("Yes");
            float bw = ui_text_width(ui, FONT_SANS, t->text_size, label) + 26;
            if (x > in.x && x + bw > in.x + in.w) {
                x = in.x;
                y += bh + 6;
            }
            if (draw && ui_button(ui, "predict_answer", k, (Rect){x, y, bw, bh}, label, false) &
                            UI_CLICKED) {
                if (pr->later) { /* the training in the step will tell */
                    ls->predict_given = k == 0;
                    ls->predict_waiting = true;
                } else {
                    judge(vs, m, pr->kind == PREDICT_KEY ? k : k == 0);
                }
            }
            x += bw + 6;
        }
        return y + bh + 8 - r.y + 8;
    }
    char verdict[640];
    if (ls->predict_waiting && vs->view == VIEW_TRAIN)
        snprintf(verdict, sizeof verdict,
                 _("Your answer: %s. The verdict comes when the step's goal is met: train, and "
                   "watch."),
                 ls->predict_given ? _("yes") : _("no"));
    else if (ls->predict_waiting) /* nothing to train here: the goal is what the user does */
        snprintf(verdict, sizeof verdict,
                 _("Your answer: %s. The verdict comes when you meet the step's goal, below."),
                 ls->predict_given ? _("yes") : _("no"));
    else if (ls->predict_error[0])
        snprintf(verdict, sizeof verdict, "%s", ls->predict_error);
    else if (ls->predict_right)
        snprintf(verdict, sizeof verdict, _("✓ Right: %s. %s"), ls->predict_truth, pr->why);
    else if (pr->kind == PREDICT_KEY)
        snprintf(verdict, sizeof verdict, _("✗ Not this time: you picked %s; it is %s. %s"),
                 ls->predict_picked, ls->predict_truth, pr->why);
    else
        snprintf(verdict, sizeof verdict, _("✗ Not this time: it is %s. %s"), ls->predict_truth,
                 pr->why);
    y += ui_text_wrapped(ui, (Rect){in.x, y, in.w, 1e6f}, FONT_SANS, t->text_size,
                         ls->predict_right ? t->good : t->text, verdict, draw) +
         4;
    char tally[80];
    snprintf(tally, sizeof tally, _("Predictions so far: %d of %d right"), ls->predict_hits,
             ls->predict_asked);
    if (draw)
        ui_label(ui, (Rect){in.x, y, in.w, ui_line_height(ui, FONT_SANS, t->small_size)}, FONT_SANS,
                 t->small_size, ALIGN_LEFT, t->text_dim, tally);
    y += ui_line_height(ui, FONT_SANS, t->small_size);
    return y - r.y + 8;
}
