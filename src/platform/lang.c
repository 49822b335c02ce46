/* The interface's language; see lang.h. */
#define _POSIX_C_SOURCE 200809L
#include "lang.h"

#include "../core/i18n.h"
#include "catalog.h"
#include "paths.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifndef __EMSCRIPTEN__
#include <libintl.h>
#include <locale.h>
#endif

#define DOMAIN "attnlab"

static const struct {
    const char *code, *name;
} langs[] = {
    {"en", "English"},
    {"es", "Español"},
    {"de", "Deutsch"},
    {"zh_CN", "简体中文"},
};
#define LANG_COUNT ((int)(sizeof langs / sizeof *langs))

static int current;
static Catalog catalog; /* the browser's; on the desktop, only checked then freed */

int lang_count(void) {
    return LANG_COUNT;
}
const char *lang_code(int lang) {
    return lang >= 0 && lang < LANG_COUNT ? langs[lang].code : "en";
}
const char *lang_name(int lang) {
    return lang >= 0 && lang < LANG_COUNT ? langs[lang].name : "English";
}
int lang_current(void) {
    return current;
}

/* "de", "de_AT.UTF-8", "zh_CN.utf8", "zh-CN", "es-419": the language, and for
 * Chinese the region (zh_TW and zh_HK are Traditional: not ours) */
int lang_parse(const char *s) {
    if (!s) return -1;
    char lang[4] = "", region[4] = "";
    size_t k = 0;
    while (k < 3 && s[k] >= 'a' && s[k] <= 'z') lang[k] = s[k], k++;
    lang[k] = '\0';
    if (k < 2 || (s[k] >= 'a' && s[k] <= 'z')) return -1;
    if (s[k] == '_' || s[k] == '-') {
        size_t r = 0;
        for (k++; r < 3 && ((s[k] >= 'A' && s[k] <= 'Z') || (s[k] >= 'a' && s[k] <= 'z')); k++)
            region[r++] = (char)(s[k] & ~0x20);
        region[r] = '\0';
    }
    if (s[k] && s[k] != '.' && s[k] != '@' && !(s[k] >= '0' && s[k] <= '9')) return -1;
    if (!strcmp(lang, "zh"))
        return !region[0] || !strcmp(region, "CN") || !strcmp(region, "SG") ? 3 : -1;
    for (int i = 0; i < LANG_COUNT; i++)
        if (!strncmp(langs[i].code, lang, 2) && strlen(lang) == 2) return i;
    return -1;
}

int lang_from_env(void) {
    /* LANGUAGE is a list (de:en); gettext reads it only when a locale is set,
     * and so do we: LC_ALL=C with LANGUAGE=de is English */
    const char *vars[] = {"LC_ALL", "LC_MESSAGES", "LANG"};
    const char *locale = NULL;
    for (int k = 0; k < 3 && !locale; k++) {
        const char *v = getenv(vars[k]);
        if (v && v[0]) locale = v;
    }
    if (locale && (!strcmp(locale, "C") || !strcmp(locale, "POSIX"))) return 0;
    const char *list = getenv("LANGUAGE");
    if (list && list[0] && locale) {
        char one[64];
        for (const char *p = list; *p;) {
            size_t n = strcspn(p, ":");
            if (n < sizeof one) {
                memcpy(one, p, n);
                one[n] = '\0';
                int l = lang_parse(one);
                if (l >= 0) return l;
                if (!strcmp(one, "en") || !strncmp(one, "en_", 3)) return 0;
            }
            p += n + (p[n] == ':');
        }
    }
    int l = lang_parse(locale);
    return l < 0 ? 0 : l;
}

int lang_from_args(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--lang") && i + 1 < argc) return lang_parse(argv[i + 1]);
        if (!strncmp(argv[i], "--lang=", 7)) return lang_parse(argv[i] + 7);
    }
    return -1;
}

/* DATA/locale, or DATA/build/locale in a source tree */
static bool locale_dir(const char *data_dir, char *dest, size_t size) {
    const char *rel[] = {"locale", "build/locale"};
    struct stat st;
    for (int k = 0; k < 2; k++) {
        paths_join(data_dir, rel[k], dest, size);
        if (stat(dest, &st) == 0 && S_ISDIR(st.st_mode)) return true;
    }
    return false;
}

#ifdef __EMSCRIPTEN__
static const char *catalog_lookup(void *ctx, const char *msgid) {
    return catalog_text(ctx, msgid);
}
static const char *catalog_lookup_plural(void *ctx, const char *one, const char *many,
                                         unsigned long n) {
    (void)many;
    return catalog_plural(ctx, one, n);
}
#else
static const char *gettext_lookup(void *ctx, const char *msgid) {
    (void)ctx;
    return dgettext(DOMAIN, msgid);
}
static const char *gettext_lookup_plural(void *ctx, const char *one, const char *many,
                                         unsigned long n) {
    (void)ctx;
    return dngettext(DOMAIN, one, many, n);
}
#endif

bool lang_use(int lang, const char *data_dir, char *err, size_t errsz) {
    if (lang < 0 || lang >= LANG_COUNT) lang = 0;
    if (lang == 0) {
        i18n_set(NULL);
        catalog_free(&catalog);
        current = 0;
        return true;
    }
    char dir[4200], path[4400];
    if (!data_dir || !locale_dir(data_dir, dir, sizeof dir)) {
        snprintf(err, errsz,
                 "attnlab: no message catalogs in %s/locale or %s/build/locale (run make)",
                 data_dir ? data_dir : "?", data_dir ? data_dir : "?");
        return false;
    }
    snprintf(path, sizeof path, "%s/%s/LC_MESSAGES/" DOMAIN ".mo", dir, langs[lang].code);
    /* read and checked by our reader on both platforms: a bad file is said
     * here, where glibc would fall back to English without a word */
    Catalog c;
    if (!catalog_load(&c, path, err, errsz)) return false;
    catalog_free(&catalog);
    catalog = c;
#ifdef __EMSCRIPTEN__
    i18n_set(
        &(I18n_Lookup){.ctx = &catalog, .text = catalog_lookup, .plural = catalog_lookup_plural});
#else
    catalog_free(&catalog);
    /* gettext reads LANGUAGE only when LC_MESSAGES is not "C": C.UTF-8 is
     * always there with glibc, and keeps every other category as it was */
    const char *now = setlocale(LC_MESSAGES, "");
    if (!now || !strcmp(now, "C") || !strcmp(now, "POSIX")) setlocale(LC_MESSAGES, "C.UTF-8");
    setenv("LANGUAGE", langs[lang].code, 1);
    bindtextdomain(DOMAIN, dir);
    bind_textdomain_codeset(DOMAIN, "UTF-8");
    bind_textdomain_codeset("libc", "UTF-8"); /* strerror's words, as ours: UTF-8 */
    textdomain(DOMAIN);                       /* also tells gettext its cached catalogs are stale */
    i18n_set(&(I18n_Lookup){.text = gettext_lookup, .plural = gettext_lookup_plural});
#endif
    current = lang;
    return true;
}
