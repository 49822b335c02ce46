/* TeX math to a tree; see tex.h. */
#include "tex.h"

#include "../core/text.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

typedef struct Parser {
    Tex *t;
    const char *s;
    size_t n, k;
    int depth;
    char *err;
    size_t errsz;
    bool failed;
} Parser;

static bool fail(Parser *p, const char *msg) {
    if (!p->failed) snprintf(p->err, p->errsz, "%s", msg);
    p->failed = true;
    return false;
}

static int node(Parser *p, Tex_Kind kind, Tex_Class cls) {
    if (p->failed) return -1;
    if (p->t->count == TEX_MAX_NODES) {
        char msg[80];
        snprintf(msg, sizeof msg, "formula has more than %d pieces", TEX_MAX_NODES);
        fail(p, msg);
        return -1;
    }
    int i = p->t->count++;
    p->t->nodes[i] = (Tex_Node){.kind = (uint8_t)kind,
                                .cls = (uint8_t)cls,
                                .next = -1,
                                .a = -1,
                                .b = -1,
                                .c = -1,
                                .s = "",
                                .s2 = ""};
    return i;
}

static int sym(Parser *p, Tex_Kind kind, Tex_Class cls, int flags, const char *s, int len) {
    int i = node(p, kind, cls);
    if (i < 0) return -1;
    p->t->nodes[i].flags = (uint8_t)flags;
    p->t->nodes[i].s = s;
    p->t->nodes[i].len = len;
    return i;
}

/* ---- the command table ---------------------------------------------------- */

typedef enum Cmd_Kind { CMD_SYM, CMD_WORD, CMD_SPACE } Cmd_Kind;

static const struct {
    const char *name, *text;
    uint8_t kind, cls, flags;
    float em;
} commands[] = {
    /* Greek: lower case is italic, upper case upright, as in TeX */
    {"alpha", "α", CMD_SYM, TEX_ORD, TEX_ITALIC, 0},
    {"beta", "β", CMD_SYM, TEX_ORD, TEX_ITALIC, 0},
    {"gamma", "γ", CMD_SYM, TEX_ORD, TEX_ITALIC, 0},
    {"delta", "δ", CMD_SYM, TEX_ORD, TEX_ITALIC, 0},
    {"epsilon", "ϵ", CMD_SYM, TEX_ORD, TEX_ITALIC, 0},
    {"varepsilon", "ε", CMD_SYM, TEX_ORD, TEX_ITALIC, 0},
    {"zeta", "ζ", CMD_SYM, TEX_ORD, TEX_ITALIC, 0},
    {"eta", "η", CMD_SYM, TEX_ORD, TEX_ITALIC, 0},
    {"theta", "θ", CMD_SYM, TEX_ORD, TEX_ITALIC, 0},
    {"iota", "ι", CMD_SYM, TEX_ORD, TEX_ITALIC, 0},
    {"kappa", "κ", CMD_SYM, TEX_ORD, TEX_ITALIC, 0},
    {"lambda", "λ", CMD_SYM, TEX_ORD, TEX_ITALIC, 0},
    {"mu", "μ", CMD_SYM, TEX_ORD, TEX_ITALIC, 0},
    {"nu", "ν", CMD_SYM, TEX_ORD, TEX_ITALIC, 0},
    {"xi", "ξ", CMD_SYM, TEX_ORD, TEX_ITALIC, 0},
    {"pi", "π", CMD_SYM, TEX_ORD, TEX_ITALIC, 0},
    {"rho", "ρ", CMD_SYM, TEX_ORD, TEX_ITALIC, 0},
    {"sigma", "σ", CMD_SYM, TEX_ORD, TEX_ITALIC, 0},
    {"tau", "τ", CMD_SYM, TEX_ORD, TEX_ITALIC, 0},
    {"phi", "ϕ", CMD_SYM, TEX_ORD, TEX_ITALIC, 0},
    {"varphi", "φ", CMD_SYM, TEX_ORD, TEX_ITALIC, 0},
    {"chi", "χ", CMD_SYM, TEX_ORD, TEX_ITALIC, 0},
    {"psi", "ψ", CMD_SYM, TEX_ORD, TEX_ITALIC, 0},
    {"omega", "ω", CMD_SYM, TEX_ORD, TEX_ITALIC, 0},
    {"Gamma", "Γ", CMD_SYM, TEX_ORD, 0, 0},
    {"Delta", "Δ", CMD_SYM, TEX_ORD, 0, 0},
    {"Theta", "Θ", CMD_SYM, TEX_ORD, 0, 0},
    {"Lambda", "Λ", CMD_SYM, TEX_ORD, 0, 0},
    {"Xi", "Ξ", CMD_SYM, TEX_ORD, 0, 0},
    {"Pi", "Π", CMD_SYM, TEX_ORD, 0, 0},
    {"Sigma", "Σ", CMD_SYM, TEX_ORD, 0, 0},
    {"Phi", "Φ", CMD_SYM, TEX_ORD, 0, 0},
    {"Psi", "Ψ", CMD_SYM, TEX_ORD, 0, 0},
    {"Omega", "Ω", CMD_SYM, TEX_ORD, 0, 0},
    {"ell", "ℓ", CMD_SYM, TEX_ORD, 0, 0},
    /* large operators and named functions */
    {"sum", "∑", CMD_SYM, TEX_OP, TEX_LIMITS | TEX_LARGE, 0},
    {"prod", "∏", CMD_SYM, TEX_OP, TEX_LIMITS | TEX_LARGE, 0},
    {"max", "max", CMD_WORD, TEX_OP, TEX_LIMITS, 0},
    {"min", "min", CMD_WORD, TEX_OP, TEX_LIMITS, 0},
    {"argmax", "argmax", CMD_WORD, TEX_OP, TEX_LIMITS, 0},
    {"argmin", "argmin", CMD_WORD, TEX_OP, TEX_LIMITS, 0},
    {"lim", "lim", CMD_WORD, TEX_OP, TEX_LIMITS, 0},
    {"exp", "exp", CMD_WORD, TEX_OP, 0, 0},
    {"log", "log", CMD_WORD, TEX_OP, 0, 0},
    {"ln", "ln", CMD_WORD, TEX_OP, 0, 0},
    {"sin", "sin", CMD_WORD, TEX_OP, 0, 0},
    {"cos", "cos", CMD_WORD, TEX_OP, 0, 0},
    {"det", "det", CMD_WORD, TEX_OP, 0, 0},
    {"Var", "Var", CMD_WORD, TEX_OP, 0, 0},
    {"Cov", "Cov", CMD_WORD, TEX_OP, 0, 0},
    /* relations */
    {"approx", "≈", CMD_SYM, TEX_REL, 0, 0},
    {"le", "≤", CMD_SYM, TEX_REL, 0, 0},
    {"leq", "≤", CMD_SYM, TEX_REL, 0, 0},
    {"ge", "≥", CMD_SYM, TEX_REL, 0, 0},
    {"geq", "≥", CMD_SYM, TEX_REL, 0, 0},
    {"ne", "≠", CMD_SYM, TEX_REL, 0, 0},
    {"neq", "≠", CMD_SYM, TEX_REL, 0, 0},
    {"in", "∈", CMD_SYM, TEX_REL, 0, 0},
    {"notin", "∉", CMD_SYM, TEX_REL, 0, 0},
    {"to", "→", CMD_SYM, TEX_REL, 0, 0},
    {"rightarrow", "→", CMD_SYM, TEX_REL, 0, 0},
    {"leftarrow", "←", CMD_SYM, TEX_REL, 0, 0},
    {"mapsto", "↦", CMD_SYM, TEX_REL, 0, 0},
    {"Rightarrow", "⇒", CMD_SYM, TEX_REL, 0, 0},
    {"iff", "⟺", CMD_SYM, TEX_REL, 0, 0},
    {"sim", "∼", CMD_SYM, TEX_REL, 0, 0},
    {"propto", "∝", CMD_SYM, TEX_REL, 0, 0},
    {"equiv", "≡", CMD_SYM, TEX_REL, 0, 0},
    {"subset", "⊂", CMD_SYM, TEX_REL, 0, 0},
    {"mid", "∣", CMD_SYM, TEX_REL, 0, 0},
    /* binary operators */
    {"times", "×", CMD_SYM, TEX_BIN, 0, 0},
    {"cdot", "⋅", CMD_SYM, TEX_BIN, 0, 0},
    {"pm", "±", CMD_SYM, TEX_BIN, 0, 0},
    {"circ", "∘", CMD_SYM, TEX_BIN, 0, 0},
    {"odot", "⊙", CMD_SYM, TEX_BIN, 0, 0},
    {"otimes", "⊗", CMD_SYM, TEX_BIN, 0, 0},
    {"oplus", "⊕", CMD_SYM, TEX_BIN, 0, 0},
    /* ordinary symbols */
    {"infty", "∞", CMD_SYM, TEX_ORD, 0, 0},
    {"partial", "∂", CMD_SYM, TEX_ORD, 0, 0},
    {"nabla", "∇", CMD_SYM, TEX_ORD, 0, 0},
    {"top", "⊤", CMD_SYM, TEX_ORD, 0, 0},
    {"prime", "′", CMD_SYM, TEX_ORD, 0, 0},
    {"ldots", "…", CMD_SYM, TEX_INNER, 0, 0},
    {"dots", "…", CMD_SYM, TEX_INNER, 0, 0},
    {"cdots", "⋯", CMD_SYM, TEX_INNER, 0, 0},
    {"forall", "∀", CMD_SYM, TEX_ORD, 0, 0},
    {"exists", "∃", CMD_SYM, TEX_ORD, 0, 0},
    {"emptyset", "∅", CMD_SYM, TEX_ORD, 0, 0},
    {"neg", "¬", CMD_SYM, TEX_ORD, 0, 0},
    {"|", "‖", CMD_SYM, TEX_ORD, 0, 0},
    {"%", "%", CMD_SYM, TEX_ORD, 0, 0},
    {"#", "#", CMD_SYM, TEX_ORD, 0, 0},
    {"&", "&", CMD_SYM, TEX_ORD, 0, 0},
    {"_", "_", CMD_SYM, TEX_ORD, 0, 0},
    /* delimiters */
    {"langle", "⟨", CMD_SYM, TEX_OPEN, 0, 0},
    {"rangle", "⟩", CMD_SYM, TEX_CLOSE, 0, 0},
    {"lbrace", "{", CMD_SYM, TEX_OPEN, 0, 0},
    {"rbrace", "}", CMD_SYM, TEX_CLOSE, 0, 0},
    {"{", "{", CMD_SYM, TEX_OPEN, 0, 0},
    {"}", "}", CMD_SYM, TEX_CLOSE, 0, 0},
    {"lvert", "|", CMD_SYM, TEX_OPEN, 0, 0},
    {"rvert", "|", CMD_SYM, TEX_CLOSE, 0, 0},
    {"lceil", "⌈", CMD_SYM, TEX_OPEN, 0, 0},
    {"rceil", "⌉", CMD_SYM, TEX_CLOSE, 0, 0},
    {"lfloor", "⌊", CMD_SYM, TEX_OPEN, 0, 0},
    {"rfloor", "⌋", CMD_SYM, TEX_CLOSE, 0, 0},
    /* spaces, in ems (18 mu = 1 em) */
    {",", "", CMD_SPACE, TEX_ORD, 0, 3.0f / 18},
    {":", "", CMD_SPACE, TEX_ORD, 0, 4.0f / 18},
    {">", "", CMD_SPACE, TEX_ORD, 0, 4.0f / 18},
    {";", "", CMD_SPACE, TEX_ORD, 0, 5.0f / 18},
    {"!", "", CMD_SPACE, TEX_ORD, 0, -3.0f / 18},
    {" ", "", CMD_SPACE, TEX_ORD, 0, 6.0f / 18},
    {"quad", "", CMD_SPACE, TEX_ORD, 0, 1.0f},
    {"qquad", "", CMD_SPACE, TEX_ORD, 0, 2.0f},
};

/* \mathbb letters that Unicode has outside the Mathematical Alphanumeric block */
static const char *blackboard(char c) {
    switch (c) {
    case 'R':
        return "ℝ";
    case 'N':
        return "ℕ";
    case 'Z':
        return "ℤ";
    case 'Q':
        return "ℚ";
    case 'C':
        return "ℂ";
    case 'P':
        return "ℙ";
    case 'H':
        return "ℍ";
    case 'E':
        return "𝔼";
    default:
        return NULL;
    }
}

/* ---- characters ------------------------------------------------------------- */

static size_t utf8_len(const char *s, size_t n) {
    size_t k = 1;
    while (k < n && ((unsigned char)s[k] & 0xC0) == 0x80) k++;
    return k;
}

/* A non-ASCII character typed straight into a formula: its class. */
static Tex_Class unicode_class(const char *s, size_t len, int *flags) {
    static const char *const rel[] = {"≈", "≤", "≥", "≠", "∈", "→", "∼", "≡", "∝", "⇒"};
    static const char *const bin[] = {"×", "·", "⋅", "−", "±", "∘", "⊙"};
    for (size_t i = 0; i < sizeof rel / sizeof *rel; i++)
        if (strlen(rel[i]) == len && !memcmp(rel[i], s, len)) return TEX_REL;
    for (size_t i = 0; i < sizeof bin / sizeof *bin; i++)
        if (strlen(bin[i]) == len && !memcmp(bin[i], s, len)) return TEX_BIN;
    /* Greek lower case, U+03B1 … U+03C9: italic like a Latin variable */
    unsigned char a = (unsigned char)s[0], b = len > 1 ? (unsigned char)s[1] : 0;
    if (len == 2 && ((a == 0xCE && b >= 0xB1) || (a == 0xCF && b <= 0x89))) *flags |= TEX_ITALIC;
    return TEX_ORD;
}

/* ---- the parser --------------------------------------------------------------- */

static int parse_row(Parser *p, int stop);
static int parse_group(Parser *p, int stop);
static int parse_atom(Parser *p);
static bool too_deep(Parser *p);

static void skip_spaces(Parser *p) {
    while (p->k < p->n && isspace((unsigned char)p->s[p->k])) p->k++;
}

/* The command name at p->k (just past the backslash): letters, or one other character. */
static size_t command_len(const Parser *p) {
    size_t j = p->k;
    while (j < p->n && isalpha((unsigned char)p->s[j])) j++;
    if (j == p->k && j < p->n) j += utf8_len(p->s + j, p->n - j);
    return j - p->k;
}

static bool is_command(const Parser *p, const char *name) {
    size_t len = strlen(name);
    return p->k < p->n && p->s[p->k] == '\\' && p->k + 1 + len <= p->n &&
           !memcmp(p->s + p->k + 1, name, len) &&
           (p->k + 1 + len == p->n || !isalpha((unsigned char)p->s[p->k + 1 + len]));
}

/* A command's argument: {…}, one command or one character. A missing one
 * (the formula ends, or a } & \\ or ] comes first) is an error naming `what`:
 * TeX would take whatever follows, and a lesson means something else. */
static int parse_arg(Parser *p, const char *what) {
    skip_spaces(p);
    char c = p->k < p->n ? p->s[p->k] : 0;
    if (!c || c == '}' || c == '&' || c == ']' || c == '^' || c == '_' ||
        (c == '\\' && p->k + 1 < p->n && p->s[p->k + 1] == '\\') || is_command(p, "end") ||
        is_command(p, "right")) {
        char msg[120];
        snprintf(msg, sizeof msg, "%s is missing", what);
        return fail(p, msg), -1;
    }
    if (c == '{') {
        p->k++;
        int r = parse_row(p, '}');
        if (p->failed) return -1;
        if (p->k >= p->n) return fail(p, "a { is never closed"), -1;
        p->k++;
        return r;
    }
    return parse_atom(p);
}

/* The raw text of a {…} argument, for \text and \operatorname. */
static bool raw_arg(Parser *p, const char **s, int *len) {
    skip_spaces(p);
    if (p->k >= p->n || p->s[p->k] != '{') {
        size_t l = p->k < p->n ? utf8_len(p->s + p->k, p->n - p->k) : 0;
        *s = p->s + p->k;
        *len = (int)l;
        p->k += l;
        return true;
    }
    size_t start = ++p->k;
    int depth = 1;
    while (p->k < p->n) {
        if (p->s[p->k] == '{') depth++;
        if (p->s[p->k] == '}' && --depth == 0) break;
        p->k++;
    }
    if (p->k >= p->n) return fail(p, "a { is never closed");
    *s = p->s + start;
    *len = (int)(p->k - start);
    p->k++;
    return true;
}

/* A delimiter after \left or \right: ( ) [ ] | . or a command such as \langle. */
static bool parse_delim(Parser *p, const char **s, int *len) {
    skip_spaces(p);
    if (p->k >= p->n) return fail(p, "\\left or \\right needs a delimiter");
    char c = p->s[p->k];
    if (c == '.') {
        *s = "";
        *len = 0;
        p->k++;
        return true;
    }
    if (strchr("()[]|/", c)) {
        *s = p->s + p->k;
        *len = 1;
        p->k++;
        return true;
    }
    if (c == '\\') {
        p->k++;
        size_t cl = command_len(p);
        for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
            if (strlen(commands[i].name) == cl && !memcmp(commands[i].name, p->s + p->k, cl) &&
                (commands[i].cls == TEX_OPEN || commands[i].cls == TEX_CLOSE ||
                 !strcmp(commands[i].name, "|"))) {
                *s = commands[i].text;
                *len = (int)strlen(commands[i].text);
                p->k += cl;
                return true;
            }
    }
    return fail(p, "\\left or \\right needs a delimiter such as ( [ | or \\langle");
}

static int parse_matrix(Parser *p, const char *env, size_t envlen) {
    int m = node(p, TEX_MATRIX, TEX_INNER);
    if (m < 0) return -1;
    bool aligned = envlen == 7 && !memcmp(env, "aligned", 7);
    bool cases = envlen == 5 && !memcmp(env, "cases", 5);
    p->t->nodes[m].flags = aligned ? TEX_MATRIX_ALIGNED : cases ? TEX_MATRIX_CASES : 0;
    int rows = 0, cols = 0, col = 0, prev = -1;
    for (;;) {
        int cell = parse_row(p, '&');
        if (p->failed) return -1;
        if (aligned && col % 2 == 1) {
            /* "&= b": an empty atom before the relation, as TeX's aligned
             * puts there, so it is spaced as a relation between two things */
            int empty = node(p, TEX_ROW, TEX_ORD);
            if (empty < 0) return -1;
            p->t->nodes[empty].next = p->t->nodes[cell].a;
            p->t->nodes[cell].a = (int16_t)empty;
        }
        if (col >= TEX_MAX_MATRIX || rows >= TEX_MAX_MATRIX) {
            char msg[80];
            snprintf(msg, sizeof msg, "a matrix has more than %d rows or columns", TEX_MAX_MATRIX);
            return fail(p, msg), -1;
        }
        p->t->nodes[cell].rows = (int16_t)rows;
        p->t->nodes[cell].cols = (int16_t)col;
        if (prev < 0)
            p->t->nodes[m].a = (int16_t)cell;
        else
            p->t->nodes[prev].next = (int16_t)cell;
        prev = cell;
        if (col + 1 > cols) cols = col + 1;
        if (p->k >= p->n) return fail(p, "\\begin{matrix} has no \\end"), -1;
        if (p->s[p->k] == '&') {
            p->k++;
            col++;
            continue;
        }
        if (p->s[p->k] == '\\' && p->k + 1 < p->n && p->s[p->k + 1] == '\\') {
            p->k += 2;
            rows++;
            col = 0;
            continue;
        }
        /* \end{…} */
        p->k += 4;
        const char *e;
        int el;
        if (!raw_arg(p, &e, &el)) return -1;
        if ((size_t)el != envlen || memcmp(e, env, envlen))
            return fail(p, "\\begin and \\end name different environments"), -1;
        break;
    }
    /* a trailing \\ leaves an empty last row: drop it */
    int last = prev;
    Tex_Node *lc = &p->t->nodes[last];
    if (lc->a < 0 && lc->cols == 0 && lc->rows > 0 && lc->rows == rows) {
        int q = p->t->nodes[m].a;
        while (q >= 0 && p->t->nodes[q].next != last) q = p->t->nodes[q].next;
        if (q >= 0) p->t->nodes[q].next = -1;
    } else {
        rows++;
    }
    p->t->nodes[m].rows = (int16_t)rows;
    p->t->nodes[m].cols = (int16_t)cols;
    static const struct {
        const char *env, *open, *close;
    } envs[] = {{"pmatrix", "(", ")"}, {"bmatrix", "[", "]"}, {"vmatrix", "|", "|"},
                {"matrix", "", ""},    {"aligned", "", ""},   {"cases", "{", ""}};
    for (size_t i = 0; i < sizeof envs / sizeof *envs; i++)
        if (strlen(envs[i].env) == envlen && !memcmp(envs[i].env, env, envlen)) {
            if (!envs[i].open[0]) return m;
            int d = node(p, TEX_DELIM, TEX_INNER);
            if (d < 0) return -1;
            p->t->nodes[d].a = (int16_t)m;
            p->t->nodes[d].s = envs[i].open;
            p->t->nodes[d].len = 1;
            p->t->nodes[d].s2 = envs[i].close;
            p->t->nodes[d].len2 = (int)strlen(envs[i].close);
            return d;
        }
    return m;
}

static int parse_command(Parser *p) {
    size_t start = p->k++; /* the backslash */
    size_t cl = command_len(p);
    const char *name = p->s + p->k;
    p->k += cl;
#define IS(lit) (cl == sizeof(lit) - 1 && !memcmp(name, lit, cl))
    if (IS("frac") || IS("dfrac") || IS("tfrac")) {
        int f = node(p, TEX_FRAC, TEX_INNER);
        if (f < 0) return -1;
        char num[40], den[40];
        snprintf(num, sizeof num, "\\%.*s's numerator", (int)cl, name);
        snprintf(den, sizeof den, "\\%.*s's denominator", (int)cl, name);
        int a = parse_arg(p, num), b = a < 0 ? -1 : parse_arg(p, den);
        if (b < 0) return -1;
        p->t->nodes[f].a = (int16_t)a;
        p->t->nodes[f].b = (int16_t)b;
        p->t->nodes[f].flags = IS("dfrac") ? 1 : IS("tfrac") ? 2 : 0;
        return f;
    }
    if (IS("sqrt")) {
        int r = node(p, TEX_SQRT, TEX_ORD);
        if (r < 0) return -1;
        /* \sqrt[3]{x}: the index, set small above the sign's tick */
        skip_spaces(p);
        int index = -1;
        if (p->k < p->n && p->s[p->k] == '[') {
            p->k++;
            index = parse_row(p, ']');
            if (index < 0) return -1;
            if (p->k >= p->n) return fail(p, "\\sqrt[ has no ]"), -1;
            p->k++;
        }
        int a = parse_arg(p, "\\sqrt's radicand");
        if (a < 0) return -1;
        p->t->nodes[r].a = (int16_t)a;
        p->t->nodes[r].b = (int16_t)index;
        return r;
    }
    if (IS("operatorname") || IS("text") || IS("mathrm") || IS("textrm") || IS("mbox")) {
        const char *s;
        int len;
        if (!raw_arg(p, &s, &len)) return -1;
        bool op = IS("operatorname");
        return sym(p, TEX_WORD, op ? TEX_OP : TEX_ORD, 0, s, len);
    }
    if (IS("mathbf") || IS("boldsymbol") || IS("mathit") || IS("mathbb")) {
        if (IS("mathbb")) {
            skip_spaces(p);
            if (p->k + 1 < p->n && p->s[p->k] == '{' && p->s[p->k + 1] == '}')
                return fail(p, "\\mathbb needs a letter, as in \\mathbb{R}"), -1;
            bool braced = p->k < p->n && p->s[p->k] == '{';
            size_t at = p->k + (braced ? 1 : 0);
            if (at < p->n && blackboard(p->s[at]) &&
                (!braced || (at + 1 < p->n && p->s[at + 1] == '}'))) {
                const char *bb = blackboard(p->s[at]);
                p->k = at + 1 + (braced ? 1 : 0);
                return sym(p, TEX_SYM, TEX_ORD, 0, bb, (int)strlen(bb));
            }
        }
        int flag = IS("mathit") ? TEX_ITALIC : TEX_BOLD;
        int first = p->t->count;
        char what[40];
        snprintf(what, sizeof what, "\\%.*s's argument", (int)cl, name);
        int a = parse_arg(p, what);
        if (a < 0) return -1;
        for (int i = first; i < p->t->count; i++) {
            Tex_Node *nd = &p->t->nodes[i];
            if (nd->kind == TEX_SYM) nd->flags = (uint8_t)((nd->flags & ~TEX_ITALIC) | flag);
        }
        return a;
    }
    if (IS("left")) {
        int d = node(p, TEX_DELIM, TEX_INNER);
        if (d < 0) return -1;
        const char *o, *c;
        int ol, clen;
        if (!parse_delim(p, &o, &ol)) return -1;
        int body = parse_row(p, 'R');
        if (p->failed) return -1;
        if (!is_command(p, "right")) return fail(p, "\\left has no \\right"), -1;
        p->k += 6;
        if (!parse_delim(p, &c, &clen)) return -1;
        Tex_Node *nd = &p->t->nodes[d];
        nd->a = (int16_t)body;
        nd->s = o;
        nd->len = ol;
        nd->s2 = c;
        nd->len2 = clen;
        return d;
    }
    if (IS("right")) return fail(p, "\\right without \\left"), -1;
    if (IS("begin")) {
        const char *env;
        int el;
        if (!raw_arg(p, &env, &el)) return -1;
        static const char *const known[] = {"pmatrix", "bmatrix", "vmatrix",
                                            "matrix",  "aligned", "cases"};
        for (size_t i = 0; i < sizeof known / sizeof *known; i++)
            if (strlen(known[i]) == (size_t)el && !memcmp(known[i], env, (size_t)el)) {
                return parse_matrix(p, env, (size_t)el);
            }
        char msg[120];
        snprintf(msg, sizeof msg,
                 "unknown TeX environment %.*s (known: pmatrix, bmatrix, "
                 "vmatrix, matrix, aligned, cases)",
                 el > 40 ? 40 : el, env);
        return fail(p, msg), -1;
    }
    if (IS("end")) return fail(p, "\\end without \\begin"), -1;
    if (IS("val")) {
        const char *s;
        int len;
        if (!raw_arg(p, &s, &len)) return -1;
        Tex_Value v;
        if (!tex_value_name(s, (size_t)len, &v)) {
            char msg[160];
            snprintf(msg, sizeof msg, "\\val{%.*s}: not a value (use a_{ij}, s_{ij}, d_k, n or d)",
                     len > 40 ? 40 : len, s);
            return fail(p, msg), -1;
        }
        return sym(p, TEX_VAL, TEX_ORD, 0, s, len);
    }
#undef IS
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
        if (strlen(commands[i].name) != cl || memcmp(commands[i].name, name, cl)) continue;
        if (commands[i].kind == CMD_SPACE) {
            int sp = node(p, TEX_SPACE, TEX_ORD);
            if (sp >= 0) p->t->nodes[sp].em = commands[i].em;
            return sp;
        }
        return sym(p, commands[i].kind == CMD_WORD ? TEX_WORD : TEX_SYM, commands[i].cls,
                   commands[i].flags, commands[i].text, (int)strlen(commands[i].text));
    }
    /* unknown: kept as written, and remembered */
    if (!p->t->unknown) {
        p->t->unknown = p->s + start;
        p->t->unknown_len = (int)(p->k - start);
    }
    return sym(p, TEX_UNKNOWN, TEX_ORD, 0, p->s + start, (int)(p->k - start));
}

static int atom_inner(Parser *p) {
    const char *s = p->s + p->k;
    char c = *s;
    if (c == '\\') return parse_command(p);
    if (c == '{') { /* a group: parse_atom counted its level */
        p->k++;
        int r = parse_group(p, '}');
        if (p->failed) return -1;
        if (p->k >= p->n) return fail(p, "a { is never closed"), -1;
        p->k++;
        return r;
    }
    if (isdigit((unsigned char)c) ||
        (c == '.' && p->k + 1 < p->n && isdigit((unsigned char)s[1]))) {
        size_t j = p->k;
        while (j < p->n &&
               (isdigit((unsigned char)p->s[j]) ||
                (p->s[j] == '.' && j + 1 < p->n && isdigit((unsigned char)p->s[j + 1]))))
            j++;
        int len = (int)(j - p->k);
        p->k = j;
        return sym(p, TEX_SYM, TEX_ORD, 0, s, len);
    }
    if (isalpha((unsigned char)c)) {
        p->k++;
        return sym(p, TEX_SYM, TEX_ORD, TEX_ITALIC, s, 1);
    }
    p->k++;
    switch (c) {
    case '+':
        return sym(p, TEX_SYM, TEX_BIN, 0, "+", 1);
    case '-':
        return sym(p, TEX_SYM, TEX_BIN, 0, "−", (int)strlen("−"));
    case '*':
        return sym(p, TEX_SYM, TEX_BIN, 0, "∗", (int)strlen("∗"));
    case '=':
    case '<':
    case '>':
    case ':':
        return sym(p, TEX_SYM, TEX_REL, 0, s, 1);
    case ',':
    case ';':
        return sym(p, TEX_SYM, TEX_PUNCT, 0, s, 1);
    case '(':
    case '[':
        return sym(p, TEX_SYM, TEX_OPEN, 0, s, 1);
    case ')':
    case ']':
    case '!':
    case '?':
        return sym(p, TEX_SYM, TEX_CLOSE, 0, s, 1);
    case '~': {
        int sp = node(p, TEX_SPACE, TEX_ORD);
        if (sp >= 0) p->t->nodes[sp].em = 6.0f / 18;
        return sp;
    }
    default:
        break;
    }
    if ((unsigned char)c >= 0x80) {
        p->k--;
        size_t len = utf8_len(s, p->n - p->k);
        p->k += len;
        int flags = 0;
        Tex_Class cls = unicode_class(s, len, &flags);
        return sym(p, TEX_SYM, cls, flags, s, (int)len);
    }
    return sym(p, TEX_SYM, TEX_ORD, 0, s, 1);
}

/* One atom; every way of nesting (groups, arguments of arguments) passes
 * here or through parse_row, so the depth limit bounds the recursion. */
static bool too_deep(Parser *p) {
    /* an atom counts itself: x inside 32 groups is at depth 33 */
    if (p->depth <= TEX_MAX_DEPTH + 1) return false;
    char msg[80];
    snprintf(msg, sizeof msg, "formula nested deeper than %d levels", TEX_MAX_DEPTH);
    fail(p, msg);
    return true;
}

static int parse_atom(Parser *p) {
    p->depth++;
    int a = too_deep(p) ? -1 : atom_inner(p);
    p->depth--;
    return a;
}

/* Attach a script to the last atom of a row, making it a TEX_SCRIPTS. */
static bool attach(Parser *p, int row, int *last, int *before, bool sup, int script) {
    Tex *t = p->t;
    int base = *last;
    if (base < 0 || t->nodes[base].kind != TEX_SCRIPTS) {
        int sc = node(p, TEX_SCRIPTS, base >= 0 ? (Tex_Class)t->nodes[base].cls : TEX_ORD);
        if (sc < 0) return false;
        t->nodes[sc].a = (int16_t)base;
        if (base >= 0) {
            t->nodes[sc].next = -1;
            t->nodes[base].next = -1;
            if (*before >= 0)
                t->nodes[*before].next = (int16_t)sc;
            else
                t->nodes[row].a = (int16_t)sc;
        } else { /* a script with nothing before it: an empty nucleus */
            t->nodes[row].a = (int16_t)sc;
            *before = -1;
        }
        *last = sc;
    }
    Tex_Node *sc = &t->nodes[*last];
    int16_t *slot = sup ? &sc->c : &sc->b;
    if (*slot >= 0) {
        /* x'^2: the prime and the superscript share one row */
        Tex_Node *old = &t->nodes[*slot];
        if (sup && old->kind == TEX_SYM && old->len == 3 && !memcmp(old->s, "′", 3)) {
            int r = node(p, TEX_ROW, TEX_ORD);
            if (r < 0) return false;
            t->nodes[*slot].next = (int16_t)script;
            t->nodes[r].a = *slot;
            *slot = (int16_t)r;
            return true;
        }
        return fail(p, sup ? "double superscript: use braces, as in {x^a}^b"
                           : "double subscript: use braces, as in {x_a}_b");
    }
    *slot = (int16_t)script;
    return true;
}

/* Atoms up to stop ('}', '&' for a matrix cell, 'R' for \right, ']' for a
 * root's index, 0 for the end), one level deeper than the caller. */
static int parse_row(Parser *p, int stop) {
    p->depth++;
    int r = too_deep(p) ? -1 : parse_group(p, stop);
    p->depth--;
    return r;
}

/* The same at the caller's level: a {…} atom (parse_atom counted it) and the
 * whole formula. A level is what the depth message counts: 32 nested groups
 * pass, 33 do not. */
static int parse_group(Parser *p, int stop) {
    int row = node(p, TEX_ROW, TEX_ORD);
    int last = -1, before = -1;
    while (!p->failed && p->k < p->n) {
        char c = p->s[p->k];
        if (isspace((unsigned char)c)) {
            p->k++;
            continue;
        }
        if (c == '}') {
            if (stop == '}') break;
            fail(p, "a } closes no {");
            break;
        }
        if (stop == '&' && (c == '&' || (c == '\\' && p->k + 1 < p->n && p->s[p->k + 1] == '\\') ||
                            is_command(p, "end")))
            break;
        if (stop == 'R' && is_command(p, "right")) break;
        if (stop == ']' && c == ']') break;
        if (c == '&' || (c == '\\' && p->k + 1 < p->n && p->s[p->k + 1] == '\\')) {
            fail(p, "& and \\\\ belong inside \\begin{pmatrix}, {aligned} or {cases} … \\end");
            break;
        }
        if (c == '^' || c == '_') {
            p->k++;
            int a = parse_arg(p, c == '^' ? "the superscript after ^" : "the subscript after _");
            if (a < 0 || !attach(p, row, &last, &before, c == '^', a)) break;
            continue;
        }
        if (c == '\'') {
            p->k++;
            int pr = sym(p, TEX_SYM, TEX_ORD, 0, "′", 3);
            if (pr < 0 || !attach(p, row, &last, &before, true, pr)) break;
            continue;
        }
        int a = parse_atom(p);
        if (a < 0) break;
        if (last >= 0)
            p->t->nodes[last].next = (int16_t)a;
        else
            p->t->nodes[row].a = (int16_t)a;
        before = last;
        last = a;
    }
    if (!p->failed && stop == ']' && p->k >= p->n) fail(p, "\\sqrt[ has no ]");
    if (!p->failed && stop == '}' && p->k >= p->n) fail(p, "a { is never closed");
    if (!p->failed && stop == 'R' && p->k >= p->n) fail(p, "\\left has no \\right");
    return p->failed ? -1 : row;
}

bool tex_parse(Tex *t, const char *s, size_t n, char *err, size_t errsz) {
    t->count = 0;
    t->root = -1;
    t->unknown = NULL;
    t->unknown_len = 0;
    Parser p = {.t = t, .s = s, .n = n, .err = err, .errsz = errsz};
    /* text is strict UTF-8 everywhere: no broken or overlong sequences, and
     * no control characters (a tab or a newline is only space) */
    size_t bad;
    bool utf8 = text_utf8_check(s, n, &bad);
    for (size_t k = 0; utf8 && k < n; k++)
        if (((unsigned char)s[k] < 0x20 && !strchr("\t\n\r", s[k])) || s[k] == 0x7f) {
            bad = k;
            utf8 = false;
        }
    if (!utf8) {
        snprintf(err, errsz, "byte %zu (0x%02X) is not valid UTF-8 text in a formula", bad + 1,
                 (unsigned char)s[bad]);
        return false;
    }
    int root = parse_group(&p, 0);
    if (p.failed) return false;
    t->root = root;
    return true;
}
