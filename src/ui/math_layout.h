/* Formulas set as boxes, the way TeX sets an mlist: every atom becomes a box
 * with a width, a height above the baseline and a depth below it; fractions
 * stack over a rule on the math axis, scripts shrink and shift, radicals get
 * a sign and a bar, delimiters grow to what they enclose, and TeX's table of
 * spaces between atom classes sets the gaps.
 *
 * The result is a flat list of glyph runs, lines and rules, positioned from
 * the formula's origin (its left end on the baseline, y up), which math_draw
 * puts on a draw list. Layout allocates nothing: the items live in the
 * Math_Layout.
 *
 *   void math_layout(Math_Layout *L, const Tex *t, const Math_Desc *desc)
 *       set t's formula; L->w, L->h, L->d are the whole box
 *   void math_draw(Draw_List *dl, const Math_Layout *L, float x, float baseline, const Math_Colors
 * *c) x and baseline in UI units, y down as everywhere on screen
 */
#ifndef ATTN_MATH_LAYOUT_H
#define ATTN_MATH_LAYOUT_H

#include "../gfx/draw.h"
#include "../gfx/text_metrics.h"
#include "../lesson/tex.h"

#define MATH_MAX_ITEMS   1024
#define MATH_VALUE_BYTES 1024

typedef enum Math_Item_Kind {
    MATH_GLYPHS, /* s[len] in font at size, pen at (x, y) on its baseline */
    MATH_LINE,   /* (x, y) to (x1, y1), width wide: radicals and tall delimiters */
    MATH_RULE,   /* a filled rectangle from (x, y) to (x1, y1): fraction rules, radical bars */
} Math_Item_Kind;

typedef enum Math_Tone { MATH_TONE_TEXT, MATH_TONE_VALUE, MATH_TONE_ERROR } Math_Tone;

typedef struct Math_Item {
    uint8_t kind, font, tone;
    float x, y, x1, y1; /* from the formula's origin, y up */
    float size, width;
    float ascent; /* MATH_GLYPHS: line top to baseline, for draw_text */
    const char *s;
    int len;
} Math_Item;

typedef struct Math_Layout {
    Math_Item items[MATH_MAX_ITEMS];
    int count;
    bool overflow;                 /* more items than fit: the formula is cut short */
    float w, h, d;                 /* the formula's box */
    float rule;                    /* the rule thickness used */
    char values[MATH_VALUE_BYTES]; /* \val texts, pointed to by items */
    int values_len;
} Math_Layout;

/* what a \val shows; false when the scene has no such value (the layout shows "?") */
typedef bool (*Math_Value_Fn)(void *ctx, const Tex_Value *v, char *out, size_t outsz);

typedef struct Math_Desc {
    const Text_Metrics *tm;
    float size;   /* the surrounding text's size */
    bool display; /* display style: limits above and below, larger operators */
    Math_Value_Fn value;
    void *value_ctx;
} Math_Desc;

typedef struct Math_Colors {
    Color text, value, error;
} Math_Colors;

/* a formula's parse and layout, kept together by whoever sets formulas */
typedef struct Math_Scratch {
    Tex tex;
    Math_Layout layout;
} Math_Scratch;

void math_layout(Math_Layout *L, const Tex *t, const Math_Desc *desc);
void math_draw(Draw_List *dl, const Math_Layout *L, float x, float baseline, const Math_Colors *c);

#endif
