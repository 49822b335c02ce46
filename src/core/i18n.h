/* One lookup for every user-visible string: the interface, --help, error
 * lines, the status line and the lesson menu all pass their English text
 * through _() (gettext's convention), and the platform layer installs what
 * answers it: glibc's gettext on the desktop, a .mo reader in the browser,
 * nothing for English. Maths, token text and numbers are never passed
 * through it: they keep their form in every language.
 *
 *   const char *i18n_text(const char *msgid)            _(msgid)
 *       the translation, or msgid itself when there is none
 *   const char *i18n_plural(const char *one, const char *many, unsigned long n)
 *       the form for n (gettext's ngettext)
 *   void i18n_set(const I18n_Lookup *lookup)
 *       install a lookup (copied); NULL goes back to English
 *   N_(msgid)
 *       marks a string for the catalog where it is not translated yet (a table), so xgettext
 *       finds it; translate it with _() where it is shown
 *
 * The lookup is set by the main thread between frames; worker threads do not
 * translate.
 */
#ifndef ATTN_I18N_H
#define ATTN_I18N_H

typedef struct I18n_Lookup {
    void *ctx;
    const char *(*text)(void *ctx, const char *msgid);
    const char *(*plural)(void *ctx, const char *one, const char *many, unsigned long n);
} I18n_Lookup;

const char *i18n_text(const char *msgid);
const char *i18n_plural(const char *one, const char *many, unsigned long n);
void i18n_set(const I18n_Lookup *lookup);

#define _(msgid)  i18n_text(msgid)
#define N_(msgid) msgid

#endif
