/* Formula layout as geometry: stacked fractions, radicals with bars, nested
 * scripts, shared baselines, limits, growing delimiters, matrices. Text is
 * measured by stub metrics (every glyph 0.6 em wide, ink 0.7 em above the
 * baseline and 0.2 em below for descenders), so the numbers are the
 * layout's alone. Positions are compared with a tolerance of 1e-3 units:
 * the layout only adds and scales floats of size ~20. */
#include "lesson/lesson.h"
#include "lesson/tex.h"
#include "test_util.h"
#include "ui/math_layout.h"

#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#define SIZE 20.0f
#define EPS  1e-3f

static int code_points(const char *s, int len) {
    int n = 0;
    for (int i = 0; i < len; i++) n += ((unsigned char)s[i] & 0xC0) != 0x80;
    return n;
}

static float stub_width(void *ctx, Font_Id f, float size, const char *s, int len) {
    (void)ctx;
    (void)f;
    return 0.6f * size * (float)code_points(s, len);
}

static float stub_line_height(void *ctx, Font_Id f, float size) {
    (void)ctx;
    (void)f;
    return 1.2f * size;
}

static float stub_ascent(void *ctx, Font_Id f, float size) {
    (void)ctx;
    (void)f;
    return 0.95f * size;
}

static void stub_ink(void *ctx, Font_Id f, float size, const char *s, int len, float *above,
                     float *below) {
    (void)ctx;
    (void)f;
    *above = 0.7f * size;
    *below = 0;
    for (int i = 0; i < len; i++)
        if (strchr("gjpqy()[]", s[i])) *below = 0.2f * size;
    if (len == 1 && s[0] == '+') { /* centred on the axis, 0.25 em */
        *above = 0.5f * size;
        *below = 0;
    }
}

static const Text_Metrics tm = {
    .width = stub_width, .line_height = stub_line_height, .ascent = stub_ascent, .ink = stub_ink};

static Tex tex;
static Math_Layout L;

static bool value_of(void *ctx, const Tex_Value *v, char *out, size_t outsz) {
    (void)ctx;
    if (v->kind != TEX_VALUE_WEIGHT) return false;
    snprintf(out, outsz, "0.%d%d0", v->i, v->j);
    return true;
}

static void set(const char *s, bool display) {
    char err[200];
    cr_assert(tex_parse(&tex, s, strlen(s), err, sizeof err), "%s: %s", s, err);
    Math_Desc d = {.tm = &tm, .size = SIZE, .display = display, .value = value_of};
    math_layout(&L, &tex, &d);
    cr_assert_not(L.overflow, "%s overflowed", s);
}

/* the n-th glyph item showing text s */
static const Math_Item *glyph(const char *s, int nth) {
    for (int i = 0; i < L.count; i++) {
        const Math_Item *it = &L.items[i];
        if (it->kind == MATH_GLYPHS && it->len == (int)strlen(s) &&
            !memcmp(it->s, s, (size_t)it->len) && nth-- == 0)
            return it;
    }
    cr_assert_fail("no glyph '%s'", s);
    return NULL;
}

static int count_kind(Math_Item_Kind k) {
    int n = 0;
    for (int i = 0; i < L.count; i++) n += L.items[i].kind == k;
    return n;
}

static const Math_Item *first_kind(Math_Item_Kind k) {
    for (int i = 0; i < L.count; i++)
        if (L.items[i].kind == k) return &L.items[i];
    cr_assert_fail("no item of kind %d", k);
    return NULL;
}

static float top_of(const Math_Item *g) {
    return g->y + 0.7f * g->size;
}
static float width_of(const Math_Item *g) {
    return stub_width(NULL, 0, g->size, g->s, g->len);
}

Test(math_layout, a_fraction_is_taller_than_its_parts_side_by_side_and_stacks_over_its_rule) {
    set("ab", false);
    float flat_h = L.h + L.d, flat_w = L.w;
    set("\\frac{a}{b}", false);
    cr_assert_gt(L.h + L.d, flat_h, "stacked: %g high vs %g", L.h + L.d, flat_h);
    cr_assert_lt(L.w, flat_w + SIZE * 0.5f, "not side by side: %g wide vs %g", L.w, flat_w);
    const Math_Item *a = glyph("a", 0), *b = glyph("b", 0), *rule = first_kind(MATH_RULE);
    cr_assert_gt(a->y, rule->y1, "the numerator's baseline is above the rule");
    cr_assert_lt(top_of(b), rule->y, "the denominator's top is below the rule");
    cr_assert_leq(rule->x, a->x + EPS);
    cr_assert_geq(rule->x1, a->x + width_of(a) - EPS, "the rule spans the numerator");
    cr_assert_lt(a->size, SIZE, "in text style the parts are script size");
    set("\\frac{a}{b}", true);
    cr_assert_float_eq(glyph("a", 0)->size, SIZE, EPS, "in display style they are text size");
}

Test(math_layout, a_radical_has_a_sign_and_a_bar_over_its_radicand) {
    set("\\sqrt{d_k}", false);
    const Math_Item *d = glyph("d", 0), *bar = first_kind(MATH_RULE);
    cr_assert_geq(bar->y, top_of(d), "the bar clears the radicand");
    cr_assert_leq(bar->x, d->x + EPS);
    const Math_Item *k = glyph("k", 0);
    cr_assert_geq(bar->x1, k->x + width_of(k) - EPS, "the bar covers the whole radicand");
    cr_assert_eq(count_kind(MATH_LINE), 3, "the sign: tick, down-stroke, up-stroke");
    for (int i = 0; i < L.count; i++)
        if (L.items[i].kind == MATH_LINE)
            cr_assert_leq(fmaxf(L.items[i].x, L.items[i].x1), d->x + EPS, "the sign is left");
    cr_assert_geq(L.h, bar->y1 - EPS, "the box holds the bar");
}

/* \sqrt[3]{x}: the index is small, left of the radicand and above its
 * baseline, ending over the sign; the sign and radicand make room for it. */
Test(math_layout, a_root_index_sits_small_over_the_sign) {
    set("\\sqrt{x}", false);
    float plain_x = glyph("x", 0)->x, plain_w = L.w;
    set("\\sqrt[3]{x}", false);
    const Math_Item *three = glyph("3", 0), *x = glyph("x", 0);
    cr_assert_lt(three->size, x->size * 0.7f, "scriptscript size");
    cr_assert_lt(three->x + width_of(three), x->x, "left of the radicand");
    cr_assert_gt(three->y, x->y + 0.2f * SIZE, "raised above the baseline");
    cr_assert_geq(three->x, -EPS, "inside the box");
    cr_assert_geq(x->x, plain_x - EPS);
    cr_assert_geq(L.w, plain_w - EPS);
    set("\\sqrt[12345]{x}", false);
    cr_assert_geq(glyph("12345", 0)->x, -EPS, "a wide index pushes the sign right");
    cr_assert_lt(glyph("12345", 0)->x + width_of(glyph("12345", 0)), glyph("x", 0)->x);
}

/* aligned: both rows' "=" start at one x (the & lines them up), and row 2
 * sits below row 1; cases: cells of a column start at one x. */
Test(math_layout, aligned_rows_line_up_at_the_ampersand) {
    set("\\begin{aligned} abc &= x \\\\ &= yy + z \\end{aligned}", true);
    const Math_Item *e1 = glyph("=", 0), *e2 = glyph("=", 1);
    cr_assert_float_eq(e1->x, e2->x, EPS, "the relations line up");
    cr_assert_lt(e2->y, e1->y - SIZE, "the second row is below the first");
    const Math_Item *c = glyph("c", 0);
    cr_assert_lt(c->x + width_of(c), e1->x, "the left column ends before the &");
    set("\\begin{cases} x & a \\\\ -xyz & bb \\end{cases}", false);
    cr_assert_float_eq(glyph("a", 0)->x, glyph("b", 0)->x, EPS, "left-aligned column");
}

Test(math_layout, nested_scripts_shrink_and_climb) {
    set("x^{y^{z}}", false);
    const Math_Item *x = glyph("x", 0), *y = glyph("y", 0), *z = glyph("z", 0);
    cr_assert_gt(x->size, y->size);
    cr_assert_gt(y->size, z->size);
    cr_assert_gt(y->y, x->y);
    cr_assert_gt(z->y, y->y);
    cr_assert_gt(y->x, x->x);
    cr_assert_gt(z->x, y->x);
    set("x_{i_{j}}", false);
    cr_assert_lt(glyph("i", 0)->y, 0);
    cr_assert_lt(glyph("j", 0)->y, glyph("i", 0)->y);
    cr_assert_lt(glyph("j", 0)->size, glyph("i", 0)->size);
}

Test(math_layout, sub_and_superscript_stack_in_one_column) {
    set("x_i^2", false);
    const Math_Item *x = glyph("x", 0), *i = glyph("i", 0), *two = glyph("2", 0);
    cr_assert_float_eq(i->x, x->x + width_of(x), EPS, "the subscript follows the nucleus");
    cr_assert_lt(fabsf(two->x - i->x), 0.1f * SIZE, "the superscript is above it, not after it");
    cr_assert_gt(two->y, 0);
    cr_assert_lt(i->y, 0);
    cr_assert_geq(two->y - (top_of(i) - i->y + i->y), 4 * L.rule - EPS,
                  "a gap of at least 4θ between them");
}

Test(math_layout, atoms_share_one_baseline_and_fractions_sit_on_the_axis) {
    set("a + b = \\frac{1}{2} c", false);
    cr_assert_float_eq(glyph("a", 0)->y, 0, EPS);
    cr_assert_float_eq(glyph("+", 0)->y, 0, EPS);
    cr_assert_float_eq(glyph("b", 0)->y, 0, EPS);
    cr_assert_float_eq(glyph("=", 0)->y, 0, EPS);
    cr_assert_float_eq(glyph("c", 0)->y, 0, EPS);
    const Math_Item *rule = first_kind(MATH_RULE);
    cr_assert_float_eq((rule->y + rule->y1) / 2, 0.25f * SIZE, EPS, "the rule is on the axis");
    /* TeX's spacing: medium around +, thick around =, none after a letter before a letter */
    float after_a = glyph("+", 0)->x - (glyph("a", 0)->x + width_of(glyph("a", 0)));
    float after_b = glyph("=", 0)->x - (glyph("b", 0)->x + width_of(glyph("b", 0)));
    cr_assert_float_eq(after_a, 4.0f / 18 * SIZE, EPS);
    cr_assert_float_eq(after_b, 5.0f / 18 * SIZE, EPS);
    set("-x", false);
    cr_assert_float_eq(glyph("x", 0)->x, 0.6f * SIZE, EPS, "a leading minus is unary: no space");
}

Test(math_layout, an_operator_name_keeps_its_distance) {
    set("P\\operatorname{Attention}(X)", false);
    const Math_Item *p = glyph("P", 0), *w = glyph("Attention", 0);
    cr_assert_float_eq(w->x - (p->x + width_of(p)), 3.0f / 18 * SIZE, EPS,
                       "a thin space, so it never reads PAttention");
    cr_assert_float_eq(glyph("(", 0)->x, w->x + width_of(w), EPS, "no space before its (");
}

Test(math_layout, sums_take_limits_above_and_below_in_display_and_scripts_inline) {
    set("\\sum_{j=1}^{n} a_j", true);
    const Math_Item *sum = glyph("∑", 0), *j = glyph("j", 0), *n = glyph("n", 0);
    float mid = sum->x + width_of(sum) / 2;
    cr_assert_gt(sum->size, SIZE, "display makes the sign larger");
    cr_assert_lt(j->x, mid);
    cr_assert_gt(n->x + width_of(n), mid, "the upper limit is centred over the sign");
    cr_assert_lt(top_of(j), sum->y, "the lower limit is below the sign");
    cr_assert_gt(n->y, top_of(sum), "the upper limit is above it");
    set("\\sum_{j=1}^{n} a_j", false);
    sum = glyph("∑", 0);
    j = glyph("j", 0);
    cr_assert_geq(j->x, sum->x + width_of(sum) - EPS, "inline, the limits are scripts");
}

Test(math_layout, delimiters_grow_around_what_they_hold) {
    set("\\left( x \\right)", false);
    cr_assert_eq(count_kind(MATH_LINE), 0, "a short body keeps the font's parentheses");
    glyph("(", 0);
    set("\\left( \\frac{a}{b} \\right)", true);
    const Math_Item *a = glyph("a", 0), *b = glyph("b", 0);
    float top = -1e9f, bottom = 1e9f;
    for (int i = 0; i < L.count; i++)
        if (L.items[i].kind == MATH_LINE) {
            top = fmaxf(top, fmaxf(L.items[i].y, L.items[i].y1));
            bottom = fminf(bottom, fminf(L.items[i].y, L.items[i].y1));
        }
    cr_assert_geq(top, top_of(a), "the parentheses reach over the numerator");
    cr_assert_leq(bottom, b->y, "and under the denominator");
}

Test(math_layout, matrix_cells_line_up_in_rows_and_columns) {
    set("\\begin{pmatrix} 1 & 22 \\\\ 333 & 4 \\end{pmatrix}", false);
    const Math_Item *c1 = glyph("1", 0), *c2 = glyph("22", 0), *c3 = glyph("333", 0),
                    *c4 = glyph("4", 0);
    cr_assert_float_eq(c1->y, c2->y, EPS);
    cr_assert_float_eq(c3->y, c4->y, EPS);
    cr_assert_lt(c3->y, c1->y);
    cr_assert_float_eq(c1->x + width_of(c1) / 2, c3->x + width_of(c3) / 2, EPS, "centred column");
    cr_assert_float_eq(c2->x + width_of(c2) / 2, c4->x + width_of(c4) / 2, EPS);
    cr_assert_gt(c2->x, c3->x + width_of(c3), "columns do not overlap");
    cr_assert_float_eq((L.h - L.d) / 2, 0.25f * SIZE, 0.05f * SIZE, "centred on the axis");
}

Test(math_layout, live_values_and_unknown_commands_have_their_tones) {
    set("a_{23} = \\val{a_{23}} + \\frobnicate", false);
    const Math_Item *v = glyph("0.230", 0), *u = glyph("\\frobnicate", 0);
    cr_assert_eq(v->tone, MATH_TONE_VALUE);
    cr_assert_eq(u->tone, MATH_TONE_ERROR);
    cr_assert_eq(glyph("a", 0)->tone, MATH_TONE_TEXT);
    set("\\val{s_{11}}", false);
    glyph("?", 0); /* the callback had no such value */
}

Test(math_layout, too_many_pieces_are_flagged_not_overrun) {
    static char many[1600];
    memset(many, 'x', sizeof many - 1);
    char err[200];
    cr_assert(tex_parse(&tex, many, strlen(many), err, sizeof err), "%s", err);
    Math_Desc d = {.tm = &tm, .size = SIZE};
    math_layout(&L, &tex, &d);
    cr_assert(L.overflow);
    cr_assert_eq(L.count, MATH_MAX_ITEMS);
}

/* Every formula of the shipped lessons parses with no unknown command and lays out. */
Test(math_layout, every_formula_in_the_lessons_lays_out) {
    static Lesson lesson;
    const Test_Lessons *ix = test_shipped_lessons();
    int formulas = 0;
    for (int f = 0; f < ix->count; f++) {
        const char *path = ix->path[f];
        char err[600];
        cr_assert(lesson_load(&lesson, path, err, sizeof err), "%s", err);
        cr_assert_str_empty(lesson.tex_problem);
        for (int k = 0; k < lesson.span_count; k++) {
            const Lesson_Span *sp = &lesson.spans[k];
            if (sp->kind != SPAN_MATH) continue;
            cr_assert(tex_parse(&tex, lesson.text + sp->off, (size_t)sp->len, err, sizeof err),
                      "%s: %s", path, err);
            cr_assert_null(tex.unknown);
            Math_Desc d = {.tm = &tm, .size = SIZE, .display = sp->style & STYLE_DISPLAY};
            math_layout(&L, &tex, &d);
            cr_assert_not(L.overflow);
            cr_assert_gt(L.w, 0, "%s: %.*s is empty", path, sp->len, lesson.text + sp->off);
            formulas++;
        }
    }
    cr_assert_gt(formulas, 80, "only %d formulas found", formulas);
}
