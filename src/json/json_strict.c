/* The strict JSON reader; see json_strict.h. */
#include "json_strict.h"

#include "../core/i18n.h"
#include "../core/text.h"
#include "jsonpos.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* FNV-1a of a key. */
static uint32_t key_hash(const char *k) {
    uint32_t h = 2166136261u;
    for (; *k; k++) h = (h ^ (unsigned char)*k) * 16777619u;
    return h;
}

/* The first key that appears twice in one object anywhere below v (the
 * first whose second copy comes first, in the file's order), or NULL; *top
 * is the member of the root whose value holds it (for its position). A hash
 * set of the object's keys keeps a hostile object of 100,000 keys quick, and
 * a tokenizer's vocabulary of 151,000 (a sort took a sixth of its load). */
static const char *duplicate_key(const cJSON *v, const cJSON *root_member, const cJSON **top,
                                 bool *oom) {
    if (cJSON_IsObject(v) && v->child) {
        size_t n = 0, slots = 8;
        for (const cJSON *c = v->child; c; c = c->next) n++;
        while (slots < 2 * n) slots *= 2;
        const cJSON **set = calloc(slots, sizeof *set);
        if (!set) {
            *oom = true;
            return NULL;
        }
        const char *dup = NULL;
        for (const cJSON *c = v->child; c && !dup; c = c->next) {
            size_t at = key_hash(c->string) & (slots - 1);
            while (set[at] && strcmp(set[at]->string, c->string)) at = (at + 1) & (slots - 1);
            if (set[at])
                dup = c->string;
            else
                set[at] = c;
        }
        free(set);
        if (dup) {
            *top = root_member;
            return dup;
        }
    }
    for (const cJSON *c = v->child; c && !*oom; c = c->next) {
        const char *dup = duplicate_key(c, root_member ? root_member : c, top, oom);
        if (dup) return dup;
    }
    return NULL;
}

cJSON *json_read_strict(const char *text, size_t len, const char *name, const char *what, char *err,
                        size_t errsz) {
    int line, col;
    const char *z = memchr(text, '\0', len);
    if (z) {
        json_offset_to_line_col(text, (size_t)(z - text), &line, &col);
        snprintf(err, errsz, _("%s:%d:%d: NUL byte in file"), name, line, col);
        return NULL;
    }
    size_t value_end, bad;
    char why[160];
    if (!json_validate(text, len, &value_end, &bad, why, sizeof why)) {
        json_offset_to_line_col(text, bad, &line, &col);
        snprintf(err, errsz, "%s:%d:%d: %s", name, line, col, why);
        return NULL;
    }
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, false);
    if (!root) {
        snprintf(err, errsz, _("%s: cannot be read as JSON (out of memory?)"), name);
        return NULL;
    }
    /* the parser stops after the first value; only whitespace may follow */
    size_t off = (size_t)(end - text);
    while (off < len && strchr(" \t\r\n", text[off])) off++;
    if (off < len) {
        json_offset_to_line_col(text, off, &line, &col);
        snprintf(err, errsz, _("%s:%d:%d: unexpected text after %s"), name, line, col, what);
        cJSON_Delete(root);
        return NULL;
    }
    const cJSON *top = NULL;
    bool oom = false;
    const char *dup = duplicate_key(root, NULL, &top, &oom);
    if (dup || oom) {
        if (oom) {
            snprintf(err, errsz, _("%s: out of memory"), name);
        } else {
            /* at the second copy of a root key, else at the root member holding the object */
            bool at_root = top == NULL;
            Json_Path p = {.key = at_root ? dup : top->string, .nth = at_root, .i = -1, .j = -1};
            json_locate(text, &p, &line, &col);
            /* the key as written, one line: a key may hold a line break or a control byte */
            char shown[200];
            text_escape(dup, strlen(dup), shown, sizeof shown);
            snprintf(err, errsz, _("%s:%d:%d: field \"%s\" appears twice"), name, line, col, shown);
        }
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

/* cJSON's compact form puts no space after ':' or ','; a person reads
 * "theme": "light" more easily than "theme":"light". Strings are copied as
 * they are, so a ':' or ',' inside one is left alone. */
static size_t spaced(const char *in, char *out) {
    size_t n = 0;
    bool str = false;
    for (const char *p = in; *p; p++) {
        if (out) out[n] = *p;
        n++;
        if (str) {
            if (*p == '\\' && p[1]) {
                p++;
                if (out) out[n] = *p;
                n++;
            } else if (*p == '"') {
                str = false;
            }
        } else if (*p == '"') {
            str = true;
        } else if (*p == ':' || *p == ',') {
            if (out) out[n] = ' ';
            n++;
        }
    }
    return n;
}

char *json_print_lines(const cJSON *root) {
    bool object = cJSON_IsObject(root);
    size_t cap = 8, used = 0;
    char *out = malloc(cap);
    if (!out) return NULL;
    out[used++] = object ? '{' : '[';
    for (const cJSON *c = root->child; c; c = c->next) {
        char *v = cJSON_PrintUnformatted(c);
        char *k =
            object
                ? cJSON_PrintUnformatted(&(cJSON){.type = cJSON_String, .valuestring = c->string})
                : NULL;
        size_t need = (v ? spaced(v, NULL) : 0) + (k ? strlen(k) + 2 : 0) + 8;
        char *grown = v && (!object || k) ? realloc(out, cap = used + need + 4) : NULL;
        if (!grown) {
            free(v);
            free(k);
            free(out);
            return NULL;
        }
        out = grown;
        used += (size_t)sprintf(out + used, "%s\n  ", c == root->child ? "" : ",");
        if (k) used += (size_t)sprintf(out + used, "%s: ", k);
        used += spaced(v, out + used);
        free(v);
        free(k);
    }
    char *grown = realloc(out, used + 4);
    if (!grown) {
        free(out);
        return NULL;
    }
    out = grown;
    sprintf(out + used, "%s%c\n", root->child ? "\n" : "", object ? '}' : ']');
    return out;
}
