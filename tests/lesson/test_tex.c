/* The TeX parser: the tree it builds, and what it refuses. */
#include "lesson/tex.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static Tex tex;
static char err[200];

static bool parse(const char *s) {
    return tex_parse(&tex, s, strlen(s), err, sizeof err);
}

static const Tex_Node *at(int i) {
    cr_assert(i >= 0 && i < tex.count, "node %d of %d", i, tex.count);
    return &tex.nodes[i];
}

/* the k-th atom of a row */
static const Tex_Node *child(const Tex_Node *row, int k) {
    cr_assert_eq(row->kind, TEX_ROW);
    int i = row->a;
    while (k-- > 0) i = at(i)->next;
    return at(i);
}

static bool text_is(const Tex_Node *n, const char *s) {
    return n->len == (int)strlen(s) && !memcmp(n->s, s, (size_t)n->len);
}

Test(tex, a_fraction_holds_its_numerator_and_denominator) {
    cr_assert(parse("\\frac{a+b}{\\sqrt{d_k}}"), "%s", err);
    const Tex_Node *f = child(at(tex.root), 0);
    cr_assert_eq(f->kind, TEX_FRAC);
    const Tex_Node *num = at(f->a), *den = at(f->b);
    cr_assert(text_is(child(num, 0), "a") && (child(num, 0)->flags & TEX_ITALIC));
    cr_assert_eq(child(num, 1)->cls, TEX_BIN);
    cr_assert_eq(child(den, 0)->kind, TEX_SQRT);
}

Test(tex, scripts_nest_and_both_attach_to_one_nucleus) {
    cr_assert(parse("e^{s_{ij}} x_i^2"), "%s", err);
    const Tex_Node *e = child(at(tex.root), 0);
    cr_assert_eq(e->kind, TEX_SCRIPTS);
    cr_assert(text_is(at(e->a), "e"));
    cr_assert_eq(e->b, -1);
    const Tex_Node *s = child(at(e->c), 0);
    cr_assert_eq(s->kind, TEX_SCRIPTS, "a script inside a script stays a script");
    cr_assert(text_is(at(s->a), "s"));
    const Tex_Node *x = child(at(tex.root), 1);
    cr_assert(x->b >= 0 && x->c >= 0, "x_i^2 has both scripts on one x");
    cr_assert(text_is(at(x->c), "2"));
}

Test(tex, symbols_operators_and_blackboard_letters) {
    cr_assert(parse("\\sum_{r=1}^{d_k} \\operatorname{Var}(Z_r) \\in \\mathbb{R} \\cdot \\top "
                    "\\langle q \\rangle \\ldots \\alpha \\Sigma"),
              "%s", err);
    const Tex_Node *row = at(tex.root);
    const Tex_Node *sum = child(row, 0);
    cr_assert_eq(sum->kind, TEX_SCRIPTS);
    cr_assert(text_is(at(sum->a), "∑") && (at(sum->a)->flags & TEX_LIMITS));
    cr_assert(child(row, 1)->kind == TEX_WORD && text_is(child(row, 1), "Var"));
    cr_assert_eq(child(row, 1)->cls, TEX_OP);
    cr_assert(text_is(child(row, 5), "∈") && child(row, 5)->cls == TEX_REL);
    cr_assert(text_is(child(row, 6), "ℝ"));
    cr_assert(text_is(child(row, 7), "⋅") && child(row, 7)->cls == TEX_BIN);
    cr_assert(text_is(child(row, 8), "⊤"));
    cr_assert(text_is(child(row, 9), "⟨") && child(row, 9)->cls == TEX_OPEN);
    cr_assert(text_is(child(row, 13), "α") && (child(row, 13)->flags & TEX_ITALIC));
    cr_assert(text_is(child(row, 14), "Σ") && !(child(row, 14)->flags & TEX_ITALIC));
    cr_assert_null(tex.unknown);
}

Test(tex, text_keeps_its_spaces_and_primes_are_superscripts) {
    cr_assert(parse("\\text{if and only if} x'_i"), "%s", err);
    cr_assert(text_is(child(at(tex.root), 0), "if and only if"));
    const Tex_Node *x = child(at(tex.root), 1);
    cr_assert_eq(x->kind, TEX_SCRIPTS);
    cr_assert(text_is(at(x->c), "′") && text_is(at(x->b), "i"));
}

Test(tex, left_right_and_matrices) {
    cr_assert(parse("\\left( \\frac{Q}{2} \\right) \\begin{pmatrix} 1 & 2 & 3 \\\\ 4 & 5 & 6 "
                    "\\\\ \\end{pmatrix} \\begin{bmatrix} a \\end{bmatrix}"),
              "%s", err);
    const Tex_Node *d = child(at(tex.root), 0);
    cr_assert_eq(d->kind, TEX_DELIM);
    cr_assert(d->len == 1 && d->s[0] == '(' && d->len2 == 1 && d->s2[0] == ')');
    const Tex_Node *pm = child(at(tex.root), 1);
    cr_assert_eq(pm->kind, TEX_DELIM);
    const Tex_Node *m = at(pm->a);
    cr_assert_eq(m->kind, TEX_MATRIX);
    cr_assert_eq(m->rows, 2, "a trailing \\\\ adds no empty row");
    cr_assert_eq(m->cols, 3);
    int cells = 0, last = -1;
    for (int i = m->a; i >= 0; i = at(i)->next, cells++) last = i;
    cr_assert_eq(cells, 6);
    cr_assert(at(last)->rows == 1 && at(last)->cols == 2);
    const Tex_Node *bm = child(at(tex.root), 2);
    cr_assert(bm->s[0] == '[' && at(bm->a)->rows == 1 && at(bm->a)->cols == 1);
}

Test(tex, an_unknown_command_is_kept_as_written_and_named) {
    cr_assert(parse("a \\frobnicate{b} + \\zeta \\qux"), "%s", err);
    cr_assert_not_null(tex.unknown);
    cr_assert_eq(tex.unknown_len, 11);
    cr_assert(!memcmp(tex.unknown, "\\frobnicate", 11), "the first one is named");
    const Tex_Node *u = child(at(tex.root), 1);
    cr_assert_eq(u->kind, TEX_UNKNOWN);
    cr_assert(text_is(u, "\\frobnicate"));
}

Test(tex, malformed_formulas_get_one_line_each) {
    static const struct {
        const char *tex, *says;
    } bad[] = {
        {"{a", "a { is never closed"},
        {"a}", "a } closes no {"},
        {"\\frac{a}{b", "a { is never closed"},
        {"\\left( x", "\\left has no \\right"},
        {"x \\right)", "\\right without \\left"},
        {"\\left x \\right)", "needs a delimiter"},
        {"x^a^b", "double superscript"},
        {"x_a_b", "double subscript"},
        {"\\begin{array} x \\end{array}", "unknown TeX environment array"},
        {"\\begin{pmatrix} 1 \\end{bmatrix}", "different environments"},
        {"\\begin{pmatrix} 1 & 2", "has no \\end"},
        {"a & b", "belong inside"},
        {"\\val{q_1}", "\\val{q_1}: not a value"},
        {"\\val{a_{0,1}}", "not a value"},
        /* a missing argument is refused, not set as nothing */
        {"\\frac", "\\frac's numerator is missing"},
        {"\\frac{a}", "\\frac's denominator is missing"},
        {"\\dfrac{a}}", "\\dfrac's denominator is missing"},
        {"\\sqrt", "\\sqrt's radicand is missing"},
        {"\\sqrt[3]", "\\sqrt's radicand is missing"},
        {"\\sqrt[3", "\\sqrt[ has no ]"},
        {"x^", "the superscript after ^ is missing"},
        {"^", "the superscript after ^ is missing"},
        {"x_", "the subscript after _ is missing"},
        {"x^}", "the superscript after ^ is missing"},
        {"\\mathbb{}", "\\mathbb needs a letter"},
        {"\\mathbf", "\\mathbf's argument is missing"},
        {"\\begin{pmatrix} \\frac & 1 \\end{pmatrix}", "numerator is missing"},
        /* text is strict UTF-8: broken and overlong sequences, control characters */
        {"a\xff", "byte 2 (0xFF) is not valid UTF-8"},
        {"a\xc0\xaf", "byte 2 (0xC0) is not valid UTF-8"},
        {"\xed\xa0\x80", "byte 1 (0xED) is not valid UTF-8"},
        {"a\x01"
         "b",
         "byte 2 (0x01) is not valid UTF-8"},
        {"a\x1b[31m", "byte 2 (0x1B) is not valid UTF-8"},
        {"\\begin{aligned} a &= b", "has no \\end"},
        {"\\begin{cases} a \\end{aligned}", "different environments"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        cr_assert_not(parse(bad[k].tex), "%s was accepted", bad[k].tex);
        cr_assert(strstr(err, bad[k].says), "%s: '%s' does not say '%s'", bad[k].tex, err,
                  bad[k].says);
        cr_assert_null(strchr(err, '\n'));
    }
}

Test(tex, nesting_and_size_have_limits_not_crashes) {
    /* a script of a script of … : each level is one more row */
    size_t n = 60000 * 2 + 1;
    char *deep = malloc(n + 1);
    for (size_t k = 0; k < 60000; k++) memcpy(deep + 2 * k, "^{", 2);
    deep[n - 1] = 'x';
    deep[n] = '\0';
    cr_assert_not(parse(deep));
    cr_assert(strstr(err, "nested deeper than 32 levels"), "%s", err);
    /* commands whose argument is a command, with no braces at all */
    for (size_t k = 0; k + 5 < n; k += 5) memcpy(deep + k, "\\sqrt", 5);
    deep[n - 1] = 'x';
    cr_assert_not(parse(deep));
    cr_assert(strstr(err, "nested deeper"), "%s", err);
    /* many atoms side by side: the node table's limit */
    memset(deep, 'x', n);
    cr_assert_not(parse(deep));
    cr_assert(strstr(err, "more than 2048 pieces"), "%s", err);
    free(deep);
    /* 32 levels is fine */
    char ok[200] = "";
    for (int k = 0; k < 15; k++) strcat(ok, "^{");
    strcat(ok, "x");
    for (int k = 0; k < 15; k++) strcat(ok, "}");
    cr_assert(parse(ok), "%s", err);
    /* a level is a group: 32 nested braces pass and 33 do not (each group
     * was once counted twice, so 16 were "deeper than 32 levels") */
    char braces[100];
    for (int levels = 32; levels <= 33; levels++) {
        snprintf(braces, sizeof braces, "%.*sx%.*s", levels,
                 "{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{", levels,
                 "}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}");
        cr_assert_eq(parse(braces), levels == 32, "%d levels: %s", levels, err);
    }
    cr_assert(strstr(err, "nested deeper than 32 levels"), "%s", err);
}

/* \sqrt[3]{x} sets 3 as the root's index; aligned and cases are matrices
 * with their alignment in the flags, and an aligned "&=" cell starts with an
 * empty atom so the relation is spaced as one. The reference's own proof of
 * permutation equivariance is an aligned block. */
Test(tex, root_indices_aligned_and_cases) {
    cr_assert(parse("\\sqrt[3]{x}"), "%s", err);
    const Tex_Node *r = child(at(tex.root), 0);
    cr_assert_eq(r->kind, TEX_SQRT);
    cr_assert_geq(r->b, 0, "the index");
    cr_assert(text_is(child(at(r->b), 0), "3"));
    cr_assert(text_is(child(at(r->a), 0), "x"));
    cr_assert(parse("\\sqrt{x}"), "%s", err);
    cr_assert_eq(child(at(tex.root), 0)->b, -1, "no index");
    const char *proof = "\\begin{aligned} \\mathbf o'_i &=\\sum_{j=1}^n a_{\\rho(i),\\rho(j)}"
                        "\\mathbf v_{\\rho(j)}\\\\ &=\\sum_{m=1}^n a_{\\rho(i),m}\\mathbf v_m "
                        "=\\mathbf o_{\\rho(i)}. \\end{aligned}";
    cr_assert(parse(proof), "%s", err);
    const Tex_Node *m = child(at(tex.root), 0);
    cr_assert_eq(m->kind, TEX_MATRIX);
    cr_assert_eq(m->flags, TEX_MATRIX_ALIGNED);
    cr_assert(m->rows == 2 && m->cols == 2, "%d × %d", m->rows, m->cols);
    const Tex_Node *cell = at(m->a);
    cell = at(cell->next); /* row 1, column 2: "= …" */
    cr_assert_eq(cell->cols, 1);
    const Tex_Node *first = child(cell, 0);
    cr_assert(first->kind == TEX_ROW && first->a < 0, "an empty atom before the relation");
    cr_assert(text_is(child(cell, 1), "="));
    cr_assert(parse("|x| = \\begin{cases} x & x \\ge 0 \\\\ -x & \\text{otherwise} \\end{cases}"),
              "%s", err);
    const Tex_Node *d = child(at(tex.root), 4);
    cr_assert_eq(d->kind, TEX_DELIM);
    cr_assert(d->len == 1 && d->s[0] == '{' && d->len2 == 0, "a brace on the left only");
    cr_assert_eq(at(d->a)->flags, TEX_MATRIX_CASES);
}

Test(tex, value_names) {
    Tex_Value v;
    cr_assert(tex_value_name("a_{23}", 6, &v) && v.kind == TEX_VALUE_WEIGHT && v.i == 2 &&
              v.j == 3);
    cr_assert(tex_value_name("s_{12,3}", 8, &v) && v.kind == TEX_VALUE_SCORE && v.i == 12 &&
              v.j == 3);
    cr_assert(tex_value_name("a_23", 4, &v) && v.i == 2 && v.j == 3);
    cr_assert(tex_value_name(" d_k ", 5, &v) && v.kind == TEX_VALUE_DK);
    cr_assert(tex_value_name("n", 1, &v) && v.kind == TEX_VALUE_N);
    cr_assert_not(tex_value_name("a_{2}", 5, &v));
    cr_assert_not(tex_value_name("a_{234}", 7, &v));
    cr_assert_not(tex_value_name("o_{23}", 6, &v));
    cr_assert_not(tex_value_name("", 0, &v));
    /* the open real model's sizes */
    cr_assert(tex_value_name("layers", 6, &v) && v.kind == TEX_VALUE_LAYERS);
    cr_assert(tex_value_name("heads", 5, &v) && v.kind == TEX_VALUE_HEADS);
    cr_assert(tex_value_name("d_h", 3, &v) && v.kind == TEX_VALUE_DH);
    cr_assert(tex_value_name("d_{h}", 5, &v) && v.kind == TEX_VALUE_DH);
    cr_assert(tex_value_name("d_model", 7, &v) && v.kind == TEX_VALUE_DMODEL);
    cr_assert_not(tex_value_name("layer", 5, &v));
    cr_assert_not(tex_value_name("d_hh", 4, &v));
}
