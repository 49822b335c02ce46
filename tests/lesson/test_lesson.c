/* src/model/lesson.c: the broken-lesson catalogue, the parts of a parsed
 * lesson, and goals checked against a live model. */
#define _POSIX_C_SOURCE 200809L
#include "core/fileio.h"
#include "model/hide.h"
#include "lesson/lesson.h"
#include "lesson/lesson_check.h"
#include "lesson/lesson_directive.h"
#include "lesson/lesson_directives.h"
#include "model/labs.h"
#include "lesson/lesson_goals.h"
#include "model/scene_file.h"
#include "test_util.h"

#include <math.h>
#include <string.h>
#include <sys/stat.h>

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
           lesson_check(&lesson, &vocab, test_env("ATTNLAB_DATA"), NULL, err, errsz);
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

static bool has_math(const Lesson *l, int step, const char *tex, bool display) {
    const Lesson_Step *st = &l->steps[step];
    for (int k = st->span_first; k < st->span_first + st->span_count; k++) {
        const Lesson_Span *sp = &l->spans[k];
        if (sp->kind == SPAN_MATH && sp->len == (int)strlen(tex) &&
            !memcmp(l->text + sp->off, tex, strlen(tex)))
            return ((sp->style & STYLE_DISPLAY) != 0) == display;
    }
    return false;
}

Test(lesson, a_formula_alone_in_its_paragraph_is_display_math) {
    static const char text[] = "# T\n\n## S\n\nInline $a_i$ here.\n\n$b = \\frac{1}{2}$\n\n"
                               "  $c$  \n\nand $$d$$ too\n\n$e$ $f$\n";
    char err[512];
    cr_assert(lesson_parse(&lesson, text, strlen(text), "t.md", err, sizeof err), "%s", err);
    cr_assert(has_math(&lesson, 0, "a_i", false));
    cr_assert(has_math(&lesson, 0, "b = \\frac{1}{2}", true));
    cr_assert(has_math(&lesson, 0, "c", true), "spaces around it do not count");
    cr_assert(has_math(&lesson, 0, "d", true), "$$…$$ is display math");
    cr_assert(has_math(&lesson, 0, "e", false), "two formulas in one paragraph are inline");
    cr_assert(has_math(&lesson, 0, "f", false));
}

Test(lesson, an_unknown_tex_command_is_named_with_its_line_but_the_lesson_opens) {
    static const char text[] = "# T\n\n## S\n\nFine $x$.\n\nThen $a + \\frobnicate{b}$ and "
                               "$\\other$.\n";
    char err[512];
    cr_assert(lesson_parse(&lesson, text, strlen(text), "t.md", err, sizeof err), "%s", err);
    cr_assert_str_eq(lesson.tex_problem, "t.md:7: unknown TeX command \\frobnicate");
}

Test(lesson, a_formula_tex_cannot_set_is_an_error_at_its_line) {
    static const char *const bad[] = {
        "# T\n\n## S\n\nok\n\n$\\frac{a}{b$\n",
        "# T\n\n## S\n\nok\n\n$x^a^b$\n",
        "# T\n\n## S\n\nok\n\n$\\left( x$\n",
    };
    static const char *const says[] = {"t.md:7: a { is never closed", "t.md:7: double superscript",
                                       "t.md:7: \\left has no \\right"};
    for (int k = 0; k < 3; k++) {
        char err[512];
        cr_assert_not(lesson_parse(&lesson, bad[k], strlen(bad[k]), "t.md", err, sizeof err));
        cr_assert(!strncmp(err, says[k], strlen(says[k])), "'%s' does not start with '%s'", err,
                  says[k]);
    }
}

Test(lesson, a_formula_longer_than_the_limit_is_an_error_not_cut) {
    size_t n = LESSON_MATH_BYTES + 100, len = 0;
    char *t = malloc(n + 64);
    len += (size_t)sprintf(t, "# T\n\n## S\n\n$");
    memset(t + len, 'x', LESSON_MATH_BYTES + 1);
    len += LESSON_MATH_BYTES + 1;
    len += (size_t)sprintf(t + len, "$\n");
    char err[512];
    cr_assert_not(lesson_parse(&lesson, t, len, "t.md", err, sizeof err));
    cr_assert_str_eq(err, "t.md:5: formula longer than 4096 bytes");
    free(t);
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
    /* the introduction opens the first step; its formula is kept whole, as TeX, inline */
    cr_assert(
        has_math(&lesson, 0, "s_{ij} = \\frac{\\langle q_i, k_j \\rangle}{\\sqrt{d_k}}", false));
    cr_assert_str_empty(lesson.tex_problem);
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
    cr_assert_eq(lesson_goal_met(g, env.m, env.view, env.selected, err, sizeof err), 0);
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
    double w = m.derived.pass.head[0].A[sat * n + cat];
    cr_assert_eq(lesson_goal_met(g, env.m, env.view, env.selected, err, sizeof err),
                 w > 0.5 ? 1 : 0, "weight %g", w);
    model_free(&m);
}

/* ---- hostile lessons at the real size limit ------------------------------------- */

/* A lesson "# T / ## S / <body>" of about `bytes`, built in a heap buffer. */
static char *big_lesson(const char *head, const char *unit, size_t units, const char *tail,
                        size_t *len) {
    size_t hl = strlen(head), ul = strlen(unit), tl = strlen(tail);
    char *t = malloc(hl + ul * units + tl + 1);
    cr_assert(t);
    memcpy(t, head, hl);
    for (size_t k = 0; k < units; k++) memcpy(t + hl + k * ul, unit, ul);
    memcpy(t + hl + ul * units, tail, tl + 1);
    *len = hl + ul * units + tl;
    cr_assert_leq(*len, LESSON_FILE_MAX, "the case must be within the file limit");
    return t;
}

static void expect_parse_error(char *text, size_t len, const char *want) {
    char err[600];
    bool ok = lesson_parse(&lesson, text, len, "big.md", err, sizeof err);
    free(text);
    cr_assert_not(ok, "accepted; wanted %s", want);
    cr_assert_str_eq(err, want);
}

/* A lesson whose one formula is "x^{" count times, then as many "}". */
static char *nested_superscripts(int count, size_t *len) {
    size_t half;
    char *open = big_lesson("# T\n\n## S\n\n$", "x^{", count, "", &half);
    char *t = malloc(half + (size_t)count + 3);
    cr_assert(t);
    memcpy(t, open, half);
    free(open);
    memset(t + half, '}', (size_t)count);
    memcpy(t + half + count, "$\n", 3);
    *len = half + (size_t)count + 2;
    cr_assert_leq(*len, LESSON_FILE_MAX);
    return t;
}

Test(lesson, sixty_thousand_nested_superscripts_are_an_error_not_a_crash) {
    /* 240 KB of "x^{" then as many "}": this overflowed the stack before the
     * depth limit; a formula that long is now refused before it is parsed */
    size_t len;
    char *t = nested_superscripts(60000, &len);
    expect_parse_error(t, len, "big.md:5: formula longer than 4096 bytes");
}

Test(lesson, forty_nested_superscripts_fit_the_length_but_not_the_depth) {
    size_t len;
    char *t = nested_superscripts(40, &len);
    expect_parse_error(t, len, "big.md:5: formula nested deeper than 32 levels");
}

Test(lesson, twenty_thousand_nested_fractions_are_an_error_not_a_crash) {
    size_t len;
    char *t = big_lesson("# T\n\n## S\n\n$", "\\frac{", 20000, "1$\n", &len);
    expect_parse_error(t, len, "big.md:5: formula longer than 4096 bytes");
    t = big_lesson("# T\n\n## S\n\n$", "\\frac{", 40, "1$\n", &len);
    expect_parse_error(t, len, "big.md:5: formula nested deeper than 32 levels");
}

/* 100,000 comment lines in a directive block (400 KB): line numbering was
 * quadratic (21 s). The timeout is a hang guard, not a measurement. */
Test(lesson, a_hundred_thousand_lines_parse_without_stalling, .timeout = 20) {
    size_t len;
    char *t = big_lesson("# T\n\n## S\n\n```attnlab\n", "# c\n", 100000, "dk 9x\n```\n", &len);
    expect_parse_error(t, len, "big.md:100006: dk: '9x' is not a whole number from 1 to 1024");
}

Test(lesson, a_long_text_line_is_kept_and_a_long_directive_is_refused) {
    size_t len;
    /* a 75 KB line of text (the text limit is LESSON_TEXT_BYTES) is kept whole */
    char *t = big_lesson("# T\n\n## S\n\n", "word ", 15000, "\n", &len);
    char err[600];
    cr_assert(lesson_parse(&lesson, t, len, "big.md", err, sizeof err), "%s", err);
    free(t);
    cr_assert_geq(lesson.text_len, 15000 * 5 - 1, "the paragraph was cut");
    /* a solution far past the old 511-byte cut keeps every action */
    char sol[1024] = "# T\n\n## S\n\n```attnlab\ngoal dk > 500\nsolution";
    for (int k = 0; k < 60; k++) strcat(sol, " dk 9;");
    strcat(sol, " dk 512\n```\n");
    cr_assert(lesson_parse(&lesson, sol, strlen(sol), "sol.md", err, sizeof err), "%s", err);
    const Lesson_Goal *g = &lesson.steps[0].goals[0];
    cr_assert_eq(g->sol_count, 61, "solution actions: %d", g->sol_count);
    cr_assert_eq(lesson.actions[g->sol_first + 60].i, 512);
}

Test(lesson, seeds_are_exact_integers_over_the_full_range) {
    static const struct {
        const char *word;
        uint32_t want;
    } cases[] = {{"0", 0}, {"16777217", 16777217u}, {"4294967295", 4294967295u}};
    char err[512], path[1024];
    static Scene s;
    static Model m;
    snprintf(path, sizeof path, "%s/assets/scenes/default.json", test_env("ATTNLAB_DATA"));
    cr_assert(scene_load(&s, path, &vocab, err, sizeof err));
    cr_assert(model_init(&m, &s, &vocab));
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char text[200];
        snprintf(text, sizeof text, "# T\n\n```attnlab\nseed %s\n```\n\n## S\n\nx\n",
                 cases[k].word);
        cr_assert(lesson_parse(&lesson, text, strlen(text), "seed.md", err, sizeof err), "%s", err);
        Lesson_Env env = {.m = &m, .data_dir = test_env("ATTNLAB_DATA")};
        cr_assert(
            lesson_apply(&lesson, lesson.setup_first, lesson.setup_count, &env, err, sizeof err),
            "%s", err);
        cr_assert_eq(m.scene.seed, cases[k].want, "seed %s became %u", cases[k].word,
                     (unsigned)m.scene.seed);
    }
    model_free(&m);
}

Test(lesson, a_byte_order_mark_is_accepted_and_lines_still_count_from_the_top) {
    const char text[] = "\xEF\xBB\xBF# Title\n\n## Step\n\n```attnlab\ndk 0\n```\n";
    char err[300];
    cr_assert_not(lesson_parse(&lesson, text, sizeof text - 1, "bom.md", err, sizeof err));
    cr_assert_str_eq(err, "bom.md:6: dk: '0' is not a whole number from 1 to 1024");
    const char good[] = "\xEF\xBB\xBF# Title\n\n## Step\n\ntext\n";
    cr_assert(lesson_parse(&lesson, good, sizeof good - 1, "bom.md", err, sizeof err), "%s", err);
    cr_assert_str_eq(lesson.title, "Title");
}

/* ---- the keyword table and lessons/README.md ------------------------------------- */

/* The first words of the backticked forms in column 1 of the README table
 * under `heading`: "`dk N`, `dv N`" names dk and dv; "`scale on` /
 * `scale off`" names scale once (" / " separates forms of one keyword). */
static int readme_keywords(const char *heading, char names[][32], int max) {
    char path[1024], err[256], *text;
    size_t len;
    snprintf(path, sizeof path, "%s/lessons/README.md", test_env("ATTNLAB_DATA"));
    cr_assert(file_read_all(path, 1 << 20, &text, &len, err, sizeof err), "%s", err);
    const char *at = strstr(text, heading);
    cr_assert(at, "no '%s' in lessons/README.md", heading);
    at = strstr(at, "\n|---");
    cr_assert(at);
    at = strchr(at + 1, '\n') + 1;
    int count = 0;
    while (*at == '|') {
        const char *end = strchr(at, '\n');
        const char *cell_end = strstr(at + 1, " | ");
        cr_assert(cell_end && cell_end < end);
        /* column 1, split at ", " into keywords */
        const char *piece = at + 1;
        while (piece < cell_end) {
            const char *tick = memchr(piece, '`', (size_t)(cell_end - piece));
            if (!tick) break;
            size_t n = strcspn(tick + 1, " `");
            cr_assert_lt(count, max);
            snprintf(names[count++], 32, "%.*s", (int)n, tick + 1);
            const char *comma = strstr(tick, "`, `");
            if (!comma || comma > cell_end) break;
            piece = comma + 3;
        }
        at = end + 1;
    }
    free(text);
    return count;
}

static void same_keywords(Lesson_Keyword_Table table, const char *heading) {
    char doc[64][32];
    int nd = readme_keywords(heading, doc, 64), nt;
    const Lesson_Keyword *kw = lesson_keywords(table, &nt);
    for (int k = 0; k < nt; k++) {
        bool found = false;
        for (int j = 0; j < nd; j++) found |= !strcmp(doc[j], kw[k].name);
        cr_assert(found, "'%s' (%s) is not documented under '%s' in lessons/README.md", kw[k].name,
                  kw[k].usage, heading);
    }
    for (int j = 0; j < nd; j++) {
        bool found = false;
        for (int k = 0; k < nt; k++) found |= !strcmp(doc[j], kw[k].name);
        cr_assert(found, "lessons/README.md documents '%s' under '%s', which the parser lacks",
                  doc[j], heading);
    }
    cr_assert_eq(nd, nt, "each keyword once: README lists %d, the table %d", nd, nt);
}

Test(lesson, the_keyword_tables_match_lessons_readme) {
    same_keywords(LESSON_KEYWORDS_ACTIONS, "## Directives");
    same_keywords(LESSON_KEYWORDS_CONDITIONS, "### Conditions");
}

Test(lesson, every_keyword_of_the_table_parses_and_nothing_else_does) {
    int n;
    const Lesson_Keyword *kw = lesson_keywords(LESSON_KEYWORDS_ACTIONS, &n);
    char err[400];
    for (int k = 0; k < n; k++) {
        if (kw[k].kind < 0) continue;
        /* a bare keyword is either complete (reverse) or names its usage */
        char text[300];
        snprintf(text, sizeof text, "# T\n\n## S\n\n```attnlab\n%s\n```\n", kw[k].name);
        if (!lesson_parse(&lesson, text, strlen(text), "kw.md", err, sizeof err))
            cr_assert(strstr(err, kw[k].name), "%s: %s", kw[k].name, err);
    }
    const char text[] = "# T\n\n## S\n\n```attnlab\nfrobnicate 3\n```\n";
    cr_assert_not(lesson_parse(&lesson, text, sizeof text - 1, "kw.md", err, sizeof err));
    cr_assert_str_eq(err, "kw.md:6: unknown directive 'frobnicate'");
}

/* Lesson 5 step 5 says: unscaled, as d_k grows, the mean largest weight
 * climbs towards 1 and the entropy falls towards 0, while the scaled curves
 * stay put. The scaling lab's curves (a mean over LAB_CURVE_SEEDS seeds) must
 * show exactly that for the lesson's scene. */
Test(lesson, lesson_5s_claim_about_the_curves_holds_for_its_scene) {
    char err[1024], path[1024];
    snprintf(path, sizeof path, "%s/lessons/05-why-scale.md", test_env("ATTNLAB_DATA"));
    cr_assert(lesson_load(&lesson, path, err, sizeof err), "%s", err);
    static Scene s;
    static Model m;
    static Labs lab;
    snprintf(path, sizeof path, "%s/assets/scenes/default.json", test_env("ATTNLAB_DATA"));
    cr_assert(scene_load(&s, path, &vocab, err, sizeof err), "%s", err);
    cr_assert(model_init(&m, &s, &vocab));
    Lesson_Env env = {.m = &m, .data_dir = test_env("ATTNLAB_DATA")};
    cr_assert(lesson_apply(&lesson, lesson.setup_first, lesson.setup_count, &env, err, sizeof err),
              "%s", err);
    for (int i = 0; i < m.scene.n; i++)
        for (int j = 0; j < i; j++)
            cr_assert(strcmp(m.scene.tokens[i], m.scene.tokens[j]),
                      "no word twice: tied duplicates cap a row's largest weight at 1/2");
    cr_assert(labs_curves(&lab, &m.scene));
    const Lab_Curves *c = &lab.curves;
    int last = c->count - 1, at16 = 0;
    while (c->dks[at16] != 16) at16++;
    cr_assert_eq(c->dks[last], 1024);
    /* "climbs towards 1" / "falls towards 0": within a tenth at d_k = 1024 */
    cr_assert_geq(c->max_raw[last], 0.9, "unscaled mean max at 1024: %g", c->max_raw[last]);
    cr_assert_geq(c->max_raw[last] - c->max_raw[at16], 0.2, "and it climbed from d_k = 16");
    cr_assert_leq(c->ent_raw[last], 0.1 * log(m.scene.n), "entropy at 1024: %g", c->ent_raw[last]);
    /* "the scaled curves stay put": within 0.1 of their value at d_k = 1 everywhere */
    for (int k = 0; k <= last; k++) {
        cr_assert(fabs(c->max_scaled[k] - c->max_scaled[0]) <= 0.1, "scaled max at %d moved",
                  c->dks[k]);
        cr_assert(c->lo[1][k] <= c->max_scaled[k] && c->max_scaled[k] <= c->hi[1][k],
                  "the band holds the mean");
    }
    labs_free(&lab);
    model_free(&m);
}

/* ---- predict, then reveal ---------------------------------------------------- */

/* What can be hidden: every panel and control by its name, parsed from
 * commas or spaces, each once; an unknown name is refused, naming it. */
Test(lesson, hide_lists_name_panels_and_controls) {
    char list[320], err[900];
    cr_assert(hide_list_parse("S, dk  mask,S", list, sizeof list, err, sizeof err), "%s", err);
    cr_assert_str_eq(list, " S dk mask");
    cr_assert(hide_list_has(list, "dk") && hide_list_has(list, "S"));
    cr_assert_not(hide_list_has(list, "d"), "d is not dk");
    cr_assert_not(hide_list_has(list, "A"));
    cr_assert_not(hide_list_parse("S,Scores", list, sizeof list, err, sizeof err));
    cr_assert(!strncmp(err, "'Scores' is not a panel or control (they are: plane,", 52), "%s", err);
    char tiny[8];
    cr_assert_not(hide_list_parse("plane controls", tiny, sizeof tiny, err, sizeof err));
    cr_assert(strstr(err, "more names than fit"), "%s", err);
    /* a lesson step hides any of them */
    static const char text[] = "# T\n\n## S\n\n```attnlab\nhide dk mask plane\n```\n";
    cr_assert(lesson_parse(&lesson, text, strlen(text), "h.md", err, sizeof err), "%s", err);
}

Test(lesson, a_prediction_is_parsed_and_its_mistakes_are_one_line) {
    static const char good[] =
        "# T\n\n## S\n\n```attnlab\n"
        "predict yes if perm-diff <= 1e-5 and pos sin after reverse; pos sin 1 : will it hold? "
        "| because\n```\n\n## U\n\n```attnlab\npredict key #2 : which key? | that one\n```\n";
    char err[512];
    cr_assert(lesson_parse(&lesson, good, strlen(good), "p.md", err, sizeof err), "%s", err);
    const Lesson_Predict *a = &lesson.steps[0].predict, *b = &lesson.steps[1].predict;
    cr_assert_eq(a->kind, PREDICT_YES);
    cr_assert_eq(a->cond.cond_count, 2);
    cr_assert_eq(a->after_count, 2);
    cr_assert_eq(lesson.actions[a->after_first].kind, ACT_REVERSE);
    cr_assert_eq(lesson.actions[a->after_first + 1].kind, ACT_POS);
    cr_assert_str_eq(a->question, "will it hold?");
    cr_assert_str_eq(a->why, "because");
    cr_assert_eq(b->kind, PREDICT_KEY);
    cr_assert_str_eq(b->token, "#2");
    cr_assert_eq(b->after_count, 0);
    static const struct {
        const char *directive, *says;
    } bad[] = {
        {"predict key sat : which? no reason", "p.md:8: predict: write it as"},
        {"predict key sat : which? | why\npredict key cat : again? | why",
         "p.md:9: one prediction per step"},
        {"predict maybe sat : which? | why", "p.md:8: predict: 'key TOKEN' or 'yes if"},
        {"predict key sat cat : which? | why", "p.md:8: predict key: name one token"},
        {"predict yes if banana > 1 : which? | why", "p.md:8:"},
        {"predict key sat after highlight A : which? | why",
         "p.md:8: predict … after: 'highlight' is not something a student does"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        char text[600];
        snprintf(text, sizeof text, "# T\n\n## S\n\nSome text.\n\n```attnlab\n%s\n```\n",
                 bad[k].directive);
        cr_assert_not(lesson_parse(&lesson, text, strlen(text), "p.md", err, sizeof err),
                      "accepted: %s", bad[k].directive);
        cr_assert(!strncmp(err, bad[k].says, strlen(bad[k].says)), "'%s' does not start with '%s'",
                  err, bad[k].says);
    }
}

/* The layers lab's directives and goals: `train induction` with its counts
 * and scheme, `zero` and `explore` a head, the goals on the lab, and a
 * prediction judged later, once the step's goals are met; each mistake is
 * one line naming the file and line. */
Test(lesson, the_layers_directives_parse_and_their_mistakes_are_one_line) {
    static const char good[] =
        "# T\n\n## S\n\n```attnlab\ntrain induction layers 3 heads 2 rope\n"
        "predict later yes if prefix > 0.5 : will it form? | because\n"
        "goal prefix > 0.5 and ic-loss < 1 and zeroed >= 1 : most of it\nsolution steps 100 ; "
        "zero 1 0 ; explore 2 1\ngoal layers = 3 and layers-pos rope and learned : the rest\n"
        "solution zero 1 0\n```\n";
    char err[512];
    cr_assert(lesson_parse(&lesson, good, strlen(good), "p.md", err, sizeof err), "%s", err);
    const Lesson_Step *st = &lesson.steps[0];
    const Lesson_Action *train = &lesson.actions[st->act_first];
    cr_assert_eq(train->kind, ACT_TRAIN);
    cr_assert_eq(train->i, 2, "induction");
    cr_assert_eq(train->n, 3, "layers");
    cr_assert_eq((int)train->y, 2, "heads");
    cr_assert_eq((int)train->x, TRAIN_POS_ROPE);
    cr_assert(st->predict.later);
    cr_assert_eq(st->predict.kind, PREDICT_YES);
    const Lesson_Goal *g = &st->goals[0];
    cr_assert_eq(g->cond_count, 3);
    cr_assert_eq(st->goals[1].cond_count, 3);
    static const Cond_Kind kinds[6] = {COND_PREFIX, COND_IC_LOSS,    COND_ZEROED,
                                       COND_LAYERS, COND_LAYERS_POS, COND_LEARNED};
    for (int k = 0; k < 6; k++)
        cr_assert_eq(st->goals[k / 3].conds[k % 3].kind, kinds[k], "condition %d", k);
    cr_assert_eq(g->sol_count, 3);
    const Lesson_Action *zero = &lesson.actions[g->sol_first + 1], *ex = zero + 1;
    cr_assert(zero->kind == ACT_ZERO && zero->i == 1 && zero->n == 0);
    cr_assert(ex->kind == ACT_EXPLORE && ex->i == 2 && ex->n == 1);
    static const struct {
        const char *directive, *says;
    } bad[] = {
        /* the value and its range: it said "not 'layers'" */
        {"train induction layers 5", "p.md:8: train: layers takes a whole number from 1 to 4, "
                                     "not '5'"},
        {"train induction layers 1000", "p.md:8: train: layers takes a whole number from 1 to "
                                        "4, not '1000'"},
        {"train induction heads 0", "p.md:8: train: heads takes a whole number from 1 to 4, "
                                    "not '0'"},
        {"train induction heads", "p.md:8: train: heads takes a whole number from 1 to 4, not "
                                  "''"},
        {"train induction alibi", "p.md:8: train: expected"},
        {"zero 4 0", "p.md:8: zero: expected 'zero LAYER HEAD' (layer 0–3, head 0–3)"},
        {"explore 1", "p.md:8: explore: expected 'explore LAYER HEAD'"},
        {"goal layers-pos alibi : x", "p.md:8: goal: expected 'layers-pos none|sin|learned|rope'"},
        {"goal learned now : x", "p.md:8: goal: 'learned' takes nothing after it"},
        {"predict later key sat : which? | why", "p.md:8: predict later: write it as"},
        {"predict later yes if prefix > 0.5 after zero 0 0 : which? | why",
         "p.md:8: predict later: write it as"},
        {"goal trained > 1 : x\npredict later yes if prefix > 0.5 : which? | why",
         "p.md:9: predict later: put it before the step's goals"},
        {"predict yes if prefix > 0.5 after steps 100 : which? | why",
         "p.md:8: predict … after: 'steps' cannot be judged at once"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        char text[600];
        snprintf(text, sizeof text, "# T\n\n## S\n\nSome text.\n\n```attnlab\n%s\n```\n",
                 bad[k].directive);
        cr_assert_not(lesson_parse(&lesson, text, strlen(text), "p.md", err, sizeof err),
                      "accepted: %s", bad[k].directive);
        cr_assert(!strncmp(err, bad[k].says, strlen(bad[k].says)), "'%s' does not start with '%s'",
                  err, bad[k].says);
    }
}

/* The Model view's directives and conditions: what they parse to, and one line
 * for each way of getting them wrong. */
Test(lesson, the_model_views_directives_parse_and_refuse_bad_words) {
    static Lesson lesson;
    char err[600];
    const char *good = "# T\n\n## S\n\nText.\n\n```attnlab\nview model\nmodel-text A b; c\n"
                       "model-head 11 7\nmodel-head none\n"
                       "goal head-prev > 0.5 and weighted-first < 0.4 : x\n"
                       "solution model-head prev\n"
                       "goal head-prefix >= 0.4 and model-change > 0.01 and head-first <= 1 : y\n"
                       "solution model-order shuffle; model-head induction\n```\n";
    cr_assert(lesson_parse(&lesson, good, strlen(good), "p.md", err, sizeof err), "%s", err);
    const Lesson_Action *a = &lesson.actions[lesson.steps[0].act_first];
    cr_assert(a[1].kind == ACT_MODEL_TEXT && !strcmp(a[1].text, "A b; c"), "a set-up line keeps ;");
    cr_assert(a[2].kind == ACT_MODEL_HEAD && a[2].setting == 0 && a[2].i == 11 && a[2].n == 7);
    cr_assert(a[3].kind == ACT_MODEL_HEAD && a[3].setting == -1);
    const Lesson_Step *st = &lesson.steps[0];
    cr_assert(st->goals[0].conds[0].kind == COND_HEAD_PREV &&
              st->goals[0].conds[1].kind == COND_WEIGHTED_FIRST);
    cr_assert(st->goals[1].conds[0].kind == COND_HEAD_PREFIX &&
              st->goals[1].conds[1].kind == COND_MODEL_CHANGE &&
              st->goals[1].conds[2].kind == COND_HEAD_FIRST);
    cr_assert(lesson_goal_needs_model(&st->goals[0]) && lesson_goal_needs_model(&st->goals[1]));
    const Lesson_Action *sol = &lesson.actions[st->goals[0].sol_first];
    cr_assert(sol->kind == ACT_MODEL_HEAD && sol->setting == 1 + REAL_HEAD_PREV);
    sol = &lesson.actions[st->goals[1].sol_first];
    cr_assert(sol[0].kind == ACT_MODEL_ORDER && sol[0].i == 1);
    cr_assert(sol[1].kind == ACT_MODEL_HEAD && sol[1].setting == 1 + REAL_HEAD_PREFIX);
    static const struct {
        const char *directive, *says;
    } bad[] = {
        {"model-head 1", "p.md:8: model-head: expected 'model-head LAYER HEAD|prev|first|"},
        {"model-head sideways", "p.md:8: model-head: expected"},
        {"model-head -1 0", "p.md:8: model-head: expected"},
        {"model-order sideways", "p.md:8: model-order: expected 'model-order reverse|shuffle|"},
        {"model-text", "p.md:8: model-text: expected 'model-text TEXT'"},
        {"goal head-prev 0.5 : x", "p.md:8: goal: expected 'head-prev > NUMBER'"},
        {"goal model-change > lots : x", "p.md:8: goal: 'lots' is not a number"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        char text[600];
        snprintf(text, sizeof text, "# T\n\n## S\n\nSome text.\n\n```attnlab\n%s\n```\n",
                 bad[k].directive);
        cr_assert_not(lesson_parse(&lesson, text, strlen(text), "p.md", err, sizeof err),
                      "accepted: %s", bad[k].directive);
        cr_assert(!strncmp(err, bad[k].says, strlen(bad[k].says)), "'%s' does not start with '%s'",
                  err, bad[k].says);
    }
}

/* A key is judged by its position: the checker refuses a question whose top
 * key is a tie between two positions, copies of one word too (the default
 * sentence's two "the" have one embedding, so every query ties them), and
 * names both; with the mask, only the copy the query can see is right. */
Test(lesson, a_which_key_prediction_must_have_one_right_position) {
    static const char tied[] = "# T\n\n```attnlab\nscene default.json\n```\n\n## S\n\nText.\n\n"
                               "```attnlab\npredict key sat : which key? | why\n```\n";
    char err[600];
    cr_assert(lesson_parse(&lesson, tied, strlen(tied), "tie.md", err, sizeof err), "%s", err);
    cr_assert_not(lesson_check(&lesson, &vocab, test_env("ATTNLAB_DATA"), NULL, err, sizeof err));
    cr_assert_str_eq(err,
                     "tie.md:12: predict: the top key of 'sat' is a tie between the first “the” "
                     "(key 1) and the second “the” (key 5)");
    static const char masked[] =
        "# T\n\n```attnlab\nscene default.json\nmask causal\n```\n\n## S\n\nText.\n\n"
        "```attnlab\npredict key sat : which key? | why\n```\n";
    cr_assert(lesson_parse(&lesson, masked, strlen(masked), "mask.md", err, sizeof err), "%s", err);
    cr_assert(lesson_check(&lesson, &vocab, test_env("ATTNLAB_DATA"), NULL, err, sizeof err), "%s",
              err);
    static Scene s;
    static Model m;
    char path[1024], answer[96];
    snprintf(path, sizeof path, "%s/assets/scenes/default.json", test_env("ATTNLAB_DATA"));
    cr_assert(scene_load(&s, path, &vocab, err, sizeof err));
    cr_assert(model_init(&m, &s, &vocab));
    Lesson_Env env = {.m = &m, .data_dir = test_env("ATTNLAB_DATA")};
    cr_assert(lesson_apply(&lesson, lesson.setup_first, lesson.setup_count, &env, err, sizeof err));
    cr_assert(model_update(&m));
    int t = lesson_predict_truth(&lesson, &lesson.steps[0].predict, &m, 0, 0,
                                 test_env("ATTNLAB_DATA"), answer, sizeof answer, err, sizeof err);
    /* sat (query 3) sees keys 1 to 3; of the two "the", only the first */
    const float *a = m.derived.pass.head[0].A;
    int best = 0;
    for (int j = 1; j < 3; j++)
        if (a[2 * 6 + j] > a[2 * 6 + best]) best = j;
    cr_assert_eq(t, best, "the answer is the position sat weighs most");
    cr_assert_eq(a[2 * 6 + 4], 0.0f, "the second “the” is masked for sat");
    cr_assert_neq(t, 4);
    if (t == 0) cr_assert_str_eq(answer, "the first “the”");
    model_free(&m);
}

/* Every shipped prediction, judged in the state its step opens with (as the
 * checker plays the lessons): the answers the lessons' explanations state. */
Test(lesson, the_shipped_predictions_have_the_answers_their_explanations_give) {
    /* numbers: the lesson stage plays these states under the sanitizers */
    if (getenv("ATTNLAB_SANITIZED")) cr_skip("the answers are judged in the normal pass");
    static const struct {
        const char *file;
        int step;
        const char *answer;
    } want[] = {
        {"03-scores-softmax-outputs.md", 0, "“the”"},
        {"05-why-scale.md", 4, "yes"},
        {"06-permutation-equivariance.md", 0, "yes"},
        {"07-position.md", 1, "no"},
        {"09-causal-mask.md", 1, "the first “the”"}, /* the second is masked */
        {"09-causal-mask.md", 3, "no"},
        {"12-position-in-the-rule.md", 0, "yes"}, /* the sinusoid moves with the sentence */
        {"12-position-in-the-rule.md", 1, "no"},  /* RoPE does not */
        /* judged later, once the step's training is done */
        {"13-heads-that-work-together.md", 0, "no"}, /* one layer: no induction head */
        {"13-heads-that-work-together.md", 4, "no"}, /* no positions: none either */
    };
    int predictions = 0;
    for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
        char path[1024], err[600], answer[96];
        snprintf(path, sizeof path, "%s/lessons/%s", test_env("ATTNLAB_DATA"), want[k].file);
        cr_assert(lesson_load(&lesson, path, err, sizeof err), "%s", err);
        static Scene s;
        static Model m;
        snprintf(path, sizeof path, "%s/assets/scenes/default.json", test_env("ATTNLAB_DATA"));
        cr_assert(scene_load(&s, path, &vocab, err, sizeof err));
        cr_assert(model_init(&m, &s, &vocab));
        Lesson_Env env = {.m = &m,
                          .data_dir = test_env("ATTNLAB_DATA"),
                          .train_now = true,
                          .train_budget = LESSON_CHECK_TRAIN_BUDGET};
        cr_assert(
            lesson_apply(&lesson, lesson.setup_first, lesson.setup_count, &env, err, sizeof err),
            "%s", err);
        for (int st = 0; st <= want[k].step; st++) {
            const Lesson_Step *step = &lesson.steps[st];
            cr_assert(
                lesson_apply(&lesson, step->act_first, step->act_count, &env, err, sizeof err),
                "%s", err);
            if (st == want[k].step) break;
            for (int g = 0; g < step->goal_count; g++)
                cr_assert(lesson_apply(&lesson, step->goals[g].sol_first, step->goals[g].sol_count,
                                       &env, err, sizeof err),
                          "%s", err);
        }
        const Lesson_Predict *pr = &lesson.steps[want[k].step].predict;
        cr_assert_neq(pr->kind, PREDICT_NONE, "%s step %d has no prediction", want[k].file,
                      want[k].step + 1);
        cr_assert(model_update(&m));
        Scene before = m.scene;
        int t;
        if (pr->later) { /* after the step's own goals, as the window judges it */
            const Lesson_Step *step = &lesson.steps[want[k].step];
            for (int g = 0; g < step->goal_count; g++)
                cr_assert(lesson_apply(&lesson, step->goals[g].sol_first, step->goals[g].sol_count,
                                       &env, err, sizeof err),
                          "%s", err);
            cr_assert(model_update(&m));
            cr_assert_eq(env.capped_line, 0, "the training was not cut short");
            before = m.scene;
            t = lesson_predict_later(pr, &m, env.view, env.selected, answer, sizeof answer, err,
                                     sizeof err);
        } else {
            t = lesson_predict_truth(&lesson, pr, &m, env.view, env.selected,
                                     test_env("ATTNLAB_DATA"), answer, sizeof answer, err,
                                     sizeof err);
        }
        cr_assert_geq(t, 0, "%s: %s", want[k].file, err);
        cr_assert_str_eq(answer, want[k].answer, "%s step %d", want[k].file, want[k].step + 1);
        cr_assert(scene_equal(&m.scene, &before), "judging plays the 'after' actions on a copy");
        model_free(&m);
        predictions++;
    }
    /* and the table is every prediction in the folder (the issue asks for at least 6) but
     * those about a real model, which test_real_model.c judges on a checkpoint it builds */
    cr_assert_eq(predictions, (int)(sizeof want / sizeof *want));
    const Test_Lessons *ix = test_shipped_lessons();
    int found = 0;
    for (int f = 0; f < ix->count; f++) {
        char err[600];
        cr_assert(lesson_load(&lesson, ix->path[f], err, sizeof err), "%s", err);
        for (int st = 0; st < lesson.step_count; st++) {
            const Lesson_Predict *pr = &lesson.steps[st].predict;
            found += pr->kind != 0 && !lesson_goal_needs_model(&pr->cond);
        }
    }
    cr_assert_eq(found, predictions, "the lessons hold %d predictions, the table %d", found,
                 predictions);
}

/* A translation keeps its original's shape: the same steps, directives, goal
 * conditions, solutions and prediction answers; prose and labels may differ,
 * and a difference is named by its step and line. */
Test(lesson, a_translation_must_keep_its_originals_steps_and_directives) {
    static Lesson original, translation;
    char err[600];
    const char *en = "# T\n\n## One\n\n```attnlab\nhighlight plane\n```\n\nText.\n\n"
                     "```attnlab\ngoal d >= 4 : widen d\nsolution d 4\n```\n\n"
                     "## Two\n\n```attnlab\nview scaling\n```\n\nMore.\n";
    cr_assert(lesson_parse(&original, en, strlen(en), "en.md", err, sizeof err), "%s", err);
    const char *good = "# T (de)\n\n## Eins\n\n```attnlab\nhighlight plane\n```\n\nText, "
                       "übersetzt.\n\n```attnlab\ngoal d >= 4 : d verbreitern\nsolution d 4\n```"
                       "\n\n## Zwei\n\n```attnlab\nview scaling\n```\n\nMehr.\n";
    cr_assert(lesson_parse(&translation, good, strlen(good), "de.md", err, sizeof err), "%s", err);
    cr_assert(lesson_same_shape(&original, &translation, err, sizeof err), "%s", err);
    static const struct {
        const char *text, *says;
    } bad[] = {
        {"# T\n\n## Eins\n\n```attnlab\nhighlight S\n```\n\n```attnlab\ngoal d >= 4 : x\n"
         "solution d 4\n```\n\n## Zwei\n\n```attnlab\nview scaling\n```\n",
         "de.md:3: step 1 differs from en.md: its directives differ"},
        {"# T\n\n## Eins\n\n```attnlab\nhighlight plane\n```\n\n```attnlab\ngoal d >= 5 : x\n"
         "solution d 5\n```\n\n## Zwei\n\n```attnlab\nview scaling\n```\n",
         "de.md:3: step 1 differs from en.md: a goal's conditions differ"},
        {"# T\n\n## Eins\n\n```attnlab\nhighlight plane\n```\n\n```attnlab\ngoal d >= 4 : x\n"
         "solution d 6\n```\n\n## Zwei\n\n```attnlab\nview scaling\n```\n",
         "de.md:3: step 1 differs from en.md: a goal's solution differs"},
        {"# T\n\n## Eins\n\n```attnlab\nhighlight plane\n```\n\n```attnlab\ngoal d >= 4 : x\n"
         "solution d 4\n```\n\n## Zwei\n\n```attnlab\nview permutation\n```\n",
         "step 2 differs from en.md: its directives differ"},
        {"# T\n\n## Eins\n\n```attnlab\nhighlight plane\n```\n\n```attnlab\ngoal d >= 4 : x\n"
         "solution d 4\n```\n",
         "de.md:1: it has 1 steps, and en.md has 2"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        cr_assert(
            lesson_parse(&translation, bad[k].text, strlen(bad[k].text), "de.md", err, sizeof err),
            "%s", err);
        cr_assert_not(lesson_same_shape(&original, &translation, err, sizeof err), "case %zu", k);
        cr_assert(strstr(err, bad[k].says), "case %zu: '%s' lacks '%s'", k, err, bad[k].says);
    }
}

/* `see FILE.md` links a step to another lesson of its folder: one plain file
 * name a step, never a path; a translation keeps its original's links; and
 * the checker refuses a link to a file the folder does not hold. */
Test(lesson, a_step_links_another_lesson_of_its_folder) {
    static Lesson linked, other;
    char err[600];
    const char *good = "# T\n\n## One\n\n```attnlab\nsee 16-writing-one-token-at-a-time.md\n```\n\n"
                       "Text.\n\n## Two\n\nMore.\n";
    cr_assert(lesson_parse(&linked, good, strlen(good), "/nowhere/l.md", err, sizeof err), "%s",
              err);
    cr_assert_str_eq(linked.steps[0].see, "16-writing-one-token-at-a-time.md");
    cr_assert_str_empty(linked.steps[1].see);
    static const struct {
        const char *text, *says;
    } bad[] = {
        {"# T\n\n```attnlab\nsee a.md\n```\n\n## One\n\nText.\n",
         "b.md:4: see: a link belongs to a step: put it after a '## Step' heading"},
        {"# T\n\n## One\n\n```attnlab\nsee ../a.md\n```\n",
         "b.md:6: see: expected 'see FILE.md', a lesson's file name in this folder"},
        {"# T\n\n## One\n\n```attnlab\nsee a.txt\n```\n",
         "b.md:6: see: expected 'see FILE.md', a lesson's file name in this folder"},
        {"# T\n\n## One\n\n```attnlab\nsee\n```\n",
         "b.md:6: see: expected 'see FILE.md', a lesson's file name in this folder"},
        {"# T\n\n## One\n\n```attnlab\nsee a.md\nsee b.md\n```\n",
         "b.md:7: see: one link per step"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        cr_assert_not(
            lesson_parse(&other, bad[k].text, strlen(bad[k].text), "b.md", err, sizeof err), "%s",
            bad[k].text);
        cr_assert_str_eq(err, bad[k].says);
    }
    /* a translation with another link, or none, differs */
    const char *none = "# T\n\n## Eins\n\nText.\n\n## Zwei\n\nMehr.\n";
    cr_assert(lesson_parse(&other, none, strlen(none), "de.md", err, sizeof err), "%s", err);
    cr_assert_not(lesson_same_shape(&linked, &other, err, sizeof err));
    cr_assert(strstr(err, "its link (see) differs"), "%s", err);
    /* the checker: no such file beside it */
    cr_assert_not(lesson_check(&linked, &vocab, test_env("ATTNLAB_DATA"), NULL, err, sizeof err));
    cr_assert_str_eq(err, "/nowhere/l.md:3: see: no lesson 16-writing-one-token-at-a-time.md in "
                          "this folder");
    /* … and beside the shipped lessons it is there */
    char path[1024];
    snprintf(path, sizeof path, "%s/lessons/l.md", test_env("ATTNLAB_DATA"));
    cr_assert(lesson_parse(&linked, good, strlen(good), path, err, sizeof err), "%s", err);
    cr_assert(lesson_check(&linked, &vocab, test_env("ATTNLAB_DATA"), NULL, err, sizeof err), "%s",
              err);
}

/* The directive table (lesson_directive.h): every kind of action has a row, every row reads
 * a line and carries it out, each word once; the keyword list is its rows and the four
 * keywords that are not actions. */
Test(lesson, every_directive_kind_has_one_table_row_that_reads_and_acts) {
    for (int kind = 0; kind < ACT_KIND_COUNT; kind++) {
        const Lesson_Directive *d = lesson_directive_of((Directive_Kind)kind);
        cr_assert(d, "kind %d has no row", kind);
        cr_assert_eq((int)d->kind, kind);
    }
    int rows = 0, keywords;
    const Lesson_Directive *d;
    for (; (d = lesson_directive_at(rows)); rows++) {
        cr_assert(d->parse && d->apply && d->usage && d->word, "row %d", rows);
        cr_assert(strstr(d->usage, d->word) == d->usage, "%s: its usage starts with its word",
                  d->word);
        cr_assert_eq(lesson_directive_find(d->word), d, "%s is not found, or twice", d->word);
    }
    const Lesson_Keyword *kw = lesson_keywords(LESSON_KEYWORDS_ACTIONS, &keywords);
    cr_assert_eq(keywords, rows + 4, "%d keywords for %d rows", keywords, rows);
    for (int k = 0; k < rows; k++) cr_assert_str_eq(kw[k].name, lesson_directive_at(k)->word);
}
