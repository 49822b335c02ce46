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

/* gettext's hash of a string (hashpjw), as glibc computes it */
static uint32_t hash_string(const char *str) {
    uint32_t hval = 0;
    for (; *str; str++) {
        hval = (hval << 4) + (unsigned char)*str;
        uint32_t g = hval & 0xf0000000u;
        if (g) hval ^= (g >> 24) ^ g;
    }
    return hval;
}

static bool is_prime(uint32_t n) {
    if (n < 2) return false;
    for (uint32_t d = 2; (uint64_t)d * d <= n; d++)
        if (n % d == 0) return false;
    return true;
}

/* The hash table glibc's gettext walks (size > 2; smaller means none and a
 * binary search). glibc trusts it: a table past the end is read past the
 * end, one with no empty slot or a size that is not prime is walked forever
 * for a message it lacks, and one that does not lead to a message hides its
 * translation without a word. Here each message must be where a lookup of
 * it ends, every slot names a message or none, and one slot at least is
 * empty; the size is prime, so every walk reaches an empty slot. */
static const char *check_hash(const Catalog *c) {
    uint32_t size = word(c, 20), at = word(c, 24);
    if (size <= 2) return NULL;
    if (at % 4 || (uint64_t)at + (uint64_t)size * 4 > c->size)
        return _("its hash table reaches past the end of the file");
    if (!is_prime(size)) return _("its hash table's size is not a prime number");
    bool empty = false;
    for (uint32_t k = 0; k < size; k++) {
        uint32_t v = word(c, (size_t)at + (size_t)k * 4);
        if (v > c->count) return _("its hash table names a message it does not have");
        empty |= v == 0;
    }
    if (!empty) return _("its hash table has no empty slot");
    for (uint32_t i = 0; i < c->count; i++) {
        const char *o = entry(c, c->originals, i, NULL);
        uint32_t h = hash_string(o), idx = h % size, incr = 1 + h % (size - 2), v;
        while ((v = word(c, (size_t)at + (size_t)idx * 4)) != 0 && v != i + 1)
            idx = idx >= size - incr ? idx - (size - incr) : idx + incr;
        if (v == 0) return _("its hash table does not lead to every message");
    }
    return NULL;
}

/* The printf directives of s, one letter each ('i' for a * width or
 * precision), in the order of the arguments they read: "%-3d of %.*s" is
 * "d is", and "%2$s %1$d" is "d s". False if there are more than fit, or one
 * is cut off. */
static bool directives(const char *s, char *out, size_t size) {
    enum { MAX_ARGS = 16, SIG = 8 };
    char sig[MAX_ARGS][SIG] = {{0}};
    int n = 0;
    for (; *s; s++) {
        if (*s != '%') continue;
        if (*++s == '%') continue;
        int pos = 0;
        const char *p = s;
        while (*p >= '0' && *p <= '9' && pos < 1000) pos = pos * 10 + (*p++ - '0');
        if (*p == '$' && pos > 0)
            s = p + 1;
        else
            pos = ++n;
        if (pos > MAX_ARGS) return false;
        char *d = sig[pos - 1];
        size_t k = 0;
        while (*s && strchr("-+ #0'I", *s)) s++;
        if (*s == '*') d[k++] = 'i', s++;
        while (*s >= '0' && *s <= '9') s++;
        if (*s == '.') {
            s++;
            if (*s == '*') d[k++] = 'i', s++;
            while (*s >= '0' && *s <= '9') s++;
        }
        for (; *s && strchr("hlLqjzZt", *s); s++)
            if (k < SIG - 2) d[k++] = *s;
        if (!*s) return false;
        d[k] = *s == 'i' ? 'd' : *s;
        if (pos > n) n = pos;
    }
    size_t at = 0;
    for (int k = 0; k < n; k++) {
        int w = snprintf(out + at, size - at, "%s ", sig[k][0] ? sig[k] : "?");
        if (w < 0 || (size_t)w >= size - at) return false;
        at += (size_t)w;
    }
    if (!n) out[0] = '\0';
    return true;
}

/* A translation whose directives are not its original's would make printf
 * read arguments that are not there (a crash) or of the wrong type. A
 * plural form may follow either of the original's forms. */
static bool same_directives(const char *orig, const char *orig_end, const char *t,
                            const char *t_end) {
    char want[2][96], got[96];
    const char *many = orig + strlen(orig) + 1;
    if (!directives(orig, want[0], sizeof want[0])) return false;
    if (!directives(many < orig_end ? many : orig, want[1], sizeof want[1])) return false;
    for (const char *f = t; f <= t_end; f += strlen(f) + 1) {
        if (!directives(f, got, sizeof got)) return false;
        if (strcmp(got, want[0]) && strcmp(got, want[1])) return false;
    }
    return true;
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
        return text_fail(err, errsz, "%s: %s", name,
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
        return text_fail(err, errsz, "%s: %s", name, _("a .mo revision this reader does not know"));
    }
    c->count = word(c, 8);
    c->originals = word(c, 12);
    c->translations = word(c, 16);
    if (c->originals % 4 || c->translations % 4 ||
        (uint64_t)c->originals + (uint64_t)c->count * 8 > size ||
        (uint64_t)c->translations + (uint64_t)c->count * 8 > size) {
        catalog_free(c);
        return text_fail(err, errsz, "%s: %s", name,
                         _("its tables reach past the end of the file"));
    }
    const char *prev = NULL;
    for (uint32_t i = 0; i < c->count; i++) {
        uint32_t tlen = 0;
        const char *o = entry(c, c->originals, i, NULL), *t = entry(c, c->translations, i, &tlen);
        uint32_t olen = 0;
        if (o) entry(c, c->originals, i, &olen);
        if (!o || !t) {
            catalog_free(c);
            return text_fail(err, errsz, "%s: %s", name,
                             _("a string reaches past the end of the file"));
        }
        if (prev && strcmp(prev, o) >= 0) {
            catalog_free(c);
            return text_fail(err, errsz, "%s: %s", name,
                             _("its messages are not sorted (not written by msgfmt?)"));
        }
        /* a plural entry's forms are NUL-separated: each must be UTF-8 */
        bool utf8 = true;
        for (const char *f = t; utf8 && f <= t + tlen; f += strlen(f) + 1) {
            size_t bad = 0;
            utf8 = text_utf8_check(f, strlen(f), &bad);
        }
        if (!utf8 || (i && !same_directives(o, o + olen, t, t + tlen))) {
            char what[200];
            snprintf(what, sizeof what,
                     utf8 ? _("the translation of \"%.60s\" has other printf directives than "
                              "the original")
                          : _("the translation of \"%.60s\" is not valid UTF-8"),
                     o);
            catalog_free(c);
            return text_fail(err, errsz, "%s: %s", name, what);
        }
        prev = o;
    }
    const char *hash = check_hash(c);
    if (hash) {
        catalog_free(c);
        return text_fail(err, errsz, "%s: %s", name, hash);
    }
    if (!read_plurals(c, name, err, errsz)) {
        catalog_free(c);
        return false;
    }
    return true;
bad_free:
    catalog_free(c);
    return text_fail(err, errsz, "%s: %s", name, _("not a message catalog (.mo)"));
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
