/* Formulas as boxes; see math_layout.h. The constants follow TeX's font
 * parameters (The TeXbook, appendix G), scaled to DejaVu's proportions. */
#include "../core/i18n.h"
#include "math_layout.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct Box {
    float w, h, d;
} Box;

enum { ST_D, ST_T, ST_S, ST_SS }; /* display, text, script, scriptscript */

typedef struct Ctx {
    Math_Layout *L;
    const Math_Desc *desc;
    const Tex *t;
} Ctx;

static float style_size(const Ctx *c, int st) {
    static const float k[] = {1.0f, 1.0f, 0.72f, 0.58f};
    return c->desc->size * k[st];
}

static int script_style(int st) {
    return st <= ST_T ? ST_S : ST_SS;
}
static int frac_style(int st) {
    return st == ST_D ? ST_T : st == ST_T ? ST_S : ST_SS;
}

/* ---- metrics ------------------------------------------------------------------ */

static float text_width(const Ctx *c, Font_Id f, float size, const char *s, int len) {
    return c->desc->tm->width(c->desc->tm->ctx, f, size, s, len);
}

static void ink(const Ctx *c, Font_Id f, float size, const char *s, int len, float *h, float *d) {
    const Text_Metrics *tm = c->desc->tm;
    if (tm->ink) {
        tm->ink(tm->ctx, f, size, s, len, h, d);
        return;
    }
    /* no font (a test's stub metrics): capitals' height, and descenders */
    *h = 0.72f * size;
    *d = 0;
    for (int i = 0; i < len; i++)
        if (strchr("gjpqy(),;[]|", s[i])) *d = 0.2f * size;
}

static float ascent_of(const Ctx *c, Font_Id f, float size) {
    const Text_Metrics *tm = c->desc->tm;
    if (tm->ascent) return tm->ascent(tm->ctx, f, size);
    return 0.8f * tm->line_height(tm->ctx, f, size);
}

/* the math axis: where fraction rules and the minus sign sit */
static float axis(const Ctx *c, float size) {
    if (!c->desc->tm->ink) return 0.25f * size;
    float h, d;
    ink(c, FONT_SANS, size, "+", 1, &h, &d);
    return (h - d) / 2;
}

static float x_height(const Ctx *c, float size) {
    if (!c->desc->tm->ink) return 0.5f * size;
    float h, d;
    ink(c, FONT_ITALIC, size, "x", 1, &h, &d);
    return h;
}

static float rule_thickness(float size) {
    return fmaxf(0.06f * size, 1.0f);
}

/* ---- items -------------------------------------------------------------------- */

static Math_Item *add(Ctx *c, Math_Item_Kind kind) {
    Math_Layout *L = c->L;
    if (L->count == MATH_MAX_ITEMS) {
        L->overflow = true;
        return NULL;
    }
    Math_Item *it = &L->items[L->count++];
    *it = (Math_Item){.kind = (uint8_t)kind};
    return it;
}

static void shift_range(Ctx *c, int from, int to, float dx, float dy) {
    for (int i = from; i < to; i++) {
        Math_Item *it = &c->L->items[i];
        it->x += dx;
        it->x1 += dx;
        it->y += dy;
        it->y1 += dy;
    }
}

static void shift(Ctx *c, int from, float dx, float dy) {
    shift_range(c, from, c->L->count, dx, dy);
}

static void line(Ctx *c, float x0, float y0, float x1, float y1, float width) {
    Math_Item *it = add(c, MATH_LINE);
    if (!it) return;
    it->x = x0;
    it->y = y0;
    it->x1 = x1;
    it->y1 = y1;
    it->width = width;
}

static void rule(Ctx *c, float x0, float y0, float x1, float y1) {
    Math_Item *it = add(c, MATH_RULE);
    if (!it) return;
    it->x = x0;
    it->y = y0;
    it->x1 = x1;
    it->y1 = y1;
}

static Box glyphs(Ctx *c, Font_Id f, float size, const char *s, int len, Math_Tone tone) {
    Box b = {text_width(c, f, size, s, len), 0, 0};
    ink(c, f, size, s, len, &b.h, &b.d);
    Math_Item *it = add(c, MATH_GLYPHS);
    if (it) {
        it->font = (uint8_t)f;
        it->tone = (uint8_t)tone;
        it->size = size;
        it->ascent = ascent_of(c, f, size);
        it->s = s;
        it->len = len;
    }
    return b;
}

/* ---- spacing between atoms (The TeXbook, chapter 18) ---------------------------- */

/* 1 thin, 2 medium, 3 thick; negative: only in display and text style */
static const signed char spacing[8][8] = {
    /*          ORD  OP BIN REL OPEN CLOSE PUNCT INNER */
    /* ORD   */ {0, 1, -2, -3, 0, 0, 0, -1},
    /* OP    */ {1, 1, 0, -3, 0, 0, 0, -1},
    /* BIN   */ {-2, -2, 0, 0, -2, 0, 0, -2},
    /* REL   */ {-3, -3, 0, 0, -3, 0, 0, -3},
    /* OPEN  */ {0, 0, 0, 0, 0, 0, 0, 0},
    /* CLOSE */ {0, 1, -2, -3, 0, 0, 0, -1},
    /* PUNCT */ {-1, -1, 0, -1, -1, -1, -1, -1},
    /* INNER */ {-1, 1, -2, -3, -1, 0, -1, -1},
};

static float gap(int left, int right, int st, float size) {
    int g = spacing[left][right];
    if (g < 0) {
        if (st > ST_T) return 0;
        g = -g;
    }
    static const float mu[] = {0, 3, 4, 5};
    return mu[g] / 18.0f * size;
}

static int atom_class(const Tex *t, int i) {
    const Tex_Node *n = &t->nodes[i];
    if (n->kind == TEX_SCRIPTS) return n->a >= 0 ? atom_class(t, n->a) : TEX_ORD;
    if (n->kind == TEX_ROW) return TEX_ORD;
    return n->cls;
}

static int next_atom(const Tex *t, int i) {
    while (i >= 0 && t->nodes[i].kind == TEX_SPACE) i = t->nodes[i].next;
    return i;
}

/* ---- the boxes ------------------------------------------------------------------- */

static Box lay(Ctx *c, int i, int st);

static Box row(Ctx *c, int first, int st) {
    const Tex *t = c->t;
    float size = style_size(c, st), x = 0;
    Box b = {0, 0, 0};
    int prev = -1;
    for (int i = first; i >= 0; i = t->nodes[i].next) {
        const Tex_Node *n = &t->nodes[i];
        if (n->kind == TEX_SPACE) {
            x += n->em * size;
            continue;
        }
        int cls = atom_class(t, i);
        if (cls == TEX_BIN) { /* a binary operator with nothing to combine is ordinary: −x */
            int nx = next_atom(t, n->next);
            int ncls = nx >= 0 ? atom_class(t, nx) : -1;
            if (prev < 0 || prev == TEX_BIN || prev == TEX_OP || prev == TEX_REL ||
                prev == TEX_OPEN || prev == TEX_PUNCT || ncls < 0 || ncls == TEX_REL ||
                ncls == TEX_CLOSE || ncls == TEX_PUNCT)
                cls = TEX_ORD;
        }
        if (prev >= 0) x += gap(prev, cls, st, size);
        int from = c->L->count;
        Box cb = lay(c, i, st);
        shift(c, from, x, 0);
        x += cb.w;
        b.h = fmaxf(b.h, cb.h);
        b.d = fmaxf(b.d, cb.d);
        prev = cls;
    }
    b.w = x;
    return b;
}

static Font_Id sym_font(const Tex_Node *n) {
    return (n->flags & TEX_BOLD) ? FONT_BOLD : (n->flags & TEX_ITALIC) ? FONT_ITALIC : FONT_SANS;
}

static Box sym(Ctx *c, const Tex_Node *n, int st) {
    float size = style_size(c, st);
    if (!(n->flags & TEX_LARGE)) return glyphs(c, sym_font(n), size, n->s, n->len, MATH_TONE_TEXT);
    /* a large operator, centred on the axis */
    size *= st == ST_D ? 1.45f : st == ST_T ? 1.12f : 1.0f;
    int from = c->L->count;
    Box b = glyphs(c, FONT_SANS, size, n->s, n->len, MATH_TONE_TEXT);
    float dy = axis(c, style_size(c, st)) - (b.h - b.d) / 2;
    shift(c, from, 0, dy);
    b.h += dy;
    b.d -= dy;
    return b;
}

static Box value(Ctx *c, const Tex_Node *n, int st) {
    Math_Layout *L = c->L;
    char buf[64] = "?";
    Tex_Value v;
    if (!tex_value_name(n->s, (size_t)n->len, &v) || !c->desc->value ||
        !c->desc->value(c->desc->value_ctx, &v, buf, sizeof buf))
        snprintf(buf, sizeof buf, "?");
    int len = (int)strlen(buf);
    if (L->values_len + len > MATH_VALUE_BYTES) {
        L->overflow = true;
        return (Box){0, 0, 0};
    }
    char *s = L->values + L->values_len;
    memcpy(s, buf, (size_t)len);
    L->values_len += len;
    return glyphs(c, FONT_SANS, style_size(c, st), s, len, MATH_TONE_VALUE);
}

static bool is_char(const Tex *t, int i) {
    if (i < 0) return false;
    const Tex_Node *n = &t->nodes[i];
    return (n->kind == TEX_SYM && !(n->flags & TEX_LARGE)) || n->kind == TEX_VAL ||
           n->kind == TEX_WORD;
}

static Box scripts(Ctx *c, const Tex_Node *n, int st) {
    const Tex *t = c->t;
    float size = style_size(c, st);
    int ss = script_style(st);
    float ssize = style_size(c, ss);
    int from_base = c->L->count;
    Box nb = n->a >= 0 ? lay(c, n->a, st) : (Box){0, 0, 0};
    /* a prime is a superscript already: the font draws it high, at full size */
    const Tex_Node *cn = n->c >= 0 ? &t->nodes[n->c] : NULL;
    bool prime = cn && cn->kind == TEX_SYM && cn->len == 3 && !memcmp(cn->s, "′", 3);
    int from_sup = c->L->count;
    Box sup = n->c >= 0 ? lay(c, n->c, prime ? st : ss) : (Box){0, 0, 0};
    int from_sub = c->L->count;
    Box sub = n->b >= 0 ? lay(c, n->b, ss) : (Box){0, 0, 0};
    int end = c->L->count;
    bool limits = n->a >= 0 && (t->nodes[n->a].flags & TEX_LIMITS) && st == ST_D;
    if (limits) {
        /* \sum in display: limits centred above and below */
        float w = fmaxf(nb.w, fmaxf(sup.w, sub.w));
        Box b = {w, nb.h, nb.d};
        shift_range(c, from_base, from_sup, (w - nb.w) / 2, 0);
        if (n->c >= 0) {
            float y = nb.h + 0.15f * size + sup.d;
            shift_range(c, from_sup, from_sub, (w - sup.w) / 2, y);
            b.h = y + sup.h;
        }
        if (n->b >= 0) {
            float y = nb.d + 0.12f * size + sub.h;
            shift_range(c, from_sub, end, (w - sub.w) / 2, -y);
            b.d = y + sub.d;
        }
        return b;
    }
    float xh = x_height(c, size), th = rule_thickness(size);
    bool ch = is_char(t, n->a);
    float kern = ch && (t->nodes[n->a].flags & TEX_ITALIC) ? 0.07f * size : 0;
    float u = ch ? (st == ST_D ? 0.42f : 0.38f) * size : nb.h - 0.3f * ssize;
    float v = ch ? 0.18f * size : nb.d + 0.08f * ssize;
    if (prime)
        u = 0;
    else if (n->c >= 0)
        u = fmaxf(u, fmaxf(sup.d + xh / 4, 0.3f * size));
    if (n->b >= 0 && (n->c < 0 || prime)) v = fmaxf(v, fmaxf(sub.h - 0.8f * xh, 0.15f * size));
    if (n->b >= 0 && n->c >= 0 && !prime) {
        v = fmaxf(v, 0.22f * size);
        float clear = (u - sup.d) - (sub.h - v);
        if (clear < 4 * th) v += 4 * th - clear;
        float psi = 0.8f * xh - (u - sup.d);
        if (psi > 0) {
            u += psi;
            v -= psi;
        }
    }
    shift_range(c, from_sup, from_sub, nb.w + kern, u);
    shift_range(c, from_sub, end, nb.w, -v);
    Box b = {nb.w + fmaxf(n->c >= 0 ? sup.w + kern : 0, n->b >= 0 ? sub.w : 0) + 0.05f * ssize,
             nb.h, nb.d};
    if (n->c >= 0) b.h = fmaxf(b.h, u + sup.h);
    if (n->b >= 0) b.d = fmaxf(b.d, v + sub.d);
    return b;
}

static Box frac(Ctx *c, const Tex_Node *n, int st) {
    int fst = n->flags == 1 ? ST_D : n->flags == 2 ? ST_T : st; /* \dfrac, \tfrac */
    int ns = frac_style(fst);
    float size = style_size(c, fst), th = rule_thickness(size), a = axis(c, size);
    int from_num = c->L->count;
    Box nb = lay(c, n->a, ns);
    int from_den = c->L->count;
    Box db = lay(c, n->b, ns);
    int end = c->L->count;
    /* TeX's rule 15d: shifts of at least num1/num2 and denom1/denom2, and a
     * clearance of 3θ (display) or θ (text) between the parts and the rule */
    float clear = fst == ST_D ? 3 * th : 1.5f * th;
    float u = fmaxf(fst == ST_D ? 0.68f * size : 0.40f * size, a + th / 2 + clear + nb.d);
    float v = fmaxf(fst == ST_D ? 0.69f * size : 0.35f * size, db.h + clear + th / 2 - a);
    float pad = 0.12f * size, w = fmaxf(nb.w, db.w) + 2 * pad;
    shift_range(c, from_num, from_den, (w - nb.w) / 2, u);
    shift_range(c, from_den, end, (w - db.w) / 2, -v);
    rule(c, pad / 2, a - th / 2, w - pad / 2, a + th / 2);
    return (Box){w, u + nb.h, v + db.d};
}

static Box root(Ctx *c, const Tex_Node *n, int st) {
    float size = style_size(c, st), th = rule_thickness(size), xh = x_height(c, size);
    /* \sqrt[3]{x}: the index in scriptscript style, laid out first */
    int ifrom = c->L->count;
    Box ib = n->b >= 0 ? lay(c, n->b, ST_SS) : (Box){0, 0, 0};
    int from = c->L->count;
    Box r = lay(c, n->a, st);
    /* TeX's rule 11: a clearance φ between the radicand and the bar */
    float phi = st == ST_D ? th + xh / 4 : 1.25f * th;
    float bar = fmaxf(r.h, xh) + phi; /* the bar's lower edge */
    float bottom = -(r.d + 0.08f * size);
    float hgt = bar + th - bottom, low = fminf(hgt, 1.1f * size);
    float sw = fminf(0.5f * size + 0.06f * hgt, 1.1f * size); /* the sign's width */
    float x0 = 0.04f * size, rx = x0 + sw + 0.08f * size;
    shift(c, from, rx, 0);
    /* the sign: a short tick, a heavy down-stroke, a long up-stroke to the bar */
    line(c, x0, bottom + 0.48f * low, x0 + 0.2f * sw, bottom + 0.56f * low, th);
    line(c, x0 + 0.2f * sw, bottom + 0.56f * low, x0 + 0.5f * sw, bottom, 1.8f * th);
    line(c, x0 + 0.5f * sw, bottom, x0 + sw, bar + th / 2, th);
    rule(c, x0 + sw - th / 4, bar, rx + r.w + 0.06f * size, bar + th);
    Box b = {rx + r.w + 0.1f * size, bar + th + 0.08f * size, -bottom};
    if (n->b < 0) return b;
    /* as TeX sets it: raised to 60 % of the sign's height, ending over the
     * tick; the sign and radicand move right when the index is wide */
    float right = x0 + 0.45f * sw, lift = bottom + 0.6f * hgt + ib.d;
    float ix = right - ib.w, dx = ix < 0 ? -ix : 0;
    shift_range(c, ifrom, from, ix + dx, lift);
    shift(c, from, dx, 0);
    b.w += dx;
    b.h = fmaxf(b.h, lift + ib.h);
    return b;
}

/* A delimiter around content h high and d deep: the font's glyph while it is
 * tall enough, else drawn to size, centred on the axis, as TeX builds its
 * extensible delimiters from pieces. */
static Box delimiter(Ctx *c, const char *s, int len, float h, float d, int st) {
    float size = style_size(c, st), a = axis(c, size);
    if (len == 0) return (Box){0.12f * size, 0, 0}; /* \left. */
    float gh, gd;
    ink(c, FONT_SANS, size, s, len, &gh, &gd);
    float need = 2 * fmaxf(h - a, d + a);
    if (need <= (gh + gd) * 1.08f) return glyphs(c, FONT_SANS, size, s, len, MATH_TONE_TEXT);
    float top = a + need / 2 + 0.05f * size, bot = a - need / 2 - 0.05f * size, H = top - bot;
    float lw = fmaxf(0.075f * size, 1.0f), pad = 0.1f * size;
    char ch = len == 1 ? s[0] : 0;
    bool angle = len == 3 && (!memcmp(s, "⟨", 3) || !memcmp(s, "⟩", 3));
    if (ch == '(' || ch == ')') {
        float bw = fminf(0.2f * size + 0.04f * H, 0.45f * size);
        float px = 0, py = 0;
        for (int k = 0; k <= 16; k++) {
            float u = (float)k / 8 - 1;                          /* -1 … 1 */
            float x = ch == '(' ? bw * u * u : bw * (1 - u * u); /* a parabola through the ends */
            float y = a + u * H / 2;
            if (k) line(c, pad + px, py, pad + x, y, lw);
            px = x;
            py = y;
        }
        return (Box){bw + 2 * pad, top, -bot};
    }
    if (ch == '[' || ch == ']') {
        float bw = 0.28f * size, xs = ch == '[' ? pad : pad + bw, xe = ch == '[' ? pad + bw : pad;
        line(c, xe, top, xs, top, lw);
        line(c, xs, top, xs, bot, lw);
        line(c, xs, bot, xe, bot, lw);
        return (Box){bw + 2 * pad, top, -bot};
    }
    if (ch == '|' || (len == 3 && !memcmp(s, "‖", 3))) {
        int lines = ch == '|' ? 1 : 2;
        for (int k = 0; k < lines; k++)
            line(c, pad + k * 0.2f * size, top, pad + k * 0.2f * size, bot, lw);
        return (Box){2 * pad + (lines - 1) * 0.2f * size, top, -bot};
    }
    if (angle) {
        float bw = fminf(fmaxf(0.12f * H, 0.25f * size), 0.5f * size);
        bool open = !memcmp(s, "⟨", 3);
        float xt = open ? pad + bw : pad, xm = open ? pad : pad + bw;
        line(c, xt, top, xm, a, lw);
        line(c, xm, a, xt, bot, lw);
        return (Box){bw + 2 * pad, top, -bot};
    }
    /* anything else: the glyph, scaled to the height */
    float big = size * need / fmaxf(gh + gd, 1e-3f);
    int from = c->L->count;
    Box b = glyphs(c, FONT_SANS, big, s, len, MATH_TONE_TEXT);
    float dy = a - (b.h - b.d) / 2;
    shift(c, from, 0, dy);
    b.h += dy;
    b.d -= dy;
    return b;
}

static Box delimited(Ctx *c, const Tex_Node *n, int st) {
    int from = c->L->count;
    Box body = lay(c, n->a, st);
    int mid = c->L->count;
    Box lb = delimiter(c, n->s, n->len, body.h, body.d, st);
    int end = c->L->count;
    shift_range(c, from, mid, lb.w, 0);
    Box rb = delimiter(c, n->s2, n->len2, body.h, body.d, st);
    shift_range(c, end, c->L->count, lb.w + body.w, 0);
    return (Box){lb.w + body.w + rb.w, fmaxf(body.h, fmaxf(lb.h, rb.h)),
                 fmaxf(body.d, fmaxf(lb.d, rb.d))};
}

static Box matrix(Ctx *c, const Tex_Node *n, int st) {
    const Tex *t = c->t;
    bool aligned = n->flags & TEX_MATRIX_ALIGNED, cases = n->flags & TEX_MATRIX_CASES;
    int cst = aligned ? st : st <= ST_T ? ST_T : st; /* aligned keeps display style */
    float size = style_size(c, cst), a = axis(c, size);
    int rows = n->rows, cols = n->cols;
    if (rows < 1 || cols < 1 || rows > TEX_MAX_MATRIX || cols > TEX_MAX_MATRIX)
        return (Box){0, 0, 0};
    float colw[TEX_MAX_MATRIX] = {0}, rowh[TEX_MAX_MATRIX], rowd[TEX_MAX_MATRIX];
    for (int r = 0; r < rows; r++) {
        rowh[r] = 0.7f * size; /* a strut, so rows of short entries stay even */
        rowd[r] = 0.3f * size;
    }
    int from[TEX_MAX_MATRIX * TEX_MAX_MATRIX], to[TEX_MAX_MATRIX * TEX_MAX_MATRIX];
    Box box[TEX_MAX_MATRIX * TEX_MAX_MATRIX];
    int where[TEX_MAX_MATRIX * TEX_MAX_MATRIX], cells = 0;
    for (int i = n->a; i >= 0 && cells < TEX_MAX_MATRIX * TEX_MAX_MATRIX; i = t->nodes[i].next) {
        int r = t->nodes[i].rows, col = t->nodes[i].cols;
        if (r >= rows || col >= cols) continue;
        from[cells] = c->L->count;
        box[cells] = lay(c, i, cst);
        to[cells] = c->L->count;
        where[cells] = r * TEX_MAX_MATRIX + col;
        colw[col] = fmaxf(colw[col], box[cells].w);
        rowh[r] = fmaxf(rowh[r], box[cells].h);
        rowd[r] = fmaxf(rowd[r], box[cells].d);
        cells++;
    }
    /* aligned: pairs of columns meet at the & (right, then left), 2 em between
     * pairs; cases: left-aligned, 1 em apart; a matrix: centred, 0.9 em */
    float colgap = 0.9f * size, rowgap = (aligned ? 0.5f : 0.3f) * size;
    float colx[TEX_MAX_MATRIX], base[TEX_MAX_MATRIX], x = 0.1f * size, y = 0;
    for (int col = 0; col < cols; col++) {
        colx[col] = x;
        float g = aligned ? (col % 2 == 0 ? 0 : 2 * size) : cases ? size : colgap;
        x += colw[col] + (col + 1 < cols ? g : 0);
    }
    for (int r = 0; r < rows; r++) { /* baselines, downward from the first */
        if (r) y -= rowd[r - 1] + rowgap + rowh[r];
        base[r] = y;
    }
    float top = rowh[0], bottom = -base[rows - 1] + rowd[rows - 1];
    float lift = a - (top - bottom) / 2; /* centre the block on the axis */
    for (int k = 0; k < cells; k++) {
        int r = where[k] / TEX_MAX_MATRIX, col = where[k] % TEX_MAX_MATRIX;
        float slack = colw[col] - box[k].w;
        float dx = aligned ? (col % 2 == 0 ? slack : 0) : cases ? 0 : slack / 2;
        shift_range(c, from[k], to[k], colx[col] + dx, base[r] + lift);
    }
    return (Box){x + 0.1f * size, top + lift, bottom - lift};
}

static Box lay(Ctx *c, int i, int st) {
    if (i < 0) return (Box){0, 0, 0};
    const Tex_Node *n = &c->t->nodes[i];
    float size = style_size(c, st);
    switch ((Tex_Kind)n->kind) {
    case TEX_ROW:
        return row(c, n->a, st);
    case TEX_SYM:
        return sym(c, n, st);
    case TEX_WORD:
        return glyphs(c, FONT_SANS, size, n->s, n->len, MATH_TONE_TEXT);
    case TEX_UNKNOWN:
        return glyphs(c, FONT_SANS, size, n->s, n->len, MATH_TONE_ERROR);
    case TEX_VAL:
        return value(c, n, st);
    case TEX_SCRIPTS:
        return scripts(c, n, st);
    case TEX_FRAC:
        return frac(c, n, st);
    case TEX_SQRT:
        return root(c, n, st);
    case TEX_DELIM:
        return delimited(c, n, st);
    case TEX_MATRIX:
        return matrix(c, n, st);
    case TEX_SPACE:
        return (Box){n->em * size, 0, 0};
    }
    return (Box){0, 0, 0};
}

void math_layout(Math_Layout *L, const Tex *t, const Math_Desc *desc) {
    L->count = 0;
    L->overflow = false;
    L->values_len = 0;
    L->w = L->h = L->d = 0;
    L->rule = rule_thickness(desc->size);
    if (t->root < 0) return;
    Ctx c = {.L = L, .desc = desc, .t = t};
    Box b = lay(&c, t->root, desc->display ? ST_D : ST_T);
    L->w = b.w;
    L->h = b.h;
    L->d = b.d;
}

void math_draw(Draw_List *dl, const Math_Layout *L, float x, float baseline, const Math_Colors *c) {
    for (int i = 0; i < L->count; i++) {
        const Math_Item *it = &L->items[i];
        switch ((Math_Item_Kind)it->kind) {
        case MATH_GLYPHS: {
            Color col = it->tone == MATH_TONE_VALUE   ? c->value
                        : it->tone == MATH_TONE_ERROR ? c->error
                                                      : c->text;
            draw_textn(dl, (Font_Id)it->font, it->size, x + it->x, baseline - it->y - it->ascent,
                       ALIGN_LEFT, col, it->s, it->len);
            break;
        }
        case MATH_LINE:
            draw_line(dl, x + it->x, baseline - it->y, x + it->x1, baseline - it->y1, it->width,
                      c->text);
            break;
        case MATH_RULE:
            draw_rect(dl, (Rect){x + it->x, baseline - it->y1, it->x1 - it->x, it->y1 - it->y},
                      c->text);
            break;
        }
    }
}
