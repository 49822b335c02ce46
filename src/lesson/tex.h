/* TeX math, the subset lessons use, parsed into a tree that ui/math_layout.c
 * sets as boxes (the way TeX builds an mlist and then its boxes).
 *
 * The tree points into the source string, which must outlive it. Nodes live
 * in the Tex's fixed array, so parsing never allocates.
 *
 *   bool tex_parse(Tex *t, const char *s, size_t n, char *err, size_t errsz)
 *       parse s[0..n); false with a one-line message on a formula that cannot
 *       be set (too deep, too long, unbalanced braces, \left without \right,
 *       a double superscript, a missing argument, text that is not UTF-8). An unknown
 *       command is not an error here: it becomes a TEX_UNKNOWN node, kept as written, and
 *       the first is named in t->unknown, so a lesson checker can refuse it while a window
 *       shows it in red
 */
#ifndef ATTN_TEX_H
#define ATTN_TEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tex_value.h"

#define TEX_MAX_NODES  2048
#define TEX_MAX_DEPTH  32 /* nested groups, scripts, fractions, roots */
#define TEX_MAX_MATRIX 8  /* rows and columns of a pmatrix/bmatrix, aligned or cases */

typedef enum Tex_Kind {
    TEX_ROW,     /* a list of atoms: a = first, linked by next */
    TEX_SYM,     /* one symbol, or a run of digits */
    TEX_WORD,    /* upright text: \operatorname, \text, \exp, … */
    TEX_SCRIPTS, /* a = nucleus, b = subscript, c = superscript (-1 = none) */
    TEX_FRAC,    /* a over b */
    TEX_SQRT,    /* the root of a */
    TEX_SPACE,   /* em wide (negative: \!) */
    TEX_DELIM,   /* s a s2: \left( a \right), or a matrix's brackets */
    TEX_MATRIX,  /* rows × cols cells: a = first cell (a TEX_ROW), linked by next; flags say
                    aligned (columns right, left, right, …) or cases (left-aligned) */
    TEX_VAL,     /* a live value, named by s */
    TEX_UNKNOWN, /* an unknown command, s as written */
} Tex_Kind;

/* TeX's atom classes: they decide the spacing between neighbours. */
typedef enum Tex_Class {
    TEX_ORD,
    TEX_OP,
    TEX_BIN,
    TEX_REL,
    TEX_OPEN,
    TEX_CLOSE,
    TEX_PUNCT,
    TEX_INNER,
} Tex_Class;

enum {
    TEX_ITALIC = 1, /* a variable: math italic */
    TEX_LIMITS = 2, /* \sum, \max: limits above and below in display math */
    TEX_LARGE = 4,  /* \sum, \prod: a bigger symbol in display math */
    TEX_BOLD = 8,   /* \mathbf */
};
enum { TEX_MATRIX_ALIGNED = 1, TEX_MATRIX_CASES = 2 }; /* a TEX_MATRIX's flags */

typedef struct Tex_Node {
    uint8_t kind, cls, flags;
    int16_t next, a, b, c;
    int16_t rows, cols; /* TEX_MATRIX */
    float em;           /* TEX_SPACE */
    const char *s, *s2; /* text, or a TEX_DELIM's opening and closing delimiter ("" = none) */
    int len, len2;
} Tex_Node;

typedef struct Tex {
    Tex_Node nodes[TEX_MAX_NODES];
    int count, root;
    const char *unknown; /* the first unknown command, or NULL */
    int unknown_len;
} Tex;

bool tex_parse(Tex *t, const char *s, size_t n, char *err, size_t errsz);

#endif
