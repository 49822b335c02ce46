/* src/platform/catalog.c, src/platform/lang.c and src/core/i18n.c: the
 * browser's .mo reader gives what glibc's gettext gives for every message
 * of every shipped catalog; a bad catalog is named and refused; languages
 * are picked from --lang and the environment as gettext picks them; a
 * switch changes every later string, and back. */
#define _POSIX_C_SOURCE 200809L
#include "core/i18n.h"
#include "platform/catalog.h"
#include "platform/lang.h"
#include "test_util.h"

#include <libintl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void catalog_path(const char *lang, char *dest, size_t size) {
    snprintf(dest, size, "%s/build/locale/%s/LC_MESSAGES/attnlab.mo", test_env("ATTNLAB_DATA"),
             lang);
}

static void back_to_english(void) {
    char err[600];
    cr_assert(lang_use(0, test_env("ATTNLAB_DATA"), err, sizeof err));
}

TestSuite(i18n, .fini = back_to_english);

/* every message, singular and plural, as glibc answers it */
Test(i18n, the_mo_reader_agrees_with_gettext_on_every_message_of_every_catalog) {
    for (int lang = 1; lang < lang_count(); lang++) {
        char path[4200], err[600];
        catalog_path(lang_code(lang), path, sizeof path);
        Catalog c;
        cr_assert(catalog_load(&c, path, err, sizeof err), "%s", err);
        cr_assert(c.count > 400, "%s: only %u messages", path, c.count);
        cr_assert(lang_use(lang, test_env("ATTNLAB_DATA"), err, sizeof err), "%s", err);
        int plurals = 0;
        for (uint32_t i = 1; i < c.count; i++) { /* 0 is the header */
            uint32_t n = 0, off = 0;
            memcpy(&n, c.data + c.originals + i * 8, 4);
            memcpy(&off, c.data + c.originals + i * 8 + 4, 4);
            const char *one = c.data + off;
            size_t one_len = strlen(one);
            if (one_len < n) { /* "one\0many": a plural entry */
                const char *many = one + one_len + 1;
                for (unsigned long k = 0; k < 4; k++)
                    cr_assert_str_eq(catalog_plural(&c, one, k), dngettext("attnlab", one, many, k),
                                     "%s n=%lu", one, k);
                plurals++;
            } else {
                cr_assert_str_eq(catalog_text(&c, one), dgettext("attnlab", one), "%s", one);
                cr_assert_str_eq(_(one), dgettext("attnlab", one));
            }
        }
        cr_assert(plurals > 0, "%s: no plural entry was checked", path);
        cr_assert_null(catalog_text(&c, "no such message in any catalog"));
        catalog_free(&c);
    }
}

Test(i18n, a_switch_changes_every_later_string_and_english_comes_back) {
    char err[600];
    const char *data = test_env("ATTNLAB_DATA");
    cr_assert_str_eq(_("Weights A"), "Weights A");
    cr_assert(lang_use(lang_parse("de"), data, err, sizeof err), "%s", err);
    cr_assert_str_eq(_("Weights A"), "Gewichte A");
    cr_assert_str_eq(i18n_plural(" · %d head zeroed: in-context loss %.2f with it, %.2f without",
                                 " · %d heads zeroed: in-context loss %.2f with them, %.2f without",
                                 2),
                     " · %d Heads genullt: In-Context-Verlust %.2f mit ihnen, %.2f ohne");
    cr_assert(lang_use(lang_parse("zh_CN"), data, err, sizeof err), "%s", err);
    cr_assert_str_eq(_("Weights A"), "权重 A");
    cr_assert_eq(lang_current(), 3);
    cr_assert(lang_use(0, data, err, sizeof err));
    cr_assert_str_eq(_("Weights A"), "Weights A");
    /* numbers keep their point in every language (LC_NUMERIC is never set) */
    cr_assert(lang_use(lang_parse("de"), data, err, sizeof err), "%s", err);
    char num[32];
    snprintf(num, sizeof num, "%.2f", 1.5);
    cr_assert_str_eq(num, "1.50");
}

Test(i18n, a_missing_catalog_is_said_and_english_stays) {
    char err[600] = "";
    cr_assert_not(lang_use(lang_parse("es"), "/nonexistent", err, sizeof err));
    cr_assert(strstr(err, "no message catalogs"), "%s", err);
    cr_assert_eq(lang_current(), 0);
    cr_assert_str_eq(_("Weights A"), "Weights A");
}

Test(i18n, languages_are_read_as_the_environment_writes_them) {
    cr_assert_eq(lang_parse("de"), 2);
    cr_assert_eq(lang_parse("de_AT.UTF-8"), 2);
    cr_assert_eq(lang_parse("es-419"), 1);
    cr_assert_eq(lang_parse("zh_CN.utf8"), 3);
    cr_assert_eq(lang_parse("zh"), 3);
    cr_assert_eq(lang_parse("zh_TW"), -1, "Traditional Chinese is not ours");
    cr_assert_eq(lang_parse("en_GB"), 0);
    cr_assert_eq(lang_parse("C"), -1);
    cr_assert_eq(lang_parse("deutsch"), -1);
    cr_assert_eq(lang_parse(""), -1);
    const char *vars[] = {"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"};
    for (int k = 0; k < 4; k++) unsetenv(vars[k]);
    cr_assert_eq(lang_from_env(), 0);
    setenv("LANG", "es_ES.UTF-8", 1);
    cr_assert_eq(lang_from_env(), 1);
    setenv("LANGUAGE", "fr:de", 1);
    cr_assert_eq(lang_from_env(), 2, "the first known language of LANGUAGE's list");
    setenv("LC_ALL", "C", 1);
    cr_assert_eq(lang_from_env(), 0, "LC_ALL=C is English, as gettext has it");
    for (int k = 0; k < 4; k++) unsetenv(vars[k]);
    char *argv[] = {"attnlab", "--size", "800x600", "--lang=zh_CN", NULL};
    cr_assert_eq(lang_from_args(4, argv), 3);
    char *argv2[] = {"attnlab", "--lang", "de", NULL};
    cr_assert_eq(lang_from_args(3, argv2), 2);
}

/* a .mo written by hand: header, then sorted (orig, trans) tables */
static size_t make_mo(char *buf, const char *const *orig, const char *const *trans, int n,
                      int olen_extra) {
    uint32_t head[7] = {0x950412de, 0, (uint32_t)n, 28, 28 + (uint32_t)n * 8, 0, 0};
    memcpy(buf, head, 28);
    size_t at = 28 + (size_t)n * 16;
    for (int k = 0; k < n; k++) {
        uint32_t e[2] = {(uint32_t)strlen(orig[k]) + (uint32_t)olen_extra, (uint32_t)at};
        memcpy(buf + 28 + k * 8, e, 8);
        memcpy(buf + at, orig[k], strlen(orig[k]) + 1);
        at += strlen(orig[k]) + 1;
    }
    for (int k = 0; k < n; k++) {
        uint32_t e[2] = {(uint32_t)strlen(trans[k]), (uint32_t)at};
        memcpy(buf + 28 + n * 8 + k * 8, e, 8);
        memcpy(buf + at, trans[k], strlen(trans[k]) + 1);
        at += strlen(trans[k]) + 1;
    }
    return at;
}

static void refused(char *bytes, size_t size, const char *says) {
    char *copy = malloc(size ? size : 1), err[400] = "";
    memcpy(copy, bytes, size);
    Catalog c;
    cr_assert_not(catalog_parse(&c, copy, size, "x.mo", err, sizeof err), "accepted: %s", says);
    cr_assert(strstr(err, "x.mo: ") == err && strstr(err, says), "'%s' does not say '%s'", err,
              says);
    cr_assert_null(c.data);
}

Test(i18n, a_bad_catalog_is_refused_by_name) {
    static char buf[4096];
    const char *o[] = {"", "a", "b"},
               *t[] = {"Plural-Forms: nplurals=2; plural=(n != 1);\n", "A", "B"};
    size_t n = make_mo(buf, o, t, 3, 0);
    char *copy = malloc(n), err[400];
    memcpy(copy, buf, n);
    Catalog c;
    cr_assert(catalog_parse(&c, copy, n, "x.mo", err, sizeof err), "%s", err);
    cr_assert_str_eq(catalog_text(&c, "b"), "B");
    catalog_free(&c);
    refused(buf, 20, "not a message catalog");
    char bad[4096];
    memcpy(bad, buf, n);
    bad[0] = 'X';
    refused(bad, n, "not a message catalog");
    refused(buf, n - 3, "past the end");
    const char *unsorted[] = {"", "b", "a"};
    n = make_mo(bad, unsorted, t, 3, 0);
    refused(bad, n, "not sorted");
    const char *latin1[] = {"", "caf\xe9", "B"};
    n = make_mo(bad, o, latin1, 3, 0);
    refused(bad, n, "not valid UTF-8");
    const char *polish[] = {"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : 1);\n", "A", "B"};
    n = make_mo(bad, o, polish, 3, 0);
    refused(bad, n, "Plural-Forms");
    n = make_mo(bad, o, t, 3, 40); /* a length that runs past its NUL */
    refused(bad, n, "past the end");
    uint32_t huge = 0x7fffffff;
    n = make_mo(bad, o, t, 3, 0);
    memcpy(bad + 8, &huge, 4);
    refused(bad, n, "past the end");
}

/* gettext's hash of a string, as msgfmt and glibc compute it */
static uint32_t pjw(const char *s) {
    uint32_t h = 0;
    for (; *s; s++) {
        h = (h << 4) + (unsigned char)*s;
        uint32_t g = h & 0xf0000000u;
        if (g) h ^= (g >> 24) ^ g;
    }
    return h;
}

/* make_mo with a hash table of `size` slots after the strings, filled as
 * msgfmt fills it (double hashing); returns the file's size and where the
 * table starts */
static size_t make_mo_hashed(char *buf, const char *const *orig, const char *const *trans, int n,
                             uint32_t size, uint32_t *table) {
    size_t at = (make_mo(buf, orig, trans, n, 0) + 3) & ~(size_t)3;
    uint32_t head[2] = {size, (uint32_t)at};
    memcpy(buf + 20, head, 8);
    uint32_t *slots = calloc(size, 4);
    for (int k = 0; k < n; k++) {
        uint32_t h = pjw(orig[k]), idx = h % size, incr = 1 + h % (size - 2);
        while (slots[idx]) idx = idx >= size - incr ? idx - (size - incr) : idx + incr;
        slots[idx] = (uint32_t)k + 1;
    }
    memcpy(buf + at, slots, size * 4);
    free(slots);
    *table = (uint32_t)at;
    return at + size * 4;
}

/* What glibc's gettext trusts and we check first: a hash table that would
 * make it read past the file, walk forever or lose a message, and a
 * translation whose printf directives are not its original's (more %s than
 * arguments: a crash). Each is refused by name; a reordered one (%2$s) is
 * fine. */
Test(i18n, a_catalog_glibc_would_crash_or_hang_on_is_refused_first) {
    static char buf[4096], bad[4096];
    const char *o[] = {"", "%d of %s", "%s: %.*f", "b"},
               *t[] = {"Plural-Forms: nplurals=2; plural=(n != 1);\n", "%2$s: %1$d", "%s = %.*f",
                       "B"};
    uint32_t table;
    size_t n = make_mo_hashed(buf, o, t, 4, 7, &table);
    char *copy = malloc(n), err[400];
    memcpy(copy, buf, n);
    Catalog c;
    cr_assert(catalog_parse(&c, copy, n, "x.mo", err, sizeof err), "%s", err);
    cr_assert_str_eq(catalog_text(&c, "%d of %s"), "%2$s: %1$d");
    catalog_free(&c);

    memcpy(bad, buf, n);
    uint32_t nine = 9;
    memcpy(bad + 20, &nine, 4); /* 9 slots: not prime, and past the end */
    refused(bad, n, "past the end");
    uint32_t four = 4;
    memcpy(bad + 20, &four, 4);
    refused(bad, n, "not a prime number");
    memcpy(bad, buf, n);
    uint32_t past = (uint32_t)n;
    memcpy(bad + 24, &past, 4);
    refused(bad, n, "hash table reaches past the end");
    memcpy(bad, buf, n);
    memset(bad + table, 0, 7 * 4); /* zeroed: every lookup says "none" */
    refused(bad, n, "does not lead to every message");
    memcpy(bad, buf, n);
    for (int k = 0; k < 7; k++) { /* full: a missing message is looked for forever */
        uint32_t v;
        memcpy(&v, bad + table + k * 4, 4);
        if (!v) memcpy(bad + table + k * 4, (uint32_t[]){4}, 4);
    }
    refused(bad, n, "no empty slot");
    memcpy(bad, buf, n);
    memcpy(bad + table, (uint32_t[]){99}, 4);
    refused(bad, n, "names a message it does not have");

    const char *more[] = {"", "%d of %s", "b"},
               *more_t[] = {"Plural-Forms: nplurals=2; plural=(n != 1);\n", "%d von %s %s", "B"};
    n = make_mo_hashed(bad, more, more_t, 3, 5, &table);
    refused(bad, n, "has other printf directives than the original");
    const char *typed_t[] = {"Plural-Forms: nplurals=2; plural=(n != 1);\n", "%s von %d", "B"};
    n = make_mo_hashed(bad, more, typed_t, 3, 5, &table);
    refused(bad, n, "has other printf directives than the original");
}

/* The app never hands glibc a catalog that failed: --lang de with a bad one
 * is one warning naming the file, and the interface stays English. */
Test(i18n, a_bad_catalog_on_disk_leaves_english_and_one_warning) {
    char dir[] = "/tmp/attnlab-locale-XXXXXX", path[600], err[800];
    cr_assert(mkdtemp(dir));
    snprintf(path, sizeof path, "mkdir -p %s/locale/de/LC_MESSAGES", dir);
    cr_assert_eq(system(path), 0);
    static char buf[4096];
    const char *o[] = {"", "%d of %s", "b"},
               *t[] = {"Plural-Forms: nplurals=2; plural=(n != 1);\n", "%d von %s %s", "B"};
    uint32_t table;
    size_t n = make_mo_hashed(buf, o, t, 3, 5, &table);
    snprintf(path, sizeof path, "%s/locale/de/LC_MESSAGES/attnlab.mo", dir);
    FILE *f = fopen(path, "wb");
    cr_assert(f);
    fwrite(buf, 1, n, f);
    fclose(f);
    cr_assert_not(lang_use(2, dir, err, sizeof err));
    cr_assert(strstr(err, path) == err && strstr(err, "printf directives"), "%s", err);
    cr_assert_eq(lang_current(), 0);
    cr_assert_str_eq(_("%d of %s"), "%d of %s");
    snprintf(path, sizeof path, "rm -rf '%s'", dir);
    cr_assert_eq(system(path), 0);
}
