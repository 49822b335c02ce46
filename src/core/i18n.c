/* The installed lookup behind _(); see i18n.h. */
#include "i18n.h"

#include <stddef.h>

static I18n_Lookup current;

const char *i18n_text(const char *msgid) {
    if (!current.text || !msgid || !msgid[0]) return msgid; /* "" is the catalog's header */
    const char *t = current.text(current.ctx, msgid);
    return t && t[0] ? t : msgid;
}

const char *i18n_plural(const char *one, const char *many, unsigned long n) {
    if (current.plural) {
        const char *t = current.plural(current.ctx, one, many, n);
        if (t && t[0]) return t;
    }
    return n == 1 ? one : many;
}

void i18n_set(const I18n_Lookup *lookup) {
    current = lookup ? *lookup : (I18n_Lookup){0};
}
