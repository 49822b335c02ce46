/* The vocabulary file and word embedding; see vocab.h. */
#define _POSIX_C_SOURCE 200809L
#include "vocab.h"

#include "../core/rng.h"
#include "../core/text.h"
#include "../core/fileio.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void lower_ascii(const char *src, char *dest, size_t size) {
    size_t i = 0;
    for (; src[i] && i + 1 < size; i++) dest[i] = (char)tolower((unsigned char)src[i]);
    dest[i] = '\0';
}

static bool parse_line(char *line, Vocab_Entry *e, char *why, size_t whysz) {
    char *fields[2 + VOCAB_DIMS];
    int nf = 0;
    char *save = NULL;
    for (char *tok = strtok_r(line, "\t", &save); tok; tok = strtok_r(NULL, "\t", &save)) {
        if (nf == 2 + VOCAB_DIMS) {
            snprintf(why, whysz, "more than %d tab-separated fields", 2 + VOCAB_DIMS);
            return false;
        }
        fields[nf++] = tok;
    }
    if (nf != 2 + VOCAB_DIMS) {
        snprintf(why, whysz, "expected %d tab-separated fields (word, group, x0..x%d), found %d",
                 2 + VOCAB_DIMS, VOCAB_DIMS - 1, nf);
        return false;
    }
    if (strlen(fields[0]) >= sizeof e->word) {
        snprintf(why, whysz, "word longer than %d bytes", (int)sizeof e->word - 1);
        return false;
    }
    lower_ascii(fields[0], e->word, sizeof e->word);
    if (strlen(fields[1]) >= sizeof e->group) {
        snprintf(why, whysz, "group longer than %d bytes", (int)sizeof e->group - 1);
        return false;
    }
    snprintf(e->group, sizeof e->group, "%s", fields[1]);
    for (int c = 0; c < VOCAB_DIMS; c++) {
        double x;
        if (text_parse_f64(fields[2 + c], -ATTN_MAX_ABS_X, ATTN_MAX_ABS_X, &x) != TEXT_NUM_OK) {
            snprintf(why, whysz, "x%d: '%s' is not a number in [-%g, %g]", c, fields[2 + c],
                     ATTN_MAX_ABS_X, ATTN_MAX_ABS_X);
            return false;
        }
        e->x[c] = (float)x;
    }
    return true;
}

bool vocab_load(Vocab *v, const char *path, char *err, size_t errsz) {
    char *text;
    size_t len;
    if (!file_read_all(path, VOCAB_FILE_MAX, &text, &len, err, errsz)) return false;
    Vocab out = {0};
    int cap = 0, lineno = 0;
    bool ok = true;
    for (size_t at = 0; ok && at < len;) {
        lineno++;
        size_t end = at;
        while (end < len && text[end] != '\n') end++;
        size_t n = end - at;
        const char *start = text + at;
        at = end + 1;
        size_t bad;
        if (!text_utf8_check(start, n, &bad)) {
            snprintf(err, errsz, "%s:%d: %s at byte %zu", path, lineno,
                     start[bad] ? "invalid UTF-8" : "NUL byte", bad + 1);
            ok = false;
            break;
        }
        char line[512];
        if (n >= sizeof line) {
            snprintf(err, errsz, "%s:%d: line longer than %zu bytes", path, lineno,
                     sizeof line - 1);
            ok = false;
            break;
        }
        memcpy(line, start, n);
        line[n] = '\0';
        if (n && line[n - 1] == '\r') line[--n] = '\0';
        if (n == 0 || line[0] == '#') continue;
        if (out.count == cap) {
            cap = cap ? cap * 2 : 256;
            Vocab_Entry *p = realloc(out.entries, (size_t)cap * sizeof *p);
            if (!p) {
                snprintf(err, errsz, "%s:%d: out of memory", path, lineno);
                ok = false;
                break;
            }
            out.entries = p;
        }
        char why[160];
        Vocab_Entry *e = &out.entries[out.count];
        if (!parse_line(line, e, why, sizeof why)) {
            snprintf(err, errsz, "%s:%d: %s", path, lineno, why);
            ok = false;
            break;
        }
        if (vocab_find(&out, e->word) >= 0) {
            snprintf(err, errsz, "%s:%d: '%s' is listed twice", path, lineno, e->word);
            ok = false;
            break;
        }
        out.count++;
    }
    free(text);
    if (!ok) {
        free(out.entries);
        return false;
    }
    vocab_free(v);
    *v = out;
    return true;
}

int vocab_find(const Vocab *v, const char *word) {
    char key[ATTN_MAX_TOKEN_BYTES];
    lower_ascii(word, key, sizeof key);
    for (int i = 0; i < v->count; i++)
        if (strcmp(v->entries[i].word, key) == 0) return i;
    return -1;
}

/* A coordinate for (word, c) in [-0.75, 0.75], rounded to 0.01 like the table,
 * so derived embeddings look like listed ones in files and on screen. */
static float hashed_coord(const char *lower_word, int c) {
    Rng r;
    rng_seed_stream(&r, rng_hash_string(lower_word), 0x70CAull, (uint64_t)c);
    double x = (rng_uniform(&r) * 2.0 - 1.0) * 0.75;
    return (float)(round(x * 100.0) / 100.0);
}

void vocab_embed(const Vocab *v, const char *word, int d, float *dest) {
    char key[ATTN_MAX_TOKEN_BYTES];
    lower_ascii(word, key, sizeof key);
    int idx = vocab_find(v, key);
    for (int c = 0; c < d; c++)
        dest[c] = (idx >= 0 && c < VOCAB_DIMS) ? v->entries[idx].x[c] : hashed_coord(key, c);
}

void vocab_free(Vocab *v) {
    free(v->entries);
    v->entries = NULL;
    v->count = 0;
}
