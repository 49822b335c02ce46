/* Positions inside JSON text; see jsonpos.h. The walkers assume the text
 * already parsed as JSON, and stop safely at the end of the string if not. */
#include "jsonpos.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdbool.h>
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

/* p at '{': the value of the nth member named key, or p if there is none. */
static const char *object_member(const char *p, const char *key, int nth) {
    if (*p != '{') return p;
    size_t klen = strlen(key);
    const char *q = skip_ws(p + 1);
    while (*q == '"') {
        const char *name = q + 1;
        const char *after = skip_string(q);
        bool match = (size_t)(after - 1 - name) == klen && strncmp(name, key, klen) == 0;
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

void json_locate(const char *text, const Json_Path *path, int *line, int *col) {
    const char *p = skip_ws(text);
    if (path->key) {
        p = object_member(p, path->key, path->nth);
        if (path->i >= 0) p = array_element(p, path->i);
        if (path->j >= 0) p = array_element(p, path->j);
    }
    json_offset_to_line_col(text, (size_t)(p - text), line, col);
}

size_t json_parse_error_offset(const char *text, size_t len) {
    const char *e = cJSON_GetErrorPtr();
    if (e && e >= text && e <= text + len) return (size_t)(e - text);
    return 0;
}

void json_describe_error(const char *text, size_t len, size_t *off, char *why, size_t whysz) {
    const char *first = skip_ws(text);
    if ((size_t)(first - text) >= len) {
        *off = 0;
        snprintf(why, whysz, "the file is empty; expected a JSON object");
        return;
    }
    size_t o = *off < len ? *off : len;
    size_t ahead = o;
    while (ahead < len && strchr(" \t\r\n", text[ahead])) ahead++;
    if (ahead >= len) {
        snprintf(why, whysz, "the file ends before the JSON is complete (unclosed bracket?)");
        return;
    }
    /* cJSON may stop on the whitespace after the offending character; point
     * at that character instead. */
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
            snprintf(why, whysz, "%s is not a JSON number; every value must be finite",
                     non_json[k]);
            return;
        }
    }
    if (isprint((unsigned char)*p))
        snprintf(why, whysz, "invalid JSON: unexpected '%c'", *p);
    else
        snprintf(why, whysz, "invalid JSON: unexpected byte 0x%02x", (unsigned char)*p);
}
