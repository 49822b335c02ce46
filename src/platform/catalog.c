/* The .mo reader; see catalog.h. */
#include "../core/i18n.h"
#include "catalog.h"

#include "../core/fileio.h"
#include "../core/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a catalog larger than this is not one of ours (ours are tens of KB) */
#define CATALOG_MAX_BYTES (16u << 20)

static uint32_t word(const Catalog *c, size_t at) {
    const unsigned char *p = (const unsigned char *)c->data + at;
    return c->swap ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
                   : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

/* entry i of the table at `table`: its string, or NULL if out of bounds or
 * not NUL-terminated where its length says */
static const char *entry(const Catalog *c, uint32_t table, uint32_t i, uint32_t *len) {
    uint32_t n = word(c, (size_t)table + (size_t)i * 8), off = word(c, (size_t)table + i * 8 + 4);
    if ((uint64_t)off + n >= c->size || c->data[(size_t)off + n] != '\0') return NULL;
    if (len) *len = n;
    return c->data + off;
}

static bool fail(char *err, size_t errsz, const char *name, const char *what) {
    snprintf(err, errsz, "%s: %s", name, what);
    return false;
}

/* Plural-Forms in the header (the translation of ""): the two rules we know. */
static bool read_plurals(Catalog *c, const char *name, char *err, size_t errsz) {
    c->nplurals = 2;
    const char *h = c->count ? entry(c, c->originals, 0, NULL) : NULL;
    if (!h || h[0]) return true; /* no header: English's rule */
    const char *hdr = entry(c, c->translations, 0, NULL);
    const char *pf = hdr ? strstr(hdr, "Plural-Forms:") : NULL;
    if (!pf) return true;
    char rule[160];
    size_t k = 0;
    for (pf += strlen("Plural-Forms:"); *pf && *pf != '\n' && k + 1 < sizeof rule; pf++)
        if (*pf != ' ') rule[k++] = *pf;
    rule[k] = '\0';
    if (!strcmp(rule, "nplurals=1;plural=0;"))
        c->nplurals = 1;
    else if (strcmp(rule, "nplurals=2;plural=(n!=1);") && strcmp(rule, "nplurals=2;plural=n!=1;"))
        return fail(err, errsz, name,
                    _("Plural-Forms is not one this reader knows (nplurals=1; "
                      "plural=0 or nplurals=2; plural=(n != 1))"));
    return true;
}

bool catalog_parse(Catalog *c, char *data, size_t size, const char *name, char *err, size_t errsz) {
    *c = (Catalog){.data = data, .size = size};
    const unsigned char *b = (const unsigned char *)data;
    if (size < 28) goto bad_free;
    if (b[0] == 0xde && b[1] == 0x12 && b[2] == 0x04 && b[3] == 0x95)
        c->swap = false;
    else if (b[0] == 0x95 && b[1] == 0x04 && b[2] == 0x12 && b[3] == 0xde)
        c->swap = true;
    else
        goto bad_free;
    if (word(c, 4) >> 16 != 0) {
        catalog_free(c);
        return fail(err, errsz, name, _("a .mo revision this reader does not know"));
    }
    c->count = word(c, 8);
    c->originals = word(c, 12);
    c->translations = word(c, 16);
    if (c->originals % 4 || c->translations % 4 ||
        (uint64_t)c->originals + (uint64_t)c->count * 8 > size ||
        (uint64_t)c->translations + (uint64_t)c->count * 8 > size) {
        catalog_free(c);
        return fail(err, errsz, name, _("its tables reach past the end of the file"));
    }
    const char *prev = NULL;
    for (uint32_t i = 0; i < c->count; i++) {
        uint32_t tlen = 0;
        const char *o = entry(c, c->originals, i, NULL), *t = entry(c, c->translations, i, &tlen);
        if (!o || !t) {
            catalog_free(c);
            return fail(err, errsz, name, _("a string reaches past the end of the file"));
        }
        if (prev && strcmp(prev, o) >= 0) {
            catalog_free(c);
            return fail(err, errsz, name,
                        _("its messages are not sorted (not written by msgfmt?)"));
        }
        /* a plural entry's forms are NUL-separated: each must be UTF-8 */
        bool utf8 = true;
        for (const char *f = t; utf8 && f <= t + tlen; f += strlen(f) + 1) {
            size_t bad = 0;
            utf8 = text_utf8_check(f, strlen(f), &bad);
        }
        if (!utf8) {
            char what[200];
            snprintf(what, sizeof what, _("the translation of \"%.60s\" is not valid UTF-8"), o);
            catalog_free(c);
            return fail(err, errsz, name, what);
        }
        prev = o;
    }
    if (!read_plurals(c, name, err, errsz)) {
        catalog_free(c);
        return false;
    }
    return true;
bad_free:
    catalog_free(c);
    return fail(err, errsz, name, _("not a message catalog (.mo)"));
}

bool catalog_load(Catalog *c, const char *path, char *err, size_t errsz) {
    char *text = NULL;
    size_t len = 0;
    *c = (Catalog){0};
    if (!file_read_all(path, CATALOG_MAX_BYTES, &text, &len, err, errsz)) return false;
    return catalog_parse(c, text, len, path, err, errsz);
}

static int find(const Catalog *c, const char *msgid) {
    uint32_t lo = 0, hi = c->count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int cmp = strcmp(msgid, entry(c, c->originals, mid, NULL));
        if (cmp == 0) return (int)mid;
        if (cmp < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return -1;
}

const char *catalog_text(const Catalog *c, const char *msgid) {
    int i = c && c->data && msgid ? find(c, msgid) : -1;
    return i < 0 ? NULL : entry(c, c->translations, (uint32_t)i, NULL);
}

const char *catalog_plural(const Catalog *c, const char *one, unsigned long n) {
    int i = c && c->data && one ? find(c, one) : -1;
    if (i < 0) return NULL;
    uint32_t len = 0;
    const char *t = entry(c, c->translations, (uint32_t)i, &len), *end = t + len;
    unsigned long form = c->nplurals == 1 ? 0 : n != 1;
    for (; form > 0 && t < end; form--) t += strlen(t) + 1;
    return t < end ? t : NULL;
}

void catalog_free(Catalog *c) {
    free(c->data);
    *c = (Catalog){0};
}
