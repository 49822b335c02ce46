/* Positions inside JSON text; see jsonpos.h. The walkers assume the text
 * already parsed as JSON, and stop safely at the end of the string if not. */
#include "jsonpos.h"

#include "../core/i18n.h"

#include "../core/text.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char *skip_ws(const char *p) {
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
    return p;
}

static const char *skip_string(const char *p) {
    /* p at the opening quote */
    p++;
    while (*p && *p != '"') p += (*p == '\\' && p[1]) ? 2 : 1;
    return *p ? p + 1 : p;
}

static const char *skip_value(const char *p) {
    p = skip_ws(p);
    if (*p == '"') return skip_string(p);
    if (*p == '{' || *p == '[') {
        int depth = 0;
        while (*p) {
            if (*p == '"') {
                p = skip_string(p);
                continue;
            }
            if (*p == '{' || *p == '[') depth++;
            if (*p == '}' || *p == ']') {
                depth--;
                if (depth == 0) return p + 1;
            }
            p++;
        }
        return p;
    }
    while (*p && !strchr(",]} \t\r\n", *p)) p++;
    return p;
}

/* p at '[': the start of element idx, or p itself if there is none. */
static const char *array_element(const char *p, int idx) {
    if (*p != '[') return p;
    const char *q = skip_ws(p + 1);
    for (int k = 0; *q && *q != ']'; k++) {
        if (k == idx) return q;
        q = skip_ws(skip_value(q));
        if (*q == ',') q = skip_ws(q + 1);
    }
    return p;
}

static int hex4(const char *p) {
    int v = 0;
    for (int k = 0; k < 4; k++) {
        char c = p[k];
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    return v;
}

static size_t put_utf8(uint32_t cp, char *out) {
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Does the JSON string at q (its opening quote) decode to key? Escapes such
 * as "d\u005fk" name the same member as "d_k", as cJSON reads them. */
static bool string_is(const char *q, const char *key) {
    const char *p = q + 1;
    size_t klen = strlen(key), at = 0;
    while (*p && *p != '"') {
        char buf[8];
        size_t n;
        if (*p != '\\') {
            buf[0] = *p++;
            n = 1;
        } else if (p[1] == 'u') {
            int cp = hex4(p + 2);
            if (cp < 0) return false;
            p += 6;
            if (cp >= 0xD800 && cp <= 0xDBFF && p[0] == '\\' && p[1] == 'u') {
                int lo = hex4(p + 2);
                if (lo < 0xDC00 || lo > 0xDFFF) return false;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                p += 6;
            }
            n = put_utf8((uint32_t)cp, buf);
        } else {
            static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
            const char *e = p[1] ? strchr(from, p[1]) : NULL;
            if (!e) return false;
            buf[0] = to[e - from];
            n = 1;
            p += 2;
        }
        if (at + n > klen || memcmp(key + at, buf, n) != 0) return false;
        at += n;
    }
    return *p == '"' && at == klen;
}

/* p at '{': the value of the nth member named key, or p if there is none. */
static const char *object_member(const char *p, const char *key, int nth) {
    if (*p != '{') return p;
    const char *q = skip_ws(p + 1);
    while (*q == '"') {
        bool match = string_is(q, key);
        const char *after = skip_string(q);
        q = skip_ws(after);
        if (*q == ':') q = skip_ws(q + 1);
        if (match && nth-- == 0) return q;
        q = skip_ws(skip_value(q));
        if (*q == ',') q = skip_ws(q + 1);
    }
    return p;
}

void json_offset_to_line_col(const char *text, size_t off, int *line, int *col) {
    int l = 1, c = 1;
    for (size_t k = 0; k < off && text[k]; k++) {
        if (text[k] == '\n') {
            l++;
            c = 1;
        } else if (((unsigned char)text[k] & 0xC0) != 0x80) {
            c++; /* count characters, not UTF-8 continuation bytes */
        }
    }
    *line = l;
    *col = c;
}

static const char *locate(const char *text, const Json_Path *path) {
    const char *p = skip_ws(text);
    if (path->key) {
        p = object_member(p, path->key, path->nth);
        if (path->i >= 0) p = array_element(p, path->i);
        if (path->j >= 0) p = array_element(p, path->j);
    }
    return p;
}

void json_locate(const char *text, const Json_Path *path, int *line, int *col) {
    json_offset_to_line_col(text, (size_t)(locate(text, path) - text), line, col);
}

void json_literal(const char *text, const Json_Path *path, char *dest, size_t destsz) {
    const char *p = locate(text, path);
    size_t n = strcspn(p, ",]} \t\r\n");
    if (n >= destsz) n = destsz - 1;
    memcpy(dest, p, n);
    dest[n] = '\0';
}

void json_describe_error(const char *text, size_t len, size_t *off, char *why, size_t whysz);

/* ---- strict validation ------------------------------------------------------ */

typedef struct Lex {
    const char *t;
    size_t len, k;
    char *why;
    size_t whysz;
} Lex;

static bool lex_fail(Lex *x, size_t at, const char *fmt, const char *arg) {
    x->k = at;
    snprintf(x->why, x->whysz, fmt, arg);
    return false;
}

/* The text stops early: point just past its last visible character. */
static bool eof_fail(Lex *x) {
    size_t at = x->len;
    while (at > 0 && strchr(" \t\r\n", x->t[at - 1])) at--;
    return lex_fail(x, at, "%s",
                    _("the file ends before the JSON is complete (unclosed bracket?)"));
}

static void lex_ws(Lex *x) {
    while (x->k < x->len && strchr(" \t\r\n", x->t[x->k]) && x->t[x->k]) x->k++;
}

static bool lex_string(Lex *x) {
    size_t k = x->k + 1;
    for (;;) {
        if (k >= x->len) return eof_fail(x);
        unsigned char c = (unsigned char)x->t[k];
        if (c == '"') break;
        if (c < 0x20)
            return lex_fail(x, k, "%s",
                            _("control character inside a string (write it as \\uXXXX)"));
        if (c == '\\') {
            char e = k + 1 < x->len ? x->t[k + 1] : '\0';
            if (e == 'u') {
                int cp = k + 6 <= x->len ? hex4(x->t + k + 2) : -1;
                if (cp < 0) return lex_fail(x, k, "%s", _("\\u needs four hex digits"));
                if (cp == 0)
                    return lex_fail(x, k, "%s", _("\\u0000 (NUL) is not allowed in a string"));
                if (cp >= 0xDC00 && cp <= 0xDFFF)
                    return lex_fail(x, k, "%s", _("unpaired surrogate escape (\\uDC00-\\uDFFF)"));
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    int lo = k + 12 <= x->len && x->t[k + 6] == '\\' && x->t[k + 7] == 'u'
                                 ? hex4(x->t + k + 8)
                                 : -1;
                    if (lo < 0xDC00 || lo > 0xDFFF)
                        return lex_fail(x, k, "%s",
                                        _("unpaired surrogate escape (\\uD800-\\uDBFF)"));
                    k += 6;
                }
                k += 6;
            } else if (e && strchr("\"\\/bfnrt", e)) {
                k += 2;
            } else {
                return lex_fail(x, k, "%s", _("unknown escape in a string"));
            }
            continue;
        }
        uint32_t cp;
        size_t n = text_utf8_next(x->t + k, x->len - k, &cp);
        if (n == 0) return lex_fail(x, k, "%s", _("invalid UTF-8 inside a string"));
        k += n;
    }
    x->k = k + 1;
    return true;
}

/* "key" : — the member name and its colon, after '{' or ','. */
static bool lex_key(Lex *x) {
    lex_ws(x);
    if (x->k >= x->len) return eof_fail(x);
    if (x->t[x->k] != '"') {
        size_t o = x->k;
        json_describe_error(x->t, x->len, &o, x->why, x->whysz);
        x->k = o;
        return false;
    }
    if (!lex_string(x)) return false;
    lex_ws(x);
    if (x->k >= x->len) return eof_fail(x);
    if (x->t[x->k] != ':') return lex_fail(x, x->k, "%s", _("invalid JSON: expected ':'"));
    x->k++;
    return true;
}

static bool lex_number(Lex *x) {
    const char *t = x->t;
    size_t k = x->k, start = k;
    if (k < x->len && t[k] == '-') k++;
    bool ok = k < x->len && t[k] >= '0' && t[k] <= '9';
    if (ok && t[k] == '0') {
        k++;
    } else {
        while (k < x->len && t[k] >= '0' && t[k] <= '9') k++;
    }
    if (ok && k < x->len && t[k] == '.') {
        k++;
        size_t d = k;
        while (k < x->len && t[k] >= '0' && t[k] <= '9') k++;
        ok = k > d;
    }
    if (ok && k < x->len && (t[k] == 'e' || t[k] == 'E')) {
        k++;
        if (k < x->len && (t[k] == '+' || t[k] == '-')) k++;
        size_t d = k;
        while (k < x->len && t[k] >= '0' && t[k] <= '9') k++;
        ok = k > d;
    }
    /* what a person would read as the number: up to the next delimiter */
    size_t end = start;
    while (end < x->len && t[end] && !strchr(",]} \t\r\n", t[end])) end++;
    if (!ok || k != end) {
        char lit[40];
        snprintf(lit, sizeof lit, "%.*s", (int)(end - start < 32 ? end - start : 32), t + start);
        return lex_fail(x, start, _("'%s' is not a JSON number"), lit);
    }
    x->k = k;
    return true;
}

static bool lex_word(Lex *x, const char *w) {
    size_t n = strlen(w);
    if (x->len - x->k >= n && !strncmp(x->t + x->k, w, n)) {
        x->k += n;
        return true;
    }
    return false;
}

bool json_validate(const char *text, size_t len, size_t *end, size_t *off, char *why,
                   size_t whysz) {
    Lex x = {.t = text, .len = len, .why = why, .whysz = whysz};
    char stack[JSON_MAX_DEPTH];
    int depth = 0;
    bool ok = true, want_value = true;
    lex_ws(&x);
    if (x.k >= len) {
        *off = 0;
        snprintf(why, whysz, "%s", _("the file is empty; expected a JSON object"));
        return false;
    }
    while (ok) {
        lex_ws(&x);
        if (!want_value && depth == 0) break; /* the first value is complete */
        if (x.k >= len) {
            ok = eof_fail(&x);
            break;
        }
        char c = text[x.k];
        if (want_value) {
            if (c == '{' || c == '[') {
                if (depth == JSON_MAX_DEPTH) {
                    char lim[16];
                    snprintf(lim, sizeof lim, "%d", JSON_MAX_DEPTH);
                    ok = lex_fail(&x, x.k, _("nested deeper than %s levels"), lim);
                    break;
                }
                stack[depth++] = c;
                x.k++;
                lex_ws(&x);
                if (x.k < len && text[x.k] == (c == '{' ? '}' : ']')) {
                    x.k++;
                    depth--;
                    want_value = false;
                } else if (c == '{') {
                    ok = lex_key(&x);
                }
                continue;
            }
            if (c == '"') {
                ok = lex_string(&x);
            } else if ((c >= '0' && c <= '9') || (c == '-' && x.k + 1 < len &&
                                                  text[x.k + 1] >= '0' && text[x.k + 1] <= '9')) {
                ok = lex_number(&x);
            } else if (!lex_word(&x, "true") && !lex_word(&x, "false") && !lex_word(&x, "null")) {
                size_t o = x.k;
                json_describe_error(text, len, &o, why, whysz);
                x.k = o;
                ok = false;
                break;
            }
            want_value = false;
            continue;
        }
        /* after a value, inside an object or array */
        if (c == ',') {
            x.k++;
            want_value = true;
            if (stack[depth - 1] == '{') ok = lex_key(&x);
        } else if ((c == '}' && stack[depth - 1] == '{') || (c == ']' && stack[depth - 1] == '[')) {
            x.k++;
            depth--;
        } else {
            size_t o = x.k;
            json_describe_error(text, len, &o, why, whysz);
            x.k = o;
            ok = false;
        }
    }
    if (!ok) {
        *off = x.k;
        return false;
    }
    *end = x.k;
    return true;
}

void json_describe_error(const char *text, size_t len, size_t *off, char *why, size_t whysz) {
    const char *first = skip_ws(text);
    if ((size_t)(first - text) >= len) {
        *off = 0;
        snprintf(why, whysz, "%s", _("the file is empty; expected a JSON object"));
        return;
    }
    size_t o = *off < len ? *off : len;
    size_t ahead = o;
    while (ahead < len && strchr(" \t\r\n", text[ahead])) ahead++;
    if (ahead >= len) {
        snprintf(why, whysz, "%s",
                 _("the file ends before the JSON is complete (unclosed bracket?)"));
        return;
    }
    /* an offset on the whitespace after the offending character points at
     * that character instead */
    if (strchr(" \t\r\n", text[o])) {
        while (o > 0 && strchr(" \t\r\n", text[o - 1])) o--;
        if (o > 0) o--;
    }
    *off = o;
    const char *p = text + o;
    size_t rest = len - o;
    static const char *const non_json[] = {"NaN", "nan", "Infinity", "-Infinity", "inf", "-inf"};
    for (size_t k = 0; k < sizeof non_json / sizeof *non_json; k++) {
        size_t n = strlen(non_json[k]);
        if (rest >= n && strncmp(p, non_json[k], n) == 0) {
            snprintf(why, whysz, _("%s is not a JSON number; every value must be finite"),
                     non_json[k]);
            return;
        }
    }
    if (isprint((unsigned char)*p))
        snprintf(why, whysz, _("invalid JSON: unexpected '%c'"), *p);
    else
        snprintf(why, whysz, _("invalid JSON: unexpected byte 0x%02x"), (unsigned char)*p);
}
