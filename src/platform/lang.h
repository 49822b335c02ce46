/* The interface's language: which one, and the catalog that answers _().
 *
 * attnlab speaks English, Spanish, German and Simplified Chinese. The choice
 * is, in order: --lang, then (in the window) the language picked in the
 * window and kept in the settings file, then the environment as gettext
 * reads it (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), then English. Catalogs are
 * msgfmt's .mo files, found in DATA/locale (installed, and the browser's
 * data) or DATA/build/locale (a build run in place). On the desktop glibc's
 * gettext answers, with LANGUAGE set to the language and LC_MESSAGES to
 * C.UTF-8 when the environment has no locale, so no locale needs to be
 * installed; the browser reads the .mo itself (catalog.h). LC_NUMERIC is
 * never set: numbers keep their "." in every language.
 *
 *   int lang_count(void)
 *   const char *lang_code(int lang)          "en", "es", "de", "zh_CN"
 *   const char *lang_name(int lang)          in its own language: "Deutsch"
 *   int lang_parse(const char *s)            a code as --lang takes it, or as the environment
 *                                            writes one ("de_AT.UTF-8", "zh_CN.utf8"); -1 if none
 *   int lang_from_env(void)                  the environment's language; 0 (English) if none
 *   int lang_from_args(int argc, char **argv)  --lang X or --lang=X, before the full parse; -1
 *   bool lang_use(int lang, const char *data_dir, char *err, size_t errsz)
 *       switch every later _() to lang; a missing or bad catalog is said and English stays
 *   int lang_current(void)
 */
#ifndef ATTN_LANG_H
#define ATTN_LANG_H

#include <stdbool.h>
#include <stddef.h>

int lang_count(void);
const char *lang_code(int lang);
const char *lang_name(int lang);
int lang_parse(const char *s);
int lang_from_env(void);
int lang_from_args(int argc, char **argv);
bool lang_use(int lang, const char *data_dir, char *err, size_t errsz);
int lang_current(void);

#endif
