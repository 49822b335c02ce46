/* src/model/lesson.c: the broken-lesson catalogue, the parts of a parsed
 * lesson, and goals checked against a live model. */
#define _POSIX_C_SOURCE 200809L
#include "model/fileio.h"
#include "model/lesson.h"
#include "model/scene_file.h"
#include "test_util.h"

#include <string.h>

static Vocab vocab;
static Lesson lesson;

static void load_vocab(void) {
    test_load_vocab(&vocab);
}

static void free_vocab(void) {
    vocab_free(&vocab);
}

TestSuite(lesson, .init = load_vocab, .fini = free_vocab);

/* A broken lesson fails to parse, or parses and then fails the checker. */
static bool reject_lesson(const char *text, size_t len, const char *name, char *err, size_t errsz) {
    return lesson_parse(&lesson, text, len, name, err, errsz) &&
           lesson_check(&lesson, &vocab, test_env("ATTNLAB_DATA"), err, errsz);
}

Test(lesson, every_broken_lesson_gives_its_exact_error) {
    int checked = test_catalogue("lessons", LESSON_FILE_MAX, reject_lesson);
    cr_assert_geq(checked, 10, "the catalogue should hold at least 10 broken lessons");
}

static const char *const sample =
    "# Sample\n"
    "\n"
    "```attnlab\n"
    "scene default.json\n"
    "```\n"
    "\n"
    "Intro with $s_{ij} = \\frac{\\langle q_i, k_j \\rangle}{\\sqrt{d_k}}$ and **bold**.\n"
    "\n"
    "## One\n"
    "\n"
    "- a *list* item\n"
    "- `code`\n"
    "\n"
    "```attnlab\n"
    "dk 64          # a comment\n"
    "pos sin 0.5\n"
    "order 5 4 3 2 1 0\n"
    "select #2\n"
    "highlight A\n"
    "goal weight sat cat > 0.5 and scale on : make sat look at cat\n"
    "solution move cat -0.9 -1.07; dk 16\n"
    "```\n"
    "\n"
    "## Two\n"
    "\n"
    "Last words.\n";

static bool has_text(const Lesson *l, int step, const char *needle, int style) {
    const Lesson_Step *st = &l->steps[step];
    for (int k = st->span_first; k < st->span_first + st->span_count; k++) {
        const Lesson_Span *sp = &l->spans[k];
        char buf[512];
        snprintf(buf, sizeof buf, "%.*s", sp->len, l->text + sp->off);
        /* runs of one style are merged, so look inside them */
        if (sp->kind == SPAN_TEXT && strstr(buf, needle) && (sp->style & style) == style &&
            (style || sp->style == 0))
            return true;
    }
    return false;
}

Test(lesson, parses_title_steps_text_and_directives) {
    char err[512];
    cr_assert(lesson_parse(&lesson, sample, strlen(sample), "sample.md", err, sizeof err), "%s",
              err);
    cr_assert_str_eq(lesson.title, "Sample");
    cr_assert_eq(lesson.step_count, 2);
    cr_assert_str_eq(lesson.steps[0].title, "One");
    cr_assert_eq(lesson.setup_count, 1);
    cr_assert_eq(lesson.actions[lesson.setup_first].kind, ACT_SCENE);
    /* the introduction opens the first step; LaTeX became Unicode with sub/superscripts */
    cr_assert(has_text(&lesson, 0, "√", STYLE_MATH));
    cr_assert(has_text(&lesson, 0, "⟨", STYLE_MATH));
    cr_assert(has_text(&lesson, 0, "ij", STYLE_MATH | STYLE_SUB));
    cr_assert(has_text(&lesson, 0, "bold", STYLE_BOLD));
    cr_assert(has_text(&lesson, 0, "list", STYLE_EMPH));
    cr_assert(has_text(&lesson, 0, "code", STYLE_CODE));
    cr_assert(has_text(&lesson, 1, "Last words.", 0));
    const Lesson_Step *st = &lesson.steps[0];
    cr_assert_eq(st->act_count, 5);
    const Lesson_Action *a = &lesson.actions[st->act_first];
    cr_assert(a[0].kind == ACT_DK && a[0].i == 64);
    cr_assert(a[1].kind == ACT_POS && a[1].i == POS_SIN && a[1].x == 0.5f);
    cr_assert(a[2].kind == ACT_ORDER && a[2].n == 6 && a[2].order[0] == 5);
    cr_assert(a[3].kind == ACT_SELECT && !strcmp(a[3].text, "#2"));
    cr_assert(a[4].kind == ACT_HIGHLIGHT && !strcmp(a[4].text, "A"));
    cr_assert_eq(st->goal_count, 1);
    const Lesson_Goal *g = &st->goals[0];
    cr_assert_eq(g->line, 20);
    cr_assert_eq(g->cond_count, 2);
    cr_assert_str_eq(g->label, "make sat look at cat");
    cr_assert_eq(g->sol_count, 2);
    cr_assert_eq(lesson.actions[g->sol_first].kind, ACT_MOVE);
    cr_assert_eq(lesson.actions[g->sol_first + 1].kind, ACT_DK);
}

Test(lesson, goals_are_checked_against_the_live_model) {
    char err[512], path[1024];
    cr_assert(lesson_parse(&lesson, sample, strlen(sample), "sample.md", err, sizeof err), "%s",
              err);
    static Scene s;
    static Model m;
    snprintf(path, sizeof path, "%s/assets/scenes/default.json", test_env("ATTNLAB_DATA"));
    cr_assert(scene_load(&s, path, &vocab, err, sizeof err));
    cr_assert(model_init(&m, &s, &vocab));
    Lesson_Env env = {.m = &m, .data_dir = test_env("ATTNLAB_DATA")};
    const Lesson_Goal *g = &lesson.steps[0].goals[0];
    cr_assert_eq(lesson_goal_met(g, &env, err, sizeof err), 0);
    /* the step's set-up reverses the order: "order 5 4 3 2 1 0" lists original positions */
    cr_assert(lesson_apply(&lesson, lesson.steps[0].act_first, lesson.steps[0].act_count, &env, err,
                           sizeof err),
              "%s", err);
    cr_assert_str_eq(m.scene.tokens[0], "mat");
    cr_assert_eq(env.selected, 2);
    cr_assert_str_eq(env.highlight, "A");
    cr_assert_eq(m.scene.d_k, 64);
    cr_assert(lesson_apply(&lesson, g->sol_first, g->sol_count, &env, err, sizeof err), "%s", err);
    int n = m.scene.n, sat = lesson_find_token(&m.scene, "sat"),
        cat = lesson_find_token(&m.scene, "cat");
    double w = m.derived.attn.A[sat * n + cat];
    cr_assert_eq(lesson_goal_met(g, &env, err, sizeof err), w > 0.5 ? 1 : 0, "weight %g", w);
    model_free(&m);
}

Test(lesson, the_shipped_lessons_all_pass_the_checker) {
    static Lesson_Index index;
    char dir[1024], err[1024];
    snprintf(dir, sizeof dir, "%s/lessons", test_env("ATTNLAB_DATA"));
    cr_assert(lesson_index_scan(&index, dir, err, sizeof err), "%s", err);
    cr_assert_geq(index.count, 7, "at least seven lessons");
    for (int k = 0; k < index.count; k++) {
        cr_assert(lesson_load(&lesson, index.path[k], err, sizeof err), "%s", err);
        cr_assert(lesson_check(&lesson, &vocab, test_env("ATTNLAB_DATA"), err, sizeof err), "%s",
                  err);
    }
}
