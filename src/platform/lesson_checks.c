/* --check-lessons: see lesson_checks.h. */
#define _POSIX_C_SOURCE 200809L
#include "lesson_checks.h"

#include "../core/i18n.h"

#include "../model/hide.h"
#include "../lesson/lesson.h"
#include "../lesson/lesson_check.h"
#include "../render/font.h"
#include "app.h"
#include "checkpoint.h"
#include "lang.h"
#include "lesson_input.h"
#include "lesson_scan.h"

#include <SDL_ttf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* One lesson to check: an English one (lang < 0: in the language the check
 * started in), or a translation with the English original it must match. */
typedef struct Check_Item {
    int lang;
    char path[512], original[600];
} Check_Item;

/* What every item is checked with. */
typedef struct Check_Ctx {
    const Cli_Options *o;
    Font_Atlas *atlas; /* with --by-input: the fonts tm measures with */
    const Vocab *vocab;
    const char *data_dir;
    const Real_Model *real;
    Text_Metrics tm;
    float z;
    int start_lang;
} Check_Ctx;

/* A goal whose solution touches a panel or control that is hidden, by the
 * lesson's own `hide` in that step or by --hide: the student cannot do it
 * by hand. Said as a warning; it is the teacher's choice. */
static void hidden_goal_warnings(const Lesson *l, const char *teacher) {
    for (int s = 0; s < l->step_count; s++) {
        const Lesson_Step *st = &l->steps[s];
        char step_hidden[400] = "";
        for (int k = st->act_first; k < st->act_first + st->act_count; k++)
            if (l->actions[k].kind == ACT_HIDE) {
                size_t n = strlen(step_hidden);
                snprintf(step_hidden + n, sizeof step_hidden - n, "%s", l->actions[k].text);
            }
        for (int g = 0; g < st->goal_count; g++) {
            const char *names[16];
            int count = lesson_goal_touches(l, &st->goals[g], names, 16);
            for (int k = 0; k < count; k++) {
                bool by_lesson = hide_list_has(step_hidden, names[k]);
                if (!by_lesson && !hide_list_has(teacher, names[k])) continue;
                fprintf(stderr, "%s:%d: warning: the goal needs '%s', which %s hides\n", l->path,
                        st->goals[g].line, names[k], by_lesson ? "the step" : "--hide");
            }
        }
    }
}

/* Checks one lesson in its language; prints its "ok" line or its error.
 * A translation is checked against its original first. */
static bool check_item(const Check_Ctx *c, const Check_Item *it) {
    static Lesson lesson, original;
    const Cli_Options *o = c->o;
    char err[1200] = "", why[1200] = "";
    int want = it->lang < 0 ? c->start_lang : it->lang;
    if (lang_current() != want && !lang_use(want, c->data_dir, why, sizeof why))
        cli_report(_("attnlab: warning: "), why);
    bool translation = it->lang >= 0, layout_only = translation && o->translations == 1;
    bool ok = lesson_load(&lesson, it->path, err, sizeof err);
    if (ok && translation) {
        if (!lesson_load(&original, it->original, why, sizeof why)) {
            snprintf(err, sizeof err, "%.400s: no English original %.400s to compare with (%.300s)",
                     it->path, it->original, why);
            ok = false;
        }
        ok = ok && lesson_same_shape(&original, &lesson, err, sizeof err);
    }
    long budget = o->train_budget ? o->train_budget : LESSON_CHECK_TRAIN_BUDGET;
    ok = ok && (layout_only || lesson_check_within(&lesson, c->vocab, c->data_dir, c->real, budget,
                                                   err, sizeof err));
    ok = ok && (!o->by_input || lesson_by_input(&lesson, c->vocab, c->data_dir, c->tm,
                                                &(Lesson_Screen){.w = (float)o->width / c->z,
                                                                 .h = (float)o->height / c->z,
                                                                 .presenter = o->presenter,
                                                                 .theme = o->theme,
                                                                 .real = c->real,
                                                                 .layout_only = layout_only,
                                                                 .train_budget = budget},
                                                err, sizeof err));
    if (!ok) {
        cli_report("", err);
        return false;
    }
    const char *how = !o->by_input ? "" : layout_only ? ", laid out by input" : ", met by input";
    if (translation) {
        printf("ok  %s  (the steps of %s%s)\n", it->path, it->original, how);
    } else {
        int goals = 0;
        for (int s = 0; s < lesson.step_count; s++) goals += lesson.steps[s].goal_count;
        printf("ok  %s  (%d steps, %d goals%s)\n", it->path, lesson.step_count, goals, how);
    }
    if (err[0]) cli_report("", err);        /* a note: what the check could not judge */
    hidden_goal_warnings(&lesson, o->hide); /* a class in this language meets it */
    return true;
}

/* Copies what a worker wrote into f to the stream it stands for. */
static void pour(FILE *from, FILE *to) {
    char buf[8192];
    size_t n;
    rewind(from);
    while ((n = fread(buf, 1, sizeof buf, from)) > 0) fwrite(buf, 1, n, to);
    fclose(from);
    fflush(to);
}

/* A worker's fonts of its own: FreeType reads a face's file as it needs
 * glyphs, and a descriptor inherited across fork shares its offset with every
 * other worker's, so their reads would mix (seen: metrics that change from
 * run to run, and steps that did not fit). */
static bool own_fonts(Check_Ctx *c) {
    if (!c->o->by_input) return true;
    char err[1200];
    font_unload(c->atlas);
    if (!font_load(c->atlas, c->data_dir, false, err, sizeof err)) {
        cli_report("attnlab: --check-lessons: ", err);
        return false;
    }
    c->tm = font_text_metrics(c->atlas, c->z);
    return true;
}

/* One process per item, at most `jobs` at once. Each writes into files of
 * its own, poured out in the items' order as soon as every earlier item is
 * done, so the output is the one-job output. Returns the failures. */
static int run_workers(Check_Ctx *c, const Check_Item *items, int n, int jobs) {
    typedef struct Worker {
        pid_t pid;
        FILE *out, *err;
        int state; /* 0 waiting, 1 running, 2 done */
        bool ok;
    } Worker;
    Worker *w = calloc((size_t)n, sizeof *w);
    if (!w) {
        cli_report("attnlab: --check-lessons: ", "out of memory");
        return n;
    }
    int failed = 0, next = 0, running = 0, poured = 0;
    fflush(stdout);
    fflush(stderr);
    while (poured < n) {
        while (running < jobs && next < n) {
            Worker *k = &w[next];
            k->out = tmpfile();
            k->err = tmpfile();
            k->pid = k->out && k->err ? fork() : -1;
            if (k->pid == 0) {
                dup2(fileno(k->out), STDOUT_FILENO);
                dup2(fileno(k->err), STDERR_FILENO);
                bool ok = own_fonts(c) && check_item(c, &items[next]);
                fflush(stdout);
                fflush(stderr);
                exit(ok ? 0 : 1);
            }
            if (k->pid < 0) { /* no process: checked here instead */
                if (k->out) fclose(k->out);
                if (k->err) fclose(k->err);
                k->out = k->err = NULL;
                k->ok = check_item(c, &items[next]);
                fflush(stdout);
                fflush(stderr);
                k->state = 2;
            } else {
                k->state = 1;
                running++;
            }
            next++;
        }
        if (running) {
            int status;
            pid_t pid = waitpid(-1, &status, 0);
            if (pid < 0 && errno == EINTR) continue;
            for (int k = 0; k < next; k++)
                if (pid > 0 && w[k].state == 1 && w[k].pid == pid) {
                    w[k].state = 2;
                    w[k].ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
                    if (WIFSIGNALED(status))
                        fprintf(w[k].err, "%s: the check stopped on signal %d\n", items[k].path,
                                WTERMSIG(status));
                    running--;
                }
            if (pid < 0) break; /* no child left to wait for: cannot happen */
        }
        for (; poured < next && w[poured].state == 2; poured++) {
            if (w[poured].out) pour(w[poured].out, stdout);
            if (w[poured].err) pour(w[poured].err, stderr);
            failed += !w[poured].ok;
        }
    }
    failed += n - poured;
    free(w);
    return failed;
}

/* The items: DIR's lessons, then each language's translations in DIR/LANG/.
 * Adds the *.md files past the index's limit to *skipped. */
static int list_items(const Cli_Options *o, const Lesson_Index *english, Check_Item *items,
                      int *skipped) {
    static Lesson_Index index;
    char err[600], dir[4200];
    int n = 0;
    for (int k = 0; k < english->count; k++) {
        items[n].lang = -1;
        snprintf(items[n++].path, sizeof items->path, "%s", english->path[k]);
    }
    for (int lang = 1; o->translations != 2 && lang < lang_count(); lang++) {
        snprintf(dir, sizeof dir, "%s/%s", o->check_dir, lang_code(lang));
        if (!lesson_index_scan(&index, dir, err, sizeof err)) continue; /* none in this language */
        *skipped += index.skipped;
        for (int k = 0; k < index.count; k++) {
            const char *base = strrchr(index.path[k], '/');
            items[n].lang = lang;
            snprintf(items[n].path, sizeof items->path, "%s", index.path[k]);
            snprintf(items[n++].original, sizeof items->original, "%.500s%s", o->check_dir, base);
        }
    }
    return n;
}

int lesson_checks_run(const Cli_Options *o, const Vocab *vocab, const char *data_dir) {
    static Lesson_Index index;
    char err[1200];
    if (!lesson_index_scan(&index, o->check_dir, err, sizeof err)) {
        cli_report("attnlab: --check-lessons: ", err);
        return 2;
    }
    if (index.count == 0) {
        snprintf(err, sizeof err, "no lessons (*.md) in %s", o->check_dir);
        cli_report("attnlab: --check-lessons: ", err);
        return 2;
    }
    static Font_Atlas atlas;
    Check_Ctx c = {.o = o,
                   .atlas = &atlas,
                   .vocab = vocab,
                   .data_dir = data_dir,
                   .z = app_zoom_for(o->ui_scale, o->width, o->height),
                   .start_lang = lang_current()};
    /* --by-input lays lessons out with the real fonts, as the window would */
    if (o->by_input) {
        if (!font_load(&atlas, data_dir, false, err, sizeof err)) {
            cli_report("attnlab: --check-lessons: ", err);
            return 2;
        }
        c.tm = font_text_metrics(&atlas, c.z);
    }
    int failed = 0;
    if (index.skipped) {
        snprintf(err, sizeof err, "%d more lessons in %s were not checked (at most %d)",
                 index.skipped, o->check_dir, LESSON_INDEX_MAX);
        cli_report("attnlab: --check-lessons: ", err);
        failed += index.skipped;
    }
    /* the real model the Model view's goals read: --model, or GPT-2 from the cache if it
     * is there; without one, those goals are not judged (each lesson's note says so) */
    static Checkpoint ck;
    bool have_model = false;
    if (o->model) {
        if (!checkpoint_open(o->model, &ck, err, sizeof err)) {
            cli_report("attnlab: --check-lessons: --model: ", err);
            if (o->by_input) {
                font_unload(&atlas);
                TTF_Quit();
            }
            return 2;
        }
        have_model = true;
    }
    for (int k = 0; !have_model && k < 2; k++)
        have_model = checkpoint_open(k ? "distilgpt2" : "gpt2", &ck, err, sizeof err);
    c.real = have_model ? &ck.model : NULL;

    int skipped = 0;
    Check_Item *items = calloc((size_t)LESSON_INDEX_MAX * (size_t)lang_count(), sizeof *items);
    int n = items ? list_items(o, &index, items, &skipped) : 0;
    if (!items) {
        cli_report("attnlab: --check-lessons: ", "out of memory");
        failed++;
    }
    failed += skipped;
    if (o->jobs > 1) {
        failed += run_workers(&c, items, n, o->jobs);
    } else {
        for (int k = 0; k < n; k++) failed += !check_item(&c, &items[k]);
    }
    free(items);
    lang_use(c.start_lang, data_dir, err, sizeof err);
    if (o->by_input) {
        font_unload(&atlas);
        TTF_Quit();
    }
    if (have_model) checkpoint_close(&ck);
    printf("%d passed, %d failed\n", index.skipped + n + skipped - failed, failed);
    return failed ? 2 : 0;
}
